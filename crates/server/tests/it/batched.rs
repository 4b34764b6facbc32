//! Actions that queue up in a game's inbox while its task waits for storage are handled
//! together (`room::Room::handle_acts`: one `Store::append_many`, each connection's frames
//! queued together so that its loop writes them at once). What every connection receives must
//! be exactly what it receives when the same actions are handled one by one, and nothing is
//! acknowledged or broadcast before it is stored.

use crate::support::*;
use engine::Observer;
use protocol::{CreateGame, JoinGame, ServerMsg};
use serde_json::{Value, json};
use server::room::Cmd;
use server::store::Identity;
use server::{Shared, Subscription};
use std::sync::Arc;
use tokio::time::Instant;

async fn identity(shared: &Arc<Shared>, name: &str) -> Identity {
    let g = shared.guest(name).await.expect("guest");
    shared.identity(&g.token).await.expect("store").expect("identity")
}

/// A two-player Autoscooter game (seed 7, no timer) with both players and a spectator
/// connected, their welcomes read.
async fn table(shared: &Arc<Shared>) -> (String, [Subscription; 3], Value) {
    let ann = identity(shared, "Ann").await;
    let bob = identity(shared, "Bob").await;
    let req: CreateGame = serde_json::from_value(
        json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 7, "practice": true, "timer_secs": 0}),
    )
    .expect("a lobby request");
    let id = shared.create_game(&ann, req).await.expect("created").id;
    shared.join(&bob, &id, JoinGame { seat: None, name: None }).await.expect("joined");
    let mut a = shared.subscribe(&id, Some(&ann.id)).await.expect("Ann");
    let mut b = shared.subscribe(&id, Some(&bob.id)).await.expect("Bob");
    let mut s = shared.watch(&id, Observer::Spectator).await.expect("spectator");
    let mut view = Value::Null;
    for sub in [&mut a, &mut b, &mut s] {
        match ServerMsg::from_frame(&sub.rx.recv().await.expect("welcome")).expect("a message") {
            ServerMsg::Welcome { view: v, .. } => view = v,
            other => panic!("expected a welcome, got {other:?}"),
        }
    }
    (id, [a, b, s], view)
}

/// A plot for `seat`'s first car (AS-2.1: a number of its car's column, no letter at speed 0).
fn plot(view: &Value, seat: u64) -> Value {
    let car = view["cars"]
        .as_array()
        .expect("cars")
        .iter()
        .find(|c| c["owner"] == seat)
        .expect("a car of the seat")["car"]
        .as_u64()
        .expect("a car number") as u8;
    let number = autoscooter::sheet::column(car)[0];
    json!({"type": "plot", "car": car, "number": number})
}

/// Ann plots, Bob plots, Ann sends a malformed action, then Ann plots again (refused by the
/// rules: her car is plotted).
fn actions(view: &Value) -> Vec<(usize, Value)> {
    vec![
        (0, plot(view, 0)),
        (1, plot(view, 1)),
        (0, json!({"type": "no_such_action"})),
        (0, plot(view, 0)),
    ]
}

fn act(sub: &Subscription, action: Value, id: u64) -> Cmd {
    Cmd::Act { conn: sub.conn, seat: None, action, id: Some(id), received: Instant::now() }
}

/// Every frame queued for each connection now.
fn drain(subs: &mut [Subscription; 3]) -> Vec<Vec<String>> {
    subs.iter_mut()
        .map(|s| std::iter::from_fn(|| s.rx.try_recv().ok().map(|f| f.to_string())).collect())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn queued_actions_are_stored_together_and_every_connection_sees_what_one_by_one_shows() {
    // One by one: each action's answer is awaited before the next is sent.
    let (shared, _stop) = in_memory(|_| {});
    let (id1, mut subs, view) = table(&shared).await;
    let mut one_by_one = vec![Vec::new(); 3];
    for (n, (who, action)) in actions(&view).into_iter().enumerate() {
        subs[who].room.tx.send(act(&subs[who], action, n as u64 + 1)).await.expect("sent");
        // The actor's answer (an ack or an error) comes before anything else of this action;
        // the updates follow in the same turn of the game's task.
        let answer = subs[who].rx.recv().await.expect("an answer");
        one_by_one[who].push(answer.to_string());
        tokio::task::yield_now().await;
        for (i, got) in drain(&mut subs).into_iter().enumerate() {
            one_by_one[i].extend(got);
        }
    }
    // Together: all four in the inbox before the game's task runs (this test's runtime has one
    // thread, and nothing here awaits between the sends).
    let (shared2, _stop2) = in_memory(|_| {});
    let (id2, mut subs2, view2) = table(&shared2).await;
    assert_eq!(view, view2, "the same seed deals the same cars");
    for (n, (who, action)) in actions(&view2).into_iter().enumerate() {
        subs2[who].room.tx.try_send(act(&subs2[who], action, n as u64 + 1)).expect("queued");
    }
    let answer = subs2[2].rx.recv().await.expect("the spectator's first update");
    tokio::task::yield_now().await;
    let mut together = drain(&mut subs2);
    together[2].insert(0, answer.to_string());

    assert_eq!(together, one_by_one);
    // What the test compares is what it expects: for Ann an ack of action 1 at seq 1 and an
    // error for action 3 and action 4, two updates for everyone.
    let kinds = |frames: &Vec<String>| -> Vec<(String, Option<u64>, Option<u64>)> {
        frames
            .iter()
            .map(|f| {
                let v: Value = serde_json::from_str(f).expect("JSON");
                (v["type"].as_str().unwrap_or("").to_string(), v["id"].as_u64(), v["seq"].as_u64())
            })
            .collect()
    };
    let k = |t: &str, id: Option<u64>, seq: Option<u64>| (t.to_string(), id, seq);
    assert_eq!(
        kinds(&together[0]),
        vec![
            k("ack", Some(1), Some(1)),
            k("update", None, Some(1)),
            k("update", None, Some(2)),
            k("error", Some(3), None),
            k("error", Some(4), None),
        ]
    );
    assert_eq!(
        kinds(&together[1]),
        vec![k("update", None, Some(1)), k("ack", Some(2), Some(2)), k("update", None, Some(2))]
    );
    assert_eq!(kinds(&together[2]), vec![k("update", None, Some(1)), k("update", None, Some(2))]);
    // Both logs hold the two accepted plots, in order.
    let (l1, l2) = (shared.store.log(&id1).await.unwrap(), shared2.store.log(&id2).await.unwrap());
    assert_eq!(l1.len(), 2);
    assert_eq!(serde_json::to_value(&l1).unwrap(), serde_json::to_value(&l2).unwrap());
}
