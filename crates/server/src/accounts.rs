//! Accounts, sessions, ratings, follows and blocks as stored (docs/platform.md).
//!
//! A separate trait from [`crate::store::Store`], reached through `Store::accounts()`: the
//! in-memory store of the tests has none (the account routes then answer `no_accounts`), and
//! a wrapper store hands out its inner store's. [`crate::store::SqliteStore`] implements it
//! here, over the tables of migration 6 (`crate::schema`, [`MIGRATION`]).
//!
//! Sessions are the `tokens` table (migration 2): a random 192-bit id, stored as its SHA-256,
//! with `issued_at` the time it was last renewed (sliding expiry: `Shared::identity`).

use crate::ratings::Rating;
use crate::store::{BoxFut, SeatOwner, SqliteStore};
use serde::Serialize;
use sqlx::{Row, Sqlite, Transaction};

/// Migration 6: accounts, ratings and their history, every player's games, follows, blocks.
pub const MIGRATION: &[&str] = &[
    // One row per identity that is an account: a person's (username and argon2 hash) or a
    // robodrome bot's (`bot:<spec>`, no password). A deleted account keeps its row (its
    // number names it, "deleted player N") and frees its username.
    "CREATE TABLE IF NOT EXISTS accounts (identity TEXT PRIMARY KEY, username TEXT UNIQUE COLLATE NOCASE, password TEXT, bot INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL DEFAULT (unixepoch()))",
    "CREATE TABLE IF NOT EXISTS ratings (player TEXT NOT NULL, game TEXT NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, game)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, rating DESC, player)",
    "CREATE TABLE IF NOT EXISTS rating_history (player TEXT NOT NULL, game TEXT NOT NULL, game_id TEXT NOT NULL, at INTEGER NOT NULL, before REAL NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL, PRIMARY KEY (player, game, game_id))",
    "CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history (player, game, at DESC)",
    // Who sits (or sat) in which game: "my games" and a profile's recent games.
    "CREATE TABLE IF NOT EXISTS player_games (player TEXT NOT NULL, game_id TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (player, game_id)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS player_games_recent ON player_games (player, created_at DESC, game_id DESC)",
    "CREATE TABLE IF NOT EXISTS follows (follower TEXT NOT NULL, followed TEXT NOT NULL, PRIMARY KEY (follower, followed)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL, PRIMARY KEY (blocker, blocked)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks (blocked)",
    // Existing games' players.
    "INSERT OR IGNORE INTO player_games (player, game_id, created_at) SELECT json_extract(s.value, '$.identity'), g.id, g.created_at FROM games g, json_each(g.seats) s WHERE json_valid(g.seats) AND json_extract(s.value, '$.identity') IS NOT NULL",
];

/// An identity with its account, if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    pub identity: String,
    pub name: String,
    /// None: a guest.
    pub username: Option<String>,
    /// The argon2 PHC string (none for guests and bots).
    pub password: Option<String>,
    pub bot: bool,
    pub deleted: bool,
}

/// A player's rating in one game, as listed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    pub player: String,
    pub name: String,
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// A bot: robodrome's (`bot:<spec>`) or a bot account of the Bot API (the BOT mark).
    pub bot: bool,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    pub game_id: String,
    pub at: i64,
    pub before: f64,
    pub rating: f64,
    pub deviation: f64,
}

/// A new rating of one seat's player, written with the game's result.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub player: String,
    pub before: Rating,
    pub after: Rating,
}

/// A player found by search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Found {
    pub id: String,
    pub name: String,
    pub username: String,
    pub bot: bool,
}

pub trait AccountStore: Send + Sync {
    /// The identity and its account (none: no such identity).
    fn account<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Option<Account>>;
    /// The account of a username (any case), not deleted.
    fn account_by_username<'a>(&'a self, username: &'a str) -> BoxFut<'a, Option<Account>>;
    /// Make a guest identity an account; false if the username is taken (or it is one already).
    fn claim<'a>(
        &'a self,
        identity: &'a str,
        username: &'a str,
        password: &'a str,
    ) -> BoxFut<'a, bool>;
    /// A new session (token) of an identity.
    fn create_session<'a>(&'a self, identity: &'a str, token: &'a str) -> BoxFut<'a, ()>;
    /// Renew a session: its `issued_at` becomes now.
    fn touch_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, ()>;
    /// End one session.
    fn end_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, u64>;
    /// The displayed name of an identity (kept in the seats of its open and running games too).
    fn rename<'a>(&'a self, identity: &'a str, name: &'a str) -> BoxFut<'a, ()>;
    /// Delete an account: its name becomes `deleted player N` everywhere (also in its games'
    /// seats), its username is freed, its sessions, ratings, follows and blocks go. Returns the
    /// new name.
    fn delete<'a>(&'a self, identity: &'a str) -> BoxFut<'a, String>;
    /// Ratings of players in a game (absent: never rated).
    fn ratings<'a>(
        &'a self,
        game: &'a str,
        players: &'a [String],
    ) -> BoxFut<'a, Vec<Option<Rating>>>;
    /// Store a result and, in the same transaction, its players' new ratings (bot accounts
    /// `bot:<spec>` created on demand).
    fn finish_rated<'a>(
        &'a self,
        id: &'a str,
        game: &'a str,
        outcome: &'a serde_json::Value,
        updates: &'a [RatingUpdate],
    ) -> BoxFut<'a, ()>;
    /// A player's ratings, every game.
    fn player_ratings<'a>(&'a self, player: &'a str) -> BoxFut<'a, Vec<RatingRow>>;
    /// A player's rating history in one game, newest first.
    fn history<'a>(
        &'a self,
        player: &'a str,
        game: &'a str,
        limit: u32,
    ) -> BoxFut<'a, Vec<HistoryPoint>>;
    /// The best ratings of a game (deleted accounts left out), from `offset`.
    fn leaderboard<'a>(
        &'a self,
        game: &'a str,
        offset: u32,
        limit: u32,
    ) -> BoxFut<'a, Vec<RatingRow>>;
    /// A player's games, newest first, with the keyset cursor `(created_at, id)` of each.
    fn games_of<'a>(
        &'a self,
        player: &'a str,
        before: Option<(i64, &'a str)>,
        limit: u32,
    ) -> BoxFut<'a, Vec<(String, i64)>>;
    /// Accounts whose username starts with `prefix` (any case), not deleted.
    fn search<'a>(&'a self, prefix: &'a str, limit: u32) -> BoxFut<'a, Vec<Found>>;
    /// Follow (`on`) or unfollow; block or unblock.
    fn set_follow<'a>(&'a self, from: &'a str, to: &'a str, on: bool) -> BoxFut<'a, ()>;
    fn set_block<'a>(&'a self, from: &'a str, to: &'a str, on: bool) -> BoxFut<'a, ()>;
    /// Whom a player follows, or blocks (ids and names, at most `limit`).
    fn follows<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>>;
    fn blocks<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>>;
    /// Which of `among` block `who`.
    fn blockers<'a>(&'a self, who: &'a str, among: &'a [String]) -> BoxFut<'a, Vec<String>>;
}

/// Keep `player_games` in step with a game's seats (inside the write that changes them).
pub(crate) async fn sync_players(
    tx: &mut Transaction<'_, Sqlite>,
    id: &str,
    seats: &[SeatOwner],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM player_games WHERE game_id = ?").bind(id).execute(&mut **tx).await?;
    for s in seats {
        if let SeatOwner::Human { identity, .. } | SeatOwner::Resigned { identity, .. } = s {
            sqlx::query(
                "INSERT OR IGNORE INTO player_games (player, game_id, created_at) \
                 SELECT ?, id, created_at FROM games WHERE id = ?",
            )
            .bind(identity)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

fn account_row(r: &sqlx::sqlite::SqliteRow) -> Result<Account, sqlx::Error> {
    Ok(Account {
        identity: r.try_get("id")?,
        name: r.try_get("name")?,
        username: r.try_get("username")?,
        password: r.try_get("password")?,
        bot: r.try_get::<Option<i64>, _>("bot")?.unwrap_or(0) != 0,
        deleted: r.try_get::<Option<i64>, _>("deleted")?.unwrap_or(0) != 0,
    })
}

fn rating_row(r: &sqlx::sqlite::SqliteRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        player: r.try_get("player")?,
        name: r.try_get("name")?,
        game: r.try_get("game")?,
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get::<i64, _>("games")? as u32,
        bot: r.try_get::<Option<bool>, _>("bot")?.unwrap_or(false),
    })
}

const ACCOUNT: &str = "SELECT i.id, i.name, a.username, a.password, a.bot, a.deleted FROM identities i LEFT JOIN accounts a ON a.identity = i.id";

/// Seats with the name of `identity` replaced.
pub(crate) fn renamed(seats: &str, identity: &str, name: &str) -> Option<String> {
    let mut seats: Vec<SeatOwner> = serde_json::from_str(seats).ok()?;
    let mut changed = false;
    for s in &mut seats {
        if let SeatOwner::Human { identity: i, name: n }
        | SeatOwner::Resigned { identity: i, name: n } = s
            && i == identity
        {
            *n = name.to_string();
            changed = true;
        }
    }
    changed.then(|| serde_json::to_string(&seats).ok()).flatten()
}

/// Rewrite the seat names of `identity` in its games (`only_live`: open and running only).
async fn rename_in_games(
    tx: &mut Transaction<'_, Sqlite>,
    identity: &str,
    name: &str,
    only_live: bool,
) -> Result<(), sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT g.id, g.seats FROM player_games p JOIN games g ON g.id = p.game_id WHERE p.player = ?{}",
        if only_live { " AND g.status IN ('open', 'running')" } else { "" }
    ))
    .bind(identity)
    .fetch_all(&mut **tx)
    .await?;
    for r in rows {
        let id: String = r.try_get(0)?;
        let seats: String = r.try_get(1)?;
        if let Some(new) = renamed(&seats, identity, name) {
            sqlx::query("UPDATE games SET seats = ? WHERE id = ?")
                .bind(new)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

impl AccountStore for SqliteStore {
    fn account<'a>(&'a self, identity: &'a str) -> BoxFut<'a, Option<Account>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("{ACCOUNT} WHERE i.id = ?"))
                .bind(identity)
                .fetch_optional(&self.pool)
                .await?;
            Ok(r.as_ref().map(account_row).transpose()?)
        })
    }

    fn account_by_username<'a>(&'a self, username: &'a str) -> BoxFut<'a, Option<Account>> {
        Box::pin(async move {
            let r = sqlx::query(&format!("{ACCOUNT} WHERE a.username = ? AND a.deleted = 0"))
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
                "INSERT OR IGNORE INTO accounts (identity, username, password) \
                 SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE identity = ?)",
            )
            .bind(identity)
            .bind(username)
            .bind(password)
            .bind(identity)
            .execute(&self.writer)
            .await?;
            Ok(r.rows_affected() == 1)
        })
    }

    fn create_session<'a>(&'a self, identity: &'a str, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query(
                "INSERT INTO tokens (hash, identity, issued_at) VALUES (?, ?, unixepoch())",
            )
            .bind(crate::schema::hash_token(token))
            .bind(identity)
            .execute(&self.writer)
            .await?;
            Ok(())
        })
    }

    fn touch_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            sqlx::query("UPDATE tokens SET issued_at = unixepoch() WHERE hash = ?")
                .bind(crate::schema::hash_token(token))
                .execute(&self.writer)
                .await?;
            Ok(())
        })
    }

    fn end_session<'a>(&'a self, token: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let r = sqlx::query("DELETE FROM tokens WHERE hash = ?")
                .bind(crate::schema::hash_token(token))
                .execute(&self.writer)
                .await?;
            Ok(r.rows_affected())
        })
    }

    fn rename<'a>(&'a self, identity: &'a str, name: &'a str) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.writer.begin().await?;
            sqlx::query("UPDATE identities SET name = ? WHERE id = ?")
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
            let mut tx = self.writer.begin().await?;
            let n: i64 = sqlx::query_scalar("SELECT rowid FROM accounts WHERE identity = ?")
                .bind(identity)
                .fetch_one(&mut *tx)
                .await?;
            let name = format!("deleted player {n}");
            sqlx::query("UPDATE accounts SET username = NULL, password = NULL, deleted = 1 WHERE identity = ?")
                .bind(identity)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE identities SET name = ? WHERE id = ?")
                .bind(&name)
                .bind(identity)
                .execute(&mut *tx)
                .await?;
            rename_in_games(&mut tx, identity, &name, false).await?;
            for q in [
                "DELETE FROM tokens WHERE identity = ?1",
                "DELETE FROM ratings WHERE player = ?1",
                "DELETE FROM rating_history WHERE player = ?1",
                "DELETE FROM follows WHERE follower = ?1 OR followed = ?1",
                "DELETE FROM blocks WHERE blocker = ?1 OR blocked = ?1",
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
                    "SELECT rating, deviation, volatility FROM ratings WHERE player = ? AND game = ?",
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
        outcome: &'a serde_json::Value,
        updates: &'a [RatingUpdate],
    ) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let mut tx = self.writer.begin().await?;
            let r = sqlx::query(
                "UPDATE games SET status = 'finished', outcome = ? WHERE id = ? AND status != 'finished'",
            )
            .bind(outcome.to_string())
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if r.rows_affected() == 0 {
                // Already stored (a retry after a failure that did commit): rate once only.
                tx.commit().await?;
                return Ok(());
            }
            for u in updates {
                if !u.player.starts_with("bot:") {
                    // Every rated person has an account row already; a bot account of the Bot
                    // API made before its row was written with it gets it here (`bot`: the
                    // leaderboard's BOT mark).
                    sqlx::query(
                        "INSERT OR IGNORE INTO accounts (identity, username, bot) \
                         SELECT id, NULL, 1 FROM bot_accounts WHERE id = ?",
                    )
                    .bind(&u.player)
                    .execute(&mut *tx)
                    .await?;
                }
                if let Some(spec) = u.player.strip_prefix("bot:") {
                    sqlx::query("INSERT OR IGNORE INTO identities (id, name) VALUES (?, ?)")
                        .bind(&u.player)
                        .bind(format!("{spec} (bot)"))
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT OR IGNORE INTO accounts (identity, username, bot) VALUES (?, ?, 1)",
                    )
                    .bind(&u.player)
                    .bind(&u.player)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "INSERT INTO ratings (player, game, rating, deviation, volatility, games) VALUES (?, ?, ?, ?, ?, 1) \
                     ON CONFLICT (player, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
                     volatility = excluded.volatility, games = games + 1",
                )
                .bind(&u.player)
                .bind(game)
                .bind(u.after.rating)
                .bind(u.after.deviation)
                .bind(u.after.volatility)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT OR REPLACE INTO rating_history (player, game, game_id, at, before, rating, deviation) \
                     VALUES (?, ?, ?, unixepoch(), ?, ?, ?)",
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
                 LEFT JOIN accounts a ON a.identity = r.player WHERE r.player = ? ORDER BY r.game",
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
                 WHERE player = ? AND game = ? ORDER BY at DESC, rowid DESC LIMIT ?",
            )
            .bind(player)
            .bind(game)
            .bind(limit as i64)
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
                 JOIN accounts a ON a.identity = r.player WHERE r.game = ? AND a.deleted = 0 \
                 ORDER BY r.rating DESC, r.player LIMIT ? OFFSET ?",
            )
            .bind(game)
            .bind(limit as i64)
            .bind(offset as i64)
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
                "SELECT game_id, created_at FROM player_games WHERE player = ? \
                 AND (? = '' OR (created_at, game_id) < (?, ?)) \
                 ORDER BY created_at DESC, game_id DESC LIMIT ?",
            )
            .bind(player)
            .bind(id)
            .bind(t)
            .bind(id)
            .bind(limit as i64)
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
            let rows = sqlx::query(
                "SELECT i.id, i.name, a.username, a.bot FROM accounts a JOIN identities i ON i.id = a.identity \
                 WHERE a.deleted = 0 AND a.username LIKE ? ESCAPE '\\' ORDER BY a.username LIMIT ?",
            )
            .bind(pattern)
            .bind(limit as i64)
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
                "INSERT OR IGNORE INTO follows (follower, followed) VALUES (?, ?)"
            } else {
                "DELETE FROM follows WHERE follower = ? AND followed = ?"
            };
            sqlx::query(q).bind(from).bind(to).execute(&self.writer).await?;
            Ok(())
        })
    }

    fn set_block<'a>(&'a self, from: &'a str, to: &'a str, on: bool) -> BoxFut<'a, ()> {
        Box::pin(async move {
            let q = if on {
                "INSERT OR IGNORE INTO blocks (blocker, blocked) VALUES (?, ?)"
            } else {
                "DELETE FROM blocks WHERE blocker = ? AND blocked = ?"
            };
            sqlx::query(q).bind(from).bind(to).execute(&self.writer).await?;
            Ok(())
        })
    }

    fn follows<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>> {
        Box::pin(self.named_players(
            "SELECT i.id, i.name FROM follows f JOIN identities i ON i.id = f.followed \
             WHERE f.follower = ? ORDER BY i.name LIMIT ?",
            from,
            limit,
        ))
    }

    fn blocks<'a>(&'a self, from: &'a str, limit: u32) -> BoxFut<'a, Vec<(String, String)>> {
        Box::pin(self.named_players(
            "SELECT i.id, i.name FROM blocks b JOIN identities i ON i.id = b.blocked \
             WHERE b.blocker = ? ORDER BY i.name LIMIT ?",
            from,
            limit,
        ))
    }

    fn blockers<'a>(&'a self, who: &'a str, among: &'a [String]) -> BoxFut<'a, Vec<String>> {
        Box::pin(async move {
            let mut out = Vec::new();
            for a in among {
                let hit: Option<i64> =
                    sqlx::query_scalar("SELECT 1 FROM blocks WHERE blocker = ? AND blocked = ?")
                        .bind(a)
                        .bind(who)
                        .fetch_optional(&self.pool)
                        .await?;
                if hit.is_some() {
                    out.push(a.clone());
                }
            }
            Ok(out)
        })
    }
}

impl SqliteStore {
    /// The (id, name) rows of `sql`, a query of one player's follows or blocks bound to `from`
    /// and `limit`.
    async fn named_players(
        &self,
        sql: &'static str,
        from: &str,
        limit: u32,
    ) -> Result<Vec<(String, String)>, crate::store::StoreError> {
        let rows = sqlx::query(sql).bind(from).bind(limit as i64).fetch_all(&self.pool).await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }
}
