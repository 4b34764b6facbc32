//! The observation written from the state (`RoboRally::write_observation`, docs/python.md
//! "Observations") is the generic encoding of the seat's view without choices
//! (`engine::features::write(&View::without_choices)`), bit for bit: for every seat, the
//! spectator and the omniscient observer, in every position of seeded random games (every
//! shipped course, 2 to 6 robots, option cards dealt so that their marks, stashed cards and
//! questions come up, RR-9); with the Python package's buffer (512) and one long enough for
//! the whole view.

use engine::harness::next_seat;
use engine::{Game, Observer, Rng, Seat};
use roborally::board::shipped_courses;
use roborally::{BoardSpec, OptionCard, RoboRally, Setup, Variants, View};

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn check(g: &RoboRally, o: Observer, ctx: &str) {
    for len in [512, 8192, 9] {
        let (mut a, mut b) = (vec![9.0f32; len], vec![7.0f32; len]);
        let n = engine::features::write(&View::without_choices(g, o), &mut a);
        let m = g.write_observation(o, &mut b);
        assert_eq!(m, n, "length, {o:?}, buffer {len}, {ctx}");
        assert_eq!(bits(&b), bits(&a), "{o:?}, buffer {len}, {ctx}");
    }
}

#[test]
fn the_observation_from_the_state_is_the_views() {
    let courses = shipped_courses();
    let mut phases = std::collections::BTreeSet::new();
    for seed in 0..10u64 {
        let course = &courses[seed as usize % courses.len()];
        let robots = 2 + (seed % 5) as u8;
        let mut setup =
            Setup::new_game(BoardSpec::Named(course.name.clone()), robots, Variants::default());
        let mut all = OptionCard::ALL.to_vec();
        Rng::seeded(seed ^ 26).shuffle(&mut all);
        for (k, o) in all.into_iter().take(20).enumerate() {
            setup.robots[k % robots as usize].options.push(o);
        }
        let mut g = RoboRally::new(&setup, seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        for step in 0..400 {
            let d = g.decision();
            phases.insert(g.phase_name());
            let ctx = format!("{}, seed {seed}, step {step}", course.name);
            for s in 0..robots {
                check(&g, Observer::Seat(Seat(s)), &ctx);
            }
            check(&g, Observer::Spectator, &ctx);
            check(&g, Observer::Omniscient, &ctx);
            let Some(d) = d else { break };
            let s = next_seat(&d, &mut rng).expect("a seat");
            let a = g.sample_action(s, &mut rng).expect("an action");
            g.apply(s, &a, &mut Vec::new()).expect("sampled actions are legal");
        }
    }
    for p in ["program", "execute"] {
        assert!(phases.contains(p), "{p} not met: {phases:?}");
    }
}
