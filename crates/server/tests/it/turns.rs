//! Turn-based games (docs/platform.md "Turn-based clocks"): a day per decision on tokio's
//! paused clock (over the in-memory store), and the stored deadline over restarts of a real
//! server on an SQLite file.

use crate::support::{Client, http, in_memory, member, start_server};
use engine::{LogEntry, Observer};
use protocol::{CreateGame, ServerMsg};
use serde_json::json;
use server::Shared;
use server::store::{Identity, SqliteStore, Store};
use server::turns::{ClockSpec, now_ms};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

const DAY: u32 = 86_400;

async fn identity(shared: &Arc<Shared>, name: &str) -> Identity {
    let g = shared.guest(name).await.expect("guest");
    shared.identity(&g.token).await.expect("store").expect("identity")
}

/// Ann never connects to her turn-based Autoscooter game against a bot: nobody stands in for
/// her after the (real-time) grace period; exactly one day after the decision began, the
/// engine's `time_up` decides for her (a `time_up` entry in the log), and the next decision
/// gets a fresh day, stored with who owes it.
#[tokio::test(start_paused = true)]
async fn a_turn_based_game_times_out_after_exactly_its_day() {
    let (shared, _stop) = in_memory(|_| {});
    let ann = identity(&shared, "Ann").await;
    let req: CreateGame = serde_json::from_value(
        json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 3, "practice": true}),
    )
    .unwrap();
    let t0 = Instant::now();
    let clock = ClockSpec { per_move_secs: DAY };
    let id = shared.create_game_with(&ann, req, Some(clock), None).await.expect("created").id;
    let mut watch = shared.watch(&id, Observer::Spectator).await.expect("watch");
    let timed_out = loop {
        let f = watch.rx.recv().await.expect("the game runs");
        match ServerMsg::from_frame(&f).unwrap() {
            ServerMsg::Presence { seat: 0, bot: true, .. } => {
                panic!("a bot stood in for Ann after {:?}", t0.elapsed())
            }
            // The timeout's own events are Ann's secret: the stored log says what happened.
            ServerMsg::Update { seq, .. } => {
                let log = shared.store.log(&id).await.unwrap();
                if matches!(log.get(seq as usize - 1), Some(LogEntry::TimeUp)) {
                    break t0.elapsed();
                }
            }
            ServerMsg::Over { .. } => panic!("the game ended without a timeout"),
            _ => {}
        }
    };
    let day = Duration::from_secs(DAY.into());
    assert!(
        timed_out >= day && timed_out <= day + Duration::from_millis(2),
        "timed out after {timed_out:?}"
    );
    // The next decision's clock is stored: a fresh day from now (the wall clock), Ann owes it.
    let stored = shared.store.platform().turn_clock(&id).await.unwrap().expect("a clock");
    assert_eq!(stored.per_move_secs, DAY);
    if !stored.waiting.is_empty() {
        let due = stored.due_ms.expect("a deadline while a decision is owed");
        let left = due - now_ms();
        assert!(left > i64::from(DAY) * 1000 - 60_000 && left <= i64::from(DAY) * 1000, "{left}");
    }
    let turns = shared.turns(&ann).await.unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].your_move, stored.waiting.contains(&0));
}

/// The welcome's clock in milliseconds.
async fn time_left(c: &mut Client) -> (u64, u64) {
    loop {
        if let ServerMsg::Welcome { time_left_ms, seq, .. } = c.recv().await {
            return (time_left_ms.expect("a clock runs"), seq);
        }
    }
}

/// Stop a server and wait until its last handle is gone (its game and connection tasks end
/// just after it stops; then the database file's one-server lock is free again).
async fn stop(server: server::Server) {
    let shared = Arc::downgrade(&server.shared);
    server.shutdown().await;
    for _ in 0..2000 {
        if shared.strong_count() == 0 {
            return;
        }
        // Waiting for a condition, not for a time: each turn checks it again.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the stopped server's tasks are still running");
}

/// Rewrite a stopped server's stored deadline (as if that much time had passed meanwhile).
async fn set_due(db: &str, id: &str, due_ms: i64) {
    let store = SqliteStore::open(db).await.expect("the file opens again");
    let mut c = store.platform().turn_clock(id).await.unwrap().expect("a stored clock");
    c.due_ms = Some(due_ms);
    store.platform().set_turn_clock(id, &c).await.unwrap();
}

/// A day per decision on a real server: the deadline is stored (`GET /api/turns` shows it and
/// that it is Ann's move); after a restart the game's clock is the stored deadline, not a
/// fresh day; a deadline that passed while the server was down runs out at once when it comes
/// back (the engine's `time_up`), and the next decision gets a fresh day.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_based_game_keeps_its_deadline_over_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("robodrome.db").to_string_lossy().into_owned();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let ann = member(addr, "Ann").await;
    let body = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "clock": {"per_move_secs": DAY}});
    let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    let (left, seq0) = time_left(&mut c).await;
    assert!(left > (u64::from(DAY) - 60) * 1000 && left <= u64::from(DAY) * 1000, "{left}");
    c.close().await;
    let (status, t) = http(addr, "GET", "/api/turns", Some(&ann), None).await;
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["games"][0]["id"], id.as_str());
    assert_eq!(t["games"][0]["seat"], 0);
    assert_eq!(t["games"][0]["your_move"], true, "{t}");
    assert_eq!(t["your_move"], 1);
    stop(server).await;

    // Down for a while: one hour of the day is left when it comes back.
    set_due(&db, &id, now_ms() + 3_600_000).await;
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    let (left, _) = time_left(&mut c).await;
    let log = server.shared.store.log(&id).await.unwrap();
    assert!(!log.iter().any(|e| matches!(e, LogEntry::TimeUp)), "no timeout yet");
    assert!(left > 3_500_000 && left <= 3_600_000, "the stored deadline, not a fresh day: {left}");
    c.close().await;
    stop(server).await;

    // Down past the deadline: it runs out as soon as the game is back.
    set_due(&db, &id, now_ms() - 1_000).await;
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    let (_, seq) = time_left(&mut c).await;
    // The room's clock fires once the game is loaded, which may be just after the welcome:
    // wait for the update it makes (each `recv` fails after a bounded time).
    let mut timed_out = false;
    for _ in 0..50 {
        let log = server.shared.store.log(&id).await.unwrap();
        if log[seq0 as usize..].iter().any(|e| matches!(e, LogEntry::TimeUp)) {
            timed_out = true;
            break;
        }
        c.recv().await;
    }
    assert!(timed_out, "time_up was applied after the restart (seq {seq0} → {seq})");
    c.close().await;
    server.shutdown().await;
}

/// Clock values out of range, and a clock with a timer, are refused with `bad_clock`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_based_clocks_have_limits() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let ann = member(addr, "Ann").await;
    for clock in [
        json!({"per_move_secs": 10}),
        json!({"per_move_secs": 15 * 86_400}),
        json!({"per_move_secs": "a day"}),
        json!({"per_move_secs": 3600, "extra": 1}),
    ] {
        let body = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "clock": clock});
        let (status, v) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
        assert_eq!((status, v["code"].as_str()), (400, Some("bad_clock")), "{clock}: {v}");
    }
    let body = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "timer_secs": 30,
                      "clock": {"per_move_secs": 3600}});
    let (status, v) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!((status, v["code"].as_str()), (400, Some("bad_clock")), "{v}");
    // Nothing was made.
    let (_, t) = http(addr, "GET", "/api/turns", Some(&ann), None).await;
    assert_eq!(t["games"], json!([]));
    server.shutdown().await;
}
