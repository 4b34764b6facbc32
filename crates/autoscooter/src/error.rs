//! Illegal actions (AS-8: exit 3, nothing changes).

use crate::chart::Letter;
use engine::{RuleError, Seat};
use grid::Hex;
use std::fmt;

/// Why an action was rejected. [`ActionError::code`] is stable (scenario `error.code`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The seat owes no decision now, or not this kind of decision.
    NotYourDecision { seat: Seat },
    /// The game is over.
    GameOver,
    /// The car does not exist or is not the seat's (AS-4.1).
    NotYourCar { seat: Seat, car: u8 },
    /// The car already has a plot this round.
    AlreadyPlotted { car: u8 },
    /// The number is not in the car's column of the sheet (AS-2.1).
    NumberNotInColumn { car: u8, number: u32 },
    /// The number was used in an earlier round (AS-2.1).
    NumberAlreadyUsed { car: u8, number: u32 },
    /// The letter is not one of A–P (AS-3.2).
    InvalidLetter { letter: String },
    /// There is no wild car in this game (AS-7.1).
    NoWildCar,
    /// The wild car starts this round stationary: no letter is plotted for it (AS-7.1).
    WildCarStationary,
    /// The seat already plotted the wild car's letter this round.
    WildAlreadyPlotted,
    /// A start names another car than the one that must start now (AS-5.4).
    WrongCar { expected: u8, car: u8 },
    /// A start's hex is not adjacent to the car (AS-5.4).
    NotAdjacent { to: Hex },
    /// A start's hex is not on the rink.
    OffRink { to: Hex },
    /// A start's hex holds a car.
    HexOccupied { to: Hex },
    /// A start's facing points backwards relative to the direction moved (AS-5.4).
    FacingNotAllowed { facing: u8 },
    /// A colour payment that the chit-by-chit rule does not allow (AS-7.3).
    IllegalPayment,
    /// A `take` where the rules ask for `pay`, or the other way round (AS-7.3).
    WrongPaymentKind,
}

impl RuleError for ActionError {
    fn code(&self) -> &'static str {
        use ActionError::*;
        match self {
            NotYourDecision { .. } => "not_your_decision",
            GameOver => "game_over",
            NotYourCar { .. } => "not_your_car",
            AlreadyPlotted { .. } => "already_plotted",
            NumberNotInColumn { .. } => "number_not_in_column",
            NumberAlreadyUsed { .. } => "number_already_used",
            InvalidLetter { .. } => "invalid_letter",
            NoWildCar => "no_wild_car",
            WildCarStationary => "wild_car_stationary",
            WildAlreadyPlotted => "wild_already_plotted",
            WrongCar { .. } => "wrong_car",
            NotAdjacent { .. } => "not_adjacent",
            OffRink { .. } => "off_rink",
            HexOccupied { .. } => "hex_occupied",
            FacingNotAllowed { .. } => "facing_not_allowed",
            IllegalPayment => "illegal_payment",
            WrongPaymentKind => "wrong_payment_kind",
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ActionError::*;
        match self {
            NotYourDecision { seat } => write!(f, "{seat} owes no such decision now"),
            GameOver => write!(f, "the game is over"),
            NotYourCar { seat, car } => write!(f, "car {car} is not {seat}'s car"),
            AlreadyPlotted { car } => write!(f, "car {car} already has a plot this round"),
            NumberNotInColumn { car, number } => {
                write!(f, "{number} is not in car {car}'s column of turn numbers (AS-2.1)")
            }
            NumberAlreadyUsed { car, number } => {
                write!(f, "car {car} already used turn number {number} (AS-2.1)")
            }
            InvalidLetter { letter } => {
                write!(f, "{letter:?} is not a movement letter A–P (AS-3.2)")
            }
            NoWildCar => write!(f, "this game has no wild car (AS-7.1)"),
            WildCarStationary => {
                write!(f, "the wild car starts this round stationary: it takes no letter (AS-7.1)")
            }
            WildAlreadyPlotted => write!(f, "the wild car's letter is already plotted this round"),
            WrongCar { expected, car } => write!(f, "car {expected} must start now, not car {car}"),
            NotAdjacent { to } => write!(f, "{to} is not adjacent to the car (AS-5.4)"),
            OffRink { to } => write!(f, "{to} is not on the rink"),
            HexOccupied { to } => write!(f, "{to} holds a car"),
            FacingNotAllowed { facing } => write!(
                f,
                "facing {facing} points backwards from the direction moved (AS-5.4: the five facings A–E allow)"
            ),
            IllegalPayment => write!(f, "that mix of colours is not a legal payment (AS-7.3)"),
            WrongPaymentKind => {
                write!(f, "this payment is chosen with the other action (take/pay, AS-7.3)")
            }
        }
    }
}

impl std::error::Error for ActionError {}

pub(crate) fn check_letter(l: &crate::chart::LetterInput) -> Result<Letter, ActionError> {
    match l {
        crate::chart::LetterInput::Valid(l) => Ok(*l),
        crate::chart::LetterInput::Invalid(s) => {
            Err(ActionError::InvalidLetter { letter: s.clone() })
        }
    }
}
