//! Bumping Bots scenario files (BB-13): `board` (inline or a shipped track's name), `setup`,
//! `variants` → [`bumping_bots::Setup`]; the state → `state` (BB-13 "State output").

use crate::{ScenarioGame, SchemaError, from_value};
use bumping_bots::setup::ScenarioSetup;
use bumping_bots::track::{Board, BoardSpec};
use bumping_bots::{BumpingBots, Variants};
use engine::Observer;
use serde_json::Value;

fn board_spec(board: &Value) -> Result<BoardSpec, SchemaError> {
    match board {
        Value::String(name) => bumping_bots::tracks::shipped(name).ok_or_else(|| {
            let names: Vec<&str> = bumping_bots::tracks::SHIPPED.iter().map(|(n, _)| *n).collect();
            SchemaError::at(
                "board",
                format!("no shipped track {name:?} (tracks: {})", names.join(", ")),
            )
        }),
        Value::Object(_) => {
            let spec: BoardSpec = from_value(board, "board")?;
            // BB-13: an inline board gives progress and lane for every cell.
            Board::build(&spec)
                .map_err(|p| SchemaError::at(format!("board.{}", p[0].0), p[0].1.clone()))?;
            Ok(spec)
        }
        Value::Null => {
            Err(SchemaError::at("board", "missing field (an inline board or a track name)"))
        }
        _ => Err(SchemaError::at(
            "board",
            "expected an inline board (object) or a track name (string)",
        )),
    }
}

impl ScenarioGame for BumpingBots {
    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Self::Setup, SchemaError> {
        let spec = board_spec(board)?;
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        let setup: ScenarioSetup = match setup {
            Value::Null => ScenarioSetup::default(),
            v => from_value(v, "setup")?,
        };
        setup
            .into_setup(spec, variants)
            .map_err(|(path, msg)| SchemaError::at(format!("setup.{path}"), msg))
    }
    fn scenario_round(&self) -> u32 {
        self.round()
    }
    fn scenario_phase(&self) -> &'static str {
        self.phase_name()
    }
    fn scenario_state(&self) -> Value {
        serde_json::to_value(engine::Game::view(self, Observer::Omniscient))
            .expect("the view serialises")
    }
}
