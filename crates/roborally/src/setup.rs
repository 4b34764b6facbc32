//! The setup of a game (and the `board` / `setup` / `variants` of a scenario file, RR-11).
//! A raw [`Setup`] is checked by [`crate::RoboRally::from_setup`], which lists every problem.

use crate::board::course::shipped_board;
use crate::board::inline::InlineBoard;
use crate::board::{Board, course_by_name};
use crate::card::{Card, full_deck};
use crate::deck::Deck;
use crate::option::OptionCard;
use crate::robot::Robot;
use crate::{Phase, RoboRally, Rules, Step};
use engine::{Rng, Seat, SetupError};
use grid::{Sq, SqDir};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// At most 8 robots (RR intro: 2 to 8; a setup may have 1).
pub const MAX_ROBOTS: usize = 8;
/// A game (not a scenario) is for 2 to [`MAX_ROBOTS`] players (RR intro).
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=MAX_ROBOTS;
/// The course a new game is played on when none is chosen (the first of the booklet's courses).
pub const DEFAULT_COURSE: &str = "first-steps";

/// A shipped course by name, an inline board (RR-11), or a course file's text (a course saved
/// on the server, over the shipped pieces: `{"course": "course My Course\nplace ..."}`,
/// docs/editors.md), kept whole so that the game keeps the exact course it began on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BoardSpec {
    Named(String),
    Inline(InlineBoard),
    Text { course: String },
}

/// Optional rules (RR-1.2 `lives4`, RR-10 `full_ranking`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Variants {
    pub lives4: bool,
    pub full_ranking: bool,
}

/// Where play starts (RR-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StartPhase {
    #[default]
    Program,
    Execute,
}

/// One robot of a setup; fields left out take the normal starting values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RobotSetup {
    pub seat: Seat,
    /// Start dock (default: seat + 1).
    #[serde(default)]
    pub dock: Option<u8>,
    /// Default: on its dock.
    #[serde(default)]
    pub at: Option<Sq>,
    /// Default: the dock's facing (towards the factory board).
    #[serde(default)]
    pub facing: Option<SqDir>,
    #[serde(default)]
    pub damage: u8,
    /// Default: 3 (4 with `lives4`).
    #[serde(default)]
    pub lives: Option<u8>,
    #[serde(default)]
    pub flags_touched: u8,
    /// Default: where it stands.
    #[serde(default)]
    pub archive: Option<Sq>,
    #[serde(default)]
    pub powered_down: bool,
    #[serde(default)]
    pub power_down_next: bool,
    #[serde(default)]
    pub registers: Option<[Option<Card>; 5]>,
    /// Program phase: the hand (default: dealt from the shuffled deck).
    #[serde(default)]
    pub hand: Option<Vec<Card>>,
    #[serde(default)]
    pub options: Vec<OptionCard>,
}

/// The `setup` object of a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioSetup {
    pub robots: Vec<RobotSetup>,
    /// Instead of `robots`: this many robots on docks 1..n.
    pub players: Option<u8>,
    pub phase: StartPhase,
    pub turn: Option<u32>,
    pub timer_seconds: Option<u32>,
    /// The top of the draw pile, the first card listed drawn first (RR-11 addition): the
    /// rest of the deck is shuffled (seeded) beneath. The next shuffle (RR-4.1, before every
    /// deal) mixes them in again.
    pub deck: Vec<Card>,
}

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub board: BoardSpec,
    pub robots: Vec<RobotSetup>,
    #[serde(default)]
    pub phase: StartPhase,
    #[serde(default)]
    pub variants: Variants,
    #[serde(default = "default_timer")]
    pub timer_seconds: u32,
    #[serde(default = "first_turn")]
    pub turn: u32,
    /// The top of the draw pile at the start, first drawn first (scenarios only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck: Vec<Card>,
}

fn default_timer() -> u32 {
    30
}
fn first_turn() -> u32 {
    1
}

impl Setup {
    /// A normal start: `players` robots on docks 1..n of a course (RR-3).
    pub fn new_game(board: BoardSpec, players: u8, variants: Variants) -> Setup {
        let robots =
            (0..players).map(|s| RobotSetup { seat: Seat(s), ..RobotSetup::default() }).collect();
        Setup {
            board,
            robots,
            phase: StartPhase::Program,
            variants,
            timer_seconds: 30,
            turn: 1,
            deck: Vec::new(),
        }
    }

    /// Join the three parts of a scenario file.
    pub fn from_scenario(board: BoardSpec, setup: ScenarioSetup, variants: Variants) -> Setup {
        let robots = match setup.players {
            Some(n) if setup.robots.is_empty() => {
                (0..n).map(|s| RobotSetup { seat: Seat(s), ..RobotSetup::default() }).collect()
            }
            _ => setup.robots,
        };
        Setup {
            board,
            robots,
            phase: setup.phase,
            variants,
            timer_seconds: setup.timer_seconds.unwrap_or(30),
            turn: setup.turn.unwrap_or(1),
            deck: setup.deck,
        }
    }

    pub fn build_board(&self) -> Result<Board, SetupError> {
        match &self.board {
            BoardSpec::Named(n) => course_by_name(n)
                .map(|c| c.board)
                .ok_or_else(|| SetupError::one(format!("no shipped course named {n:?}"))),
            BoardSpec::Inline(b) => b.build().map_err(|problems| SetupError { problems }),
            BoardSpec::Text { course } => crate::board::course::load_course_text(course)
                .map(|c| c.board)
                .map_err(|e| SetupError::one(e.to_string())),
        }
    }
}

impl RoboRally {
    /// Check a setup and build the starting state (before playing on to the first decision).
    pub fn from_setup(setup: &Setup, seed: u64) -> Result<RoboRally, SetupError> {
        let board = match &setup.board {
            // A shipped course: the board parsed once per process, shared (issue 17).
            BoardSpec::Named(n) => shipped_board(n)
                .ok_or_else(|| SetupError::one(format!("no shipped course named {n:?}")))?,
            BoardSpec::Inline(_) | BoardSpec::Text { .. } => Arc::new(setup.build_board()?),
        };
        RoboRally::from_setup_with_shared_board(setup, board, seed)
    }

    /// As [`RoboRally::from_setup`], on a board already built (`setup.board` is not read).
    pub fn from_setup_with_board(
        setup: &Setup,
        board: Board,
        seed: u64,
    ) -> Result<RoboRally, SetupError> {
        RoboRally::from_setup_with_shared_board(setup, Arc::new(board), seed)
    }

    /// As [`RoboRally::from_setup_with_board`], on a board shared with other games.
    pub fn from_setup_with_shared_board(
        setup: &Setup,
        board: Arc<Board>,
        seed: u64,
    ) -> Result<RoboRally, SetupError> {
        let mut problems = Vec::new();
        let robots = build_robots(setup, &board, &mut problems);
        let used = collect_cards(&robots, &mut problems);
        let mut top = BTreeSet::new();
        for (k, c) in setup.deck.iter().enumerate() {
            if !c.is_real() {
                problems.push(format!(
                    "setup.deck[{k}]: {:?} {} is not a card of RR-1.1",
                    c.card, c.priority
                ));
            } else if used.contains(c) || !top.insert(*c) {
                problems
                    .push(format!("setup.deck[{k}]: card {} is already in the setup", c.priority));
            }
        }
        let mut held = BTreeSet::new();
        for r in &robots {
            for o in &r.options {
                if !held.insert(*o) {
                    problems.push(format!(
                        "seat {}: option card {o:?} appears twice in the setup (RR-9: one of each)",
                        r.seat.0
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let mut rng = Rng::seeded(seed);
        let mut draw: Vec<Card> = full_deck().into_iter().filter(|c| !used.contains(c)).collect();
        rng.shuffle(&mut draw);
        // The scenario's top cards: the last element is the top (drawn first).
        draw.retain(|c| !top.contains(c));
        draw.extend(setup.deck.iter().rev());
        let mut option_deck = OptionCard::ALL.to_vec();
        let held: Vec<OptionCard> = robots.iter().flat_map(|r| r.options.iter().copied()).collect();
        option_deck.retain(|o| !held.contains(o));
        rng.shuffle(&mut option_deck);
        let phase = match setup.phase {
            StartPhase::Execute => Phase::Execute { register: 1, step: Step::Reveal },
            StartPhase::Program => Phase::Program { owes: crate::per_robot(false, robots.len()) },
        };
        let occupancy = RoboRally::occupancy_of(&board, &robots);
        let cell_index = RoboRally::cell_index_of(&board, &robots);
        let mut g = RoboRally {
            board,
            robots,
            occupancy,
            cell_index,
            deck: Deck { draw, discard: Vec::new() },
            option_deck,
            option_discard: Vec::new(),
            phase,
            pending: VecDeque::new(),
            turn: setup.turn.max(1),
            moment: 0,
            rules: Rules { variants: setup.variants, timer_seconds: setup.timer_seconds },
            move_answer: None,
            reveal_asked: None,
            arm_asked: None,
            winner: None,
            finish_order: Vec::new(),
            rng,
        };
        if setup.phase == StartPhase::Program {
            let given: Vec<bool> = setup.robots.iter().map(|r| r.hand.is_some()).collect();
            g.start_program_phase_from_setup(&given, &mut crate::event::NoEvents);
        }
        Ok(g)
    }
}

fn build_robots(setup: &Setup, board: &Board, problems: &mut Vec<String>) -> Vec<Robot> {
    let n = setup.robots.len();
    if !(1..=MAX_ROBOTS).contains(&n) {
        problems.push(format!("setup.robots: 1 to 8 robots, not {n}"));
    }
    let mut robots = Vec::new();
    for (i, rs) in setup.robots.iter().enumerate() {
        if rs.seat.index() != i {
            problems.push(format!(
                "setup.robots[{i}]: seats are numbered 0..{} in order",
                n.saturating_sub(1)
            ));
            continue;
        }
        if let Some(r) = build_robot(rs, setup, board, problems) {
            robots.push(r);
        }
    }
    // Each robot's cell against those before it (at most 8 robots: no set to allocate).
    for (k, r) in robots.iter().enumerate() {
        if let Some(at) = r.at
            && robots[..k].iter().any(|o| o.at == Some(at))
        {
            problems.push(format!("two robots on {at}"));
        }
    }
    robots
}

/// The prefix of a robot's setup problems, `setup.robots[i]`: written only for a problem
/// (issue 17: a setup per simulated game formatted it for every robot).
struct RobotPrefix(u8);

impl std::fmt::Display for RobotPrefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "setup.robots[{}]", self.0)
    }
}

fn build_robot(
    rs: &RobotSetup,
    setup: &Setup,
    board: &Board,
    problems: &mut Vec<String>,
) -> Option<Robot> {
    let p = RobotPrefix(rs.seat.0);
    let dock_no = rs.dock.unwrap_or(rs.seat.0 + 1);
    let dock = board.dock(dock_no);
    let Some(at) = rs.at.or(dock.map(|d| d.at)) else {
        problems.push(format!("{p}.at: no position and the board has no dock {dock_no}"));
        return None;
    };
    if !board.on_board(at) || board.is_pit(at) {
        problems.push(format!("{p}.at: {at} is off the board or a pit"));
    }
    if let Some(a) = rs.archive
        && !board.on_board(a)
    {
        problems.push(format!("{p}.archive: {a} is off the board"));
    }
    if rs.damage > 9 {
        problems.push(format!("{p}.damage: 0..9, not {}", rs.damage));
    }
    if rs.flags_touched as usize > board.flags.len() {
        problems.push(format!("{p}.flags_touched: the course has {} flags", board.flags.len()));
    }
    let default_lives = if setup.variants.lives4 { 4 } else { 3 };
    let registers = rs.registers.unwrap_or([None; 5]);
    let mut r = Robot {
        seat: rs.seat,
        dock: dock_no,
        at: Some(at),
        facing: rs.facing.or(dock.map(|d| d.facing)).unwrap_or(SqDir::N),
        damage: rs.damage.min(9),
        lives: rs.lives.unwrap_or(default_lives),
        flags_touched: rs.flags_touched,
        archive: rs.archive.unwrap_or(at),
        powered_down: rs.powered_down,
        power_down_next: rs.power_down_next,
        destroyed: false,
        out: false,
        finished: false,
        registers,
        revealed: [false; 5],
        hand: rs.hand.clone().unwrap_or_default(),
        hand_size: 0,
        options: rs.options.clone(),
        destroyed_at: 0,
        opt: Default::default(),
        stash: Default::default(),
        draft: [None; 5],
        places: 0,
    };
    r.hand_size = r.hand.len() as u8;
    #[allow(clippy::needless_range_loop)]
    for i in 0..5 {
        // Cards kept in locked registers were played face up before (RR-7.2).
        r.revealed[i] = r.locked(i) && registers[i].is_some();
        if setup.phase == StartPhase::Program && !r.locked(i) && registers[i].is_some() {
            problems.push(format!(
                "{p}.registers[{i}]: an unlocked register is null in the programming phase (RR-11)"
            ));
        }
    }
    Some(r)
}

fn collect_cards(robots: &[Robot], problems: &mut Vec<String>) -> BTreeSet<Card> {
    let mut used = BTreeSet::new();
    for r in robots {
        for c in r.hand.iter().chain(r.registers.iter().flatten()) {
            if !c.is_real() {
                problems.push(format!(
                    "seat {}: {:?} {} is not a card of RR-1.1",
                    r.seat.0, c.card, c.priority
                ));
            } else if !used.insert(*c) {
                problems.push(format!(
                    "seat {}: card {} appears twice in the setup",
                    r.seat.0, c.priority
                ));
            }
        }
    }
    used
}

impl RoboRally {
    /// Start a game on an already built board (skips looking the course up by name).
    pub fn from_board(
        setup: &Setup,
        board: Board,
        seed: u64,
    ) -> Result<RoboRally, engine::SetupError> {
        let mut g = RoboRally::from_setup_with_board(setup, board, seed)?;
        g.play_on(&mut crate::event::NoEvents);
        Ok(g)
    }
}
