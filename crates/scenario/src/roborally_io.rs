//! RoboRally in scenario files (RR-11): a thin layer over the `roborally` crate's schema types.

use crate::{ScenarioGame, SchemaError, from_value};
use roborally::{BoardSpec, RoboRally, ScenarioSetup, Setup, Variants};
use serde_json::Value;

impl ScenarioGame for RoboRally {
    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Setup, SchemaError> {
        let board: BoardSpec = match board {
            Value::Null => {
                return Err(SchemaError::at(
                    "board",
                    "missing: a shipped course name or an inline board",
                ));
            }
            Value::String(s) => BoardSpec::Named(s.clone()),
            v => BoardSpec::Inline(from_value(v, "board")?),
        };
        let setup: ScenarioSetup = match setup {
            Value::Null => ScenarioSetup::default(),
            v => from_value(v, "setup")?,
        };
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        Ok(Setup::from_scenario(board, setup, variants))
    }

    fn scenario_round(&self) -> u32 {
        self.turn()
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase_name()
    }

    fn scenario_state(&self) -> Value {
        RoboRally::scenario_state(self)
    }
}
