//! What an observer may see (AS-4.1: plots stay secret until every player has committed;
//! numbers are revealed together; letters when each car acts).

use crate::chart::Letter;
use crate::purse::Purse;
use crate::state::{Autoscooter, Stage};
use engine::{Observer, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;
use std::collections::BTreeMap;

/// A car as everyone sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CarView {
    pub car: u8,
    pub owner: Option<Seat>,
    pub at: Hex,
    pub facing: HexDir,
    pub speed: u8,
    pub used_numbers: Vec<u8>,
    pub wild: bool,
}

/// A player's chits (public: chits lie on the table).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub chits: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours: Option<BTreeMap<String, u16>>,
    pub score: i64,
}

/// A plot the observer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlotView {
    pub car: u8,
    pub number: u8,
    pub letter: Option<Letter>,
}

/// The decision the game waits for, as everyone may see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Waiting {
    /// Planning: these seats have not committed everything yet.
    Plan { seats: Vec<Seat> },
    /// Case D: this seat chooses where the car starts (AS-5.4).
    Start { seat: Seat, car: u8 },
    /// AS-7.3: this seat chooses the colours of a payment (`take` or `pay`).
    Payment { seat: Seat, take: bool, options: Vec<BTreeMap<String, u16>> },
}

/// A redacted picture of the game for one observer; also the scenario's `state`
/// (for an omniscient observer).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub round: u8,
    pub phase: &'static str,
    pub cars: Vec<CarView>,
    pub players: Vec<PlayerView>,
    #[serde(rename = "box")]
    pub box_chits: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub box_colours: Option<BTreeMap<String, u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wild_car: Option<u8>,
    /// This round's turn numbers once revealed (car, number), in acting order.
    pub order: Vec<(u8, u8)>,
    /// The plots the observer may see: their own during planning (all, for omniscient).
    pub plots: Vec<PlotView>,
    pub waiting: Option<Waiting>,
    /// Seats in first place; empty until the game ends (AS-6).
    pub winner: Vec<Seat>,
    /// With `per_car_scoring`: each car's chits and score (AS-7.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub car_scores: Option<Vec<CarScore>>,
    /// A seat's own view only, while it owes a decision: every choice the engine accepts now
    /// ([`crate::choices`]); absent in every other view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<crate::choices::Choices>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CarScore {
    pub car: u8,
    pub chits: u32,
    pub colours: BTreeMap<String, u16>,
    pub score: i64,
}

pub(crate) fn colour_map(p: &Purse) -> BTreeMap<String, u16> {
    (0..8).filter(|&c| p.0[c] > 0).map(|c| (c.to_string(), p.0[c])).collect()
}

impl Autoscooter {
    pub(crate) fn phase_name(&self) -> &'static str {
        match self.stage {
            Stage::Plan => "plan",
            Stage::Act => "act",
            Stage::AwaitStart { .. } => "start",
            Stage::AwaitPayment { .. } => "payment",
            Stage::Over => "over",
        }
    }

    /// Score of a purse: chits, or chits × colours with `colour_scoring` (AS-7.3).
    #[inline]
    pub(crate) fn score_of(&self, p: &Purse) -> i64 {
        let chits = p.total() as i64;
        if self.variants.colour_scoring { chits * p.colours() as i64 } else { chits }
    }

    pub(crate) fn make_view(&self, observer: Observer) -> View {
        self.view_with(observer, true)
    }

    /// The view without `choices` (what a table derives its controls from: the legal actions
    /// and previews of moves on the visible position): the same information, cheaper, for
    /// machine observers (the Python package's observations, `docs/python.md`).
    pub fn view_without_choices(&self, observer: Observer) -> View {
        self.view_with(observer, false)
    }

    fn view_with(&self, observer: Observer, with_choices: bool) -> View {
        let colour = self.variants.colour_scoring;
        let cars = self
            .cars()
            .map(|c| CarView {
                car: c.id,
                owner: c.owner,
                at: self.board.hex(c.cell),
                facing: c.facing,
                speed: c.speed,
                used_numbers: c.used_numbers().collect(),
                wild: self.wild == Some(c.id),
            })
            .collect();
        let players = (0..self.seats)
            .map(|s| {
                let p = self.chits(Seat(s));
                PlayerView {
                    seat: Seat(s),
                    chits: p.total(),
                    colours: colour.then(|| colour_map(&p)),
                    score: self.seat_score(Seat(s)),
                }
            })
            .collect();
        let sees = |owner: Option<Seat>| match observer {
            Observer::Omniscient => true,
            Observer::Seat(s) => owner == Some(s),
            Observer::Spectator => false,
        };
        let revealed = self.stage != Stage::Plan;
        let order = if revealed {
            self.turns
                .iter()
                .filter(|t| Some(t.car) != self.wild)
                .map(|t| (t.car, t.number))
                .collect()
        } else {
            Vec::new()
        };
        let plots = self
            .cars()
            .filter(|c| sees(c.owner))
            .filter_map(|c| {
                self.plots[c.id as usize].map(|p| PlotView {
                    car: c.id,
                    number: p.number,
                    letter: p.letter,
                })
            })
            .collect();
        let waiting = match &self.stage {
            Stage::Plan => Some(Waiting::Plan { seats: self.owing().iter().collect() }),
            Stage::AwaitStart { car, seat } => Some(Waiting::Start { seat: *seat, car: *car }),
            Stage::AwaitPayment { seat, take, options } => Some(Waiting::Payment {
                seat: *seat,
                take: *take,
                options: options.iter().map(colour_map).collect(),
            }),
            Stage::Act | Stage::Over => None,
        };
        let winner = match self.stage {
            Stage::Over => self.compute_outcome().ranking.first().cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        let car_scores = self.variants.per_car_scoring.then(|| {
            self.cars()
                .filter(|c| c.owner.is_some())
                .map(|c| {
                    let p = self.car_purses[c.id as usize];
                    CarScore {
                        car: c.id,
                        chits: p.total(),
                        colours: colour_map(&p),
                        score: self.score_of(&p),
                    }
                })
                .collect()
        });
        View {
            round: self.round,
            phase: self.phase_name(),
            cars,
            players,
            box_chits: self.box_purse.total(),
            box_colours: colour.then(|| colour_map(&self.box_purse)),
            wild_car: self.wild,
            order,
            plots,
            waiting,
            winner,
            car_scores,
            choices: match observer {
                Observer::Seat(s) if with_choices => crate::choices::choices(self, s),
                _ => None,
            },
        }
    }
}
