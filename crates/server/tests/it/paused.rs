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
        client_tx.send(Incoming::Text(ClientMsg::Ping.to_frame().into())).await.expect("open");
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

/// A connection run by the real loop (`ws::run`) on channels: what reaches the client is what
/// the server wrote into its "socket", when it wrote it.
struct Conn {
    to_server: mpsc::Sender<Incoming>,
    from_server: mpsc::Receiver<String>,
    task: tokio::task::JoinHandle<()>,
}

impl Conn {
    fn open(shared: &Arc<Shared>, sub: Subscription) -> Conn {
        let (to_client, from_server) = mpsc::channel::<String>(256);
        let (to_server, from_client) = mpsc::channel::<Incoming>(64);
        let out = Box::pin(sink::unfold(to_client, |tx, out: ws::Out| async move {
            if let ws::Out::Text(frame) = out {
                tx.send(frame.to_string()).await.map_err(|_| ())?;
            }
            Ok::<_, ()>(tx)
        }));
        let input = Box::pin(stream::unfold(from_client, |mut rx| async move {
            rx.recv().await.map(|m| (m, rx))
        }));
        let task = tokio::spawn(ws::run(shared.clone(), sub, out, input));
        Conn { to_server, from_server, task }
    }
    async fn next(&mut self) -> ServerMsg {
        let f = self.from_server.recv().await.expect("the connection is open");
        ServerMsg::from_frame(&f).expect("a server message")
    }
    /// The next update's view and waiting seats (other frames skipped).
    async fn update(&mut self) -> (serde_json::Value, Vec<u8>) {
        loop {
            match self.next().await {
                // A connection that did not ask for changed views: every update has its view.
                ServerMsg::Update { view: Some(view), waiting, .. }
                | ServerMsg::Welcome { view, waiting, .. } => return (view, waiting),
                _ => {}
            }
        }
    }
    /// Plot the first car the view offers (its first number and letter).
    async fn plot(&mut self, view: &serde_json::Value, id: u64) {
        let p = &view["choices"]["plots"][0];
        let mut action = json!({"type": "plot", "car": p["car"], "number": p["numbers"][0]});
        if let Some(l) = p["letters"].get(0) {
            action["letter"] = l.clone();
        }
        let act = ClientMsg::Act { seat: None, action, id: Some(id) };
        self.to_server.send(Incoming::Text(act.to_frame().into())).await.expect("open");
    }
    async fn close(self) {
        drop(self.to_server);
        self.task.await.expect("the loop ends when the client leaves");
    }
}

/// The send window (docs/protocol.md "When frames are sent"), Ann and Bob in a two-seat
/// Autoscooter game over connection loops: Ann's plots reach her at once; the updates that
/// only say she plotted reach Bob together exactly one window later; Bob's own plots, the
/// last of which ends the planning, reach Ann at once, the updates held for her included.
/// With a window of zero nothing waits.
#[tokio::test(start_paused = true)]
async fn updates_that_only_say_a_seat_is_ready_wait_for_the_send_window() {
    send_window(Duration::from_millis(20)).await;
    send_window(Duration::ZERO).await;
}

async fn send_window(window: Duration) {
    let (shared, _stop) = in_memory(|c| c.send_window = window);
    let ann = identity(&shared, "Ann").await;
    let bob = identity(&shared, "Bob").await;
    let id = create(&shared, &ann, &["me", "open"], 0).await;
    let join = protocol::JoinGame { seat: None, name: None };
    shared.join(&bob, &id, join).await.expect("Bob joins");
    let mut a = Conn::open(&shared, shared.subscribe(&id, Some(&ann.id)).await.expect("Ann"));
    let mut b = Conn::open(&shared, shared.subscribe(&id, Some(&bob.id)).await.expect("Bob"));
    let (mut view, waiting) = a.update().await;
    assert_eq!(waiting, [0, 1], "both plan");
    let (mut bob_view, _) = b.update().await;
    // Ann plots all her cars, each acknowledged and shown to her at once.
    let t0 = Instant::now();
    let mut ann_plots = 0;
    while view["choices"]["plots"].as_array().is_some_and(|p| !p.is_empty()) {
        ann_plots += 1;
        a.plot(&view, ann_plots).await;
        assert!(matches!(a.next().await, ServerMsg::Ack { .. }));
        view = a.update().await.0;
        assert_eq!(t0.elapsed(), Duration::ZERO, "Ann sees her plot at once");
    }
    assert!(ann_plots >= 1);
    // Bob: every one of Ann's plots, all at once, one window later.
    for i in 0..ann_plots {
        let (v, waiting) = b.update().await;
        let at = t0.elapsed();
        assert!(at >= window && at <= window + SLACK, "held for the window: {at:?}");
        if i + 1 == ann_plots {
            assert_eq!(waiting, [1], "only Bob still plans");
        }
        bob_view = v;
    }
    // Bob plots; his last plot ends the planning. Ann gets every update at once (the held
    // ones with the one that may not wait).
    let t1 = Instant::now();
    let mut bob_plots = 0;
    while bob_view["choices"]["plots"].as_array().is_some_and(|p| !p.is_empty()) {
        bob_plots += 1;
        b.plot(&bob_view, bob_plots).await;
        assert!(matches!(b.next().await, ServerMsg::Ack { .. }));
        bob_view = b.update().await.0;
    }
    for i in 0..bob_plots {
        let (_, waiting) = a.update().await;
        if i + 1 < bob_plots {
            assert_eq!(waiting, [1], "Bob still plans");
        }
    }
    assert_eq!(t1.elapsed(), Duration::ZERO, "Ann sees Bob's plots as soon as the last one");
    a.close().await;
    b.close().await;
}
