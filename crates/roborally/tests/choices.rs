//! Issue 21 items 3 and 4 for RoboRally (`roborally::choices`):
//! - on random positions of seeded games (every shipped course, 2–6 robots, the 26 option cards
//!   dealt out so that their questions and programming uses come up), the choices in the owing
//!   seat's view are exactly what `apply` accepts: every listed action (and programs and
//!   placements put together from the factored program) is accepted by `apply` on a clone, and
//!   every candidate action `apply` accepts — candidates drawn widely, most of them illegal — is
//!   within the listing;
//! - the preview of a program equals what the whole engine does with that program when the robot
//!   is alone on the board (every shipped course, turn after turn: the cells entered, the pose
//!   at each register's end, the fall into a pit or off the board), and the view's preview is
//!   that of the cards placed in the draft (RR-4.3).

use engine::harness::next_seat;
use engine::{Game, Rng, Seat};
use grid::{Sq, SqDir};
use roborally::board::shipped_courses;
use roborally::card::Card;
use roborally::choices::{Choices, Pose, ProgramChoice, preview};
use roborally::event::DestroyCause;
use roborally::{Action, BoardSpec, Event, OptionCard, Phase, RoboRally, Setup, Variants};

fn accepts(g: &RoboRally, seat: Seat, a: &Action) -> bool {
    g.clone().apply(seat, a, &mut Vec::new()).is_ok()
}

fn choices_of(g: &RoboRally, seat: Seat) -> Option<Choices> {
    g.view(engine::Observer::Seat(seat)).choices
}

/// Is `registers` a program the factored form allows (read from the form alone)?
fn program_allowed(p: &ProgramChoice, registers: &[Option<Card>; 5], down: bool) -> bool {
    let mut seen = Vec::new();
    for (reg, entry) in p.registers.iter().zip(registers) {
        if reg.locked {
            if entry.is_some() && *entry != reg.card {
                return false;
            }
            continue;
        }
        if let Some(c) = entry {
            if !reg.cards.contains(c) || (p.distinct && seen.contains(c)) {
                return false;
            }
            seen.push(*c);
        }
    }
    seen.len() >= p.fill as usize && (!down || p.power_down)
}

/// Is this `place` one the factored form allows, given the draft the seat's own view shows?
fn place_allowed(
    p: &ProgramChoice,
    draft: &[Option<Card>; 5],
    register: u8,
    card: Option<Card>,
) -> bool {
    let Some(reg) = p.registers.iter().find(|r| r.register == register) else { return false };
    let k = register as usize - 1;
    !reg.locked
        && p.places_left > 0
        && draft[k] != card
        && card.is_none_or(|c| reg.cards.contains(&c) && !(p.distinct && draft.contains(&Some(c))))
}

/// `use_option` candidates: every option (and none) with each single argument the rules know.
fn use_candidates(g: &RoboRally, i: usize) -> Vec<Action> {
    let r = &g.robots()[i];
    let mut cells: Vec<Sq> = g.board().flags.clone();
    cells.extend(r.cell());
    cells.push(Sq::new(0, 0));
    let mut out = Vec::new();
    for o in OptionCard::ALL.iter().copied().map(Some).chain([None]) {
        out.push(Action::use_option(o));
        let base = |f: &dyn Fn(&mut Action)| {
            let mut a = Action::use_option(o);
            f(&mut a);
            a
        };
        for k in 0..=6u8 {
            out.push(base(&|a| {
                if let Action::UseOption { register, .. } = a {
                    *register = Some(k)
                }
            }));
            for &c in &r.hand {
                out.push(base(&|a| {
                    if let Action::UseOption { register, card, .. } = a {
                        *register = Some(k);
                        *card = Some(c);
                    }
                }));
            }
        }
        for &c in &r.hand {
            out.push(base(&|a| {
                if let Action::UseOption { card, .. } = a {
                    *card = Some(c)
                }
            }));
        }
        for d in OptionCard::ALL {
            out.push(base(&|a| {
                if let Action::UseOption { destroy, .. } = a {
                    *destroy = Some(d)
                }
            }));
        }
        for &at in &cells {
            out.push(base(&|a| {
                if let Action::UseOption { at: x, .. } = a {
                    *x = Some(at)
                }
            }));
        }
    }
    out
}

/// Check the choices of `seat` at `g` against `apply` (see the module docs).
fn check_position(g: &RoboRally, seat: Seat, rng: &mut Rng, ctx: &str) {
    let i = seat.index();
    let owes = g.decision().is_some_and(|d| d.owes(seat));
    let c = choices_of(g, seat);
    assert_eq!(c.is_some(), owes, "{ctx}: choices exactly when the seat owes a decision");
    let Some(c) = c else { return };
    for s in 0..g.seats() as u8 {
        if Seat(s) != seat {
            let other = g.view(engine::Observer::Seat(seat)).robots[s as usize].clone();
            assert!(other.hand.is_none(), "{ctx}: no other hand in the view");
        }
    }
    assert!(g.view(engine::Observer::Spectator).choices.is_none(), "{ctx}: none for spectators");
    match &c {
        Choices::Program(p) => {
            let r = &g.robots()[i];
            let view = g.view(engine::Observer::Seat(seat));
            let draft = view.robots[i].draft.expect("own draft while programming");
            // Programs: random candidates, most of them illegal, accepted exactly when allowed.
            let mut pool: Vec<Option<Card>> = vec![None];
            pool.extend(p.hand.iter().copied().map(Some));
            pool.extend(p.registers.iter().filter_map(|x| x.card).map(Some));
            pool.extend(g.draw_pile().iter().take(2).copied().map(Some));
            for _ in 0..400 {
                let regs: [Option<Card>; 5] = std::array::from_fn(|_| pool[rng.index(pool.len())]);
                let down = rng.below(2) == 0;
                let a = Action::Program { registers: regs, power_down_next: down };
                let ok = program_allowed(p, &regs, down);
                assert_eq!(accepts(g, seat, &a), ok, "{ctx}: program {regs:?} down {down}");
            }
            // Programs put together from the form: the hand shuffled into the unlocked registers.
            for _ in 0..20 {
                let mut hand = p.hand.clone();
                rng.shuffle(&mut hand);
                let regs: [Option<Card>; 5] =
                    std::array::from_fn(|k| if p.registers[k].locked { None } else { hand.pop() });
                for down in [false, true] {
                    let a = Action::Program { registers: regs, power_down_next: down };
                    assert_eq!(accepts(g, seat, &a), !down || p.power_down, "{ctx}: {a:?}");
                }
            }
            // Every program the engine lists is allowed by the form (a sample).
            let listed = g.legal_actions(seat);
            for a in listed.iter().step_by(97) {
                if let Action::Program { registers, power_down_next } = a {
                    assert!(program_allowed(p, registers, *power_down_next), "{ctx}: listed {a:?}");
                }
            }
            // Placements: every register (and two out of range) with every card, none and one
            // not in the hand.
            for register in 0..=6u8 {
                for card in pool.iter().copied() {
                    if !(1..=5).contains(&register) {
                        assert!(!accepts(g, seat, &Action::Place { register, card }), "{ctx}");
                        continue;
                    }
                    let a = Action::Place { register, card };
                    assert_eq!(
                        accepts(g, seat, &a),
                        place_allowed(p, &draft, register, card),
                        "{ctx}: {a:?} with draft {draft:?}"
                    );
                }
            }
            // Option uses while programming: exactly the listed ones.
            for a in use_candidates(g, i) {
                assert_eq!(accepts(g, seat, &a), p.options.contains(&a), "{ctx}: {a:?}");
            }
            assert_eq!(p.hand, r.hand, "{ctx}: the hand is the robot's");
        }
        Choices::StayDown { actions }
        | Choices::Reenter { actions }
        | Choices::DiscardOption { actions }
        | Choices::UseOption { actions } => {
            assert!(!actions.is_empty(), "{ctx}: something to choose");
            for a in actions {
                assert!(accepts(g, seat, a), "{ctx}: listed {a:?} is accepted");
            }
            let r = &g.robots()[i];
            let mut cands: Vec<Action> = use_candidates(g, i);
            cands
                .extend(OptionCard::ALL.iter().map(|&o| Action::DiscardOption { option: Some(o) }));
            cands.push(Action::DiscardOption { option: None });
            cands.extend([false, true].map(|value| Action::StayDown { value }));
            let around = r.archive;
            for dx in -3..=3 {
                for dy in -3..=3 {
                    for f in SqDir::ALL {
                        for p in [false, true] {
                            cands.push(Action::Reenter {
                                at: Sq::new(around.x + dx, around.y + dy),
                                facing: f,
                                powered_down: p,
                            });
                        }
                    }
                }
            }
            for a in cands {
                assert_eq!(accepts(g, seat, &a), actions.contains(&a), "{ctx}: {a:?} ({c:?})");
            }
        }
    }
}

#[test]
fn the_choices_are_exactly_what_apply_accepts() {
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let courses = shipped_courses();
    for seed in 0..12u64 {
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
        for step in 0..160 {
            let Some(d) = g.decision() else { break };
            let ctx = format!("{}, seed {seed}, step {step}", course.name);
            // Every owing seat's choices, and a non-owing seat has none.
            for s in 0..robots {
                if step % 3 == 0 || d.owes(Seat(s)) && !matches!(g.phase(), Phase::Program { .. }) {
                    check_position(&g, Seat(s), &mut rng, &ctx);
                }
            }
            if let Some(c) = choices_of(&g, next_seat(&d, &mut rng).expect("a seat")) {
                *kinds
                    .entry(match c {
                        Choices::Program(_) => "program",
                        Choices::StayDown { .. } => "stay_down",
                        Choices::Reenter { .. } => "reenter",
                        Choices::DiscardOption { .. } => "discard_option",
                        Choices::UseOption { .. } => "use_option",
                    })
                    .or_default() += 1;
            }
            let s = next_seat(&d, &mut rng).expect("a seat");
            let a = g.sample_action(s, &mut rng).expect("an action");
            g.apply(s, &a, &mut Vec::new()).expect("sampled actions are legal");
        }
    }
    for k in ["program", "reenter", "use_option", "discard_option"] {
        assert!(kinds.get(k).is_some_and(|&n| n > 0), "positions of every kind came up: {kinds:?}");
    }
}

/// Play on until seat 0 owes its next program (re-entering where the engine lists first).
fn to_next_program(g: &mut RoboRally, rng: &mut Rng) -> bool {
    for _ in 0..100 {
        let Some(d) = g.decision() else { return false };
        if matches!(g.phase(), Phase::Program { .. }) && g.pending().is_none() {
            return true;
        }
        let s = next_seat(&d, rng).expect("a seat");
        let a = match g.phase() {
            Phase::StayDown { .. } => Action::StayDown { value: false },
            _ => g.legal_actions(s).into_iter().next().expect("an action"),
        };
        g.apply(s, &a, &mut Vec::new()).expect("legal");
    }
    panic!("no program owed within 100 decisions");
}

#[test]
fn the_preview_is_the_engine_with_one_robot() {
    let (mut registers_seen, mut falls, mut turns) = (0, 0, 0);
    for course in shipped_courses() {
        let setup = Setup::new_game(BoardSpec::Named(course.name.clone()), 1, Variants::default());
        for seed in 0..25u64 {
            let mut g = RoboRally::new(&setup, seed).expect("setup");
            let mut rng = Rng::seeded(seed);
            for _ in 0..12 {
                if !to_next_program(&mut g, &mut rng) {
                    break;
                }
                let ctx = format!("{}, seed {seed}, turn {}", course.name, g.turn());
                let r = g.robot(Seat(0)).expect("robot").clone();
                // A random program, placed card by card in the draft first (RR-4.3).
                let Some(Choices::Program(p)) = choices_of(&g, Seat(0)) else {
                    panic!("{ctx}: a program is owed")
                };
                let mut hand = p.hand.clone();
                rng.shuffle(&mut hand);
                let regs: [Option<Card>; 5] =
                    std::array::from_fn(|k| if p.registers[k].locked { None } else { hand.pop() });
                for (k, c) in regs.iter().enumerate() {
                    if let Some(c) = c {
                        g.apply(
                            Seat(0),
                            &Action::Place { register: k as u8 + 1, card: Some(*c) },
                            &mut Vec::new(),
                        )
                        .expect("a listed placement");
                    }
                }
                let cards: [Option<Card>; 5] =
                    std::array::from_fn(|k| if r.locked(k) { r.registers[k] } else { regs[k] });
                let start = r.cell().map(|at| Pose { at, facing: r.facing });
                let want = preview(g.board(), start, &cards);
                let Some(Choices::Program(p)) = choices_of(&g, Seat(0)) else { unreachable!() };
                assert_eq!(p.preview, want, "{ctx}: the view previews the draft");
                // The whole engine: poses from its events.
                let mut events = Vec::new();
                g.apply(
                    Seat(0),
                    &Action::Program { registers: regs, power_down_next: false },
                    &mut events,
                )
                .expect("legal");
                turns += 1;
                let (mut at, mut facing) = (r.cell().expect("on the board"), r.facing);
                let mut reg = 0usize;
                let mut path: Vec<Sq> = Vec::new();
                let mut done = false;
                let check_end = |reg: usize, at: Sq, facing: SqDir, path: &[Sq]| {
                    if let Some(p) = want.registers.get(reg - 1) {
                        assert_eq!(
                            p.end,
                            Some(Pose { at, facing }),
                            "{ctx}: register {reg} ends there"
                        );
                        assert_eq!(p.path, path, "{ctx}: register {reg}'s cells");
                        true
                    } else {
                        false
                    }
                };
                for e in &events {
                    match *e {
                        Event::RegisterRevealed { register, .. } => {
                            if reg > 0 && check_end(reg, at, facing, &path) {
                                registers_seen += 1;
                            }
                            reg = register as usize;
                            path.clear();
                        }
                        Event::Moved { to, .. } if reg > 0 => {
                            at = to;
                            path.push(to);
                        }
                        Event::Turned { to, .. } if reg > 0 => facing = to,
                        Event::Destroyed { at: fell, cause, .. } if reg > 0 && !done => {
                            done = true;
                            let p = want.registers.get(reg - 1);
                            match cause {
                                DestroyCause::Pit | DestroyCause::OffBoard => {
                                    let p = p.expect("a previewed register");
                                    assert_eq!(
                                        p.falls,
                                        Some(fell),
                                        "{ctx}: register {reg} falls there"
                                    );
                                    assert_eq!(p.end, None, "{ctx}");
                                    assert_eq!(
                                        want.registers.len(),
                                        reg,
                                        "{ctx}: the preview stops at the fall"
                                    );
                                    falls += 1;
                                }
                                // Destroyed by the lasers at the register's end: it stood there.
                                DestroyCause::Damage => {
                                    check_end(reg, at, facing, &path);
                                }
                            }
                        }
                        _ => {}
                    }
                    if done {
                        break;
                    }
                }
                if !done && reg == 5 && check_end(5, at, facing, &path) {
                    registers_seen += 1;
                    assert_eq!(want.registers.len(), 5, "{ctx}");
                    assert!(want.registers.iter().all(|x| x.falls.is_none()), "{ctx}");
                }
            }
        }
    }
    assert!(
        turns > 200 && registers_seen > 800 && falls > 10,
        "{turns} turns, {registers_seen} registers, {falls} falls"
    );
}
