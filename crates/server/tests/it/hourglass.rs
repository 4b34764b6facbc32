//! RR-4.3, the hourglass, on tokio's paused clock over an in-memory store: the clock starts only
//! when all but one player have committed, runs 30 s for the last one, and time-up keeps the
//! cards that player placed in its secret draft, filling only the empty registers; the draft
//! reaches nobody else (issue 22, RoboRally finding 6).

use crate::support::*;
use engine::{LogEntry, Observer, Seat};
use protocol::{CreateGame, JoinGame, ServerMsg};
use serde_json::{Value, json};
use server::room::Cmd;
use server::store::Identity;
use server::{Shared, Subscription};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// What a timer may be late by: the clock only moves to due timers, in whole milliseconds.
const SLACK: Duration = Duration::from_millis(2);

async fn identity(shared: &Arc<Shared>, name: &str) -> Identity {
    let g = shared.guest(name).await.expect("guest");
    shared.identity(&g.token).await.expect("store").expect("identity")
}

/// Everything a subscription received so far, as raw frames and messages.
struct Seen {
    sub: Subscription,
    frames: Vec<String>,
}

impl Seen {
    async fn next(&mut self) -> ServerMsg {
        let f = self.sub.rx.recv().await.expect("the game's task is running");
        self.frames.push(f.to_string());
        ServerMsg::from_frame(&f).expect("a server message")
    }

    /// Frames until the answer to action `id` (ack or error), returning it.
    async fn answer(&mut self, id: u64) -> ServerMsg {
        loop {
            match self.next().await {
                m @ ServerMsg::Ack { id: Some(i), .. } if i == id => return m,
                m @ ServerMsg::Error { id: Some(i), .. } if i == id => return m,
                _ => {}
            }
        }
    }

    async fn act(&mut self, action: Value, id: u64) -> ServerMsg {
        let cmd = Cmd::Act {
            conn: self.sub.conn,
            seat: None,
            action,
            id: Some(id),
            received: Instant::now(),
        };
        self.sub.room.tx.send(cmd).await.expect("the game's task is running");
        self.answer(id).await
    }

    /// Every message that is already waiting.
    fn drain(&mut self) -> Vec<ServerMsg> {
        let mut out = Vec::new();
        while let Ok(f) = self.sub.rx.try_recv() {
            self.frames.push(f.to_string());
            out.push(ServerMsg::from_frame(&f).expect("a server message"));
        }
        out
    }
}

/// A four-player RoboRally game with a 30 s hourglass, every seat human, and each seat's and a
/// spectator's subscription (welcome read) with the seat's dealt hand.
async fn four_players(shared: &Arc<Shared>) -> (String, Vec<(Seen, Vec<Value>)>, Seen) {
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let mut who = Vec::new();
    for n in names {
        who.push(identity(shared, n).await);
    }
    let req: CreateGame = serde_json::from_value(json!({
        "game": "roborally", "seats": ["me", "open", "open", "open"], "seed": 7,
        "practice": true, "timer_secs": 30
    }))
    .expect("a lobby request");
    let id = shared.create_game(&who[0], req).await.expect("created").id;
    for w in &who[1..] {
        shared.join(w, &id, JoinGame { seat: None, name: None }).await.expect("joined");
    }
    let mut seats = Vec::new();
    for (i, w) in who.iter().enumerate() {
        let sub = shared.subscribe(&id, Some(&w.id)).await.expect("subscribe");
        assert_eq!(sub.seat, Some(Seat(i as u8)));
        let mut seen = Seen { sub, frames: Vec::new() };
        let ServerMsg::Welcome { view, time_left_ms, .. } = seen.next().await else {
            panic!("a welcome first")
        };
        assert_eq!(view["phase"], "program");
        assert_eq!(time_left_ms, None, "RR-4.3: no hourglass while several players program");
        let hand = view["robots"][i]["hand"].as_array().expect("the seat's own hand").clone();
        assert_eq!(hand.len(), 9, "RR-4.1: nine cards at no damage");
        seats.push((seen, hand));
    }
    let sub = shared.watch(&id, Observer::Spectator).await.expect("watch");
    let mut spectator = Seen { sub, frames: Vec::new() };
    assert!(matches!(spectator.next().await, ServerMsg::Welcome { .. }));
    (id, seats, spectator)
}

fn program(cards: &[Value]) -> Value {
    json!({"type": "program", "registers": cards[..5]})
}

/// Three seats commit, the fourth has placed 3 of its 5 cards: the hourglass starts at the
/// third commit, for the fourth seat only, 30 s (one robot); when it runs out exactly the two
/// empty registers are filled from that seat's hand and the three placed cards are kept.
#[tokio::test(start_paused = true)]
async fn rr_4_3_the_hourglass_keeps_the_draft_and_fills_the_empty_registers() {
    let (shared, _stop) = in_memory(|_| {});
    let (id, mut seats, mut spectator) = four_players(&shared).await;
    // Dee (seat 3) places three cards, in registers 1, 2 and 4.
    let placed = [(1u8, 0usize), (2, 1), (4, 2)];
    for (n, &(register, k)) in placed.iter().enumerate() {
        let card = seats[3].1[k].clone();
        let a = json!({"type": "place", "register": register, "card": card});
        let answer = seats[3].0.act(a, n as u64 + 1).await;
        assert!(matches!(answer, ServerMsg::Ack { .. }), "place accepted: {answer:?}");
    }
    // Her own view holds the draft.
    let own = loop {
        if let ServerMsg::Update { view: Some(view), .. } = seats[3].0.next().await
            && view["robots"][3]["draft"][3] == seats[3].1[2]
        {
            break view;
        }
    };
    assert_eq!(own["robots"][3]["draft"][0], seats[3].1[0]);
    assert_eq!(own["robots"][3]["draft"][1], seats[3].1[1]);
    assert_eq!(own["robots"][3]["draft"][2], Value::Null);
    assert_eq!(own["robots"][3]["draft"][4], Value::Null);
    // Ann and Bob commit: still no hourglass.
    for (seen, hand) in &mut seats[..2] {
        let p = program(hand);
        let answer = seen.act(p, 10).await;
        assert!(matches!(answer, ServerMsg::Ack { .. }), "program accepted: {answer:?}");
    }
    for m in seats[0].0.drain() {
        if let ServerMsg::Update { time_left_ms, clock_for, .. } = m {
            assert_eq!((time_left_ms, clock_for.len()), (None, 0), "two still program");
        }
    }
    // Cy commits: the hourglass starts now, for Dee, 30 s, and everybody is told.
    let p = program(&seats[2].1);
    let answer = seats[2].0.act(p, 10).await;
    assert!(matches!(answer, ServerMsg::Ack { .. }), "program accepted: {answer:?}");
    let started = Instant::now();
    for observer in seats.iter_mut().map(|(s, _)| s).chain([&mut spectator]) {
        let (time_left_ms, clock_for) = loop {
            if let ServerMsg::Update { time_left_ms, clock_for, waiting, .. } =
                observer.next().await
                && waiting == [3]
            {
                break (time_left_ms, clock_for);
            }
        };
        assert_eq!(time_left_ms, Some(30_000), "RR-4.3: 30 s per robot still to program");
        assert_eq!(clock_for, [3], "the hourglass runs for the last player only");
    }
    // Dee says nothing more: at exactly 30 s the empty registers are filled.
    let (at, registers) = loop {
        if let ServerMsg::Update { events, .. } = seats[3].0.next().await
            && let Some(p) = events.iter().find(|e| e["type"] == "program")
        {
            break (started.elapsed(), p["registers"].as_array().expect("registers").clone());
        }
    };
    assert!(at >= Duration::from_secs(30) && at <= Duration::from_secs(30) + SLACK, "at {at:?}");
    let log = shared.store.log(&id).await.expect("log");
    assert_eq!(log.iter().filter(|e| matches!(e, LogEntry::TimeUp)).count(), 1);
    let hand = &seats[3].1;
    assert_eq!(registers[0], hand[0], "placed in register 1: kept");
    assert_eq!(registers[1], hand[1], "placed in register 2: kept");
    assert_eq!(registers[3], hand[2], "placed in register 4: kept");
    for k in [2, 4] {
        assert!(registers[k].is_object(), "register {} filled", k + 1);
        assert!(hand[3..].contains(&registers[k]), "register {} from the rest of the hand", k + 1);
    }
    assert_ne!(registers[2], registers[4]);
    // Secrecy: no frame another seat or a spectator received before the time-up held Dee's
    // draft or any card of Dee's hand.
    let dee: Vec<String> =
        hand.iter().map(|c| format!("\"priority\":{}}}", c["priority"])).collect();
    for (who, seen) in seats[..3].iter().map(|(s, _)| s).chain([&spectator]).enumerate() {
        for f in seen.frames.iter().take_while(|f| !f.contains("\"time_up\"")) {
            let v: Value = serde_json::from_str(f).expect("json");
            if let Some(d) = v["view"]["robots"].get(3) {
                assert!(d.get("draft").is_none(), "observer {who} saw Dee's draft: {f}");
            }
            for p in &dee {
                assert!(!f.contains(p.as_str()), "observer {who} saw Dee's card ({p}): {f}");
            }
        }
    }
}

/// A draft is checked like a program and refused with a typed error that changes nothing; a
/// seat that owes nothing cannot place; a refused place costs no log entry.
#[tokio::test(start_paused = true)]
async fn rr_4_3_drafts_are_checked_and_refused_drafts_change_nothing() {
    let (shared, _stop) = in_memory(|_| {});
    let (id, mut seats, _spectator) = four_players(&shared).await;
    let before = shared.store.log(&id).await.expect("log").len();
    let other = seats[1].1[0].clone();
    let refused = [
        (json!({"type": "place", "register": 1, "card": other}), "card_not_in_hand"),
        (json!({"type": "place", "register": 6, "card": seats[0].1[0]}), "register_out_of_range"),
        (json!({"type": "place", "register": 2, "card": null}), "draft_unchanged"),
    ];
    for (n, (a, code)) in refused.into_iter().enumerate() {
        match seats[0].0.act(a, n as u64).await {
            ServerMsg::Error { rule, .. } => assert_eq!(rule.as_deref(), Some(code)),
            m => panic!("refused with {code}, not {m:?}"),
        }
    }
    assert_eq!(shared.store.log(&id).await.expect("log").len(), before, "nothing stored");
    // Committed: no more drafts.
    let p = program(&seats[0].1);
    assert!(matches!(seats[0].0.act(p, 9).await, ServerMsg::Ack { .. }));
    let a = json!({"type": "place", "register": 1, "card": seats[0].1[5]});
    match seats[0].0.act(a, 10).await {
        ServerMsg::Error { rule, .. } => assert_eq!(rule.as_deref(), Some("already_programmed")),
        m => panic!("refused, not {m:?}"),
    }
}

/// With the lobby's timer off (0) RoboRally runs no clock at all: three commits start nothing.
#[tokio::test(start_paused = true)]
async fn rr_without_a_timer_has_no_hourglass() {
    let (shared, _stop) = in_memory(|_| {});
    let ann = identity(&shared, "Ann").await;
    let bob = identity(&shared, "Bob").await;
    let req: CreateGame = serde_json::from_value(json!({
        "game": "roborally", "seats": ["me", "open"], "seed": 3, "practice": true
    }))
    .expect("a lobby request");
    let id = shared.create_game(&ann, req).await.expect("created").id;
    shared.join(&bob, &id, JoinGame::default()).await.expect("joined");
    let sub = shared.subscribe(&id, Some(&ann.id)).await.expect("subscribe");
    let mut a = Seen { sub, frames: Vec::new() };
    let ServerMsg::Welcome { view, .. } = a.next().await else { panic!("a welcome") };
    assert_eq!(view["timer_seconds"], 0, "the lobby's timer is the game's setting");
    let hand = view["robots"][0]["hand"].as_array().expect("hand").clone();
    assert!(matches!(a.act(program(&hand), 1).await, ServerMsg::Ack { .. }));
    tokio::time::advance(Duration::from_secs(3600)).await;
    for m in a.drain() {
        if let ServerMsg::Update { time_left_ms, .. } = m {
            assert_eq!(time_left_ms, None);
        }
    }
    let log = shared.store.log(&id).await.expect("log");
    assert!(!log.iter().any(|e| matches!(e, LogEntry::TimeUp)), "no time-up without a timer");
}

/// Over real sockets and HTTP: Bob places cards in his draft; neither Ann (the other seat) nor a
/// spectator ever receives a frame holding a draft or any card of Bob's hand, and neither do the
/// lobby's game page and the steps of the running game; Bob's own view holds his draft.
#[tokio::test]
async fn rr_4_3_the_draft_never_reaches_another_seat_or_a_spectator() {
    let dir = tempfile::tempdir().expect("tempdir");
    let srv = start_server(&dir, |_| {}).await;
    let addr = srv.addr;
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let body = json!({"game": "roborally", "seats": ["me", "open"], "timer_secs": 30});
    let id = joined_game(addr, &ann, &bob, body).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    let mut spectator = Client::connect(addr, &id, None).await;
    let welcome = |m: ServerMsg| match m {
        ServerMsg::Welcome { view, .. } => view,
        other => panic!("a welcome first, not {other:?}"),
    };
    welcome(a.recv().await);
    welcome(spectator.recv().await);
    let hand = welcome(b.recv().await)["robots"][1]["hand"].as_array().expect("hand").clone();
    for (n, k) in [(1u64, 0usize), (2, 1), (3, 2)] {
        let action = json!({"type": "place", "register": n, "card": hand[k]});
        b.send(&protocol::ClientMsg::Act { id: Some(n), seat: None, action }).await;
        loop {
            match b.recv().await {
                ServerMsg::Ack { id: Some(i), .. } if i == n => break,
                ServerMsg::Error { message, .. } => panic!("place refused: {message}"),
                _ => {}
            }
        }
    }
    // Bob's own view holds the three cards, in registers 1..3.
    let own = loop {
        if let ServerMsg::Update { view: Some(view), .. } = b.recv().await
            && view["robots"][1]["draft"][2] == hand[2]
        {
            break view;
        }
    };
    assert_eq!(own["robots"][1]["draft"][0], hand[0]);
    // The others: their frames so far (three updates each, then a pong).
    a.ping().await;
    spectator.ping().await;
    let (_, info) = http(addr, "GET", &format!("/api/games/{id}"), Some(&ann), None).await;
    let (_, steps) = http(addr, "GET", &format!("/api/games/{id}/steps"), Some(&ann), None).await;
    let bobs: Vec<String> =
        hand.iter().map(|c| format!("\"priority\":{}}}", c["priority"])).collect();
    let texts = a
        .frames
        .iter()
        .chain(&spectator.frames)
        .cloned()
        .chain([info.to_string(), steps.to_string()]);
    let mut n = 0;
    for t in texts {
        n += 1;
        // (A card is `{"card":…,"priority":N}`: the closing brace keeps 20 from matching 200.)
        // Ann's own (empty) draft is hers to see; Bob's is nobody's but his.
        if let Ok(v) = serde_json::from_str::<Value>(&t)
            && let Some(bob) = v["view"]["robots"].get(1)
        {
            assert!(bob.get("draft").is_none(), "Bob's draft reached someone else: {t}");
        }
        for p in &bobs {
            assert!(
                !t.contains(p.as_str()),
                "a card of Bob's hand ({p}) reached someone else: {t}"
            );
        }
    }
    assert!(n >= 8, "welcomes, updates, pongs and the two pages were checked ({n})");
    for c in [a, b, spectator] {
        c.close().await;
    }
    srv.shutdown().await;
}
