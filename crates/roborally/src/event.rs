//! Events: what happened, for logs, animations and replays. Each says who may see it.

use crate::card::Card;
use crate::option::OptionCard;
use engine::{Audience, GameEvent, Seat};
use grid::{Sq, SqDir};
use serde::Serialize;

/// What moved or turned a robot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    Card,
    Push,
    Belt,
    Pusher,
    Gear,
}

/// Why a robot was destroyed (RR-8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DestroyCause {
    Pit,
    OffBoard,
    Damage,
}

/// Where a laser shot came from (RR-5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shooter {
    Board {
        at: Sq,
    },
    Robot {
        seat: Seat,
    },
    /// RR-9 Rear-Firing Laser.
    Rear {
        seat: Seat,
    },
    /// RR-9 Recompile: the point of damage the robot's own card costs (no side, no shooter).
    Recompile {
        seat: Seat,
    },
}

/// The most cards a hand is dealt: 9, one more with Extra Memory (RR-7.1, RR-9), and a card
/// kept on Flywheel (RR-9).
pub const MAX_HAND: usize = 11;

/// A hand's cards in an event, on the stack (issue 17: no allocation per deal); serialised as
/// the list it replaced.
pub type HandCards = arrayvec::ArrayVec<Card, MAX_HAND>;

/// A dealt hand as an event's list (a hand never holds more than [`MAX_HAND`] cards).
#[inline]
pub fn hand_cards(hand: &[Card]) -> HandCards {
    debug_assert!(hand.len() <= MAX_HAND, "a hand of {} cards", hand.len());
    hand.iter().copied().take(MAX_HAND).collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Revealed {
    pub seat: Seat,
    pub card: Card,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TurnStarted {
        turn: u32,
    },
    /// RR-6.4: a powered-down player has answered (the choice stays secret until all have).
    StayDownSent {
        seat: Seat,
    },
    /// RR-6.4: a powered-down player's choice, revealed when every such player has answered.
    StayedDown {
        seat: Seat,
        value: bool,
    },
    /// RR-4.4: the robot starts a powered-down turn and discards its damage.
    PoweredDown {
        seat: Seat,
    },
    PoweredUp {
        seat: Seat,
    },
    /// RR-4.1: cards shuffled into the draw pile.
    Shuffled {
        cards: usize,
    },
    /// Public: how many cards a seat was dealt.
    Dealt {
        seat: Seat,
        count: usize,
    },
    /// Private: the cards themselves.
    Hand {
        seat: Seat,
        cards: HandCards,
    },
    /// Public: a seat has committed its program.
    Programmed {
        seat: Seat,
    },
    /// Private: the program itself.
    Program {
        seat: Seat,
        registers: [Option<Card>; 5],
        power_down_next: bool,
    },
    /// RR-4.4: revealed together with the programs.
    PowerDownAnnounced {
        seat: Seat,
    },
    /// RR-5.1.
    RegisterRevealed {
        register: u8,
        cards: crate::PerRobot<Revealed>,
    },
    Moved {
        seat: Seat,
        from: Sq,
        to: Sq,
        by: Cause,
    },
    Turned {
        seat: Seat,
        from: SqDir,
        to: SqDir,
        by: Cause,
    },
    /// A step into a wall, or a push chain stopped by a wall (RR-5.2).
    Blocked {
        seat: Seat,
        at: Sq,
        dir: SqDir,
    },
    Destroyed {
        seat: Seat,
        at: Sq,
        cause: DestroyCause,
    },
    Shot {
        seat: Seat,
        by: Shooter,
        beams: u8,
    },
    Damaged {
        seat: Seat,
        points: u8,
        damage: u8,
    },
    /// RR-7.3: a powered-down robot's newly locked register filled face up from the draw pile.
    RegisterFilled {
        seat: Seat,
        register: u8,
        card: Card,
    },
    FlagTouched {
        seat: Seat,
        flag: u8,
    },
    ArchiveMoved {
        seat: Seat,
        at: Sq,
    },
    Repaired {
        seat: Seat,
        damage: u8,
    },
    OptionDrawn {
        seat: Seat,
        option: OptionCard,
    },
    OptionDiscarded {
        seat: Seat,
        option: OptionCard,
    },
    /// RR-9: an option card was used.
    OptionUsed {
        seat: Seat,
        option: OptionCard,
    },
    /// RR-9 Crab Legs, Dual Processor, Flywheel: a program card put on (or taken back from,
    /// `card: null`) an option card. Private to the seat.
    Stashed {
        seat: Seat,
        option: OptionCard,
        register: Option<u8>,
        card: Option<Card>,
    },
    /// RR-9 Crab Legs / Dual Processor: the second card of a register, shown when it runs.
    SideRevealed {
        seat: Seat,
        register: u8,
        card: Card,
    },
    /// RR-9: Ablative Coat or Power-Down Shield absorbed damage points.
    OptionAbsorbed {
        seat: Seat,
        option: OptionCard,
        points: u8,
    },
    /// RR-9 Scrambler: the register's card was replaced by the top card of the deck (unseen).
    Scrambled {
        seat: Seat,
        register: u8,
    },
    /// RR-9 Radio Control: `seat` runs `by`'s program for the rest of the turn.
    RadioControlled {
        seat: Seat,
        by: Seat,
    },
    /// RR-9 Fire Control: the register is locked through the next turn.
    RegisterJammed {
        seat: Seat,
        register: u8,
    },
    /// RR-7.4: a damage point prevented by discarding an option.
    DamagePrevented {
        seat: Seat,
    },
    LifeLost {
        seat: Seat,
        lives: u8,
    },
    /// RR-8.2: destroyed with no life token left.
    Eliminated {
        seat: Seat,
    },
    Reentered {
        seat: Seat,
        at: Sq,
        facing: SqDir,
        powered_down: bool,
    },
    /// RR-10 `full_ranking`: a robot touched its last flag.
    Finished {
        seat: Seat,
        place: u8,
    },
    GameOver {
        winner: Option<Seat>,
    },
}

impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::Hand { seat, .. }
            | Event::Program { seat, .. }
            | Event::Stashed { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}

pub use engine::NoEvents;

/// [`engine::Sink`] of RoboRally's events: a list, the simulator's tally (flags, destructions,
/// damage, registers) or [`NoEvents`]. The rules are generic over it.
pub trait Sink: engine::Sink<Event> {}

impl<T: engine::Sink<Event> + ?Sized> Sink for T {}
