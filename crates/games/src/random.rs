//! Random-game drivers: games of random legal actions (`sample_action`) played to the end, for
//! `robodrome bench`, benches and tests. Out of the rules crates: they only call the engine.

use bumping_bots::BumpingBots;
use bumping_bots::setup::Setup as BbSetup;
use bumping_bots::track::{Board as BbBoard, BoardSpec as TrackSpec};
use engine::{Game, Rng, Seat};
use roborally::board::Course;
use roborally::{BoardSpec, RoboRally, Setup, Variants};
use serde::Serialize;
use std::sync::Arc;

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
    while g.turn() <= max_turns {
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
        turns: g.turn(),
        actions,
        winner: g.winner(),
        finished: g.decision().is_none(),
    })
}

/// What [`random_race`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceSummary {
    pub ranking: Vec<Vec<Seat>>,
    pub rounds: u32,
    pub actions: usize,
}

/// A race of `bots` random players (`sample_action`) on `track` over `laps` laps.
pub fn random_race(track: &TrackSpec, bots: u8, laps: u8, seed: u64) -> RaceSummary {
    RandomRacer::new(track, bots, laps).race(seed)
}

/// Random races on one track, the board built once (for simulations and benches).
#[derive(Clone, Debug)]
pub struct RandomRacer {
    setup: BbSetup,
    board: Arc<BbBoard>,
}

impl RandomRacer {
    pub fn new(track: &TrackSpec, bots: u8, laps: u8) -> RandomRacer {
        let mut spec = track.clone();
        spec.laps = laps;
        let board = Arc::new(BbBoard::build(&spec).expect("a valid track"));
        RandomRacer { setup: BbSetup::race(spec, bots), board }
    }

    /// One race of random players (`sample_action`), seeded.
    pub fn race(&self, seed: u64) -> RaceSummary {
        let mut g = BumpingBots::on_board(self.board.clone(), &self.setup, seed)
            .expect("a shipped track starts");
        let mut rng = Rng::seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
        let mut events = Vec::new();
        let mut actions = 0;
        while let Some(engine::Decision::One(seat)) = g.decision() {
            let Some(a) = g.sample_action(seat, &mut rng) else { break };
            events.clear();
            if g.apply(seat, &a, &mut events).is_err() {
                break;
            }
            actions += 1;
        }
        RaceSummary { ranking: g.ranking(), rounds: g.round(), actions }
    }
}
