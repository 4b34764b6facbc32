//! Faults (docs/security.md "Faults"): poison rows, a failing disk, a second server, empty and
//! foreign database files, schema migrations.

use crate::support::{STEP, http, start_server};
use engine::Observer;
use protocol::CreateGame;
use serde_json::Value;
use server::faults::BACKOFF_MAX;
use server::store::{BoxFut, Entry, GameRow, Identity, SeatOwner, SqliteStore, Status, Store};
use server::{Config, Server, Shared};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::time::Duration;

fn db_path(dir: &tempfile::TempDir) -> String {
    dir.path().join("robodrome.db").to_string_lossy().into_owned()
}

async fn raw_pool(db: &str) -> SqlitePool {
    let opts = SqliteConnectOptions::new().filename(db).create_if_missing(true);
    SqlitePoolOptions::new().max_connections(1).connect_with(opts).await.expect("sqlite")
}

fn config(db: &str) -> Config {
    Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        db: db.to_string(),
        web: None,
        ..Config::default()
    }
}

fn create(game: &str, seats: &[&str]) -> CreateGame {
    CreateGame {
        game: game.into(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        board: None,
        variants: None,
        options: None,
        timer_secs: None,
        seed: None,
        practice: false,
    }
}

/// The message of a refused start.
async fn refused(config: Config) -> String {
    match Server::start(config).await {
        Ok(_) => panic!("the server started"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn poison_rows_are_skipped_logged_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(&dir);
    // A good game, made by the server's own code (no server running).
    let good = {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).await.unwrap());
        let (_stop, sd) = tokio::sync::watch::channel(false);
        let shared = Shared::new(config(&db), store, sd);
        let g = shared.guest("Ann").await.unwrap();
        let ann = shared.identity(&g.token).await.unwrap().unwrap();
        shared.create_game(&ann, create("autoscooter", &["me", "open"])).await.unwrap().id
    };
    // Poison, written behind the server's back.
    let pool = raw_pool(&db).await;
    let copy = |id: &str, game: &str, seats: &str, status: &str| {
        format!(
            "INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, rules_version) \
             SELECT '{id}', '{game}', setup, seed, '{seats}', '{status}', timer_secs, creator, rules_version \
             FROM games WHERE id = '{good}'"
        )
    };
    let bots = r#"[{"kind":"bot","spec":"random"},{"kind":"bot","spec":"random"}]"#;
    for sql in [
        copy("bad-seats", "autoscooter", r#"[{"kind":"alien"}]"#, "running"),
        copy("bad-kind", "chess", bots, "running"),
        copy("bad-log", "autoscooter", bots, "running"),
        copy("bad-finished", "autoscooter", "not json", "finished"),
        copy("good-running", "autoscooter", bots, "running"),
        "INSERT INTO actions (game_id, idx, entry) VALUES ('bad-log', 0, '{\"kind\":\"nonsense\"}')"
            .to_string(),
    ] {
        sqlx::query(&sql).execute(&pool).await.unwrap();
    }
    pool.close().await;

    // The server starts and resumes the good running game.
    let server = start_server(&dir, |_| {}).await;
    assert_eq!(server.resumed.0, 1, "only good-running resumes");
    let addr = server.addr;
    for q in ["", "?status=running", "?status=finished", "?status=open"] {
        let (status, body) = http(addr, "GET", &format!("/api/games{q}"), None, None).await;
        assert_eq!(status, 200, "{q}: {body}");
        let ids: Vec<&str> =
            body.as_array().unwrap().iter().filter_map(|g| g["id"].as_str()).collect();
        assert!(ids.iter().all(|id| !id.starts_with("bad-")), "{q}: {ids:?}");
        if q.is_empty() {
            assert!(ids.contains(&good.as_str()) && ids.contains(&"good-running"), "{ids:?}");
        }
    }
    let (status, health) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["storage"], "ok");
    let mut skipped: Vec<&str> =
        health["skipped_games"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    skipped.sort();
    assert_eq!(skipped, ["bad-finished", "bad-kind", "bad-log", "bad-seats"]);
    let (_, metrics) = http(addr, "GET", "/metrics", None, None).await;
    assert!(metrics.as_str().unwrap().contains("\nrobodrome_games_skipped_total 4\n"), "{metrics}");
    // Asking for a poison game answers the error object, with no internal detail.
    for path in ["/api/games/bad-log/steps", "/api/games/bad-seats", "/api/games/bad-kind/steps"] {
        let (status, body) = http(addr, "GET", path, None, None).await;
        assert_eq!(status, 500, "{path}: {body}");
        assert_eq!(body["code"], "unreadable_game", "{path}: {body}");
        let text = body["message"].as_str().unwrap().to_ascii_lowercase();
        for leak in ["serde", "sqlite", "expected", "line", "nonsense", "chess"] {
            assert!(!text.contains(leak), "{path}: {text}");
        }
    }
    server.shutdown().await;
}

/// A store whose writes fail while `fail` is set (a full disk), counting append attempts;
/// `fail_finish` fails only the storing of results (`finish_game`), counted in `finishes`.
struct FailingStore {
    inner: Box<dyn Store>,
    fail: AtomicBool,
    fail_finish: AtomicBool,
    appends: AtomicU64,
    finishes: AtomicU64,
    /// Told of every append attempt (so a hot loop fails the test at once, not by a hang).
    attempts: tokio::sync::watch::Sender<u64>,
}

impl FailingStore {
    fn over(inner: impl Store) -> FailingStore {
        FailingStore {
            inner: Box::new(inner),
            fail: AtomicBool::new(false),
            fail_finish: AtomicBool::new(false),
            appends: AtomicU64::new(0),
            finishes: AtomicU64::new(0),
            attempts: tokio::sync::watch::channel(0).0,
        }
    }

    fn full<T: Send + 'static>(&self) -> Option<BoxFut<'_, T>> {
        self.fail.load(SeqCst).then(Self::disk_full)
    }

    fn disk_full<'a, T: Send + 'static>() -> BoxFut<'a, T> {
        Box::pin(async {
            Err(server::store::StoreError::Db(sqlx::Error::Io(std::io::Error::other(
                "database or disk is full",
            ))))
        })
    }
}

impl Store for FailingStore {
    fn platform(&self) -> &dyn server::platform_store::PlatformStore {
        self.inner.platform()
    }
    fn create_identity<'a>(&'a self, id: &'a str, name: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        self.full().unwrap_or_else(|| self.inner.create_identity(id, name, token))
    }
    fn identity_by_token<'a>(&'a self, token: &'a str) -> BoxFut<'a, Option<Identity>> {
        self.inner.identity_by_token(token)
    }
    fn revoke_tokens<'a>(&'a self, identity: &'a str) -> BoxFut<'a, u64> {
        self.full().unwrap_or_else(|| self.inner.revoke_tokens(identity))
    }
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, ()> {
        self.full().unwrap_or_else(|| self.inner.insert_game(g))
    }
    fn update_game<'a>(&'a self, id: &'a str, s: &'a [SeatOwner], st: Status) -> BoxFut<'a, ()> {
        self.full().unwrap_or_else(|| self.inner.update_game(id, s, st))
    }
    fn finish_game<'a>(&'a self, id: &'a str, outcome: &'a Value) -> BoxFut<'a, ()> {
        self.finishes.fetch_add(1, SeqCst);
        if self.fail_finish.load(SeqCst) {
            return Self::disk_full();
        }
        self.full().unwrap_or_else(|| self.inner.finish_game(id, outcome))
    }
    fn game<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<GameRow>> {
        self.inner.game(id)
    }
    fn games<'a>(&'a self, status: Option<Status>, limit: u32) -> BoxFut<'a, Vec<GameRow>> {
        self.inner.games(status, limit)
    }
    fn append<'a>(&'a self, id: &'a str, index: u64, entry: &'a Entry) -> BoxFut<'a, ()> {
        let n = self.appends.fetch_add(1, SeqCst) + 1;
        self.attempts.send_replace(n);
        self.full().unwrap_or_else(|| self.inner.append(id, index, entry))
    }
    fn log<'a>(&'a self, id: &'a str) -> BoxFut<'a, Vec<Entry>> {
        self.inner.log(id)
    }
    fn running_logs(&self) -> BoxFut<'_, HashMap<String, Result<Vec<Entry>, String>>> {
        self.inner.running_logs()
    }
    fn lobby<'a>(
        &'a self,
        status: Status,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(GameRow, i64)>> {
        self.inner.lobby(status, before, limit)
    }
    fn open_games_of<'a>(&'a self, creator: &'a str) -> BoxFut<'a, u64> {
        self.inner.open_games_of(creator)
    }
    fn unreadable(&self) -> Vec<server::store::Unreadable> {
        self.inner.unreadable()
    }
    fn accounts(&self) -> Option<&dyn server::accounts::AccountStore> {
        self.inner.accounts()
    }
    fn boards(&self) -> Option<&dyn server::boards::BoardStore> {
        self.inner.boards()
    }
}

/// A game that ends while its result cannot be stored: everyone is told it is over at once (its
/// log is stored), the result is tried again after each backoff step — not in a loop, and even
/// with nobody watching — and it is stored as soon as storage works again. Before, the failure
/// was only logged: the task ended and the lobby showed the game running until a restart.
#[tokio::test(start_paused = true)]
async fn a_result_that_cannot_be_stored_is_stored_once_storage_works_again() {
    let store = Arc::new(FailingStore::over(crate::support::MemStore::default()));
    store.fail_finish.store(true, SeqCst);
    let (_stop, sd) = tokio::sync::watch::channel(false);
    let shared = Shared::new(Config { web: None, ..Config::default() }, store.clone(), sd);
    let mut storage = shared.faults.watch_storage();
    let g = shared.guest("Ann").await.unwrap();
    let ann: Identity = shared.identity(&g.token).await.unwrap().unwrap();
    let info = shared
        .create_game(&ann, create("autoscooter", &["bot:random", "bot:random"]))
        .await
        .unwrap();
    let mut watch = shared.watch(&info.id, Observer::Spectator).await.unwrap();
    loop {
        let f = watch.rx.recv().await.expect("the game runs to its end");
        if f.contains("\"type\":\"over\"") {
            break;
        }
    }
    watch.leave().await;
    // The first attempt failed; the next ones come after 250 ms and then 500 ms more (tokio's
    // paused clock moves only when every task waits, so a loop would show no time passing).
    storage.wait_for(|&n| n >= 1).await.unwrap();
    let first = tokio::time::Instant::now();
    // (On the paused clock a missing retry fails at once, by this timeout, instead of hanging.)
    let retried =
        tokio::time::timeout(BACKOFF_MAX * 2, storage.wait_for(|&n| n >= 3)).await.is_ok();
    assert!(retried, "the result is tried again after the backoff");
    assert!(first.elapsed() >= server::faults::BACKOFF_START * 3, "{:?}", first.elapsed());
    assert_eq!(store.finishes.load(SeqCst), 3);
    let row = shared.store.game(&info.id).await.unwrap().unwrap();
    assert_eq!(row.status, Status::Running, "not stored yet");
    let h = shared.faults.health(vec![]);
    assert_eq!((h.status, h.storage), ("degraded", "failing"));
    assert_eq!(shared.metrics.rooms.load(SeqCst), 1, "the task waits to store the result");
    // Storage works again: the next attempt stores it, by itself.
    store.fail_finish.store(false, SeqCst);
    let stored = tokio::time::timeout(BACKOFF_MAX * 2, storage.wait_for(|&n| n == 0)).await.is_ok();
    assert!(stored, "stored by itself once storage works again");
    let row = shared.store.game(&info.id).await.unwrap().unwrap();
    assert_eq!(row.status, Status::Finished);
    assert!(row.outcome.is_some());
    assert_eq!(store.finishes.load(SeqCst), 4);
    assert_eq!(shared.faults.health(vec![]).status, "ok");
}

/// A full disk: bots and stand-ins do not retry in a loop (counted over a minute of the paused
/// clock), actions and lobby writes get `storage_unavailable`, and play resumes by itself once
/// writes work again.
#[tokio::test]
async fn a_full_disk_backs_off_without_a_hot_loop_and_recovers() {
    let store = Arc::new(FailingStore::over(crate::support::MemStore::default()));
    let (_stop, sd) = tokio::sync::watch::channel(false);
    let shared = Shared::new(Config { web: None, ..Config::default() }, store.clone(), sd);
    let g = shared.guest("Ann").await.unwrap();
    let ann: Identity = shared.identity(&g.token).await.unwrap().unwrap();
    let info = shared
        .create_game(&ann, create("autoscooter", &["bot:random", "bot:random"]))
        .await
        .unwrap();
    // The disk fills up (the bots have had a few moves at most: nothing ran since).
    store.fail.store(true, SeqCst);
    let mut watch = shared.watch(&info.id, Observer::Spectator).await.unwrap();
    // From here on the clock is tokio's paused one: it jumps ahead whenever every task waits
    // (the store is in memory: a database's own threads would let pool timeouts fire early).
    tokio::time::pause();
    let before = store.appends.load(SeqCst);
    let mut attempts = store.attempts.subscribe();
    tokio::select! {
        _ = tokio::time::sleep(Duration::from_secs(60)) => {}
        // A hot loop never lets the paused clock move: stop as soon as it is clear.
        _ = attempts.wait_for(|&n| n > before + 24) => {}
    }
    let tries = store.appends.load(SeqCst) - before;
    // Backoff from 250 ms doubling to 30 s: about 8 rounds a minute, two bots each.
    assert!((1..=24).contains(&tries), "{tries} append attempts in a minute");
    assert!(shared.faults.degraded());
    let h = shared.faults.health(vec![]);
    assert_eq!((h.status, h.storage), ("degraded", "failing"));
    assert_eq!(
        shared.create_game(&ann, create("autoscooter", &["me", "open"])).await.unwrap_err().code(),
        "storage_unavailable"
    );
    let text = shared.fault_metrics();
    assert!(text.contains("\nrobodrome_storage_degraded 1\n"), "{text}");
    // Space returns: the bots play on without anyone asking, once the backoff is over.
    store.fail.store(false, SeqCst);
    while let Ok(Some(_)) = tokio::time::timeout(Duration::ZERO, watch.rx.recv()).await {}
    let seq0 = shared.store.log(&info.id).await.unwrap().len();
    tokio::time::advance(server::faults::BACKOFF_MAX).await;
    tokio::time::resume();
    let frame = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let f = watch.rx.recv().await.expect("the game goes on");
            if f.contains("\"type\":\"update\"") {
                return f;
            }
        }
    })
    .await
    .expect("an update once storage works again");
    assert!(frame.contains("\"seq\""));
    assert!(shared.store.log(&info.id).await.unwrap().len() > seq0);
    assert!(!shared.faults.degraded(), "{} {}", shared.fault_metrics(), store.appends.load(SeqCst));
}

#[tokio::test]
async fn a_second_server_on_the_same_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let first = start_server(&dir, |_| {}).await;
    let msg = refused(config(&db_path(&dir))).await;
    assert!(msg.contains("another robodrome server is already using"), "{msg}");
    assert!(msg.contains("robodrome.db.lock"), "{msg}");
    // The first one still works.
    let (status, _) = http(first.addr, "GET", "/api/games", None, None).await;
    assert_eq!(status, 200);
    first.shutdown().await;
}

#[tokio::test]
async fn an_empty_or_foreign_file_is_refused_and_init_creates_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(&dir);
    // Zero bytes: refused, untouched; --init creates the database in it.
    std::fs::write(&db, b"").unwrap();
    let msg = refused(config(&db)).await;
    assert!(msg.contains("is empty") && msg.contains("--init"), "{msg}");
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
    let server = Server::start(Config { init: true, ..config(&db) }).await.expect("--init");
    let (status, _) = http(server.addr, "GET", "/api/games", None, None).await;
    assert_eq!(status, 200);
    server.shutdown().await;
    let pool = raw_pool(&db).await;
    let v: i64 = sqlx::query("PRAGMA user_version").fetch_one(&pool).await.unwrap().get(0);
    assert_eq!(v, server::schema::latest());
    pool.close().await;

    // Not SQLite at all: refused even with --init, untouched.
    let text = dir.path().join("notes.txt").to_string_lossy().into_owned();
    std::fs::write(&text, b"my notes, not a database").unwrap();
    for init in [false, true] {
        let msg = refused(Config { init, ..config(&text) }).await;
        assert!(msg.contains("is not an SQLite database"), "{msg}");
    }
    assert_eq!(std::fs::read(&text).unwrap(), b"my notes, not a database");

    // Someone else's SQLite database.
    let other = dir.path().join("shop.db").to_string_lossy().into_owned();
    let pool = raw_pool(&other).await;
    sqlx::query("CREATE TABLE customers (id INTEGER)").execute(&pool).await.unwrap();
    pool.close().await;
    for init in [false, true] {
        let msg = refused(Config { init, ..config(&other) }).await;
        assert!(msg.contains("SQLite database of something else") && msg.contains("customers"));
    }

    // From a newer server.
    let newer = dir.path().join("newer.db").to_string_lossy().into_owned();
    let pool = raw_pool(&newer).await;
    sqlx::query("PRAGMA user_version = 999").execute(&pool).await.unwrap();
    sqlx::query("CREATE TABLE games (id TEXT)").execute(&pool).await.unwrap();
    pool.close().await;
    let msg = refused(config(&newer)).await;
    assert!(msg.contains("schema version 999"), "{msg}");

    // A missing file is simply created (a fresh machine).
    let fresh = dir.path().join("fresh.db").to_string_lossy().into_owned();
    let server = Server::start(config(&fresh)).await.expect("a missing file is created");
    server.shutdown().await;
}

/// A database written before versioning (version 0, tokens in clear) is migrated: the guest
/// keeps its identity, and the token is no longer stored in clear.
#[tokio::test]
async fn a_version_0_database_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(&dir);
    let pool = raw_pool(&db).await;
    for s in [
        "CREATE TABLE identities (id TEXT PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
        "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, timer_secs INTEGER, creator TEXT NOT NULL, outcome TEXT, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
        "CREATE TABLE actions (game_id TEXT NOT NULL, idx INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, idx)) WITHOUT ROWID",
        "INSERT INTO identities (id, name, token) VALUES ('ann1', 'Ann', 'oldtoken0123456789')",
    ] {
        sqlx::query(s).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let server = start_server(&dir, |_| {}).await;
    let who = server.shared.identity("oldtoken0123456789").await.unwrap().expect("still known");
    assert_eq!((who.id.as_str(), who.name.as_str()), ("ann1", "Ann"));
    server.shutdown().await;
    let pool = raw_pool(&db).await;
    let v: i64 = sqlx::query("PRAGMA user_version").fetch_one(&pool).await.unwrap().get(0);
    assert_eq!(v, server::schema::latest());
    let dump: Vec<String> = sqlx::query("SELECT hash FROM tokens")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(dump, [server::schema::hash_token("oldtoken0123456789")]);
    assert_ne!(dump[0], "oldtoken0123456789");
    pool.close().await;
}

/// The same with a real full disk: the database on a small tmpfs that a filler file fills up.
/// Deterministic: the test holds the only bot worker while it empties SQLite's write-ahead log
/// (so no write can land in space the log already holds) and fills the disk, then lets the
/// bots think, and waits on the storage state and on frames, never on time. Mounting needs
/// root (or CAP_SYS_ADMIN); where it is not possible the test prints why it did not run (the
/// failing store above covers the server's side everywhere).
#[tokio::test]
async fn a_real_full_disk_on_tmpfs() {
    use std::process::Command;
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
        .arg(&mnt)
        .output()
        .map_err(|e| e.to_string())
        .and_then(|o| {
            o.status.success().then_some(()).ok_or_else(|| {
                format!("{}: {}", o.status, String::from_utf8_lossy(&o.stderr).trim())
            })
        });
    if let Err(why) = mounted {
        // Straight to the process's stderr: the test harness would swallow an `eprintln!`.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "faults::a_real_full_disk_on_tmpfs SKIPPED: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): {why}"
        );
        return;
    }
    let _unmount = Unmount(mnt.clone());
    let db = mnt.join("robodrome.db").to_string_lossy().into_owned();
    let server =
        Server::start(Config { bot_workers: 1, ..config(&db) }).await.expect("starts on the tmpfs");
    let (addr, shared) = (server.addr, server.shared.clone());
    let mut storage = shared.faults.watch_storage();
    // No bot thinks while the test holds the only worker.
    let worker = shared.bot_pool.clone().acquire_owned().await.unwrap();
    let token = crate::support::guest(addr, "Ann").await;
    let bots = serde_json::json!({"game": "autoscooter", "seats": ["bot:random", "bot:random"]});
    let (status, g) = http(addr, "POST", "/api/games", Some(&token), Some(bots.clone())).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut sub = shared.watch(&id, Observer::Spectator).await.unwrap();
    // Empty the write-ahead log into the database file, then fill the disk: every write needs
    // new space now.
    let pool = raw_pool(&db).await;
    let r = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").fetch_one(&pool).await.unwrap();
    assert_eq!((r.get::<i64, _>(0), r.get::<i64, _>(1)), (0, 0), "the log is empty");
    pool.close().await;
    let filler = mnt.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 16 * 1024];
        while f.write_all(&chunk).is_ok() {}
        let _ = f.sync_all();
    }
    assert!(!shared.faults.degraded(), "nothing was written since");
    // The bots think; the first one's move cannot be stored (SQLite: database or disk is full).
    drop(worker);
    tokio::time::timeout(STEP, storage.wait_for(|&n| n >= 1))
        .await
        .expect("the bots' write fails on the full disk")
        .unwrap();
    let first = tokio::time::Instant::now();
    let (status, health) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        (health["status"].as_str(), health["storage"].as_str()),
        (Some("degraded"), Some("failing"))
    );
    let (status, body) = http(addr, "POST", "/api/games", Some(&token), Some(bots)).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("storage_unavailable")), "{body}");
    // SQLite's own words ("(code: 13) database or disk is full") stay in the log.
    let text = body["message"].as_str().unwrap().to_ascii_lowercase();
    for leak in ["sqlite", "code", "disk", "full", "database"] {
        assert!(!text.contains(leak), "{text}");
    }
    // No hot loop: the next two tries wait for the backoff (250 ms, then 500 ms more).
    tokio::time::timeout(STEP, storage.wait_for(|&n| n >= 3))
        .await
        .expect("tried again after the backoff")
        .unwrap();
    let waited = first.elapsed();
    assert!(waited >= server::faults::BACKOFF_START * 3, "three failures in {waited:?}");
    let (_, metrics) = http(addr, "GET", "/metrics", None, None).await;
    assert!(metrics.as_str().unwrap().contains("\nrobodrome_storage_degraded 1\n"), "{metrics}");
    // Space returns: play goes on by itself once the backoff is over (at most its cap).
    std::fs::remove_file(&filler).unwrap();
    let resumed = tokio::time::timeout(server::faults::BACKOFF_MAX + STEP, async {
        loop {
            let f = sub.rx.recv().await.expect("the game goes on");
            if f.contains("\"type\":\"update\"") {
                return;
            }
        }
    })
    .await;
    assert!(resumed.is_ok(), "the game goes on once there is space again");
    assert_eq!(*storage.borrow(), 0);
    let (_, health) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(health["storage"], "ok");
    assert!(!shared.store.log(&id).await.unwrap().is_empty(), "the move is stored");
    server.shutdown().await;
}

/// A database of schema version 4 whose rows were written before boards were stored once (the
/// whole track or rink inline in every row), as an older server left it: migration 5 moves each
/// large setup value into `blobs` under its SHA-256, as new rows are written (docs/security.md
/// "Limits"), every row reads back the same, and the file shrinks.
#[tokio::test]
async fn inline_boards_of_a_version_4_database_move_into_blobs_and_the_file_shrinks() {
    use sha2::Digest;
    let sha = |t: &str| -> String {
        sha2::Sha256::digest(t.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    };
    // Whole setups and one played game, made by the server's own code in memory.
    let source: Arc<dyn Store> = Arc::new(SqliteStore::open(":memory:").await.unwrap());
    let (_stop, sd) = tokio::sync::watch::channel(false);
    let shared = Shared::new(Config { web: None, ..Config::default() }, source.clone(), sd);
    let g = shared.guest("Ann").await.unwrap();
    let ann = shared.identity(&g.token).await.unwrap().unwrap();
    let mut templates = Vec::new();
    for (game, board) in [
        ("bumping-bots", Some("oval")),
        ("bumping-bots", Some("factory")),
        ("bumping-bots", Some("chicane")),
        ("autoscooter", None),
        ("roborally", None),
    ] {
        let req = CreateGame { board: board.map(String::from), ..create(game, &["me", "open"]) };
        let id = shared.create_game(&ann, req).await.unwrap().id;
        templates.push(source.game(&id).await.unwrap().unwrap());
    }
    let played = shared
        .create_game(&ann, create("autoscooter", &["bot:random", "bot:random"]))
        .await
        .unwrap()
        .id;
    let mut w = shared.watch(&played, Observer::Spectator).await.unwrap();
    while !w.rx.recv().await.expect("plays to the end").contains("\"type\":\"over\"") {}
    let played_log = source.log(&played).await.unwrap();
    let played_row = loop {
        let row = source.game(&played).await.unwrap().unwrap();
        if row.status == Status::Finished {
            break row;
        }
        tokio::task::yield_now().await;
    };
    assert!(templates[0].setup.to_string().len() > 2048, "a track is large");

    // The old database: the first four migrations as shipped, rows with inline setups.
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(&dir);
    let pool = raw_pool(&db).await;
    // (One connection: no syncs while it is filled.)
    sqlx::query("PRAGMA synchronous = OFF").execute(&pool).await.unwrap();
    {
        let mut c = pool.acquire().await.unwrap();
        for m in &server::schema::MIGRATIONS[..4] {
            (m.up)(&mut c).await.unwrap();
        }
        sqlx::query("PRAGMA user_version = 4").execute(&mut *c).await.unwrap();
    }
    let insert = |id: String, row: &GameRow, setup: String| {
        let pool = pool.clone();
        let (row, seats) = (row.clone(), serde_json::to_string(&row.seats).unwrap());
        async move {
            sqlx::query(
                "INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, outcome) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(id)
            .bind(&row.game)
            .bind(setup)
            .bind(row.seed as i64)
            .bind(seats)
            .bind(row.status.as_str())
            .bind(row.timer_secs.map(i64::from))
            .bind(&row.creator)
            .bind(row.outcome.as_ref().map(Value::to_string))
            .execute(&pool)
            .await
            .unwrap();
        }
    };
    let mut expected: Vec<(String, Value)> = Vec::new();
    for i in 0..150 {
        let t = &templates[i % templates.len()];
        let id = format!("old-{i:03}");
        insert(id.clone(), t, t.setup.to_string()).await;
        expected.push((id, t.setup.clone()));
    }
    insert("old-played".into(), &played_row, played_row.setup.to_string()).await;
    expected.push(("old-played".into(), played_row.setup.clone()));
    for (i, e) in played_log.iter().enumerate() {
        sqlx::query("INSERT INTO actions (game_id, idx, entry) VALUES ('old-played', ?, ?)")
            .bind(i as i64)
            .bind(serde_json::to_string(e).unwrap())
            .execute(&pool)
            .await
            .unwrap();
    }
    // One row written by a version-4 server already: its track by reference.
    let oval = templates[0].setup["board"].to_string();
    let mut by_ref = templates[0].setup.clone();
    by_ref["board"] = serde_json::json!({ "$blob": sha(&oval) });
    sqlx::query("INSERT INTO blobs (hash, body) VALUES (?, ?)")
        .bind(sha(&oval))
        .bind(&oval)
        .execute(&pool)
        .await
        .unwrap();
    insert("v4-row".into(), &templates[0], by_ref.to_string()).await;
    expected.push(("v4-row".into(), templates[0].setup.clone()));
    let size = |pool: SqlitePool| async move {
        let pages: i64 = sqlx::query("PRAGMA page_count").fetch_one(&pool).await.unwrap().get(0);
        let page: i64 = sqlx::query("PRAGMA page_size").fetch_one(&pool).await.unwrap().get(0);
        pool.close().await;
        pages * page
    };
    let before = size(pool).await;

    // The new server migrates it.
    let server = start_server(&dir, |_| {}).await;
    for (id, setup) in &expected {
        let row = server.shared.store.game(id).await.unwrap().expect("readable");
        assert_eq!(&row.setup, setup, "{id} reads back whole");
    }
    // Rows older than migration 7 keep rules version 1 (docs/security.md "Rules versions"):
    // the played game's result stands, its steps and replay are refused by name.
    let row = server.shared.store.game("old-played").await.unwrap().unwrap();
    assert_eq!((row.rules_version, row.outcome.is_some()), (1, true));
    for what in ["steps", "replay"] {
        let path = format!("/api/games/old-played/{what}");
        let (status, body) = http(server.addr, "GET", &path, None, None).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("rules_changed")), "{body}");
    }
    assert!(!played_log.is_empty());
    let (status, list) = http(server.addr, "GET", "/api/games?status=open", None, None).await;
    assert_eq!((status, list.as_array().map(Vec::len)), (200, Some(50)), "a full first page");
    server.shutdown().await;

    let pool = raw_pool(&db).await;
    let v: i64 = sqlx::query("PRAGMA user_version").fetch_one(&pool).await.unwrap().get(0);
    assert_eq!(v, server::schema::latest());
    // Every large value is in `blobs` once, under its SHA-256; rows hold references only.
    let mut large: Vec<String> = expected
        .iter()
        .filter_map(|(_, s)| s.as_object())
        .flat_map(|m| m.values().map(Value::to_string))
        .filter(|t| t.len() > 512)
        .collect();
    large.sort();
    large.dedup();
    let blobs: Vec<(String, String)> = sqlx::query_as("SELECT hash, body FROM blobs ORDER BY body")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(blobs.len(), large.len(), "one blob per distinct board");
    for (hash, body) in &blobs {
        assert_eq!(hash, &sha(body));
        assert!(large.contains(body));
    }
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT id, setup FROM games").fetch_all(&pool).await.unwrap();
    assert_eq!(rows.len(), expected.len());
    for (id, text) in &rows {
        let setup: Value = serde_json::from_str(text).unwrap();
        for v in setup.as_object().unwrap().values() {
            let inline = v.to_string();
            assert!(inline.len() <= 512 || v.get("$blob").is_some(), "{id}: {inline:.80}");
        }
    }
    let after = size(pool).await;
    // (Less than a third: the later migrations' empty tables and indexes take pages too.)
    assert!(after * 3 < before, "the file shrinks: {before} → {after} bytes");
}

/// docs/security.md "Rules versions": a game keeps the version of its game's rules it was
/// started under. A finished game of another version keeps its stored result, and its steps and
/// replay answer a typed error that says why; a running one is skipped and reported as a poison
/// row is (not resumed, left out of the lobby, `/healthz` degraded); games of the current
/// version are untouched.
#[tokio::test]
async fn games_stored_under_other_rules_are_not_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(&dir);
    // A finished bot game and a game to copy as running, made by the server's own code.
    let (played, open) = {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&db).await.unwrap());
        let (stop, sd) = tokio::sync::watch::channel(false);
        let shared = Shared::new(config(&db), store.clone(), sd);
        let g = shared.guest("Ann").await.unwrap();
        let ann = shared.identity(&g.token).await.unwrap().unwrap();
        let bots = create("autoscooter", &["bot:random", "bot:random"]);
        let played = shared.create_game(&ann, bots).await.unwrap().id;
        let mut w = shared.watch(&played, Observer::Spectator).await.unwrap();
        while !w.rx.recv().await.expect("plays to the end").contains("\"type\":\"over\"") {}
        while store.game(&played).await.unwrap().unwrap().status != Status::Finished {
            tokio::task::yield_now().await;
        }
        let open = shared.create_game(&ann, create("autoscooter", &["me", "open"])).await;
        // Stop the game tasks and wait until nothing holds the store (and its file lock).
        drop((w, shared));
        stop.send_replace(true);
        while Arc::strong_count(&store) > 1 {
            tokio::task::yield_now().await;
        }
        (played, open.unwrap().id)
    };
    let current = games::Registry::everything().get("autoscooter").unwrap().info.rules_version;
    assert!(current > 1, "Autoscooter's rules changed in issue 22's round 2");
    let pool = raw_pool(&db).await;
    let copy = |id: &str, from: &str, status: &str, version: u32| {
        format!(
            "INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, outcome, rules_version) \
             SELECT '{id}', game, setup, seed, seats, '{status}', timer_secs, creator, outcome, {version} \
             FROM games WHERE id = '{from}'"
        )
    };
    let bots = r#"[{"kind":"bot","spec":"random"},{"kind":"bot","spec":"random"}]"#;
    for sql in [
        copy("old-finished", &played, "finished", current - 1),
        copy("old-running", &open, "running", current - 1),
        copy("new-running", &open, "running", current),
        format!("UPDATE games SET seats = '{bots}' WHERE id IN ('old-running', 'new-running')"),
        format!(
            "INSERT INTO actions (game_id, idx, entry) SELECT 'old-finished', idx, entry \
             FROM actions WHERE game_id = '{played}'"
        ),
    ] {
        sqlx::query(&sql).execute(&pool).await.unwrap();
    }
    pool.close().await;

    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    assert_eq!(server.resumed.0, 1, "only new-running resumes");
    // The finished game of the current version replays.
    for what in ["steps", "replay"] {
        let (status, body) =
            http(addr, "GET", &format!("/api/games/{played}/{what}"), None, None).await;
        assert_eq!(status, 200, "{what}: {body}");
    }
    // The older finished game: its result stands, its steps and replay are refused in words.
    let (status, info) = http(addr, "GET", "/api/games/old-finished", None, None).await;
    assert_eq!(status, 200, "{info}");
    let (_, played_info) = http(addr, "GET", &format!("/api/games/{played}"), None, None).await;
    assert_eq!(info["outcome"], played_info["outcome"], "the stored result");
    assert!(!info["outcome"].is_null());
    for what in ["steps", "replay"] {
        let (status, body) =
            http(addr, "GET", &format!("/api/games/old-finished/{what}"), None, None).await;
        assert_eq!(status, 409, "{what}: {body}");
        assert_eq!(body["code"], "rules_changed", "{body}");
        let message = body["message"].as_str().unwrap();
        for words in [
            format!("version {} of the autoscooter rules", current - 1),
            format!("this server plays version {current}"),
            "keeps its stored result".to_string(),
        ] {
            assert!(message.contains(&words), "{message}");
        }
    }
    // The older running game is reported as a poison row is; the finished one is no fault.
    let (_, health) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["skipped_games"], serde_json::json!(["old-running"]));
    let (_, running) = http(addr, "GET", "/api/games?status=running", None, None).await;
    let ids: Vec<&str> =
        running.as_array().unwrap().iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(ids.contains(&"new-running") && !ids.contains(&"old-running"), "{ids:?}");
    let (_, finished) = http(addr, "GET", "/api/games?status=finished", None, None).await;
    assert!(finished.as_array().unwrap().iter().any(|g| g["id"] == "old-finished"), "{finished}");
    let (status, body) = http(addr, "GET", "/api/games/old-running/steps", None, None).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("rules_changed")), "{body}");
    server.shutdown().await;
}

/// Group commit under load (`store.rs`, `LINGER`: a commit that follows the previous one closely
/// waits a moment for more games' entries): 40 games append 10 entries each at once. Every append
/// returns only once its entry is committed (a reader connection finds it at once), every game's
/// log is stored whole and in order, and a duplicate index is still refused as a gap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_of_many_games_at_once_are_committed_before_they_return() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&db_path(&dir)).await.expect("open"));
    let mut tasks = tokio::task::JoinSet::new();
    for g in 0..40u8 {
        let store = store.clone();
        tasks.spawn(async move {
            let id = format!("game-{g}");
            for i in 0..10u64 {
                let entry =
                    Entry::Act { seat: engine::Seat(g % 4), action: serde_json::json!({"i": i}) };
                store.append(&id, i, &entry).await.expect("append");
                let log = store.log(&id).await.expect("log");
                assert_eq!(log.len() as u64, i + 1, "{id}: entry {i} read back once acknowledged");
            }
            id
        });
    }
    while let Some(id) = tasks.join_next().await {
        let id = id.expect("task");
        let log = store.log(&id).await.expect("log");
        let order: Vec<u64> = log
            .iter()
            .map(|e| match e {
                Entry::Act { action, .. } => action["i"].as_u64().expect("i"),
                Entry::TimeUp => u64::MAX,
            })
            .collect();
        assert_eq!(order, (0..10).collect::<Vec<u64>>(), "{id}");
    }
    let again = store.append("game-0", 3, &Entry::TimeUp).await;
    assert!(matches!(again, Err(server::store::StoreError::Gap(3))), "{again:?}");
}
