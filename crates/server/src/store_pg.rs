//! PostgreSQL storage: the same [`Store`] (with [`PlatformStore`] and [`AccountStore`]) as
//! [`crate::store::SqliteStore`], for several server nodes on one database
//! (`serve --db postgres://…`, docs/deployment.md).
//!
//! * **Same guarantees.** An action is acknowledged only once its log entry is committed
//!   (PostgreSQL's `synchronous_commit`, the default: the commit is on disk). Appends from all
//!   games are grouped (group commit): one task takes up to [`BATCH`] waiting appends and inserts
//!   them with one `INSERT … SELECT FROM UNNEST(…)` statement (one round trip, one commit, one
//!   WAL flush), then answers each game; a batch that fails is retried entry by entry so one bad
//!   entry (a gap: the unique key `(game_id, idx)`) fails only its own game.
//! * **Schema.** [`MIGRATIONS`] is this backend's ordered list, parallel to
//!   `crate::schema::MIGRATIONS` (the same tables and columns as SQLite's latest version, in
//!   PostgreSQL's types); the version is the one row of `robodrome_schema`. Migrations run under
//!   a transaction-wide advisory lock, so nodes starting together migrate once. A database with
//!   other tables and no `robodrome_schema` is refused, as is a newer version.
//! * **Differences from SQLite, written down:** times are Unix seconds from the database's
//!   clock (`unixepoch()`, a SQL function of migration 1, so that all nodes agree); usernames
//!   are unique ignoring ASCII case through an index on `lower(username)` (SQLite's `COLLATE
//!   NOCASE`); `rowid` orderings (a deleted player's number, a rating history's ties) use a
//!   `BIGSERIAL` column `n`.

use crate::accounts::{Account, AccountStore, Found, HistoryPoint, RatingRow, RatingUpdate};
use crate::boards::{BoardRow, BoardStore};
use crate::platform_store::{BotAccount, Challenge, PlatformStore, TurnClock, seat_needle};
use crate::ratings::Rating;
use crate::store::{
    BoxFut, Entry, GameRow, Identity, SeatOwner, Status, Store, StoreError, Unreadable, blob_ref,
    compact,
};
use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgRow};
use sqlx::{PgPool, Postgres, Row, Transaction};
use std::str::FromStr;
use tokio::sync::{mpsc, oneshot};

/// One step of the PostgreSQL schema: plain SQL statements, run once, in order.
pub struct PgMigration {
    pub name: &'static str,
    pub statements: &'static [&'static str],
}

/// Every PostgreSQL migration, oldest first (the version is how many ran). Append only.
pub const MIGRATIONS: &[PgMigration] = &[
    PgMigration {
        name: "the tables of SQLite's schema version 8 (identities to challenges)",
        statements: &[
            "CREATE OR REPLACE FUNCTION unixepoch() RETURNS BIGINT LANGUAGE sql STABLE AS 'SELECT extract(epoch FROM now())::BIGINT'",
            "CREATE TABLE identities (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at BIGINT NOT NULL DEFAULT unixepoch())",
            "CREATE TABLE tokens (hash TEXT PRIMARY KEY, identity TEXT NOT NULL, issued_at BIGINT NOT NULL)",
            "CREATE INDEX tokens_identity ON tokens (identity)",
            "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, timer_secs BIGINT, creator TEXT NOT NULL, outcome TEXT, created_at BIGINT NOT NULL DEFAULT unixepoch(), practice BIGINT NOT NULL DEFAULT 0, rules_version BIGINT NOT NULL DEFAULT 1)",
            "CREATE INDEX games_lobby ON games (status, created_at DESC, id DESC)",
            "CREATE INDEX games_creator ON games (creator, status)",
            "CREATE TABLE actions (game_id TEXT NOT NULL, idx BIGINT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, idx))",
            "CREATE TABLE blobs (hash TEXT PRIMARY KEY, body TEXT NOT NULL)",
            "CREATE TABLE accounts (identity TEXT PRIMARY KEY, n BIGSERIAL, username TEXT, password TEXT, bot BIGINT NOT NULL DEFAULT 0, deleted BIGINT NOT NULL DEFAULT 0, created_at BIGINT NOT NULL DEFAULT unixepoch())",
            "CREATE UNIQUE INDEX accounts_username ON accounts (lower(username))",
            "CREATE TABLE ratings (player TEXT NOT NULL, game TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, PRIMARY KEY (player, game))",
            "CREATE INDEX ratings_board ON ratings (game, rating DESC, player)",
            "CREATE TABLE rating_history (player TEXT NOT NULL, game TEXT NOT NULL, game_id TEXT NOT NULL, n BIGSERIAL, at BIGINT NOT NULL, before DOUBLE PRECISION NOT NULL, rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL, PRIMARY KEY (player, game, game_id))",
            "CREATE INDEX rating_history_at ON rating_history (player, game, at DESC)",
            "CREATE TABLE player_games (player TEXT NOT NULL, game_id TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (player, game_id))",
            "CREATE INDEX player_games_recent ON player_games (player, created_at DESC, game_id DESC)",
            "CREATE TABLE follows (follower TEXT NOT NULL, followed TEXT NOT NULL, PRIMARY KEY (follower, followed))",
            "CREATE TABLE blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL, PRIMARY KEY (blocker, blocked))",
            "CREATE INDEX blocks_blocked ON blocks (blocked)",
            "CREATE TABLE turn_clocks (game_id TEXT PRIMARY KEY, per_move_secs BIGINT NOT NULL, due_ms BIGINT, waiting TEXT NOT NULL DEFAULT '[]')",
            "CREATE TABLE bot_accounts (id TEXT PRIMARY KEY, owner TEXT NOT NULL, token_hash TEXT UNIQUE, created_at BIGINT NOT NULL DEFAULT unixepoch(), n BIGSERIAL)",
            "CREATE INDEX bot_accounts_owner ON bot_accounts (owner)",
            "CREATE TABLE challenges (id TEXT PRIMARY KEY, challenger TEXT NOT NULL, challenger_name TEXT NOT NULL, recipient TEXT NOT NULL, recipient_name TEXT NOT NULL, request TEXT NOT NULL, status TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, game_id TEXT)",
            "CREATE INDEX challenges_challenger ON challenges (challenger, status)",
            "CREATE INDEX challenges_recipient ON challenges (recipient, status)",
        ],
    },
    PgMigration {
        name: "game leases of several nodes and their history (crate::cluster)",
        statements: &[
            // Who owns a running game now: the node, the lease's epoch (one more at every
            // takeover: the fencing token) and when it runs out (database clock, Unix ms).
            "CREATE TABLE leases (game_id TEXT PRIMARY KEY, node TEXT NOT NULL, epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL)",
            // Every lease ever granted (the cluster test checks that none overlapped).
            "CREATE TABLE lease_history (game_id TEXT NOT NULL, epoch BIGINT NOT NULL, node TEXT NOT NULL, granted_ms BIGINT NOT NULL, PRIMARY KEY (game_id, epoch))",
            // Nodes alive and where their game tasks listen (forwarding), renewed like leases.
            "CREATE TABLE nodes (node TEXT PRIMARY KEY, addr TEXT NOT NULL, seen_ms BIGINT NOT NULL)",
        ],
    },
    PgMigration {
        name: "the timers of running games, so that they survive a takeover (crate::cluster)",
        statements: &[
            // The owner's timers for the position after `seq` log entries: when the server's
            // timer and the rules' clock run out (database clock, Unix ms; NULL: not running).
            "CREATE TABLE game_timers (game_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, deadline_ms BIGINT, clock_ms BIGINT)",
        ],
    },
    PgMigration {
        name: "saved boards (crate::boards) and the cluster's shared secret (crate::cluster)",
        statements: &[
            // One row per version of a saved board, as SQLite's `boards` (its migration 9).
            "CREATE TABLE boards (id TEXT NOT NULL, version BIGINT NOT NULL, owner TEXT NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, public BIGINT NOT NULL DEFAULT 0, created_at BIGINT NOT NULL DEFAULT unixepoch(), PRIMARY KEY (id, version))",
            "CREATE INDEX boards_owner ON boards (owner, id)",
            "CREATE INDEX boards_public ON boards (public, game)",
            // The key nodes sign what they tell each other with (a forwarded client's address,
            // `crate::cluster::Cluster::secret`): one row, made by the first node that needs it.
            "CREATE TABLE cluster_secret (one BIGINT PRIMARY KEY CHECK (one = 1), secret TEXT NOT NULL)",
        ],
    },
];

/// Tables this backend may find in its database.
const OURS: &[&str] = &[
    "robodrome_schema",
    "identities",
    "tokens",
    "games",
    "actions",
    "blobs",
    "accounts",
    "ratings",
    "rating_history",
    "player_games",
    "follows",
    "blocks",
    "turn_clocks",
    "bot_accounts",
    "challenges",
    "leases",
    "lease_history",
    "nodes",
    "game_timers",
    "boards",
    "cluster_secret",
];

/// Appends committed together at most (PostgreSQL takes arrays: no parameter limit).
const BATCH: usize = 512;

struct Append {
    id: String,
    index: u64,
    entry: String,
    /// A cluster node's write: only while the game's lease is still (node, epoch).
    fence: Option<(String, i64)>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The PostgreSQL store. One pool for reads and writes (PostgreSQL has many writers); appends
/// go through the group-commit task.
pub struct PgStore {
    pool: PgPool,
    appends: mpsc::Sender<Append>,
    unreadable: std::sync::Mutex<std::collections::BTreeMap<String, String>>,
}

/// Whether `db` names a PostgreSQL database (`serve --db`).
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

impl PgStore {
    /// Connect to `url` and bring its schema up to date.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        Self::open_in(url, None).await
    }

    /// Connect with every table in the schema `schema` (created if missing; tests give each
    /// test its own), or in the connection's default schema.
    pub async fn open_in(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let mut opts = PgConnectOptions::from_str(url)?;
        if let Some(s) = schema {
            let admin = PgPoolOptions::new().max_connections(1).connect_with(opts.clone()).await?;
            sqlx::query(&format!("CREATE SCHEMA IF NOT EXISTS \"{}\"", s.replace('"', "")))
                .execute(&admin)
                .await?;
            admin.close().await;
            opts = opts.options([("search_path", s)]);
        }
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_with(opts)
            .await?;
        migrate(&pool).await?;
        let (appends, rx) = mpsc::channel(4 * BATCH);
        tokio::spawn(append_task(pool.clone(), rx));
        Ok(PgStore { pool, appends, unreadable: Default::default() })
    }

    /// The pool (the cluster's leases use it).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    fn poison(&self, id: &str, reason: String) {
        let mut m = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        if !m.contains_key(id) {
            tracing::error!(game = %id, %reason, "a stored game cannot be read: skipped");
            m.insert(id.to_string(), reason);
        }
    }

    async fn expand(&self, mut setup: Value) -> Result<Value, StoreError> {
        if let Value::Object(m) = &mut setup {
            for v in m.values_mut() {
                if let Some(hash) = blob_ref(v) {
                    let body: String = sqlx::query_scalar("SELECT body FROM blobs WHERE hash = $1")
                        .bind(hash)
                        .fetch_one(&self.pool)
                        .await?;
                    *v = serde_json::from_str(&body)?;
                }
            }
        }
        Ok(setup)
    }

    fn row(r: &PgRow) -> Result<GameRow, StoreError> {
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
            status: match status.as_str() {
                "running" => Status::Running,
                "finished" => Status::Finished,
                _ => Status::Open,
            },
            timer_secs: timer.map(|t| t as u32),
            creator: r.try_get("creator")?,
            outcome: outcome.map(|o| serde_json::from_str(&o)).transpose()?,
            practice: practice != 0,
            rules_version: rules_version as u32,
        })
    }
}

/// Refuse foreign or newer databases, then run the missing migrations, each in a transaction
/// holding the migration lock.
async fn migrate(pool: &PgPool) -> Result<(), StoreError> {
    /// The advisory lock's key ("robodrom" in ASCII).
    const LOCK: i64 = 0x726f_626f_6472_6f6d;
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(LOCK).execute(&mut *tx).await?;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::TEXT FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
    )
    .fetch_all(&mut *tx)
    .await?;
    let db = "the PostgreSQL database".to_string();
    let version: i64 = if tables.iter().any(|t| t == "robodrome_schema") {
        sqlx::query_scalar("SELECT version FROM robodrome_schema").fetch_one(&mut *tx).await?
    } else {
        let foreign: Vec<&str> =
            tables.iter().map(String::as_str).filter(|t| !OURS.contains(t)).collect();
        if !foreign.is_empty() {
            return Err(crate::schema::Refused::Foreign(db, foreign.join(", ")).into());
        }
        sqlx::query("CREATE TABLE robodrome_schema (version BIGINT NOT NULL)")
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO robodrome_schema (version) VALUES (0)").execute(&mut *tx).await?;
        0
    };
    let latest = MIGRATIONS.len() as i64;
    if version > latest {
        return Err(crate::schema::Refused::Newer { db, found: version, latest }.into());
    }
    for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tracing::info!(version = i + 1, migration = m.name, "migrating the PostgreSQL database");
        for s in m.statements {
            sqlx::query(s).execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE robodrome_schema SET version = $1")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn append_task(pool: PgPool, mut rx: mpsc::Receiver<Append>) {
    let mut batch = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        match insert_all(&pool, &batch).await {
            Ok(fenced) => {
                for a in batch.drain(..) {
                    let r = if fenced.contains(&(a.id.clone(), a.index as i64)) {
                        Err(StoreError::Fenced)
                    } else {
                        Ok(())
                    };
                    let _ = a.done.send(r);
                }
            }
            Err(_) => {
                for a in batch.drain(..) {
                    let r = insert_all(&pool, std::slice::from_ref(&a)).await;
                    let _ = a.done.send(match r {
                        Ok(f) if f.is_empty() => Ok(()),
                        Ok(_) => Err(StoreError::Fenced),
                        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                            Err(StoreError::Gap(a.index))
                        }
                        Err(e) => Err(e.into()),
                    });
                }
            }
        }
    }
}

/// One statement, so one transaction and one commit, for the whole batch. A fenced entry (a
/// cluster node's) is written only if its game's lease is still at the node and epoch it
/// carries: the statement reads the lease row `FOR KEY SHARE`, which waits for a takeover that
/// holds the row `FOR UPDATE` (and then sees its new epoch), and makes a takeover wait until this
/// batch is committed (so the new owner reads the log with this entry in it); renewals, which
/// change no key, do not wait for it. Returns the fenced entries refused, as (game, index).
async fn insert_all(pool: &PgPool, batch: &[Append]) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let (fenced, free): (Vec<&Append>, Vec<&Append>) =
        batch.iter().partition(|a| a.fence.is_some());
    let ids: Vec<&str> = free.iter().map(|a| a.id.as_str()).collect();
    let idx: Vec<i64> = free.iter().map(|a| a.index as i64).collect();
    let entries: Vec<&str> = free.iter().map(|a| a.entry.as_str()).collect();
    if fenced.is_empty() {
        sqlx::query(
            "INSERT INTO actions (game_id, idx, entry) SELECT * FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[])",
        )
        .bind(&ids)
        .bind(&idx)
        .bind(&entries)
        .execute(pool)
        .await?;
        return Ok(Vec::new());
    }
    let f_ids: Vec<&str> = fenced.iter().map(|a| a.id.as_str()).collect();
    let f_idx: Vec<i64> = fenced.iter().map(|a| a.index as i64).collect();
    let f_entries: Vec<&str> = fenced.iter().map(|a| a.entry.as_str()).collect();
    let f_nodes: Vec<&str> =
        fenced.iter().filter_map(|a| a.fence.as_ref()).map(|f| f.0.as_str()).collect();
    let f_epochs: Vec<i64> = fenced.iter().filter_map(|a| a.fence.as_ref()).map(|f| f.1).collect();
    let mut tx = pool.begin().await?;
    if !free.is_empty() {
        sqlx::query(
            "INSERT INTO actions (game_id, idx, entry) SELECT * FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[])",
        )
        .bind(&ids)
        .bind(&idx)
        .bind(&entries)
        .execute(&mut *tx)
        .await?;
    }
    let written: Vec<(String, i64)> = sqlx::query_as(
        "INSERT INTO actions (game_id, idx, entry) \
         SELECT u.g, u.i, u.e FROM UNNEST($1::TEXT[], $2::BIGINT[], $3::TEXT[], $4::TEXT[], $5::BIGINT[]) AS u(g, i, e, n, ep) \
         JOIN leases l ON l.game_id = u.g AND l.node = u.n AND l.epoch = u.ep FOR KEY SHARE OF l \
         RETURNING game_id, idx",
    )
    .bind(&f_ids)
    .bind(&f_idx)
    .bind(&f_entries)
    .bind(&f_nodes)
    .bind(&f_epochs)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(fenced
        .iter()
        .map(|a| (a.id.clone(), a.index as i64))
        .filter(|k| !written.contains(k))
        .collect())
}

/// Keep `player_games` in step with a game's seats (inside the write that changes them).
async fn sync_players(
    tx: &mut Transaction<'_, Postgres>,
    id: &str,
    seats: &[SeatOwner],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM player_games WHERE game_id = $1").bind(id).execute(&mut **tx).await?;
    for s in seats {
        if let SeatOwner::Human { identity, .. } | SeatOwner::Resigned { identity, .. } = s {
            sqlx::query(
                "INSERT INTO player_games (player, game_id, created_at) \
                 SELECT $1, id, created_at FROM games WHERE id = $2 ON CONFLICT DO NOTHING",
            )
            .bind(identity)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

impl Store for PgStore {
    fn platform(&self) -> &dyn PlatformStore {
        self
    }

    fn boards(&self) -> Option<&dyn crate::boards::BoardStore> {
        Some(self)
    }

    fn accounts(&self) -> Option<&dyn AccountStore> {
        Some(self)
    }

    fn create_identity<'a>(&'a self, id: &'a str, name: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query("INSERT INTO identities (id, name) VALUES ($1, $2)")
                .bind(id)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO tokens (hash, identity, issued_at) VALUES ($1, $2, unixepoch())",
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
                "SELECT i.id, i.name, t.issued_at FROM tokens t JOIN identities i ON i.id = t.identity WHERE t.hash = $1",
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
            let r = sqlx::query("DELETE FROM tokens WHERE identity = $1")
                .bind(identity)
                .execute(&self.pool)
                .await?;
            Ok(r.rows_affected())
        })
    }

    fn insert_game<'a>(&'a self, g: &'a GameRow) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let (setup, blobs) = compact(&g.setup)?;
            let mut tx = self.pool.begin().await?;
            for (hash, body) in &blobs {
                sqlx::query(
                    "INSERT INTO blobs (hash, body) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                )
                .bind(hash)
                .bind(body)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, practice, rules_version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
                .bind(&g.id)
                .bind(&g.game)
                .bind(setup.to_string())
                .bind(g.seed as i64)
                .bind(serde_json::to_string(&g.seats)?)
                .bind(g.status.as_str())
                .bind(g.timer_secs.map(i64::from))
                .bind(&g.creator)
                .bind(i64::from(g.practice))
                .bind(i64::from(g.rules_version))
                .execute(&mut *tx)
                .await?;
            sync_players(&mut tx, &g.id, &g.seats).await?;
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
            let mut tx = self.pool.begin().await?;
            sqlx::query("UPDATE games SET seats = $1, status = $2 WHERE id = $3")
                .bind(serde_json::to_string(seats)?)
                .bind(status.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sync_players(&mut tx, id, seats).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn finish_game<'a>(&'a self, id: &'a str, outcome: &'a Value) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE games SET status = 'finished', outcome = $1 WHERE id = $2")
                .bind(outcome.to_string())
                .bind(id)
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn game<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<GameRow>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM games WHERE id = $1")
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
            let rows = sqlx::query(
                "SELECT * FROM games WHERE ($1::TEXT IS NULL OR status = $1) ORDER BY created_at DESC, id LIMIT $2",
            )
            .bind(status.map(Status::as_str))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
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
            let a = Append {
                id: id.to_string(),
                index,
                entry: serde_json::to_string(entry)?,
                fence: None,
                done,
            };
            self.appends.send(a).await.map_err(|_| StoreError::Closed)?;
            answer.await.map_err(|_| StoreError::Closed)?
        })
    }

    fn append_fenced<'a>(
        &'a self,
        id: &'a str,
        index: u64,
        entry: &'a Entry,
        node: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let (done, answer) = oneshot::channel();
            let a = Append {
                id: id.to_string(),
                index,
                entry: serde_json::to_string(entry)?,
                fence: Some((node.to_string(), epoch)),
                done,
            };
            self.appends.send(a).await.map_err(|_| StoreError::Closed)?;
            answer.await.map_err(|_| StoreError::Closed)?
        })
    }

    fn unreadable(&self) -> Vec<Unreadable> {
        let m = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        m.iter().map(|(id, reason)| Unreadable { id: id.clone(), reason: reason.clone() }).collect()
    }

    fn log<'a>(&'a self, id: &'a str) -> BoxFut<'a, Vec<Entry>> {
        Box::pin(async move {
            let rows = sqlx::query("SELECT entry FROM actions WHERE game_id = $1 ORDER BY idx")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
            rows.iter()
                .map(|r| {
                    let s: String = r.try_get("entry")?;
                    Ok(serde_json::from_str(&s)?)
                })
                .collect()
        })
    }

    fn running_logs(
        &self,
    ) -> BoxFut<'_, std::collections::HashMap<String, Result<Vec<Entry>, String>>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT a.game_id, a.entry FROM actions a JOIN games g ON g.id = a.game_id \
                 WHERE g.status = 'running' ORDER BY a.game_id, a.idx",
            )
            .fetch_all(&self.pool)
            .await?;
            let mut out: std::collections::HashMap<String, Result<Vec<Entry>, String>> =
                Default::default();
            for r in rows {
                let id: String = r.try_get("game_id")?;
                let entry: String = r.try_get("entry")?;
                let log = out.entry(id.clone()).or_insert_with(|| Ok(Vec::new()));
                if let Ok(l) = log {
                    match serde_json::from_str(&entry) {
                        Ok(e) => l.push(e),
                        Err(e) => {
                            let reason = format!("log entry {} does not parse: {e}", l.len());
                            self.poison(&id, reason.clone());
                            *log = Err(reason);
                        }
                    }
                }
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
            const COLS: &str = "id, game, 'null' AS setup, seed, seats, status, timer_secs, creator, outcome, created_at, practice, rules_version";
            let (t, id) = before.unwrap_or((i64::MAX, ""));
            let rows = sqlx::query(&format!(
                "SELECT {COLS} FROM games WHERE status = $1 AND ($2 = '' OR (created_at, id) < ($3, $2)) \
                 ORDER BY created_at DESC, id DESC LIMIT $4"
            ))
            .bind(status.as_str())
            .bind(id)
            .bind(t)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
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
                "SELECT count(*) FROM games WHERE creator = $1 AND status IN ('open', 'running')",
            )
            .bind(creator)
            .fetch_one(&self.pool)
            .await?;
            Ok(n as u64)
        })
    }
}

fn clock_of(r: &PgRow) -> Result<TurnClock, StoreError> {
    let per: i64 = r.try_get("per_move_secs")?;
    let waiting: String = r.try_get("waiting")?;
    Ok(TurnClock {
        per_move_secs: per as u32,
        due_ms: r.try_get("due_ms")?,
        waiting: serde_json::from_str(&waiting)?,
    })
}

fn bot_of(r: &PgRow) -> Result<BotAccount, StoreError> {
    let token: Option<String> = r.try_get("token_hash")?;
    Ok(BotAccount {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        owner: r.try_get("owner")?,
        has_token: token.is_some(),
    })
}

fn challenge_of(r: &PgRow) -> Result<Challenge, StoreError> {
    let request: String = r.try_get("request")?;
    Ok(Challenge {
        id: r.try_get("id")?,
        challenger: r.try_get("challenger")?,
        challenger_name: r.try_get("challenger_name")?,
        recipient: r.try_get("recipient")?,
        recipient_name: r.try_get("recipient_name")?,
        request: serde_json::from_str(&request)?,
        status: r.try_get("status")?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        game_id: r.try_get("game_id")?,
    })
}

const BOT_COLS: &str =
    "b.id, i.name, b.owner, b.token_hash FROM bot_accounts b JOIN identities i ON i.id = b.id";

impl PlatformStore for PgStore {
    fn turn_clock<'a>(&'a self, game: &'a str) -> BoxFut<'a, Option<TurnClock>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM turn_clocks WHERE game_id = $1")
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
            r.as_ref().map(clock_of).transpose()
        })
    }

    fn set_turn_clock<'a>(&'a self, game: &'a str, clock: &'a TurnClock) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO turn_clocks (game_id, per_move_secs, due_ms, waiting) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game_id) DO UPDATE SET per_move_secs = excluded.per_move_secs, \
                 due_ms = excluded.due_ms, waiting = excluded.waiting",
            )
            .bind(game)
            .bind(i64::from(clock.per_move_secs))
            .bind(clock.due_ms)
            .bind(serde_json::to_string(&clock.waiting)?)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn turn_games_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<(GameRow, TurnClock)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT g.id, g.game, 'null' AS setup, g.seed, g.seats, g.status, g.timer_secs, g.creator, g.outcome, g.practice, g.rules_version, \
                 c.per_move_secs, c.due_ms, c.waiting FROM games g JOIN turn_clocks c ON c.game_id = g.id \
                 WHERE g.status = 'running' AND strpos(g.seats, $1) > 0 ORDER BY c.due_ms LIMIT 200",
            )
            .bind(seat_needle(identity))
            .fetch_all(&self.pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                out.push((PgStore::row(r)?, clock_of(r)?));
            }
            Ok(out)
        })
    }

    fn create_bot<'a>(&'a self, bot: &'a BotAccount, token_hash: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query("INSERT INTO identities (id, name) VALUES ($1, $2)")
                .bind(&bot.id)
                .bind(&bot.name)
                .execute(&mut *tx)
                .await?;
            sqlx::query("INSERT INTO bot_accounts (id, owner, token_hash) VALUES ($1, $2, $3)")
                .bind(&bot.id)
                .bind(&bot.owner)
                .bind(token_hash)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn bot_by_token_hash<'a>(&'a self, hash: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("SELECT {BOT_COLS} WHERE b.token_hash = $1"))
                .bind(hash)
                .fetch_optional(&self.pool)
                .await?;
            r.as_ref().map(bot_of).transpose()
        })
    }

    fn bot<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("SELECT {BOT_COLS} WHERE b.id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            r.as_ref().map(bot_of).transpose()
        })
    }

    fn bots_of<'a>(&'a self, owner: &'a str) -> BoxFut<'a, Vec<BotAccount>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {BOT_COLS} WHERE b.owner = $1 ORDER BY b.created_at, b.n"
            ))
            .bind(owner)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(bot_of).collect()
        })
    }

    fn set_bot_token<'a>(&'a self, id: &'a str, hash: Option<&'a str>) -> BoxFut<'a, bool> {
        Box::pin(async move {
            let r = sqlx::query("UPDATE bot_accounts SET token_hash = $1 WHERE id = $2")
                .bind(hash)
                .bind(id)
                .execute(&self.pool)
                .await?;
            Ok(r.rows_affected() > 0)
        })
    }

    fn identity_name<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<String>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar("SELECT name FROM identities WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?)
        })
    }

    fn insert_challenge<'a>(&'a self, c: &'a Challenge) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO challenges (id, challenger, challenger_name, recipient, recipient_name, request, status, created_at, expires_at, game_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&c.id)
            .bind(&c.challenger)
            .bind(&c.challenger_name)
            .bind(&c.recipient)
            .bind(&c.recipient_name)
            .bind(c.request.to_string())
            .bind(&c.status)
            .bind(c.created_at)
            .bind(c.expires_at)
            .bind(&c.game_id)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn challenge<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<Challenge>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM challenges WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            r.as_ref().map(challenge_of).transpose()
        })
    }

    fn close_challenge<'a>(
        &'a self,
        id: &'a str,
        status: &'a str,
        game_id: Option<&'a str>,
    ) -> BoxFut<'a, bool> {
        Box::pin(async move {
            let r = sqlx::query(
                "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'open'",
            )
            .bind(status)
            .bind(game_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
            Ok(r.rows_affected() > 0)
        })
    }

    fn open_challenges_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<Challenge>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT * FROM challenges WHERE status = 'open' AND (challenger = $1 OR recipient = $1) ORDER BY created_at, id LIMIT 500",
            )
            .bind(identity)
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(challenge_of).collect()
        })
    }
}

fn account_row(r: &PgRow) -> Result<Account, sqlx::Error> {
    Ok(Account {
        identity: r.try_get("id")?,
        name: r.try_get("name")?,
        username: r.try_get("username")?,
        password: r.try_get("password")?,
        bot: r.try_get::<Option<i64>, _>("bot")?.unwrap_or(0) != 0,
        deleted: r.try_get::<Option<i64>, _>("deleted")?.unwrap_or(0) != 0,
    })
}

fn rating_row(r: &PgRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        player: r.try_get("player")?,
        name: r.try_get("name")?,
        game: r.try_get("game")?,
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get::<i64, _>("games")? as u32,
        bot: r.try_get::<Option<i64>, _>("bot")?.unwrap_or(0) != 0,
    })
}

const ACCOUNT: &str = "SELECT i.id, i.name, a.username, a.password, a.bot, a.deleted FROM identities i LEFT JOIN accounts a ON a.identity = i.id";

/// Rewrite the seat names of `identity` in its games (`only_live`: open and running only).
async fn rename_in_games(
    tx: &mut Transaction<'_, Postgres>,
    identity: &str,
    name: &str,
    only_live: bool,
) -> Result<(), sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.seats FROM player_games p JOIN games g ON g.id = p.game_id WHERE p.player = $1{}",
        if only_live { " AND g.status IN ('open', 'running')" } else { "" }
    ))
    .bind(identity)
    .fetch_all(&mut **tx)
    .await?;
    for r in rows {
        let id: String = r.try_get(0)?;
        let seats: String = r.try_get(1)?;
        if let Some(new) = crate::accounts::renamed(&seats, identity, name) {
            sqlx::query("UPDATE games SET seats = $1 WHERE id = $2")
                .bind(new)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

impl AccountStore for PgStore {
    fn account<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Option<Account>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("{ACCOUNT} WHERE i.id = $1"))
                .bind(identity)
                .fetch_optional(&self.pool)
                .await?;
            Ok(r.as_ref().map(account_row).transpose()?)
        })
    }

    fn account_by_username<'a>(&'a self, username: &'a str) -> BoxFut<'a, Option<Account>> {
        Box::pin(async move {
            let r = sqlx::query(&format!(
                "{ACCOUNT} WHERE lower(a.username) = lower($1) AND a.deleted = 0"
            ))
            .bind(username)
            .fetch_optional(&self.pool)
            .await?;
            Ok(r.as_ref().map(account_row).transpose()?)
        })
    }

    fn claim<'a>(
        &'a self,
        identity: &'a str,
        username: &'a str,
        password: &'a str,
    ) -> BoxFut<'a, bool> {
        Box::pin(async move {
            let r = sqlx::query(
                "INSERT INTO accounts (identity, username, password) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(identity)
            .bind(username)
            .bind(password)
            .execute(&self.pool)
            .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn create_session<'a>(&'a self, identity: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO tokens (hash, identity, issued_at) VALUES ($1, $2, unixepoch())",
            )
            .bind(crate::schema::hash_token(token))
            .bind(identity)
            .execute(&self.pool)
            .await?;
            Ok(())
        })
    }

    fn touch_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE tokens SET issued_at = unixepoch() WHERE hash = $1")
                .bind(crate::schema::hash_token(token))
                .execute(&self.pool)
                .await?;
            Ok(())
        })
    }

    fn end_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let r = sqlx::query("DELETE FROM tokens WHERE hash = $1")
                .bind(crate::schema::hash_token(token))
                .execute(&self.pool)
                .await?;
            Ok(r.rows_affected())
        })
    }

    fn rename<'a>(&'a self, identity: &'a str, name: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            sqlx::query("UPDATE identities SET name = $1 WHERE id = $2")
                .bind(name)
                .bind(identity)
                .execute(&mut *tx)
                .await?;
            rename_in_games(&mut tx, identity, name, true).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn delete<'a>(&'a self, identity: &'a str) -> BoxFut<'a, String> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let n: i64 = sqlx::query_scalar("SELECT n FROM accounts WHERE identity = $1")
                .bind(identity)
                .fetch_one(&mut *tx)
                .await?;
            let name = format!("deleted player {n}");
            sqlx::query("UPDATE accounts SET username = NULL, password = NULL, deleted = 1 WHERE identity = $1")
                .bind(identity)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE identities SET name = $1 WHERE id = $2")
                .bind(&name)
                .bind(identity)
                .execute(&mut *tx)
                .await?;
            rename_in_games(&mut tx, identity, &name, false).await?;
            for q in [
                "DELETE FROM tokens WHERE identity = $1",
                "DELETE FROM ratings WHERE player = $1",
                "DELETE FROM rating_history WHERE player = $1",
                "DELETE FROM follows WHERE follower = $1 OR followed = $1",
                "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
            ] {
                sqlx::query(q).bind(identity).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(name)
        })
    }

    fn ratings<'a>(
        &'a self,
        game: &'a str,
        players: &'a [String],
    ) -> BoxFut<'a, Vec<Option<Rating>>> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(players.len());
            for p in players {
                let r = sqlx::query(
                    "SELECT rating, deviation, volatility FROM ratings WHERE player = $1 AND game = $2",
                )
                .bind(p)
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
                out.push(match r {
                    Some(r) => Some(Rating {
                        rating: r.try_get(0)?,
                        deviation: r.try_get(1)?,
                        volatility: r.try_get(2)?,
                    }),
                    None => None,
                });
            }
            Ok(out)
        })
    }

    fn finish_rated<'a>(
        &'a self,
        id: &'a str,
        game: &'a str,
        outcome: &'a Value,
        updates: &'a [RatingUpdate],
    ) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.pool.begin().await?;
            let r = sqlx::query(
                "UPDATE games SET status = 'finished', outcome = $1 WHERE id = $2 AND status != 'finished'",
            )
            .bind(outcome.to_string())
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if r.rows_affected() == 0 {
                tx.commit().await?;
                return Ok(());
            }
            for u in updates {
                if let Some(spec) = u.player.strip_prefix("bot:") {
                    sqlx::query(
                        "INSERT INTO identities (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    )
                    .bind(&u.player)
                    .bind(format!("{spec} (bot)"))
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO accounts (identity, username, bot) VALUES ($1, $1, 1) ON CONFLICT DO NOTHING",
                    )
                    .bind(&u.player)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "INSERT INTO ratings (player, game, rating, deviation, volatility, games) VALUES ($1, $2, $3, $4, $5, 1) \
                     ON CONFLICT (player, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
                     volatility = excluded.volatility, games = ratings.games + 1",
                )
                .bind(&u.player)
                .bind(game)
                .bind(u.after.rating)
                .bind(u.after.deviation)
                .bind(u.after.volatility)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (player, game, game_id, at, before, rating, deviation) \
                     VALUES ($1, $2, $3, unixepoch(), $4, $5, $6) ON CONFLICT (player, game, game_id) DO UPDATE SET \
                     at = excluded.at, before = excluded.before, rating = excluded.rating, deviation = excluded.deviation",
                )
                .bind(&u.player)
                .bind(game)
                .bind(id)
                .bind(u.before.rating)
                .bind(u.after.rating)
                .bind(u.after.deviation)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn player_ratings<'a>(&'a self, player: &'a str) -> BoxFut<'a, Vec<RatingRow>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT r.*, i.name, a.bot FROM ratings r JOIN identities i ON i.id = r.player \
                 LEFT JOIN accounts a ON a.identity = r.player WHERE r.player = $1 ORDER BY r.game",
            )
            .bind(player)
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
        })
    }

    fn history<'a>(
        &'a self,
        player: &'a str,
        game: &'a str,
        limit: u32,
    ) -> BoxFut<'a, Vec<HistoryPoint>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT game_id, at, before, rating, deviation FROM rating_history \
                 WHERE player = $1 AND game = $2 ORDER BY at DESC, n DESC LIMIT $3",
            )
            .bind(player)
            .bind(game)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push(HistoryPoint {
                    game_id: r.try_get(0)?,
                    at: r.try_get(1)?,
                    before: r.try_get(2)?,
                    rating: r.try_get(3)?,
                    deviation: r.try_get(4)?,
                });
            }
            Ok(out)
        })
    }

    fn leaderboard<'a>(
        &'a self,
        game: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFut<'a, Vec<RatingRow>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT r.*, i.name, a.bot FROM ratings r JOIN identities i ON i.id = r.player \
                 JOIN accounts a ON a.identity = r.player WHERE r.game = $1 AND a.deleted = 0 \
                 ORDER BY r.rating DESC, r.player LIMIT $2 OFFSET $3",
            )
            .bind(game)
            .bind(i64::from(limit))
            .bind(i64::from(offset))
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
        })
    }

    fn games_of<'a>(
        &'a self,
        player: &'a str,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(String, i64)>> {
        Box::pin(async move {
            let (t, id) = before.unwrap_or((i64::MAX, ""));
            let rows = sqlx::query(
                "SELECT game_id, created_at FROM player_games WHERE player = $1 \
                 AND ($2 = '' OR (created_at, game_id) < ($3, $2)) \
                 ORDER BY created_at DESC, game_id DESC LIMIT $4",
            )
            .bind(player)
            .bind(id)
            .bind(t)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push((r.try_get(0)?, r.try_get(1)?));
            }
            Ok(out)
        })
    }

    fn search<'a>(&'a self, prefix: &'a str, limit: u32) -> BoxFut<'a, Vec<Found>> {
        Box::pin(async move {
            let pattern = format!(
                "{}%",
                prefix.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
            );
            // SQLite's LIKE ignores ASCII case: ILIKE here.
            let rows = sqlx::query(
                "SELECT i.id, i.name, a.username, a.bot FROM accounts a JOIN identities i ON i.id = a.identity \
                 WHERE a.deleted = 0 AND a.username ILIKE $1 ESCAPE '\\' ORDER BY lower(a.username) LIMIT $2",
            )
            .bind(pattern)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push(Found {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    username: r.try_get(2)?,
                    bot: r.try_get::<i64, _>(3)? != 0,
                });
            }
            Ok(out)
        })
    }

    fn set_follow<'a>(&'a self, from: &'a str, to: &'a str, on: bool) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let q = if on {
                "INSERT INTO follows (follower, followed) VALUES ($1, $2) ON CONFLICT DO NOTHING"
            } else {
                "DELETE FROM follows WHERE follower = $1 AND followed = $2"
            };
            sqlx::query(q).bind(from).bind(to).execute(&self.pool).await?;
            Ok(())
        })
    }

    fn set_block<'a>(&'a self, from: &'a str, to: &'a str, on: bool) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let q = if on {
                "INSERT INTO blocks (blocker, blocked) VALUES ($1, $2) ON CONFLICT DO NOTHING"
            } else {
                "DELETE FROM blocks WHERE blocker = $1 AND blocked = $2"
            };
            sqlx::query(q).bind(from).bind(to).execute(&self.pool).await?;
            Ok(())
        })
    }

    fn follows<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT i.id, i.name FROM follows f JOIN identities i ON i.id = f.followed \
                 WHERE f.follower = $1 ORDER BY i.name LIMIT $2",
            )
            .bind(from)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            Ok(rows
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, sqlx::Error>>()?)
        })
    }

    fn blocks<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT i.id, i.name FROM blocks b JOIN identities i ON i.id = b.blocked \
                 WHERE b.blocker = $1 ORDER BY i.name LIMIT $2",
            )
            .bind(from)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            Ok(rows
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, sqlx::Error>>()?)
        })
    }

    fn blockers<'a>(&'a self, who: &'a str, among: &'a [String]) -> BoxFut<'a, Vec<String>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar(
                "SELECT blocker FROM blocks WHERE blocked = $1 AND blocker = ANY($2) ORDER BY array_position($2, blocker)",
            )
            .bind(who)
            .bind(among)
            .fetch_all(&self.pool)
            .await?)
        })
    }
}

fn board_of(r: &PgRow) -> Result<BoardRow, StoreError> {
    Ok(BoardRow {
        id: r.try_get("id")?,
        version: u32::try_from(r.try_get::<i64, _>("version")?).unwrap_or(u32::MAX),
        owner: r.try_get("owner")?,
        owner_name: r.try_get::<Option<String>, _>("owner_name")?.unwrap_or_default(),
        game: r.try_get("game")?,
        name: r.try_get("name")?,
        text: r.try_get("text")?,
        public: r.try_get::<i64, _>("public")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

/// The latest version of each board, with its owner's name (SQLite's `boards::LATEST`).
const LATEST_BOARDS: &str = "SELECT b.id, b.version, b.owner, i.name AS owner_name, b.game, b.name, '' AS text, b.public, b.created_at \
     FROM boards b LEFT JOIN identities i ON i.id = b.owner \
     WHERE b.version = (SELECT MAX(version) FROM boards x WHERE x.id = b.id)";

/// Saved boards as SQLite keeps them (`crate::boards`): the same rows, orders and limits (the
/// limits are `boards.rs`'s, checked before any store is called).
impl BoardStore for PgStore {
    fn save_board<'a>(&'a self, row: &'a BoardRow) -> BoxFut<'a, u32> {
        Box::pin(async move {
            // SQLite has one writer; here two nodes may save a version of one board at once:
            // a lock per board id (for the transaction) numbers them one after the other.
            let mut tx = self.pool.begin().await?;
            sqlx::query("SELECT pg_advisory_xact_lock(1, hashtext($1))")
                .bind(&row.id)
                .execute(&mut *tx)
                .await?;
            let v: i64 = sqlx::query_scalar(
                "INSERT INTO boards (id, version, owner, game, name, text, public) \
                 SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6 FROM boards WHERE id = $1 \
                 RETURNING version",
            )
            .bind(&row.id)
            .bind(&row.owner)
            .bind(&row.game)
            .bind(&row.name)
            .bind(&row.text)
            .bind(i64::from(row.public))
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(u32::try_from(v).unwrap_or(u32::MAX))
        })
    }

    fn board<'a>(&'a self, id: &'a str, version: Option<u32>) -> BoxFut<'a, Option<BoardRow>> {
        Box::pin(async move {
            let q = "SELECT b.*, i.name AS owner_name FROM boards b LEFT JOIN identities i ON i.id = b.owner WHERE b.id = $1";
            let r = match version {
                Some(v) => {
                    sqlx::query(&format!("{q} AND b.version = $2"))
                        .bind(id)
                        .bind(i64::from(v))
                        .fetch_optional(&self.pool)
                        .await?
                }
                None => {
                    sqlx::query(&format!("{q} ORDER BY b.version DESC LIMIT 1"))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?
                }
            };
            r.as_ref().map(board_of).transpose()
        })
    }

    fn boards_of<'a>(&'a self, owner: &'a str, limit: u32) -> BoxFut<'a, Vec<BoardRow>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "{LATEST_BOARDS} AND b.owner = $1 ORDER BY b.created_at DESC, b.id LIMIT $2"
            ))
            .bind(owner)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(board_of).collect()
        })
    }

    fn gallery<'a>(&'a self, game: Option<&'a str>, limit: u32) -> BoxFut<'a, Vec<BoardRow>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "{LATEST_BOARDS} AND b.public = 1 AND ($1::TEXT IS NULL OR b.game = $1) ORDER BY b.created_at DESC, b.id LIMIT $2"
            ))
            .bind(game)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            rows.iter().map(board_of).collect()
        })
    }

    fn board_count<'a>(&'a self, owner: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let n: i64 =
                sqlx::query_scalar("SELECT COUNT(DISTINCT id) FROM boards WHERE owner = $1")
                    .bind(owner)
                    .fetch_one(&self.pool)
                    .await?;
            Ok(n as u64)
        })
    }
}
