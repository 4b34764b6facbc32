//! `GET /api/games/{id}/steps`: a game as a list of steps for the client's replay mode — the
//! view after every log entry and the events that entry caused, computed by replaying the log
//! through the engine (the browser decides no rule and cannot replay a game itself).
//!
//! A finished game is shown to everyone (omniscient views, every event, the actions). A running
//! game is shown as a spectator sees it: public events and views only, and each entry names
//! its seat but not its action (plots stay secret).
//!
//! Wiring (http.rs): `.route("/api/games/{id}/steps", get(steps))` with
//! `async fn steps(State(s): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> { Ok(Json(crate::steps::steps(&s, &id).await?)) }`.

use crate::Shared;
use crate::error::ApiError;
use crate::store::Status;
use engine::{LogEntry, Observer};
use serde_json::{Value, json};

pub async fn steps(shared: &Shared, id: &str) -> Result<Value, ApiError> {
    let row = shared.store.game(id).await?.ok_or(ApiError::NotFound)?;
    if row.status == Status::Open {
        return Err(ApiError::conflict("not_started", "the game has not started yet"));
    }
    let finished = row.status == Status::Finished;
    let observer = if finished { Observer::Omniscient } else { Observer::Spectator };
    let log = shared.store.log(id).await.map_err(|e| shared.unreadable(id, e))?;
    let kind = shared
        .registry
        .get(&row.game)
        .ok_or_else(|| ApiError::Unreadable(format!("game {id}: unknown game kind {}", row.game)))
        .inspect_err(|e| shared.note_unreadable(id, e))?;
    let mut g = kind
        .start(&row.setup, row.seed)
        .map_err(|e| ApiError::Unreadable(format!("game {id}: setup: {e}")))
        .inspect_err(|e| shared.note_unreadable(id, e))?;
    let static_text = g.static_text();
    let static_data: Value = serde_json::from_str(&static_text).unwrap_or(Value::Null);
    let mut steps = Vec::with_capacity(log.len() + 1);
    steps.push(
        json!({ "seq": 0, "entry": Value::Null, "events": [], "view": g.view_json(observer) }),
    );
    for (i, e) in log.iter().enumerate() {
        let (events, entry) = match e {
            LogEntry::Act { seat, action } => {
                let a = g.apply_json(*seat, action).map_err(|err| {
                    ApiError::Unreadable(format!(
                        "game {id}: log entry {i} does not replay: {err:?}"
                    ))
                })?;
                let entry = if finished {
                    json!({ "seat": seat, "action": action })
                } else {
                    json!({ "seat": seat })
                };
                (a.events, entry)
            }
            LogEntry::TimeUp => {
                let ev = g.time_up().map_err(|err| {
                    ApiError::Unreadable(format!(
                        "game {id}: log entry {i} does not replay: {err:?}"
                    ))
                })?;
                (ev, json!({ "time_up": true }))
            }
        };
        let events: Vec<Value> =
            events.into_iter().filter(|(a, _)| a.admits(observer)).map(|(_, v)| v).collect();
        steps.push(json!({ "seq": i + 1, "entry": entry, "events": events, "view": g.view_json(observer) }));
    }
    Ok(json!({
        "v": protocol::VERSION,
        "id": row.id,
        "game": row.game,
        "status": row.status.as_str(),
        "setup": row.setup,
        "static_id": protocol::static_id(&static_text),
        "static": static_data,
        "seats": crate::lobby::info(&row).seats,
        "outcome": row.outcome,
        "steps": steps,
    }))
}
