//! Typed rule errors with stable snake_case codes (the scenario output's `error.code`).

use engine::RuleError;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BbError {
    /// The game is over.
    GameOver,
    /// This seat owes no decision now (acting out of race order included).
    NotYourTurn,
    /// The action is not the kind the current decision asks for.
    WrongAction {
        expected: &'static str,
    },
    /// BB-5.2..5.4.
    IllegalSpeedChoice(&'static str),
    /// BB-6.2/6.3/7.1/7.4/9.5: a rotation outside the rules.
    IllegalRotation(&'static str),
    /// BB-7.4/7.6: a shock choice that does not fit the shock.
    IllegalShockChoice(&'static str),
    /// BB-9: the bot never held this card.
    CardNotHeld,
    /// BB-9: the card was used already this race.
    CardAlreadyUsed,
    /// BB-9: one card per turn (a project decision).
    OneCardPerTurn,
    /// BB-9.3.
    NitroFirstRound,
    NitroNotAllowed(&'static str),
    /// BB-9.2.
    MagnetOutOfRange,
    MagnetNotInLine,
    MagnetBlocked,
    MagnetBadTarget,
    /// BB-9: a card field missing or out of range.
    IllegalCard(&'static str),
    /// BB-3 `choose_cards`: the seat already holds every card of that kind (its own set of the
    /// deck; never other seats' secret picks).
    CardNotInDeck,
}

impl RuleError for BbError {
    fn code(&self) -> &'static str {
        match self {
            BbError::GameOver => "game_over",
            BbError::NotYourTurn => "not_your_turn",
            BbError::WrongAction { .. } => "wrong_action",
            BbError::IllegalSpeedChoice(_) => "illegal_speed_choice",
            BbError::IllegalRotation(_) => "illegal_rotation",
            BbError::IllegalShockChoice(_) => "illegal_shock_choice",
            BbError::CardNotHeld => "card_not_held",
            BbError::CardAlreadyUsed => "card_already_used",
            BbError::OneCardPerTurn => "one_card_per_turn",
            BbError::NitroFirstRound => "nitro_first_round",
            BbError::NitroNotAllowed(_) => "nitro_not_allowed",
            BbError::MagnetOutOfRange => "magnet_out_of_range",
            BbError::MagnetNotInLine => "magnet_not_in_line",
            BbError::MagnetBlocked => "magnet_blocked",
            BbError::MagnetBadTarget => "magnet_bad_target",
            BbError::IllegalCard(_) => "illegal_card",
            BbError::CardNotInDeck => "card_not_in_deck",
        }
    }
}

/// Sentences for players (issue 21): the table shows them as they are, with the code in small
/// print; the reason inside a variant is one of the rules' own phrases, with its rule number.
impl fmt::Display for BbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BbError::GameOver => f.write_str("The race is over: nothing more can be played."),
            BbError::NotYourTurn => {
                f.write_str("It is not your turn now: the race has moved on to another decision.")
            }
            BbError::WrongAction { expected } => write!(
                f,
                "That is not what the race is waiting for now: it waits for a {expected} decision."
            ),
            BbError::IllegalSpeedChoice(w) => write!(f, "That speed choice is not allowed: {w}."),
            BbError::IllegalRotation(w) => write!(f, "That rotation is not allowed: {w}."),
            BbError::IllegalShockChoice(w) => write!(f, "That answer to the shock does not fit it: {w}."),
            BbError::CardNotHeld => f.write_str("Your bot does not hold that card."),
            BbError::CardAlreadyUsed => f.write_str("That card was already used in this race."),
            BbError::OneCardPerTurn => f.write_str("A bot plays at most one card per turn."),
            BbError::NitroFirstRound => {
                f.write_str("Nitro cannot be played in the first round (BB-9.3).")
            }
            BbError::NitroNotAllowed(w) => write!(f, "Nitro cannot be played now: {w} (BB-9.3)."),
            BbError::MagnetOutOfRange => {
                f.write_str("That bot is too far away for the Magnet (BB-9.2).")
            }
            BbError::MagnetNotInLine => {
                f.write_str("The Magnet pulls only along a straight line of cells, and that bot is not on one (BB-9.2).")
            }
            BbError::MagnetBlocked => {
                f.write_str("Something stands between your bot and the Magnet's target (BB-9.2).")
            }
            BbError::MagnetBadTarget => {
                f.write_str("There is no such bot on the track to pull towards (BB-9.2).")
            }
            BbError::IllegalCard(w) => write!(f, "That card cannot be played like this: {w}."),
            BbError::CardNotInDeck => f.write_str("You already hold every card of that kind."),
        }
    }
}

impl std::error::Error for BbError {}
