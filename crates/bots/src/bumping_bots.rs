//! Bumping Bots policies: keep to the racing line and gain track (BB-2.2), judged by playing the
//! turn out through the engine (pushes, bumpers and cards included).

use crate::{HasBots, lookahead};
use bumping_bots::{Action, BumpingBots};
use engine::{Game, Rng, Seat};

/// The progress one lap is worth: the highest progress on the track, plus one.
fn lap_length(game: &BumpingBots) -> f64 {
    let track = game.track();
    track.track_cells().map(|h| track.cell(h).progress).max().unwrap_or(0) as f64 + 1.0
}

/// How far round the race a bot is, in cells of progress (BB-2.2: laps first, a bot that has not
/// made its start crossing counts −1 laps), plus a little for speed. `lap`: [`lap_length`].
fn race_position(game: &BumpingBots, seat: Seat, lap: f64) -> f64 {
    let track = game.track();
    let Some(b) = game.bots().iter().find(|b| b.seat == seat) else { return 0.0 };
    if b.finished {
        let place = b.finished_place.unwrap_or(1) as f64;
        return (track.laps() as f64 + 2.0) * lap - place;
    }
    let laps = b.laps as f64 - if b.started { 0.0 } else { 1.0 };
    let progress = b.at.map_or(0.0, |h| track.cell(h).progress as f64);
    // A little for speed (a cell is roughly lap / 40 of progress), but fast bots cannot turn
    // in corners: beyond 4 it counts against.
    let cell = lap / 40.0;
    let speed = if b.reverse {
        -(b.speed as f64)
    } else {
        (b.speed.min(4) as f64) - 0.5 * b.speed.saturating_sub(4) as f64
    };
    // Facing the racing direction matters for the next turn: each 60° off costs a cell.
    let heading = if b.reverse { b.facing.opposite() } else { b.facing };
    let off = b.at.and_then(|h| track.pref(h)).map_or(0, |p| p.turn_to(heading).abs()) as f64;
    laps * lap + progress + 0.3 * cell * speed - 1.5 * cell * off
}

impl HasBots for BumpingBots {
    type Scratch = ();

    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        let candidates = game.legal_actions(seat);
        lookahead::best_of(game, seat, candidates, 4, rng)
    }

    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        // The engine's own sampler leans towards the racing line and is cheap.
        game.sample_action(seat, rng).expect("the seat owes a decision")
    }

    fn evaluate(game: &Self, seat: Seat) -> f64 {
        if let Some(place) = crate::final_place(game, seat) {
            return place;
        }
        // Progress is counted per lap (a lap is about 1,000): a quarter lap ahead is clearly good.
        let lap = lap_length(game);
        crate::margin(game, seat, lap / 8.0, |s| race_position(game, s, lap))
    }
}
