//! Robodrome's game server: an HTTP lobby, WebSocket play, one task per game, SQLite storage.
//!
//! * [`games`] — the object-safe adapter every `engine::Game` gets, and the registry of games;
//! * [`room`] — the task that owns one running game (validation through the engine, storage
//!   before acknowledgement, per-seat redacted sends, timers, bots);
//! * [`ws`] — a connection's loop, generic over `Sink`/`Stream`;
//! * [`http`] — the routes; [`lobby`] — what they do; [`store`] — storage; [`metrics`].
//!
//! **Invariant:** the server decides no rule; everything goes through the engine.

pub mod accounts;
pub mod assets;
pub mod boards;
pub mod bot_client;
pub mod botapi;
pub mod bus;
pub mod challenges;
pub mod chaos;
pub mod chat;
pub mod client;
pub mod cluster;
pub mod error;
pub mod fanout;
pub mod faults;
pub mod forward;
pub mod games;
pub mod http;
pub mod limits;
pub mod listen;
pub mod loadtest;
pub mod lobby;
pub mod metrics;
pub mod platform;
pub mod platform_store;
pub mod ratings;
pub mod room;
pub mod schema;
pub mod soak;
pub mod steps;
pub mod store;
pub mod store_pg;
pub mod turns;
pub mod ws;

use crate::error::ApiError;
use crate::games::{AnyGame, Registry};
use crate::room::{Cmd, Frame, Room, RoomHandle};
use crate::store::{Entry, GameRow, SeatOwner, SqliteStore, Status, Store};
use engine::{LogEntry, Observer, Seat};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc, oneshot, watch};

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// The SQLite file (created on first start), or `:memory:`.
    pub db: String,
    /// How long a player may be away before a bot plays for them.
    pub grace: Duration,
    /// Bots thinking at once (the worker pool's size).
    pub bot_workers: usize,
    /// A game task's inbox.
    pub inbox: usize,
    /// Frames queued for one connection before it is dropped as too slow.
    pub outbox: usize,
    /// Messages per second a connection may send (a burst of twice as many is allowed).
    pub rate: u32,
    /// Not read: the browser client is always served from the binary (`assets`, rust-embed).
    pub web: Option<std::path::PathBuf>,
    /// The least time a bot takes per decision (so people can follow; 0 in simulations).
    pub bot_delay: Duration,
    /// Worker threads of `serve_blocking`'s runtime (0: one per core).
    pub threads: usize,
    /// `serve_blocking` runs everything on one thread (tokio's current-thread runtime: no
    /// wake-ups across threads; SQLite's thread and the bots' blocking threads stay apart).
    pub current_thread: bool,
    /// A game's task writes its frames into its connections' sockets itself (`ws::Direct`)
    /// instead of waking each connection's task to write them (docs/benchmarks.md "CPU per
    /// accepted action, round 4"); `serve`'s default since round 6, measured cheaper.
    pub direct_writes: bool,
    /// The send window (docs/protocol.md "When frames are sent"): an update that only says
    /// that a seat committed (part of) its choice (a simultaneous decision goes on with the same
    /// seats or fewer) waits this long at most, at the connections other than the actor's, for
    /// other frames to the same connection, so that they leave in one write;
    /// the actor's own frames and everything else are written at once. Zero: nothing waits.
    pub send_window: Duration,
    /// Create the database in an existing empty file (`serve --init`); a missing file is
    /// always created.
    pub init: bool,
    /// How long a guest token stays valid after it was issued.
    pub token_ttl: Duration,
    /// The server's public address (`--public-url https://…`): its origin is accepted on the
    /// WebSocket handshake, and `https` makes the cookie `Secure`.
    pub public_url: Option<String>,
    /// Quotas, caps and timeouts against strangers (`limits`, docs/security.md).
    pub limits: limits::Limits,
    /// The ceiling of one bot decision's thinking time, in milliseconds: `search:Nms` above it
    /// is refused at creation (`bot_too_strong`), and every decision (any budget) is stopped
    /// at it and plays the best action found so far (docs/security.md).
    pub max_bot_ms: u64,
    /// The most simulations a `search:N` bot may ask for (above: `bot_too_strong`).
    pub max_bot_simulations: u32,
    /// Offer every registered game, the toy game included (`serve --all-games`); otherwise only
    /// the public ones.
    pub all_games: bool,
    /// Run as one node of several on one PostgreSQL database (`serve --node-id`,
    /// docs/deployment.md "Several nodes"): games owned through leases, taken over from dead
    /// nodes, sockets of games owned elsewhere forwarded. `None`: the only server of its database.
    pub cluster: Option<cluster::ClusterConfig>,
    /// Redis between the nodes of a cluster (`serve --redis`, required with `--node-id`):
    /// spectators of games owned elsewhere, chat, notices, presence, the lobby's version and
    /// the quotas shared (docs/deployment.md). `None` on one server: nothing uses Redis.
    pub redis: Option<bus::RedisConfig>,
}

/// `serve --send-window-ms`'s default (`Config::send_window`).
pub const SEND_WINDOW_MS: u64 = 20;

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "robodrome.db".into(),
            grace: Duration::from_secs(30),
            bot_workers: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            inbox: 256,
            outbox: 256,
            rate: 20,
            web: Some("web".into()),
            bot_delay: Duration::ZERO,
            threads: 0,
            current_thread: false,
            direct_writes: true,
            send_window: Duration::from_millis(SEND_WINDOW_MS),
            init: false,
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            public_url: None,
            limits: limits::Limits::default(),
            max_bot_ms: 2000,
            max_bot_simulations: 100_000,
            all_games: false,
            cluster: None,
            redis: None,
        }
    }
}

/// Everything the routes and game tasks share. Game state is not here: each game's task owns it.
pub struct Shared {
    pub config: Config,
    pub store: Arc<dyn Store>,
    pub registry: Registry,
    pub metrics: metrics::Metrics,
    /// Storage health: degraded after a failed write, with exponential backoff.
    pub faults: faults::Faults,
    /// The bot workers: a fair (FIFO) semaphore; each game queues at most one decision on it at
    /// a time (see `room`), so the queue goes round the games.
    pub bot_pool: Arc<Semaphore>,
    /// How many bot decisions have been given a worker so far (for the fairness metric).
    pub(crate) bot_grants: AtomicU64,
    /// Raised when the server stops: every bot still thinking stops (`bots::Stop`).
    pub(crate) bots_cancel: Arc<AtomicBool>,
    pub shutdown: watch::Receiver<bool>,
    /// Handles of the running game tasks, by game id.
    rooms: Mutex<HashMap<String, RoomHandle>>,
    /// Serialises seat changes in the lobby (not game state).
    lobby_lock: tokio::sync::Mutex<()>,
    next_conn: AtomicU64,
    /// Open connections per address (`listen`).
    pub conns: Arc<limits::Conns>,
    /// Guests and games created per address and identity (`lobby`).
    pub quotas: limits::Quotas,
    /// Bumped whenever a game's lobby entry changes (created, joined, started, finished): the
    /// lobby list's ETag.
    pub lobby_version: AtomicU64,
    /// Replay steps of finished games, computed once (`steps`).
    pub steps_cache: steps::Cache,
    /// The bots' difficulty estimates of saved boards (`boards`).
    pub difficulty: boards::Difficulty,
    /// Random per start: ETags of one run never match another's.
    pub boot_id: String,
    /// Every game's table talk, in memory (`chat`).
    pub chats: chat::Chats,
    /// Who blocks whom, for hiding chat lines at every table (`chat::Blocks`).
    pub blocks: chat::Blocks,
    /// Notices for the Bot API's event streams (`challenges`).
    pub events: challenges::Events,
    /// Bot API requests per bot account (`botapi::REQUESTS_PER_MINUTE`).
    pub bot_requests: limits::Quota<String>,
    /// Presence, "your move", notices and sign-in quotas (`platform`, docs/platform.md).
    pub platform: platform::Platform,
    /// This node of a cluster (set once it joined; never on one server: `Config::cluster`).
    pub node: std::sync::OnceLock<Arc<cluster::Node>>,
    /// This node's Redis (a cluster node with `--redis`; never on one server).
    pub bus: std::sync::OnceLock<Arc<bus::Bus>>,
    /// Spectators of games another node owns, served from Redis (`fanout`).
    pub relays: fanout::Relays,
}

/// A connection attached to a game: frames for it arrive on `rx`.
pub struct Subscription {
    pub conn: u64,
    pub seat: Option<Seat>,
    /// Who is connected (none: an anonymous spectator), for chat.
    pub who: Option<store::Identity>,
    /// The game's id.
    pub game: String,
    pub room: RoomHandle,
    pub rx: mpsc::Receiver<Frame>,
    /// The write side shared with the game's task (`ws::run` attaches its socket there).
    pub direct: Arc<ws::Direct>,
}

impl Subscription {
    /// Detach (also done by the game task when `rx` is dropped and a send fails).
    pub async fn leave(&self) {
        let _ = self.room.tx.send(Cmd::Unsubscribe { conn: self.conn }).await;
    }
}

impl Shared {
    pub fn new(
        config: Config,
        store: Arc<dyn Store>,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Shared> {
        let registry = if config.all_games { Registry::everything() } else { Registry::standard() };
        Arc::new(Shared {
            bot_pool: Arc::new(Semaphore::new(config.bot_workers.max(1))),
            bot_grants: AtomicU64::new(0),
            bots_cancel: Arc::new(AtomicBool::new(false)),
            store,
            registry,
            metrics: Default::default(),
            faults: Default::default(),
            shutdown,
            rooms: Mutex::new(HashMap::new()),
            lobby_lock: tokio::sync::Mutex::new(()),
            next_conn: AtomicU64::new(1),
            conns: Default::default(),
            quotas: limits::Quotas::new(&config.limits),
            lobby_version: AtomicU64::new(1),
            steps_cache: steps::Cache::new(config.limits.steps_cache_bytes),
            difficulty: boards::Difficulty::new(),
            boot_id: lobby::random_hex(4).unwrap_or_default(),
            chats: chat::Chats::new(&config.limits),
            blocks: chat::Blocks::default(),
            events: Default::default(),
            bot_requests: limits::Quota::new(botapi::REQUESTS_PER_MINUTE, Duration::from_secs(60)),
            platform: Default::default(),
            node: std::sync::OnceLock::new(),
            bus: std::sync::OnceLock::new(),
            relays: Default::default(),
            config,
        })
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The task of a game running on this node now, if any.
    pub(crate) fn local_room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms().get(id).filter(|h| !h.tx.is_closed()).cloned()
    }

    pub(crate) fn forget_room(&self, id: &str) {
        let mut rooms = self.rooms();
        if rooms.get(id).is_some_and(|h| h.tx.is_closed()) {
            rooms.remove(id);
        }
    }

    /// Rebuild a game from its setup, seed and log (through the engine).
    pub(crate) fn load_game(
        &self,
        row: &GameRow,
        log: &[Entry],
    ) -> Result<Box<dyn AnyGame>, ApiError> {
        let kind = self.registry.get(&row.game).ok_or_else(|| {
            ApiError::Unreadable(format!("game {}: unknown game kind {:?}", row.id, row.game))
        })?;
        same_rules(kind, row)?;
        let mut g = kind
            .start(&row.setup, row.seed)
            .map_err(|e| ApiError::Unreadable(format!("game {}: setup: {e}", row.id)))?;
        for (i, e) in log.iter().enumerate() {
            let r = match e {
                LogEntry::Act { seat, action } => g.apply_json(*seat, action).map(|_| ()),
                LogEntry::TimeUp => g.time_up().map(|_| ()),
            };
            r.map_err(|e| {
                ApiError::Unreadable(format!(
                    "game {} log entry {i} does not replay: {e:?}",
                    row.id
                ))
            })?;
        }
        Ok(g)
    }

    /// The task of a started game, spawned (from storage) if it is not running.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<RoomHandle, ApiError> {
        if let Some(h) = self.rooms().get(id).filter(|h| !h.tx.is_closed()) {
            return Ok(h.clone());
        }
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        if row.status == Status::Open {
            return Err(ApiError::conflict("not_started", "the game has not started yet"));
        }
        let running = row.status == Status::Running;
        // A cluster node runs a game's room only under its lease, taken before the log is read
        // (so the log read has every entry of the previous owner: docs/deployment.md). A
        // finished game's room is leased too, so that all its players' sockets reach one room
        // whichever node they connect to: its rematch is agreed there (docs/deployment.md
        // "Rooms of finished games and their rematch").
        let (lease, timers) = match self.node.get() {
            Some(node) => {
                let lease = node.acquire(id).await.map_err(crate::store::StoreError::from)?;
                let Some(lease) = lease else {
                    return Err(ApiError::conflict(OWNED_ELSEWHERE, "another node runs this game"));
                };
                // A finished game has no timers left.
                let timers = match running {
                    true => node.timers(id).await.unwrap_or_else(|e| {
                        tracing::error!(game = %id, error = %e, "cannot read the stored timers");
                        None
                    }),
                    false => None,
                };
                (Some(lease), timers)
            }
            _ => (None, None),
        };
        let epoch = lease.as_ref().map(|l| (l.node.clone(), l.epoch));
        let spawned = async {
            let log = self.store.log(id).await.map_err(|e| self.unreadable(id, e))?;
            let turn = self.store.platform().turn_clock(id).await?;
            self.spawn_room(row, &log, turn, lease, timers).inspect_err(|e| {
                self.note_unreadable(id, e);
                if running {
                    self.note_rules_changed(id, e);
                }
            })
        }
        .await;
        if spawned.is_err()
            && let Some((node, epoch)) = epoch
        {
            node.release(id, epoch);
        }
        spawned
    }

    /// [`Self::room`] for the lobby's starts: on a cluster node, a game another node took
    /// first is running all the same.
    pub(crate) async fn ensure_room(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        match self.room(id).await {
            Err(ApiError::Conflict(OWNED_ELSEWHERE, _)) => Ok(()),
            r => r.map(|_| ()),
        }
    }

    /// A game whose stored data cannot be read: remembered for `/healthz` and `/metrics`.
    pub(crate) fn note_unreadable(&self, id: &str, e: &ApiError) {
        if let ApiError::Unreadable(reason) = e {
            self.faults.skip(id, reason);
        }
    }

    /// A running game stored under another version of its rules cannot go on: it is reported
    /// as a poison row is (skipped, logged, in `/healthz` and `/metrics`, left out of the
    /// lobby). A finished one is not a fault: its stored result stands.
    fn note_rules_changed(&self, id: &str, e: &ApiError) {
        if let ApiError::RulesChanged { .. } = e {
            self.faults.skip(id, &e.to_string());
        }
    }

    /// A failed read of one game's log: poison data becomes `Unreadable`.
    pub(crate) fn unreadable(&self, id: &str, e: crate::store::StoreError) -> ApiError {
        match e {
            crate::store::StoreError::Data(d) => {
                let e = ApiError::Unreadable(format!("game {id}: {d}"));
                self.note_unreadable(id, &e);
                e
            }
            e => e.into(),
        }
    }

    /// Rebuild a stored game and start its task (unless another request just did).
    fn spawn_room(
        self: &Arc<Self>,
        row: GameRow,
        log: &[Entry],
        turn: Option<platform_store::TurnClock>,
        lease: Option<cluster::RoomLease>,
        timers: Option<cluster::StoredTimers>,
    ) -> Result<RoomHandle, ApiError> {
        let game = self.load_game(&row, log)?;
        let mut rooms = self.rooms();
        if let Some(h) = rooms.get(&row.id).filter(|h| !h.tx.is_closed()) {
            return Ok(h.clone());
        }
        let seq = log.len() as u64;
        let h = Room::spawn_leased(self.clone(), &row, game, seq, turn, lease, timers);
        rooms.insert(row.id, h.clone());
        Ok(h)
    }

    /// Attach a connection to a game: as the seat `identity` holds there, or as a spectator.
    pub async fn subscribe(
        self: &Arc<Self>,
        id: &str,
        identity: Option<&str>,
    ) -> Result<Subscription, ApiError> {
        self.subscribe_views(id, identity, false).await
    }

    /// [`Self::subscribe`]; with `changed_views`, updates leave the view out when it is the
    /// same as in the connection's last frame (`?views=changed`, docs/protocol.md "Views only
    /// when they changed").
    pub async fn subscribe_views(
        self: &Arc<Self>,
        id: &str,
        identity: Option<&str>,
        changed_views: bool,
    ) -> Result<Subscription, ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        let seat = identity.and_then(|who| {
            row.seats
                .iter()
                .position(|s| matches!(s, SeatOwner::Human { identity, .. } if identity == who))
                .map(|i| Seat(i as u8))
        });
        if let Some(who) = identity {
            self.load_blocks(who).await;
        }
        let observer = seat.map_or(Observer::Spectator, Observer::Seat);
        self.watch_as(id, observer, identity.map(str::to_string), changed_views).await
    }

    /// Load whom `who` blocks into [`Shared::blocks`] (their chat lines are not sent to `who`'s
    /// connections). Without accounts in the store, or with storage failing, nothing is hidden.
    pub async fn load_blocks(&self, who: &str) {
        let Some(acc) = self.store.accounts() else { return };
        if let Ok(list) = acc.blocks(who, platform::FOLLOWS_CAP).await {
            self.blocks.load(who, list.into_iter().map(|(id, _)| id).collect());
        }
    }

    /// [`Self::subscribe_views`] for a signed-in caller, who may then chat (the name said is
    /// the seat's, or the identity's for a spectator).
    pub async fn subscribe_as(
        self: &Arc<Self>,
        id: &str,
        who: Option<&store::Identity>,
        changed_views: bool,
    ) -> Result<Subscription, ApiError> {
        let mut sub = self.subscribe_views(id, who.map(|w| w.id.as_str()), changed_views).await?;
        sub.who = who.cloned();
        Ok(sub)
    }

    /// Say a line in a game's chat (from a connection or the waiting room's HTTP call): the
    /// channel is the players' when `who` holds a seat of the game. Sent to every connection
    /// of the game that may see it.
    pub async fn say(
        self: &Arc<Self>,
        id: &str,
        who: &store::Identity,
        text: &str,
    ) -> Result<protocol::ChatLine, chat::ChatError> {
        let row = match self.store.game(id).await {
            Ok(Some(row)) => row,
            _ => return Err(chat::ChatError::Bad("no such game".into())),
        };
        // docs/platform.md "Blocking": a player blocked by someone at the table says nothing there.
        if self.blocked_at(&row, &who.id).await {
            return Err(chat::ChatError::Bad(
                "someone at this table has blocked you: your lines are not sent here".into(),
            ));
        }
        let seat = row
            .seats
            .iter()
            .position(|s| matches!(s, SeatOwner::Human { identity, .. } if *identity == who.id));
        let (channel, name) = match seat.and_then(|i| row.seats.get(i)) {
            Some(SeatOwner::Human { name, .. }) => (protocol::ChatChannel::Players, name.clone()),
            _ => (protocol::ChatChannel::Spectators, who.name.clone()),
        };
        let seat = seat.map(|s| s as u8);
        let line = match self.bus.get() {
            None => self.chats.say(id, &who.id, channel, seat, &name, text)?,
            // A cluster node: the rate and the line's number are the cluster's (Redis), the
            // line goes to every node (docs/deployment.md "Chat").
            Some(bus) => {
                let text = self.chats.check_text(text)?;
                let l = &self.config.limits;
                let window = Duration::from_secs(l.chat_window_secs.max(1));
                match bus.window("chat", &who.id, l.chat_per_window, window).await {
                    Some(Err(wait)) => return Err(chat::ChatError::TooMany(wait.as_secs().max(1))),
                    Some(Ok(())) => {}
                    None => self.chats.charge(&who.id)?,
                }
                let ch = if channel == protocol::ChatChannel::Players { "p" } else { "s" };
                let n = bus.incr(&format!("chat:{id}:{ch}"), 7 * 24 * 3600).await;
                let line = self.chats.keep_new(id, &who.id, channel, seat, &name, text, n);
                let said = chat::Said {
                    origin: bus.origin.clone(),
                    game: id.to_string(),
                    speaker: who.id.clone(),
                    line: line.clone(),
                };
                if let Ok(json) = serde_json::to_string(&said) {
                    bus.publish(bus.key("chat"), json);
                }
                self.relays.chat(id, line.clone(), who.id.clone());
                line
            }
        };
        let live = self.rooms().get(id).filter(|h| !h.tx.is_closed()).cloned();
        if let Some(room) = live {
            let speaker = who.id.clone();
            let _ = room.tx.send(Cmd::Chat { line: line.clone(), speaker }).await;
        }
        Ok(line)
    }

    /// Attach as any observer (in-process tools and tests; connections go through [`Self::subscribe`]).
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        observer: Observer,
    ) -> Result<Subscription, ApiError> {
        self.watch_as(id, observer, None, false).await
    }

    async fn watch_as(
        self: &Arc<Self>,
        id: &str,
        observer: Observer,
        viewer: Option<String>,
        changed_views: bool,
    ) -> Result<Subscription, ApiError> {
        let seat = match observer {
            Observer::Seat(s) => Some(s),
            _ => None,
        };
        // A task that is just stopping may refuse us once: load it again.
        for _ in 0..3 {
            let room = match self.room(id).await {
                // A spectator of a game another node owns is served here, from Redis
                // (`fanout`): only public frames travel there.
                Err(ApiError::Conflict(OWNED_ELSEWHERE, _))
                    if observer == Observer::Spectator && self.bus.get().is_some() =>
                {
                    match self.relays.get(self, id) {
                        Some(r) => r,
                        None => {
                            return Err(ApiError::conflict(
                                OWNED_ELSEWHERE,
                                "another node runs this game",
                            ));
                        }
                    }
                }
                r => r?,
            };
            let conn = self.next_conn.fetch_add(1, Relaxed);
            let (out, rx) = mpsc::channel(self.config.outbox);
            let (done, ok) = oneshot::channel();
            let viewer = viewer.clone();
            let direct = Arc::new(ws::Direct::default());
            let direct2 = direct.clone();
            let cmd = Cmd::Subscribe {
                conn,
                observer,
                viewer,
                out,
                direct: direct2,
                changed_views,
                done,
            };
            if room.tx.send(cmd).await.is_ok() && ok.await.is_ok() {
                let game = id.to_string();
                return Ok(Subscription { conn, seat, who: None, game, room, rx, direct });
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Err(ApiError::Internal("the game's task is not answering".into()))
    }

    /// Resume every running game by replaying its log (read in one query). Returns how many.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let rows = self.store.games(Some(Status::Running), u32::MAX).await?;
        let mut logs = self.store.running_logs().await?;
        let mut n = 0;
        for row in rows {
            let id = row.id.clone();
            let log = match logs.remove(&id).unwrap_or(Ok(Vec::new())) {
                Ok(log) => log,
                Err(reason) => {
                    self.faults.skip(&id, &reason);
                    continue;
                }
            };
            // A turn-based game's clock: its stored deadline carries over the restart.
            let turn = match self.store.platform().turn_clock(&id).await {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "cannot read a turn-based clock");
                    None
                }
            };
            match self.spawn_room(row, &log, turn, None, None) {
                Ok(_) => n += 1,
                Err(e) => {
                    self.note_unreadable(&id, &e);
                    self.note_rules_changed(&id, &e);
                    tracing::error!(game = %id, error = %e, "cannot resume: skipped");
                }
            }
        }
        Ok(n)
    }

    /// Connect this node to Redis (`fanout`, `bus`): a node starts even while Redis is down,
    /// and connects when it can.
    fn start_bus(self: &Arc<Self>, rc: &bus::RedisConfig) -> Result<(), String> {
        let bus = bus::Bus::new(rc)?;
        let (tx, mut rx) = mpsc::unbounded_channel();
        bus.start(self.shutdown.clone(), tx);
        let _ = self.bus.set(bus);
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(m) = rx.recv().await {
                fanout::dispatch(&me, m).await;
            }
        });
        tokio::spawn(self.clone().shout_sockets());
        Ok(())
    }

    pub fn live_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// The sizes of every long-lived map the server keeps in memory (gauges of `/metrics`:
    /// what the soak samples beside the resident memory, docs/benchmarks.md "Soak").
    pub fn memory_gauges(&self) -> Vec<metrics::Gauge> {
        let (chat_games, chat_lines, chat_keys) = self.chats.sizes();
        let (steps, steps_pending) = self.steps_cache.entries();
        let q = &self.quotas;
        let n = |v: usize| v as u64;
        let mut v = vec![
            ("robodrome_rooms_entries", "Game tasks in the rooms table.", n(self.live_rooms())),
            (
                "robodrome_conn_addresses",
                "Addresses with a connection open.",
                n(self.conns.addresses()),
            ),
            (
                "robodrome_quota_guests_by_address_keys",
                "Addresses with a guest-creation bucket kept.",
                n(q.guests_by_address.keys()),
            ),
            (
                "robodrome_quota_games_by_address_keys",
                "Addresses with a game-creation bucket kept.",
                n(q.games_by_address.keys()),
            ),
            (
                "robodrome_quota_games_by_identity_keys",
                "Identities with a game-creation bucket kept.",
                n(q.games_by_identity.keys()),
            ),
            ("robodrome_chat_games", "Games whose chat is kept.", n(chat_games)),
            ("robodrome_chat_lines", "Chat lines kept, all games.", n(chat_lines)),
            ("robodrome_quota_chat_keys", "Identities with a chat bucket kept.", n(chat_keys)),
            ("robodrome_steps_cache_entries", "Entries of the steps cache.", n(steps)),
            (
                "robodrome_steps_cache_uncounted_entries",
                "Entries of the steps cache holding no counted steps (being computed).",
                n(steps_pending),
            ),
            (
                "robodrome_faults_skipped_games",
                "Unreadable games remembered.",
                n(self.faults.skipped().len()),
            ),
        ];
        // A cluster node's Redis (`bus`): up or not, and what went through it.
        if let Some(b) = self.bus.get() {
            let l = |a: &AtomicU64| a.load(Relaxed);
            v.extend([
                (
                    "robodrome_redis_connected",
                    "1 while the Redis subscription is up.",
                    u64::from(b.connected.load(Relaxed)),
                ),
                (
                    "robodrome_redis_published_total",
                    "Messages published to Redis.",
                    l(&b.published),
                ),
                (
                    "robodrome_redis_dropped_total",
                    "Messages not published (queue full, Redis down).",
                    l(&b.dropped),
                ),
                ("robodrome_redis_errors_total", "Failed Redis calls.", l(&b.errors)),
                ("robodrome_redis_received_total", "Messages received from Redis.", l(&b.received)),
                (
                    "robodrome_redis_subscriptions_total",
                    "Times the subscription was made (1 + reconnections).",
                    l(&b.reconnects),
                ),
            ]);
        }
        v
    }
}

/// The error code of [`Shared::room`] on a cluster node for a game another node owns.
pub const OWNED_ELSEWHERE: &str = "owned_elsewhere";

/// A stored game replays the same game only under the rules it was started under
/// (docs/security.md "Rules versions"): another version is [`ApiError::RulesChanged`].
pub(crate) fn same_rules(kind: &crate::games::GameKind, row: &GameRow) -> Result<(), ApiError> {
    let current = kind.info.rules_version;
    if row.rules_version == current {
        return Ok(());
    }
    Err(ApiError::RulesChanged { game: row.game.clone(), stored: row.rules_version, current })
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub shared: Arc<Shared>,
    /// How long resuming the stored running games took, and how many.
    pub resumed: (usize, Duration),
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Open the database, resume running games, bind and serve (port 0 picks a free port).
    pub async fn start(config: Config) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        if store_pg::is_postgres(&config.db) {
            let pg = store_pg::PgStore::open(&config.db).await?;
            let pool = pg.pool().clone();
            return Self::start_node(config, Arc::new(pg), Some(pool)).await;
        }
        if config.cluster.is_some() {
            return Err(
                "several nodes (--node-id) need a PostgreSQL database (--db postgres://…)".into()
            );
        }
        let store: Arc<dyn Store> =
            Arc::new(SqliteStore::open_with(&config.db, config.init).await?);
        Self::start_with(config, store).await
    }

    /// Serve over a PostgreSQL store as one node of a cluster when `config.cluster` is set
    /// (`pool`: the store's), or as the only server otherwise.
    pub async fn start_node(
        config: Config,
        store: Arc<dyn Store>,
        pool: Option<sqlx::PgPool>,
    ) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        let (Some(cc), Some(pool)) = (config.cluster.clone(), pool) else {
            if config.cluster.is_some() {
                return Err("several nodes (--node-id) need a PostgreSQL database".into());
            }
            return Self::start_with(config, store).await;
        };
        let (stop, shutdown) = watch::channel(false);
        let shared = Shared::new(config.clone(), store, shutdown.clone());
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let node = cluster::Node::join(pool, &cc, &addr.to_string()).await?;
        let _ = shared.node.set(node.clone());
        if let Some(rc) = &config.redis {
            shared.start_bus(rc)?;
        }
        // No resume of every running game: the node takes over the games no live node holds,
        // a batch per round (`cluster::Node::run`).
        tokio::spawn(node.run(shared.clone()));
        let app = http::router(shared.clone());
        let task = tokio::spawn(listen::serve(listener, app, shared.clone(), shutdown));
        tracing::info!(%addr, "serving as a cluster node");
        Ok(Server { addr, shared, resumed: (0, Duration::ZERO), stop, task })
    }

    /// Serve over a given store (tests wrap the SQLite store to make it fail on purpose).
    pub async fn start_with(
        config: Config,
        store: Arc<dyn Store>,
    ) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        let (stop, shutdown) = watch::channel(false);
        let shared = Shared::new(config.clone(), store, shutdown.clone());
        let t0 = std::time::Instant::now();
        let n = shared.resume_all().await?;
        let resumed = (n, t0.elapsed());
        shared.metrics.resumed_games.store(n as u64, Relaxed);
        shared.metrics.resume_us.store(resumed.1.as_micros() as u64, Relaxed);
        tracing::info!(games = n, ms = resumed.1.as_millis() as u64, "resumed running games");
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let app = http::router(shared.clone());
        let task = tokio::spawn(listen::serve(listener, app, shared.clone(), shutdown));
        tracing::info!(%addr, "serving");
        Ok(Server { addr, shared, resumed, stop, task })
    }

    /// Stop taking connections, close games and connections, wait for the server to end.
    /// Bots still thinking are told to stop at once (their answers are not wanted); connections
    /// still open after 2 s (a half-sent request) are dropped.
    pub async fn shutdown(self) {
        self.shared.bots_cancel.store(true, Relaxed);
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(2), self.task).await;
        // A cluster node hands its games over at once rather than when their leases expire.
        if let Some(node) = self.shared.node.get() {
            node.release_all().await;
        }
    }

    /// Serve until ctrl-c or SIGTERM.
    pub async fn run_until_signal(self) {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await;
    }
}

/// Resolves once the server is stopping.
pub(crate) async fn stopped(rx: &mut watch::Receiver<bool>) {
    loop {
        if *rx.borrow_and_update() {
            return;
        }
        if rx.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

/// `robodrome serve`: logs to standard error, serves until ctrl-c / SIGTERM.
pub fn serve_blocking(config: Config) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let mut rt = if config.current_thread {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    if config.threads > 0 && !config.current_thread {
        rt.worker_threads(config.threads);
    }
    let rt = rt.enable_all().build()?;
    let result = rt.block_on(async {
        let server = Server::start(config).await?;
        eprintln!(
            "robodrome: serving on http://{} (resumed {} games in {} ms)",
            server.addr,
            server.resumed.0,
            server.resumed.1.as_millis()
        );
        server.run_until_signal().await;
        Ok(())
    });
    // Dropping a runtime waits for its blocking work without end: bot work is cancelled by
    // now (it checks its stop between simulations), but a bound keeps SIGTERM's promise.
    rt.shutdown_timeout(Duration::from_secs(1));
    result
}
