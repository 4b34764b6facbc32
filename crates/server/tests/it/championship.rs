//! A Bumping Bots championship (BB-11) on the server: created from the lobby's request through
//! the registry (`options.races`, `options.laps`), played to the end by one human seat, which
//! acts from its own view only (as the browser does), and two bots; between the races every
//! frame shows the standings and the grid choice (BB-11.2).

use crate::support::{Client, guest, http, start_server};
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};

/// The human's decision, from its view: keep speed 1, move straight, push, no turn, no Magnet;
/// on the grid, the first free place (BB-2.1: the place nearest the line).
fn decide(view: &Value) -> Value {
    match view["phase"].as_str().unwrap() {
        "grid_choice" => {
            let places = view["grid"]["places"].as_array().unwrap();
            let free = places.iter().position(Value::is_null).expect("a free place");
            json!({"type": "grid_place", "place": free})
        }
        "speed" => json!({"type": "speed", "choice": "keep"}),
        "move" => json!({"type": "move", "rotate_before_last": 0, "rotate_after": 0}),
        "shock_choice" => json!({"type": "shock_choice", "turn_passive": [], "turn_first": 0}),
        "orient" => json!({"type": "orient", "turn": 0}),
        "magnet" => json!({"type": "card", "card": null}),
        other => panic!("unexpected decision {other}: {view}"),
    }
}

fn sum_of_results(view: &Value) -> Vec<i64> {
    let mut total = vec![0; 3];
    for r in view["results"].as_array().unwrap() {
        for (t, p) in total.iter_mut().zip(r["points"].as_array().unwrap()) {
            *t += p.as_i64().unwrap();
        }
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_race_championship_with_a_human_and_bots_shows_the_standings_between_races() {
    let dir = tempfile::tempdir().unwrap();
    // The human answers as fast as the server sends: no rate limit.
    let server = start_server(&dir, |c| c.rate = 1_000_000).await;
    let addr = server.addr;
    let (_, k) = http(addr, "GET", "/api/kinds", None, None).await;
    let kind = k["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "bumping-bots-championship")
        .expect("the lobby offers championships");
    assert!(kind["options"].as_array().unwrap().iter().any(|o| o["key"] == "races"), "{kind}");
    let ann = guest(addr, "Ann").await;
    let (status, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(json!({
            "game": "bumping-bots-championship",
            "seats": ["me", "bot:heuristic", "bot:heuristic"],
            "options": {"races": 2, "laps": 1},
            "seed": 5,
            "practice": true
        })),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    let mut inflight = false;
    let mut next = 0u64;
    let mut grid_frames = 0;
    let mut chose = false;
    let mut last_view = Value::Null;
    let outcome = loop {
        match c.recv().await {
            ServerMsg::Welcome { waiting, view, .. }
            | ServerMsg::Update { waiting, view: Some(view), .. } => {
                assert_eq!(view["races"], 2);
                // Other seats' tuning cards never reach this seat (BB-9).
                for b in view["race_state"]["bots"].as_array().into_iter().flatten() {
                    if b["seat"] != 0 {
                        assert!(b["cards"].is_null(), "{b}");
                    }
                }
                // The standings are the sums of the finished races' points (BB-11.1).
                let standings: Vec<i64> = view["standings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_i64().unwrap())
                    .collect();
                assert_eq!(standings, sum_of_results(&view), "{view}");
                if view["phase"] == "grid_choice" {
                    // Between the races: race 1's places and points, then the choice in
                    // reverse order of the standings (BB-11.2).
                    grid_frames += 1;
                    assert_eq!(view["race"], 2);
                    let results = view["results"].as_array().unwrap();
                    assert_eq!(results.len(), 1);
                    let mut pts: Vec<i64> = results[0]["points"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_i64().unwrap())
                        .collect();
                    pts.sort_unstable();
                    assert_eq!(pts, [1, 3, 5], "BB-11.1, three bots");
                    let order: Vec<usize> = view["grid"]["order"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_u64().unwrap() as usize)
                        .collect();
                    assert!(order.windows(2).all(|w| standings[w[0]] <= standings[w[1]]), "{view}");
                    assert!(view.get("race_state").is_none(), "no race between the races");
                }
                last_view = view.clone();
                if !inflight && waiting.contains(&0) {
                    let action = decide(&view);
                    chose |= action["type"] == "grid_place";
                    next += 1;
                    c.send(&ClientMsg::Act { seat: None, action, id: Some(next) }).await;
                    inflight = true;
                }
            }
            ServerMsg::Ack { id, .. } => {
                assert_eq!(id, Some(next));
                inflight = false;
            }
            ServerMsg::Over { outcome } => break outcome,
            ServerMsg::Error { code, message, .. } => panic!("{code:?} {message}"),
            ServerMsg::Update { view: None, .. } => panic!("a whole-view socket"),
            ServerMsg::Presence { .. }
            | ServerMsg::Pong
            | ServerMsg::Chat { .. }
            | ServerMsg::Rematch { .. }
            | ServerMsg::Lesson { .. } => {}
        }
    };
    assert!(grid_frames >= 1, "the standings were shown between the races");
    assert!(chose, "the human chose its place on the grid");
    // The championship's ranking: every seat once, by the standings of both races.
    let ranked: Vec<u64> = outcome["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g.as_array().unwrap().iter().map(|s| s.as_u64().unwrap()))
        .collect();
    let mut seats = ranked.clone();
    seats.sort_unstable();
    assert_eq!(seats, [0, 1, 2], "{outcome}");
    let scores: Vec<i64> =
        outcome["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
    assert_eq!(scores, sum_of_results(&last_view), "{outcome} {last_view}");
    assert_eq!(last_view["phase"], "over");
    assert_eq!(last_view["results"].as_array().unwrap().len(), 2);
    assert!(scores[ranked[0] as usize] >= scores[ranked[2] as usize]);
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished");
    server.shutdown().await;
}
