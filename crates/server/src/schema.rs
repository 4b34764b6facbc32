//! The database file: what may be opened, the one-server lock, the schema version and its
//! migrations (docs/security.md "Faults").
//!
//! * **One server per file.** `<db>.lock` beside the database is locked exclusively (an
//!   advisory `flock` through `std::fs::File::try_lock`) for as long as the server runs; a
//!   second server on the same file is refused before it touches the database. The operating
//!   system drops the lock when the process ends, even on SIGKILL, so there is no stale lock to
//!   clean up. (SQLite's own `locking_mode=EXCLUSIVE` would also shut out the server's own
//!   reader connections and, in WAL mode, readers such as `sqlite3` for backups.)
//! * **Only our files.** A missing file is created (a fresh machine just works). An existing
//!   file that is empty (zero bytes, or an SQLite database without tables) is refused unless
//!   `serve --init` says to create the database in it; a file that is not SQLite, an SQLite
//!   database with other tables than ours, or one from a newer version of the server is always
//!   refused.
//! * **Schema version** in SQLite's `PRAGMA user_version`: the number of [`MIGRATIONS`]
//!   applied. At start every missing migration runs in order, each in its own transaction
//!   together with the version bump.
//!
//! **Adding a migration:** write one `fn(&mut SqliteConnection) -> MigrationFut` (plain SQL
//! through [`sql`], or Rust for data changes) and append it to [`MIGRATIONS`]. Never edit or
//! reorder one that has shipped.

use sqlx::{Row, SqliteConnection};
use std::future::Future;
use std::pin::Pin;

pub type MigrationFut<'c> = Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'c>>;

/// One step of the schema, run once per database, in order.
pub struct Migration {
    /// What it does (logged when it runs).
    pub name: &'static str,
    pub up: for<'c> fn(&'c mut SqliteConnection) -> MigrationFut<'c>,
}

/// Every migration, oldest first: `user_version` = how many have run.
pub const MIGRATIONS: &[Migration] = &[
    Migration { name: "identities, games and action logs", up: m1_tables },
    Migration { name: "guest tokens stored hashed, with issue times", up: m2_tokens },
    Migration { name: "practice games (a chosen seed, never rated)", up: m3_practice },
    Migration {
        name: "boards stored once, the lobby's keyset index, open games per creator",
        up: m4_limits,
    },
    Migration { name: "inline boards of older games moved into blobs", up: m5_inline_boards },
    Migration {
        name: "accounts, ratings and their history, players' games, follows and blocks",
        up: m6_accounts,
    },
    Migration { name: "the rules version of every game", up: m7_rules_version },
    Migration {
        name: "turn-based clocks, bot accounts and their tokens, challenges",
        up: crate::platform_store::migration,
    },
    Migration { name: "saved boards and their versions", up: crate::boards::migration },
    Migration { name: "the log's tail, appended in insertion order", up: m10_log_tail },
];

/// The schema version this server writes.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}

/// Run SQL statements in order.
pub fn sql<'c>(
    c: &'c mut SqliteConnection,
    statements: &'static [&'static str],
) -> MigrationFut<'c> {
    Box::pin(async move {
        for s in statements {
            sqlx::query(s).execute(&mut *c).await?;
        }
        Ok(())
    })
}

/// The tables as they were before versioning (`IF NOT EXISTS`: databases made by earlier
/// servers have them already, at version 0).
fn m1_tables(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(
        c,
        &[
            "CREATE TABLE IF NOT EXISTS identities (id TEXT PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
            "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, timer_secs INTEGER, creator TEXT NOT NULL, outcome TEXT, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
            "CREATE INDEX IF NOT EXISTS games_status ON games (status, created_at)",
            "CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL, idx INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, idx)) WITHOUT ROWID",
        ],
    )
}

/// Tokens leave `identities` for their own table, as SHA-256 hashes with the time they were
/// issued (several per identity; "log out everywhere" deletes them all). Existing tokens are
/// hashed in place and keep their identity's creation time as their issue time.
fn m2_tokens(c: &mut SqliteConnection) -> MigrationFut<'_> {
    Box::pin(async move {
        sqlx::query(
            "CREATE TABLE tokens (hash TEXT PRIMARY KEY, identity TEXT NOT NULL, issued_at INTEGER NOT NULL)",
        )
        .execute(&mut *c)
        .await?;
        sqlx::query("CREATE INDEX tokens_identity ON tokens (identity)").execute(&mut *c).await?;
        let rows =
            sqlx::query("SELECT id, token, created_at FROM identities").fetch_all(&mut *c).await?;
        for r in rows {
            let id: String = r.try_get("id")?;
            let token: String = r.try_get("token")?;
            let at: i64 = r.try_get("created_at")?;
            sqlx::query("INSERT INTO tokens (hash, identity, issued_at) VALUES (?, ?, ?)")
                .bind(hash_token(&token))
                .bind(id)
                .bind(at)
                .execute(&mut *c)
                .await?;
        }
        for s in [
            "CREATE TABLE identities2 (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
            "INSERT INTO identities2 (id, name, created_at) SELECT id, name, created_at FROM identities",
            "DROP TABLE identities",
            "ALTER TABLE identities2 RENAME TO identities",
        ] {
            sqlx::query(s).execute(&mut *c).await?;
        }
        Ok(())
    })
}

/// Practice games (docs/security.md "Bot work and seeds"): every older game is a normal one.
fn m3_practice(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(c, &["ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0"])
}

/// docs/security.md "Limits": the `blobs` table (large setup values by content hash), the
/// lobby's keyset index and the open-games count's index (`store::LIMITS_MIGRATION`).
fn m4_limits(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(c, crate::store::LIMITS_MIGRATION)
}

/// docs/platform.md: accounts, ratings, every player's games (filled from the stored seats),
/// follows and blocks (`accounts::MIGRATION`). Sessions stay in `tokens`.
fn m6_accounts(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(c, crate::accounts::MIGRATION)
}

/// Games stored before migration 4 hold their boards (tracks, rinks) inline in `setup`: each
/// large top-level value moves into `blobs` under its SHA-256 and the row keeps a reference,
/// exactly as a new row is written (`store::compact_stored`). Rows in batches by `rowid`, only
/// those long enough to hold such a value; a setup that does not parse is left as it is (it is
/// reported as unreadable when read, as before). The space freed is given back to the file
/// system by the `VACUUM` after migrating ([`migrate`]).
fn m5_inline_boards(c: &mut SqliteConnection) -> MigrationFut<'_> {
    Box::pin(async move {
        let mut after = 0i64;
        let (mut moved, mut blobs) = (0u64, 0u64);
        loop {
            let rows = sqlx::query(
                "SELECT rowid, setup FROM games WHERE rowid > ? AND length(setup) > ? ORDER BY rowid LIMIT 256",
            )
            .bind(after)
            .bind(crate::store::BLOB_OVER as i64)
            .fetch_all(&mut *c)
            .await?;
            let Some(last) = rows.last() else { break };
            after = last.try_get(0)?;
            for r in rows {
                let rowid: i64 = r.try_get(0)?;
                let text: String = r.try_get(1)?;
                let Ok(setup) = serde_json::from_str::<serde_json::Value>(&text) else {
                    continue;
                };
                let (setup, new) = crate::store::compact_stored(&setup);
                if new.is_empty() {
                    continue;
                }
                for (hash, body) in &new {
                    let r = sqlx::query("INSERT OR IGNORE INTO blobs (hash, body) VALUES (?, ?)")
                        .bind(hash)
                        .bind(body)
                        .execute(&mut *c)
                        .await?;
                    blobs += r.rows_affected();
                }
                sqlx::query("UPDATE games SET setup = ? WHERE rowid = ?")
                    .bind(setup.to_string())
                    .bind(rowid)
                    .execute(&mut *c)
                    .await?;
                moved += 1;
            }
        }
        tracing::info!(games = moved, new_blobs = blobs, "inline boards moved into blobs");
        Ok(())
    })
}

/// docs/security.md "Rules versions": every game keeps the version of its game's rules it was
/// started under. Games stored before hold 1, the version of every game's rules before issue
/// 22's round 2: the server cannot tell under which rules they were played, and the safe side is
/// to treat them as the older rules (a replay is refused rather than shown wrong).
fn m7_rules_version(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(c, &["ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1"])
}

/// The log's tail (docs/benchmarks.md "CPU per accepted action, round 9"): new log entries are
/// appended here in insertion order (a rowid table, so a group commit of entries of many games
/// writes one or two pages instead of one page of `actions` per game) and moved into `actions`
/// in bulk by the store (`store::merge_tail`). Older databases have every entry in `actions`
/// and an empty tail: nothing to move.
fn m10_log_tail(c: &mut SqliteConnection) -> MigrationFut<'_> {
    sql(c, &[crate::store::LOG_TAIL_TABLE])
}

/// A token as stored: hex SHA-256 (tokens are 192 random bits, so no salt or slow hash is
/// needed: nobody can guess one from its hash).
pub fn hash_token(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a database file was refused.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error(
        "another robodrome server is already using {db} (its lock {lock} is held); stop it first, or use another --db"
    )]
    Locked { db: String, lock: String },
    #[error(
        "{0} exists but is empty; start with --init to create a new database in it, or use another --db"
    )]
    Empty(String),
    #[error("{0} is not an SQLite database; refusing to touch it (use another --db)")]
    NotSqlite(String),
    #[error(
        "{0} is an SQLite database of something else (tables {1}); refusing to touch it (use another --db)"
    )]
    Foreign(String, String),
    #[error(
        "{db} has schema version {found}, newer than this server's {latest}; run a newer robodrome"
    )]
    Newer { db: String, found: i64, latest: i64 },
    #[error("cannot lock or read {0}: {1}")]
    Io(String, std::io::Error),
}

/// Take the one-server lock of `db` (held until the returned file is dropped).
pub fn lock(db: &str) -> Result<std::fs::File, Refused> {
    let lock = format!("{db}.lock");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| Refused::Io(lock.clone(), e))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(Refused::Locked { db: db.into(), lock }),
        Err(std::fs::TryLockError::Error(e)) => Err(Refused::Io(lock, e)),
    }
}

/// Before opening: a file that exists must be an SQLite database (or empty, with `init`).
/// Returns whether the file is missing (it will be created).
pub fn check_file(db: &str, init: bool) -> Result<bool, Refused> {
    use std::io::Read;
    let mut f = match std::fs::File::open(db) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(Refused::Io(db.into(), e)),
    };
    let mut head = Vec::with_capacity(16);
    (&mut f).take(16).read_to_end(&mut head).map_err(|e| Refused::Io(db.into(), e))?;
    if head.is_empty() {
        return if init { Ok(false) } else { Err(Refused::Empty(db.into())) };
    }
    if head != b"SQLite format 3\0" {
        return Err(Refused::NotSqlite(db.into()));
    }
    Ok(false)
}

/// Tables a database made by this server may hold (any version).
const OURS: &[&str] = &[
    "identities",
    "games",
    "actions",
    "log_tail",
    "tokens",
    "identities2",
    "blobs",
    // Migration 6 (`accounts::TABLES`).
    "accounts",
    "ratings",
    "rating_history",
    "player_games",
    "follows",
    "blocks",
    // crate::platform_store (turn-based clocks, bot accounts, challenges)
    "turn_clocks",
    "bot_accounts",
    "challenges",
    // crate::boards (saved boards)
    "boards",
];

/// After opening: refuse foreign or newer databases, then bring the schema up to date.
/// `may_be_empty`: the file was just created, or `--init` was given.
pub async fn migrate(
    c: &mut SqliteConnection,
    db: &str,
    may_be_empty: bool,
) -> Result<(), MigrateError> {
    let version: i64 = sqlx::query("PRAGMA user_version").fetch_one(&mut *c).await?.try_get(0)?;
    if version > latest() {
        return Err(Refused::Newer { db: db.into(), found: version, latest: latest() }.into());
    }
    if version == 0 && db != ":memory:" {
        let tables: Vec<String> = sqlx::query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .fetch_all(&mut *c)
        .await?
        .iter()
        .map(|r| r.try_get::<String, _>(0))
        .collect::<Result<_, _>>()?;
        let foreign: Vec<&String> = tables.iter().filter(|t| !OURS.contains(&t.as_str())).collect();
        if !foreign.is_empty() {
            let list = foreign.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
            return Err(Refused::Foreign(db.into(), list).into());
        }
        if tables.is_empty() && !may_be_empty {
            // An SQLite file someone made without tables: as good as an empty file.
            return Err(Refused::Empty(db.into()).into());
        }
    }
    for (i, m) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let to = i as i64 + 1;
        tracing::info!(version = to, migration = m.name, "migrating the database");
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *c).await?;
        let r = async {
            (m.up)(&mut *c).await?;
            sqlx::query(&format!("PRAGMA user_version = {to}")).execute(&mut *c).await?;
            sqlx::query("COMMIT").execute(&mut *c).await?;
            Ok::<_, sqlx::Error>(())
        }
        .await;
        if let Err(e) = r {
            let _ = sqlx::query("ROLLBACK").execute(&mut *c).await;
            return Err(e.into());
        }
    }
    if version < latest() && db != ":memory:" {
        shrink(c).await?;
    }
    Ok(())
}

/// After migrating: a file with more than a quarter of its pages free (migration 5 moving
/// boards out of old rows frees most of an old database) is rewritten by `VACUUM`, once, so that
/// it shrinks on disk. Free pages would otherwise only be reused by new rows.
async fn shrink(c: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    let free: i64 = sqlx::query("PRAGMA freelist_count").fetch_one(&mut *c).await?.try_get(0)?;
    let pages: i64 = sqlx::query("PRAGMA page_count").fetch_one(&mut *c).await?.try_get(0)?;
    if free * 4 > pages {
        let t = std::time::Instant::now();
        sqlx::query("VACUUM").execute(&mut *c).await?;
        let after: i64 = sqlx::query("PRAGMA page_count").fetch_one(&mut *c).await?.try_get(0)?;
        tracing::info!(
            pages_before = pages,
            pages_after = after,
            ms = t.elapsed().as_millis() as u64,
            "database vacuumed after migrating"
        );
    }
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}
