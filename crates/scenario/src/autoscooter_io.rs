//! Autoscooter scenario files (AS-8).

use crate::{ScenarioGame, SchemaError, from_value};
use autoscooter::{Autoscooter, BoardSpec, CarSetup, PlayerSetup, Setup, Variants};
use engine::{Game, Observer};
use serde::Deserialize;
use serde_json::Value;

/// The `setup` object of an Autoscooter scenario.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFile {
    players: Vec<PlayerSetup>,
    #[serde(default)]
    cars: Vec<CarSetup>,
    #[serde(default = "one")]
    round: u8,
    #[serde(default, rename = "box")]
    box_chits: Option<u32>,
}

fn one() -> u8 {
    1
}

impl ScenarioGame for Autoscooter {
    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Setup, SchemaError> {
        let board = match board {
            Value::String(name) => BoardSpec::named(name).ok_or_else(|| {
                SchemaError::at(
                    "board",
                    format!(
                        "no shipped board {name:?} (shipped: {})",
                        BoardSpec::SHIPPED.join(", ")
                    ),
                )
            })?,
            Value::Null => BoardSpec::standard(),
            v => from_value(v, "board")?,
        };
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        let s: SetupFile = match setup {
            Value::Null => {
                return Err(SchemaError::at("setup", "missing field (players, cars, round)"));
            }
            v => from_value(v, "setup")?,
        };
        Ok(Setup {
            board,
            players: s.players,
            cars: s.cars,
            round: s.round,
            box_chits: s.box_chits,
            variants,
        })
    }

    fn scenario_round(&self) -> u32 {
        self.round() as u32
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase()
    }

    fn scenario_state(&self) -> Value {
        serde_json::to_value(self.view(Observer::Omniscient)).expect("views serialise")
    }
}
