//! The race state, its pieces and the resumable resolution cursor.

use crate::cards::Card;
use crate::settings::Variants;
use crate::track::{Board, ObstacleKind, Slot, Spin};
use engine::{Rng, Seat};
use grid::{Hex, HexDir};
use std::sync::Arc;

/// One bot (BB-1.1): position, facing, speed marker, laps (BB-2.3), cards (BB-9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bot {
    pub seat: Seat,
    /// `None` once it has finished and left the track (BB-10).
    pub at: Option<Hex>,
    pub facing: HexDir,
    /// 1..=6 forward, 1..=3 in reverse (BB-1.1, BB-5.2).
    pub speed: u8,
    pub reverse: bool,
    /// Completed laps (BB-2.3).
    pub laps: i32,
    /// Has made its start crossing (BB-2.3).
    pub started: bool,
    /// Completed its last lap (BB-10); its place is settled at the end of the round.
    pub finished: bool,
    pub finished_place: Option<u8>,
    /// Unused tuning cards.
    pub cards: Vec<Card>,
    pub used_cards: Vec<Card>,
    /// BB-9.4: boosted turns left, the current one included.
    pub engine_turns: u8,
    /// BB-5.4: changed direction on its last turn.
    pub changed_direction: bool,
    /// The dense board index of `at` (0 off the track), kept with it by
    /// [`BumpingBots::place_bot`], [`BumpingBots::place_bot_at`] and
    /// [`BumpingBots::fill_occupancy`]: the hot loops read a bot's cell tables without
    /// computing the index from the coordinates (issue 17; [`BumpingBots::cell_of`]).
    pub(crate) k: u32,
    /// Holds an unused Magnet: `cards.contains(&Card::Magnet)`, kept in step with `cards` by
    /// [`Bot::hand_changed`] wherever the hand changes, so that the end-of-move question of
    /// every turn (BB-9.2) reads one flag instead of looping over the hand (issue 17 round 10).
    pub(crate) magnet: bool,
}

impl Bot {
    /// Brings [`Bot::holds_magnet`]'s flag in step with `cards`: called after every change
    /// of the hand.
    #[inline]
    pub(crate) fn hand_changed(&mut self) {
        self.magnet = self.cards.contains(&Card::Magnet);
    }
    /// Holds an unused Magnet (BB-9.2)?
    #[inline(always)]
    pub(crate) fn holds_magnet(&self) -> bool {
        debug_assert_eq!(self.magnet, self.cards.contains(&Card::Magnet), "the Magnet flag");
        self.magnet
    }
}

/// An obstacle as it stands now (BB-8). Fixed obstacles and bumpers never move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Obstacle {
    pub kind: ObstacleKind,
    pub at: Hex,
    /// Motorised: the direction of one arm (the other is opposite).
    pub arm: HexDir,
    pub spin: Spin,
    /// Motorised: the two arm cells (kept with `arm`, for fast lookups).
    cells: [Hex; 2],
}

impl Obstacle {
    pub fn new(kind: ObstacleKind, at: Hex, arm: HexDir, spin: Spin) -> Obstacle {
        let mut o = Obstacle { kind, at, arm, spin, cells: [at, at] };
        if kind == ObstacleKind::Motorised {
            o.set_arm(arm);
        }
        o
    }
    /// Moves a mobile obstacle.
    pub fn move_to(&mut self, to: Hex) {
        self.at = to;
        self.cells = [to, to];
    }
    /// The cells this obstacle occupies besides its centre (motorised arms).
    #[inline]
    pub fn arm_cells(&self) -> [Hex; 2] {
        self.cells
    }
    pub fn set_arm(&mut self, arm: HexDir) {
        self.arm = arm;
        // The opposite arm is the centre minus the step: `HexDir::opposite`'s `rem_euclid(6)`
        // cost 45 of a motor's 111 instructions a round (issue 17 round 10).
        let (dq, dr) = arm.step();
        let at = self.at;
        self.cells = [Hex { q: at.q + dq, r: at.r + dr }, Hex { q: at.q - dq, r: at.r - dr }];
    }
}

/// BB-9.5 quick rotation, one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuickRot {
    pub at_cell: u8,
    pub turn: i8,
}

/// The move in progress (BB-6): a resumable cursor, not a recursion.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveCursor {
    /// Cells the move takes in all (after cards and mobile-obstacle halving).
    pub total: u8,
    pub taken: u8,
    pub before_last: i8,
    pub after: i8,
    /// No rotations left (Nitro, after a mobile obstacle, BB-8.3).
    pub straight: bool,
}

/// The active bot's turn (BB-4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub bot: usize,
    /// The card played this turn, if any.
    pub card: Option<Card>,
    /// The speed chosen for this turn: the one that counts for pushes (BB-7.3).
    pub chosen_speed: u8,
    /// BB-9.1 leap: (after this many cells, cells passed over); 0 over = no air leap.
    pub leap: Option<(u8, u8)>,
    /// BB-9.5 rotations still to take.
    pub quick: Vec<QuickRot>,
    pub quick_card: bool,
    /// A collision happened: the bot will be asked to orient (BB-7.1).
    pub collided: bool,
    /// Thrown by a bumper: no orient after this forced move (BB-8.4).
    pub thrown: bool,
    pub mv: MoveCursor,
    /// Where this turn stands.
    pub step: TurnStep,
}

impl Turn {
    pub fn new(bot: usize) -> Turn {
        Turn {
            bot,
            card: None,
            chosen_speed: 1,
            leap: None,
            quick: Vec::new(),
            quick_card: false,
            collided: false,
            thrown: false,
            mv: MoveCursor::default(),
            step: TurnStep::Speed,
        }
    }

    /// This turn made the start of `bot`'s turn ([`Turn::new`]), keeping the quick-rotation
    /// buffer's memory.
    ///
    /// Field by field rather than `*self = Turn { .. }`: the whole-value assignment ran the old
    /// turn's drop glue (its step's shock chain, its emptied `quick`) on every turn, a branch
    /// cachegrind found mispredicted 57 % of the time (issue 17 round 10). The pattern names
    /// every field, so a new one cannot be forgotten here; `tests::reset_is_new` compares the
    /// result with [`Turn::new`].
    #[inline(always)]
    pub(crate) fn reset(&mut self, bot: usize) {
        let Turn {
            bot: b,
            card,
            chosen_speed,
            leap,
            quick,
            quick_card,
            collided,
            thrown,
            mv,
            step,
        } = self;
        *b = bot;
        *card = None;
        *chosen_speed = 1;
        *leap = None;
        quick.clear();
        *quick_card = false;
        *collided = false;
        *thrown = false;
        *mv = MoveCursor::default();
        *step = TurnStep::Speed;
    }
}

/// A chain of bots a shock goes through (BB-7.6): distinct bots, at most 9 (BB-1.1).
pub(crate) type Chain = arrayvec::ArrayVec<usize, 9>;

/// A shock waiting for the active player's `shock_choice` (BB-7.4, BB-7.6, BB-8.3).
#[derive(Clone, Debug, PartialEq, Eq)]
/// A shock reached `chain[0]` (how: `via`) along `dir`; the push of `push` cells goes to the
/// last bot of the chain; `first_choice` / `last_choice`: whether the first bot may be turned
/// (BB-7.6) and the last turned instead of pushed (BB-7.4).
pub struct PendingShock {
    pub chain: Vec<usize>,
    pub dir: HexDir,
    pub push: u8,
    pub first_choice: bool,
    pub last_choice: bool,
    pub via: Via,
}

/// How a shock reached the first bot of its chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The active bot hit it (BB-7.3–7.6); the active bot's move ends.
    Bot,
    /// The active bot hit mobile obstacle `o` standing against it, which passes the shock on
    /// and then moves as many cells as the last bot was pushed (BB-8.3); the active bot goes on.
    Wedged(usize),
    /// A mobile obstacle the active bot launched hit it (BB-8.3): the push is at most 1 cell and
    /// a lateral hit may turn a bot whatever the speed; the obstacle stops against the chain.
    Launched,
}

impl PendingShock {
    /// How many entries `turn_passive` has: one per push cell the player may turn the pushed
    /// bot instead of pushing it (0: it cannot be turned).
    pub fn turn_cells(&self) -> usize {
        if self.last_choice { self.push as usize } else { 0 }
    }
}

/// Where the race stands: cards being picked (BB-3), a bot's turn in progress (BB-4), or the
/// end. The turn lives inside its phase, so no code can reach a turn when none is in progress.
///
/// The turn is boxed (issue 17): the engine takes it out of the phase for every action and
/// puts it back, and a box moves as one pointer where the turn itself (its move cursor, quick
/// rotations and pending shock) was a hundred-odd bytes copied twice per action. The box is
/// reused from one bot's turn to the next ([`Turn::reset`]), so a race allocates it once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// BB-3 `choose_cards`: this seat picks a card.
    Pick(Seat),
    /// The turn of the bot at `cursor`.
    Turn(Box<Turn>),
    Over,
}

/// Where a turn stands. `Speed`, `Move`, `Shock`, `Orient` and `Magnet` wait for a decision;
/// the others are steps the engine plays through by itself.
///
/// `repr(u8)`: a plain tag byte instead of a niche in `PendingShock`'s vector, so that the
/// engine's loop over the steps dispatches on one byte.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TurnStep {
    Speed,
    Move,
    Shock(PendingShock),
    Orient,
    Magnet,
    Moving,
    EndMove,
    MagnetCheck,
    EndTurn,
}

impl Phase {
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Pick(_) => "pick_cards",
            Phase::Over => "over",
            Phase::Turn(t) => match t.step {
                TurnStep::Speed => "speed",
                TurnStep::Move => "move",
                TurnStep::Shock(_) => "shock_choice",
                TurnStep::Orient => "orient",
                TurnStep::Magnet => "magnet",
                _ => "resolving",
            },
        }
    }
}

/// A bot that finished this round: tie-breaks of BB-10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishMark {
    pub bot: usize,
    /// Cells entered since its finishing crossing (the crossing cell counts 1).
    pub past: u8,
}

/// The whole race. Pure, cloneable mid-move, compared with `==` by the tests.
#[derive(Clone, Debug, PartialEq)]
pub struct BumpingBots {
    pub(crate) board: Arc<Board>,
    pub(crate) variants: Variants,
    pub(crate) cells_table: [u8; 6],
    pub(crate) bots: Vec<Bot>,
    pub(crate) obstacles: Vec<Obstacle>,
    pub(crate) round: u32,
    /// This round's race order (BB-2.2), computed at the start of the round; all seats.
    pub(crate) order: Vec<Seat>,
    /// Index in `order` of the bot acting.
    pub(crate) cursor: usize,
    /// Where the race stands, with the turn in progress if there is one (BB-4).
    pub(crate) phase: Phase,
    pub(crate) finishing: Vec<FinishMark>,
    /// Tie-break before the first round's order exists: start-grid index, then seat (BB-2.2).
    pub(crate) grid_rank: Vec<u32>,
    pub(crate) deck: Vec<Card>,
    pub(crate) picks_left: Vec<u8>,
    pub(crate) standings: Vec<i32>,
    pub(crate) rng: Rng,
    /// Who stands where, by dense cell index (`Slot::occ`): 0 free, `1 + bot`, or `OBSTACLE +
    /// obstacle` (mobile obstacles and motorised arms). Kept in step with `bots` and
    /// `obstacles` by [`BumpingBots::place_bot`], [`BumpingBots::move_obstacle`] and
    /// [`BumpingBots::set_motor_arm`]; beside it the board's step bits of each cell
    /// ([`Slot`], copied from [`Board::slots`]), so that a move's step reads one table.
    pub(crate) occ: Vec<Slot>,
    /// The last-player clock's length in seconds (0: off), from the setup.
    pub(crate) last_player_seconds: u32,
}

const OBSTACLE: u8 = 32;

/// The direction a bot facing `facing` travels: the facing, or its opposite in reverse
/// (BB-5.2); read from a table rather than branching on `reverse`, which random play makes
/// unpredictable (issue 17).
#[inline(always)]
pub(crate) fn travel(facing: HexDir, reverse: bool) -> HexDir {
    TRAVEL[usize::from(facing.index() & 7)][usize::from(reverse)]
}

/// [`travel`]'s table: by facing, forward then reverse; eight rows, read with the facing
/// masked by 7, so that no bounds check is needed (a direction is below 6).
const TRAVEL: [[HexDir; 2]; 8] = {
    let mut t = [[HexDir::wrapping(0); 2]; 8];
    let mut f = 0;
    while f < 6 {
        t[f] = [HexDir::wrapping(f as i32), HexDir::wrapping(f as i32 + 3)];
        f += 1;
    }
    t
};

/// A facing turned by −1, 0 or +1 (× 60°), by facing and turn + 1: a table rather than a
/// branch on the turn, which random play draws (issue 17). Eight rows, as [`TRAVEL`].
const TURNED: [[HexDir; 3]; 8] = {
    let mut t = [[HexDir::wrapping(0); 3]; 8];
    let mut f = 0;
    while f < 6 {
        let mut d = 0;
        while d < 3 {
            t[f][d] = HexDir::wrapping(f as i32).turn(d as i32 - 1);
            d += 1;
        }
        f += 1;
    }
    t
};

/// [`crate::settings::cells_for`] (the cells a speed moves, the speed taken as 1–6): the
/// clamp written as one `min` of the speed less one, which the compiler turns into a
/// conditional move and an index it knows in range, where `clamp` cost a dozen instructions
/// and the table a bounds check, on every move and every sampled move (issue 17).
#[inline(always)]
fn cells_in(table: &[u8; 6], speed: u8) -> u8 {
    table[usize::from(speed.saturating_sub(1).min(5))]
}

/// What stands on a cell, for movement (BB-7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occ {
    Free,
    /// A wall edge, fixed obstacle, motorised obstacle or bumper centre.
    Solid,
    Bot(usize),
    Mobile(usize),
}

impl BumpingBots {
    /// What the step from `from` through side `d` runs into.
    #[inline]
    pub(crate) fn probe(&self, from: Hex, d: HexDir) -> Occ {
        match self.board.idx(from) {
            Some(k) => self.probe_at(k, d).0,
            None => Occ::Solid,
        }
    }

    /// [`Self::probe`] from the cell at dense index `k`, with the dense index of the cell
    /// stepped onto (meaningful when it is not `Solid`). The board's open sides give walls and
    /// solid cells; the occupancy table the moving pieces (issue 17).
    #[inline(always)]
    pub(crate) fn probe_at(&self, k: usize, d: HexDir) -> (Occ, usize) {
        debug_assert_eq!(self.occ[k].open, self.board.open_dirs(k));
        if self.occ[k].open & (1 << d.index()) == 0 {
            return (Occ::Solid, k);
        }
        let to = self.board.step_idx(k, d);
        let found = match self.occ[to].occ {
            0 => Occ::Free,
            v if v < OBSTACLE => Occ::Bot((v - 1) as usize),
            v => match self.obstacles[(v - OBSTACLE) as usize].kind {
                ObstacleKind::Mobile => Occ::Mobile((v - OBSTACLE) as usize),
                _ => Occ::Solid,
            },
        };
        debug_assert_eq!(found, self.open_step_slow(k, d), "open sides out of step");
        (found, to)
    }

    /// What the step through side `d` of the cell at `k` runs into, from the cells (the
    /// reference for [`Self::probe_at`]).
    fn open_step_slow(&self, k: usize, d: HexDir) -> Occ {
        if self.board.cell_at(k).walls & (1 << d.index()) != 0 {
            return Occ::Solid;
        }
        self.occupant_at(self.board.step_idx(k, d))
    }

    /// The dense index of the cell through side `d` of `from` when no wall stands between
    /// (that cell is then on the track: the track border is walled).
    #[cfg(test)]
    pub(crate) fn open_step(&self, from: Hex, d: HexDir) -> Option<usize> {
        let k = self.board.idx(from)?;
        if self.board.cell_at(k).walls & (1 << d.index()) != 0 {
            return None;
        }
        let to = self.board.step_idx(k, d);
        debug_assert_eq!(Some(to), self.board.idx(from.neighbour(d)));
        Some(to)
    }

    #[inline]
    pub(crate) fn occupant(&self, h: Hex) -> Occ {
        let found = match self.board.idx(h) {
            Some(k) => self.occupant_at(k),
            None => Occ::Solid,
        };
        debug_assert_eq!(found, self.occupant_slow(h), "occupancy table out of step at {h}");
        found
    }

    /// What stands on the cell at dense index `k`.
    #[inline]
    pub(crate) fn occupant_at(&self, k: usize) -> Occ {
        let c = self.board.cell_at(k);
        if !c.on || c.solid {
            Occ::Solid
        } else {
            match self.occ[k].occ {
                0 => Occ::Free,
                v if v < OBSTACLE => Occ::Bot((v - 1) as usize),
                v => match self.obstacles[(v - OBSTACLE) as usize].kind {
                    ObstacleKind::Mobile => Occ::Mobile((v - OBSTACLE) as usize),
                    _ => Occ::Solid,
                },
            }
        }
    }

    /// The raw occupancy of the cell at dense index `k`: 0 when no bot, mobile obstacle or
    /// motorised arm stands on it.
    #[inline]
    pub(crate) fn occ_at(&self, k: usize) -> u8 {
        self.occ[k].occ
    }

    /// Checks the occupancy table against the pieces on every cell (for tests).
    #[doc(hidden)]
    pub fn check_occupancy(&self) -> Result<(), String> {
        for h in self.board.track_cells() {
            let k = self.board.idx(h).expect("a track cell");
            let fast = match self.occ[k].occ {
                0 => Occ::Free,
                v if v < OBSTACLE => Occ::Bot((v - 1) as usize),
                v => match self.obstacles[(v - OBSTACLE) as usize].kind {
                    ObstacleKind::Mobile => Occ::Mobile((v - OBSTACLE) as usize),
                    _ => Occ::Solid,
                },
            };
            let slow = self.occupant_slow(h);
            if fast != slow && !(slow == Occ::Solid && self.board.cell(h).solid) {
                return Err(format!("{h}: table {fast:?}, pieces {slow:?}"));
            }
        }
        Ok(())
    }

    /// The same answer by scanning the pieces (the reference for the table).
    fn occupant_slow(&self, h: Hex) -> Occ {
        let c = self.board.cell(h);
        if !c.on || c.solid {
            return Occ::Solid;
        }
        if let Some(i) = self.bots.iter().position(|b| b.at == Some(h)) {
            return Occ::Bot(i);
        }
        for (i, o) in self.obstacles.iter().enumerate() {
            match o.kind {
                ObstacleKind::Mobile if o.at == h => return Occ::Mobile(i),
                ObstacleKind::Motorised if o.arm_cells().contains(&h) => return Occ::Solid,
                _ => {}
            }
        }
        Occ::Free
    }

    fn mark(&mut self, h: Hex, v: u8) {
        if let Some(k) = self.board.idx(h) {
            self.occ[k].occ = v;
        }
    }

    /// Put a bot on a cell, or take it off the track (`None`).
    pub(crate) fn place_bot(&mut self, bot: usize, to: Option<Hex>) {
        if let Some(from) = self.bots[bot].at {
            self.mark(from, 0);
        }
        if let Some(to) = to {
            self.mark(to, 1 + bot as u8);
        }
        self.bots[bot].at = to;
        self.bots[bot].k = to.and_then(|h| self.board.idx(h)).unwrap_or(0) as u32;
    }

    /// A bot on the track at dense index `kf` steps to `to`, at dense index `kt`.
    #[inline]
    pub(crate) fn place_bot_at(&mut self, bot: usize, kf: usize, to: Hex, kt: usize) {
        self.occ[kf].occ = 0;
        self.occ[kt].occ = 1 + bot as u8;
        self.bots[bot].at = Some(to);
        self.bots[bot].k = kt as u32;
    }

    /// Move a mobile obstacle.
    pub(crate) fn move_obstacle(&mut self, o: usize, to: Hex) {
        self.mark(self.obstacles[o].at, 0);
        self.obstacles[o].move_to(to);
        self.mark(to, OBSTACLE + o as u8);
    }

    /// Turn a motorised obstacle's arms.
    pub(crate) fn set_motor_arm(&mut self, m: usize, arm: HexDir) {
        // The arm cells are the centre's neighbours: dense steps from the centre's index, no
        // coordinates looked up (issue 17; the centre stands on the track, BB-12).
        let k = self.motor_centre(m);
        let old = self.obstacles[m].arm;
        for d in [old, old.opposite()] {
            self.occ[self.board.step_idx(k, d)].occ = 0;
        }
        self.obstacles[m].set_arm(arm);
        for d in [arm, arm.opposite()] {
            self.occ[self.board.step_idx(k, d)].occ = OBSTACLE + m as u8;
        }
    }

    /// [`Self::set_motor_arm`] with the dense indices of the arms' old cells and new ones.
    #[inline(always)]
    pub(crate) fn set_motor_arm_at(
        &mut self,
        m: usize,
        arm: HexDir,
        old: [usize; 2],
        new: [usize; 2],
    ) {
        for k in old {
            self.occ[k].occ = 0;
        }
        self.obstacles[m].set_arm(arm);
        for k in new {
            self.occ[k].occ = OBSTACLE + m as u8;
        }
    }

    /// Is the cell at dense index `k` free (`occupant_at(k) == Occ::Free`): on the track,
    /// not solid, nothing standing on it.
    #[inline(always)]
    pub(crate) fn free_at(&self, k: usize) -> bool {
        let c = self.board.cell_at(k);
        let free = c.on && !c.solid && self.occ[k].occ == 0;
        debug_assert_eq!(free, self.occupant_at(k) == Occ::Free);
        free
    }

    /// The dense index of motorised obstacle `m`'s centre (on the track, BB-12).
    #[inline]
    pub(crate) fn motor_centre(&self, m: usize) -> usize {
        self.board.idx(self.obstacles[m].at).expect("a motorised obstacle stands on the track")
    }

    /// Fill the occupancy table from the pieces (setup).
    pub(crate) fn fill_occupancy(&mut self) {
        // Cleared and refilled from the empty track's table: a race reset in place keeps the
        // table's memory (issue 17).
        self.occ.clear();
        self.occ.extend_from_slice(self.board.slots());
        for i in 0..self.obstacles.len() {
            let o = self.obstacles[i];
            match o.kind {
                ObstacleKind::Mobile => self.mark(o.at, OBSTACLE + i as u8),
                ObstacleKind::Motorised => {
                    for c in o.arm_cells() {
                        self.mark(c, OBSTACLE + i as u8);
                    }
                }
                _ => {}
            }
        }
        for i in 0..self.bots.len() {
            let at = self.bots[i].at;
            if let Some(h) = at {
                self.mark(h, 1 + i as u8);
            }
            self.bots[i].k = at.and_then(|h| self.board.idx(h)).unwrap_or(0) as u32;
        }
    }

    /// The dense index of the cell of a bot on the track (its [`Bot::k`]).
    #[inline(always)]
    pub(crate) fn cell_of(&self, bot: usize) -> usize {
        let b = &self.bots[bot];
        debug_assert_eq!(b.at.and_then(|h| self.board.idx(h)), Some(b.k as usize), "bot {bot}");
        b.k as usize
    }

    pub(crate) fn pos(&self, bot: usize) -> Hex {
        self.bots[bot].at.expect("a bot on the track")
    }

    /// BB-7.2: every shock lowers the speed by 2, never below 1.
    pub(crate) fn lose_speed(&mut self, bot: usize, by: u8, ev: &mut impl crate::event::EventSink) {
        let b = &mut self.bots[bot];
        let new = b.speed.saturating_sub(by).max(1);
        if new != b.speed {
            b.speed = new;
        }
        ev.push(crate::Event::SpeedLost { seat: b.seat, speed: b.speed });
    }

    pub(crate) fn travel_dir(&self, bot: usize) -> HexDir {
        let b = &self.bots[bot];
        travel(b.facing, b.reverse)
    }

    #[inline]
    pub(crate) fn rotate(&mut self, bot: usize, turn: i8, ev: &mut impl crate::event::EventSink) {
        // A turn of 0 leaves the facing as it is: turned without a branch on the (random)
        // turn; only the event needs one, and a sink that drops events drops it (issue 17).
        let b = &mut self.bots[bot];
        b.facing = match usize::try_from(turn + 1) {
            Ok(i @ 0..=2) => TURNED[usize::from(b.facing.index() & 7)][i],
            _ => b.facing.turn(turn as i32),
        };
        if turn != 0 {
            ev.push(crate::Event::Turned { seat: b.seat, facing: b.facing });
        }
    }

    #[inline(always)]
    pub(crate) fn cells(&self, speed: u8) -> u8 {
        cells_in(&self.cells_table, speed)
    }
}

/// Read access for bots, renderers and tools.
impl BumpingBots {
    /// Every bot, by seat.
    pub fn bots(&self) -> &[Bot] {
        &self.bots
    }
    /// The track as the rules read it.
    pub fn track(&self) -> &Board {
        &self.board
    }
}

#[cfg(test)]
mod tests {
    use super::{Card, MoveCursor, PendingShock, QuickRot, Turn, TurnStep, Via};
    use grid::HexDir;

    /// `Turn::reset` leaves the turn `Turn::new` makes, whatever the turn held before (every
    /// field set away from its start, the step a shock owning its chain).
    #[test]
    fn reset_is_new() {
        for bot in 0..9 {
            let mut t = Turn {
                bot: 8 - bot,
                card: Some(Card::Jumper),
                chosen_speed: 6,
                leap: Some((2, 1)),
                quick: vec![QuickRot { at_cell: 1, turn: -1 }],
                quick_card: true,
                collided: true,
                thrown: true,
                mv: MoveCursor { total: 5, taken: 3, before_last: 1, after: -1, straight: true },
                step: TurnStep::Shock(PendingShock {
                    chain: vec![1, 2],
                    dir: HexDir::ALL[2],
                    push: 2,
                    first_choice: true,
                    last_choice: true,
                    via: Via::Launched,
                }),
            };
            t.reset(bot);
            assert_eq!(t, Turn::new(bot));
        }
    }

    /// Every bot's Magnet flag is its hand's (`Bot::holds_magnet`) after every action of random
    /// races, dealt or picked (`choose_cards`, BB-3), on every shipped track, and in the
    /// states `determinize` deals for the search.
    #[test]
    fn the_magnet_flag_follows_the_hand() {
        use crate::tracks::{SHIPPED, shipped};
        use crate::{BumpingBots, Setup};
        use engine::{Decision, Game, Rng};
        let agree =
            |g: &BumpingBots| g.bots.iter().all(|b| b.magnet == b.cards.contains(&Card::Magnet));
        let mut held = [0u32; 2];
        for (name, _) in SHIPPED {
            for choose in [false, true] {
                let mut setup = Setup::race(shipped(name).expect("shipped"), 5);
                setup.variants.choose_cards = choose;
                for seed in 0..3u64 {
                    let mut g = BumpingBots::new(&setup, seed).expect("a shipped track starts");
                    let mut rng = Rng::seeded(seed ^ 0x3a6e);
                    let mut events = Vec::new();
                    while let Some(Decision::One(seat)) = g.decision() {
                        assert!(agree(&g), "{name}, seed {seed}");
                        for b in &g.bots {
                            held[usize::from(b.magnet)] += 1;
                        }
                        if rng.below(16) == 0 {
                            assert!(agree(&g.determinize(seat, &mut rng)), "{name} {seed}");
                        }
                        let a = g.sample_action(seat, &mut rng).expect("the owing seat");
                        g.apply(seat, &a, &mut events).expect("a sampled action is legal");
                        events.clear();
                    }
                    assert!(agree(&g), "{name}, seed {seed}");
                }
            }
        }
        assert!(held.iter().all(|&n| n > 1000), "{held:?}");
    }

    /// `cells_in` answers as `settings::cells_for` for every speed a `u8` holds.
    #[test]
    fn the_cells_are_cells_for_s() {
        for table in [[1, 2, 3, 4, 5, 6], [2, 3, 5, 7, 11, 13], [6, 5, 4, 3, 2, 1]] {
            for speed in 0..=u8::MAX {
                assert_eq!(
                    super::cells_in(&table, speed),
                    crate::settings::cells_for(&table, speed),
                    "{table:?} {speed}"
                );
            }
        }
    }

    /// The travel and turn tables give what `HexDir`'s arithmetic gives.
    #[test]
    fn the_direction_tables_are_the_arithmetic() {
        for f in HexDir::ALL {
            assert_eq!(super::travel(f, false), f);
            assert_eq!(super::travel(f, true), f.opposite());
            for t in -1..=1 {
                assert_eq!(super::TURNED[f.index() as usize][(t + 1) as usize], f.turn(t));
            }
        }
    }
}
