//! What the seat may choose now, in the form the table turns into controls directly (issue 21
//! item 3), built from the engine's own listing (`legal_actions`, which lists exactly what `apply`
//! accepts: the conformance suite checks it).
//!
//! Planning is *factored*: for each of the seat's cars still to plot, its unused turn numbers
//! (AS-4.1) and the letters allowed at its speed (AS-3.3, none for a car standing still); every
//! number goes with every letter. The wild car's letters (AS-7.1), a case D start (AS-5.4: each
//! free hex beside the car with its facings) and a payment (AS-7.3: each allowed set of colours)
//! are listed. `tests/choices.rs` checks that the factored form expands to exactly the listing.

use crate::chart::Letter;
use crate::state::Stage;
use crate::{Action, Autoscooter};
use engine::{Game, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;

/// The seat's choices now (empty lists when it owes nothing of that kind).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choices {
    /// Each of the seat's cars still to plot this round.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub plots: Vec<PlotChoice>,
    /// The wild car's letters, when this seat plots it (AS-7.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wild: Option<Vec<Letter>>,
    /// The preview of each of the wild car's letters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wild_previews: Vec<LetterPreview>,
    /// A case D start owed by this seat (AS-5.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<StartChoice>,
    /// A payment owed by this seat (AS-7.3): each allowed action.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub payments: Vec<Action>,
}

/// One car's plot: any of `numbers` with any of `letters` (no letter when `letters` is empty),
/// and the engine's preview of each letter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlotChoice {
    pub car: u8,
    pub numbers: Vec<u8>,
    pub letters: Vec<Letter>,
    /// For each letter, the move as if the car acted now on the present position (the other
    /// cars where they stand: they may move first, their plots are secret) —
    /// [`Autoscooter::preview`], the same function the bots use.
    pub previews: Vec<LetterPreview>,
}

/// The preview of one letter (`Autoscooter::preview`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LetterPreview {
    pub letter: Letter,
    pub path: crate::event::Path,
    pub end: Hex,
    pub facing: HexDir,
    pub speed: u8,
    /// The crash, if any (`kind`; `car`: the car hit, none for the barrier).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crash: Option<CrashPreview>,
    /// Chits the car's player would win (negative: lose), before limits of what anyone holds.
    pub chits: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrashPreview {
    pub kind: crate::event::CrashKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub car: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StartChoice {
    pub car: u8,
    /// Each free hex beside the car, with the facings allowed there.
    pub cells: Vec<StartCell>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StartCell {
    pub to: Hex,
    pub facings: Vec<HexDir>,
}

/// The choices of `seat` now; `None` when it owes nothing.
///
/// Planning is factored straight from the state, as `legal_actions` lists it (AS-4.1: each car
/// of the seat without a plot, its unused numbers, the letters of its speed's range, AS-3.3;
/// the wild car's letters, AS-7.1) without listing every number × letter (11 × 15 actions a
/// car): the server builds each seat's view after every action (docs/benchmarks.md "CPU per
/// accepted action, round 8"). The other decisions are few and come from the listing.
/// `tests::choices_equal_the_listing_factored` checks both ways give the same.
pub fn choices(g: &Autoscooter, seat: Seat) -> Option<Choices> {
    if g.stage != Stage::Plan {
        return from_listing(g, seat);
    }
    let mut c =
        Choices { plots: vec![], wild: None, wild_previews: vec![], start: None, payments: vec![] };
    for car in g.cars().filter(|c| c.owner == Some(seat) && g.plot(c.id).is_none()) {
        let mut numbers: Vec<u8> = car.unused_numbers().collect();
        let letters = letters_at(car.speed);
        // A car with nothing to list is not listed (none in play: 11 numbers for 11 rounds).
        if numbers.is_empty() || (car.speed > 0 && letters.is_empty()) {
            continue;
        }
        numbers.sort();
        let previews = previews(g, car.id, &letters);
        c.plots.push(PlotChoice { car: car.id, numbers, letters, previews });
    }
    if g.check_plot_wild(seat, &None).is_ok()
        && let Some(w) = g.wild_car()
    {
        let letters = letters_at(g.car(w).speed);
        if !letters.is_empty() {
            c.wild_previews = previews(g, w, &letters);
            c.wild = Some(letters);
        }
    }
    (!c.plots.is_empty() || c.wild.is_some()).then_some(c)
}

/// The letters allowed at `speed`, in order (AS-3.3; none standing still).
fn letters_at(speed: u8) -> Vec<Letter> {
    if speed == 0 {
        return Vec::new();
    }
    let (lo, hi) = Letter::range_at(speed);
    (lo..=hi).filter_map(Letter::from_index).collect()
}

/// The choices factored from `legal_actions` (a start, a payment: a few actions).
fn from_listing(g: &Autoscooter, seat: Seat) -> Option<Choices> {
    let listed = g.legal_actions(seat);
    if listed.is_empty() {
        return None;
    }
    let mut c =
        Choices { plots: vec![], wild: None, wild_previews: vec![], start: None, payments: vec![] };
    for a in listed {
        match a {
            Action::Plot { car, number, letter } => {
                let i = match c.plots.iter().position(|p| p.car == car) {
                    Some(i) => i,
                    None => {
                        c.plots.push(PlotChoice {
                            car,
                            numbers: vec![],
                            letters: vec![],
                            previews: vec![],
                        });
                        c.plots.len() - 1
                    }
                };
                let p = &mut c.plots[i];
                let n = number as u8;
                if !p.numbers.contains(&n) {
                    p.numbers.push(n);
                }
                if let Some(l) = letter.and_then(|l| l.letter())
                    && !p.letters.contains(&l)
                {
                    p.letters.push(l);
                }
            }
            Action::PlotWild { letter } => {
                if let Some(l) = letter.and_then(|l| l.letter()) {
                    c.wild.get_or_insert_with(Vec::new).push(l);
                }
            }
            Action::Start { car, to, facing } => {
                let s = c.start.get_or_insert(StartChoice { car, cells: vec![] });
                match s.cells.iter_mut().find(|x| x.to == to) {
                    Some(x) => x.facings.push(facing),
                    None => s.cells.push(StartCell { to, facings: vec![facing] }),
                }
            }
            a @ (Action::Take { .. } | Action::Pay { .. }) => c.payments.push(a),
        }
    }
    for p in &mut c.plots {
        p.numbers.sort();
        p.letters.sort();
        p.previews = previews(g, p.car, &p.letters);
    }
    if let (Some(w), Some(car)) = (&c.wild, g.wild_car()) {
        c.wild_previews = previews(g, car, w);
    }
    Some(c)
}

/// The engine's preview of each letter for `car` ([`Autoscooter::preview`], through
/// [`Autoscooter::previews`]: the path, crash and chits once per path of the chart).
fn previews(g: &Autoscooter, car: u8, letters: &[Letter]) -> Vec<LetterPreview> {
    let mut all = g.previews(car);
    letters
        .iter()
        .filter_map(|&l| {
            let v = all.get(l)?;
            Some(LetterPreview {
                letter: v.letter,
                path: v.path,
                end: v.end,
                facing: v.facing,
                speed: v.speed,
                crash: v.crash.map(|(kind, car)| CrashPreview { kind, car }),
                chits: v.chits,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Setup, Variants, WildCar};
    use engine::Rng;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// The planning choices built from the state are the ones factored from the engine's
        /// listing (`from_listing`, the way every decision's choices were built before), for
        /// every seat at every step of random games with and without a wild car, and every
        /// preview is `Autoscooter::preview`'s.
        #[test]
        fn choices_equal_the_listing_factored(seed in any::<u64>(), players in 2usize..=8, bits in 0u8..4) {
            let variants = Variants {
                wild_car: (bits & 1 != 0).then_some(WildCar::Lowest(true)),
                jolting: bits & 2 != 0,
                ..Variants::default()
            };
            // (a wild car needs a car of nobody: not every table size has one)
            let g = Setup::standard(players, false, variants)
                .ok()
                .and_then(|s| Autoscooter::new(&s, seed).ok());
            prop_assume!(g.is_some());
            let mut g = g.unwrap();
            let mut rng = Rng::seeded(seed);
            let mut planned = 0;
            for _ in 0..300 {
                let Some(d) = g.decision() else { break };
                for s in 0..g.seats() {
                    let seat = Seat(s as u8);
                    let c = choices(&g, seat);
                    prop_assert_eq!(&c, &from_listing(&g, seat), "seat {}", s);
                    for p in c.iter().flat_map(|c| &c.plots) {
                        planned += 1;
                        for (l, v) in p.letters.iter().zip(&p.previews) {
                            let w = g.preview(p.car, *l).unwrap();
                            prop_assert_eq!((v.letter, v.path, v.end, v.facing, v.speed, v.chits),
                                (w.letter, w.path, w.end, w.facing, w.speed, w.chits));
                            prop_assert_eq!(v.crash.as_ref().map(|c| (c.kind, c.car)), w.crash);
                        }
                    }
                }
                let seat = d.seats().first().unwrap();
                let a = g.sample_action(seat, &mut rng).unwrap();
                g.apply(seat, &a, &mut Vec::new()).unwrap();
            }
            prop_assert!(planned > 0);
        }
    }
}
