//! Prints how random races go on the shipped tracks: `cargo run -p games --example race_stats`.
use bumping_bots::tracks::{SHIPPED, shipped, validate};
use games::random::random_race;

fn main() {
    for (name, _) in SHIPPED {
        let t = shipped(name).unwrap();
        let v = validate(&t);
        println!(
            "{name}: {} cells, errors {:?}, warnings {}",
            t.cells.len(),
            v.errors,
            v.warnings.len()
        );
        let mut rounds = Vec::new();
        let mut actions = 0;
        let start = std::time::Instant::now();
        for seed in 0..200 {
            let s = random_race(&t, 9, 2, seed);
            rounds.push(s.rounds);
            actions += s.actions;
        }
        rounds.sort();
        println!(
            "  rounds min {} median {} max {}; actions/race {}; {:?}/race",
            rounds[0],
            rounds[100],
            rounds[199],
            actions / 200,
            start.elapsed() / 200
        );
    }
}
