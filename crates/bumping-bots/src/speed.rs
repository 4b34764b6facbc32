//! BB-5 speed choice.

use crate::error::BbError;
use crate::state::Bot;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpeedChoice {
    Keep,
    Accelerate,
    #[serde(rename = "accelerate_to_3")]
    AccelerateTo3,
    Decelerate,
    Reverse,
}

impl SpeedChoice {
    pub const ALL: [SpeedChoice; 5] = [
        SpeedChoice::Keep,
        SpeedChoice::Accelerate,
        SpeedChoice::AccelerateTo3,
        SpeedChoice::Decelerate,
        SpeedChoice::Reverse,
    ];
}

/// Highest speed in a direction (BB-1.1, BB-5.2).
pub fn max_speed(reverse: bool) -> u8 {
    if reverse { 3 } else { 6 }
}

/// The (speed, reverse) a choice gives, or why it is illegal (BB-5.5).
pub fn speed_after(
    bot: &Bot,
    choice: SpeedChoice,
    new_speed: Option<u8>,
) -> Result<(u8, bool), BbError> {
    use SpeedChoice::*;
    if new_speed.is_some() && choice != Reverse {
        return Err(BbError::IllegalSpeedChoice(
            "new_speed goes only with a change of direction (BB-5.4)",
        ));
    }
    let locked = bot.changed_direction;
    // Bits rather than `&&`: one branch, rarely taken, not one on the drawn choice (issue 17).
    if locked & matches!(choice, Accelerate | AccelerateTo3 | Decelerate) {
        return Err(BbError::IllegalSpeedChoice(
            "no accelerating or decelerating on the turn after a change of direction (BB-5.4)",
        ));
    }
    let (v, rev) = (bot.speed, bot.reverse);
    match choice {
        Keep => Ok((v, rev)),
        Accelerate if v < max_speed(rev) => Ok((v + 1, rev)),
        Accelerate => Err(BbError::IllegalSpeedChoice(if rev {
            "reverse speeds stop at 3 (BB-5.2)"
        } else {
            "forward speeds stop at 6 (BB-5.2)"
        })),
        AccelerateTo3 if v == 1 => Ok((3, rev)),
        AccelerateTo3 => {
            Err(BbError::IllegalSpeedChoice("straight to 3 only from speed 1 (BB-5.2)"))
        }
        Decelerate if v > 1 => Ok((v - 1, rev)),
        Decelerate => Err(BbError::IllegalSpeedChoice(
            "a bot never goes below speed 1: there is no brake (BB-5.3)",
        )),
        Reverse => match new_speed {
            Some(s @ (1 | 2)) => Ok((s, !rev)),
            _ => Err(BbError::IllegalSpeedChoice(
                "a change of direction sets speed 1 or 2 (new_speed, BB-5.4)",
            )),
        },
    }
}
