//! Generic checks every game must pass, for the games' property tests.
//!
//! Each function panics with a message naming the broken promise. They do no I/O.

use crate::{Decision, Game, LogEntry, Observer, Rng, RuleError, Seat};

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
    let mut copy = g.clone();
    let mut events = Vec::new();
    match copy.apply(seat, action, &mut events) {
        Ok(()) => true,
        Err(e) => {
            assert!(&copy == g, "rejected action {action:?} ({}) changed the state", e.code());
            assert!(events.is_empty(), "rejected action {action:?} pushed events");
            false
        }
    }
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
/// copy (hidden information resampled) equals the view of the real state.
pub fn assert_view_hides_secrets<G: Game>(g: &G, rng: &mut Rng) {
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let resampled = g.determinize(seat, rng);
        let a = format!("{:?}", g.view(Observer::Seat(seat)));
        let b = format!("{:?}", resampled.view(Observer::Seat(seat)));
        assert_eq!(a, b, "{seat}'s view changed when hidden information was resampled");
        assert_eq!(g.decision(), resampled.decision(), "determinize changed who owes a decision");
    }
}
