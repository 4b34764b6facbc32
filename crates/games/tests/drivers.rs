//! The random-game drivers (moved out of the rules crates).

use bumping_bots::tracks::{SHIPPED, shipped};
use games::random::{random_game, random_game_capped, random_race};
use roborally::board::shipped_courses;

#[test]
fn random_races_rank_every_bot() {
    for (name, _) in SHIPPED {
        let s = random_race(&shipped(name).unwrap(), 9, 2, 7);
        assert_eq!(s.ranking.iter().map(Vec::len).sum::<usize>(), 9, "{name}");
        assert_eq!(s, random_race(&shipped(name).unwrap(), 9, 2, 7), "seeded");
    }
}

#[test]
fn random_full_games_end_or_stop_at_the_cap() {
    for (i, c) in shipped_courses().iter().enumerate() {
        let s = random_game(c, 4, i as u64).unwrap();
        // Either the rules ended it or the turn cap (200) stopped it after turn 200.
        assert_eq!(s.turns > 200, !s.finished, "{s:?}");
        assert!(s.winner.is_none() || s.finished, "{s:?}");
        assert!(s.actions > 0, "{s:?}");
        assert_eq!(s, random_game(c, 4, i as u64).unwrap(), "seeded");
        let short = random_game_capped(c, 4, i as u64, 2).unwrap();
        assert!(short.turns <= 3 && short.actions <= s.actions, "{short:?}");
        assert!(random_game(c, 9, 0).is_err() && random_game(c, 0, 0).is_err());
    }
}
