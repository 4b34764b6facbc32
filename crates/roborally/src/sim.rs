//! Random full games, for `robodrome sim`, benches and tests.

use crate::RoboRally;
use crate::board::Course;
use crate::setup::{BoardSpec, Setup, Variants};
use engine::{Game, Rng, Seat};
use serde::Serialize;

/// What a random game came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub course: String,
    pub robots: u8,
    pub seed: u64,
    pub turns: u32,
    pub actions: usize,
    pub winner: Option<Seat>,
    /// True when the game ended by the rules (not by the turn limit).
    pub finished: bool,
}

/// Turns after which [`random_game`] stops a game that has not ended.
pub const RANDOM_GAME_MAX_TURNS: u32 = 200;

/// Play a game with random legal actions (at most [`RANDOM_GAME_MAX_TURNS`] turns).
pub fn random_game(
    course: &Course,
    robots: u8,
    seed: u64,
) -> Result<GameSummary, engine::SetupError> {
    random_game_capped(course, robots, seed, RANDOM_GAME_MAX_TURNS)
}

/// Play a game with random legal actions (at most `max_turns` turns).
/// A setup error (more robots than docks, or not 1..8 robots) is returned, never a panic.
pub fn random_game_capped(
    course: &Course,
    robots: u8,
    seed: u64,
    max_turns: u32,
) -> Result<GameSummary, engine::SetupError> {
    let setup = Setup::new_game(BoardSpec::Named(course.name.clone()), robots, Variants::default());
    let mut g = RoboRally::from_board(&setup, course.board.clone(), seed)?;
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    let mut events = Vec::new();
    let mut actions = 0;
    while g.turn <= max_turns {
        let n = engine::play_random(&mut g, &mut rng, &mut events, 1);
        events.clear();
        if n == 0 {
            break;
        }
        actions += n;
    }
    Ok(GameSummary {
        course: course.name.clone(),
        robots,
        seed,
        turns: g.turn,
        actions,
        winner: g.winner,
        finished: g.decision().is_none(),
    })
}

impl RoboRally {
    /// Start a game on an already built board (skips looking the course up by name).
    pub fn from_board(
        setup: &Setup,
        board: crate::Board,
        seed: u64,
    ) -> Result<RoboRally, engine::SetupError> {
        let mut g = RoboRally::from_setup_with_board(setup, board, seed)?;
        g.play_on(&mut Vec::new());
        Ok(g)
    }
}
