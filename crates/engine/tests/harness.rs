//! The conformance suite judged on a toy game: a correct game passes `check_game`, and each
//! deliberately broken twin (a view that leaks a secret `determinize` also misses, a refusal
//! that changes the state, a sampled action that is not listed, a seat acting out of turn)
//! fails it with the promise it broke.

use engine::harness::{CheckOptions, Conformance, Report, Violation, check_game, check_game_with};
use engine::{
    Audience, Decision, Game, GameEvent, Observer, Outcome, Rng, RuleError, Seat, SeatSet,
    SetupError,
};
use serde::{Deserialize, Serialize};

/// What is wrong with a twin of the toy game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Bug {
    None,
    /// A seat's view shows the highest pick the other seats have committed this round, and
    /// `determinize` keeps the other seats' picks (so the older determinize-only check passes).
    LeakyView,
    /// A refused pick still counts as an attempt in the state.
    DirtyRefusal,
    /// `sample_action` may pick 10, which `apply` accepts but `legal_actions` does not list.
    UnlistedSample,
    /// A seat that has committed may pick again (it owes nothing any more).
    OutOfTurn,
    /// `views_touched` says a pick changes only the picker's view, but every view shows who
    /// has committed.
    TouchesTooLittle,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Setup {
    seats: usize,
    rounds: u32,
    bug: Bug,
}

/// Highest unique number: every round each seat secretly picks 0..=9; the highest pick no
/// other seat made scores a point.
#[derive(Clone, Debug, PartialEq)]
struct Guess {
    bug: Bug,
    rounds: u32,
    round: u32,
    picks: Vec<Option<u8>>,
    scores: Vec<i64>,
    revealed: Vec<Vec<u8>>,
    attempts: u32,
    rng: Rng,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Pick(u8);

#[derive(Clone, Debug, PartialEq, Serialize)]
enum Event {
    Picked(Seat),
    Revealed(Vec<u8>),
}
impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::Picked(_) | Event::Revealed(_) => Audience::Everyone,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Error {
    NotYourTurn,
    OutOfRange,
}
impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
impl std::error::Error for Error {}
impl RuleError for Error {
    fn code(&self) -> &'static str {
        match self {
            Error::NotYourTurn => "not_your_turn",
            Error::OutOfRange => "out_of_range",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct View {
    round: u32,
    scores: Vec<i64>,
    committed: Vec<bool>,
    own: Option<u8>,
    revealed: Vec<Vec<u8>>,
    highest_other: Option<u8>,
    /// Every pick, for omniscient observers only.
    all: Option<Vec<Option<u8>>>,
}

impl Guess {
    fn owing(&self) -> SeatSet {
        let mut s = SeatSet::default();
        for (i, p) in self.picks.iter().enumerate() {
            if p.is_none() {
                s.insert(Seat(i as u8));
            }
        }
        s
    }
    fn reveal(&mut self, events: &mut Vec<Event>) {
        let picks: Vec<u8> = self.picks.iter().map(|p| p.unwrap_or(0)).collect();
        let unique = |n: u8| picks.iter().filter(|&&m| m == n).count() == 1;
        if let Some(best) = picks.iter().copied().filter(|&n| unique(n)).max() {
            let winner = picks.iter().position(|&n| n == best).unwrap_or(0);
            self.scores[winner] += 1;
        }
        events.push(Event::Revealed(picks.clone()));
        self.revealed.push(picks);
        self.round += 1;
        self.picks = vec![None; self.picks.len()];
    }
}

impl Game for Guess {
    const NAME: &'static str = "guess";
    type Setup = Setup;
    type Action = Pick;
    type Event = Event;
    type Error = Error;
    type View = View;
    type Static = ();

    fn new(setup: &Setup, seed: u64) -> Result<Self, SetupError> {
        if !(2..=4).contains(&setup.seats) {
            return Err(SetupError::one("2 to 4 seats"));
        }
        Ok(Guess {
            bug: setup.bug,
            rounds: setup.rounds,
            round: 1,
            picks: vec![None; setup.seats],
            scores: vec![0; setup.seats],
            revealed: Vec::new(),
            attempts: 0,
            rng: Rng::seeded(seed),
        })
    }
    fn seats(&self) -> usize {
        self.picks.len()
    }
    fn decision(&self) -> Option<Decision> {
        (self.round <= self.rounds).then(|| Decision::Simultaneous(self.owing()))
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.round <= self.rounds {
            return None;
        }
        let mut order: Vec<usize> = (0..self.seats()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.scores[i]));
        let mut ranking: Vec<Vec<Seat>> = Vec::new();
        for i in order {
            match ranking.last_mut() {
                Some(g) if self.scores[g[0].index()] == self.scores[i] => g.push(Seat(i as u8)),
                _ => ranking.push(vec![Seat(i as u8)]),
            }
        }
        Some(Outcome { ranking, scores: Some(self.scores.clone()) })
    }
    fn apply(&mut self, seat: Seat, action: &Pick, events: &mut Vec<Event>) -> Result<(), Error> {
        let i = seat.index();
        let may_repick = self.bug == Bug::OutOfTurn && i < self.seats();
        if self.round > self.rounds || i >= self.seats() || (self.picks[i].is_some() && !may_repick)
        {
            return Err(Error::NotYourTurn);
        }
        let max = if self.bug == Bug::UnlistedSample { 10 } else { 9 };
        if action.0 > max {
            if self.bug == Bug::DirtyRefusal {
                self.attempts += 1;
            }
            return Err(Error::OutOfRange);
        }
        self.picks[i] = Some(action.0);
        events.push(Event::Picked(seat));
        if self.picks.iter().all(Option::is_some) {
            self.reveal(events);
        }
        Ok(())
    }
    fn time_up(&mut self, events: &mut Vec<Event>) -> Result<(), Error> {
        if self.round > self.rounds {
            return Err(Error::NotYourTurn);
        }
        for p in &mut self.picks {
            p.get_or_insert(0);
        }
        self.reveal(events);
        Ok(())
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Pick> {
        if self.decision().is_some_and(|d| d.owes(seat)) {
            (0..=9).map(Pick).collect()
        } else {
            vec![]
        }
    }
    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Pick> {
        let n = if self.bug == Bug::UnlistedSample { 11 } else { 10 };
        self.decision().is_some_and(|d| d.owes(seat)).then(|| Pick(rng.below(n) as u8))
    }
    fn view(&self, observer: Observer) -> View {
        let own = match observer {
            Observer::Seat(s) => self.picks.get(s.index()).copied().flatten(),
            _ => None,
        };
        let highest_other = match observer {
            Observer::Seat(s) if self.bug == Bug::LeakyView => self
                .picks
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != s.index())
                .filter_map(|(_, p)| *p)
                .max(),
            _ => None,
        };
        View {
            round: self.round,
            scores: self.scores.clone(),
            committed: self.picks.iter().map(Option::is_some).collect(),
            own,
            revealed: self.revealed.clone(),
            highest_other,
            all: (observer == Observer::Omniscient).then(|| self.picks.clone()),
        }
    }
    fn static_data(&self) {}
    fn views_touched(&self, seat: Seat, _action: &Pick) -> engine::Touched {
        if self.bug == Bug::TouchesTooLittle {
            engine::Touched::only(seat)
        } else {
            engine::Touched::All
        }
    }
    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        if self.bug != Bug::LeakyView {
            for (i, p) in g.picks.iter_mut().enumerate() {
                if i != seat.index() && p.is_some() {
                    *p = Some(rng.below(10) as u8);
                }
            }
        }
        g.rng = rng.fork();
        g
    }
}

impl Conformance for Guess {
    /// Written from the rules: the picks of other seats are secret until revealed; so is the
    /// RNG. (Not `determinize`, which the leaky twin gets wrong.)
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        let me = match observer {
            Observer::Seat(s) => Some(s.index()),
            Observer::Spectator => None,
            Observer::Omniscient => {
                self.rng = rng.fork();
                return;
            }
        };
        for (i, p) in self.picks.iter_mut().enumerate() {
            if Some(i) != me
                && let Some(n) = p
            {
                *n = (*n + 1 + rng.below(9) as u8) % 10;
            }
        }
        self.rng = rng.fork();
    }
    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, Pick)> {
        vec![(Seat(rng.below(5) as u8), Pick(10 + rng.below(200) as u8))]
    }
}

fn run(bug: Bug, seeds: std::ops::Range<u64>) -> Result<Vec<Report<Guess>>, Violation> {
    seeds
        .map(|seed| {
            let setup = Setup { seats: 2 + (seed % 3) as usize, rounds: 6, bug };
            // The test's own invariant: at most one point per round played.
            check_game_with::<Guess>(&setup, seed, &CheckOptions::default(), |g| {
                let total: i64 = g.scores.iter().sum();
                if total > i64::from(g.round) - 1 {
                    return Err(format!("{total} points after {} rounds", g.round - 1));
                }
                Ok(())
            })
        })
        .collect()
}

#[test]
fn a_correct_game_passes() {
    let reports = run(Bug::None, 0..50).unwrap_or_else(|v| panic!("{v}"));
    assert!(reports.iter().all(|r| r.finished && r.game.round == 7));
    assert!(reports.iter().all(|r| r.scrambles > 0 && r.refused > 0 && r.deep_checks > 6));
}

#[test]
fn a_leaking_view_fails_though_determinize_misses_it() {
    let v = run(Bug::LeakyView, 0..50).expect_err("the leak is found");
    assert!(v.message.contains("changed when secrets it may not see were changed"), "{v}");
    // The older check, which leans on the game's own `determinize`, does not see it.
    let setup = Setup { seats: 3, rounds: 6, bug: Bug::LeakyView };
    let mut g = Guess::new(&setup, 1).unwrap();
    g.apply(Seat(0), &Pick(7), &mut Vec::new()).unwrap();
    assert_eq!(g.view(Observer::Seat(Seat(1))).highest_other, Some(7), "the twin leaks");
    engine::harness::assert_view_hides_secrets(&g, &mut Rng::seeded(1));
}

#[test]
#[should_panic(expected = "changed when secrets it may not see were changed")]
fn a_leaking_view_fails_check_game() {
    run(Bug::LeakyView, 0..50).unwrap_or_else(|v| panic!("{v}"));
}

#[test]
fn a_refusal_that_changes_the_state_fails() {
    let v = run(Bug::DirtyRefusal, 0..5).expect_err("found");
    assert!(v.message.contains("changed the state"), "{v}");
}

#[test]
fn a_sampled_action_that_is_not_listed_fails() {
    let v = run(Bug::UnlistedSample, 0..50).expect_err("found");
    assert!(v.message.contains("is not listed"), "{v}");
}

#[test]
fn a_seat_acting_out_of_turn_fails() {
    let v = run(Bug::OutOfTurn, 0..50).expect_err("found");
    assert!(v.message.contains("owes nothing but its"), "{v}");
}

#[test]
fn the_tests_own_invariants_are_checked() {
    let setup = Setup { seats: 2, rounds: 3, bug: Bug::None };
    let v = check_game_with::<Guess>(&setup, 1, &CheckOptions::default(), |g| {
        if g.round > 2 { Err("round 3 reached".into()) } else { Ok(()) }
    })
    .expect_err("the invariant breaks");
    assert_eq!(v.message, "round 3 reached");
    assert!(check_game::<Guess>(&setup, 1, &CheckOptions::default()).is_ok());
}

#[test]
fn a_game_claiming_an_action_touched_too_few_views_fails() {
    let v = run(Bug::TouchesTooLittle, 0..5).expect_err("found");
    assert!(v.message.contains("views_touched said"), "{v}");
    assert!(v.message.contains("but it changed"), "{v}");
}
