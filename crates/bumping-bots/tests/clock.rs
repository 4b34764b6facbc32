//! The "last player" clock (a setting, docs/bumping-bots.md): decisions come one bot at a time
//! in race order (BB-2.2), so the clock runs for the round's last bot to act (when another bot
//! acted before it this round), `last_player_seconds` long, and for nobody else; the setting at
//! 0 runs no clock. Checked over random races against the sequence of decisions itself.

use bumping_bots::tracks::shipped;
use bumping_bots::{BumpingBots, Setup};
use engine::harness::{CheckOptions, check_game};
use engine::{Clock, Game, Rng, Seat, SeatSet};

fn race(bots: u8, seconds: u32) -> Setup {
    let mut setup = Setup::race(shipped("oval").expect("shipped"), bots);
    setup.last_player_seconds = seconds;
    setup
}

#[test]
fn the_last_bot_of_each_round_has_the_clock() {
    let mut checked = 0;
    for seed in 0..6 {
        let mut g = BumpingBots::new(&race(3, 20), seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        // (round, seat, clock) of every decision, in order, while no bot has finished (a
        // finished bot is skipped in the order: the check below reads the order from the
        // decisions themselves).
        let mut seen: Vec<(u32, Seat, Option<Clock>)> = Vec::new();
        for _ in 0..3000 {
            let Some(d) = g.decision() else { break };
            if g.bots().iter().any(|b| b.finished) {
                break;
            }
            let seat = d.seats().first().expect("one seat");
            seen.push((g.round(), seat, g.clock()));
            let a = g.sample_action(seat, &mut rng).expect("an action");
            g.apply(seat, &a, &mut Vec::new()).expect("legal");
        }
        let rounds: Vec<u32> = {
            let mut r: Vec<u32> = seen.iter().map(|x| x.0).collect();
            r.dedup();
            r
        };
        // The last round may be cut short by the step limit or the end of the race.
        for &round in &rounds[..rounds.len().saturating_sub(1)] {
            let of: Vec<&(u32, Seat, Option<Clock>)> =
                seen.iter().filter(|x| x.0 == round).collect();
            let last = of.last().expect("a decision").1;
            let others = of.iter().any(|x| x.1 != last);
            for &&(_, seat, clock) in &of {
                let want = (seat == last && others)
                    .then_some(Clock { seats: SeatSet::single(seat), seconds: 20 });
                assert_eq!(clock, want, "seed {seed}, round {round}, {seat}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} decisions checked");
}

#[test]
fn no_setting_no_clock_and_the_conformance_suite_holds() {
    let mut g = BumpingBots::new(&race(2, 0), 1).expect("starts");
    let mut rng = Rng::seeded(1);
    for _ in 0..300 {
        let Some(d) = g.decision() else { break };
        assert_eq!(g.clock(), None);
        let seat = d.seats().first().expect("one seat");
        let a = g.sample_action(seat, &mut rng).expect("an action");
        g.apply(seat, &a, &mut Vec::new()).expect("legal");
    }
    for seed in 0..5 {
        let options = CheckOptions { max_steps: 300, deep_every: 7, ..CheckOptions::default() };
        check_game::<BumpingBots>(&race(3, 15), seed, &options).expect("conforms");
    }
}
