//! A playable state from one seat's view (determinization from the view): what a remote
//! player — the reference client of the Bot API, `robodrome bot` — has is its seat's redacted
//! view (docs/protocol.md) and the game's public setup, never the state. [`Autoscooter::from_view`]
//! builds a state that shows that seat exactly that view, with everything the view hides drawn
//! at random by [`engine::Game::determinize`] (AS-4.1: the plots other seats committed this
//! round), so that the project's bots can think on it.
//!
//! It reads nothing but its arguments: two games whose views for the seat are equal give the
//! same state for the same seed (tested in `tests/from_view.rs`).
//!
//! **Where it applies.** Planning (AS-4), the only simultaneous, secret decision, where the bots
//! think; and where a stationary car starts (AS-5.4 — every car in the first round —), in the
//! middle of the action phase: the revealed turn numbers and the seat's own letters are copied,
//! the later cars' letters (still secret) drawn from those their speed allows. The colours of a
//! payment (AS-7.3) stand on a crash half scored (its transfers and effects are in no view),
//! which this function does not rebuild: there it answers [`FromViewError`], and a client
//! chooses among the `choices` its view lists.

use crate::board::NONE;
use crate::chart::Letter;
use crate::purse::Purse;
use crate::setup::Setup;
use crate::state::{Autoscooter, Car, Plot, Stage};
use engine::{Game, Rng, Seat};
use grid::{Hex, HexDir};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Why no state was built from a view (the view is of another stage, or does not fit the setup).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromViewError(pub String);

impl std::fmt::Display for FromViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FromViewError {}

// The parts of `crate::view::View` read back (its JSON as the server sends it).
#[derive(Deserialize)]
struct ViewIn {
    round: u8,
    phase: String,
    cars: Vec<CarIn>,
    players: Vec<PlayerIn>,
    #[serde(rename = "box")]
    box_chits: u32,
    #[serde(default)]
    box_colours: Option<BTreeMap<String, u16>>,
    #[serde(default)]
    wild_car: Option<u8>,
    #[serde(default)]
    plots: Vec<PlotIn>,
    #[serde(default)]
    waiting: Option<WaitingIn>,
    #[serde(default)]
    car_scores: Option<Vec<CarScoreIn>>,
    #[serde(default)]
    order: Vec<(u8, u8)>,
}

#[derive(Deserialize)]
struct CarIn {
    car: u8,
    owner: Option<Seat>,
    at: Hex,
    facing: HexDir,
    speed: u8,
    used_numbers: Vec<u8>,
}

#[derive(Deserialize)]
struct PlayerIn {
    chits: u32,
    #[serde(default)]
    colours: Option<BTreeMap<String, u16>>,
}

#[derive(Deserialize)]
struct PlotIn {
    car: u8,
    number: u8,
    letter: Option<Letter>,
}

#[derive(Deserialize)]
struct WaitingIn {
    kind: String,
    #[serde(default)]
    seats: Vec<Seat>,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default)]
    car: Option<u8>,
}

#[derive(Deserialize)]
struct CarScoreIn {
    car: u8,
    colours: BTreeMap<String, u16>,
}

fn purse(chits: u32, colours: Option<&BTreeMap<String, u16>>) -> Result<Purse, FromViewError> {
    let Some(colours) = colours else { return Ok(Purse::plain(chits)) };
    let mut p = Purse::default();
    for (c, &n) in colours {
        match c.parse::<usize>() {
            Ok(i) if i < 8 => p.0[i] = n,
            _ => return Err(FromViewError(format!("colour {c:?} is not 0..7"))),
        }
    }
    Ok(p)
}

fn bad(what: impl Into<String>) -> FromViewError {
    FromViewError(what.into())
}

impl Autoscooter {
    /// The state `seat` may be in, given its view (`view`, as JSON) of the game made from
    /// `setup` (the game's public setup: rink, variants, players). What the view hides is
    /// drawn from `rng` (see the module's doc).
    pub fn from_view(
        setup: &Setup,
        view: &serde_json::Value,
        seat: Seat,
        rng: &mut Rng,
    ) -> Result<Autoscooter, FromViewError> {
        let v =
            ViewIn::deserialize(view).map_err(|e| bad(format!("not an Autoscooter view: {e}")))?;
        let waiting = match (v.phase.as_str(), &v.waiting) {
            ("plan", Some(w)) if w.kind == "plan" => w.seats.clone(),
            ("start", Some(w)) if w.kind == "start" => Vec::new(),
            ("plan" | "start", _) => return Err(bad("the view waits for another decision")),
            (p, _) => {
                return Err(bad(format!(
                    "phase {p:?}: a state is rebuilt from a view while planning (AS-4) or \
                     choosing a start (AS-5.4) only"
                )));
            }
        };
        // The rink, variants and seats of the setup; where the lots put the cars does not
        // matter: every car is placed from the view below.
        let mut g = Autoscooter::create(setup, 0).map_err(|e| bad(e.to_string()))?;
        if v.players.len() != g.seats as usize || seat.index() >= g.seats as usize {
            return Err(bad("the view's players do not fit the setup"));
        }
        g.cars = [None; 8];
        g.occupancy.iter_mut().for_each(|o| *o = crate::state::EMPTY);
        for c in &v.cars {
            let cell =
                g.board.cell(c.at).ok_or_else(|| bad(format!("{} is off the rink", c.at)))?;
            if c.car >= 8 || c.speed > 3 || cell == NONE {
                return Err(bad(format!("car {} does not fit the rink", c.car)));
            }
            if c.owner.is_some_and(|o| o.index() >= g.seats as usize) {
                return Err(bad(format!("car {} belongs to no seat of the setup", c.car)));
            }
            if g.occupancy[cell as usize] != crate::state::EMPTY {
                return Err(bad(format!("two cars at {}", c.at)));
            }
            let mut used = 0u16;
            for &n in &c.used_numbers {
                let row = crate::sheet::row_of(c.car, n as u32)
                    .ok_or_else(|| bad(format!("car {}: {n} is not in its column", c.car)))?;
                used |= 1 << row;
            }
            g.occupancy[cell as usize] = c.car;
            g.cars[c.car as usize] = Some(Car {
                id: c.car,
                owner: c.owner,
                cell,
                facing: c.facing,
                speed: c.speed,
                used,
            });
        }
        for (i, p) in v.players.iter().enumerate() {
            g.players[i] = purse(p.chits, p.colours.as_ref())?;
        }
        g.car_purses = [Purse::default(); 8];
        if let Some(scores) = &v.car_scores {
            g.players.iter_mut().for_each(|p| *p = Purse::default());
            for s in scores {
                let to = g.car_purses.get_mut(s.car as usize).ok_or_else(|| bad("car score"))?;
                *to = purse(0, Some(&s.colours))?;
            }
        }
        g.box_purse = purse(v.box_chits, v.box_colours.as_ref())?;
        g.wild = v.wild_car;
        g.round = v.round;
        if v.phase == "start" {
            return Autoscooter::start_from_view(g, &v, view, seat, rng);
        }
        g.begin_planning();
        // The seat's own plots, as its view shows them.
        for p in &v.plots {
            match g.cars.get(p.car as usize).copied().flatten() {
                Some(c) if c.owner == Some(seat) => {
                    g.plots[p.car as usize] = Some(Plot { number: p.number, letter: p.letter })
                }
                _ => return Err(bad(format!("a plot of car {}, not the seat's", p.car))),
            }
        }
        // Seats that owe nothing more have plotted every car (and the wild car's letter);
        // what they plotted is secret: any plot here, drawn by `determinize` below.
        for s in 0..g.seats {
            if s == seat.0 || waiting.contains(&Seat(s)) {
                continue;
            }
            for id in 0..8 {
                if let Some(c) = g.cars[id]
                    && c.owner == Some(Seat(s))
                {
                    g.plots[id] = Some(Plot { number: 0, letter: None });
                }
            }
            if g.wild_moving {
                g.wild_plots[s as usize] = Some(None);
            }
        }
        // Whether the seat's own wild letter is plotted the view does not say while the seat
        // still owes something: it counts as not plotted unless the seat owes nothing.
        if g.wild_moving && !waiting.contains(&seat) {
            g.wild_plots[seat.index()] = Some(None);
        }
        g.refresh_owing();
        let owing: Vec<Seat> = g.owing.iter().collect();
        let mut expected = waiting.clone();
        expected.sort();
        if owing != expected {
            return Err(bad(format!(
                "the view waits for {expected:?}, the rebuilt state for {owing:?}"
            )));
        }
        debug_assert_eq!(g.stage, Stage::Plan);
        Ok(g.determinize(seat, rng))
    }
}

impl Autoscooter {
    /// Case D (AS-5.4) in the action phase: `seat` chooses where a stationary car starts. The
    /// turn numbers are revealed (the view's `order`, AS-4.1); the seat's own letters are in
    /// its plots; the other cars' letters — still secret, they run later in this round — are
    /// drawn from the letters their speed allows (AS-3.3), and the wild car (AS-7.1), moved
    /// last by the player of the highest number, gets a drawn letter or none.
    fn start_from_view(
        mut g: Autoscooter,
        v: &ViewIn,
        view: &serde_json::Value,
        seat: Seat,
        rng: &mut Rng,
    ) -> Result<Autoscooter, FromViewError> {
        let w = v.waiting.as_ref().ok_or_else(|| bad("a start view waits"))?;
        let (Some(chooser), Some(car)) = (w.seat, w.car) else {
            return Err(bad("a start names its seat and car"));
        };
        g.plots = [None; 8];
        g.wild_plots.iter_mut().for_each(|w| *w = None);
        g.wild_moving = false;
        g.turns.clear();
        for &(id, number) in &v.order {
            let c = g
                .cars
                .get(id as usize)
                .copied()
                .flatten()
                .ok_or_else(|| bad("a turn of no car"))?;
            let mover = c.owner.ok_or_else(|| bad("a numbered car of nobody"))?;
            let letter = match v.plots.iter().find(|p| p.car == id) {
                Some(p) if mover == seat => p.letter,
                Some(_) => return Err(bad(format!("a plot of car {id}, not the seat's"))),
                None if mover == seat => {
                    return Err(bad(format!("the seat's car {id} has no plot")));
                }
                None => {
                    let (lo, hi) = Letter::range_at(c.speed.max(1));
                    Letter::from_index(lo + rng.below(u32::from(hi - lo) + 1) as u8)
                }
            };
            g.plots[id as usize] = Some(Plot { number, letter });
            g.turns
                .try_push(crate::state::Turn { car: id, number, mover, letter })
                .map_err(|_| bad("more turns than cars"))?;
        }
        if let (Some(wc), Some(last)) = (g.wild, g.turns.last().copied()) {
            let speed = g.cars[wc as usize].map_or(0, |c| c.speed);
            let letter = (speed > 0).then(|| {
                let (lo, hi) = Letter::range_at(speed);
                Letter::from_index(lo + rng.below(u32::from(hi - lo) + 1) as u8)
            });
            g.turns
                .try_push(crate::state::Turn {
                    car: wc,
                    number: 0,
                    mover: last.mover,
                    letter: letter.flatten(),
                })
                .map_err(|_| bad("more turns than cars"))?;
        }
        g.step = g
            .turns
            .iter()
            .position(|t| t.car == car)
            .ok_or_else(|| bad(format!("car {car} has no turn this round")))?;
        g.work = None;
        g.stage = Stage::AwaitStart { car, seat: chooser };
        g.refresh_owing();
        g.rng = rng.fork();
        let again = serde_json::to_value(g.view(engine::Observer::Seat(seat)))
            .map_err(|e| bad(e.to_string()))?;
        if &again != view {
            return Err(bad("the rebuilt state does not show the seat its view"));
        }
        Ok(g)
    }
}
