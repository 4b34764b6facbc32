//! What happened, for logs, animations and replays. Everything is public but card draws.

use crate::cards::Card;
use crate::track::ObstacleKind;
use engine::{Audience, GameEvent, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoundStarted {
        round: u32,
        order: Vec<Seat>,
    },
    CardsDrawn {
        seat: Seat,
        cards: Vec<Card>,
    },
    CardPicked {
        seat: Seat,
        card: Card,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    SpeedChosen {
        seat: Seat,
        speed: u8,
        reverse: bool,
    },
    Moved {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    Leapt {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    LeapCancelled {
        seat: Seat,
    },
    Turned {
        seat: Seat,
        facing: HexDir,
    },
    /// The bot ran into something: `against` is "wall", "obstacle", "mobile" or "bot".
    Collision {
        seat: Seat,
        at: Hex,
        against: &'static str,
    },
    SpeedLost {
        seat: Seat,
        speed: u8,
    },
    Pushed {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    Thrown {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    ObstacleMoved {
        kind: ObstacleKind,
        from: Hex,
        to: Hex,
    },
    MotorTurned {
        at: Hex,
        arms: [HexDir; 2],
    },
    MotorBlocked {
        at: Hex,
    },
    Magnet {
        seat: Seat,
        target: Seat,
        from: Hex,
        to: Hex,
    },
    LineCrossed {
        seat: Seat,
        forward: bool,
        laps: i32,
        started: bool,
    },
    Finished {
        seat: Seat,
    },
    Placed {
        seat: Seat,
        place: u8,
    },
    RaceOver {
        ranking: Vec<Vec<Seat>>,
    },
}

impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::CardsDrawn { seat, .. } | Event::CardPicked { seat, .. } => {
                Audience::Seat(*seat)
            }
            _ => Audience::Everyone,
        }
    }
}
