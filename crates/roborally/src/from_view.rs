//! A playable state from one seat's view (determinization from the view): what a remote
//! player — the reference client of the Bot API, `robodrome bot` — has is its seat's redacted
//! view (docs/protocol.md), the seats the frame says owe a decision (`waiting`) and the game's
//! public setup, never the state. [`RoboRally::from_view`] builds a state that shows that seat
//! exactly that view and owes the same decisions, with everything the view hides drawn at
//! random from what is consistent with it, so that the project's bots can think on it.
//!
//! **Copied from the view:** every robot's place, facing, damage, lives, flags, archive, power
//! state, option cards and their marks (RR-9), locked registers, revealed register cards and
//! second cards, the turn, the register, the question owed (RR-7.4, RR-8.2, RR-9), the
//! re-entering robot (RR-8.3), the pile sizes; the seat's own hand, draft, registers, cards
//! kept on option cards and power-down announcement.
//!
//! **Drawn** (the 84 cards, RR-1.1, less the ones the view shows, shuffled, seeded): the cards
//! of other robots' hands (RR-4.1: how many follows from the public hand size and the cards
//! they put on option cards this turn), unrevealed registers and second cards (RR-4.2, RR-5.1),
//! Flywheel and Conditional Program cards (RR-9), the draw pile's order and which cards lie in
//! the discards (the view gives only the piles' sizes); the option deck's order (RR-9); another
//! robot's power-down announcement while programming (RR-4.4: only when it is damaged, one in
//! four) and the stay-down answers already sent (RR-6.4).
//!
//! **Not in a view, so rebuilt by rule** (decisions of this crate, docs/roborally.md "A state
//! from a view"): who still owes a program when a Recompile question is asked while
//! programming (a robot with an empty unlocked register); the step of the register a question
//! stops at (a reveal question before the reveal, a move option at that robot's card, a
//! weapon, damage or lost option after the lasers, Mechanical Arm before the checkpoints);
//! the queue behind the re-entering robot (the other destroyed robots by start dock); which
//! robot finished first (seat order), and further questions queued behind the one shown
//! (none). The result is checked: a state whose view for the seat differs from the given one,
//! or that owes other decisions, is refused with [`FromViewError`].

use crate::card::{Card, full_deck};
use crate::option::{OptionCard, OptionState};
use crate::setup::Setup;
use crate::{Pending, Phase, RoboRally, Step};
use engine::{Game, Observer, Rng, Seat};
use grid::{Sq, SqDir};
use serde::Deserialize;
use std::collections::BTreeSet;

/// Why no state was built from a view (another game's view, a view that does not fit the
/// setup, or a stage owing no decision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromViewError(pub String);

impl std::fmt::Display for FromViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FromViewError {}

fn bad(what: impl Into<String>) -> FromViewError {
    FromViewError(what.into())
}

// The parts of `crate::view::View` read back (its JSON as the server sends it).
#[derive(Deserialize)]
struct ViewIn {
    turn: u32,
    phase: String,
    register: Option<u8>,
    robots: Vec<RobotIn>,
    draw_pile: usize,
    discard_pile: usize,
    winner: Option<Seat>,
    timer_seconds: u32,
    #[serde(default)]
    question: Option<QuestionIn>,
    #[serde(default)]
    reentry: Option<ReentryIn>,
    #[serde(default)]
    choices: Option<ChoicesIn>,
}

#[derive(Deserialize)]
struct ChoicesIn {
    #[serde(default)]
    places_left: Option<u16>,
}

#[derive(Deserialize)]
struct RobotIn {
    seat: Seat,
    at: Option<Sq>,
    facing: SqDir,
    damage: u8,
    lives: u8,
    flags_touched: u8,
    archive: Sq,
    powered_down: bool,
    destroyed: bool,
    out: bool,
    finished: bool,
    hand_size: u8,
    registers: [RegIn; 5],
    options: Vec<OptionCard>,
    option_state: OptIn,
    side: [RegIn; 5],
    flywheel: RegIn,
    conditional: RegIn,
    power_down_next: Option<bool>,
    hand: Option<Vec<Card>>,
    #[serde(default)]
    draft: Option<[Option<Card>; 5]>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case", tag = "kind", content = "card")]
enum RegIn {
    Empty,
    Hidden,
    Card(Card),
}

impl RegIn {
    fn card(self) -> Option<Card> {
        match self {
            RegIn::Card(c) => Some(c),
            _ => None,
        }
    }
    fn filled(self) -> bool {
        self != RegIn::Empty
    }
}

#[derive(Deserialize)]
struct OptIn {
    ablative: u8,
    howitzer: u8,
    recompiled: bool,
    stabilizer_on: bool,
    jammed: [u8; 5],
    aborted: bool,
    radio: Option<Seat>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum QuestionIn {
    Damage { seat: Seat, points: u8 },
    LoseOption { seat: Seat },
    MoveOption { seat: Seat, option: OptionCard },
    Reveal { seat: Seat, register: u8 },
    Weapon { seat: Seat, target: Seat, points: u8 },
    Stabilizer { seat: Seat },
    Arm { seat: Seat },
}

impl QuestionIn {
    fn seat(&self) -> Seat {
        match *self {
            QuestionIn::Damage { seat, .. }
            | QuestionIn::LoseOption { seat }
            | QuestionIn::MoveOption { seat, .. }
            | QuestionIn::Reveal { seat, .. }
            | QuestionIn::Weapon { seat, .. }
            | QuestionIn::Stabilizer { seat }
            | QuestionIn::Arm { seat } => seat,
        }
    }
}

#[derive(Deserialize)]
struct ReentryIn {
    seat: Seat,
}

/// The option a second card rides on (RR-9 Crab Legs / Dual Processor): the one the robot
/// holds (the view does not say which when it holds both: Crab Legs).
fn side_option(options: &[OptionCard]) -> OptionCard {
    if options.contains(&OptionCard::CrabLegs) || !options.contains(&OptionCard::DualProcessor) {
        OptionCard::CrabLegs
    } else {
        OptionCard::DualProcessor
    }
}

impl RoboRally {
    /// The state `seat` may be in, given its view (`view`, as JSON) of the game made from
    /// `setup`, and `waiting`, the seats the server says owe a decision now. What the view
    /// hides is drawn from `rng` (see the module's doc).
    pub fn from_view(
        setup: &Setup,
        view: &serde_json::Value,
        waiting: &[Seat],
        seat: Seat,
        rng: &mut Rng,
    ) -> Result<RoboRally, FromViewError> {
        let v = ViewIn::deserialize(view).map_err(|e| bad(format!("not a RoboRally view: {e}")))?;
        // The course, rules and docks of the setup; everything that moves comes from the view.
        let mut g = RoboRally::from_setup(setup, 0).map_err(|e| bad(e.to_string()))?;
        let n = g.robots.len();
        if v.robots.len() != n || seat.index() >= n {
            return Err(bad("the view's robots do not fit the setup"));
        }
        if v.robots.iter().enumerate().any(|(i, r)| r.seat.index() != i) {
            return Err(bad("the view's robots are not in seat order"));
        }
        let me = seat.index();
        let Some(mine) = v.robots[me].hand.as_ref() else {
            return Err(bad("not the view of this seat (no hand shown)"));
        };
        let mine = mine.clone();

        // Every card the view shows where it is.
        let mut known: BTreeSet<u16> = BTreeSet::new();
        let mut see = |c: Card| -> Result<(), FromViewError> {
            if !c.is_real() || !known.insert(c.priority) {
                return Err(bad(format!(
                    "card {} is not a card of RR-1.1 or shown twice",
                    c.priority
                )));
            }
            Ok(())
        };
        for (i, r) in v.robots.iter().enumerate() {
            for reg in r.registers.iter().chain(&r.side).chain([&r.flywheel, &r.conditional]) {
                if let Some(c) = reg.card() {
                    see(c)?;
                }
                if i == me && *reg == RegIn::Hidden {
                    return Err(bad("the seat's own cards are hidden in its view"));
                }
            }
        }
        for &c in &mine {
            see(c)?;
        }

        // The robots as the view shows them.
        let register = v.register.unwrap_or(0);
        let asking_reveal =
            matches!(v.question, Some(QuestionIn::Reveal { .. } | QuestionIn::Stabilizer { .. }));
        for (i, rv) in v.robots.iter().enumerate() {
            let r = &mut g.robots[i];
            let gone = rv.destroyed || rv.out || rv.finished;
            if gone && rv.at.is_some() {
                return Err(bad(format!("seat {i}: a robot off the board has a cell")));
            }
            r.at = rv.at;
            r.facing = rv.facing;
            r.damage = rv.damage;
            r.lives = rv.lives;
            r.flags_touched = rv.flags_touched;
            r.archive = rv.archive;
            r.powered_down = rv.powered_down;
            r.destroyed = rv.destroyed;
            r.out = rv.out;
            r.finished = rv.finished;
            r.hand_size = rv.hand_size;
            r.options = rv.options.clone();
            r.opt = OptionState {
                ablative: rv.option_state.ablative,
                howitzer: rv.option_state.howitzer,
                recompiled: rv.option_state.recompiled,
                stabilizer_on: rv.option_state.stabilizer_on,
                jammed: rv.option_state.jammed,
                aborted: rv.option_state.aborted,
                radio: rv.option_state.radio,
                ..OptionState::default()
            };
            r.destroyed_at = 0;
            r.places = 0;
            r.draft = [None; 5];
            r.hand = Vec::new();
            let on = side_option(&r.options);
            for k in 0..5 {
                r.registers[k] = rv.registers[k].card();
                r.stash.side[k] = rv.side[k].card().map(|c| (on, c));
                r.revealed[k] = if i == me {
                    // The seat's own: face up once its register was revealed this turn
                    // (RR-5.1), or locked and shown before (RR-7.2).
                    r.registers[k].is_some()
                        && ((v.phase == "execute"
                            && ((k as u8) + 1 < register
                                || ((k as u8) + 1 == register && !asking_reveal)))
                            || r.locked(k))
                } else {
                    rv.registers[k].card().is_some()
                };
            }
            r.stash.flywheel = rv.flywheel.card();
            r.stash.conditional = rv.conditional.card();
            r.power_down_next = rv.power_down_next.unwrap_or(false);
        }
        // RR-5.2: one robot a cell (the state keeps a robot index by cell).
        let mut cells = BTreeSet::new();
        if let Some(at) = g.robots.iter().filter_map(|r| r.at).find(|&at| !cells.insert(at)) {
            return Err(bad(format!("two robots on {at}")));
        }
        g.occupancy = RoboRally::occupancy_of(&g.board, &g.robots);
        g.cell_index = RoboRally::cell_index_of(&g.board, &g.robots);
        let own = &mut g.robots[me];
        own.hand = mine;
        if let Some(d) = v.robots[me].draft {
            own.draft = d;
        }
        // RR-4.3: how many `place` actions are left this turn (the seat's own choices).
        if let Some(left) = v.choices.as_ref().and_then(|c| c.places_left) {
            own.places = crate::programming::MAX_PLACES.saturating_sub(left);
        }

        // The phase, who owes what, and the question.
        let owes_of = |i: usize| waiting.contains(&Seat(i as u8));
        let question_seat = v.question.as_ref().map(QuestionIn::seat);
        g.phase = match v.phase.as_str() {
            "program" => Phase::Program {
                owes: (0..n)
                    .map(|i| {
                        let rv = &v.robots[i];
                        if question_seat != Some(Seat(i as u8)) {
                            owes_of(i)
                        } else if i == me {
                            !g.robots[i].hand.is_empty()
                        } else {
                            // Recompile's question while programming: a robot whose program
                            // is not in yet has an empty unlocked register (RR-4.2).
                            (0..5).any(|k| !g.robots[i].locked(k) && !rv.registers[k].filled())
                        }
                    })
                    .collect(),
            },
            "stay_down" => Phase::StayDown {
                owes: (0..n).map(owes_of).collect(),
                stay: (0..n).map(|i| !owes_of(i) && i != me && rng.below(2) == 0).collect(),
            },
            "reenter" => {
                let head = v
                    .reentry
                    .as_ref()
                    .ok_or_else(|| bad("a re-entry view names the re-entering robot"))?
                    .seat
                    .index();
                let mut queue: crate::PerRobot<u8> = (0..n)
                    .filter(|&i| i != head && g.robots[i].destroyed && g.robots[i].active())
                    .map(|i| i as u8)
                    .collect();
                queue.sort_by_key(|&i| g.robots[usize::from(i)].dock);
                queue.insert(0, head as u8);
                Phase::Reenter { queue }
            }
            "execute" => {
                if !(1..=5).contains(&register) {
                    return Err(bad("an execute view names its register"));
                }
                let step = match &v.question {
                    Some(QuestionIn::Reveal { .. } | QuestionIn::Stabilizer { .. }) => {
                        g.reveal_asked = Some(register);
                        Step::Reveal
                    }
                    Some(QuestionIn::MoveOption { seat: s, .. }) => {
                        let order = g.move_order(register);
                        let next = order
                            .iter()
                            .position(|&i| usize::from(i) == s.index())
                            .ok_or_else(|| bad("a move option of a robot not moving"))?
                            as u8;
                        Step::Move { order, next }
                    }
                    Some(QuestionIn::Arm { .. }) => {
                        g.arm_asked = Some(register);
                        Step::Checkpoints { order: g.move_order(register) }
                    }
                    Some(_) => Step::Checkpoints { order: g.move_order(register) },
                    None => return Err(bad("no decision is owed while registers run")),
                };
                Phase::Execute { register, step }
            }
            p => return Err(bad(format!("phase {p:?}: no decision to rebuild"))),
        };
        g.pending.clear();
        if let Some(q) = &v.question {
            let robot = q.seat().index();
            if robot >= n {
                return Err(bad("a question of an unknown seat"));
            }
            g.pending.push_back(match *q {
                QuestionIn::Damage { points, seat: s } => Pending::Damage {
                    robot,
                    points,
                    source: if v.phase == "program" {
                        crate::event::Shooter::Recompile { seat: s }
                    } else {
                        crate::event::Shooter::Board { at: g.robots[robot].at.unwrap_or_default() }
                    },
                },
                QuestionIn::LoseOption { .. } => Pending::LoseOption { robot },
                QuestionIn::MoveOption { option, .. } => Pending::MoveOption { robot, option },
                QuestionIn::Reveal { register, .. } => Pending::Reveal { robot, register },
                QuestionIn::Weapon { target, points, .. } => {
                    if target.index() >= n {
                        return Err(bad("a weapon aimed at an unknown seat"));
                    }
                    Pending::Weapon { robot, target: target.index(), points }
                }
                QuestionIn::Stabilizer { .. } => Pending::Stabilizer { robot },
                QuestionIn::Arm { .. } => Pending::Arm { robot },
            });
        }

        // Other robots' hands: only while they still owe their program (RR-4.2 discards the
        // rest of a hand with the program), the hand dealt less what went onto option cards
        // this turn (second cards beside unlocked registers, Flywheel, Conditional Program).
        let mut hand_len = vec![0usize; n];
        if let Phase::Program { owes } = &g.phase {
            for i in (0..n).filter(|&i| i != me && owes[i]) {
                let r = &g.robots[i];
                let rv = &v.robots[i];
                let put = (0..5).filter(|&k| !r.locked(k) && rv.side[k].filled()).count()
                    + usize::from(rv.flywheel.filled())
                    + usize::from(rv.conditional.filled());
                hand_len[i] = (rv.hand_size as usize).saturating_sub(put);
            }
        }

        // Draw what is hidden from the cards the view does not show (sorted first, so the
        // result depends only on the view and the seed).
        let mut pool: Vec<Card> =
            full_deck().into_iter().filter(|c| !known.contains(&c.priority)).collect();
        pool.sort_unstable_by_key(|c| c.priority);
        let hidden = |r: &RegIn| usize::from(*r == RegIn::Hidden);
        let slots: usize = (0..n)
            .filter(|&i| i != me)
            .map(|i| {
                let rv = &v.robots[i];
                rv.registers.iter().chain(&rv.side).map(hidden).sum::<usize>()
                    + hidden(&rv.flywheel)
                    + hidden(&rv.conditional)
                    + hand_len[i]
            })
            .sum();
        if pool.len() != slots + v.draw_pile + v.discard_pile {
            return Err(bad(format!(
                "{} unseen cards, but {slots} hidden places and piles of {} and {}",
                pool.len(),
                v.draw_pile,
                v.discard_pile
            )));
        }
        rng.shuffle(&mut pool);
        for i in (0..n).filter(|&i| i != me) {
            let rv = &v.robots[i];
            let r = &mut g.robots[i];
            let on = side_option(&r.options);
            let mut take = || pool.pop().ok_or_else(|| bad("cards counted"));
            for k in 0..5 {
                if rv.registers[k] == RegIn::Hidden {
                    r.registers[k] = Some(take()?);
                }
                if rv.side[k] == RegIn::Hidden {
                    r.stash.side[k] = Some((on, take()?));
                }
            }
            if rv.flywheel == RegIn::Hidden {
                r.stash.flywheel = Some(take()?);
            }
            if rv.conditional == RegIn::Hidden {
                r.stash.conditional = Some(take()?);
            }
            r.hand = (0..hand_len[i]).map(|_| take()).collect::<Result<_, _>>()?;
            // RR-4.4: another robot's announcement is secret while programming; drawn.
            if rv.power_down_next.is_none() {
                r.power_down_next = r.damage > 0 && rng.below(4) == 0;
            }
        }
        g.deck.discard = pool.split_off(v.draw_pile);
        g.deck.draw = pool;

        // RR-9: the option deck, every option card not held, in a drawn order.
        let held: Vec<OptionCard> = g.robots.iter().flat_map(|r| r.options.clone()).collect();
        g.option_deck = OptionCard::ALL.into_iter().filter(|o| !held.contains(o)).collect();
        g.option_discard.clear();
        rng.shuffle(&mut g.option_deck);

        g.turn = v.turn;
        g.rules.timer_seconds = v.timer_seconds;
        g.winner = v.winner;
        g.finish_order = v.winner.into_iter().collect();
        g.finish_order.extend(
            g.robots.iter().filter(|r| r.finished && Some(r.seat) != v.winner).map(|r| r.seat),
        );
        g.moment = 0;
        g.move_answer = None;
        g.rng = rng.fork();

        // The rebuilt state must show the seat its view and owe what the server says.
        let mut owing: Vec<Seat> =
            g.decision().map(|d| d.seats().iter().collect()).unwrap_or_default();
        owing.sort();
        let mut expected = waiting.to_vec();
        expected.sort();
        if owing != expected {
            return Err(bad(format!(
                "the server waits for {expected:?}, the rebuilt state for {owing:?}"
            )));
        }
        // The seat's own second cards ride on Crab Legs or Dual Processor: when it holds
        // both, the view tells which only through its choices; each assignment is tried.
        let both = [OptionCard::CrabLegs, OptionCard::DualProcessor]
            .iter()
            .all(|o| g.robots[me].options.contains(o));
        let sides: Vec<usize> = (0..5).filter(|&k| g.robots[me].stash.side[k].is_some()).collect();
        let tries = if both { 1u32 << sides.len() } else { 1 };
        let mut why = String::new();
        for mask in 0..tries {
            if both {
                for (bit, &k) in sides.iter().enumerate() {
                    if let Some((o, _)) = &mut g.robots[me].stash.side[k] {
                        *o = if mask & (1 << bit) == 0 {
                            OptionCard::CrabLegs
                        } else {
                            OptionCard::DualProcessor
                        };
                    }
                }
            }
            let again = serde_json::to_value(g.view(Observer::Seat(seat)))
                .map_err(|e| bad(e.to_string()))?;
            if &again == view {
                return Ok(g);
            }
            why = first_difference(&again, view);
        }
        Err(bad(format!("the rebuilt state does not show the seat its view (at {why})")))
    }
}

/// Where two JSON values first differ (a path such as `robots/2/hand`), for the error.
pub(crate) fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    Some(vb) if va == vb => {}
                    Some(vb) => return format!("{k}/{}", first_difference(va, vb)),
                    None => return format!("{k} (only rebuilt)"),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map_or(String::new(), |k| format!("{k} (only given)"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .position(|(p, q)| p != q)
            .map_or(String::new(), |i| format!("{i}/{}", first_difference(&x[i], &y[i]))),
        _ => format!("{a} ≠ {b}"),
    }
}
