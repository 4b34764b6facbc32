//! Autoscooter policies: rams that score, no barriers, no frontal losses (AS-5.5).

use crate::HasBots;
use autoscooter::{Action, Autoscooter, CrashKind, Letter, LetterInput, Owed};
use grid::HexDir;
use engine::{Game, Rng, Seat};


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
        let me = game.seat_score(seat) as f64;
        let best_other = (0..game.seats() as u8)
            .filter(|&s| s != seat.0)
            .map(|s| game.seat_score(Seat(s)) as f64)
            .fold(f64::MIN, f64::max);
        let margin = 1.0 / (1.0 + (-(me - best_other) / 4.0).exp());
        match game.outcome() {
            Some(o) => {
                let win = if o.winners().contains(&seat) { 1.0 / o.winners().len() as f64 } else { 0.0 };
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

/// How good a move looks if made now: chits won, barriers and own cars avoided, room ahead.
fn letter_score(game: &Autoscooter, car: u8, letter: Letter) -> f64 {
    let Some(p) = game.preview(car, letter) else { return 0.0 };
    let mut score = 10.0 * p.chits as f64;
    if let Some((CrashKind::Barrier, _)) = p.crash {
        score -= 5.0;
    }
    // Room ahead after the move: every option starts straight ahead (AS-3.2), so a car that
    // ends facing the barrier must crash next round.
    let board = game.board();
    let me = game.cars().find(|c| c.id == car).and_then(|c| c.owner);
    let ahead = p.end.neighbour(p.facing);
    match board.cell(ahead) {
        None => score -= 6.0 + p.speed as f64,
        Some(_) => match game.cars().find(|c| board.hex(c.cell) == ahead && c.id != car) {
            Some(c) if c.owner.is_none() => score -= 6.0,
            Some(c) if c.owner == me => score -= 2.0,
            Some(_) => score += 1.0,
            None => {
                score += 1.0;
                if board.cell(ahead.neighbour(p.facing)).is_none() {
                    score -= 1.0;
                }
            }
        },
    }
    // Stay out of the way of this player's own cars' planned moves (AS-5.6: bumping one's
    // own car pays the box).
    for other in game.cars().filter(|c| c.id != car && c.owner == me && c.owner.is_some()) {
        let Some(plot) = game.plot(other.id) else { continue };
        let Some(op) = plot.letter.and_then(|l| game.preview(other.id, l)) else { continue };
        let theirs = op.path.as_slice();
        if p.path.as_slice().iter().any(|h| theirs.contains(h)) || theirs.contains(&p.end) {
            score -= 8.0;
        } else if p.end.neighbour(p.facing) == op.end || op.end.neighbour(op.facing) == p.end {
            score -= 3.0;
        }
    }
    // Slow cars turn sharply and lose little in a crash; speed 3 can only go straight on.
    score + [0.0, 1.0, 0.5, -2.0][p.speed.min(3) as usize] + exposure(game, car, &p)
}

/// Danger at the end of a move: other seats' moving cars that could reach the hex next.
fn exposure(game: &Autoscooter, car: u8, p: &autoscooter::Preview) -> f64 {
    let me = game.cars().find(|c| c.id == car).and_then(|c| c.owner);
    let board = game.board();
    let mut risk = 0.0;
    for other in game.cars().filter(|c| c.id != car && c.speed > 0 && c.owner.is_some() && c.owner != me) {
        let from = board.hex(other.cell);
        if let Some((d, n)) = from.line_to(p.end) {
            // Straight ahead of it, within its reach next round.
            if d == other.facing && n <= (other.speed + 1) as i32 {
                risk -= 1.5;
            }
        }
    }
    risk
}

fn plot(game: &Autoscooter, car: u8, rng: &mut Rng) -> Action {
    plot_among(game, car, 16, rng)
}

/// The best plot among `tries` letters (all of them when `tries` covers the car's options).
fn plot_among(game: &Autoscooter, car: u8, tries: u32, rng: &mut Rng) -> Action {
    let c = game.cars().find(|c| c.id == car).expect("the car exists");
    let unused: Vec<u8> = c.unused_numbers().collect();
    if c.speed == 0 {
        // Start late, when the others have moved.
        return Action::plot(car, *unused.last().expect("a number is left"), None);
    }
    let (lo, hi) = Letter::range_at(c.speed);
    let span = (hi - lo + 1) as u32;
    let mut best = (f64::MIN, Letter::straight(c.speed));
    for k in 0..span.min(tries) {
        let i = if tries >= span { lo + k as u8 } else { lo + rng.below(span) as u8 };
        let l = Letter::from_index(i).expect("A–P");
        let s = letter_score(game, car, l) + rng.below(100) as f64 / 1000.0;
        if s > best.0 {
            best = (s, l);
        }
    }
    let attacking = game.preview(car, best.1).is_some_and(|p| p.chits > 0);
    // Strike first when a ram scores; otherwise act late.
    // Strike first when a ram scores; otherwise act late, when the others have moved.
    let number = if attacking { unused[0] } else { unused[unused.len() - 1] };
    Action::plot(car, number, Some(best.1))
}

fn plot_wild(game: &Autoscooter, seat: Seat, rng: &mut Rng) -> Action {
    // The wild car should hurt someone else: prefer a letter whose crash hits another seat's car.
    let w = game.wild_car().expect("a wild car");
    let wc = game.cars().find(|c| c.id == w).expect("the wild car exists");
    let (lo, hi) = Letter::range_at(wc.speed);
    let mut best = (f64::MIN, Letter::straight(wc.speed));
    for i in lo..=hi {
        let l = Letter::from_index(i).expect("A–P");
        let mut s = rng.below(100) as f64 / 1000.0;
        if let Some(p) = game.preview(w, l) {
            if let Some((_, Some(hit))) = p.crash {
                let owner = game.cars().find(|c| c.id == hit).and_then(|c| c.owner);
                s += if owner == Some(seat) { -5.0 } else { 3.0 };
            }
        }
        if s > best.0 {
            best = (s, l);
        }
    }
    Action::PlotWild { letter: Some(LetterInput::Valid(best.1)) }
}

fn start(game: &Autoscooter, seat: Seat, car: u8, rng: &mut Rng) -> Action {
    let board = game.board();
    let from = board.hex(game.cars().find(|c| c.id == car).expect("the car exists").cell);
    let occupied = |h: grid::Hex| game.cars().any(|c| board.hex(c.cell) == h);
    let mut best: Option<(f64, Action)> = None;
    for moved in HexDir::ALL {
        let to = from.neighbour(moved);
        if board.cell(to).is_none() || occupied(to) {
            continue;
        }
        for turn in -2..=2 {
            let facing = moved.turn(turn);
            let mut s = rng.below(100) as f64 / 1000.0;
            // A barrier right ahead is a trap; another seat's car ahead is a target.
            if board.cell(to.neighbour(facing)).is_none() {
                s -= 5.0;
            }
            for k in 1..=3 {
                let h = to.offset(facing, k);
                if let Some(c) = game.cars().find(|c| board.hex(c.cell) == h && c.id != car) {
                    if c.owner.is_some() && c.owner != Some(seat) {
                        s += 4.0 - k as f64;
                    }
                    break;
                }
            }
            // Open space in front keeps options.
            if board.cell(to.neighbour(facing).neighbour(facing)).is_some() {
                s += 0.5;
            }
            if best.as_ref().is_none_or(|b| s > b.0) {
                best = Some((s, Action::Start { car, to, facing }));
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
