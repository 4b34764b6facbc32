//! Every registered game, played to the end over real WebSockets by one client per seat (each
//! playing the heuristic bot's actions) and watched by a spectator: every frame a connection
//! receives is exactly what the engine lets that observer see at that point — the view for that
//! seat (or a spectator's) and only the events whose audience admits it. Nothing more reaches a
//! seat than the rules reveal.

use crate::support::{Client, STEP, every_game_and_four_guests, joined_practice_game};
use engine::{Audience, LogEntry, Observer, Rng, Seat};
use protocol::{ClientMsg, ServerMsg};
use serde_json::Value;
use server::Shared;
use server::games::{AnyGame, Registry};
use std::sync::Arc;

/// Games per game kind (players cycling over a few counts in the game's range).
const GAMES: usize = 24;

/// A game followed along its stored log (each client's oracle, and the checker).
struct Follower {
    game: Box<dyn AnyGame>,
    applied: usize,
}

impl Follower {
    async fn new(shared: &Arc<Shared>, id: &str) -> Follower {
        let row = shared.store.game(id).await.unwrap().unwrap();
        let kind = Registry::everything().get(&row.game).unwrap();
        Follower { game: kind.start(&row.setup, row.seed).unwrap(), applied: 0 }
    }
    /// Apply the stored entries up to `seq`; the events of each entry applied.
    async fn to(
        &mut self,
        shared: &Arc<Shared>,
        id: &str,
        seq: usize,
    ) -> Vec<Vec<(Audience, Value)>> {
        let log = shared.store.log(id).await.unwrap();
        let mut out = Vec::new();
        for e in &log[self.applied..seq] {
            out.push(match e {
                LogEntry::Act { seat, action } => {
                    self.game.apply_json(*seat, action).unwrap().events
                }
                LogEntry::TimeUp => self.game.time_up().unwrap(),
            });
        }
        self.applied = self.applied.max(seq);
        out
    }
}

/// Play `seat` to the end with the heuristic bot's actions (chosen by an oracle that follows the
/// stored log: the client's choice is not what is tested). Returns the frames received.
pub(crate) async fn play_seat(
    mut c: Client,
    shared: Arc<Shared>,
    id: String,
    seat: u8,
    seed: u64,
) -> Vec<String> {
    let mut rng = Rng::seeded(seed);
    let mut oracle = Follower::new(&shared, &id).await;
    let mut inflight = false;
    let mut next = 0u64;
    let mut refused = 0;
    for _ in 0..100_000 {
        match c.recv().await {
            ServerMsg::Welcome { seq, waiting, .. } | ServerMsg::Update { seq, waiting, .. } => {
                if !inflight && waiting.contains(&seat) && seq as usize >= oracle.applied {
                    oracle.to(&shared, &id, seq as usize).await;
                    let spec = bots::BotSpec::Heuristic;
                    let Some(action) =
                        oracle.game.bot_action(&spec, Seat(seat), &mut rng, &bots::Stop::default())
                    else {
                        continue;
                    };
                    next += 1;
                    c.send(&ClientMsg::Act { seat: None, action, id: Some(next) }).await;
                    inflight = true;
                }
            }
            ServerMsg::Ack { .. } => inflight = false,
            ServerMsg::Over { .. } => {
                let frames = std::mem::take(&mut c.frames);
                c.close().await;
                return frames;
            }
            ServerMsg::Error { code, message, .. } => {
                // An action chosen on a position another seat's action has just changed: choose
                // again on a fresh welcome.
                refused += 1;
                assert!(refused < 20, "game {id}: seat {seat}: {} {message}", code.as_str());
                inflight = false;
                c.send(&ClientMsg::Sync).await;
            }
            ServerMsg::Presence { .. }
            | ServerMsg::Chat { .. }
            | ServerMsg::Rematch { .. }
            | ServerMsg::Lesson { .. }
            | ServerMsg::Pong => {}
        }
    }
    panic!("game {id}: the game did not end");
}

/// Follow a connection to the game's end; its frames.
pub(crate) async fn watch(mut c: Client) -> Vec<String> {
    loop {
        if let ServerMsg::Over { .. } = c.recv().await {
            let frames = std::mem::take(&mut c.frames);
            c.close().await;
            return frames;
        }
    }
}

/// Check every frame against the engine. Returns (frames checked, frames in which the
/// observer's view differed from the omniscient one: there were secrets to leak).
pub(crate) async fn check(
    shared: &Arc<Shared>,
    id: &str,
    frames: &[(Observer, Vec<String>)],
) -> (usize, usize) {
    let seats = frames.len() - 1;
    let observers: Vec<Observer> = (0..seats as u8)
        .map(|s| Observer::Seat(Seat(s)))
        .chain([Observer::Spectator, Observer::Omniscient])
        .collect();
    // views[seq][k]: what observer k may see after `seq` entries; events[seq - 1]: of entry seq.
    let log_len = shared.store.log(id).await.unwrap().len();
    let mut f = Follower::new(shared, id).await;
    let mut views = vec![observers.iter().map(|o| f.game.view_json(*o)).collect::<Vec<_>>()];
    let mut events = Vec::new();
    for seq in 1..=log_len {
        events.extend(f.to(shared, id, seq).await);
        views.push(observers.iter().map(|o| f.game.view_json(*o)).collect());
    }
    let omniscient = observers.len() - 1;
    let (mut checked, mut hidden) = (0, 0);
    for (obs, list) in frames {
        let k = observers.iter().position(|o| o == obs).unwrap();
        for text in list {
            let fr: Value = serde_json::from_str(text).unwrap();
            // Acks carry a `seq` but no view.
            if fr["type"] != "welcome" && fr["type"] != "update" {
                continue;
            }
            let seq = fr["seq"].as_u64().unwrap() as usize;
            let want = &views[seq][k];
            assert!(
                fr["view"] == *want,
                "game {id} seq {seq}: {obs:?} was sent {} not {want}",
                fr["view"]
            );
            if fr["type"] == "update" {
                // A seat's own secret events come marked `"private": true` (the table keeps
                // them out of its public log).
                let admitted: Vec<Value> = events[seq - 1]
                    .iter()
                    .filter(|(a, _)| a.admits(*obs))
                    .map(|(a, e)| {
                        let mut e = e.clone();
                        if let (engine::Audience::Seat(_), Some(m)) = (a, e.as_object_mut()) {
                            m.insert("private".into(), Value::Bool(true));
                        }
                        e
                    })
                    .collect();
                let sent: Vec<Value> = fr["events"].as_array().unwrap().clone();
                assert_eq!(sent, admitted, "game {id} seq {seq}: {obs:?} events");
            }
            if *want != views[seq][omniscient] {
                hidden += 1;
            }
            checked += 1;
        }
    }
    (checked, hidden)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_frame_of_every_game_shows_only_what_its_observer_may_see() {
    let dir = tempfile::tempdir().unwrap();
    // Clients here play as fast as the server answers: no rate limit.
    let (server, tokens) = every_game_and_four_guests(&dir).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let kinds: Vec<&str> = Registry::everything().names();
    assert!(kinds.len() >= 4, "{kinds:?}");
    for name in kinds {
        let info = &Registry::everything().get(name).unwrap().info;
        let (mut checked, mut hidden) = (0, 0);
        for i in 0..GAMES {
            let players = info.min_players + i % (info.max_players.min(4) - info.min_players + 1);
            let id = joined_practice_game(addr, &tokens, name, players, 100 + i as u64).await;
            let watcher = tokio::spawn(watch(Client::connect(addr, &id, None).await));
            let mut seat_tasks = Vec::new();
            for (s, token) in tokens.iter().enumerate().take(players) {
                let c = Client::connect(addr, &id, Some(token)).await;
                seat_tasks.push(tokio::spawn(play_seat(
                    c,
                    shared.clone(),
                    id.clone(),
                    s as u8,
                    i as u64 * 10 + s as u64,
                )));
            }
            let mut frames = Vec::new();
            for (s, t) in seat_tasks.into_iter().enumerate() {
                let f = tokio::time::timeout(STEP * 10, t).await.expect("a game in time").unwrap();
                frames.push((Observer::Seat(Seat(s as u8)), f));
            }
            frames.push((Observer::Spectator, watcher.await.unwrap()));
            let (c, h) = check(&shared, &id, &frames).await;
            checked += c;
            hidden += h;
        }
        assert!(checked > GAMES * 5, "{name}: only {checked} frames");
        // The frames had secrets to leak, so the equality above can fail.
        assert!(hidden > 0, "{name}: no frame hid anything");
    }
    server.shutdown().await;
}
