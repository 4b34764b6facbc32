//! Accounts, sessions, ratings, profiles, follows and blocks (docs/platform.md) through HTTP
//! and real sockets.

use crate::support::*;
use protocol::ServerMsg;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// The oracle plays as fast as it can: no message rate.
fn fast(c: &mut server::Config) {
    c.rate = 1_000_000;
}

async fn me(addr: SocketAddr, token: &str) -> Value {
    let (status, v) = http(addr, "GET", "/api/account", Some(token), None).await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn create(addr: SocketAddr, token: &str, body: Value) -> String {
    let (status, g) = http(addr, "POST", "/api/games", Some(token), Some(body)).await;
    assert_eq!(status, 201, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// Wait (bounded) until the stored game is finished: the result is stored after `over` is sent.
async fn finished(addr: SocketAddr, id: &str) -> Value {
    for _ in 0..500 {
        let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
        if g["status"] == "finished" {
            return g;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the game's result is never stored");
}

/// Glicko-2 for one player over one rating period, from Glickman's paper ("Example of the
/// Glicko-2 system", steps 1 to 8), written here independently of the `skillratings` crate.
/// `(rating, deviation, volatility)`; results are `(opponent rating, opponent deviation, score)`.
fn glicko2(me: (f64, f64, f64), results: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.5;
    let (mu, phi, sigma) = ((me.0 - 1500.0) / SCALE, me.1 / SCALE, me.2);
    let g = |phi: f64| 1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI.powi(2))).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    let (mut inv_v, mut sum) = (0.0, 0.0);
    for &(r, rd, s) in results {
        let (mu_j, phi_j) = ((r - 1500.0) / SCALE, rd / SCALE);
        let (gj, ej) = (g(phi_j), e(mu_j, phi_j));
        inv_v += gj * gj * ej * (1.0 - ej);
        sum += gj * (s - ej);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 0.000_001 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * sum;
    (SCALE * mu2 + 1500.0, SCALE * phi2, sigma2)
}

#[test]
fn the_hand_written_glicko2_matches_the_papers_example() {
    let (r, rd, s) = glicko2(
        (1500.0, 200.0, 0.06),
        &[(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)],
    );
    assert!((r - 1464.06).abs() < 0.01, "{r}");
    assert!((rd - 151.52).abs() < 0.01, "{rd}");
    assert!((s - 0.05999).abs() < 0.00001, "{s}");
}

/// Play a two-seat game on sockets to its end: `tokens[i]` plays seat `i` (None: a bot).
async fn play_out(server: &server::Server, id: &str, tokens: &[Option<&str>]) -> Value {
    let (addr, shared) = (server.addr, server.shared.clone());
    let mut tasks = Vec::new();
    for (seat, t) in tokens.iter().enumerate() {
        let Some(t) = t else { continue };
        let mut c = Client::connect(addr, id, Some(t)).await;
        let (s, id) = (shared.clone(), id.to_string());
        tasks.push(tokio::spawn(async move {
            play(&mut c, &s, &id, seat as u8, 40 + seat as u64).await
        }));
    }
    let mut outcome = Value::Null;
    for t in tasks {
        outcome = t.await.unwrap();
    }
    finished(addr, id).await;
    outcome
}

fn place(outcome: &Value, seat: u64) -> usize {
    let ranking = outcome["ranking"].as_array().unwrap();
    let mut place = 0;
    for group in ranking {
        let g = group.as_array().unwrap();
        if g.iter().any(|s| s.as_u64() == Some(seat)) {
            return place;
        }
        place += g.len();
    }
    panic!("seat {seat} is not ranked: {outcome}");
}

fn rating_of(profile: &Value, game: &str) -> Option<(f64, f64, f64, u64)> {
    profile["ratings"].as_array()?.iter().find(|r| r["game"] == game).map(|r| {
        (
            r["rating"].as_f64().unwrap(),
            r["deviation"].as_f64().unwrap(),
            r["volatility"].as_f64().unwrap(),
            r["games"].as_u64().unwrap(),
        )
    })
}

async fn profile(addr: SocketAddr, id: &str) -> Value {
    let (status, p) = http(addr, "GET", &format!("/api/players/{id}"), None, None).await;
    assert_eq!(status, 200, "{p}");
    p
}

/// Issue 16: a guest plays, claims an account (the same identity: the game stays theirs), signs
/// in on another device (a new session) and finds the game in "my games", with "your move"
/// exactly when the game waits for their seat.
#[tokio::test]
async fn a_guest_claims_an_account_signs_in_elsewhere_and_sees_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let guest_token = guest(addr, "Ann").await;
    let id =
        create(addr, &guest_token, json!({ "game": "autoscooter", "seats": ["me", "bot:random"] }))
            .await;
    let mut c = Client::connect(addr, &id, Some(&guest_token)).await;
    let waiting = match c.recv().await {
        ServerMsg::Welcome { waiting, .. } => waiting,
        other => panic!("{other:?}"),
    };
    let before = me(addr, &guest_token).await;
    assert_eq!(before["guest"], true);
    // Claim: typed errors first, nothing changes.
    for (body, code) in [
        (json!({ "username": "an", "password": "correct horse" }), "bad_username"),
        (json!({ "username": "ann smith", "password": "correct horse" }), "bad_username"),
        (json!({ "username": "botann", "password": "correct horse" }), "bad_username"),
        (json!({ "username": "ann", "password": "short" }), "bad_password"),
        (json!({ "username": "ann", "password": "x".repeat(129) }), "bad_password"),
    ] {
        let (status, e) = http(addr, "POST", "/api/account", Some(&guest_token), Some(body)).await;
        assert_eq!((status, e["code"].as_str()), (400, Some(code)), "{e}");
    }
    assert_eq!(me(addr, &guest_token).await["guest"], true);
    let (status, v) = http(
        addr,
        "POST",
        "/api/account",
        Some(&guest_token),
        Some(json!({ "username": "Ann_S", "password": "correct horse" })),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["id"], before["id"], "the same identity");
    // The username is taken in any case; an account claims once.
    let other = guest(addr, "Other").await;
    let (status, e) = http(
        addr,
        "POST",
        "/api/account",
        Some(&other),
        Some(json!({ "username": "ann_s", "password": "correct horse" })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("username_taken")));
    let (status, e) = http(
        addr,
        "POST",
        "/api/account",
        Some(&guest_token),
        Some(json!({ "username": "ann_t", "password": "correct horse" })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (409, Some("already_account")));
    // Another device: a wrong password is refused, the right one opens a new session.
    let (status, e) = http(
        addr,
        "POST",
        "/api/session",
        None,
        Some(json!({ "username": "ann_s", "password": "wrong horse" })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_credentials")));
    let (status, e) = http(
        addr,
        "POST",
        "/api/session",
        None,
        Some(json!({ "username": "nobody", "password": "wrong horse" })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_credentials")), "the same answer");
    let (status, s) = http(
        addr,
        "POST",
        "/api/session",
        None,
        Some(json!({ "username": "ANN_S", "password": "correct horse" })),
    )
    .await;
    assert_eq!(status, 200, "{s}");
    let laptop = s["token"].as_str().unwrap().to_string();
    assert_ne!(laptop, guest_token);
    assert_eq!(s["id"], before["id"]);
    let (status, mine) = http(addr, "GET", "/api/me/games", Some(&laptop), None).await;
    assert_eq!(status, 200, "{mine}");
    let games = mine["games"].as_array().unwrap();
    let g = games.iter().find(|g| g["id"] == id.as_str()).expect("the guest's game is mine");
    assert_eq!(g["your_move"], waiting.contains(&0), "{g}");
    assert_eq!(g["seat"], 0);
    // Renaming shows in the game's seat; signing out ends only that session.
    let (status, _) =
        http(addr, "POST", "/api/account/name", Some(&laptop), Some(json!({ "name": "Annie" })))
            .await;
    assert_eq!(status, 200);
    let (_, info) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(info["seats"][0]["name"], "Annie");
    let (status, e) = http(
        addr,
        "POST",
        "/api/account/name",
        Some(&laptop),
        Some(json!({ "name": "x".repeat(41) })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_name")));
    let (status, _) = http(addr, "POST", "/api/session/end", Some(&laptop), None).await;
    assert_eq!(status, 200);
    let (status, _) = http(addr, "GET", "/api/account", Some(&laptop), None).await;
    assert_eq!(status, 401, "that session is over");
    assert_eq!(me(addr, &guest_token).await["name"], "Annie", "the other one goes on");
    // Search by username prefix (any case), limited.
    let (status, found) = http(addr, "GET", "/api/players?prefix=aNn", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(found["players"][0]["id"], before["id"], "{found}");
    for q in ["prefix=", "prefix=aaaaaaaaaaaaaaaaaaaaa", "prefix=a&limit=21", "limit=3"] {
        let (status, e) = http(addr, "GET", &format!("/api/players?{q}"), None, None).await;
        assert_eq!((status, e["code"].as_str()), (400, Some("bad_query")), "{q}: {e}");
    }
    c.close().await;
    server.shutdown().await;
}

/// Sign-in attempts are limited per username (and per address): the eleventh within the window
/// is refused before any password is checked, even the right one.
#[tokio::test]
async fn sign_in_attempts_are_limited() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    account(addr, "Ann", "ann").await;
    for _ in 0..server::platform::ATTEMPTS_PER_USERNAME {
        let body = json!({ "username": "ann", "password": "wrong horse" });
        let (status, _) = http(addr, "POST", "/api/session", None, Some(body)).await;
        assert_eq!(status, 400);
    }
    let body = json!({ "username": "ann", "password": "correct horse" });
    let (status, e) = http(addr, "POST", "/api/session", None, Some(body)).await;
    assert_eq!((status, e["code"].as_str()), (429, Some("too_many_attempts")), "{e}");
    server.shutdown().await;
}

/// A rated game between two accounts changes both ratings exactly as docs/platform.md says:
/// one rating period per player, the other seat one game at its rating before the game (both
/// new: 1500/350/0.06), the result from the final ranking; checked against Glicko-2 computed
/// here from the paper's formulas.
#[tokio::test]
async fn a_rated_game_between_two_accounts_changes_both_ratings_as_glicko2_says() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let bob = account(addr, "Bob", "bob").await;
    let (ann_id, bob_id) = (me(addr, &ann).await["id"].clone(), me(addr, &bob).await["id"].clone());
    let id = create(addr, &ann, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    let (status, g) = http(addr, "POST", &format!("/api/games/{id}/join"), Some(&bob), None).await;
    assert_eq!(status, 200, "{g}");
    let outcome = play_out(&server, &id, &[Some(&ann), Some(&bob)]).await;
    let (pa, pb) = (place(&outcome, 0), place(&outcome, 1));
    let score = |me: usize, them: usize| match me.cmp(&them) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    };
    let new = (1500.0, 350.0, 0.06);
    let want_a = glicko2(new, &[(1500.0, 350.0, score(pa, pb))]);
    let want_b = glicko2(new, &[(1500.0, 350.0, score(pb, pa))]);
    for (who, want) in [(&ann_id, want_a), (&bob_id, want_b)] {
        let p = profile(addr, who.as_str().unwrap()).await;
        let (r, rd, s, n) = rating_of(&p, "autoscooter").expect("rated");
        assert!((r - want.0).abs() < 1e-3, "rating {r} vs {want:?} ({outcome})");
        assert!((rd - want.1).abs() < 1e-3, "deviation {rd} vs {want:?}");
        assert!((s - want.2).abs() < 1e-6, "volatility {s} vs {want:?}");
        assert_eq!(n, 1);
        let (status, h) = http(
            addr,
            "GET",
            &format!("/api/players/{}/history?game=autoscooter", who.as_str().unwrap()),
            None,
            None,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(h["points"].as_array().unwrap().len(), 1);
        assert_eq!(h["points"][0]["game_id"], id.as_str());
        assert_eq!(h["points"][0]["before"], 1500.0);
    }
    // The leaderboard lists both, best first.
    let (status, board) = http(addr, "GET", "/api/leaderboard/autoscooter", None, None).await;
    assert_eq!(status, 200, "{board}");
    let players = board["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert!(players[0]["rating"].as_f64() >= players[1]["rating"].as_f64());
    // The game is on both profiles with each one's place.
    let (_, games) =
        http(addr, "GET", &format!("/api/players/{}/games", ann_id.as_str().unwrap()), None, None)
            .await;
    assert_eq!(games["games"][0]["id"], id.as_str());
    assert_eq!(games["games"][0]["place"], pa);
    for q in ["limit=0", "limit=101", "before=nonsense"] {
        let path = format!("/api/players/{}/games?{q}", ann_id.as_str().unwrap());
        let (status, e) = http(addr, "GET", &path, None, None).await;
        assert_eq!((status, e["code"].as_str()), (400, Some("bad_query")), "{q}");
    }
    for (path, code) in [
        ("/api/leaderboard/chess", "unknown_game"),
        ("/api/leaderboard/autoscooter?offset=10001", "bad_query"),
        ("/api/leaderboard/autoscooter?limit=101", "bad_query"),
    ] {
        let (status, e) = http(addr, "GET", path, None, None).await;
        assert_eq!((status, e["code"].as_str()), (400, Some(code)), "{path}");
    }
    server.shutdown().await;
}

/// A robodrome bot has an account of its own (`bot:<spec>`, made when it first plays a rated
/// game), so its rating is on the people's scale; the game against it is rated for both.
#[tokio::test]
async fn a_bot_has_a_rated_account_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let id = create(addr, &ann, json!({ "game": "autoscooter", "seats": ["me", "bot:heuristic"] }))
        .await;
    let outcome = play_out(&server, &id, &[Some(&ann), None]).await;
    let p = profile(addr, "bot:heuristic").await;
    assert_eq!(p["bot"], true);
    let (r, ..) = rating_of(&p, "autoscooter").expect("the bot is rated");
    let want = glicko2(
        (1500.0, 350.0, 0.06),
        &[(
            1500.0,
            350.0,
            match place(&outcome, 1).cmp(&place(&outcome, 0)) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            },
        )],
    );
    assert!((r - want.0).abs() < 1e-3, "{r} vs {want:?}");
    let (_, found) = http(addr, "GET", "/api/players?prefix=bot:heu", None, None).await;
    assert_eq!(found["players"][0]["id"], "bot:heuristic", "{found}");
    server.shutdown().await;
}

/// Practice games (a chosen seed) and games with a guest seat are not rated: no rating, no
/// history, no leaderboard entry, for anyone.
#[tokio::test]
async fn unrated_games_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let bob = account(addr, "Bob", "bob").await;
    let gus = guest(addr, "Gus").await;
    let practice = create(
        addr,
        &ann,
        json!({ "game": "autoscooter", "seats": ["me", "open"], "seed": 5, "practice": true }),
    )
    .await;
    http(addr, "POST", &format!("/api/games/{practice}/join"), Some(&bob), None).await;
    play_out(&server, &practice, &[Some(&ann), Some(&bob)]).await;
    let with_guest =
        create(addr, &ann, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    http(addr, "POST", &format!("/api/games/{with_guest}/join"), Some(&gus), None).await;
    play_out(&server, &with_guest, &[Some(&ann), Some(&gus)]).await;
    for t in [&ann, &bob, &gus] {
        let id = me(addr, t).await["id"].as_str().unwrap().to_string();
        let p = profile(addr, &id).await;
        assert_eq!(p["ratings"], json!([]), "{p}");
    }
    let (_, board) = http(addr, "GET", "/api/leaderboard/autoscooter", None, None).await;
    assert_eq!(board["players"], json!([]));
    server.shutdown().await;
}

/// Sessions slide: one used within `token_ttl` of its last renewal is renewed; one unused for
/// longer is refused. The stored renewal time is moved back directly in the database (the
/// clock the server compares it with is the real one).
#[tokio::test]
async fn sessions_slide_and_expire() {
    let dir = tempfile::tempdir().unwrap();
    // Longer than the renewal interval (a session is renewed at most once an hour).
    let ttl = 3 * server::platform::RENEW_EVERY;
    let server =
        start_server(&dir, |c| c.token_ttl = std::time::Duration::from_secs(ttl as u64)).await;
    let addr = server.addr;
    account(addr, "Ann", "ann").await;
    let (_, s) = http(
        addr,
        "POST",
        "/api/session",
        None,
        Some(json!({ "username": "ann", "password": "correct horse" })),
    )
    .await;
    let token = s["token"].as_str().unwrap().to_string();
    let hash = server::schema::hash_token(&token);
    let db = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.path().join("robodrome.db").display()
    ))
    .await
    .unwrap();
    let age = |secs: i64| {
        let (db, hash) = (db.clone(), hash.clone());
        async move {
            sqlx::query("UPDATE tokens SET issued_at = unixepoch() - ? WHERE hash = ?")
                .bind(secs)
                .bind(hash)
                .execute(&db)
                .await
                .unwrap();
        }
    };
    let issued = || {
        let (db, hash) = (db.clone(), hash.clone());
        async move {
            let (at, now): (i64, i64) =
                sqlx::query_as("SELECT issued_at, unixepoch() FROM tokens WHERE hash = ?")
                    .bind(hash)
                    .fetch_one(&db)
                    .await
                    .unwrap();
            now - at
        }
    };
    age(ttl - 10).await;
    let (status, _) = http(addr, "GET", "/api/account", Some(&token), None).await;
    assert_eq!(status, 200, "10 s left: still valid");
    assert!(issued().await < 5, "used: renewed");
    // Used again within the hour: not written again.
    age(100).await;
    let (status, _) = http(addr, "GET", "/api/account", Some(&token), None).await;
    assert_eq!(status, 200);
    assert!(issued().await >= 100, "renewed at most once an hour");
    age(ttl + 1).await;
    let (status, e) = http(addr, "GET", "/api/account", Some(&token), None).await;
    assert_eq!((status, e["code"].as_str()), (401, Some("unauthorized")), "expired");
    db.close().await;
    server.shutdown().await;
}

/// Deleting an account: the password again; then its games stay, under "deleted player N",
/// its username is free, its sessions end, its ratings leave the leaderboard.
#[tokio::test]
async fn deleting_an_account_anonymises_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let ann_id = me(addr, &ann).await["id"].as_str().unwrap().to_string();
    let id =
        create(addr, &ann, json!({ "game": "autoscooter", "seats": ["me", "bot:random"] })).await;
    play_out(&server, &id, &[Some(&ann), None]).await;
    let (status, e) = http(
        addr,
        "POST",
        "/api/account/delete",
        Some(&ann),
        Some(json!({ "password": "wrong horse" })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_credentials")));
    let (status, d) = http(
        addr,
        "POST",
        "/api/account/delete",
        Some(&ann),
        Some(json!({ "password": "correct horse" })),
    )
    .await;
    assert_eq!(status, 200, "{d}");
    let anon = d["name"].as_str().unwrap().to_string();
    assert!(anon.starts_with("deleted player "), "{anon}");
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished", "the game stays");
    assert_eq!(g["seats"][0]["name"], anon.as_str());
    let (_, replay) = http(addr, "GET", &format!("/api/games/{id}/replay"), None, None).await;
    assert!(!replay.to_string().contains("\"Ann\""), "{replay}");
    let (status, _) = http(addr, "GET", "/api/account", Some(&ann), None).await;
    assert_eq!(status, 401, "every session ended");
    let p = profile(addr, &ann_id).await;
    assert_eq!((p["deleted"].clone(), p["name"].clone()), (json!(true), json!(anon)));
    assert_eq!(p["ratings"], json!([]));
    let (_, board) = http(addr, "GET", "/api/leaderboard/autoscooter", None, None).await;
    assert!(!board.to_string().contains(&ann_id), "{board}");
    // The username is free again.
    account(addr, "Ann2", "ann").await;
    server.shutdown().await;
}

/// Follow, presence, invitations and blocks: a followed player's presence shows; an invitation
/// lands in their notices with the table's link; once they block the inviter, that inviter's
/// invitations are dropped and their chat lines at the blocker's table are refused.
#[tokio::test]
async fn follows_invitations_and_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let bob = account(addr, "Bob", "bob").await;
    let cat = account(addr, "Cat", "cat").await;
    let ann_id = me(addr, &ann).await["id"].as_str().unwrap().to_string();
    let bob_id = me(addr, &bob).await["id"].as_str().unwrap().to_string();
    for t in [&bob, &cat] {
        let (status, v) =
            http(addr, "POST", "/api/follows", Some(t), Some(json!({ "player": ann_id }))).await;
        assert_eq!(status, 200, "{v}");
    }
    let (_, f) = http(addr, "GET", "/api/follows", Some(&bob), None).await;
    assert_eq!(f["players"][0]["id"], ann_id.as_str());
    assert_eq!(f["players"][0]["online"], true, "Ann just made a request");
    // Invitations need a table of the inviter's, open, and a followed player.
    let bobs = create(addr, &bob, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    let (status, e) = http(
        addr,
        "POST",
        "/api/invites",
        Some(&bob),
        Some(json!({ "player": me(addr, &cat).await["id"], "game": bobs })),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("not_following")));
    let (status, _) = http(
        addr,
        "POST",
        "/api/invites",
        Some(&bob),
        Some(json!({ "player": ann_id, "game": bobs })),
    )
    .await;
    assert_eq!(status, 202);
    let (_, n) = http(addr, "GET", "/api/notices", Some(&ann), None).await;
    assert_eq!(n["notices"][0]["link"], format!("/games/{bobs}"), "{n}");
    assert_eq!(n["notices"][0]["from"], bob_id.as_str());
    // Ann blocks Bob: his next invitation is dropped (he is not told), Cat's still arrives.
    let (status, _) =
        http(addr, "POST", "/api/blocks", Some(&ann), Some(json!({ "player": bob_id }))).await;
    assert_eq!(status, 200);
    let bobs2 = create(addr, &bob, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    let (status, _) = http(
        addr,
        "POST",
        "/api/invites",
        Some(&bob),
        Some(json!({ "player": ann_id, "game": bobs2 })),
    )
    .await;
    assert_eq!(status, 202);
    let cats = create(addr, &cat, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    http(addr, "POST", "/api/invites", Some(&cat), Some(json!({ "player": ann_id, "game": cats })))
        .await;
    let (_, n) = http(addr, "GET", "/api/notices", Some(&ann), None).await;
    let links: Vec<&str> =
        n["notices"].as_array().unwrap().iter().map(|x| x["game"].as_str().unwrap()).collect();
    assert_eq!(links, vec![cats.as_str(), bobs.as_str()], "nothing new from Bob");
    // Chat at Ann's table: Bob's lines are refused, Cat's pass; unblocked, Bob's pass too.
    let anns =
        create(addr, &ann, json!({ "game": "autoscooter", "seats": ["me", "open", "open"] })).await;
    let say = |t: String| {
        let path = format!("/api/games/{anns}/chat");
        async move { http(addr, "POST", &path, Some(&t), Some(json!({ "text": "hello" }))).await }
    };
    let (status, e) = say(bob.clone()).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_chat")), "{e}");
    let (status, _) = say(cat.clone()).await;
    assert_eq!(status, 200);
    let (_, lines) = http(addr, "GET", &format!("/api/games/{anns}/chat"), None, None).await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");
    http(addr, "POST", "/api/blocks", Some(&ann), Some(json!({ "player": bob_id, "on": false })))
        .await;
    let (status, _) = say(bob.clone()).await;
    assert_eq!(status, 200);
    // Bad input: typed errors.
    for (path, body, code) in [
        ("/api/follows", json!({ "player": "nobody" }), "no_such_player"),
        ("/api/follows", json!({ "player": ann_id }), "bad_player"),
        ("/api/blocks", json!({ "player": ann_id }), "bad_player"),
        ("/api/follows", json!({ "player": ann_id, "x": 1 }), "bad_request"),
    ] {
        let (status, e) = http(addr, "POST", path, Some(&ann), Some(body)).await;
        assert_eq!((status, e["code"].as_str()), (400, Some(code)), "{path}: {e}");
    }
    // Guests may block but not follow or invite.
    let gus = guest(addr, "Gus").await;
    let (status, _) =
        http(addr, "POST", "/api/follows", Some(&gus), Some(json!({ "player": ann_id }))).await;
    assert_eq!(status, 403);
    let (status, _) =
        http(addr, "POST", "/api/blocks", Some(&gus), Some(json!({ "player": ann_id }))).await;
    assert_eq!(status, 200);
    server.shutdown().await;
}

/// A blocked player's lines are hidden from the player who blocked them at every table, even
/// one where nobody at the table blocks them (docs/platform.md "Blocking"): not sent to the
/// blocker's connection (neither the kept lines a new connection gets nor the live ones), not
/// in the blocker's `GET …/chat`; everyone else still gets them; an unblock shows the next line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_players_chat_is_hidden_from_the_blocker_at_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, fast).await;
    let addr = server.addr;
    let ann = account(addr, "Ann", "ann").await;
    let bob = account(addr, "Bob", "bob").await;
    let cat = account(addr, "Cat", "cat").await;
    let dan = guest(addr, "Dan").await;
    let bob_id = me(addr, &bob).await["id"].as_str().unwrap().to_string();
    let (status, _) =
        http(addr, "POST", "/api/blocks", Some(&ann), Some(json!({ "player": bob_id }))).await;
    assert_eq!(status, 200);
    // Cat's table, Bob seated: nobody there blocks Bob, so his lines are said.
    let id = create(addr, &cat, json!({ "game": "autoscooter", "seats": ["me", "open"] })).await;
    join(addr, &id, &bob).await;
    let path = format!("/api/games/{id}/chat");
    let say = |token: String, text: &'static str| {
        let path = path.clone();
        async move {
            let (status, v) =
                http(addr, "POST", &path, Some(&token), Some(json!({ "text": text }))).await;
            assert_eq!(status, 200, "{v}");
        }
    };
    say(bob.clone(), "kept from Bob").await;
    // Ann and Dan watch; Cat speaks after each line of Bob's, so each check has an end.
    let mut ann_c = Client::connect(addr, &id, Some(&ann)).await;
    let mut dan_c = Client::connect(addr, &id, Some(&dan)).await;
    say(cat.clone(), "one").await;
    say(bob.clone(), "live from Bob").await;
    say(cat.clone(), "two").await;
    let texts = |lines: Vec<protocol::ChatLine>| -> Vec<String> {
        lines.into_iter().map(|l| l.text).collect()
    };
    assert_eq!(texts(until_line(&mut ann_c, "two").await), ["one", "two"], "Ann sees no Bob");
    assert_eq!(
        texts(until_line(&mut dan_c, "two").await),
        ["kept from Bob", "one", "live from Bob", "two"],
        "Dan sees everything"
    );
    let listed = |token: String| {
        let path = path.clone();
        async move {
            let (_, v) = http(addr, "GET", &path, Some(&token), None).await;
            let lines = v["lines"].as_array().unwrap().clone();
            lines.iter().map(|l| l["text"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(ann.clone()).await, ["one", "two"]);
    assert_eq!(listed(dan.clone()).await.len(), 4);
    // Unblocked: Bob's next line reaches Ann's open connection.
    http(addr, "POST", "/api/blocks", Some(&ann), Some(json!({ "player": bob_id, "on": false })))
        .await;
    say(bob.clone(), "after").await;
    assert_eq!(texts(until_line(&mut ann_c, "after").await), ["after"]);
    server.shutdown().await;
}
