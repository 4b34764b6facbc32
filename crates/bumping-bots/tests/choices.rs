//! The owing seat's choices (`bumping_bots::choices`, issue 21 item 3) against the engine's own
//! listing and `apply`, and the move previews (item 4) against the race as it is then played, on
//! random positions of seeded random races:
//! - every choice the listing gives (the factored quick rotations and shocks expanded) is
//!   accepted by `apply`, and every action `legal_actions` lists is among them;
//! - a seat that owes nothing has no choices, and no other view carries them;
//! - a preview's end (cell, facing, speed, finished) is where the bot really is when its turn
//!   ends, when its own later questions in that turn get the rules' default (`time_up`), which
//!   is what the preview assumes (no other bot acts during a bot's move, BB-4);
//! - the choices and previews do not change when the other seats' secrets (their unused cards,
//!   the deck, the RNG) are scrambled (`Conformance::scramble_secrets`).

use bumping_bots::choices::{Choices, Preview};
use bumping_bots::state::QuickRot;
use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{Action, BumpingBots, Setup};
use engine::harness::Conformance;
use engine::{Decision, Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn race(track: usize, bots: u8) -> Setup {
    Setup::race(shipped(SHIPPED[track].0).expect("shipped"), bots)
}

fn owing(g: &BumpingBots) -> Option<Seat> {
    match g.decision()? {
        Decision::One(s) => Some(s),
        Decision::Simultaneous(set) => set.first(),
    }
}

/// Every action a listing stands for, the factored ones expanded.
fn expand(c: &Choices) -> Vec<Action> {
    match c {
        Choices::Pick { actions } | Choices::Orient { actions } | Choices::Magnet { actions } => {
            actions.clone()
        }
        Choices::Speed { speeds, cards, quick_rotation } => {
            let mut out: Vec<Action> = speeds.iter().map(|s| s.action.clone()).collect();
            out.extend(cards.iter().cloned());
            if let Some(q) = quick_rotation {
                out.extend(q.expand().into_iter().map(|rotations: Vec<QuickRot>| Action::Card {
                    card: Some(bumping_bots::Card::Rotation),
                    target: None,
                    when: None,
                    at_cell: None,
                    rotations,
                }));
            }
            out
        }
        Choices::Move { moves, .. } => moves.iter().map(|m| m.action.clone()).collect(),
        Choices::Shock { turn_cells, turn_first, turns, .. } => {
            let n = *turn_cells as u32;
            let firsts: Vec<i8> = if turn_first.is_some() { turns.to_vec() } else { vec![0] };
            let mut out = Vec::new();
            for &f in &firsts {
                for code in 0..3usize.pow(n) {
                    let tp = (0..n).map(|i| turns[code / 3usize.pow(i) % 3]).collect::<Vec<i8>>();
                    out.push(Action::ShockChoice { turn_passive: tp, turn_first: f });
                }
            }
            out
        }
    }
}

fn key(a: &Action) -> String {
    serde_json::to_string(a).expect("serialises")
}

/// Where a bot is once the active seat's turn is over: (cell, facing, speed, finished).
fn end_of(p: &Preview) -> (Option<grid::Hex>, grid::HexDir, u8, bool) {
    (p.end, p.facing, p.speed, p.finishes)
}

fn check_position(g: &BumpingBots, seat: Seat, rng: &mut Rng) -> Result<(), TestCaseError> {
    let view = g.view(Observer::Seat(seat));
    let c =
        view.choices.clone().ok_or_else(|| TestCaseError::fail("the owing seat has choices"))?;
    // Nobody else sees choices.
    for s in 0..g.seats() {
        let s = Seat(s as u8);
        if s != seat {
            prop_assert!(g.view(Observer::Seat(s)).choices.is_none());
        }
    }
    prop_assert!(g.view(Observer::Spectator).choices.is_none());
    let listed = expand(&c);
    let mut keys: Vec<String> = listed.iter().map(key).collect();
    keys.sort();
    let n = keys.len();
    keys.dedup();
    prop_assert_eq!(n, keys.len(), "each choice listed once");
    for a in &listed {
        let mut h = g.clone();
        prop_assert!(h.apply(seat, a, &mut Vec::new()).is_ok(), "listed but refused: {}", key(a));
    }
    for a in g.legal_actions(seat) {
        prop_assert!(keys.binary_search(&key(&a)).is_ok(), "accepted but not offered: {}", key(&a));
    }
    // The previews, against the race played on with the defaults the preview assumes.
    let options: Vec<(Action, Option<Preview>)> = match &c {
        Choices::Speed { speeds, .. } => {
            speeds.iter().map(|s| (s.action.clone(), s.preview.clone())).collect()
        }
        Choices::Move { moves, .. } => {
            moves.iter().map(|m| (m.action.clone(), m.preview.clone())).collect()
        }
        _ => vec![],
    };
    for (a, p) in options {
        let p = p.ok_or_else(|| TestCaseError::fail("every move is previewed"))?;
        let bot = view.bots.iter().position(|b| b.seat == seat).expect("a bot");
        let (round, order_pos) = (view.round, view.order.iter().position(|&s| s == seat));
        let mut h = g.clone();
        h.apply(seat, &a, &mut Vec::new()).expect("listed");
        if matches!(a, Action::Speed { .. }) {
            h.apply(
                seat,
                &Action::Move { rotate_before_last: 0, rotate_after: 0 },
                &mut Vec::new(),
            )
            .expect("a move without rotation is always allowed after a speed choice");
        }
        // The seat's own later questions in this turn: the rules' default.
        while owing(&h) == Some(seat) && h.round() == round && h.phase_name() != "speed" {
            h.time_up(&mut Vec::new()).expect("a default");
        }
        let _ = order_pos;
        let after = h.view(Observer::Omniscient);
        let b = &after.bots[bot];
        let finished = b.at.is_none();
        prop_assert_eq!(
            end_of(&p),
            (b.at, b.facing, b.speed, finished),
            "preview of {} at {:?}",
            key(&a),
            g.view(Observer::Omniscient).bots[bot].at
        );
        if let Some(end) = p.end {
            prop_assert_eq!(
                p.path.last().map(|s| s.at),
                Some(end),
                "the path ends where the bot stops"
            );
        }
    }
    // The choices (and previews) read no other seat's secret.
    let mut scrambled = g.clone();
    scrambled.scramble_secrets(Observer::Seat(seat), rng);
    prop_assert_eq!(Some(c), scrambled.view(Observer::Seat(seat)).choices);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random positions of seeded random races (every decision of the first few hundred).
    #[test]
    fn choices_are_exactly_what_the_engine_accepts(seed in any::<u64>(), track in 0usize..3, bots in 2u8..=6) {
        let mut g = BumpingBots::new(&race(track, bots), seed).expect("starts");
        let mut rng = Rng::seeded(seed ^ 0x5eed);
        for _ in 0..250 {
            let Some(seat) = owing(&g) else { break };
            check_position(&g, seat, &mut rng)?;
            let a = g.sample_action(seat, &mut rng).expect("a legal action");
            g.apply(seat, &a, &mut Vec::new()).expect("sampled actions are legal");
        }
    }
}

/// The positions above do reach what the listing factors and the previews assume: quick
/// rotations, shocks, previews that hit something and previews that assume a default answer.
#[test]
fn the_random_positions_reach_every_kind_of_choice() {
    let (mut quick, mut shock, mut hits, mut assumed, mut pushes) = (0, 0, 0, 0, 0);
    for seed in 0..12u64 {
        let mut g = BumpingBots::new(&race((seed % 3) as usize, 6), seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        for _ in 0..400 {
            let Some(seat) = owing(&g) else { break };
            match g.view(Observer::Seat(seat)).choices {
                Some(Choices::Speed { quick_rotation: Some(_), .. }) => quick += 1,
                Some(Choices::Shock { .. }) => shock += 1,
                Some(Choices::Move { moves, .. }) => {
                    for p in moves.iter().filter_map(|m| m.preview.as_ref()) {
                        hits += usize::from(!p.hits.is_empty());
                        assumed += usize::from(!p.assumed.is_empty());
                        pushes += usize::from(!p.pushes.is_empty());
                    }
                }
                _ => {}
            }
            let a = g.sample_action(seat, &mut rng).expect("a legal action");
            g.apply(seat, &a, &mut Vec::new()).expect("legal");
        }
    }
    assert!(
        quick > 0 && shock > 0 && hits > 0 && assumed > 0 && pushes > 0,
        "quick {quick}, shock {shock}, hits {hits}, assumed {assumed}, pushes {pushes}"
    );
}
