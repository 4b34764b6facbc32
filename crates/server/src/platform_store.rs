//! Storage of the platform's turn-based clocks, bot accounts and challenges
//! (docs/platform.md "Turn-based clocks", docs/protocol.md "Bot API").
//!
//! Behind its own trait, [`PlatformStore`], reached through [`crate::store::Store::platform`],
//! so that the game store's trait stays as it was. One migration ([`migration`]) makes its
//! three tables.

use crate::schema::{MigrationFut, sql};
use crate::store::{BoxFut, GameRow, SqliteStore, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;

/// The migration: `turn_clocks` (one row per turn-based game: its clock and the deadline of
/// the decision now owed, in Unix milliseconds, with the seats that owe it), `bot_accounts`
/// (an identity that is a bot, its owner and its API token's hash) and `challenges`.
pub fn migration(c: &mut sqlx::SqliteConnection) -> MigrationFut<'_> {
    sql(
        c,
        &[
            "CREATE TABLE turn_clocks (game_id TEXT PRIMARY KEY, per_move_secs INTEGER NOT NULL, due_ms INTEGER, waiting TEXT NOT NULL DEFAULT '[]')",
            "CREATE TABLE bot_accounts (id TEXT PRIMARY KEY, owner TEXT NOT NULL, token_hash TEXT UNIQUE, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
            "CREATE INDEX bot_accounts_owner ON bot_accounts (owner)",
            "CREATE TABLE challenges (id TEXT PRIMARY KEY, challenger TEXT NOT NULL, challenger_name TEXT NOT NULL, recipient TEXT NOT NULL, recipient_name TEXT NOT NULL, request TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, game_id TEXT)",
            "CREATE INDEX challenges_challenger ON challenges (challenger, status)",
            "CREATE INDEX challenges_recipient ON challenges (recipient, status)",
        ],
    )
}

/// A turn-based game's clock as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnClock {
    /// The time for each decision, per player.
    pub per_move_secs: u32,
    /// When the decision owed now runs out (Unix milliseconds); none once the game is over.
    pub due_ms: Option<i64>,
    /// The seats that owe that decision.
    pub waiting: Vec<u8>,
}

/// A bot account: an identity a player made for their program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotAccount {
    pub id: String,
    pub name: String,
    /// The identity that made it (and may revoke or renew its token).
    pub owner: String,
    /// Whether a token is in force.
    pub has_token: bool,
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub challenger: String,
    pub challenger_name: String,
    pub recipient: String,
    pub recipient_name: String,
    /// The game asked for: a lobby request (`POST /api/games`) whose seats say `me` (the
    /// challenger) and `you` (the recipient), with an optional turn-based `clock`.
    pub request: Value,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
    /// The game made when it was accepted.
    pub game_id: Option<String>,
}

pub trait PlatformStore: Send + Sync {
    fn turn_clock<'a>(&'a self, game: &'a str) -> BoxFut<'a, Option<TurnClock>>;
    /// Insert or replace a game's clock (in the group commit of the log appends, with SQLite
    /// and PostgreSQL: docs/deployment.md "Timers").
    fn set_turn_clock<'a>(&'a self, game: &'a str, clock: &'a TurnClock) -> BoxFut<'a, ()>;
    /// [`PlatformStore::set_turn_clock`] by a cluster node holding the game's lease as
    /// (`node`, `epoch`): written only if the lease is still that, in the same transaction
    /// (`StoreError::Fenced` otherwise: nothing written). Stores without leases (SQLite: one
    /// server) write it as `set_turn_clock`.
    fn set_turn_clock_fenced<'a>(
        &'a self,
        game: &'a str,
        clock: &'a TurnClock,
        node: &'a str,
        epoch: i64,
    ) -> BoxFut<'a, ()> {
        let _ = (node, epoch);
        self.set_turn_clock(game, clock)
    }
    /// Running turn-based games where `identity` holds a seat (rows without setup), with
    /// their clocks.
    fn turn_games_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<(GameRow, TurnClock)>>;
    /// A new bot account: its identity and its token's hash.
    fn create_bot<'a>(&'a self, bot: &'a BotAccount, token_hash: &'a str) -> BoxFut<'a, ()>;
    fn bot_by_token_hash<'a>(&'a self, hash: &'a str) -> BoxFut<'a, Option<BotAccount>>;
    fn bot<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<BotAccount>>;
    fn bots_of<'a>(&'a self, owner: &'a str) -> BoxFut<'a, Vec<BotAccount>>;
    /// Replace (or with `None` revoke) a bot's token. Returns whether the bot exists.
    fn set_bot_token<'a>(&'a self, id: &'a str, hash: Option<&'a str>) -> BoxFut<'a, bool>;
    /// An identity's name, if it exists.
    fn identity_name<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<String>>;
    fn insert_challenge<'a>(&'a self, c: &'a Challenge) -> BoxFut<'a, ()>;
    fn challenge<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<Challenge>>;
    /// Move a challenge on from `open` (only from `open`: returns false when it was not).
    fn close_challenge<'a>(
        &'a self,
        id: &'a str,
        status: &'a str,
        game_id: Option<&'a str>,
    ) -> BoxFut<'a, bool>;
    /// Open challenges from or to `identity`, oldest first.
    fn open_challenges_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<Challenge>>;
}

/// The text a game row's `seats` holds for a human seat of `identity` (a seat owner is
/// serialised with its `kind` first, then `identity`).
pub fn seat_needle(identity: &str) -> String {
    format!("\"identity\":{}", Value::String(identity.to_string()))
}

fn clock_of(r: &sqlx::sqlite::SqliteRow) -> Result<TurnClock, StoreError> {
    let per: i64 = r.try_get("per_move_secs")?;
    let waiting: String = r.try_get("waiting")?;
    Ok(TurnClock {
        per_move_secs: per as u32,
        due_ms: r.try_get("due_ms")?,
        waiting: serde_json::from_str(&waiting)?,
    })
}

fn bot_of(r: &sqlx::sqlite::SqliteRow) -> Result<BotAccount, StoreError> {
    let token: Option<String> = r.try_get("token_hash")?;
    Ok(BotAccount {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        owner: r.try_get("owner")?,
        has_token: token.is_some(),
    })
}

fn challenge_of(r: &sqlx::sqlite::SqliteRow) -> Result<Challenge, StoreError> {
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

impl PlatformStore for SqliteStore {
    fn turn_clock<'a>(&'a self, game: &'a str) -> BoxFut<'a, Option<TurnClock>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM turn_clocks WHERE game_id = ?")
                .bind(game)
                .fetch_optional(self.reader())
                .await?;
            r.as_ref().map(clock_of).transpose()
        })
    }

    fn set_turn_clock<'a>(&'a self, game: &'a str, clock: &'a TurnClock) -> BoxFut<'a, ()> {
        Box::pin(self.commit_clock(game, clock))
    }

    fn turn_games_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<(GameRow, TurnClock)>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT g.id, g.game, 'null' AS setup, g.seed, g.seats, g.status, g.timer_secs, g.creator, g.outcome, g.practice, g.rules_version, \
                 c.per_move_secs, c.due_ms, c.waiting FROM games g JOIN turn_clocks c ON c.game_id = g.id \
                 WHERE g.status = 'running' AND instr(g.seats, ?) > 0 ORDER BY c.due_ms LIMIT 200",
            )
            .bind(seat_needle(identity))
            .fetch_all(self.reader())
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                out.push((SqliteStore::row(r)?, clock_of(r)?));
            }
            Ok(out)
        })
    }

    fn create_bot<'a>(&'a self, bot: &'a BotAccount, token_hash: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.writer().begin().await?;
            sqlx::query("INSERT INTO identities (id, name) VALUES (?, ?)")
                .bind(&bot.id)
                .bind(&bot.name)
                .execute(&mut *tx)
                .await?;
            sqlx::query("INSERT INTO bot_accounts (id, owner, token_hash) VALUES (?, ?, ?)")
                .bind(&bot.id)
                .bind(&bot.owner)
                .bind(token_hash)
                .execute(&mut *tx)
                .await?;
            // Its account row: a bot (no username, no password), rated like a person and
            // marked BOT on its profile and the leaderboard (docs/platform.md "Ratings").
            sqlx::query(
                "INSERT OR IGNORE INTO accounts (identity, username, bot) VALUES (?, NULL, 1)",
            )
            .bind(&bot.id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn bot_by_token_hash<'a>(&'a self, hash: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("SELECT {BOT_COLS} WHERE b.token_hash = ?"))
                .bind(hash)
                .fetch_optional(self.reader())
                .await?;
            r.as_ref().map(bot_of).transpose()
        })
    }

    fn bot<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<BotAccount>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("SELECT {BOT_COLS} WHERE b.id = ?"))
                .bind(id)
                .fetch_optional(self.reader())
                .await?;
            r.as_ref().map(bot_of).transpose()
        })
    }

    fn bots_of<'a>(&'a self, owner: &'a str) -> BoxFut<'a, Vec<BotAccount>> {
        Box::pin(async move {
            let rows =
                sqlx::query(&format!("SELECT {BOT_COLS} WHERE b.owner = ? ORDER BY b.created_at"))
                    .bind(owner)
                    .fetch_all(self.reader())
                    .await?;
            rows.iter().map(bot_of).collect()
        })
    }

    fn set_bot_token<'a>(&'a self, id: &'a str, hash: Option<&'a str>) -> BoxFut<'a, bool> {
        Box::pin(async move {
            let r = sqlx::query("UPDATE bot_accounts SET token_hash = ? WHERE id = ?")
                .bind(hash)
                .bind(id)
                .execute(self.writer())
                .await?;
            Ok(r.rows_affected() > 0)
        })
    }

    fn identity_name<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<String>> {
        Box::pin(async move {
            Ok(sqlx::query_scalar("SELECT name FROM identities WHERE id = ?")
                .bind(id)
                .fetch_optional(self.reader())
                .await?)
        })
    }

    fn insert_challenge<'a>(&'a self, c: &'a Challenge) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO challenges (id, challenger, challenger_name, recipient, recipient_name, request, status, created_at, expires_at, game_id) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            .execute(self.writer())
            .await?;
            Ok(())
        })
    }

    fn challenge<'a>(&'a self, id: &'a str) -> BoxFut<'a, Option<Challenge>> {
        Box::pin(async move {
            let r = sqlx::query("SELECT * FROM challenges WHERE id = ?")
                .bind(id)
                .fetch_optional(self.reader())
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
                "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open'",
            )
            .bind(status)
            .bind(game_id)
            .bind(id)
            .execute(self.writer())
            .await?;
            Ok(r.rows_affected() > 0)
        })
    }

    fn open_challenges_of<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Vec<Challenge>> {
        Box::pin(async move {
            let rows = sqlx::query(
                "SELECT * FROM challenges WHERE status = 'open' AND (challenger = ? OR recipient = ?) ORDER BY created_at, id LIMIT 500",
            )
            .bind(identity)
            .bind(identity)
            .fetch_all(self.reader())
            .await?;
            rows.iter().map(challenge_of).collect()
        })
    }
}
