//! One-turn lookahead through the engine: the heuristic of games whose rules are too rich to
//! hand-simulate (RoboRally, Bumping Bots). Each candidate is applied to the same determinized
//! state, the rest of the turn is played with the same random draws for every candidate
//! (common random numbers), and the game's evaluation scores the result.

use crate::HasBots;
use engine::{Decision, Game, Rng, Seat};

/// Pick the candidate whose turn ends best for `seat`. `follow` rollouts per candidate play the
/// seat's own later decisions of the turn at random; the best of them counts (the bot will
/// choose its follow-ups well). Never reads what `seat` cannot see: it starts from
/// `determinize`.
pub fn best_of<G: HasBots>(
    game: &G,
    seat: Seat,
    candidates: Vec<G::Action>,
    follow: u32,
    rng: &mut Rng,
) -> G::Action {
    assert!(!candidates.is_empty(), "{seat} owes a decision but has no candidate");
    if candidates.len() == 1 {
        return candidates.into_iter().next().expect("one");
    }
    let base = game.determinize(seat, rng);
    let draws = rng.next_u64();
    let mut events = Vec::new();
    let mut best = (f64::MIN, 0usize);
    for (i, c) in candidates.iter().enumerate() {
        let mut value = f64::MIN;
        for k in 0..follow.max(1) {
            let mut g = base.clone();
            events.clear();
            if g.apply(seat, c, &mut events).is_err() {
                break;
            }
            let mut r = Rng::seeded(draws ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            finish_turn(&mut g, seat, &mut r, &mut events);
            value = value.max(G::evaluate(&g, seat));
        }
        if value > best.0 {
            best = (value, i);
        }
    }
    candidates.into_iter().nth(best.1).expect("best exists")
}

/// Play on at random until the seat's turn is over: another seat must decide alone, the seat
/// is asked to decide together with others again, or the game ends.
pub fn finish_turn<G: Game>(g: &mut G, seat: Seat, rng: &mut Rng, events: &mut Vec<G::Event>) {
    for _ in 0..200 {
        let s = match g.decision() {
            None => return,
            Some(Decision::One(s)) if s == seat => s,
            Some(Decision::One(_)) => return,
            Some(Decision::Simultaneous(set)) if set.contains(seat) => return,
            Some(Decision::Simultaneous(set)) => match set.first() {
                Some(s) => s,
                None => return,
            },
        };
        let Some(a) = g.sample_action(s, rng) else { return };
        events.clear();
        if g.apply(s, &a, events).is_err() {
            return;
        }
    }
}
