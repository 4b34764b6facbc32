//! The search bot's Autoscooter plot and start heuristics as they were before issue 17's fifth
//! round (main `4cd1f964`), kept verbatim for tests only: `autoscooter::tests` checks that the
//! rewritten ones (previews kept for a planning phase, cars found by cell) choose the same plot
//! and start with the same draws.

use super::{jitter, threatens};
use autoscooter::{Action, Autoscooter, CrashKind, Letter};
use engine::{Rng, Seat};
use grid::HexDir;

/// What a plot's score depends on besides the letter: read once per decision, not per letter.
struct PlotContext {
    car: u8,
    me: Option<Seat>,
    /// Every car's hex, id and owner.
    cars: arrayvec::ArrayVec<(grid::Hex, u8, Option<Seat>), 8>,
    /// The planned moves of this player's other cars (AS-5.6: bumping one's own car pays).
    own_plans: arrayvec::ArrayVec<autoscooter::Preview, 8>,
    /// Other seats' moving cars: where they are, where they face, how far they reach.
    threats: arrayvec::ArrayVec<(grid::Hex, HexDir, i32), 8>,
}

impl PlotContext {
    fn new(game: &Autoscooter, car: u8) -> Self {
        let board = game.board();
        let me = game.cars().find(|c| c.id == car).and_then(|c| c.owner);
        // At most 8 cars (AS-1): on the stack, no allocation per decision (issue 17).
        let mut cars = arrayvec::ArrayVec::new();
        let mut own_plans = arrayvec::ArrayVec::new();
        let mut threats = arrayvec::ArrayVec::new();
        for c in game.cars() {
            cars.push((board.hex(c.cell), c.id, c.owner));
            if c.id == car || c.owner.is_none() {
                continue;
            }
            if c.owner == me {
                if let Some(p) =
                    game.plot(c.id).and_then(|p| p.letter).and_then(|l| game.preview(c.id, l))
                {
                    own_plans.push(p);
                }
            } else if c.speed > 0 {
                threats.push((board.hex(c.cell), c.facing, (c.speed + 1) as i32));
            }
        }
        PlotContext { car, me, cars, own_plans, threats }
    }
}

/// How good a move looks if made now: chits won, barriers and own cars avoided, room ahead.
/// Returns the score and whether the move rams for chits.
/// `previews` are the car's ([`Autoscooter::previews`]: a path's crash computed once for all
/// the letters that share it).
fn letter_score(
    game: &Autoscooter,
    ctx: &PlotContext,
    previews: &mut autoscooter::Previews<'_>,
    letter: Letter,
) -> (f64, bool) {
    let Some(p) = previews.get(letter) else { return (0.0, false) };
    let mut score = 10.0 * p.chits as f64;
    if let Some((CrashKind::Barrier, _)) = p.crash {
        score -= 5.0;
    }
    // Room ahead after the move: every option starts straight ahead (AS-3.2), so a car that
    // ends facing the barrier must crash next round.
    let board = game.board();
    let ahead = p.end.neighbour(p.facing);
    match board.cell(ahead) {
        None => score -= 6.0 + p.speed as f64,
        Some(_) => match ctx.cars.iter().find(|&&(h, id, _)| h == ahead && id != ctx.car) {
            Some((_, _, None)) => score -= 6.0,
            Some(&(_, _, owner)) if owner == ctx.me => score -= 2.0,
            Some(_) => score += 1.0,
            None => {
                score += 1.0;
                if board.cell(ahead.neighbour(p.facing)).is_none() {
                    score -= 1.0;
                }
            }
        },
    }
    // Stay out of the way of this player's own cars' planned moves.
    for op in &ctx.own_plans {
        let theirs = op.path.as_slice();
        if p.path.as_slice().iter().any(|h| theirs.contains(h)) || theirs.contains(&p.end) {
            score -= 8.0;
        } else if p.end.neighbour(p.facing) == op.end || op.end.neighbour(op.facing) == p.end {
            score -= 3.0;
        }
    }
    // Danger at the end of the move: other seats' moving cars that could reach the hex next,
    // straight ahead of them and within their reach next round.
    for &(from, facing, reach) in &ctx.threats {
        if threatens(from, facing, reach, p.end) {
            score -= 1.5;
        }
    }
    // Slow cars turn sharply and lose little in a crash; speed 3 can only go straight on.
    (score + [0.0, 1.0, 0.5, -2.0][p.speed.min(3) as usize], p.chits > 0)
}

/// Is `end` straight ahead of a car at `from` facing `facing`, within `reach` hexes? The same
/// as `from.line_to(end) == Some((facing, n))` with `n <= reach`, without trying the six
/// directions: `n` steps along `facing` from `from` land on `end` (issue 17).
/// The best plot among `tries` letters (all of them when `tries` covers the car's options).
pub(super) fn plot_among(game: &Autoscooter, car: u8, tries: u32, rng: &mut Rng) -> Action {
    let c = game.cars().find(|c| c.id == car).expect("the car exists");
    let first = c.nth_unused(0).expect("a number is left");
    let last = c.unused_numbers().last().expect("a number is left");
    if c.speed == 0 {
        // Start late, when the others have moved.
        return Action::plot(car, last, None);
    }
    let ctx = PlotContext::new(game, car);
    let (lo, hi) = Letter::range_at(c.speed);
    let span = (hi - lo + 1) as u32;
    let mut best = (f64::MIN, Letter::straight(c.speed), false);
    let noise = rng.next_u64();
    let mut previews = game.previews(car);
    for k in 0..span.min(tries) {
        let i = if tries >= span { lo + k as u8 } else { lo + rng.below(span) as u8 };
        let l = Letter::from_index(i).expect("A–P");
        let (score, rams) = letter_score(game, &ctx, &mut previews, l);
        let s = score + jitter(noise, k);
        if s > best.0 {
            best = (s, l, rams);
        }
    }
    // Strike first when a ram scores; otherwise act late, when the others have moved.
    let number = if best.2 { first } else { last };
    Action::plot(car, number, Some(best.1))
}

pub(super) fn start(game: &Autoscooter, seat: Seat, car: u8, rng: &mut Rng) -> Action {
    use autoscooter::board::NONE;
    let board = game.board();
    // Who stands on each cell (walking cells, a barrier blocks the view).
    let mut owner_at = [None::<Option<Seat>>; 256];
    let mut from = NONE;
    for c in game.cars() {
        if c.id == car {
            from = c.cell;
        } else {
            owner_at[c.cell as usize] = Some(c.owner);
        }
    }
    // The best start so far as (score, cell, facing): the action is built once, at the end.
    let mut best: Option<(f64, autoscooter::board::Cell, HexDir)> = None;
    let noise = rng.next_u64();
    let mut k = 0;
    for moved in HexDir::ALL {
        let to = board.neighbour(from, moved);
        if to == NONE || owner_at[to as usize].is_some() {
            continue;
        }
        for turn in -2..=2 {
            let facing = moved.turn(turn);
            let mut s = jitter(noise, k);
            k += 1;
            // A barrier right ahead is a trap; another seat's car ahead is a target.
            let ahead = board.neighbour(to, facing);
            if ahead == NONE {
                s -= 5.0;
            } else if board.neighbour(ahead, facing) != NONE {
                // Open space in front keeps options.
                s += 0.5;
            }
            let mut cell = to;
            for k in 1..=3 {
                cell = board.neighbour(cell, facing);
                if cell == NONE {
                    break;
                }
                if let Some(owner) = owner_at[cell as usize] {
                    if owner.is_some() && owner != Some(seat) {
                        s += 4.0 - k as f64;
                    }
                    break;
                }
            }
            if best.is_none_or(|b| s > b.0) {
                best = Some((s, to, facing));
            }
        }
    }
    let (_, to, facing) = best.expect("a start is owed only when a neighbour is free");
    Action::Start { car, to: board.hex(to), facing }
}
