//! A hostile creator on loopback (issue 14, "Bot work and seeds" in docs/security.md): bot
//! budgets above the server's ceiling are refused with the error object and create nothing; a
//! bot decision stops at the ceiling whatever its budget; one game's many expensive bots do not
//! starve another game's bot; a normal game cannot choose its seed; a practice game can, and is
//! marked as such; the seed of a game appears in no answer and no frame before it has finished,
//! and in its replay after.

use crate::support::*;
use protocol::ServerMsg;
use serde_json::{Value, json};
use std::sync::atomic::Ordering::Relaxed;

async fn games(addr: std::net::SocketAddr) -> Vec<Value> {
    let (status, list) = http(addr, "GET", "/api/games", None, None).await;
    assert_eq!(status, 200);
    list.as_array().expect("a list").clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_budget_bots_are_refused_with_the_error_object_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let defaults = server::Config::default();
    let over_sims = format!("bot:search:{}", defaults.max_bot_simulations + 1);
    let over_ms = format!("bot:search:{}ms", defaults.max_bot_ms + 1);
    for (game, bot) in [
        ("autoscooter", "bot:search:4294967295"),
        ("roborally", "bot:search:4294967295ms"),
        ("bumping-bots", over_sims.as_str()),
        ("autoscooter", over_ms.as_str()),
        // Root parallelism (`search:NxT`) is for the CLI: a server's bot thinks on one thread.
        ("bumping-bots", "bot:search:100x2"),
    ] {
        let body = json!({"game": game, "seats": ["me", bot]});
        let (status, err) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
        assert_eq!(status, 400, "{bot}: {err}");
        assert_eq!(err["code"], "bot_too_strong", "{err}");
        let message = err["message"].as_str().expect("a message");
        assert!(message.contains("at most"), "{message}");
        assert_eq!(err.as_object().unwrap().len(), 2, "exactly {{code, message}}: {err}");
    }
    // A budget past u32 is not a budget at all.
    let body = json!({"game": "autoscooter", "seats": ["me", "bot:search:4294967296"]});
    let (status, err) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_seat")), "{err}");
    assert!(games(addr).await.is_empty(), "a refused creation creates nothing");
    // At the ceilings exactly: accepted (left open, so no bot thinks in this test).
    let at = json!({"game": "autoscooter", "seats": [
        "me", "open",
        format!("bot:search:{}", defaults.max_bot_simulations),
        format!("bot:search:{}ms", defaults.max_bot_ms),
    ]});
    let (status, info) = http(addr, "POST", "/api/games", Some(&ann), Some(at)).await;
    assert_eq!(status, 201, "{info}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_decision_stops_at_the_ceiling_whatever_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    // 100,000 RoboRally rollouts take about 18 s (docs/bots.md: 54 ms per 300); the ceiling
    // is 100 ms.
    let server = start_server(&dir, |c| c.max_bot_ms = 100).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let body = json!({"game": "roborally", "seats": ["me", "bot:search:100000"]});
    let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap();
    let mut c = Client::connect(addr, id, Some(&ann)).await;
    let started = std::time::Instant::now();
    loop {
        if let ServerMsg::Update { waiting, .. } = c.recv().await
            && waiting == vec![0]
        {
            break; // the bot has programmed: only Ann owes her program
        }
    }
    let took = started.elapsed();
    assert_eq!(shared.metrics.bot_stopped.load(Relaxed), 1, "stopped at the ceiling");
    assert!(took < std::time::Duration::from_secs(10), "the bot took {took:?}");
    server.shutdown().await;
}

/// One worker; game A has six bots that each think for the whole ceiling, game B one random bot
/// created while A's bots are queued. B's bot waits for at most one of A's decisions (the one
/// queued before it), never for all of them: the most decisions given a worker while one waited
/// is 1 (with a shared FIFO queue and no per-game lane it would be A's five queued bots).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_expensive_bots_do_not_starve_another_games_bot() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.bot_workers = 1;
        c.max_bot_ms = 150;
    })
    .await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let busy = json!({"game": "autoscooter", "seats": vec!["bot:search:150ms"; 6]});
    let (status, a) = http(addr, "POST", "/api/games", Some(&ann), Some(busy)).await;
    assert_eq!(status, 201, "{a}");
    // Wait (on frames, not on time) until A's first bot has decided: its other five are queued.
    let mut watch_a = Client::connect(addr, a["id"].as_str().unwrap(), None).await;
    while !matches!(watch_a.recv().await, ServerMsg::Update { .. }) {}
    let bob = guest(addr, "Bob").await;
    let cheap = json!({"game": "autoscooter", "seats": ["me", "bot:random"]});
    let (status, b) = http(addr, "POST", "/api/games", Some(&bob), Some(cheap)).await;
    assert_eq!(status, 201, "{b}");
    let mut c = Client::connect(addr, b["id"].as_str().unwrap(), Some(&bob)).await;
    let a_before = shared.metrics.bot_actions.load(Relaxed);
    // B's bot's first move: Bob does nothing, so B's first update is his bot's.
    while !matches!(c.recv().await, ServerMsg::Update { .. }) {}
    let decided_meanwhile = shared.metrics.bot_actions.load(Relaxed) - a_before;
    let overtaken = shared.metrics.bot_overtaken_max.load(Relaxed);
    assert!(overtaken <= 1, "a bot decision waited while {overtaken} others got the worker");
    // B's own move, the one A had thinking when B was created, and at most one more.
    assert!(decided_meanwhile <= 3, "{decided_meanwhile} bot moves before B's bot moved");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_practice_game_chooses_its_seed_and_everyone_sees_it_is_practice() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let chosen = json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 42});
    let (status, err) = http(addr, "POST", "/api/games", Some(&ann), Some(chosen)).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "seed_not_allowed");
    let chosen =
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 42, "practice": false});
    let (status, _) = http(addr, "POST", "/api/games", Some(&ann), Some(chosen)).await;
    assert_eq!(status, 400);
    assert!(games(addr).await.is_empty(), "a refused creation creates nothing");

    let practice =
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 42, "practice": true});
    let (status, p) = http(addr, "POST", "/api/games", Some(&ann), Some(practice)).await;
    assert_eq!(status, 201, "{p}");
    assert_eq!(p["practice"], true);
    let normal = json!({"game": "autoscooter", "seats": ["me", "open"]});
    let (status, n) = http(addr, "POST", "/api/games", Some(&ann), Some(normal)).await;
    assert_eq!(status, 201, "{n}");
    assert_eq!(n["practice"], false);
    // Shown to anyone: the game's info (no identity needed) and the lobby list.
    for (g, practice) in [(&p, true), (&n, false)] {
        let id = g["id"].as_str().unwrap();
        let (_, info) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(info["practice"], practice);
        let listed = games(addr).await.into_iter().find(|l| l["id"] == id).expect("listed");
        assert_eq!(listed["practice"], practice);
        // At the table: the welcome tells the seat and a spectator, on connect and on `sync`.
        let start = format!("/api/games/{id}/start");
        let (status, body) = http(addr, "POST", &start, Some(&ann), Some(json!({}))).await;
        assert_eq!(status, 200, "{body}");
        for token in [Some(ann.as_str()), None] {
            let mut c = Client::connect(addr, id, token).await;
            for _ in 0..2 {
                let welcome = loop {
                    match c.recv().await {
                        ServerMsg::Welcome { practice, seats, .. } => break (practice, seats),
                        ServerMsg::Update { .. } | ServerMsg::Presence { .. } => {}
                        other => panic!("expected a welcome, got {other:?}"),
                    }
                };
                assert_eq!(welcome.0, practice, "{id} seats {:?}", welcome.1);
                assert_eq!(welcome.1.is_empty(), token.is_none());
                c.send(&protocol::ClientMsg::Sync).await;
            }
            c.close().await;
        }
    }
    server.shutdown().await;
}

/// Play `body`'s game to the end as Ann; every response and frame seen before the end must
/// not carry the seed, the replay after it must. Returns the revealed seed.
async fn seed_hidden_until_the_end(body: Value) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    // The oracle answers as fast as the random bot: no rate limit in the way.
    let server = start_server(&dir, |c| c.rate = 100_000).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut before = vec![g.to_string()];
    let (status, replay) = http(addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(status, 409, "no replay while it runs: {replay}");
    before.push(replay.to_string());
    for path in [format!("/api/games/{id}"), format!("/api/games/{id}/steps"), "/api/games".into()]
    {
        let (status, v) = http(addr, "GET", &path, Some(&ann), None).await;
        assert_eq!(status, 200, "{path}: {v}");
        before.push(v.to_string());
    }
    let mut spectator = Client::connect(addr, &id, None).await;
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    play(&mut c, &shared, &id, 0, 9).await;
    while !matches!(spectator.recv().await, ServerMsg::Over { .. }) {}
    before.extend(c.frames.iter().cloned());
    before.extend(spectator.frames.iter().cloned());

    let (status, replay) = http(addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(status, 200, "{replay}");
    let seed = replay["seed"].as_u64().expect("the replay reveals the seed");
    let stored = shared.store.game(&id).await.unwrap().unwrap().seed;
    assert_eq!(seed, stored);
    for text in &before {
        assert!(!text.contains("\"seed\""), "a seed field before the end: {text:.300}");
        assert!(!text.contains(&seed.to_string()), "the seed's value before the end: {text:.300}");
    }
    server.shutdown().await;
    seed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_is_revealed_with_the_replay_only_when_the_game_has_finished() {
    let normal = json!({"game": "autoscooter", "seats": ["me", "bot:random"]});
    let a = seed_hidden_until_the_end(normal.clone()).await;
    let b = seed_hidden_until_the_end(normal).await;
    assert_ne!(a, b, "two games drew the same 64-bit seed from the operating system");
    let practice = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 271828, "practice": true});
    assert_eq!(seed_hidden_until_the_end(practice).await, 271828);
}

/// Bots searching with a budget of a minute (and a ceiling raised to match) stop within
/// moments of the server's shutdown: their blocking work is cancelled, not waited for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_cancels_bots_thinking() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.bot_workers = 2;
        c.max_bot_ms = 60_000;
        c.max_bot_simulations = u32::MAX;
    })
    .await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let seats = json!(["bot:search:60000ms", "bot:search:4294967295"]);
    for game in ["roborally", "autoscooter"] {
        let body = json!({"game": game, "seats": seats});
        let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
        assert_eq!(status, 201, "{g}");
    }
    let thinking = || shared.metrics.bots_thinking.load(Relaxed);
    let t0 = std::time::Instant::now();
    while thinking() < 2 {
        assert!(t0.elapsed() < STEP, "the bots never started thinking");
        tokio::task::yield_now().await;
    }
    let stopping = std::time::Instant::now();
    server.shutdown().await;
    while thinking() > 0 {
        assert!(stopping.elapsed() < std::time::Duration::from_secs(5), "bots still thinking");
        tokio::task::yield_now().await;
    }
    assert!(shared.metrics.bot_stopped.load(Relaxed) >= 2);
}
