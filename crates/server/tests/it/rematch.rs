//! A finished game's room and its rematch on two cluster nodes (docs/deployment.md "Rooms of
//! finished games and their rematch"): a finished game's room is leased as a running game's
//! is, so the players' sockets reach one room whichever node they connect to, and its rematch
//! (docs/protocol.md "Rematch") is agreed there once. Skipped with a message when
//! `ROBODROME_TEST_PG` or `ROBODROME_TEST_REDIS` is not set (scripts/services start).
//! The one-server rematch is `social.rs::a_rematch_asks_every_player_and_makes_the_same_game_anew`.

use crate::support::*;
use protocol::{ClientMsg, ServerMsg};
use serde_json::json;
use server::Server;
use std::time::{Duration, Instant};

fn holds(s: &Server, id: &str) -> bool {
    s.shared.node.get().expect("a node").holds().iter().any(|g| g == id)
}

/// The next rematch frame: (accepted, asked, declined, the new game).
async fn rematch(c: &mut Client) -> (Vec<u8>, Vec<u8>, Option<u8>, Option<String>) {
    loop {
        if let ServerMsg::Rematch { accepted, asked, declined, game } = c.recv().await {
            return (accepted, asked, declined, game);
        }
    }
}

/// Rematch frames until one names the new game.
async fn rematch_game(c: &mut Client) -> String {
    loop {
        if let (_, _, None, Some(game)) = rematch(c).await {
            return game;
        }
    }
}

/// Ann and Bob finish a game; later Bob opens its socket on node B and Ann on node A, with a
/// spectator on A. Each sees the other's offer and decline (rules of docs/protocol.md
/// "Rematch": every player accepts, a decline ends the proposal); then both accept at the same
/// moment: both (and the spectator, through Redis) are sent to the same new game, and exactly
/// one game was made. Before the fix each node ran a room of its own for the finished game and
/// neither player ever saw the other's offer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_of_a_finished_game_on_two_nodes_agree_one_rematch() {
    let Some((a, b, _)) = two_nodes("rematch::across", true, |_| {}).await else { return };
    let (ann, bob, sam) =
        (guest(a.addr, "Ann").await, guest(a.addr, "Bob").await, guest(a.addr, "Sam").await);
    let body = json!({"game": "autoscooter", "seats": ["me", "open", "bot:random"], "seed": 5,
        "practice": true});
    let id = joined_game(a.addr, &ann, &bob, body).await;
    {
        let mut ca = Client::connect(a.addr, &id, Some(&ann)).await;
        let mut cb = Client::connect(b.addr, &id, Some(&bob)).await;
        let sa = a.shared.clone();
        let (oa, ob) = tokio::join!(play(&mut ca, &sa, &id, 0, 1), play(&mut cb, &sa, &id, 1, 2));
        assert_eq!(oa, ob);
        ca.close().await;
        cb.close().await;
    }
    // Nobody watches: the finished game's room stops and its lease is let go.
    let t0 = Instant::now();
    while holds(&a, &id) || holds(&b, &id) {
        assert!(t0.elapsed() < Duration::from_secs(5), "the finished game's room did not stop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Later, through different nodes: Bob's socket on B makes B the room's node (its lease);
    // Ann's and Sam's on A reach that room (Ann forwarded, Sam relayed from Redis).
    let mut cb = Client::connect(b.addr, &id, Some(&bob)).await;
    assert!(matches!(cb.recv().await, ServerMsg::Welcome { .. }));
    assert!(holds(&b, &id) && !holds(&a, &id), "B runs the finished game's room, A does not");
    let mut ca = Client::connect(a.addr, &id, Some(&ann)).await;
    let mut cs = Client::connect(a.addr, &id, Some(&sam)).await;
    for c in [&mut ca, &mut cs] {
        assert!(matches!(c.recv().await, ServerMsg::Welcome { .. }));
    }
    assert!(!holds(&a, &id), "A forwards Ann and relays Sam: no second room");

    // Each sees the other's offer and decline.
    ca.send(&ClientMsg::Rematch { accept: true }).await;
    for c in [&mut ca, &mut cb, &mut cs] {
        assert_eq!(rematch(c).await, (vec![0], vec![1], None, None), "Bob is asked");
    }
    cb.send(&ClientMsg::Rematch { accept: false }).await;
    for c in [&mut ca, &mut cb, &mut cs] {
        assert_eq!(rematch(c).await, (vec![], vec![], Some(1), None), "Bob declined");
    }
    // Both accept at once.
    let yes = ClientMsg::Rematch { accept: true };
    tokio::join!(ca.send(&yes), cb.send(&yes));
    let (ga, gb, gs) =
        tokio::join!(rematch_game(&mut ca), rematch_game(&mut cb), rematch_game(&mut cs));
    assert_eq!((&ga, &gs), (&gb, &gb), "everybody is sent to the same new game");
    let pool = a.shared.node.get().expect("a node").cluster_pool();
    let games: i64 =
        sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(pool).await.expect("count");
    assert_eq!(games, 2, "the game and exactly one rematch");
    let (old, new) = (
        a.shared.store.game(&id).await.unwrap().unwrap(),
        a.shared.store.game(&ga).await.unwrap().unwrap(),
    );
    assert_eq!((new.game.as_str(), &new.seats), (old.game.as_str(), &old.seats));
    assert_eq!(new.status, server::store::Status::Running);
    // Asking again (from either node) answers the game already made.
    ca.send(&yes).await;
    assert_eq!(rematch(&mut ca).await.3.as_deref(), Some(ga.as_str()));

    // Both hold their seats in the new game, whichever node they reach.
    for (addr, token, seat) in [(a.addr, &ann, 0u8), (b.addr, &bob, 1u8)] {
        let mut c = Client::connect(addr, &ga, Some(token)).await;
        match c.recv().await {
            ServerMsg::Welcome { seats, .. } => assert_eq!(seats, vec![seat]),
            other => panic!("{other:?}"),
        }
    }
}
