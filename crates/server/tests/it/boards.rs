//! Saved boards (docs/editors.md, docs/protocol.md "Boards"): storage with versions, the
//! account rule, validation on upload with lines and columns, size limits, the gallery and
//! its pictures, live validation with cells, and games on saved boards that keep the board
//! they were made on.
//!
//! The tests that store boards run on every backend, as the storage suite does
//! (`storage.rs`): SQLite always, PostgreSQL when `ROBODROME_TEST_PG` names a database (each
//! test in a schema of its own); without it the PostgreSQL half prints that it is skipped.

use crate::storage::{backends, fresh_schema, test_pg};
use crate::support::*;
use protocol::ServerMsg;
use serde_json::{Value, json};
use server::boards::BoardRow;
use server::store_pg::PgStore;
use server::{Config, Server};
use std::net::SocketAddr;
use std::sync::Arc;

/// A server on every backend: (name, server, the directory of its SQLite file).
async fn servers(tag: &str) -> Vec<(&'static str, Server, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = start_server(&dir, |_| {}).await;
    let mut out = vec![("sqlite", sqlite, Some(dir))];
    match test_pg() {
        Some(url) => {
            let pg = PgStore::open_in(&url, Some(&fresh_schema(tag))).await.expect("pg opens");
            let mut config = Config {
                addr: SocketAddr::from(([127, 0, 0, 1], 0)),
                db: url,
                web: None,
                ..Config::default()
            };
            config.limits.guests_per_window = 0;
            config.limits.games_per_window = 0;
            config.limits.open_games_per_identity = 0;
            let srv = Server::start_node(config, Arc::new(pg), None).await.expect("pg server");
            out.push(("postgres", srv, None));
        }
        None => eprintln!(
            "boards::{tag}: PostgreSQL half SKIPPED (ROBODROME_TEST_PG not set; scripts/services start)"
        ),
    }
    out
}

fn board(id: &str, owner: &str, game: &str, text: &str, public: bool) -> BoardRow {
    BoardRow {
        id: id.into(),
        version: 0,
        owner: owner.into(),
        owner_name: String::new(),
        game: game.into(),
        name: format!("Board {id}"),
        text: text.into(),
        public,
        created_at: 0,
    }
}

/// `BoardStore`'s promises on every backend: versions numbered from 1 and kept byte for byte,
/// the latest by default, listings of the latest versions without texts (an owner's, and the
/// public ones of one game or all, visibility being the latest version's), counts per owner,
/// and concurrent saves of one board numbered one after the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_store_keeps_versions_owners_and_visibility() {
    for (name, s, _dir) in backends("boards").await {
        let b = s.boards().unwrap_or_else(|| panic!("{name} keeps boards"));
        s.create_identity("o1", "Ann", "tok-1").await.unwrap();
        s.create_identity("o2", "Bob", "tok-2").await.unwrap();
        assert_eq!(
            b.save_board(&board("b1", "o1", "bumping-bots", "one", false)).await.unwrap(),
            1
        );
        assert_eq!(
            b.save_board(&board("b1", "o1", "bumping-bots", "two", false)).await.unwrap(),
            2
        );
        assert_eq!(b.save_board(&board("b2", "o1", "bumping-bots", "x", true)).await.unwrap(), 1);
        assert_eq!(b.save_board(&board("b3", "o2", "roborally", "y", true)).await.unwrap(), 1);
        let latest = b.board("b1", None).await.unwrap().expect(name);
        assert_eq!(
            (latest.version, latest.text.as_str(), latest.owner_name.as_str()),
            (2, "two", "Ann"),
            "{name}"
        );
        assert_eq!(b.board("b1", Some(1)).await.unwrap().expect(name).text, "one", "{name}");
        assert!(b.board("b1", Some(3)).await.unwrap().is_none(), "{name}");
        assert!(b.board("zz", None).await.unwrap().is_none(), "{name}");

        let ids = |v: Vec<BoardRow>| {
            let mut v: Vec<(String, u32, String)> =
                v.into_iter().map(|r| (r.id, r.version, r.text)).collect();
            v.sort();
            v
        };
        let mine = ids(b.boards_of("o1", 100).await.unwrap());
        assert_eq!(
            mine,
            [("b1".into(), 2, String::new()), ("b2".into(), 1, String::new())],
            "{name}"
        );
        assert_eq!(b.boards_of("o1", 1).await.unwrap().len(), 1, "{name}: the limit");
        let public = ids(b.gallery(None, 100).await.unwrap());
        assert_eq!(public, [("b2".into(), 1, String::new()), ("b3".into(), 1, String::new())]);
        let rr = b.gallery(Some("roborally"), 100).await.unwrap();
        assert_eq!((rr.len(), rr[0].owner_name.as_str()), (1, "Bob"), "{name}");
        // Visibility is the latest version's: b1 made public, b2 hidden again.
        b.save_board(&board("b1", "o1", "bumping-bots", "three", true)).await.unwrap();
        b.save_board(&board("b2", "o1", "bumping-bots", "x", false)).await.unwrap();
        let public = ids(b.gallery(Some("bumping-bots"), 100).await.unwrap());
        assert_eq!(public, [("b1".into(), 3, String::new())], "{name}");
        assert_eq!(
            (b.board_count("o1").await.unwrap(), b.board_count("o2").await.unwrap()),
            (2, 1),
            "{name}"
        );
        assert_eq!(b.board_count("nobody").await.unwrap(), 0, "{name}");

        // Eight saves of one board at once: versions 1 to 8, each once.
        let saves = (0..8).map(|i| {
            let s = s.clone();
            tokio::spawn(async move {
                let b = s.boards().unwrap();
                b.save_board(&board("b9", "o2", "roborally", &format!("v{i}"), false)).await
            })
        });
        let mut versions: Vec<u32> = futures_util::future::join_all(saves)
            .await
            .into_iter()
            .map(|r| r.unwrap().unwrap())
            .collect();
        versions.sort();
        assert_eq!(versions, (1..=8).collect::<Vec<u32>>(), "{name}");
    }
}

const OVAL: &str = include_str!("../../../bumping-bots/tracks/oval.track");

/// The oval track with `ch` drawn at `[q, r]` (the format: cell `[q, r]` is on map row `r`,
/// column `2q + r`, docs/bumping-bots-tracks.md). Returns the text and the 1-based line and
/// column of that character.
fn oval_with(pieces: &[(i32, i32, char)]) -> (String, Vec<(usize, usize)>) {
    let mut lines: Vec<String> = OVAL.lines().map(String::from).collect();
    let map = lines.iter().position(|l| l.trim() == "map: 0").expect("the oval's map") + 1;
    let mut places = Vec::new();
    for &(q, r, ch) in pieces {
        let line = map + r as usize;
        let x = (2 * q + r) as usize;
        let mut chars: Vec<char> = lines[line].chars().collect();
        assert_eq!(chars[x], '.', "[{q},{r}] is a track cell of the oval");
        chars[x] = ch;
        lines[line] = chars.into_iter().collect();
        places.push((line + 1, x + 1));
    }
    (lines.join("\n") + "\n", places)
}

async fn save(addr: SocketAddr, token: &str, body: Value) -> Value {
    let (status, v) = http(addr, "POST", "/api/boards", Some(token), Some(body)).await;
    assert_eq!(status, 201, "{v}");
    v
}

async fn mine(addr: SocketAddr, token: &str) -> Vec<Value> {
    let (status, v) = http(addr, "GET", "/api/boards?owner=me", Some(token), None).await;
    assert_eq!(status, 200, "{v}");
    v["boards"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_guest_may_not_save_a_board() {
    for (backend, srv, _dir) in servers("a_guest_may_not_save").await {
        eprintln!("boards::a_guest_may_not_save_a_board: {backend}");
        let g = guest(srv.addr, "Gus").await;
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards",
            Some(&g),
            Some(json!({ "game": "bumping-bots", "name": "Mine", "text": OVAL })),
        )
        .await;
        assert_eq!((status, v["code"].as_str()), (403, Some("account_required")), "{v}");
        assert!(mine(srv.addr, &g).await.is_empty());
        // Validation needs no account: a guest's editor validates too.
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards/validate",
            Some(&g),
            Some(json!({ "game": "bumping-bots", "text": OVAL })),
        )
        .await;
        assert_eq!((status, &v["ok"]), (200, &json!(true)), "{v}");
    }
}

/// BB-8.1: a fixed obstacle in the middle of the top straight touches no wall: the upload is
/// refused with the line and column of its `#`, and nothing is stored. A format error names its
/// line; a file over the byte limit is refused before it is read.
#[tokio::test]
async fn a_bad_file_is_refused_with_its_line_and_column_and_nothing_is_stored() {
    for (backend, srv, _dir) in servers("a_bad_file_is_refuse").await {
        eprintln!(
            "boards::a_bad_file_is_refused_with_its_line_and_column_and_nothing_is_stored: {backend}"
        );
        let a = account(srv.addr, "Ann", "ann").await;
        let (bad, at) = oval_with(&[(8, 1, '#')]);
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards",
            Some(&a),
            Some(json!({ "game": "bumping-bots", "name": "Bad", "text": bad })),
        )
        .await;
        assert_eq!((status, v["code"].as_str()), (400, Some("board_invalid")), "{v}");
        let want = format!("line {}, column {}", at[0].0, at[0].1);
        assert!(v["message"].as_str().unwrap().contains(&want), "{want}: {v}");
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards",
            Some(&a),
            Some(json!({ "game": "bumping-bots", "name": "Bad", "text": "map: 0\n. x .\nend\n" })),
        )
        .await;
        assert_eq!(status, 400, "{v}");
        assert!(v["message"].as_str().unwrap().contains("line 2"), "{v}");
        let huge = format!("{OVAL}{}", "# padding\n".repeat(4000));
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards/validate",
            Some(&a),
            Some(json!({ "game": "bumping-bots", "text": huge })),
        )
        .await;
        assert_eq!((status, v["code"].as_str()), (400, Some("board_too_large")), "{v}");
        assert!(mine(srv.addr, &a).await.is_empty());
    }
}

#[tokio::test]
async fn an_edit_makes_a_new_version_and_the_old_ones_are_kept() {
    for (backend, srv, _dir) in servers("an_edit_makes_a_new_").await {
        eprintln!("boards::an_edit_makes_a_new_version_and_the_old_ones_are_kept: {backend}");
        let a = account(srv.addr, "Ann", "ann").await;
        let b = account(srv.addr, "Bob", "bob").await;
        let (v1, _) = oval_with(&[(8, 1, 'o')]);
        let (v2, _) = oval_with(&[(12, 1, 'o')]);
        let saved =
            save(srv.addr, &a, json!({ "game": "bumping-bots", "name": "Crates", "text": v1 }))
                .await;
        assert_eq!(saved["version"], 1);
        let id = saved["id"].as_str().unwrap();
        let (status, e) = http(
            srv.addr,
            "PUT",
            &format!("/api/boards/{id}"),
            Some(&b),
            Some(json!({ "text": v2 })),
        )
        .await;
        assert_eq!((status, e["code"].as_str()), (403, Some("forbidden")), "{e}");
        let (status, e) = http(
            srv.addr,
            "PUT",
            &format!("/api/boards/{id}"),
            Some(&a),
            Some(json!({ "text": v2 })),
        )
        .await;
        assert_eq!((status, &e["version"]), (200, &json!(2)), "{e}");
        let (_, latest) = http(srv.addr, "GET", &format!("/api/boards/{id}"), None, None).await;
        assert_eq!((&latest["version"], latest["text"].as_str()), (&json!(2), Some(v2.as_str())));
        let (_, old) =
            http(srv.addr, "GET", &format!("/api/boards/{id}?version=1"), None, None).await;
        assert_eq!(old["text"].as_str(), Some(v1.as_str()), "the file is kept byte for byte");
        let (status, _) =
            http(srv.addr, "GET", &format!("/api/boards/{id}?version=3"), None, None).await;
        assert_eq!(status, 404);
        // One board, listed once at its latest version.
        let list = mine(srv.addr, &a).await;
        assert_eq!((list.len(), &list[0]["version"]), (1, &json!(2)), "{list:?}");
    }
}

#[tokio::test]
async fn an_account_owns_at_most_the_limit_of_boards() {
    for (backend, srv, _dir) in servers("an_account_owns_at_m").await {
        eprintln!("boards::an_account_owns_at_most_the_limit_of_boards: {backend}");
        let a = account(srv.addr, "Ann", "ann").await;
        let body = json!({ "game": "bumping-bots", "name": "Oval", "text": OVAL });
        for _ in 0..server::boards::BOARDS_PER_OWNER {
            save(srv.addr, &a, body.clone()).await;
        }
        let (status, v) = http(srv.addr, "POST", "/api/boards", Some(&a), Some(body)).await;
        assert_eq!((status, v["code"].as_str()), (429, Some("too_many_boards")), "{v}");
    }
}

/// The editor's live answer: each finding with the cell it concerns, and every cell's progress
/// and lane (BB-2.1) computed by the game crate.
#[tokio::test]
async fn validation_names_the_cells_and_gives_the_racing_line() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_server(&dir, |_| {}).await;
    let g = guest(srv.addr, "Gus").await;
    let (bad, _) = oval_with(&[(8, 1, '#')]);
    let (status, v) = http(
        srv.addr,
        "POST",
        "/api/boards/validate",
        Some(&g),
        Some(json!({ "game": "bumping-bots", "text": bad })),
    )
    .await;
    assert_eq!((status, &v["ok"]), (200, &json!(false)), "{v}");
    let errors: Vec<&Value> =
        v["findings"].as_array().unwrap().iter().filter(|f| f["severity"] == "error").collect();
    assert_eq!(errors.len(), 1, "{v}");
    assert_eq!((&errors[0]["cell"], errors[0]["rule"].as_str()), (&json!([8, 1]), Some("BB-8.1")));
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len() as u64, v["size"].as_u64().unwrap());
    // The oval's line is the cut between q <= 10 and q >= 11 on the top straight: the cell just
    // past it has progress 0, the one just before it 1000 (docs/bumping-bots-tracks.md).
    let progress = |q: i64, r: i64| {
        cells.iter().find(|c| c[0] == q && c[1] == r).map(|c| c[2].as_i64().unwrap())
    };
    assert_eq!((progress(11, 0), progress(10, 0)), (Some(0), Some(1000)), "{v}");
}

/// The rink editor's answer (docs/editors.md): each Autoscooter finding about a start space
/// names its hex, so the editor marks it (AS-1.2).
#[tokio::test]
async fn a_rink_s_findings_name_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_server(&dir, |_| {}).await;
    let g = guest(srv.addr, "Ria").await;
    // Car 0 ([1,0]) facing NW, off the rink; car 1 moved off the rink to [20,0].
    let text = include_str!("../../../autoscooter/boards/standard.json")
        .replace("{\"at\": [1,0], \"facing\": 1}", "{\"at\": [1,0], \"facing\": 4}")
        .replace("{\"at\": [6,0], \"facing\": 2}", "{\"at\": [20,0], \"facing\": 2}");
    let (status, v) = http(
        srv.addr,
        "POST",
        "/api/boards/validate",
        Some(&g),
        Some(json!({ "game": "autoscooter", "text": text })),
    )
    .await;
    assert_eq!((status, &v["ok"], &v["size"]), (200, &json!(false), &json!(38)), "{v}");
    let found: Vec<(&str, &Value, u64)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["severity"].as_str().unwrap(), &f["cell"], f["line"].as_u64().unwrap()))
        .collect();
    // Lines 12 and 13 of the file hold start spaces 0 and 1.
    assert_eq!(found, [("warning", &json!([1, 0]), 12), ("error", &json!([20, 0]), 13)], "{v}");
}

#[tokio::test]
async fn the_gallery_lists_public_boards_with_their_pictures() {
    for (backend, srv, _dir) in servers("the_gallery_lists_pu").await {
        eprintln!("boards::the_gallery_lists_public_boards_with_their_pictures: {backend}");
        let a = account(srv.addr, "Ann", "ann").await;
        let b = account(srv.addr, "Bob", "bob").await;
        let public = save(
            srv.addr,
            &a,
            json!({ "game": "bumping-bots", "name": "Shown", "text": OVAL, "public": true }),
        )
        .await;
        save(srv.addr, &a, json!({ "game": "bumping-bots", "name": "Hidden", "text": OVAL })).await;
        let (status, v) = http(srv.addr, "GET", "/api/boards?owner=gallery", Some(&b), None).await;
        assert_eq!(status, 200, "{v}");
        let names: Vec<&str> =
            v["boards"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Shown"]);
        assert_eq!(v["boards"][0]["owner_name"], "Ann");
        let id = public["id"].as_str().unwrap();
        let (status, svg) =
            http(srv.addr, "GET", &format!("/api/boards/{id}/picture"), None, None).await;
        assert_eq!(status, 200);
        assert!(
            svg.as_str().is_some_and(|s| s.starts_with("<svg") || s.starts_with("<?xml")),
            "{svg}"
        );
        let (status, v) =
            http(srv.addr, "GET", "/api/boards?owner=gallery&game=roborally", Some(&b), None).await;
        assert_eq!((status, v["boards"].as_array().map(Vec::len)), (200, Some(0)));
    }
}

/// The static part of the game on connection (its track).
async fn track_of(addr: SocketAddr, game: &str, token: &str) -> Value {
    let mut c = Client::connect(addr, game, Some(token)).await;
    match c.recv().await {
        ServerMsg::Welcome { static_data: Some(s), .. } => s["track"].clone(),
        m => panic!("expected a welcome with the static part, got {m:?}"),
    }
}

fn mobile_at(track: &Value) -> Vec<Value> {
    track["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] == "mobile")
        .map(|o| o["at"].clone())
        .collect()
}

/// A game made on a saved board keeps that board when the board is edited later: its setup
/// holds the board itself. A later game on `saved:ID` gets the new version, and a version can
/// be asked for by number.
#[tokio::test]
async fn a_game_keeps_the_board_it_was_made_on_after_the_board_is_edited() {
    for (backend, srv, _dir) in servers("a_game_keeps_the_boa").await {
        eprintln!(
            "boards::a_game_keeps_the_board_it_was_made_on_after_the_board_is_edited: {backend}"
        );
        let a = account(srv.addr, "Ann", "ann").await;
        let (v1, _) = oval_with(&[(8, 1, 'o')]);
        let (v2, _) = oval_with(&[(12, 1, 'o')]);
        let saved =
            save(srv.addr, &a, json!({ "game": "bumping-bots", "name": "C", "text": v1 })).await;
        let id = saved["id"].as_str().unwrap().to_string();
        let seats = json!(["me", "bot:random"]);
        let board = format!("saved:{id}");
        let g1 = create_game(
            srv.addr,
            &a,
            json!({ "game": "bumping-bots", "seats": seats, "board": board }),
        )
        .await;
        let (status, _) = http(
            srv.addr,
            "PUT",
            &format!("/api/boards/{id}"),
            Some(&a),
            Some(json!({ "text": v2 })),
        )
        .await;
        assert_eq!(status, 200);
        let g2 = create_game(
            srv.addr,
            &a,
            json!({ "game": "bumping-bots", "seats": seats, "board": board }),
        )
        .await;
        let g3 = create_game(
            srv.addr,
            &a,
            json!({ "game": "bumping-bots", "seats": seats, "board": format!("{board}@1") }),
        )
        .await;
        assert_eq!(mobile_at(&track_of(srv.addr, &g1, &a).await), [json!([8, 1])]);
        assert_eq!(mobile_at(&track_of(srv.addr, &g2, &a).await), [json!([12, 1])]);
        assert_eq!(mobile_at(&track_of(srv.addr, &g3, &a).await), [json!([8, 1])]);
        // A saved board of another game, or one that does not exist, is refused.
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/games",
            Some(&a),
            Some(json!({ "game": "roborally", "seats": seats, "board": board })),
        )
        .await;
        assert_eq!((status, v["code"].as_str()), (400, Some("bad_board")), "{v}");
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/games",
            Some(&a),
            Some(json!({ "game": "bumping-bots", "seats": seats, "board": "saved:00ff@1" })),
        )
        .await;
        assert_eq!((status, v["code"].as_str()), (404, Some("no_such_board")), "{v}");
    }
}

/// "Try it": a practice game on the board at once, the caller against bots; also for a
/// RoboRally course over the shipped pieces and an Autoscooter rink.
#[tokio::test]
async fn try_it_starts_a_practice_game_against_bots_for_every_game() {
    for (backend, srv, _dir) in servers("try_it_starts_a_prac").await {
        eprintln!("boards::try_it_starts_a_practice_game_against_bots_for_every_game: {backend}");
        let a = account(srv.addr, "Ann", "ann").await;
        let course =
            "course Two Flags\nplace crossroads 0 0 0\nplace bay 0 12 0\nflag 2 8\nflag 10 1\n";
        let rink = include_str!("../../../autoscooter/boards/standard.json");
        for (game, text) in [("bumping-bots", OVAL), ("roborally", course), ("autoscooter", rink)] {
            let saved =
                save(srv.addr, &a, json!({ "game": game, "name": "T", "text": text })).await;
            let id = saved["id"].as_str().unwrap();
            let (status, g) =
                http(srv.addr, "POST", &format!("/api/boards/{id}/try"), Some(&a), Some(json!({})))
                    .await;
            assert_eq!(status, 201, "{game}: {g}");
            assert_eq!((&g["status"], &g["practice"]), (&json!("running"), &json!(true)), "{g}");
            assert_eq!(g["seats"][1]["kind"], "bot", "{g}");
        }
        // A course with a flag on a pit is refused (RR-1.3 course validation).
        let (status, v) = http(
            srv.addr,
            "POST",
            "/api/boards/validate",
            Some(&a),
            Some(json!({ "game": "roborally", "text": "course X\nplace bay 0 0 0\nflag 50 50\n" })),
        )
        .await;
        assert_eq!((status, &v["ok"]), (200, &json!(false)), "{v}");
    }
}

/// A RoboRally course that carries a board piece of its own (the board editor's, saved first
/// as a piece) is saved, drawn by the validation answer, played, and given the heuristic bot's
/// difficulty estimate in the background; a piece alone gets none (it has no flags, RR-1.3).
#[tokio::test]
async fn a_roborally_course_with_its_own_piece_plays_and_gets_a_difficulty() {
    let dir = tempfile::tempdir().unwrap();
    let srv = start_server(&dir, |_| {}).await;
    let a = account(srv.addr, "Ann", "ann").await;
    let row = ". . . . . . . . . . . .\n";
    let piece = format!("board Yard\nsize 12 2\ngrid\n{row}. X . . . . . . . . . .\n");
    let saved =
        save(srv.addr, &a, json!({ "game": "roborally", "name": "Yard", "text": piece })).await;
    let piece_id = saved["id"].as_str().unwrap().to_string();
    let course =
        format!("course Short\nplace yard 0 0 0\nplace bay 0 2 0\nflag 3 1\nflag 8 0\n{piece}");
    let (status, v) = http(
        srv.addr,
        "POST",
        "/api/boards/validate",
        Some(&a),
        Some(json!({ "game": "roborally", "text": course })),
    )
    .await;
    assert_eq!((status, &v["ok"]), (200, &json!(true)), "{v}");
    assert_eq!((&v["board"]["width"], &v["board"]["height"]), (&json!(12), &json!(6)), "{v}");
    // The pit of the piece at [1,1] (row-major: 12 + 1); a flag there is found on its cell.
    assert_eq!(v["board"]["cells"][13]["kind"], "pit", "{v}");
    let on_pit = course.replace("flag 3 1", "flag 1 1");
    let (_, v) = http(
        srv.addr,
        "POST",
        "/api/boards/validate",
        Some(&a),
        Some(json!({ "game": "roborally", "text": on_pit })),
    )
    .await;
    assert_eq!((&v["ok"], &v["findings"][0]["cell"]), (&json!(false), &json!([1, 1])), "{v}");

    let saved =
        save(srv.addr, &a, json!({ "game": "roborally", "name": "Short", "text": course })).await;
    let id = saved["id"].as_str().unwrap();
    let (status, g) =
        http(srv.addr, "POST", &format!("/api/boards/{id}/try"), Some(&a), Some(json!({}))).await;
    assert_eq!((status, &g["status"]), (201, &json!("running")), "{g}");

    let path = format!("/api/boards/{id}/difficulty?wait=true");
    let (status, d) = http(srv.addr, "GET", &path, Some(&a), None).await;
    assert_eq!((status, &d["state"]), (200, &json!("ready")), "{d}");
    assert_eq!((&d["version"], &d["bot"]), (&json!(1), &json!("heuristic")), "{d}");
    let games = d["games"].as_u64().unwrap();
    assert!(games >= 1 && games <= u64::from(server::boards::DIFFICULTY_GAMES), "{d}");
    if let Some(t) = d["average_turns"].as_f64() {
        assert!(t >= 1.0 && t <= f64::from(server::boards::DIFFICULTY_MAX_TURNS), "{d}");
    }
    // Kept: asked again, the same answer at once.
    let (status, again) =
        http(srv.addr, "GET", &format!("/api/boards/{id}/difficulty"), None, None).await;
    assert_eq!((status, &again), (200, &d));
    let (status, p) = http(
        srv.addr,
        "GET",
        &format!("/api/boards/{piece_id}/difficulty?wait=true"),
        Some(&a),
        None,
    )
    .await;
    assert_eq!((status, &p["state"]), (200, &json!("none")), "{p}");
}
