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

impl fmt::Display for BbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BbError::GameOver => f.write_str("the race is over"),
            BbError::NotYourTurn => f.write_str("this seat owes no decision now"),
            BbError::WrongAction { expected } => {
                write!(f, "the game waits for a {expected} action")
            }
            BbError::IllegalSpeedChoice(w) => write!(f, "illegal speed choice: {w}"),
            BbError::IllegalRotation(w) => write!(f, "illegal rotation: {w}"),
            BbError::IllegalShockChoice(w) => write!(f, "illegal shock choice: {w}"),
            BbError::CardNotHeld => f.write_str("the bot does not hold this card"),
            BbError::CardAlreadyUsed => f.write_str("the card was already used in this race"),
            BbError::OneCardPerTurn => f.write_str("a bot plays at most one card per turn"),
            BbError::NitroFirstRound => {
                f.write_str("Nitro cannot be played in the first round (BB-9.3)")
            }
            BbError::NitroNotAllowed(w) => write!(f, "Nitro not allowed: {w} (BB-9.3)"),
            BbError::MagnetOutOfRange => f.write_str("magnet target out of range (BB-9.2)"),
            BbError::MagnetNotInLine => {
                f.write_str("magnet target not in a straight line (BB-9.2)")
            }
            BbError::MagnetBlocked => {
                f.write_str("something stands between the bot and its magnet target (BB-9.2)")
            }
            BbError::MagnetBadTarget => {
                f.write_str("no such bot on the track to pull towards (BB-9.2)")
            }
            BbError::IllegalCard(w) => write!(f, "illegal card play: {w}"),
            BbError::CardNotInDeck => f.write_str("you already hold every card of that kind"),
        }
    }
}

impl std::error::Error for BbError {}
