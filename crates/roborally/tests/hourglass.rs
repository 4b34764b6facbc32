//! RR-4.3, the hourglass: the secret draft a player places card by card, the clock the rules
//! run (`engine::Game::clock`: only once all but one robot are programmed, for that robot's
//! player, `timer_seconds` per robot), and `time_up` keeping the draft while filling only the
//! empty registers. Written from the rule's text (`roborally.md` RR-4.3), not from outputs.

use engine::{Clock, Decision, Game, Observer, Rng, Seat, SeatSet};
use roborally::{Action, BoardSpec, Card, RoboRally, Setup, Variants};

fn game(robots: u8, seed: u64, timer: u32) -> RoboRally {
    let mut setup =
        Setup::new_game(BoardSpec::Named("dizzy-dash".into()), robots, Variants::default());
    setup.timer_seconds = timer;
    RoboRally::new(&setup, seed).expect("starts")
}

fn hand(g: &RoboRally, s: u8) -> Vec<Card> {
    g.robot(Seat(s)).expect("robot").hand.clone()
}

fn place(g: &mut RoboRally, s: u8, register: u8, card: Option<Card>) {
    g.apply(Seat(s), &Action::Place { register, card }, &mut Vec::new()).expect("placed");
}

fn commit(g: &mut RoboRally, s: u8) {
    let h = hand(g, s);
    let registers = std::array::from_fn(|k| Some(h[k]));
    g.apply(Seat(s), &Action::Program { registers, power_down_next: false }, &mut Vec::new())
        .expect("programmed");
}

#[test]
fn rr_4_3_the_hourglass_starts_only_when_all_but_one_have_programmed() {
    for seed in 0..20 {
        let mut g = game(4, seed, 30);
        assert_eq!(g.clock(), None, "four still programming: no hourglass");
        commit(&mut g, 0);
        assert_eq!(g.clock(), None, "three still programming");
        // A draft changes nothing about the clock.
        let c = hand(&g, 3)[0];
        place(&mut g, 3, 1, Some(c));
        commit(&mut g, 2);
        assert_eq!(g.clock(), None, "two still programming");
        commit(&mut g, 1);
        assert_eq!(g.decision(), Some(Decision::Simultaneous(SeatSet::single(Seat(3)))));
        assert_eq!(
            g.clock(),
            Some(Clock { seats: SeatSet::single(Seat(3)), seconds: 30 }),
            "the last player, 30 s for its one robot"
        );
        let c = hand(&g, 3)[1];
        place(&mut g, 3, 2, Some(c));
        assert_eq!(g.clock(), Some(Clock { seats: SeatSet::single(Seat(3)), seconds: 30 }));
    }
}

#[test]
fn rr_4_3_no_timer_and_a_robot_programming_alone_have_no_hourglass() {
    let mut g = game(2, 1, 0);
    commit(&mut g, 0);
    assert_eq!(g.clock(), None, "timer_seconds 0: no timer");
    let g = game(1, 1, 30);
    assert_eq!(g.decision(), Some(Decision::Simultaneous(SeatSet::single(Seat(0)))));
    assert_eq!(g.clock(), None, "nobody finished before it");
    let mut g = game(2, 1, 45);
    commit(&mut g, 1);
    assert_eq!(g.clock(), Some(Clock { seats: SeatSet::single(Seat(0)), seconds: 45 }));
}

#[test]
fn rr_4_3_time_up_keeps_the_draft_and_fills_only_the_empty_registers() {
    let mut rng = Rng::seeded(99);
    for seed in 0..200 {
        let mut g = game(3, seed, 30);
        commit(&mut g, 0);
        commit(&mut g, 1);
        // Seat 2 places a random part of a program: some registers, random cards, with a few
        // cards taken back or replaced on the way.
        let h = hand(&g, 2);
        let mut want: [Option<Card>; 5] = [None; 5];
        for _ in 0..rng.below(12) {
            let k = rng.below(5) as usize;
            let card = if rng.below(4) == 0 { None } else { Some(h[rng.index(h.len())]) };
            if want[k] == card || card.is_some_and(|c| want.contains(&Some(c))) {
                continue;
            }
            place(&mut g, 2, k as u8 + 1, card);
            want[k] = card;
        }
        assert_eq!(g.robot(Seat(2)).expect("robot").draft, want);
        let mut events = Vec::new();
        g.time_up(&mut events).expect("time is up");
        let program = events
            .iter()
            .find_map(|e| match e {
                roborally::Event::Program { seat: Seat(2), registers, .. } => Some(*registers),
                _ => None,
            })
            .expect("seat 2's program was committed");
        for k in 0..5 {
            let c = program[k].expect("every register filled: nine cards for five registers");
            match want[k] {
                Some(w) => assert_eq!(c, w, "seed {seed}: register {} keeps its card", k + 1),
                None => {
                    assert!(h.contains(&c), "filled from the hand");
                    assert!(!want.contains(&Some(c)), "not a card placed elsewhere");
                }
            }
        }
        let mut used: Vec<u16> = program.iter().flatten().map(|c| c.priority).collect();
        used.sort();
        used.dedup();
        assert_eq!(used.len(), 5, "five different cards");
    }
}

#[test]
fn rr_4_3_a_draft_is_seen_by_its_seat_only() {
    let mut g = game(3, 4, 30);
    let c = hand(&g, 1)[4];
    place(&mut g, 1, 3, Some(c));
    let own = g.view(Observer::Seat(Seat(1)));
    assert_eq!(own.robots[1].draft, Some([None, None, Some(c), None, None]));
    for observer in [Observer::Seat(Seat(0)), Observer::Seat(Seat(2)), Observer::Spectator] {
        let v = g.view(observer);
        let theirs = &v.robots[1];
        assert!(theirs.draft.is_none(), "{observer:?} sees no draft of seat 1");
        let text = serde_json::to_string(theirs).expect("json");
        assert!(!text.contains("draft"), "{observer:?}: {text}");
        let c = serde_json::to_string(&c).expect("json");
        let all = serde_json::to_string(&v).expect("json");
        assert!(!all.contains(&c), "{observer:?} sees the card placed: {all}");
    }
    // Committed: the draft is gone from the seat's view too.
    commit(&mut g, 1);
    assert!(g.robot(Seat(1)).expect("robot").draft.iter().all(Option::is_none));
}

#[test]
fn rr_4_3_refused_places_change_nothing() {
    let g = game(2, 8, 30);
    let h0 = hand(&g, 0);
    let h1 = hand(&g, 1);
    let mut placed = g.clone();
    place(&mut placed, 0, 2, Some(h0[0]));
    let cases = [
        (&g, Action::Place { register: 1, card: Some(h1[0]) }, "card_not_in_hand"),
        (&g, Action::Place { register: 0, card: Some(h0[0]) }, "register_out_of_range"),
        (&g, Action::Place { register: 1, card: None }, "draft_unchanged"),
        (&placed, Action::Place { register: 2, card: Some(h0[0]) }, "draft_unchanged"),
        (&placed, Action::Place { register: 4, card: Some(h0[0]) }, "duplicate_card"),
    ];
    for (start, action, code) in cases {
        let mut copy = start.clone();
        let mut events = Vec::new();
        let e = copy.apply(Seat(0), &action, &mut events).expect_err(code);
        assert_eq!(engine::RuleError::code(&e), code);
        assert!(&copy == start && events.is_empty(), "{code}: nothing changed");
    }
    // The cap: after MAX_PLACES places, `too_many_places`.
    let mut g2 = g.clone();
    for n in 0..roborally::programming::MAX_PLACES {
        let card = if n % 2 == 0 { Some(h0[0]) } else { None };
        place(&mut g2, 0, 1, card);
    }
    let e = g2.clone().apply(
        Seat(0),
        &Action::Place { register: 2, card: Some(h0[1]) },
        &mut Vec::new(),
    );
    assert_eq!(e.map_err(|e| engine::RuleError::code(&e)), Err("too_many_places"));
}

#[test]
fn rr_4_3_other_decisions_have_the_timer_from_when_they_are_owed() {
    // Random games: every decision outside programming (stay down, re-entry, option questions)
    // has the clock for exactly the seats that owe it, `timer_seconds` long.
    let mut others = 0;
    for seed in 0..10 {
        let mut g = game(4, seed, 20);
        let mut rng = Rng::seeded(seed);
        for _ in 0..400 {
            let Some(d) = g.decision() else { break };
            let programming =
                matches!(g.phase(), roborally::Phase::Program { .. }) && g.pending().is_none();
            if !programming {
                others += 1;
                assert_eq!(g.clock(), Some(Clock { seats: d.seats(), seconds: 20 }));
            }
            let seat = d.seats().first().expect("a seat owes");
            let a = g.sample_action(seat, &mut rng).expect("an action");
            g.apply(seat, &a, &mut Vec::new()).expect("a sampled action is legal");
        }
    }
    assert!(others > 0, "some decision outside programming came up");
}
