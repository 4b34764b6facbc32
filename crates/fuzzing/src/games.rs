//! One harness for every game's `apply`, generic over [`engine::Game`], and the three games'
//! setups.
//!
//! The input chooses a setup and a seed, then a sequence of steps, each one of:
//!
//! * a **listed** action: an owing seat and an entry of its `legal_actions`, which must be
//!   accepted;
//! * a **sampled** action (`sample_action`, seeded by the input), which must be accepted;
//! * a **mutated** action: the JSON of a listed or sampled action (or of nothing), changed by
//!   the input (values replaced, keys removed or added, types swapped), parsed as the game's
//!   action and sent by any seat, including seats that do not exist. If the game rejects it,
//!   the whole state and the event list must be exactly as before; if it accepts it, the action
//!   must have been listed by `legal_actions` (the engine promises "every legal action");
//! * `time_up`, which must be accepted while a decision is owed.
//!
//! After every accepted step a game with no decision owed must have an outcome. Any broken
//! promise panics with a message naming it: that is what the fuzzer reports.

use arbitrary::{Result, Unstructured};
use engine::{Decision, Game, LogEntry, Observer, Rng, Seat};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};

/// At most this many steps per input (the input's length usually ends it sooner).
pub const MAX_STEPS: usize = 400;

/// A game's fuzzing entry: the setups it may start from and the words its actions use.
pub struct Target<G: Game> {
    /// Strings that mean something in this game's actions (type tags, names, letters).
    pub vocabulary: &'static [&'static str],
    pub setup: fn(&mut Unstructured) -> Result<G::Setup>,
    /// The game's documented equivalences between actions, for the check that an accepted
    /// action was listed: two actions the rules treat alike map to the same value (see
    /// docs/fuzzing.md). The identity for a game whose listing is literal.
    pub canonical: fn(&G::Action) -> G::Action,
    /// `Game::new`, or the game's equivalent on a board built once and cached (the same
    /// state, many times faster: the fuzzer then spends its time in `apply`).
    pub start: fn(&G::Setup, u64) -> std::result::Result<G, engine::SetupError>,
    /// How often each kind of step comes (listed, sampled, mutated, `time_up`), out of the sum.
    pub weights: [u8; 4],
}

/// The weights of a game whose listing is cheap.
pub const WEIGHTS: [u8; 4] = [5, 4, 6, 1];

/// A game being fuzzed and what it went through: the log as the server would store it.
struct Played<G: Game> {
    setup: G::Setup,
    seed: u64,
    game: G,
    log: Vec<LogEntry<G::Action>>,
    events: Vec<G::Event>,
}

/// Run one input against a game. Returns when the input runs out; panics on a broken promise.
pub fn run<G: Game>(target: &Target<G>, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(setup) = (target.setup)(&mut u) else { return };
    let Ok(seed) = u.arbitrary::<u64>() else { return };
    let Ok(game) = (target.start)(&setup, seed) else { return };
    let mut p = Played { setup, seed, game, log: Vec::new(), events: Vec::new() };
    // Running out of input is the normal end, not a failure.
    let _ = play(target, &mut u, &mut p);
    check_end(target, &p);
}

fn play<G: Game>(target: &Target<G>, u: &mut Unstructured, p: &mut Played<G>) -> Result<()> {
    let g = &mut p.game;
    let seats = g.seats();
    let mut events = Vec::new();
    for _ in 0..MAX_STEPS {
        if u.is_empty() {
            break;
        }
        let Some(decision) = g.decision() else { break };
        events.clear();
        let [listed, sampled, mutate, _] = target.weights.map(u16::from);
        let sum = target.weights.iter().map(|&w| u16::from(w)).sum::<u16>().max(1);
        let k = u.int_in_range(0..=sum - 1)?;
        let entry = match k {
            k if k < listed => {
                let seat = owing_seat(&decision, u)?;
                let listed = g.legal_actions(seat);
                assert!(!listed.is_empty(), "{seat} owes a decision but lists no action");
                let action = u.choose(&listed)?;
                if let Err(e) = g.apply(seat, action, &mut events) {
                    panic!("listed action {action:?} of {seat} was rejected: {e} ({})", code(&e));
                }
                LogEntry::Act { seat, action: action.clone() }
            }
            // A sampled action (cheap where listing is not: RoboRally's 30,240 programs), which
            // must be accepted too.
            k if k < listed + sampled => {
                let seat = owing_seat(&decision, u)?;
                let mut rng = Rng::seeded(u.arbitrary::<u32>()?.into());
                let Some(action) = g.sample_action(seat, &mut rng) else {
                    panic!("{seat} owes a decision but no action was sampled");
                };
                if let Err(e) = g.apply(seat, &action, &mut events) {
                    panic!("sampled action {action:?} of {seat} was rejected: {e} ({})", code(&e));
                }
                LogEntry::Act { seat, action }
            }
            k if k < listed + sampled + mutate => {
                // Any seat, including seats past the last one.
                let seat = Seat(u.int_in_range(0..=seats as u8 + 1)?);
                let Some(action) = mutated(g, seat, u, target.vocabulary)? else { continue };
                let before = g.clone();
                if let Err(e) = g.apply(seat, &action, &mut events) {
                    assert!(*g == before, "rejected {action:?} ({}) changed the state", code(&e));
                    assert!(events.is_empty(), "rejected {action:?} ({}) pushed events", code(&e));
                    continue;
                }
                let listed = before.legal_actions(seat);
                let want = (target.canonical)(&action);
                assert!(
                    listed.iter().any(|a| (target.canonical)(a) == want),
                    "{seat} was allowed {action:?}, which legal_actions does not list ({} listed)",
                    listed.len()
                );
                LogEntry::Act { seat, action }
            }
            _ => {
                if let Err(e) = g.time_up(&mut events) {
                    panic!("time_up was refused while {decision:?} is owed: {e} ({})", code(&e));
                }
                LogEntry::TimeUp
            }
        };
        p.log.push(entry);
        p.events.append(&mut events);
        if g.decision().is_none() {
            assert!(g.outcome().is_some(), "no decision is owed but the game has no outcome");
        }
    }
    Ok(())
}

/// What must hold of the game as it stands at the end of an input, as the server uses it: the
/// log reads back from JSON unchanged and replays to the same state and the same events (a
/// game is resumed after a restart by replaying its stored log); the views serialise.
fn check_end<G: Game>(target: &Target<G>, p: &Played<G>) {
    let text = serde_json::to_string(&p.log).expect("a log serialises");
    let log: Vec<LogEntry<G::Action>> = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the stored log does not read back: {e}: {text}"));
    assert!(log == p.log, "the stored log reads back different: {text}");
    let mut g = (target.start)(&p.setup, p.seed).expect("it started before");
    let mut events = Vec::new();
    for (i, entry) in log.iter().enumerate() {
        let r = match entry {
            LogEntry::Act { seat, action } => g.apply(*seat, action, &mut events),
            LogEntry::TimeUp => g.time_up(&mut events),
        };
        if let Err(e) = r {
            panic!("log entry {i} ({entry:?}) is refused on replay: {e} ({})", code(&e));
        }
    }
    assert!(g == p.game, "replaying the log gave a different state");
    assert!(events == p.events, "replaying the log gave different events");
    // Views carry the whole board: three of them (the last seat to act stands for the seats;
    // the games' own property tests check every seat's redaction with `engine::harness`).
    let seat = p.log.iter().rev().find_map(|e| match e {
        LogEntry::Act { seat, .. } => Some(*seat),
        LogEntry::TimeUp => None,
    });
    let seat = seat.filter(|s| s.index() < p.game.seats()).unwrap_or(Seat(0));
    for o in [Observer::Omniscient, Observer::Spectator, Observer::Seat(seat)] {
        if let Err(e) = serde_json::to_string(&p.game.view(o)) {
            panic!("the view for {o:?} does not serialise: {e}");
        }
    }
}

fn code<E: engine::RuleError>(e: &E) -> &'static str {
    e.code()
}

/// A seat that owes the decision.
fn owing_seat(d: &Decision, u: &mut Unstructured) -> Result<Seat> {
    Ok(match d {
        Decision::One(s) => *s,
        Decision::Simultaneous(set) => {
            let n = set.len().max(1);
            set.iter().nth(u.choose_index(n)?).unwrap_or(Seat(0))
        }
    })
}

/// A game action made from the JSON of a listed action of some owing seat (or from nothing),
/// changed by the input. `None` when the result does not parse as an action.
fn mutated<G: Game>(
    g: &G,
    seat: Seat,
    u: &mut Unstructured,
    vocabulary: &[&str],
) -> Result<Option<G::Action>> {
    let base = match u.int_in_range(0u8..=3)? {
        // From this seat's own listing (often empty: the seat owes nothing).
        0 => {
            let listed = g.legal_actions(seat);
            if listed.is_empty() { Value::Null } else { to_json(u.choose(&listed)?) }
        }
        // From an owing seat's sampled action: right action, maybe wrong seat.
        1 | 2 => {
            let Some(d) = g.decision() else { return Ok(None) };
            let owner = owing_seat(&d, u)?;
            let mut rng = Rng::seeded(u.arbitrary::<u32>()?.into());
            g.sample_action(owner, &mut rng).map_or(Value::Null, |a| to_json(&a))
        }
        _ => Value::Null,
    };
    let mut v = if base.is_null() { any_value(u, vocabulary, 3)? } else { base };
    for _ in 0..u.int_in_range(0u8..=4)? {
        mutate(&mut v, u, vocabulary, 4)?;
    }
    Ok(serde_json::from_value(v).ok())
}

fn to_json<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or(Value::Null)
}

const NUMBERS: [i64; 14] = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 255, 256, 65_536, 4_294_967_296];

fn any_value(u: &mut Unstructured, vocabulary: &[&str], depth: u8) -> Result<Value> {
    let kind = u.int_in_range(0u8..=if depth == 0 { 5 } else { 7 })?;
    Ok(match kind {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::from(*u.choose(&NUMBERS)?),
        3 => Value::from(u.arbitrary::<i64>()?),
        4 if !vocabulary.is_empty() => Value::from(*u.choose(vocabulary)?),
        4 | 5 => Value::from(u.arbitrary::<String>()?),
        6 => {
            let n = u.int_in_range(0..=6)?;
            let mut a = Vec::with_capacity(n);
            for _ in 0..n {
                a.push(any_value(u, vocabulary, depth - 1)?);
            }
            Value::Array(a)
        }
        _ => {
            let n = u.int_in_range(0..=4)?;
            let mut m = Map::new();
            for _ in 0..n {
                let k = key(u, vocabulary)?;
                m.insert(k, any_value(u, vocabulary, depth - 1)?);
            }
            Value::Object(m)
        }
    })
}

fn key(u: &mut Unstructured, vocabulary: &[&str]) -> Result<String> {
    Ok(if !vocabulary.is_empty() && u.ratio(3u8, 4)? {
        (*u.choose(vocabulary)?).to_string()
    } else {
        u.arbitrary()?
    })
}

/// One change somewhere inside `v`.
fn mutate(v: &mut Value, u: &mut Unstructured, vocabulary: &[&str], depth: u8) -> Result<()> {
    match v {
        Value::Object(m) if !m.is_empty() && depth > 0 => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = u.choose(&keys)?.clone();
            match u.int_in_range(0u8..=5)? {
                0 => {
                    m.remove(&k);
                }
                1 => {
                    let nk = key(u, vocabulary)?;
                    m.insert(nk, any_value(u, vocabulary, 2)?);
                }
                _ => {
                    if let Some(inner) = m.get_mut(&k) {
                        mutate(inner, u, vocabulary, depth - 1)?;
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() && depth > 0 => match u.int_in_range(0u8..=4)? {
            0 => {
                let i = u.choose_index(a.len())?;
                a.remove(i);
            }
            1 => {
                let i = u.choose_index(a.len())?;
                let x = a[i].clone();
                a.push(x);
            }
            2 => {
                let (i, j) = (u.choose_index(a.len())?, u.choose_index(a.len())?);
                a.swap(i, j);
            }
            _ => {
                let i = u.choose_index(a.len())?;
                mutate(&mut a[i], u, vocabulary, depth - 1)?;
            }
        },
        Value::Number(n) if u.ratio(2u8, 3)? => {
            let x = n.as_i64().unwrap_or(0);
            let d = *u.choose(&[-2i64, -1, 1, 2, 8, -8, 64])?;
            *v = Value::from(x.wrapping_add(d));
        }
        Value::Bool(b) if u.ratio(2u8, 3)? => *b = !*b,
        _ => *v = any_value(u, vocabulary, 2)?,
    }
    Ok(())
}

// ---- the three games' setups ------------------------------------------------------------

/// Autoscooter: 2–8 players on the standard rink, beginners' speeds or not, every variant.
pub fn autoscooter_target() -> Target<autoscooter::Autoscooter> {
    Target {
        vocabulary: &[
            "type",
            "plot",
            "plot_wild",
            "start",
            "take",
            "pay",
            "car",
            "number",
            "letter",
            "to",
            "facing",
            "colours",
            "q",
            "r",
            "A",
            "B",
            "H",
            "P",
            "Z",
            "red",
            "blue",
            "green",
            "yellow",
        ],
        setup: |u| {
            use autoscooter::{Setup, Variants, WildCar};
            let players = u.int_in_range(2usize..=8)?;
            let bits: u8 = u.arbitrary()?;
            let colour = bits & 4 != 0;
            let variants = Variants {
                wild_car: (bits & 1 != 0 && (5..=7).contains(&players))
                    .then_some(WildCar::Lowest(bits & 16 != 0)),
                jolting: bits & 2 != 0,
                colour_scoring: colour,
                per_car_scoring: colour && bits & 8 != 0 && players <= 4,
            };
            Setup::standard(players, bits & 32 != 0 && players == 2, variants)
                .map_err(|_| arbitrary::Error::IncorrectFormat)
        },
        // AS-4.2 / docs/autoscooter.md: a plot's letter is not judged when it is plotted (a
        // letter illegal for the speed goes straight on, `null` for a moving car too, a letter
        // for a stationary car is ignored), while `legal_actions` lists only the letters legal
        // at the car's speed. So plots compare by car and number, wild plots all alike.
        canonical: |a| match a {
            autoscooter::Action::Plot { car, number, .. } => {
                autoscooter::Action::Plot { car: *car, number: *number, letter: None }
            }
            autoscooter::Action::PlotWild { .. } => autoscooter::Action::PlotWild { letter: None },
            other => other.clone(),
        },
        start: autoscooter::Autoscooter::new,
        weights: WEIGHTS,
    }
}

fn roborally_courses() -> &'static [roborally::Course] {
    static COURSES: OnceLock<Vec<roborally::Course>> = OnceLock::new();
    COURSES.get_or_init(roborally::board::shipped_courses)
}

/// RoboRally: any shipped course, 2–8 robots, the variants, and none, two or twenty of the
/// option cards dealt out (so every option's questions come up).
pub fn roborally_target() -> Target<roborally::RoboRally> {
    Target {
        vocabulary: &[
            "type",
            "program",
            "reenter",
            "stay_down",
            "discard_option",
            "use_option",
            "registers",
            "power_down_next",
            "at",
            "facing",
            "powered_down",
            "value",
            "option",
            "register",
            "destroy",
            "card",
            "priority",
            "kind",
            "x",
            "y",
            "N",
            "E",
            "S",
            "W",
            "move1",
            "u_turn",
            "brakes",
            "fire_control",
            "crab_legs",
            "dual_processor",
            "flywheel",
        ],
        setup: |u| {
            use roborally::{BoardSpec, OptionCard, Setup, Variants};
            let courses = roborally_courses();
            let name = u.choose(courses)?.name.clone();
            let robots = u.int_in_range(2u8..=8)?;
            let variants = Variants { lives4: u.arbitrary()?, full_ranking: u.arbitrary()? };
            let mut setup = Setup::new_game(BoardSpec::Named(name), robots, variants);
            match u.int_in_range(0u8..=2)? {
                0 => {}
                1 => setup.robots[0].options = vec![OptionCard::Brakes, OptionCard::Flywheel],
                _ => {
                    let mut all = OptionCard::ALL.to_vec();
                    for i in (1..all.len()).rev() {
                        let j = u.int_in_range(0..=i)?;
                        all.swap(i, j);
                    }
                    for (k, o) in all.into_iter().take(20).enumerate() {
                        setup.robots[k % robots as usize].options.push(o);
                    }
                }
            }
            Ok(setup)
        },
        canonical: Clone::clone,
        start: |setup, seed| {
            let board = match &setup.board {
                roborally::BoardSpec::Named(n) => {
                    roborally_courses().iter().find(|c| &c.name == n).map(|c| c.board.clone())
                }
                roborally::BoardSpec::Inline(_) | roborally::BoardSpec::Text { .. } => None,
            };
            match board {
                Some(b) => roborally::RoboRally::from_board(setup, b, seed),
                None => roborally::RoboRally::new(setup, seed),
            }
        },
        // A program listing is up to 30,240 actions: listed steps are rarer, sampled ones
        // (which go deeper into the game for the same time) more common.
        weights: [2, 7, 6, 1],
    }
}

/// Bumping Bots: any shipped track, 2–6 bots (what the tracks' grids hold), chosen or drawn
/// cards, one to three cards each.
pub fn bumping_bots_target() -> Target<bumping_bots::BumpingBots> {
    Target {
        vocabulary: &[
            "type",
            "speed",
            "move",
            "shock_choice",
            "orient",
            "card",
            "choice",
            "new_speed",
            "rotate_before_last",
            "rotate_after",
            "turn_passive",
            "turn_first",
            "turn",
            "target",
            "when",
            "at_cell",
            "rotations",
            "keep",
            "up",
            "down",
            "before",
            "after",
        ],
        setup: |u| {
            let (spec, _) = u.choose(bb_boards())?;
            let bots = u.int_in_range(2u8..=6)?;
            let mut setup = bumping_bots::Setup::race(spec.clone(), bots);
            setup.variants.choose_cards = u.arbitrary()?;
            if u.arbitrary()? {
                setup.variants.cards_per_player = Some(u.int_in_range(0u8..=3)?);
            }
            Ok(setup)
        },
        // Literal (issue 22): `apply` accepts exactly what `legal_actions` lists, each choice
        // spelt once — fields a card does not take, a declined Magnet with other fields, a
        // pick with more than its card and a short `turn_passive` are refused; every Jumper
        // cell and every set of quick rotations BB-9.5 allows is listed (docs/fuzzing.md).
        canonical: Clone::clone,
        start: |setup, seed| match bb_boards().iter().find(|(spec, _)| *spec == setup.board) {
            Some((_, board)) => bumping_bots::BumpingBots::on_board(board.clone(), setup, seed),
            None => bumping_bots::BumpingBots::new(setup, seed),
        },
        weights: WEIGHTS,
    }
}

/// The shipped tracks, read and built once.
fn bb_boards() -> &'static [(bumping_bots::BoardSpec, Arc<bumping_bots::Board>)] {
    static BOARDS: OnceLock<Vec<(bumping_bots::BoardSpec, Arc<bumping_bots::Board>)>> =
        OnceLock::new();
    BOARDS.get_or_init(|| {
        bumping_bots::tracks::SHIPPED
            .iter()
            .filter_map(|(name, _)| {
                let spec = bumping_bots::tracks::shipped(name)?;
                let board = bumping_bots::Board::build(&spec).ok()?;
                Some((spec, Arc::new(board)))
            })
            .collect()
    })
}

/// The `autoscooter_apply` target.
pub fn autoscooter(data: &[u8]) {
    static T: OnceLock<Target<autoscooter::Autoscooter>> = OnceLock::new();
    run(T.get_or_init(autoscooter_target), data);
}

/// The `roborally_apply` target.
pub fn roborally(data: &[u8]) {
    static T: OnceLock<Target<roborally::RoboRally>> = OnceLock::new();
    run(T.get_or_init(roborally_target), data);
}

/// The `bumping_bots_apply` target.
pub fn bumping_bots(data: &[u8]) {
    static T: OnceLock<Target<bumping_bots::BumpingBots>> = OnceLock::new();
    run(T.get_or_init(bumping_bots_target), data);
}
