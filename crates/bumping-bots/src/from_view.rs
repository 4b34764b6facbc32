//! A playable state from one seat's view (determinization from the view): what a remote
//! player — the reference client of the Bot API, `robodrome bot` — has is its seat's redacted
//! view (docs/protocol.md) and the race's public setup, never the state.
//! [`BumpingBots::from_view`] builds a state that shows that seat exactly that view, with what
//! the view hides drawn at random, seeded, so that the project's bots can think on it.
//!
//! **Copied from the view:** every bot's cell, facing, speed, direction, laps, start crossing,
//! place, used cards, boosted turns and change of direction; the obstacles as they stand
//! (BB-8); the round, the race order and the bot to act (BB-2.2); the championship standings
//! (BB-11.2: a bot's standing less this race's points); the seat's own unused cards.
//!
//! **Drawn:** the other bots' unused tuning cards (BB-9: how many each holds is public) from
//! the 45 cards (BB-3) less the seat's own and every card played; the order of the rest of the
//! deck. With `choose_cards` every seat picks from a full set of its own (docs/bumping-bots.md),
//! so another bot's picks are drawn kind by kind, at most 9 of a kind.
//!
//! **The turn in progress** (BB-4: the card played at its start, the Jumper's landing point,
//! the quick rotations, the shock waiting for `shock_choice`) is public — every table saw it
//! played — but a view carries only its outcome (the step, `move_cells`, the shock's
//! question, and the seat's `choices` with their previews). It is rebuilt by rule: each turn
//! the rules allow at that step (no card or the last card the bot played; every Jumper landing
//! and quick rotation list of BB-9.1 / BB-9.5; every line, chain and push of BB-7.3–7.6 and
//! BB-8.3 that ends on the pushed bot) is tried in a fixed order, and the first whose view for
//! the seat equals the given view is kept. Tie-breaks of bots finishing this round (BB-10:
//! cells past the line) count one cell each. A view no candidate reproduces is refused with
//! [`FromViewError`] (the client then chooses from the view).

use crate::cards::{Card, bracket, full_deck};
use crate::setup::Setup;
use crate::state::{BumpingBots, FinishMark, MoveCursor, PendingShock, Phase, Turn, TurnStep, Via};
use crate::track::{ObstacleKind, Spin};
use engine::{Game, Observer, Rng, Seat};
use grid::{Hex, HexDir};
use serde::Deserialize;

/// Why no state was built from a view.
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
    bots: Vec<BotIn>,
    obstacles: Vec<ObstacleIn>,
    order: Vec<Seat>,
    round: u32,
    to_act: Option<Seat>,
    phase: String,
    #[serde(default)]
    shock: Option<ShockIn>,
}

#[derive(Deserialize)]
struct BotIn {
    seat: Seat,
    at: Option<Hex>,
    facing: HexDir,
    speed: u8,
    reverse: bool,
    laps: i32,
    started: bool,
    finished_place: Option<u8>,
    cards: Option<Vec<Card>>,
    card_count: usize,
    used_cards: Vec<Card>,
    engine_turns: u8,
    changed_direction: bool,
    #[serde(default)]
    standing: Option<i32>,
}

#[derive(Deserialize)]
struct ObstacleIn {
    kind: ObstacleKind,
    at: Hex,
    #[serde(default)]
    arms: Option<[HexDir; 2]>,
    #[serde(default)]
    turn: Option<Spin>,
}

#[derive(Deserialize)]
struct ShockIn {
    pushed: Seat,
    turn_cells: u8,
    turn_first: Option<Seat>,
}

/// The most turns tried against the view (quick rotation lists run to hundreds).
const MAX_CANDIDATES: usize = 4000;

impl BumpingBots {
    /// The state `seat` may be in, given its view (`view`, as JSON) of the race made from
    /// `setup`. What the view hides is drawn from `rng` (see the module's doc).
    pub fn from_view(
        setup: &Setup,
        view: &serde_json::Value,
        seat: Seat,
        rng: &mut Rng,
    ) -> Result<BumpingBots, FromViewError> {
        let v =
            ViewIn::deserialize(view).map_err(|e| bad(format!("not a Bumping Bots view: {e}")))?;
        let mut g = BumpingBots::from_setup(setup, 0).map_err(|e| bad(e.to_string()))?;
        let n = g.bots.len();
        if v.bots.len() != n || seat.index() >= n || v.order.len() != n {
            return Err(bad("the view's bots do not fit the setup"));
        }
        if v.bots.iter().enumerate().any(|(i, b)| b.seat.index() != i)
            || v.order.iter().any(|s| s.index() >= n)
        {
            return Err(bad("the view's seats do not fit the setup"));
        }
        if v.obstacles.len() != g.obstacles.len() {
            return Err(bad("the view's obstacles do not fit the track"));
        }
        let me = seat.index();
        let mine = v.bots[me].cards.clone().ok_or_else(|| bad("not the view of this seat"))?;

        // The bots and obstacles as the view shows them.
        for (i, bv) in v.bots.iter().enumerate() {
            let b = &mut g.bots[i];
            b.at = bv.at;
            b.facing = bv.facing;
            b.speed = bv.speed;
            b.reverse = bv.reverse;
            b.laps = bv.laps;
            b.started = bv.started;
            b.finished_place = bv.finished_place;
            b.finished = bv.at.is_none() || bv.finished_place.is_some();
            b.used_cards = bv.used_cards.clone();
            b.engine_turns = bv.engine_turns;
            b.changed_direction = bv.changed_direction;
            b.cards = Vec::new();
        }
        g.bots[me].cards = mine.clone();
        for (o, ov) in g.obstacles.iter_mut().zip(&v.obstacles) {
            if o.kind != ov.kind {
                return Err(bad("the view's obstacles do not fit the track"));
            }
            o.move_to(ov.at);
            if let Some([arm, _]) = ov.arms {
                o.set_arm(arm);
            }
            if let Some(spin) = ov.turn {
                o.spin = spin;
            }
        }
        g.fill_occupancy();
        g.finishing = (0..n)
            .filter(|&i| g.bots[i].finished && g.bots[i].finished_place.is_none())
            .map(|bot| FinishMark { bot, past: 1 })
            .collect();
        g.round = v.round;
        g.order = v.order.clone();
        let points = g.race_points();
        if !g.standings.is_empty() {
            for (i, bv) in v.bots.iter().enumerate() {
                if let (Some(s), Some(to)) = (bv.standing, g.standings.get_mut(i)) {
                    *to = s - points[i];
                }
            }
        }

        // BB-3 / BB-9: the other bots' unused cards and the deck.
        let mut pool = full_deck();
        let take_out = |pool: &mut Vec<Card>, c: Card| {
            if let Some(k) = pool.iter().position(|&d| d == c) {
                pool.remove(k);
            }
        };
        if g.variants.choose_cards {
            // Each seat picks from a full set of its own: another bot's picks are drawn kind
            // by kind, at most 9 of a kind among its cards held and played.
            for i in (0..n).filter(|&i| i != me) {
                let mut own = full_deck();
                for &c in &v.bots[i].used_cards {
                    take_out(&mut own, c);
                }
                own.sort();
                rng.shuffle(&mut own);
                let k = v.bots[i].card_count.min(own.len());
                g.bots[i].cards = own.split_off(own.len() - k);
            }
            for &c in &mine {
                take_out(&mut pool, c);
            }
            pool.sort();
            rng.shuffle(&mut pool);
            g.deck = pool;
            let per = g.variants.cards_per_player.unwrap_or(g.board.laps());
            g.picks_left = (0..n)
                .map(|i| {
                    per.saturating_sub((v.bots[i].card_count + v.bots[i].used_cards.len()) as u8)
                })
                .collect();
        } else {
            for c in mine.iter().chain(v.bots.iter().flat_map(|b| b.used_cards.iter())) {
                take_out(&mut pool, *c);
            }
            pool.sort();
            rng.shuffle(&mut pool);
            for i in (0..n).filter(|&i| i != me) {
                let k = v.bots[i].card_count;
                if k > pool.len() {
                    return Err(bad("more cards held than the deck has"));
                }
                g.bots[i].cards = pool.split_off(pool.len() - k);
            }
            g.deck = pool;
            g.picks_left = vec![0; n];
        }
        g.rng = rng.fork();
        // The hands were written above: the Magnet flags follow them.
        for b in &mut g.bots {
            b.hand_changed();
        }

        // The phase and the turn in progress.
        let to_act = v.to_act;
        let cursor_of = |s: Seat| v.order.iter().position(|&o| o == s);
        let step = match v.phase.as_str() {
            "pick_cards" => {
                let s = to_act.ok_or_else(|| bad("a pick names the seat to act"))?;
                g.cursor = (0..n).find(|&k| !g.bots[v.order[k].index()].finished).unwrap_or(0);
                g.phase = Phase::Pick(s);
                return g.checked(view, seat).map(|()| g);
            }
            "speed" => TurnStep::Speed,
            "move" => TurnStep::Move,
            "orient" => TurnStep::Orient,
            "magnet" => TurnStep::Magnet,
            "shock_choice" => TurnStep::Shock(PendingShock {
                chain: Vec::new(),
                dir: HexDir::default(),
                push: 0,
                first_choice: false,
                last_choice: false,
                via: Via::Bot,
            }),
            p => return Err(bad(format!("phase {p:?}: no decision to rebuild"))),
        };
        let s = to_act.ok_or_else(|| bad("a turn names the seat to act"))?;
        g.cursor = cursor_of(s).ok_or_else(|| bad("the seat to act is not in the order"))?;
        let bot = s.index();
        let turns = g.turn_candidates(bot, &step, v.shock.as_ref());
        for t in turns.into_iter().take(MAX_CANDIDATES) {
            g.phase = Phase::Turn(Box::new(t));
            if g.checked(view, seat).is_ok() {
                return Ok(g);
            }
        }
        Err(bad(format!("no turn at step {:?} shows the seat its view", v.phase)))
    }

    /// Whether this state shows `seat` exactly `view`.
    fn checked(&self, view: &serde_json::Value, seat: Seat) -> Result<(), FromViewError> {
        let again = serde_json::to_value(self.view(Observer::Seat(seat)))
            .map_err(|e| bad(e.to_string()))?;
        if &again == view {
            Ok(())
        } else {
            Err(bad("the rebuilt state does not show the seat its view"))
        }
    }

    /// The turns of `bot` the rules allow at `step`, most likely first.
    fn turn_candidates(&self, bot: usize, step: &TurnStep, shock: Option<&ShockIn>) -> Vec<Turn> {
        let b = &self.bots[bot];
        let base = Turn {
            chosen_speed: if matches!(step, TurnStep::Speed) { 1 } else { b.speed },
            step: step.clone(),
            collided: matches!(step, TurnStep::Orient | TurnStep::Shock(_)),
            ..Turn::new(bot)
        };
        // The card played this turn: none, or the last one the bot played (BB-9: one a turn).
        let mut with_cards = vec![base.clone()];
        if let Some(&last) = b.used_cards.last() {
            let br = bracket(self.race_position(bot));
            let most = self.max_move_cells(bot);
            let played = Turn { card: Some(last), ..base.clone() };
            match last {
                Card::Jumper if matches!(step, TurnStep::Speed | TurnStep::Move) => {
                    let top = if br == 0 { 0 } else { most.saturating_sub(1) };
                    for at in 0..=top {
                        with_cards.push(Turn { leap: Some((at, br as u8)), ..played.clone() });
                    }
                }
                Card::Rotation if matches!(step, TurnStep::Speed | TurnStep::Move) => {
                    for quick in crate::view::quick_rotations(br, most) {
                        with_cards.push(Turn { quick, quick_card: true, ..played.clone() });
                    }
                }
                Card::Rotation => {
                    with_cards.push(Turn { quick_card: true, ..played.clone() });
                }
                _ => with_cards.push(played),
            }
        }
        let TurnStep::Shock(_) = step else { return with_cards };
        let Some(sh) = shock else { return Vec::new() };
        // BB-7.3–7.6, BB-8.3: a line from the active bot (or from an obstacle it launched)
        // through touching bots, ending on the pushed one.
        let pushed = sh.pushed.index();
        let mut out = Vec::new();
        let travel = self.travel_dir(bot);
        let dirs: Vec<HexDir> = std::iter::once(travel)
            .chain(HexDir::ALL.into_iter().filter(|&d| d != travel))
            .collect();
        for dir in dirs {
            for chain in self.chains_to(bot, dir, pushed) {
                if sh.turn_first.is_some_and(|f| f.index() != chain[0]) {
                    continue;
                }
                let pushes: Vec<u8> =
                    if sh.turn_cells > 0 { vec![sh.turn_cells] } else { (1..=6).collect() };
                for push in pushes {
                    for via in [Via::Bot, Via::Launched] {
                        for t in &with_cards {
                            let mut t = t.clone();
                            t.mv = MoveCursor { total: push, ..MoveCursor::default() };
                            t.step = TurnStep::Shock(PendingShock {
                                chain: chain.clone(),
                                dir,
                                push,
                                first_choice: sh.turn_first.is_some(),
                                last_choice: sh.turn_cells > 0,
                                via,
                            });
                            out.push(t);
                        }
                    }
                }
            }
        }
        out
    }

    /// Chains of touching bots along `dir` that end on `pushed`: starting next to the active
    /// bot, or anywhere on the line (a launched obstacle's shock).
    fn chains_to(&self, bot: usize, dir: HexDir, pushed: usize) -> Vec<Vec<usize>> {
        let Some(end) = self.bots[pushed].at else { return Vec::new() };
        let bot_at = |h: Hex| self.bots.iter().position(|b| b.at == Some(h));
        // Walk back from the pushed bot against `dir` while cells hold bots other than `bot`.
        let mut chain = vec![pushed];
        let mut h = end.neighbour(dir.opposite());
        let mut out = Vec::new();
        loop {
            let mut c = chain.clone();
            c.reverse();
            out.push(c);
            match bot_at(h) {
                Some(i) if i != bot && !chain.contains(&i) => {
                    chain.push(i);
                    h = h.neighbour(dir.opposite());
                }
                _ => break,
            }
        }
        // Longest first: a shock from the active bot goes through every bot touching it.
        out.reverse();
        out
    }
}
