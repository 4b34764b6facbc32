//! Debug helper: laps/progress of every bot every 10 rounds of one random race.
use bumping_bots::track::Board;
use bumping_bots::tracks::shipped;
use bumping_bots::{BumpingBots, Setup};
use engine::{Decision, Game, Observer, Rng};
fn main() {
    let t = shipped(&std::env::args().nth(1).unwrap_or("factory".into())).unwrap();
    let board = Board::build(&t).unwrap();
    let seed = 3;
    let mut g = BumpingBots::new(&Setup::race(t.clone(), 9), seed).unwrap();
    let mut rng = Rng::seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut ev = Vec::new();
    let mut last = 0;
    let mut speeds = [0u32; 7];
    let mut collisions = 0;
    while let Some(Decision::One(s)) = g.decision() {
        let a = g.sample_action(s, &mut rng).unwrap();
        ev.clear();
        g.apply(s, &a, &mut ev).unwrap();
        collisions += ev
            .iter()
            .filter(|e| matches!(e, bumping_bots::Event::Collision { .. }))
            .count();
        if let bumping_bots::Action::Move { .. } = a {
            speeds[g.view(Observer::Omniscient).bots[s.index()].speed as usize] += 1;
        }
        if g.round() != last && g.round() % 10 == 0 {
            last = g.round();
            let v = g.view(Observer::Omniscient);
            let line: Vec<String> = v
                .bots
                .iter()
                .map(|b| match b.at {
                    Some(h) => format!("{}/{:4}", b.laps, board.cell(h).progress),
                    None => "  done ".into(),
                })
                .collect();
            println!("r{:3} {}", last, line.join(" "));
        }
    }
    println!("speeds after moves {speeds:?}, collisions {collisions}");
}
