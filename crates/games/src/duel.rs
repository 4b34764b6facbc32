//! One two-bot game, for `robodrome tournament`.

use crate::Registered;
use bots::BotSpec;
use engine::{Decision, Rng, Seat};
use serde_json::Value;
use std::time::Instant;

/// One game's result for the two bots of a pairing.
#[derive(Clone, Copy, Default, Debug)]
pub struct GameResult {
    /// Points of bot A: 1 win, 0.5 shared first place, 0 loss.
    pub a_points: f64,
    pub a_score: f64,
    pub b_score: f64,
    /// Decisions taken and time spent choosing, by bot (A, B).
    pub decisions: [u64; 2],
    pub nanos: [u64; 2],
}

pub(crate) fn play_json<G: Registered>(
    setup: &Value,
    seed: u64,
    a: &BotSpec,
    b: &BotSpec,
    a_seat: u8,
) -> Result<GameResult, String> {
    let setup: G::Setup =
        serde_json::from_value(setup.clone()).map_err(|e| format!("setup: {e}"))?;
    play::<G>(&setup, seed, a, b, a_seat)
}

/// Play one two-bot game: `a` sits in seat `a_seat`.
pub fn play<G: Registered>(
    setup: &G::Setup,
    seed: u64,
    a: &BotSpec,
    b: &BotSpec,
    a_seat: u8,
) -> Result<GameResult, String> {
    let mut g = G::new(setup, seed).map_err(|e| e.to_string())?;
    let mut bots = [G::bot(a), G::bot(b)];
    let mut rngs = [Rng::seeded(seed ^ 0xA), Rng::seeded(seed ^ 0xB)];
    let mut pick = Rng::seeded(seed ^ 0xC);
    let mut res = GameResult::default();
    let mut events = Vec::new();
    let mut steps = 0;
    while let Some(d) = g.decision() {
        let seat = match d {
            Decision::One(s) => s,
            Decision::Simultaneous(set) => {
                engine::harness::next_seat(&Decision::Simultaneous(set), &mut pick)
                    .ok_or("no seat owes a decision")?
            }
        };
        let who = if seat.0 == a_seat { 0 } else { 1 };
        let t = Instant::now();
        let action = bots[who].act(&g, seat, &mut rngs[who]);
        res.nanos[who] += t.elapsed().as_nanos() as u64;
        res.decisions[who] += 1;
        g.apply(seat, &action, &mut events)
            .map_err(|e| format!("a bot played an illegal action: {e}"))?;
        events.clear();
        steps += 1;
        if steps >= 100_000 {
            return Err("a game did not end".into());
        }
    }
    let o = g.outcome().ok_or("the game is over without an outcome")?;
    let winners = o.winners();
    if winners.contains(&Seat(a_seat)) {
        res.a_points = 1.0 / winners.len() as f64;
    }
    let scores = o.scores.unwrap_or_default();
    res.a_score = scores.get(a_seat as usize).copied().unwrap_or(0) as f64;
    res.b_score = scores.get(1 - a_seat as usize).copied().unwrap_or(0) as f64;
    Ok(res)
}
