//! The conformance suite every game passes: [`check_game`], and the generic checks it is
//! made of, for the games' property tests. They do no I/O.
//!
//! # Joining the suite
//!
//! A game implements [`Conformance`] (one required method, [`Conformance::scramble_secrets`],
//! which edits directly in the state every secret an observer may not see, written
//! independently of [`Game::determinize`]; optionally [`Conformance::garbage`]) and calls
//! [`check_game`] (or [`check_game_with`], adding its own invariants) from its tests over
//! many setups and seeds:
//!
//! ```ignore
//! use engine::harness::{CheckOptions, check_game};
//!
//! impl engine::harness::Conformance for MyGame {
//!     fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
//!         // Overwrite the hands/plots/programs of every seat `observer` is not.
//!     }
//! }
//!
//! #[test]
//! fn my_game_conforms() {
//!     for seed in 0..200 {
//!         let report = check_game::<MyGame>(&setup, seed, &CheckOptions::default())
//!             .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
//!         assert!(report.finished);
//!     }
//! }
//! ```
//!
//! The `impl Conformance` lives in the game's own crate (the orphan rule; Autoscooter,
//! RoboRally and Bumping Bots keep it in `src/conformance.rs`), and the game's `View` derives
//! `PartialEq` (required by [`Game`]). The suite also expects that a seat owing no decision has
//! every action refused.
//!
//! [`check_game`] returns the first broken promise as a [`Violation`] instead of panicking,
//! so that proptest can shrink it (`.map_err(|e| TestCaseError::fail(e.to_string()))`).
//! The older panicking helpers below ([`assert_atomic`], [`assert_replays`], ...) remain for
//! tests that check one position.

use crate::{Decision, Game, LogEntry, Observer, Outcome, Rng, RuleError, Seat, Touched};
use std::fmt;

/// What a game supplies to [`check_game`] beyond the [`Game`] trait.
pub trait Conformance: Game {
    /// Change, directly in the state, everything `observer` may not see: other seats' hands,
    /// plots, programs and stashes, the order of hidden piles, the RNG. Values need not be
    /// reachable by play (only views are taken of the result), but what is public (how many
    /// cards, who has committed) must stay as it is. Write it from the rules, not with
    /// [`Game::determinize`]: a secret that `determinize` forgets must still be changed here,
    /// or a view that leaks it goes unnoticed. `Observer::Spectator` changes every seat's
    /// secrets; `Observer::Omniscient` only the RNG.
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng);

    /// Actions likely to be refused now (other seats' pieces, numbers out of range, wrong
    /// kinds), each with the seat that sends it. Refused ones must change nothing; accepted
    /// ones are only applied to a copy. Default: none (the suite still sends actions of
    /// seats that owe nothing).
    fn garbage(&self, _rng: &mut Rng) -> Vec<(Seat, Self::Action)> {
        Vec::new()
    }
}

/// How long and how deep [`check_game`] plays one game.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Actions (and time-ups) at most; the game need not end within them.
    pub max_steps: usize,
    /// Send `time_up` instead of an action about one step in 16.
    pub timeouts: bool,
    /// The costly checks (listed actions, views of every observer, `determinize`) run every
    /// `deep_every` steps (1 = every step) and at the first and last position.
    pub deep_every: usize,
    /// Listed actions applied (to copies) per seat at a deep check, spread over the list.
    pub listed_limit: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { max_steps: 2_000, timeouts: true, deep_every: 1, listed_limit: 12 }
    }
}

/// What one checked game came to.
#[derive(Clone, Debug)]
pub struct Report<G: Game> {
    /// The final state and the log that replays to it.
    pub game: G,
    pub log: Vec<LogEntry<G::Action>>,
    /// The game ended (`decision()` is `None`) within `max_steps`.
    pub finished: bool,
    /// Positions checked deeply.
    pub deep_checks: usize,
    /// Deep checks at which [`Conformance::scramble_secrets`] changed a secret (the
    /// omniscient view) for at least one observer: a test can require it to be positive, so
    /// that a hook that changes nothing is noticed.
    pub scrambles: usize,
    /// Actions refused (garbage and out-of-turn ones), each found to change nothing.
    pub refused: usize,
    /// Views that [`Game::views_touched`] said an action left as they were, each found the
    /// same text after it: a game that narrows its claims can require it to be positive.
    pub untouched: usize,
}

/// A broken promise: which one, and where in the game (`step` actions had been applied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub step: usize,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "after {} steps: {}", self.step, self.message)
    }
}
impl std::error::Error for Violation {}

/// The conformance suite: plays one random game of `G` from `(setup, seed)` and checks, at
/// every step,
///
/// * a refused action changes nothing (the whole state compared, and no event pushed):
///   [`Conformance::garbage`], and every seat that owes nothing sending an action sampled for
///   a seat that owes one (which must be refused);
/// * `decision()` is `None` exactly when `outcome()` is `Some`,
///   and an outcome ranks every seat once;
///
/// at every deep check (see [`CheckOptions::deep_every`]),
///
/// * every listed action of an owing seat is accepted (up to `listed_limit` per seat) and
///   seats that owe nothing list nothing; a sampled action is one of the listed ones;
/// * views hide secrets: for every seat and for spectators, the view is unchanged when the
///   secrets that observer may not see are changed in the state
///   ([`Conformance::scramble_secrets`]) and when they are resampled by
///   [`Game::determinize`] (which also keeps who owes a decision);
///
/// * the observers an action does not touch ([`Game::views_touched`], asked before it) have
///   the same view after it, as JSON text byte for byte (the sampled action of every step,
///   and every listed action tried at a deep check);
///
/// and at the end, replaying `(setup, seed, log)` gives the same state. The first broken
/// promise is returned. Panics only if the setup does not start a game.
pub fn check_game<G: Conformance>(
    setup: &G::Setup,
    seed: u64,
    options: &CheckOptions,
) -> Result<Report<G>, Violation> {
    check_game_with(setup, seed, options, |_| Ok(()))
}

/// [`check_game`], also checking the test's own `invariants` at every position (pieces on
/// distinct cells, cards or chits conserved: whatever the game promises besides the suite).
pub fn check_game_with<G: Conformance>(
    setup: &G::Setup,
    seed: u64,
    options: &CheckOptions,
    mut invariants: impl FnMut(&G) -> Result<(), String>,
) -> Result<Report<G>, Violation> {
    let mut g = G::new(setup, seed).expect("check_game: the setup is valid");
    let mut rng = Rng::seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut log = Vec::new();
    let mut events = Vec::new();
    let mut report = Counts::default();
    let every = options.deep_every.max(1);
    for step in 0..=options.max_steps {
        let fail = |message: String| Violation { step, message };
        invariants(&g).map_err(fail)?;
        check_position(&g, &mut rng, &mut report).map_err(fail)?;
        if step % every == 0 || step == options.max_steps || g.decision().is_none() {
            deep_check(&g, &mut rng, options.listed_limit, &mut report).map_err(fail)?;
        }
        if step == options.max_steps {
            break;
        }
        let Some(d) = g.decision() else { break };
        events.clear();
        if options.timeouts && rng.below(16) == 0 {
            g.time_up(&mut events)
                .map_err(|e| fail(format!("time_up refused while a decision is owed: {e}")))?;
            log.push(LogEntry::TimeUp);
        } else {
            let Some(seat) = next_seat(&d, &mut rng) else {
                return Err(fail("a decision names no seat".into()));
            };
            let Some(action) = g.sample_action(seat, &mut rng) else {
                return Err(fail(format!("{seat} owes a decision but no action was sampled")));
            };
            let untouched = untouched_views(&g, g.views_touched(seat, &action));
            if let Err(e) = g.apply(seat, &action, &mut events) {
                return Err(fail(format!("sampled action {action:?} of {seat} refused: {e}")));
            }
            check_untouched(&untouched, &g, seat, &action).map_err(fail)?;
            report.untouched += untouched.len();
            log.push(LogEntry::Act { seat, action });
        }
    }
    let step = log.len();
    let replayed = crate::replay::<G>(setup, seed, &log, &mut Vec::new())
        .map_err(|e| Violation { step, message: format!("the log does not replay: {e}") })?;
    if replayed != g {
        return Err(Violation { step, message: "replaying the log gave a different state".into() });
    }
    let finished = g.decision().is_none();
    Ok(Report {
        game: g,
        log,
        finished,
        deep_checks: report.deep,
        scrambles: report.scrambles,
        refused: report.refused,
        untouched: report.untouched,
    })
}

#[derive(Default)]
struct Counts {
    deep: usize,
    scrambles: usize,
    refused: usize,
    untouched: usize,
}

/// Refusals, decision/outcome agreement: every step.
fn check_position<G: Conformance>(g: &G, rng: &mut Rng, n: &mut Counts) -> Result<(), String> {
    let decision = g.decision();
    match (&decision, g.outcome()) {
        (Some(_), Some(_)) => return Err("a decision is owed but the game has an outcome".into()),
        (None, None) => return Err("no decision is owed but the game has no outcome".into()),
        (None, Some(out)) => check_outcome(&out, g.seats())?,
        (Some(_), None) => {}
    }
    for (seat, action) in g.garbage(rng) {
        if !refusal_changes_nothing(g, seat, &action)? {
            n.refused += 1;
        }
    }
    // A seat that owes nothing cannot act, whatever it sends.
    let owing = decision.as_ref().map(Decision::seats).unwrap_or_default();
    if let Some(d) = &decision
        && let Some(owner) = next_seat(d, rng)
        && let Some(action) = g.sample_action(owner, rng)
    {
        for s in (0..g.seats()).map(|s| Seat(s as u8)).filter(|&s| !owing.contains(s)) {
            if refusal_changes_nothing(g, s, &action)? {
                return Err(format!("{s} owes nothing but its {action:?} was accepted"));
            }
            n.refused += 1;
        }
    }
    Ok(())
}

fn check_outcome(out: &Outcome, seats: usize) -> Result<(), String> {
    let mut ranked: Vec<Seat> = out.ranking.iter().flatten().copied().collect();
    ranked.sort();
    let all: Vec<Seat> = (0..seats).map(|s| Seat(s as u8)).collect();
    if ranked != all {
        return Err(format!("the outcome ranks {ranked:?}, not every seat once"));
    }
    if out.scores.as_ref().is_some_and(|s| s.len() != seats) {
        return Err("the outcome's scores are not one per seat".into());
    }
    Ok(())
}

/// Applies `action` to a copy: if refused, the copy must equal `g` and no event be pushed.
/// Returns whether it was accepted.
fn refusal_changes_nothing<G: Game>(g: &G, seat: Seat, action: &G::Action) -> Result<bool, String> {
    let mut copy = g.clone();
    let mut events = Vec::new();
    match copy.apply(seat, action, &mut events) {
        Ok(()) => Ok(true),
        Err(e) if &copy != g => {
            Err(format!("refused action {action:?} of {seat} ({}) changed the state", e.code()))
        }
        Err(e) if !events.is_empty() => {
            Err(format!("refused action {action:?} of {seat} ({}) pushed events", e.code()))
        }
        Err(_) => Ok(false),
    }
}

/// Listed ⇒ accepted, sampled ∈ listed, views hide secrets (scrambled and determinized).
fn deep_check<G: Conformance>(
    g: &G,
    rng: &mut Rng,
    limit: usize,
    n: &mut Counts,
) -> Result<(), String> {
    n.deep += 1;
    let owing = g.decision().map(|d| d.seats()).unwrap_or_default();
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let listed = g.legal_actions(seat);
        if !owing.contains(seat) {
            if !listed.is_empty() {
                return Err(format!("{seat} owes nothing but lists {} actions", listed.len()));
            }
            continue;
        }
        if listed.is_empty() {
            return Err(format!("{seat} owes a decision but lists no action"));
        }
        let step = (listed.len() / limit.max(1)).max(1);
        for a in listed.iter().step_by(step) {
            let mut copy = g.clone();
            let untouched = untouched_views(g, g.views_touched(seat, a));
            if let Err(e) = copy.apply(seat, a, &mut Vec::new()) {
                return Err(format!("listed action {a:?} of {seat} was refused: {e}"));
            }
            check_untouched(&untouched, &copy, seat, a)?;
            n.untouched += untouched.len();
        }
        match g.sample_action(seat, rng) {
            Some(a) if !listed.contains(&a) => {
                return Err(format!("sampled action {a:?} of {seat} is not listed"));
            }
            Some(_) => {}
            None => return Err(format!("{seat} owes a decision but no action was sampled")),
        }
    }
    let observers =
        (0..g.seats()).map(|s| Observer::Seat(Seat(s as u8))).chain([Observer::Spectator]);
    let mut changed = false;
    for observer in observers {
        let view = g.view(observer);
        let mut scrambled = g.clone();
        scrambled.scramble_secrets(observer, rng);
        // Counted when a secret changed (the omniscient view shows secrets, not the RNG).
        changed |= scrambled.view(Observer::Omniscient) != g.view(Observer::Omniscient);
        if scrambled.view(observer) != view {
            return Err(format!(
                "the view of {observer:?} changed when secrets it may not see were changed"
            ));
        }
        if scrambled.decision() != g.decision() {
            return Err(format!("scramble_secrets({observer:?}) changed who owes a decision"));
        }
        if scrambled.clock() != g.clock() {
            return Err(format!("scramble_secrets({observer:?}) changed the rules' clock"));
        }
        if let Observer::Seat(seat) = observer {
            let resampled = g.determinize(seat, rng);
            if resampled.view(observer) != view {
                return Err(format!("{seat}'s view changed when determinize resampled secrets"));
            }
            if resampled.decision() != g.decision() {
                return Err(format!("determinize({seat}) changed who owes a decision"));
            }
            if resampled.clock() != g.clock() {
                return Err(format!("determinize({seat}) changed the rules' clock"));
            }
        }
    }
    n.scrambles += usize::from(changed);
    Ok(())
}

/// A view as the server sends it: its JSON text.
fn view_text<G: Game>(g: &G, observer: Observer) -> Vec<u8> {
    serde_json::to_vec(&g.view(observer)).unwrap_or_else(|e| format!("error: {e}").into_bytes())
}

/// The views (as text) of the seats and the spectators that `touched` leaves out, before the
/// action it was asked for.
fn untouched_views<G: Game>(g: &G, touched: Touched) -> Vec<(Observer, Vec<u8>)> {
    (0..g.seats())
        .map(|s| Observer::Seat(Seat(s as u8)))
        .chain([Observer::Spectator])
        .filter(|&o| !touched.touches(o))
        .map(|o| (o, view_text(g, o)))
        .collect()
}

/// Each view taken by [`untouched_views`] before `seat`'s `action` is the same text after it
/// (`after`): a game that claims too little fails here.
fn check_untouched<G: Game>(
    before: &[(Observer, Vec<u8>)],
    after: &G,
    seat: Seat,
    action: &G::Action,
) -> Result<(), String> {
    for (observer, text) in before {
        if view_text(after, *observer) != *text {
            return Err(format!(
                "views_touched said {action:?} of {seat} leaves the view of {observer:?} as it \
                 was, but it changed"
            ));
        }
    }
    Ok(())
}

/// The seat that acts next in a random playout: the one-seat decision, or a random owing seat.
pub fn next_seat(d: &Decision, rng: &mut Rng) -> Option<Seat> {
    match d {
        Decision::One(s) => Some(*s),
        Decision::Simultaneous(set) => {
            let n = set.len();
            if n == 0 { None } else { set.iter().nth(rng.index(n)) }
        }
    }
}

/// Play random sampled actions (with a `time_up` now and then when `timeouts`), calling
/// `check` after every step. Returns the final state and its log.
pub fn random_playout<G: Game>(
    setup: &G::Setup,
    seed: u64,
    max_steps: usize,
    timeouts: bool,
    mut check: impl FnMut(&G, &[G::Event]),
) -> (G, Vec<LogEntry<G::Action>>) {
    let mut g = G::new(setup, seed).expect("the setup is valid");
    let mut rng = Rng::seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut log = Vec::new();
    let mut events = Vec::new();
    check(&g, &events);
    for _ in 0..max_steps {
        let Some(d) = g.decision() else { break };
        events.clear();
        if timeouts && rng.below(16) == 0 {
            g.time_up(&mut events).expect("time_up is legal while a decision is owed");
            log.push(LogEntry::TimeUp);
        } else {
            let seat = next_seat(&d, &mut rng).expect("a decision names a seat");
            let action = g
                .sample_action(seat, &mut rng)
                .unwrap_or_else(|| panic!("{seat} owes a decision but no action was sampled"));
            if let Err(e) = g.apply(seat, &action, &mut events) {
                panic!("a sampled action was rejected: {action:?} by {seat}: {e}");
            }
            log.push(LogEntry::Act { seat, action });
        }
        check(&g, &events);
    }
    (g, log)
}

/// Replaying (setup, seed, log) gives a state equal to `state`.
pub fn assert_replays<G: Game>(
    setup: &G::Setup,
    seed: u64,
    log: &[LogEntry<G::Action>],
    state: &G,
) {
    let replayed = crate::replay::<G>(setup, seed, log, &mut Vec::new()).expect("the log replays");
    assert!(&replayed == state, "replaying the log gave a different state");
}

/// If `action` is rejected, the state is unchanged and no event was pushed; returns whether
/// it was accepted.
pub fn assert_atomic<G: Game>(g: &G, seat: Seat, action: &G::Action) -> bool {
    refusal_changes_nothing(g, seat, action).unwrap_or_else(|e| panic!("{e}"))
}

/// Every listed legal action of every owing seat is accepted (up to `limit` per seat), and
/// seats that owe nothing list nothing.
pub fn assert_listed_actions_legal<G: Game>(g: &G, limit: usize) {
    let owing = g.decision().map(|d| d.seats()).unwrap_or_default();
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let listed = g.legal_actions(seat);
        if !owing.contains(seat) {
            assert!(listed.is_empty(), "{seat} owes nothing but lists {} actions", listed.len());
            continue;
        }
        assert!(!listed.is_empty(), "{seat} owes a decision but lists no action");
        let step = (listed.len() / limit.max(1)).max(1);
        for a in listed.iter().step_by(step) {
            assert!(assert_atomic(g, seat, a), "listed action {a:?} of {seat} was rejected");
        }
    }
}

/// A seat's view does not depend on what the seat cannot see: the view of a determinized
/// copy (hidden information resampled) equals the view of the real state. [`check_game`]
/// checks more: secrets changed directly in the state ([`Conformance::scramble_secrets`]).
pub fn assert_view_hides_secrets<G: Game>(g: &G, rng: &mut Rng) {
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let resampled = g.determinize(seat, rng);
        assert!(
            g.view(Observer::Seat(seat)) == resampled.view(Observer::Seat(seat)),
            "{seat}'s view changed when hidden information was resampled"
        );
        assert_eq!(g.decision(), resampled.decision(), "determinize changed who owes a decision");
    }
}
