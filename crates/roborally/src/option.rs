//! RR-1.2 / RR-9 Option cards. The base game only draws them (double repair site, RR-6.1) and
//! discards them (RR-7.4, RR-8.2); their effects are a later issue. Each hook point (movement,
//! damage, lasers, programming) receives the robot, whose `options` list the effects will read.

use serde::{Deserialize, Serialize};

/// The 26 option cards of the 2005 edition (names only for now; effects: RR-9).
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

impl OptionCard {
    pub const ALL: [OptionCard; 26] = {
        use OptionCard::*;
        [
            AblativeCoat, AbortSwitch, Brakes, CircuitBreaker, ConditionalProgram, CrabLegs,
            DoubleBarreledLaser, DualProcessor, ExtraMemory, FireControl, Flywheel, FourthGear,
            GyroscopicStabilizer, HighPowerLaser, MechanicalArm, MiniHowitzer, PowerDownShield,
            PressorBeam, RadioControl, RammingGear, RearFiringLaser, Recompile, ReverseGear,
            Scrambler, SuperiorArchive, TractorBeam,
        ]
    };
}
