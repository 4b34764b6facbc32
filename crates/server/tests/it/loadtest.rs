//! `robodrome loadtest` (`server::loadtest`) against a real server, briefly: its lobby setup
//! runs several games at once, yet every game is the one a sequential setup would make (game
//! `g` has seed `seed + g`, its players' seats, the timer asked for), and it reports the games
//! live at the start and at the end of its measured window.

use crate::support::start_server;
use server::loadtest::{Args, run};
use server::store::{SeatOwner, Status};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_concurrent_setup_makes_the_same_games_with_the_timer_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_server(&dir, |_| {}).await;
    let args = Args {
        addr: s.addr,
        games: 6,
        seats: 2,
        seconds: 1,
        think_ms: 200,
        seed: 40,
        threads: 0,
        address_per_game: false,
        timer_secs: 600,
        setup_at_once: 4,
        illegal_share: 0.0,
        whole_views: false,
    };
    let report = run(args).await.expect("the loadtest runs");
    assert_eq!(report.games.len(), 6);
    for (g, id) in report.games.iter().enumerate() {
        let row = s.shared.store.game(id).await.unwrap().expect("stored");
        assert_eq!(row.seed, 40 + g as u64, "game {g} in order");
        assert_eq!(row.timer_secs, Some(600));
        assert_eq!(row.status, Status::Running);
        let names: Vec<String> = row
            .seats
            .iter()
            .map(|o| match o {
                SeatOwner::Human { name, .. } => name.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(names, [format!("load-{g}-0"), format!("load-{g}-1")]);
    }
    // A 600 s timer ends no game within the window: all six are live at its start and end.
    assert_eq!((report.live_start, report.live_end), (6.0, 6.0));
    s.shutdown().await;
}

/// The clients pick among the legal moves their views list: the server refuses none of them;
/// with `--illegal-share 1` every action sent is one the rules refuse, and none is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_send_legal_moves_and_refused_ones_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_server(&dir, |_| {}).await;
    let args = |illegal_share| Args {
        addr: s.addr,
        games: 3,
        seats: 4,
        seconds: 1,
        think_ms: 60,
        seed: 7,
        threads: 0,
        address_per_game: false,
        timer_secs: 600,
        setup_at_once: 3,
        illegal_share,
        whole_views: false,
    };
    let legal = run(args(0.0)).await.expect("the loadtest runs");
    assert!(legal.sent >= 12, "the clients acted: {}", legal.sent);
    assert!(legal.accepted >= 12.0, "their actions were stored: {}", legal.accepted);
    assert_eq!(legal.refused, 0.0, "no legal move refused");
    let refused = run(args(1.0)).await.expect("the loadtest runs");
    assert!(refused.sent >= 12, "the clients acted: {}", refused.sent);
    assert!(refused.refused >= 12.0, "refused: {refused:?}");
    assert_eq!(refused.accepted, 0.0, "nothing stored");
    s.shutdown().await;
}
