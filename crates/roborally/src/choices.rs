//! What the seat that owes a decision may choose now, in the form a table turns into controls
//! directly (issue 21 item 3), and the engine's preview of the program being placed (item 4).
//!
//! **The listing.** [`choices`] describes, for the owing seat only (it is sent in that seat's
//! own view, never in another's), every action `apply` accepts now. The program (RR-4.2) is
//! *factored*, because its listing runs to 30,240 programs: the hand, each register with whether
//! it is locked (RR-7.2, RR-9 Fire Control: then it keeps its card, or is filled from the deck
//! when it has none) and the cards that may go in it, how many unlocked registers must hold a
//! card (all of them, or as many as the hand allows), that a card goes in one register at most,
//! whether a power down may be announced (RR-4.4: only a damaged robot), how many more draft
//! placements the turn allows (RR-4.3, [`crate::programming::MAX_PLACES`]) and each option card
//! use open while programming (RR-9: Crab Legs, Dual Processor, Flywheel, Conditional Program,
//! Recompile…), listed one by one. Every other decision — stay down (RR-6.4), re-entry (RR-8.3),
//! the option questions of resolution (RR-7.4, RR-8.2, RR-9) — is listed action by action: those
//! lists are short. `tests/choices.rs` checks on random positions that every listed (or
//! factored) choice is accepted by `apply` on a clone and every action `apply` accepts is in it.
//!
//! **The preview.** [`preview`] runs the seat's own program as far as its cards determine it —
//! the registers in order, stopping at the first one without a card (the draft is still open,
//! or a locked register waits for a card from the deck) — over the board elements of RR-5.2 and
//! RR-5.3 (the card's steps stopped by walls, express belts then every belt with its rotating
//! sections, the pushers active in that register, the gears), with **no other robot on the
//! board**: their programs are secret and they may push or block this one, so the table says "if
//! no robot is in the way". It reports each register's cells entered, where the robot stands
//! after the card and at the register's end, a fall into a pit or off the board (the robot is
//! destroyed there and the preview stops, RR-8.1), the board lasers' damage where the register
//! ends and the flag it stands on then. Option cards that change a move (Crab Legs, Fourth
//! Gear, Brakes, Reverse Gears, Dual Processor…) are not previewed: they are decisions of their
//! own, asked when the card runs. It uses the same board functions as the engine's element
//! steps ([`crate::solo`]); `tests/choices.rs` checks it against the whole engine with one robot
//! on the board.

use crate::board::Board;
use crate::card::{Card, CardKind};
use crate::game::Owed;
use crate::{Action, RoboRally};
use engine::{Game, Seat};
use grid::{Sq, SqDir};
use serde::Serialize;

/// The decision owed now and every choice `apply` accepts for it (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choices {
    /// RR-4.2–4.4: the program, factored ([`ProgramChoice`]).
    Program(ProgramChoice),
    /// RR-6.4: stay powered down another turn or not: each action.
    StayDown { actions: Vec<Action> },
    /// RR-8.3: each cell and facing allowed, powered down or not: each action.
    Reenter { actions: Vec<Action> },
    /// RR-7.4 / RR-8.2: each option card that may be discarded (and `null`, declining, when
    /// the question is a damage point).
    DiscardOption { actions: Vec<Action> },
    /// RR-9: each use of an option card the question allows, and declining.
    UseOption { actions: Vec<Action> },
}

/// The program of RR-4.2 as a table offers it: any card of `hand` may go in any register whose
/// `cards` lists it, each card in one register at most (`distinct`), at least `fill` unlocked
/// registers holding a card; a locked register is sent as `null` (or the card it holds).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProgramChoice {
    pub hand: Vec<Card>,
    /// Registers 1 to 5.
    pub registers: Vec<RegisterChoice>,
    /// How many unlocked registers must hold a card for `program` to be accepted.
    pub fill: u8,
    /// A card goes in one register at most (RR-4.2).
    pub distinct: bool,
    /// `power_down_next: true` is accepted (RR-4.4: only a damaged robot may announce it).
    pub power_down: bool,
    /// How many more `place` actions (the draft of RR-4.3) the turn accepts.
    pub places_left: u16,
    /// Each option card use open now (RR-9), as the exact action to send.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Action>,
    /// The engine's preview of the draft (the registers placed so far), [`preview`].
    pub preview: Preview,
}

/// One register of [`ProgramChoice`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterChoice {
    pub register: u8,
    /// Locked (RR-7.2, RR-9 Fire Control): no card may be placed in it.
    pub locked: bool,
    /// A locked register's card (none: it is filled from the deck when revealed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
    /// The cards of the hand that may go in it (none when locked).
    pub cards: Vec<Card>,
}

/// Where a robot stands and faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pose {
    pub at: Sq,
    pub facing: SqDir,
}

/// The preview of a program (see the module docs): from `start`, each register with a card in
/// order, up to the first without one or the fall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// Always true: other robots are assumed absent (they may push or block this one).
    pub alone: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Pose>,
    pub registers: Vec<RegisterPreview>,
}

/// One register of a [`Preview`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterPreview {
    pub register: u8,
    pub card: Card,
    /// Every cell entered in this register, in order (the card's steps, then belts, pusher).
    pub path: Vec<Sq>,
    /// After the card alone (`None`: it fell during the card).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_card: Option<Pose>,
    /// At the register's end, after the board elements (`None`: it fell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Pose>,
    /// The pit or off-board cell it falls into: destroyed there (RR-8.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub falls: Option<Sq>,
    /// The board lasers' damage where the register ends (RR-5.4).
    pub laser_damage: u8,
    /// The flag (1-based) it stands on at the register's end, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<u8>,
}

/// The choices of `seat` now; `None` when it owes nothing.
pub fn choices(g: &RoboRally, seat: Seat) -> Option<Choices> {
    let owed = g.owed(seat)?;
    let i = seat.index();
    Some(match owed {
        Owed::Program => Choices::Program(program_choice(g, i)),
        Owed::StayDown => Choices::StayDown { actions: g.legal_actions(seat) },
        Owed::Reenter => Choices::Reenter { actions: g.legal_actions(seat) },
        Owed::Discard => Choices::DiscardOption { actions: g.legal_actions(seat) },
        Owed::UseOption => Choices::UseOption { actions: g.legal_actions(seat) },
    })
}

fn program_choice(g: &RoboRally, i: usize) -> ProgramChoice {
    let r = &g.robots[i];
    let registers: Vec<RegisterChoice> = (0..5)
        .map(|k| {
            let locked = r.locked(k);
            RegisterChoice {
                register: k as u8 + 1,
                locked,
                card: if locked { r.registers[k] } else { None },
                cards: if locked { vec![] } else { r.hand.clone() },
            }
        })
        .collect();
    let unlocked = registers.iter().filter(|x| !x.locked).count();
    ProgramChoice {
        hand: r.hand.clone(),
        fill: unlocked.min(r.hand.len()) as u8,
        registers,
        distinct: true,
        power_down: r.damage > 0,
        places_left: crate::programming::MAX_PLACES.saturating_sub(r.places),
        options: g.program_use_actions(i),
        preview: draft_preview(g, i),
    }
}

/// The preview of robot `i`'s draft (locked registers with their cards).
fn draft_preview(g: &RoboRally, i: usize) -> Preview {
    let r = &g.robots[i];
    let cards: [Option<Card>; 5] =
        std::array::from_fn(|k| if r.locked(k) { r.registers[k] } else { r.draft[k] });
    preview(&g.board, r.cell().map(|at| Pose { at, facing: r.facing }), &cards)
}

/// The preview of `cards` in registers 1..5 for a robot alone on `board` from `start` (see the
/// module docs): registers in order up to the first without a card, or the fall.
pub fn preview(board: &Board, start: Option<Pose>, cards: &[Option<Card>; 5]) -> Preview {
    let mut out = Preview { alone: true, start, registers: Vec::new() };
    let Some(mut pose) = start else { return out };
    for (k, card) in cards.iter().enumerate() {
        let Some(card) = *card else { break };
        let reg = register(board, pose, card, k as u8 + 1);
        let end = reg.end;
        out.registers.push(reg);
        match end {
            Some(p) => pose = p,
            None => break,
        }
    }
    out
}

/// One register for a robot alone: the card (RR-5.2), express belts then every belt (RR-5.3
/// steps 1–2), the pusher active in `reg` (step 3), the gear (step 4); the lasers' damage there.
pub fn register(board: &Board, from: Pose, card: Card, reg: u8) -> RegisterPreview {
    let mut p = RegisterPreview {
        register: reg,
        card,
        path: Vec::new(),
        after_card: None,
        end: None,
        falls: None,
        laser_damage: 0,
        flag: None,
    };
    let (mut at, mut facing) = (from.at, from.facing);
    // Enter `to`: false (and the fall noted) when the robot falls there.
    let enter = |p: &mut RegisterPreview, to: Sq| {
        p.path.push(to);
        if board.falls(to) {
            p.falls = Some(to);
            false
        } else {
            true
        }
    };
    let kind: CardKind = card.card;
    facing = facing.turn(kind.turn());
    let steps = kind.steps();
    let dir = if steps < 0 { facing.opposite() } else { facing };
    for _ in 0..steps.abs() {
        if board.wall(at, dir) {
            break;
        }
        at = at.neighbour(dir);
        if !enter(&mut p, at) {
            return p;
        }
    }
    p.after_card = Some(Pose { at, facing });
    for express_only in [true, false] {
        let Some((to, travel)) = board.belt_carry(at, express_only) else { continue };
        at = to;
        if !enter(&mut p, at) {
            return p;
        }
        facing = facing.turn(board.section_turn(at, travel));
    }
    if let Some(dir) = board.pusher_push(at, reg)
        && !board.wall(at, dir)
    {
        at = at.neighbour(dir);
        if !enter(&mut p, at) {
            return p;
        }
    }
    facing = facing.turn(board.gear_turn(at));
    p.end = Some(Pose { at, facing });
    p.laser_damage = board.board_laser_damage(at);
    p.flag = board.flags.iter().position(|&f| f == at).map(|n| n as u8 + 1);
    p
}
