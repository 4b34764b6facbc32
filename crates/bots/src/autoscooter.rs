//! Autoscooter policies: rams that score, no barriers, no frontal losses (AS-5.5).

use crate::HasBots;
use autoscooter::{Action, Autoscooter, CrashKind, Letter, LetterInput, Owed};
use engine::{Game, Rng, Seat};
use grid::HexDir;

impl HasBots for Autoscooter {
    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        match game.owed(seat) {
            Some(Owed::Plot(car)) => plot(game, car, rng),
            Some(Owed::PlotWild) => plot_wild(game, seat, rng),
            Some(Owed::Start(car)) => start(game, seat, car, rng),
            Some(Owed::Payment) => payment(game, seat, &game.legal_actions(seat)),
            None => panic!("{seat} owes no decision"),
        }
    }

    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        match game.owed(seat) {
            // Inside playouts: the best of three random letters, not of all sixteen.
            Some(Owed::Plot(car)) => plot_among(game, car, 3, rng),
            _ => Self::heuristic(game, seat, rng),
        }
    }

    fn evaluate(game: &Self, seat: Seat) -> f64 {
        // Share of first place at the end; before the end, the score margin over the best
        // other seat, squashed to 0..1.
        let margin = crate::margin(game, seat, 4.0, |s| game.seat_score(s) as f64);
        match game.outcome() {
            Some(o) => {
                let win =
                    if o.winners().contains(&seat) { 1.0 / o.winners().len() as f64 } else { 0.0 };
                0.75 * win + 0.25 * margin
            }
            None => margin,
        }
    }

    fn candidates(game: &Self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        let legal = game.legal_actions(seat);
        let Some(Action::Plot { car, .. }) = legal.first() else { return legal };
        // Numbers matter only by their order against the others': lowest, middle, highest.
        let car = *car;
        let c = game.cars().find(|c| c.id == car).expect("the car exists");
        let unused: Vec<u8> = c.unused_numbers().collect();
        let mut numbers = vec![unused[0], unused[unused.len() / 2], unused[unused.len() - 1]];
        numbers.dedup();
        let letters: Vec<Option<Letter>> = if c.speed == 0 {
            vec![None]
        } else {
            let (lo, hi) = Letter::range_at(c.speed);
            (lo..=hi).map(Letter::from_index).collect()
        };
        let mut out: Vec<Action> = numbers
            .iter()
            .flat_map(|&n| letters.iter().map(move |&l| Action::plot(car, n, l)))
            .collect();
        let h = plot(game, car, rng);
        if !out.contains(&h) {
            out.push(h);
        }
        out
    }
}

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
fn threatens(from: grid::Hex, facing: HexDir, reach: i32, end: grid::Hex) -> bool {
    let n = from.distance(end);
    n > 0 && n <= reach && from.offset(facing, n) == end
}

/// A small random tie-break in 0..0.1 for the `k`-th option, from one draw per decision.
fn jitter(noise: u64, k: u32) -> f64 {
    let x = (noise ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xd6e8_feb8_6659_fd93);
    (x >> 40) as f64 / (1u64 << 24) as f64 / 10.0
}

fn plot(game: &Autoscooter, car: u8, rng: &mut Rng) -> Action {
    plot_among(game, car, 16, rng)
}

/// The best plot among `tries` letters (all of them when `tries` covers the car's options).
fn plot_among(game: &Autoscooter, car: u8, tries: u32, rng: &mut Rng) -> Action {
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

fn plot_wild(game: &Autoscooter, seat: Seat, rng: &mut Rng) -> Action {
    // The wild car should hurt someone else: prefer a letter whose crash hits another seat's car.
    let w = game.wild_car().expect("a wild car");
    let wc = game.cars().find(|c| c.id == w).expect("the wild car exists");
    let (lo, hi) = Letter::range_at(wc.speed);
    let mut best = (f64::MIN, Letter::straight(wc.speed));
    let mut previews = game.previews(w);
    for i in lo..=hi {
        let l = Letter::from_index(i).expect("A–P");
        let mut s = rng.below(100) as f64 / 1000.0;
        if let Some(p) = previews.get(l)
            && let Some((_, Some(hit))) = p.crash
        {
            let owner = game.cars().find(|c| c.id == hit).and_then(|c| c.owner);
            s += if owner == Some(seat) { -5.0 } else { 3.0 };
        }
        if s > best.0 {
            best = (s, l);
        }
    }
    Action::PlotWild { letter: Some(LetterInput::Valid(best.1)) }
}

fn start(game: &Autoscooter, seat: Seat, car: u8, rng: &mut Rng) -> Action {
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
    let mut best: Option<(f64, Action)> = None;
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
            if best.as_ref().is_none_or(|b| s > b.0) {
                best = Some((s, Action::Start { car, to: board.hex(to), facing }));
            }
        }
    }
    best.expect("a start is owed only when a neighbour is free").1
}

fn payment(game: &Autoscooter, seat: Seat, legal: &[Action]) -> Action {
    // Choose the colours that leave this seat the best score: try each option.
    let mut best = (i64::MIN, legal[0].clone());
    for a in legal {
        let mut g = game.clone();
        if g.apply(seat, a, &mut Vec::new()).is_ok() {
            let s = g.seat_score(seat);
            if s > best.0 {
                best = (s, a.clone());
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use grid::Hex;

    /// `threatens` is `line_to` in a straight line within reach, for every pair of hexes of a
    /// patch larger than any rink's reach.
    #[test]
    fn threatens_is_line_to_within_reach() {
        let patch: Vec<Hex> =
            (-5..=5).flat_map(|q| (-5..=5).map(move |r| Hex::new(q, r))).collect();
        for &from in &patch {
            for &end in &patch {
                for facing in HexDir::ALL {
                    for reach in 0..=4 {
                        let by_line =
                            matches!(from.line_to(end), Some((d, n)) if d == facing && n <= reach);
                        assert_eq!(
                            threatens(from, facing, reach, end),
                            by_line,
                            "{from:?} {end:?}"
                        );
                    }
                }
            }
        }
    }
}
