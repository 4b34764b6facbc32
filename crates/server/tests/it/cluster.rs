//! Game leases of several nodes (`server::cluster`, docs/deployment.md "Game ownership") on
//! PostgreSQL: skipped with a message when `ROBODROME_TEST_PG` is not set. Expiry is shown
//! with leases of zero length (expired the moment they are granted, on the database's clock),
//! never by waiting.

use crate::storage::{fresh_schema, test_pg};
use serde_json::json;
use server::cluster::{Cluster, disordered_grants};
use server::store::{GameRow, Status, Store};
use server::store_pg::PgStore;

async fn db(tag: &str) -> Option<PgStore> {
    let Some(url) = test_pg() else {
        eprintln!("cluster::{tag}: SKIPPED (ROBODROME_TEST_PG not set; scripts/services start)");
        return None;
    };
    Some(PgStore::open_in(&url, Some(&fresh_schema(tag))).await.expect("pg opens"))
}

fn running(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        game: "autoscooter".into(),
        setup: json!({}),
        seed: 1,
        seats: vec![],
        status: Status::Running,
        timer_secs: None,
        creator: "c".into(),
        outcome: None,
        practice: false,
        rules_version: 1,
    }
}

#[tokio::test]
async fn one_owner_until_the_lease_expires_then_the_next_epoch() {
    let Some(s) = db("lease").await else { return };
    let a = Cluster::join(s.pool().clone(), "a", "127.0.0.1:1", 60_000).await.unwrap();
    let b = Cluster::join(s.pool().clone(), "b", "127.0.0.1:2", 60_000).await.unwrap();
    assert_ne!(a.node, b.node);
    let la = a.acquire("g").await.unwrap().expect("a free game is granted");
    assert_eq!(la.epoch, 1);
    assert_eq!(b.acquire("g").await.unwrap(), None, "held by a");
    // Asking again renews, same epoch.
    assert_eq!(a.acquire("g").await.unwrap().map(|l| l.epoch), Some(1));
    let owner = b.owner("g").await.unwrap().expect("owned");
    assert_eq!(
        (owner.node.as_str(), owner.addr.as_deref()),
        (a.node.as_str(), Some("127.0.0.1:1"))
    );
    assert!(a.renew(&[("g".into(), 1)]).await.unwrap().is_empty());
    // The same node after a restart is another process: it waits like anyone else.
    let a2 = Cluster::join(s.pool().clone(), "a", "127.0.0.1:1", 60_000).await.unwrap();
    assert_eq!(a2.acquire("g").await.unwrap(), None);

    // A node whose leases run out at once (as a dead node's do): the game is taken over at the
    // next epoch, and the old holder learns that it lost it.
    let dying = Cluster::join(s.pool().clone(), "d", "127.0.0.1:3", 0).await.unwrap();
    let ld = dying.acquire("h").await.unwrap().expect("free");
    let lb = b.acquire("h").await.unwrap().expect("expired: taken over");
    assert_eq!((ld.epoch, lb.epoch), (1, 2));
    assert_eq!(dying.renew(&[("h".into(), 1)]).await.unwrap(), vec!["h".to_string()]);
    assert_eq!(b.owner("h").await.unwrap().map(|o| o.node), Some(b.node.clone()));

    // A released lease is free at once.
    a.release("g", 1).await.unwrap();
    assert_eq!(b.acquire("g").await.unwrap().map(|l| l.epoch), Some(2));
    assert_eq!(a.renew(&[("g".into(), 1)]).await.unwrap(), vec!["g".to_string()]);
    assert!(disordered_grants(s.pool()).await.unwrap().is_empty());
    let history: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT game_id, epoch, node FROM lease_history ORDER BY game_id, epoch")
            .fetch_all(s.pool())
            .await
            .unwrap();
    let want = vec![
        ("g".to_string(), 1, a.node.clone()),
        ("g".to_string(), 2, b.node.clone()),
        ("h".to_string(), 1, dying.node.clone()),
        ("h".to_string(), 2, b.node.clone()),
    ];
    assert_eq!(history, want);
}

/// Many nodes asking for the same games at once: each game goes to exactly one of them.
#[tokio::test]
async fn racing_nodes_never_share_a_game() {
    let Some(s) = db("race").await else { return };
    const NODES: usize = 6;
    const GAMES: usize = 12;
    let mut tasks = Vec::new();
    for n in 0..NODES {
        let pool = s.pool().clone();
        tasks.push(tokio::spawn(async move {
            let c = Cluster::join(pool, &format!("n{n}"), "127.0.0.1:9", 60_000).await.unwrap();
            let mut won = Vec::new();
            for g in 0..GAMES {
                if let Some(l) = c.acquire(&format!("g{g}")).await.unwrap() {
                    won.push((g, l.epoch));
                }
            }
            won
        }));
    }
    let mut owners = vec![0; GAMES];
    for t in tasks {
        for (g, epoch) in t.await.unwrap() {
            assert_eq!(epoch, 1);
            owners[g] += 1;
        }
    }
    assert_eq!(owners, vec![1; GAMES], "every game has exactly one owner");
    assert!(disordered_grants(s.pool()).await.unwrap().is_empty());
}

/// Running games without a live lease are the ones a node takes over.
#[tokio::test]
async fn orphans_are_running_games_nobody_holds() {
    let Some(s) = db("orphans").await else { return };
    for id in ["x", "y", "z"] {
        s.insert_game(&running(id)).await.unwrap();
    }
    let mut done = running("w");
    done.status = Status::Finished;
    s.insert_game(&done).await.unwrap();
    let a = Cluster::join(s.pool().clone(), "a", "127.0.0.1:1", 60_000).await.unwrap();
    let dead = Cluster::join(s.pool().clone(), "d", "127.0.0.1:2", 0).await.unwrap();
    let mut all = a.orphans(10).await.unwrap();
    all.sort();
    assert_eq!(all, ["x", "y", "z"]);
    a.acquire("x").await.unwrap().expect("free");
    dead.acquire("y").await.unwrap().expect("free");
    let mut left = a.orphans(10).await.unwrap();
    left.sort();
    assert_eq!(left, ["y", "z"], "x is held; y's holder is gone");
    assert_eq!(a.orphans(1).await.unwrap().len(), 1);
}

/// The chaos test's lease check (`disordered_grants`, docs/deployment.md "The chaos test")
/// finds a history that breaks the lease order: a game whose first grant is not epoch 1, a
/// skipped epoch, and a later epoch granted before the earlier one (two owners at once). The
/// histories of the tests above, made by `acquire`, are found in order.
#[tokio::test]
async fn the_lease_check_finds_a_history_out_of_order() {
    let Some(s) = db("disorder").await else { return };
    let rows = [
        ("ok", 1, 100),
        ("ok", 2, 200),
        ("ok", 3, 300),
        ("late_start", 2, 100),
        ("gap", 1, 100),
        ("gap", 3, 200),
        ("back", 1, 500),
        ("back", 2, 400),
    ];
    for (g, e, t) in rows {
        sqlx::query(
            "INSERT INTO lease_history (game_id, epoch, node, granted_ms) VALUES ($1, $2, 'n', $3)",
        )
        .bind(g)
        .bind(e as i64)
        .bind(t as i64)
        .execute(s.pool())
        .await
        .unwrap();
    }
    let mut found = disordered_grants(s.pool()).await.unwrap();
    found.sort();
    let want: Vec<(String, i64)> =
        [("back", 2), ("gap", 3), ("late_start", 2)].map(|(g, e)| (g.to_string(), e)).to_vec();
    assert_eq!(found, want);
}
