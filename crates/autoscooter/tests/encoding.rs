//! The machine encodings (`autoscooter::encoding`, docs/python.md "Encodings") against the
//! engine's listing, in random positions of seeded random games (2 to 8 players, with and
//! without the wild car, AS-7.1):
//! - the flat index computed without listing: `legal_count` is the listing's length and
//!   `nth_legal(i)` its `i`-th action, for every `i`; nothing past the end;
//! - the factored form: every (car, row, letter) the masks allow is a listed action, and the
//!   allowed choices give the listing exactly, each action once.

use autoscooter::encoding::{HEADS, NO_LETTER, WILD};
use autoscooter::{Action, Autoscooter, Setup, Variants, WildCar};
use engine::{Game, Rng, Seat};
use proptest::prelude::*;

fn key(a: &Action) -> String {
    serde_json::to_string(a).expect("serialises")
}

fn check_position(g: &Autoscooter, seat: Seat) -> Result<(), TestCaseError> {
    let listed = g.legal_actions(seat);
    prop_assert_eq!(g.legal_count(seat), listed.len());
    for (i, a) in listed.iter().enumerate() {
        let nth = g.nth_legal(seat, i);
        prop_assert_eq!(nth.as_ref(), Some(a), "index {}", i);
    }
    prop_assert!(g.nth_legal(seat, listed.len()).is_none());
    prop_assert!(g.nth_legal(seat, usize::MAX).is_none());

    let (mut car, mut rows, mut letters) = ([false; 9], [[false; 11]; 9], [[false; 17]; 9]);
    g.factored_masks(seat, &mut car, &mut rows, &mut letters);
    let mut got = Vec::new();
    for c in 0..HEADS[0] {
        for (r, &row_ok) in rows[c].iter().enumerate() {
            for (l, &letter_ok) in letters[c].iter().enumerate() {
                let a = g.factored_action(c, r, l).expect("in range");
                let allowed = car[c] && row_ok && letter_ok;
                if allowed {
                    got.push(key(&a));
                }
                // A choice the masks exclude is not a legal action (the wild car's rows past
                // row 0 aside: its action ignores the row, AS-7.1).
                let wild_row = c == WILD && r != 0;
                if !(allowed || wild_row) {
                    prop_assert!(!listed.contains(&a), "masked out but legal: {}", key(&a));
                }
            }
        }
    }
    prop_assert!(g.factored_action(HEADS[0], 0, 0).is_none());
    prop_assert!(g.factored_action(0, HEADS[1], 0).is_none());
    prop_assert!(g.factored_action(0, 0, HEADS[2]).is_none());
    let mut plots: Vec<String> = listed.iter().filter(|a| is_plot(a)).map(key).collect();
    plots.sort();
    let n = got.len();
    got.sort();
    got.dedup();
    prop_assert_eq!(got.len(), n, "each action once");
    prop_assert_eq!(got, plots);
    // A car standing still plots no letter; a moving one must (AS-4.1).
    for c in 0..WILD {
        if car[c] {
            let still = letters[c][NO_LETTER];
            prop_assert!(still != letters[c][..NO_LETTER].iter().any(|&x| x));
        }
    }
    Ok(())
}

fn is_plot(a: &Action) -> bool {
    matches!(a, Action::Plot { .. } | Action::PlotWild { .. })
}

/// Play a random game (`seed`), checking every seat's encodings in every position; returns how
/// many positions offered a wild car plot and a case D start (the test covers them).
fn play(seed: u64, players: usize, wild: bool) -> Result<(usize, usize), TestCaseError> {
    let variants =
        Variants { wild_car: wild.then_some(WildCar::Lowest(true)), ..Variants::default() };
    // (a wild car needs a car of nobody: not every table size has one)
    let g = Setup::standard(players, false, variants)
        .ok()
        .and_then(|s| Autoscooter::new(&s, seed).ok());
    prop_assume!(g.is_some());
    let mut g = g.unwrap();
    let mut rng = Rng::seeded(seed);
    let (mut wilds, mut starts) = (0, 0);
    for _ in 0..150 {
        let Some(d) = g.decision() else { break };
        for s in 0..g.seats() {
            let seat = Seat(s as u8);
            check_position(&g, seat)?;
            let listed = g.legal_actions(seat);
            wilds += usize::from(listed.iter().any(|a| matches!(a, Action::PlotWild { .. })));
            starts += usize::from(listed.iter().any(|a| matches!(a, Action::Start { .. })));
        }
        let seat = d.seats().first().unwrap();
        let a = g.sample_action(seat, &mut rng).unwrap();
        g.apply(seat, &a, &mut Vec::new()).unwrap();
    }
    Ok((wilds, starts))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn flat_and_factored_encodings_are_the_listing(
        seed in any::<u64>(),
        players in 2usize..=8,
        wild in any::<bool>(),
    ) {
        play(seed, players, wild)?;
    }
}

/// The positions checked include the wild car's plots (AS-7.1) and case D starts (AS-5.4).
#[test]
fn the_check_meets_wild_car_plots_and_starts() {
    let (mut wilds, mut starts) = (0, 0);
    for seed in 0..6 {
        let (w, s) = play(seed, 3, true).expect("encodings are the listing");
        wilds += w;
        starts += s;
    }
    assert!(wilds > 0 && starts > 0, "wild plots {wilds}, starts {starts}");
}
