//! Rock–paper–scissors to 3: a toy game that shows what a new game needs (ARCHITECTURE.md,
//! "Adding a game"). It is not one of the booklets' games; its rules are written here:
//!
//! * TOY-1 Two players. Each round both throw rock, paper or scissors at once and in secret.
//! * TOY-2 When both have thrown, the throws are shown: rock beats scissors, scissors beat
//!   paper, paper beats rock; the winner of the round scores a point, a tie scores nothing.
//! * TOY-3 The first to 3 points wins (5 with the variant `first_to_five`).
//! * TOY-4 A player whose time runs out throws rock.
#![deny(clippy::unwrap_used)]

use engine::{
    Audience, Decision, Game, GameEvent, Observer, Outcome, Rng, RuleError, Seat, SeatSet,
    SetupError,
};
use serde::{Deserialize, Serialize};

/// TOY-1: always two players.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=2;

/// The version of these rules, stored with every game a server starts (docs/security.md "Rules
/// versions"): TOY-1 … TOY-4 have not changed since the first.
pub const RULES_VERSION: u32 = 1;

/// A throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Throw {
    Rock,
    Paper,
    Scissors,
}

impl Throw {
    pub const ALL: [Throw; 3] = [Throw::Rock, Throw::Paper, Throw::Scissors];
    /// TOY-2: does `self` beat `other`?
    pub fn beats(self, other: Throw) -> bool {
        matches!(
            (self, other),
            (Throw::Rock, Throw::Scissors)
                | (Throw::Scissors, Throw::Paper)
                | (Throw::Paper, Throw::Rock)
        )
    }
}

/// Optional rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Variants {
    /// TOY-3: play to 5 points instead of 3.
    pub first_to_five: bool,
}

/// Everything a game starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub players: u8,
    #[serde(default)]
    pub variants: Variants,
    /// Points already scored (a position in the middle of a game, for scenario files).
    #[serde(default)]
    pub scores: [u8; 2],
}

impl Setup {
    pub fn new(players: u8, variants: Variants) -> Setup {
        Setup { players, variants, scores: [0, 0] }
    }
}

/// An action: a throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Throw { throw: Throw },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat threw (everyone learns that it did, not what).
    Committed { seat: Seat },
    /// The seat's own throw (only that seat sees it).
    Threw { seat: Seat, throw: Throw },
    /// TOY-2: both throws shown; the round's winner, if any.
    Shown { throws: [Throw; 2], winner: Option<Seat> },
    /// TOY-3: the game is over.
    Won { seat: Seat },
}

impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::Threw { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToyError {
    /// The game has ended.
    GameOver,
    /// This seat has already thrown this round, or is not in the game.
    NotYourTurn,
}

impl std::fmt::Display for ToyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ToyError::GameOver => "the game is over",
            ToyError::NotYourTurn => "this seat owes no throw now",
        })
    }
}
impl std::error::Error for ToyError {}
impl RuleError for ToyError {
    fn code(&self) -> &'static str {
        match self {
            ToyError::GameOver => "game_over",
            ToyError::NotYourTurn => "not_your_turn",
        }
    }
}

/// The state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rps {
    target: u8,
    round: u32,
    scores: [u8; 2],
    /// This round's throws, secret until both are in.
    throws: [Option<Throw>; 2],
    last: Option<[Throw; 2]>,
}

/// What an observer sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub round: u32,
    pub target: u8,
    pub scores: [u8; 2],
    /// Who has thrown this round.
    pub thrown: [bool; 2],
    /// The observer's own throw this round (every throw for an omniscient observer).
    pub throws: [Option<Throw>; 2],
    /// The last round's throws, once shown.
    pub last: Option<[Throw; 2]>,
    pub over: bool,
}

impl Rps {
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn scores(&self) -> [u8; 2] {
        self.scores
    }
    fn winner(&self) -> Option<Seat> {
        (0..2).find(|&i| self.scores[i] >= self.target).map(|i| Seat(i as u8))
    }
    fn owes(&self, seat: Seat) -> bool {
        self.winner().is_none() && seat.index() < 2 && self.throws[seat.index()].is_none()
    }
    fn show(&mut self, events: &mut Vec<Event>) {
        let (Some(a), Some(b)) = (self.throws[0], self.throws[1]) else { return };
        let winner = if a.beats(b) {
            Some(Seat(0))
        } else if b.beats(a) {
            Some(Seat(1))
        } else {
            None
        };
        if let Some(w) = winner {
            self.scores[w.index()] += 1;
        }
        events.push(Event::Shown { throws: [a, b], winner });
        self.last = Some([a, b]);
        self.throws = [None, None];
        match self.winner() {
            Some(w) => events.push(Event::Won { seat: w }),
            None => self.round += 1,
        }
    }
}

impl Game for Rps {
    const NAME: &'static str = "rps";
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Error = ToyError;
    type View = View;
    /// Nothing is static: no board.
    type Static = ();

    fn new(setup: &Setup, _seed: u64) -> Result<Self, SetupError> {
        if !PLAYERS.contains(&(setup.players as usize)) {
            return Err(SetupError::one(format!(
                "rock-paper-scissors is for 2 players, not {}",
                setup.players
            )));
        }
        let target = if setup.variants.first_to_five { 5 } else { 3 };
        if setup.scores.iter().any(|&s| s >= target) {
            return Err(SetupError::one(format!("scores must be below {target}")));
        }
        Ok(Rps { target, round: 1, scores: setup.scores, throws: [None, None], last: None })
    }
    fn seats(&self) -> usize {
        2
    }
    fn decision(&self) -> Option<Decision> {
        if self.winner().is_some() {
            return None;
        }
        let owing: SeatSet = (0..2u8).map(Seat).filter(|&s| self.owes(s)).collect();
        Some(Decision::Simultaneous(owing))
    }
    fn outcome(&self) -> Option<Outcome> {
        let w = self.winner()?;
        let other = Seat(1 - w.0);
        Some(Outcome {
            ranking: vec![vec![w], vec![other]],
            scores: Some(self.scores.iter().map(|&s| s as i64).collect()),
        })
    }
    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ToyError> {
        if self.winner().is_some() {
            return Err(ToyError::GameOver);
        }
        if !self.owes(seat) {
            return Err(ToyError::NotYourTurn);
        }
        let Action::Throw { throw } = *action;
        self.throws[seat.index()] = Some(throw);
        events.push(Event::Committed { seat });
        events.push(Event::Threw { seat, throw });
        self.show(events);
        Ok(())
    }
    fn time_up(&mut self, events: &mut Vec<Event>) -> Result<(), ToyError> {
        if self.winner().is_some() {
            return Err(ToyError::GameOver);
        }
        for s in [Seat(0), Seat(1)] {
            if self.owes(s) {
                self.apply(s, &Action::Throw { throw: Throw::Rock }, events)?;
            }
        }
        Ok(())
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if !self.owes(seat) {
            return Vec::new();
        }
        Throw::ALL.iter().map(|&throw| Action::Throw { throw }).collect()
    }
    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Action> {
        if !self.owes(seat) {
            return None;
        }
        Some(Action::Throw { throw: Throw::ALL[rng.index(3)] })
    }
    fn view(&self, observer: Observer) -> View {
        let mine = |i: usize| match observer {
            Observer::Omniscient => self.throws[i],
            Observer::Seat(s) if s.index() == i => self.throws[i],
            _ => None,
        };
        View {
            round: self.round,
            target: self.target,
            scores: self.scores,
            thrown: [self.throws[0].is_some(), self.throws[1].is_some()],
            throws: [mine(0), mine(1)],
            last: self.last,
            over: self.winner().is_some(),
        }
    }
    fn static_data(&self) {}
    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        for i in 0..2 {
            if i != seat.index() && g.throws[i].is_some() {
                g.throws[i] = Some(Throw::ALL[rng.index(3)]);
            }
        }
        g
    }
}

/// The conformance suite's hooks (`engine::harness::check_game`), written from TOY-1/TOY-2:
/// the only secret is a throw made this round and not yet shown.
impl engine::harness::Conformance for Rps {
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        for i in 0..2 {
            let hidden = match observer {
                Observer::Omniscient => false,
                Observer::Seat(s) => s.index() != i,
                Observer::Spectator => true,
            };
            if let (true, Some(t)) = (hidden, self.throws[i]) {
                // Another throw than the one made (one of the two others).
                let at = Throw::ALL.iter().position(|&x| x == t).unwrap_or(0);
                self.throws[i] = Some(Throw::ALL[(at + 1 + rng.index(2)) % 3]);
            }
        }
    }
    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, Action)> {
        // A seat that is not in the game, and seats that have already thrown this round.
        let throw = Throw::ALL[rng.index(3)];
        let mut out = vec![(Seat(2), Action::Throw { throw })];
        out.extend(
            (0..2u8).map(Seat).filter(|&s| !self.owes(s)).map(|s| (s, Action::Throw { throw })),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throw(g: &mut Rps, seat: u8, t: Throw) -> Vec<Event> {
        let mut ev = Vec::new();
        g.apply(Seat(seat), &Action::Throw { throw: t }, &mut ev).unwrap();
        ev
    }

    #[test]
    fn toy_2_rock_beats_scissors_and_the_first_to_3_wins() {
        let mut g = Rps::new(&Setup::new(2, Variants::default()), 0).unwrap();
        for _ in 0..2 {
            throw(&mut g, 0, Throw::Rock);
            throw(&mut g, 1, Throw::Scissors);
        }
        assert_eq!(g.scores(), [2, 0]);
        throw(&mut g, 1, Throw::Paper);
        let ev = throw(&mut g, 0, Throw::Paper);
        assert!(
            ev.contains(&Event::Shown { throws: [Throw::Paper; 2], winner: None }),
            "TOY-2 tie"
        );
        throw(&mut g, 0, Throw::Scissors);
        let ev = throw(&mut g, 1, Throw::Paper);
        assert!(ev.contains(&Event::Won { seat: Seat(0) }));
        assert_eq!(g.outcome().unwrap().winners(), [Seat(0)]);
        assert_eq!(g.decision(), None);
    }

    #[test]
    fn a_throw_is_secret_until_both_are_in() {
        let mut g = Rps::new(&Setup::new(2, Variants::default()), 0).unwrap();
        let before = g.view(Observer::Seat(Seat(1)));
        let ev = throw(&mut g, 0, Throw::Paper);
        let after = g.view(Observer::Seat(Seat(1)));
        assert_eq!(after.throws, [None, None]);
        assert_eq!(after.thrown, [true, false]);
        assert_ne!(before, after);
        assert_eq!(g.view(Observer::Seat(Seat(0))).throws[0], Some(Throw::Paper));
        assert_eq!(g.view(Observer::Spectator).throws, [None, None]);
        let seen_by_1: Vec<_> =
            ev.iter().filter(|e| e.audience().admits(Observer::Seat(Seat(1)))).collect();
        assert_eq!(seen_by_1, [&Event::Committed { seat: Seat(0) }]);
    }

    #[test]
    fn refused_throws_change_nothing_and_time_up_throws_rock() {
        let mut g = Rps::new(&Setup::new(2, Variants::default()), 0).unwrap();
        throw(&mut g, 0, Throw::Scissors);
        let copy = g.clone();
        let mut ev = Vec::new();
        let again = g.apply(Seat(0), &Action::Throw { throw: Throw::Rock }, &mut ev);
        assert_eq!(again, Err(ToyError::NotYourTurn));
        assert_eq!(g, copy);
        assert!(ev.is_empty());
        g.time_up(&mut ev).unwrap();
        assert!(ev.contains(&Event::Shown {
            throws: [Throw::Scissors, Throw::Rock],
            winner: Some(Seat(1))
        }));
        assert!(Rps::new(&Setup::new(3, Variants::default()), 0).is_err());
    }
}
