//! Search throughput in CPU time: one search decision of N simulations from the mid-game
//! positions of the `search` bench (benches/search.rs). Run under `perf stat -e task-clock`
//! (CPU time, not disturbed by other processes) or callgrind:
//!
//! ```text
//! cargo build --release -p bots --example search_cpu
//! perf stat -e task-clock target/release/examples/search_cpu autoscooter 20000
//! valgrind --tool=callgrind target/release/examples/search_cpu autoscooter 2000
//! ```

use autoscooter::{Autoscooter, Setup, Variants};
use bots::{Bot, SearchBot};
use engine::{harness::next_seat, Game, Rng, Seat};

/// Play random actions until `seat` owes a decision after `skip` actions, one that `wanted`
/// accepts (RoboRally: a program, not a re-entry or a power-down question).
fn position<G: Game>(mut g: G, skip: usize, seat: Seat, wanted: impl Fn(&G) -> bool) -> G {
    let mut rng = Rng::seeded(3);
    let mut ev = Vec::new();
    let mut n = 0;
    while let Some(d) = g.decision() {
        if n >= skip && d.owes(seat) && wanted(&g) {
            break;
        }
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
        n += 1;
    }
    g
}

fn search<G: bots::HasBots>(g: &G, sims: u32) {
    let started = std::time::Instant::now();
    let a = SearchBot::new(sims).act(g, Seat(0), &mut Rng::seeded(1));
    let t = started.elapsed().as_secs_f64();
    println!("{sims} simulations in {:.3} s wall clock ({:.0}/s): {a:?}", t, sims as f64 / t);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let game = args.next().unwrap_or_else(|| "autoscooter".into());
    let sims: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    match game.as_str() {
        "autoscooter" => {
            let mut g = Autoscooter::new(&Setup::standard(2, false, Variants::default()).unwrap(), 5).unwrap();
            let mut rng = Rng::seeded(5);
            let mut ev = Vec::new();
            while g.round() < 4 || g.owed(Seat(0)).is_none() {
                let d = g.decision().unwrap();
                let s = next_seat(&d, &mut rng).unwrap();
                let a = g.sample_action(s, &mut rng).unwrap();
                g.apply(s, &a, &mut ev).unwrap();
            }
            search(&g, sims)
        }
        "roborally" => {
            let setup = roborally::Setup::new_game(roborally::BoardSpec::Named("dizzy-dash".into()), 4, roborally::Variants::default());
            search(&position(roborally::RoboRally::new(&setup, 1).unwrap(), 10, Seat(0), |g| matches!(g.phase(), roborally::Phase::Program { .. })), sims)
        }
        "bumping-bots" => {
            let mut track = bumping_bots::tracks::shipped("factory").unwrap();
            track.laps = 2;
            let setup = bumping_bots::Setup::race(track, 9);
            search(&position(bumping_bots::BumpingBots::new(&setup, 1).unwrap(), 40, Seat(0), |_| true), sims)
        }
        other => {
            eprintln!("unknown game {other:?}: autoscooter, roborally or bumping-bots");
            std::process::exit(2)
        }
    }
}
