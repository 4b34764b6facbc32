//! "Learn to play" (docs/lessons.md): `GET /api/lessons` lists the shipped lessons of the games
//! the server offers; `POST /api/lessons/{game}/{n}` starts one as a practice game with the
//! caller in the lesson's seat and bots in the others; the table is told the lesson and its
//! status, which the server checks on the engine's position after every change.

use crate::support::{Client, guest, http, start_server};
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_are_listed_per_game_without_their_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (status, v) = http(server.addr, "GET", "/api/lessons", None, None).await;
    assert_eq!(status, 200, "{v}");
    let games = v["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(names, ["roborally", "autoscooter", "bumping-bots"]);
    for g in games {
        let list = g["lessons"].as_array().unwrap();
        assert_eq!(list.len(), scenario::lessons::of_game(g["game"].as_str().unwrap()).len());
        for (i, l) in list.iter().enumerate() {
            assert_eq!(l["number"], i + 1);
            assert!(l["title"].is_string() && l["goal"].is_string(), "{l}");
            assert!(l.get("solution").is_none() && l.get("setup").is_none(), "{l}");
        }
    }
    assert_eq!(games[0]["title"], "RoboRally");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_game_or_number_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let count = scenario::lessons::of_game("roborally").len();
    for (path, want) in [
        ("/api/lessons/chess/1".to_string(), (404, "no_such_lesson")),
        ("/api/lessons/rps/1".to_string(), (404, "no_such_lesson")),
        ("/api/lessons/roborally/0".to_string(), (404, "no_such_lesson")),
        (format!("/api/lessons/roborally/{}", count + 1), (404, "no_such_lesson")),
        ("/api/lessons/roborally/one".to_string(), (400, "bad_lesson_number")),
        ("/api/lessons/roborally/-1".to_string(), (400, "bad_lesson_number")),
    ] {
        let (status, e) = http(addr, "POST", &path, Some(&token), Some(json!({}))).await;
        assert_eq!((status, e["code"].as_str().unwrap()), want, "{path}: {e}");
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    }
    let (status, e) = http(addr, "POST", "/api/lessons/roborally/1", None, Some(json!({}))).await;
    assert_eq!(status, 401, "{e}");
    // Nothing was created by the refusals.
    let (_, list) = http(addr, "GET", "/api/games", None, None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(0), "{list}");
}

/// The next lesson frame, skipping everything else.
async fn lesson_frame(c: &mut Client) -> (Value, Value) {
    loop {
        if let ServerMsg::Lesson { lesson, status } = c.recv().await {
            return (lesson, status);
        }
    }
}

async fn start(addr: std::net::SocketAddr, token: &str, game: &str, n: usize) -> Value {
    let (status, g) =
        http(addr, "POST", &format!("/api/lessons/{game}/{n}"), Some(token), Some(json!({}))).await;
    assert_eq!(status, 201, "{g}");
    g
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_is_a_practice_game_whose_goal_the_server_checks() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let lesson = scenario::lessons::get("roborally", 1).unwrap();
    let g = start(addr, &token, "roborally", 1).await;
    assert_eq!(g["practice"], true, "{g}");
    assert_eq!(g["status"], "running", "{g}");
    assert_eq!(g["seats"][0]["name"], "Ann", "{g}");
    let id = g["id"].as_str().unwrap();
    let mut c = Client::connect(addr, id, Some(&token)).await;
    match c.recv().await {
        ServerMsg::Welcome { practice, seats, .. } => assert!(practice && seats == [0]),
        other => panic!("{other:?}"),
    }
    let (brief, status) = lesson_frame(&mut c).await;
    assert_eq!(
        (brief["title"].as_str(), brief["number"].as_u64()),
        (Some(lesson.title.as_str()), Some(1))
    );
    assert!(
        brief["hints"].as_array().is_some_and(|h| !h.is_empty()) && brief.get("solution").is_none()
    );
    assert_eq!(status, json!({"status": "playing"}));
    // The program the lesson's rules call for (RR-5.2: Move 3 and Move 1 to the flag).
    let action = lesson.solution[0].clone();
    let mut action = action.as_object().unwrap().clone();
    action.remove("seat");
    c.send(&ClientMsg::Act { seat: None, action: Value::Object(action), id: Some(1) }).await;
    let (_, status) = lesson_frame(&mut c).await;
    assert_eq!(status["status"], "complete", "{status}");
    assert_eq!(status["message"], lesson.complete.as_str());
    // A second connection (a reload) is told the lesson is complete right after its welcome.
    let mut again = Client::connect(addr, id, Some(&token)).await;
    let (_, status) = lesson_frame(&mut again).await;
    assert_eq!(status["status"], "complete");
    // A normal game never gets a lesson frame, even a practice one on the same course.
    let (st, other) = http(addr, "POST", "/api/games", Some(&token), Some(json!({"game": "roborally", "seats": ["me", "bot:random"], "practice": true, "seed": lesson.seed}))).await;
    assert_eq!(st, 201, "{other}");
    let mut n = Client::connect(addr, other["id"].as_str().unwrap(), Some(&token)).await;
    assert!(matches!(n.recv().await, ServerMsg::Welcome { .. }));
    n.ping().await; // the welcome's frames are all in: a lesson frame would have come before
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_goal_says_what_went_wrong_and_a_new_try_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Bo").await;
    let lesson = scenario::lessons::get("autoscooter", 1).unwrap();
    let g = start(addr, &token, "autoscooter", 1).await;
    let mut c = Client::connect(addr, g["id"].as_str().unwrap(), Some(&token)).await;
    let (_, status) = lesson_frame(&mut c).await;
    assert_eq!(status["status"], "playing");
    // AS-3.2: C drives one hex, not the two the goal needs; the bot plays the other car.
    c.send(&ClientMsg::Act {
        seat: None,
        action: json!({"type": "plot", "car": 0, "number": 1, "letter": "C"}),
        id: Some(1),
    })
    .await;
    let (_, status) = lesson_frame(&mut c).await;
    assert_eq!(status["status"], "failed", "{status}");
    assert_eq!(status["message"], lesson.fail[0].say.as_str());
    // Try again: a new game of the same lesson, playing again.
    let again = start(addr, &token, "autoscooter", 1).await;
    assert_ne!(again["id"], g["id"]);
    let mut c = Client::connect(addr, again["id"].as_str().unwrap(), Some(&token)).await;
    let (_, status) = lesson_frame(&mut c).await;
    assert_eq!(status["status"], "playing");
}
