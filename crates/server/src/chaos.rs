//! `robodrome chaos`: the cluster test of issue 19 (docs/deployment.md "The chaos test",
//! `scripts/chaos`). Against a cluster started by `scripts/cluster` (any number of nodes behind
//! its balancer), it plays many bot games and a few games of human-like socket clients, kills
//! a random node with SIGKILL every few seconds and starts it again, and then checks:
//!
//! * every game finished;
//! * each game's stored result is what an independent replay of its stored log gives (the
//!   registry's engine, here in the driver: `/api/games/{id}/replay` gives setup, seed, log);
//! * every action a client was acknowledged is in the log at the acknowledged place, from that
//!   seat, as sent ([`crate::soak::json_subset`]);
//! * every frame a seat's or a spectator's connection received is exactly what the engine lets
//!   that observer see at that point (the view at its `seq`, and only the events whose audience
//!   admits it: the check of `tests/it/secrecy.rs`), whichever node sent it, before or after a
//!   takeover;
//! * no game was held by two nodes at once: the leases' grant history (`lease_history`, read
//!   from PostgreSQL with `--pg`) has for every game epochs 1, 2, 3, … granted in time order
//!   ([`crate::cluster::disordered_grants`]); when the server took no lease (a server without
//!   the cluster's leases, or `--pg` not given) the check says it was skipped.
//!
//! The driver speaks only the public HTTP/WebSocket API through the balancer, so it runs
//! against any topology; it kills and restarts nodes through the cluster script
//! (`scripts/cluster kill K`, `revive K`, `nodes`).

use crate::client::{self, Error, Socket};
use engine::{Audience, Observer, Rng, Seat};
use protocol::ClientMsg;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Options of `robodrome chaos`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The balancer's address (scripts/cluster prints it).
    #[arg(long, default_value = "127.0.0.1:18400")]
    pub addr: SocketAddr,
    /// The cluster script that lists, kills and revives nodes.
    #[arg(long, default_value = "scripts/cluster")]
    pub cluster: PathBuf,
    /// Bot games (server bots: a heuristic bot against random ones).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Of those, games played by human-like socket clients (two seats each, plus a bot).
    #[arg(long, default_value_t = 10)]
    pub human_games: usize,
    /// A spectator watches every Nth bot game (0: none).
    #[arg(long, default_value_t = 4)]
    pub watch_every: usize,
    /// The games of the bot games, comma-separated, taken in turn (each game's own bots play).
    #[arg(long, value_delimiter = ',', default_value = "autoscooter,bumping-bots,roborally")]
    pub kinds: Vec<String>,
    /// The games of the human-like clients (their random choices drive a Bumping Bots race
    /// for hundreds of turns: Autoscooter by default).
    #[arg(long, value_delimiter = ',', default_value = "autoscooter")]
    pub human_kinds: Vec<String>,
    /// Kills required while games were running (the run fails with fewer).
    #[arg(long, default_value_t = 10)]
    pub kills: usize,
    /// Mean time between two kills, in milliseconds (each interval drawn from half to 1.5×).
    #[arg(long, default_value_t = 3000)]
    pub kill_every_ms: u64,
    /// A killed node stays down up to this long before it is started again, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub down_max_ms: u64,
    /// The planning timer of the human-like clients' games, in seconds.
    #[arg(long, default_value_t = 10)]
    pub timer_secs: u32,
    /// A human-like client thinks up to this long before each action, in milliseconds.
    #[arg(long, default_value_t = 300)]
    pub think_max_ms: u64,
    /// The cluster's PostgreSQL database (for the leases' history; scripts/cluster prints it as
    /// ROBODROME_CLUSTER_DB). Without it the lease check is skipped, saying so.
    #[arg(long)]
    pub pg: Option<String>,
    /// Give up waiting for the games after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub timeout_secs: u64,
    /// The RoboRally course of RoboRally games (`--kinds roborally`): a short one.
    #[arg(long, default_value = "first-steps")]
    pub roborally_course: String,
    /// Games created at once through the balancer before the play starts.
    #[arg(long, default_value_t = 8)]
    pub setup_concurrency: usize,
    /// Seed of the games (practice games choose their seeds), the kills and the clients.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Short games: RoboRally on `--roborally-course` (default First Steps, its smallest course:
/// a race of a few turns), Bumping Bots over one lap (the shortest race offered, `LAPS`), Autoscooter as it
/// is (its one rink).
fn small(body: &mut Value, args: &Args) {
    if body["game"] == "roborally" {
        body["board"] = json!(args.roborally_course);
    } else if body["game"] == "bumping-bots" {
        body["options"] = json!({"laps": 1});
    }
}

/// Runs the test on a runtime of its own; the report, or an error if it could not run at all.
pub fn run_blocking(args: Args) -> Result<Report, Error> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(run(args))
}

/// What the run found.
#[derive(Debug, Default)]
pub struct Report {
    pub nodes: usize,
    pub games: usize,
    pub finished: usize,
    pub seconds: f64,
    /// Kills, and of those the ones made while games were running.
    pub kills: usize,
    pub kills_in_play: usize,
    pub kills_wanted: usize,
    pub replayed: usize,
    pub log_entries: usize,
    pub acked_checked: usize,
    pub frames_checked: usize,
    /// Frames whose observer's view differed from the omniscient one (secrets were there to leak).
    pub frames_with_secrets: usize,
    pub reconnects: u64,
    /// Grants in the leases' history for these games, and of those the takeovers (epoch > 1).
    pub lease_grants: Option<(usize, usize)>,
    /// Why the lease check was skipped.
    pub lease_skipped: Option<String>,
    pub failures: Vec<String>,
}

impl Report {
    pub fn print(&self) {
        println!("nodes                    {}", self.nodes);
        println!(
            "games                    {} ({} finished) in {:.1} s",
            self.games, self.finished, self.seconds
        );
        println!(
            "kills (SIGKILL)          {} ({} while games ran; {} wanted)",
            self.kills, self.kills_in_play, self.kills_wanted
        );
        println!("client reconnections     {}", self.reconnects);
        println!(
            "replayed from their logs {} games, {} log entries",
            self.replayed, self.log_entries
        );
        println!("acknowledged actions     {} found in the logs", self.acked_checked);
        println!(
            "frames checked           {} ({} held another observer's secrets to leak)",
            self.frames_checked, self.frames_with_secrets
        );
        if let Some((grants, takeovers)) = self.lease_grants {
            println!("lease history            {grants} grants, {takeovers} takeovers checked");
        }
        if let Some(why) = &self.lease_skipped {
            println!("lease history            SKIPPED: {why}");
        }
        for f in self.failures.iter().take(50) {
            println!("FAILED: {f}");
        }
        if self.failures.len() > 50 {
            println!("FAILED: … {} more", self.failures.len() - 50);
        }
    }
}

/// An acknowledged action: step `seq` of its game's log must be `seat`'s `action`.
struct Acked {
    game: usize,
    seq: u64,
    seat: u8,
    action: Value,
}

/// What the clients recorded, shared by their tasks.
#[derive(Default)]
struct Seen {
    acked: Vec<Acked>,
    /// Every welcome and update received.
    frames: Vec<Frame>,
}

struct Run {
    args: Args,
    ids: Vec<String>,
    seen: Mutex<Seen>,
    /// Games known finished (by the poller).
    finished: Vec<AtomicBool>,
    reconnects: AtomicU64,
    stop: AtomicBool,
    started: Instant,
}

impl Run {
    fn all_finished(&self) -> bool {
        self.finished.iter().all(|f| f.load(Relaxed))
    }
    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Run the cluster script (`kill K`, `revive K`, `nodes`); its standard output.
async fn script(path: &std::path::Path, args: &[&str]) -> Result<String, Error> {
    let (path, args): (PathBuf, Vec<String>) =
        (path.to_path_buf(), args.iter().map(|a| a.to_string()).collect());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(&path)
            .args(&args)
            .stderr(std::process::Stdio::inherit())
            .output()
    })
    .await??;
    if !out.status.success() {
        return Err(format!("the cluster script failed ({})", out.status).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The cluster's node numbers (`scripts/cluster nodes`: `K ADDR PID` lines).
async fn nodes(path: &std::path::Path) -> Result<Vec<String>, Error> {
    let out = script(path, &["nodes"]).await?;
    let v: Vec<String> =
        out.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect();
    if v.is_empty() {
        return Err("the cluster has no nodes: scripts/cluster start first".into());
    }
    Ok(v)
}

/// An HTTP request through the balancer, tried again while the cluster answers 502/503 or the
/// connection fails (a node being killed), up to `within`.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    want: u16,
    within: Duration,
) -> Result<Value, Error> {
    let until = Instant::now() + within;
    loop {
        let r = client::http(addr, method, path, token, body).await;
        match r {
            Ok((s, v)) if s == want => return Ok(v),
            Ok((s, v)) if !(500..600).contains(&s) || Instant::now() > until => {
                return Err(format!("{method} {path}: {s} {v}").into());
            }
            Err(e) if Instant::now() > until => return Err(e),
            _ => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

pub async fn run(args: Args) -> Result<Report, Error> {
    let addr = args.addr;
    let node_list = nodes(&args.cluster).await?;
    let mut rng = Rng::seeded(args.seed);
    let t0 = Instant::now();
    let host = client::guest(addr, "chaos").await?;
    // Games: `human_games` of two socket clients and a bot, the rest bots only. Every choice
    // (kind, seats, seed) is drawn here, in game order, so the run's games depend only on
    // `--seed`; they are then created `--setup-concurrency` at a time.
    let mut plans = Vec::new();
    for i in 0..args.games {
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        plans.push(if i < args.human_games {
            let kind = &args.human_kinds[i % args.human_kinds.len()];
            let mut body = json!({"game": kind, "seats": ["me", "open", "bot:heuristic"],
                "seed": seed, "practice": true, "timer_secs": args.timer_secs});
            small(&mut body, &args);
            (body, true)
        } else {
            let kind = &args.kinds[i % args.kinds.len()];
            // RoboRally's short races are of two or three robots; the others two to four.
            let most = if kind == "roborally" { 2 } else { 3 };
            let n = 2 + rng.below(most) as usize;
            let mut seats = vec!["bot:heuristic".to_string()];
            seats.resize(n, "bot:random".into());
            let mut body = json!({"game": kind, "seats": seats, "seed": seed, "practice": true});
            small(&mut body, &args);
            (body, false)
        });
    }
    let gate = Arc::new(tokio::sync::Semaphore::new(args.setup_concurrency.max(1)));
    let mut making = tokio::task::JoinSet::new();
    for (i, (body, human)) in plans.into_iter().enumerate() {
        let (gate, host) = (gate.clone(), host.clone());
        making.spawn(async move {
            let _permit = gate.acquire_owned().await;
            let r: Result<(String, Option<String>), Error> = async {
                let setup_wait = Duration::from_secs(30);
                let g =
                    request(addr, "POST", "/api/games", Some(&host), Some(&body), 201, setup_wait)
                        .await?;
                let id = g["id"].as_str().ok_or("no id")?.to_string();
                let joiner = if human {
                    let joiner = client::guest(addr, &format!("chaos-{i}")).await?;
                    let join = format!("/api/games/{id}/join");
                    request(addr, "POST", &join, Some(&joiner), None, 200, setup_wait).await?;
                    Some(joiner)
                } else {
                    None
                };
                Ok((id, joiner))
            }
            .await;
            (i, r)
        });
    }
    let mut made: Vec<Option<(String, Option<String>)>> = vec![None; args.games];
    while let Some(r) = making.join_next().await {
        let (i, r) = r?;
        made[i] = Some(r?);
    }
    let mut ids = Vec::new();
    let mut humans: Vec<(usize, Vec<(u8, String)>)> = Vec::new();
    let mut watched = Vec::new();
    for (i, m) in made.into_iter().enumerate() {
        let (id, joiner) = m.ok_or("a game was not created")?;
        match joiner {
            Some(joiner) => humans.push((ids.len(), vec![(0, host.clone()), (1, joiner)])),
            None if args.watch_every > 0 && i % args.watch_every == 0 => watched.push(ids.len()),
            None => {}
        }
        ids.push(id);
    }
    eprintln!(
        "chaos: {} games ({} with socket clients, {} watched) on {} node(s) behind {addr}",
        ids.len(),
        humans.len(),
        watched.len(),
        node_list.len()
    );
    let run = Arc::new(Run {
        finished: ids.iter().map(|_| AtomicBool::new(false)).collect(),
        args: args.clone(),
        ids,
        seen: Mutex::default(),
        reconnects: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        started: t0,
    });
    let mut tasks = tokio::task::JoinSet::new();
    for (g, seats) in humans {
        for (seat, token) in seats {
            let (run, rng) = (run.clone(), Rng::seeded(rng.next_u64()));
            tasks.spawn(async move { connection(&run, g, Some((seat, token)), rng).await });
        }
    }
    for g in watched {
        let (run, rng) = (run.clone(), Rng::seeded(rng.next_u64()));
        tasks.spawn(async move { connection(&run, g, None, rng).await });
    }
    let poller = tokio::spawn(poll_finished(run.clone()));
    let killer = {
        let (run, rng) = (run.clone(), Rng::seeded(rng.next_u64()));
        tokio::spawn(async move { kill_nodes(&run, rng).await })
    };
    let deadline = t0 + Duration::from_secs(args.timeout_secs);
    while !run.all_finished() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    run.stop.store(true, Relaxed);
    let (kills, kills_in_play, kill_error) = killer.await?;
    poller.abort();
    // Every node up again (a kill may have been the last thing that happened).
    for k in &node_list {
        script(&run.args.cluster, &["revive", k]).await?;
    }
    let clients_until = Instant::now() + Duration::from_secs(20);
    while !tasks.is_empty() && Instant::now() < clients_until {
        let _ = tokio::time::timeout(Duration::from_secs(1), tasks.join_next()).await;
    }
    tasks.abort_all();
    let seconds = t0.elapsed().as_secs_f64();

    let mut report = Report {
        nodes: node_list.len(),
        games: run.ids.len(),
        seconds,
        kills,
        kills_in_play,
        kills_wanted: args.kills,
        reconnects: run.reconnects.load(Relaxed),
        ..Report::default()
    };
    if let Some(e) = kill_error {
        report.failures.push(format!("killing nodes: {e}"));
    }
    if kills_in_play < args.kills {
        report.failures.push(format!(
            "only {kills_in_play} kills while games ran ({} wanted): longer games (serve --bot-delay-ms) or kills more often",
            args.kills
        ));
    }
    verify(&run, &mut report).await;
    match leases(&args, &run.ids, &mut report.failures).await {
        Ok(g) => report.lease_grants = Some(g),
        Err(why) => report.lease_skipped = Some(why),
    }
    Ok(report)
}

/// Ask for each unfinished game's status once a second, through the balancer.
async fn poll_finished(run: Arc<Run>) {
    loop {
        for (i, id) in run.ids.iter().enumerate() {
            if run.finished[i].load(Relaxed) {
                continue;
            }
            if let Ok((200, v)) =
                client::http(run.args.addr, "GET", &format!("/api/games/{id}"), None, None).await
                && v["status"] == "finished"
            {
                run.finished[i].store(true, Relaxed);
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Kill a random node every few seconds and start it again, until the games are over and
/// enough kills were made. Returns (kills, kills while games ran, an error of the script).
async fn kill_nodes(run: &Run, mut rng: Rng) -> (usize, usize, Option<String>) {
    let a = &run.args;
    let (mut kills, mut in_play) = (0, 0);
    loop {
        let span = a.kill_every_ms.max(2);
        let wait = span / 2 + rng.below(span as u32) as u64;
        let until = Instant::now() + Duration::from_millis(wait);
        while Instant::now() < until {
            if run.stop.load(Relaxed) || (run.all_finished() && in_play >= a.kills) {
                return (kills, in_play, None);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if run.all_finished() {
            // Nothing left to interrupt: more kills would prove nothing.
            return (kills, in_play, None);
        }
        let nodes = match nodes(&a.cluster).await {
            Ok(n) => n,
            Err(e) => return (kills, in_play, Some(e.to_string())),
        };
        let k = nodes[rng.index(nodes.len())].clone();
        if let Err(e) = script(&a.cluster, &["kill", &k]).await {
            return (kills, in_play, Some(e.to_string()));
        }
        kills += 1;
        in_play += 1;
        let unfinished = run.finished.iter().filter(|f| !f.load(Relaxed)).count();
        eprintln!(
            "chaos: kill {kills}: node {k} at {:.1} s ({unfinished} games unfinished)",
            run.started.elapsed().as_secs_f64()
        );
        tokio::time::sleep(Duration::from_millis(rng.below(a.down_max_ms as u32 + 1) as u64)).await;
        if let Err(e) = script(&a.cluster, &["revive", &k]).await {
            return (kills, in_play, Some(e.to_string()));
        }
    }
}

/// What a client reads of every frame.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    waiting: Vec<u8>,
    #[serde(default)]
    game: Option<String>,
}

/// One connection to game `g` through the balancer, reconnecting whenever it drops, until the
/// game is over: a seat's human-like client (acting from its own view with the soak's choices,
/// recording every ack) or, with `seat` `None`, a spectator. Every welcome and update received
/// is recorded for the secrecy check.
async fn connection(run: &Run, g: usize, seat: Option<(u8, String)>, mut rng: Rng) {
    let a = &run.args;
    let id = &run.ids[g];
    let observer = seat.as_ref().map_or(Observer::Spectator, |(s, _)| Observer::Seat(Seat(*s)));
    let token = seat.as_ref().map(|(_, t)| t.as_str());
    let mut next_id = 0u64;
    let mut first = true;
    while !run.stop.load(Relaxed) {
        if !first {
            run.reconnects.fetch_add(1, Relaxed);
            tokio::time::sleep(Duration::from_millis(100 + rng.below(400) as u64)).await;
        }
        first = false;
        let Ok(mut sock) = Socket::connect(a.addr, id, token).await else { continue };
        let mut kind = String::new();
        let mut last: Option<Value> = None;
        let mut waiting_me = false;
        let mut inflight: Option<(u64, Value)> = None;
        let mut tries = 0u32;
        let mut act_at: Option<Instant> = None;
        loop {
            let frame = tokio::select! {
                f = sock.recv_text() => f,
                _ = tokio::time::sleep_until(act_at.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600)).into()), if act_at.is_some() => {
                    act_at = None;
                    if let (Some((s, _)), Some(view), None) = (&seat, &last, &inflight)
                        && waiting_me
                        && let Some(action) = crate::soak::choose(&kind, view, *s, &mut rng, tries)
                    {
                        next_id += 1;
                        let msg = ClientMsg::Act { seat: None, action: action.clone(), id: Some(next_id) };
                        if sock.send(&msg).await.is_err() {
                            break;
                        }
                        inflight = Some((next_id, action));
                    }
                    continue;
                }
            };
            let Ok(Some(text)) = frame else { break };
            let Ok(head) = serde_json::from_str::<Head>(&text) else { continue };
            match head.kind.as_str() {
                "welcome" | "update" => {
                    if let Some(k) = head.game {
                        kind = k;
                    }
                    run.seen().frames.push((g, observer, text.to_string()));
                    let Some((s, _)) = &seat else { continue };
                    waiting_me = head.waiting.contains(s);
                    last = serde_json::from_str::<Value>(&text).ok().map(|mut v| v["view"].take());
                    tries = 0;
                    if waiting_me && inflight.is_none() {
                        let think = rng.below(a.think_max_ms as u32 + 1) as u64;
                        act_at = Some(Instant::now() + Duration::from_millis(think));
                    }
                }
                "ack" => {
                    if let (Some((s, _)), Some((_, action))) =
                        (&seat, inflight.take_if(|f| head.id == Some(f.0)))
                    {
                        run.seen().acked.push(Acked { game: g, seq: head.seq, seat: *s, action });
                    }
                }
                "error" => {
                    // A refusal of this client's action: another random choice, a few times.
                    let mine = inflight.take_if(|f| head.id == Some(f.0)).is_some();
                    tries += u32::from(mine);
                    if mine && waiting_me && tries < 20 {
                        act_at = Some(Instant::now() + Duration::from_millis(50));
                    }
                }
                "over" => {
                    sock.close().await;
                    return;
                }
                _ => {}
            }
        }
    }
}

/// The events of one log entry, each with its audience.
type Events = Vec<(Audience, Value)>;

/// Replay every game from its stored log and check results, acks and frames.
async fn verify(run: &Run, report: &mut Report) {
    let seen = std::mem::take(&mut *run.seen());
    let mut acked: BTreeMap<usize, Vec<&Acked>> = BTreeMap::new();
    for a in &seen.acked {
        acked.entry(a.game).or_default().push(a);
    }
    let mut frames: BTreeMap<usize, Vec<&Frame>> = BTreeMap::new();
    for f in &seen.frames {
        frames.entry(f.0).or_default().push(f);
    }
    for (g, id) in run.ids.iter().enumerate() {
        let path = format!("/api/games/{id}/replay");
        let r = match request(run.args.addr, "GET", &path, None, None, 200, Duration::from_secs(10))
            .await
        {
            Ok(r) => r,
            Err(e) => {
                report.failures.push(format!("game {g} ({id}): not finished or unreadable: {e}"));
                continue;
            }
        };
        report.finished += 1;
        let acked = acked.remove(&g).unwrap_or_default();
        let frames = frames.remove(&g).unwrap_or_default();
        match check_game(&r, &acked, &frames) {
            Ok(c) => {
                report.replayed += 1;
                report.log_entries += c.entries;
                report.acked_checked += c.acked;
                report.frames_checked += c.frames;
                report.frames_with_secrets += c.secrets;
                report
                    .failures
                    .extend(c.failures.into_iter().map(|f| format!("game {g} ({id}): {f}")));
            }
            Err(e) => report.failures.push(format!("game {g} ({id}): {e}")),
        }
    }
}

/// (game index, observer, frame text) of a welcome or update a client received.
type Frame = (usize, Observer, String);

/// What the check of one game found.
#[derive(Debug, Default)]
struct GameCheck {
    entries: usize,
    acked: usize,
    frames: usize,
    /// Frames whose observer's view differed from the omniscient one.
    secrets: usize,
    failures: Vec<String>,
}

/// One finished game (`r`: its `/replay` answer) replayed from its log by the registry's
/// engine: its stored result against the replay's, its acknowledged actions against the log,
/// and every frame its clients received against the view and events the engine gives that
/// observer at that step. `Err` when the game cannot be replayed at all.
fn check_game(r: &Value, acked: &[&Acked], frames: &[&Frame]) -> Result<GameCheck, String> {
    let registry = games::Registry::everything();
    let kind = r["game"].as_str().and_then(|k| registry.get(k));
    let kind = kind.ok_or_else(|| format!("unknown game {}", r["game"]))?;
    let mut game = kind
        .start(&r["setup"], r["seed"].as_u64().unwrap_or(0))
        .map_err(|e| format!("its setup does not start: {e}"))?;
    let log: &[Value] = r["log"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut observers: Vec<Observer> = frames.iter().map(|f| f.1).collect();
    observers.sort_by_key(|o| format!("{o:?}"));
    observers.dedup();
    observers.push(Observer::Omniscient);
    let snap = |game: &dyn games::AnyGame| -> Vec<Value> {
        observers.iter().map(|o| game.view_json(*o)).collect()
    };
    // views[seq][k]: what observer k may see after `seq` entries; events[seq - 1]: of entry seq.
    let mut views = vec![snap(&*game)];
    let mut events: Vec<Events> = Vec::new();
    for (n, e) in log.iter().enumerate() {
        let applied = match e["kind"].as_str() {
            Some("act") => {
                let seat = Seat(e["seat"].as_u64().unwrap_or(255) as u8);
                game.apply_json(seat, &e["action"]).map(|a| a.events).map_err(|e| format!("{e:?}"))
            }
            Some("time_up") => game.time_up().map_err(|e| format!("{e:?}")),
            _ => Err(format!("an unknown log entry {e}")),
        };
        events.push(applied.map_err(|why| format!("log entry {} does not replay: {why}", n + 1))?);
        if !frames.is_empty() {
            views.push(snap(&*game));
        }
    }
    let mut c = GameCheck { entries: log.len(), ..GameCheck::default() };
    if game.outcome_json().as_ref() != Some(&r["outcome"]) {
        c.failures.push(format!(
            "stored result {} ≠ the replay's {:?}",
            r["outcome"],
            game.outcome_json()
        ));
    }
    for a in acked {
        c.acked += 1;
        let entry = (a.seq as usize).checked_sub(1).and_then(|i| log.get(i));
        let ok = entry.is_some_and(|e| {
            e["kind"] == "act"
                && e["seat"] == a.seat
                && crate::soak::json_subset(&a.action, &e["action"])
        });
        if !ok {
            c.failures.push(format!(
                "acknowledged action {} of seat {} at step {} is not in the log (found {entry:?})",
                a.action, a.seat, a.seq
            ));
        }
    }
    let omniscient = observers.len() - 1;
    for (_, obs, text) in frames {
        let Ok(fr) = serde_json::from_str::<Value>(text) else {
            c.failures.push(format!("{obs:?} received a frame that is not JSON"));
            continue;
        };
        let seq = fr["seq"].as_u64().unwrap_or(u64::MAX) as usize;
        let k = observers.iter().position(|o| o == obs).unwrap_or(omniscient);
        let Some(want) = views.get(seq) else {
            c.failures
                .push(format!("{obs:?} was shown step {seq}, the log has {} entries", log.len()));
            continue;
        };
        c.frames += 1;
        if fr["view"] != want[k] {
            c.failures.push(format!("{obs:?} at step {seq} was sent a view that is not its own"));
            continue;
        }
        if want[k] != want[omniscient] {
            c.secrets += 1;
        }
        if fr["type"] == "update" && seq > 0 {
            // A seat's own secret events come marked `"private": true` (docs/protocol.md).
            let admitted: Vec<Value> = events[seq - 1]
                .iter()
                .filter(|(a, _)| a.admits(*obs))
                .map(|(a, e)| {
                    let mut e = e.clone();
                    if let (Audience::Seat(_), Some(m)) = (a, e.as_object_mut()) {
                        m.insert("private".into(), Value::Bool(true));
                    }
                    e
                })
                .collect();
            if fr["events"].as_array() != Some(&admitted) {
                c.failures.push(format!(
                    "{obs:?} at step {seq} was not sent exactly the events it may see"
                ));
            }
        }
    }
    Ok(c)
}

/// The leases' history of these games: (grants, takeovers), or why the check was skipped.
async fn leases(
    args: &Args,
    ids: &[String],
    failures: &mut Vec<String>,
) -> Result<(usize, usize), String> {
    let Some(url) = &args.pg else {
        return Err(
            "no --pg database given (scripts/cluster env prints ROBODROME_CLUSTER_DB)".into()
        );
    };
    let pool =
        sqlx::PgPool::connect(url).await.map_err(|e| format!("cannot connect to {url}: {e}"))?;
    let exists: Option<String> = sqlx::query_scalar("SELECT to_regclass('lease_history')::TEXT")
        .fetch_one(&pool)
        .await
        .map_err(|e| e.to_string())?;
    if exists.is_none() {
        return Err("the database has no lease_history table".into());
    }
    let mine: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let rows: Vec<(String, i64)> = sqlx::query_as("SELECT game_id, epoch FROM lease_history")
        .fetch_all(&pool)
        .await
        .map_err(|e| e.to_string())?;
    let rows: Vec<&(String, i64)> =
        rows.iter().filter(|(g, _)| mine.contains(g.as_str())).collect();
    if rows.is_empty() {
        return Err(
            "the server took no leases for these games (a server without the cluster's leases)"
                .into(),
        );
    }
    let disordered = crate::cluster::disordered_grants(&pool).await.map_err(|e| e.to_string())?;
    for (g, e) in disordered.iter().filter(|(g, _)| mine.contains(g.as_str())) {
        failures
            .push(format!("game {g}: lease epoch {e} granted out of order (two owners at once?)"));
    }
    let takeovers = rows.iter().filter(|(_, e)| *e > 1).count();
    Ok((rows.len(), takeovers))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished two-player Autoscooter game played with random legal actions, as `/replay`
    /// answers it, and welcome frames of seat 0 and a spectator at every step.
    fn finished_game() -> (Value, Vec<Frame>) {
        let kind = games::Registry::everything().get("autoscooter").unwrap();
        let req = games::SetupRequest { players: 2, board: None, variants: None, options: None };
        let setup = kind.make_setup(&req).unwrap();
        let mut game = kind.start(&setup, 7).unwrap();
        let mut rng = Rng::seeded(3);
        let (mut log, mut frames) = (Vec::new(), Vec::new());
        let observers = [Observer::Seat(Seat(0)), Observer::Spectator];
        for _ in 0..20_000 {
            for o in observers {
                let view = game.view_json(o);
                let f = json!({"type": "welcome", "seq": log.len(), "view": view});
                frames.push((0, o, f.to_string()));
            }
            let Some(d) = game.decision() else { break };
            let seat = (0..2).map(Seat).find(|s| d.owes(*s)).unwrap();
            match game.sample_action_json(seat, &mut rng) {
                Some(a) => {
                    let applied = game.apply_json(seat, &a).unwrap();
                    log.push(json!({"kind": "act", "seat": seat.0, "action": applied.action}));
                }
                None => {
                    game.time_up().unwrap();
                    log.push(json!({"kind": "time_up"}));
                }
            }
        }
        let outcome = game.outcome_json().expect("the random game ends");
        let r = json!({"game": "autoscooter", "setup": setup, "seed": 7, "log": log, "outcome": outcome});
        (r, frames)
    }

    fn refs<T>(v: &[T]) -> Vec<&T> {
        v.iter().collect()
    }

    #[test]
    fn an_honest_game_passes_and_each_kind_of_loss_or_leak_is_found() {
        let (r, frames) = finished_game();
        let log = r["log"].as_array().unwrap().clone();
        let (n, e) = log.iter().enumerate().find(|(_, e)| e["kind"] == "act").unwrap();
        let ack = Acked {
            game: 0,
            seq: n as u64 + 1,
            seat: e["seat"].as_u64().unwrap() as u8,
            action: e["action"].clone(),
        };
        let c = check_game(&r, &[&ack], &refs(&frames)).unwrap();
        assert!(c.failures.is_empty(), "{:?}", c.failures);
        assert_eq!((c.entries, c.acked, c.frames), (log.len(), 1, frames.len()));
        assert!(c.secrets > 0, "some frames had secrets to leak");

        // A stored result that is not the replay's.
        let mut bad = r.clone();
        bad["outcome"] = json!({"ranking": []});
        assert_eq!(check_game(&bad, &[], &[]).unwrap().failures.len(), 1);

        // An acknowledged action missing from the log: another seat's, or past its end.
        let other = Acked { game: 0, seq: ack.seq, seat: 1 - ack.seat, action: ack.action.clone() };
        let past = Acked { game: 0, seq: log.len() as u64 + 1, seat: 0, action: json!({}) };
        let c = check_game(&r, &[&other, &past], &[]).unwrap();
        assert_eq!(c.failures.len(), 2, "{:?}", c.failures);

        // Seat 0 shown the omniscient view where it differs from its own: a leak.
        let kind = games::Registry::everything().get("autoscooter").unwrap();
        let mut game = kind.start(&r["setup"], 7).unwrap();
        let mut leak = None;
        for (n, e) in log.iter().enumerate() {
            if game.view_json(Observer::Seat(Seat(0))) != game.view_json(Observer::Omniscient) {
                leak = Some((n, game.view_json(Observer::Omniscient)));
                break;
            }
            match e["kind"].as_str() {
                Some("act") => {
                    game.apply_json(Seat(e["seat"].as_u64().unwrap() as u8), &e["action"]).unwrap();
                }
                _ => drop(game.time_up().unwrap()),
            }
        }
        let (seq, view) = leak.expect("a position where seat 0 may not see everything");
        let f = (
            0,
            Observer::Seat(Seat(0)),
            json!({"type": "welcome", "seq": seq, "view": view}).to_string(),
        );
        let c = check_game(&r, &[], &[&f]).unwrap();
        assert_eq!(c.failures.len(), 1, "{:?}", c.failures);
        // A position the log does not have.
        let f = (
            0,
            Observer::Spectator,
            json!({"type": "welcome", "seq": log.len() + 1, "view": {}}).to_string(),
        );
        assert_eq!(check_game(&r, &[], &[&f]).unwrap().failures.len(), 1);
        // A log that does not replay.
        let mut bad = r.clone();
        bad["log"][n] = json!({"kind": "act", "seat": 9, "action": {}});
        assert!(check_game(&bad, &[], &[]).is_err());
    }
}
