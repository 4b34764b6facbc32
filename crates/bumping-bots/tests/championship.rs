//! BB-11 championships as one game: the engine's conformance suite over random championships,
//! the grid choice's typed errors (BB-11.2), team validation (BB-11.3) and the standings.

use bumping_bots::championship::{ChampAction, Championship, ChampionshipSetup};
use bumping_bots::settings::TeamsSpec;
use bumping_bots::tracks::{SHIPPED, shipped};
use engine::harness::{CheckOptions, check_game};
use engine::{Game, Observer, Rng, RuleError, Seat};
use proptest::prelude::*;

fn setup(track: &str, bots: u8, races: u8, laps: u8) -> ChampionshipSetup {
    let mut t = shipped(track).expect("shipped");
    t.laps = laps;
    ChampionshipSetup::new(t, bots, races)
}

/// Plays random actions until the grid choice of race 2.
fn to_grid_choice(setup: &ChampionshipSetup, seed: u64) -> Championship {
    let mut g = Championship::new(setup, seed).expect("setup");
    let mut rng = Rng::seeded(seed);
    while g.grid().is_none() {
        let seat = g.decision().expect("not over").seats().first().expect("a seat");
        let a = g.sample_action(seat, &mut rng).expect("an action");
        g.apply(seat, &a, &mut Vec::new()).expect("sampled actions are legal");
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The conformance suite (refusals change nothing, listed actions accepted, views unchanged
    /// when other seats' cards change, replay identical) over whole championships, on one
    /// track or a tour of every shipped track, with and without teams and random grids.
    #[test]
    fn random_championships_conform(
        seed in any::<u64>(),
        track in 0usize..3,
        bots in prop::sample::select(vec![2u8, 3, 4, 6]),
        tour in any::<bool>(),
        teams in any::<bool>(),
        random_grid in any::<bool>(),
    ) {
        let mut s = setup(SHIPPED[track].0, bots, 2, 1);
        if tour {
            s.tracks = SHIPPED.iter().map(|(n, _)| {
                let mut t = shipped(n).expect("shipped");
                t.laps = 1;
                t
            }).collect();
            s.races = 3;
        }
        if teams && bots % 2 == 0 && bots >= 4 {
            s.variants.teams = Some(TeamsSpec::Auto(true));
        }
        s.random_grid = random_grid;
        let options = CheckOptions { max_steps: 200_000, timeouts: true, deep_every: 25, listed_limit: 12 };
        let report = check_game::<Championship>(&s, seed, &options)
            .map_err(|v| TestCaseError::fail(v.to_string()))?;
        let g = &report.game;
        prop_assert!(report.finished, "the championship did not end");
        prop_assert_eq!(g.results().len(), s.races as usize);
        // BB-11.1 / BB-10: each bot earns the points of its place (tied bots share a place,
        // the next place is skipped); the places follow the race's ranking.
        for r in g.results() {
            let mut place = 1;
            for group in &r.ranking {
                for s in group {
                    prop_assert_eq!(r.places[s.index()] as usize, place);
                }
                place += group.len();
            }
            prop_assert_eq!(place, bots as usize + 1, "every bot ranked");
            for (s, &p) in r.points.iter().enumerate() {
                prop_assert_eq!(p, bumping_bots::championship::points_for(r.places[s] as usize, bots as usize));
            }
        }
        let sums: Vec<i32> = (0..bots as usize)
            .map(|s| g.results().iter().map(|r| r.points[s]).sum())
            .collect();
        prop_assert_eq!(g.standings(), &sums[..]);
    }
}

#[test]
fn bb_11_2_the_last_in_the_standings_chooses_first_and_a_taken_place_is_refused() {
    let s = setup("oval", 3, 2, 1);
    let mut g = to_grid_choice(&s, 4);
    let standings = g.standings().to_vec();
    let grid = g.grid().expect("grid choice").clone();
    // The chooser order goes up the standings (BB-11.2).
    let pts: Vec<i32> = grid.order.iter().map(|s| standings[s.index()]).collect();
    assert!(pts.windows(2).all(|w| w[0] <= w[1]), "order {:?} standings {standings:?}", grid.order);
    let first = grid.order[0];
    let second = grid.order[1];
    // Out of turn, a race action, a place off the grid: typed errors, nothing changes.
    let before = g.clone();
    let refuse = |g: &mut Championship, seat: Seat, a: ChampAction| {
        let mut ev = Vec::new();
        let e = g.apply(seat, &a, &mut ev).expect_err("refused");
        assert!(ev.is_empty());
        e.code()
    };
    assert_eq!(refuse(&mut g, second, ChampAction::GridPlace { place: 0 }), "not_your_turn");
    let orient = ChampAction::Race(bumping_bots::Action::Orient { turn: 0 });
    assert_eq!(refuse(&mut g, first, orient), "wrong_action");
    assert_eq!(refuse(&mut g, first, ChampAction::GridPlace { place: 9 }), "no_such_place");
    assert_eq!(g, before);
    g.apply(first, &ChampAction::GridPlace { place: 2 }, &mut Vec::new()).expect("free place");
    let before = g.clone();
    assert_eq!(refuse(&mut g, second, ChampAction::GridPlace { place: 2 }), "place_taken");
    assert_eq!(g, before);
    g.apply(second, &ChampAction::GridPlace { place: 0 }, &mut Vec::new()).expect("free place");
    let third = grid.order[2];
    // Only place 1 is left of the oval's first three (the grid has more places).
    assert_eq!(g.legal_actions(third).len(), g.start_grid().len() - 2);
    g.apply(third, &ChampAction::GridPlace { place: 1 }, &mut Vec::new()).expect("free place");
    // Race 2 starts with each bot on the place it chose.
    let race = g.race().expect("race 2 runs");
    let spots = g.start_grid();
    for (seat, place) in [(first, 2), (second, 0), (third, 1)] {
        assert_eq!(race.bots()[seat.index()].at, Some(spots[place].at), "seat {}", seat.0);
    }
    assert_eq!(g.view(Observer::Spectator).race, 2);
}

#[test]
fn time_up_on_the_grid_takes_the_best_free_place() {
    let s = setup("oval", 2, 2, 1);
    let mut g = to_grid_choice(&s, 9);
    let first = g.grid().expect("grid").order[0];
    g.time_up(&mut Vec::new()).expect("a default");
    assert_eq!(g.grid().expect("still choosing").places[0], Some(first));
}

#[test]
fn bb_11_3_teams_are_checked() {
    let mut s = setup("oval", 3, 2, 1);
    s.variants.teams = Some(TeamsSpec::Auto(true));
    let e = Championship::new(&s, 1).expect_err("3 bots cannot race in teams");
    assert!(e.to_string().contains("4, 6, 8 or 9"), "{e}");
    let mut s = setup("oval", 4, 2, 1);
    for (teams, why) in [
        (vec![vec![0, 1], vec![1, 2]], "two teams"),
        (vec![vec![0, 1, 2], vec![3]], "has 2 bots"),
        (vec![vec![0, 1]], "are in none"),
        (vec![vec![0, 1], vec![2, 7]], "no seat"),
    ] {
        s.variants.teams = Some(TeamsSpec::Explicit(teams));
        let e = Championship::new(&s, 1).expect_err(why);
        assert!(e.to_string().contains(why), "{e}");
    }
    s.variants.teams = Some(TeamsSpec::Explicit(vec![vec![0, 3], vec![1, 2]]));
    Championship::new(&s, 1).expect("a partition into pairs");
    let mut s9 = setup("oval", 9, 2, 1);
    s9.variants.teams = Some(TeamsSpec::Auto(true));
    let g = Championship::new(&s9, 1).expect("three teams of three");
    assert_eq!(g.teams().expect("teams").iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 3]);
}

#[test]
fn grid_place_actions_read_and_reject_unknown_fields() {
    let a: ChampAction = serde_json::from_str(r#"{"type":"grid_place","place":3}"#).expect("reads");
    assert_eq!(a, ChampAction::GridPlace { place: 3 });
    assert_eq!(
        serde_json::to_value(&a).expect("json"),
        serde_json::json!({"type":"grid_place","place":3})
    );
    let e = serde_json::from_str::<ChampAction>(r#"{"type":"grid_place","place":3,"row":1}"#)
        .expect_err("unknown field");
    assert!(e.to_string().contains("row"), "{e}");
    let r: ChampAction =
        serde_json::from_str(r#"{"type":"orient","turn":1}"#).expect("a race action");
    assert_eq!(r, ChampAction::Race(bumping_bots::Action::Orient { turn: 1 }));
}

/// Championship scenario files that do not fit: a clear error naming the field (exit 2).
#[test]
fn bad_championship_files_are_schema_errors() {
    let run = |setup: serde_json::Value, variants: serde_json::Value, board: serde_json::Value| {
        let doc = serde_json::json!({
            "game": "bumping-bots-championship", "seed": 1, "board": board,
            "setup": setup, "variants": variants, "actions": []
        });
        scenario::run(doc.to_string().as_bytes()).map(|o| o.exit).map_err(|e| e.to_string())
    };
    let oval = serde_json::json!("oval");
    let none = serde_json::Value::Null;
    let cases = [
        (
            serde_json::json!({"players": 4, "races": 3, "rounds": 2}),
            none.clone(),
            oval.clone(),
            "rounds",
        ),
        (serde_json::json!({"players": 4}), none.clone(), oval.clone(), "races"),
        (serde_json::json!({"players": 4, "races": 1}), none.clone(), oval.clone(), "races"),
        (
            serde_json::json!({"players": 3, "races": 2}),
            serde_json::json!({"teams": true}),
            oval.clone(),
            "4, 6, 8 or 9",
        ),
        (
            serde_json::json!({"players": 3, "races": 2}),
            serde_json::json!({"random_grid": 1}),
            oval.clone(),
            "random_grid",
        ),
        (
            serde_json::json!({"players": 3, "races": 2, "grid_order": [0, 0, 1]}),
            none.clone(),
            oval.clone(),
            "grid_order",
        ),
        (
            serde_json::json!({"players": 3, "races": 2}),
            none.clone(),
            serde_json::json!(["oval", "nowhere"]),
            "board[1]",
        ),
    ];
    for (setup, variants, board, want) in cases {
        let e = run(setup.clone(), variants, board).expect_err("a schema error");
        assert!(e.contains(want), "{setup}: {e}");
    }
    let ok = run(
        serde_json::json!({"players": 3, "races": 2}),
        serde_json::json!({"random_grid": true}),
        serde_json::json!(["oval", "chicane"]),
    );
    assert_eq!(ok, Ok(0));
}
