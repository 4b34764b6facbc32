//! Issue 22's findings that golden files cannot show alone: what `legal_actions` lists is
//! exactly what `apply` accepts for card plays (BB-9.1, BB-9.5: a client offers only listed
//! choices), the order of events within one step (a move's event before the line crossing it
//! causes), and the reverse-standings grid (BB-11.2) with its documented tie rule.

use bumping_bots::cards::Card;
use bumping_bots::setup::ScenarioSetup;
use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{Action, BoardSpec, BumpingBots, Event, QuickRot, Setup, When};
use engine::{Game, Rng, Seat};
use serde_json::json;

/// A parallelogram q=0..11, r=0..4 (progress 2q+r, lane r), `bots` bots in a column behind
/// seat 0, who acts last in race order (race position `bots`) holding `cards`.
fn back_of_the_field(bots: u8, speed: u8, cards: &[&str]) -> BumpingBots {
    let cells: Vec<_> = (0..12)
        .flat_map(|q| (0..5).map(move |r| json!({"at": [q, r], "progress": 2 * q + r, "lane": r})))
        .collect();
    let board: BoardSpec = serde_json::from_value(json!({"cells": cells, "walls": [], "finish_line": [], "start_grid": [], "obstacles": [], "laps": 2})).unwrap();
    let mut list =
        vec![json!({"seat": 0, "at": [0, 2], "facing": 0, "speed": speed, "cards": cards})];
    for s in 1..bots {
        list.push(json!({"seat": s, "at": [11, s % 5], "facing": 0, "speed": 1, "cards": []}));
    }
    // Seats ahead stand on q = 11, 10, ...: spread them over columns and rows.
    for (i, b) in list.iter_mut().enumerate().skip(1) {
        b["at"] = json!([11 - (i as i32 - 1) / 5, (i as i32 - 1) % 5]);
    }
    let setup: ScenarioSetup =
        serde_json::from_value(json!({"bots": list, "round": 2, "to_act": 0})).unwrap();
    let setup = setup.into_setup(board, Default::default()).unwrap();
    BumpingBots::new(&setup, 1).unwrap()
}

/// Card plays of every shape, in and out of the rules: Jumper cells 0..=12, quick rotations of
/// one to three entries at points 0..=7 turning ±1 or 2, in any order, with or without fields
/// the card does not take.
fn card_plays() -> Vec<Action> {
    let play = |card, target, when, at_cell, rotations| Action::Card {
        card: Some(card),
        target,
        when,
        at_cell,
        rotations,
    };
    let mut out = Vec::new();
    for k in 0..=12 {
        out.push(play(Card::Jumper, None, None, Some(k), vec![]));
        out.push(play(Card::Jumper, None, Some(When::Start), Some(k), vec![]));
    }
    out.push(play(Card::Jumper, None, None, None, vec![]));
    let one: Vec<QuickRot> =
        (0..=7u8).flat_map(|at_cell| [-1, 1, 2].map(|turn| QuickRot { at_cell, turn })).collect();
    for a in &one {
        out.push(play(Card::Rotation, None, None, None, vec![*a]));
        out.push(play(Card::Rotation, None, None, Some(0), vec![*a]));
        for b in &one {
            out.push(play(Card::Rotation, None, None, None, vec![*a, *b]));
            for c in one.iter().step_by(2) {
                out.push(play(Card::Rotation, None, None, None, vec![*a, *b, *c]));
            }
        }
    }
    for card in [Card::Engine, Card::Nitro] {
        out.push(play(card, None, None, None, vec![]));
        out.push(play(card, Some(Seat(1)), None, None, vec![]));
        out.push(play(card, None, Some(When::Start), None, vec![]));
        out.push(play(card, None, None, Some(0), vec![]));
    }
    out
}

/// BB-9.1, BB-9.5 and issue 22: accepted ⇔ listed, for card plays of every shape, in each
/// bracket of race position (1–2, 3–4, 5–6, 7–9), at speeds giving short and long moves.
#[test]
fn card_plays_are_accepted_exactly_when_listed() {
    let plays = card_plays();
    for bots in [2, 4, 6, 8] {
        for speed in [1, 4, 6] {
            let g = back_of_the_field(bots, speed, &["jumper", "rotation", "engine"]);
            let seat = Seat(0);
            assert_eq!(g.decision().map(|d| d.seats().first()), Some(Some(seat)));
            let listed = g.legal_actions(seat);
            for a in &plays {
                let accepted = g.clone().apply(seat, a, &mut Vec::new()).is_ok();
                assert_eq!(
                    accepted,
                    listed.contains(a),
                    "{bots} bots, speed {speed}: {a:?} accepted {accepted}, listed {}",
                    !accepted
                );
            }
        }
    }
}

/// BB-9.5: the number of quick-rotation plays listed is the number of sets the rules allow. At
/// the back of 8 bots (7–9: up to three rotations) at speed 4, the longest move it can choose
/// takes 4 cells (keep 4 or accelerate to 5: both 4 cells, BB-1.2's 1,2,3,4,4,5), so a rotation
/// may come at 5 points, 0 (the very start) to 4 (after the last cell), ±1 each at distinct
/// points: 5·2 + C(5,2)·4 + C(5,3)·8 = 10 + 40 + 80 = 130. In position 1–2 only at the very
/// start, ±1: 2. BB-9.1: the Jumper in the air lands on a cell of the move: `at_cell` 0..=3 for
/// a 4-cell move; on the ground only 0.
#[test]
fn quick_rotations_and_jumper_cells_counted_from_the_rules() {
    let count = |g: &BumpingBots, card: Card| {
        g.legal_actions(Seat(0))
            .iter()
            .filter(|a| matches!(a, Action::Card { card: Some(c), .. } if *c == card))
            .count()
    };
    let back = back_of_the_field(8, 4, &["rotation", "jumper"]);
    assert_eq!(count(&back, Card::Rotation), 130);
    assert_eq!(count(&back, Card::Jumper), 4);
    let front = back_of_the_field(2, 4, &["rotation", "jumper"]);
    assert_eq!(count(&front, Card::Rotation), 2);
    assert_eq!(count(&front, Card::Jumper), 1);
}

/// Issue 22 finding 11: within one step, the event of the move that makes it (moved, pushed,
/// thrown, leapt, magnet) comes before the `line_crossed` it causes, and `finished` right after
/// the crossing that finishes the bot. Random races on every shipped track.
#[test]
fn crossings_follow_the_move_that_makes_them() {
    for (t, (name, _)) in SHIPPED.iter().enumerate() {
        for seed in 0..6u64 {
            let bots = 2 + (seed as u8 + t as u8) % 7;
            let mut g = BumpingBots::new(&Setup::race(shipped(name).unwrap(), bots), seed).unwrap();
            let mut ev = Vec::new();
            engine::play_random(&mut g, &mut Rng::seeded(seed), &mut ev, 200_000);
            let mut crossings = 0;
            for i in 0..ev.len() {
                let before = i.checked_sub(1).map(|j| &ev[j]);
                match &ev[i] {
                    Event::LineCrossed { seat, .. } => {
                        crossings += 1;
                        let ok = match before {
                            Some(
                                Event::Moved { seat: s, .. }
                                | Event::Pushed { seat: s, .. }
                                | Event::Thrown { seat: s, .. }
                                | Event::Leapt { seat: s, .. }
                                | Event::Magnet { seat: s, .. }
                                | Event::LineCrossed { seat: s, .. },
                            ) => s == seat,
                            _ => false,
                        };
                        assert!(ok, "{name} seed {seed}: {:?} before {:?}", before, ev[i]);
                    }
                    Event::Finished { seat } => {
                        let ok = matches!(before, Some(Event::LineCrossed { seat: s, forward: true, .. }) if s == seat);
                        assert!(ok, "{name} seed {seed}: {:?} before {:?}", before, ev[i]);
                    }
                    _ => {}
                }
            }
            assert!(crossings > 0, "{name} seed {seed}: no crossing at all");
        }
    }
}

/// BB-11.2 `reverse_standings`: the lowest standing takes the front of the grid. **Decision**
/// (docs/bumping-bots.md): bots level on points draw lots for their places, from the seed. Over
/// seeds, each of two tied seats is sometimes ahead of the other; the order of different
/// standings never changes.
#[test]
fn reverse_standings_ties_draw_lots() {
    let track = shipped("oval").unwrap();
    let grid: Vec<_> = track.start_grid.iter().map(|g| g.at).collect();
    let mut first_ahead = [0; 2];
    for seed in 0..40 {
        let mut setup = Setup::race(track.clone(), 4);
        setup.variants.reverse_standings = true;
        setup.standings = vec![7, 3, 3, 1];
        let g = BumpingBots::new(&setup, seed).unwrap();
        let place = |s: usize| grid.iter().position(|&h| Some(h) == g.bots()[s].at).unwrap();
        assert_eq!(place(3), 0, "seed {seed}: the last in the standings starts in front");
        assert_eq!(place(0), 3, "seed {seed}: the leader starts at the back");
        first_ahead[usize::from(place(1) > place(2))] += 1;
    }
    assert!(first_ahead[0] > 0 && first_ahead[1] > 0, "ties drawn both ways: {first_ahead:?}");
}
