use crate::support::*;
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

fn has_secret(frame: &str) -> bool {
    let v: Value = serde_json::from_str(frame).expect("json");
    let plots_shown = v["view"]["plots"].as_array().is_some_and(|p| !p.is_empty());
    let secret_events = v["events"].as_array().is_some_and(|es| {
        es.iter().any(|e| {
            matches!(e["type"].as_str(), Some("plotted" | "wild_plotted" | "auto_plotted"))
        })
    });
    plots_shown || secret_events
}

/// Two humans and a bot play a whole game over WebSocket; one human reconnects in the middle of
/// planning and gets its own plot back; a spectator never sees a plot; the replay is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_game_two_humans_a_bot_a_reconnect_and_a_spectator() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let (status, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(json!({
            "game": "autoscooter", "seats": ["me", "open", "bot:random"], "seed": 7, "practice": true
        })),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["status"], "open");
    assert_eq!(g["invite"], format!("/games/{id}"));
    // Not started: no socket yet.
    let (status, _) = http(addr, "POST", &format!("/api/games/{id}/start"), Some(&bob), None).await;
    assert_eq!(status, 403, "only the creator starts");
    let (status, g) = http(addr, "POST", &format!("/api/games/{id}/join"), Some(&bob), None).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["status"], "running", "full: started");
    assert_eq!(g["seats"][1]["name"], "Bob");
    // The invite grants no seat that is taken.
    let eve = guest(addr, "Eve").await;
    let (status, e) =
        http(addr, "POST", &format!("/api/games/{id}/join"), Some(&eve), Some(json!({"seat": 0})))
            .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("not_open")));
    let (status, list) = http(addr, "GET", "/api/games?status=running", None, None).await;
    assert_eq!(status, 200);
    assert!(list.as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));

    let mut spectator = Client::connect(addr, &id, None).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    // Ann commits one plot, then loses her connection in the middle of planning.
    let (seq, waiting, first_static_id) = match a.recv().await {
        ServerMsg::Welcome { seats, seq, waiting, static_id, static_data, view, .. } => {
            assert_eq!(seats, vec![0]);
            // The static part comes once, with the welcome: the rink and the chart (AS-3.2),
            // and the view does not repeat them.
            let st = static_data.expect("the welcome of a new connection carries the static part");
            assert_eq!(st["board"]["cells"].as_array().map(Vec::len), Some(38));
            assert_eq!(st["chart"].as_array().map(Vec::len), Some(16));
            assert!(view.get("board").is_none() && view.get("chart").is_none(), "{view}");
            (seq, waiting, static_id)
        }
        other => panic!("{other:?}"),
    };
    assert!(waiting.contains(&0));
    let mut rng = engine::Rng::seeded(1);
    let action = oracle(&shared, &id, seq, 0, &mut rng).await;
    a.send(&ClientMsg::Act { seat: None, action: action.clone(), id: Some(1) }).await;
    loop {
        match a.recv().await {
            ServerMsg::Ack { id, .. } => {
                assert_eq!(id, Some(1));
                break;
            }
            ServerMsg::Update { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    a.close().await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    match a.recv().await {
        ServerMsg::Welcome { view, static_id, .. } => {
            assert_eq!(static_id, first_static_id, "the same game, the same static id");
            let plots = view["plots"].as_array().expect("plots");
            assert!(
                plots.iter().any(|p| p["car"] == action["car"] && p["number"] == action["number"]),
                "her committed plot {action} is in her view again: {view}"
            );
        }
        other => panic!("{other:?}"),
    }
    // `sync` gives it again, without the static part (this connection has it already) …
    a.send(&ClientMsg::Sync).await;
    match a.recv().await {
        ServerMsg::Welcome { static_data, static_id, .. } => {
            assert!(static_data.is_none());
            assert_eq!(static_id, first_static_id);
        }
        other => panic!("{other:?}"),
    }
    a.send(&ClientMsg::Sync).await; // … and play resumes from there
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    let (sa, sb) = (shared.clone(), shared.clone());
    let (ida, idb) = (id.clone(), id.clone());
    let ta = tokio::spawn(async move { (play(&mut a, &sa, &ida, 0, 11).await, a) });
    let tb = tokio::spawn(async move { (play(&mut b, &sb, &idb, 1, 12).await, b) });
    let (oa, a) = ta.await.unwrap();
    let (ob, b) = tb.await.unwrap();
    assert_eq!(oa, ob);
    // The spectator saw the whole game and never a plot.
    let mut over = None;
    for _ in 0..10_000 {
        if let ServerMsg::Over { outcome } = spectator.recv().await {
            over = Some(outcome);
            break;
        }
    }
    assert_eq!(over.as_ref(), Some(&oa));
    assert!(spectator.frames.len() > 20);
    for f in &spectator.frames {
        assert!(!has_secret(f), "a spectator saw a plot: {f}");
    }
    // The players did see their own plots (so the check above can fail).
    assert!(a.frames.iter().any(|f| has_secret(f)) && b.frames.iter().any(|f| has_secret(f)));

    let (status, r) = http(addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["outcome"], oa);
    assert!(r["log"].as_array().unwrap().len() > 20);
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished");
    let (status, m) = http(addr, "GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    assert!(m.as_str().unwrap().contains("robodrome_action_latency_seconds_count"));
    server.shutdown().await;
}

/// Every kind of bad message gets a typed error, changes nothing, and the connection stays usable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_typed_errors_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let body = json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 3, "practice": true});
    let id = create_game(addr, &ann, body).await;
    let (status, _) = http(addr, "GET", &format!("/ws/games/{id}"), None, None).await;
    assert_ne!(status, 101, "not started: no socket");
    join(addr, &id, &bob).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let seq0 = match a.recv().await {
        ServerMsg::Welcome { seq, .. } => seq,
        other => panic!("{other:?}"),
    };
    // AS-1.3: the cars are drawn by lots from the seed; one of Bob's (seat 1).
    let bobs = replayed(&shared, &id, seq0)
        .await
        .cars()
        .find(|c| c.owner == Some(engine::Seat(1)))
        .map(|c| c.id)
        .expect("Bob drives cars");
    let cases: Vec<(Message, &str)> = vec![
        (Message::Text("{not json".into()), "malformed"),
        (Message::Text("[1,2]".into()), "malformed"),
        (
            Message::Text(
                format!(r#"{{"v":1,"type":"ping","pad":"{}"}}"#, "x".repeat(70_000)).into(),
            ),
            "too_large",
        ),
        (Message::Text(r#"{"type":"ping"}"#.into()), "unsupported_version"),
        (Message::Text(r#"{"v":1,"type":"teleport"}"#.into()), "unknown_type"),
        (Message::Text(r#"{"v":1,"type":"act"}"#.into()), "bad_message"),
        (Message::Text(r#"{"v":1,"type":"act","action":{"type":"fly"}}"#.into()), "bad_action"),
        (Message::Binary(vec![1, 2, 3].into()), "binary_not_supported"),
        // Seat 1 is Bob's.
        (
            Message::Text(
                format!(
                    r#"{{"v":1,"type":"act","seat":1,"action":{{"type":"plot","car":{bobs},"number":2}}}}"#
                )
                .into(),
            ),
            "not_your_seat",
        ),
    ];
    for (m, code) in cases {
        a.send_raw(m).await;
        assert_eq!(a.error().await.0, code);
        a.ping().await;
    }
    // Bob's car, in Ann's name: the rules refuse it.
    a.send(&ClientMsg::Act {
        seat: None,
        action: json!({"type":"plot","car":bobs,"number":2}),
        id: Some(9),
    })
    .await;
    assert_eq!(a.error().await, ("illegal_action".into(), Some("not_your_car".into())));
    // Out of turn: Ann plots all her cars, then plots again.
    let mut rng = engine::Rng::seeded(5);
    let mut seq = seq0;
    loop {
        let g = replayed(&shared, &id, seq).await;
        use engine::Game;
        if !g.decision().is_some_and(|d| d.owes(engine::Seat(0))) {
            break;
        }
        let action = oracle(&shared, &id, seq, 0, &mut rng).await;
        a.send(&ClientMsg::Act { seat: Some(0), action, id: None }).await;
        loop {
            if let ServerMsg::Ack { seq: s, .. } = a.recv().await {
                seq = s;
                break;
            }
        }
    }
    a.send(&ClientMsg::Act {
        seat: None,
        action: json!({"type":"take","colours":{}}),
        id: Some(10),
    })
    .await;
    let (code, rule) = a.error().await;
    assert_eq!(code, "illegal_action");
    assert_eq!(rule.as_deref(), Some("not_your_decision"));
    // A spectator cannot act.
    let mut s = Client::connect(addr, &id, None).await;
    s.recv().await;
    s.send(&ClientMsg::Act {
        seat: Some(0),
        action: json!({"type":"plot","car":0,"number":1}),
        id: None,
    })
    .await;
    assert_eq!(s.error().await.0, "not_a_player");
    // Nothing changed: the log holds exactly Ann's accepted plots.
    a.send(&ClientMsg::Sync).await;
    loop {
        if let ServerMsg::Welcome { seq: s, .. } = a.recv().await {
            assert_eq!(s, seq);
            break;
        }
    }
    assert_eq!(shared.store.log(&id).await.unwrap().len() as u64, seq);
    // Rate limit: a flood over a real socket gets `rate_limited`.
    for _ in 0..60 {
        a.send(&ClientMsg::Ping).await;
    }
    let mut limited = false;
    for _ in 0..60 {
        match a.recv().await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code.as_str(), "rate_limited");
                limited = true;
            }
            ServerMsg::Pong => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(limited); // the refill is timed on a paused clock: paused.rs
    // HTTP errors are typed too.
    let (status, e) = http(
        addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(json!({"game": "chess", "seats": ["me"]})),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("unknown_game")));
    let (status, e) = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "autoscooter", "seats": ["me"]})),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (401, Some("unauthorized")));
    let (status, e) = http(addr, "POST", "/api/games", Some(&ann), Some(json!({"game": "autoscooter", "seats": ["me", "open", "open", "open", "open", "open", "open", "open", "open"]}))).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_setup")));
    let (status, e) = http(addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!((status, e["code"].as_str()), (409, Some("not_finished")));
    server.shutdown().await;
}

// The grace period and the planning timer: paused.rs, on tokio's paused clock.
