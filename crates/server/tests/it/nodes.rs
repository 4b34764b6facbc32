//! Several `serve` nodes on one PostgreSQL database (docs/deployment.md "Several nodes"): two
//! in-process nodes on a fresh schema, with short leases where a node dies or a lease is taken
//! (`short_lease`; the others keep `serve`'s 10 s). Skipped with a message when
//! `ROBODROME_TEST_PG` is not set (scripts/services start).
//!
//! A node "dies" here by [`server::cluster::Node::pause`]: it stops renewing its leases, as a
//! node cut off from the database or killed does; its games stop before their leases end, and
//! another node takes them over from the stored log when they have.

use crate::storage::{fresh_schema, test_pg};
use crate::support::*;
use engine::{Game, LogEntry, Observer, Seat};
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use server::cluster::{Cluster, StoredTimers, disordered_grants};
use server::platform_store::TurnClock;
use server::store::{Store, StoreError};
use server::store_pg::PgStore;
use server::{Config, Server};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn holds(s: &Server, id: &str) -> bool {
    s.shared.node.get().expect("a node").holds().iter().any(|g| g == id)
}

/// Wait (polling the lease table, at most `limit`) until `s` holds `id`.
async fn until_held(s: &Server, id: &str, limit: Duration) {
    let t0 = Instant::now();
    while !holds(s, id) {
        assert!(t0.elapsed() < limit, "not taken over within {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Frames until the socket closes (the owner stopped the game): whether it closed in time.
async fn until_closed(c: &mut Client) {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), c.next_raw()).await {
            Ok(None) => return,
            Ok(Some(_)) => {}
            Err(_) => panic!("the socket was not closed"),
        }
    }
}

/// Whether a frame shows a plot (Autoscooter's secret, AS-4: plots are secret until revealed).
fn shows_plots(frame: &str) -> bool {
    let v: Value = serde_json::from_str(frame).expect("json");
    let plots_shown = v["view"]["plots"].as_array().is_some_and(|p| !p.is_empty());
    let secret_events = v["events"].as_array().is_some_and(|es| {
        es.iter().any(|e| {
            matches!(e["type"].as_str(), Some("plotted" | "wild_plotted" | "auto_plotted"))
        })
    });
    plots_shown || secret_events
}

/// Every view a seat's connection received is the engine's view for that seat at that point
/// of the stored log: nothing of another seat's reaches it, through whichever node.
async fn views_are_the_seats_own(
    shared: &Arc<server::Shared>,
    id: &str,
    seat: u8,
    frames: &[String],
) {
    let mut checked = 0;
    for f in frames {
        let v: Value = serde_json::from_str(f).expect("json");
        if !matches!(v["type"].as_str(), Some("welcome" | "update")) {
            continue;
        }
        let seq = v["seq"].as_u64().expect("seq");
        let want = replayed(shared, id, seq).await.view(Observer::Seat(Seat(seat)));
        let mut got = v["view"].clone();
        if let Value::Object(m) = &mut got {
            m.remove("choices");
        }
        let mut want = serde_json::to_value(want).expect("json");
        if let Value::Object(m) = &mut want {
            m.remove("choices");
        }
        assert_eq!(got, want, "seat {seat} at {seq}");
        checked += 1;
    }
    assert!(checked > 0);
}

/// One action of `seat` if it owes one now (sent and acknowledged): the log's length after.
async fn act_once(
    c: &mut Client,
    shared: &Arc<server::Shared>,
    id: &str,
    seat: u8,
    rng: &mut engine::Rng,
) -> u64 {
    // A fresh welcome tells where the game stands.
    c.send(&ClientMsg::Sync).await;
    loop {
        match c.recv().await {
            ServerMsg::Welcome { seq, waiting, .. } => {
                if !waiting.contains(&seat) {
                    return seq;
                }
                let action = oracle(shared, id, seq, seat, rng).await;
                c.send(&ClientMsg::Act { seat: None, action, id: Some(seq + 1) }).await;
            }
            ServerMsg::Ack { seq, .. } => return seq,
            ServerMsg::Error { code, message, .. } => panic!("{code:?} {message}"),
            _ => {}
        }
    }
}

/// A game made on node A, played by a client on node B (forwarded to A) and a spectator on B;
/// A stops renewing (as a dead node): its game stops before its lease ends, B takes it over
/// from the stored log, both players reconnect (one to A, forwarded now to B) and finish it;
/// the lease history shows one owner at a time; every frame a seat got through either node is
/// its own view, and the spectator on B never saw a plot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_to_another_node_and_its_players_go_on() {
    let Some((a, b, _)) = two_nodes("nodes::move", false, short_lease).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open", "bot:random"], "seed": 3, "practice": true}),
    )
    .await;
    assert!(holds(&a, &id), "the node that started the game owns it");
    assert!(!holds(&b, &id));

    // Ann and a spectator on B (forwarded to A), Bob on A.
    let mut ann_c = Client::connect(b.addr, &id, Some(&ann)).await;
    let mut spectator = Client::connect(b.addr, &id, None).await;
    let mut bob_c = Client::connect(a.addr, &id, Some(&bob)).await;
    for c in [&mut ann_c, &mut bob_c] {
        assert!(matches!(c.recv().await, ServerMsg::Welcome { .. }));
    }
    let mut rng = engine::Rng::seeded(5);
    let mut seq = 0;
    for _ in 0..3 {
        seq = act_once(&mut ann_c, &a.shared, &id, 0, &mut rng).await;
        seq = seq.max(act_once(&mut bob_c, &a.shared, &id, 1, &mut rng).await);
    }
    assert!(seq > 0, "actions were played through both nodes");
    assert!(b.shared.metrics.forwarded.load(std::sync::atomic::Ordering::Relaxed) >= 2);

    // A stops renewing: its game's task stops (the sockets close) before the lease ends.
    let stopped_at = Instant::now();
    a.shared.node.get().unwrap().pause(true);
    until_closed(&mut bob_c).await;
    until_closed(&mut ann_c).await;
    until_closed(&mut spectator).await;
    assert!(
        stopped_at.elapsed() < Duration::from_millis(NODE_LEASE_MS),
        "dropped before the lease ends"
    );
    until_held(&b, &id, Duration::from_secs(4)).await;
    let log_len = b.shared.store.log(&id).await.unwrap().len() as u64;

    // Everyone reconnects: Ann and the spectator to B (the owner now), Bob to A (forwarded).
    let mut ann_c2 = Client::connect(b.addr, &id, Some(&ann)).await;
    let spectator2 = Client::connect(b.addr, &id, None).await;
    let mut bob_c2 = Client::connect(a.addr, &id, Some(&bob)).await;
    match ann_c2.recv().await {
        ServerMsg::Welcome { seq, seats, .. } => assert_eq!((seq, seats), (log_len, vec![0])),
        other => panic!("{other:?}"),
    }
    // A fresh welcome starts Ann's play (the first one was read above).
    ann_c2.send(&ClientMsg::Sync).await;
    let shared = b.shared.clone();
    let (oa, ob) = tokio::join!(
        play(&mut ann_c2, &shared, &id, 0, 11),
        play(&mut bob_c2, &shared, &id, 1, 12)
    );
    assert_eq!(oa, ob);
    // The stored result is the replay's of the stored log.
    let row = shared.store.game(&id).await.unwrap().unwrap();
    let log = shared.store.log(&id).await.unwrap();
    let end = replayed(&shared, &id, log.len() as u64).await;
    assert_eq!(row.outcome.as_ref(), Some(&oa));
    assert_eq!(Some(oa), end.outcome().map(|o| serde_json::to_value(o).unwrap()));

    let pool = a.shared.node.get().unwrap().cluster_pool();
    assert!(disordered_grants(pool).await.unwrap().is_empty());
    let history: Vec<(i64, String)> =
        sqlx::query_as("SELECT epoch, node FROM lease_history WHERE game_id = $1 ORDER BY epoch")
            .bind(&id)
            .fetch_all(pool)
            .await
            .unwrap();
    let (na, nb) =
        (&a.shared.node.get().unwrap().cluster.node, &b.shared.node.get().unwrap().cluster.node);
    assert_eq!(history, vec![(1, na.clone()), (2, nb.clone())]);

    for (frames, seat) in
        [(&ann_c.frames, 0), (&ann_c2.frames, 0), (&bob_c.frames, 1), (&bob_c2.frames, 1)]
    {
        views_are_the_seats_own(&shared, &id, seat, frames).await;
    }
    for f in spectator.frames.iter().chain(&spectator2.frames) {
        assert!(!shows_plots(f), "a spectator on another node saw a plot: {f}");
    }
    spectator2.close().await;
    a.shutdown().await;
    b.shutdown().await;
}

/// Fencing: a node whose lease moved on cannot append, neither through the store nor through
/// its game's task (the action is refused, the task stops, the log is unchanged).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_owner_cannot_append() {
    let Some(url) = test_pg() else {
        eprintln!("nodes::fence: SKIPPED (ROBODROME_TEST_PG not set; scripts/services start)");
        return;
    };
    let s = PgStore::open_in(&url, Some(&fresh_schema("fence"))).await.expect("pg opens");
    // The store: a lease of zero length (expired at once), taken over by another node.
    let old = Cluster::join(s.pool().clone(), "old", "127.0.0.1:1", 0).await.unwrap();
    let new = Cluster::join(s.pool().clone(), "new", "127.0.0.1:2", 60_000).await.unwrap();
    let lo = old.acquire("g").await.unwrap().expect("free");
    let entry = LogEntry::TimeUp;
    s.append_fenced("g", 0, &entry, &old.node, lo.epoch).await.expect("the holder appends");
    let ln = new.acquire("g").await.unwrap().expect("expired: taken over");
    let stale = s.append_fenced("g", 1, &entry, &old.node, lo.epoch).await;
    assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
    // Not even under the new epoch with the old node's name.
    let stale = s.append_fenced("g", 1, &entry, &old.node, ln.epoch).await;
    assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
    s.append_fenced("g", 1, &entry, &new.node, ln.epoch).await.expect("the new holder appends");
    assert_eq!(s.log("g").await.unwrap().len(), 2);

    // A game's task: its lease is taken from under it (as a node whose renewals were lost
    // in the network would find); its next action is refused and nothing is written.
    let Some((a, b, _)) = two_nodes("nodes::fence2", false, short_lease).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 4, "practice": true}),
    )
    .await;
    let mut ann_c = Client::connect(a.addr, &id, Some(&ann)).await;
    let seq = match ann_c.recv().await {
        ServerMsg::Welcome { seq, .. } => seq,
        other => panic!("{other:?}"),
    };
    let pool = a.shared.node.get().unwrap().cluster_pool();
    sqlx::query("UPDATE leases SET expires_ms = 0 WHERE game_id = $1")
        .bind(&id)
        .execute(pool)
        .await
        .unwrap();
    let thief = Cluster::join(pool.clone(), "thief", "127.0.0.1:3", 60_000).await.unwrap();
    thief.acquire(&id).await.unwrap().expect("expired: taken");
    let mut rng = engine::Rng::seeded(1);
    let action = oracle(&a.shared, &id, seq, 0, &mut rng).await;
    // Refused by the fenced write (`storage_unavailable`), or the socket already closed because
    // node A's own round learnt of the loss first: either way nothing is written.
    let _ = ann_c.try_send(&ClientMsg::Act { seat: None, action, id: Some(1) }).await;
    until_closed(&mut ann_c).await;
    for f in &ann_c.frames {
        let v: Value = serde_json::from_str(f).expect("json");
        assert_ne!(v["type"], "ack", "a stale owner acknowledged an action: {f}");
    }
    assert_eq!(a.shared.store.log(&id).await.unwrap().len() as u64, seq, "nothing appended");
    a.shutdown().await;
    b.shutdown().await;
}

/// Fencing of the stored clocks: a node whose lease moved on cannot write a turn-based game's
/// clock (`turn_clocks`) nor its timers (`game_timers`); what the holder wrote stays, and the
/// new holder writes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_owner_cannot_write_clocks() {
    let Some(url) = test_pg() else {
        eprintln!(
            "nodes::fence_clocks: SKIPPED (ROBODROME_TEST_PG not set; scripts/services start)"
        );
        return;
    };
    let s = PgStore::open_in(&url, Some(&fresh_schema("fenceclock"))).await.expect("pg opens");
    let p = s.platform();
    // A lease of zero length (expired at once), taken over by another node.
    let old = Cluster::join(s.pool().clone(), "old", "127.0.0.1:1", 0).await.unwrap();
    let new = Cluster::join(s.pool().clone(), "new", "127.0.0.1:2", 60_000).await.unwrap();
    let lo = old.acquire("g").await.unwrap().expect("free");
    let c1 = TurnClock { per_move_secs: 3600, due_ms: Some(1_000), waiting: vec![0] };
    let t1 = StoredTimers { seq: 3, deadline_left_ms: Some(60_000), clock_left_ms: None };
    p.set_turn_clock_fenced("g", &c1, &old.node, lo.epoch).await.expect("the holder writes");
    s.set_timers_fenced("g", &old.node, lo.epoch, &t1).await.expect("the holder writes");
    let ln = new.acquire("g").await.unwrap().expect("expired: taken over");
    let c2 = TurnClock { per_move_secs: 3600, due_ms: Some(2_000), waiting: vec![1] };
    let t2 = StoredTimers { seq: 4, deadline_left_ms: None, clock_left_ms: Some(5_000) };
    for epoch in [lo.epoch, ln.epoch] {
        // Neither the old epoch nor the new one under the old node's name.
        let stale = p.set_turn_clock_fenced("g", &c2, &old.node, epoch).await;
        assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
        let stale = s.set_timers_fenced("g", &old.node, epoch, &t2).await;
        assert!(matches!(stale, Err(StoreError::Fenced)), "{stale:?}");
    }
    assert_eq!(p.turn_clock("g").await.unwrap(), Some(c1));
    let seq: i64 = sqlx::query_scalar("SELECT seq FROM game_timers WHERE game_id = 'g'")
        .fetch_one(s.pool())
        .await
        .unwrap();
    assert_eq!(seq, 3, "the stale owner's timers were not written");
    p.set_turn_clock_fenced("g", &c2, &new.node, ln.epoch).await.expect("the new holder writes");
    s.set_timers_fenced("g", &new.node, ln.epoch, &t2).await.expect("the new holder writes");
    assert_eq!(p.turn_clock("g").await.unwrap(), Some(c2));
}

/// The lobby's timer survives a takeover: the new owner goes on with the time left, not a
/// fresh timer (stored in `game_timers`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_survive_a_takeover() {
    let Some((a, b, _)) = two_nodes("nodes::timers", false, short_lease).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    const TIMER_MS: u64 = 3000;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 4, "practice": true, "timer_secs": TIMER_MS / 1000}),
    )
    .await;
    let started = Instant::now();
    let mut ann_c = Client::connect(a.addr, &id, Some(&ann)).await;
    let seq0 = match ann_c.recv().await {
        ServerMsg::Welcome { seq, time_left_ms, .. } => {
            assert!(time_left_ms.is_some_and(|t| t <= TIMER_MS));
            seq
        }
        other => panic!("{other:?}"),
    };
    a.shared.node.get().unwrap().pause(true);
    until_closed(&mut ann_c).await;
    until_held(&b, &id, Duration::from_secs(3)).await;
    let mut ann_c = Client::connect(b.addr, &id, Some(&ann)).await;
    let elapsed = started.elapsed().as_millis() as u64;
    match ann_c.recv().await {
        ServerMsg::Welcome { seq, time_left_ms, .. } => {
            assert_eq!(seq, seq0);
            let left = time_left_ms.expect("the timer runs");
            // What was left when the game moved, not a fresh timer.
            assert!(left + elapsed <= TIMER_MS + 200, "left {left} ms after {elapsed} ms");
        }
        other => panic!("{other:?}"),
    }
    // It runs out on the new owner when it was due.
    loop {
        match ann_c.recv().await {
            ServerMsg::Update { seq, .. } if seq > seq0 => break,
            _ => {}
        }
    }
    let at = started.elapsed().as_millis() as u64;
    assert!(at < TIMER_MS + 700, "ran out at {at} ms");
    let log = b.shared.store.log(&id).await.unwrap();
    assert!(matches!(log.get(seq0 as usize), Some(LogEntry::TimeUp)));
    a.shutdown().await;
    b.shutdown().await;
}

/// Leaving a running game through a node that does not own it (docs/protocol.md "Resign and
/// leave", docs/deployment.md "Forwarding"): the request is forwarded to the owner, which
/// stores the resignation and tells its game's task at once — the other player, on the owner,
/// sees the seat resigned and a bot playing it — and the node asked takes nothing over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_on_another_node_resigns_on_the_owner() {
    let Some((a, b, _)) = two_nodes("nodes::leave", false, |_| {}).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let bob = guest(a.addr, "Bob").await;
    let id = joined_game(
        a.addr,
        &ann,
        &bob,
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 6, "practice": true}),
    )
    .await;
    assert!(holds(&a, &id) && !holds(&b, &id));
    let mut bob_c = Client::connect(a.addr, &id, Some(&bob)).await;
    assert!(matches!(bob_c.recv().await, ServerMsg::Welcome { .. }));
    // Ann leaves through B.
    let (status, g) =
        http(b.addr, "POST", &format!("/api/games/{id}/leave"), Some(&ann), None).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["seats"][0]["kind"], "resigned", "{g}");
    // The owner's task applied it: Bob is told at once, not at the next takeover.
    let t0 = Instant::now();
    loop {
        assert!(t0.elapsed() < Duration::from_secs(5), "the owner was not told");
        if let ServerMsg::Presence { seat: 0, resigned: true, bot: true, .. } = bob_c.recv().await {
            break;
        }
    }
    assert!(holds(&a, &id) && !holds(&b, &id), "the game stayed on its owner");
    // Leaving again (through either node) finds no seat: nothing changes twice.
    for n in [&a, &b] {
        let (status, v) =
            http(n.addr, "POST", &format!("/api/games/{id}/leave"), Some(&ann), None).await;
        assert_eq!((status, v["code"].as_str()), (409, Some("not_seated")), "{v}");
    }
    bob_c.close().await;
    a.shutdown().await;
    b.shutdown().await;
}

/// A WebSocket to `path` on `addr` from the local address `from`, with extra handshake
/// headers; `Err(status)` when the handshake is refused with an HTTP answer.
async fn socket_from(
    addr: SocketAddr,
    from: &str,
    path: &str,
    headers: &[(&'static str, String)],
) -> Result<server::client::Socket, u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let from: std::net::IpAddr = from.parse().unwrap();
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(*k, v.parse().unwrap());
    }
    let tcp = server::client::tcp_from(addr, Some(from)).await.expect("tcp");
    match tokio_tungstenite::client_async(req, tokio_tungstenite::MaybeTlsStream::Plain(tcp)).await
    {
        Ok((ws, _)) => Ok(server::client::Socket::from_stream(ws)),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("handshake: {e}"),
    }
}

/// Until `n`'s count of open connections from `ip` is `want` (counts drop when the server
/// notices a close).
async fn until_open(n: &Server, ip: &str, want: u32) {
    let ip: std::net::IpAddr = ip.parse().unwrap();
    let t0 = Instant::now();
    while n.shared.conns.open_from(ip) != want {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{ip}: {} open, not {want}",
            n.shared.conns.open_from(ip)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Per-address connection limits with forwarded sockets (docs/security.md "Limits",
/// docs/deployment.md "Forwarding"): the owner counts a forwarded socket against its client's
/// address (signed by the forwarding node), not against the forwarding node's, and the
/// forwarding node counts the client too. So clients of many addresses share no one count on
/// the owner, and one address's sockets are capped on the owner whichever node they come
/// through; an address a client writes in the header itself is not believed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_sockets_count_against_their_clients_addresses() {
    let cap = |c: &mut Config| c.limits.conns_per_address = 2;
    let Some((a, b, _)) = two_nodes("nodes::conns", false, cap).await else { return };
    let ann = guest(a.addr, "Ann").await;
    let id = create_game(
        a.addr,
        &ann,
        json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 2, "practice": true}),
    )
    .await;
    assert!(holds(&a, &id));
    let path = format!("/ws/games/{id}");
    // Three spectators of three addresses through B: more than the cap of one address on A.
    let mut through_b = Vec::new();
    for ip in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        let s = socket_from(b.addr, ip, &path, &[]).await.expect("forwarded");
        through_b.push(s);
    }
    for ip in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        until_open(&a, ip, 1).await;
        until_open(&b, ip, 1).await;
    }
    // 127.0.0.2 opens one more on A itself: two there now, its cap.
    let direct = socket_from(a.addr, "127.0.0.2", &path, &[]).await.expect("direct");
    until_open(&a, "127.0.0.2", 2).await;
    // A third of 127.0.0.2's through B: B has one of its sockets only, but A refuses it.
    let refused = socket_from(b.addr, "127.0.0.2", &path, &[]).await.err();
    assert_eq!(refused, Some(429), "the owner counts the client's forwarded sockets");
    until_open(&a, "127.0.0.2", 2).await;
    until_open(&b, "127.0.0.2", 1).await;
    // One closes: the next one through B is served.
    direct.close().await;
    until_open(&a, "127.0.0.2", 1).await;
    let again = socket_from(b.addr, "127.0.0.2", &path, &[]).await.expect("room again");
    until_open(&a, "127.0.0.2", 2).await;
    // A client that names another address itself is counted as itself.
    let forged = [
        (server::forward::FORWARDED, "1".to_string()),
        (server::forward::CLIENT, format!("127.0.0.9 {}", "00".repeat(32))),
    ];
    let f = socket_from(a.addr, "127.0.0.5", &path, &forged).await.expect("served as itself");
    until_open(&a, "127.0.0.5", 1).await;
    until_open(&a, "127.0.0.9", 0).await;
    f.close().await;
    again.close().await;
    for s in through_b {
        s.close().await;
    }
    a.shutdown().await;
    b.shutdown().await;
}
