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

/// [`speed_after`] of a legal choice, `None` for an illegal one, computed without a branch on
/// the choice: a random race draws it, and the `match` of [`speed_after`] became a jump table
/// whose target no predictor can learn (issue 17: about one indirect misprediction in two
/// speed choices). Every choice's answer is computed and the drawn one read from two small
/// tables. `tests::the_legal_answer_is_speed_after_s` holds it to [`speed_after`] on every
/// bot state, choice and `new_speed`.
#[inline(always)]
pub(crate) fn legal_speed_after(
    bot: &Bot,
    choice: SpeedChoice,
    new_speed: Option<u8>,
) -> Option<(u8, bool)> {
    let (v, rev, free) = (bot.speed, bot.reverse, !bot.changed_direction);
    let ns = new_speed.unwrap_or(0);
    let reverse = choice == SpeedChoice::Reverse;
    // By choice, in `SpeedChoice`'s order: Keep, Accelerate, AccelerateTo3, Decelerate, Reverse.
    let speeds = [v, v.wrapping_add(1), 3, v.wrapping_sub(1), ns];
    let legal =
        [true, free & (v < max_speed(rev)), free & (v == 1), free & (v > 1), (ns == 1) | (ns == 2)];
    let c = choice as usize;
    // `new_speed` goes only with a change of direction (BB-5.4).
    let ok = legal[c] & (new_speed.is_none() | reverse);
    ok.then_some((speeds[c], rev ^ reverse))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every speed a `u8` holds (a race holds 1–6), direction and lock, every choice and
    /// every `new_speed`: the tables' answer is `speed_after`'s (so `choose_speed`'s refusal,
    /// taken from `speed_after`, always finds one).
    #[test]
    fn the_legal_answer_is_speed_after_s() {
        let base = crate::state::Bot {
            seat: engine::Seat(0),
            at: None,
            facing: grid::HexDir::E,
            speed: 1,
            reverse: false,
            laps: 0,
            started: false,
            finished: false,
            finished_place: None,
            cards: Vec::new(),
            used_cards: Vec::new(),
            engine_turns: 0,
            changed_direction: false,
            k: 0,
            magnet: false,
        };
        let mut checked = 0;
        for speed in 0..=u8::MAX {
            for reverse in [false, true] {
                for changed_direction in [false, true] {
                    let bot = Bot { speed, reverse, changed_direction, ..base.clone() };
                    for choice in SpeedChoice::ALL {
                        for new_speed in std::iter::once(None).chain((0..=u8::MAX).map(Some)) {
                            assert_eq!(
                                legal_speed_after(&bot, choice, new_speed),
                                speed_after(&bot, choice, new_speed).ok(),
                                "{bot:?} {choice:?} {new_speed:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 256 * 2 * 2 * 5 * 257);
    }
}
