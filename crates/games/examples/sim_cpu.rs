//! `robodrome sim GAME --players N [--board B] [--laps L] --games G --jobs 1 --json` without the
//! command line and the server's dependencies: the same `Kind::sim` call, so the same games,
//! summary and figures, from a build of the game crates alone (for `perf stat -e task-clock`
//! and `perf record` while a full release build of `robodrome` does not fit; issue 17).
//! Run: `cargo build --release -p games --example sim_cpu &&
//!   perf stat -e task-clock target/release/examples/sim_cpu roborally 8 20000 dizzy-dash`.
//! Arguments: game, players, games, then optionally board and laps.

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let game = a.first().map_or("autoscooter", String::as_str);
    let players: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let games: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let board = a.get(3).filter(|b| !b.is_empty() && *b != "-").cloned();
    let laps: Option<u64> = a.get(4).and_then(|s| s.parse().ok());
    let kind = games::Registry::everything().get(game).expect("a game of the registry");
    let options = laps.map(|l| serde_json::json!({ "laps": l }));
    let setup = games::SetupRequest { players, board, variants: None, options };
    let req = games::sim::Request { setup, games, seed: 1, bots: Vec::new(), jobs: 1 };
    let report = kind.sim(&req, &|_| {}).expect("the setup starts");
    println!("{}", serde_json::to_string(&report.json).expect("summaries serialise"));
}
