//! One task owns each running game: an actor with a bounded inbox.
//!
//! Connections send it [`Cmd`]s. It validates every action through the engine, stores the
//! accepted action **before** acknowledging or broadcasting it, then sends every connection
//! its own redacted view and the events its observer may see (filtered by `Audience`). It
//! runs the clocks (calling the engine's `time_up`): the rules' own clock
//! (`engine::Game::clock`: RoboRally's hourglass, RR-4.3, and the last-player clocks) and, for
//! a game whose timer is not a rule, the lobby's timer on every decision. It asks bots to play on a bounded
//! worker pool, and lets a bot stand in for a player who left once a grace period is over.
//!
//! Bot work is bounded and fair (docs/security.md, "Bot work and seeds"): a game queues at most
//! one bot decision at a time on the shared worker pool (its `bot_lane`), and the pool's
//! semaphore gives workers out first come, first served, so the queue goes round the games and
//! one game's many expensive bots cannot starve another game's. Each decision thinks on a
//! blocking thread for at most `max_bot_ms` and stops earlier when the game's task ends (the
//! game finished, the server stops: `bot_cancel`, raised when the task is dropped).

use crate::Shared;
use crate::games::{ActError, AnyGame};
use crate::store::{Entry, GameRow, SeatOwner, Status};
use bots::{BotSpec, Stop};
use engine::{Audience, Decision, LogEntry, Observer, Rng, Seat, Touched};
use protocol::{ErrorCode, ServerMsg};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// A frame on its way to connections: its text is shared (reference-counted bytes), so the
/// one frame built for an audience goes to each of its connections without a copy, down to
/// the socket's write buffer.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// Queued actions a game's task stores together at most (`Room::handle_acts`).
const ACT_BATCH: usize = 32;

/// What a connection (or a bot worker) asks a game's task.
pub enum Cmd {
    /// Attach a connection. It acts for `seat` (none: a spectator) and receives frames on `out`.
    Subscribe {
        conn: u64,
        observer: Observer,
        /// The signed-in identity behind the connection, if any (its blocks hide chat lines).
        viewer: Option<String>,
        out: mpsc::Sender<Frame>,
        /// The connection's write side, which this task kicks after queuing frames on `out`.
        direct: Arc<crate::ws::Direct>,
        /// The connection asked for views only when they changed (`?views=changed`): its
        /// updates leave the view out when it is the same as in its last frame.
        changed_views: bool,
        done: oneshot::Sender<()>,
    },
    Unsubscribe {
        conn: u64,
    },
    Act {
        conn: u64,
        seat: Option<u8>,
        action: Value,
        id: Option<u64>,
        received: Instant,
    },
    Sync {
        conn: u64,
    },
    /// A bot worker's choice for `seat`.
    BotMove {
        seat: Seat,
        action: Option<Value>,
    },
    /// A chat line already said and kept (`Shared::say`) by `speaker`: sent to whoever may see
    /// it, except the connections of those who block the speaker.
    Chat {
        line: protocol::ChatLine,
        speaker: String,
    },
    /// The connection's player takes their seat back from the bot standing in.
    TakeBack {
        conn: u64,
    },
    /// The connection's player asks for a rematch (or declines one).
    Rematch {
        conn: u64,
        accept: bool,
    },
    /// The player of `seat` resigned (already stored): a bot plays the seat to the end.
    Resign {
        seat: Seat,
    },
    /// Publish a fresh spectators' welcome on Redis (a relay asked: `fanout`).
    PublishWelcome,
}

/// A handle on a game's task.
#[derive(Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<Cmd>,
}

struct Sub {
    observer: Observer,
    viewer: Option<String>,
    /// Updates leave the view out when it did not change (`?views=changed`).
    changed_views: bool,
    out: mpsc::Sender<Frame>,
    /// Declared after `out`, so dropped after it: the connection's loop, woken by its drop,
    /// finds the channel closed.
    direct: crate::ws::DirectHandle,
}

thread_local! {
    /// The buffer each worker thread writes views into before they are copied into their
    /// frames (`update_frame`): kept from view to view, so a view of a few KB is written
    /// without growing a fresh string by reallocation (docs/benchmarks.md "CPU per accepted
    /// action, round 8"). One per thread rather than per game: it costs no memory per game.
    static VIEW_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `observer`'s view of `game` written into this thread's view buffer (`AnyGame::view_into`),
/// then handed to `frame` as text, which builds the frame(s) from it.
fn with_view<T>(game: &dyn AnyGame, observer: Observer, frame: impl FnOnce(&str) -> T) -> T {
    VIEW_BUF.with_borrow_mut(|buf| {
        buf.clear();
        game.view_into(observer, buf);
        // serde_json writes UTF-8; "null" stands for a view that would not serialise, as in
        // `AnyGame::view_text`.
        frame(std::str::from_utf8(buf).unwrap_or("null"))
    })
}

/// The fingerprint of a view's text, kept per observer instead of the text (16 bytes, not the
/// view's 2–4 KB) to tell whether a connection that asked for changed views only already has
/// it (docs/protocol.md "Views only when they changed"). XXH3's 128 bits, seeded once per
/// process from the operating system: two different views of one observer give one
/// fingerprint with a chance of about 2^-128 per comparison — nothing that would happen
/// once in the life of every server ever run — and the seed, which no client knows, keeps
/// anyone from steering views onto a collision. A collision would leave that observer's
/// connections on their previous view until the next change (never another seat's view: the
/// fingerprint only decides whether an observer's own view is sent).
fn view_mark(text: &str) -> u128 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let seed = *SEED.get_or_init(|| {
        getrandom::u64().unwrap_or_else(|_| {
            // No randomness from the OS (the server cannot make games then either): the clock.
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9e37_79b9_7f4a_7c15, |d| d.as_nanos() as u64)
        })
    });
    xxhash_rust::xxh3::xxh3_128_with_seed(text.as_bytes(), seed)
}

/// One observer's `update` for one change: the whole frame (for connections that did not ask
/// for changed views, for Redis, and whenever the view changed) and, when the view is the same
/// as in the observer's last frame and a connection of it asked, the frame without the view.
pub struct ObserverUpdate {
    observer: Observer,
    whole: Option<Frame>,
    without_view: Option<Frame>,
}

impl ObserverUpdate {
    /// The frame of one change for connection `sub`, among every observer's `updates`.
    fn for_sub<'a>(updates: &'a [ObserverUpdate], sub: &Sub) -> Option<&'a Frame> {
        let u = updates.iter().find(|u| u.observer == sub.observer)?;
        if sub.changed_views {
            u.without_view.as_ref().or(u.whole.as_ref())
        } else {
            u.whole.as_ref()
        }
    }
}

/// The text of an event object with `"private": true` added: the same text as the object with
/// that key inserted (`serde_json`'s map keeps its keys sorted), written without copying the
/// map first.
fn private_event_text(m: &serde_json::Map<String, Value>) -> String {
    struct Marked<'a>(&'a serde_json::Map<String, Value>);
    impl serde::Serialize for Marked<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            const KEY: &str = "private";
            let had = self.0.contains_key(KEY);
            let mut map = s.serialize_map(Some(self.0.len() + usize::from(!had)))?;
            let mut done = false;
            for (k, v) in self.0 {
                if !done && k.as_str() >= KEY {
                    map.serialize_entry(KEY, &true)?;
                    done = true;
                    if k == KEY {
                        continue;
                    }
                }
                map.serialize_entry(k, v)?;
            }
            if !done {
                map.serialize_entry(KEY, &true)?;
            }
            map.end()
        }
    }
    serde_json::to_string(&Marked(m)).unwrap_or_default()
}

struct Presence {
    conns: usize,
    /// Since when no connection holds this human seat.
    away_since: Option<Instant>,
    /// A bot plays for this human seat now.
    stand_in: bool,
}

pub struct Room {
    id: String,
    game: Box<dyn AnyGame>,
    /// The game's static part (sent once per connection) and its content id.
    static_data: Value,
    static_id: String,
    seed: u64,
    /// A practice game (told to everyone in the welcome).
    practice: bool,
    seats: Vec<SeatOwner>,
    seq: u64,
    /// The server's own timer on every decision (the lobby's `timer_secs` of a game whose
    /// timer is not a rule); `None` for a game whose timer is its rules' clock.
    timer: Option<Duration>,
    deadline: Option<Instant>,
    last_waiting: Option<Decision>,
    /// The rules' clock as last seen ([`engine::Game::clock`]) and its deadline.
    clock: Option<engine::Clock>,
    clock_deadline: Option<Instant>,
    subs: HashMap<u64, Sub>,
    presence: Vec<Presence>,
    bot_pending: engine::SeatSet,
    /// Storage is backing off: bots (and stand-ins) are asked again at this time, not before.
    bot_retry: Option<Instant>,
    /// The result could not be stored (storage failing): it is tried again at this time, and
    /// the task stays until it is stored.
    finish_retry: Option<Instant>,
    finished: bool,
    /// The store already says the game is finished (a finished game loaded for watching).
    stored_finished: bool,
    shared: Arc<Shared>,
    me: mpsc::WeakSender<Cmd>,
    /// One bot decision of this game at a time waits for or holds a worker.
    bot_lane: Arc<tokio::sync::Semaphore>,
    /// Raised when this task ends (also when it is dropped mid-way): its bots stop thinking.
    bot_cancel: CancelOnDrop,
    /// The seats whose players accepted a rematch, and the rematch once made.
    rematch_yes: engine::SeatSet,
    rematch_game: Option<String>,
    /// A turn-based game's clock as last stored (`crate::turns`): its `timer` is the time per
    /// decision, nobody stands in for an absent player, and the deadline and who owes the
    /// decision are stored whenever they change.
    turn: Option<crate::platform_store::TurnClock>,
    /// The deadline of the decision owed now, in Unix milliseconds (turn-based games).
    turn_due_ms: Option<i64>,
    /// A bot stood in for a person at some point: the game is not rated (docs/platform.md).
    stood_in: bool,
    /// The lesson this practice game was started from ("Learn to play", docs/lessons.md) and
    /// where it stands: checked on the engine's position after every change; once complete or
    /// failed it stays so.
    lesson: Option<(&'static scenario::lessons::Lesson, scenario::lessons::Status)>,
    /// On a cluster node (docs/deployment.md "Several nodes"): the game's lease. Every log
    /// write is fenced by its epoch, the timers are stored, and the task stops when it is lost.
    lease: Option<crate::cluster::RoomLease>,
    /// The timers last stored (cluster only): the server's deadline, the rules' clock's.
    timers_stored: Option<(Option<Instant>, Option<Instant>)>,
    /// The send window (docs/protocol.md "When frames are sent"): what the frames queued by
    /// the command being handled say to connections other than the actor's. `Some(true)`:
    /// only that seats committed (part of) their choices (a simultaneous decision going on with
    /// the same seats or fewer, nobody new owing, the rules' clock unchanged), which may wait; `Some(false)`: anything else, written
    /// at once; `None`: nothing for the others yet.
    quiet: Option<bool>,
    /// Connections written to at once after this command whatever `quiet` says (their own
    /// ack, error, welcome).
    urgent: Vec<u64>,
    /// Frames are held for some connections (quiet updates): all written at this time at the
    /// latest, or earlier with the next frame that may not wait.
    flush_at: Option<Instant>,
    /// Per observer with a connection that asked for changed views only: the fingerprint of
    /// the view its connections hold ([`view_mark`] of its last welcome's or update's view).
    /// A view is a function of the position, and the position changes only with an update,
    /// which is built for every observer connected; an observer without a connection
    /// meanwhile gets its mark again with its next connection's welcome.
    marks: Vec<(Observer, u128)>,
}

/// What became of one action of a batch (`Room::handle_acts`).
enum Done {
    Accepted { conn: u64, id: Option<u64>, received: Instant, frames: Vec<ObserverUpdate> },
    Refused { conn: u64, id: Option<u64>, code: ErrorCode, rule: Option<String>, msg: String },
}
/// The task's state an action changes, to restore if storing it fails (the views' marks too:
/// the frames of an action not stored are never sent).
type Saved = (
    Box<dyn AnyGame>,
    Option<Instant>,
    Option<Instant>,
    Option<engine::Clock>,
    Option<Decision>,
    Vec<(Observer, u128)>,
);

/// Raises its flag when dropped.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

impl Room {
    /// A game's task from a game already brought to its stored position (`seq` log entries).
    pub fn spawn(
        shared: Arc<Shared>,
        row: &GameRow,
        game: Box<dyn AnyGame>,
        seq: u64,
        turn: Option<crate::platform_store::TurnClock>,
    ) -> RoomHandle {
        Self::spawn_leased(shared, row, game, seq, turn, None, None)
    }

    /// [`Room::spawn`] on a cluster node: with the game's lease, and the timers its previous
    /// owner stored (used if they were stored for this very position).
    pub fn spawn_leased(
        shared: Arc<Shared>,
        row: &GameRow,
        game: Box<dyn AnyGame>,
        seq: u64,
        turn: Option<crate::platform_store::TurnClock>,
        lease: Option<crate::cluster::RoomLease>,
        timers: Option<crate::cluster::StoredTimers>,
    ) -> RoomHandle {
        let (id, seed, seats, timer_secs) =
            (row.id.clone(), row.seed, row.seats.clone(), row.timer_secs);
        let stored_finished = row.status == Status::Finished;
        let (tx, rx) = mpsc::channel(shared.config.inbox);
        let now = Instant::now();
        let presence = seats
            .iter()
            .map(|s| Presence {
                conns: 0,
                away_since: (matches!(s, SeatOwner::Human { .. }) && turn.is_none()).then_some(now),
                stand_in: false,
            })
            .collect();
        let static_text = game.static_text();
        let static_id = protocol::static_id(&static_text);
        let static_data = serde_json::from_str(&static_text).unwrap_or(Value::Null);
        // One setting: where the timer is a rule, the game's clock is the only one.
        let rules_timer =
            shared.registry.get(game.name()).is_some_and(|k| k.info.timer_option.is_some());
        // A turn-based game: its time per decision, and the deadline stored before a restart
        // (already passed: it runs out at once).
        let turn_timer = turn.as_ref().map(|t| Duration::from_secs(u64::from(t.per_move_secs)));
        let stored_due = turn.as_ref().and_then(|t| t.due_ms);
        let restored = stored_due.map(|due| {
            now + Duration::from_millis(due.saturating_sub(crate::turns::now_ms()).max(0) as u64)
        });
        let mut last_waiting = restored.and_then(|_| game.decision());
        // A game taken over from another node: its timers go on from where they were (stored
        // whenever they changed, at the log's length then; docs/deployment.md "Timers").
        let timers = timers.filter(|t| t.seq <= seq);
        let at = |ms: i64| now + Duration::from_millis(ms.max(0) as u64);
        let taken_deadline = timers.and_then(|t| t.deadline_left_ms).map(at);
        let taken_clock = timers.and_then(|t| t.clock_left_ms).map(at);
        if timers.is_some() {
            last_waiting = game.decision();
        }
        let clock = taken_clock.and_then(|_| game.clock());
        let lesson = row
            .practice
            .then(|| scenario::lessons::find(&row.game, &row.setup, row.seed))
            .flatten()
            .map(|l| (l, l.status(&game.position_json(), game.decision().is_none())));
        let room = Room {
            lesson,
            turn,
            turn_due_ms: stored_due,
            id,
            static_data,
            static_id,
            timer: turn_timer.or(timer_secs
                .filter(|&t| t > 0 && !rules_timer)
                .map(|t| Duration::from_secs(t as u64))),
            clock,
            clock_deadline: taken_clock.filter(|_| clock.is_some()),
            game,
            seed,
            practice: row.practice,
            seats,
            seq,
            deadline: restored.or(taken_deadline),
            last_waiting,
            subs: HashMap::new(),
            presence,
            bot_pending: engine::SeatSet::EMPTY,
            bot_retry: None,
            finish_retry: None,
            finished: false,
            stored_finished,
            me: tx.downgrade(),
            shared,
            bot_lane: Arc::new(tokio::sync::Semaphore::new(1)),
            bot_cancel: CancelOnDrop(Arc::new(AtomicBool::new(false))),
            rematch_yes: engine::SeatSet::EMPTY,
            rematch_game: None,
            stood_in: false,
            lease,
            timers_stored: None,
            quiet: None,
            urgent: Vec::new(),
            flush_at: None,
            marks: Vec::new(),
        };
        tokio::spawn(room.run(rx));
        RoomHandle { tx }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.shared.metrics.rooms.fetch_add(1, Relaxed);
        let shutdown = self.shared.shutdown.clone();
        // Made once (not per command: each wait enters and leaves the signal's waiter list).
        let mut signal = self.shared.shutdown.clone();
        let stop = crate::stopped(&mut signal);
        tokio::pin!(stop);
        self.after_change().await;
        // On a cluster node with Redis: remote spectators start (again) from here (`fanout`).
        self.publish_welcome();
        // One timer for the task's life, moved only when the next wake-up changes (most
        // commands leave it where it was): no timer entry made and dropped per command.
        let timer = tokio::time::sleep_until(Instant::now());
        tokio::pin!(timer);
        // A cluster node's game stops at once when its lease is lost.
        let lost = self.lease.as_ref().map(|l| l.lost.clone());
        let lost = async move {
            match lost {
                Some(n) => n.notified().await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(lost);
        let mut armed: Option<Instant> = None;
        loop {
            self.shared.metrics.room_wakeups.fetch_add(1, Relaxed);
            let wake = self.next_wake();
            if wake != armed {
                if let Some(t) = wake {
                    timer.as_mut().reset(t);
                }
                armed = wake;
            }
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    // Actions that queued up meanwhile are stored together (`handle_acts`).
                    Some(cmd @ Cmd::Act { .. }) => {
                        let mut acts = vec![cmd];
                        let mut other = None;
                        while acts.len() < ACT_BATCH {
                            match rx.try_recv() {
                                Ok(cmd @ Cmd::Act { .. }) => acts.push(cmd),
                                Ok(cmd) => {
                                    other = Some(cmd);
                                    break;
                                }
                                Err(_) => break,
                            }
                        }
                        let m = &self.shared.metrics;
                        m.act_rounds.fetch_add(1, Relaxed);
                        m.acts_taken.fetch_add(acts.len() as u64, Relaxed);
                        self.handle_acts(acts).await;
                        if let Some(cmd) = other {
                            self.handle(cmd).await;
                        }
                    }
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = &mut timer, if armed.is_some() => {
                    // Fired: armed again below even if the next wake-up is the same instant.
                    armed = None;
                    self.on_wake().await
                }
                _ = &mut stop => break,
                _ = &mut lost => break,
            }
            if self.flush_at.is_some_and(|t| t <= Instant::now()) {
                self.quiet = Some(false); // the held frames' time is up
            }
            self.kick_connections();
            if *shutdown.borrow() {
                break;
            }
            // A finished game's task ends when nobody watches and its result is stored (else
            // it retries that; a restart would store it too, by replaying the complete log).
            if self.finished && self.stored_finished && self.subs.is_empty() {
                break;
            }
        }
        // Stop taking commands before leaving the registry, so nobody queues into a dead inbox.
        rx.close();
        if let Some(l) = &self.lease {
            l.node.release(&self.id, l.epoch);
        }
        self.shared.forget_room(&self.id);
        self.shared.metrics.rooms.fetch_sub(1, Relaxed);
        tracing::debug!(game = %self.id, "game task stopped");
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Subscribe { conn, observer, viewer, out, direct, changed_views, done } => {
                if let Observer::Seat(s) = observer
                    && let Some(p) = self.presence.get_mut(s.index())
                {
                    p.conns += 1;
                    p.away_since = None;
                    // A bot that stood in keeps playing until its player takes the seat back
                    // (`take_back`, or any action of theirs): the table says so (below).
                    if p.stand_in && p.conns == 1 {
                        self.broadcast_all(&ServerMsg::Presence {
                            seat: s.0,
                            connected: true,
                            bot: true,
                            resigned: false,
                        });
                    }
                }
                let hidden = |speaker: &str| self.shared.blocks.hides(viewer.as_deref(), speaker);
                let lines: Vec<protocol::ChatLine> = self.shared.chats.lines_hiding(
                    &self.id,
                    crate::chat::visible(
                        protocol::ChatChannel::Spectators,
                        matches!(observer, Observer::Seat(_)),
                        self.finished,
                    ),
                    hidden,
                );
                self.subs.insert(
                    conn,
                    Sub {
                        observer,
                        viewer,
                        changed_views,
                        out,
                        direct: crate::ws::DirectHandle(direct),
                    },
                );
                self.send_welcome(conn, true);
                // What a new connection cannot know otherwise: seats a bot plays for their
                // player (away, or resigned), and the chat kept so far that it may see.
                for (i, p) in self.presence.iter().enumerate() {
                    let resigned = matches!(self.seats.get(i), Some(SeatOwner::Resigned { .. }));
                    if p.stand_in || resigned {
                        let msg = ServerMsg::Presence {
                            seat: i as u8,
                            connected: p.conns > 0,
                            bot: true,
                            resigned,
                        };
                        if let Some(sub) = self.subs.get(&conn) {
                            let _ = sub.out.try_send(msg.to_frame().into());
                        }
                    }
                }
                for line in lines {
                    self.send_to(conn, &ServerMsg::Chat { line });
                }
                let _ = done.send(());
            }
            Cmd::Chat { line, speaker } => {
                self.loud();
                let finished = self.finished;
                let frame: Frame = ServerMsg::Chat { line: line.clone() }.to_frame().into();
                for sub in self.subs.values() {
                    let player = matches!(sub.observer, Observer::Seat(_));
                    if crate::chat::visible(line.channel, player, finished)
                        && !self.shared.blocks.hides(sub.viewer.as_deref(), &speaker)
                    {
                        let _ = sub.out.try_send(frame.clone());
                    }
                }
            }
            Cmd::TakeBack { conn } => {
                let Some(Observer::Seat(s)) = self.subs.get(&conn).map(|sub| sub.observer) else {
                    return self.reply_error(
                        conn,
                        ErrorCode::NotAPlayer,
                        None,
                        "you hold no seat in this game",
                        None,
                    );
                };
                if !self.take_back(s) {
                    self.reply_error(
                        conn,
                        ErrorCode::NothingToTakeBack,
                        None,
                        "no bot is playing for you",
                        None,
                    );
                }
            }
            Cmd::Rematch { conn, accept } => self.rematch(conn, accept).await,
            Cmd::Resign { seat } => {
                if let Some(SeatOwner::Human { identity, name }) = self.seats.get(seat.index()) {
                    let (identity, name) = (identity.clone(), name.clone());
                    self.seats[seat.index()] = SeatOwner::Resigned { identity, name };
                    if let Some(p) = self.presence.get_mut(seat.index()) {
                        p.stand_in = false;
                        p.away_since = None;
                    }
                    let connected = self.presence.get(seat.index()).is_some_and(|p| p.conns > 0);
                    self.broadcast_all(&ServerMsg::Presence {
                        seat: seat.0,
                        connected,
                        bot: true,
                        resigned: true,
                    });
                    self.schedule_bots();
                }
            }
            Cmd::Unsubscribe { conn } => self.drop_sub(conn),
            Cmd::PublishWelcome => self.publish_welcome(),
            Cmd::Sync { conn } => self.send_welcome(conn, false),
            Cmd::Act { conn, seat, action, id, received } => {
                let own = match self.actor(conn, seat) {
                    Ok(Some(own)) => own,
                    Ok(None) => return,
                    Err((code, msg)) => return self.reply_error(conn, code, None, msg, id),
                };
                match self.act(own, &action).await {
                    Ok((events, touched)) => {
                        // Acting is taking the seat back from a bot that stood in.
                        self.take_back(own);
                        self.send_to(conn, &ServerMsg::Ack { id, seq: self.seq });
                        self.broadcast_update(&events, touched);
                        self.shared.metrics.observe_latency(received.elapsed());
                        self.after_change().await;
                    }
                    Err((code, rule, msg)) => self.reply_error(conn, code, rule, &msg, id),
                }
            }
            Cmd::BotMove { seat, action } => {
                self.bot_pending.remove(seat);
                if !self.bot_plays(seat) {
                    return; // the player came back
                }
                let Some(action) = action else { return };
                match self.act(seat, &action).await {
                    Ok((events, touched)) => {
                        self.shared.metrics.bot_actions.fetch_add(1, Relaxed);
                        self.broadcast_update(&events, touched);
                        self.after_change().await;
                    }
                    // Storage failing: the bots try again when the backoff is over, not now.
                    Err((ErrorCode::StorageUnavailable, ..)) => self.retry_bots_later(),
                    Err((code, rule, msg)) => {
                        tracing::warn!(game = %self.id, %seat, ?code, ?rule, %msg, "bot move refused");
                        self.schedule_bots();
                    }
                }
            }
        }
    }

    /// After each command: every connection with frames queued is written to (or its loop
    /// woken to write them), all of one command's frames for it in one write (`ws::Direct`) —
    /// except, within the send window (`Config::send_window`, docs/protocol.md "When frames
    /// are sent"), the connections other than the actor's when all they were sent says only
    /// that seats became ready: those are held (still queued, in order) and written with the
    /// next frame that may not wait, or when the window ends, so that several players'
    /// "ready" updates reach a connection in one write.
    fn kick_connections(&mut self) {
        let direct = self.shared.config.direct_writes;
        let window = self.shared.config.send_window;
        let m = &self.shared.metrics;
        let hold = self.quiet != Some(false) && !window.is_zero();
        let mut held = false;
        for (conn, sub) in &self.subs {
            if hold && !self.urgent.contains(conn) {
                if sub.out.capacity() < sub.out.max_capacity() {
                    held = true;
                }
                continue;
            }
            sub.direct.kick_if_queued(&sub.out, direct, m);
        }
        if !hold {
            self.flush_at = None;
        } else if held && self.flush_at.is_none() {
            m.send_windows.fetch_add(1, Relaxed);
            self.flush_at = Some(Instant::now() + window);
        }
        self.quiet = None;
        self.urgent.clear();
    }

    /// Frames that may not wait were queued for connections other than the actor's.
    fn loud(&mut self) {
        self.quiet = Some(false);
    }

    /// The seat a connection's action is for (`None`: the connection is gone), or why it may
    /// not act.
    fn actor(
        &self,
        conn: u64,
        seat: Option<u8>,
    ) -> Result<Option<Seat>, (ErrorCode, &'static str)> {
        let Some(sub) = self.subs.get(&conn) else { return Ok(None) };
        let Observer::Seat(own) = sub.observer else {
            return Err((ErrorCode::NotAPlayer, "you hold no seat in this game"));
        };
        if matches!(self.seats.get(own.index()), Some(SeatOwner::Resigned { .. })) {
            return Err((ErrorCode::Resigned, "you resigned: a bot plays your seat to the end"));
        }
        if seat.is_some_and(|s| s != own.0) {
            return Err((ErrorCode::NotYourSeat, "that seat belongs to someone else"));
        }
        if self.finished {
            return Err((ErrorCode::GameOver, "the game is over"));
        }
        Ok(Some(own))
    }

    /// Apply through the engine (not stored yet): the log entry, the events, and whose views
    /// the action may have changed (the game's `views_touched`).
    #[allow(clippy::type_complexity)]
    fn apply(
        &mut self,
        seat: Seat,
        action: &Value,
    ) -> Result<(Entry, Vec<(Audience, Value)>, Touched), (ErrorCode, Option<String>, String)> {
        let applied = self.game.apply_json(seat, action).map_err(|e| {
            self.shared.metrics.rejected.fetch_add(1, Relaxed);
            match e {
                ActError::BadAction(m) => (ErrorCode::BadAction, None, m),
                ActError::Rule { code, message } => {
                    (ErrorCode::IllegalAction, Some(code.to_string()), message)
                }
            }
        })?;
        Ok((LogEntry::Act { seat, action: applied.action }, applied.events, applied.touched))
    }

    /// Apply through the engine, store, or restore: the stored log and the game never disagree.
    async fn act(
        &mut self,
        seat: Seat,
        action: &Value,
    ) -> Result<(Vec<(Audience, Value)>, Touched), (ErrorCode, Option<String>, String)> {
        let backup = self.game.clone_box();
        let (entry, events, touched) = self.apply(seat, action)?;
        if let Err(e) = self.store(&entry).await {
            self.game = backup;
            return Err((ErrorCode::StorageUnavailable, None, e));
        }
        Ok((events, touched))
    }

    /// Players' actions that queued up while the task waited for storage: each checked and
    /// applied in turn as if alone, their frames built, then all stored in one append (one
    /// group commit, `Store::append_many`), and only then acknowledged and broadcast, each
    /// connection's frames queued together so that its loop writes them at once
    /// (docs/benchmarks.md "Server"). Every connection receives the same frames, in the same
    /// order, as when the actions are handled one by one. Whatever needs more than that (a bot
    /// standing in for the actor, a lesson, a turn-based game, the game's end) ends the batch,
    /// and the rest is handled one by one. A cluster node's game (a lease) is handled one by
    /// one too: each of its writes is fenced by the lease (`Store::append_fenced`).
    async fn handle_acts(&mut self, acts: Vec<Cmd>) {
        if acts.len() == 1 || self.lesson.is_some() || self.turn.is_some() || self.lease.is_some() {
            for cmd in acts {
                self.handle(cmd).await;
            }
            return;
        }
        let first = self.seq;
        let mut done: Vec<Done> = Vec::with_capacity(acts.len());
        let mut entries = Vec::with_capacity(acts.len());
        // Before each accepted action: the state to go back to.
        let mut saved: Vec<(usize, Saved)> = Vec::new();
        let mut rest = acts.into_iter();
        for cmd in rest.by_ref() {
            let Cmd::Act { conn, seat, action, id, received } = cmd else { continue };
            let own = match self.actor(conn, seat) {
                Ok(Some(own)) => own,
                Ok(None) => continue,
                Err((code, msg)) => {
                    done.push(Done::Refused { conn, id, code, rule: None, msg: msg.into() });
                    continue;
                }
            };
            if self.presence.get(own.index()).is_some_and(|p| p.stand_in) {
                // Taking the seat back is told before the ack: one by one from here.
                let cmd = Cmd::Act { conn, seat, action, id, received };
                self.store_acts(first, entries, saved, done).await;
                self.handle(cmd).await;
                for cmd in rest {
                    self.handle(cmd).await;
                }
                return;
            }
            let backup = (
                self.game.clone_box(),
                self.deadline,
                self.clock_deadline,
                self.clock,
                self.last_waiting.clone(),
                self.marks.clone(),
            );
            match self.apply(own, &action) {
                Ok((entry, events, touched)) => {
                    saved.push((done.len(), backup));
                    entries.push(entry);
                    let seq = first + entries.len() as u64;
                    let frames = self.update_frames(seq, &events, touched);
                    done.push(Done::Accepted { conn, id, received, frames });
                    if self.game.decision().is_none() {
                        break; // the game is over: what follows meets a finished game
                    }
                }
                Err((code, rule, msg)) => done.push(Done::Refused { conn, id, code, rule, msg }),
            }
        }
        self.store_acts(first, entries, saved, done).await;
        for cmd in rest {
            self.handle(cmd).await;
        }
    }

    /// Store a batch's entries, then send its frames (see `handle_acts`).
    async fn store_acts(
        &mut self,
        first: u64,
        entries: Vec<Entry>,
        mut saved: Vec<(usize, Saved)>,
        mut done: Vec<Done>,
    ) {
        let faults = &self.shared.faults;
        let (stored, failure) = if entries.is_empty() {
            (0, None)
        } else if faults.backing_off().is_some() {
            faults.storage_refused.fetch_add(1, Relaxed);
            (0, Some("storage is unavailable; nothing changed: try again later".to_string()))
        } else {
            let (n, e) = self.shared.store.append_many(&self.id, first, &entries).await;
            if n > 0 {
                faults.write_ok();
            }
            (
                n,
                e.map(|e| {
                    tracing::error!(game = %self.id, error = %e, "cannot store an action");
                    faults.write_failed(&e);
                    "the action could not be stored; nothing changed: try again later".to_string()
                }),
            )
        };
        self.seq = first + stored as u64;
        self.shared.metrics.actions.fetch_add(stored as u64, Relaxed);
        if let Some(msg) = failure {
            // Back to the state before the first action not stored; it and every one
            // after it (checked against a state that is no more) are refused.
            let (from, (game, deadline, clock_deadline, clock, last_waiting, marks)) =
                saved.swap_remove(stored);
            self.game = game;
            self.marks = marks;
            (self.deadline, self.clock_deadline, self.clock) = (deadline, clock_deadline, clock);
            self.last_waiting = last_waiting;
            for d in &mut done[from..] {
                let (Done::Accepted { conn, id, .. } | Done::Refused { conn, id, .. }) = *d;
                *d = Done::Refused {
                    conn,
                    id,
                    code: ErrorCode::StorageUnavailable,
                    rule: None,
                    msg: msg.clone(),
                };
            }
        }
        let mut seq = first;
        for d in &done {
            if let Done::Accepted { frames, .. } = d {
                seq += 1;
                self.publish_update(seq, frames);
            }
        }
        for d in &done {
            let (Done::Accepted { conn, .. } | Done::Refused { conn, .. }) = d;
            self.urgent.push(*conn);
        }
        let mut dead = Vec::new();
        for (c, sub) in &self.subs {
            let mut seq = first;
            for d in &done {
                let frame = match d {
                    Done::Accepted { conn, id, frames, .. } => {
                        seq += 1;
                        if conn == c {
                            let ack = ServerMsg::Ack { id: *id, seq }.to_frame().into();
                            if sub.out.try_send(ack).is_err() {
                                dead.push(*c);
                                break;
                            }
                        }
                        ObserverUpdate::for_sub(frames, sub).cloned()
                    }
                    Done::Refused { conn, id, code, rule, msg } if conn == c => {
                        let e = ServerMsg::Error {
                            code: *code,
                            rule: rule.clone(),
                            message: msg.clone(),
                            id: *id,
                        };
                        Some(e.to_frame().into())
                    }
                    Done::Refused { .. } => None,
                };
                if let Some(f) = frame
                    && sub.out.try_send(f).is_err()
                {
                    dead.push(*c);
                    break;
                }
            }
        }
        for conn in dead {
            self.shared.metrics.frames_dropped.fetch_add(1, Relaxed);
            self.drop_sub(conn);
        }
        for d in &done {
            if let Done::Accepted { received, .. } = d {
                self.shared.metrics.observe_latency(received.elapsed());
            }
        }
        if stored > 0 {
            self.after_change().await;
        }
    }

    /// Append to the stored log; refused at once while storage is backing off (no write is
    /// tried, so a full disk costs no work per attempt), and a failure starts a backoff.
    async fn store(&mut self, entry: &Entry) -> Result<(), String> {
        let faults = &self.shared.faults;
        if faults.backing_off().is_some() {
            faults.storage_refused.fetch_add(1, Relaxed);
            return Err("storage is unavailable; nothing changed: try again later".into());
        }
        let written = match &self.lease {
            Some(l) => {
                let node = &l.node.cluster.node;
                self.shared.store.append_fenced(&self.id, self.seq, entry, node, l.epoch).await
            }
            None => self.shared.store.append(&self.id, self.seq, entry).await,
        };
        match written {
            Err(crate::store::StoreError::Fenced) => {
                // Another node owns the game now: this task stops (nothing was written).
                if let Some(l) = &self.lease {
                    l.lost.notify_one();
                }
                Err("this game moved to another server: reconnect".into())
            }
            Ok(()) => {
                faults.write_ok();
                self.seq += 1;
                self.shared.metrics.actions.fetch_add(1, Relaxed);
                Ok(())
            }
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "cannot store an action");
                faults.write_failed(&e);
                Err("the action could not be stored; nothing changed: try again later".into())
            }
        }
    }

    /// After every change: finish, reset the timer, wake bots.
    async fn after_change(&mut self) {
        let decision = self.game.decision();
        if decision.is_none() {
            if !self.finished {
                self.finished = true;
                self.deadline = None;
                self.clock_deadline = None;
                self.bot_cancel.0.store(true, Relaxed);
                if !self.stored_finished {
                    // The log that ends the game is stored; the result (the lobby's "finished",
                    // the ratings) is stored first, so whoever is told the game is over finds
                    // its result and replay; with storage failing, everyone is told at once all
                    // the same, and the result is stored when the backoff is over.
                    self.store_result().await;
                    let outcome = self.game.outcome_json().unwrap_or(Value::Null);
                    self.shared.metrics.games_finished.fetch_add(1, Relaxed);
                    self.broadcast_all(&ServerMsg::Over { outcome });
                    tracing::info!(game = %self.id, "game over");
                    // The game is over: players now see what the spectators said (not the
                    // lines of those they block).
                    self.loud();
                    for sub in self.subs.values() {
                        if !matches!(sub.observer, Observer::Seat(_)) {
                            continue;
                        }
                        let hidden = |speaker: &str| {
                            self.shared.blocks.hides(sub.viewer.as_deref(), speaker)
                        };
                        for line in self.shared.chats.lines_hiding(&self.id, true, hidden) {
                            if line.channel == protocol::ChatChannel::Spectators {
                                let frame: Frame = ServerMsg::Chat { line }.to_frame().into();
                                let _ = sub.out.try_send(frame);
                            }
                        }
                    }
                }
            }
            self.last_waiting = None;
            self.turn_due_ms = None;
            self.store_turn().await;
            self.shared.note_waiting(&self.id, &self.seats, &[]);
            return;
        }
        self.shared.note_waiting(&self.id, &self.seats, &self.waiting());
        self.restart_clocks();
        self.schedule_bots();
        self.store_turn().await;
        self.store_timers().await;
    }

    /// A cluster node's game: its timers stored when they changed, so that a node taking it
    /// over goes on with them (a failure is logged: a takeover then starts fresh clocks).
    async fn store_timers(&mut self) {
        let Some(l) = &self.lease else { return };
        let now = (self.deadline, self.clock_deadline);
        if self.timers_stored == Some(now) {
            return;
        }
        let left = |d: Option<Instant>| {
            d.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as i64)
        };
        let t = crate::cluster::StoredTimers {
            seq: self.seq,
            deadline_left_ms: left(self.deadline),
            clock_left_ms: left(self.clock_deadline),
        };
        let node = &l.node.cluster.node;
        match self.shared.store.set_timers_fenced(&self.id, node, l.epoch, &t).await {
            Ok(()) => self.timers_stored = Some(now),
            // Another node owns the game now: nothing was written, this task stops.
            Err(crate::store::StoreError::Fenced) => {
                tracing::warn!(game = %self.id, "timers not stored: the lease moved on");
                l.lost.notify_one();
            }
            Err(e) => tracing::error!(game = %self.id, error = %e, "cannot store the timers"),
        }
    }

    /// A turn-based game's deadline and who owes the decision, stored when they changed (a
    /// failure is logged: the game goes on, and a restart then gives the decision a fresh
    /// clock).
    async fn store_turn(&mut self) {
        let Some(stored) = &self.turn else { return };
        let now = crate::platform_store::TurnClock {
            per_move_secs: stored.per_move_secs,
            due_ms: self.turn_due_ms,
            waiting: self.waiting(),
        };
        if *stored == now {
            return;
        }
        let platform = self.shared.store.platform();
        let written = match &self.lease {
            Some(l) => {
                let node = &l.node.cluster.node;
                platform.set_turn_clock_fenced(&self.id, &now, node, l.epoch).await
            }
            None => platform.set_turn_clock(&self.id, &now).await,
        };
        match written {
            Ok(()) => self.turn = Some(now),
            // Another node owns the game now: nothing was written, this task stops.
            Err(crate::store::StoreError::Fenced) => {
                tracing::warn!(game = %self.id, "turn clock not stored: the lease moved on");
                if let Some(l) = &self.lease {
                    l.lost.notify_one();
                }
            }
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "cannot store a turn-based clock")
            }
        }
    }

    /// The clocks after a change, before any frame tells of it (so that the frame carries the
    /// new deadline): the server's timer restarts when a new decision begins (a different
    /// kind, or more seats owing); the rules' clock when it appears or changes (who it runs
    /// for, its length), not when a draft or anything else leaves it as it was. Calling it
    /// twice changes nothing the second time.
    fn restart_clocks(&mut self) {
        let decision = self.game.decision();
        if decision.is_none() {
            (self.deadline, self.clock_deadline, self.clock) = (None, None, None);
            return;
        }
        let fresh = match (&self.last_waiting, &decision) {
            (Some(Decision::Simultaneous(a)), Some(Decision::Simultaneous(b))) => {
                b.iter().any(|s| !a.contains(s))
            }
            (Some(a), Some(b)) => a != b,
            _ => true,
        };
        // A turn-based game's clock also starts again after it ran out (`time_up` took it).
        if fresh || (self.turn.is_some() && self.deadline.is_none()) {
            self.deadline = self.timer.map(|t| Instant::now() + t);
            if self.turn.is_some() {
                self.turn_due_ms =
                    self.timer.map(|t| crate::turns::now_ms() + t.as_millis() as i64);
            }
        }
        self.last_waiting = decision;
        let clock = self.game.clock();
        if clock != self.clock {
            self.clock_deadline =
                clock.map(|c| Instant::now() + Duration::from_secs(u64::from(c.seconds)));
            self.clock = clock;
        }
    }

    /// The seat's player takes it back from a bot standing in; false if none was.
    fn take_back(&mut self, seat: Seat) -> bool {
        let Some(p) = self.presence.get_mut(seat.index()) else { return false };
        if !p.stand_in {
            return false;
        }
        p.stand_in = false;
        let connected = p.conns > 0;
        self.broadcast_all(&ServerMsg::Presence {
            seat: seat.0,
            connected,
            bot: false,
            resigned: false,
        });
        true
    }

    /// A rematch after the game (docs/protocol.md "Rematch"): every seat's player (bots and
    /// resigned players are not asked) accepts; the last acceptance creates the new game with
    /// the same seats and settings and a fresh seed, and every connection is sent there. A
    /// decline ends the proposal. One rematch per game while its task runs: asking again
    /// answers the game already made.
    async fn rematch(&mut self, conn: u64, accept: bool) {
        let Some(Observer::Seat(s)) = self.subs.get(&conn).map(|sub| sub.observer) else {
            return self.reply_error(
                conn,
                ErrorCode::NoRematch,
                None,
                "only the game's players may ask for a rematch",
                None,
            );
        };
        if !self.finished {
            return self.reply_error(
                conn,
                ErrorCode::NoRematch,
                None,
                "a rematch is for a finished game",
                None,
            );
        }
        let humans: Vec<u8> = self
            .seats
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o, SeatOwner::Human { .. }))
            .map(|(i, _)| i as u8)
            .collect();
        if let Some(game) = self.rematch_game.clone() {
            let msg = ServerMsg::Rematch {
                accepted: humans.clone(),
                asked: vec![],
                declined: None,
                game: Some(game),
            };
            return self.send_to(conn, &msg);
        }
        if !accept {
            self.rematch_yes = engine::SeatSet::EMPTY;
            let msg = ServerMsg::Rematch {
                accepted: vec![],
                asked: vec![],
                declined: Some(s.0),
                game: None,
            };
            return self.broadcast_all(&msg);
        }
        self.rematch_yes.insert(s);
        let accepted: Vec<u8> =
            humans.iter().copied().filter(|h| self.rematch_yes.contains(Seat(*h))).collect();
        let asked: Vec<u8> =
            humans.iter().copied().filter(|h| !self.rematch_yes.contains(Seat(*h))).collect();
        let mut game = None;
        if asked.is_empty() {
            match self.shared.create_rematch(&self.id).await {
                Ok(id) => {
                    self.rematch_game = Some(id.clone());
                    game = Some(id);
                }
                Err(e) => {
                    let msg = format!("the rematch could not be created: {e}");
                    return self.reply_error(conn, ErrorCode::StorageUnavailable, None, &msg, None);
                }
            }
        }
        self.broadcast_all(&ServerMsg::Rematch { accepted, asked, declined: None, game });
    }

    /// Store the result of a finished game; with storage failing, try again after the backoff
    /// (a failed attempt counts as a failed write, like any other).
    async fn store_result(&mut self) {
        let faults = &self.shared.faults;
        if let Some(at) = faults.backing_off() {
            faults.storage_refused.fetch_add(1, Relaxed);
            self.finish_retry = Some(at);
            return;
        }
        let outcome = self.game.outcome_json().unwrap_or(Value::Null);
        let (game, seats) = (self.game.name(), &self.seats);
        let stored =
            self.shared.store_result(&self.id, game, seats, self.practice, self.stood_in, &outcome);
        match stored.await {
            Ok(()) => {
                faults.write_ok();
                self.stored_finished = true;
                self.finish_retry = None;
                self.shared.lobby_changed();
            }
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "cannot store a result");
                self.finish_retry = Some(faults.write_failed(&e));
            }
        }
    }

    fn bot_spec(&self, seat: Seat) -> Option<BotSpec> {
        match self.seats.get(seat.index())? {
            SeatOwner::Bot { spec } => spec.parse().ok().or(Some(BotSpec::Random)),
            SeatOwner::Human { .. } if self.presence.get(seat.index())?.stand_in => {
                Some(BotSpec::Random)
            }
            SeatOwner::Resigned { .. } => Some(BotSpec::Random),
            _ => None,
        }
    }

    fn bot_plays(&self, seat: Seat) -> bool {
        self.bot_spec(seat).is_some()
    }

    /// Wake the bots when storage's backoff is over (at least a backoff step from now).
    fn retry_bots_later(&mut self) {
        let at = self
            .shared
            .faults
            .backing_off()
            .unwrap_or_else(|| Instant::now() + crate::faults::BACKOFF_START);
        self.bot_retry = Some(at);
    }

    /// Ask the worker pool for every owed bot decision not already being thought about.
    fn schedule_bots(&mut self) {
        if self.shared.faults.backing_off().is_some() {
            // Nothing could be stored now: no bot thinks until storage may work again.
            return self.retry_bots_later();
        }
        let Some(decision) = self.game.decision() else { return };
        for seat in decision.seats().iter() {
            if self.bot_pending.contains(seat) {
                continue;
            }
            let Some(spec) = self.bot_spec(seat) else { continue };
            let Some(me) = self.me.upgrade() else { return };
            self.bot_pending.insert(seat);
            let game = self.game.clone_box();
            let shared = self.shared.clone();
            let lane = self.bot_lane.clone();
            let cancel = self.bot_cancel.0.clone();
            let delay = shared.config.bot_delay;
            let ceiling = Duration::from_millis(shared.config.max_bot_ms);
            let mut rng = Rng::seeded(
                self.seed ^ (self.seq.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ (seat.0 as u64) << 56,
            );
            tokio::spawn(async move {
                let started = Instant::now();
                let action = {
                    // This game's turn in the pool's queue first, then a worker.
                    let Ok(_lane) = lane.acquire_owned().await else { return };
                    if cancel.load(Relaxed) {
                        return;
                    }
                    let queued = shared.bot_grants.load(SeqCst);
                    let Ok(_worker) = shared.bot_pool.clone().acquire_owned().await else {
                        return;
                    };
                    let before = shared.bot_grants.fetch_add(1, SeqCst);
                    let overtaken = before.saturating_sub(queued);
                    shared.metrics.bot_overtaken_max.fetch_max(overtaken, Relaxed);
                    let stop = Stop::at(std::time::Instant::now() + ceiling)
                        .or_flag(cancel)
                        .or_flag(shared.bots_cancel.clone());
                    if stop.cancelled() {
                        return;
                    }
                    let thinker = shared.clone();
                    let thinking = tokio::task::spawn_blocking(move || {
                        let m = &thinker.metrics;
                        m.bots_thinking.fetch_add(1, Relaxed);
                        let a = game.bot_action(&spec, seat, &mut rng, &stop);
                        if stop.now() {
                            m.bot_stopped.fetch_add(1, Relaxed);
                        }
                        m.bots_thinking.fetch_sub(1, Relaxed);
                        a
                    });
                    thinking.await.ok().flatten()
                };
                tokio::time::sleep_until(started + delay).await;
                let _ = me.send(Cmd::BotMove { seat, action }).await;
            });
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        let wake = self.next_game_wake();
        match (wake, self.flush_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn next_game_wake(&self) -> Option<Instant> {
        if self.finished {
            return self.finish_retry;
        }
        let grace = self.shared.config.grace;
        let waiting = self.game.decision().map(|d| d.seats()).unwrap_or_default();
        let away = self
            .presence
            .iter()
            .enumerate()
            .filter(|(i, p)| !p.stand_in && waiting.contains(Seat(*i as u8)))
            .filter_map(|(_, p)| p.away_since.map(|t| t + grace))
            .min();
        [self.deadline, self.clock_deadline, away, self.bot_retry].into_iter().flatten().min()
    }

    async fn on_wake(&mut self) {
        let now = Instant::now();
        if self.finished {
            if self.finish_retry.is_some_and(|t| t <= now) {
                self.finish_retry = None;
                self.store_result().await;
            }
            return;
        }
        if self.bot_retry.is_some_and(|t| t <= now) {
            self.bot_retry = None;
            self.schedule_bots();
        }
        // Players away past the grace period: a bot stands in until they come back.
        let grace = self.shared.config.grace;
        let mut changed = false;
        for (i, p) in self.presence.iter_mut().enumerate() {
            if !p.stand_in && p.away_since.is_some_and(|t| t + grace <= now) {
                p.stand_in = true;
                self.stood_in = true;
                changed = true;
                let msg = ServerMsg::Presence {
                    seat: i as u8,
                    connected: p.conns > 0,
                    bot: true,
                    resigned: false,
                };
                let frame: Frame = msg.to_frame().into();
                crate::fanout::publish(
                    &self.shared,
                    &self.id,
                    crate::fanout::OTHER,
                    self.seq,
                    &frame,
                );
                self.quiet = Some(false);
                for sub in self.subs.values() {
                    let _ = sub.out.try_send(frame.clone());
                }
            }
        }
        if changed {
            self.schedule_bots();
        }
        if self.deadline.is_some_and(|d| d <= now) || self.clock_deadline.is_some_and(|d| d <= now)
        {
            let saved = (self.deadline.take(), self.clock_deadline.take(), self.clock.take());
            let backup = self.game.clone_box();
            match self.game.time_up() {
                Ok(events) => {
                    if self.store(&LogEntry::TimeUp).await.is_err() {
                        self.game = backup;
                        // Again when storage's backoff is over.
                        let again = Some(
                            self.shared
                                .faults
                                .backing_off()
                                .unwrap_or(now + crate::faults::BACKOFF_START),
                        );
                        self.clock = saved.2;
                        if saved.1.is_some_and(|d| d <= now) {
                            (self.deadline, self.clock_deadline) = (saved.0, again);
                        } else {
                            (self.deadline, self.clock_deadline) = (again, saved.1);
                        }
                        return;
                    }
                    self.shared.metrics.timeouts.fetch_add(1, Relaxed);
                    self.broadcast_update(&events, Touched::All);
                    self.after_change().await;
                }
                Err(e) => tracing::warn!(game = %self.id, ?e, "time_up refused"),
            }
        }
    }

    fn waiting(&self) -> Vec<u8> {
        self.game.decision().map(|d| d.seats().iter().map(|s| s.0).collect()).unwrap_or_default()
    }

    /// The clock that runs out first: its deadline and who it runs for (the rules' clock: its
    /// seats; the server's timer: every waiting seat).
    fn running_clock(&self) -> Option<(Instant, Vec<u8>)> {
        let rules = self
            .clock_deadline
            .zip(self.clock)
            .map(|(d, c)| (d, c.seats.iter().map(|s| s.0).collect::<Vec<u8>>()));
        let server = self.deadline.map(|d| (d, self.waiting()));
        match (rules, server) {
            (Some(r), Some(s)) => Some(if r.0 <= s.0 { r } else { s }),
            (r, s) => r.or(s),
        }
    }

    fn time_left_ms(&self) -> Option<u64> {
        self.running_clock()
            .map(|(d, _)| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    fn clock_for(&self) -> Vec<u8> {
        self.running_clock().map(|(_, s)| s).unwrap_or_default()
    }

    /// The welcome: with the static part on a new connection (`with_static`), without on `sync`.
    fn send_welcome(&mut self, conn: u64, with_static: bool) {
        let Some(sub) = self.subs.get(&conn) else { return };
        let seats = match sub.observer {
            Observer::Seat(s) => vec![s.0],
            _ => vec![],
        };
        let observer = sub.observer;
        if sub.changed_views {
            // The connection holds this view from now on: so do all of its observer's (they
            // were sent it with the last update, or have none).
            let mark = with_view(&*self.game, observer, view_mark);
            self.set_mark(observer, mark);
        }
        let msg = ServerMsg::Welcome {
            game_id: self.id.clone(),
            game: self.game.name().to_string(),
            seats,
            seq: self.seq,
            static_id: self.static_id.clone(),
            static_data: with_static.then(|| self.static_data.clone()),
            view: self.game.view_json(observer),
            waiting: self.waiting(),
            time_left_ms: self.time_left_ms(),
            clock_for: self.clock_for(),
            practice: self.practice,
        };
        self.send_to(conn, &msg);
        if let Some(msg) = self.lesson_msg() {
            self.send_to(conn, &msg);
        }
        if self.finished {
            let outcome = self.game.outcome_json().unwrap_or(Value::Null);
            self.send_to(conn, &ServerMsg::Over { outcome });
        }
    }

    /// Each connection gets the events its observer may see and its own view. Each event is
    /// serialised once and each observer's frame once, however many connections share it.
    /// `touched`: whose views the change may have changed (the game's `views_touched`).
    fn broadcast_update(&mut self, events: &[(Audience, Value)], touched: Touched) {
        let frames = self.update_frames(self.seq, events, touched);
        self.publish_update(self.seq, &frames);
        let mut dead = Vec::new();
        for (conn, sub) in &self.subs {
            let Some(frame) = ObserverUpdate::for_sub(&frames, sub) else {
                continue;
            };
            if sub.out.try_send(frame.clone()).is_err() {
                dead.push(*conn);
            }
        }
        for conn in dead {
            self.shared.metrics.frames_dropped.fetch_add(1, Relaxed);
            self.drop_sub(conn);
        }
        self.check_lesson();
    }

    /// The update frames of every observer among the connections (at log length `seq`), after
    /// the clocks are restarted for the new position: each observer's view is written once,
    /// and from that one text come its whole frame and, for connections that asked for
    /// changed views only, the frame without it when it is the same as in their last frame.
    /// An observer the change did not touch (`touched`, the game crate's rule) whose
    /// connections all asked and hold a view gets the frame without it, its view not even
    /// written: it is the one they hold (checked against the fingerprint in debug builds).
    fn update_frames(
        &mut self,
        seq: u64,
        events: &[(Audience, Value)],
        touched: Touched,
    ) -> Vec<ObserverUpdate> {
        let (before, clock) = (self.last_waiting.clone(), self.clock);
        self.restart_clocks();
        // Only "a seat committed (part of) its choice": a simultaneous decision that goes on
        // with the same seats or fewer and no other, and the rules' clock as it was.
        let quiet = match (&before, &self.last_waiting) {
            (Some(Decision::Simultaneous(a)), Some(Decision::Simultaneous(b))) => {
                !b.is_empty() && b.iter().all(|s| a.contains(s))
            }
            _ => false,
        } && self.clock == clock;
        self.quiet = Some(self.quiet.unwrap_or(true) && quiet);
        let waiting = self.waiting();
        let time_left_ms = self.time_left_ms();
        let clock_for = self.clock_for();
        // An event only its seat may see is marked `"private": true`: the table logs the public
        // record only, so its log after a reload (from the spectator's steps) is the same.
        let events: Vec<(Audience, String)> = events
            .iter()
            .map(|(a, e)| match (a, e) {
                (Audience::Seat(_), Value::Object(m)) => (*a, private_event_text(m)),
                _ => (*a, e.to_string()),
            })
            .collect();
        // Spectators on other nodes (`fanout`): the spectators' whole frame is always made
        // (Redis carries whole views only).
        let bus = self.shared.bus.get().is_some();
        // A handful of observers per game: a list is cheaper than a map. Per observer: whether
        // a connection wants the whole view, whether one asked for changed views only.
        let mut observers: Vec<(Observer, bool, bool)> = Vec::new();
        for sub in self.subs.values() {
            match observers.iter_mut().find(|(o, ..)| *o == sub.observer) {
                Some((_, whole, changed)) => {
                    *whole |= !sub.changed_views;
                    *changed |= sub.changed_views;
                }
                None => observers.push((sub.observer, !sub.changed_views, sub.changed_views)),
            }
        }
        if bus {
            match observers.iter_mut().find(|(o, ..)| *o == Observer::Spectator) {
                Some((_, whole, _)) => *whole = true,
                None => observers.push((Observer::Spectator, true, false)),
            }
        }
        let mut frames = Vec::with_capacity(observers.len());
        for (observer, whole, changed) in observers {
            let seen = events.iter().filter(|(a, _)| a.admits(observer)).map(|(_, e)| e.as_str());
            let frame = |view: Option<&str>| -> Frame {
                ServerMsg::update_frame(seq, seen.clone(), view, &waiting, time_left_ms, &clock_for)
                    .into()
            };
            if !whole && changed && !touched.touches(observer) && self.mark(observer).is_some() {
                // The game says this change left the view as it was: its connections hold it
                // (the view before the change is the one last sent, docs/protocol.md "Views
                // only when they changed"). The harness checks every game's claims
                // (`engine::harness::check_game`); debug builds check them here too.
                debug_assert_eq!(
                    Some(with_view(&*self.game, observer, view_mark)),
                    self.mark(observer),
                    "views_touched left out {observer:?}, whose view changed"
                );
                let m = &self.shared.metrics;
                m.views_left_out.fetch_add(1, Relaxed);
                m.views_not_built.fetch_add(1, Relaxed);
                frames.push(ObserverUpdate {
                    observer,
                    whole: None,
                    without_view: Some(frame(None)),
                });
                continue;
            }
            let (whole, without_view, same) = with_view(&*self.game, observer, |view| {
                let mark = changed.then(|| view_mark(view));
                let same = mark.is_some() && self.mark(observer) == mark;
                let whole = (whole || !same).then(|| frame(Some(view)));
                (whole, same.then(|| frame(None)), mark)
            });
            if let Some(mark) = same {
                self.set_mark(observer, mark);
            }
            if without_view.is_some() {
                self.shared.metrics.views_left_out.fetch_add(1, Relaxed);
            }
            frames.push(ObserverUpdate { observer, whole, without_view });
        }
        frames
    }

    /// The fingerprint of the view `observer`'s connections hold ([`Room::marks`]).
    fn mark(&self, observer: Observer) -> Option<u128> {
        self.marks.iter().find(|(o, _)| *o == observer).map(|(_, m)| *m)
    }

    fn set_mark(&mut self, observer: Observer, mark: u128) {
        match self.marks.iter_mut().find(|(o, _)| *o == observer) {
            Some((_, m)) => *m = mark,
            None => self.marks.push((observer, mark)),
        }
    }

    /// The spectators' frame of a change, on Redis (`fanout`: nothing else of a game goes there).
    fn publish_update(&self, seq: u64, frames: &[ObserverUpdate]) {
        if let Some(f) =
            frames.iter().find(|u| crate::fanout::public(u.observer)).and_then(|u| u.whole.as_ref())
        {
            crate::fanout::publish(&self.shared, &self.id, crate::fanout::UPDATE, seq, f);
        }
    }

    /// A fresh spectators' welcome on Redis (with the static part), then what a new
    /// connection is told after it: seats a bot plays, the lesson, the result.
    fn publish_welcome(&self) {
        if self.shared.bus.get().is_none() {
            return;
        }
        let msg = ServerMsg::Welcome {
            game_id: self.id.clone(),
            game: self.game.name().to_string(),
            seats: vec![],
            seq: self.seq,
            static_id: self.static_id.clone(),
            static_data: Some(self.static_data.clone()),
            view: self.game.view_json(Observer::Spectator),
            waiting: self.waiting(),
            time_left_ms: self.time_left_ms(),
            clock_for: self.clock_for(),
            practice: self.practice,
        };
        let (id, seq) = (&self.id, self.seq);
        crate::fanout::publish(&self.shared, id, crate::fanout::WELCOME, seq, &msg.to_frame());
        let mut more: Vec<ServerMsg> = Vec::new();
        for (i, p) in self.presence.iter().enumerate() {
            let resigned = matches!(self.seats.get(i), Some(SeatOwner::Resigned { .. }));
            if p.stand_in || resigned {
                let (seat, connected) = (i as u8, p.conns > 0);
                more.push(ServerMsg::Presence { seat, connected, bot: true, resigned });
            }
        }
        more.extend(self.lesson_msg());
        if self.finished {
            more.push(ServerMsg::Over { outcome: self.game.outcome_json().unwrap_or(Value::Null) });
        }
        for m in more {
            crate::fanout::publish(&self.shared, id, crate::fanout::OTHER, seq, &m.to_frame());
        }
    }

    /// The lesson frame (docs/lessons.md), in a lesson's game.
    fn lesson_msg(&self) -> Option<ServerMsg> {
        let (lesson, status) = self.lesson.as_ref()?;
        Some(ServerMsg::Lesson {
            lesson: lesson.brief(),
            status: serde_json::to_value(status).unwrap_or(Value::Null),
        })
    }

    /// After a change: check the lesson's goal on the new position and tell everyone when its
    /// status changed (a lesson complete or failed stays so).
    fn check_lesson(&mut self) {
        let Some((lesson, status)) = &self.lesson else { return };
        if *status != scenario::lessons::Status::Playing {
            return;
        }
        let now = lesson.status(&self.game.position_json(), self.game.decision().is_none());
        if now != *status {
            let lesson = *lesson;
            self.lesson = Some((lesson, now));
            if let Some(msg) = self.lesson_msg() {
                self.broadcast_all(&msg);
            }
        }
    }

    fn broadcast_all(&mut self, msg: &ServerMsg) {
        self.loud();
        let frame: Frame = msg.to_frame().into();
        crate::fanout::publish(&self.shared, &self.id, crate::fanout::OTHER, self.seq, &frame);
        let dead: Vec<u64> = self
            .subs
            .iter()
            .filter(|(_, s)| s.out.try_send(frame.clone()).is_err())
            .map(|(c, _)| *c)
            .collect();
        for conn in dead {
            self.shared.metrics.frames_dropped.fetch_add(1, Relaxed);
            self.drop_sub(conn);
        }
    }

    fn send_to(&mut self, conn: u64, msg: &ServerMsg) {
        let Some(sub) = self.subs.get(&conn) else { return };
        self.urgent.push(conn);
        if sub.out.try_send(msg.to_frame().into()).is_err() {
            self.shared.metrics.frames_dropped.fetch_add(1, Relaxed);
            self.drop_sub(conn);
        }
    }

    fn reply_error(
        &mut self,
        conn: u64,
        code: ErrorCode,
        rule: Option<String>,
        message: &str,
        id: Option<u64>,
    ) {
        self.send_to(conn, &ServerMsg::Error { code, rule, message: message.to_string(), id });
    }

    /// A connection left (or was too slow and is dropped: its socket closes, it may reconnect).
    fn drop_sub(&mut self, conn: u64) {
        let Some(sub) = self.subs.remove(&conn) else { return };
        if let Observer::Seat(s) = sub.observer
            && let Some(p) = self.presence.get_mut(s.index())
        {
            p.conns = p.conns.saturating_sub(1);
            if p.conns == 0
                && self.turn.is_none()
                && matches!(self.seats.get(s.index()), Some(SeatOwner::Human { .. }))
            {
                p.away_since = Some(Instant::now());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The private marker written while serialising is the text of the map with the key
    /// inserted, wherever the key sorts among the others, and when the event had it already.
    #[test]
    fn private_event_text_is_the_map_with_the_key_inserted() {
        let events = [
            serde_json::json!({}),
            serde_json::json!({"type": "plotted", "car": 3, "number": 5, "letter": "C", "seat": 1}),
            serde_json::json!({"a": 1}),
            serde_json::json!({"z": [1, {"private": false}], "pr": "x", "privatf": null}),
            serde_json::json!({"private": false, "q": 1}),
            serde_json::json!({"prival": 1, "private": 2, "privatz": 3}),
        ];
        for e in events {
            let Value::Object(m) = &e else { unreachable!() };
            let mut inserted = m.clone();
            inserted.insert("private".into(), Value::Bool(true));
            assert_eq!(private_event_text(m), Value::Object(inserted).to_string(), "{e}");
        }
    }
}
