//! Setting a game up: the board, who owns which car, chits, variants (AS-1, AS-7, AS-8).

use crate::board::{BoardSpec, Start};
use engine::Seat;
use grid::{Hex, HexDir};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The optional rules of AS-7. Absent means off.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variants {
    /// AS-7.1: `true` takes the lowest-numbered car owned by nobody; a number names the car.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild_car: Option<WildCar>,
    /// AS-7.2: a car rammed from behind is jolted forward.
    #[serde(default, skip_serializing_if = "is_false")]
    pub jolting: bool,
    /// AS-7.3: chits have colours; score = chits × colours held.
    #[serde(default, skip_serializing_if = "is_false")]
    pub colour_scoring: bool,
    /// AS-7.4: with colour scoring, each car is scored on its own.
    #[serde(default, skip_serializing_if = "is_false")]
    pub per_car_scoring: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How the wild car is named in the variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WildCar {
    Lowest(bool),
    Car(u8),
}

/// A player's seat, cars and chits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub seat: Seat,
    /// The player's cars; empty when the setup deals them by lots ([`Setup::lots`]).
    #[serde(default)]
    pub cars: Vec<u8>,
    #[serde(default)]
    pub chits: u32,
    /// With `colour_scoring`: chits per colour (car number as a string), instead of 10 of each
    /// of the player's cars' colours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colours: Option<BTreeMap<u8, u32>>,
}

/// A car's position at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarSetup {
    pub car: u8,
    pub at: Hex,
    pub facing: HexDir,
    #[serde(default)]
    pub speed: u8,
    #[serde(default)]
    pub used_numbers: Vec<u32>,
}

/// Everything a game starts from (the schema of AS-8, with the board and variants).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub board: BoardSpec,
    pub players: Vec<PlayerSetup>,
    /// Cars not listed stand on their start spaces (AS-1.2), if the board has one for them.
    #[serde(default)]
    pub cars: Vec<CarSetup>,
    #[serde(default = "first_round")]
    pub round: u8,
    /// The box's content; absent: 80 less the players' chits, never below 0 (AS-5.6).
    #[serde(default, rename = "box", skip_serializing_if = "Option::is_none")]
    pub box_chits: Option<u32>,
    #[serde(default)]
    pub variants: Variants,
    /// AS-1.3 (booklet: "draw lots if necessary"): each player draws this many of the 8 cars by
    /// lots, from the game's seed, in seat order; the players' `cars` lists are then empty.
    /// Absent: the players' `cars` lists say who drives what (how a scenario fixes the deal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lots: Option<u8>,
    /// The "last player" clock (`docs/autoscooter.md`, a setting, not a rule of the booklet):
    /// once every other player has plotted, the last one has this many seconds, then AS-3.5's
    /// `time_up` plots for them. 0 (the default): off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_player_seconds: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn first_round() -> u8 {
    1
}

/// Total chits in the game (AS-1: 80 coloured tokens).
pub const TOTAL_CHITS: u32 = 80;

/// Cars and chits per player for a normal game (AS-1.3). `None` for an unsupported count.
/// AS-1.3: a game is for 2 to 8 players (the rows of [`table`]).
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=8;

pub fn table(players: usize, beginners: bool) -> Option<(usize, u32)> {
    Some(match players {
        2 => (if beginners { 3 } else { 4 }, 20),
        3 | 4 => (2, 20),
        5 => (1, 15),
        6 => (1, 12),
        7 | 8 => (1, 10),
        _ => return None,
    })
}

/// Why [`Setup::standard`] cannot make a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandardError {
    /// AS-1.3: 2 to 8 players.
    Players(usize),
    /// AS-1.3: the beginners' game (3 cars each) is a two-player game.
    BeginnersNeedTwo(usize),
}

impl std::fmt::Display for StandardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StandardError::Players(n) => write!(f, "Autoscooter is for 2 to 8 players, not {n}"),
            StandardError::BeginnersNeedTwo(n) => {
                write!(f, "the beginners' game (3 cars each, AS-1.3) is for 2 players, not {n}")
            }
        }
    }
}
impl std::error::Error for StandardError {}

impl From<StandardError> for String {
    fn from(e: StandardError) -> String {
        e.to_string()
    }
}

impl Setup {
    /// A normal game on the standard rink (AS-1.3): `players` players, each drawing their cars
    /// by lots from the seed ([`Setup::lots`]), the other cars standing on their start spaces
    /// as cars of nobody. `beginners` picks 3 cars each instead of 4 in a two-player game (and
    /// is refused with more players: the table has no beginners' row for them).
    pub fn standard(
        players: usize,
        beginners: bool,
        variants: Variants,
    ) -> Result<Setup, StandardError> {
        if beginners && players != 2 && PLAYERS.contains(&players) {
            return Err(StandardError::BeginnersNeedTwo(players));
        }
        let (each, chits) = table(players, beginners).ok_or(StandardError::Players(players))?;
        let board = BoardSpec::standard();
        let players = (0..players)
            .map(|p| PlayerSetup { seat: Seat(p as u8), cars: Vec::new(), chits, colours: None })
            .collect();
        Ok(Setup {
            board,
            players,
            cars: Vec::new(),
            round: 1,
            box_chits: None,
            variants,
            lots: Some(each as u8),
            last_player_seconds: 0,
        })
    }

    /// Where a car stands at the start: listed in `cars`, or on its start space.
    pub(crate) fn placement(&self, car: u8) -> Option<CarSetup> {
        if let Some(c) = self.cars.iter().find(|c| c.car == car) {
            return Some(c.clone());
        }
        self.board.starts.get(car as usize).map(|&Start { at, facing }| CarSetup {
            car,
            at,
            facing,
            speed: 0,
            used_numbers: Vec::new(),
        })
    }
}
