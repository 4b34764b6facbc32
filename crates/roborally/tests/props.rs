//! Property tests over random games on every shipped course: no panic, the 84 cards are
//! conserved, no two robots share a cell, replay from the log is identical, views hide other
//! seats' secrets, illegal actions change nothing.

use engine::{Decision, Game, LogEntry, Observer, Rng, Seat};
use proptest::prelude::*;
use roborally::board::shipped_courses;
use roborally::card::full_deck;
use roborally::view::RegisterView;
use roborally::{Action, BoardSpec, Card, CardKind, OptionCard, RoboRally, Setup, Variants};

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
    }
    Ok(())
}

fn check_views(g: &RoboRally, rng: &mut Rng) -> Result<(), TestCaseError> {
    for s in 0..g.seats() {
        let seat = Seat(s as u8);
        let v = g.view(Observer::Seat(seat));
        for rv in &v.robots {
            if rv.seat == seat {
                continue;
            }
            prop_assert!(rv.hand.is_none(), "another seat's hand is hidden");
            // RR-9: cards kept on options are secret too (a combined register's once revealed).
            prop_assert!(
                !matches!(rv.flywheel, RegisterView::Card(_))
                    && !matches!(rv.conditional, RegisterView::Card(_))
            );
            let r = g.robot(rv.seat).unwrap();
            for k in 0..5 {
                if let RegisterView::Card(c) = rv.registers[k] {
                    prop_assert!(r.revealed[k], "only revealed registers show a card");
                    prop_assert_eq!(Some(c), r.registers[k]);
                }
                if let RegisterView::Card(_) = rv.side[k] {
                    prop_assert!(r.revealed[k], "a second card shows with its register");
                }
            }
        }
        // What the seat cannot see may change without its view changing.
        let d = g.determinize(seat, rng);
        prop_assert_eq!(d.view(Observer::Seat(seat)), v);
    }
    Ok(())
}

/// An action that must be refused now, for some seat.
fn garbage(g: &RoboRally, rng: &mut Rng) -> (Seat, Action) {
    let seat = Seat(rng.below(g.seats() as u32) as u8);
    let bogus = Card { card: CardKind::Move3, priority: 841 };
    let held = |o: &OptionCard| g.robots().iter().any(|r| r.options.contains(o));
    let a = match rng.below(4) {
        3 => Action::UseOption {
            option: OptionCard::ALL.into_iter().find(|o| !held(o)),
            register: None,
            destroy: None,
            card: None,
        },
        0 => Action::Program { registers: [Some(bogus); 5], power_down_next: false },
        1 => Action::Reenter {
            at: grid::Sq::new(-5, -5),
            facing: grid::SqDir::N,
            powered_down: false,
        },
        _ => {
            // An option nobody holds (double repair sites hand options out during play).
            Action::DiscardOption { option: OptionCard::ALL.into_iter().find(|o| !held(o)) }
        }
    };
    (seat, a)
}

fn run(
    course: usize,
    robots: u8,
    seed: u64,
    steps: usize,
    options: u8,
    variants: Variants,
) -> Result<(), TestCaseError> {
    let (setup, mut g) = start_with(course, robots, seed, options, variants);
    let mut rng = Rng::seeded(seed.wrapping_mul(31));
    let mut log = Vec::new();
    let mut events = Vec::new();
    check_invariants(&g)?;
    for step in 0..steps {
        let Some(decision) = g.decision() else { break };
        // RR-9: at an option question, every listed action is accepted.
        if let Some(
            roborally::Pending::MoveOption { robot, .. }
            | roborally::Pending::Weapon { robot, .. }
            | roborally::Pending::Reveal { robot, .. },
        ) = g.pending()
        {
            let seat = Seat(*robot as u8);
            let all = g.legal_actions(seat);
            prop_assert!(all.len() >= 2, "an option question lists a use and the decline");
            for a in &all {
                let mut h = g.clone();
                prop_assert!(
                    h.apply(seat, a, &mut Vec::new()).is_ok(),
                    "listed action refused: {:?}",
                    a
                );
            }
        }
        let (gs, ga) = garbage(&g, &mut rng);
        let before = g.clone();
        let mut ev = Vec::new();
        prop_assert!(g.apply(gs, &ga, &mut ev).is_err(), "garbage is refused");
        prop_assert!(g == before && ev.is_empty(), "a refused action changes nothing");
        if step % 7 == 6 {
            g.time_up(&mut events).expect("time_up works at every decision");
            log.push(LogEntry::TimeUp);
        } else {
            let seat = match decision {
                Decision::One(s) => s,
                Decision::Simultaneous(set) => {
                    let v: Vec<Seat> = set.iter().collect();
                    v[rng.index(v.len())]
                }
            };
            let a =
                g.sample_action(seat, &mut rng).expect("a seat that owes a decision has an action");
            g.apply(seat, &a, &mut events)
                .map_err(|e| TestCaseError::fail(format!("sampled action refused: {e:?} {a:?}")))?;
            log.push(LogEntry::Act { seat, action: a });
        }
        check_invariants(&g)?;
        if step % 10 == 0 {
            check_views(&g, &mut rng)?;
        }
    }
    let replayed: RoboRally = engine::replay(&setup, seed, &log, &mut Vec::new())
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    prop_assert!(replayed == g, "replay from the log is identical");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants(course in 0usize..4, robots in 2u8..=8, seed in any::<u64>(), options in 0u8..3) {
        run(course, robots, seed, 120, options, Variants::default())?;
    }

    #[test]
    fn random_games_full_ranking_lives4(course in 0usize..4, robots in 2u8..=4, seed in any::<u64>()) {
        run(course, robots, seed, 80, 0, Variants { lives4: true, full_ranking: true })?;
    }

    /// RR-9: every option card in play (20 dealt out, 6 in the deck), longer games.
    #[test]
    fn random_games_with_option_cards(course in 0usize..4, robots in 2u8..=6, seed in any::<u64>()) {
        run(course, robots, seed, 250, 2, Variants::default())?;
    }
}

#[test]
fn legal_actions_are_accepted() {
    let (_, g) = start(0, 3, 7, true, Variants::default());
    for s in 0..3 {
        let seat = Seat(s);
        let all = g.legal_actions(seat);
        // Seat 0 holds Flywheel: it may also put any of its 9 cards on it (RR-9).
        assert_eq!(all.len(), 15_120 + if s == 0 { 9 } else { 0 }, "9 cards into 5 registers");
        for a in all.iter().step_by(997) {
            let mut h = g.clone();
            assert!(h.apply(seat, a, &mut Vec::new()).is_ok());
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
                    r.registers = Some([None; 5]);
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
            turn: 1,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn crowded_random_boards(seed in any::<u64>(), robots in 2u8..=8) {
            let setup = random_setup(seed, robots);
            let mut g = RoboRally::new(&setup, seed).expect("random setups start");
            let mut rng = Rng::seeded(seed ^ 1);
            let mut log = Vec::new();
            check_invariants(&g)?;
            for _ in 0..60 {
                let Some(d) = g.decision() else { break };
                let seat = d.seats().first().unwrap();
                let before = g.clone();
                let (gs, ga) = garbage(&g, &mut rng);
                prop_assert!(g.apply(gs, &ga, &mut Vec::new()).is_err());
                prop_assert!(g == before);
                let a = g.sample_action(seat, &mut rng).unwrap();
                g.apply(seat, &a, &mut Vec::new()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
                log.push(LogEntry::Act { seat, action: a });
                check_invariants(&g)?;
            }
            let replayed: RoboRally = engine::replay(&setup, seed, &log, &mut Vec::new()).unwrap();
            prop_assert!(replayed == g);
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
