//! Two cluster nodes sharing Redis (docs/deployment.md "What the nodes share through Redis"):
//! a spectator on a node that does not own the game is served there from the game's public
//! channel, and chat, presence, "your move", the lobby's version and quotas reach every node.
//! Skipped with a message when `ROBODROME_TEST_PG` or `ROBODROME_TEST_REDIS` is not set
//! (scripts/services start). Each test has its own schema and its own Redis prefix.

use crate::support::*;
use engine::{Game, Observer};
use futures_util::StreamExt;
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use server::bus::RedisConfig;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Every message published under the prefix, as the test's own subscriber heard it.
async fn listen(rc: &RedisConfig) -> Arc<Mutex<Vec<(String, String)>>> {
    let client = redis::Client::open(rc.url.as_str()).unwrap();
    let mut ps = client.get_async_pubsub().await.unwrap();
    ps.psubscribe(format!("{}:*", rc.prefix)).await.unwrap();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let h = heard.clone();
    tokio::spawn(async move {
        let mut s = ps.into_on_message();
        while let Some(m) = s.next().await {
            let p = String::from_utf8_lossy(m.get_payload_bytes()).into_owned();
            h.lock().unwrap().push((m.get_channel_name().to_string(), p));
        }
    });
    heard
}

/// Whether a frame shows a plot (Autoscooter's secret, AS-4) or an event only a seat may see.
fn shows_secrets(frame: &Value) -> bool {
    let plots = frame["view"]["plots"].as_array().is_some_and(|p| !p.is_empty());
    let private = frame["events"].as_array().is_some_and(|es| {
        es.iter().any(|e| {
            e.get("private").is_some()
                || matches!(e["type"].as_str(), Some("plotted" | "wild_plotted" | "auto_plotted"))
        })
    });
    plots || private || frame["seats"].as_array().is_some_and(|s| !s.is_empty())
}

/// The engine's spectator view after `seq` entries of the stored log.
async fn spectator_view(shared: &Arc<server::Shared>, id: &str, seq: u64) -> Value {
    serde_json::to_value(replayed(shared, id, seq).await.view(Observer::Spectator)).unwrap()
}

/// A game on node A played to its end by two players on A; a spectator on node B is served
/// by B (not forwarded): it receives a welcome and then every step in order, each view equal
/// to the engine's spectator view at that step, and the result. Every message on Redis is
/// checked too: game channels carry only spectators' frames (no plot, no private event, no
/// seat's welcome), each equal to the engine's spectator view at its step. With direct writes
/// (`serve --direct-writes true`) the relay on B writes the frames into the spectator's socket
/// itself: a relay that forgot to kick the connection would leave it starving (the test times
/// out at the step it stopped at).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_on_another_node_sees_every_public_frame_and_no_secret() {
    a_spectator_on_another_node(true).await;
}

/// The same with direct writes off: the relay wakes the connection's loop, which writes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_on_another_node_sees_every_frame_without_direct_writes() {
    a_spectator_on_another_node(false).await;
}

async fn a_spectator_on_another_node(direct_writes: bool) {
    let tag = if direct_writes { "fanout::fanout" } else { "fanout::fanout_woken" };
    let Some((a, b, nodes)) = two_nodes(tag, true, |c| c.direct_writes = direct_writes).await
    else {
        return;
    };
    let rc = nodes.redis.clone().expect("redis");
    let heard = listen(&rc).await;
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open", "bot:random"], "seed": 7, "practice": true}),
    )
    .await;
    let mut spectator = Client::connect(b.addr, &id, None).await;
    let first = match spectator.recv().await {
        ServerMsg::Welcome { seq, seats, static_data, .. } => {
            assert!(seats.is_empty());
            assert!(static_data.is_some(), "a relay's first welcome has the static part");
            seq
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(b.shared.metrics.forwarded.load(std::sync::atomic::Ordering::Relaxed), 0);
    assert!(!b.shared.relays.is_empty(), "served by a relay on B");
    let mut ann_c = Client::connect(a.addr, &id, Some(&ann)).await;
    let mut bob_c = Client::connect(a.addr, &id, Some(&bob)).await;
    let shared = a.shared.clone();
    let (oa, ob) =
        tokio::join!(play(&mut ann_c, &shared, &id, 0, 21), play(&mut bob_c, &shared, &id, 1, 22));
    assert_eq!(oa, ob);
    let end = shared.store.log(&id).await.unwrap().len() as u64;

    // The spectator on B: every step from its welcome to the end, in order, then the result.
    let mut at = first;
    let mut over = None;
    while over.is_none() {
        match tokio::time::timeout(Duration::from_secs(10), spectator.recv()).await {
            Ok(ServerMsg::Update { seq, .. }) => {
                assert_eq!(seq, at + 1, "steps in order, none missing");
                at = seq;
            }
            Ok(ServerMsg::Welcome { seq, .. }) => at = seq,
            Ok(ServerMsg::Over { outcome }) => over = Some(outcome),
            Ok(_) => {}
            Err(_) => panic!("the spectator on B stopped at step {at} of {end}"),
        }
    }
    assert_eq!(at, end, "the spectator saw the last step");
    assert_eq!(over, Some(oa));
    let mut checked = 0;
    for f in &spectator.frames {
        let v: Value = serde_json::from_str(f).unwrap();
        if matches!(v["type"].as_str(), Some("welcome" | "update")) {
            assert!(!shows_secrets(&v), "a secret reached the spectator: {f}");
            let seq = v["seq"].as_u64().unwrap();
            assert_eq!(v["view"], spectator_view(&shared, &id, seq).await, "step {seq}");
            checked += 1;
        }
    }
    assert!(checked as u64 > end - first, "{checked} frames checked for {end} steps");

    // What went over Redis.
    let heard = heard.lock().unwrap().clone();
    let game_channel = format!("{}:g:{id}", rc.prefix);
    let mut updates = 0;
    for (channel, payload) in &heard {
        assert!(!payload.contains("\"private\""), "a private event on Redis: {payload}");
        if *channel != game_channel {
            continue;
        }
        let (head, frame) = payload.split_once('\n').expect("KIND SEQ\\nFRAME");
        let v: Value = serde_json::from_str(frame).unwrap();
        assert!(!shows_secrets(&v), "a secret on Redis: {payload}");
        match head.split_once(' ') {
            Some(("W" | "U", seq)) => {
                let seq: u64 = seq.parse().unwrap();
                assert_eq!(v["view"], spectator_view(&shared, &id, seq).await, "on Redis: {seq}");
                updates += usize::from(head.starts_with('U'));
            }
            Some(("M", _)) => assert!(
                matches!(v["type"].as_str(), Some("presence" | "over" | "lesson" | "rematch")),
                "{payload}"
            ),
            _ => panic!("unknown message {payload}"),
        }
    }
    assert!(updates as u64 >= end, "every step was published once ({updates} for {end})");
    spectator.close().await;
    a.shutdown().await;
    b.shutdown().await;
}

/// Chat across nodes: a line a player says on node A (where the game runs) reaches a
/// spectator on node B; a line said through the HTTP call on node B reaches the player's
/// socket on A, and both nodes list both lines, numbered alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_reach_every_node() {
    let Some((a, b, _)) = two_nodes("fanout::chat", true, |_| {}).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    let carl = guest(b.addr, "Carl").await;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 2, "practice": true}),
    )
    .await;
    let mut ann_c = Client::connect(a.addr, &id, Some(&ann)).await;
    let mut carl_c = Client::connect(b.addr, &id, Some(&carl)).await;
    assert!(matches!(carl_c.recv().await, ServerMsg::Welcome { .. }));
    ann_c.send(&ClientMsg::Chat { text: "hello from A".into() }).await;
    let seen = until_line(&mut carl_c, "hello from A").await;
    assert_eq!(seen.last().unwrap().name, "Ann");
    let path = format!("/api/games/{id}/chat");
    let (status, v) =
        http(b.addr, "POST", &path, Some(&bob), Some(json!({"text": "hi from B"}))).await;
    assert!(status == 200 || status == 201, "{status} {v}");
    until_line(&mut ann_c, "hi from B").await;
    let (_, on_a) = http(a.addr, "GET", &path, Some(&ann), None).await;
    let (_, on_b) = http(b.addr, "GET", &path, Some(&ann), None).await;
    let texts = |v: &Value| -> Vec<(String, u64)> {
        v["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["text"].as_str().unwrap().to_string(), l["n"].as_u64().unwrap()))
            .collect()
    };
    let want = vec![("hello from A".to_string(), 1), ("hi from B".to_string(), 2)];
    assert_eq!(texts(&on_a), want);
    assert_eq!(texts(&on_b), want);
    a.shutdown().await;
    b.shutdown().await;
}

/// Presence, "your move", the lobby's ETag and the games quota across nodes: a player whose
/// socket is open on A is online and owes a move as node B answers; a game created on A changes
/// the lobby ETag B answers; the games quota counts games made on either node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_your_move_lobby_and_quotas_are_shared() {
    let Some((a, b, _)) =
        two_nodes("fanout::shared", true, |c| c.limits.games_per_window = 3).await
    else {
        return;
    };
    let ann = member(a.addr, "Ann").await;
    let bob = member(a.addr, "Bob").await;
    let (_, me) = http(a.addr, "GET", "/api/account", Some(&ann), None).await;
    let ann_id = me["id"].as_str().expect("id").to_string();
    let etag = |addr| async move {
        let (_, h, _) = crate::limits::raw(addr, "GET", "/api/games", &[], None).await;
        crate::limits::header(&h, "etag").expect("an ETag").to_string()
    };
    let before = etag(b.addr).await;
    let id =
        joined_game(a.addr, &ann, &bob, json!({"game": "autoscooter", "seats": ["me", "open"]}))
            .await;
    // The lobby: B's ETag changes once A's change is heard.
    let t0 = Instant::now();
    while etag(b.addr).await == before {
        assert!(t0.elapsed() < Duration::from_secs(3), "B's lobby ETag never changed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut ann_c = Client::connect(a.addr, &id, Some(&ann)).await;
    assert!(matches!(ann_c.recv().await, ServerMsg::Welcome { .. }));
    // Presence and "your move" as B answers (nobody asked B anything as Ann).
    let t0 = Instant::now();
    loop {
        let (_, p) = http(b.addr, "GET", &format!("/api/players/{ann_id}"), Some(&bob), None).await;
        let (_, g) = http(b.addr, "GET", "/api/me/games", Some(&bob), None).await;
        if p["online"] == json!(true) && g["your_move"] == json!(1) {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(3), "B never learnt: {p} {g}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The games quota (3 per window): one made on A above, two more on B, the next refused on A.
    for _ in 0..2 {
        create_game(b.addr, &ann, json!({"game": "autoscooter", "seats": ["me", "open"]})).await;
    }
    let (status, v) = http(
        a.addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(json!({"game": "autoscooter", "seats": ["me", "open"]})),
    )
    .await;
    assert_eq!(status, 429, "{v}");
    a.shutdown().await;
    b.shutdown().await;
}
