//! Views (redacted by observer), the scenario `state` (BB-13 "State output"), and the action
//! lists and samplers used by bots, benches and property tests.

use crate::Action;
use crate::cards::Card;
use crate::championship::team_points;
use crate::speed::{SpeedChoice, speed_after};
use crate::state::{BumpingBots, Phase, QuickRot, Turn, TurnStep};
use crate::track::{ObstacleKind, Spin};
use engine::{Observer, Rng, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BotView {
    pub seat: Seat,
    pub at: Option<Hex>,
    pub facing: HexDir,
    pub speed: u8,
    pub reverse: bool,
    pub laps: i32,
    pub started: bool,
    pub finished_place: Option<u8>,
    /// Unused cards; `None` when the observer may not see them (only their number).
    pub cards: Option<Vec<Card>>,
    pub card_count: usize,
    pub used_cards: Vec<Card>,
    pub engine_turns: u8,
    pub changed_direction: bool,
    /// BB-11.1 points of this race (0 until placed).
    pub points: i32,
    /// Championship points including this race (when the setup gave standings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<i32>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ObstacleView {
    pub kind: ObstacleKind,
    pub at: Hex,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arms: Option<[HexDir; 2]>,
    /// Motorised only: which way it turns at the end of every round (BB-8.2), so that a table
    /// can draw it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<Spin>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlaceView {
    pub seat: Seat,
    pub place: u8,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeamView {
    pub id: usize,
    pub seats: Vec<u8>,
    pub points: i32,
}

/// The shock waiting for the active player's `shock_choice` (public, for the client's question).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ShockView {
    /// The bot that would be pushed.
    pub pushed: Seat,
    /// How many push cells the player may turn the pushed bot instead of pushing it
    /// (`turn_passive` has at most this many entries; 0: it cannot be turned, BB-7.4).
    pub turn_cells: u8,
    /// The first bot of a chain, when the player may turn it (`turn_first`, BB-7.6).
    pub turn_first: Option<Seat>,
}

/// Bumping Bots' static part ([`engine::Game::Static`]): the track (cells, walls, finish line,
/// start grid, the obstacles' starting places and the laps), sent once per game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Static {
    pub track: crate::track::BoardSpec,
}

/// The position as one observer may see it; for `Omniscient` it is the scenario `state`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct View {
    pub bots: Vec<BotView>,
    pub obstacles: Vec<ObstacleView>,
    pub order: Vec<Seat>,
    pub round: u32,
    pub to_act: Option<Seat>,
    pub phase: &'static str,
    pub laps_to_run: u8,
    pub ranking: Vec<PlaceView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<TeamView>>,
    /// In the `move` phase: how many cells the move will take (speed, boosted engine, jumper).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_cells: Option<u8>,
    /// In the `shock_choice` phase: what the player may choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shock: Option<ShockView>,
    /// For the seat that owes the decision only (its own view): every choice the engine
    /// accepts now, with previews of the moves ([`crate::choices`]). Absent in every other view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<crate::choices::Choices>,
}

impl View {
    pub fn of(g: &BumpingBots, observer: Observer) -> View {
        View::with(g, observer, true)
    }

    /// The view without `choices` (what a table derives its controls from: the legal actions
    /// and previews of moves on the visible position): the same information, cheaper, for
    /// machine observers (the Python package's observations, `docs/python.md`).
    pub fn without_choices(g: &BumpingBots, observer: Observer) -> View {
        View::with(g, observer, false)
    }

    fn with(g: &BumpingBots, observer: Observer, with_choices: bool) -> View {
        let points = g.race_points();
        let bots = g
            .bots
            .iter()
            .map(|b| {
                let sees = match observer {
                    Observer::Omniscient => true,
                    Observer::Seat(s) => s == b.seat,
                    Observer::Spectator => false,
                };
                let mut cards = b.cards.clone();
                cards.sort();
                BotView {
                    seat: b.seat,
                    at: b.at,
                    facing: b.facing,
                    speed: b.speed,
                    reverse: b.reverse,
                    laps: b.laps,
                    started: b.started,
                    finished_place: b.finished_place,
                    cards: sees.then_some(cards),
                    card_count: b.cards.len(),
                    used_cards: b.used_cards.clone(),
                    engine_turns: b.engine_turns,
                    changed_direction: b.changed_direction,
                    points: points[b.seat.index()],
                    standing: g.standings.get(b.seat.index()).map(|s| s + points[b.seat.index()]),
                }
            })
            .collect();
        let obstacles = g
            .obstacles
            .iter()
            .map(|o| ObstacleView {
                kind: o.kind,
                at: o.at,
                arms: (o.kind == ObstacleKind::Motorised).then(|| [o.arm, o.arm.opposite()]),
                turn: (o.kind == ObstacleKind::Motorised).then_some(o.spin),
            })
            .collect();
        let mut ranking: Vec<PlaceView> = g
            .bots
            .iter()
            .filter_map(|b| b.finished_place.map(|place| PlaceView { seat: b.seat, place }))
            .collect();
        ranking.sort_by_key(|p| (p.place, p.seat));
        let teams = g.variants.team_list(g.bots.len()).map(|t| {
            let tp = team_points(&t, &points);
            t.into_iter()
                .zip(tp)
                .enumerate()
                .map(|(id, (seats, points))| TeamView { id, seats, points })
                .collect()
        });
        View {
            bots,
            obstacles,
            order: g.order.clone(),
            round: g.round,
            to_act: engine::Game::decision(g).map(|d| d.seats().first().expect("one seat")),
            phase: g.phase.name(),
            laps_to_run: g.board.laps(),
            ranking,
            teams,
            move_cells: match &g.phase {
                Phase::Turn(t) if t.step == TurnStep::Move => Some(g.move_cells(t, t.bot)),
                _ => None,
            },
            shock: match &g.phase {
                Phase::Turn(t) if let TurnStep::Shock(p) = &t.step => Some(ShockView {
                    pushed: g.bots[*p.chain.last().expect("a chain")].seat,
                    turn_cells: p.turn_cells() as u8,
                    turn_first: p.first_choice.then(|| g.bots[p.chain[0]].seat),
                }),
                _ => None,
            },
            choices: match observer {
                Observer::Seat(s) if with_choices => crate::choices::choices(g, s),
                _ => None,
            },
        }
    }
}

fn card(card: Card) -> Action {
    play(card, None, None, None, vec![])
}

fn play(
    card: Card,
    target: Option<Seat>,
    when: Option<crate::When>,
    at_cell: Option<u8>,
    rotations: Vec<QuickRot>,
) -> Action {
    Action::Card { card: Some(card), target, when, at_cell, rotations }
}

/// Plausible actions for the decision owed now (`legal_actions` filters them by legality).
pub(crate) fn candidates(g: &BumpingBots) -> Vec<Action> {
    let seats: Vec<Seat> = g.bots.iter().map(|b| b.seat).collect();
    let mut out = Vec::new();
    let t = match &g.phase {
        Phase::Pick(_) => {
            out.extend(Card::ALL.map(card));
            return out;
        }
        Phase::Turn(t) => t,
        Phase::Over => return out,
    };
    match &t.step {
        TurnStep::Speed => {
            for choice in SpeedChoice::ALL {
                match choice {
                    SpeedChoice::Reverse => {
                        out.extend([1, 2].map(|s| Action::Speed { choice, new_speed: Some(s) }));
                    }
                    _ => out.push(Action::Speed { choice, new_speed: None }),
                }
            }
            out.extend([card(Card::Nitro), card(Card::Engine)]);
            // Every card play the rules allow (BB-9.1, BB-9.5), each spelt once: what `apply`
            // accepts is exactly what is listed. Only for cards the bot holds (the listing of
            // quick rotations runs to hundreds at the back of the field).
            let b = &g.bots[t.bot];
            let br = crate::cards::bracket(g.race_position(t.bot));
            let most = g.max_move_cells(t.bot);
            if b.cards.contains(&Card::Jumper) {
                let last = if br == 0 { 0 } else { most.saturating_sub(1) };
                out.extend((0..=last).map(|k| play(Card::Jumper, None, None, Some(k), vec![])));
            }
            if b.cards.contains(&Card::Rotation) {
                for rots in quick_rotations(br, most) {
                    out.push(play(Card::Rotation, None, None, None, rots));
                }
            }
            for &s in &seats {
                out.push(play(Card::Magnet, Some(s), Some(crate::When::Start), None, vec![]));
            }
        }
        TurnStep::Move => {
            for b in -1..=1 {
                for a in -1..=1 {
                    out.push(Action::Move { rotate_before_last: b, rotate_after: a });
                }
            }
        }
        TurnStep::Shock(p) => {
            let n = p.turn_cells();
            let first = p.first_choice;
            for f in if first { -1..=1 } else { 0..=0 } {
                for code in 0..3usize.pow(n as u32) {
                    let tp: Vec<i8> =
                        (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as i8 - 1).collect();
                    out.push(Action::ShockChoice { turn_passive: tp, turn_first: f });
                }
            }
        }
        TurnStep::Orient => out.extend([-1, 0, 1].map(|turn| Action::Orient { turn })),
        TurnStep::Magnet => {
            out.push(Action::Card {
                card: None,
                target: None,
                when: None,
                at_cell: None,
                rotations: vec![],
            });
            for &s in &seats {
                out.push(play(Card::Magnet, Some(s), Some(crate::When::End), None, vec![]));
            }
        }
        _ => {}
    }
    out
}

/// BB-9.5: every set of quick rotations a bot in bracket `br` may declare when its move can
/// take up to `most` cells: 1 to 1/1/2/3 rotations of ±60° at distinct points `0..=most` (only
/// point 0 in position 1–2), in the order of the move.
pub(crate) fn quick_rotations(br: usize, most: u8) -> Vec<Vec<QuickRot>> {
    let allowed = [1, 1, 2, 3][br.min(3)];
    let top = if br == 0 { 0 } else { most };
    let mut out = Vec::new();
    let mut stack: Vec<QuickRot> = Vec::new();
    fn grow(
        from: u8,
        top: u8,
        allowed: usize,
        stack: &mut Vec<QuickRot>,
        out: &mut Vec<Vec<QuickRot>>,
    ) {
        if stack.len() == allowed {
            return;
        }
        for at_cell in from..=top {
            for turn in [-1, 1] {
                stack.push(QuickRot { at_cell, turn });
                out.push(stack.clone());
                grow(at_cell + 1, top, allowed, stack, out);
                stack.pop();
            }
        }
    }
    grow(0, top, allowed, &mut stack, &mut out);
    out
}

/// One draw in `LEAN` is uniform among the legal choices; the others follow the racing-line lean.
const LEAN: u32 = 16;

/// One legal action, cheaply: near-uniform, leaning towards the racing line half of the time
/// so that random races end (a documented choice, `docs/bumping-bots.md`).
pub(crate) fn sample(g: &BumpingBots, rng: &mut Rng) -> Action {
    let t = match &g.phase {
        Phase::Pick(s) => {
            // The pickable kinds in `Card::ALL` order, on the stack (issue 17: no allocation).
            let mut kinds = [Card::ALL[0]; Card::ALL.len()];
            let mut n = 0;
            for c in Card::ALL.into_iter().filter(|&c| g.pickable(*s, c)) {
                kinds[n] = c;
                n += 1;
            }
            return card(kinds[..n][rng.index(n)]);
        }
        Phase::Turn(t) => t,
        Phase::Over => return Action::Orient { turn: 0 },
    };
    sample_turn(g, t, rng)
}

/// [`sample`] during the turn `t` (which the caller may hold outside the phase: it is the
/// turn in progress, BB-4).
pub(crate) fn sample_turn(g: &BumpingBots, t: &Turn, rng: &mut Rng) -> Action {
    let bot = t.bot;
    match &t.step {
        TurnStep::Speed => sample_card(g, t, bot, rng).unwrap_or_else(|| sample_speed(g, bot, rng)),
        TurnStep::Move => sample_move(g, t, bot, rng),
        TurnStep::Shock(p) => Action::ShockChoice {
            turn_passive: (0..p.turn_cells()).map(|_| rng.below(3) as i8 - 1).collect(),
            turn_first: if p.first_choice { rng.below(3) as i8 - 1 } else { 0 },
        },
        TurnStep::Orient => Action::Orient { turn: sample_orient(g, bot, rng) },
        TurnStep::Magnet => {
            let target = if rng.below(2) == 0 { g.magnet_target(bot) } else { None };
            match target {
                Some(t) => play(Card::Magnet, Some(t), Some(crate::When::End), None, vec![]),
                None => Action::Card {
                    card: None,
                    target: None,
                    when: None,
                    at_cell: None,
                    rotations: vec![],
                },
            }
        }
        _ => Action::Orient { turn: 0 },
    }
}

/// The steering turn by facing and racing direction (`Cell::pref`: direction + 1, 0 none):
/// 0 when they agree or there is none, +1 when the racing direction is 1 to 3 sides
/// clockwise, else −1 (what `HexDir::turn_to` gives, folded; a table, issue 17).
const STEER: [[i8; 7]; 6] = {
    let mut t = [[0i8; 7]; 6];
    let mut f = 0;
    while f < 6 {
        let mut p = 1;
        while p < 7 {
            t[f][p] = match HexDir::wrapping(f as i32).turn_to(HexDir::wrapping(p as i32 - 1)) {
                0 => 0,
                1..=3 => 1,
                _ => -1,
            };
            p += 1;
        }
        f += 1;
    }
    t
};

/// The steering turn from `facing` towards racing direction `pref` (direction + 1; 0 none:
/// no turn).
#[inline(always)]
fn steer_to(facing: HexDir, pref: u8) -> i8 {
    STEER[facing.index() as usize][usize::from(pref.min(6))]
}

/// The turn (±1, or 0) that brings the bot's facing towards the racing direction of its cell.
fn steer(g: &BumpingBots, bot: usize) -> Option<i8> {
    let b = &g.bots[bot];
    b.at?;
    let pref = g.board.cell_at(g.cell_of(bot)).pref;
    (pref != 0).then(|| steer_to(b.facing, pref))
}

/// As [`steer`], but for the cell the bot reaches when it moves `cells` straight on (if on the track).
#[inline(always)]
fn steer_at(g: &BumpingBots, bot: usize, cells: u8) -> Option<i8> {
    let b = &g.bots[bot];
    let dir = crate::state::travel(b.facing, b.reverse);
    let from = b.at?;
    let n = cells.saturating_sub(1);
    // The cell ahead if it is on the track, else the bot's own: from the board's table by
    // cell, side and distance (issue 17), or from the cells beyond its reach.
    let pref = if n < crate::track::AHEAD {
        g.board.pref_ahead(g.cell_of(bot), dir, n)
    } else {
        let c = g.board.cell(from.offset(dir, i32::from(n)));
        if c.on { c.pref } else { g.board.cell(from).pref }
    };
    (pref != 0).then(|| steer_to(b.facing, pref))
}

/// Is the cell in direction `d` from the bot free and without a bumper arrow?
#[inline]
fn clear(g: &BumpingBots, bot: usize, d: HexDir) -> bool {
    g.bots[bot].at.is_some() && clear_at(g, g.cell_of(bot), d)
}

/// [`clear`] from the cell at dense index `k`.
#[inline]
fn clear_at(g: &BumpingBots, k: usize, d: HexDir) -> bool {
    // The board's part (walls, solid cells, arrows) from its table, then the occupancy (issue
    // 17; `tests::the_clear_table_answers_as_the_cells_do`).
    g.board.clear_dirs(k) & (1 << d.index()) != 0 && g.occ_at(g.board.step_idx(k, d)) == 0
}

/// Orient after a collision: towards the racing direction, unless that faces a blocked cell.
#[inline(always)]
pub(crate) fn sample_orient(g: &BumpingBots, bot: usize, rng: &mut Rng) -> i8 {
    let b = &g.bots[bot];
    let want = steer(g, bot).unwrap_or(0);
    if rng.below(LEAN) == 0 {
        return rng.below(3) as i8 - 1;
    }
    let travel = |t: i8| crate::state::travel(b.facing.turn(t as i32), b.reverse);
    // The bot's cell looked up once for the four questions.
    if b.at.is_none() {
        return want;
    }
    let k = g.cell_of(bot);
    [want, 1, -1, 0].into_iter().find(|&t| clear_at(g, k, travel(t))).unwrap_or(want)
}

fn sample_speed(g: &BumpingBots, bot: usize, rng: &mut Rng) -> Action {
    let (choice, new_speed) = sample_speed_choice(g, bot, rng);
    Action::Speed { choice, new_speed }
}

/// [`sample_speed`]'s draw as the action's fields.
#[inline(always)]
pub(crate) fn sample_speed_choice(
    g: &BumpingBots,
    bot: usize,
    rng: &mut Rng,
) -> (SpeedChoice, Option<u8>) {
    let (choice, new_speed) = draw_speed(g, bot, rng);
    (choice, (choice == SpeedChoice::Reverse).then_some(new_speed))
}

/// [`sample_speed`]'s draw as what it does to the bot: its speed, direction and whether it
/// changed direction (BB-5), what [`speed_after`] answers for the drawn choice (legal by
/// construction; asserted in debug builds). The random race plays it without a jump on the
/// choice (issue 17: the choice is random, so that jump was mispredicted nearly every other
/// time, and it followed the lean's own chain of branches on the same questions).
#[inline(always)]
pub(crate) fn sample_speed_outcome(g: &BumpingBots, bot: usize, rng: &mut Rng) -> (u8, bool, bool) {
    let (choice, new_speed) = draw_speed(g, bot, rng);
    let b = &g.bots[bot];
    let out = speed_outcome(b.speed, b.reverse, choice, new_speed);
    debug_assert_eq!(
        speed_after(b, choice, (choice == SpeedChoice::Reverse).then_some(new_speed)).ok(),
        Some((out.0, out.1)),
        "{choice:?}"
    );
    out
}

/// The speed, direction and direction change a legal `choice` gives a bot at `speed` in
/// `reverse` (BB-5.2–5.4; `new_speed` counts for `Reverse` only), without a branch on the
/// choice. Only for legal choices: the rules' [`speed_after`] says which are
/// (`tests::the_speed_outcome_is_speed_after`).
#[inline(always)]
fn speed_outcome(speed: u8, reverse: bool, choice: SpeedChoice, new_speed: u8) -> (u8, bool, bool) {
    let turned = choice == SpeedChoice::Reverse;
    // By `SpeedChoice` in declaration order: keep, accelerate, accelerate to 3, decelerate,
    // reverse.
    let speeds = [speed, speed.wrapping_add(1), 3, speed.wrapping_sub(1), new_speed];
    (speeds[choice as usize], reverse ^ turned, turned)
}

/// The lean's speed choice by its five questions (index bits: 0 in reverse, 1 the cell ahead
/// blocked, 2 changed direction last turn, 3 at speed 1, 4 below speed 6), as a table:
/// the questions are answered without a branch and the choice is one load (issue 17). A
/// reverse choice's new speed is 2 from reverse (back to forward, the cell ahead clear) and 1
/// when blocked ([`draw_speed`]). The lean: back to forward at 2 when it can, else keep
/// going in reverse; forward, blocked: reverse at 1; else up to 3 from 1, else accelerate
/// while it may (BB-5.2, BB-5.4), else keep (`tests::the_lean_table_is_the_lean`).
const LEAN_SPEED: [SpeedChoice; 32] = {
    let mut t = [SpeedChoice::Keep; 32];
    let mut i = 0;
    while i < 32 {
        let (reverse, blocked, changed) = (i & 1 != 0, i & 2 != 0, i & 4 != 0);
        let (at_1, below_6) = (i & 8 != 0, i & 16 != 0);
        t[i] = if reverse && !blocked && !changed {
            SpeedChoice::Reverse
        } else if reverse {
            SpeedChoice::Keep
        } else if blocked {
            SpeedChoice::Reverse
        } else if at_1 && !changed {
            SpeedChoice::AccelerateTo3
        } else if below_6 && !changed {
            SpeedChoice::Accelerate
        } else {
            SpeedChoice::Keep
        };
        i += 1;
    }
    t
};

/// One speed draw: the choice and, for `Reverse`, the new speed (1 or 2; meaningless for the
/// other choices). One draw in [`LEAN`] is uniform among the legal choices; the others lean
/// ([`LEAN_SPEED`]).
#[inline(always)]
fn draw_speed(g: &BumpingBots, bot: usize, rng: &mut Rng) -> (SpeedChoice, u8) {
    let b = &g.bots[bot];
    if rng.below(LEAN) != 0 {
        let blocked = !clear_now(g, bot, b.facing);
        let i = usize::from(b.reverse)
            | usize::from(blocked) << 1
            | usize::from(b.changed_direction) << 2
            | usize::from(b.speed == 1) << 3
            | usize::from(b.speed < 6) << 4;
        return (LEAN_SPEED[i & 31], 1 + u8::from(b.reverse));
    }
    draw_speed_uniform(b, rng)
}

/// [`draw_speed`]'s uniform draw among the legal choices (one in [`LEAN`]), out of line.
#[inline(never)]
fn draw_speed_uniform(b: &crate::state::Bot, rng: &mut Rng) -> (SpeedChoice, u8) {
    let mut legal = [SpeedChoice::Keep; 5];
    let mut n = 0;
    for c in SpeedChoice::ALL {
        let ns = (c == SpeedChoice::Reverse).then_some(1);
        if speed_after(b, c, ns).is_ok() {
            legal[n] = c;
            n += 1;
        }
    }
    let choice = legal[rng.index(n)];
    let new_speed = if choice == SpeedChoice::Reverse { 1 + rng.below(2) as u8 } else { 0 };
    (choice, new_speed)
}

/// [`clear`] for the active bot (on the track) without a branch on the answer: the side's bit
/// in the board's table and the occupancy of the cell beyond, read from the bot's own cell
/// when the side is not clear. (Off the track, `k` is 0, a margin cell with no clear side:
/// not clear, as [`clear`] says.)
#[inline(always)]
fn clear_now(g: &BumpingBots, bot: usize, d: HexDir) -> bool {
    let k = g.cell_of(bot);
    let open = g.board.clear_dirs(k) & (1 << d.index()) != 0;
    // The step taken whatever the answer (only read when open), then chosen: a conditional
    // move, not a branch.
    let step = g.board.step_idx(k, d);
    let beyond = if open { step } else { k };
    let free = open & (g.occ_at(beyond) == 0);
    debug_assert_eq!(free, clear(g, bot, d));
    free
}

/// Five draws in six play no card: that test is inlined into the random race, the card's
/// draw kept out of line ([`draw_card`], issue 17).
#[inline(always)]
pub(crate) fn sample_card(g: &BumpingBots, t: &Turn, bot: usize, rng: &mut Rng) -> Option<Action> {
    let b = &g.bots[bot];
    let played = t.card.is_some();
    if played || b.cards.is_empty() || rng.below(6) != 0 {
        return None;
    }
    draw_card(g, bot, rng)
}

/// [`sample_card`] once it plays a card: which one, and how.
#[inline(never)]
fn draw_card(g: &BumpingBots, bot: usize, rng: &mut Rng) -> Option<Action> {
    let b = &g.bots[bot];
    let c = b.cards[rng.index(b.cards.len())];
    match c {
        Card::Engine => Some(card(c)),
        Card::Nitro => {
            let ok = g.round > 1 && !b.reverse && b.speed < 6 && !b.changed_direction;
            ok.then(|| card(c))
        }
        Card::Jumper => {
            let ground = crate::cards::bracket(g.race_position(bot)) == 0;
            let last = if ground { 0 } else { g.max_move_cells(bot).saturating_sub(1) };
            let k = rng.below(u32::from(last.min(2)) + 1) as u8;
            Some(play(c, None, None, Some(k), vec![]))
        }
        Card::Rotation => {
            let turn = if rng.below(2) == 0 { -1 } else { 1 };
            Some(play(c, None, None, None, vec![QuickRot { at_cell: 0, turn }]))
        }
        Card::Magnet => {
            g.magnet_target(bot).map(|t| play(c, Some(t), Some(crate::When::Start), None, vec![]))
        }
    }
}

fn sample_move(g: &BumpingBots, t: &Turn, bot: usize, rng: &mut Rng) -> Action {
    let (rotate_before_last, rotate_after) = sample_move_turns(g, t, bot, rng);
    Action::Move { rotate_before_last, rotate_after }
}

/// [`sample_move`]'s draw as the action's fields: the rotations before the last cell and after
/// the move (the random race plays it without building the action, issue 17).
#[inline(always)]
pub(crate) fn sample_move_turns(g: &BumpingBots, t: &Turn, bot: usize, rng: &mut Rng) -> (i8, i8) {
    let b = &g.bots[bot];
    if t.quick_card {
        return (0, 0);
    }
    let cells =
        g.cells(b.speed) + u8::from(b.engine_turns > 0) + u8::from(matches!(t.leap, Some((_, 0))));
    // No rotation before the last cell at one cell, nor when the last cell is a leap's landing.
    let landing_last = matches!(t.leap, Some((at, over)) if over > 0 && at + 1 == cells);
    let before_ok = cells > 1 && !landing_last;
    if rng.below(LEAN) != 0 {
        let s = steer_at(g, bot, cells).unwrap_or(0);
        return (0, s);
    }
    let (mut bl, mut af) = (rng.below(3) as i8 - 1, rng.below(3) as i8 - 1);
    if !before_ok {
        bl = 0;
    }
    if !b.reverse && bl != 0 && af != 0 {
        if rng.below(2) == 0 { bl = 0 } else { af = 0 }
    }
    (bl, af)
}

#[cfg(test)]
mod tests {
    use super::clear;
    use crate::state::Occ;
    use crate::tracks::{SHIPPED, shipped};
    use crate::{BumpingBots, Setup};
    use engine::{Decision, Game, Rng};
    use grid::HexDir;

    /// The board's table of racing directions straight ahead gives what the cells say, and
    /// the steering table what `HexDir::turn_to` gives, for every track cell, side and
    /// distance on every shipped track.
    #[test]
    fn the_ahead_table_answers_as_the_cells_do() {
        for (name, _) in SHIPPED {
            let spec = shipped(name).expect("shipped");
            let board = crate::track::Board::build(&spec).expect("a shipped track builds");
            for c in &spec.cells {
                let k = board.idx(c.at).expect("on the board");
                for d in HexDir::ALL {
                    for n in 0..crate::track::AHEAD {
                        let ahead = board.cell(c.at.offset(d, i32::from(n)));
                        let want = if ahead.on { ahead.pref } else { board.cell(c.at).pref };
                        assert_eq!(board.pref_ahead(k, d, n), want, "{name} {} {d:?} {n}", c.at);
                    }
                }
            }
        }
        for facing in HexDir::ALL {
            assert_eq!(super::steer_to(facing, 0), 0);
            for want in HexDir::ALL {
                let by_turn = match facing.turn_to(want) {
                    0 => 0,
                    1..=3 => 1,
                    _ => -1,
                };
                assert_eq!(super::steer_to(facing, want.index() + 1), by_turn);
            }
        }
    }

    /// A bot to ask the speed rules about: seat 0 of a race on a shipped track.
    fn a_bot() -> crate::state::Bot {
        let setup = Setup::race(shipped("oval").expect("shipped"), 2);
        BumpingBots::new(&setup, 1).expect("a shipped track starts").bots[0].clone()
    }

    /// The lean's table gives the choice the lean's questions give when asked one by one
    /// with the rules' `speed_after` (the sampler before issue 17's table), for every speed
    /// (the illegal 0 and 7 too), direction, lock and blocked cell.
    #[test]
    fn the_lean_table_is_the_lean() {
        use crate::speed::{SpeedChoice, speed_after};
        let mut b = a_bot();
        for speed in 0..=7 {
            for (reverse, changed, blocked) in (0..8).map(|i| (i & 1 != 0, i & 2 != 0, i & 4 != 0))
            {
                b.speed = speed;
                b.reverse = reverse;
                b.changed_direction = changed;
                let want = if b.reverse && !blocked && !b.changed_direction {
                    (SpeedChoice::Reverse, Some(2))
                } else if b.reverse {
                    (SpeedChoice::Keep, None)
                } else if blocked {
                    (SpeedChoice::Reverse, Some(1))
                } else if b.speed == 1 && !b.changed_direction {
                    (SpeedChoice::AccelerateTo3, None)
                } else if speed_after(&b, SpeedChoice::Accelerate, None).is_ok() && b.speed < 6 {
                    (SpeedChoice::Accelerate, None)
                } else {
                    (SpeedChoice::Keep, None)
                };
                let i = usize::from(reverse)
                    | usize::from(blocked) << 1
                    | usize::from(changed) << 2
                    | usize::from(speed == 1) << 3
                    | usize::from(speed < 6) << 4;
                let choice = super::LEAN_SPEED[i];
                let new_speed = 1 + u8::from(reverse);
                assert_eq!(
                    (choice, (choice == SpeedChoice::Reverse).then_some(new_speed)),
                    want,
                    "speed {speed}, reverse {reverse}, changed {changed}, blocked {blocked}"
                );
            }
        }
    }

    /// For every choice the rules accept, the straight-line outcome is theirs: every speed
    /// (0 and 7 too), direction, lock and new speed.
    #[test]
    fn the_speed_outcome_is_speed_after() {
        use crate::speed::{SpeedChoice, speed_after};
        let mut b = a_bot();
        let mut legal = 0;
        for speed in 0..=7 {
            for (reverse, changed) in [(false, false), (false, true), (true, false), (true, true)] {
                b.speed = speed;
                b.reverse = reverse;
                b.changed_direction = changed;
                for choice in SpeedChoice::ALL {
                    for new_speed in [None, Some(0), Some(1), Some(2), Some(3)] {
                        if let Ok((s, r)) = speed_after(&b, choice, new_speed) {
                            legal += 1;
                            let got = super::speed_outcome(
                                speed,
                                reverse,
                                choice,
                                new_speed.unwrap_or(0),
                            );
                            assert_eq!(got, (s, r, choice == SpeedChoice::Reverse), "{choice:?}");
                        }
                    }
                }
            }
        }
        assert!(legal > 50, "{legal}");
    }

    /// The sampler's "is the cell ahead clear" from the board's table and the occupancy gives
    /// what the cells say (an open side onto a free cell without a bumper arrow), for every bot
    /// and side in every position of random races on every shipped track.
    #[test]
    fn the_clear_table_answers_as_the_cells_do() {
        let mut blocked_and_clear = [0u32; 2];
        for (name, _) in SHIPPED {
            let setup = Setup::race(shipped(name).expect("shipped"), 9);
            for seed in 0..3u64 {
                let mut g = BumpingBots::new(&setup, seed).expect("a shipped track starts");
                let mut rng = Rng::seeded(seed ^ 0xc1ea);
                let mut events = Vec::new();
                while let Some(Decision::One(seat)) = g.decision() {
                    for (bot, b) in g.bots.iter().enumerate() {
                        for d in HexDir::ALL {
                            let by_cells = b.at.is_some_and(|at| {
                                g.open_step(at, d).is_some_and(|k| {
                                    g.occupant_at(k) == Occ::Free && g.board.arrow_at(k).is_none()
                                })
                            });
                            assert_eq!(clear(&g, bot, d), by_cells, "{name}, seed {seed}");
                            blocked_and_clear[usize::from(by_cells)] += 1;
                        }
                    }
                    let a = g.sample_action(seat, &mut rng).expect("the owing seat");
                    g.apply(seat, &a, &mut events).expect("a sampled action is legal");
                    events.clear();
                }
            }
        }
        assert!(blocked_and_clear.iter().all(|&n| n > 1000), "{blocked_and_clear:?}");
    }
}
