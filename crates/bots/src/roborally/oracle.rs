//! The oracle planner: a measuring stick for bots alone on a course, not a player.
//!
//! A one-robot game is deterministic once the seed is known: the deck order and every later
//! deal are in the state's RNG. The oracle plays clones of the real state, so it knows every
//! future hand. Beam search over turns: from each kept state it tries every program of the real
//! hand (programs that differ only in card priorities are the same alone on the board, so one
//! per sequence of card kinds), plays the turn through the engine (re-entry: the choice that
//! leaves the robot best placed; no power-down, no option card uses), and keeps the `beam`
//! best distinct positions by [`super::standing`]. The first turn in which some line touches
//! the last flag is the oracle's count. A beam search is not exhaustive: it is an upper bound of
//! the best possible count, tight when the beam is wide.

use super::{Maps, standing};
use crate::Bot;
use engine::{Decision, Game, Rng, Seat};
use roborally::{Action, Phase, RoboRally};

/// What makes two positions the same for the beam: cell, facing, flags, damage, lives.
type Key = (Option<grid::Sq>, u8, u8, u8, u8);

/// Turns the oracle needs for `seat`, alone on the board, to touch the last flag from `game`
/// (which owes that seat's program), or `None` within `max_turns`.
pub fn oracle_turns(game: &RoboRally, seat: Seat, beam: usize, max_turns: u32) -> Option<u32> {
    search(game, seat, beam, max_turns).map(|(turns, _)| turns)
}

/// The oracle's line: every action the seat takes, in order (programs, re-entries, stay-down
/// answers), from `game` to the register in which it touches the last flag. Replayed through
/// the engine it touches it in as many turns as the line has programs.
pub fn oracle_line(
    game: &RoboRally,
    seat: Seat,
    beam: usize,
    max_turns: u32,
) -> Option<Vec<Action>> {
    search(game, seat, beam, max_turns).map(|(_, line)| line)
}

/// The beam search: the turns counted (one per step of the beam) and the line.
fn search(game: &RoboRally, seat: Seat, beam: usize, max_turns: u32) -> Option<(u32, Vec<Action>)> {
    let mut maps = Maps::new();
    let mut frontier = vec![(game.clone(), Vec::new())];
    for t in 1..=max_turns {
        let mut children: Vec<(f64, Key, RoboRally, Vec<Action>)> = Vec::new();
        for (g, line) in &frontier {
            for a in moves(g, seat) {
                let mut h = g.clone();
                let turn = h.turn();
                if h.apply(seat, &a, &mut Vec::new()).is_err() {
                    continue;
                }
                let mut line = line.clone();
                line.push(a);
                finish(&mut h, turn, &mut line, &mut maps);
                if done(&h, seat) {
                    return Some((t, line));
                }
                let r = h.robot(seat).expect("the seat's robot");
                if r.out {
                    continue;
                }
                let key = (r.at, r.facing.index(), r.flags_touched, r.damage, r.lives);
                children.push((standing(&h, seat, &mut maps), key, h, line));
            }
        }
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut seen = Vec::new();
        frontier.clear();
        for (_, key, h, line) in children {
            if frontier.len() >= beam {
                break;
            }
            if !seen.contains(&key) {
                seen.push(key);
                frontier.push((h, line));
            }
        }
        if frontier.is_empty() {
            return None;
        }
    }
    None
}

/// The robot touched the last flag (or the game is over with it first).
fn done(g: &RoboRally, seat: Seat) -> bool {
    let r = g.robot(seat).expect("the seat's robot");
    r.finished || r.flags_touched as usize >= g.board().flags.len() || g.winner() == Some(seat)
}

/// One program per sequence of card kinds (and the stay-down answer when one is owed).
fn moves(g: &RoboRally, seat: Seat) -> Vec<Action> {
    match g.phase() {
        Phase::StayDown { .. } => vec![Action::StayDown { value: false }],
        _ => {
            let mut seen = std::collections::HashSet::new();
            let mut out = Vec::new();
            for a in g.legal_actions(seat) {
                if let Action::Program { registers, power_down_next: false } = a {
                    let kinds = registers.map(|c| c.map(|c| c.card));
                    if seen.insert(kinds) {
                        out.push(a);
                    }
                }
            }
            out
        }
    }
}

/// Play on until the seat owes its program (or stay-down answer) of a turn after `turn` (the
/// turn whose program was just given) or the game ends; the seat's actions go on `line`. The
/// engine may already be there: a program is never chosen here (that was a bug once: every
/// line got a free turn).
fn finish(g: &mut RoboRally, turn: u32, line: &mut Vec<Action>, maps: &mut Maps) {
    for _ in 0..200 {
        let Some(d) = g.decision() else { return };
        if matches!(g.phase(), Phase::Program { .. } | Phase::StayDown { .. })
            && g.pending().is_none()
        {
            debug_assert!(g.turn() > turn, "a turn's program is owed twice");
            return;
        }
        let s = match d {
            Decision::One(s) => s,
            Decision::Simultaneous(set) => match set.first() {
                Some(s) => s,
                None => return,
            },
        };
        let a = match g.phase() {
            Phase::Reenter { .. } if g.pending().is_none() => {
                let mut best: Option<(f64, Action)> = None;
                for a in g
                    .legal_actions(s)
                    .into_iter()
                    .filter(|a| matches!(a, Action::Reenter { powered_down: false, .. }))
                {
                    let mut h = g.clone();
                    let _ = h.apply(s, &a, &mut Vec::new());
                    let v = standing(&h, s, maps);
                    if best.as_ref().is_none_or(|b| v > b.0) {
                        best = Some((v, a));
                    }
                }
                best.map(|b| b.1)
            }
            Phase::StayDown { .. } => Some(Action::StayDown { value: false }),
            _ => {
                let all = g.legal_actions(s);
                all.iter()
                    .find(|a| {
                        matches!(
                            a,
                            Action::UseOption { option: None, .. }
                                | Action::DiscardOption { option: None }
                        )
                    })
                    .or(all.first())
                    .cloned()
            }
        };
        let Some(a) = a else { return };
        if g.apply(s, &a, &mut Vec::new()).is_err() {
            return;
        }
        line.push(a);
    }
}

/// Turns `bot` needs alone on the board to touch the last flag from `game` (`None` within
/// `max_turns`): the same count as [`oracle_turns`].
pub fn solo_turns(
    game: &RoboRally,
    seat: Seat,
    bot: &mut dyn Bot<RoboRally>,
    rng: &mut Rng,
    max_turns: u32,
) -> Option<u32> {
    let mut g = game.clone();
    let first = g.turn();
    for _ in 0..100_000 {
        if done(&g, seat) {
            return Some(g.turn() - first + 1);
        }
        if g.turn() - first >= max_turns {
            return None;
        }
        let d = g.decision()?;
        let s = engine::harness::next_seat(&d, rng)?;
        let a = bot.act(&g, s, rng);
        if g.apply(s, &a, &mut Vec::new()).is_err() {
            return None;
        }
    }
    None
}
