//! Views: the state as one observer may see it. Other seats' hands and unrevealed registers
//! never appear (redaction by type: a hidden register is [`RegisterView::Hidden`]).
//! Also `determinize`: resample what a seat cannot see.

use crate::card::Card;
use crate::option::OptionCard;
use crate::{Pending, Phase, RoboRally};
use engine::{Observer, Rng, Seat};
use grid::{Sq, SqDir};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "card")]
pub enum RegisterView {
    Empty,
    Hidden,
    Card(Card),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RobotView {
    pub seat: Seat,
    pub at: Option<Sq>,
    pub facing: SqDir,
    pub damage: u8,
    pub lives: u8,
    pub flags_touched: u8,
    pub archive: Sq,
    pub powered_down: bool,
    pub destroyed: bool,
    pub out: bool,
    pub finished: bool,
    pub locked_registers: Vec<u8>,
    pub hand_size: u8,
    pub registers: [RegisterView; 5],
    pub options: Vec<OptionCard>,
    /// RR-9: the marks the option cards keep (public).
    pub option_state: crate::option::OptionState,
    /// RR-9 Crab Legs / Dual Processor: second cards (hidden like registers).
    pub side: [RegisterView; 5],
    /// RR-9 Flywheel: the card kept back (hidden from others).
    pub flywheel: RegisterView,
    /// RR-9 Conditional Program: the card waiting on it (hidden from others).
    pub conditional: RegisterView,
    /// The robot's own secret announcement (others: `None` until revealed with the programs).
    pub power_down_next: Option<bool>,
    /// Only for the seat itself (and omniscient observers).
    pub hand: Option<Vec<Card>>,
    /// RR-4.3: the cards placed so far while programming, by register: only for the seat
    /// itself (and omniscient observers), never for another seat or a spectator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<[Option<Card>; 5]>,
}

/// The option-card question a player must answer now (public: it follows from public events).
/// `damage` and `lose_option` are answered with `discard_option`, the others with `use_option`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuestionView {
    /// RR-7.4: discard an option card to prevent one of `points` damage (null: take it).
    Damage { seat: Seat, points: u8 },
    /// RR-8.2: the destroyed robot gives up one option card.
    LoseOption { seat: Seat },
    /// RR-9 Brakes / Fourth Gear / Reverse Gears: use `option` on the card about to run?
    MoveOption { seat: Seat, option: OptionCard },
    /// RR-9 Conditional Program / Abort Switch: before `register` is revealed.
    Reveal { seat: Seat, register: u8 },
    /// RR-9 weapons: the main laser hits `target` for `points`; a weapon instead?
    Weapon { seat: Seat, target: Seat, points: u8 },
    /// RR-9 Gyroscopic Stabilizer: before register 1, is it active this turn?
    Stabilizer { seat: Seat },
    /// RR-9 Mechanical Arm: which of `sites` (flags and repair sites in reach) it touches.
    Arm { seat: Seat, sites: Vec<grid::Sq> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub turn: u32,
    pub phase: &'static str,
    pub register: Option<u8>,
    pub robots: Vec<RobotView>,
    pub draw_pile: usize,
    pub discard_pile: usize,
    pub winner: Option<Seat>,
    pub timer_seconds: u32,
    /// The option-card question owed now, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<QuestionView>,
    /// In the `reenter` phase: the robot re-entering now and every choice the rules allow it
    /// (RR-8.3; public: it follows from the positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reentry: Option<ReentryView>,
    /// In the view of the seat that owes a decision only: every choice the engine accepts now,
    /// and the preview of its program ([`crate::choices`]); absent in every other view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<crate::choices::Choices>,
}

/// RR-8.3: where the re-entering robot may come back and which facings each cell allows
/// (the archive with every facing; else the free cells of the nearest ring with a facing whose
/// line of sight is clear, or any facing when no choice is clear).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReentryView {
    pub seat: Seat,
    pub archive: Sq,
    /// Cells in row-major order, each with its allowed facings (N, E, S, W order).
    pub choices: Vec<ReentryCell>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReentryCell {
    pub at: Sq,
    pub facings: Vec<SqDir>,
}

/// RoboRally's static part ([`engine::Game::Static`]): the course, sent once per game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Static {
    pub board: BoardView,
}

/// One cell of [`BoardView`] (the kinds of [`crate::board::Cell`], every field named).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CellView {
    Void,
    Floor,
    Pit,
    Belt { dir: SqDir, express: bool, from: Option<SqDir> },
    Pusher { side: SqDir, registers: u8 },
    Gear { turn: crate::board::Turn },
    Repair,
    RepairOption,
}

/// The course as a client draws it: cells row by row (`y * width + x`), the wall bit mask per
/// cell (bit d = a wall on side d, N E S W), board lasers, flags in order and docks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub width: i32,
    pub height: i32,
    pub cells: Vec<CellView>,
    pub walls: Vec<u8>,
    pub lasers: Vec<crate::board::Laser>,
    pub flags: Vec<Sq>,
    pub docks: Vec<crate::board::Dock>,
}

impl BoardView {
    pub fn of(b: &crate::board::Board) -> BoardView {
        use crate::board::Cell;
        let mut cells = Vec::new();
        let mut walls = Vec::new();
        for (at, c) in b.cells() {
            cells.push(match c {
                Cell::Void => CellView::Void,
                Cell::Floor => CellView::Floor,
                Cell::Pit => CellView::Pit,
                Cell::Belt(x) => CellView::Belt { dir: x.dir, express: x.express, from: x.from },
                Cell::Pusher { side, registers } => CellView::Pusher { side, registers },
                Cell::Gear(turn) => CellView::Gear { turn },
                Cell::Repair => CellView::Repair,
                Cell::RepairOption => CellView::RepairOption,
            });
            walls.push(
                SqDir::ALL
                    .iter()
                    .fold(0u8, |m, &d| if b.wall(at, d) { m | 1 << d.index() } else { m }),
            );
        }
        BoardView {
            width: b.width,
            height: b.height,
            cells,
            walls,
            lasers: b.lasers.clone(),
            flags: b.flags.clone(),
            docks: b.docks.clone(),
        }
    }
}

impl View {
    pub fn of(g: &RoboRally, observer: Observer) -> View {
        View::with(g, observer, true)
    }

    /// The view without `choices` (what a table derives its controls from: the legal actions,
    /// the factored program and its preview on the visible position): the same information,
    /// cheaper, for machine observers (the Python package's observations, `docs/python.md`).
    pub fn without_choices(g: &RoboRally, observer: Observer) -> View {
        View::with(g, observer, false)
    }

    fn with(g: &RoboRally, observer: Observer, with_choices: bool) -> View {
        let sees = |s: Seat| match observer {
            Observer::Omniscient => true,
            Observer::Seat(o) => o == s,
            Observer::Spectator => false,
        };
        let programming = matches!(g.phase, Phase::Program { .. });
        let robots = g
            .robots
            .iter()
            .map(|r| {
                let own = sees(r.seat);
                let registers = std::array::from_fn(|k| match r.registers[k] {
                    None => RegisterView::Empty,
                    Some(c) if own || r.revealed[k] => RegisterView::Card(c),
                    Some(_) => RegisterView::Hidden,
                });
                let side = std::array::from_fn(|k| match r.stash.side[k] {
                    None => RegisterView::Empty,
                    Some((_, c)) if own || r.revealed[k] => RegisterView::Card(c),
                    Some(_) => RegisterView::Hidden,
                });
                let secret = |c: Option<Card>| match c {
                    None => RegisterView::Empty,
                    Some(c) if own => RegisterView::Card(c),
                    Some(_) => RegisterView::Hidden,
                };
                let (flywheel, conditional) =
                    (secret(r.stash.flywheel), secret(r.stash.conditional));
                RobotView {
                    side,
                    flywheel,
                    conditional,
                    seat: r.seat,
                    at: r.cell(),
                    facing: r.facing,
                    damage: r.damage,
                    lives: r.lives,
                    flags_touched: r.flags_touched,
                    archive: r.archive,
                    powered_down: r.powered_down,
                    destroyed: r.destroyed,
                    out: r.out,
                    finished: r.finished,
                    locked_registers: r.locked_registers(),
                    hand_size: r.hand_size,
                    registers,
                    options: r.options.clone(),
                    option_state: r.opt.clone(),
                    power_down_next: (own || !programming).then_some(r.power_down_next),
                    hand: own.then(|| r.hand.clone()),
                    draft: (own && programming).then_some(r.draft),
                }
            })
            .collect();
        View {
            turn: g.turn,
            phase: g.phase_name(),
            register: g.register(),
            robots,
            draw_pile: g.deck.draw.len(),
            discard_pile: g.deck.discard.len(),
            winner: g.winner,
            timer_seconds: g.rules.timer_seconds,
            choices: match observer {
                Observer::Seat(s) if with_choices => crate::choices::choices(g, s),
                _ => None,
            },
            reentry: match &g.phase {
                Phase::Reenter { queue } => queue.first().map(|&i| reentry_view(g, usize::from(i))),
                _ => None,
            },
            question: g.pending.front().map(|p| {
                let seat = |i: usize| g.robots[i].seat;
                match *p {
                    Pending::Damage { robot, points, .. } => {
                        QuestionView::Damage { seat: seat(robot), points }
                    }
                    Pending::LoseOption { robot } => QuestionView::LoseOption { seat: seat(robot) },
                    Pending::MoveOption { robot, option } => {
                        QuestionView::MoveOption { seat: seat(robot), option }
                    }
                    Pending::Reveal { robot, register } => {
                        QuestionView::Reveal { seat: seat(robot), register }
                    }
                    Pending::Weapon { robot, target, points } => {
                        QuestionView::Weapon { seat: seat(robot), target: seat(target), points }
                    }
                    Pending::Stabilizer { robot } => QuestionView::Stabilizer { seat: seat(robot) },
                    Pending::Arm { robot } => {
                        QuestionView::Arm { seat: seat(robot), sites: g.arm_sites(robot) }
                    }
                }
            }),
        }
    }
}

/// The re-entry choices of robot `i`, grouped by cell.
fn reentry_view(g: &RoboRally, i: usize) -> ReentryView {
    let mut moves = g.reentry_moves(i);
    moves.sort_by_key(|&(c, d)| (c.y, c.x, d.index()));
    let mut choices: Vec<ReentryCell> = Vec::new();
    for (at, d) in moves {
        match choices.last_mut() {
            Some(c) if c.at == at => c.facings.push(d),
            _ => choices.push(ReentryCell { at, facings: vec![d] }),
        }
    }
    ReentryView { seat: g.robots[i].seat, archive: g.robots[i].archive, choices }
}

impl RoboRally {
    /// The phase as the scenario output names it.
    pub fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::StayDown { .. } => "stay_down",
            Phase::Program { .. } => "program",
            Phase::Execute { .. } => "execute",
            Phase::Reenter { .. } => "reenter",
            Phase::Over => "over",
        }
    }

    /// Resample what `seat` cannot see: other hands, other unrevealed registers, the order of
    /// the draw pile and of the option deck; the RNG is reseeded.
    pub(crate) fn resample_hidden(&mut self, seat: Seat, rng: &mut Rng) {
        let mut pool: Vec<Card> = std::mem::take(&mut self.deck.draw);
        for r in self.robots.iter().filter(|r| r.seat != seat) {
            pool.extend(r.hand.iter().copied());
            pool.extend((0..5).filter(|&k| !r.revealed[k]).filter_map(|k| r.registers[k]));
            pool.extend(
                (0..5).filter(|&k| !r.revealed[k]).filter_map(|k| r.stash.side[k].map(|(_, c)| c)),
            );
            pool.extend(r.stash.flywheel);
            pool.extend(r.stash.conditional);
        }
        // Sorted first, so the resampled state depends only on what the seat can see.
        pool.sort_unstable_by_key(|c| c.priority);
        rng.shuffle(&mut pool);
        for r in self.robots.iter_mut().filter(|r| r.seat != seat) {
            for c in r.hand.iter_mut() {
                *c = pool.pop().expect("same count");
            }
            for k in 0..5 {
                if !r.revealed[k] && r.registers[k].is_some() {
                    r.registers[k] = pool.pop();
                }
            }
            for k in 0..5 {
                if !r.revealed[k]
                    && let Some((o, _)) = r.stash.side[k]
                {
                    r.stash.side[k] = pool.pop().map(|c| (o, c));
                }
            }
            if r.stash.flywheel.is_some() {
                r.stash.flywheel = pool.pop();
            }
            if r.stash.conditional.is_some() {
                r.stash.conditional = pool.pop();
            }
            // RR-4.3: another player's draft is unknown (its cards were resampled with the hand).
            r.draft = [None; 5];
            r.places = 0;
        }
        self.deck.draw = pool;
        self.option_deck.sort_unstable_by_key(|o| *o as u8);
        rng.shuffle(&mut self.option_deck);
        self.rng = rng.fork();
    }
}
