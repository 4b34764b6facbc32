//! Debug helper: follows one random race round by round.
use bumping_bots::tracks::shipped;
use bumping_bots::{BumpingBots, Setup};
use engine::{Decision, Game, Rng};
fn main() {
    let t = shipped(&std::env::args().nth(1).unwrap_or("oval".into())).unwrap();
    let mut g = BumpingBots::new(&Setup::race(t.clone(), 2), 1).unwrap();
    let mut rng = Rng::seeded(1);
    let mut ev = Vec::new();
    let mut last = 0;
    while let Some(Decision::One(s)) = g.decision() {
        let a = g.sample_action(s, &mut rng).unwrap();
        if s.0 == 0 { println!("   {a:?}"); }
        g.apply(s, &a, &mut ev).unwrap();
        if g.round() != last {
            last = g.round();
            let v = g.view(engine::Observer::Omniscient);
            let b = &v.bots[0];
            println!("round {last}: at {:?} facing {:?} speed {} rev {} laps {} started {}", b.at, b.facing, b.speed, b.reverse, b.laps, b.started);
            if last > 40 { break; }
        }
    }
}
