//! RoboRally (2005 edition) on the Robodrome engine interface: the rules RR-1..RR-11 of
//! `roborally.md` (RR-9, the 26 option cards: `docs/roborally-options.md`), one module per rule
//! area.
//!
//! * [`card`], [`deck`]: the 84 program cards (RR-1.1, RR-4.1);
//! * [`board`]: cells, walls, lasers, flags, docks; the text format and shipped courses (RR-1.3, RR-2);
//! * [`programming`]: dealing, programs, power down, the timer's defaults (RR-4);
//! * [`movement`]: cards, steps and pushes (RR-5.2); [`elements`]: belts, pushers, gears,
//!   lasers and checkpoints (RR-5.3–5.5);
//! * [`damage`]: the one way damage and destruction happen (RR-7, RR-8.1–8.2);
//! * [`reentry`] (RR-8.3), [`cleanup`] (RR-6), [`resolve`]: the resumable cursor;
//! * [`option`] and `option_use`: the option cards and the `use_option` decision (RR-9);
//! * [`view`], [`setup`]: redacted views and the setup / scenario schema (RR-11);
//! * [`choices`]: what the owing seat may choose now, and the preview of its program.
//!
//! **Invariants:** no I/O, no clock, no thread-local randomness, no hash-map iteration. All
//! chance comes from the [`engine::Rng`] inside the state. Resolution in progress is a cursor
//! ([`Phase`]) stored in the state, so every stop can be cloned, viewed and replayed.
#![deny(clippy::unwrap_used)]

/// The version of these rules, stored with every game a server starts: a log replays the same
/// game only under the rules it was played under, so a server refuses to replay a stored game of
/// another version (docs/security.md "Rules versions"). Bump it with every change that can make
/// a stored log replay differently (another result, another view, a refused action).
/// 1: the rules before issue 22's round 2; 2: after it (Abort Switch once a turn, Ablative Coat and
/// the discard for Recompile's damage, a locked empty register filled from the deck, the hourglass
/// of RR-4.3 and the other RR-9 amendments).
pub const RULES_VERSION: u32 = 2;

pub mod board;
pub mod card;
pub mod choices;
pub mod cleanup;
mod conformance;
pub mod damage;
pub mod deck;
pub mod elements;
pub mod encoding;
pub mod error;
pub mod event;
pub mod from_view;
mod game;
pub mod movement;
mod observation;
pub mod option;
mod option_use;
pub mod programming;
pub mod reentry;
pub mod resolve;
pub mod robot;
pub mod rulebook;
pub mod scenario_state;
pub mod setup;
pub mod solo;
pub mod view;

pub use board::{Board, Course};
pub use card::{Card, CardKind};
pub use error::ActionError;
pub use event::Event;
pub use option::OptionCard;
pub use robot::Robot;
pub use setup::{BoardSpec, RobotSetup, ScenarioSetup, Setup, StartPhase, Variants};
pub use view::{Static, View};

use deck::Deck;
use engine::{Rng, Seat};
use grid::Sq;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// A decision of one player, as RR-11 spells it. Unknown fields are refused, naming the
/// field (conventions.md: a value that does not fit the schema is a schema error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// RR-4.2 / RR-4.4: five register entries (null for a locked register or none), and the
    /// secret power-down announcement for next turn.
    Program {
        registers: [Option<Card>; 5],
        #[serde(default)]
        power_down_next: bool,
    },
    /// RR-4.3: place a card of the hand in an unlocked register of the secret draft (`null`:
    /// take the register's card back). The draft is what the player has placed so far: seen
    /// by nobody else, kept when time runs out, replaced by the `program` that commits it.
    Place { register: u8, card: Option<Card> },
    /// RR-8.3: where and how a destroyed robot comes back.
    Reenter {
        at: Sq,
        facing: grid::SqDir,
        #[serde(default)]
        powered_down: bool,
    },
    /// RR-6.4: a powered-down robot stays down another turn (`true`) or not.
    StayDown { value: bool },
    /// RR-7.4 / RR-8.2: give up an option card (`null`: decline, take the damage point).
    DiscardOption { option: Option<OptionCard> },
    /// RR-9: use an option card now (`null`: decline the offered use). `register` names the
    /// register Fire Control jams, `destroy` the option it wrecks.
    UseOption {
        option: Option<OptionCard>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        register: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        destroy: Option<OptionCard>,
        /// The program card put on the option (Crab Legs, Dual Processor, Flywheel).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Card>,
        /// Mechanical Arm: the flag or repair site it touches.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Sq>,
    },
}

impl Action {
    /// `use_option` with the option (or `null`) alone, no argument.
    pub const fn use_option(option: Option<OptionCard>) -> Action {
        Action::UseOption { option, register: None, destroy: None, card: None, at: None }
    }
}

/// One value per robot, on the stack: a game has at most [`setup::MAX_ROBOTS`] robots (RR
/// intro; `setup` refuses more). Serialised as a list, like the `Vec` it replaced (issue 17: no
/// allocation per turn or register).
pub type PerRobot<T> = arrayvec::ArrayVec<T, { setup::MAX_ROBOTS }>;

/// `n` copies of `value`, one per robot (`n` ≤ [`setup::MAX_ROBOTS`]).
pub fn per_robot<T: Copy>(value: T, n: usize) -> PerRobot<T> {
    std::iter::repeat_n(value, n).collect()
}

/// Where the game stands: the resumable cursor of a turn (RR-3). Robots are named by their
/// index as a `u8` (a game has at most [`setup::MAX_ROBOTS`]): the cursor is 20 bytes, not 96
/// (issue 17: the state is moved and cloned whole; serialised as the same numbers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// RR-6.4: powered-down robots choose to stay down; `owes[i]` until answered.
    StayDown {
        owes: PerRobot<bool>,
        stay: PerRobot<bool>,
    },
    /// RR-4.2: programs; `owes[i]` until committed.
    Program {
        owes: PerRobot<bool>,
    },
    /// RR-5: register 1..5 and the step within it.
    Execute {
        register: u8,
        step: Step,
    },
    /// RR-8.3: destroyed robots re-entering, in order; the head decides.
    Reenter {
        queue: PerRobot<u8>,
    },
    Over,
}

/// The step of a register (RR-5.1–5.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    Reveal,
    /// Robots in descending priority; `next` indexes `order`.
    Move {
        order: PerRobot<u8>,
        next: u8,
    },
    Express,
    Belts,
    Pushers,
    Gears,
    Lasers,
    Checkpoints {
        order: PerRobot<u8>,
    },
}

/// A one-seat choice in the middle of resolution (RR-7.4, RR-8.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// `points` damage from `source` still to take, each preventable by discarding an option.
    Damage { robot: usize, points: u8, source: event::Shooter },
    /// A destroyed robot gives up one option card.
    LoseOption { robot: usize },
    /// RR-9 Brakes / Fourth Gear / Reverse Gears: use `option` on the card about to run?
    MoveOption { robot: usize, option: OptionCard },
    /// RR-9 Conditional Program / Abort Switch: before register `register` is revealed.
    Reveal { robot: usize, register: u8 },
    /// RR-9 weapons: `robot`'s main laser hits `target`; replace the damage by a weapon?
    Weapon { robot: usize, target: usize, points: u8 },
    /// RR-9 Gyroscopic Stabilizer: before register 1 is revealed, is it active this turn?
    Stabilizer { robot: usize },
    /// RR-9 Mechanical Arm: at the checkpoint step, which flag or repair site it touches.
    Arm { robot: usize },
}

impl Pending {
    /// The robot whose player answers.
    pub fn robot(&self) -> usize {
        match *self {
            Pending::Damage { robot, .. }
            | Pending::LoseOption { robot }
            | Pending::MoveOption { robot, .. }
            | Pending::Weapon { robot, .. }
            | Pending::Reveal { robot, .. }
            | Pending::Stabilizer { robot }
            | Pending::Arm { robot } => robot,
        }
    }
}

/// Game settings (RR-1.2, RR-4.3, RR-10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rules {
    pub variants: Variants,
    /// RR-4.3 the hourglass: seconds per robot still to program for the last player (0: no
    /// timer); the same length limits every other decision (a decision: `docs/roborally.md`).
    /// The engine says when it runs ([`engine::Game::clock`]); the server runs it and sends
    /// `time_up`.
    pub timer_seconds: u32,
}

/// The whole state of a RoboRally game.
#[derive(Clone, Debug, PartialEq)]
pub struct RoboRally {
    pub(crate) board: Arc<Board>,
    pub(crate) robots: Vec<Robot>,
    /// The robot standing on each cell of the board's rectangle (row-major, [`NO_ROBOT`]: none),
    /// kept in step with every robot's `at` by [`RoboRally::set_at`], the one place a robot's
    /// cell changes (issue 17: `robot_at` without a scan of the robots).
    pub(crate) occupancy: Vec<u8>,
    /// Each robot's [`Robot::at`] as a row-major index of the board's rectangle ([`NOWHERE`]:
    /// off the board or outside it), kept in step by [`RoboRally::set_at`] with the occupancy
    /// and checked with it (issue 17 round 7: the register's steps read a robot's cell, its
    /// belt, walls and beam reach from here instead of computing the index each time).
    pub(crate) cell_index: [u32; setup::MAX_ROBOTS],
    pub(crate) deck: Deck,
    pub(crate) option_deck: Vec<OptionCard>,
    pub(crate) option_discard: Vec<OptionCard>,
    pub(crate) phase: Phase,
    pub(crate) pending: VecDeque<Pending>,
    pub(crate) turn: u32,
    /// A counter of resolution steps: "destroyed at the same moment" (RR-8.3).
    pub(crate) moment: u32,
    pub(crate) rules: Rules,
    /// RR-9: the answer to a `MoveOption` question, read when the card runs.
    pub(crate) move_answer: Option<bool>,
    /// RR-9: the register whose reveal questions (Conditional Program, Abort Switch) are asked.
    pub(crate) reveal_asked: Option<u8>,
    /// RR-9: the register whose Mechanical Arm questions are asked.
    pub(crate) arm_asked: Option<u8>,
    pub(crate) winner: Option<Seat>,
    pub(crate) finish_order: Vec<Seat>,
    pub(crate) rng: Rng,
}

impl RoboRally {
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }
    pub fn robot(&self, seat: Seat) -> Option<&Robot> {
        self.robots.get(seat.index())
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.front()
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn draw_pile(&self) -> &[Card] {
        &self.deck.draw
    }
    pub fn discard_pile(&self) -> &[Card] {
        &self.deck.discard
    }
    /// The register being executed (1..5), or `None` outside execution.
    pub fn register(&self) -> Option<u8> {
        match self.phase {
            Phase::Execute { register, .. } => Some(register),
            _ => None,
        }
    }
    /// The option discard pile (RR-9).
    pub fn option_discards(&self) -> &[OptionCard] {
        &self.option_discard
    }
    /// The option deck (top = last).
    pub fn option_deck(&self) -> &[OptionCard] {
        &self.option_deck
    }
    /// Every option card where it is: deck, discards, held (26 in all).
    pub fn all_options(&self) -> Vec<OptionCard> {
        let mut v: Vec<OptionCard> =
            self.option_deck.iter().chain(&self.option_discard).copied().collect();
        for r in &self.robots {
            v.extend(r.options.iter().copied());
        }
        v
    }
    /// Every program card where it is: draw pile, discards, hands, registers (84 in all).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.deck.draw.iter().chain(&self.deck.discard).copied().collect();
        for r in &self.robots {
            v.extend(r.hand.iter().copied());
            v.extend(r.registers.iter().flatten().copied());
            v.extend(r.stash.cards());
        }
        v
    }
    /// The robot standing on a cell.
    #[inline]
    pub fn robot_at(&self, at: Sq) -> Option<usize> {
        let i = *self.occupancy.get(self.board.index_of(at)?)?;
        (i != NO_ROBOT).then_some(i as usize)
    }

    /// Put robot `i` on `to` (`None`: off the board), keeping the occupancy in step. A robot may
    /// be put for a moment on a cell another robot is about to leave (belts move robots one by
    /// one, RR-5.3): the cell a robot leaves is cleared only if it is still marked as its own.
    #[inline]
    pub(crate) fn set_at(&mut self, i: usize, to: Option<Sq>) {
        let k = to.and_then(|to| self.board.index_of(to));
        self.set_at_index(i, to, k);
    }

    /// [`RoboRally::set_at`] with the index of `to` in the rectangle known (`k`, `None` outside
    /// it or for `None`).
    #[inline]
    pub(crate) fn set_at_index(&mut self, i: usize, to: Option<Sq>, k: Option<usize>) {
        debug_assert_eq!(k, to.and_then(|to| self.board.index_of(to)));
        let f = self.cell_index[i] as usize;
        if let Some(o) = self.occupancy.get_mut(f)
            && *o == i as u8
        {
            *o = NO_ROBOT;
        }
        if let Some(k) = k {
            self.occupancy[k] = i as u8;
        }
        self.cell_index[i] = k.map_or(NOWHERE, |k| k as u32);
        self.robots[i].at = to;
    }

    /// The row-major index of robot `i`'s cell ([`RoboRally::cell_index`]), `None` when it is
    /// off the board (or, for a moment before its destruction, outside the rectangle).
    #[inline]
    pub(crate) fn index_of_robot(&self, i: usize) -> Option<usize> {
        let k = self.cell_index[i];
        (k != NOWHERE).then_some(k as usize)
    }

    /// Each robot's cell index as [`RoboRally::cell_index`] keeps it.
    pub(crate) fn cell_index_of(board: &Board, robots: &[Robot]) -> [u32; setup::MAX_ROBOTS] {
        let mut cells = [NOWHERE; setup::MAX_ROBOTS];
        for (c, r) in cells.iter_mut().zip(robots) {
            *c = r.at.and_then(|at| board.index_of(at)).map_or(NOWHERE, |k| k as u32);
        }
        cells
    }

    /// The occupancy table of the robots' cells as they are (the first robot of a cell wins,
    /// as a scan of the robots finds it).
    pub(crate) fn occupancy_of(board: &Board, robots: &[Robot]) -> Vec<u8> {
        let mut occupancy = vec![NO_ROBOT; board.area()];
        for (i, r) in robots.iter().enumerate() {
            if let Some(k) = r.at.and_then(|at| board.index_of(at))
                && occupancy[k] == NO_ROBOT
            {
                occupancy[k] = i as u8;
            }
        }
        occupancy
    }

    /// The occupancy table says what a scan of the robots says: each robot on a cell of the
    /// rectangle is marked there, and nothing else is marked (robots never share a cell:
    /// setups and views that say otherwise are refused). Checked after every action and
    /// step in debug builds, so every test checks it; allocates nothing.
    pub(crate) fn occupancy_consistent(&self) -> bool {
        if self.cell_index != RoboRally::cell_index_of(&self.board, &self.robots) {
            return false;
        }
        let mut on = 0;
        for (i, r) in self.robots.iter().enumerate() {
            if let Some(k) = r.at.and_then(|at| self.board.index_of(at)) {
                if self.occupancy[k] != i as u8 {
                    return false;
                }
                on += 1;
            }
        }
        self.occupancy.iter().filter(|&&i| i != NO_ROBOT).count() == on
    }
}

/// No robot on this cell (in [`RoboRally`]'s occupancy table).
pub(crate) const NO_ROBOT: u8 = u8::MAX;

/// No cell (in [`RoboRally`]'s robot cell index): the robot is off the board.
pub(crate) const NOWHERE: u32 = u32::MAX;
