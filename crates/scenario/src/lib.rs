//! Scenario files: the position/scenario format shared by all games (`docs/scenarios.md`).
//!
//! A scenario file sets up a position and plays actions on it. [`run`] takes the file's bytes
//! and returns what `robodrome scenario` prints: the position after the last action (or before
//! the first illegal one) as JSON, and the exit status.
//!
//! This crate reads the file and finds its `game` in the registry (`games`); the part shared by
//! every game and each game's adapter (the file's `board`, `setup` and `variants` to the game's
//! setup, the game's state to the `state` object) are registered there, in `games::scenario`
//! and `games::Registered`. The rules stay in the game crates.
//!
//! **Invariant:** the same file gives the same output, byte for byte (no hash-map iteration,
//! no clock; all chance comes from the file's `seed`).

pub mod expect;
pub mod lessons;

pub use games::scenario::Outcome;
pub use games::{SchemaError, from_value};

use engine::Seat;
use serde_json::Value;

/// The games this build plays from scenario files: every registered game.
pub fn games() -> Vec<&'static str> {
    games::Registry::everything().names()
}

/// Run a scenario file given as bytes.
pub fn run(bytes: &[u8]) -> Result<Outcome, SchemaError> {
    run_with_view(bytes, None)
}

/// [`run`], and when `view` names a seat, also print the engine's view for that seat as `view`
/// (the JSON a client is sent: for checking a client on a position made by the rules).
pub fn run_with_view(bytes: &[u8], view: Option<Seat>) -> Result<Outcome, SchemaError> {
    let doc: Value = serde_json::from_slice(bytes)
        .map_err(|e| SchemaError::at("", format!("not valid JSON: {e}")))?;
    let Value::Object(top) = &doc else {
        return Err(SchemaError::at("", "a scenario file is a JSON object"));
    };
    let game = match top.get("game") {
        Some(Value::String(g)) => g.as_str(),
        Some(_) => return Err(SchemaError::at("game", "must be a string")),
        None => {
            let known = games::Registry::everything().names().join(", ");
            return Err(SchemaError::at("game", format!("missing field ({known})")));
        }
    };
    let registry = games::Registry::everything();
    match registry.get(game) {
        Some(kind) => kind.scenario(top, view),
        None => Err(SchemaError::at("game", registry.unknown(game))),
    }
}
