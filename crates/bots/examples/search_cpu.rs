//! Search throughput in CPU time: one search decision of N simulations from the mid-game
//! positions of the `search` bench (benches/search.rs). Run under `perf stat -e task-clock`
//! (CPU time, not disturbed by other processes) or callgrind:
//!
//! ```text
//! cargo build --release -p bots --example search_cpu
//! perf stat -e task-clock target/release/examples/search_cpu autoscooter 20000
//! valgrind --tool=callgrind target/release/examples/search_cpu autoscooter 2000
//! ```
//!
//! A third argument sets the playout's heuristic share (in 1/256; the bot's is 128), to
//! measure what a cheaper playout policy would buy (docs/benchmarks.md, issue 17 round 5).
//! The line ends with the generator's next draw after the search: two builds that print the
//! same choice and the same draw made the same draws (issue 17 round 7).

#[path = "../benches/common/positions.rs"]
mod positions;

use bots::{Bot, SearchBot};
use engine::{Rng, Seat};

fn search<G: bots::HasBots>(g: &G, sims: u32, share: Option<u32>) {
    let started = std::time::Instant::now();
    let mut bot = SearchBot::new(sims);
    bot.heuristic_share = share.unwrap_or(bot.heuristic_share);
    let mut rng = Rng::seeded(1);
    let a = bot.act(g, Seat(0), &mut rng);
    let t = started.elapsed().as_secs_f64();
    // The generator's next draw after the search: every simulation draws from it, so a change
    // that keeps the search's draws (issue 17) keeps this number too, not only the choice.
    let next = rng.next_u64();
    println!(
        "{sims} simulations in {:.3} s wall clock ({:.0}/s): {a:?}, next draw {next:016x}",
        t,
        sims as f64 / t
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "autoscooter".into());
    let sims: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let share: Option<u32> = args.next().and_then(|s| s.parse().ok());
    match game.as_str() {
        "autoscooter" => search(&positions::autoscooter(), sims, share),
        "roborally" => search(&positions::roborally(), sims, share),
        "bumping-bots" => search(&positions::bumping_bots(), sims, share),
        other => {
            eprintln!("unknown game {other:?}: autoscooter, roborally or bumping-bots");
            std::process::exit(2)
        }
    }
}
