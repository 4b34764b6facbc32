//! Rinks of any shape (the editor's, docs/editors.md): whatever the checker
//! (`autoscooter::board::check_text`, what `robodrome board check`, the editor and a saved
//! board's game use) accepts without an error loads and plays to the end through the engine's
//! conformance suite; whatever the loader refuses, the checker refuses too.

use autoscooter::board::{BoardSpec, Start, check_text};
use autoscooter::{Autoscooter, Board, Setup, Variants};
use engine::harness::{self, CheckOptions};
use grid::{Hex, HexDir};
use proptest::prelude::*;

/// A rink of 8 to 40 distinct random cells in a 7 × 6 box with 8 start spaces on distinct
/// cells (so that most rinks are valid), then now and then broken: `flaw` 1 lists a cell twice,
/// 2 moves a start space off the rink, 3 drops the last start space, 4 puts two start spaces on
/// one cell, 5 adds a ninth start space.
fn rink() -> impl Strategy<Value = BoardSpec> {
    proptest::collection::btree_set((0i32..7, 0i32..6), 8..40)
        .prop_flat_map(|cells| {
            let cells: Vec<Hex> = cells.into_iter().map(|(q, r)| Hex::new(q - r / 2, r)).collect();
            let n = cells.len();
            (
                Just(cells),
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                proptest::collection::vec(0usize..6, 9),
                0u8..12,
            )
        })
        .prop_map(|(cells, order, facings, flaw)| {
            let mut starts: Vec<Start> = (0..8)
                .map(|i| Start { at: cells[order[i]], facing: HexDir::ALL[facings[i]] })
                .collect();
            let mut cells = cells;
            match flaw {
                1 => cells.push(cells[0]),
                2 => starts[3].at = Hex::new(40, 40),
                3 => {
                    starts.pop();
                }
                4 => starts[5].at = starts[2].at,
                5 if cells.len() > 8 => {
                    starts.push(Start { at: cells[order[8]], facing: HexDir::ALL[facings[8]] })
                }
                _ => {}
            }
            BoardSpec { name: None, about: None, cells, starts }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_rink_without_errors_plays_and_a_refused_one_has_errors(spec in rink(), seed in any::<u64>(), players in 2usize..=8) {
        let text = serde_json::to_string(&spec).unwrap();
        let errors = check_text(&text).iter().any(|f| f.is_error());
        if Board::new(&spec).is_err() {
            prop_assert!(errors, "the loader refuses what the checker accepts: {text}");
        }
        // Each flaw is an error; a rink with none plays.
        let flawed = spec.starts.len() < 8 || spec.starts.iter().any(|s| !spec.cells.contains(&s.at))
            || spec.cells.len() != spec.cells.iter().collect::<std::collections::BTreeSet<_>>().len()
            || spec.starts.iter().enumerate().any(|(i, s)| spec.starts[..i].iter().any(|o| o.at == s.at));
        prop_assert_eq!(errors, flawed, "{}", text);
        if !errors {
            let mut setup = Setup::standard(players, false, Variants::default()).unwrap();
            setup.board = spec;
            let options = CheckOptions { max_steps: 3_000, timeouts: seed & 1 == 0, deep_every: 4, listed_limit: 12 };
            let report = harness::check_game::<Autoscooter>(&setup, seed, &options)
                .map_err(|v| TestCaseError::fail(format!("{v} on {text}")))?;
            prop_assert!(report.finished, "a game on {text} ends");
            prop_assert_eq!(report.game.round(), 11);
        }
    }
}
