//! Issue 17: `robodrome sim --jobs N` plays the games on N threads and reports exactly what one
//! thread reports (game i is seeded with seed + i whoever plays it; the figures are added up in
//! game order). Only the timing fields and `jobs` differ.

use games::{Registry, SetupRequest, sim};
use serde_json::{Value, json};

fn summary(game: &str, setup: SetupRequest, games: u64, bots: &str, jobs: usize) -> Value {
    let bots = bots.split(',').filter(|b| !b.is_empty()).map(|b| b.parse().unwrap()).collect();
    let req = sim::Request { setup, games, seed: 7, bots, jobs };
    let kind = Registry::everything().get(game).unwrap();
    let mut v = kind.sim(&req, &|_| {}).unwrap().json;
    assert_eq!(v["jobs"], json!(jobs.min(games.div_ceil(64) as usize)), "{v}");
    for timing in ["seconds", "games_per_second", "jobs"] {
        v[timing] = Value::Null;
    }
    v
}

fn players(n: usize) -> SetupRequest {
    SetupRequest { players: n, ..Default::default() }
}

#[test]
fn roborally_on_three_jobs_is_one_job() {
    let setup = || SetupRequest { board: Some("dizzy-dash".into()), ..players(8) };
    // 150 games: three blocks of 64, the last one short.
    let one = summary("roborally", setup(), 150, "", 1);
    assert_eq!(one["games"], json!(150));
    // Every turn played reveals its five registers (RR-5.1); a game ends within a turn at most.
    let registers = one["registers"].as_u64().unwrap();
    let turns = one["details"]["average_turns"].as_f64().unwrap() * 150.0;
    assert!(registers as f64 <= turns.round() * 5.0 + 1e-9 && registers > 0, "{one}");
    assert_eq!(summary("roborally", setup(), 150, "", 3), one);
}

#[test]
fn autoscooter_and_bumping_bots_on_two_jobs_are_one_job() {
    let one = summary("autoscooter", players(8), 200, "", 1);
    assert_eq!(summary("autoscooter", players(8), 200, "", 2), one);
    assert!(one.get("registers").is_none(), "only RoboRally counts registers: {one}");
    let bb = || SetupRequest { board: Some("oval".into()), ..players(4) };
    let one = summary("bumping-bots", bb(), 70, "heuristic,random", 1);
    assert_eq!(summary("bumping-bots", bb(), 70, "heuristic,random", 2), one);
}
