//! `robodrome loadtest`: many WebSocket clients playing Autoscooter against a running server.
//!
//! Every client is a guest holding one seat; clients choose their moves among the legal ones
//! their own view lists (`choices`, as the browser's table offers only those), a share of them
//! (`--illegal-share`) deliberately refused ones instead, and report the time from sending an
//! action to receiving the update that broadcasts it (p50/p99), the server's memory per live
//! game (from `/metrics`), and how long the server took to resume games when it last started.

use crate::client::{self, Error, Socket};
use engine::Rng;
use protocol::ClientMsg;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// Options of `robodrome loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Games to play at once.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Human seats (clients) per game, 2 to 8.
    #[arg(long, default_value_t = 4)]
    pub seats: usize,
    /// Stop after this many seconds (games still running stay running, to measure a restart).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Each client waits this long before each action (think time), in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// Seed of the clients' choices (and of game i: seed + i; the games are practice games, the
    /// only ones that may choose their seed).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads of the clients' runtime (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Each game's clients connect (lobby and sockets) from a loopback address of the game's
    /// own, 127.3.x.y: through a balancer that picks the node by source address
    /// (`scripts/cluster` in `shards` mode), all of a game's clients reach one node.
    #[arg(long)]
    pub address_per_game: bool,
    /// Each game's timer (`timer_secs` of its lobby request: the time per decision before the
    /// server decides for whoever still owes). Games set up long before their clients connect
    /// (thousands of games on a loaded cluster) need a long one, or timers end them first.
    #[arg(long, default_value_t = 30)]
    pub timer_secs: u32,
    /// Games set up at once (lobby requests in flight: guests, create, joins).
    #[arg(long, default_value_t = SETUP_AT_ONCE)]
    pub setup_at_once: usize,
    /// The share of actions (0 to 1) sent as moves the rules refuse (a start onto the car's own
    /// hex), so that the refusal path stays under load; the others are chosen among the legal
    /// ones the view lists. 0: every action legal, as from the browser's table (until
    /// 2026-11-26 the clients drew random starts, about a fifth of all actions refused:
    /// docs/benchmarks.md "CPU per accepted action, round 6").
    #[arg(long, default_value_t = 0.0)]
    pub illegal_share: f64,
    /// Ask for the whole view in every update, as clients did before `?views=changed`
    /// (docs/protocol.md "Views only when they changed"); by default the clients ask for
    /// views only when they changed, as the browser does, and keep the last one.
    #[arg(long)]
    pub whole_views: bool,
}

/// Games whose lobby setup runs at once by default (`--setup-at-once`).
pub const SETUP_AT_ONCE: usize = 32;

/// The local address of game `g`'s clients (`--address-per-game`).
fn game_ip(args: &Args, g: usize) -> Option<std::net::IpAddr> {
    let n = g + 1;
    args.address_per_game
        .then(|| std::net::Ipv4Addr::new(127, 3, (n >> 8) as u8, (n & 0xff) as u8).into())
}

pub fn run_blocking(args: Args) -> Result<(), Error> {
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if args.threads > 0 {
        rt.worker_threads(args.threads);
    }
    rt.enable_all().build()?.block_on(run(args)).map(|_| ())
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    /// Actions sent (accepted or refused).
    sent: u64,
    errors: std::collections::BTreeMap<String, u64>,
    finished: u64,
}

async fn metric(addr: SocketAddr, name: &str) -> Result<f64, Error> {
    let (_, m) = client::http(addr, "GET", "/metrics", None, None).await?;
    let text = m.as_str().unwrap_or_default().to_string();
    text.lines()
        .find_map(|l| {
            l.strip_prefix(name)
                .and_then(|r| r.strip_prefix(' '))
                .and_then(|v| v.trim().parse().ok())
        })
        .ok_or_else(|| format!("no metric {name}").into())
}

/// What a run measured that its callers check (the rest is printed).
#[derive(Clone, Debug)]
pub struct Report {
    /// The games set up, by game number (game `g` has seed `seed + g`).
    pub games: Vec<String>,
    /// Actions the clients sent in the window, and of those the server refused (its counters
    /// over the window: stored log entries, timer expiries included, and refused actions).
    pub sent: u64,
    pub accepted: f64,
    pub refused: f64,
    /// Live games at the server that answered `/metrics`, at the start and at the end of the
    /// measured window.
    pub live_start: f64,
    pub live_end: f64,
}

pub async fn run(args: Args) -> Result<Report, Error> {
    let addr = args.addr;
    let seats = args.seats.clamp(2, 8);
    let rss0 = metric(addr, "robodrome_process_resident_bytes").await?;
    let live0 = metric(addr, "robodrome_games_live").await?;
    eprintln!("loadtest: {} games × {seats} clients against {addr}", args.games);
    let t0 = Instant::now();
    // Lobby: one creator and seats-1 joiners per game, `setup_at_once` games at a time (each
    // game's requests in order); the plan is in game order whatever order they finish in.
    let at_once = Arc::new(tokio::sync::Semaphore::new(args.setup_at_once.max(1)));
    let mut setups = tokio::task::JoinSet::new();
    for g in 0..args.games {
        let (at_once, from) = (at_once.clone(), game_ip(&args, g));
        let (seed, timer) = (args.seed + g as u64, args.timer_secs);
        setups.spawn(async move {
            let _turn = at_once.acquire_owned().await.map_err(|e| e.to_string())?;
            setup_game(addr, from, g, seats, seed, timer).await.map(|p| (g, p))
        });
    }
    let mut plan = Vec::with_capacity(args.games);
    while let Some(r) = setups.join_next().await {
        plan.push(r.map_err(|e| e.to_string())??);
    }
    plan.sort_unstable_by_key(|(g, _)| *g);
    let plan: Vec<(String, Vec<String>)> = plan.into_iter().map(|(_, p)| p).collect();
    let setup_s = t0.elapsed().as_secs_f64();
    let tally = Arc::new(Mutex::new(Tally::default()));
    // Clients play as soon as they are connected; the measured window starts when all are,
    // and lasts `seconds`.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let window = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut tasks = tokio::task::JoinSet::new();
    let mut connected = 0usize;
    for (g, (id, tokens)) in plan.iter().enumerate() {
        for (s, t) in tokens.iter().enumerate() {
            let path = if args.whole_views {
                format!("/ws/games/{id}")
            } else {
                format!("/ws/games/{id}?views=changed")
            };
            let sock = Socket::connect_path(addr, game_ip(&args, g), &path, Some(t)).await?;
            connected += 1;
            let tally = tally.clone();
            let rng = Rng::seeded(args.seed ^ ((g as u64) << 8) ^ s as u64);
            let think = Duration::from_millis(args.think_ms);
            let (stopped, window) = (stopped.clone(), window.clone());
            let illegal = args.illegal_share.clamp(0.0, 1.0);
            tasks.spawn(async move {
                play(sock, s as u8, rng, think, illegal, stopped, window, tally).await
            });
        }
    }
    let connect_s = t0.elapsed().as_secs_f64() - setup_s;
    let (actions0, refused0) = (
        metric(addr, "robodrome_actions_total").await?,
        metric(addr, "robodrome_actions_rejected_total").await?,
    );
    window.store(true, std::sync::atomic::Ordering::Relaxed);
    let play0 = Instant::now();
    let stop_at = play0 + Duration::from_secs(args.seconds);
    // Measure memory while every game is live.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss1 = metric(addr, "robodrome_process_resident_bytes").await?;
    let live1 = metric(addr, "robodrome_games_live").await?;
    let conns = metric(addr, "robodrome_connections").await?;
    tokio::time::sleep_until(stop_at.into()).await;
    let live_end = metric(addr, "robodrome_games_live").await?;
    window.store(false, std::sync::atomic::Ordering::Relaxed);
    let play_s = play0.elapsed().as_secs_f64();
    let accepted = metric(addr, "robodrome_actions_total").await? - actions0;
    let refused = metric(addr, "robodrome_actions_rejected_total").await? - refused0;
    let _ = stop.send(true);
    while let Some(r) = tasks.join_next().await {
        if let Ok(Err(e)) = r {
            eprintln!("loadtest: a client failed: {e}");
        }
    }
    let resume = metric(addr, "robodrome_resume_seconds").await.unwrap_or(f64::NAN);
    let resumed = metric(addr, "robodrome_resumed_games").await.unwrap_or(f64::NAN);
    let mut t = tally.lock().await;
    t.latencies_us.sort_unstable();
    let pct = |p: f64| -> f64 {
        if t.latencies_us.is_empty() {
            return f64::NAN;
        }
        let i = ((t.latencies_us.len() as f64 - 1.0) * p).round() as usize;
        t.latencies_us[i] as f64 / 1000.0
    };
    let new_games = (live1 - live0).max(1.0);
    println!("clients connected        {connected} ({conns} open at the server)");
    println!(
        "games live               {live1} ({new_games} new) at the window's start, {live_end} at its end (of {} set up; timer {} s)",
        args.games, args.timer_secs
    );
    println!("lobby setup              {setup_s:.1} s");
    println!("connecting               {connect_s:.1} s (clients play as they connect)");
    println!("measured window          {play_s:.1} s (every client connected)");
    println!(
        "actions sent             {} ({:.0}/s); at the server: {accepted} accepted ({:.0}/s), {refused} refused",
        t.sent,
        t.sent as f64 / play_s,
        accepted / play_s
    );
    println!("actions measured         {}", t.latencies_us.len());
    println!("action→broadcast p50     {:.2} ms", pct(0.50));
    println!("action→broadcast p99     {:.2} ms", pct(0.99));
    println!("action→broadcast max     {:.2} ms", pct(1.0));
    println!("refused, by rule         {:?} (illegal share {})", t.errors, args.illegal_share);
    println!("games finished           {}", t.finished / seats as u64);
    println!("server memory            {:.1} MB → {:.1} MB", rss0 / 1e6, rss1 / 1e6);
    println!(
        "memory per live game     {:.1} KB (with its {seats} connections)",
        (rss1 - rss0) / new_games / 1e3
    );
    println!("last start: resumed      {resumed} games in {:.3} s", resume);
    let games = plan.into_iter().map(|(id, _)| id).collect();
    let sent = t.sent;
    Ok(Report { games, sent, accepted, refused, live_start: live1, live_end })
}

/// Game `g`'s lobby setup: `seats` guests (from the game's own address if any), the first
/// creates the practice game with seed `seed` and timer `timer_secs`, the others join. Returns
/// the game's id and its players' tokens, by seat.
async fn setup_game(
    addr: SocketAddr,
    from: Option<std::net::IpAddr>,
    g: usize,
    seats: usize,
    seed: u64,
    timer_secs: u32,
) -> Result<(String, Vec<String>), Error> {
    let mut tokens = Vec::new();
    for s in 0..seats {
        let body = json!({ "name": format!("load-{g}-{s}") });
        let (st, v) =
            client::http_from(addr, from, "POST", "/api/guest", None, Some(&body)).await?;
        let t = v["token"].as_str().filter(|_| st == 201);
        tokens.push(t.ok_or_else(|| format!("POST /api/guest: {st} {v}"))?.to_string());
    }
    let mut seat_list = vec!["me".to_string()];
    seat_list.resize(seats, "open".into());
    let body = json!({"game": "autoscooter", "seats": seat_list, "seed": seed, "practice": true, "timer_secs": timer_secs});
    let (st, info) =
        client::http_from(addr, from, "POST", "/api/games", Some(&tokens[0]), Some(&body)).await?;
    let id = info["id"].as_str().filter(|_| st == 201);
    let id = id.ok_or_else(|| format!("POST /api/games: {st} {info}"))?.to_string();
    for t in &tokens[1..] {
        let path = format!("/api/games/{id}/join");
        let (st, v) = client::http_from(addr, from, "POST", &path, Some(t), None).await?;
        if st != 200 {
            return Err(format!("POST {path}: {st} {v}").into());
        }
    }
    Ok((id, tokens))
}

/// What a load client reads of every frame: its type and a few numbers. Everything else
/// (events, the view) is skipped without being built; the view is parsed only to act.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: Kind,
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    waiting: Vec<u8>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    /// Whether the frame carries a view (an update without one keeps the last: the client
    /// asked for views only when they changed). Skipped, not built.
    #[serde(default)]
    view: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Welcome,
    Update,
    Ack,
    Error,
    Over,
    #[serde(other)]
    Other,
}

/// One client: acts when its seat owes a decision, times each action until its broadcast.
#[allow(clippy::too_many_arguments)]
async fn play(
    mut sock: Socket,
    seat: u8,
    mut rng: Rng,
    think: Duration,
    illegal_share: f64,
    mut stopped: tokio::sync::watch::Receiver<bool>,
    window: Arc<std::sync::atomic::AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) -> Result<(), Error> {
    let mut sent: Option<(u64, Instant)> = None;
    let mut acked: Option<(u64, Instant)> = None;
    let mut next = 0u64;
    // The last welcome or update with a view as received, and who the last frame says owes a
    // decision (an update without a view leaves the view as it was).
    let mut last_frame = None;
    let mut last_waiting = Vec::new();
    let mut lat = Vec::new();
    let mut errors = std::collections::BTreeMap::new();
    let mut finished = 0;
    let mut sent_n = 0u64;
    loop {
        let text = tokio::select! {
            t = sock.recv_text() => t,
            _ = stopped.changed() => break,
        };
        let Some(text) = text? else { break };
        let measuring = window.load(std::sync::atomic::Ordering::Relaxed);
        let head: Head = serde_json::from_str(&text)?;
        let mut act_now = false;
        match head.kind {
            Kind::Welcome => {
                last_waiting = head.waiting;
                last_frame = Some(text);
                act_now = true;
            }
            Kind::Update => {
                if let Some((s, t)) = acked
                    && head.seq >= s
                {
                    if measuring {
                        lat.push(t.elapsed().as_micros() as u64);
                    }
                    acked = None;
                }
                last_waiting = head.waiting;
                if head.view.is_some() {
                    last_frame = Some(text);
                }
                act_now = sent.is_none();
            }
            Kind::Ack => {
                if let Some((i, t)) = sent
                    && head.id == Some(i)
                {
                    acked = Some((head.seq, t));
                    sent = None;
                }
            }
            Kind::Error => {
                let key = head.rule.or(head.code).unwrap_or_default();
                *errors.entry(key).or_insert(0) += 1;
                sent = None;
                act_now = true;
            }
            Kind::Over => {
                finished += 1;
                break;
            }
            Kind::Other => {}
        }
        if act_now
            && sent.is_none()
            && last_waiting.contains(&seat)
            && let Some(frame) = &last_frame
            && let Some(action) = autoscooter_client_move(
                &serde_json::from_str::<ViewOf>(frame)?.view,
                seat,
                &mut rng,
                illegal_share,
            )
        {
            tokio::time::sleep(think).await;
            next += 1;
            sock.send(&ClientMsg::Act { seat: None, action, id: Some(next) }).await?;
            sent = Some((next, Instant::now()));
            sent_n += measuring as u64;
        }
    }
    sock.close().await;
    let mut t = tally.lock().await;
    t.latencies_us.extend(lat);
    t.sent += sent_n;
    for (k, n) in errors {
        *t.errors.entry(k).or_insert(0) += n;
    }
    t.finished += finished;
    Ok(())
}

/// The few parts of an Autoscooter view (`docs/autoscooter.md`) a load client reads to act;
/// the rest of the view is skipped.
#[derive(serde::Deserialize)]
pub struct AsView {
    #[serde(default)]
    cars: Vec<AsCar>,
    #[serde(default)]
    plots: Vec<AsPlot>,
    waiting: Option<AsWaiting>,
    /// What the seat may choose now (`autoscooter::choices`), in its own view only.
    #[serde(default)]
    choices: Option<AsChoices>,
}

/// The parts of `autoscooter::choices::Choices` a load client picks from.
#[derive(serde::Deserialize)]
struct AsChoices {
    #[serde(default)]
    plots: Vec<AsPlotChoice>,
    #[serde(default)]
    wild: Option<Vec<autoscooter::Letter>>,
    #[serde(default)]
    start: Option<AsStartChoice>,
    #[serde(default)]
    payments: Vec<Value>,
}

#[derive(serde::Deserialize)]
struct AsPlotChoice {
    car: u8,
    numbers: Vec<u8>,
    letters: Vec<autoscooter::Letter>,
}

#[derive(serde::Deserialize)]
struct AsStartChoice {
    car: u8,
    cells: Vec<AsStartCell>,
}

#[derive(serde::Deserialize)]
struct AsStartCell {
    to: grid::Hex,
    facings: Vec<grid::HexDir>,
}

#[derive(serde::Deserialize)]
struct AsCar {
    car: u8,
    owner: Option<u8>,
    at: grid::Hex,
    speed: u8,
    used_numbers: Vec<u8>,
}

#[derive(serde::Deserialize)]
struct AsPlot {
    car: u8,
}

#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum AsWaiting {
    Plan,
    Start { car: u8 },
    Payment { take: bool, options: Vec<Value> },
}

#[derive(serde::Deserialize)]
struct ViewOf {
    view: AsView,
}

/// A load client's move: with probability `illegal_share` one the rules refuse
/// ([`autoscooter_refused_move`]), otherwise one of the legal moves its view lists
/// ([`autoscooter_legal_move`]; [`autoscooter_move`] if the view lists none).
pub fn autoscooter_client_move(
    view: &AsView,
    seat: u8,
    rng: &mut Rng,
    illegal_share: f64,
) -> Option<Value> {
    let draw = rng.below(1 << 20) as f64 / f64::from(1u32 << 20);
    if illegal_share > 0.0 && draw < illegal_share {
        return autoscooter_refused_move(view, seat);
    }
    autoscooter_legal_move(view, rng).or_else(|| autoscooter_move(view, seat, rng))
}

/// One of the legal moves the seat's own view lists (`choices`: a plot's unused number and
/// allowed letter, the wild car's letter, a free hex and facing for a start, a payment), drawn
/// at random as a player clicking the table's offered controls would; `None` when the view
/// lists nothing.
pub fn autoscooter_legal_move(view: &AsView, rng: &mut Rng) -> Option<Value> {
    use autoscooter::{Action, LetterInput};
    let c = view.choices.as_ref()?;
    if let Some(p) = c.plots.first() {
        let number = *rng.pick(&p.numbers)?;
        let letter = if p.letters.is_empty() { None } else { Some(*rng.pick(&p.letters)?) };
        return serde_json::to_value(Action::plot(p.car, number, letter)).ok();
    }
    if let Some(w) = c.wild.as_ref().filter(|w| !w.is_empty()) {
        let letter = *rng.pick(w)?;
        return serde_json::to_value(Action::PlotWild { letter: Some(LetterInput::Valid(letter)) })
            .ok();
    }
    if let Some(s) = &c.start {
        let cell = rng.pick(&s.cells)?;
        let facing = *rng.pick(&cell.facings)?;
        return serde_json::to_value(Action::Start { car: s.car, to: cell.to, facing }).ok();
    }
    rng.pick(&c.payments).cloned()
}

/// A move the rules refuse whatever the position: a start of one of the seat's cars onto its
/// own hex (AS-5.4 allows only a free hex beside it; and no start is owed while planning or
/// paying).
pub fn autoscooter_refused_move(view: &AsView, seat: u8) -> Option<Value> {
    let c = view.cars.iter().find(|c| c.owner == Some(seat))?;
    let refused = autoscooter::Action::Start { car: c.car, to: c.at, facing: grid::HexDir::ALL[0] };
    serde_json::to_value(refused).ok()
}

/// A move for `seat` chosen from its own Autoscooter view (a client's job, not the server's):
/// an unused number and an allowed letter for an unplotted car, a random start (the rules
/// refuse a bad one and the client tries again), or the first payment offered.
pub fn autoscooter_move(view: &AsView, seat: u8, rng: &mut Rng) -> Option<Value> {
    use autoscooter::{Action, Letter};
    match view.waiting.as_ref()? {
        AsWaiting::Plan => {
            let car = view
                .cars
                .iter()
                .find(|c| c.owner == Some(seat) && !view.plots.iter().any(|p| p.car == c.car))?;
            let free: Vec<u8> = autoscooter::sheet::column(car.car)
                .into_iter()
                .filter(|n| !car.used_numbers.contains(n))
                .collect();
            let number = *rng.pick(&free)?;
            let letter = if car.speed == 0 {
                None
            } else {
                let (lo, hi) = Letter::range_at(car.speed);
                Letter::from_index(lo + rng.below((hi - lo + 1) as u32) as u8)
            };
            serde_json::to_value(Action::plot(car.car, number, letter)).ok()
        }
        AsWaiting::Start { car } => {
            let c = view.cars.iter().find(|c| c.car == *car)?;
            let d = grid::HexDir::ALL[rng.index(6)];
            let facing = d.turn(rng.below(5) as i32 - 2);
            serde_json::to_value(Action::Start { car: *car, to: c.at.neighbour(d), facing }).ok()
        }
        AsWaiting::Payment { take, options } => {
            let colours = options.first()?.clone();
            let ty = if *take { "take" } else { "pay" };
            Some(json!({"type": ty, "colours": colours}))
        }
    }
}
