//! The server's timers on tokio's paused clock: game tasks over a [`MemStore`] with in-process
//! subscriptions (and the connection loop on channels), so the grace period, the planning timer
//! and the rate limit are checked at their exact durations without waiting for them.

use crate::support::*;
use engine::{LogEntry, Observer, Seat};
use futures_util::{sink, stream};
use protocol::{ClientMsg, CreateGame, ServerMsg};
use serde_json::json;
use server::store::Identity;
use server::ws::{self, Incoming};
use server::{Shared, Subscription};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What a timer may be late by: the clock only moves to due timers, in whole milliseconds.
const SLACK: Duration = Duration::from_millis(2);

async fn identity(shared: &Arc<Shared>, name: &str) -> Identity {
    let g = shared.guest(name).await.expect("guest");
    shared.identity(&g.token).await.expect("store").expect("identity")
}

/// An Autoscooter game of `seats` created by `who` (started at once when no seat is open).
async fn create(shared: &Arc<Shared>, who: &Identity, seats: &[&str], timer: u32) -> String {
    let req: CreateGame = serde_json::from_value(
        json!({"game": "autoscooter", "seats": seats, "seed": 1, "practice": true, "timer_secs": timer}),
    )
    .expect("a lobby request");
    shared.create_game(who, req).await.expect("created").id
}

async fn next(sub: &mut Subscription) -> ServerMsg {
    let f = sub.rx.recv().await.expect("the game's task is running");
    ServerMsg::from_frame(&f).expect("a server message")
}

/// Ann never connects: after exactly the grace period a bot plays her seat, and the game ends.
#[tokio::test(start_paused = true)]
async fn an_away_player_gets_a_bot_after_exactly_the_grace_period() {
    let (shared, _stop) = in_memory(|_| {});
    let grace = shared.config.grace;
    assert_eq!(grace, Duration::from_secs(30), "the default grace period is tested");
    let ann = identity(&shared, "Ann").await;
    let t0 = Instant::now();
    let id = create(&shared, &ann, &["me", "bot:random"], 0).await;
    let mut s = shared.watch(&id, Observer::Spectator).await.expect("watch");
    let mut stood_in = None;
    loop {
        match next(&mut s).await {
            ServerMsg::Presence { seat: 0, bot: true, .. } => {
                stood_in.get_or_insert(t0.elapsed());
            }
            ServerMsg::Over { .. } => break,
            _ => {}
        }
    }
    let at = stood_in.expect("a bot stood in for Ann");
    assert!(at >= grace && at <= grace + SLACK, "the bot stood in after {at:?}");
}

/// Bob is connected but silent: when the planning timer runs out, the engine's `time_up` plots
/// for him (a `time_up` entry in the log), exactly then and not before.
#[tokio::test(start_paused = true)]
async fn a_silent_player_is_plotted_for_when_the_planning_timer_runs_out() {
    let (shared, _stop) = in_memory(|_| {});
    let bob = identity(&shared, "Bob").await;
    let t0 = Instant::now();
    let id = create(&shared, &bob, &["me", "bot:random"], 60).await;
    let mut b = shared.subscribe(&id, Some(&bob.id)).await.expect("subscribe");
    assert_eq!(b.seat, Some(Seat(0)));
    let at = loop {
        if let ServerMsg::Update { events, .. } = next(&mut b).await
            && events.iter().any(|e| e["type"] == "auto_plotted")
        {
            break t0.elapsed();
        }
    };
    let timer = Duration::from_secs(60);
    assert!(at >= timer && at <= timer + SLACK, "time_up after {at:?}");
    let log = shared.store.log(&id).await.expect("log");
    assert!(log.iter().any(|e| matches!(e, LogEntry::TimeUp)));
    assert!(shared.config.grace < timer, "Bob stayed connected: no bot stood in first");
}

/// The token bucket of one connection: a burst of `2 × rate` messages, then `rate_limited`, and
/// one message more for every `1/rate` s of quiet; the connection stays open throughout.
#[tokio::test(start_paused = true)]
async fn a_flooding_connection_is_refused_until_its_bucket_refills() {
    let (shared, _stop) = in_memory(|_| {});
    let rate = shared.config.rate;
    let ann = identity(&shared, "Ann").await;
    let id = create(&shared, &ann, &["me", "bot:random"], 0).await;
    let sub = shared.subscribe(&id, Some(&ann.id)).await.expect("subscribe");
    let (to_client, mut client_rx) = mpsc::channel::<String>(64);
    let (client_tx, from_client) = mpsc::channel::<Incoming>(64);
    let out = Box::pin(sink::unfold(to_client, |tx, out: ws::Out| async move {
        // The server's keep-alive pings are not frames of the protocol.
        if let ws::Out::Text(frame) = out {
            tx.send(frame.to_string()).await.map_err(|_| ())?;
        }
        Ok::<_, ()>(tx)
    }));
    let input =
        Box::pin(stream::unfold(
            from_client,
            |mut rx| async move { rx.recv().await.map(|m| (m, rx)) },
        ));
    let task = tokio::spawn(ws::run(shared.clone(), sub, out, input));
    // A ping: `true` for a pong, `false` for `rate_limited` (updates of the bot's plots skipped).
    let mut ping = async || {
        client_tx.send(Incoming::Text(ClientMsg::Ping.to_frame())).await.expect("open");
        loop {
            let f = client_rx.recv().await.expect("the connection is open");
            match ServerMsg::from_frame(&f).expect("a server message") {
                ServerMsg::Pong => return true,
                ServerMsg::Error { code, .. } => {
                    assert_eq!(code.as_str(), "rate_limited");
                    return false;
                }
                _ => {}
            }
        }
    };
    for i in 0..2 * rate {
        assert!(ping().await, "message {i} of the burst");
    }
    assert!(!ping().await, "the burst is spent");
    assert!(!ping().await, "no time passed");
    tokio::time::advance(Duration::from_secs(1) / rate + Duration::from_millis(1)).await;
    assert!(ping().await, "one message more after 1/rate s");
    assert!(!ping().await, "and only one");
    tokio::time::advance(Duration::from_secs(5)).await;
    for i in 0..2 * rate {
        assert!(ping().await, "message {i} of a refilled bucket (no more than 2 × rate)");
    }
    assert!(!ping().await, "the bucket holds 2 × rate");
    drop(client_tx);
    task.await.expect("the connection loop ends when the client leaves");
}
