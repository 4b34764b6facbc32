//! Bytes per WebSocket frame for each game on its largest shipped board with the most seats:
//! the `update` frame seat 0 receives after every action of a random game (events it may see
//! and its view), the `welcome` that opens a connection (with the game's static part), and the
//! static part alone. `before` is the update frame as it was when views carried the static
//! part (RoboRally's view held the course as `"board"`; Autoscooter's and Bumping Bots' views
//! never held their rink or track, their clients read it from the setup).
//!
//!     cargo run -p server --example frame_sizes
//!
//! Results and what they mean: docs/benchmarks.md ("Frame sizes").

use bots::BotSpec;
use engine::{Observer, Rng, Seat};
use protocol::ServerMsg;
use serde_json::Value;
use server::games::{Registry, SetupRequest};

fn main() {
    let registry = Registry::standard();
    let games: [(&str, &str, usize); 3] = [
        ("autoscooter", "standard", 8),
        ("roborally", "grand-tour", 8),
        ("bumping-bots", "factory", 9),
    ];
    println!(
        "{:<13} {:<11} {:>5} {:>7} {:>11} {:>11} {:>10} {:>10} {:>8}",
        "game",
        "board",
        "seats",
        "frames",
        "before mean",
        "after mean",
        "after max",
        "welcome",
        "static"
    );
    for (name, board, seats) in games {
        let kind = registry.get(name).expect("a registered game");
        let req = SetupRequest {
            players: seats,
            board: Some(board.into()),
            variants: None,
            options: None,
        };
        let setup = kind.make_setup(&req).expect("a shipped board");
        let mut g = kind.start(&setup, 1).expect("starts");
        let static_text = g.static_text();
        let static_id = protocol::static_id(&static_text);
        let static_value: Value = serde_json::from_str(&static_text).expect("JSON");
        // What the view held before: `"board":{…}` inside RoboRally's view.
        let in_view_before = match name {
            "roborally" => ",\"board\":".len() + static_value["board"].to_string().len(),
            _ => 0,
        };
        let observer = Observer::Seat(Seat(0));
        let welcome = ServerMsg::Welcome {
            game_id: "0123456789abcdef".into(),
            game: name.into(),
            seats: vec![0],
            seq: 0,
            static_id: static_id.clone(),
            static_data: Some(static_value.clone()),
            view: g.view_json(observer),
            waiting: vec![],
            time_left_ms: None,
            clock_for: vec![],
            practice: false,
        }
        .to_frame()
        .len();
        let mut rng = Rng::seeded(7);
        let (mut n, mut before, mut after, mut max) = (0usize, 0usize, 0usize, 0usize);
        for seq in 1..=3000u64 {
            let Some(d) = g.decision() else { break };
            let seat = d.seats().first().expect("a seat owes");
            let Some(a) = g.bot_action(&BotSpec::Random, seat, &mut rng, &bots::Stop::default())
            else {
                break;
            };
            let applied = g.apply_json(seat, &a).expect("a bot's action is legal");
            let events: Vec<String> = applied
                .events
                .iter()
                .filter(|(aud, _)| aud.admits(observer))
                .map(|(_, e)| e.to_string())
                .collect();
            let view = g.view_text(observer);
            // The re-entry choices are new in the view: not counted in `before`.
            let reentry = serde_json::from_str::<Value>(&view)
                .ok()
                .and_then(|v| v.get("reentry").map(|r| ",\"reentry\":".len() + r.to_string().len()))
                .unwrap_or(0);
            let waiting: Vec<u8> =
                g.decision().map(|d| d.seats().iter().map(|s| s.0).collect()).unwrap_or_default();
            let frame = ServerMsg::update_frame(
                seq,
                events.iter().map(String::as_str),
                Some(&view),
                &waiting,
                None,
                &[],
            )
            .len();
            n += 1;
            after += frame;
            before += frame + in_view_before - reentry;
            max = max.max(frame);
        }
        let n1 = n.max(1);
        println!(
            "{:<13} {:<11} {:>5} {:>7} {:>11} {:>11} {:>10} {:>10} {:>8}",
            name,
            board,
            seats,
            n,
            before / n1,
            after / n1,
            max,
            welcome,
            static_text.len()
        );
    }
}
