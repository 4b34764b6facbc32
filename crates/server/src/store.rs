//! Storage: identities, games (game name, setup, seed, seats, status) and their action logs.
//!
//! Behind the small [`Store`] trait; [`SqliteStore`] keeps everything in one SQLite file,
//! created on first start. Runtime queries only (no compile-time database needed).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use tokio::sync::{mpsc, oneshot};

pub type BoxFut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("stored data: {0}")]
    Data(#[from] serde_json::Error),
    #[error("log entry {0} is not the next one")]
    Gap(u64),
    #[error("the store is closed")]
    Closed,
    /// A cluster node's write refused: the game's lease moved on (another node or epoch owns
    /// it now, docs/deployment.md "Fencing"). Nothing was written.
    #[error("the game's lease is no longer this node's: nothing written")]
    Fenced,
    #[error(transparent)]
    Refused(#[from] crate::schema::Refused),
    /// A setup this store will not keep as it is (`compact`).
    #[error("refused: {0}")]
    BadSetup(&'static str),
}

impl From<crate::schema::MigrateError> for StoreError {
    fn from(e: crate::schema::MigrateError) -> StoreError {
        match e {
            crate::schema::MigrateError::Refused(r) => StoreError::Refused(r),
            crate::schema::MigrateError::Db(d) => StoreError::Db(d),
        }
    }
}

/// A seat as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatOwner {
    Open,
    Human {
        identity: String,
        name: String,
    },
    Bot {
        spec: String,
    },
    /// A player who resigned a running game: a random bot plays the seat to the end, and the
    /// game's record keeps who it was (docs/protocol.md "Resign and leave").
    Resigned {
        identity: String,
        name: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Running,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
    fn parse(s: &str) -> Status {
        match s {
            "running" => Status::Running,
            "finished" => Status::Finished,
            _ => Status::Open,
        }
    }
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub setup: Value,
    pub seed: u64,
    pub seats: Vec<SeatOwner>,
    pub status: Status,
    pub timer_secs: Option<u32>,
    pub creator: String,
    pub outcome: Option<Value>,
    /// A practice game: its seed may have been chosen; shown as practice, never rated.
    pub practice: bool,
    /// The version of the game's rules it was started under (the rules crate's
    /// `RULES_VERSION`; 1 for games stored before versions were kept): a log replays the same
    /// game only under those rules (docs/security.md "Rules versions").
    pub rules_version: u32,
}

/// One stored log entry: `{"kind":"act","seat":0,"action":{…}}` or `{"kind":"time_up"}`.
pub type Entry = engine::LogEntry<Value>;

#[derive(Clone, Debug)]
pub struct Identity {
    pub id: String,
    pub name: String,
    /// When the session (token) that found this identity was issued or last renewed (Unix
    /// seconds; it expires the server's `token_ttl` after that: docs/platform.md "Sessions").
    pub issued_at: i64,
}

/// A game row that cannot be read (poison): skipped, logged and reported, never fatal.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    pub id: String,
    pub reason: String,
}

pub trait Store: Send + Sync + 'static {
    /// A new identity and its first token (stored hashed).
    fn create_identity<'a>(&'a self, id: &'a str, name: &'a str, token: &'a str) -> BoxFut<'a, ()>;
    /// The identity a token belongs to (any age: the caller checks expiry on `issued_at`).
    fn identity_by_token<'a>(&'a self, token: &'a str) -> BoxFut<'a, Option<Identity>>;
    /// "Log out everywhere": forget every token of an identity. Returns how many.
    fn revoke_tokens<'a>(&'a self, identity: &'a str) -> BoxFut<'a, u64>;
    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, ()>;
    /// Seats and status of a game not yet running (joins, start).
    fn update_game<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatOwner],
        status: Status,
    ) -> BoxFut<'a, ()>;
    fn finish_game<'a>(&'a self, id: &'a str, outcome: &'a Value) -> BoxFut<'a, ()>;
    fn game<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<GameRow>>;
    /// The newest games; rows that cannot be read are left out and listed in `unreadable`.
    fn games<'a>(&'a self, status: Option<Status>, limit: u32) -> BoxFut<'a, Vec<GameRow>>;
    /// Append entry `index` (0-based) of a game's log; must be the next one.
    fn append<'a>(&'a self, id: &'a str, index: u64, entry: &'a Entry) -> BoxFut<'a, ()>;
    /// [`Store::append`] by a cluster node holding the game's lease as (`node`, `epoch`):
    /// written only if the lease is still that, in the same statement
    /// ([`StoreError::Fenced`] otherwise). Stores without leases (SQLite: one server) append.
    fn append_fenced<'a>(
        &'a self,
        id: &'a str,
        index: u64,
        entry: &'a Entry,
        node: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, ()> {
        let _ = (node, epoch);
        self.append(id, index, entry)
    }
    /// A cluster node's game's timers (`game_timers`, docs/deployment.md "Timers"), stored by
    /// the owner holding the lease as (`node`, `epoch`) in the group commit with the log
    /// appends, fenced like them ([`StoreError::Fenced`] when the lease moved on: nothing
    /// written). Stores without leases (SQLite: one server, whose timers restart with it) keep
    /// no such timers: this default stores nothing.
    fn set_timers_fenced<'a>(
        &'a self,
        id: &'a str,
        node: &'a str,
        epoch: i64,
        timers: &'a crate::cluster::StoredTimers,
    ) -> BoxFut<'a, ()> {
        let _ = (id, node, epoch, timers);
        Box::pin(async { Ok(()) })
    }
    /// Append entries `first`, `first + 1`, … of a game's log, in order (a game's task stores
    /// the actions that queued up while it waited for storage together): how many were stored,
    /// and the failure that stopped the rest. This default appends one by one; the SQLite store
    /// writes them in one statement of one group commit, all or none.
    fn append_many<'a>(
        &'a self,
        id: &'a str,
        first: u64,
        entries: &'a [Entry],
    ) -> Pin<Box<dyn Future<Output = (usize, Option<StoreError>)> + Send + 'a>> {
        Box::pin(async move {
            for (i, e) in entries.iter().enumerate() {
                if let Err(err) = self.append(id, first + i as u64, e).await {
                    return (i, Some(err));
                }
            }
            (entries.len(), None)
        })
    }
    fn log<'a>(&'a self, id: &'a str) -> BoxFut<'a, Vec<Entry>>;
    /// Every running game's log, by game id, in one go (resuming at start); a game with an
    /// entry that does not parse has the reason instead.
    fn running_logs(
        &self,
    ) -> BoxFut<'_, std::collections::HashMap<String, Result<Vec<Entry>, String>>>;
    /// Rows met so far that could not be read (the lobby and `/healthz` report them).
    fn unreadable(&self) -> Vec<Unreadable> {
        Vec::new()
    }
    /// One page of the lobby: games of `status`, newest first, created before the cursor
    /// `(created_at, id)` if given; each with its cursor. Rows carry no setup (`Value::Null`).
    fn lobby<'a>(
        &'a self,
        status: Status,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(GameRow, i64)>>;
    /// Open and running games `creator` created.
    fn open_games_of<'a>(&'a self, creator: &'a str) -> BoxFut<'a, u64>;
    /// Turn-based clocks, bot accounts and challenges (`crate::platform_store`).
    fn platform(&self) -> &dyn crate::platform_store::PlatformStore;
    /// Accounts, sessions, ratings, follows and blocks (`crate::accounts`), if this store keeps
    /// them (the tests' in-memory store does not: the account routes answer `no_accounts`).
    fn accounts(&self) -> Option<&dyn crate::accounts::AccountStore>;
    /// Saved boards (`crate::boards`), if this store keeps them (they need accounts: the
    /// tests' in-memory store keeps neither; the board routes answer `no_boards`).
    fn boards(&self) -> Option<&dyn crate::boards::BoardStore>;
}

/// SQLite has one writer at a time: every write goes through one connection (`writer`), and
/// log appends from all games are grouped into one transaction per batch (group commit) by a
/// task that answers each game once its entry is committed. Reads use their own pool.
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    pub(crate) writer: SqlitePool,
    appends: mpsc::Sender<Append>,
    /// Poison rows met, by game id.
    unreadable: std::sync::Mutex<std::collections::BTreeMap<String, String>>,
    /// The one-server lock (`schema::lock`), held while the store lives.
    _lock: Option<std::fs::File>,
}

struct Append {
    id: String,
    /// The index of the first entry; the others follow it.
    index: u64,
    entries: Vec<String>,
    /// A turn-based game's clock to store (`turn_clocks`: per-move seconds, deadline, who
    /// owes, as JSON), in the same commit; its `entries` are empty.
    clock: Option<ClockRow>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// A `turn_clocks` row of the group commit: per-move seconds, deadline, who owes (JSON).
type ClockRow = (i64, Option<i64>, String);

/// Appends committed together at most.
const BATCH: usize = 512;

/// Group commit under load: a commit that follows the previous one within `BUSY` first waits
/// `LINGER` for more appends (docs/benchmarks.md "Server": fewer, larger commits cost less CPU
/// per action; the wait is part of every acknowledgement's latency under load, and none when
/// the server is quiet).
const BUSY: std::time::Duration = std::time::Duration::from_millis(20);
const LINGER: std::time::Duration = std::time::Duration::from_millis(2);

/// Under load (a database file, commits within `BUSY` of each other) the group commit keeps the
/// writer connection between its commits for this long at most, then gives it back to the pool
/// for the other writes (docs/benchmarks.md "CPU per accepted action, round 4": every taking
/// and giving back of a pooled connection costs sqlx's two pings, each a round trip to
/// SQLite's thread, and a spawned task).
const HOLD: std::time::Duration = std::time::Duration::from_millis(20);

/// The writer connection's page cache, in KiB (SQLite's `cache_size` as a negative number):
/// every live game appends to a leaf page of its own (the log's key is (game, index)), so
/// SQLite's default of 2 MiB (500 pages) held only a fifth of 2,500 games' pages and most
/// appends read their page back from the write-ahead log or the file first (a system call and
/// a 4 KiB copy per action: docs/benchmarks.md "CPU per accepted action, round 7"). 32 MiB
/// holds about 8,000 games' pages; SQLite allocates them as they are used.
const WRITER_CACHE_KIB: &str = "-32768";

/// How often the write-ahead log is copied back into the database file (see `append_task`).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
/// Every this many checkpoints, the writer finishes one itself so that the log starts over.
const RESTART_EVERY: u32 = 8;

/// The log's tail (schema migration 10): entries in insertion order, moved into `actions` in
/// bulk by [`merge_tail`]. `actions` is keyed by (game, index), so the entries of one group
/// commit, each of another game, each landed on a B-tree page of its own: about one 4 KiB
/// frame of the write-ahead log per entry, copied again by the checkpoint. Appended to a rowid
/// table they fill one or two pages per commit; the merge then writes each game's page once
/// for all the entries it gathered (docs/benchmarks.md "CPU per accepted action, round 9").
pub(crate) const LOG_TAIL_TABLE: &str = "CREATE TABLE IF NOT EXISTS log_tail (seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL, idx INTEGER NOT NULL, entry TEXT NOT NULL)";

/// The tail is merged when it holds this many entries (and at every writer checkpoint, every
/// `RESTART_EVERY` seconds): it bounds the part of a game's log read without an index (a scan
/// of the tail, `Store::log`) and the time one merge holds the writer.
/// (A few dozen in the unit tests, so that their random appends go through many merges.)
const MERGE_ROWS: usize = if cfg!(test) { 48 } else { 32_768 };

/// Move every entry of the tail into `actions`, in one transaction (a reader sees the entries
/// in one table or the other, never both or neither); sorted by (game, index), so that each
/// page of `actions` is written once. Returns how many moved. `OR IGNORE`: an entry is in the
/// tail only if its index was free (`TailIndex`), and without a conflict clause SQLite would
/// copy every page the statement changes to a statement journal first.
pub(crate) async fn merge_tail(c: &mut sqlx::SqliteConnection) -> Result<u64, sqlx::Error> {
    let mut tx = sqlx::Connection::begin(&mut *c).await?;
    let moved = sqlx::query(
        "INSERT OR IGNORE INTO actions (game_id, idx, entry) \
         SELECT game_id, idx, entry FROM log_tail ORDER BY game_id, idx",
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let removed = sqlx::query("DELETE FROM log_tail").execute(&mut *tx).await?.rows_affected();
    tx.commit().await?;
    if moved != removed {
        tracing::error!(moved, removed, "log tail merge: entries already in actions were dropped");
    }
    Ok(removed)
}

/// What the group commit knows of the tail: each recent game's next free index (one past its
/// highest stored), and how many entries the tail holds. A game it does not know has no entry
/// in the tail (every game in the tail is loaded before the first commit, and a game is
/// forgotten only after a merge), so its next index is read from `actions` alone, by its key.
#[derive(Default)]
struct TailIndex {
    next: std::collections::HashMap<String, (u64, u64)>,
    rows: usize,
    merges: u64,
    /// Whether the entries a server left in the tail when it stopped are known ([`Self::load`]).
    loaded: bool,
}

impl TailIndex {
    /// Know every game the tail holds entries of, with its next index over both tables (the
    /// entries a server left in the tail when it stopped: merged at the next merge).
    async fn load(&mut self, c: &mut sqlx::SqliteConnection) -> Result<(), sqlx::Error> {
        let rows = sqlx::query(
            "SELECT t.game_id, max(t.m, coalesce((SELECT max(a.idx) FROM actions a \
             WHERE a.game_id = t.game_id), -1)), t.n \
             FROM (SELECT game_id, max(idx) AS m, count(*) AS n FROM log_tail GROUP BY game_id) t",
        )
        .fetch_all(&mut *c)
        .await?;
        for r in rows {
            let (id, max, n): (String, i64, i64) = (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
            self.next.insert(id, (max as u64 + 1, self.merges));
            self.rows += n as usize;
        }
        self.loaded = true;
        Ok(())
    }

    /// Read the next index of the batch's games it does not know (one query).
    async fn learn(
        &mut self,
        c: &mut sqlx::SqliteConnection,
        batch: &[Append],
    ) -> Result<(), sqlx::Error> {
        let mut unknown: Vec<&str> = batch
            .iter()
            .filter(|a| !a.entries.is_empty() && !self.next.contains_key(&a.id))
            .map(|a| a.id.as_str())
            .collect();
        unknown.sort_unstable();
        unknown.dedup();
        for chunk in unknown.chunks(500) {
            let mut sql = String::from("SELECT game_id, max(idx) FROM actions WHERE game_id IN (?");
            for _ in 1..chunk.len() {
                sql.push_str(", ?");
            }
            sql.push_str(") GROUP BY game_id");
            let mut q = sqlx::query(&sql);
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(&mut *c).await? {
                let id: String = r.try_get(0)?;
                let max: i64 = r.try_get(1)?;
                self.next.insert(id, (max as u64 + 1, self.merges));
            }
            for id in chunk {
                self.next.entry((*id).to_string()).or_insert((0, self.merges));
            }
        }
        Ok(())
    }

    fn next_of(&self, id: &str) -> u64 {
        self.next.get(id).map_or(0, |&(n, _)| n)
    }

    /// Entries `first..end` of game `id` were committed (none: a turn-based clock alone, which
    /// says nothing of the game's log).
    fn stored(&mut self, id: &str, first: u64, end: u64) {
        if first == end {
            return;
        }
        let merges = self.merges;
        // Looked up by `&str` first: the game is almost always known (no `String` per append).
        match self.next.get_mut(id) {
            Some(e) => *e = (e.0.max(end), merges),
            None => {
                self.next.insert(id.to_string(), (end, merges));
            }
        }
        self.rows += (end - first) as usize;
    }

    /// After a merge: the tail is empty; games not appended to since the merge before are
    /// forgotten (their next index is read again by key if they append again).
    fn merged(&mut self) {
        let keep = self.merges;
        self.next.retain(|_, (_, at)| *at == keep);
        self.merges += 1;
        self.rows = 0;
    }
}

/// Merge the tail on the writer; logs what it did.
async fn merge_on(writer: &SqlitePool, tail: &mut TailIndex) {
    let t = std::time::Instant::now();
    let r = match writer.acquire().await {
        Ok(mut c) => merge_tail(&mut c).await,
        Err(e) => Err(e),
    };
    match r {
        Ok(n) => {
            tail.merged();
            tracing::debug!(entries = n, ms = t.elapsed().as_millis() as u64, "log tail merged");
        }
        Err(e) => tracing::warn!(error = %e, "log tail merge failed (kept in the tail)"),
    }
}

/// `PRAGMA wal_checkpoint(PASSIVE)` on `pool`; logs what it did.
async fn checkpoint(pool: &SqlitePool, who: &'static str) {
    let t = std::time::Instant::now();
    match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(pool).await {
        Ok(r) => tracing::debug!(
            who,
            log = r.try_get::<i64, _>(1).unwrap_or(-1),
            copied = r.try_get::<i64, _>(2).unwrap_or(-1),
            ms = t.elapsed().as_millis() as u64,
            "checkpoint"
        ),
        Err(e) => tracing::warn!(who, error = %e, "checkpoint failed"),
    }
}

/// Commits appends in batches. With a database file, SQLite's automatic checkpoint inside a
/// commit (copying the write-ahead log into the database, with two syncs: up to seconds on a
/// busy disk, with every game waiting for its append) is off. Instead a reader connection
/// checkpoints once a second beside the writer (SQLite's `PASSIVE` mode blocks no one), and
/// after every eighth of those the writer checkpoints what little was written meanwhile,
/// between two batches: then the log is fully copied and the next commit starts it over, so
/// it stays small (its file is cut back to 64 MiB when it starts over).
async fn append_task(
    writer: SqlitePool,
    checkpointer: Option<SqlitePool>,
    mut rx: mpsc::Receiver<Append>,
) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The background checkpoint answers on `finished` (true: the writer's turn follows).
    let (finish_tx, mut finished) = mpsc::channel::<bool>(1);
    let mut running = false;
    let mut rounds = 0u32;
    let mut last_commit: Option<tokio::time::Instant> = None;
    // The writer connection kept between commits under load, and when it goes back.
    let mut held: Option<sqlx::pool::PoolConnection<sqlx::Sqlite>> = None;
    let mut hold_until: Option<tokio::time::Instant> = None;
    let mut tail = TailIndex::default();
    let release = tokio::time::sleep(std::time::Duration::ZERO);
    tokio::pin!(release);
    loop {
        tokio::select! {
            n = rx.recv_many(&mut batch, BATCH) => if n == 0 { break },
            () = &mut release, if held.is_some() => {
                held = None;
                continue;
            }
            _ = tick.tick(), if checkpointer.is_some() && !running => {
                if let Some(pool) = &checkpointer {
                    running = true;
                    rounds += 1;
                    let (pool, tx, restart) = (pool.clone(), finish_tx.clone(), rounds.is_multiple_of(RESTART_EVERY));
                    tokio::spawn(async move {
                        checkpoint(&pool, "reader").await;
                        let _ = tx.send(restart).await;
                    });
                }
                continue;
            }
            Some(restart) = finished.recv() => {
                running = false;
                if restart {
                    held = None;
                    if tail.rows > 0 {
                        merge_on(&writer, &mut tail).await;
                    }
                    checkpoint(&writer, "writer").await;
                }
                continue;
            }
        }
        // Busy (the last commit began a moment ago): wait a little for more games' entries,
        // so that one commit (one round trip to SQLite's thread, one write of the log's
        // frames) serves several actions. Quiet: commit at once, no added latency.
        let now = tokio::time::Instant::now();
        let busy = last_commit.is_some_and(|t| now - t < BUSY);
        if batch.len() < BATCH && busy {
            tokio::time::sleep(LINGER).await;
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(a) => batch.push(a),
                    Err(_) => break,
                }
            }
        }
        last_commit = Some(tokio::time::Instant::now());
        let t = std::time::Instant::now();
        let mut conn = match held.take() {
            Some(c) => c,
            None => match writer.acquire().await {
                Ok(c) => {
                    hold_until = (busy && checkpointer.is_some()).then(|| {
                        let until = tokio::time::Instant::now() + HOLD;
                        release.as_mut().reset(until);
                        until
                    });
                    c
                }
                Err(e) => {
                    let m = format!("the writer connection: {e}");
                    for a in batch.drain(..) {
                        let _ = a.done.send(Err(StoreError::Db(sqlx::Error::Protocol(m.clone()))));
                    }
                    continue;
                }
            },
        };
        commit_batch(&mut conn, &mut batch, &mut tail).await;
        if t.elapsed() > std::time::Duration::from_millis(50) {
            tracing::debug!(ms = t.elapsed().as_millis() as u64, "slow commit");
        }
        if tail.rows >= MERGE_ROWS {
            drop(conn);
            held = None;
            merge_on(&writer, &mut tail).await;
            continue;
        }
        // Kept for the next commit while the hold lasts (given back by `release` otherwise).
        if hold_until.is_some_and(|u| tokio::time::Instant::now() < u) {
            held = Some(conn);
        }
    }
}

/// Commit a batch of appends into the tail and answer each. An append that starts at or past
/// its game's next free index cannot meet a taken one: those go into one statement. One that
/// starts below it (a caller storing an index again) is checked against both tables first and
/// refused with [`StoreError::Gap`] if any of its indices is taken, as the key of `actions`
/// refused it before the tail.
async fn commit_batch(
    conn: &mut sqlx::SqliteConnection,
    batch: &mut Vec<Append>,
    tail: &mut TailIndex,
) {
    let known = match tail.loaded {
        true => Ok(()),
        false => tail.load(conn).await,
    };
    if let Err(e) = async {
        known?;
        tail.learn(conn, batch).await
    }
    .await
    {
        let m = e.to_string();
        for a in batch.drain(..) {
            let _ = a.done.send(Err(StoreError::Db(sqlx::Error::Protocol(m.clone()))));
        }
        return;
    }
    let mut planned: std::collections::HashMap<&str, u64> = Default::default();
    let mut fits = vec![true; batch.len()];
    for (i, a) in batch.iter().enumerate() {
        if a.entries.is_empty() {
            continue;
        }
        let next = planned.get(a.id.as_str()).copied().unwrap_or_else(|| tail.next_of(&a.id));
        if a.index >= next {
            planned.insert(a.id.as_str(), a.index + a.entries.len() as u64);
        } else {
            fits[i] = false;
        }
    }
    let all: Vec<Append> = std::mem::take(batch);
    let (fast, slow): (Vec<_>, Vec<_>) = all.into_iter().zip(fits).partition(|(_, fits)| *fits);
    let fast: Vec<Append> = fast.into_iter().map(|(a, _)| a).collect();
    match insert_all(conn, &fast).await {
        Ok(()) => {
            crate::metrics::COMMITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let n: usize = fast.iter().map(|a| a.entries.len()).sum();
            crate::metrics::COMMITTED_ENTRIES
                .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
            for a in fast {
                tail.stored(&a.id, a.index, a.index + a.entries.len() as u64);
                let _ = a.done.send(Ok(()));
            }
        }
        // One bad entry must not fail the others: insert them one by one.
        Err(_) => {
            for a in fast {
                let r = insert_all(conn, std::slice::from_ref(&a)).await;
                if r.is_ok() {
                    tail.stored(&a.id, a.index, a.index + a.entries.len() as u64);
                }
                let _ = a.done.send(r.map_err(StoreError::from));
            }
        }
    }
    for (a, _) in slow {
        let end = a.index + a.entries.len() as u64;
        let r = match taken(conn, &a.id, a.index, end).await {
            Ok(true) => Err(StoreError::Gap(a.index)),
            Ok(false) => insert_all(conn, std::slice::from_ref(&a)).await.map_err(StoreError::from),
            Err(e) => Err(e.into()),
        };
        if r.is_ok() {
            tail.stored(&a.id, a.index, end);
        }
        let _ = a.done.send(r);
    }
}

/// Whether any of the indices `first..end` of a game's log is stored (in `actions` by its key,
/// in the tail by a scan: only for appends below the game's next index, which the server's
/// games never make).
async fn taken(
    c: &mut sqlx::SqliteConnection,
    id: &str,
    first: u64,
    end: u64,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = ?1 AND idx >= ?2 AND idx < ?3) \
         OR EXISTS (SELECT 1 FROM log_tail WHERE game_id = ?1 AND idx >= ?2 AND idx < ?3)",
    )
    .bind(id)
    .bind(first as i64)
    .bind(end as i64)
    .fetch_one(c)
    .await
}

/// Rows per `INSERT` statement: 3 parameters each, under the limit of 32,766 of the SQLite
/// bundled with sqlx (3.32 and later). A group commit of up to this many entries is one
/// statement on its own, committed by itself; above it (or with turn-based clocks) the
/// statements share a transaction, where SQLite also copies every page a statement changes to
/// a statement journal first (a temporary file past 64 KiB). With 300 here, a server whose
/// commits fell behind (several hundred entries each) paid that copy on every page:
/// docs/benchmarks.md "CPU per accepted action, round 7".
const ROWS_PER_INSERT: usize = 4096;

/// Turn-based clocks per `INSERT` statement: 4 parameters each.
const CLOCKS_PER_INSERT: usize = 200;

/// One multi-row `INSERT` per chunk: every statement is one round trip to SQLite's thread (a
/// statement is atomic by itself; several chunks, and the turn-based clocks of the batch
/// (`INSERT OR REPLACE`, the last of a game winning), share one transaction).
async fn insert_all(
    writer: &mut sqlx::SqliteConnection,
    batch: &[Append],
) -> Result<(), sqlx::Error> {
    fn sql(rows: usize) -> String {
        let mut s = String::from("INSERT INTO log_tail (game_id, idx, entry) VALUES (?, ?, ?)");
        for _ in 1..rows {
            s.push_str(", (?, ?, ?)");
        }
        s
    }
    type Flat<'q> = (&'q str, i64, &'q str);
    fn bind<'q>(
        sql: &'q str,
        rows: &[Flat<'q>],
    ) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
        let mut q = sqlx::query(sql);
        for &(id, idx, entry) in rows {
            q = q.bind(id).bind(idx).bind(entry);
        }
        q
    }
    let rows: Vec<Flat<'_>> = batch
        .iter()
        .flat_map(|a| {
            a.entries
                .iter()
                .enumerate()
                .map(|(i, e)| (a.id.as_str(), (a.index + i as u64) as i64, e.as_str()))
        })
        .collect();
    let clocks: Vec<(&str, &ClockRow)> =
        batch.iter().filter_map(|a| Some((a.id.as_str(), a.clock.as_ref()?))).collect();
    if clocks.is_empty() && rows.is_empty() {
        return Ok(());
    }
    if clocks.is_empty() && rows.len() <= ROWS_PER_INSERT {
        let sql = sql(rows.len());
        bind(&sql, &rows).execute(&mut *writer).await?;
        return Ok(());
    }
    let mut tx = sqlx::Connection::begin(&mut *writer).await?;
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let sql = sql(chunk.len());
        bind(&sql, chunk).execute(&mut *tx).await?;
    }
    for chunk in clocks.chunks(CLOCKS_PER_INSERT) {
        let mut sql = String::from(
            "INSERT OR REPLACE INTO turn_clocks (game_id, per_move_secs, due_ms, waiting) VALUES (?, ?, ?, ?)",
        );
        for _ in 1..chunk.len() {
            sql.push_str(", (?, ?, ?, ?)");
        }
        let mut q = sqlx::query(&sql);
        for &(id, (per, due, waiting)) in chunk {
            q = q.bind(id).bind(*per).bind(*due).bind(waiting.as_str());
        }
        q.execute(&mut *tx).await?;
    }
    tx.commit().await
}

/// The limits step of the schema (issue 14: boards stored once, the lobby's keyset index, the
/// open-games count), migration 4 of `crate::schema::MIGRATIONS`. Idempotent. Rows written
/// before it had their boards inline; migration 5 moves them into `blobs`.
pub const LIMITS_MIGRATION: &[&str] = &[
    // Large parts of setups (boards, courses, tracks), stored once by content (SHA-256).
    "CREATE TABLE IF NOT EXISTS blobs (hash TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID",
    // The lobby's pages: WHERE status = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC.
    "CREATE INDEX IF NOT EXISTS games_lobby ON games (status, created_at DESC, id DESC)",
    "DROP INDEX IF EXISTS games_status",
    // Open games per identity.
    "CREATE INDEX IF NOT EXISTS games_creator ON games (creator, status)",
];

/// A top-level value of a setup longer than this (as JSON) is stored once in `blobs`.
pub(crate) const BLOB_OVER: usize = 512;
const BLOB_KEY: &str = "$blob";

pub(crate) fn blob_ref(v: &Value) -> Option<&str> {
    match v {
        Value::Object(m) if m.len() == 1 => m.get(BLOB_KEY)?.as_str(),
        _ => None,
    }
}

/// A setup with its large top-level values replaced by `{"$blob": sha256}`, and those values.
pub(crate) fn compact(setup: &Value) -> Result<(Value, Vec<(String, String)>), StoreError> {
    compact_with(setup, false)
}

/// A setup as stored by an older server (`crate::schema`'s migration 5): its large inline
/// values replaced like a new row's, references already in it kept.
pub(crate) fn compact_stored(setup: &Value) -> (Value, Vec<(String, String)>) {
    compact_with(setup, true).unwrap_or_else(|_| (setup.clone(), Vec::new()))
}

fn compact_with(
    setup: &Value,
    keep_refs: bool,
) -> Result<(Value, Vec<(String, String)>), StoreError> {
    use sha2::Digest;
    let mut out = setup.clone();
    let mut blobs = Vec::new();
    if let Value::Object(m) = &mut out {
        for v in m.values_mut() {
            if blob_ref(v).is_some() {
                if keep_refs {
                    continue;
                }
                return Err(StoreError::BadSetup("a setup value looks like a stored reference"));
            }
            let text = v.to_string();
            if text.len() > BLOB_OVER {
                let hash: String = sha2::Sha256::digest(text.as_bytes())
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                *v = serde_json::json!({ BLOB_KEY: hash });
                blobs.push((hash, text));
            }
        }
    }
    Ok((out, blobs))
}

impl SqliteStore {
    /// A stored setup with its blob references filled in.
    async fn expand(&self, mut setup: Value) -> Result<Value, StoreError> {
        if let Value::Object(m) = &mut setup {
            for v in m.values_mut() {
                if let Some(hash) = blob_ref(v) {
                    let body: String = sqlx::query_scalar("SELECT body FROM blobs WHERE hash = ?")
                        .bind(hash)
                        .fetch_one(&self.pool)
                        .await?;
                    *v = serde_json::from_str(&body)?;
                }
            }
        }
        Ok(setup)
    }

    /// Open (creating it if missing) a database file, or `:memory:`.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        Self::open_with(path, false).await
    }

    /// Open a database file: lock it for this server, refuse files that are not ours (an
    /// existing empty file only with `init`), migrate the schema (`crate::schema`).
    pub async fn open_with(path: &str, init: bool) -> Result<SqliteStore, StoreError> {
        let memory = path == ":memory:";
        let (lock, missing) = if memory {
            (None, true)
        } else {
            let lock = crate::schema::lock(path)?;
            (Some(lock), crate::schema::check_file(path, init)?)
        };
        let opts = if memory {
            SqliteConnectOptions::from_str("sqlite::memory:")?
        } else {
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
        };
        // No ping before handing the writer out: it is a connection to a local file in this
        // process (each ping is a round trip to SQLite's thread; docs/benchmarks.md "round 4").
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(if memory {
                opts.clone()
            } else {
                opts.clone()
                    .pragma("wal_autocheckpoint", "0")
                    .pragma("journal_size_limit", "67108864")
                    .pragma("cache_size", WRITER_CACHE_KIB)
            })
            .await?;
        // An in-memory database lives in one connection.
        let pool = if memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new().max_connections(4).connect_with(opts).await?
        };
        {
            let mut c = writer.acquire().await?;
            crate::schema::migrate(&mut c, path, init || missing).await?;
        }
        let (appends, rx) = mpsc::channel(4 * BATCH);
        tokio::spawn(append_task(writer.clone(), (!memory).then(|| pool.clone()), rx));
        Ok(SqliteStore { pool, writer, appends, unreadable: Default::default(), _lock: lock })
    }

    /// Store a turn-based game's clock in the group commit (the writes of the log appends'
    /// batch: one transaction), once it is committed.
    pub(crate) async fn commit_clock(
        &self,
        id: &str,
        clock: &crate::platform_store::TurnClock,
    ) -> Result<(), StoreError> {
        let row =
            (i64::from(clock.per_move_secs), clock.due_ms, serde_json::to_string(&clock.waiting)?);
        let (done, answer) = oneshot::channel();
        let a =
            Append { id: id.to_string(), index: 0, entries: Vec::new(), clock: Some(row), done };
        self.appends.send(a).await.map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// Note a poison row (logged once).
    fn poison(&self, id: &str, reason: String) {
        let mut m = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        if !m.contains_key(id) {
            tracing::error!(game = %id, %reason, "a stored game cannot be read: skipped");
            m.insert(id.to_string(), reason);
        }
    }

    pub(crate) fn reader(&self) -> &SqlitePool {
        &self.pool
    }

    pub(crate) fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    pub(crate) fn row(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow, StoreError> {
        let setup: String = r.try_get("setup")?;
        let seats: String = r.try_get("seats")?;
        let status: String = r.try_get("status")?;
        let outcome: Option<String> = r.try_get("outcome")?;
        let seed: i64 = r.try_get("seed")?;
        let timer: Option<i64> = r.try_get("timer_secs")?;
        let practice: i64 = r.try_get("practice")?;
        let rules_version: i64 = r.try_get("rules_version")?;
        Ok(GameRow {
            id: r.try_get("id")?,
            game: r.try_get("game")?,
            setup: serde_json::from_str(&setup)?,
            seed: seed as u64,
            seats: serde_json::from_str(&seats)?,
            status: Status::parse(&status),
            timer_secs: timer.map(|t| t as u32),
            creator: r.try_get("creator")?,
            outcome: outcome.map(|o| serde_json::from_str(&o)).transpose()?,
            practice: practice != 0,
            rules_version: rules_version as u32,
        })
    }
}

impl Store for SqliteStore {
    fn platform(&self) -> &dyn crate::platform_store::PlatformStore {
        self
    }

    fn create_identity<'a>(&'a self, id: &'a str, name: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.writer.begin().await?;
            sqlx::query("INSERT INTO identities (id, name) VALUES (?, ?)")
                .bind(id)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO tokens (hash, identity, issued_at) VALUES (?, ?, unixepoch())",
            )
            .bind(crate::schema::hash_token(token))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn identity_by_token<'a>(&'a self, token: &'a str) -> BoxFut<'a, Option<Identity>> {
        Box::pin(async move {
            let r = sqlx::query(
                "SELECT i.id, i.name, t.issued_at FROM tokens t JOIN identities i ON i.id = t.identity WHERE t.hash = ?",
            )
            .bind(crate::schema::hash_token(token))
            .fetch_optional(&self.pool)
            .await?;
            Ok(match r {
                Some(r) => Some(Identity {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    issued_at: r.try_get("issued_at")?,
                }),
                None => None,
            })
        })
    }

    fn revoke_tokens<'a>(&'a self, identity: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let r = sqlx::query("DELETE FROM tokens WHERE identity = ?")
                .bind(identity)
                .execute(&self.writer)
                .await?;
            Ok(r.rows_affected())
        })
    }

    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let (setup, blobs) = compact(&g.setup)?;
            let mut tx = self.writer.begin().await?;
            for (hash, body) in &blobs {
                sqlx::query("INSERT OR IGNORE INTO blobs (hash, body) VALUES (?, ?)")
                    .bind(hash)
                    .bind(body)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, practice, rules_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .bind(&g.id)
                .bind(&g.game)
                .bind(setup.to_string())
                .bind(g.seed as i64)
                .bind(serde_json::to_string(&g.seats)?)
                .bind(g.status.as_str())
                .bind(g.timer_secs.map(|t| t as i64))
                .bind(&g.creator)
                .bind(i64::from(g.practice))
                .bind(i64::from(g.rules_version))
                .execute(&mut *tx)
                .await?;
            crate::accounts::sync_players(&mut tx, &g.id, &g.seats).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn update_game<'a>(
        &'a self,
        id: &'a str,
        seats: &'a [SeatOwner],
        status: Status,
    ) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.writer.begin().await?;
            sqlx::query("UPDATE games SET seats = ?, status = ? WHERE id = ?")
                .bind(serde_json::to_string(seats)?)
                .bind(status.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            crate::accounts::sync_players(&mut tx, id, seats).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn finish_game<'a>(&'a self, id: &'a str, outcome: &'a Value) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE games SET status = 'finished', outcome = ? WHERE id = ?")
                .bind(outcome.to_string())
                .bind(id)
                .execute(&self.writer)
                .await?;
            Ok(())
        })
    }

    fn game<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<GameRow>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM games WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            match r.as_ref().map(Self::row).transpose()? {
                Some(mut g) => {
                    g.setup = self.expand(std::mem::take(&mut g.setup)).await?;
                    Ok(Some(g))
                }
                None => Ok(None),
            }
        })
    }

    fn games<'a>(&'a self, status: Option<Status>, limit: u32) -> BoxFut<'a, Vec<GameRow>> {
        Box::pin(async move {
            let rows =
                match status {
                    Some(s) => sqlx::query(
                        "SELECT * FROM games WHERE status = ? ORDER BY created_at DESC, id LIMIT ?",
                    )
                    .bind(s.as_str())
                    .bind(limit as i64)
                    .fetch_all(&self.pool)
                    .await?,
                    None => {
                        sqlx::query("SELECT * FROM games ORDER BY created_at DESC, id LIMIT ?")
                            .bind(limit as i64)
                            .fetch_all(&self.pool)
                            .await?
                    }
                };
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                match Self::row(r) {
                    Ok(mut g) => match self.expand(std::mem::take(&mut g.setup)).await {
                        Ok(setup) => {
                            g.setup = setup;
                            out.push(g);
                        }
                        Err(e) => self.poison(&g.id, e.to_string()),
                    },
                    Err(e) => {
                        let id: String = r.try_get("id").unwrap_or_default();
                        self.poison(&id, e.to_string());
                    }
                }
            }
            Ok(out)
        })
    }

    fn append<'a>(&'a self, id: &'a str, index: u64, entry: &'a Entry) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let (done, answer) = oneshot::channel();
            let entries = vec![serde_json::to_string(entry)?];
            let a = Append { id: id.to_string(), index, entries, clock: None, done };
            self.appends.send(a).await.map_err(|_| StoreError::Closed)?;
            answer.await.map_err(|_| StoreError::Closed)?
        })
    }

    /// One `Append` for them all: one statement (atomic), so all are stored or none.
    fn append_many<'a>(
        &'a self,
        id: &'a str,
        first: u64,
        entries: &'a [Entry],
    ) -> Pin<Box<dyn Future<Output = (usize, Option<StoreError>)> + Send + 'a>> {
        Box::pin(async move {
            let r: Result<(), StoreError> = async {
                let entries =
                    entries.iter().map(serde_json::to_string).collect::<Result<Vec<_>, _>>()?;
                let (done, answer) = oneshot::channel();
                let a = Append { id: id.to_string(), index: first, entries, clock: None, done };
                self.appends.send(a).await.map_err(|_| StoreError::Closed)?;
                answer.await.map_err(|_| StoreError::Closed)?
            }
            .await;
            match r {
                Ok(()) => (entries.len(), None),
                Err(e) => (0, Some(e)),
            }
        })
    }

    fn unreadable(&self) -> Vec<Unreadable> {
        let m = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        m.iter().map(|(id, reason)| Unreadable { id: id.clone(), reason: reason.clone() }).collect()
    }

    fn log<'a>(&'a self, id: &'a str) -> BoxFut<'a, Vec<Entry>> {
        Box::pin(async move {
            // The merged part by its key, the tail (at most `MERGE_ROWS` entries) by a scan; one
            // statement, so one snapshot (a merge moves entries from one table to the other).
            let rows = sqlx::query(
                "SELECT idx, entry FROM actions WHERE game_id = ?1 \
                 UNION ALL SELECT idx, entry FROM log_tail WHERE game_id = ?1",
            )
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
            let mut rows = rows
                .iter()
                .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?)))
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            // Each part comes in index order (its key; the tail's insertion order): nearly sorted.
            rows.sort_by_key(|&(idx, _)| idx);
            rows.iter().map(|(_, s)| Ok(serde_json::from_str(s)?)).collect()
        })
    }

    fn running_logs(
        &self,
    ) -> BoxFut<'_, std::collections::HashMap<String, Result<Vec<Entry>, String>>> {
        Box::pin(async move {
            // One statement (one snapshot), sorted here: an `ORDER BY` over the union would sort
            // every running game's log in SQLite instead of reading `actions` in key order.
            let rows = sqlx::query(
                "SELECT a.game_id, a.idx, a.entry FROM actions a JOIN games g ON g.id = a.game_id \
                 WHERE g.status = 'running' \
                 UNION ALL SELECT t.game_id, t.idx, t.entry FROM log_tail t JOIN games g ON g.id = t.game_id \
                 WHERE g.status = 'running'",
            )
            .fetch_all(&self.pool)
            .await?;
            let mut by_game: std::collections::HashMap<String, Vec<(i64, String)>> =
                Default::default();
            for r in rows {
                let id: String = r.try_get(0)?;
                by_game.entry(id).or_default().push((r.try_get(1)?, r.try_get(2)?));
            }
            let mut out: std::collections::HashMap<String, Result<Vec<Entry>, String>> =
                Default::default();
            for (id, mut rows) in by_game {
                rows.sort_by_key(|&(idx, _)| idx);
                let log = rows
                    .iter()
                    .enumerate()
                    .map(|(i, (_, entry))| {
                        serde_json::from_str(entry)
                            .map_err(|e| format!("log entry {i} does not parse: {e}"))
                    })
                    .collect::<Result<Vec<Entry>, String>>();
                if let Err(reason) = &log {
                    self.poison(&id, reason.clone());
                }
                out.insert(id, log);
            }
            Ok(out)
        })
    }

    fn lobby<'a>(
        &'a self,
        status: Status,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(GameRow, i64)>> {
        Box::pin(async move {
            // No setup: the lobby does not show it, and it may be a reference into `blobs`.
            const COLS: &str = "id, game, 'null' AS setup, seed, seats, status, timer_secs, creator, outcome, created_at, practice, rules_version";
            let rows = match before {
                Some((t, id)) => {
                    sqlx::query(&format!(
                        "SELECT {COLS} FROM games WHERE status = ? AND (created_at, id) < (?, ?) \
                         ORDER BY created_at DESC, id DESC LIMIT ?"
                    ))
                    .bind(status.as_str())
                    .bind(t)
                    .bind(id)
                    .bind(limit as i64)
                    .fetch_all(&self.pool)
                    .await?
                }
                None => {
                    sqlx::query(&format!(
                        "SELECT {COLS} FROM games WHERE status = ? ORDER BY created_at DESC, id DESC LIMIT ?"
                    ))
                    .bind(status.as_str())
                    .bind(limit as i64)
                    .fetch_all(&self.pool)
                    .await?
                }
            };
            // A row that cannot be read is left out of the list (and reported), never an
            // error for everybody.
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                match Self::row(r).and_then(|g| Ok((g, r.try_get("created_at")?))) {
                    Ok(page_row) => out.push(page_row),
                    Err(e) => {
                        let id: String = r.try_get("id").unwrap_or_default();
                        self.poison(&id, e.to_string());
                    }
                }
            }
            Ok(out)
        })
    }

    fn open_games_of<'a>(&'a self, creator: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let n: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM games WHERE creator = ? AND status IN ('open', 'running')",
            )
            .bind(creator)
            .fetch_one(&self.pool)
            .await?;
            Ok(n as u64)
        })
    }

    fn accounts(&self) -> Option<&dyn crate::accounts::AccountStore> {
        Some(self)
    }

    fn boards(&self) -> Option<&dyn crate::boards::BoardStore> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, status: Status) -> GameRow {
        GameRow {
            id: id.into(),
            game: "autoscooter".into(),
            setup: serde_json::json!({"players": 2}),
            seed: 7,
            seats: vec![],
            status,
            timer_secs: None,
            creator: "c".into(),
            outcome: None,
            practice: false,
            rules_version: 1,
        }
    }

    fn entry(n: u64) -> Entry {
        engine::LogEntry::Act {
            seat: engine::Seat((n % 3) as u8),
            action: serde_json::json!({ "n": n }),
        }
    }

    async fn tail_len(s: &SqliteStore) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM log_tail").fetch_one(&s.pool).await.unwrap()
    }

    /// The tail against a plain model of every game's log: random appends (one and several
    /// entries, from concurrent games, some at an index already taken; turn-based clocks alone), merges by the group
    /// commit (every `MERGE_ROWS` entries) and by hand, and the store closed and opened again
    /// (a server stopping with entries in the tail, found again before its next commit) — after every step each game's log, the
    /// running games' logs and every refused append read exactly as the model says.
    #[tokio::test]
    async fn logs_read_the_same_through_the_tail_merges_and_reopening() {
        for seed in 0..6u64 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.db").to_string_lossy().into_owned();
            let mut s = SqliteStore::open(&path).await.unwrap();
            let games: Vec<String> = (0..7).map(|g| format!("g{seed}-{g}")).collect();
            for (g, id) in games.iter().enumerate() {
                let status = if g == 6 { Status::Finished } else { Status::Running };
                s.insert_game(&row(id, status)).await.unwrap();
            }
            let mut model: Vec<Vec<Entry>> = vec![Vec::new(); games.len()];
            let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut rand = move |n: u64| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % n
            };
            for step in 0..160u64 {
                let g = rand(games.len() as u64) as usize;
                let id = &games[g];
                match rand(10) {
                    // An index already taken: refused, nothing stored.
                    0 if !model[g].is_empty() => {
                        let at = rand(model[g].len() as u64);
                        let (n, e) = s.append_many(id, at, &[entry(1), entry(2)]).await;
                        assert!(matches!((n, e), (0, Some(StoreError::Gap(i))) if i == at));
                    }
                    1 => {
                        let mut c = s.writer.acquire().await.unwrap();
                        merge_tail(&mut c).await.unwrap();
                    }
                    2 => {
                        drop(s);
                        s = SqliteStore::open(&path).await.unwrap();
                    }
                    // A turn-based clock alone (the group commit's other write): no entry.
                    4 => {
                        let clock = crate::platform_store::TurnClock {
                            per_move_secs: 60,
                            due_ms: Some(step as i64),
                            waiting: vec![0],
                        };
                        s.commit_clock(id, &clock).await.unwrap();
                    }
                    // Several games at once, several entries each (one group commit).
                    3 => {
                        let mut tasks = Vec::new();
                        let s = &s;
                        for (g, log) in model.iter_mut().enumerate() {
                            let new: Vec<Entry> =
                                (0..1 + rand(3)).map(|k| entry(step * 100 + k)).collect();
                            let (id, first) = (games[g].clone(), log.len() as u64);
                            log.extend(new.iter().cloned());
                            tasks.push(async move { s.append_many(&id, first, &new).await });
                        }
                        for (n, e) in futures_util::future::join_all(tasks).await {
                            assert!(e.is_none() && n > 0, "{e:?}");
                        }
                    }
                    _ => {
                        let e = entry(step);
                        s.append(id, model[g].len() as u64, &e).await.unwrap();
                        model[g].push(e);
                    }
                }
                for (g, id) in games.iter().enumerate() {
                    assert_eq!(s.log(id).await.unwrap(), model[g], "seed {seed} step {step} {id}");
                }
                let running = s.running_logs().await.unwrap();
                assert!(!running.contains_key(&games[6]), "the finished game is not resumed");
                for (g, id) in games.iter().enumerate().take(6) {
                    let want = &model[g];
                    match running.get(id) {
                        Some(Ok(log)) => assert_eq!(log, want, "seed {seed} step {step} {id}"),
                        None => assert!(want.is_empty()),
                        Some(Err(e)) => panic!("{e}"),
                    }
                }
            }
            assert!(tail_len(&s).await < MERGE_ROWS as i64, "the group commit merges the tail");
        }
    }
}
