//! RoboRally policies: follow the shortest path to the next flag (RR-5.5) over a distance map
//! that knows walls and pits (RR-2), and keep away from damage (RR-7) and destruction (RR-8).

use crate::{lookahead, HasBots};
use engine::{Game, Rng, Seat};
use grid::{Sq, SqDir};
use roborally::{Action, Board, RoboRally};
use std::collections::VecDeque;

/// Steps from every cell to `target`, moving between cells through wall-free sides and never
/// through a pit or off the board (`u16::MAX` where unreachable).
pub fn distance_map(board: &Board, target: Sq) -> Vec<u16> {
    let (w, h) = (board.width, board.height);
    let mut dist = vec![u16::MAX; (w * h).max(0) as usize];
    let idx = |s: Sq| (s.y * w + s.x) as usize;
    if !board.in_bounds(target) {
        return dist;
    }
    dist[idx(target)] = 0;
    let mut queue = VecDeque::from([target]);
    while let Some(c) = queue.pop_front() {
        let d = dist[idx(c)];
        for dir in SqDir::ALL {
            let n = c.neighbour(dir);
            if !board.in_bounds(n) || board.wall(c, dir) || board.is_pit(n) || !board.on_board(n) {
                continue;
            }
            if dist[idx(n)] == u16::MAX {
                dist[idx(n)] = d + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// A robot's progress in points: flags dominate, then closeness to the next flag, then health.
fn progress(game: &RoboRally, seat: Seat, maps: &mut Vec<Option<Vec<u16>>>) -> f64 {
    let board = game.board();
    let Some(r) = game.robot(seat) else { return 0.0 };
    if r.out {
        return -10_000.0;
    }
    let flags = board.flags.len();
    if r.finished || r.flags_touched as usize >= flags {
        return 10_000.0;
    }
    let next = r.flags_touched as usize;
    if maps.len() < flags {
        maps.resize(flags, None);
    }
    let map = maps[next].get_or_insert_with(|| distance_map(board, board.flags[next]));
    let at = r.at.unwrap_or(r.archive);
    let d = if board.in_bounds(at) { map[(at.y * board.width + at.x) as usize] } else { u16::MAX };
    let d = if d == u16::MAX { 60.0 } else { d as f64 };
    let mut p = 1000.0 * r.flags_touched as f64 - 10.0 * d - 4.0 * r.damage as f64 - 60.0 * (3u8.saturating_sub(r.lives)) as f64;
    if r.destroyed {
        p -= 40.0;
    }
    p
}

impl HasBots for RoboRally {
    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        let candidates = options(game, seat, rng);
        lookahead::best_of(game, seat, candidates, 1, rng)
    }

    /// About one turn: the other programs, the five registers, re-entries. The distance map
    /// judges the rest.
    const HORIZON: u32 = 12;
    const PLAYOUT_TO_END_OF_TURN: bool = true;

    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        // Inside search playouts: random programs (judging programs by lookahead inside every
        // playout would cost a whole turn per step).
        game.sample_action(seat, rng).expect("the seat owes a decision")
    }

    fn evaluate(game: &Self, seat: Seat) -> f64 {
        if let Some(o) = game.outcome() {
            let place = o.place_of(seat).unwrap_or(game.seats()) as f64;
            return 1.0 - place / game.seats().max(1) as f64;
        }
        let mut maps = Vec::new();
        let me = progress(game, seat, &mut maps);
        let best_other = (0..game.seats() as u8)
            .filter(|&s| s != seat.0)
            .map(|s| progress(game, Seat(s), &mut maps))
            .fold(f64::MIN, f64::max);
        let best_other = if best_other == f64::MIN { 0.0 } else { best_other };
        1.0 / (1.0 + (-(me - best_other) / 150.0).exp())
    }

    fn candidates(game: &Self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        // The sampled programs, with the heuristic's pick among them first.
        let mut out = options(game, seat, rng);
        if out.len() > 1 {
            let best = lookahead::best_of(game, seat, out.clone(), 1, rng);
            out.retain(|a| *a != best);
            out.insert(0, best);
        }
        out
    }
}

/// What a seat may do now: programs (up to 15,120 of them) as a sample of up to 40 distinct ones
/// drawn from the hand; every choice for the other, small decisions.
fn options(game: &RoboRally, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    match game.sample_action(seat, rng) {
        Some(first @ Action::Program { .. }) => {
            let mut out = vec![first];
            for _ in 0..120 {
                if out.len() >= 40 {
                    break;
                }
                if let Some(a) = game.sample_action(seat, rng) {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
            out
        }
        Some(_) => game.legal_actions(seat),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_map_respects_walls_and_pits() {
        let mut b = Board::new(3, 1);
        assert_eq!(distance_map(&b, Sq::new(0, 0)), vec![0, 1, 2]);
        b.add_wall(Sq::new(1, 0), SqDir::E);
        assert_eq!(distance_map(&b, Sq::new(0, 0))[2], u16::MAX);
    }
}
