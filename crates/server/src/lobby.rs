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
    pub async fn guest(&self, name: &str) -> Result<GuestResponse, ApiError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(ApiError::bad("bad_name", "a name has 1 to 40 characters"));
        }
        let id = random_hex(8)?;
        let token = random_hex(24)?;
        self.store.create_identity(&id, name, &token).await?;
        Ok(GuestResponse { id, name: name.to_string(), token })
    }

    pub async fn identity(&self, token: &str) -> Result<Option<Identity>, ApiError> {
        if token.len() > 128 {
            return Ok(None);
        }
        Ok(self.store.identity_by_token(token).await?)
    }

    pub async fn create_game(
        self: &Arc<Self>,
        who: &Identity,
        req: CreateGame,
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
            options: req.options.clone(),
        };
        let setup = kind.make_setup(&setup_req).map_err(|e| ApiError::bad("bad_setup", e))?;
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
        };
        let full = !row.seats.contains(&SeatOwner::Open);
        if full {
            row.status = Status::Running;
        }
        self.store.insert_game(&row).await?;
        self.metrics.games_created.fetch_add(1, Relaxed);
        tracing::info!(game = %row.id, kind = %row.game, seats = row.seats.len(), "game created");
        if full {
            self.room(&row.id).await?;
        }
        Ok(info(&row))
    }

    /// A bot's budget within the server's ceilings (`Config::max_bot_ms`,
    /// `Config::max_bot_simulations`), or `bot_too_strong`.
    pub fn check_bot(&self, spec: &bots::BotSpec) -> Result<(), ApiError> {
        let c = &self.config;
        let too = match *spec {
            bots::BotSpec::Search { simulations } if simulations > c.max_bot_simulations => {
                format!("{simulations} simulations per decision",)
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
        row.seats[seat] = SeatOwner::Human { identity: who.id.clone(), name: who.name.clone() };
        if !row.seats.contains(&SeatOwner::Open) {
            row.status = Status::Running;
        }
        self.store.update_game(&row.id, &row.seats, row.status).await?;
        if row.status == Status::Running {
            self.room(&row.id).await?;
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
        self.store.update_game(&row.id, &row.seats, row.status).await?;
        self.room(&row.id).await?;
        Ok(info(&row))
    }

    pub async fn game_info(&self, id: &str) -> Result<GameInfo, ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        Ok(info(&row))
    }

    pub async fn list(&self, status: Option<Status>) -> Result<Vec<GameInfo>, ApiError> {
        Ok(self.store.games(status, 200).await?.iter().map(info).collect())
    }

    /// A finished game's record and its final omniscient view.
    pub async fn replay(&self, id: &str) -> Result<Value, ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        if row.status != Status::Finished {
            return Err(ApiError::conflict("not_finished", "replays are for finished games"));
        }
        let log = self.store.log(id).await?;
        let game = self.load_game(&row, &log)?;
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
            })
            .collect(),
        invite: format!("/games/{}", row.id),
        timer_secs: row.timer_secs,
        outcome: row.outcome.clone(),
        practice: row.practice,
    }
}
