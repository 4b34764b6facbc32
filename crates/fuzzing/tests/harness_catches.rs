//! The game harness is not vacuous: on a toy game with a planted bug it panics for some input,
//! and on the same game without the bug it never does. One toy per promise the harness checks:
//! a rejected action changes nothing, listed actions are accepted, accepted actions are listed.

use engine::{Audience, Decision, Game, GameEvent, Observer, Outcome, Rng, RuleError, Seat};
use fuzzing::games::{Target, run};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
struct ToySetup {
    bug: u8,
}

/// Add 1, 2 or 3 to a total, five times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Add {
    n: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct Added;
impl GameEvent for Added {
    fn audience(&self) -> Audience {
        Audience::Everyone
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Refused;
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused")
    }
}
impl std::error::Error for Refused {}
impl RuleError for Refused {
    fn code(&self) -> &'static str {
        "refused"
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Toy {
    bug: u8,
    total: u32,
    turns: u8,
}

impl Game for Toy {
    const NAME: &'static str = "toy";
    type Setup = ToySetup;
    type Action = Add;
    type Event = Added;
    type Error = Refused;
    type View = u32;
    type Static = ();

    fn new(setup: &ToySetup, _seed: u64) -> Result<Self, engine::SetupError> {
        Ok(Toy { bug: setup.bug, total: 0, turns: 0 })
    }
    fn seats(&self) -> usize {
        1
    }
    fn decision(&self) -> Option<Decision> {
        (self.turns < 5).then_some(Decision::One(Seat(0)))
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.turns >= 5).then(|| Outcome { ranking: vec![vec![Seat(0)]], scores: None })
    }
    fn apply(&mut self, seat: Seat, a: &Add, events: &mut Vec<Added>) -> Result<(), Refused> {
        let legal = match self.bug {
            2 => a.n == 1 || a.n == 3,   // refuses a listed action
            3 => (1..=4).contains(&a.n), // accepts an unlisted one
            _ => (1..=3).contains(&a.n),
        };
        if seat != Seat(0) || self.turns >= 5 || !legal {
            if self.bug == 1 {
                self.total += 1; // changes the state on the way out
            }
            return Err(Refused);
        }
        self.total += u32::from(a.n);
        self.turns += 1;
        events.push(Added);
        Ok(())
    }
    fn time_up(&mut self, events: &mut Vec<Added>) -> Result<(), Refused> {
        self.apply(Seat(0), &Add { n: 1 }, events)
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Add> {
        if seat == Seat(0) && self.turns < 5 {
            (1..=3).map(|n| Add { n }).collect()
        } else {
            vec![]
        }
    }
    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Add> {
        let n = if self.bug == 2 { 1 } else { 1 + rng.below(3) as u8 };
        (seat == Seat(0) && self.turns < 5).then_some(Add { n })
    }
    fn static_data(&self) {}
    fn view(&self, _: Observer) -> u32 {
        self.total
    }
    fn determinize(&self, _: Seat, _: &mut Rng) -> Self {
        self.clone()
    }
}

fn target(setup: fn(&mut arbitrary::Unstructured) -> arbitrary::Result<ToySetup>) -> Target<Toy> {
    Target {
        vocabulary: &["n"],
        setup,
        canonical: Clone::clone,
        start: Toy::new,
        weights: fuzzing::games::WEIGHTS,
    }
}

/// How many of 2,000 random inputs make the harness panic.
fn failures(t: &Target<Toy>) -> usize {
    let mut rng = Rng::seeded(14);
    (0..2000)
        .filter(|_| {
            let data: Vec<u8> = (0..64).map(|_| rng.below(256) as u8).collect();
            std::panic::catch_unwind(|| run(t, &data)).is_err()
        })
        .count()
}

#[test]
fn planted_bugs_are_found_and_a_sound_game_passes() {
    std::panic::set_hook(Box::new(|_| {})); // thousands of expected panics: keep the log short
    assert_eq!(failures(&target(|_| Ok(ToySetup { bug: 0 }))), 0, "false alarm on a sound game");
    for (bug, t) in [
        (1, target(|_| Ok(ToySetup { bug: 1 }))),
        (2, target(|_| Ok(ToySetup { bug: 2 }))),
        (3, target(|_| Ok(ToySetup { bug: 3 }))),
    ] {
        assert!(failures(&t) > 0, "bug {bug} went unnoticed");
    }
}
