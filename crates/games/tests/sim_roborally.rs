//! `robodrome sim roborally`: the `max_turns` cap is a cap on turns (issue 22, RoboRally 9).

use games::{Registry, SetupRequest, sim};
use serde_json::json;

fn sim(max_turns: u64, games: u64, bots: Vec<bots::BotSpec>) -> serde_json::Value {
    let req = sim::Request {
        setup: SetupRequest {
            players: 3,
            board: Some("dizzy-dash".into()),
            variants: None,
            options: Some(json!({ "max_turns": max_turns })),
        },
        games,
        seed: 11,
        bots,
        jobs: 1,
    };
    let kind = Registry::everything().get("roborally").expect("roborally is registered");
    kind.sim(&req, &|_| {}).expect("the sim runs").json
}

#[test]
fn max_turns_stops_every_game_at_that_turn() {
    for (cap, bots) in [(4, vec![]), (2, vec![bots::BotSpec::Heuristic])] {
        let s = sim(cap, 6, bots);
        let average = s["details"]["average_turns"].as_f64().unwrap();
        assert!(average <= cap as f64, "{cap}: average {average}: {s}");
        let wins: u64 =
            s["wins_by_seat"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum();
        let shared: u64 = s["shared_firsts_by_seat"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        let unfinished = s["unfinished"].as_u64().unwrap();
        assert!(wins + unfinished <= 6, "{s}");
        assert!(shared == 0 || wins + unfinished < 6, "{s}");
    }
}
