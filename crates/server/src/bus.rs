//! Redis between the nodes of a cluster (`serve --redis redis://…`, docs/deployment.md "What
//! the nodes share through Redis"): pub/sub messages and a few counters, nothing durable.
//!
//! * **Publishing** never waits in a game's task: [`Bus::publish`] queues the message (bounded;
//!   a full queue drops it and counts it), and one task sends the queue to Redis through a
//!   reconnecting `ConnectionManager`, many messages per pipeline, in order.
//! * **Subscribing**: one task holds a pub/sub connection, subscribed to the node-wide channels
//!   (`ctl`, `chat`, `notice`, `lobby`) and to the public channel of every game some local
//!   spectator watches through a relay (`crate::fanout`). When the connection drops (or a ping
//!   goes unanswered), it connects again with a growing pause, subscribes to everything again,
//!   and tells the relays, which ask the owners for a fresh welcome (what was published
//!   meanwhile is lost; the welcome restores the full state).
//! * **Counters**: the lobby list's version (`INCR`, its value published to every node) and
//!   the shared quota windows (`INCR` + `EXPIRE`, [`Bus::window`]).
//!
//! A node whose Redis is down keeps serving its own games: publishing fails (counted, logged
//! once per outage), what other nodes would have learnt is lost, and everything that has a
//! local fallback (quotas, the lobby's ETag, chat numbering) uses it. Messages from this
//! node's own publications come back through the subscription and are ignored by origin.

use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, mpsc};

/// How a node reaches Redis (`serve --redis URL`).
#[derive(Clone, Debug)]
pub struct RedisConfig {
    pub url: String,
    /// The prefix of every key and channel (tests give each test its own).
    pub prefix: String,
}

impl RedisConfig {
    pub fn new(url: &str) -> RedisConfig {
        RedisConfig { url: url.to_string(), prefix: "robodrome".into() }
    }
}

/// Messages waiting to be published, at most (more are dropped and counted).
pub const QUEUE: usize = 65_536;
/// Messages sent in one pipeline at most.
const PIPELINE: usize = 256;
/// A Redis call that takes longer than this has failed (the caller goes on without it).
pub const TIMEOUT: Duration = Duration::from_millis(1000);
/// How often the subscription is pinged to find a dead connection.
const PING_EVERY: Duration = Duration::from_secs(5);

enum Op {
    Publish(String, String),
    LobbyBump,
}

/// A message received on a node-wide channel or a game's public channel.
pub struct Received {
    pub channel: String,
    pub payload: String,
}

/// The node's Redis: publishing queue, subscription, counters and their metrics.
pub struct Bus {
    /// This process's id: messages it published come back and are ignored.
    pub origin: String,
    prefix: String,
    conn: ConnectionManager,
    client: redis::Client,
    out: mpsc::Sender<Op>,
    out_rx: Mutex<Option<mpsc::Receiver<Op>>>,
    /// The game channels wanted now (subscribed again after every reconnection).
    wanted: Mutex<HashSet<String>>,
    changed: Notify,
    /// The subscription is up.
    pub connected: AtomicBool,
    /// Raised after every (re)subscription: the relays ask for fresh welcomes.
    pub resubscribed: tokio::sync::watch::Sender<u64>,
    /// The lobby's shared version as last seen (0: none yet).
    pub lobby: AtomicU64,
    pub published: AtomicU64,
    pub dropped: AtomicU64,
    pub errors: AtomicU64,
    pub received: AtomicU64,
    pub reconnects: AtomicU64,
    /// An outage is logged once, not per failed call.
    failing: AtomicBool,
}

impl Bus {
    /// The bus of a node (no connection is made yet: a node starts with its Redis down).
    pub fn new(config: &RedisConfig) -> Result<Arc<Bus>, String> {
        let client =
            redis::Client::open(config.url.as_str()).map_err(|e| format!("--redis: {e}"))?;
        let cm = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(2));
        let conn = ConnectionManager::new_lazy_with_config(client.clone(), cm)
            .map_err(|e| format!("--redis: {e}"))?;
        let (out, rx) = mpsc::channel(QUEUE);
        Ok(Arc::new(Bus {
            origin: crate::lobby::random_hex(6).unwrap_or_else(|_| "node".into()),
            prefix: config.prefix.clone(),
            conn,
            client,
            out,
            out_rx: Mutex::new(Some(rx)),
            wanted: Mutex::new(HashSet::new()),
            changed: Notify::new(),
            connected: AtomicBool::new(false),
            resubscribed: tokio::sync::watch::channel(0).0,
            lobby: AtomicU64::new(0),
            published: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            received: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            failing: AtomicBool::new(false),
        }))
    }

    /// A key or channel name under the prefix.
    pub fn key(&self, rest: &str) -> String {
        format!("{}:{rest}", self.prefix)
    }

    /// The public (spectators') channel of a game.
    pub fn game_channel(&self, game: &str) -> String {
        self.key(&format!("g:{game}"))
    }

    /// Queue a message (never waits; a full queue drops it).
    pub fn publish(&self, channel: String, payload: String) {
        if self.out.try_send(Op::Publish(channel, payload)).is_err() {
            self.dropped.fetch_add(1, Relaxed);
        }
    }

    /// The lobby changed: the shared version goes up (and every node hears the new value).
    pub fn lobby_changed(&self) {
        if self.out.try_send(Op::LobbyBump).is_err() {
            self.dropped.fetch_add(1, Relaxed);
        }
    }

    /// Subscribe to a game's public channel (a relay starts).
    pub fn want(&self, channel: &str) {
        let new = self.wanted.lock().unwrap_or_else(|p| p.into_inner()).insert(channel.into());
        if new {
            self.changed.notify_one();
        }
    }

    /// Unsubscribe (the relay ended).
    pub fn unwant(&self, channel: &str) {
        if self.wanted.lock().unwrap_or_else(|p| p.into_inner()).remove(channel) {
            self.changed.notify_one();
        }
    }

    fn failed(&self, what: &str, e: &dyn std::fmt::Display) {
        self.errors.fetch_add(1, Relaxed);
        if !self.failing.swap(true, Relaxed) {
            tracing::warn!(error = %e, "redis: {what} failed; this node serves its own games without it");
        }
    }

    fn ok(&self) {
        if self.failing.swap(false, Relaxed) {
            tracing::info!("redis: reachable again");
        }
    }

    /// One shared fixed window of a quota: `INCR` of the key for the current window (created
    /// with its expiry). `Some(Ok)`: within `limit`; `Some(Err(wait))`: over it, try again
    /// after `wait`; `None`: Redis did not answer (the caller keeps its local quota).
    pub async fn window(
        &self,
        name: &str,
        key: &str,
        limit: u32,
        window: Duration,
    ) -> Option<Result<(), Duration>> {
        if limit == 0 {
            return Some(Ok(()));
        }
        let secs = window.as_secs().max(1);
        let now = crate::turns::now_ms() as u64 / 1000;
        let slot = now / secs;
        let k = self.key(&format!("q:{name}:{key}:{slot}"));
        let mut c = self.conn.clone();
        let r: redis::RedisResult<(u64, bool)> = tokio::time::timeout(TIMEOUT, async {
            redis::pipe()
                .atomic()
                .incr(&k, 1u64)
                .expire(&k, secs as i64 + 1)
                .query_async(&mut c)
                .await
        })
        .await
        .unwrap_or_else(|_| Err(redis::RedisError::from((redis::ErrorKind::Io, "timed out"))));
        match r {
            Ok((n, _)) => {
                self.ok();
                if n <= u64::from(limit) {
                    Some(Ok(()))
                } else {
                    Some(Err(Duration::from_secs((slot + 1) * secs - now)))
                }
            }
            Err(e) => {
                self.failed("a shared quota", &e);
                None
            }
        }
    }

    /// `INCR` a counter (chat line numbers); `None` if Redis did not answer.
    pub async fn incr(&self, rest: &str, expire_secs: i64) -> Option<u64> {
        let k = self.key(rest);
        let mut c = self.conn.clone();
        let r: redis::RedisResult<(u64, bool)> = tokio::time::timeout(TIMEOUT, async {
            redis::pipe().atomic().incr(&k, 1u64).expire(&k, expire_secs).query_async(&mut c).await
        })
        .await
        .unwrap_or_else(|_| Err(redis::RedisError::from((redis::ErrorKind::Io, "timed out"))));
        match r {
            Ok((n, _)) => Some(n),
            Err(e) => {
                self.failed("a counter", &e);
                None
            }
        }
    }

    /// Start the publishing and subscribing tasks; `on` receives every message not from here.
    pub fn start(
        self: &Arc<Self>,
        mut stop: tokio::sync::watch::Receiver<bool>,
        on: mpsc::UnboundedSender<Received>,
    ) {
        let rx = self.out_rx.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(rx) = rx {
            tokio::spawn(self.clone().publisher(rx));
        }
        let me = self.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = me.clone().subscriber(on) => {}
                _ = crate::stopped(&mut stop) => {}
            }
            me.connected.store(false, Relaxed);
        });
    }

    async fn publisher(self: Arc<Self>, mut rx: mpsc::Receiver<Op>) {
        let lobby_key = self.key("lobby");
        let lobby_channel = self.key("lobby");
        while let Some(op) = rx.recv().await {
            let mut batch = vec![op];
            while batch.len() < PIPELINE {
                match rx.try_recv() {
                    Ok(op) => batch.push(op),
                    Err(_) => break,
                }
            }
            let mut pipe = redis::pipe();
            let mut n = 0u64;
            let mut bumps = 0;
            for op in &batch {
                match op {
                    Op::Publish(ch, p) => {
                        pipe.publish(ch, p).ignore();
                        n += 1;
                    }
                    Op::LobbyBump => bumps += 1,
                }
            }
            let mut c = self.conn.clone();
            if n > 0 {
                let r: redis::RedisResult<()> =
                    match tokio::time::timeout(TIMEOUT, pipe.query_async(&mut c)).await {
                        Ok(r) => r,
                        Err(_) => Err((redis::ErrorKind::Io, "timed out").into()),
                    };
                match r {
                    Ok(()) => {
                        self.ok();
                        self.published.fetch_add(n, Relaxed);
                    }
                    Err(e) => {
                        self.dropped.fetch_add(n, Relaxed);
                        self.failed("publishing", &e);
                    }
                }
            }
            if bumps > 0 {
                // A version that never goes back, even if Redis lost the key: it starts at the
                // time in milliseconds (SET NX), then goes up by one per change.
                let start = crate::turns::now_ms();
                let r: redis::RedisResult<u64> = match tokio::time::timeout(TIMEOUT, async {
                    let _: bool = c.set_nx(&lobby_key, start).await?;
                    c.incr(&lobby_key, 1u64).await
                })
                .await
                {
                    Ok(r) => r,
                    Err(_) => Err((redis::ErrorKind::Io, "timed out").into()),
                };
                match r {
                    Ok(v) => {
                        self.lobby.fetch_max(v, Relaxed);
                        self.publish(lobby_channel.clone(), format!("{} {v}", self.origin));
                    }
                    Err(e) => self.failed("the lobby's version", &e),
                }
            }
        }
    }

    /// The subscription, reconnecting for ever.
    async fn subscriber(self: Arc<Self>, on: mpsc::UnboundedSender<Received>) {
        let fixed: Vec<String> =
            ["ctl", "chat", "notice", "lobby"].iter().map(|c| self.key(c)).collect();
        let mut pause = Duration::from_millis(100);
        loop {
            let conn = tokio::time::timeout(TIMEOUT, self.client.get_async_pubsub()).await;
            let ps = match conn {
                Ok(Ok(ps)) => ps,
                Ok(Err(e)) => {
                    self.failed("subscribing", &e);
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(2));
                    continue;
                }
                Err(_) => {
                    self.failed("subscribing", &"timed out");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(2));
                    continue;
                }
            };
            let (mut sink, mut stream) = ps.split();
            let mut subscribed: HashSet<String> = HashSet::new();
            let up = async {
                sink.subscribe(&fixed).await?;
                let wanted: Vec<String> =
                    self.wanted.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect();
                if !wanted.is_empty() {
                    sink.subscribe(&wanted).await?;
                }
                subscribed.extend(wanted);
                Ok::<_, redis::RedisError>(())
            };
            if let Err(e) = up.await {
                self.failed("subscribing", &e);
                tokio::time::sleep(pause).await;
                continue;
            }
            pause = Duration::from_millis(100);
            self.ok();
            self.connected.store(true, Relaxed);
            self.reconnects.fetch_add(1, Relaxed);
            self.resubscribed.send_modify(|n| *n += 1);
            tracing::info!("redis: subscribed");
            let mut ping = tokio::time::interval(PING_EVERY);
            ping.tick().await;
            loop {
                use futures_util::StreamExt;
                tokio::select! {
                    m = stream.next() => {
                        let Some(m) = m else { break };
                        self.received.fetch_add(1, Relaxed);
                        let payload = String::from_utf8_lossy(m.get_payload_bytes()).into_owned();
                        let channel = m.get_channel_name().to_string();
                        if on.send(Received { channel, payload }).is_err() {
                            return;
                        }
                    }
                    _ = self.changed.notified() => {
                        let wanted: HashSet<String> =
                            self.wanted.lock().unwrap_or_else(|p| p.into_inner()).clone();
                        let add: Vec<&String> = wanted.difference(&subscribed).collect();
                        let gone: Vec<&String> = subscribed.difference(&wanted).collect();
                        let r = async {
                            if !add.is_empty() {
                                sink.subscribe(&add).await?;
                            }
                            if !gone.is_empty() {
                                sink.unsubscribe(&gone).await?;
                            }
                            Ok::<_, redis::RedisError>(())
                        };
                        if let Err(e) = tokio::time::timeout(TIMEOUT, r).await.unwrap_or_else(
                            |_| Err((redis::ErrorKind::Io, "timed out").into()),
                        ) {
                            self.failed("subscribing", &e);
                            break;
                        }
                        subscribed = wanted;
                    }
                    _ = ping.tick() => {
                        let r: redis::RedisResult<String> = tokio::time::timeout(TIMEOUT, sink.ping())
                            .await
                            .unwrap_or_else(|_| Err((redis::ErrorKind::Io, "timed out").into()));
                        if let Err(e) = r {
                            self.failed("the subscription's ping", &e);
                            break;
                        }
                    }
                }
            }
            self.connected.store(false, Relaxed);
            tracing::warn!("redis: subscription lost; connecting again");
            tokio::time::sleep(pause).await;
        }
    }
}
