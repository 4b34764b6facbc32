//! The flat index computed without listing (`roborally::encoding`, docs/python.md
//! "Encodings") against the engine's listing: in positions of seeded random games (every
//! shipped course, 2 to 6 robots, option cards dealt so that programming uses and questions
//! come up), `legal_count` is `legal_actions(seat).len()` and `nth_legal(i)` its `i`-th
//! action for every `i`, nothing past the end; for every seat, owing or not. The positions
//! include programs with locked registers (RR-7.2), the power-down announcement (RR-4.4) and
//! a short hand.

use engine::harness::next_seat;
use engine::{Game, Rng, Seat};
use roborally::board::shipped_courses;
use roborally::{Action, BoardSpec, OptionCard, RoboRally, Setup, Variants};

/// Checks one seat; returns (programs listed, with power down, with a locked register).
fn check(g: &RoboRally, seat: Seat, ctx: &str) -> [usize; 3] {
    let listed = g.legal_actions(seat);
    assert_eq!(g.legal_count(seat), listed.len(), "{ctx}");
    for (i, a) in listed.iter().enumerate() {
        assert_eq!(g.nth_legal(seat, i).as_ref(), Some(a), "{ctx}, index {i}");
    }
    assert!(g.nth_legal(seat, listed.len()).is_none(), "{ctx}");
    assert!(g.nth_legal(seat, usize::MAX).is_none(), "{ctx}");
    let programs = listed.iter().filter(|a| matches!(a, Action::Program { .. }));
    let down = listed.iter().any(|a| matches!(a, Action::Program { power_down_next: true, .. }));
    let locked = g.robots().get(seat.index()).is_some_and(|r| (0..5).any(|k| r.locked(k)));
    let n = programs.count();
    [n, usize::from(down && n > 0), usize::from(locked && n > 0)]
}

#[test]
fn the_flat_index_is_the_listing() {
    let courses = shipped_courses();
    let mut seen = [0; 3];
    for seed in 0..6u64 {
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
            let Some(d) = g.decision() else { break };
            if step % 3 == 0 {
                for s in 0..robots {
                    let ctx = format!("{}, seed {seed}, step {step}, seat {s}", course.name);
                    for (t, n) in check(&g, Seat(s), &ctx).into_iter().enumerate() {
                        seen[t] += n;
                    }
                }
            }
            let s = next_seat(&d, &mut rng).expect("a seat");
            let a = g.sample_action(s, &mut rng).expect("an action");
            g.apply(s, &a, &mut Vec::new()).expect("sampled actions are legal");
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "programs, with power down, with locks: {seen:?}");
}
