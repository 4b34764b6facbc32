//! Spectators of a game another node owns, served by the node they connected to, from the
//! game's public channel in Redis (docs/deployment.md "Spectators on any node").
//!
//! **Only spectator-audience frames go on Redis.** The owner's task publishes, per change,
//! the one frame it builds for `Observer::Spectator` (the engine's spectator view and the
//! events whose audience admits spectators), and the messages every connection of the game
//! is sent (presence, the result, a lesson's status, rematch offers). A seat's frames (its
//! view, its private events, acks and errors) never leave the owner except on that seat's own
//! forwarded socket (`forward.rs`): a shared bus is read by every node, and a seat's frames
//! hold its secrets.
//!
//! On the game channel a message is `KIND SEQ\nFRAME`: `W` a spectator's welcome (with the
//! static part), `U` an update (the frame of log entry `SEQ`), `M` any other public message.
//! A node with spectators of the game runs one [`relay`] task for it, which speaks the game
//! task's [`Cmd`]s to the connections (so `ws.rs` serves them unchanged), subscribes to the
//! channel and asks the owner for a welcome (`ctl`: `w GAME`) when a spectator arrives, when a
//! sequence number is skipped (a message lost), after Redis reconnects, and on `sync`.
//! Every node's owner of the game answers by publishing a fresh `W`; a node that takes a game
//! over publishes one as its task starts. A relay forwards updates only in sequence: after a
//! gap its connections wait for the next welcome (the client's view is never patched across a
//! missing step).

use crate::Shared;
use crate::room::{Cmd, Frame, RoomHandle};
use engine::Observer;
use protocol::{ErrorCode, ServerMsg};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A relay asks again for a welcome this often while a connection waits for one.
const ASK_EVERY: Duration = Duration::from_millis(500);
/// A connection that got no welcome after this many asks is closed (it reconnects).
const ASKS: u32 = 20;

/// Kinds of messages on a game's public channel.
pub const WELCOME: char = 'W';
pub const UPDATE: char = 'U';
pub const OTHER: char = 'M';

/// Publish one public frame of a game (the owner's task; never waits).
pub fn publish(shared: &Shared, game: &str, kind: char, seq: u64, frame: &str) {
    if let Some(bus) = shared.bus.get() {
        bus.publish(bus.game_channel(game), format!("{kind} {seq}\n{frame}"));
    }
}

/// The relays of this node, by game.
#[derive(Default)]
pub struct Relays {
    map: std::sync::Mutex<HashMap<String, (RoomHandle, mpsc::UnboundedSender<String>)>>,
}

impl Relays {
    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, (RoomHandle, mpsc::UnboundedSender<String>)>>
    {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Relays running now (a gauge).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The relay of `game`, started if none runs (`None`: no Redis on this node).
    pub fn get(&self, shared: &Arc<Shared>, game: &str) -> Option<RoomHandle> {
        let bus = shared.bus.get()?;
        let mut map = self.lock();
        if let Some((h, _)) = map.get(game).filter(|(h, _)| !h.tx.is_closed()) {
            return Some(h.clone());
        }
        let (tx, rx) = mpsc::channel(shared.config.inbox);
        let (btx, brx) = mpsc::unbounded_channel();
        let h = RoomHandle { tx };
        map.insert(game.to_string(), (h.clone(), btx));
        bus.want(&bus.game_channel(game));
        tokio::spawn(relay(shared.clone(), game.to_string(), rx, brx));
        Some(h)
    }

    /// A message of a game's channel, to its relay.
    fn deliver(&self, game: &str, payload: String) {
        if let Some((_, b)) = self.lock().get(game) {
            let _ = b.send(payload);
        }
    }

    /// A chat line said at `game`, to its relay's connections.
    pub(crate) fn chat(&self, game: &str, line: protocol::ChatLine, speaker: String) {
        let h = self.lock().get(game).map(|(h, _)| h.clone());
        if let Some(h) = h {
            let _ = h.tx.try_send(Cmd::Chat { line, speaker });
        }
    }

    fn ended(&self, shared: &Shared, game: &str, tx: &mpsc::Sender<Cmd>) {
        let mut map = self.lock();
        if map.get(game).is_some_and(|(h, _)| h.tx.same_channel(tx)) {
            map.remove(game);
            if let Some(bus) = shared.bus.get() {
                bus.unwant(&bus.game_channel(game));
            }
        }
    }
}

struct RSub {
    viewer: Option<String>,
    out: mpsc::Sender<Frame>,
    /// Sent a welcome it can follow with updates.
    current: bool,
    /// The connection's write side: kicked after each message the relay handled, as the game's
    /// task does (`ws::Direct`); declared after `out` so that its drop finds `out` closed.
    direct: crate::ws::DirectHandle,
}

/// Ask the game's owner (whichever node it is) for a fresh spectators' welcome.
fn ask(shared: &Shared, game: &str) {
    if let Some(bus) = shared.bus.get() {
        bus.publish(bus.key("ctl"), format!("w {game}"));
    }
}

/// Split `KIND SEQ\nFRAME`.
fn parse(payload: &str) -> Option<(char, u64, &str)> {
    let (head, frame) = payload.split_once('\n')?;
    let (kind, seq) = head.split_once(' ')?;
    Some((kind.chars().next()?, seq.parse().ok()?, frame))
}

/// One game's relay: its spectators on this node, fed from the game's public channel.
async fn relay(
    shared: Arc<Shared>,
    game: String,
    mut rx: mpsc::Receiver<Cmd>,
    mut bus_rx: mpsc::UnboundedReceiver<String>,
) {
    shared.metrics.relays.fetch_add(1, Relaxed);
    let me = shared.relays.lock().get(&game).map(|(h, _)| h.tx.clone());
    let mut subs: HashMap<u64, RSub> = HashMap::new();
    let mut seq: Option<u64> = None;
    let mut asked: Option<Instant> = None;
    let mut asks = 0u32;
    let mut resub = shared.bus.get().map(|b| b.resubscribed.subscribe());
    let mut tick = tokio::time::interval(ASK_EVERY);
    let mut stop = shared.shutdown.clone();
    let stopped = crate::stopped(&mut stop);
    tokio::pin!(stopped);
    let mut started = false;
    let direct_writes = shared.config.direct_writes;
    loop {
        let waiting = subs.values().any(|s| !s.current);
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                match cmd {
                    Cmd::Subscribe { conn, viewer, out, direct, done, .. } => {
                        let direct = crate::ws::DirectHandle(direct);
                        subs.insert(conn, RSub { viewer, out, current: false, direct });
                        started = true;
                        let _ = done.send(());
                        if asked.is_none_or(|t| t.elapsed() >= ASK_EVERY) {
                            ask(&shared, &game);
                            asked = Some(Instant::now());
                        }
                    }
                    Cmd::Unsubscribe { conn } => {
                        subs.remove(&conn);
                    }
                    Cmd::Sync { conn } => {
                        if let Some(s) = subs.get_mut(&conn) {
                            s.current = false;
                        }
                        ask(&shared, &game);
                        asked = Some(Instant::now());
                    }
                    Cmd::Chat { line, speaker } => {
                        let frame: Frame = ServerMsg::Chat { line }.to_frame().into();
                        for s in subs.values().filter(|s| s.current) {
                            if !shared.blocks.hides(s.viewer.as_deref(), &speaker) {
                                let _ = s.out.try_send(frame.clone());
                            }
                        }
                    }
                    Cmd::Act { conn, id, .. } => {
                        if let Some(s) = subs.get(&conn) {
                            let e = ServerMsg::Error {
                                code: ErrorCode::NotAPlayer,
                                rule: None,
                                message: "spectators cannot act".into(),
                                id,
                            };
                            let _ = s.out.try_send(e.to_frame().into());
                        }
                    }
                    Cmd::TakeBack { conn } | Cmd::Rematch { conn, .. } => {
                        if let Some(s) = subs.get(&conn) {
                            let e = ServerMsg::error(ErrorCode::NotAPlayer, "you hold no seat in this game");
                            let _ = s.out.try_send(e.to_frame().into());
                        }
                    }
                    Cmd::BotMove { .. } | Cmd::Resign { .. } | Cmd::PublishWelcome => {}
                }
            }
            m = bus_rx.recv() => {
                let Some(m) = m else { break };
                let Some((kind, n, frame)) = parse(&m) else { continue };
                let frame: Frame = frame.to_string().into();
                let mut dead = Vec::new();
                match kind {
                    WELCOME => {
                        // Everyone behind (or new) starts again from it; anyone in step keeps going.
                        let all = seq != Some(n);
                        seq = Some(n);
                        asks = 0;
                        for (c, s) in subs.iter_mut() {
                            if all || !s.current {
                                let first = !s.current;
                                if s.out.try_send(frame.clone()).is_err() {
                                    dead.push(*c);
                                    continue;
                                }
                                s.current = true;
                                if first {
                                    let hidden = |sp: &str| shared.blocks.hides(s.viewer.as_deref(), sp);
                                    for line in shared.chats.lines_hiding(&game, true, hidden) {
                                        let _ = s.out.try_send(ServerMsg::Chat { line }.to_frame().into());
                                    }
                                }
                            }
                        }
                    }
                    UPDATE => match seq {
                        Some(s) if n == s + 1 => {
                            seq = Some(n);
                            for (c, s) in subs.iter().filter(|(_, s)| s.current) {
                                if s.out.try_send(frame.clone()).is_err() {
                                    dead.push(*c);
                                }
                            }
                        }
                        Some(s) if n <= s => {}
                        // No welcome yet: one was asked for, updates wait for it.
                        None => {}
                        Some(_) => {
                            // A step was lost (or no welcome yet): wait for a fresh welcome.
                            shared.metrics.relay_gaps.fetch_add(1, Relaxed);
                            for s in subs.values_mut() {
                                s.current = false;
                            }
                            seq = None;
                            ask(&shared, &game);
                            asked = Some(Instant::now());
                        }
                    },
                    _ => {
                        for (c, s) in subs.iter().filter(|(_, s)| s.current) {
                            if s.out.try_send(frame.clone()).is_err() {
                                dead.push(*c);
                            }
                        }
                    }
                }
                for c in dead {
                    shared.metrics.frames_dropped.fetch_add(1, Relaxed);
                    subs.remove(&c);
                }
            }
            _ = tick.tick(), if waiting => {
                if asked.is_none_or(|t| t.elapsed() >= ASK_EVERY) {
                    asks += 1;
                    if asks > ASKS {
                        // No owner answers (the game ended, or nobody runs it yet): the
                        // waiting connections close and reconnect.
                        subs.retain(|_, s| s.current);
                        asks = 0;
                    } else {
                        ask(&shared, &game);
                        asked = Some(Instant::now());
                    }
                }
            }
            r = async { match resub.as_mut() { Some(r) => r.changed().await, None => std::future::pending().await } } => {
                if r.is_err() {
                    resub = None;
                    continue;
                }
                // Redis came back: what was published meanwhile is lost.
                for s in subs.values_mut() {
                    s.current = false;
                }
                seq = None;
                ask(&shared, &game);
                asked = Some(Instant::now());
            }
            _ = &mut stopped => break,
        }
        // Frames queued for a connection reach its socket only once kicked: written here
        // (direct writes) or by the connection's loop, woken (docs/benchmarks.md "CPU per
        // accepted action, round 4").
        for s in subs.values() {
            s.direct.kick_if_queued(&s.out, direct_writes, &shared.metrics);
        }
        if started && subs.is_empty() {
            break;
        }
    }
    rx.close();
    if let Some(tx) = me {
        shared.relays.ended(&shared, &game, &tx);
    }
    shared.metrics.relays.fetch_sub(1, Relaxed);
}

/// A message from Redis, on this node (`bus::Bus::start`'s receiver).
pub async fn dispatch(shared: &Arc<Shared>, m: crate::bus::Received) {
    let Some(bus) = shared.bus.get() else { return };
    let Some(rest) = m.channel.strip_prefix(&bus.key("")) else { return };
    if let Some(game) = rest.strip_prefix("g:") {
        return shared.relays.deliver(game, m.payload);
    }
    match rest {
        "ctl" => {
            if let Some(game) = m.payload.strip_prefix("w ")
                && let Some(room) = shared.local_room(game)
            {
                let _ = room.tx.try_send(Cmd::PublishWelcome);
            }
        }
        "chat" => {
            let Ok(c) = serde_json::from_str::<crate::chat::Said>(&m.payload) else { return };
            if c.origin == bus.origin {
                return;
            }
            shared.chats.keep(&c.game, &c.speaker, c.line.clone());
            if let Some(room) = shared.local_room(&c.game) {
                let _ = room
                    .tx
                    .try_send(Cmd::Chat { line: c.line.clone(), speaker: c.speaker.clone() });
            }
            shared.relays.chat(&c.game, c.line, c.speaker);
        }
        "notice" => crate::platform::on_notice(shared, &m.payload),
        "lobby" => {
            if let Some((origin, v)) = m.payload.split_once(' ')
                && origin != bus.origin
                && let Ok(v) = v.parse::<u64>()
            {
                bus.lobby.fetch_max(v, Relaxed);
            }
        }
        _ => {}
    }
}

/// Whether an observer's frames may go on Redis: only the spectators'.
pub fn public(o: Observer) -> bool {
    matches!(o, Observer::Spectator)
}
