//! The player platform (docs/platform.md): accounts and sessions, ratings of finished games,
//! profiles, leaderboards, "my games", player search, follows with presence, invitations and
//! blocks. What is stored is `crate::accounts`; the rating method is `crate::ratings`; the
//! routes are [`routes`] (docs/protocol.md "Accounts and players").

use crate::Shared;
use crate::accounts::{AccountStore, RatingUpdate};
use crate::error::ApiError;
use crate::http::{Body, Caller, MaybeCaller, Peer};
use crate::limits::Quota;
use crate::ratings::Standing;
use crate::store::{GameRow, Identity, SeatOwner, Status, StoreError};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Usernames: 3 to 20 of `A-Z a-z 0-9 _ -`, unique in any case; `bot…` is the bots'.
pub const USERNAME_LEN: (usize, usize) = (3, 20);
/// Passwords: 8 to 128 bytes (argon2 reads any length; the cap bounds the work per attempt).
pub const PASSWORD_LEN: (usize, usize) = (8, 128);
/// Sign-in attempts (right or wrong) per address, and per username, in [`ATTEMPT_WINDOW`].
pub const ATTEMPTS_PER_ADDRESS: u32 = 20;
pub const ATTEMPTS_PER_USERNAME: u32 = 10;
pub const ATTEMPT_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Argon2id parameters: OWASP's first recommendation (19 MiB, 2 passes, 1 lane).
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
pub const ARGON2_PASSES: u32 = 2;
/// Passwords hashed at once (each holds 19 MiB for tens of milliseconds).
pub const HASHING_AT_ONCE: usize = 2;
/// A session is renewed (its expiry slides) on use at most this often.
pub const RENEW_EVERY: i64 = 3600;
/// A cluster node tells the others that someone is here at most this often per identity
/// (a signed-in request, or every such period while a game socket is open).
pub const SHOUT_SEEN: Duration = Duration::from_secs(30);

/// Online: an open game socket, or a signed-in request within this time.
pub const ONLINE_WINDOW: Duration = Duration::from_secs(120);
/// Identities remembered as recently seen, at most (the oldest are forgotten first).
pub const SEEN_CAP: usize = 100_000;
/// Notices kept per player, and players with notices, at most.
pub const NOTICES_PER_PLAYER: usize = 20;
pub const NOTICE_PLAYERS: usize = 10_000;
/// Invitations a player may send per [`ATTEMPT_WINDOW`].
pub const INVITES_PER_WINDOW: u32 = 30;
/// Follows and blocks per player, at most.
pub const FOLLOWS_CAP: u32 = 500;
/// Page sizes: (default, largest).
pub const PAGE: (u32, u32) = (20, 100);
/// Search: prefix length and results.
pub const SEARCH_PREFIX: (usize, usize) = (1, 20);
pub const SEARCH_LIMIT: u32 = 20;
/// Leaderboard offsets stop here (pages beyond are not served).
pub const MAX_OFFSET: u32 = 10_000;

/// A notice in a player's lobby: an invitation to a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub kind: String,
    pub from: String,
    pub from_name: String,
    pub game: String,
    /// The table's invitation link (`GameInfo::invite`).
    pub link: String,
}

/// What the platform keeps in memory.
pub struct Platform {
    /// Open game sockets per identity.
    sockets: Mutex<HashMap<String, u32>>,
    /// Last signed-in request per identity.
    seen: Mutex<HashMap<String, Instant>>,
    /// Running games' identities owing a decision now, by game (the room says).
    waiting: Mutex<HashMap<String, Vec<String>>>,
    notices: Mutex<HashMap<String, VecDeque<Notice>>>,
    pub attempts_by_address: Quota<IpAddr>,
    pub attempts_by_username: Quota<String>,
    pub invites: Quota<String>,
    hashing: tokio::sync::Semaphore,
}

impl Default for Platform {
    fn default() -> Platform {
        Platform {
            sockets: Default::default(),
            seen: Default::default(),
            waiting: Default::default(),
            notices: Default::default(),
            attempts_by_address: Quota::new(ATTEMPTS_PER_ADDRESS, ATTEMPT_WINDOW),
            attempts_by_username: Quota::new(ATTEMPTS_PER_USERNAME, ATTEMPT_WINDOW),
            invites: Quota::new(INVITES_PER_WINDOW, ATTEMPT_WINDOW),
            hashing: tokio::sync::Semaphore::new(HASHING_AT_ONCE),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Held while a game socket of an identity is open.
pub struct OnlineGuard {
    shared: Arc<Shared>,
    id: String,
}

impl Drop for OnlineGuard {
    fn drop(&mut self) {
        let mut s = lock(&self.shared.platform.sockets);
        if let Some(n) = s.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                s.remove(&self.id);
            }
        }
    }
}

impl Platform {
    /// A running game's seats owing a decision now (empty: none, or the game is over).
    /// Returns who owes it if that changed (a cluster node tells the others: `Shared::note_waiting`).
    pub(crate) fn note_waiting(
        &self,
        game: &str,
        seats: &[SeatOwner],
        waiting: &[u8],
    ) -> Option<Vec<String>> {
        let who: Vec<String> = waiting
            .iter()
            .filter_map(|&s| match seats.get(s as usize) {
                Some(SeatOwner::Human { identity, .. }) => Some(identity.clone()),
                _ => None,
            })
            .collect();
        self.set_waiting(game, who)
    }

    /// Who owes a decision in `game` now (as its owner says); returns it if it changed.
    pub(crate) fn set_waiting(&self, game: &str, who: Vec<String>) -> Option<Vec<String>> {
        let mut w = lock(&self.waiting);
        if w.get(game).map_or(who.is_empty(), |old| *old == who) {
            return None;
        }
        if who.is_empty() {
            w.remove(game);
        } else {
            w.insert(game.to_string(), who.clone());
        }
        Some(who)
    }

    /// Whether it is `who`'s move in `game`.
    pub fn your_move(&self, game: &str, who: &str) -> bool {
        lock(&self.waiting).get(game).is_some_and(|w| w.iter().any(|i| i == who))
    }

    /// A signed-in request of `who` (presence). True when `who` had not been seen for
    /// [`SHOUT_SEEN`] (a cluster node then tells the others).
    pub fn seen(&self, who: &str) -> bool {
        self.seen_at(who, Instant::now())
    }

    fn seen_at(&self, who: &str, at: Instant) -> bool {
        let mut s = lock(&self.seen);
        if s.len() >= SEEN_CAP && !s.contains_key(who) {
            let now = Instant::now();
            s.retain(|_, t| now.duration_since(*t) < ONLINE_WINDOW);
            if s.len() >= SEEN_CAP {
                return false;
            }
        }
        let fresh = s.get(who).is_none_or(|t| at.saturating_duration_since(*t) >= SHOUT_SEEN);
        s.insert(who.to_string(), at);
        fresh
    }

    /// Identities with a game socket open on this node now.
    pub fn with_sockets(&self) -> Vec<String> {
        lock(&self.sockets).keys().cloned().collect()
    }

    pub fn online(&self, who: &str) -> bool {
        lock(&self.sockets).contains_key(who)
            || lock(&self.seen).get(who).is_some_and(|t| t.elapsed() < ONLINE_WINDOW)
    }

    pub(crate) fn notify(&self, to: &str, n: Notice) {
        let mut all = lock(&self.notices);
        if all.len() >= NOTICE_PLAYERS && !all.contains_key(to) {
            // Forget someone's notices (they are a convenience, not a record).
            if let Some(k) = all.keys().next().cloned() {
                all.remove(&k);
            }
        }
        let q = all.entry(to.to_string()).or_default();
        q.retain(|o| !(o.game == n.game && o.from == n.from));
        if q.len() >= NOTICES_PER_PLAYER {
            q.pop_front();
        }
        q.push_back(n);
    }

    pub fn notices(&self, who: &str) -> Vec<Notice> {
        lock(&self.notices).get(who).map(|q| q.iter().rev().cloned().collect()).unwrap_or_default()
    }
}

/// An argon2id hash (PHC string) of a password, with a random salt.
fn hash_password(password: &str) -> Result<String, ApiError> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::Internal(e.to_string()))?;
    argon2()?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("hashing: {e}")))
}

fn argon2() -> Result<argon2::Argon2<'static>, ApiError> {
    let params = argon2::Params::new(ARGON2_MEMORY_KIB, ARGON2_PASSES, 1, None)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params))
}

fn verify_password(password: &str, hash: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    // The parameters are the stored hash's own (older hashes stay valid).
    argon2::Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
}

fn check_username(u: &str) -> Result<(), ApiError> {
    let ok_chars = u.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let n = u.chars().count();
    if !ok_chars || n < USERNAME_LEN.0 || n > USERNAME_LEN.1 {
        return Err(ApiError::bad(
            "bad_username",
            format!(
                "a username has {} to {} letters, digits, _ or -",
                USERNAME_LEN.0, USERNAME_LEN.1
            ),
        ));
    }
    if u.to_ascii_lowercase().starts_with("bot") {
        return Err(ApiError::bad("bad_username", "usernames starting with \"bot\" are the bots'"));
    }
    Ok(())
}

fn check_password(p: &str) -> Result<(), ApiError> {
    if p.len() < PASSWORD_LEN.0 || p.len() > PASSWORD_LEN.1 {
        return Err(ApiError::bad(
            "bad_password",
            format!("a password has {} to {} bytes", PASSWORD_LEN.0, PASSWORD_LEN.1),
        ));
    }
    Ok(())
}

pub(crate) fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
        return Err(ApiError::bad("bad_name", "a name has 1 to 40 characters, on one line"));
    }
    if name.to_ascii_lowercase().starts_with("deleted player") {
        return Err(ApiError::bad("bad_name", "that name is for deleted accounts"));
    }
    Ok(name.to_string())
}

/// The player a seat is rated as: an account's identity, or `bot:<spec>`; none for a guest.
async fn rated_player(
    acc: &dyn AccountStore,
    platform: &dyn crate::platform_store::PlatformStore,
    seat: &SeatOwner,
) -> Result<Option<String>, StoreError> {
    Ok(match seat {
        SeatOwner::Human { identity, .. } | SeatOwner::Resigned { identity, .. } => {
            match acc.account(identity).await? {
                Some(a) if a.deleted => None,
                // A person's account, or a bot account of the Bot API (rated like a person).
                Some(a) if a.username.is_some() || a.bot => Some(identity.clone()),
                Some(_) if platform.bot(identity).await?.is_some() => Some(identity.clone()),
                _ => None,
            }
        }
        SeatOwner::Bot { spec } => spec.parse::<bots::BotSpec>().ok().map(|s| format!("bot:{s}")),
        SeatOwner::Open => None,
    })
}

/// Seconds since the epoch.
pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Shared {
    fn acc(&self) -> Result<&dyn AccountStore, ApiError> {
        self.store.accounts().ok_or_else(|| {
            ApiError::conflict("no_accounts", "this server's store keeps no accounts")
        })
    }

    /// The new ratings of a finished game, or none if it is not rated (docs/platform.md).
    pub(crate) async fn rating_updates(
        &self,
        game: &str,
        seats: &[SeatOwner],
        practice: bool,
        stood_in: bool,
        outcome: &Value,
    ) -> Result<Option<Vec<RatingUpdate>>, StoreError> {
        let Some(acc) = self.store.accounts() else { return Ok(None) };
        if practice || stood_in || seats.len() < 2 {
            return Ok(None);
        }
        let mut players = Vec::with_capacity(seats.len());
        for s in seats {
            match rated_player(acc, self.store.platform(), s).await? {
                Some(p) => players.push(p),
                None => return Ok(None),
            }
        }
        // Every seat one player (a person seated twice, or two seats of one bot spec, is not
        // a contest between players), and at least one person (bots alone are a simulation).
        let distinct: std::collections::BTreeSet<&String> = players.iter().collect();
        if distinct.len() != players.len() || players.iter().all(|p| p.starts_with("bot:")) {
            return Ok(None);
        }
        let resigned: Vec<usize> = seats
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, SeatOwner::Resigned { .. }))
            .map(|(i, _)| i)
            .collect();
        let Some(places) = crate::ratings::places(outcome, seats.len(), &resigned) else {
            return Ok(None);
        };
        let before = acc.ratings(game, &players).await?;
        let standings: Vec<Standing> = players
            .iter()
            .zip(&places)
            .zip(&before)
            .map(|((p, &place), b)| Standing {
                player: p.clone(),
                place,
                before: b.unwrap_or_default(),
            })
            .collect();
        let after = crate::ratings::rate(&standings);
        Ok(Some(
            standings
                .into_iter()
                .zip(after)
                .map(|(s, after)| RatingUpdate { player: s.player, before: s.before, after })
                .collect(),
        ))
    }

    /// Store a finished game's result, rated ones with their new ratings in one transaction.
    pub(crate) async fn store_result(
        &self,
        id: &str,
        game: &str,
        seats: &[SeatOwner],
        practice: bool,
        stood_in: bool,
        outcome: &Value,
    ) -> Result<(), StoreError> {
        if let Some(updates) = self.rating_updates(game, seats, practice, stood_in, outcome).await?
            && let Some(acc) = self.store.accounts()
        {
            tracing::info!(game = %id, players = updates.len(), "rated game over");
            return acc.finish_rated(id, game, outcome, &updates).await;
        }
        self.store.finish_game(id, outcome).await
    }

    /// Renew a session on use (at most every [`RENEW_EVERY`] seconds); note presence.
    pub(crate) async fn renew(&self, token: &str, who: &Identity) {
        if self.platform.seen(&who.id) {
            self.shout(Shout::Seen { who: vec![who.id.clone()] });
        }
        if now_secs() - who.issued_at < RENEW_EVERY {
            return;
        }
        if let Some(acc) = self.store.accounts()
            && let Err(e) = acc.touch_session(token).await
        {
            tracing::warn!(error = %e, "a session could not be renewed");
        }
    }

    async fn hashing<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .platform
            .hashing
            .acquire()
            .await
            .map_err(|_| ApiError::Internal("closed".into()))?;
        tokio::task::spawn_blocking(f).await.map_err(|e| ApiError::Internal(e.to_string()))
    }

    /// A guest becomes an account: same identity, so every game it played stays its own.
    pub async fn claim(
        &self,
        who: &Identity,
        username: &str,
        password: &str,
    ) -> Result<Value, ApiError> {
        check_username(username)?;
        check_password(password)?;
        let acc = self.acc()?;
        if acc.account(&who.id).await?.is_some_and(|a| a.username.is_some() || a.deleted || a.bot) {
            return Err(ApiError::conflict("already_account", "you already have an account"));
        }
        let pw = password.to_string();
        let hash = self.hashing(move || hash_password(&pw)).await??;
        if !self.write(acc.claim(&who.id, username, &hash)).await? {
            return Err(ApiError::conflict("username_taken", "that username is taken"));
        }
        tracing::info!(identity = %who.id, "account claimed");
        Ok(json!({ "id": who.id, "name": who.name, "username": username }))
    }

    /// Sign in: a new session of the account, or `bad_credentials` (the same answer for an
    /// unknown username and a wrong password).
    pub async fn sign_in(
        &self,
        peer: Option<IpAddr>,
        username: &str,
        password: &str,
    ) -> Result<protocol::GuestResponse, ApiError> {
        let p = &self.platform;
        let key = username.to_ascii_lowercase();
        let waits = [
            peer.and_then(|ip| p.attempts_by_address.check(&ip).err()),
            (username.len() <= 64).then(|| p.attempts_by_username.check(&key).err()).flatten(),
        ];
        if let Some(d) = waits.into_iter().flatten().max() {
            return Err(ApiError::TooMany(
                "too_many_attempts",
                format!("too many sign-in attempts: try again in {} s", d.as_secs() + 1),
                Some(d),
            ));
        }
        if username.len() > USERNAME_LEN.1 || password.len() > PASSWORD_LEN.1 {
            return Err(ApiError::bad("bad_credentials", "wrong username or password"));
        }
        let acc = self.acc()?;
        let account = acc.account_by_username(username).await?;
        let stored = account.as_ref().and_then(|a| a.password.clone());
        let pw = password.to_string();
        // Unknown usernames cost a hash too (no timing difference to tell them apart).
        let ok = self
            .hashing(move || match stored {
                Some(h) => verify_password(&pw, &h),
                None => {
                    let _ = hash_password(&pw);
                    false
                }
            })
            .await?;
        let Some(account) = account.filter(|_| ok) else {
            return Err(ApiError::bad("bad_credentials", "wrong username or password"));
        };
        let token = crate::lobby::random_hex(24)?;
        self.write(acc.create_session(&account.identity, &token)).await?;
        tracing::info!(identity = %account.identity, "signed in");
        Ok(protocol::GuestResponse { id: account.identity, name: account.name, token })
    }

    pub async fn sign_out(&self, token: &str) -> Result<u64, ApiError> {
        self.write(self.acc()?.end_session(token)).await
    }

    pub async fn me(&self, who: &Identity) -> Result<Value, ApiError> {
        let a = self.acc()?.account(&who.id).await?;
        let username = a.as_ref().and_then(|a| a.username.clone());
        Ok(json!({
            "id": who.id,
            "name": who.name,
            "username": username,
            "guest": username.is_none(),
        }))
    }

    pub async fn rename(&self, who: &Identity, name: &str) -> Result<Value, ApiError> {
        let name = check_name(name)?;
        self.write(self.acc()?.rename(&who.id, &name)).await?;
        self.lobby_changed();
        Ok(json!({ "id": who.id, "name": name }))
    }

    /// Delete the caller's account (the password again, to be sure): games stay, anonymised.
    pub async fn delete_account(&self, who: &Identity, password: &str) -> Result<Value, ApiError> {
        if password.len() > PASSWORD_LEN.1 {
            return Err(ApiError::bad("bad_credentials", "wrong password"));
        }
        let acc = self.acc()?;
        let Some(stored) = acc.account(&who.id).await?.and_then(|a| a.password) else {
            return Err(ApiError::conflict("not_an_account", "a guest has no account to delete"));
        };
        let pw = password.to_string();
        if !self.hashing(move || verify_password(&pw, &stored)).await? {
            return Err(ApiError::bad("bad_credentials", "wrong password"));
        }
        let name = self.write(acc.delete(&who.id)).await?;
        self.lobby_changed();
        tracing::info!(identity = %who.id, "account deleted");
        Ok(json!({ "deleted": true, "name": name }))
    }

    /// A player's profile: name, account, presence, ratings per game.
    pub async fn profile(&self, id: &str) -> Result<Value, ApiError> {
        let acc = self.acc()?;
        let a = acc.account(id).await?.ok_or_else(no_player)?;
        let ratings = acc.player_ratings(id).await?;
        Ok(json!({
            "id": a.identity,
            "name": a.name,
            "username": a.username,
            "guest": a.username.is_none() && !a.bot && !a.deleted,
            "bot": a.bot,
            "deleted": a.deleted,
            "online": !a.bot && self.platform.online(id),
            "ratings": ratings,
        }))
    }

    /// A player's games, newest first, with their place in each finished one.
    pub async fn player_games(
        &self,
        id: &str,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> Result<(Vec<Value>, Option<String>), ApiError> {
        let acc = self.acc()?;
        let page = acc.games_of(id, before.as_ref().map(|(t, g)| (*t, g.as_str())), limit).await?;
        let next = (page.len() == limit as usize)
            .then(|| page.last().map(|(g, t)| format!("{t}.{g}")))
            .flatten();
        let mut out = Vec::with_capacity(page.len());
        for (gid, _) in &page {
            let Ok(Some(row)) = self.store.game(gid).await else { continue };
            out.push(self.game_entry(&row, id));
        }
        Ok((out, next))
    }

    fn game_entry(&self, row: &GameRow, player: &str) -> Value {
        let seat = row.seats.iter().position(|s| {
            matches!(s, SeatOwner::Human { identity, .. } | SeatOwner::Resigned { identity, .. } if identity == player)
        });
        let resigned: Vec<usize> = row
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, SeatOwner::Resigned { .. }))
            .map(|(i, _)| i)
            .collect();
        let place = row
            .outcome
            .as_ref()
            .and_then(|o| crate::ratings::places(o, row.seats.len(), &resigned))
            .zip(seat)
            .and_then(|(p, s)| p.get(s).copied());
        let mut v = serde_json::to_value(crate::lobby::info(row)).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert("seat".into(), json!(seat));
            m.insert("place".into(), json!(place));
            m.insert(
                "your_move".into(),
                json!(row.status == Status::Running && self.platform.your_move(&row.id, player)),
            );
            m.insert("replay".into(), json!(format!("/replay/{}", row.id)));
        }
        v
    }

    /// The caller's games of one [`MyGames`] kind ("my games", `GET /api/me/games`): at most
    /// [`PAGE`]'s largest, "your move" first (then the soonest deadline, for turn-based games;
    /// the newest first, for finished ones).
    pub async fn my_games(&self, who: &Identity, which: MyGames) -> Result<Vec<Value>, ApiError> {
        let mut out = Vec::new();
        if which == MyGames::TurnBased {
            // The stored clocks say who owes the decision, across restarts and devices.
            for t in self.turns(who).await?.into_iter().take(PAGE.1 as usize) {
                let Ok(Some(row)) = self.store.game(&t.id).await else { continue };
                let mut v = self.game_entry(&row, &who.id);
                if let Value::Object(m) = &mut v {
                    m.insert("your_move".into(), json!(t.your_move));
                    m.insert("per_move_secs".into(), json!(t.per_move_secs));
                    m.insert("due_ms".into(), json!(t.due_ms));
                    m.insert("waiting".into(), json!(t.waiting));
                }
                out.push(v);
            }
            return Ok(out);
        }
        let acc = self.acc()?;
        let page = acc.games_of(&who.id, None, PAGE.1).await?;
        for (gid, _) in &page {
            let Ok(Some(row)) = self.store.game(gid).await else { continue };
            let finished = row.status == Status::Finished;
            // A seat resigned to a bot is the caller's game again only once it is over.
            let mine = row.seats.iter().any(|s| match s {
                SeatOwner::Human { identity, .. } => *identity == who.id,
                SeatOwner::Resigned { identity, .. } => finished && *identity == who.id,
                _ => false,
            });
            if mine && finished == (which == MyGames::Finished) {
                out.push(self.game_entry(&row, &who.id));
            }
        }
        out.sort_by_key(|g| !g["your_move"].as_bool().unwrap_or(false));
        Ok(out)
    }

    pub async fn set_follow(
        &self,
        who: &Identity,
        player: &str,
        on: bool,
    ) -> Result<Value, ApiError> {
        let acc = self.acc()?;
        self.require_account(who, "following a player").await?;
        if player == who.id {
            return Err(ApiError::bad("bad_player", "you cannot follow yourself"));
        }
        let a = acc.account(player).await?.ok_or_else(no_player)?;
        if on && (a.deleted || a.username.is_none()) {
            return Err(ApiError::bad("bad_player", "only accounts can be followed"));
        }
        if on && acc.follows(&who.id, FOLLOWS_CAP).await?.len() >= FOLLOWS_CAP as usize {
            return Err(ApiError::TooMany(
                "too_many_follows",
                format!("you follow at most {FOLLOWS_CAP} players"),
                None,
            ));
        }
        self.write(acc.set_follow(&who.id, player, on)).await?;
        Ok(json!({ "player": player, "following": on }))
    }

    pub async fn set_block(
        &self,
        who: &Identity,
        player: &str,
        on: bool,
    ) -> Result<Value, ApiError> {
        let acc = self.acc()?;
        if player == who.id {
            return Err(ApiError::bad("bad_player", "you cannot block yourself"));
        }
        acc.account(player).await?.ok_or_else(no_player)?;
        if on && acc.blocks(&who.id, FOLLOWS_CAP).await?.len() >= FOLLOWS_CAP as usize {
            return Err(ApiError::TooMany(
                "too_many_blocks",
                format!("you block at most {FOLLOWS_CAP} players"),
                None,
            ));
        }
        self.write(acc.set_block(&who.id, player, on)).await?;
        self.blocks.set(&who.id, player, on);
        Ok(json!({ "player": player, "blocked": on }))
    }

    /// A guest (an identity without a username) may not `what`: 403 `account_required`.
    /// Bot accounts count as accounts (docs/platform.md "What needs an account").
    pub(crate) async fn require_account(&self, who: &Identity, what: &str) -> Result<(), ApiError> {
        if let Some(a) = self.acc()?.account(&who.id).await?
            && a.username.is_some()
        {
            return Ok(());
        }
        if self.store.platform().bot(&who.id).await?.is_some() {
            return Ok(());
        }
        Err(ApiError::AccountRequired(format!(
            "{what} needs an account: sign up (choose a username and a password) and try again; \
             your games as a guest stay yours"
        )))
    }

    pub async fn follows(&self, who: &Identity) -> Result<Value, ApiError> {
        let list = self.acc()?.follows(&who.id, FOLLOWS_CAP).await?;
        let players: Vec<Value> = list
            .into_iter()
            .map(
                |(id, name)| json!({ "online": self.platform.online(&id), "id": id, "name": name }),
            )
            .collect();
        Ok(json!({ "players": players }))
    }

    pub async fn blocks(&self, who: &Identity) -> Result<Value, ApiError> {
        let list = self.acc()?.blocks(&who.id, FOLLOWS_CAP).await?;
        let players: Vec<Value> =
            list.into_iter().map(|(id, name)| json!({ "id": id, "name": name })).collect();
        Ok(json!({ "players": players }))
    }

    /// Invite a followed player to an open table the caller sits at (or created). An invitation
    /// to a player who blocks the caller is dropped without a word (a block is not told).
    pub async fn invite(
        &self,
        who: &Identity,
        player: &str,
        game: &str,
    ) -> Result<Value, ApiError> {
        let acc = self.acc()?;
        self.require_account(who, "inviting a player").await?;
        let row = self.store.game(game).await?.ok_or(ApiError::NotFound)?;
        let seated = row
            .seats
            .iter()
            .any(|s| matches!(s, SeatOwner::Human { identity, .. } if *identity == who.id));
        if !(seated || row.creator == who.id) {
            return Err(ApiError::Forbidden("invite to a table of yours".into()));
        }
        if row.status != Status::Open {
            return Err(ApiError::conflict("not_open", "the game has already started"));
        }
        let follows = acc.follows(&who.id, FOLLOWS_CAP).await?;
        if !follows.iter().any(|(id, _)| id == player) {
            return Err(ApiError::bad("not_following", "invite players you follow"));
        }
        if let Err(d) = self.platform.invites.check(&who.id) {
            return Err(ApiError::TooMany(
                "rate_limited",
                format!("too many invitations: try again in {} s", d.as_secs() + 1),
                Some(d),
            ));
        }
        if acc.blockers(&who.id, &[player.to_string()]).await?.is_empty() {
            let notice = Notice {
                kind: "invite".into(),
                from: who.id.clone(),
                from_name: who.name.clone(),
                game: row.id.clone(),
                link: crate::lobby::info(&row).invite,
            };
            self.platform.notify(player, notice.clone());
            self.shout(Shout::Invite { to: player.to_string(), notice });
        }
        Ok(json!({ "invited": player }))
    }

    /// Whether someone seated at a game (or its creator) blocks `who`: then `who`'s chat lines
    /// are not sent there.
    pub(crate) async fn blocked_at(&self, row: &GameRow, who: &str) -> bool {
        let Some(acc) = self.store.accounts() else { return false };
        let mut at: Vec<String> = row
            .seats
            .iter()
            .filter_map(|s| match s {
                SeatOwner::Human { identity, .. } => Some(identity.clone()),
                _ => None,
            })
            .collect();
        at.push(row.creator.clone());
        acc.blockers(who, &at).await.is_ok_and(|b| !b.is_empty())
    }
}

fn no_player() -> ApiError {
    ApiError::BadRequest("no_such_player", "no such player".into())
}

/// The account and player routes (docs/protocol.md "Accounts and players").
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/account", get(me).post(claim))
        .route("/api/account/name", post(rename))
        .route("/api/account/delete", post(delete))
        .route("/api/session", post(sign_in))
        .route("/api/session/end", post(sign_out))
        .route("/api/players", get(search))
        .route("/api/players/{id}", get(profile))
        .route("/api/players/{id}/games", get(player_games))
        .route("/api/players/{id}/history", get(history))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/me/games", get(my_games))
        .route("/api/follows", get(follows).post(follow))
        .route("/api/blocks", get(blocks).post(block))
        .route("/api/invites", post(invite))
        .route("/api/notices", get(notices))
}

type AppState = State<Arc<Shared>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

async fn claim(
    State(s): AppState,
    Caller(who): Caller,
    Body(c): Body<Credentials>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((StatusCode::CREATED, Json(s.claim(&who, &c.username, &c.password).await?)))
}

async fn me(State(s): AppState, Caller(who): Caller) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.me(&who).await?))
}

async fn sign_in(
    State(s): AppState,
    Peer(peer): Peer,
    Body(c): Body<Credentials>,
) -> Result<Response, ApiError> {
    let g = s.sign_in(peer, &c.username, &c.password).await?;
    let headers = crate::http::cookie(&s, &g.token, s.config.token_ttl.as_secs());
    Ok((headers, Json(g)).into_response())
}

async fn sign_out(
    State(s): AppState,
    headers: HeaderMap,
    Caller(_): Caller,
) -> Result<Response, ApiError> {
    let token = crate::http::token_in(&headers).ok_or(ApiError::Unauthorized)?;
    let n = s.sign_out(&token).await?;
    let headers = crate::http::cookie(&s, "", 0);
    Ok((headers, Json(json!({ "ended": n }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameBody {
    name: String,
}

async fn rename(
    State(s): AppState,
    Caller(who): Caller,
    Body(b): Body<NameBody>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.rename(&who, &b.name).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordBody {
    password: String,
}

async fn delete(
    State(s): AppState,
    Caller(who): Caller,
    Body(b): Body<PasswordBody>,
) -> Result<Response, ApiError> {
    let v = s.delete_account(&who, &b.password).await?;
    Ok((crate::http::cookie(&s, "", 0), Json(v)).into_response())
}

fn query<T: serde::de::DeserializeOwned>(uri: &axum::http::Uri) -> Result<T, ApiError> {
    let Query(q) =
        Query::try_from_uri(uri).map_err(|e| ApiError::bad("bad_query", e.body_text()))?;
    Ok(q)
}

fn page_limit(limit: Option<u32>) -> Result<u32, ApiError> {
    let limit = limit.unwrap_or(PAGE.0);
    if !(1..=PAGE.1).contains(&limit) {
        return Err(ApiError::bad("bad_query", format!("limit is 1 to {}", PAGE.1)));
    }
    Ok(limit)
}

#[derive(Deserialize)]
struct SearchQuery {
    prefix: String,
    limit: Option<u32>,
}

async fn search(State(s): AppState, uri: axum::http::Uri) -> Result<Json<Value>, ApiError> {
    let q: SearchQuery = query(&uri)?;
    let n = q.prefix.chars().count();
    if n < SEARCH_PREFIX.0 || n > SEARCH_PREFIX.1 {
        return Err(ApiError::bad(
            "bad_query",
            format!("prefix has {} to {} characters", SEARCH_PREFIX.0, SEARCH_PREFIX.1),
        ));
    }
    let limit = q.limit.unwrap_or(10);
    if !(1..=SEARCH_LIMIT).contains(&limit) {
        return Err(ApiError::bad("bad_query", format!("limit is 1 to {SEARCH_LIMIT}")));
    }
    let found = s.acc()?.search(&q.prefix, limit).await?;
    Ok(Json(json!({ "players": found })))
}

async fn profile(
    State(s): AppState,
    Path(id): Path<String>,
    MaybeCaller(who): MaybeCaller,
) -> Result<Json<Value>, ApiError> {
    if id.len() > 64 {
        return Err(no_player());
    }
    let mut v = s.profile(&id).await?;
    if let (Some(w), Value::Object(m)) = (who, &mut v) {
        let acc = s.acc()?;
        let follows = acc.follows(&w.id, FOLLOWS_CAP).await?;
        let blocks = acc.blocks(&w.id, FOLLOWS_CAP).await?;
        m.insert("following".into(), json!(follows.iter().any(|(p, _)| *p == id)));
        m.insert("blocked".into(), json!(blocks.iter().any(|(p, _)| *p == id)));
        m.insert("me".into(), json!(w.id == id));
    }
    Ok(Json(v))
}

#[derive(Deserialize)]
struct GamesQuery {
    limit: Option<u32>,
    before: Option<String>,
}

async fn player_games(
    State(s): AppState,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<Value>, ApiError> {
    let q: GamesQuery = query(&uri)?;
    let limit = page_limit(q.limit)?;
    let before = crate::http::before_cursor(q.before.as_deref(), "`next`")?;
    let (games, next) = s.player_games(&id, before, limit).await?;
    Ok(Json(json!({ "games": games, "next": next })))
}

#[derive(Deserialize)]
struct HistoryQuery {
    game: String,
    limit: Option<u32>,
}

async fn history(
    State(s): AppState,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<Value>, ApiError> {
    let q: HistoryQuery = query(&uri)?;
    let limit = page_limit(q.limit)?;
    if s.registry.get(&q.game).is_none() {
        return Err(ApiError::bad("unknown_game", format!("unknown game {:?}", q.game)));
    }
    let points = s.acc()?.history(&id, &q.game, limit).await?;
    Ok(Json(json!({ "game": q.game, "points": points })))
}

#[derive(Deserialize)]
struct BoardQuery {
    limit: Option<u32>,
    offset: Option<u32>,
}

async fn leaderboard(
    State(s): AppState,
    Path(game): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<Value>, ApiError> {
    let q: BoardQuery = query(&uri)?;
    let limit = page_limit(q.limit)?;
    let offset = q.offset.unwrap_or(0);
    if offset > MAX_OFFSET {
        return Err(ApiError::bad("bad_query", format!("offset is at most {MAX_OFFSET}")));
    }
    if s.registry.get(&game).is_none() {
        return Err(ApiError::bad("unknown_game", format!("unknown game {game:?}")));
    }
    let rows = s.acc()?.leaderboard(&game, offset, limit).await?;
    let next =
        (rows.len() == limit as usize && offset + limit <= MAX_OFFSET).then_some(offset + limit);
    Ok(Json(json!({ "game": game, "offset": offset, "players": rows, "next_offset": next })))
}

/// Which of the caller's games "my games" lists (`GET /api/me/games?filter=…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MyGames {
    /// Open and running games (the default).
    #[default]
    Ongoing,
    /// Running turn-based games, with their clocks (`per_move_secs`, `due_ms`, `waiting`).
    TurnBased,
    /// Finished games, the newest first.
    Finished,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MyGamesQuery {
    #[serde(default)]
    filter: MyGames,
    /// Only the games where the caller owes a decision now.
    #[serde(default)]
    your_move: bool,
}

/// `GET /api/me/games[?filter=ongoing|turn-based|finished][&your_move=true]`: the one "my
/// games" list (docs/platform.md "My games"); `GET /api/turns` is its alias for
/// `filter=turn-based`. Answers `{"games": […], "your_move": n}` (n counts the games where
/// it is the caller's move, before `your_move=true` leaves the others out).
pub(crate) async fn my_games(
    State(s): AppState,
    Caller(who): Caller,
    uri: axum::http::Uri,
) -> Result<Json<Value>, ApiError> {
    let q: MyGamesQuery = query(&uri)?;
    my_games_answer(&s, &who, q.filter, q.your_move).await
}

pub(crate) async fn my_games_answer(
    s: &Shared,
    who: &Identity,
    filter: MyGames,
    only_your_move: bool,
) -> Result<Json<Value>, ApiError> {
    let mut games = s.my_games(who, filter).await?;
    let n = games.iter().filter(|g| g["your_move"] == true).count();
    if only_your_move {
        games.retain(|g| g["your_move"] == true);
    }
    Ok(Json(json!({ "games": games, "your_move": n })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Toggle {
    player: String,
    #[serde(default = "yes")]
    on: bool,
}

fn yes() -> bool {
    true
}

async fn follow(
    State(s): AppState,
    Caller(who): Caller,
    Body(t): Body<Toggle>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.set_follow(&who, &t.player, t.on).await?))
}

async fn follows(State(s): AppState, Caller(who): Caller) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.follows(&who).await?))
}

async fn block(
    State(s): AppState,
    Caller(who): Caller,
    Body(t): Body<Toggle>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.set_block(&who, &t.player, t.on).await?))
}

async fn blocks(State(s): AppState, Caller(who): Caller) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.blocks(&who).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InviteBody {
    player: String,
    game: String,
}

async fn invite(
    State(s): AppState,
    Caller(who): Caller,
    Body(b): Body<InviteBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((StatusCode::ACCEPTED, Json(s.invite(&who, &b.player, &b.game).await?)))
}

async fn notices(State(s): AppState, Caller(who): Caller) -> Json<Value> {
    Json(json!({ "notices": s.platform.notices(&who.id) }))
}

/// A game socket's identity is online while it is open.
pub fn online_guard(shared: &Arc<Shared>, who: &str) -> OnlineGuard {
    *lock(&shared.platform.sockets).entry(who.to_string()).or_insert(0) += 1;
    if shared.platform.seen(who) {
        shared.shout(Shout::Seen { who: vec![who.to_string()] });
    }
    OnlineGuard { shared: shared.clone(), id: who.to_string() }
}

/// What one node of a cluster tells the others on Redis' `notice` channel (docs/deployment.md
/// "What the nodes share"): every node applies it to what it keeps in memory.
#[derive(Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Shout {
    /// A Bot API event for `to`'s event streams (`challenges::Events`).
    Event { to: String, event: Value },
    /// An invitation in `to`'s lobby notices.
    Invite { to: String, notice: Notice },
    /// These identities are here (a request, or a game socket open on the sending node).
    Seen { who: Vec<String> },
    /// Who owes a decision in `game` now ("your move"), from the game's owner.
    Waiting { game: String, who: Vec<String> },
}

#[derive(Serialize, Deserialize)]
struct Shouted {
    o: String,
    #[serde(flatten)]
    s: Shout,
}

impl Shared {
    /// Tell the other nodes (nothing without Redis).
    pub(crate) fn shout(&self, s: Shout) {
        if let Some(bus) = self.bus.get()
            && let Ok(json) = serde_json::to_string(&Shouted { o: bus.origin.clone(), s })
        {
            bus.publish(bus.key("notice"), json);
        }
    }

    /// A Bot API event for `to`, on this node's streams and every other node's.
    pub(crate) fn notify_event(&self, to: &str, event: Value) {
        self.events.notify(to, event.clone());
        self.shout(Shout::Event { to: to.to_string(), event });
    }

    /// A running game's seats owing a decision now, on every node ("your move").
    pub(crate) fn note_waiting(&self, game: &str, seats: &[SeatOwner], waiting: &[u8]) {
        if let Some(who) = self.platform.note_waiting(game, seats, waiting) {
            self.shout(Shout::Waiting { game: game.to_string(), who });
        }
    }

    /// Every [`SHOUT_SEEN`], the identities with a game socket open here, to the other nodes.
    pub(crate) async fn shout_sockets(self: Arc<Self>) {
        let mut stop = self.shutdown.clone();
        let mut tick = tokio::time::interval(SHOUT_SEEN);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let all = self.platform.with_sockets();
                    for chunk in all.chunks(1000) {
                        self.shout(Shout::Seen { who: chunk.to_vec() });
                    }
                }
                _ = crate::stopped(&mut stop) => return,
            }
        }
    }
}

/// A message of the `notice` channel (`fanout::dispatch`).
pub(crate) fn on_notice(shared: &Arc<Shared>, payload: &str) {
    let Some(bus) = shared.bus.get() else { return };
    let Ok(m) = serde_json::from_str::<Shouted>(payload) else { return };
    if m.o == bus.origin {
        return;
    }
    match m.s {
        Shout::Event { to, event } => shared.events.notify(&to, event),
        Shout::Invite { to, notice } => shared.platform.notify(&to, notice),
        Shout::Seen { who } => {
            let now = Instant::now();
            for w in who.iter().take(1000) {
                shared.platform.seen_at(w, now);
            }
        }
        Shout::Waiting { game, who } => {
            shared.platform.set_waiting(&game, who);
        }
    }
}
