//! Test clients: HTTP through `server::client` (hyper), a WebSocket client, an oracle that picks
//! a legal action for a seat by replaying the stored log (the client logic is not what is
//! tested), and an in-memory store for tests on tokio's paused clock.

use autoscooter::Autoscooter;
use engine::{Game, LogEntry, Rng, Seat};
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use server::platform_store::{BotAccount, Challenge, PlatformStore, TurnClock};
use server::store::{BoxFut, Entry, GameRow, Identity, SeatOwner, Status, Store, StoreError};
use server::{Config, Server, Shared};
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub const STEP: Duration = Duration::from_secs(20);

pub async fn start_server(dir: &tempfile::TempDir, tweak: impl FnOnce(&mut Config)) -> Server {
    let mut config = Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        db: dir.path().join("robodrome.db").to_string_lossy().into_owned(),
        web: None,
        ..Config::default()
    };
    // Tests create many guests and games from 127.0.0.1: the quotas are off unless a test
    // (limits.rs) turns one on.
    config.limits.guests_per_window = 0;
    config.limits.games_per_window = 0;
    config.limits.open_games_per_identity = 0;
    tweak(&mut config);
    Server::start(config).await.expect("server starts")
}

/// A server with every registered game and no rate limit (its clients play as fast as it
/// answers), and four guests' tokens.
pub async fn every_game_and_four_guests(dir: &tempfile::TempDir) -> (Server, Vec<String>) {
    let server = start_server(dir, |c| {
        c.all_games = true;
        c.rate = 1_000_000;
    })
    .await;
    let mut tokens = Vec::new();
    for i in 0..4 {
        tokens.push(guest(server.addr, &format!("P{i}")).await);
    }
    (server, tokens)
}

/// A practice game of `name` with `players` seats and `seed`, created by the first token's
/// guest, each other seat joined by the next token's: its id.
pub async fn joined_practice_game(
    addr: SocketAddr,
    tokens: &[String],
    name: &str,
    players: usize,
    seed: u64,
) -> String {
    let mut seats = vec!["me".to_string()];
    seats.resize(players, "open".into());
    let body = json!({ "game": name, "seats": seats, "seed": seed, "practice": true });
    let (status, g) = http(addr, "POST", "/api/games", Some(&tokens[0]), Some(body)).await;
    assert_eq!(status, 201, "{name}: {g}");
    let id = g["id"].as_str().unwrap().to_string();
    for (s, token) in tokens.iter().enumerate().take(players).skip(1) {
        let path = format!("/api/games/{id}/join");
        let (status, j) = http(addr, "POST", &path, Some(token), Some(json!({ "seat": s }))).await;
        assert_eq!(status, 200, "{j}");
    }
    id
}

/// One HTTP/1.1 request through the server's own client; the status and the JSON body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    tokio::time::timeout(STEP, server::client::http(addr, method, path, token, body.as_ref()))
        .await
        .expect("http answer in time")
        .expect("http request")
}

pub async fn guest(addr: SocketAddr, name: &str) -> String {
    let (status, v) = http(addr, "POST", "/api/guest", None, Some(json!({ "name": name }))).await;
    assert_eq!(status, 201, "{v}");
    v["token"].as_str().expect("token").to_string()
}

/// Frames until a chat line with `text` arrives: the chat lines seen on the way, that one last.
pub async fn until_line(c: &mut Client, text: &str) -> Vec<protocol::ChatLine> {
    let mut seen = Vec::new();
    loop {
        if let ServerMsg::Chat { line } = c.recv().await {
            let last = line.text == text;
            seen.push(line);
            if last {
                return seen;
            }
        }
    }
}

/// A guest signed up as an account (username: the name in lower case, password "correct
/// horse"): its token. Challenges, bot accounts and turn-based games need one.
pub async fn member(addr: SocketAddr, name: &str) -> String {
    account(addr, name, &name.to_lowercase()).await
}

/// A guest named `name` signed up as the account `username` (password "correct horse"); its
/// token (201 asserted).
pub async fn account(addr: SocketAddr, name: &str, username: &str) -> String {
    let token = guest(addr, name).await;
    let body = json!({ "username": username, "password": "correct horse" });
    let (status, v) = http(addr, "POST", "/api/account", Some(&token), Some(body)).await;
    assert_eq!(status, 201, "{v}");
    token
}

/// `POST /api/games` as `token`: the new game's id (201 asserted).
pub async fn create_game(addr: SocketAddr, token: &str, body: Value) -> String {
    let (status, g) = http(addr, "POST", "/api/games", Some(token), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    g["id"].as_str().expect("id").to_string()
}

/// `token` joins game `id` (200 asserted): the game's info after the join.
pub async fn join(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (status, g) = http(addr, "POST", &format!("/api/games/{id}/join"), Some(token), None).await;
    assert_eq!(status, 200, "{g}");
    g
}

/// A game `body` created by `token` and joined by `other` (its open seat): it runs. Its id.
pub async fn joined_game(addr: SocketAddr, token: &str, other: &str, body: Value) -> String {
    let id = create_game(addr, token, body).await;
    join(addr, &id, other).await;
    id
}

/// The lease of the several-node tests where a node dies or a lease is taken ([`short_lease`]):
/// a dead node's games move within about 1.25 s.
pub const NODE_LEASE_MS: u64 = 1000;

/// A `tweak` for [`two_nodes`]: the short lease [`NODE_LEASE_MS`], for the tests where a node
/// dies or a lease is taken. The others keep `serve`'s lease (10 s), so that a renewal held up
/// on a busy machine cannot move a game to the other node while they look.
pub fn short_lease(c: &mut Config) {
    c.cluster.as_mut().expect("a node's config").lease_ms = NODE_LEASE_MS;
}

/// The Redis of the several-node tests (`scripts/services start` prints it), if set.
pub fn test_redis() -> Option<String> {
    std::env::var("ROBODROME_TEST_REDIS").ok().filter(|s| !s.is_empty())
}

/// What the in-process nodes of one several-node test share (docs/deployment.md "Several
/// nodes"): a PostgreSQL database in a fresh schema of the test's own and, when the test asked
/// for it, Redis under a key prefix of its own (the schema's name).
pub struct Nodes {
    pub url: String,
    pub schema: String,
    pub redis: Option<server::bus::RedisConfig>,
}

impl Nodes {
    /// The services of test `tag` (`module::test`), with Redis or not; `None`, after printing
    /// `SKIPPED` and why, when `ROBODROME_TEST_PG` (or, with `redis`, `ROBODROME_TEST_REDIS`)
    /// is not set.
    pub fn new(tag: &str, redis: bool) -> Option<Nodes> {
        let url = crate::storage::test_pg();
        let rurl = if redis { test_redis() } else { None };
        let (Some(url), true) = (url, !redis || rurl.is_some()) else {
            let what = if redis {
                "ROBODROME_TEST_PG or ROBODROME_TEST_REDIS"
            } else {
                "ROBODROME_TEST_PG"
            };
            eprintln!("{tag}: SKIPPED ({what} not set; scripts/services start)");
            return None;
        };
        let schema = crate::storage::fresh_schema(tag.rsplit(':').next().unwrap_or(tag));
        let redis = rurl.map(|url| server::bus::RedisConfig { url, prefix: schema.clone() });
        Some(Nodes { url, schema, redis })
    }

    /// A node named `name` (`serve`'s lease, quotas off, then `tweak`), subscribed to
    /// Redis (waited for) when the test has it.
    pub async fn node(&self, name: &str, tweak: impl FnOnce(&mut Config)) -> Server {
        let pg = server::store_pg::PgStore::open_in(&self.url, Some(&self.schema))
            .await
            .expect("pg opens");
        let pool = pg.pool().clone();
        let mut config = Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            db: self.url.clone(),
            web: None,
            cluster: Some(server::cluster::ClusterConfig {
                node: name.into(),
                ..Default::default()
            }),
            redis: self.redis.clone(),
            ..Config::default()
        };
        config.limits.guests_per_window = 0;
        config.limits.games_per_window = 0;
        config.limits.open_games_per_identity = 0;
        tweak(&mut config);
        let s = Server::start_node(config, Arc::new(pg), Some(pool)).await.expect("node starts");
        if self.redis.is_some() {
            let t0 = std::time::Instant::now();
            let bus = s.shared.bus.get().expect("a node with Redis");
            while !bus.connected.load(std::sync::atomic::Ordering::Relaxed) {
                assert!(t0.elapsed() < Duration::from_secs(5), "redis subscription");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        s
    }
}

/// Two nodes `a` and `b` of test `tag` ([`Nodes::new`], [`Nodes::node`] with the same `tweak`),
/// and what they share; `None` (skipped, said) without the services.
pub async fn two_nodes(
    tag: &str,
    redis: bool,
    tweak: impl Fn(&mut Config),
) -> Option<(Server, Server, Nodes)> {
    let nodes = Nodes::new(tag, redis)?;
    let a = nodes.node("a", &tweak).await;
    let b = nodes.node("b", &tweak).await;
    Some((a, b, nodes))
}

pub struct Client {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    /// Every frame received, as text.
    pub frames: Vec<String>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, game: &str, token: Option<&str>) -> Client {
        Client::connect_views(addr, game, token, false).await
    }
    /// [`Client::connect`]; with `changed_views`, the socket asks for views only when they
    /// changed (`?views=changed`).
    pub async fn connect_views(
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
        changed_views: bool,
    ) -> Client {
        let mut q: Vec<String> = token.map(|t| format!("token={t}")).into_iter().collect();
        if changed_views {
            q.push("views=changed".into());
        }
        let q = if q.is_empty() { String::new() } else { format!("?{}", q.join("&")) };
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/games/{game}{q}"))
            .await
            .expect("ws connect");
        Client { ws, frames: Vec::new() }
    }
    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.expect("send");
    }
    /// Send if the socket is still open (false: it was closed).
    pub async fn try_send(&mut self, m: &ClientMsg) -> bool {
        self.ws.send(Message::Text(m.to_frame().into())).await.is_ok()
    }
    pub async fn send(&mut self, m: &ClientMsg) {
        self.send_raw(Message::Text(m.to_frame().into())).await;
    }
    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let m = tokio::time::timeout(STEP, self.ws.next())
                .await
                .expect("a frame in time")
                .expect("open")
                .expect("frame");
            if let Message::Text(t) = m {
                self.frames.push(t.to_string());
                return ServerMsg::from_frame(&t).expect("a server message");
            }
        }
    }
    /// The next error (skipping updates); panics on anything else that is not an update.
    pub async fn error(&mut self) -> (String, Option<String>) {
        loop {
            match self.recv().await {
                ServerMsg::Error { code, rule, .. } => return (code.as_str().to_string(), rule),
                ServerMsg::Update { .. } | ServerMsg::Presence { .. } => {}
                other => panic!("expected an error, got {other:?}"),
            }
        }
    }
    pub async fn ping(&mut self) {
        self.send(&ClientMsg::Ping).await;
        loop {
            match self.recv().await {
                ServerMsg::Pong => return,
                ServerMsg::Update { .. } | ServerMsg::Presence { .. } => {}
                other => panic!("expected pong, got {other:?}"),
            }
        }
    }
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
    /// The next message of any kind (`None`: closed); text frames are kept in `frames`.
    pub async fn next_raw(&mut self) -> Option<Message> {
        match self.ws.next().await {
            Some(Ok(m)) => {
                if let Message::Text(t) = &m {
                    self.frames.push(t.to_string());
                }
                Some(m)
            }
            _ => None,
        }
    }
}

/// The stored game replayed to `seq` entries (what every client's view at `seq` comes from).
pub async fn replayed(shared: &Arc<Shared>, id: &str, seq: u64) -> Autoscooter {
    let row = shared.store.game(id).await.expect("store").expect("game");
    let log = shared.store.log(id).await.expect("log");
    let setup: autoscooter::Setup = serde_json::from_value(row.setup).expect("setup");
    let log: Vec<LogEntry<autoscooter::Action>> = log[..seq as usize]
        .iter()
        .map(|e| serde_json::from_value(serde_json::to_value(e).unwrap()).unwrap())
        .collect();
    engine::replay::<Autoscooter>(&setup, row.seed, &log, &mut Vec::new())
        .expect("the stored log replays")
}

/// A legal action for `seat` at `seq`, chosen by an oracle that sees the whole state.
pub async fn oracle(shared: &Arc<Shared>, id: &str, seq: u64, seat: u8, rng: &mut Rng) -> Value {
    let g = replayed(shared, id, seq).await;
    let a = g.sample_action(Seat(seat), rng).expect("the seat owes a decision");
    serde_json::to_value(a).expect("json")
}

/// Play a seat to the end. Returns the outcome.
pub async fn play(c: &mut Client, shared: &Arc<Shared>, id: &str, seat: u8, seed: u64) -> Value {
    let mut rng = Rng::seeded(seed);
    let mut inflight = false;
    let mut next = 0u64;
    for _ in 0..10_000 {
        match c.recv().await {
            ServerMsg::Welcome { seq, waiting, .. } | ServerMsg::Update { seq, waiting, .. } => {
                if !inflight && waiting.contains(&seat) {
                    let action = oracle(shared, id, seq, seat, &mut rng).await;
                    next += 1;
                    c.send(&ClientMsg::Act { seat: None, action, id: Some(next) }).await;
                    inflight = true;
                }
            }
            ServerMsg::Ack { id, .. } => {
                assert_eq!(id, Some(next));
                inflight = false;
            }
            ServerMsg::Over { outcome } => return outcome,
            ServerMsg::Error { code, rule, message, .. } => {
                panic!("seat {seat}: {code:?} {rule:?} {message}")
            }
            ServerMsg::Presence { .. }
            | ServerMsg::Chat { .. }
            | ServerMsg::Rematch { .. }
            | ServerMsg::Lesson { .. }
            | ServerMsg::Pong => {}
        }
    }
    panic!("the game did not end");
}

/// The [`Store`] in memory, for tests on tokio's paused clock: SQLite answers from threads of its
/// own, and a paused clock jumps to the next timer whenever the runtime waits for them.
#[derive(Default)]
pub struct MemStore(std::sync::Mutex<Mem>);

#[derive(Default)]
struct Mem {
    /// Identities by token.
    identities: BTreeMap<String, Identity>,
    /// Games in creation order.
    games: Vec<GameRow>,
    logs: BTreeMap<String, Vec<Entry>>,
    clocks: BTreeMap<String, TurnClock>,
    /// Bot accounts with their token hashes.
    bots: Vec<(BotAccount, Option<String>)>,
    challenges: Vec<Challenge>,
}

fn done<'a, T: Send + 'a>(v: Result<T, StoreError>) -> BoxFut<'a, T> {
    Box::pin(std::future::ready(v))
}

impl MemStore {
    fn mem(&self) -> std::sync::MutexGuard<'_, Mem> {
        self.0.lock().expect("not poisoned")
    }
}

impl Store for MemStore {
    fn platform(&self) -> &dyn PlatformStore {
        self
    }
    fn create_identity<'a>(&'a self, id: &'a str, name: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        let issued_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let who = Identity { id: id.to_string(), name: name.to_string(), issued_at };
        self.mem().identities.insert(token.to_string(), who);
        done(Ok(()))
    }
    fn identity_by_token<'a>(&'a self, token: &'a str) -> BoxFut<'a, Option<Identity>> {
        done(Ok(self.mem().identities.get(token).cloned()))
    }
    fn revoke_tokens<'a>(&'a self, identity: &'a str) -> BoxFut<'a, u64> {
        let mut mem = self.mem();
        let before = mem.identities.len();
        mem.identities.retain(|_, who| who.id != identity);
        done(Ok((before - mem.identities.len()) as u64))
    }
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, ()> {
        self.mem().games.push(g.clone());
        done(Ok(()))
    }
    fn update_game<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatOwner],
        status: Status,
    ) -> BoxFut<'a, ()> {
        if let Some(g) = self.mem().games.iter_mut().find(|g| g.id == id) {
            g.seats = seats.to_vec();
            g.status = status;
        }
        done(Ok(()))
    }
    fn finish_game<'a>(&'a self, id: &'a str, outcome: &'a Value) -> BoxFut<'a, ()> {
        if let Some(g) = self.mem().games.iter_mut().find(|g| g.id == id) {
            g.status = Status::Finished;
            g.outcome = Some(outcome.clone());
        }
        done(Ok(()))
    }
    fn game<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<GameRow>> {
        done(Ok(self.mem().games.iter().find(|g| g.id == id).cloned()))
    }
    fn games<'a>(&'a self, status: Option<Status>, limit: u32) -> BoxFut<'a, Vec<GameRow>> {
        let mem = self.mem();
        let rows = mem.games.iter().rev().filter(|g| status.is_none_or(|s| g.status == s));
        done(Ok(rows.take(limit as usize).cloned().collect()))
    }
    fn append<'a>(&'a self, id: &'a str, index: u64, entry: &'a Entry) -> BoxFut<'a, ()> {
        let mut mem = self.mem();
        let log = mem.logs.entry(id.to_string()).or_default();
        if log.len() as u64 != index {
            return done(Err(StoreError::Gap(index)));
        }
        log.push(entry.clone());
        done(Ok(()))
    }
    fn log<'a>(&'a self, id: &'a str) -> BoxFut<'a, Vec<Entry>> {
        done(Ok(self.mem().logs.get(id).cloned().unwrap_or_default()))
    }
    fn lobby<'a>(
        &'a self,
        status: Status,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(GameRow, i64)>> {
        // The position in creation order stands for `created_at`.
        let mem = self.mem();
        let page = mem
            .games
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, g)| g.status == status)
            .filter(|(i, g)| before.is_none_or(|(t, id)| (*i as i64, g.id.as_str()) < (t, id)))
            .take(limit as usize)
            .map(|(i, g)| (GameRow { setup: Value::Null, ..g.clone() }, i as i64))
            .collect();
        done(Ok(page))
    }
    fn open_games_of<'a>(&'a self, creator: &'a str) -> BoxFut<'a, u64> {
        let mem = self.mem();
        let open = mem
            .games
            .iter()
            .filter(|g| g.creator == creator && matches!(g.status, Status::Open | Status::Running));
        done(Ok(open.count() as u64))
    }
    fn running_logs(&self) -> BoxFut<'_, HashMap<String, Result<Vec<Entry>, String>>> {
        let mem = self.mem();
        let running = mem.games.iter().filter(|g| g.status == Status::Running);
        let logs = running
            .map(|g| (g.id.clone(), Ok(mem.logs.get(&g.id).cloned().unwrap_or_default())))
            .collect();
        done(Ok(logs))
    }
    /// No accounts in memory: the account routes answer `no_accounts`, every game is unrated.
    fn accounts(&self) -> Option<&dyn server::accounts::AccountStore> {
        None
    }
    fn boards(&self) -> Option<&dyn server::boards::BoardStore> {
        None
    }
}

/// Game tasks over a [`MemStore`], no sockets: for tests on tokio's paused clock.
pub fn in_memory(
    tweak: impl FnOnce(&mut Config),
) -> (Arc<Shared>, tokio::sync::watch::Sender<bool>) {
    let mut config = Config { web: None, ..Config::default() };
    tweak(&mut config);
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    (Shared::new(config, Arc::new(MemStore::default()), shutdown), stop)
}

impl PlatformStore for MemStore {
    fn turn_clock<'a>(&'a self, game: &'a str) -> BoxFut<'a, Option<TurnClock>> {
        done(Ok(self.mem().clocks.get(game).cloned()))
    }
    fn set_turn_clock<'a>(&'a self, game: &'a str, clock: &'a TurnClock) -> BoxFut<'a, ()> {
        self.mem().clocks.insert(game.to_string(), clock.clone());
        done(Ok(()))
    }
    fn turn_games_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<(GameRow, TurnClock)>> {
        let mem = self.mem();
        let rows = mem
            .games
            .iter()
            .filter(|g| g.status == Status::Running)
            .filter(|g| {
                g.seats
                    .iter()
                    .any(|s| matches!(s, SeatOwner::Human { identity: i, .. } if i == identity))
            })
            .filter_map(|g| Some((g.clone(), mem.clocks.get(&g.id)?.clone())))
            .collect();
        done(Ok(rows))
    }
    fn create_bot<'a>(&'a self, bot: &'a BotAccount, token_hash: &'a str) -> BoxFut<'a, ()> {
        self.mem().bots.push((bot.clone(), Some(token_hash.to_string())));
        done(Ok(()))
    }
    fn bot_by_token_hash<'a>(&'a self, hash: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        let mem = self.mem();
        let b = mem.bots.iter().find(|(_, h)| h.as_deref() == Some(hash));
        done(Ok(b.map(|(b, _)| b.clone())))
    }
    fn bot<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        done(Ok(self.mem().bots.iter().find(|(b, _)| b.id == id).map(|(b, _)| b.clone())))
    }
    fn bots_of<'a>(&'a self, owner: &'a str) -> BoxFut<'a, Vec<BotAccount>> {
        let mem = self.mem();
        done(Ok(mem
            .bots
            .iter()
            .filter(|(b, _)| b.owner == owner)
            .map(|(b, _)| b.clone())
            .collect()))
    }
    fn set_bot_token<'a>(&'a self, id: &'a str, hash: Option<&'a str>) -> BoxFut<'a, bool> {
        let mut mem = self.mem();
        let found = mem.bots.iter_mut().find(|(b, _)| b.id == id);
        done(Ok(found
            .map(|(b, h)| {
                b.has_token = hash.is_some();
                *h = hash.map(str::to_string);
            })
            .is_some()))
    }
    fn identity_name<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<String>> {
        let mem = self.mem();
        let human = mem.identities.values().find(|w| w.id == id).map(|w| w.name.clone());
        let bot = mem.bots.iter().find(|(b, _)| b.id == id).map(|(b, _)| b.name.clone());
        done(Ok(human.or(bot)))
    }
    fn insert_challenge<'a>(&'a self, c: &'a Challenge) -> BoxFut<'a, ()> {
        self.mem().challenges.push(c.clone());
        done(Ok(()))
    }
    fn challenge<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<Challenge>> {
        done(Ok(self.mem().challenges.iter().find(|c| c.id == id).cloned()))
    }
    fn close_challenge<'a>(
        &'a self,
        id: &'a str,
        status: &'a str,
        game_id: Option<&'a str>,
    ) -> BoxFut<'a, bool> {
        let mut mem = self.mem();
        let c = mem.challenges.iter_mut().find(|c| c.id == id && c.status == "open");
        done(Ok(c
            .map(|c| {
                c.status = status.to_string();
                c.game_id = game_id.map(str::to_string);
            })
            .is_some()))
    }
    fn open_challenges_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<Challenge>> {
        let mem = self.mem();
        let open = mem.challenges.iter().filter(|c| {
            c.status == "open" && (c.challenger == identity || c.recipient == identity)
        });
        done(Ok(open.cloned().collect()))
    }
}
