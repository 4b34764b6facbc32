//! Debug helper: replays a property-test race and prints the events of the step that broke it.
use bumping_bots::tracks::{shipped, SHIPPED};
use bumping_bots::{BumpingBots, Setup};
use engine::{Decision, Game, Observer, Rng};
use std::collections::BTreeSet;
fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (seed, track, bots) = (args[0], args[1] as usize, args[2] as u8);
    let mut g = BumpingBots::new(&Setup::race(shipped(SHIPPED[track].0).unwrap(), bots), seed).unwrap();
    let mut rng = Rng::seeded(seed);
    loop {
        let Some(Decision::One(seat)) = g.decision() else { break };
        let mut ev = Vec::new();
        let before = g.clone();
        if rng.below(20) == 0 { g.time_up(&mut ev).unwrap(); } else {
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.apply(seat, &a, &mut ev).unwrap();
            println!("{seat:?} {a:?}");
        }
        let v = g.view(Observer::Omniscient);
        let mut taken = BTreeSet::new();
        let mut bad = false;
        for o in &v.obstacles { taken.insert(o.at); if let Some(a) = o.arms { for d in a { taken.insert(o.at.neighbour(d)); } } }
        for b in &v.bots { if let Some(at) = b.at { if !taken.insert(at) { bad = true; } } }
        if bad {
            println!("BEFORE {:?}", before.view(Observer::Omniscient).bots.iter().map(|b| (b.seat.0, b.at, b.facing)).collect::<Vec<_>>());
            println!("obstacles {:?}", before.view(Observer::Omniscient).obstacles);
            for e in ev { println!("  {}", serde_json::to_string(&e).unwrap()); }
            break;
        }
    }
}
