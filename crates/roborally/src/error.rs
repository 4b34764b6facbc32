//! Typed errors with stable snake_case codes (the scenario output's `error.code`).

use engine::RuleError;
use std::fmt;

/// An action the rules do not allow now. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    GameOver,
    UnknownSeat,
    /// The seat owes no decision now.
    NotYourDecision,
    /// The seat owes a decision of another kind (`expected` names it).
    WrongAction {
        expected: &'static str,
    },
    AlreadyProgrammed,
    /// RR-4.4: a powered-down robot does not program.
    PoweredDown,
    RobotDestroyed,
    RobotOut,
    CardNotInHand {
        priority: u16,
    },
    DuplicateCard {
        priority: u16,
    },
    /// RR-7.2: a locked register keeps its card.
    RegisterLocked {
        register: u8,
    },
    /// RR-4.2: every unlocked register gets a card while the hand has some.
    RegisterEmpty {
        register: u8,
    },
    /// RR-4.4: only a damaged robot may announce power down.
    PowerDownUndamaged,
    /// RR-8.3: the archive cell is free, so the robot re-enters there.
    ReenterArchiveFree,
    ReenterOffBoard,
    ReenterPit,
    ReenterOccupied,
    /// RR-8.3: not among the free cells of the nearest ring around the archive.
    ReenterNotAdjacent,
    /// RR-8.3: a robot stands in the line of sight (3 cells) while a clear choice exists.
    ReenterLineOfSight,
    OptionNotHeld,
    /// RR-8.2: a destroyed robot must give up one of its options.
    OptionRequired,
    /// RR-9: `use_option` while programming names no option card.
    OptionMissing,
    /// RR-9: an argument (`register`, `destroy`, `card`) this use does not take.
    OptionExtraArgument,
    /// RR-9 Crab Legs / Dual Processor: the register the card goes with is missing.
    OptionRegisterRequired,
    /// A register number outside 1..=5.
    RegisterOutOfRange {
        register: u8,
    },
    /// RR-9: there is no card on the option to take back or to play.
    OptionNothingOnIt,
    /// RR-9 Flywheel / Conditional Program: the card to put on the option is missing.
    OptionCardRequired,
    /// RR-9 Crab Legs: only a Move 1 goes with a register.
    OptionCardUnfit,
    /// RR-9: only a spare card goes on an option; the hand must still fill every unlocked
    /// register.
    OptionNoSpareCard,
    /// RR-9 Recompile: its price, 1 damage, is not paid at 9 damage or more.
    RecompileTooDamaged,
    /// RR-9 Tractor Beam: the target is adjacent.
    TargetAdjacent,
    /// RR-9 Scrambler: the target has no card to scramble in the next register (none, or
    /// locked, or no register left this turn).
    NoCardToScramble,
    /// RR-9 Fire Control: neither a register to jam nor an option to destroy is named;
    /// Mechanical Arm: no site (`at`) is named.
    OptionTargetRequired,
    /// RR-9: the card's condition no longer holds (the robot or its target left the board,
    /// the register does not run).
    OptionConditionUnmet,
    /// RR-9: the card's use is spent (once a turn).
    OptionAlreadyUsed,
    /// RR-9: the card is not used at this moment of the turn.
    OptionWrongTime,
    /// RR-4.3: a `place` that changes nothing in the draft.
    DraftUnchanged {
        register: u8,
    },
    /// RR-4.3: more `place` actions in one turn than the game accepts (a decision:
    /// `programming::MAX_PLACES`).
    TooManyPlaces,
    /// RR-9 Recompile: a card is loaded on Flywheel or Conditional Program this turn (those
    /// take cards left after programming; Recompile comes before).
    RecompileAfterLoading,
    /// RR-9 Mechanical Arm: the cell named is not a flag or repair site within reach.
    ArmOutOfReach {
        at: grid::Sq,
    },
}

impl RuleError for ActionError {
    fn code(&self) -> &'static str {
        use ActionError::*;
        match self {
            GameOver => "game_over",
            UnknownSeat => "unknown_seat",
            NotYourDecision => "not_your_decision",
            WrongAction { .. } => "wrong_action",
            AlreadyProgrammed => "already_programmed",
            PoweredDown => "powered_down",
            RobotDestroyed => "robot_destroyed",
            RobotOut => "robot_out",
            CardNotInHand { .. } => "card_not_in_hand",
            DuplicateCard { .. } => "duplicate_card",
            RegisterLocked { .. } => "register_locked",
            RegisterEmpty { .. } => "register_empty",
            PowerDownUndamaged => "power_down_undamaged",
            ReenterArchiveFree => "reenter_archive_free",
            ReenterOffBoard => "reenter_off_board",
            ReenterPit => "reenter_pit",
            ReenterOccupied => "reenter_occupied",
            ReenterNotAdjacent => "reenter_not_adjacent",
            ReenterLineOfSight => "reenter_line_of_sight",
            OptionNotHeld => "option_not_held",
            OptionRequired => "option_required",
            OptionMissing => "option_missing",
            OptionExtraArgument => "option_extra_argument",
            OptionRegisterRequired => "option_register_required",
            RegisterOutOfRange { .. } => "register_out_of_range",
            OptionNothingOnIt => "option_nothing_on_it",
            OptionCardRequired => "option_card_required",
            OptionCardUnfit => "option_card_unfit",
            OptionNoSpareCard => "option_no_spare_card",
            RecompileTooDamaged => "recompile_too_damaged",
            TargetAdjacent => "target_adjacent",
            NoCardToScramble => "no_card_to_scramble",
            OptionTargetRequired => "option_target_required",
            OptionConditionUnmet => "option_condition_unmet",
            OptionAlreadyUsed => "option_already_used",
            OptionWrongTime => "option_wrong_time",
            DraftUnchanged { .. } => "draft_unchanged",
            TooManyPlaces => "too_many_places",
            RecompileAfterLoading => "recompile_after_loading",
            ArmOutOfReach { .. } => "arm_out_of_reach",
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ActionError::*;
        match self {
            GameOver => write!(f, "the game is over"),
            UnknownSeat => write!(f, "no robot has this seat"),
            NotYourDecision => write!(f, "this seat owes no decision now"),
            WrongAction { expected } => write!(f, "this seat owes a `{expected}` action now"),
            AlreadyProgrammed => write!(f, "a program, once sent, is final for the turn (RR-11)"),
            PoweredDown => write!(f, "a powered-down robot does not program (RR-4.4)"),
            RobotDestroyed => write!(f, "the robot is destroyed (RR-8.2)"),
            RobotOut => write!(f, "the robot is out of the game (RR-8.2)"),
            CardNotInHand { priority } => {
                write!(f, "card {priority} is not in this seat's hand (RR-4.2)")
            }
            DuplicateCard { priority } => write!(f, "card {priority} is programmed twice (RR-4.2)"),
            RegisterLocked { register } => {
                write!(f, "register {register} is locked and keeps its card (RR-7.2)")
            }
            RegisterEmpty { register } => write!(f, "register {register} needs a card (RR-4.2)"),
            PowerDownUndamaged => {
                write!(f, "only a damaged robot may announce power down (RR-4.4)")
            }
            ReenterArchiveFree => write!(f, "the archive cell is free: re-enter there (RR-8.3)"),
            ReenterOffBoard => write!(f, "the re-entry cell is off the board (RR-8.3)"),
            ReenterPit => write!(f, "the re-entry cell is a pit (RR-8.3)"),
            ReenterOccupied => write!(f, "the re-entry cell is occupied (RR-8.3)"),
            ReenterNotAdjacent => write!(
                f,
                "the re-entry cell is not a free cell of the nearest ring around the archive (RR-8.3)"
            ),
            ReenterLineOfSight => write!(
                f,
                "a robot stands in the line of sight within 3 cells, and a clear choice exists (RR-8.3)"
            ),
            OptionNotHeld => write!(f, "the robot does not hold this option card"),
            OptionRequired => {
                write!(f, "a destroyed robot gives up one of its option cards (RR-8.2)")
            }
            OptionMissing => write!(f, "use_option names no option card (RR-9)"),
            OptionExtraArgument => {
                write!(f, "this use of the option card takes no such argument (RR-9)")
            }
            OptionRegisterRequired => {
                write!(f, "name the register the card goes with (RR-9 Crab Legs, Dual Processor)")
            }
            RegisterOutOfRange { register } => write!(f, "there is no register {register} (1-5)"),
            OptionNothingOnIt => write!(f, "there is no card on this option card (RR-9)"),
            OptionCardRequired => write!(f, "name the program card to put on the option (RR-9)"),
            OptionCardUnfit => write!(f, "Crab Legs takes a Move 1 only (RR-9)"),
            OptionNoSpareCard => write!(
                f,
                "only a spare card goes on an option: the hand must still fill every unlocked register (RR-9)"
            ),
            RecompileTooDamaged => {
                write!(f, "Recompile costs 1 damage: not with 9 damage or more (RR-9)")
            }
            TargetAdjacent => write!(f, "Tractor Beam works only on a robot not adjacent (RR-9)"),
            NoCardToScramble => {
                write!(f, "the target has no card to scramble in its next register (RR-9)")
            }
            OptionTargetRequired => write!(
                f,
                "name the target: Fire Control a register to jam or an option to destroy, Mechanical Arm the site to touch (RR-9)"
            ),
            OptionConditionUnmet => {
                write!(f, "this option card's condition does not hold now (RR-9)")
            }
            OptionAlreadyUsed => {
                write!(f, "this option card has been used already this turn (RR-9)")
            }
            OptionWrongTime => write!(f, "this option card is not used at this moment (RR-9)"),
            DraftUnchanged { register } => {
                write!(f, "register {register} of the draft already holds that (RR-4.3)")
            }
            TooManyPlaces => write!(
                f,
                "at most {} cards may be placed in one turn; send the program (RR-4.3)",
                crate::programming::MAX_PLACES
            ),
            RecompileAfterLoading => write!(
                f,
                "Recompile comes before cards are loaded on Flywheel or Conditional Program this turn (RR-9)"
            ),
            ArmOutOfReach { at } => write!(
                f,
                "{at} is not a flag or repair site within the Mechanical Arm's reach (RR-9)"
            ),
        }
    }
}

impl std::error::Error for ActionError {}
