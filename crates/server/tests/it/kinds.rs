//! `GET /api/kinds` serves what the lobby needs of every game, from the registry; the toy game
//! is offered only with `all_games` (`serve --all-games`) and then plays like any other game.

use crate::support::{Client, create_game, guest, http, join, start_server};
use protocol::{ClientMsg, ServerMsg};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kinds_are_served_and_the_toy_game_is_not_offered_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let (status, k) = http(addr, "GET", "/api/kinds", None, None).await;
    assert_eq!(status, 200, "{k}");
    assert_eq!(k["v"], 1);
    let kinds = k["kinds"].as_array().unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["autoscooter", "roborally", "bumping-bots", "bumping-bots-championship"]);
    for (got, kind) in kinds.iter().zip(games::Registry::public().kinds()) {
        let i = &kind.info;
        assert_eq!(got["title"], i.title);
        assert_eq!(
            (got["min_players"].as_u64(), got["max_players"].as_u64()),
            (Some(i.min_players as u64), Some(i.max_players as u64))
        );
        let boards: Vec<&str> =
            got["boards"].as_array().unwrap().iter().map(|b| b["id"].as_str().unwrap()).collect();
        assert_eq!(boards, i.boards.iter().map(|b| b.id.as_str()).collect::<Vec<_>>());
        assert!(got["boards"].as_array().unwrap().iter().all(|b| b["title"].is_string()));
        let variants: Vec<&str> = got["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["key"].as_str().unwrap())
            .collect();
        assert_eq!(variants, i.variants.iter().map(|v| v.key).collect::<Vec<_>>());
        assert!(got.get("public").is_none() && got.get("rules_crate").is_none(), "{got}");
    }
    // The rules' own figures reach the lobby (RoboRally: 2 to 8 robots; Bumping Bots: up to 9).
    assert_eq!(kinds[1]["max_players"], 8);
    assert_eq!(kinds[2]["max_players"], 9);
    assert_eq!(kinds[2]["default_board"], "oval");
    let token = guest(addr, "Ann").await;
    let (status, e) = http(
        addr,
        "POST",
        "/api/games",
        Some(&token),
        Some(json!({"game": "rps", "seats": ["me", "open"]})),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("unknown_game")), "{e}");
    let (status, e) = http(
        addr,
        "POST",
        "/api/games",
        Some(&token),
        Some(json!({"game": "roborally", "seats": ["me"]})),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_setup")), "{e}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_toy_game_is_created_joined_and_played_to_the_end_over_websockets() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.all_games = true).await;
    let addr = server.addr;
    let (_, k) = http(addr, "GET", "/api/kinds", None, None).await;
    assert!(k["kinds"].as_array().unwrap().iter().any(|k| k["name"] == "rps"), "{k}");
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let body = json!({"game": "rps", "seats": ["me", "open"], "seed": 3, "practice": true});
    let id = create_game(addr, &ann, body).await;
    let g = join(addr, &id, &bob).await;
    assert_eq!(g["status"], "running", "{g}");
    // Ann always throws rock, Bob always scissors: TOY-2, Ann wins 3 to 0 (TOY-3).
    let mut tasks = Vec::new();
    for (seat, token, throw) in [(0u8, ann, "rock"), (1, bob, "scissors")] {
        let mut c = Client::connect(addr, &id, Some(&token)).await;
        tasks.push(tokio::spawn(async move {
            let mut next = 0;
            let mut inflight = false;
            loop {
                match c.recv().await {
                    ServerMsg::Welcome { waiting, view, .. }
                    | ServerMsg::Update { waiting, view: Some(view), .. } => {
                        // The other seat's throw is never in this seat's view.
                        assert!(view["throws"][1 - seat as usize].is_null(), "{view}");
                        if !inflight && waiting.contains(&seat) {
                            next += 1;
                            let action = json!({"type": "throw", "throw": throw});
                            c.send(&ClientMsg::Act { seat: None, action, id: Some(next) }).await;
                            inflight = true;
                        }
                    }
                    ServerMsg::Ack { .. } => inflight = false,
                    ServerMsg::Over { outcome } => return outcome,
                    ServerMsg::Error { message, .. } => panic!("seat {seat}: {message}"),
                    ServerMsg::Update { view: None, .. } => panic!("a whole-view socket"),
                    ServerMsg::Presence { .. }
                    | ServerMsg::Chat { .. }
                    | ServerMsg::Rematch { .. }
                    | ServerMsg::Lesson { .. }
                    | ServerMsg::Pong => {}
                }
            }
        }));
    }
    for t in tasks {
        let outcome = t.await.unwrap();
        assert_eq!(outcome["ranking"], json!([[0], [1]]));
        assert_eq!(outcome["scores"], json!([3, 0]));
    }
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished");
    server.shutdown().await;
}

/// `GET /api/kinds/{game}/rules`: the game crate's rule book (docs/client.md "Rules and
/// help"): every variant and option the lobby offers has a topic in words (no rule code in
/// the lobby's label), every option card (RR-9) and tuning card (BB-9) has its effect text,
/// and the diagrams have the default board's static part. An unknown game is a 404 object.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_serves_its_rules_page() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let (_, k) = http(addr, "GET", "/api/kinds", None, None).await;
    for kind in k["kinds"].as_array().unwrap() {
        let name = kind["name"].as_str().unwrap();
        if name.ends_with("-championship") {
            continue; // its table shows Bumping Bots' rules page
        }
        let (status, page) =
            http(addr, "GET", &format!("/api/kinds/{name}/rules"), None, None).await;
        assert_eq!(status, 200, "{page}");
        let topics = page["topics"].as_array().unwrap();
        let prefix = match name {
            "autoscooter" => "AS-",
            "roborally" => "RR-",
            _ => "BB-",
        };
        for t in topics {
            assert!(t["rule"].as_str().unwrap().starts_with(prefix), "{t}");
        }
        let keys: Vec<&str> = topics.iter().map(|t| t["key"].as_str().unwrap()).collect();
        for v in
            kind["variants"].as_array().unwrap().iter().chain(kind["options"].as_array().unwrap())
        {
            let title = v["title"].as_str().unwrap();
            assert!(!title.contains(prefix), "a rule code in the label {title:?}");
            let key = v["key"].as_str().unwrap();
            if key != games::LAST_PLAYER_OPTION && key != "timer_seconds" {
                assert!(
                    keys.contains(&format!("variant:{key}").as_str()),
                    "{name}: no topic for {key}"
                );
            }
        }
        assert!(page["static"].is_object(), "{name}: no static part for the diagrams");
    }
    let (_, rr) = http(addr, "GET", "/api/kinds/roborally/rules", None, None).await;
    let options = rr["topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["key"].as_str().unwrap().starts_with("option:"));
    assert_eq!(options.clone().count(), 26, "the 26 option cards of RR-9");
    let brakes =
        rr["topics"].as_array().unwrap().iter().find(|t| t["key"] == "option:brakes").unwrap();
    assert_eq!(brakes["text"], roborally::option::OptionCard::Brakes.effect());
    let (_, bb) = http(addr, "GET", "/api/kinds/bumping-bots/rules", None, None).await;
    let cards = bb["topics"].as_array().unwrap().iter().filter(|t| t["kind"] == "card").count();
    assert_eq!(cards, 5, "the five tuning cards of BB-9");
    let (status, e) = http(addr, "GET", "/api/kinds/chess/rules", None, None).await;
    assert_eq!(status, 404);
    assert_eq!(e["code"], "not_found");
}
