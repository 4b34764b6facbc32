//! RR-1.2 / RR-9 Option cards: the 26 cards of the 2005 edition, their effect texts (the
//! project's own words) and the per-robot marks some of them keep. The effects live at the
//! hook points: `damage` (Ablative Coat, Power-Down Shield), `movement` (Brakes, Fourth Gear,
//! Reverse Gears, Ramming Gear), `elements::laser` (laser options and the weapons that replace
//! the main laser's damage), `elements::{gear,conveyor}` (Gyroscopic Stabilizer),
//! `elements::checkpoint` / `cleanup` (Mechanical Arm, Circuit Breaker), `programming`
//! (Extra Memory, Recompile), `reentry` (Superior Archive). `docs/roborally-options.md` has
//! the precise rules and every decision.

use serde::{Deserialize, Serialize};

/// The 26 option cards of the 2005 edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionCard {
    AblativeCoat,
    AbortSwitch,
    Brakes,
    CircuitBreaker,
    ConditionalProgram,
    CrabLegs,
    DoubleBarreledLaser,
    DualProcessor,
    ExtraMemory,
    FireControl,
    Flywheel,
    FourthGear,
    GyroscopicStabilizer,
    HighPowerLaser,
    MechanicalArm,
    MiniHowitzer,
    PowerDownShield,
    PressorBeam,
    RadioControl,
    RammingGear,
    RearFiringLaser,
    Recompile,
    ReverseGear,
    Scrambler,
    SuperiorArchive,
    TractorBeam,
}

/// Ablative Coat is discarded once it has absorbed this many points.
pub const ABLATIVE_POINTS: u8 = 3;
/// Mini Howitzer is discarded after this many shots.
pub const HOWITZER_SHOTS: u8 = 5;

impl OptionCard {
    pub const ALL: [OptionCard; 26] = {
        use OptionCard::*;
        [
            AblativeCoat,
            AbortSwitch,
            Brakes,
            CircuitBreaker,
            ConditionalProgram,
            CrabLegs,
            DoubleBarreledLaser,
            DualProcessor,
            ExtraMemory,
            FireControl,
            Flywheel,
            FourthGear,
            GyroscopicStabilizer,
            HighPowerLaser,
            MechanicalArm,
            MiniHowitzer,
            PowerDownShield,
            PressorBeam,
            RadioControl,
            RammingGear,
            RearFiringLaser,
            Recompile,
            ReverseGear,
            Scrambler,
            SuperiorArchive,
            TractorBeam,
        ]
    };

    /// Weapons that may replace the main laser's damage to a robot it hits.
    pub const WEAPONS: [OptionCard; 6] = [
        OptionCard::FireControl,
        OptionCard::MiniHowitzer,
        OptionCard::PressorBeam,
        OptionCard::RadioControl,
        OptionCard::Scrambler,
        OptionCard::TractorBeam,
    ];

    /// What the card does, in the project's words.
    pub const fn effect(self) -> &'static str {
        use OptionCard::*;
        match self {
            AblativeCoat => {
                "Soaks up the next 3 damage points dealt to the robot, then is thrown away."
            }
            AbortSwitch => {
                "Once each turn, at a reveal: the rest of this turn's cards are swapped for cards off the deck."
            }
            Brakes => "A Move 1 may be run as a move of zero cells.",
            CircuitBreaker => {
                "Ending a turn with 3 or more damage powers the robot down for the next turn."
            }
            ConditionalProgram => {
                "Park a spare card here while programming; swap it into a register before that register shows."
            }
            CrabLegs => "A Move 1 stacked with a Turn Left or Right sidesteps that way instead.",
            DoubleBarreledLaser => "The forward laser hits for 2 points.",
            DualProcessor => {
                "A move card and a turn card may share a register: move one cell less, then turn."
            }
            ExtraMemory => "One more program card is dealt each turn.",
            FireControl => {
                "Instead of laser damage: jam one of the target's registers, or wreck one of its options."
            }
            Flywheel => "Keep one unused card back for a later turn.",
            FourthGear => "A Move 3 may be run as a Move 4.",
            GyroscopicStabilizer => {
                "Said active before each turn's first register: gears and turning belts leave the facing alone."
            }
            HighPowerLaser => {
                "The forward laser goes through one wall or one robot (both robots are hit)."
            }
            MechanicalArm => {
                "Flags and repair sites count when they are one cell away, diagonals included, with no wall in between."
            }
            MiniHowitzer => {
                "Instead of laser damage: shove the target one cell away and deal it 1 point; five shots."
            }
            PowerDownShield => "While powered down, blocks 1 point from each side every register.",
            PressorBeam => "Instead of laser damage: shove the target one cell away.",
            RadioControl => {
                "Instead of laser damage: the target runs your program for the rest of the turn."
            }
            RammingGear => "A robot this one pushes or bumps takes 1 damage point.",
            RearFiringLaser => "A second laser fires backwards.",
            Recompile => {
                "Once a turn while programming: throw the hand away and take a fresh one, for 1 damage point."
            }
            ReverseGear => "A Back Up may be run as a backwards move of two cells.",
            Scrambler => {
                "Instead of laser damage: the target's next register gets the deck's top card (not in register 5)."
            }
            SuperiorArchive => "Comes back into play with no damage.",
            TractorBeam => {
                "Instead of laser damage: pull a target that is not adjacent one cell closer."
            }
        }
    }
}

/// Marks the option cards keep on a robot (counters, switches, one-turn locks).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OptionState {
    /// Points Ablative Coat has absorbed.
    pub ablative: u8,
    /// Shots Mini Howitzer has fired.
    pub howitzer: u8,
    /// Recompile used this turn.
    pub recompiled: bool,
    /// Gyroscopic Stabilizer said active for this turn (asked before register 1 is revealed).
    pub stabilizer_on: bool,
    /// Power-Down Shield: sides (bit = direction) already shielded this register.
    #[serde(skip)]
    pub shielded: u8,
    /// Fire Control locks: clean-ups left before the register is released (0: not locked).
    pub jammed: [u8; 5],
    /// Abort Switch used this turn (once each turn).
    pub aborted: bool,
    /// Radio Control: the seat whose program this robot runs for the rest of the turn.
    pub radio: Option<engine::Seat>,
    /// Mechanical Arm: its player's answer for this register's checkpoint step (`Some(None)`:
    /// no site touched).
    #[serde(skip)]
    pub arm_choice: Option<Option<grid::Sq>>,
    /// Mechanical Arm: the site it touched at the last checkpoint step (register 5's is the
    /// one that repairs at clean-up).
    #[serde(skip)]
    pub arm_touched: Option<grid::Sq>,
}

/// Program cards a robot keeps on its option cards (secret like a program: the owner sees
/// them, others see that a card is there).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stash {
    /// Crab Legs / Dual Processor: a second card in a register, with the option it rides on.
    pub side: [Option<(OptionCard, crate::card::Card)>; 5],
    /// Flywheel: a card kept for a later turn (added to the next hand dealt).
    pub flywheel: Option<crate::card::Card>,
    /// Conditional Program: a card that may replace a register's card this turn.
    pub conditional: Option<crate::card::Card>,
}

impl Stash {
    pub fn cards(&self) -> impl Iterator<Item = crate::card::Card> + '_ {
        self.side.iter().flatten().map(|&(_, c)| c).chain(self.flywheel).chain(self.conditional)
    }
}

impl OptionState {
    pub fn is_clear(&self) -> bool {
        *self == OptionState::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rr_9_every_card_has_its_own_short_effect_text() {
        let mut texts: Vec<&str> = OptionCard::ALL.iter().map(|o| o.effect()).collect();
        assert!(texts.iter().all(|t| !t.is_empty() && t.len() <= 120));
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), 26);
        let mut all = OptionCard::ALL.to_vec();
        all.dedup();
        assert_eq!(all.len(), 26);
    }
}
