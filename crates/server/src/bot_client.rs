//! The reference client of the Bot API (`robodrome bot`, docs/protocol.md "Bot API"): it
//! holds a bot account's token, listens on `/api/bot/v1/events`, accepts the challenges for
//! the games it plays (declines the others), and plays every game it is seated in on
//! `/api/bot/v1/games/{id}`, from its seat's view only.
//!
//! **What it plays with.** A robodrome bot (`bots`) thinks on a whole game state; a remote
//! client has only its seat's redacted view and the game's public setup
//! (`GET /api/games/{id}?setup=true`). The game crate rebuilds a playable state from them —
//! what the view hides drawn at random, seeded (`games::Kind::from_view`, the game crate's
//! `from_view`, given the view and the frame's `waiting`) — and the bot chooses on that
//! state, as it would on the server. RoboRally and Bumping Bots are rebuilt at every
//! decision, Autoscooter at every one but a payment's colours (AS-7.3: docs/protocol.md "Bot
//! API"). Where a stage cannot be rebuilt from a view, or the server refused the bot's action, the
//! client draws a legal action from the view itself (the view readers of `robodrome soak`:
//! [`crate::soak::choose`]), so a game is always played to its end. `random` always draws
//! from the view.
use crate::client::{self, Socket};
use bots::{BotSpec, Stop};
use engine::{Rng, Seat};
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

pub type Error = client::Error;

/// What the client does.
#[derive(Clone, Debug)]
pub struct Options {
    /// The games whose challenges it accepts (empty: every game it can play).
    pub games: Vec<String>,
    /// Stop after this many games are over (none: run until stopped).
    pub max_games: Option<usize>,
    /// The bot spec (`random`, `heuristic`, `search:N`, `search:Nms`: see the module's doc).
    pub bot: String,
    /// Seed of the client's own choices.
    pub seed: u64,
}

/// The games the client can play from a view.
pub const PLAYABLE: &[&str] = &["autoscooter", "roborally", "bumping-bots"];

/// Every frame the client sent (`> `) and received (`< `), with the path, when asked for
/// (the example session of docs/protocol.md was captured so).
pub type Transcript = Arc<Mutex<Vec<String>>>;

fn note(t: &Option<Transcript>, line: String) {
    if let Some(t) = t {
        t.lock().unwrap_or_else(|p| p.into_inner()).push(line);
    }
}

/// Check the options before connecting.
pub fn check(opts: &Options) -> Result<(), Error> {
    opts.bot.parse::<BotSpec>().map_err(|e| format!("--bot: {e}"))?;
    for g in &opts.games {
        if !PLAYABLE.contains(&g.as_str()) {
            return Err(format!("game {g:?}: the client plays {PLAYABLE:?}").into());
        }
    }
    Ok(())
}

/// The address of `http://host:port`.
pub fn address(url: &str) -> Result<SocketAddr, Error> {
    use std::net::ToSocketAddrs;
    let rest = url
        .strip_prefix("http://")
        .ok_or("--server takes http://HOST:PORT (no TLS in the reference client)")?;
    let host = rest.split('/').next().unwrap_or(rest);
    let host = if host.contains(':') { host.to_string() } else { format!("{host}:80") };
    host.to_socket_addrs()?.next().ok_or_else(|| format!("{url}: no address").into())
}

/// Run the client until `max_games` games are over (or the event stream closes). Returns the
/// games played, as they ended: `{"game_id", "seat", "outcome", "decisions": {"bot",
/// "from_view"}}` (how many actions the bot chose on a rebuilt state, how many were drawn from
/// the view).
pub async fn run(
    addr: SocketAddr,
    token: String,
    opts: Options,
    transcript: Option<Transcript>,
) -> Result<Vec<Value>, Error> {
    check(&opts)?;
    let token = token.as_str();
    let me = client::expect(addr, "GET", "/api/bot/v1/account", Some(token), None, 200).await?;
    note(&transcript, format!("GET /api/bot/v1/account → {me}"));
    let mut events = Socket::connect_path(addr, None, "/api/bot/v1/events", Some(token)).await?;
    let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<Result<Value, String>>();
    let mut playing = HashSet::new();
    let mut outcomes = Vec::new();
    let mut rng = Rng::seeded(opts.seed);
    loop {
        if opts.max_games.is_some_and(|m| outcomes.len() >= m) {
            break;
        }
        tokio::select! {
            text = events.recv_text() => {
                let Some(text) = text? else { break };
                note(&transcript, format!("< events {text}"));
                let e: Value = serde_json::from_str(&text)?;
                match e["type"].as_str() {
                    Some("challenge") => {
                        let c = &e["challenge"];
                        let id = c["id"].as_str().unwrap_or_default();
                        let game = c["request"]["game"].as_str().unwrap_or_default();
                        let wanted = PLAYABLE.contains(&game)
                            && (opts.games.is_empty() || opts.games.iter().any(|g| g == game));
                        let verb = if wanted { "accept" } else { "decline" };
                        let path = format!("/api/bot/v1/challenges/{id}/{verb}");
                        let (status, body) = client::http(addr, "POST", &path, Some(token), None).await?;
                        note(&transcript, format!("POST {path} → {status} {body}"));
                    }
                    Some("game_start") => {
                        let id = e["game_id"].as_str().unwrap_or_default().to_string();
                        let Some(seat) = e["seat"].as_u64() else { continue };
                        if !playing.insert(id.clone()) {
                            continue;
                        }
                        let (token, tx, t) = (token.to_string(), done_tx.clone(), transcript.clone());
                        let seed = rng.next_u64();
                        let spec = opts.bot.clone();
                        tokio::spawn(async move {
                            let r = play(addr, &token, &id, seat as u8, &spec, seed, t).await;
                            let r = r.map(|p| json!({"game_id": id, "seat": seat, "outcome": p.outcome,
                                "decisions": {"bot": p.by_bot, "from_view": p.from_view}}));
                            let _ = tx.send(r.map_err(|e| format!("game {id}: {e}")));
                        });
                    }
                    _ => {}
                }
            }
            Some(r) = done_rx.recv() => outcomes.push(r?),
        }
    }
    events.close().await;
    Ok(outcomes)
}

/// The longest a bot thinks on one decision in the client (a `search:Nms` spec asks for less).
pub const MAX_THINK_MS: u64 = 10_000;

/// One game played by [`play`].
#[derive(Clone, Debug)]
pub struct Played {
    pub outcome: Value,
    /// Actions the bot chose on a state rebuilt from the view.
    pub by_bot: u32,
    /// Actions drawn from the view (`random`, no state rebuilt, or after a refusal).
    pub from_view: u32,
}

/// Play one game's seat to the end with the bot `spec`.
pub async fn play(
    addr: SocketAddr,
    token: &str,
    game: &str,
    seat: u8,
    spec: &str,
    seed: u64,
    transcript: Option<Transcript>,
) -> Result<Played, Error> {
    let spec: BotSpec = spec.parse()?;
    let (mut by_bot, mut from_view) = (0u32, 0u32);
    // The game's public setup (no secret: the seed is not part of it), for the state rebuilt
    // from each view.
    let info = client::expect(
        addr,
        "GET",
        &format!("/api/games/{game}?setup=true"),
        Some(token),
        None,
        200,
    )
    .await?;
    let setup = info["setup"].clone();
    let path = format!("/api/bot/v1/games/{game}");
    // Views only when they changed: an update without one keeps the last (docs/protocol.md).
    let url = format!("{path}?views=changed");
    let mut sock = Socket::connect_path(addr, None, &url, Some(token)).await?;
    let mut rng = Rng::seeded(seed);
    let mut kind = String::new();
    let (mut pending, mut tries, mut next) = (false, 0u32, 0u64);
    // The last view with its seq and who owes a decision; an action waits for the view that
    // follows its own acknowledged one (`acked`), so that it is never chosen on a stale view.
    let mut last: Option<(u64, Value, Vec<u8>)> = None;
    let mut acked = 0u64;
    while let Some(text) = sock.recv_text().await? {
        note(&transcript, format!("< {path} {text}"));
        let msg = ServerMsg::from_frame(&text)?;
        match msg {
            ServerMsg::Welcome { game, view, waiting, seq, .. } => {
                kind = game;
                (tries, pending) = (0, false);
                last = Some((seq, view, waiting));
            }
            ServerMsg::Update { view, waiting, seq, .. } => {
                tries = 0;
                // No view: the same as in the last frame.
                let view = match (view, last.take()) {
                    (Some(view), _) => view,
                    (None, Some((_, view, _))) => view,
                    (None, None) => return Err("an update without a view before any view".into()),
                };
                last = Some((seq, view, waiting));
            }
            ServerMsg::Ack { seq, .. } => {
                pending = false;
                acked = acked.max(seq);
            }
            ServerMsg::Error { code, .. }
                if code == protocol::ErrorCode::IllegalAction
                    || code == protocol::ErrorCode::BadAction =>
            {
                (pending, tries) = (false, tries + 1);
                if tries > 200 {
                    return Err("no legal action found from the view".into());
                }
            }
            ServerMsg::Error { code, message, .. } => {
                return Err(format!("{code:?}: {message}").into());
            }
            ServerMsg::Over { outcome } => {
                sock.close().await;
                return Ok(Played { outcome, by_bot, from_view });
            }
            _ => {}
        }
        if pending {
            continue;
        }
        let Some((seq, view, waiting)) = &last else { continue };
        if *seq < acked || !waiting.contains(&seat) {
            continue;
        }
        let thought = if spec == BotSpec::Random || tries > 0 {
            None
        } else {
            let (kind, setup, view, spec) =
                (kind.clone(), setup.clone(), view.clone(), spec.clone());
            let seed = rng.next_u64();
            let waiting = waiting.clone();
            tokio::task::spawn_blocking(move || {
                think(&kind, &setup, &view, &waiting, seat, &spec, seed)
            })
            .await
            .ok()
            .flatten()
        };
        let action = match thought {
            Some(a) => {
                by_bot += 1;
                a
            }
            None => match crate::soak::choose(&kind, view, seat, &mut rng, tries) {
                Some(a) => {
                    from_view += 1;
                    a
                }
                None => continue,
            },
        };
        next += 1;
        let msg = ClientMsg::Act { seat: None, action, id: Some(next) };
        note(&transcript, format!("> {path} {}", msg.to_frame()));
        sock.send(&msg).await?;
        pending = true;
    }
    Err("the game's socket closed before the game was over".into())
}

/// The bot's action on a state the game crate rebuilt from `view` (`None`: no state could be
/// rebuilt, or the bot had no action: the caller draws from the view).
pub fn think(
    kind: &str,
    setup: &Value,
    view: &Value,
    waiting: &[u8],
    seat: u8,
    spec: &BotSpec,
    seed: u64,
) -> Option<Value> {
    let k = games::Registry::everything().get(kind)?;
    let waiting: Vec<Seat> = waiting.iter().map(|&s| Seat(s)).collect();
    let state = k.from_view(setup, view, &waiting, Seat(seat), seed).ok()?;
    let millis = match spec {
        BotSpec::SearchFor { millis } => (*millis as u64).min(MAX_THINK_MS),
        _ => MAX_THINK_MS,
    };
    let stop = Stop::at(std::time::Instant::now() + std::time::Duration::from_millis(millis));
    state.bot_action(spec, Seat(seat), &mut Rng::seeded(seed ^ 0xb07), &stop)
}

/// `robodrome bot`: the client on a runtime of its own.
pub fn run_blocking(server: &str, token: &str, opts: Options) -> Result<(), Error> {
    check(&opts)?;
    let addr = address(server)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let outcomes = rt.block_on(run(addr, token.to_string(), opts, None))?;
    for o in outcomes {
        println!("{o}");
    }
    Ok(())
}
