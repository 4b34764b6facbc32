//! Property tests over random games on every shipped course, through the engine's
//! conformance suite (`engine::harness::check_game`): no panic, the 84 cards are conserved,
//! no two robots share a cell, replay from the log is identical, views hide other seats'
//! secrets, illegal actions change nothing, listed actions are accepted.

use engine::harness::{CheckOptions, Conformance, Report, check_game_with};
use engine::{Game, Observer, Rng, Seat};
use proptest::prelude::*;
use roborally::board::shipped_courses;
use roborally::card::full_deck;
use roborally::view::RegisterView;
use roborally::{BoardSpec, OptionCard, RoboRally, Setup, Variants};

fn start(
    course: usize,
    robots: u8,
    seed: u64,
    options: bool,
    variants: Variants,
) -> (Setup, RoboRally) {
    start_with(course, robots, seed, u8::from(options), variants)
}

/// `options`: 0 none; 1 Brakes and Flywheel for seat 0; 2 all 26 option cards dealt out
/// round the table (a seeded order), so every card's effect comes up.
fn start_with(
    course: usize,
    robots: u8,
    seed: u64,
    options: u8,
    variants: Variants,
) -> (Setup, RoboRally) {
    let name = shipped_courses()[course].name.clone();
    let mut setup = Setup::new_game(BoardSpec::Named(name), robots, variants);
    if options == 1 {
        setup.robots[0].options = vec![OptionCard::Brakes, OptionCard::Flywheel];
    } else if options == 2 {
        let mut all = OptionCard::ALL.to_vec();
        Rng::seeded(seed ^ 26).shuffle(&mut all);
        // Leave a few in the deck so double repair sites still draw.
        for (k, o) in all.into_iter().take(20).enumerate() {
            setup.robots[k % robots as usize].options.push(o);
        }
    }
    let g = RoboRally::new(&setup, seed).expect("starts");
    (setup, g)
}

fn check_invariants(g: &RoboRally) -> Result<(), TestCaseError> {
    let mut cards = g.all_cards();
    cards.sort_by_key(|c| c.priority);
    prop_assert_eq!(cards, full_deck(), "the 84 cards are conserved");
    let mut options = g.all_options();
    options.sort();
    prop_assert_eq!(options, OptionCard::ALL.to_vec(), "the 26 option cards are conserved");
    let mut cells: Vec<_> = g.robots().iter().filter_map(|r| r.cell()).collect();
    let n = cells.len();
    cells.sort();
    cells.dedup();
    prop_assert_eq!(cells.len(), n, "no two robots share a cell");
    for r in g.robots() {
        if let Some(at) = r.cell() {
            prop_assert!(g.board().on_board(at) && !g.board().is_pit(at));
        }
        prop_assert!(r.damage <= 10);
        // RR-4.3: a draft holds cards of the hand, once each, in unlocked registers only.
        let placed: Vec<_> = r.draft.iter().flatten().collect();
        for (k, c) in r.draft.iter().enumerate() {
            if let Some(c) = c {
                prop_assert!(r.hand.contains(c), "a drafted card is in the hand");
                prop_assert!(!r.locked(k), "no draft in a locked register");
                prop_assert_eq!(placed.iter().filter(|x| **x == c).count(), 1);
            }
        }
        // RR-7.2 / RR-7.3 / amended RR-9: a locked register always holds a card (an empty one
        // is filled from the deck when its lock happens).
        if r.cell().is_some() {
            for k in 0..5 {
                prop_assert!(
                    !r.locked(k) || r.registers[k].is_some(),
                    "seat {} register {} locked and empty",
                    r.seat.0,
                    k + 1
                );
            }
        }
    }
    Ok(())
}

/// What views show of other robots (RR-4.2, RR-9): no hand, no card kept on an option, and
/// a register's card only once it is revealed. (That views do not change when those secrets
/// change is the conformance suite's check.)
fn check_views(g: &RoboRally) -> Result<(), String> {
    if g.view(Observer::Spectator).robots.iter().any(|rv| rv.draft.is_some() || rv.hand.is_some()) {
        return Err("a spectator sees a draft or a hand".into());
    }
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let v = g.view(Observer::Seat(seat));
        for rv in v.robots.iter().filter(|rv| rv.seat != seat) {
            if rv.hand.is_some() {
                return Err(format!("{seat} sees {}'s hand", rv.seat));
            }
            if rv.draft.is_some() {
                return Err(format!("{seat} sees {}'s draft (RR-4.3)", rv.seat));
            }
            // RR-9: cards kept on options are secret too (a combined register's once revealed).
            if matches!(rv.flywheel, RegisterView::Card(_))
                || matches!(rv.conditional, RegisterView::Card(_))
            {
                return Err(format!("{seat} sees a card kept on {}'s option", rv.seat));
            }
            let r = g.robot(rv.seat).ok_or("a robot of the view")?;
            for k in 0..5 {
                if let RegisterView::Card(c) = rv.registers[k]
                    && (!r.revealed[k] || Some(c) != r.registers[k])
                {
                    return Err(format!("{seat} sees {}'s register {}", rv.seat, k + 1));
                }
                if let RegisterView::Card(_) = rv.side[k]
                    && !r.revealed[k]
                {
                    return Err(format!("{seat} sees {}'s second card {}", rv.seat, k + 1));
                }
            }
        }
    }
    Ok(())
}

/// The engine's conformance suite on one random game (refusals change nothing, listed
/// actions accepted, sampled ones listed, views unchanged when other robots' hands, programs
/// and kept cards change, replay identical), with this game's invariants after every step:
/// the 84 cards and 26 options conserved, one robot per cell, the actions of
/// `Conformance::garbage` always refused, and every `check_views` step the views' redaction.
fn run(
    setup: &Setup,
    seed: u64,
    steps: usize,
    deep_every: usize,
) -> Result<Report<RoboRally>, TestCaseError> {
    let mut rng = Rng::seeded(seed.wrapping_mul(31));
    let mut step = 0usize;
    let options = CheckOptions { max_steps: steps, timeouts: true, deep_every, listed_limit: 8 };
    let report = check_game_with::<RoboRally>(setup, seed, &options, |g| {
        check_invariants(g).map_err(|e| e.to_string())?;
        for (seat, a) in g.garbage(&mut rng) {
            if g.clone().apply(seat, &a, &mut Vec::new()).is_ok() {
                return Err(format!("garbage {a:?} of {seat} was accepted"));
            }
        }
        step += 1;
        if step % 10 == 1 { check_views(g) } else { Ok(()) }
    })
    .map_err(|v| TestCaseError::fail(v.to_string()))?;
    prop_assert!(report.refused > 0);
    Ok(report)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 80, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants(course in 0usize..4, robots in 2u8..=8, seed in any::<u64>(), options in 0u8..3) {
        let (setup, _) = start_with(course, robots, seed, options, Variants::default());
        let report = run(&setup, seed, 120, 3)?;
        prop_assert!(report.scrambles > 0, "some secret was scrambled");
        // RR-4.3: a `place` touches only its seat's view (`views_touched`), checked by the
        // suite against every other view's text.
        prop_assert!(report.untouched > 0, "some place claimed to touch one view only");
    }

    #[test]
    fn random_games_full_ranking_lives4(course in 0usize..4, robots in 2u8..=4, seed in any::<u64>()) {
        let variants = Variants { lives4: true, full_ranking: true };
        let (setup, _) = start_with(course, robots, seed, 0, variants);
        run(&setup, seed, 80, 3)?;
    }

    /// RR-9: every option card in play (20 dealt out, 6 in the deck), longer games.
    #[test]
    fn random_games_with_option_cards(course in 0usize..4, robots in 2u8..=6, seed in any::<u64>()) {
        let (setup, _) = start_with(course, robots, seed, 2, Variants::default());
        run(&setup, seed, 250, 3)?;
    }
}

#[test]
fn legal_actions_are_accepted() {
    let (_, g) = start(0, 3, 7, true, Variants::default());
    for s in 0..3 {
        let seat = Seat(s);
        let all = g.legal_actions(seat);
        // Seat 0 holds Flywheel: it may also put any of its 9 cards on it (RR-9); and every
        // seat may place any of its 9 cards in any of the 5 empty registers of its draft
        // (RR-4.3).
        let places = all.iter().filter(|a| matches!(a, roborally::Action::Place { .. })).count();
        assert_eq!(places, 5 * 9, "each card of the hand in each register of an empty draft");
        assert_eq!(all.len(), 15_120 + 45 + if s == 0 { 9 } else { 0 }, "9 cards into 5 registers");
        for a in all.iter().step_by(997) {
            let mut h = g.clone();
            assert!(h.apply(seat, a, &mut Vec::new()).is_ok());
        }
    }
}

/// Random games on every shipped course reach an outcome within the turn limit of
/// `random_game`, and the outcome agrees with the final state: the winner touched every flag
/// (RR-6.2) and ranks first, or nobody won and no robot is left in play (RR-7.6); every seat is
/// ranked once; the scores are the flags touched. (The simulation driver, `games::random`, has
/// its own test in `crates/games/tests/drivers.rs`.)
#[test]
fn random_full_games_end() {
    /// Random programs on the shipped courses all end well within this many turns.
    const RANDOM_GAME_MAX_TURNS: u32 = 200;
    for (i, c) in shipped_courses().iter().enumerate() {
        for seed in [i as u64, 100 + i as u64] {
            let setup = Setup::new_game(BoardSpec::Named(c.name.clone()), 4, Variants::default());
            let mut g = RoboRally::new(&setup, seed).expect("starts");
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            while g.decision().is_some() && g.turn() <= RANDOM_GAME_MAX_TURNS {
                engine::play_random(&mut g, &mut rng, &mut events, 1);
                events.clear();
            }
            let name = &c.name;
            let out = g.outcome().unwrap_or_else(|| {
                panic!("{name} seed {seed}: no outcome after {} turns", g.turn())
            });
            assert!(g.turn() <= RANDOM_GAME_MAX_TURNS, "{name}: past the turn limit");
            let flags = g.board().flags.len() as u8;
            match g.winner() {
                Some(w) => {
                    assert_eq!(g.robot(w).unwrap().flags_touched, flags, "{name}: winner's flags");
                    assert_eq!(out.winners(), &[w], "{name}: the winner ranks first alone");
                }
                None => {
                    assert!(g.robots().iter().all(|r| !r.active()), "{name}: robots still in play");
                    assert!(
                        g.robots().iter().all(|r| r.flags_touched < flags),
                        "{name}: a finisher"
                    );
                }
            }
            let mut ranked: Vec<Seat> = out.ranking.iter().flatten().copied().collect();
            ranked.sort();
            assert_eq!(ranked, (0..4).map(Seat).collect::<Vec<_>>(), "{name}: every seat once");
            let scores: Vec<i64> = g.robots().iter().map(|r| r.flags_touched as i64).collect();
            assert_eq!(out.scores, Some(scores), "{name}: scores are flags touched");
        }
    }
}

mod random_boards {
    use super::*;
    use grid::{Sq, SqDir};
    use roborally::board::inline::{
        InlineBoard, InlineCell, InlineLaser, InlineWall, Side, TurnName,
    };
    use roborally::{RobotSetup, StartPhase};

    fn random_cell(at: Sq, k: u32, rng: &mut Rng) -> Option<InlineCell> {
        let dir = SqDir::wrapping(rng.below(4) as i32);
        let from = (rng.below(2) == 0).then(|| dir.turn(if rng.below(2) == 0 { 1 } else { -1 }));
        Some(match k {
            0 => InlineCell::Pit { at },
            1 | 2 => InlineCell::Conveyor { at, dir, from },
            3 | 4 => InlineCell::Express { at, dir, from },
            5 => InlineCell::Pusher {
                at,
                side: Side(dir),
                registers: if rng.below(2) == 0 { vec![1, 3, 5] } else { vec![2, 4] },
            },
            6 => InlineCell::Gear {
                at,
                turn: if rng.below(2) == 0 { TurnName::Left } else { TurnName::Right },
            },
            7 => InlineCell::Repair { at },
            8 => InlineCell::RepairOption { at },
            _ => return None,
        })
    }

    /// A random 8x8 board crowded with elements, robots placed on it mid-turn.
    fn random_setup(seed: u64, robots: u8) -> Setup {
        let mut rng = Rng::seeded(seed);
        let mut cells = Vec::new();
        let mut free = Vec::new();
        for y in 0..8 {
            for x in 0..8 {
                let at = Sq::new(x, y);
                match random_cell(at, rng.below(14), &mut rng) {
                    Some(InlineCell::Pit { .. }) => cells.push(InlineCell::Pit { at }),
                    Some(c) => {
                        cells.push(c);
                        free.push(at);
                    }
                    None => free.push(at),
                }
            }
        }
        let walls = (0..10)
            .map(|_| InlineWall {
                at: Sq::new(rng.below(8) as i32, rng.below(8) as i32),
                side: Side(SqDir::wrapping(rng.below(4) as i32)),
            })
            .collect();
        let lasers = (0..3)
            .map(|_| InlineLaser {
                at: Sq::new(rng.below(8) as i32, rng.below(8) as i32),
                dir: SqDir::wrapping(rng.below(4) as i32),
                beams: 1 + rng.below(3) as u8,
            })
            .collect();
        rng.shuffle(&mut free);
        let flags = vec![free[free.len() - 1], free[free.len() - 2]];
        let mut deck = full_deck();
        rng.shuffle(&mut deck);
        let robots = (0..robots)
            .map(|s| RobotSetup {
                seat: Seat(s),
                at: Some(free[s as usize]),
                facing: Some(SqDir::wrapping(rng.below(4) as i32)),
                damage: rng.below(9) as u8,
                registers: Some(std::array::from_fn(|_| deck.pop())),
                options: if rng.below(3) == 0 {
                    vec![OptionCard::ALL[s as usize], OptionCard::ALL[s as usize + 8]]
                } else {
                    vec![]
                },
                powered_down: rng.below(6) == 0,
                ..RobotSetup::default()
            })
            .map(|mut r| {
                if r.powered_down {
                    // RR-4.4 / RR-7.3: empty registers but for the locked ones' cards.
                    let regs = r.registers.unwrap_or([None; 5]);
                    r.registers = Some(std::array::from_fn(|k| {
                        regs[k].filter(|_| roborally::robot::locked_at(r.damage, k))
                    }));
                }
                r
            })
            .collect();
        let board = InlineBoard { width: 8, height: 8, cells, walls, lasers, flags, docks: vec![] };
        Setup {
            board: BoardSpec::Inline(board),
            robots,
            phase: StartPhase::Execute,
            variants: Variants::default(),
            timer_seconds: 30,
            deck: Vec::new(),
            turn: 1,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn crowded_random_boards(seed in any::<u64>(), robots in 2u8..=8) {
            let setup = random_setup(seed, robots);
            run(&setup, seed, 60, 3)?;
        }
    }
}

/// RR-9: random games with every option in play do reach the option questions.
#[test]
fn option_questions_come_up() {
    let (mut move_q, mut weapon_q, mut reveal_q, mut used, mut stashed) = (0, 0, 0, 0, 0);
    for seed in 0..12u64 {
        let (_, mut g) = start_with((seed % 4) as usize, 6, seed, 2, Variants::default());
        let mut rng = Rng::seeded(seed);
        let mut events = Vec::new();
        for _ in 0..400 {
            match g.pending() {
                Some(roborally::Pending::MoveOption { .. }) => move_q += 1,
                Some(roborally::Pending::Weapon { .. }) => weapon_q += 1,
                Some(roborally::Pending::Reveal { .. }) => reveal_q += 1,
                _ => {}
            }
            if engine::play_random(&mut g, &mut rng, &mut events, 1) == 0 {
                break;
            }
        }
        used += events.iter().filter(|e| matches!(e, roborally::Event::OptionUsed { .. })).count();
        stashed += events.iter().filter(|e| matches!(e, roborally::Event::Stashed { .. })).count();
    }
    assert!(
        move_q > 0 && weapon_q > 0 && reveal_q > 0 && used > 0 && stashed > 0,
        "move {move_q} weapon {weapon_q} reveal {reveal_q} used {used} stashed {stashed}"
    );
}

/// Plays one random game three ways in lockstep — `sample_action` then `apply` into a list,
/// `play_random` into a list, `play_random` into [`NoEvents`] — and checks after every action
/// that the three states and the three generators are equal and that both lists got the same
/// events (issue 17: the event-free random path plays the same game with the same draws).
/// Returns the actions played.
fn three_ways(setup: &Setup, seed: u64, max_actions: usize) -> Result<usize, TestCaseError> {
    use roborally::event::NoEvents;
    let mut a = RoboRally::new(setup, seed).expect("starts");
    let (mut b, mut c) = (a.clone(), a.clone());
    let mut ra = Rng::seeded(seed ^ 0x5eed);
    let (mut rb, mut rc) = (ra.clone(), ra.clone());
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    let mut n = 0;
    while n < max_actions {
        let Some(d) = a.decision() else { break };
        let seat = d.seats().first().expect("someone owes the decision");
        let sampled = a.sample_action(seat, &mut ra);
        let played_b = b.play_random(seat, &mut rb, &mut eb);
        let played_c = c.play_random(seat, &mut rc, &mut NoEvents);
        let Some(action) = sampled else {
            prop_assert!(played_b.is_none() && played_c.is_none());
            break;
        };
        let applied = a.apply(seat, &action, &mut ea);
        prop_assert_eq!(applied.is_ok(), played_b.is_some_and(|r| r.is_ok()));
        prop_assert_eq!(applied.is_ok(), played_c.is_some_and(|r| r.is_ok()));
        prop_assert_eq!(&ea, &eb, "the same events after {:?} (action {})", action, n);
        prop_assert!(a == b && a == c, "the same state after {:?} (action {})", action, n);
        prop_assert!(ra == rb && ra == rc, "the same draws after {:?} (action {})", action, n);
        ea.clear();
        eb.clear();
        if applied.is_err() {
            break;
        }
        n += 1;
    }
    prop_assert_eq!(a.decision().is_none(), n < max_actions, "played to the end or the cap");
    Ok(n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Issue 17: [`RoboRally::play_random`] is `sample_action` then `apply`, with any sink:
    /// every shipped course, 2–8 robots, no options / two options / 20 option cards dealt
    /// (so the option uses, questions and weapons are drawn too), both variants.
    #[test]
    fn play_random_is_sample_then_apply(course in 0usize..4, robots in 2u8..=8, seed in any::<u64>(), options in 0u8..3, full_ranking in any::<bool>(), lives4 in any::<bool>()) {
        let (setup, _) = start_with(course, robots, seed, options, Variants { lives4, full_ranking });
        three_ways(&setup, seed, 3_000)?;
    }
}
