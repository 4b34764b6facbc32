//! Bumping Bots (rules BB-1..BB-13, as implemented: `docs/bumping-bots.md`): robots racing
//! bumper cars round a hex track. A pure [`engine::Game`]: no I/O, no clock, all chance from
//! the seed.
//!
//! Codemap: [`track`] (boards, BB-2.1/BB-13), [`tracks`] (the track-file format, shipped tracks,
//! BB-12 validation), `order` (BB-2.2/2.3), [`speed`] (BB-5), `movement` (BB-6), `shocks`
//! (BB-7), `obstacles` (BB-8.1–8.3), `bumpers` (BB-8.4), [`cards`] (BB-9), `finish` (BB-10),
//! [`championship`] (BB-11), [`choices`] (what the owing seat may choose now, and the engine's
//! move previews), [`view`] (views and the scenario `state`), [`setup`] (BB-3, BB-13).
//!
//! **Invariant:** resolution in progress lives in the state ([`state::Phase`], the move
//! cursor and the pending shock): a mid-move position clones and replays like any other.
#![deny(clippy::unwrap_used)]

/// The version of these rules, stored with every game a server starts: a log replays the same
/// game only under the rules it was played under, so a server refuses to replay a stored game of
/// another version (docs/security.md "Rules versions"). Bump it with every change that can make
/// a stored log replay differently (another result, another view, a refused action).
/// 1: the rules before issue 22's round 2; 2: after it (race order, Magnet and bumper arrows,
/// mobile obstacles' shocks and choices, throws into walls, Jumper in the air and the Magnet
/// question of BB-2.2 and BB-7 to BB-9).
pub const RULES_VERSION: u32 = 2;

mod bumpers;
pub mod cards;
pub mod championship;
pub mod choices;
mod conformance;
mod error;
mod event;
mod finish;
pub mod from_view;
mod movement;
mod obstacles;
mod order;
mod play;
pub mod rulebook;
pub mod settings;
pub mod setup;
mod shocks;
pub mod speed;
pub mod state;
pub mod track;
pub mod tracks;
pub mod view;

pub use cards::{Card, When};
pub use error::BbError;
pub use event::{CardList, Event, Ranking, SeatList};
pub use settings::{DEFAULT_CELLS_PER_SPEED, Variants};
pub use setup::{BotSetup, Setup};
pub use speed::SpeedChoice;
pub use state::{BumpingBots, QuickRot};
pub use track::{Board, BoardSpec};

use serde::{Deserialize, Serialize};

/// A player's decision (BB-13 "Actions"; the scenario runner strips `seat`).
///
/// Unknown fields are refused, named (`unknown field "rotate_before"`): a mistyped field must not
/// silently play something else (conventions.md: a schema error names the offending field).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// BB-5.
    Speed {
        choice: SpeedChoice,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        new_speed: Option<u8>,
    },
    /// BB-6: the rotations the bot plans.
    Move {
        #[serde(default)]
        rotate_before_last: i8,
        #[serde(default)]
        rotate_after: i8,
    },
    /// BB-7.4/7.6/8.3: one entry per push cell (0 push, ±1 turn instead); `turn_first` in chains.
    ShockChoice {
        #[serde(default)]
        turn_passive: Vec<i8>,
        #[serde(default)]
        turn_first: i8,
    },
    /// BB-7.1: after a collision, once, −1, 0 (decline) or 1.
    Orient { turn: i8 },
    /// BB-9: a card (`"card": null` declines the end-of-move Magnet).
    Card {
        card: Option<Card>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<engine::Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when: Option<When>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_cell: Option<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rotations: Vec<QuickRot>,
    },
}
