//! The storage suite: the promises of `Store`, `PlatformStore` and `AccountStore` (their doc
//! comments) checked on every backend: SQLite (a temporary file) always, PostgreSQL when
//! `ROBODROME_TEST_PG` names a database (scripts/test starts one with scripts/services; each
//! test gets a schema of its own). Without it the PostgreSQL half prints that it is skipped.

use serde_json::{Value, json};
use server::accounts::RatingUpdate;
use server::platform_store::{BotAccount, Challenge, TurnClock};
use server::ratings::Rating;
use server::store::{GameRow, SeatOwner, SqliteStore, Status, Store, StoreError};
use server::store_pg::PgStore;
use std::sync::Arc;

/// The PostgreSQL database of the tests, if one is set.
pub fn test_pg() -> Option<String> {
    std::env::var("ROBODROME_TEST_PG").ok().filter(|s| !s.is_empty())
}

/// A schema name no other test (or earlier run) uses.
pub fn fresh_schema(tag: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("t_{tag}_{}_{}_{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// Every backend to test: (name, store, the directory an SQLite file lives in).
pub async fn backends(tag: &str) -> Vec<(&'static str, Arc<dyn Store>, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.db").to_string_lossy().into_owned();
    let sqlite: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).await.expect("sqlite opens"));
    let mut out = vec![("sqlite", sqlite, Some(dir))];
    match test_pg() {
        Some(url) => {
            let pg = PgStore::open_in(&url, Some(&fresh_schema(tag))).await.expect("pg opens");
            out.push(("postgres", Arc::new(pg) as Arc<dyn Store>, None));
        }
        None => eprintln!(
            "storage::{tag}: PostgreSQL half SKIPPED (ROBODROME_TEST_PG not set; scripts/services start)"
        ),
    }
    out
}

fn row(id: &str, creator: &str, status: Status, seats: Vec<SeatOwner>) -> GameRow {
    GameRow {
        id: id.into(),
        game: "autoscooter".into(),
        setup: json!({"players": seats.len(), "small": "x"}),
        seed: u64::MAX - 7,
        seats,
        status,
        timer_secs: Some(30),
        creator: creator.into(),
        outcome: None,
        practice: false,
        rules_version: 3,
    }
}

fn human(id: &str, name: &str) -> SeatOwner {
    SeatOwner::Human { identity: id.into(), name: name.into() }
}

fn act(seat: u8, n: u64) -> server::store::Entry {
    engine::LogEntry::Act { seat: engine::Seat(seat), action: json!({ "n": n }) }
}

#[tokio::test]
async fn identities_and_tokens() {
    for (name, s, _dir) in backends("ident").await {
        s.create_identity("i1", "Ann", "tok-a").await.unwrap();
        s.create_identity("i2", "Bob", "tok-b").await.unwrap();
        let who = s.identity_by_token("tok-a").await.unwrap().expect(name);
        assert_eq!((who.id.as_str(), who.name.as_str()), ("i1", "Ann"), "{name}");
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
                as i64;
        assert!((who.issued_at - now).abs() < 60, "{name}: issued now ({})", who.issued_at);
        assert!(s.identity_by_token("nope").await.unwrap().is_none(), "{name}");
        // The same id twice is refused and changes nothing.
        assert!(s.create_identity("i1", "Eve", "tok-e").await.is_err(), "{name}");
        assert!(s.identity_by_token("tok-e").await.unwrap().is_none(), "{name}");
        assert_eq!(s.revoke_tokens("i1").await.unwrap(), 1, "{name}");
        assert!(s.identity_by_token("tok-a").await.unwrap().is_none(), "{name}");
        assert!(s.identity_by_token("tok-b").await.unwrap().is_some(), "{name}");
    }
}

#[tokio::test]
async fn games_round_trip_with_large_setups_and_seats() {
    for (name, s, _dir) in backends("games").await {
        // A setup value longer than the blob threshold (stored once by content).
        let board: Vec<u32> = (0..400).collect();
        let mut g = row("g1", "c1", Status::Open, vec![human("i1", "Ann"), SeatOwner::Open]);
        g.setup = json!({"board": board, "players": 2});
        s.insert_game(&g).await.unwrap();
        let mut h = row("g2", "c1", Status::Open, vec![SeatOwner::Open]);
        h.setup = g.setup.clone();
        h.practice = true;
        h.timer_secs = None;
        s.insert_game(&h).await.unwrap();
        assert_eq!(s.game("g1").await.unwrap().as_ref(), Some(&g), "{name}");
        assert_eq!(s.game("g2").await.unwrap().as_ref(), Some(&h), "{name}");
        assert!(s.game("g3").await.unwrap().is_none(), "{name}");
        // A setup that pretends to be a stored reference is refused.
        let mut bad = row("g9", "c1", Status::Open, vec![]);
        bad.setup = json!({"board": {"$blob": "00"}});
        assert!(matches!(s.insert_game(&bad).await, Err(StoreError::BadSetup(_))), "{name}");
        assert!(s.game("g9").await.unwrap().is_none(), "{name}");

        let seats = vec![human("i1", "Ann"), SeatOwner::Bot { spec: "heuristic".into() }];
        s.update_game("g1", &seats, Status::Running).await.unwrap();
        let got = s.game("g1").await.unwrap().unwrap();
        assert_eq!((got.seats.clone(), got.status), (seats.clone(), Status::Running), "{name}");
        assert_eq!(s.open_games_of("c1").await.unwrap(), 2, "{name}");
        assert_eq!(s.games(Some(Status::Running), 10).await.unwrap().len(), 1, "{name}");
        assert_eq!(s.games(None, 10).await.unwrap().len(), 2, "{name}");
        assert_eq!(s.games(None, 1).await.unwrap().len(), 1, "{name}");
        let outcome = json!({"ranking": [[1], [0]]});
        s.finish_game("g1", &outcome).await.unwrap();
        let got = s.game("g1").await.unwrap().unwrap();
        assert_eq!((got.status, got.outcome), (Status::Finished, Some(outcome)), "{name}");
        assert_eq!(s.open_games_of("c1").await.unwrap(), 1, "{name}");
        // "My games" follows the seats.
        let acc = s.accounts().expect("accounts");
        let mine = acc.games_of("i1", None, 10).await.unwrap();
        assert_eq!(mine.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["g1"], "{name}");
    }
}

#[tokio::test]
async fn logs_append_in_order_and_refuse_gaps() {
    for (name, s, _dir) in backends("logs").await {
        s.insert_game(&row("a", "c", Status::Running, vec![])).await.unwrap();
        s.insert_game(&row("b", "c", Status::Open, vec![])).await.unwrap();
        for i in 0..5 {
            s.append("a", i, &act((i % 2) as u8, i)).await.unwrap();
        }
        s.append("a", 5, &engine::LogEntry::TimeUp).await.unwrap();
        s.append("b", 0, &act(0, 0)).await.unwrap();
        // An index already taken: a gap error, and the log is unchanged.
        assert!(matches!(s.append("a", 3, &act(1, 99)).await, Err(StoreError::Gap(3))), "{name}");
        let log = s.log("a").await.unwrap();
        let mut want: Vec<_> = (0..5).map(|i| act((i % 2) as u8, i)).collect();
        want.push(engine::LogEntry::TimeUp);
        assert_eq!(log, want, "{name}");
        // Only running games are resumed.
        let running = s.running_logs().await.unwrap();
        assert_eq!(running.keys().collect::<Vec<_>>(), ["a"], "{name}");
        assert_eq!(running["a"].as_ref().unwrap(), &want, "{name}");
    }
}

/// `append_many` (a game's task storing the actions that queued up together): the entries
/// follow each other from `first`, and a batch that meets a taken index at its start is refused
/// with nothing of it stored (SQLite writes a batch in one statement, all or none; the trait's
/// default, PostgreSQL's, appends one by one and says how many it stored before a failure).
#[tokio::test]
async fn several_entries_append_together_or_not_at_all() {
    for (name, s, _dir) in backends("many").await {
        s.insert_game(&row("a", "c", Status::Running, vec![])).await.unwrap();
        let three: Vec<_> = (0..3).map(|i| act((i % 2) as u8, i)).collect();
        let (n, e) = s.append_many("a", 0, &three).await;
        assert_eq!((n, e.is_none()), (3, true), "{name}");
        assert_eq!(s.log("a").await.unwrap(), three, "{name}");
        // Index 3 is free but 2 is not: a gap at 2.
        let more: Vec<_> = (10..12).map(|i| act(0, i)).collect();
        let (n, e) = s.append_many("a", 2, &more).await;
        assert_eq!(n, 0, "{name}");
        assert!(matches!(e, Some(StoreError::Gap(2))), "{name}: {e:?}");
        assert_eq!(s.log("a").await.unwrap(), three, "{name}: nothing of the refused batch");
        let (n, e) = s.append_many("a", 3, &more).await;
        assert_eq!((n, e.is_none()), (2, true), "{name}");
        assert_eq!(s.log("a").await.unwrap().len(), 5, "{name}");
    }
}

/// A batch larger than one `INSERT` statement holds (SQLite: 4,096 rows, then the statements
/// share a transaction) is stored whole, in order; on SQLite one that meets a taken index in
/// its second statement leaves nothing of itself behind (PostgreSQL's one-by-one default stores
/// what comes before the taken index and says how much).
#[tokio::test]
async fn a_batch_of_more_entries_than_one_statement_holds_is_stored_whole() {
    for (name, s, _dir) in backends("big").await {
        let many: Vec<_> = (0..4500).map(|i| act((i % 2) as u8, i)).collect();
        s.insert_game(&row("a", "c", Status::Running, vec![])).await.unwrap();
        let (n, e) = s.append_many("a", 0, &many).await;
        assert_eq!((n, e.is_none()), (4500, true), "{name}");
        assert_eq!(s.log("a").await.unwrap(), many, "{name}");
        s.insert_game(&row("b", "c", Status::Running, vec![])).await.unwrap();
        let (n, e) = s.append_many("b", 4100, &many[..5]).await;
        assert_eq!((n, e.is_none()), (5, true), "{name}");
        let (n, e) = s.append_many("b", 0, &many).await;
        assert!(e.is_some(), "{name}: index 4,100 is taken");
        let kept = if name == "sqlite" { 0 } else { 4100 };
        assert_eq!(n, kept, "{name}");
        assert_eq!(s.log("b").await.unwrap().len(), 5 + kept, "{name}");
    }
}

/// Group commit: many games appending at once each get every entry, in order, acknowledged
/// only once stored (read back through a second store on the same database where there is one).
#[tokio::test]
async fn concurrent_appends_are_all_stored() {
    for (name, s, _dir) in backends("group").await {
        const GAMES: u64 = 24;
        const EACH: u64 = 30;
        for g in 0..GAMES {
            s.insert_game(&row(&format!("g{g}"), "c", Status::Running, vec![])).await.unwrap();
        }
        let mut tasks = Vec::new();
        for g in 0..GAMES {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..EACH {
                    s.append(&format!("g{g}"), i, &act(0, g * 1000 + i)).await.unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let logs = s.running_logs().await.unwrap();
        assert_eq!(logs.len() as u64, GAMES, "{name}");
        for g in 0..GAMES {
            let want: Vec<_> = (0..EACH).map(|i| act(0, g * 1000 + i)).collect();
            assert_eq!(logs[&format!("g{g}")].as_ref().unwrap(), &want, "{name} g{g}");
        }
    }
}

#[tokio::test]
async fn lobby_pages_cover_every_game_once() {
    for (name, s, _dir) in backends("lobby").await {
        for i in 0..23 {
            let status = if i % 3 == 0 { Status::Running } else { Status::Open };
            s.insert_game(&row(&format!("g{i:02}"), "c", status, vec![])).await.unwrap();
        }
        let mut seen = Vec::new();
        let mut cursor: Option<(i64, String)> = None;
        loop {
            let page = s
                .lobby(Status::Open, cursor.as_ref().map(|(t, id)| (*t, id.as_str())), 4)
                .await
                .unwrap();
            if page.is_empty() {
                break;
            }
            assert!(page.len() <= 4, "{name}");
            for (g, _) in &page {
                assert_eq!((g.status, &g.setup), (Status::Open, &Value::Null), "{name}");
            }
            let (last, t) = page.last().unwrap();
            cursor = Some((*t, last.id.clone()));
            seen.extend(page.into_iter().map(|(g, _)| g.id));
        }
        let mut want: Vec<String> =
            (0..23).filter(|i| i % 3 != 0).map(|i| format!("g{i:02}")).collect();
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), seen.len(), "{name}: no game twice");
        want.sort();
        assert_eq!(sorted, want, "{name}");
    }
}

#[tokio::test]
async fn platform_clocks_bots_and_challenges() {
    for (name, s, _dir) in backends("platform").await {
        let p = s.platform();
        s.create_identity("own", "Owner", "t").await.unwrap();
        s.insert_game(&row("tb", "own", Status::Running, vec![human("own", "Owner")]))
            .await
            .unwrap();
        assert!(p.turn_clock("tb").await.unwrap().is_none(), "{name}");
        let c1 = TurnClock { per_move_secs: 86400, due_ms: Some(5), waiting: vec![0] };
        let c2 = TurnClock { per_move_secs: 86400, due_ms: None, waiting: vec![] };
        p.set_turn_clock("tb", &c1).await.unwrap();
        assert_eq!(p.turn_clock("tb").await.unwrap(), Some(c1.clone()), "{name}");
        let mine = p.turn_games_of("own").await.unwrap();
        assert_eq!(mine.len(), 1, "{name}");
        assert_eq!((mine[0].0.id.as_str(), &mine[0].1), ("tb", &c1), "{name}");
        assert!(p.turn_games_of("other").await.unwrap().is_empty(), "{name}");
        p.set_turn_clock("tb", &c2).await.unwrap();
        assert_eq!(p.turn_clock("tb").await.unwrap(), Some(c2), "{name}");

        let bot = BotAccount {
            id: "b1".into(),
            name: "Robo".into(),
            owner: "own".into(),
            has_token: true,
        };
        p.create_bot(&bot, "h1").await.unwrap();
        assert_eq!(p.bot_by_token_hash("h1").await.unwrap(), Some(bot.clone()), "{name}");
        assert_eq!(p.bots_of("own").await.unwrap(), vec![bot.clone()], "{name}");
        assert!(p.set_bot_token("b1", None).await.unwrap(), "{name}");
        assert!(!p.set_bot_token("zz", None).await.unwrap(), "{name}");
        assert!(p.bot_by_token_hash("h1").await.unwrap().is_none(), "{name}");
        assert!(!p.bot("b1").await.unwrap().unwrap().has_token, "{name}");
        assert_eq!(p.identity_name("b1").await.unwrap().as_deref(), Some("Robo"), "{name}");

        let ch = Challenge {
            id: "c1".into(),
            challenger: "own".into(),
            challenger_name: "Owner".into(),
            recipient: "b1".into(),
            recipient_name: "Robo".into(),
            request: json!({"game": "autoscooter"}),
            status: "open".into(),
            created_at: 10,
            expires_at: 20,
            game_id: None,
        };
        p.insert_challenge(&ch).await.unwrap();
        assert_eq!(p.open_challenges_of("b1").await.unwrap(), vec![ch.clone()], "{name}");
        assert!(p.close_challenge("c1", "accepted", Some("tb")).await.unwrap(), "{name}");
        // Only from open.
        assert!(!p.close_challenge("c1", "declined", None).await.unwrap(), "{name}");
        let got = p.challenge("c1").await.unwrap().unwrap();
        assert_eq!(
            (got.status.as_str(), got.game_id.as_deref()),
            ("accepted", Some("tb")),
            "{name}"
        );
        assert!(p.open_challenges_of("own").await.unwrap().is_empty(), "{name}");
    }
}

#[tokio::test]
async fn accounts_ratings_follows_and_deletion() {
    for (name, s, _dir) in backends("accounts").await {
        let a = s.accounts().expect("accounts");
        s.create_identity("i1", "Ann", "t1").await.unwrap();
        s.create_identity("i2", "Bob", "t2").await.unwrap();
        assert!(a.claim("i1", "Alice", "hash").await.unwrap(), "{name}");
        // Usernames are unique in any case; an account is claimed once.
        assert!(!a.claim("i2", "alice", "hash").await.unwrap(), "{name}");
        assert!(!a.claim("i1", "Other", "hash").await.unwrap(), "{name}");
        assert!(a.claim("i2", "Bobby_1", "hash").await.unwrap(), "{name}");
        let acc = a.account_by_username("ALICE").await.unwrap().expect(name);
        assert_eq!(
            (acc.identity.as_str(), acc.username.as_deref()),
            ("i1", Some("Alice")),
            "{name}"
        );
        let found = a.search("bob", 10).await.unwrap();
        assert_eq!(found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["i2"], "{name}");
        // `_` is a literal in a prefix, not a wildcard.
        assert!(a.search("Bobby_", 10).await.unwrap().len() == 1, "{name}");
        assert!(a.search("Bobbyx", 10).await.unwrap().is_empty(), "{name}");

        a.create_session("i1", "s2").await.unwrap();
        assert_eq!(s.identity_by_token("s2").await.unwrap().unwrap().id, "i1", "{name}");
        a.touch_session("s2").await.unwrap();
        assert_eq!(a.end_session("s2").await.unwrap(), 1, "{name}");
        assert!(s.identity_by_token("s2").await.unwrap().is_none(), "{name}");

        let seats = vec![human("i1", "Ann"), human("i2", "Bob")];
        s.insert_game(&row("r1", "i1", Status::Running, seats)).await.unwrap();
        let before = Rating::default();
        let win = Rating { rating: 1662.3, deviation: 290.2, volatility: 0.06 };
        let loss = Rating { rating: 1337.7, deviation: 290.2, volatility: 0.06 };
        let updates = vec![
            RatingUpdate { player: "i1".into(), before, after: win },
            RatingUpdate { player: "i2".into(), before, after: loss },
        ];
        let outcome = json!({"ranking": [[0], [1]]});
        a.finish_rated("r1", "autoscooter", &outcome, &updates).await.unwrap();
        // A retry of a stored result rates nobody twice.
        a.finish_rated("r1", "autoscooter", &outcome, &updates).await.unwrap();
        let r = a.ratings("autoscooter", &["i1".into(), "i9".into()]).await.unwrap();
        assert_eq!(r, vec![Some(win), None], "{name}");
        let mine = a.player_ratings("i1").await.unwrap();
        assert_eq!((mine.len(), mine[0].games), (1, 1), "{name}");
        let board = a.leaderboard("autoscooter", 0, 10).await.unwrap();
        assert_eq!(
            board.iter().map(|r| r.player.as_str()).collect::<Vec<_>>(),
            ["i1", "i2"],
            "{name}"
        );
        let hist = a.history("i2", "autoscooter", 5).await.unwrap();
        assert_eq!(
            (hist.len(), hist[0].before, hist[0].rating),
            (1, before.rating, loss.rating),
            "{name}"
        );

        a.set_follow("i1", "i2", true).await.unwrap();
        a.set_follow("i1", "i2", true).await.unwrap();
        assert_eq!(a.follows("i1", 10).await.unwrap(), vec![("i2".into(), "Bob".into())], "{name}");
        a.set_block("i2", "i1", true).await.unwrap();
        let among = vec!["i2".to_string(), "i3".to_string()];
        assert_eq!(a.blockers("i1", &among).await.unwrap(), vec!["i2".to_string()], "{name}");
        a.set_block("i2", "i1", false).await.unwrap();
        assert!(a.blockers("i1", &among).await.unwrap().is_empty(), "{name}");

        a.rename("i2", "Robert").await.unwrap();
        let g = s.game("r1").await.unwrap().unwrap();
        assert_eq!(g.seats[1], human("i2", "Bob"), "{name}: a finished game keeps its names");
        let gone = a.delete("i1").await.unwrap();
        assert!(gone.starts_with("deleted player "), "{name}: {gone}");
        let g = s.game("r1").await.unwrap().unwrap();
        assert_eq!(g.seats[0], human("i1", &gone), "{name}");
        assert!(a.account_by_username("alice").await.unwrap().is_none(), "{name}");
        assert!(a.follows("i1", 10).await.unwrap().is_empty(), "{name}");
        assert_eq!(a.leaderboard("autoscooter", 0, 10).await.unwrap().len(), 1, "{name}");
        // The freed username can be claimed again.
        s.create_identity("i3", "Cy", "t3").await.unwrap();
        assert!(a.claim("i3", "alice", "hash").await.unwrap(), "{name}");
    }
}

/// A PostgreSQL database holding someone else's tables is refused, untouched.
#[tokio::test]
async fn postgres_refuses_a_foreign_schema() {
    let Some(url) = test_pg() else {
        eprintln!("storage::foreign: SKIPPED (ROBODROME_TEST_PG not set)");
        return;
    };
    let schema = fresh_schema("foreign");
    let first = PgStore::open_in(&url, Some(&schema)).await.expect("opens");
    sqlx::query("CREATE TABLE invoices (id INT)").execute(first.pool()).await.unwrap();
    sqlx::query("DROP TABLE robodrome_schema").execute(first.pool()).await.unwrap();
    let again = PgStore::open_in(&url, Some(&schema)).await;
    match again {
        Err(StoreError::Refused(r)) => assert!(r.to_string().contains("invoices"), "{r}"),
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a foreign database was opened"),
    }
}

/// A whole server over PostgreSQL: a game is created and played over WebSocket, the server
/// stops in the middle, a new server on the same database resumes the game from its log, and
/// it is played to the end; the stored result is the one a replay of the stored log gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_postgres_plays_and_resumes_a_game() {
    use crate::support::{Client, guest, http, play, replayed};
    use engine::Game;
    let Some(url) = test_pg() else {
        eprintln!("storage::server: SKIPPED (ROBODROME_TEST_PG not set)");
        return;
    };
    let schema = fresh_schema("server");
    let config = || {
        let mut c = server::Config {
            addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
            web: None,
            ..server::Config::default()
        };
        c.limits.guests_per_window = 0;
        c.limits.games_per_window = 0;
        c.limits.open_games_per_identity = 0;
        // The oracle client acts as fast as PostgreSQL acknowledges: not the rate limit's test.
        c.rate = 10_000;
        c
    };
    let store = PgStore::open_in(&url, Some(&schema)).await.expect("pg opens");
    let first = server::Server::start_with(config(), Arc::new(store)).await.expect("starts");
    let addr = first.addr;
    let ann = guest(addr, "Ann").await;
    let body =
        json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 7, "practice": true});
    let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["status"], "running");
    // Three acknowledged actions of Ann's, then the server stops.
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    three_acknowledged_actions(&mut c, &first.shared, &id).await;
    let stored = first.shared.store.log(&id).await.unwrap();
    assert!(
        stored
            .iter()
            .filter(|e| matches!(e, engine::LogEntry::Act { seat, .. } if seat.0 == 0))
            .count()
            >= 3
    );
    drop(c);
    first.shutdown().await;

    let store = PgStore::open_in(&url, Some(&schema)).await.expect("pg opens again");
    let second = server::Server::start_with(config(), Arc::new(store)).await.expect("starts");
    assert_eq!(second.resumed.0, 1, "the running game is resumed");
    let log = second.shared.store.log(&id).await.unwrap();
    assert_eq!(&log[..stored.len()], &stored[..], "no acknowledged action lost");
    let mut c = Client::connect(second.addr, &id, Some(&ann)).await;
    let outcome = play(&mut c, &second.shared, &id, 0, 11).await;
    let row = second.shared.store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.status, Status::Finished);
    let log = second.shared.store.log(&id).await.unwrap();
    let replay = replayed(&second.shared, &id, log.len() as u64).await;
    let want = serde_json::to_value(replay.outcome().expect("the replay is over")).unwrap();
    assert_eq!(row.outcome.as_ref(), Some(&want), "the stored result is the replay's");
    assert_eq!(outcome, want, "and the one players were sent");
    second.shutdown().await;
}

/// Turn-based clocks are written in the group commit of the log appends (docs/deployment.md
/// "Timers"): many games' clocks and log entries at once are all stored, and a bad log entry
/// in their batch (an index already taken) fails only its own write, not the clocks beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_clocks_share_the_group_commit_with_the_log() {
    for (name, s, _dir) in backends("clockbatch").await {
        s.create_identity("own", "Owner", "t").await.unwrap();
        let ids: Vec<String> = (0..24).map(|g| format!("c{g:02}")).collect();
        for id in &ids {
            s.insert_game(&row(id, "own", Status::Running, vec![])).await.unwrap();
            s.append(id, 0, &act(0, 0)).await.unwrap();
        }
        let clock = |g: usize| TurnClock {
            per_move_secs: 300 + g as u32,
            due_ms: g.is_multiple_of(2).then_some(1_000 * g as i64),
            waiting: vec![(g % 3) as u8],
        };
        let mut tasks = tokio::task::JoinSet::new();
        for (g, id) in ids.iter().enumerate() {
            let (s1, s2, s3, id1, id2, id3) =
                (s.clone(), s.clone(), s.clone(), id.clone(), id.clone(), id.clone());
            let c = clock(g);
            tasks.spawn(async move { ("clock", s1.platform().set_turn_clock(&id1, &c).await) });
            tasks.spawn(async move { ("next", s2.append(&id2, 1, &act(1, 1)).await) });
            tasks.spawn(async move { ("again", s3.append(&id3, 0, &act(1, 9)).await) });
        }
        while let Some(r) = tasks.join_next().await {
            match r.unwrap() {
                ("again", r) => assert!(matches!(r, Err(StoreError::Gap(0))), "{name}: {r:?}"),
                (what, r) => assert!(r.is_ok(), "{name}: {what}: {r:?}"),
            }
        }
        for (g, id) in ids.iter().enumerate() {
            assert_eq!(s.platform().turn_clock(id).await.unwrap(), Some(clock(g)), "{name}");
            assert_eq!(s.log(id).await.unwrap(), vec![act(0, 0), act(1, 1)], "{name}");
        }
    }
}

/// Schema version 10 (the log's tail, docs/benchmarks.md "CPU per accepted action, round 9"): a
/// database as a version-9 server left it — a game stopped in the middle, every entry in
/// `actions`, no `log_tail` — is migrated by a new server, which resumes the game from its log;
/// the game is played to the end through the tail, and the stored result is a replay's of the
/// stored log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_9_database_is_migrated_and_its_running_game_resumed() {
    use crate::support::{Client, guest, http, play, replayed, start_server};
    use engine::Game;
    use sqlx::Row;
    let dir = tempfile::tempdir().unwrap();
    let fast = |c: &mut server::Config| c.rate = 10_000;
    let first = start_server(&dir, |c| fast(c)).await;
    let addr = first.addr;
    let ann = guest(addr, "Ann").await;
    let body =
        json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 7, "practice": true});
    let (status, g) = http(addr, "POST", "/api/games", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    // Three acknowledged actions of Ann's, then the server stops.
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    assert!(
        !three_acknowledged_actions(&mut c, &first.shared, &id).await,
        "the game ended too soon"
    );
    let stored = first.shared.store.log(&id).await.unwrap();
    assert!(stored.len() >= 3);
    drop(c);
    first.shutdown().await;

    // Back to version 9, as that server would have left it: the log in `actions` only (once the
    // first server's games have let go of the file).
    let db = dir.path().join("robodrome.db").to_string_lossy().into_owned();
    for _ in 0..400 {
        if server::schema::lock(&db).is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let opts = sqlx::sqlite::SqliteConnectOptions::new().filename(&db);
    let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(opts);
    let pool = pool.await.unwrap();
    for sql in [
        "INSERT INTO actions (game_id, idx, entry) SELECT game_id, idx, entry FROM log_tail",
        "DROP TABLE log_tail",
        "PRAGMA user_version = 9",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    // (The bot may have acted once more before the first server stopped.)
    let acked = stored;
    let stored: Vec<server::store::Entry> =
        sqlx::query("SELECT entry FROM actions WHERE game_id = ? ORDER BY idx")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| serde_json::from_str(r.get::<&str, _>(0)).unwrap())
            .collect();
    assert_eq!(&stored[..acked.len()], &acked[..], "no acknowledged action lost");
    pool.close().await;

    // The first server's games let go of its store (and the file's lock) a moment after it stops.
    let mut tries = 0;
    let second = loop {
        let mut config = server::Config {
            addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
            db: db.clone(),
            web: None,
            ..server::Config::default()
        };
        config.limits.guests_per_window = 0;
        config.limits.games_per_window = 0;
        config.limits.open_games_per_identity = 0;
        fast(&mut config);
        match server::Server::start(config).await {
            Ok(s) => break s,
            Err(e) if e.to_string().contains("already using") && tries < 400 => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            }
            Err(e) => panic!("the second server starts: {e}"),
        }
    };
    assert_eq!(second.resumed.0, 1, "the running game is resumed");
    let log = second.shared.store.log(&id).await.unwrap();
    assert_eq!(log, stored, "the log reads back whole");
    let mut c = Client::connect(second.addr, &id, Some(&ann)).await;
    let outcome = play(&mut c, &second.shared, &id, 0, 11).await;
    let row = second.shared.store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.status, Status::Finished);
    let log = second.shared.store.log(&id).await.unwrap();
    assert_eq!(&log[..stored.len()], &stored[..], "no acknowledged action lost");
    assert!(log.len() > stored.len());
    let replay = replayed(&second.shared, &id, log.len() as u64).await;
    let want = serde_json::to_value(replay.outcome().expect("the replay is over")).unwrap();
    assert_eq!(row.outcome.as_ref(), Some(&want), "the stored result is the replay's");
    assert_eq!(outcome, want, "and the one players were sent");
    let (status, replay) =
        http(second.addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay["log"].as_array().map(Vec::len), Some(log.len()));
    second.shutdown().await;

    let opts = sqlx::sqlite::SqliteConnectOptions::new().filename(&db);
    let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(opts);
    let pool = pool.await.unwrap();
    let v: i64 = sqlx::query("PRAGMA user_version").fetch_one(&pool).await.unwrap().get(0);
    assert_eq!(v, server::schema::latest());
    let n: i64 = sqlx::query("SELECT count(*) FROM actions WHERE game_id = ?")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap()
        .get(0);
    let t: i64 =
        sqlx::query("SELECT count(*) FROM log_tail").fetch_one(&pool).await.unwrap().get(0);
    assert_eq!(n + t, log.len() as i64, "each entry once, in one table or the other");
}

/// Seat 0 plays the oracle's actions until three of them are acknowledged; whether the game
/// ended first.
async fn three_acknowledged_actions(
    c: &mut crate::support::Client,
    shared: &Arc<server::Shared>,
    id: &str,
) -> bool {
    use protocol::{ClientMsg, ServerMsg};
    let mut rng = engine::Rng::seeded(3);
    let (mut acked, mut inflight) = (0u64, false);
    while acked < 3 {
        match c.recv().await {
            ServerMsg::Welcome { seq, waiting, .. } | ServerMsg::Update { seq, waiting, .. }
                if !inflight && waiting.contains(&0) =>
            {
                let action = crate::support::oracle(shared, id, seq, 0, &mut rng).await;
                c.send(&ClientMsg::Act { seat: None, action, id: Some(acked + 1) }).await;
                inflight = true;
            }
            ServerMsg::Ack { .. } => {
                acked += 1;
                inflight = false;
            }
            ServerMsg::Over { .. } => return true,
            ServerMsg::Error { code, message, .. } => panic!("{code:?} {message}"),
            _ => {}
        }
    }
    false
}
