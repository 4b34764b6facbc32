//! RoboRally policies: follow the shortest path to the next flag (RR-5.5) over a distance map
//! that knows walls and pits (RR-2), and keep away from damage (RR-7) and destruction (RR-8).
//!
//! The heuristic judges whole *plans* for a programming decision: a program, or an option use
//! made while programming (RR-9: Recompile, Crab Legs, Dual Processor, Flywheel, Conditional
//! Program) followed by a program, each played to the end of the turn
//! through the engine. The search bot ([`search::RrSearch`]) compares the heuristic's best plans
//! over several determinizations and one more turn, scored by [`value`], which counts program
//! cards over (cell, facing) with belts and gears ([`card_map`]).

pub mod model;
pub mod oracle;
pub mod search;

use crate::{Bot, BotSpec, HasBots, lookahead};
use engine::{Game, Rng, Seat};
use grid::{Sq, SqDir};
use roborally::{Action, Board, CardKind, OptionCard, Phase, RoboRally};
use std::collections::VecDeque;

/// Steps from every cell to `target`, moving between cells through wall-free sides and never
/// through a pit or off the board (`u16::MAX` where unreachable).
pub fn distance_map(board: &Board, target: Sq) -> Vec<u16> {
    let (w, h) = (board.width, board.height);
    let mut dist = vec![u16::MAX; (w * h).max(0) as usize];
    let idx = |s: Sq| (s.y * w + s.x) as usize;
    if !board.in_bounds(target) {
        return dist;
    }
    dist[idx(target)] = 0;
    let mut queue = VecDeque::from([target]);
    while let Some(c) = queue.pop_front() {
        let d = dist[idx(c)];
        for dir in SqDir::ALL {
            let n = c.neighbour(dir);
            if !board.in_bounds(n) || board.wall(c, dir) || board.is_pit(n) || !board.on_board(n) {
                continue;
            }
            if dist[idx(n)] == u16::MAX {
                dist[idx(n)] = d + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Where a robot standing on `at` facing `facing` ends after one register holding a card of
/// kind `kind` and the board's belts and gears (RR-5.2, RR-5.3), ignoring other robots, pushers
/// (they depend on the register) and lasers; `None` if it would fall into a pit or off the
/// board. The game crate's one-robot steps (`roborally::solo::moves`) in register 0, which no
/// pusher pushes in.
fn register_effect(board: &Board, at: Sq, facing: SqDir, kind: CardKind) -> Option<(Sq, SqDir)> {
    roborally::solo::moves(board, at, facing, Some(kind), 0)
}

/// The index of (cell, facing) in a [`card_map`].
fn map_index(board: &Board, at: Sq, facing: SqDir) -> usize {
    ((at.y * board.width + at.x) as usize) * 4 + facing.index() as usize
}

/// Program cards (registers) needed from every (cell, facing) to stand on `target` at the end of
/// a register, any card available: index `(y * width + x) * 4 + facing`, `u16::MAX` where it
/// cannot be reached. Knows walls, pits, belts (express and rotating) and gears.
pub fn card_map(board: &Board, target: Sq) -> Vec<u16> {
    let cells = (board.width * board.height).max(0) as usize;
    let mut dist = vec![u16::MAX; cells * 4];
    if !board.in_bounds(target) {
        return dist;
    }
    let idx = |s: Sq, f: SqDir| map_index(board, s, f);
    // Where each register can take each state.
    let mut next: Vec<[u32; 7]> = vec![[u32::MAX; 7]; cells * 4];
    for y in 0..board.height {
        for x in 0..board.width {
            let at = Sq::new(x, y);
            if !board.on_board(at) || board.is_pit(at) {
                continue;
            }
            for f in SqDir::ALL {
                for (k, kind) in model::KINDS.iter().enumerate() {
                    if let Some((a, g)) = register_effect(board, at, f, *kind) {
                        next[idx(at, f)][k] = idx(a, g) as u32;
                    }
                }
            }
        }
    }
    for f in SqDir::ALL {
        dist[idx(target, f)] = 0;
    }
    // Value iteration: every register costs one card.
    loop {
        let mut changed = false;
        for s in 0..cells * 4 {
            let best = next[s]
                .iter()
                .filter(|&&n| n != u32::MAX)
                .map(|&n| dist[n as usize])
                .min()
                .unwrap_or(u16::MAX);
            if best != u16::MAX && best + 1 < dist[s] {
                dist[s] = best + 1;
                changed = true;
            }
        }
        if !changed {
            return dist;
        }
    }
}

/// The seat's robot while it still races, or the points of one that does not: out of the game
/// −10,000, every flag touched +10,000, no robot 0.
fn racing(game: &RoboRally, seat: Seat) -> Result<&roborally::Robot, f64> {
    let Some(r) = game.robot(seat) else { return Err(0.0) };
    if r.out {
        return Err(-10_000.0);
    }
    if r.finished || r.flags_touched as usize >= game.board().flags.len() {
        return Err(10_000.0);
    }
    Ok(r)
}

/// A robot's progress in points: flags dominate, then closeness to the next flag, then health.
fn progress(game: &RoboRally, seat: Seat, maps: &mut Vec<Option<Vec<u16>>>) -> f64 {
    let board = game.board();
    let r = match racing(game, seat) {
        Ok(r) => r,
        Err(settled) => return settled,
    };
    let flags = board.flags.len();
    let next = r.flags_touched as usize;
    if maps.len() < flags {
        maps.resize(flags, None);
    }
    let map = maps[next].get_or_insert_with(|| distance_map(board, board.flags[next]));
    let at = r.at.unwrap_or(r.archive);
    let d = if board.in_bounds(at) { map[(at.y * board.width + at.x) as usize] } else { u16::MAX };
    let d = if d == u16::MAX { 60.0 } else { d as f64 };
    let mut p = 1000.0 * r.flags_touched as f64
        - 10.0 * d
        - 4.0 * r.damage as f64
        - 60.0 * (3u8.saturating_sub(r.lives)) as f64;
    if r.destroyed {
        p -= 40.0;
    }
    p
}

/// The card maps of one board, one per flag, kept between calls while the board lives (every
/// clone of a game shares its board, so the board's address and its flags name it; a new game's
/// board may reuse a freed address, so keep a `Maps` no longer than one decision).
pub struct Maps {
    key: Option<(usize, Vec<Sq>)>,
    maps: Vec<Vec<u16>>,
    model: Option<model::Model>,
}

impl Maps {
    pub const fn new() -> Maps {
        Maps { key: None, maps: Vec::new(), model: None }
    }

    /// The card maps of every flag of `board`, in flag order (built on first use).
    pub fn all(&mut self, board: &Board) -> &[Vec<u16>] {
        let address = board as *const Board as usize;
        // Compared without allocating: this runs at every evaluation of a search.
        if !matches!(&self.key, Some((a, flags)) if *a == address && *flags == board.flags) {
            self.maps = board.flags.iter().map(|&f| card_map(board, f)).collect();
            self.key = Some((address, board.flags.clone()));
            self.model = None;
        }
        &self.maps
    }

    /// The register tables of `board` ([`model::Model`], built on first use) and its card maps.
    pub fn model(&mut self, board: &Board) -> (&model::Model, &[Vec<u16>]) {
        self.all(board);
        let model = self.model.get_or_insert_with(|| model::Model::new(board));
        (model, &self.maps)
    }

    /// The card map to flag `flag` of `board`.
    pub fn get(&mut self, board: &Board, flag: usize) -> &[u16] {
        &self.all(board)[flag]
    }
}

impl Default for Maps {
    fn default() -> Self {
        Maps::new()
    }
}

/// A robot's standing in points for search and the oracle: 1,000 per flag, −25 per program card
/// still needed to reach the next flag from its cell and facing, damage (worse once registers
/// lock), lives.
pub fn standing(game: &RoboRally, seat: Seat, maps: &mut Maps) -> f64 {
    let board = game.board();
    let r = match racing(game, seat) {
        Ok(r) => r,
        Err(settled) => return settled,
    };
    let next = r.flags_touched as usize;
    let map = maps.get(board, next);
    let cards = match r.at {
        Some(at) if board.in_bounds(at) => map[map_index(board, at, r.facing)],
        // Destroyed: back on the archive, facing chosen well; a turn lost.
        _ if board.in_bounds(r.archive) => SqDir::ALL
            .iter()
            .map(|&f| map[map_index(board, r.archive, f)])
            .min()
            .unwrap_or(u16::MAX)
            .saturating_add(5),
        _ => u16::MAX,
    };
    let cards = if cards == u16::MAX { 40.0 } else { cards as f64 };
    let locked = r.damage.saturating_sub(4) as f64;
    let mut p = 1000.0 * r.flags_touched as f64
        - 25.0 * cards
        - 6.0 * r.damage as f64
        - 20.0 * locked
        - 150.0 * (3u8.saturating_sub(r.lives)) as f64;
    if r.destroyed {
        p -= 40.0;
    }
    p
}

/// [`standing`] of `seat` against the best other robot (the game's end is decisive).
pub fn value(game: &RoboRally, seat: Seat, maps: &mut Maps) -> f64 {
    if game.outcome().is_some() {
        // Sooner is better for a win, later for a loss. Only touching the last flag wins: a
        // game that ends with every robot out (alone on the board, the only robot is "first")
        // is lost.
        let t = 1000.0 * game.turn() as f64;
        return if game.winner() == Some(seat) { 100_000.0 - t } else { -100_000.0 + t };
    }
    let me = standing(game, seat, maps);
    let other = (0..game.seats() as u8)
        .filter(|&s| s != seat.0)
        .map(|s| standing(game, Seat(s), maps))
        .fold(f64::MIN, f64::max);
    if other == f64::MIN { me } else { me - other }
}

/// The `k` best programs of the seat's hand by a model of the board alone (walls, pits, belts,
/// gears: [`card_map`]'s register effect; no other robots, pushers or lasers), one per sequence
/// of card kinds: a depth-first search over the hand sharing prefixes, scored by flags touched
/// and program cards still needed at the end. Locked registers keep their cards.
pub(crate) fn model_programs(
    game: &RoboRally,
    seat: Seat,
    maps: &mut Maps,
    k: usize,
) -> Vec<Action> {
    let Some(r) = game.robot(seat) else { return Vec::new() };
    let Some(at) = r.at else { return Vec::new() };
    let board = game.board();
    let flags = board.flags.len();
    let mut hand = r.hand.clone();
    hand.sort_by_key(|c| (c.card, c.priority));
    let fixed: [Option<Option<roborally::Card>>; 5] =
        std::array::from_fn(|j| r.locked(j).then_some(r.registers[j]));
    // Card maps of every flag, looked up by index (borrowed: this runs inside search rollouts).
    let maps = maps.all(board);
    let first = r.flags_touched as usize;
    struct Search<'a> {
        board: &'a Board,
        hand: &'a [roborally::Card],
        fixed: [Option<Option<roborally::Card>>; 5],
        maps: &'a [Vec<u16>],
        flags: usize,
        used: Vec<bool>,
        regs: [Option<roborally::Card>; 5],
        out: Vec<(f64, [Option<roborally::Card>; 5])>,
    }
    impl Search<'_> {
        fn score(&self, at: Sq, facing: SqDir, touched: usize) -> f64 {
            if touched >= self.flags {
                return 100_000.0;
            }
            let d = self.maps[touched][map_index(self.board, at, facing)];
            1000.0 * touched as f64 - if d == u16::MAX { 1000.0 } else { d as f64 }
        }
        fn go(&mut self, j: usize, at: Sq, facing: SqDir, touched: usize) {
            if j == 5 || touched >= self.flags {
                let mut regs = self.regs;
                // Finished early: fill the rest with any unused cards (they are not played).
                for (k, slot) in regs.iter_mut().enumerate().skip(j) {
                    if let Some(f) = self.fixed[k] {
                        *slot = f;
                    } else if let Some(u) = (0..self.hand.len()).find(|&u| !self.used[u]) {
                        self.used[u] = true;
                        *slot = Some(self.hand[u]);
                    }
                }
                for (k, slot) in regs.iter().enumerate().skip(j) {
                    if self.fixed[k].is_none()
                        && let Some(c) = slot
                        && let Some(u) = self.hand.iter().position(|h| h == c)
                    {
                        self.used[u] = false;
                    }
                }
                let v = self.score(at, facing, touched);
                self.out.push((v, regs));
                return;
            }
            let step = |kind: CardKind, this: &mut Self, card: Option<roborally::Card>| {
                let (a, f, t) = match register_effect(this.board, at, facing, kind) {
                    Some((a, f)) => (
                        a,
                        f,
                        if this.board.flags.get(touched) == Some(&a) {
                            touched + 1
                        } else {
                            touched
                        },
                    ),
                    None => return,
                };
                this.regs[j] = card;
                this.go(j + 1, a, f, t);
            };
            if let Some(f) = self.fixed[j] {
                match f {
                    Some(c) => step(c.card, self, Some(c)),
                    None => {
                        self.regs[j] = None;
                        self.go(j + 1, at, facing, touched);
                    }
                }
                return;
            }
            let mut last: Option<CardKind> = None;
            for u in 0..self.hand.len() {
                if self.used[u] || last == Some(self.hand[u].card) {
                    continue;
                }
                last = Some(self.hand[u].card);
                self.used[u] = true;
                let c = self.hand[u];
                step(c.card, self, Some(c));
                self.used[u] = false;
            }
        }
    }
    let mut s = Search {
        board,
        used: vec![false; hand.len()],
        hand: &hand,
        fixed,
        maps,
        flags,
        regs: [None; 5],
        out: Vec::new(),
    };
    s.go(0, at, r.facing, first);
    let mut out = s.out;
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out.into_iter()
        .take(k)
        .map(|(_, registers)| Action::Program { registers, power_down_next: false })
        .collect()
}

impl HasBots for RoboRally {
    type Scratch = ();

    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        if programming(game, seat) {
            return plans(game, seat, 40, rng)
                .into_iter()
                .next()
                .map(|p| p.first)
                .expect("a program");
        }
        let candidates = options(game, seat, rng);
        lookahead::best_of(game, seat, candidates, 1, rng)
    }

    /// About one turn: the other programs, the five registers, re-entries. The distance map
    /// judges the rest.
    const HORIZON: u32 = 12;
    const PLAYOUT_TO_END_OF_TURN: bool = true;

    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        // Inside search playouts: random programs (judging programs by lookahead inside every
        // playout would cost a whole turn per step).
        game.sample_action(seat, rng).expect("the seat owes a decision")
    }

    /// No event list: a playout reads only the state after (`roborally::event::NoEvents`).
    fn playout_apply(
        game: &mut Self,
        seat: Seat,
        action: &Action,
        _events: &mut Vec<roborally::Event>,
    ) -> bool {
        game.apply_to(seat, action, &mut roborally::event::NoEvents).is_ok()
    }

    /// The rules' own random step (`RoboRally::play_random`: the draws and the state of
    /// `sample_action` then `apply`), without building the action or any event (issue 17).
    fn playout_random(
        game: &mut Self,
        seat: Seat,
        rng: &mut Rng,
        _events: &mut Vec<roborally::Event>,
    ) -> Option<bool> {
        Some(game.play_random(seat, rng, &mut roborally::event::NoEvents)?.is_ok())
    }

    fn evaluate(game: &Self, seat: Seat) -> f64 {
        if let Some(place) = crate::final_place(game, seat) {
            return place;
        }
        let mut maps = Vec::new();
        crate::margin(game, seat, 150.0, |s| progress(game, s, &mut maps))
    }

    fn candidates(game: &Self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        if programming(game, seat) {
            // The best plans first: programs and option uses (the engine's listing).
            return plans(game, seat, 40, rng).into_iter().map(|p| p.first).collect();
        }
        options(game, seat, rng)
    }

    /// RoboRally's search is its own ([`search::RrSearch`]): the generic one cannot judge a
    /// program beyond the turn it is played in.
    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        match spec {
            // RoboRally's search runs on one thread whatever `threads` says.
            BotSpec::Search { simulations, .. } => {
                Box::new(search::RrSearch::new(*simulations, None))
            }
            BotSpec::SearchFor { millis } => Box::new(search::RrSearch::new(
                u32::MAX,
                Some(std::time::Duration::from_millis(*millis as u64)),
            )),
            other => crate::make(other),
        }
    }
}

/// The seat owes its program (and may use option cards while programming).
pub(crate) fn programming(game: &RoboRally, seat: Seat) -> bool {
    // Another seat's question while programming (RR-7.4 for its Recompile) leaves this seat
    // programming.
    matches!(game.phase(), Phase::Program { .. })
        && game.pending().is_none_or(|p| p.robot() != seat.index())
        && game.decision().is_some_and(|d| d.owes(seat))
}

/// Up to `n` distinct programs drawn from the seat's hand (no option uses).
pub(crate) fn sample_programs(
    game: &RoboRally,
    seat: Seat,
    n: usize,
    rng: &mut Rng,
) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for _ in 0..n * 3 {
        if out.len() >= n {
            break;
        }
        if let Some(a @ Action::Program { .. }) = game.sample_action(seat, rng)
            && !out.contains(&a)
        {
            out.push(a);
        }
    }
    out
}

/// The option uses while programming that move the plan forward (the engine's listing without
/// taking a card back, so plans cannot go round in circles).
pub(crate) fn forward_uses(game: &RoboRally, seat: Seat) -> Vec<Action> {
    game.legal_actions(seat).into_iter().filter(|a| matches!(a, Action::UseOption { option: Some(o), card, .. } if card.is_some() || *o == OptionCard::Recompile)).collect()
}

/// A plan for a programming decision: its first action (a program, or an option use), the
/// program meant to follow a use when it is known (not after Recompile: the hand is new), and
/// its value (the heuristic's evaluation at the end of the turn).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub first: Action,
    pub then: Option<Action>,
    pub value: f64,
}

/// Every program of the seat's hand without power-down, one per sequence of card kinds (alone
/// with its kinds, a program does the same whatever the priorities; against other robots the
/// order of moves may differ, which this accepts).
pub(crate) fn distinct_programs(game: &RoboRally, seat: Seat) -> Vec<Action> {
    let mut seen = std::collections::HashSet::new();
    game.legal_actions(seat)
        .into_iter()
        .filter(|a| matches!(a, Action::Program { registers, power_down_next: false } if seen.insert(registers.map(|c| c.map(|c| c.card)))))
        .collect()
}

/// A programming decision's plans, best first. Without option cards to use: `n` programs
/// sampled from the hand. With some: every distinct program of the hand, and every option use
/// (at most 12) followed by the best program of the state it leaves (Recompile: the best
/// distinct program, averaged over three deals). A Flywheel or Conditional Program takes a spare
/// card the best program does not need (their worth is in later turns or registers: a Move 3 or
/// a U-turn kept is a spare card's best use). A use must beat the best plain program.
pub(crate) fn plans(game: &RoboRally, seat: Seat, n: usize, rng: &mut Rng) -> Vec<Plan> {
    let base = game.determinize(seat, rng);
    let draws = rng.next_u64();
    let judge = |g: &RoboRally, a: &Action| -> f64 {
        let mut g = g.clone();
        let mut events = Vec::new();
        if g.apply(seat, a, &mut events).is_err() {
            return f64::MIN;
        }
        lookahead::finish_turn(&mut g, seat, &mut Rng::seeded(draws), &mut events);
        <RoboRally as HasBots>::evaluate(&g, seat)
    };
    let best_of = |g: &RoboRally, programs: Vec<Action>| -> Option<(Action, f64)> {
        programs
            .into_iter()
            .map(|a| {
                let v = judge(g, &a);
                (a, v)
            })
            .fold(None, |best: Option<(Action, f64)>, (a, v)| match best {
                Some(b) if b.1 >= v => Some(b),
                _ => Some((a, v)),
            })
    };
    let mut uses = forward_uses(&base, seat);
    let programs = if uses.is_empty() {
        sample_programs(&base, seat, n, rng)
    } else {
        distinct_programs(&base, seat)
    };
    let mut out: Vec<Plan> = programs
        .into_iter()
        .map(|a| {
            let value = judge(&base, &a);
            Plan { first: a, then: None, value }
        })
        .collect();
    out.sort_by(|a, b| b.value.total_cmp(&a.value));
    let best_plain = out.first().map_or(f64::MIN, |p| p.value);
    // Keep the work bounded: at most 12 uses, drawn at random, the one-shot switches always.
    if uses.len() > 12 {
        rng.shuffle(&mut uses);
        uses.sort_by_key(|a| !matches!(a, Action::UseOption { card: None, .. }));
        uses.truncate(12);
    }
    let mut events = Vec::new();
    let mut plans = Vec::new();
    for u in uses {
        let Action::UseOption { option: Some(o), card, .. } = u else { continue };
        let plan = match o {
            OptionCard::Flywheel | OptionCard::ConditionalProgram => {
                let Some(c) = card else { continue };
                // The best program that leaves that card in the hand.
                let Some(p) = out.iter().find(|p| matches!(p.first, Action::Program { registers, .. } if !registers.contains(&Some(c)))) else { continue };
                let worth = match c.card {
                    CardKind::Move3 | CardKind::Uturn => 0.002,
                    CardKind::Move2 => 0.001,
                    _ => 0.0005,
                };
                Plan { first: u.clone(), then: Some(p.first.clone()), value: p.value + worth }
            }
            OptionCard::Recompile => {
                let mut total = 0.0;
                for d in 0..3 {
                    let mut g = if d == 0 { base.clone() } else { game.determinize(seat, rng) };
                    events.clear();
                    if g.apply(seat, &u, &mut events).is_err() {
                        total = f64::MIN;
                        break;
                    }
                    // RR-7.4 for Recompile's point (amended RR-9): judged as taken.
                    let decline = Action::DiscardOption { option: None };
                    while g.pending().is_some_and(|p| p.robot() == seat.index())
                        && g.apply(seat, &decline, &mut events).is_ok()
                    {}
                    total +=
                        best_of(&g, distinct_programs(&g, seat)).map_or(f64::MIN, |b| b.1) / 3.0;
                }
                Plan { first: u.clone(), then: None, value: total }
            }
            _ => {
                let mut g = base.clone();
                events.clear();
                if g.apply(seat, &u, &mut events).is_err() {
                    continue;
                }
                let Some((p, value)) = best_of(&g, sample_programs(&g, seat, 40, rng)) else {
                    continue;
                };
                Plan { first: u.clone(), then: Some(p), value }
            }
        };
        plans.push(plan);
    }
    // Option uses must beat the best plain program (their outcome is noisier).
    plans.retain(|p| p.value > best_plain);
    plans.sort_by(|a, b| b.value.total_cmp(&a.value));
    plans.extend(out);
    plans
}

/// What a seat may do now: programs (up to 15,120 of them) as a sample of up to 40 distinct ones
/// drawn from the hand; every choice for the other, small decisions.
fn options(game: &RoboRally, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    match game.sample_action(seat, rng) {
        Some(Action::Program { .. } | Action::UseOption { .. } | Action::Place { .. })
            if programming(game, seat) =>
        {
            sample_programs(game, seat, 40, rng)
        }
        Some(_) => game.legal_actions(seat),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_map_respects_walls_and_pits() {
        let mut b = Board::new(3, 1);
        assert_eq!(distance_map(&b, Sq::new(0, 0)), vec![0, 1, 2]);
        b.add_wall(Sq::new(1, 0), SqDir::E);
        assert_eq!(distance_map(&b, Sq::new(0, 0))[2], u16::MAX);
    }

    #[test]
    fn model_programs_find_the_way_to_the_flag() {
        // One robot at (3, 8) facing east on an empty 8×10 board, the flag at (3, 2): a left
        // turn and six cells north (Move 3 + Move 2 + Move 1, in any order after the turn).
        let board = serde_json::json!({"width": 8, "height": 10, "cells": [], "walls": [], "lasers": [], "flags": [[3, 2]], "docks": []});
        let hand = [
            ("move3", 790),
            ("move2", 670),
            ("move1", 490),
            ("left", 70),
            ("right", 80),
            ("uturn", 10),
            ("backup", 430),
            ("right", 100),
            ("right", 120),
        ];
        let hand: Vec<_> =
            hand.iter().map(|(k, p)| serde_json::json!({"card": k, "priority": p})).collect();
        let setup = serde_json::json!({"phase": "program", "robots": [{"seat": 0, "at": [3, 8], "facing": 1, "hand": hand}]});
        let setup = roborally::Setup::from_scenario(
            roborally::BoardSpec::Inline(serde_json::from_value(board).unwrap()),
            serde_json::from_value(setup).unwrap(),
            roborally::Variants::default(),
        );
        let g = <RoboRally as Game>::new(&setup, 1).unwrap();
        let best = model_programs(&g, Seat(0), &mut Maps::new(), 3);
        assert_eq!(best.len(), 3);
        for a in best {
            let mut h = g.clone();
            h.apply(Seat(0), &a, &mut Vec::new()).unwrap();
            assert_eq!(h.winner(), Some(Seat(0)), "{a:?} does not reach the flag");
        }
    }

    #[test]
    fn card_map_counts_turns_and_moves() {
        let b = Board::new(5, 1);
        let m = card_map(&b, Sq::new(4, 0));
        let at = |x: i32, f: SqDir| m[(x as usize) * 4 + f.index() as usize];
        assert_eq!(at(4, SqDir::N), 0);
        assert_eq!(at(1, SqDir::E), 1, "a Move 3");
        assert_eq!(at(0, SqDir::E), 2, "four cells: two moves");
        assert_eq!(at(3, SqDir::W), 1, "a Back Up");
        assert_eq!(at(0, SqDir::W), 3, "a U-turn, then four cells");
        assert_eq!(at(0, SqDir::N), 3, "moving north leaves the board: a turn first");
    }
}
