//! The lobby: guest identities, creating, joining and starting games, lists and replays.
//! HTTP handlers (`http.rs`) are thin wrappers around these functions.

use crate::Shared;
use crate::error::ApiError;
use crate::store::{GameRow, Identity, SeatOwner, Status};
use protocol::{CreateGame, GameInfo, GuestResponse, JoinGame, SeatInfo};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

/// A game's seed from the operating system's generator.
pub fn random_seed() -> Result<u64, ApiError> {
    getrandom::u64().map_err(|e| ApiError::Internal(format!("no randomness: {e}")))
}

/// A random hex string of `bytes` bytes from the operating system's generator.
pub fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut b = vec![0u8; bytes];
    getrandom::fill(&mut b).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

impl Shared {
    /// A lobby write: refused at once while storage backs off; a failure starts a backoff.
    pub(crate) async fn write<T>(
        &self,
        f: impl std::future::Future<Output = Result<T, crate::store::StoreError>>,
    ) -> Result<T, ApiError> {
        if self.faults.backing_off().is_some() {
            self.faults.storage_refused.fetch_add(1, Relaxed);
            return Err(ApiError::StorageUnavailable);
        }
        match f.await {
            Ok(t) => {
                self.faults.write_ok();
                Ok(t)
            }
            Err(e @ crate::store::StoreError::Db(_))
            | Err(e @ crate::store::StoreError::Closed) => {
                self.faults.write_failed(&e);
                Err(ApiError::Store(e))
            }
            Err(e) => Err(e.into()),
        }
    }

    pub async fn guest(&self, name: &str) -> Result<GuestResponse, ApiError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(ApiError::bad("bad_name", "a name has 1 to 40 characters"));
        }
        let id = random_hex(8)?;
        let token = random_hex(24)?;
        self.write(self.store.create_identity(&id, name, &token)).await?;
        Ok(GuestResponse { id, name: name.to_string(), token })
    }

    /// The identity a token stands for, if the token is known and has not expired.
    pub async fn identity(&self, token: &str) -> Result<Option<Identity>, ApiError> {
        if token.len() > 128 {
            return Ok(None);
        }
        let Some(who) = self.store.identity_by_token(token).await? else { return Ok(None) };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let ttl = i64::try_from(self.config.token_ttl.as_secs()).unwrap_or(i64::MAX);
        if now >= who.issued_at.saturating_add(ttl) {
            tracing::debug!(identity = %who.id, "expired token refused");
            return Ok(None);
        }
        Ok(Some(who))
    }

    /// "Log out everywhere": every token of the identity stops working. Returns how many.
    pub async fn revoke_all(&self, who: &Identity) -> Result<u64, ApiError> {
        let n = self.write(self.store.revoke_tokens(&who.id)).await?;
        tracing::info!(identity = %who.id, tokens = n, "logged out everywhere");
        Ok(n)
    }

    pub async fn create_game(
        self: &Arc<Self>,
        who: &Identity,
        req: CreateGame,
    ) -> Result<GameInfo, ApiError> {
        self.create_game_with(who, req, None, None).await
    }

    /// [`Self::create_game`] with a turn-based `clock` (`crate::turns`) and, for an accepted
    /// challenge (`crate::challenges`), the `opponent` who takes the seats that say `"you"`.
    pub async fn create_game_with(
        self: &Arc<Self>,
        who: &Identity,
        req: CreateGame,
        clock: Option<crate::turns::ClockSpec>,
        opponent: Option<&Identity>,
    ) -> Result<GameInfo, ApiError> {
        let kind = self.registry.get(&req.game).ok_or_else(|| {
            ApiError::bad(
                "unknown_game",
                format!("unknown game {:?} (known: {:?})", req.game, self.registry.names()),
            )
        })?;
        let mut seats = Vec::new();
        for s in &req.seats {
            seats.push(match s.as_str() {
                "open" => SeatOwner::Open,
                "me" if !seats
                    .iter()
                    .any(|o| matches!(o, SeatOwner::Human { identity, .. } if *identity == who.id)) =>
                {
                    SeatOwner::Human { identity: who.id.clone(), name: who.name.clone() }
                }
                "you" if opponent.is_some_and(|o| !seats.iter().any(
                    |s| matches!(s, SeatOwner::Human { identity, .. } if *identity == o.id),
                )) =>
                {
                    let o = opponent.expect("checked");
                    SeatOwner::Human { identity: o.id.clone(), name: o.name.clone() }
                }
                other => match other.strip_prefix("bot:") {
                    Some(spec) => {
                        let spec: bots::BotSpec = spec.parse().map_err(|e: String| ApiError::bad("bad_seat", e))?;
                        self.check_bot(&spec)?;
                        SeatOwner::Bot { spec: spec.to_string() }
                    }
                    None => {
                        return Err(ApiError::bad(
                            "bad_seat",
                            format!("a seat is \"open\", \"me\" (once) or \"bot:STRENGTH\", not {other:?}"),
                        ));
                    }
                },
            });
        }
        let setup_req = crate::games::SetupRequest {
            players: seats.len(),
            board: req.board.clone(),
            variants: req.variants.clone(),
            options: timer_into_options(
                kind.info.timer_option,
                req.options.clone(),
                req.timer_secs,
            )?,
        };
        let setup = match req.board.as_deref().and_then(crate::boards::saved_ref) {
            // A saved board (`crate::boards`): its text goes into the setup, so that the game
            // keeps the exact version it was made on.
            Some(r) => {
                let (id, version) = r?;
                let row = self.saved_board_text(kind.name(), &id, version).await?;
                let req = crate::games::SetupRequest { board: None, ..setup_req };
                kind.make_setup_on_board(&req, &row.text)
            }
            None => kind.make_setup(&setup_req),
        }
        .map_err(|e| ApiError::bad("bad_setup", e))?;
        let max = self.config.limits.max_setup_bytes;
        if setup.to_string().len() > max {
            return Err(ApiError::bad(
                "setup_too_large",
                format!("a game's setup (its board included) is at most {max} bytes"),
            ));
        }
        let cap = self.config.limits.open_games_per_identity;
        if cap > 0 && self.store.open_games_of(&who.id).await? >= u64::from(cap) {
            self.metrics.quota_refused.fetch_add(1, Relaxed);
            return Err(ApiError::TooMany(
                "too_many_open_games",
                format!("at most {cap} of your games may be open or running at once"),
                None,
            ));
        }
        // Fair chance: the seed of a normal game comes from the operating system; a chosen seed
        // is for practice games only (marked as such to everyone, never rated).
        let seed = match (req.seed, req.practice) {
            (Some(s), true) => s,
            (Some(_), false) => {
                return Err(ApiError::bad(
                    "seed_not_allowed",
                    "only a practice game (\"practice\": true) may choose its seed",
                ));
            }
            (None, _) => random_seed()?,
        };
        let mut row = GameRow {
            id: random_hex(8)?,
            game: kind.name().to_string(),
            setup,
            seed,
            seats,
            status: Status::Open,
            timer_secs: req.timer_secs.filter(|&t| t > 0),
            creator: who.id.clone(),
            outcome: None,
            practice: req.practice,
            rules_version: kind.info.rules_version,
        };
        let full = !row.seats.contains(&SeatOwner::Open);
        if full {
            row.status = Status::Running;
        }
        self.write(self.store.insert_game(&row)).await?;
        if let Some(c) = clock {
            self.store_clock(&row.id, c).await?;
        }
        self.lobby_changed();
        self.metrics.games_created.fetch_add(1, Relaxed);
        tracing::info!(game = %row.id, kind = %row.game, seats = row.seats.len(), "game created");
        if full {
            self.ensure_room(&row.id).await?;
        }
        Ok(info(&row))
    }

    /// `GET /api/lessons`: the lessons of the games this server offers, per game in order
    /// (docs/lessons.md).
    pub fn lessons(&self) -> Value {
        let games: Vec<Value> = scenario::lessons::games_with_lessons()
            .into_iter()
            .filter_map(|g| self.registry.get(g))
            .map(|kind| {
                let lessons: Vec<Value> =
                    scenario::lessons::of_game(kind.name()).iter().map(|l| l.summary()).collect();
                json!({ "game": kind.name(), "title": kind.info.title, "lessons": lessons })
            })
            .collect();
        json!({ "v": protocol::VERSION, "games": games })
    }

    /// `POST /api/lessons/{game}/{n}`: lesson `n` (1-based) of `game` as a practice game: the
    /// lesson's setup and seed (fixed by its file: a teaching position), the caller in the
    /// lesson's seat and its bots in the others; started at once. Never rated. An unknown game
    /// or number is `no_such_lesson` (404).
    pub async fn create_lesson_game(
        self: &Arc<Self>,
        who: &Identity,
        game: &str,
        number: usize,
    ) -> Result<GameInfo, ApiError> {
        let lesson = match self.registry.get(game) {
            Some(_) => scenario::lessons::get(game, number),
            None => Err(scenario::lessons::LessonError::UnknownGame(game.to_string())),
        }
        .map_err(|e| ApiError::Missing("no_such_lesson", e.to_string()))?;
        let kind = self.registry.get(game).expect("checked above");
        let cap = self.config.limits.open_games_per_identity;
        if cap > 0 && self.store.open_games_of(&who.id).await? >= u64::from(cap) {
            self.metrics.quota_refused.fetch_add(1, Relaxed);
            return Err(ApiError::TooMany(
                "too_many_open_games",
                format!("at most {cap} of your games may be open or running at once"),
                None,
            ));
        }
        let players = kind.start(&lesson.setup, lesson.seed).map_err(ApiError::Unreadable)?.seats();
        let seats = (0..players)
            .map(|i| {
                if i == usize::from(lesson.seat.0) {
                    SeatOwner::Human { identity: who.id.clone(), name: who.name.clone() }
                } else {
                    SeatOwner::Bot { spec: lesson.bots.clone() }
                }
            })
            .collect();
        let row = GameRow {
            id: random_hex(8)?,
            game: kind.name().to_string(),
            setup: lesson.setup.clone(),
            seed: lesson.seed,
            seats,
            status: Status::Running,
            timer_secs: None,
            creator: who.id.clone(),
            outcome: None,
            practice: true,
            rules_version: kind.info.rules_version,
        };
        self.write(self.store.insert_game(&row)).await?;
        self.lobby_changed();
        self.metrics.games_created.fetch_add(1, Relaxed);
        tracing::info!(game = %row.id, kind = %row.game, lesson = number, "lesson started");
        self.ensure_room(&row.id).await?;
        Ok(info(&row))
    }

    /// A bot's budget within the server's ceilings (`Config::max_bot_ms`,
    /// `Config::max_bot_simulations`), or `bot_too_strong`.
    pub fn check_bot(&self, spec: &bots::BotSpec) -> Result<(), ApiError> {
        let c = &self.config;
        let too = match *spec {
            bots::BotSpec::Search { simulations, .. } if simulations > c.max_bot_simulations => {
                format!("{simulations} simulations per decision",)
            }
            // The server's bot workers are its budget of cores: a bot thinks on one of them.
            bots::BotSpec::Search { threads, .. } if threads > 1 => {
                format!("{threads} threads per decision (a server's bots think on one thread)")
            }
            bots::BotSpec::SearchFor { millis } if u64::from(millis) > c.max_bot_ms => {
                format!("{millis} ms per decision")
            }
            _ => return Ok(()),
        };
        Err(ApiError::bad(
            "bot_too_strong",
            format!(
                "bot {spec} asks for {too}; this server allows at most search:{} or search:{}ms",
                c.max_bot_simulations, c.max_bot_ms
            ),
        ))
    }

    pub async fn join(
        self: &Arc<Self>,
        who: &Identity,
        id: &str,
        req: JoinGame,
    ) -> Result<GameInfo, ApiError> {
        let _lobby = self.lobby_lock.lock().await;
        let mut row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        if row
            .seats
            .iter()
            .any(|s| matches!(s, SeatOwner::Human { identity, .. } if *identity == who.id))
        {
            return Ok(info(&row)); // already seated: joining again changes nothing
        }
        if row.status != Status::Open {
            return Err(ApiError::conflict("not_open", "the game has already started"));
        }
        let seat = match req.seat {
            Some(s) => {
                let s = s as usize;
                match row.seats.get(s) {
                    None => {
                        return Err(ApiError::bad(
                            "no_such_seat",
                            format!("the game has {} seats", row.seats.len()),
                        ));
                    }
                    Some(SeatOwner::Open) => s,
                    Some(_) => return Err(ApiError::conflict("seat_taken", "that seat is taken")),
                }
            }
            None => row
                .seats
                .iter()
                .position(|s| *s == SeatOwner::Open)
                .ok_or_else(|| ApiError::conflict("seat_taken", "every seat is taken"))?,
        };
        let name = match req.name.as_deref().map(str::trim) {
            None => who.name.clone(),
            Some(n) if !n.is_empty() && n.chars().count() <= 40 => n.to_string(),
            Some(_) => return Err(ApiError::bad("bad_name", "a name has 1 to 40 characters")),
        };
        row.seats[seat] = SeatOwner::Human { identity: who.id.clone(), name };
        if !row.seats.contains(&SeatOwner::Open) {
            row.status = Status::Running;
        }
        self.write(self.store.update_game(&row.id, &row.seats, row.status)).await?;
        self.lobby_changed();
        if row.status == Status::Running {
            self.ensure_room(&row.id).await?;
        }
        Ok(info(&row))
    }

    /// Start now: the creator only; seats still open are given to random bots.
    pub async fn start(self: &Arc<Self>, who: &Identity, id: &str) -> Result<GameInfo, ApiError> {
        let _lobby = self.lobby_lock.lock().await;
        let mut row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        if row.creator != who.id {
            return Err(ApiError::Forbidden("only the game's creator can start it".into()));
        }
        if row.status != Status::Open {
            return Ok(info(&row));
        }
        for s in row.seats.iter_mut().filter(|s| **s == SeatOwner::Open) {
            *s = SeatOwner::Bot { spec: "random".into() };
        }
        row.status = Status::Running;
        self.write(self.store.update_game(&row.id, &row.seats, row.status)).await?;
        self.lobby_changed();
        self.ensure_room(&row.id).await?;
        Ok(info(&row))
    }

    /// One game as the lobby shows it, with its setup (what an invited player reads before
    /// joining).
    pub async fn game_info(&self, id: &str) -> Result<GameInfo, ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        Ok(GameInfo { setup: Some(row.setup.clone()), ..info(&row) })
    }

    /// Leave a game (docs/protocol.md "Resign and leave"). An open game: the seat is free again.
    /// A running game: the player resigns; a random bot plays the seat to the end, the seat
    /// shows `resigned` in the game's record, and the player watches from then on. A finished
    /// game cannot be left (`game_over`).
    pub async fn leave(self: &Arc<Self>, who: &Identity, id: &str) -> Result<GameInfo, ApiError> {
        let _lobby = self.lobby_lock.lock().await;
        let mut row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        let seat = row
            .seats
            .iter()
            .position(|s| matches!(s, SeatOwner::Human { identity, .. } if *identity == who.id))
            .ok_or_else(|| ApiError::conflict("not_seated", "you hold no seat in this game"))?;
        match row.status {
            Status::Finished => {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            Status::Open => row.seats[seat] = SeatOwner::Open,
            Status::Running => {
                if let Some(SeatOwner::Human { identity, name }) = row.seats.get(seat).cloned() {
                    row.seats[seat] = SeatOwner::Resigned { identity, name };
                }
            }
        }
        // A cluster node runs the game (taking it over if no node holds it) before anything is
        // stored, or answers `owned_elsewhere` with nothing changed: the route forwards the
        // request to the owner, whose task must apply it (docs/deployment.md "Forwarding").
        let room = match row.status {
            Status::Running if self.node.get().is_some() => Some(self.room(&row.id).await?),
            _ => None,
        };
        self.write(self.store.update_game(&row.id, &row.seats, row.status)).await?;
        self.lobby_changed();
        if row.status == Status::Running {
            let room = match room {
                Some(room) => room,
                None => self.room(&row.id).await?,
            };
            let seat = engine::Seat(seat as u8);
            let _ = room.tx.send(crate::room::Cmd::Resign { seat }).await;
        }
        tracing::info!(game = %row.id, seat, status = row.status.as_str(), "a player left");
        Ok(info(&row))
    }

    /// The rematch of a finished game (`room`, once every player accepted): the same game,
    /// setup, seats (players, bots; a resigned player's seat is open again), timer and practice
    /// mark, a fresh seed from the operating system. Running at once unless a seat is open.
    pub(crate) async fn create_rematch(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let old = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        let seats: Vec<SeatOwner> = old
            .seats
            .iter()
            .map(|s| match s {
                SeatOwner::Resigned { .. } => SeatOwner::Open,
                other => other.clone(),
            })
            .collect();
        let full = !seats.contains(&SeatOwner::Open);
        // A rematch is played under this server's rules, whatever the first game's were.
        let rules_version =
            self.registry.get(&old.game).map_or(old.rules_version, |k| k.info.rules_version);
        let row = GameRow {
            id: random_hex(8)?,
            seed: random_seed()?,
            seats,
            status: if full { Status::Running } else { Status::Open },
            outcome: None,
            rules_version,
            ..old
        };
        self.write(self.store.insert_game(&row)).await?;
        // A turn-based game's rematch is turn-based too, with the same clock.
        if let Some(c) = self.store.platform().turn_clock(id).await? {
            let clock = crate::turns::ClockSpec { per_move_secs: c.per_move_secs };
            self.store_clock(&row.id, clock).await?;
        }
        self.lobby_changed();
        self.metrics.games_created.fetch_add(1, Relaxed);
        tracing::info!(game = %row.id, rematch_of = %id, "rematch created");
        if full {
            self.ensure_room(&row.id).await?;
        }
        Ok(row.id)
    }

    /// A lobby entry changed: lists answered before are stale (their ETag no longer matches).
    pub fn lobby_changed(&self) {
        self.lobby_version.fetch_add(1, Relaxed);
    }

    /// One page of the lobby, newest first: games of `status` created before `before`, and the
    /// cursor of the next page if there may be one. Without a status: the newest `limit` open,
    /// running and finished games (three indexed queries), no cursor. Rows that cannot be read,
    /// and games of a kind this server does not know, are left out (and reported in
    /// `/healthz`), never an error for everybody.
    pub async fn list(
        &self,
        status: Option<Status>,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> Result<(Vec<GameInfo>, Option<String>), ApiError> {
        let skipped = self.faults.skipped();
        let listable = |r: &GameRow| {
            if skipped.contains_key(&r.id) {
                return false;
            }
            let known = self.registry.get(&r.game).is_some();
            if !known {
                self.faults.skip(&r.id, &format!("unknown game kind {:?}", r.game));
            }
            known
        };
        let Some(status) = status else {
            let mut out = Vec::new();
            for s in [Status::Open, Status::Running, Status::Finished] {
                let rows = self.store.lobby(s, None, limit).await?;
                out.extend(rows.iter().filter(|(g, _)| listable(g)).map(|(g, _)| info(g)));
            }
            return Ok((out, None));
        };
        let rows = self
            .store
            .lobby(status, before.as_ref().map(|(t, id)| (*t, id.as_str())), limit)
            .await?;
        let next = (rows.len() == limit as usize)
            .then(|| rows.last().map(|(g, t)| format!("{t}.{}", g.id)))
            .flatten();
        Ok((rows.iter().filter(|(g, _)| listable(g)).map(|(g, _)| info(g)).collect(), next))
    }

    /// A finished game's record and its final omniscient view.
    pub async fn replay(&self, id: &str) -> Result<Value, ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        if row.status != Status::Finished {
            return Err(ApiError::conflict("not_finished", "replays are for finished games"));
        }
        if let Some(kind) = self.registry.get(&row.game) {
            crate::same_rules(kind, &row)?;
        }
        let log = self.store.log(id).await.map_err(|e| self.unreadable(id, e))?;
        let game = self.load_game(&row, &log).inspect_err(|e| self.note_unreadable(id, e))?;
        Ok(json!({
            "v": protocol::VERSION,
            "id": row.id,
            "game": row.game,
            "setup": row.setup,
            "seed": row.seed,
            "practice": row.practice,
            "seats": info(&row).seats,
            "log": log,
            "outcome": row.outcome,
            "final": game.view_json(engine::Observer::Omniscient),
            "static": serde_json::from_str::<Value>(&game.static_text()).unwrap_or(Value::Null),
        }))
    }
}

pub(crate) fn info(row: &GameRow) -> GameInfo {
    GameInfo {
        id: row.id.clone(),
        game: row.game.clone(),
        status: row.status.as_str().to_string(),
        seats: row
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                SeatOwner::Open => {
                    SeatInfo { seat: i as u8, kind: "open".into(), name: None, bot: None }
                }
                SeatOwner::Human { name, .. } => SeatInfo {
                    seat: i as u8,
                    kind: "human".into(),
                    name: Some(name.clone()),
                    bot: None,
                },
                SeatOwner::Bot { spec } => SeatInfo {
                    seat: i as u8,
                    kind: "bot".into(),
                    name: None,
                    bot: Some(spec.clone()),
                },
                SeatOwner::Resigned { name, .. } => SeatInfo {
                    seat: i as u8,
                    kind: "resigned".into(),
                    name: Some(name.clone()),
                    bot: Some("random".into()),
                },
            })
            .collect(),
        invite: format!("/games/{}", row.id),
        timer_secs: row.timer_secs,
        outcome: row.outcome.clone(),
        practice: row.practice,
        setup: None,
    }
}

/// A game whose timer is a rule (`Info::timer_option`, RoboRally's hourglass) gets the lobby's
/// timer in its setup: one setting, the game's (absent: 0, no timer). Other games' options
/// are left as they are (their timer is the server's).
fn timer_into_options(
    key: Option<&'static str>,
    options: Option<serde_json::Value>,
    timer_secs: Option<u32>,
) -> Result<Option<serde_json::Value>, ApiError> {
    let Some(key) = key else { return Ok(options) };
    let mut options = options.unwrap_or_else(|| serde_json::json!({}));
    let Some(map) = options.as_object_mut() else {
        return Err(ApiError::bad("bad_setup", "options: an object"));
    };
    if map.contains_key(key) {
        return Err(ApiError::bad(
            "bad_setup",
            format!("options.{key}: the game's timer is set by timer_secs, once"),
        ));
    }
    map.insert(key.into(), serde_json::Value::from(timer_secs.unwrap_or(0)));
    Ok(Some(options))
}
