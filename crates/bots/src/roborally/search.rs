//! RoboRally search: the heuristic's best plans, each judged over several determinizations by
//! playing its turn and the next one.
//!
//! Every round draws one determinization ([`Game::determinize`]: the other seats' hands and
//! programs, the deck order resampled) and plays every candidate on it (common random numbers):
//! the candidate, the rest of its turn (the seat's own later choices by a fast policy: the best
//! of a few sampled programs judged to the end of the turn; other seats at random), then the
//! whole next turn the same way, with the next hand dealt from the resampled deck. The end is
//! scored by [`super::value`] (flags, program cards still needed from the robot's cell and
//! facing, damage, lives, against the best other robot). The best mean wins.

use super::{
    Maps, distinct_programs, forward_uses, model, plans, programming, sample_programs, value,
};
use crate::{Bot, Stop, lookahead};
use engine::{Decision, Game, Rng, Seat};
use roborally::event::NoEvents;
use roborally::{Action, Phase, RoboRally};
use std::time::{Duration, Instant};

/// The search bot of RoboRally.
pub struct RrSearch {
    /// Rollouts per decision (one rollout: one candidate on one determinization).
    pub simulations: u32,
    pub time_limit: Option<Duration>,
    /// Plans compared.
    pub candidates: usize,
    /// Programs the fast policy compares inside a rollout.
    pub follow: usize,
    /// Turns played after the candidate's own.
    pub depth: u32,
    maps: Maps,
    /// The stop of the decision in progress (see [`Bot::act_until`]).
    stop: Stop,
}

impl RrSearch {
    pub fn new(simulations: u32, time_limit: Option<Duration>) -> RrSearch {
        RrSearch {
            simulations,
            time_limit,
            candidates: 8,
            follow: 16,
            depth: 1,
            maps: Maps::new(),
            stop: Stop::default(),
        }
    }
}

impl Bot<RoboRally> for RrSearch {
    fn name(&self) -> String {
        match self.time_limit {
            Some(t) => format!("search:{}ms", t.as_millis()),
            None => format!("search:{}", self.simulations),
        }
    }

    fn act(&mut self, game: &RoboRally, seat: Seat, rng: &mut Rng) -> Action {
        self.act_until(game, seat, rng, &Stop::default())
    }

    fn act_until(&mut self, game: &RoboRally, seat: Seat, rng: &mut Rng, stop: &Stop) -> Action {
        self.stop = stop.clone();
        let a = self.decide(game, seat, rng);
        self.stop = Stop::default();
        a
    }
}

impl RrSearch {
    fn decide(&mut self, game: &RoboRally, seat: Seat, rng: &mut Rng) -> Action {
        let started = self.stop.clock().now();
        // Card maps live for one decision: every state it looks at shares the game's board.
        self.maps = Maps::new();
        if let Some(a) = self.alone(game, seat, rng) {
            return a;
        }
        let candidates = self.candidates(game, seat, rng, started);
        assert!(!candidates.is_empty(), "{seat} owes a decision but has no candidate");
        if candidates.len() == 1 {
            return candidates.into_iter().next().expect("one").swap_remove(0);
        }
        let mut total = vec![0.0; candidates.len()];
        let mut used = 0u32;
        let mut rounds = 0u32;
        let mut round_time = Duration::ZERO;
        loop {
            let over_budget =
                used + candidates.len() as u32 > self.simulations.max(candidates.len() as u32);
            // Stop before a round that would end past the time limit.
            let over_time = self
                .time_limit
                .is_some_and(|t| self.stop.clock().elapsed(started) + round_time >= t);
            if rounds >= 1 && (over_budget || over_time) {
                break;
            }
            let round_started = self.stop.clock().now();
            let det = rng.next_u64();
            let draws = rng.next_u64();
            // Stopped in the middle of a round (a ceiling, a cancellation): only whole rounds
            // count, so every candidate is judged on the same determinizations.
            let mut round = Vec::with_capacity(candidates.len());
            for c in &candidates {
                if self.stop.now() {
                    break;
                }
                let mut g = game.determinize(seat, &mut Rng::seeded(det));
                round.push(self.rollout(&mut g, seat, c, &mut Rng::seeded(draws)));
            }
            if round.len() < candidates.len() {
                break;
            }
            for (t, r) in total.iter_mut().zip(round) {
                *t += r;
            }
            used += candidates.len() as u32;
            rounds += 1;
            round_time = self.stop.clock().elapsed(round_started);
        }
        let best = (0..candidates.len())
            .max_by(|&a, &b| total[a].total_cmp(&total[b]).then(b.cmp(&a)))
            .expect("candidates");
        candidates.into_iter().nth(best).expect("best").swap_remove(0)
    }
}

impl RrSearch {
    /// Alone on the board (every other robot out or finished) and holding no option card (the
    /// model knows none), a program is chosen by the model's expectation
    /// ([`model::Expectation`]): every distinct end of this turn, judged by the mean over
    /// sampled next deals of the best next turn, and each of them followed by a power-down.
    /// `None` when not alone, not programming or holding options.
    pub fn alone(&mut self, game: &RoboRally, seat: Seat, rng: &mut Rng) -> Option<Action> {
        let started = self.stop.clock().now();
        if !programming(game, seat) || game.robots().iter().any(|r| r.seat != seat && r.active()) {
            return None;
        }
        let robot = game.robot(seat)?;
        if !robot.options.is_empty() {
            return None;
        }
        // A budget in simulations: one deal per 8 (reproducible), and from 1,000 on one deal
        // deeper for the best six ends; in time: 32 deals, the ends of the turn judged best
        // first until the time is nearly used.
        let deep = self.time_limit.is_none() && self.simulations >= 1000;
        let hands = match self.time_limit {
            Some(_) => 32,
            None if deep => 16,
            None => (self.simulations as usize / 8).clamp(8, 256),
        };
        let seed = rng.next_u64();
        let deep_seed = rng.next_u64();
        let judged = self.model_ranked(game, seat, hands, seed, started)?;
        let &(_, _, mut kinds, _, down) = judged.first()?;
        if deep && !down {
            // One deal deeper for the six best ends without a power-down (a power-down is
            // judged at the end of the next turn only).
            let (m, maps) = self.maps.model(game.board());
            let mut e = model::Expectation::new(m, maps, hands, seed);
            let mut best = f64::MIN;
            for &(_, _, program, end, _) in judged.iter().filter(|j| !j.4).take(6) {
                if self.stop.now() {
                    break;
                }
                let v = e.value_deep(end, 12, 12, deep_seed);
                if v > best {
                    (best, kinds) = (v, program);
                }
            }
        }
        Some(program_of(robot, kinds, down))
    }

    /// Every distinct end of this turn for the seat's robot by the model (other robots left
    /// out), each judged by the expectation over `hands` next deals drawn from `seed`, and each
    /// also followed by a power-down: (value, standing at the end of this turn, program kinds,
    /// end, power down next), best first. Under a time limit the ends are judged best first
    /// until 80 % of it is used. `None` when the robot is not on the board.
    fn model_ranked(
        &mut self,
        game: &RoboRally,
        seat: Seat,
        hands: usize,
        seed: u64,
        started: Instant,
    ) -> Option<Vec<Judged>> {
        let robot = game.robot(seat)?;
        let (m, maps) = self.maps.model(game.board());
        let start = model::solo(m, robot)?;
        let mut hand = [0u8; 7];
        for c in &robot.hand {
            hand[c.card as usize] += 1;
        }
        let mut ends: Vec<(f64, model::Solo, [u8; 5])> = model::outcomes(m, start, hand)
            .into_iter()
            .map(|(end, p)| (model::standing(m, &end, maps), end, p))
            .collect();
        ends.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut e = model::Expectation::new(m, maps, hands, seed);
        let mut judged: Vec<Judged> = Vec::new();
        for (tie, end, program) in ends {
            if !judged.is_empty()
                && (self.stop.now()
                    || self
                        .time_limit
                        .is_some_and(|t| self.stop.clock().elapsed(started) * 5 >= t * 4))
            {
                break;
            }
            judged.push((e.value(end), tie, program, end, false));
            // RR-4.4: announcing a power-down; the next turn the robot discards its damage and
            // the board alone moves it (judged at the same moment: the end of the next turn).
            judged.push((model::standing(m, &m.powered_down(end), maps), tie, program, end, true));
        }
        // Best first; ties go to the better end of this turn, then to the earlier program.
        judged.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
        Some(judged)
    }

    /// The actions compared: for a program, the heuristic's best plans (option uses included,
    /// through the engine's listing) and, when damaged, the best programs with a power-down
    /// announced; otherwise every legal action (re-entries, stay down, option questions).
    fn candidates(
        &mut self,
        game: &RoboRally,
        seat: Seat,
        rng: &mut Rng,
        started: Instant,
    ) -> Vec<Vec<Action>> {
        if !programming(game, seat) {
            let mut all = game.legal_actions(seat);
            if all.len() > 24 {
                rng.shuffle(&mut all);
                all.truncate(24);
            }
            return all.into_iter().map(|a| vec![a]).collect();
        }
        let mut out: Vec<Vec<Action>> = self
            .best_programs(game, seat, rng)
            .into_iter()
            .take(self.candidates)
            .map(|p| vec![p.0])
            .collect();
        // The programs that leave the robot best placed for the next deal by the model (other
        // robots left out), when it holds no option card the model would miss.
        if let Some(robot) = game.robot(seat).filter(|r| r.options.is_empty()) {
            let seed = rng.next_u64();
            let judged = self.model_ranked(game, seat, 8, seed, started).unwrap_or_default();
            let kinds_of = |a: &Action| match a {
                Action::Program { registers, .. } => Some(registers.map(|c| c.map(|c| c.card))),
                _ => None,
            };
            for j in judged.iter().filter(|j| !j.4).take(3) {
                let p = program_of(robot, j.2, false);
                if !out.iter().any(|c| c.len() == 1 && kinds_of(&c[0]) == kinds_of(&p)) {
                    out.push(vec![p]);
                }
            }
        }
        // The best option uses compete too (the engine's listing, judged by the heuristic's
        // plans), each with the program meant to follow it.
        if !forward_uses(game, seat).is_empty() {
            let uses = plans(game, seat, 8, rng)
                .into_iter()
                .filter(|p| matches!(p.first, Action::UseOption { .. }))
                .take(3);
            out.extend(uses.map(|p| std::iter::once(p.first).chain(p.then).collect()));
        }
        let damaged = game.robot(seat).is_some_and(|r| r.damage >= 3);
        if damaged {
            let downs: Vec<Vec<Action>> = out
                .iter()
                .filter_map(|a| match a.as_slice() {
                    [Action::Program { registers, power_down_next: false }] => {
                        Some(vec![Action::Program { registers: *registers, power_down_next: true }])
                    }
                    _ => None,
                })
                .take(2)
                .collect();
            out.extend(downs);
        }
        out
    }

    /// Every program of the hand (one per sequence of card kinds: priorities matter only
    /// against other robots), judged to the end of the turn on one determinization by
    /// [`value`], best first.
    pub fn best_programs(
        &mut self,
        game: &RoboRally,
        seat: Seat,
        rng: &mut Rng,
    ) -> Vec<(Action, f64)> {
        let base = game.determinize(seat, rng);
        let draws = rng.next_u64();
        let mut out = Vec::new();
        let mut events = Vec::new();
        for a in distinct_programs(&base, seat) {
            let mut g = base.clone();
            events.clear();
            if g.apply(seat, &a, &mut events).is_err() {
                continue;
            }
            lookahead::finish_turn(&mut g, seat, &mut Rng::seeded(draws), &mut events);
            out.push((a, value(&g, seat, &mut self.maps)));
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }

    /// Play the plan (a candidate and the program meant to follow it) on the determinized `g`, the rest of its turn and `depth` more turns;
    /// the value for `seat` at the end.
    /// A rollout reads only the state it ends in: no event is built (`NoEvents`), and the other
    /// seats' random actions are `RoboRally::play_random` (the draws and the game of
    /// `sample_action` then `apply`; issue 17).
    fn rollout(&mut self, g: &mut RoboRally, seat: Seat, plan: &[Action], rng: &mut Rng) -> f64 {
        for (k, a) in plan.iter().enumerate() {
            // The program planned after a use may not fit this determinization (Recompile's
            // new hand): the fast policy then chooses.
            if g.apply_to(seat, a, &mut NoEvents).is_err() && k == 0 {
                return f64::MIN / 4.0;
            }
        }
        let last = g.turn() + self.depth;
        for _ in 0..2000 {
            if g.turn() > last {
                break;
            }
            let Some(d) = g.decision() else { break };
            let s = match d {
                Decision::One(s) => s,
                Decision::Simultaneous(set) => {
                    match set.iter().find(|&s| s != seat).or(set.first()) {
                        Some(s) => s,
                        None => break,
                    }
                }
            };
            if s == seat {
                let Some(a) = self.fast(g, seat, rng) else { break };
                if g.apply_to(s, &a, &mut NoEvents).is_err() {
                    break;
                }
            } else if !matches!(g.play_random(s, rng, &mut NoEvents), Some(Ok(()))) {
                break;
            }
        }
        value(g, seat, &mut self.maps)
    }

    /// The seat's own choice inside a rollout: a program by one-turn lookahead over a few
    /// samples, a re-entry by where it leaves the robot, anything else at random.
    fn fast(&mut self, g: &RoboRally, seat: Seat, rng: &mut Rng) -> Option<Action> {
        let choices = if programming(g, seat) {
            let mut c = super::model_programs(g, seat, &mut self.maps, 4);
            for a in sample_programs(g, seat, self.follow, rng) {
                if !c.contains(&a) {
                    c.push(a);
                }
            }
            c
        } else if matches!(g.phase(), Phase::Reenter { .. }) && g.pending().is_none() {
            g.legal_actions(seat)
                .into_iter()
                .filter(|a| matches!(a, Action::Reenter { powered_down: false, .. }))
                .collect()
        } else {
            return g.sample_action(seat, rng);
        };
        if choices.len() <= 1 {
            return choices.into_iter().next().or_else(|| g.sample_action(seat, rng));
        }
        let draws = rng.next_u64();
        let mut events = Vec::new();
        let mut best = (f64::MIN, 0);
        for (i, a) in choices.iter().enumerate() {
            let mut h = g.clone();
            events.clear();
            if h.apply(seat, a, &mut events).is_err() {
                continue;
            }
            lookahead::finish_turn(&mut h, seat, &mut Rng::seeded(draws), &mut events);
            let v = super::standing(&h, seat, &mut self.maps);
            if v > best.0 {
                best = (v, i);
            }
        }
        choices.into_iter().nth(best.1)
    }
}

/// A judged end of the turn: (value, standing at the end of this turn, program kinds, end,
/// power down next).
type Judged = (f64, f64, [u8; 5], model::Solo, bool);

/// The program that plays `kinds` (free registers; `u8::MAX`: any card) from the robot's hand,
/// the highest priority of each kind first; locked registers keep their cards.
fn program_of(robot: &roborally::Robot, kinds: [u8; 5], power_down_next: bool) -> Action {
    let mut hand = robot.hand.clone();
    hand.sort_by_key(|c| std::cmp::Reverse(c.priority));
    let mut registers = [None; 5];
    for (k, slot) in registers.iter_mut().enumerate() {
        if robot.locked(k) {
            *slot = robot.registers[k];
        } else if kinds[k] != u8::MAX
            && let Some(i) = hand.iter().position(|c| c.card as u8 == kinds[k])
        {
            *slot = Some(hand.remove(i));
        }
    }
    for (k, slot) in registers.iter_mut().enumerate() {
        if slot.is_none() && !robot.locked(k) && !hand.is_empty() {
            *slot = Some(hand.remove(0));
        }
    }
    Action::Program { registers, power_down_next }
}
