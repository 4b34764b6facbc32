//! Bot-only games played by the server's own game tasks, watched from every seat and as a
//! spectator: no frame ever shows a seat another seat's plot while it is secret.

use autoscooter::Autoscooter;
use engine::{Game, LogEntry, Observer, Seat};
use protocol::CreateGame;
use serde_json::Value;
use server::store::{SeatOwner, SqliteStore, Status, Store};
use server::{Config, Shared};
use std::collections::BTreeSet;
use std::sync::Arc;

const GAMES: usize = 200;

/// Every (car, number) object anywhere in a JSON value.
fn car_numbers(v: &Value, out: &mut Vec<(u64, u64)>) {
    match v {
        Value::Object(m) => {
            if let (Some(c), Some(n)) =
                (m.get("car").and_then(Value::as_u64), m.get("number").and_then(Value::as_u64))
            {
                out.push((c, n));
            }
            m.values().for_each(|x| car_numbers(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| car_numbers(x, out)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_shows_another_seats_secret_plot() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(":memory:").await.unwrap());
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let mut config = Config { web: None, ..Config::default() };
    config.limits.open_games_per_identity = 0; // 200 games, one creator
    let shared = Shared::new(config, store, shutdown);
    let who = shared.guest("tester").await.unwrap();
    let who = shared.identity(&who.token).await.unwrap().unwrap();
    let mut checked_frames = 0usize;
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..GAMES {
        let players = 2 + i % 7;
        // The wild car needs a car of nobody on the rink (3, 5, 6 or 7 players).
        let variants = match (i % 3, players) {
            (0, 3 | 5 | 6 | 7) => Some(serde_json::json!({"wild_car": true, "jolting": true})),
            (0, _) => Some(serde_json::json!({"jolting": true})),
            _ => None,
        };
        // Created open, so every watcher is attached before the bots start.
        let req = CreateGame {
            game: "autoscooter".into(),
            seats: vec!["open".into(); players],
            board: None,
            variants,
            options: None,
            timer_secs: None,
            seed: Some(1000 + i as u64),
            practice: true,
        };
        let info = shared.create_game(&who, req).await.unwrap();
        let seats = vec![SeatOwner::Bot { spec: "random".into() }; players];
        shared.store.update_game(&info.id, &seats, Status::Running).await.unwrap();
        let mut subs = Vec::new();
        for s in 0..players {
            subs.push((
                Observer::Seat(Seat(s as u8)),
                shared.watch(&info.id, Observer::Seat(Seat(s as u8))).await.unwrap(),
            ));
        }
        subs.push((
            Observer::Spectator,
            shared.watch(&info.id, Observer::Spectator).await.unwrap(),
        ));
        let shared = shared.clone();
        tasks.spawn(async move {
            // Every watcher reads at once (a watcher that falls behind would be dropped).
            let readers: Vec<_> = subs
                .into_iter()
                .map(|(obs, mut sub)| {
                    tokio::spawn(async move {
                        let mut frames: Vec<(Observer, Value)> = Vec::new();
                        loop {
                            let f = tokio::time::timeout(
                                std::time::Duration::from_secs(60),
                                sub.rx.recv(),
                            )
                            .await
                            .expect("frames in time");
                            let Some(f) = f else { break };
                            let v: Value = serde_json::from_str(&f).unwrap();
                            let over = v["type"] == "over";
                            frames.push((obs, v));
                            if over {
                                break;
                            }
                        }
                        sub.leave().await;
                        frames
                    })
                })
                .collect();
            let mut frames = Vec::new();
            for r in readers {
                frames.extend(r.await.unwrap());
            }
            check(&shared, &info.id, &frames).await;
            frames.len()
        });
        while tasks.len() >= 16 {
            checked_frames += tasks.join_next().await.unwrap().unwrap();
        }
    }
    while let Some(n) = tasks.join_next().await {
        checked_frames += n.unwrap();
    }
    assert!(checked_frames > GAMES * 50, "{checked_frames} frames");
}

async fn check(shared: &Arc<Shared>, id: &str, frames: &[(Observer, Value)]) {
    let row = shared.store.game(id).await.unwrap().unwrap();
    assert_eq!(row.status, Status::Finished);
    let setup: autoscooter::Setup = serde_json::from_value(row.setup).unwrap();
    let log: Vec<LogEntry<autoscooter::Action>> = shared
        .store
        .log(id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| serde_json::from_value(serde_json::to_value(e).unwrap()).unwrap())
        .collect();
    // The secret plots after each log prefix, from the omniscient state: (owner, car, number).
    let mut g = Autoscooter::new(&setup, row.seed).unwrap();
    let mut secret: Vec<BTreeSet<(u8, u64, u64)>> = Vec::new();
    let owners = |g: &Autoscooter| -> Vec<Option<u8>> {
        let v = g.view(Observer::Omniscient);
        v.cars.iter().map(|c| c.owner.map(|s| s.0)).collect()
    };
    let secrets = |g: &Autoscooter| -> BTreeSet<(u8, u64, u64)> {
        let v = g.view(Observer::Omniscient);
        if v.phase != "plan" {
            return BTreeSet::new();
        }
        let own = owners(g);
        v.plots
            .iter()
            .map(|p| (own[p.car as usize].unwrap_or(u8::MAX), p.car as u64, p.number as u64))
            .collect()
    };
    secret.push(secrets(&g));
    let mut events = Vec::new();
    for e in &log {
        match e {
            LogEntry::Act { seat, action } => g.apply(*seat, action, &mut events).unwrap(),
            LogEntry::TimeUp => g.time_up(&mut events).unwrap(),
        }
        secret.push(secrets(&g));
    }
    assert!(g.outcome().is_some());
    let mut seen_secret = 0;
    for (obs, f) in frames {
        let Some(seq) = f["seq"].as_u64() else { continue };
        let me = match obs {
            Observer::Seat(s) => Some(s.0),
            _ => None,
        };
        let mut found = Vec::new();
        car_numbers(f, &mut found);
        for (owner, car, number) in &secret[seq as usize] {
            if Some(*owner) == me {
                if found.contains(&(*car, *number)) {
                    seen_secret += 1;
                }
                continue;
            }
            assert!(
                !found.contains(&(*car, *number)),
                "game {id}: {obs:?} saw seat {owner}'s plot of car {car} = {number}: {f}"
            );
        }
        for e in f["events"].as_array().into_iter().flatten() {
            if matches!(e["type"].as_str(), Some("plotted" | "wild_plotted" | "auto_plotted")) {
                assert_eq!(e["seat"].as_u64().map(|s| s as u8), me, "game {id}: {obs:?} got {e}");
            }
        }
    }
    assert!(seen_secret > 0, "game {id}: the seats saw their own plots (the check can fail)");
}
