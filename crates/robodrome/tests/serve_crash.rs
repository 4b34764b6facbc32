//! `robodrome serve` killed with SIGKILL at random moments during bot games and restarted each
//! time on the same database: every action a client was told about is still stored, and every
//! game finishes with the result an uninterrupted replay of its log gives.
//!
//! The issue asks for 100 games and at least 20 kills: this runs 100 games of 2 to 5 bots (25 ms
//! per bot decision, so games last through several kills) and 25 kills, each after the
//! spectators were shown a random number of new positions (no sleeps), in about 6 s on two
//! cores. `ROBODROME_CRASH_GAMES` / `ROBODROME_CRASH_KILLS` change the sizes.

mod common;

use autoscooter::Autoscooter;
use engine::{Game, LogEntry, Observer, Rng};
use protocol::ServerMsg;
use serde_json::{Value, json};
use server::client;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::Child;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Start the server on a free port; returns the process and its address.
fn spawn(db: &std::path::Path) -> (Child, SocketAddr) {
    // Every game comes from one address and identity: the quotas are off.
    let quotas_off = ["--guests-per-window", "0", "--games-per-window", "0"];
    let caps_off = ["--open-games-per-identity", "0", "--conns-per-address", "0"];
    let args: Vec<&str> =
        ["--bot-delay-ms", "25"].into_iter().chain(quotas_off).chain(caps_off).collect();
    common::serve(db, &args)
}

/// What the spectators were shown, and how many of them are still watching; the test waits on
/// `changed` (no sleeps): each kill comes after a random number of new positions.
#[derive(Default)]
struct Watched {
    log: Mutex<Shown>,
    changed: Condvar,
}

#[derive(Default)]
struct Shown {
    /// (game, seq, view) for every position a spectator was shown.
    positions: Vec<(String, u64, Value)>,
    watchers: usize,
}

type Seen = Arc<Watched>;

/// Watch some games as a spectator until the connection drops: remember (game, seq, view).
fn watch(rt: &tokio::runtime::Runtime, addr: SocketAddr, games: Vec<String>, seen: Seen) {
    for id in games {
        let seen = seen.clone();
        seen.log.lock().unwrap().watchers += 1;
        rt.spawn(async move {
            if let Ok(mut s) = client::Socket::connect(addr, &id, None).await {
                while let Ok(Some(m)) = s.recv().await {
                    match m {
                        ServerMsg::Welcome { seq, view, .. }
                        | ServerMsg::Update { seq, view: Some(view), .. } => {
                            seen.log.lock().unwrap().positions.push((id.clone(), seq, view));
                            seen.changed.notify_all();
                        }
                        ServerMsg::Over { .. } => break,
                        _ => {}
                    }
                }
            }
            seen.log.lock().unwrap().watchers -= 1;
            seen.changed.notify_all();
        });
    }
}

/// Wait until a game is over (a finished game's task sends `welcome` then `over`).
async fn over(addr: SocketAddr, id: &str) -> Result<(), client::Error> {
    let mut s = client::Socket::connect(addr, id, None).await?;
    while let Some(m) = s.recv().await? {
        if let ServerMsg::Over { .. } = m {
            return Ok(());
        }
    }
    Err(format!("game {id}: the connection closed before the game was over").into())
}

#[test]
fn killed_server_resumes_every_game_and_loses_no_acknowledged_action() {
    let games = env_or("ROBODROME_CRASH_GAMES", 100).min(100);
    let kills = env_or("ROBODROME_CRASH_KILLS", 25);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let seen: Seen = Arc::default();
    let mut rng = Rng::seeded(42);

    let (mut child, mut addr) = spawn(&db);
    let ids: Vec<String> = rt.block_on(async {
        let token = client::guest(addr, "crash").await.unwrap();
        let mut ids = Vec::new();
        for i in 0..games {
            let seats = vec!["bot:random"; 2 + i % 4];
            let body = json!({"game": "autoscooter", "seats": seats, "seed": i, "practice": true});
            let g = client::expect(addr, "POST", "/api/games", Some(&token), Some(&body), 201)
                .await
                .unwrap();
            ids.push(g["id"].as_str().unwrap().to_string());
        }
        ids
    });
    let started = Instant::now();
    let mut done_kills = 0;
    let mut interrupted = 0;
    while done_kills < kills {
        watch(
            &rt,
            addr,
            ids.iter().skip(done_kills % 4).step_by(4).cloned().collect(),
            seen.clone(),
        );
        // The kill comes once the spectators were shown 1 to 200 more positions (or this life's
        // games are all over): in the middle of play, at a random point of it.
        let target = seen.log.lock().unwrap().positions.len() + 1 + rng.below(200) as usize;
        let (shown, wait) = seen
            .changed
            .wait_timeout_while(seen.log.lock().unwrap(), Duration::from_secs(60), |s| {
                s.positions.len() < target && s.watchers > 0
            })
            .unwrap();
        drop(shown);
        assert!(!wait.timed_out(), "the server made no progress for 60 s");
        let running = rt
            .block_on(client::expect(
                addr,
                "GET",
                "/api/games?status=running&limit=100",
                None,
                None,
                200,
            ))
            .unwrap();
        interrupted += running.as_array().map_or(0, Vec::len);
        child.kill().expect("SIGKILL");
        child.wait().unwrap();
        done_kills += 1;
        (child, addr) = spawn(&db);
        assert!(started.elapsed() < Duration::from_secs(120), "bounded");
    }
    // Let every game finish on the last life of the server: wait for each one's `over`.
    let finished: BTreeMap<String, Value> = rt.block_on(async {
        let all_over = async {
            for id in &ids {
                over(addr, id).await?;
            }
            Ok::<_, client::Error>(())
        };
        tokio::time::timeout(Duration::from_secs(60), all_over)
            .await
            .expect("every game over within 60 s")
            .expect("every game over");
        let mut out = BTreeMap::new();
        for id in &ids {
            let path = format!("/api/games/{id}/replay");
            let r = client::expect(addr, "GET", &path, None, None, 200).await.unwrap();
            out.insert(id.clone(), r);
        }
        out
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(finished.len(), ids.len(), "every game finished after {kills} kills");

    // Each game's stored log replays to its stored result.
    let mut logs: BTreeMap<String, (autoscooter::Setup, u64, Vec<LogEntry<autoscooter::Action>>)> =
        BTreeMap::new();
    for (id, r) in &finished {
        let setup: autoscooter::Setup = serde_json::from_value(r["setup"].clone()).unwrap();
        let seed = r["seed"].as_u64().unwrap();
        let log: Vec<LogEntry<autoscooter::Action>> =
            serde_json::from_value(r["log"].clone()).unwrap();
        let g: Autoscooter =
            engine::replay(&setup, seed, &log, &mut Vec::new()).expect("the log replays");
        let outcome = serde_json::to_value(g.outcome().expect("over")).unwrap();
        assert_eq!(outcome, r["outcome"], "game {id}");
        logs.insert(id.clone(), (setup, seed, log));
    }
    // Every position a client was shown is the stored log's position at that length.
    let seen = &seen.log.lock().unwrap().positions;
    assert!(seen.len() > 100, "spectators saw {} positions", seen.len());
    for (id, seq, view) in seen.iter() {
        let (setup, seed, log) = &logs[id];
        assert!(
            *seq as usize <= log.len(),
            "game {id}: a client saw entry {seq}, the store has {}",
            log.len()
        );
        let g: Autoscooter =
            engine::replay(setup, *seed, &log[..*seq as usize], &mut Vec::new()).unwrap();
        assert_eq!(
            &serde_json::to_value(g.view(Observer::Spectator)).unwrap(),
            view,
            "game {id} at {seq}"
        );
    }
    assert!(
        interrupted >= kills,
        "the kills hit running games ({interrupted} games running at the {kills} kills)"
    );
    eprintln!(
        "{} games, {kills} kills hitting {interrupted} running games, {} positions checked",
        ids.len(),
        seen.len()
    );
}
