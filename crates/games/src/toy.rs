//! The toy game (rock-paper-scissors to 3, `crates/toy`) in the registry: all a new game adds
//! outside its own crate. Not offered by a normal `robodrome serve` (`public: false`).

use crate::sim::NoTally;
use crate::{Choice, Info, Registered, SchemaError, SetupRequest, from_value};
use bots::{Bot, BotSpec, RandomBot};
use engine::{Game, Observer, Rng, Seat};
use serde::Deserialize;
use serde_json::Value;
use toy::{Action, Rps, Setup, Throw, Variants};

impl Registered for Rps {
    type Tally = NoTally;

    fn info() -> Info {
        Info {
            name: Self::NAME,
            title: "Rock paper scissors",
            min_players: *toy::PLAYERS.start(),
            max_players: *toy::PLAYERS.end(),
            board_noun: "board",
            boards: Vec::new(),
            default_board: None,
            variants: vec![Choice::new("first_to_five", "First to 5", "Play to 5 points, not 3")],
            options: Vec::new(),
            default_timer_secs: None,
            timer_option: None,
            public: false,
            rules_crate: "toy",
            rules_version: toy::RULES_VERSION,
            conformance_prefix: None,
            sim_players: 2,
            sim_games: 1000,
        }
    }

    fn setup(req: &SetupRequest) -> Result<Setup, String> {
        Ok(Setup::new(req.players as u8, crate::variants(req)?))
    }

    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        match spec {
            BotSpec::Random => Box::new(RandomBot),
            _ => Box::new(Counter),
        }
    }

    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Setup, SchemaError> {
        if !board.is_null() {
            return Err(SchemaError::at("board", "rock-paper-scissors has no board"));
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            #[serde(default = "two")]
            players: u8,
            #[serde(default)]
            scores: [u8; 2],
        }
        fn two() -> u8 {
            2
        }
        let f: File = match setup {
            Value::Null => File { players: 2, scores: [0, 0] },
            v => from_value(v, "setup")?,
        };
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        Ok(Setup { players: f.players, variants, scores: f.scores })
    }

    fn scenario_round(&self) -> u32 {
        self.round()
    }

    fn scenario_phase(&self) -> &'static str {
        if self.decision().is_some() { "throw" } else { "over" }
    }

    fn scenario_state(&self) -> Value {
        serde_json::to_value(self.view(Observer::Omniscient)).unwrap_or(Value::Null)
    }
}

/// The toy's only strategy (for `heuristic` and `search`): throw what beats the other
/// player's last throw, which is public (after a tie or in the first round: at random). It
/// reads only its seat's view.
struct Counter;

impl Bot<Rps> for Counter {
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn act(&mut self, game: &Rps, seat: Seat, rng: &mut Rng) -> Action {
        let v = game.view(Observer::Seat(seat));
        let throw = match v.last {
            Some(last) if last[0] != last[1] => {
                let theirs = last[1 - seat.index()];
                Throw::ALL.into_iter().find(|t| t.beats(theirs)).unwrap_or(Throw::Rock)
            }
            _ => Throw::ALL[rng.index(3)],
        };
        Action::Throw { throw }
    }
}
