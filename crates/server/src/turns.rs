//! Turn-based (correspondence) games (docs/platform.md "Turn-based clocks"): a game created
//! with `"clock": {"per_move_secs": N}` gives every decision N seconds (hours or days), per
//! player: each seat that owes a decision has until the deadline; when it passes, the engine's
//! `time_up` decides for whoever still owes (the same timeout policy as a real-time game's
//! timer). The deadline and who owes the decision are stored (`platform_store::TurnClock`),
//! so a restart keeps them, and `GET /api/turns` lists the caller's turn-based games and
//! where it is their move.
//!
//! A player of a turn-based game is expected to be away: no bot stands in after the grace
//! period (that is for real-time games); only the clock decides for them.

use crate::Shared;
use crate::error::ApiError;
use crate::platform_store::TurnClock;
use crate::store::{Identity, SeatOwner};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The shortest and longest time per decision of a turn-based game (5 minutes, 14 days).
pub const PER_MOVE_SECS: (u32, u32) = (300, 14 * 24 * 3600);

/// `clock` of a lobby request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub per_move_secs: u32,
}

impl ClockSpec {
    pub fn check(&self) -> Result<(), ApiError> {
        let (lo, hi) = PER_MOVE_SECS;
        if !(lo..=hi).contains(&self.per_move_secs) {
            return Err(ApiError::bad(
                "bad_clock",
                format!(
                    "clock.per_move_secs is {lo} to {hi} (5 minutes to 14 days), not {}",
                    self.per_move_secs
                ),
            ));
        }
        Ok(())
    }
}

/// A lobby request body: `POST /api/games`'s fields and an optional `clock`. Returns the
/// request and the clock (checked).
pub fn split_request(
    mut body: Value,
) -> Result<(protocol::CreateGame, Option<ClockSpec>), ApiError> {
    let clock = match body.as_object_mut().and_then(|m| m.remove("clock")) {
        None | Some(Value::Null) => None,
        Some(c) => Some(
            serde_json::from_value::<ClockSpec>(c)
                .map_err(|e| ApiError::bad("bad_clock", format!("clock: {e}")))?,
        ),
    };
    let req: protocol::CreateGame =
        serde_json::from_value(body).map_err(|e| ApiError::bad("bad_request", e.to_string()))?;
    if let Some(c) = &clock {
        c.check()?;
        if req.timer_secs.is_some_and(|t| t > 0) {
            return Err(ApiError::bad(
                "bad_clock",
                "a turn-based game has its clock instead of timer_secs: give one of them",
            ));
        }
    }
    Ok((req, clock))
}

/// Unix milliseconds now (the wall clock: deadlines outlive the process).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// One of the caller's turn-based games, as `GET /api/turns` lists it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TurnGame {
    pub id: String,
    pub game: String,
    /// The caller's seat.
    pub seat: u8,
    /// The caller owes a decision now.
    pub your_move: bool,
    pub per_move_secs: u32,
    /// When the decision owed now runs out (Unix milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_ms: Option<i64>,
    /// Who owes it.
    pub waiting: Vec<u8>,
}

impl Shared {
    /// The caller's running turn-based games, those where it is their move first.
    pub async fn turns(&self, who: &Identity) -> Result<Vec<TurnGame>, ApiError> {
        let rows = self.store.platform().turn_games_of(&who.id).await?;
        let mut out: Vec<TurnGame> = rows
            .into_iter()
            .filter_map(|(row, clock)| {
                let seat = row.seats.iter().position(
                    |s| matches!(s, SeatOwner::Human { identity, .. } if *identity == who.id),
                )? as u8;
                Some(TurnGame {
                    your_move: clock.waiting.contains(&seat),
                    id: row.id,
                    game: row.game,
                    seat,
                    per_move_secs: clock.per_move_secs,
                    due_ms: clock.due_ms,
                    waiting: clock.waiting,
                })
            })
            .collect();
        out.sort_by_key(|t| (!t.your_move, t.due_ms.unwrap_or(i64::MAX)));
        Ok(out)
    }

    /// A new turn-based game's clock, stored before its task starts.
    pub(crate) async fn store_clock(&self, id: &str, clock: ClockSpec) -> Result<(), ApiError> {
        let c = TurnClock { per_move_secs: clock.per_move_secs, due_ms: None, waiting: vec![] };
        self.write(self.store.platform().set_turn_clock(id, &c)).await
    }
}
