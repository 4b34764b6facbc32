//! Bot accounts, challenges and the Bot API (docs/protocol.md "Bot API") on a real server:
//! the reference client (`server::bot_client`, what `robodrome bot` runs) plays a full game
//! of each game against a human seat through real sockets with its token; every frame either
//! side receives is exactly its seat's view (the checks of `secrecy.rs`); a bot token cannot
//! act for another seat or open another game; bad tokens and bad requests get typed errors.

use crate::secrecy::{check, play_seat};
use crate::support::{Client, STEP, http, start_server};
use engine::{Observer, Seat};
use protocol::ClientMsg;
use serde_json::{Value, json};
use server::bot_client::{self, Options, Transcript};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// A player with an account (challenges and bot accounts need one): (id, token).
async fn guest(addr: SocketAddr, name: &str) -> (String, String) {
    let token = crate::support::member(addr, name).await;
    let (status, v) = http(addr, "GET", "/api/account", Some(&token), None).await;
    assert_eq!(status, 200, "{v}");
    (v["id"].as_str().unwrap().into(), token)
}

/// A guest (no account): its token.
async fn plain_guest(addr: SocketAddr, name: &str) -> String {
    crate::support::guest(addr, name).await
}

/// Challenges, bot accounts and turn-based games need an account: a guest gets a typed 403
/// `account_required` whose message says so in a sentence, and nothing is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_get_account_required_for_challenges_bots_and_turn_based_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.rate = 1_000_000).await;
    let addr = server.addr;
    let (ann_id, ann) = guest(addr, "Ann").await;
    let gus = plain_guest(addr, "Gus").await;
    let (bot_id, _) = bot_account(addr, &ann, "Robo").await;
    // A challenge from Ann to the bot, which Gus cannot accept either way.
    let req = json!({"to": bot_id, "game": "autoscooter"});
    let (status, c) = http(addr, "POST", "/api/challenges", Some(&ann), Some(req)).await;
    assert_eq!(status, 201, "{c}");
    let accept = format!("/api/challenges/{}/accept", c["id"].as_str().unwrap());
    let turn_based = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "clock": {"per_move_secs": 86400}});
    for (path, body) in [
        ("/api/challenges", Some(json!({"to": ann_id, "game": "autoscooter"}))),
        ("/api/bots", Some(json!({"name": "Gusbot"}))),
        ("/api/games", Some(turn_based)),
        (accept.as_str(), None),
    ] {
        let (status, e) = http(addr, "POST", path, Some(&gus), body).await;
        assert_eq!((status, e["code"].as_str()), (403, Some("account_required")), "{path}: {e}");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("needs an account") && message.contains("sign up"), "{message}");
    }
    let (_, bots) = http(addr, "GET", "/api/bots", Some(&gus), None).await;
    assert_eq!(bots["bots"].as_array().map(Vec::len), Some(0), "no bot was made: {bots}");
    let (_, mine) = http(addr, "GET", "/api/challenges", Some(&ann), None).await;
    assert_eq!(mine["challenges"].as_array().map(Vec::len), Some(1), "none to Ann: {mine}");
    // A real-time game stays open to guests.
    let (status, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(&gus),
        Some(json!({"game": "autoscooter", "seats": ["me", "bot:random"]})),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    server.shutdown().await;
}

/// A bot account of `owner`: (id, token).
async fn bot_account(addr: SocketAddr, owner: &str, name: &str) -> (String, String) {
    let (status, v) =
        http(addr, "POST", "/api/bots", Some(owner), Some(json!({ "name": name }))).await;
    assert_eq!(status, 201, "{v}");
    let token = v["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("rdbot_"), "{token}");
    (v["id"].as_str().unwrap().into(), token)
}

/// The reference client accepts Ann's challenge to each of the three games and plays its seat
/// to the end while Ann plays hers (the heuristic bot's moves) over her own socket. Every frame
/// the bot's socket received is its seat's view at that point with only the events it may see,
/// and the same for Ann (`secrecy::check`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_api_plays_a_full_game_of_each_game_against_a_human_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.rate = 1_000_000).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let (ann_id, ann) = guest(addr, "Ann").await;
    let (_, olga) = guest(addr, "Olga").await;
    let (bot_id, token) = bot_account(addr, &olga, "Randy").await;
    let transcript: Transcript = Arc::new(Mutex::new(Vec::new()));
    let games = ["autoscooter", "roborally", "bumping-bots"];
    let opts = Options {
        games: games.iter().map(|g| g.to_string()).collect(),
        max_games: Some(games.len()),
        bot: "random".into(),
        seed: 5,
    };
    let client = tokio::spawn(bot_client::run(addr, token.clone(), opts, Some(transcript.clone())));
    let mut ann_events = shared.events.subscribe(&ann_id).expect("a stream for Ann");
    let mut played = Vec::new();
    for (i, game) in games.into_iter().enumerate() {
        let mut req = json!({"to": bot_id, "game": game, "seats": ["me", "you"]});
        match game {
            "roborally" => req["board"] = json!("first-steps"),
            "bumping-bots" => {
                req["board"] = json!("oval");
                req["options"] = json!({"laps": 1});
            }
            _ => {}
        }
        // The bot's event stream may open after the challenge: it is then listed first.
        let (status, c) = http(addr, "POST", "/api/challenges", Some(&ann), Some(req)).await;
        assert_eq!(status, 201, "{c}");
        let start = loop {
            let e = tokio::time::timeout(STEP, ann_events.recv()).await.unwrap().unwrap();
            if e["type"] == "game_start" && e["challenge"] == c["id"] {
                break e;
            }
        };
        assert_eq!(start["seat"], 0, "the challenger sits at seat 0: {start}");
        let id = start["game_id"].as_str().unwrap().to_string();
        let (_, info) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(info["seats"][1]["name"], "Randy", "{info}");
        let c = Client::connect(addr, &id, Some(&ann)).await;
        let ann_frames = tokio::time::timeout(
            STEP * 15,
            play_seat(c, shared.clone(), id.clone(), 0, 40 + i as u64),
        )
        .await
        .expect("the game ends in time");
        played.push((game, id, ann_frames));
    }
    let outcomes = tokio::time::timeout(STEP * 3, client).await.expect("the client ends").unwrap();
    let outcomes = outcomes.expect("the client played");
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    // The client is done: every frame its game sockets received is in the transcript.
    for (game, id, ann_frames) in played {
        let prefix = format!("< /api/bot/v1/games/{id} ");
        let bot_frames: Vec<String> = transcript
            .lock()
            .unwrap()
            .iter()
            .filter_map(|l| l.strip_prefix(&prefix).map(str::to_string))
            .collect();
        assert!(bot_frames.iter().any(|f| f.contains("\"type\":\"over\"")), "{game}");
        // The client asks for views only when they changed: checked as it keeps them.
        let (bot_frames, _) = crate::views::kept(&bot_frames);
        let frames = vec![
            (Observer::Seat(Seat(0)), ann_frames),
            (Observer::Seat(Seat(1)), bot_frames),
            (Observer::Spectator, vec![]),
        ];
        let (checked, _) = check(&shared, &id, &frames).await;
        assert!(checked > 4, "{game}: {checked} frames checked");
    }
    // Rated like any game between two accounts: Ann and the bot account each have one rated
    // game of each game (docs/platform.md "Ratings").
    for who in [&ann_id, &bot_id] {
        let (_, p) = http(addr, "GET", &format!("/api/players/{who}"), None, None).await;
        let rated: Vec<(String, u64)> = p["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["game"].as_str().unwrap().to_string(), r["games"].as_u64().unwrap()))
            .collect();
        for game in games {
            assert!(rated.contains(&(game.to_string(), 1)), "{who}: {p}");
        }
    }
    // The trimmed transcript of docs/protocol.md's example session comes from here.
    if std::env::var_os("ROBODROME_BOT_TRANSCRIPT").is_some() {
        for l in transcript.lock().unwrap().iter() {
            println!("{}", l.chars().take(400).collect::<String>());
        }
    }
    server.shutdown().await;
}

/// The reference client plays with the project's real bots from its seat's view alone (each
/// game crate's `from_view`): a `heuristic` bot account beats a `random` one over the Bot API
/// in a short Autoscooter series, seats alternating. Autoscooter has no chance once the cars
/// are dealt, so what decides is what each bot chooses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heuristic_bot_account_beats_a_random_one_over_the_bot_api() {
    const GAMES: usize = 6;
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.rate = 1_000_000).await;
    let addr = server.addr;
    let (_, olga) = guest(addr, "Olga").await;
    let (heu_id, heu) = bot_account(addr, &olga, "Hugo").await;
    let (rnd_id, rnd) = bot_account(addr, &olga, "Randy").await;
    let opts = |bot: &str, seed| Options {
        games: vec!["autoscooter".into()],
        max_games: Some(GAMES),
        bot: bot.into(),
        seed,
    };
    let h = tokio::spawn(bot_client::run(addr, heu.clone(), opts("heuristic", 1), None));
    let r = tokio::spawn(bot_client::run(addr, rnd.clone(), opts("random", 2), None));
    // Seats alternate: Hugo challenges (seat 0) in even games, Randy in odd ones.
    for i in 0..GAMES {
        let (from, to) = if i % 2 == 0 { (&heu, &rnd_id) } else { (&rnd, &heu_id) };
        let req = json!({"to": to, "game": "autoscooter", "seats": ["me", "you"]});
        let (status, c) = http(addr, "POST", "/api/bot/v1/challenges", Some(from), Some(req)).await;
        assert_eq!(status, 201, "{c}");
    }
    let hugo = tokio::time::timeout(STEP * 20, h).await.expect("the series ends in time");
    let randy = tokio::time::timeout(STEP * 20, r).await.expect("the series ends in time");
    let (hugo, randy) = (hugo.unwrap(), randy.unwrap());
    let (hugo, randy) = (hugo.expect("Hugo played"), randy.expect("Randy played"));
    assert_eq!((hugo.len(), randy.len()), (GAMES, GAMES));
    // Each game's ranking (places first to last, seats that tie share one), by Hugo's seat.
    let (mut wins, mut losses) = (0, 0);
    for g in &hugo {
        let seat = g["seat"].as_u64().unwrap();
        let first = &g["outcome"]["ranking"][0];
        let won = first.as_array().unwrap().iter().any(|s| s.as_u64() == Some(seat));
        let alone = first.as_array().unwrap().len() == 1;
        match (won, alone) {
            (true, true) => wins += 1,
            (false, _) => losses += 1,
            _ => {}
        }
    }
    assert!(randy.iter().all(|g| g["outcome"]["ranking"].is_array()), "{randy:?}");
    // Hugo's plots and starts (AS-5.4 — every car in the first round) were the heuristic's,
    // on states rebuilt from his views; a payment's colours (AS-7.3) and retries after a
    // refusal are drawn from the view (as all of Randy's are): at least ten of his decisions
    // in every game, and at least three quarters of them, are the bot's.
    for g in &hugo {
        let (bot, drawn) = (
            g["decisions"]["bot"].as_u64().unwrap(),
            g["decisions"]["from_view"].as_u64().unwrap(),
        );
        assert!(bot >= 10 && bot >= 3 * drawn, "{g}");
    }
    assert!(randy.iter().all(|g| g["decisions"]["bot"] == 0), "{randy:?}");
    // Heuristic beats random in 95 % of Autoscooter games (docs/bots.md "tournament").
    assert!(wins > losses && wins >= 3, "heuristic {wins} wins, {losses} losses: {hugo:?}");
    // Bot accounts are rated like people (docs/platform.md "Ratings"), every game of the
    // series, and the leaderboard marks them BOT; the series' winner is rated higher.
    let (_, board) = http(addr, "GET", "/api/leaderboard/autoscooter", None, None).await;
    let rows = board["players"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["player"] == id).cloned().expect("on the board");
    let (h, r) = (row(&heu_id), row(&rnd_id));
    assert_eq!(
        (h["games"].as_u64(), r["games"].as_u64()),
        (Some(GAMES as u64), Some(GAMES as u64))
    );
    assert_eq!((h["bot"].as_bool(), r["bot"].as_bool()), (Some(true), Some(true)), "{board}");
    assert!(h["rating"].as_f64() > r["rating"].as_f64(), "{board}");
    server.shutdown().await;
}

/// The reference client rebuilds RoboRally and Bumping Bots from its seat's view too (the game
/// crates' `from_view`): a `heuristic` bot account plays a whole game of each against a
/// `random` one over the Bot API with every one of its decisions chosen by the bot on a
/// rebuilt state — programs, power-down questions and re-entries (RR-4, RR-6.4, RR-8.3); speed,
/// moves, shock choices, orientations and cards (BB-5 … BB-9) — none drawn from the view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heuristic_bot_account_plays_roborally_and_bumping_bots_from_its_views_alone() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.rate = 1_000_000).await;
    let addr = server.addr;
    let (_, olga) = guest(addr, "Olga").await;
    let (_, heu) = bot_account(addr, &olga, "Hugo").await;
    let (rnd_id, rnd) = bot_account(addr, &olga, "Randy").await;
    let games = ["roborally", "bumping-bots"];
    let opts = |bot: &str, seed| Options {
        games: games.iter().map(|g| g.to_string()).collect(),
        max_games: Some(games.len()),
        bot: bot.into(),
        seed,
    };
    let h = tokio::spawn(bot_client::run(addr, heu.clone(), opts("heuristic", 3), None));
    let r = tokio::spawn(bot_client::run(addr, rnd.clone(), opts("random", 4), None));
    for game in games {
        let mut req = json!({"to": rnd_id, "game": game, "seats": ["me", "you"]});
        match game {
            "roborally" => req["board"] = json!("first-steps"),
            _ => {
                req["board"] = json!("oval");
                req["options"] = json!({"laps": 1});
            }
        }
        let (status, c) = http(addr, "POST", "/api/bot/v1/challenges", Some(&heu), Some(req)).await;
        assert_eq!(status, 201, "{c}");
    }
    let hugo = tokio::time::timeout(STEP * 20, h).await.expect("the games end in time");
    let randy = tokio::time::timeout(STEP * 20, r).await.expect("the games end in time");
    let (hugo, randy) =
        (hugo.unwrap().expect("Hugo played"), randy.unwrap().expect("Randy played"));
    assert_eq!((hugo.len(), randy.len()), (2, 2));
    for g in &hugo {
        assert!(g["outcome"]["ranking"].is_array(), "a finished game: {g}");
        let (bot, drawn) = (
            g["decisions"]["bot"].as_u64().unwrap(),
            g["decisions"]["from_view"].as_u64().unwrap(),
        );
        assert!(bot >= 3 && drawn == 0, "every decision the bot's: {g}");
    }
    assert!(randy.iter().all(|g| g["decisions"]["bot"] == 0), "{randy:?}");
    server.shutdown().await;
}

/// Next text frame of a raw socket, as JSON.
async fn next_json(s: &mut server::client::Socket) -> Value {
    let t = tokio::time::timeout(STEP, s.recv_text()).await.unwrap().unwrap().expect("open");
    serde_json::from_str(&t).unwrap()
}

/// A bot's token acts for its own seat only: naming the other seat is refused
/// (`not_your_seat`), another game's socket is refused (403), a guest's token is no bot token
/// and the owner's revocation ends the token; bad challenges get typed errors; a bot's
/// requests are rate-limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_token_acts_for_its_own_seat_only_and_bad_requests_get_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let (ann_id, ann) = guest(addr, "Ann").await;
    let (_, bob) = guest(addr, "Bob").await;
    let (bot_id, token) = bot_account(addr, &ann, "Randy").await;

    // Tokens.
    for (t, why) in
        [(None, "none"), (Some("rdbot_0000"), "unknown"), (Some(bob.as_str()), "a guest's")]
    {
        let (status, v) = http(addr, "GET", "/api/bot/v1/account", t, None).await;
        assert_eq!((status, v["code"].as_str()), (401, Some("bad_token")), "{why}: {v}");
    }
    let (status, me) = http(addr, "GET", "/api/bot/v1/account", Some(&token), None).await;
    assert_eq!(status, 200);
    assert_eq!(me["id"], bot_id.as_str());
    // Bob cannot renew or revoke Ann's bot; a bot cannot make bots.
    let (status, v) =
        http(addr, "POST", &format!("/api/bots/{bot_id}/revoke"), Some(&bob), None).await;
    assert_eq!((status, v["code"].as_str()), (404, Some("no_such_bot")), "{v}");

    // Bad challenges.
    let bad = [
        (json!({"game": "autoscooter"}), 400, "bad_challenge"),
        (json!({"to": "nobody", "game": "autoscooter"}), 404, "no_such_player"),
        (json!({"to": ann_id, "game": "autoscooter"}), 400, "bad_challenge"),
        (json!({"to": bot_id, "game": "chess"}), 400, "unknown_game"),
        (json!({"to": bot_id, "game": "autoscooter", "seats": ["me", "me"]}), 400, "bad_seat"),
        (
            json!({"to": bot_id, "game": "autoscooter", "seats": ["me", "you", "open"]}),
            400,
            "bad_seat",
        ),
        (
            json!({"to": bot_id, "game": "autoscooter", "clock": {"per_move_secs": 1}}),
            400,
            "bad_clock",
        ),
        (json!({"to": bot_id, "game": "autoscooter", "expires_secs": 1}), 400, "bad_challenge"),
    ];
    for (body, want, code) in bad {
        let (status, v) =
            http(addr, "POST", "/api/challenges", Some(&ann), Some(body.clone())).await;
        assert_eq!((status, v["code"].as_str()), (want, Some(code)), "{body}: {v}");
    }
    // A good one: Bob may not accept it, the bot does, and only once.
    let body = json!({"to": bot_id, "game": "autoscooter", "clock": {"per_move_secs": 3600}});
    let (status, c) = http(addr, "POST", "/api/challenges", Some(&ann), Some(body)).await;
    assert_eq!(status, 201, "{c}");
    let cid = c["id"].as_str().unwrap();
    let (status, _) =
        http(addr, "POST", &format!("/api/challenges/{cid}/accept"), Some(&bob), None).await;
    assert_eq!(status, 403);
    let path = format!("/api/bot/v1/challenges/{cid}/accept");
    let (status, g) = http(addr, "POST", &path, Some(&token), None).await;
    assert_eq!(status, 200, "{g}");
    let (status, v) = http(addr, "POST", &path, Some(&token), None).await;
    assert_eq!((status, v["code"].as_str()), (409, Some("challenge_closed")), "{v}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["seats"][1]["name"], "Randy");

    // The bot's socket: its own seat only.
    let mut s = server::client::Socket::connect_path(
        addr,
        None,
        &format!("/api/bot/v1/games/{id}"),
        Some(&token),
    )
    .await
    .expect("the bot's socket");
    let w = next_json(&mut s).await;
    assert_eq!(w["type"], "welcome");
    assert_eq!(w["seats"], json!([1]));
    s.send(&ClientMsg::Act { seat: Some(0), action: json!({"type": "plot"}), id: Some(1) })
        .await
        .unwrap();
    loop {
        let f = next_json(&mut s).await;
        if f["type"] == "error" {
            assert_eq!(f["code"], "not_your_seat", "{f}");
            break;
        }
    }
    s.close().await;
    // Another game (Bob's): refused at the handshake.
    let (status, other) = http(
        addr,
        "POST",
        "/api/games",
        Some(&bob),
        Some(json!({"game": "autoscooter", "seats": ["me", "bot:random"]})),
    )
    .await;
    assert_eq!(status, 201);
    let other = other["id"].as_str().unwrap();
    let r = server::client::Socket::connect_path(
        addr,
        None,
        &format!("/api/bot/v1/games/{other}"),
        Some(&token),
    )
    .await;
    assert!(r.is_err(), "a bot may not open a game it holds no seat in");

    // A declined challenge tells the challenger; the event stream lists open challenges first.
    let body = json!({"to": bot_id, "game": "bumping-bots"});
    let (_, c2) = http(addr, "POST", "/api/challenges", Some(&bob), Some(body)).await;
    let mut ev =
        server::client::Socket::connect_path(addr, None, "/api/bot/v1/events", Some(&token))
            .await
            .unwrap();
    let mut seen_challenge = false;
    for _ in 0..2 {
        let e = next_json(&mut ev).await;
        seen_challenge |= e["type"] == "challenge" && e["challenge"]["id"] == c2["id"];
    }
    assert!(seen_challenge, "the open challenge is listed on the stream");
    let (status, d) = http(
        addr,
        "POST",
        &format!("/api/bot/v1/challenges/{}/decline", c2["id"].as_str().unwrap()),
        Some(&token),
        None,
    )
    .await;
    assert_eq!((status, d["status"].as_str()), (200, Some("declined")), "{d}");
    ev.close().await;

    // Revoked: the token stops working.
    let (status, _) =
        http(addr, "POST", &format!("/api/bots/{bot_id}/revoke"), Some(&ann), None).await;
    assert_eq!(status, 200);
    let (status, v) = http(addr, "GET", "/api/bot/v1/account", Some(&token), None).await;
    assert_eq!((status, v["code"].as_str()), (401, Some("bad_token")), "{v}");
    // A renewed token works (shown once), and the rate limit counts its requests.
    let (status, r) =
        http(addr, "POST", &format!("/api/bots/{bot_id}/token"), Some(&ann), None).await;
    assert_eq!(status, 200);
    let renewed = r["token"].as_str().unwrap();
    let mut limited = None;
    for i in 0..server::botapi::REQUESTS_PER_MINUTE + 5 {
        let (status, v) = http(addr, "GET", "/api/bot/v1/account", Some(renewed), None).await;
        if status == 429 {
            assert_eq!(v["code"], "rate_limited");
            limited = Some(i);
            break;
        }
        assert_eq!(status, 200);
    }
    // The earlier requests of this bot count too.
    assert!(limited.is_some_and(|i| i <= server::botapi::REQUESTS_PER_MINUTE), "{limited:?}");
    server.shutdown().await;
}
