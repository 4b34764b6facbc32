//! The social table (docs/protocol.md "Chat", "Rematch", "Resign and leave", "Take back"):
//! chat with its limits and its secrecy (spectators' lines never reach players during the
//! game, and no frame carries more than the line), rematch, resign and leave over a real
//! server; a bot's stand-in taken back on tokio's paused clock.

use crate::support::*;
use engine::Observer;
use protocol::{ClientMsg, ServerMsg};
use serde_json::{Value, json};
use server::room::Cmd;
use std::time::Duration;

/// Create a game with `seats` as `token`; Bob's token joins the first open seat if given.
async fn game(addr: std::net::SocketAddr, token: &str, seats: Value, bob: Option<&str>) -> String {
    let body = json!({"game": "autoscooter", "seats": seats, "seed": 5, "practice": true});
    let id = create_game(addr, token, body).await;
    if let Some(bob) = bob {
        join(addr, &id, bob).await;
    }
    id
}

/// The next error's code, skipping every other frame.
async fn err(c: &mut Client) -> String {
    loop {
        if let ServerMsg::Error { code, .. } = c.recv().await {
            return code.as_str().to_string();
        }
    }
}

fn say(text: &str) -> ClientMsg {
    ClientMsg::Chat { text: text.into() }
}

/// Players' lines reach everyone; spectators' lines reach spectators only while the game runs
/// (and the HTTP list says the same); line numbers are per channel, so a player's numbers show
/// no gap for the spectators' lines; a frame carries the line and nothing else; anonymous
/// watchers read but cannot speak.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_chat_apart_from_the_players_during_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let (ann, bob, sam) =
        (guest(addr, "Ann").await, guest(addr, "Bob").await, guest(addr, "Sam").await);
    let id = game(addr, &ann, json!(["me", "open"]), Some(&bob)).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    let mut s = Client::connect(addr, &id, Some(&sam)).await;
    let mut anon = Client::connect(addr, &id, None).await;

    a.send(&say("  hello table  ")).await;
    for c in [&mut a, &mut b, &mut s, &mut anon] {
        let lines = until_line(c, "hello table").await;
        let l = lines.last().unwrap();
        assert_eq!((l.n, l.seat, l.name.as_str()), (1, Some(0), "Ann"));
        assert_eq!(l.channel, protocol::ChatChannel::Players);
    }
    // The frame is the line: no identity, no time, nothing of the game.
    let frame: Value = serde_json::from_str(anon.frames.last().unwrap()).unwrap();
    let mut keys: Vec<&str> = frame.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["channel", "n", "name", "seat", "text", "type", "v"]);

    s.send(&say("Ann should ram car 3")).await;
    let spect = until_line(&mut anon, "Ann should ram car 3").await;
    assert_eq!(spect.last().unwrap().channel, protocol::ChatChannel::Spectators);
    assert_eq!((spect.last().unwrap().n, spect.last().unwrap().seat), (1, None));
    until_line(&mut s, "Ann should ram car 3").await;
    // The game's task sends in order: Bob's own next line comes after anything sent before it.
    b.send(&say("good luck")).await;
    for c in [&mut a, &mut b] {
        let lines = until_line(c, "good luck").await;
        assert!(
            lines.iter().all(|l| l.channel == protocol::ChatChannel::Players),
            "a player got a spectator's line during the game: {lines:?}"
        );
        assert_eq!(lines.last().unwrap().n, 2, "players' numbers have no gap");
    }
    // The waiting room's list says the same.
    let (_, for_ann) = http(addr, "GET", &format!("/api/games/{id}/chat"), Some(&ann), None).await;
    assert_eq!(for_ann["lines"].as_array().unwrap().len(), 2, "{for_ann}");
    let (_, for_anon) = http(addr, "GET", &format!("/api/games/{id}/chat"), None, None).await;
    assert_eq!(for_anon["lines"].as_array().unwrap().len(), 3, "{for_anon}");
    // A reconnecting player gets the players' lines again, not the spectators'.
    let mut a2 = Client::connect(addr, &id, Some(&ann)).await;
    let lines = until_line(&mut a2, "good luck").await;
    assert_eq!(lines.iter().map(|l| l.n).collect::<Vec<_>>(), [1, 2]);
    // An anonymous watcher cannot speak.
    anon.send(&say("hi")).await;
    assert_eq!(err(&mut anon).await, "not_signed_in");
    let (status, e) =
        http(addr, "POST", &format!("/api/games/{id}/chat"), None, Some(json!({"text": "hi"})))
            .await;
    assert_eq!((status, e["code"].as_str()), (401, Some("unauthorized")));
}

/// Length, emptiness and one line; the per-identity rate across sockets and HTTP; a refused
/// line reaches nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_are_limited_in_length_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.chat_per_window = 3;
        c.limits.chat_window_secs = 3600;
        c.limits.chat_max_chars = 20;
    })
    .await;
    let addr = server.addr;
    let (ann, bob) = (guest(addr, "Ann").await, guest(addr, "Bob").await);
    let id = game(addr, &ann, json!(["me", "open"]), Some(&bob)).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    for bad in ["x".repeat(21), "   ".into(), "two\nlines".into()] {
        a.send(&say(&bad)).await;
        assert_eq!(err(&mut a).await, "bad_chat", "{bad:?}");
    }
    // 20 characters (not bytes) is the limit.
    a.send(&say(&"é".repeat(20))).await;
    until_line(&mut a, &"é".repeat(20)).await;
    a.send(&say("two")).await;
    until_line(&mut a, "two").await;
    // The third line of the window goes by HTTP, the fourth is refused on either path.
    let path = format!("/api/games/{id}/chat");
    let (status, line) =
        http(addr, "POST", &path, Some(&ann), Some(json!({"text": "three"}))).await;
    assert_eq!((status, line["n"].as_u64()), (200, Some(3)), "{line}");
    a.send(&say("four")).await;
    assert_eq!(err(&mut a).await, "rate_limited");
    let (status, e) = http(addr, "POST", &path, Some(&ann), Some(json!({"text": "four"}))).await;
    assert_eq!((status, e["code"].as_str()), (429, Some("rate_limited")));
    // Bob has his own quota; his line is the next after Ann's three: hers refused reached nobody.
    b.send(&say("mine")).await;
    let lines = until_line(&mut b, "mine").await;
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, [&"é".repeat(20), "two", "three", "mine"]);
    assert_eq!(lines.last().unwrap().n, 4);
}

/// After the game every player is asked; the last "yes" makes a new game with the same setup
/// and seats and a fresh seed, and everybody is sent there. Asking before the end, or as a
/// spectator, is refused; a decline ends the proposal. Players see the spectators' chat once
/// the game is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_asks_every_player_and_makes_the_same_game_anew() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let (ann, bob, sam) =
        (guest(addr, "Ann").await, guest(addr, "Bob").await, guest(addr, "Sam").await);
    let id = game(addr, &ann, json!(["me", "open", "bot:random"]), Some(&bob)).await;
    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    let mut s = Client::connect(addr, &id, Some(&sam)).await;
    s.send(&ClientMsg::Rematch { accept: true }).await;
    assert_eq!(err(&mut s).await, "no_rematch", "a spectator has no seat to rematch");
    a.send(&ClientMsg::Rematch { accept: true }).await;
    loop {
        match a.recv().await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code.as_str(), "no_rematch", "not before the end");
                break;
            }
            ServerMsg::Welcome { .. } | ServerMsg::Update { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    s.send(&say("gg soon")).await;
    until_line(&mut s, "gg soon").await;
    let (oa, ob) = tokio::join!(play(&mut a, &shared, &id, 0, 1), play(&mut b, &shared, &id, 1, 2));
    assert_eq!(oa, ob);
    // Over: the spectators' line reaches the players now.
    let seen = until_line(&mut a, "gg soon").await;
    assert_eq!(seen.last().unwrap().channel, protocol::ChatChannel::Spectators);

    let rematch = async |c: &mut Client| loop {
        if let ServerMsg::Rematch { accepted, asked, declined, game } = c.recv().await {
            return (accepted, asked, declined, game);
        }
    };
    // Every frame of a proposal goes to everybody at the table.
    a.send(&ClientMsg::Rematch { accept: true }).await;
    for c in [&mut a, &mut b, &mut s] {
        assert_eq!(rematch(c).await, (vec![0], vec![1], None, None), "Bob is asked");
    }
    b.send(&ClientMsg::Rematch { accept: false }).await;
    for c in [&mut a, &mut b, &mut s] {
        assert_eq!(rematch(c).await, (vec![], vec![], Some(1), None), "Bob declined");
    }
    a.send(&ClientMsg::Rematch { accept: true }).await;
    for c in [&mut a, &mut b, &mut s] {
        assert_eq!(rematch(c).await.1, vec![1], "asked again");
    }
    b.send(&ClientMsg::Rematch { accept: true }).await;
    let (accepted, asked, _, new) = rematch(&mut a).await;
    assert_eq!((accepted, asked), (vec![0, 1], vec![]));
    let new = new.expect("the new game");
    assert_eq!(rematch(&mut b).await.3.as_deref(), Some(new.as_str()), "Bob is sent there too");
    assert_eq!(rematch(&mut s).await.3.as_deref(), Some(new.as_str()), "and the spectator");
    let old = shared.store.game(&id).await.unwrap().unwrap();
    let row = shared.store.game(&new).await.unwrap().unwrap();
    assert_eq!(
        (row.game.as_str(), &row.setup, &row.seats),
        (old.game.as_str(), &old.setup, &old.seats)
    );
    assert_eq!((row.timer_secs, row.practice), (old.timer_secs, old.practice));
    assert_ne!(row.seed, old.seed, "a fresh seed");
    assert_eq!(row.status, server::store::Status::Running);
    // Asking again answers the game already made.
    a.send(&ClientMsg::Rematch { accept: true }).await;
    assert_eq!(rematch(&mut a).await.3.as_deref(), Some(new.as_str()));
    // Both players hold their seats in the new game.
    let mut a2 = Client::connect(addr, &new, Some(&ann)).await;
    match a2.recv().await {
        // (The new game's bot may have played already.)
        ServerMsg::Welcome { seats, .. } => assert_eq!(seats, vec![0]),
        other => panic!("{other:?}"),
    }
}

/// Leaving an open game frees the seat; resigning a running one gives the seat to a bot to the
/// end, tells the table, refuses the player's actions and marks the record; a finished game
/// cannot be left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_gives_the_seat_to_a_bot_and_the_record_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let (ann, bob) = (guest(addr, "Ann").await, guest(addr, "Bob").await);
    let id = game(addr, &ann, json!(["me", "open", "open"]), Some(&bob)).await;
    let leave = format!("/api/games/{id}/leave");
    let (status, g) = http(addr, "POST", &leave, Some(&bob), None).await;
    assert_eq!((status, g["seats"][1]["kind"].as_str()), (200, Some("open")), "{g}");
    let (status, e) = http(addr, "POST", &leave, Some(&bob), None).await;
    assert_eq!((status, e["code"].as_str()), (409, Some("not_seated")));
    // Bob sits under another name, and the game starts.
    let join = format!("/api/games/{id}/join");
    let (status, e) = http(addr, "POST", &join, Some(&bob), Some(json!({"name": " "}))).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_name")));
    let (_, g) = http(addr, "POST", &join, Some(&bob), Some(json!({"name": "Robert"}))).await;
    assert_eq!(g["seats"][1]["name"], "Robert");
    http(addr, "POST", &format!("/api/games/{id}/start"), Some(&ann), None).await;

    let mut a = Client::connect(addr, &id, Some(&ann)).await;
    let mut b = Client::connect(addr, &id, Some(&bob)).await;
    let (status, g) = http(addr, "POST", &leave, Some(&bob), None).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(
        (g["seats"][1]["kind"].as_str(), g["seats"][1]["name"].as_str()),
        (Some("resigned"), Some("Robert"))
    );
    loop {
        if let ServerMsg::Presence { seat: 1, bot, resigned, .. } = b.recv().await {
            assert!(bot && resigned);
            break;
        }
    }
    b.send(&ClientMsg::Act {
        seat: None,
        action: json!({"type": "plot", "car": 1, "number": 1}),
        id: Some(1),
    })
    .await;
    assert_eq!(err(&mut b).await, "resigned");
    // Ann plays on; the bot plays Robert's seat to the end.
    play(&mut a, &shared, &id, 0, 3).await;
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(
        (g["status"].as_str(), g["seats"][1]["kind"].as_str()),
        (Some("finished"), Some("resigned"))
    );
    let log = shared.store.log(&id).await.unwrap();
    assert!(log.iter().any(|e| matches!(e, engine::LogEntry::Act { seat, .. } if seat.0 == 1)));
    let (status, e) = http(addr, "POST", &leave, Some(&ann), None).await;
    assert_eq!((status, e["code"].as_str()), (409, Some("game_over")));
    // A newcomer sees the settings before joining: the setup, not in the lobby list.
    let (_, info) = http(addr, "GET", &format!("/api/games/{id}?setup=true"), None, None).await;
    assert!(info["setup"]["variants"].is_object(), "{info}");
    let (_, info) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert!(info.get("setup").is_none(), "only when asked for: {info}");
    let (_, list) = http(addr, "GET", "/api/games", None, None).await;
    assert!(list.as_array().unwrap().iter().all(|g| g.get("setup").is_none()));
}

/// Ann never connects: a bot stands in after the grace period and keeps playing when she
/// comes back (the table is told, `bot: true` while connected) until she takes the seat back;
/// then the game waits for her again.
#[tokio::test(start_paused = true)]
async fn a_stand_in_keeps_playing_until_its_player_takes_the_seat_back() {
    let (shared, _stop) = in_memory(|c| c.bot_delay = Duration::from_secs(2));
    let g = shared.guest("Ann").await.unwrap();
    let ann = shared.identity(&g.token).await.unwrap().unwrap();
    let req = serde_json::from_value(
        json!({"game": "autoscooter", "seats": ["me", "bot:random"], "seed": 1, "practice": true}),
    )
    .unwrap();
    let id = shared.create_game(&ann, req).await.unwrap().id;
    let mut spectator = shared.watch(&id, Observer::Spectator).await.unwrap();
    let next = async |s: &mut server::Subscription| {
        ServerMsg::from_frame(&s.rx.recv().await.expect("open")).expect("a message")
    };
    while !matches!(next(&mut spectator).await, ServerMsg::Presence { seat: 0, bot: true, .. }) {}
    let mut a = shared.subscribe(&id, Some(&ann.id)).await.unwrap();
    assert!(matches!(next(&mut a).await, ServerMsg::Welcome { .. }));
    // Back, and told at once that a bot plays for her.
    loop {
        match next(&mut a).await {
            ServerMsg::Presence { seat: 0, connected: true, bot: true, resigned: false } => break,
            ServerMsg::Presence { .. } | ServerMsg::Update { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    // The bot goes on playing her seat while she is connected.
    let before = shared.store.log(&id).await.unwrap().len();
    tokio::time::sleep(Duration::from_secs(10)).await;
    let during = shared.store.log(&id).await.unwrap();
    assert!(
        during[before..]
            .iter()
            .any(|e| matches!(e, engine::LogEntry::Act { seat, .. } if seat.0 == 0)),
        "the stand-in played for Ann while she was back but had not taken the seat"
    );
    a.room.tx.send(Cmd::TakeBack { conn: a.conn }).await.unwrap();
    loop {
        if let ServerMsg::Presence { seat: 0, bot, .. } = next(&mut a).await {
            assert!(!bot, "taken back");
            break;
        }
    }
    // The bot's move already on its way is dropped; from now on the game waits for Ann.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let settled = shared.store.log(&id).await.unwrap().len();
    tokio::time::sleep(Duration::from_secs(120)).await;
    let after = shared.store.log(&id).await.unwrap();
    assert_eq!(after.len(), settled, "nothing is played for Ann any more: {:?}", &after[settled..]);
    a.room.tx.send(Cmd::TakeBack { conn: a.conn }).await.unwrap();
    loop {
        match next(&mut a).await {
            ServerMsg::Error { code, .. } => {
                assert_eq!(code.as_str(), "nothing_to_take_back");
                break;
            }
            ServerMsg::Update { .. } | ServerMsg::Presence { .. } => {}
            other => panic!("{other:?}"),
        }
    }
}
