//! A model of one robot alone on the board, register by register, for the search's expectation
//! over the next deal. Its tables are built by calling the game crate's own one-robot element
//! steps (`roborally::solo::register`: the card, belts, pushers, gears and board lasers, the
//! same board functions the engine's elements call); the deck counts are `CardKind::count`.
//! A test plays random solo programs through the engine and checks the model still agrees
//! (`tests/roborally_model.rs`).
//!
//! Per register (RR-5): `roborally::solo::register` (RR-5.2 to RR-5.4; 10 damage destroys),
//! then the next flag and the archive (RR-5.5). At the end of the turn a repair site or flag repairs 1
//! (RR-6.1); a destroyed robot comes back on its archive with 2 damage and a life less (RR-8).
//! A powered-down turn (RR-4.4) is the board alone acting. Other robots, robot lasers and
//! option cards are not modelled.
//!
//! [`Model::programs`] walks every program of a hand (one per sequence of card kinds, prefixes
//! shared) through precomputed register tables.

use grid::{Sq, SqDir};
use roborally::solo::register;
use roborally::{Board, CardKind};

/// A destroyed robot's state index.
pub const DEAD: u16 = u16::MAX;

/// Card kinds in [`CardKind`] order (its discriminants index every table here).
pub const KINDS: [CardKind; 7] = CardKind::ALL;

/// The kind index of an empty register (a powered-down robot's): the board still acts.
pub const NONE: u8 = 7;

/// RR-1.1: how many cards of each kind the deck holds, in [`KINDS`] order (the game crate's).
pub const DECK: [u8; 7] = {
    let mut d = [0u8; 7];
    let mut k = 0;
    while k < 7 {
        d[k] = KINDS[k].count();
        k += 1;
    }
    d
};

/// One register's outcome from a state: the new state (cell × 4 + facing, or [`DEAD`]) and the
/// board lasers' damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    to: u16,
    damage: u8,
}

/// The robot between registers and between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solo {
    /// `cell * 4 + facing`, or [`DEAD`] once destroyed this turn.
    pub state: u16,
    pub flags: u8,
    pub damage: u8,
    pub lives: u8,
    /// Cell index of the archive marker.
    pub archive: u16,
    /// Card kinds held in locked registers (`u8::MAX`: free), RR-7.2.
    pub locked: [u8; 5],
    /// Destroyed with no life left (RR-8.2).
    pub out: bool,
}

/// The register tables of one board.
pub struct Model {
    width: i32,
    states: usize,
    /// `((register - 1) * states + state) * 8 + kind` (kind [`NONE`]: an empty register).
    steps: Vec<Step>,
    /// Per cell: flag number (1-based) or 0.
    flag: Vec<u8>,
    repair: Vec<bool>,
    pub flags: u8,
}

impl Model {
    pub fn new(board: &Board) -> Model {
        let cells = (board.width * board.height).max(0) as usize;
        let states = cells * 4;
        // Boards are at most 64 × 64 (RR-11) and courses are shipped ones: states fit a u16.
        assert!(states < DEAD as usize, "a board of {cells} cells is too large for the model");
        let mut steps = vec![Step { to: DEAD, damage: 0 }; 5 * states * 8];
        let mut flag = vec![0u8; cells];
        let mut repair = vec![false; cells];
        for y in 0..board.height {
            for x in 0..board.width {
                let at = Sq::new(x, y);
                let c = (y * board.width + x) as usize;
                flag[c] = board.flag_at(at).map_or(0, |f| f as u8 + 1);
                repair[c] = board.repairs(at);
                if !board.on_board(at) || board.is_pit(at) {
                    continue;
                }
                for f in SqDir::ALL {
                    for k in 0..8 {
                        for reg in 1..=5u8 {
                            let (to, damage) = register(board, at, f, KINDS.get(k).copied(), reg);
                            let to = to.map_or(DEAD, |(a, g)| {
                                ((a.y * board.width + a.x) * 4 + g.index() as i32) as u16
                            });
                            steps[((reg as usize - 1) * states + c * 4 + f.index() as usize) * 8
                                + k] = Step { to, damage };
                        }
                    }
                }
            }
        }
        Model { width: board.width, states, steps, flag, repair, flags: board.flags.len() as u8 }
    }

    /// The state index of a robot on `at` facing `facing`.
    pub fn state(&self, at: Sq, facing: SqDir) -> u16 {
        ((at.y * self.width + at.x) * 4 + facing.index() as i32) as u16
    }

    /// The cell index of `at`.
    pub fn cell(&self, at: Sq) -> u16 {
        (at.y * self.width + at.x) as u16
    }

    /// Register `reg` (1..=5) with a card of kind index `kind` (an index of [`KINDS`], or
    /// [`NONE`]).
    #[inline]
    pub fn register(&self, mut r: Solo, reg: u8, kind: u8) -> Solo {
        if r.state == DEAD || r.flags >= self.flags {
            return r;
        }
        debug_assert!(kind <= NONE, "a kind index");
        let s =
            self.steps[((reg as usize - 1) * self.states + r.state as usize) * 8 + kind as usize];
        r.state = s.to;
        if s.to == DEAD {
            return r;
        }
        r.damage += s.damage;
        if r.damage >= 10 {
            r.state = DEAD;
            return r;
        }
        let c = (s.to / 4) as usize;
        if self.flag[c] == r.flags + 1 {
            r.flags += 1;
        }
        if self.repair[c] {
            r.archive = c as u16;
        }
        r
    }

    /// The end of the turn (RR-6.1, RR-8): repair on a site; a destroyed robot loses a life and
    /// will come back on its archive with 2 damage (`state` stays [`DEAD`]: its facing is chosen
    /// when it re-enters). Locked registers keep their kinds only for a robot not destroyed.
    pub fn end_turn(&self, mut r: Solo, program: [u8; 5]) -> Solo {
        if r.state == DEAD {
            if r.lives == 0 {
                r.out = true;
            }
            r.lives = r.lives.saturating_sub(1);
            r.damage = 2;
            r.locked = [u8::MAX; 5];
            return r;
        }
        if self.repair[(r.state / 4) as usize] && r.damage > 0 {
            r.damage -= 1;
        }
        for (k, slot) in r.locked.iter_mut().enumerate() {
            *slot = if roborally::robot::locked_at(r.damage, k) { program[k] } else { u8::MAX };
        }
        r
    }

    /// Call `leaf` with the end of every program of `hand` (kind counts) from `start` (locked
    /// registers hold their kinds), once per sequence of kinds, the turn's end applied, and the
    /// kinds played. A program that touches the last flag or destroys the robot ends early (the
    /// rest of it does not matter): its remaining registers read `u8::MAX`. `leaf` returns true
    /// to stop the walk.
    pub fn programs(
        &self,
        start: Solo,
        hand: [u8; 7],
        leaf: &mut impl FnMut(Solo, [u8; 5]) -> bool,
    ) {
        let mut hand = hand;
        let mut program = [u8::MAX; 5];
        self.walk(0, start, start.locked, &mut hand, &mut program, leaf);
    }

    fn walk(
        &self,
        j: usize,
        r: Solo,
        fixed: [u8; 5],
        hand: &mut [u8; 7],
        program: &mut [u8; 5],
        leaf: &mut impl FnMut(Solo, [u8; 5]) -> bool,
    ) -> bool {
        if j == 5 || r.state == DEAD || r.flags >= self.flags {
            let mut p = *program;
            for slot in p.iter_mut().skip(j) {
                *slot = u8::MAX;
            }
            return leaf(self.end_turn(r, p), p);
        }
        if fixed[j] != u8::MAX {
            program[j] = fixed[j];
            return self.walk(
                j + 1,
                self.register(r, j as u8 + 1, fixed[j]),
                fixed,
                hand,
                program,
                leaf,
            );
        }
        for k in 0..7u8 {
            if hand[k as usize] == 0 {
                continue;
            }
            hand[k as usize] -= 1;
            program[j] = k;
            let stop =
                self.walk(j + 1, self.register(r, j as u8 + 1, k), fixed, hand, program, leaf);
            hand[k as usize] += 1;
            if stop {
                return true;
            }
        }
        false
    }

    /// A powered-down turn (RR-4.4) after the end of turn `r`: damage discarded, no cards, the
    /// board still acts (belts, pushers, gears, lasers, flags), then the turn's end.
    pub fn powered_down(&self, r: Solo) -> Solo {
        if r.state == DEAD || r.out || r.flags >= self.flags {
            return r;
        }
        let mut s = Solo { damage: 0, locked: [u8::MAX; 5], ..r };
        for reg in 1..=5 {
            s = self.register(s, reg, NONE);
        }
        self.end_turn(s, [u8::MAX; 5])
    }
}

/// Points of a robot in the model: 1,000 per flag, −25 per program card still needed
/// (`maps`: [`super::card_map`] per flag), −20 per damage and −60 more per locked register, −150
/// per life lost; touching the last flag 100,000, out −10,000. Damage weighs more than in
/// [`super::standing`]: alone, nothing else judges what it costs in later turns (fewer cards,
/// locked registers, RR-7); tried on seeds 1–24 of the four courses: 6/20 left a robot with a
/// locked register for six turns, 12/40 to 35/90 gave the same counts within a turn.
pub fn standing(model: &Model, r: &Solo, maps: &[Vec<u16>]) -> f64 {
    if r.flags >= model.flags {
        return 100_000.0;
    }
    if r.out {
        return -10_000.0;
    }
    let map = &maps[r.flags as usize];
    let cards = if r.state == DEAD {
        (0..4).map(|f| map[r.archive as usize * 4 + f]).min().unwrap_or(u16::MAX).saturating_add(5)
    } else {
        map[r.state as usize]
    };
    let cards = if cards == u16::MAX { 40.0 } else { cards as f64 };
    let locked = r.damage.saturating_sub(4) as f64;
    let mut p = 1000.0 * r.flags as f64
        - 25.0 * cards
        - 20.0 * r.damage as f64
        - 60.0 * locked
        - 150.0 * (3u8.saturating_sub(r.lives)) as f64;
    if r.state == DEAD {
        p -= 40.0;
    }
    p
}

/// `n` cards dealt at random from `pool` (kind counts), as kind counts.
pub fn deal(pool: [u8; 7], n: usize, rng: &mut engine::Rng) -> [u8; 7] {
    let mut pool = pool;
    let mut total: u32 = pool.iter().map(|&c| c as u32).sum();
    let mut hand = [0u8; 7];
    for _ in 0..n {
        if total == 0 {
            break;
        }
        let mut x = rng.below(total);
        for k in 0..7 {
            if x < pool[k] as u32 {
                pool[k] -= 1;
                hand[k] += 1;
                break;
            }
            x -= pool[k] as u32;
        }
        total -= 1;
    }
    hand
}

/// The next deal of a robot with `damage` whose locked registers hold `locked`: the kinds
/// dealt from (RR-4.1: every card not in a register) and how many (RR-7.1: 9 − damage).
fn next_deal(damage: u8, locked: [u8; 5]) -> ([u8; 7], usize) {
    let mut pool = DECK;
    for &k in locked.iter().filter(|&&k| k != u8::MAX) {
        pool[k as usize] = pool[k as usize].saturating_sub(1);
    }
    (pool, 9usize.saturating_sub(damage as usize))
}

/// What the next deal depends on: damage (cards dealt) and the locked kinds (not in the deck).
type DealKey = (u8, [u8; 5]);

/// The expectation over the next deal: for a robot at the end of a turn, the mean over `hands`
/// sampled deals of the best program's [`standing`] at the end of the next turn. A destroyed
/// robot re-enters facing the best way for that mean (it chooses before the deal).
pub struct Expectation<'a> {
    pub model: &'a Model,
    pub maps: &'a [Vec<u16>],
    /// Deals per robot state.
    pub hands: usize,
    /// Deals are drawn from this seed for every state alike (common random numbers).
    pub seed: u64,
    cache: Vec<(DealKey, Vec<[u8; 7]>)>,
}

impl<'a> Expectation<'a> {
    pub fn new(model: &'a Model, maps: &'a [Vec<u16>], hands: usize, seed: u64) -> Expectation<'a> {
        Expectation { model, maps, hands, seed, cache: Vec::new() }
    }

    /// The deals a robot with this damage and these locked kinds may get (cached).
    fn deals(&mut self, damage: u8, locked: [u8; 5]) -> usize {
        if let Some(i) = self.cache.iter().position(|(k, _)| *k == (damage, locked)) {
            return i;
        }
        let (pool, n) = next_deal(damage, locked);
        let mut rng = engine::Rng::seeded(self.seed);
        let hands = (0..self.hands).map(|_| deal(pool, n, &mut rng)).collect();
        self.cache.push(((damage, locked), hands));
        self.cache.len() - 1
    }

    /// The best program's end of turn by [`standing`] from `r` with `hand`.
    pub fn best(&self, r: Solo, hand: [u8; 7]) -> f64 {
        let mut best = f64::MIN;
        self.model.programs(r, hand, &mut |end, _| {
            let v = standing(self.model, &end, self.maps);
            if v > best {
                best = v;
            }
            end.flags >= self.model.flags
        });
        best
    }

    /// The value of a robot at the end of a turn: its expected best next turn.
    pub fn value(&mut self, r: Solo) -> f64 {
        if r.flags >= self.model.flags {
            return 1_000_000.0;
        }
        if r.out {
            return -10_000.0;
        }
        let d = self.deals(r.damage, r.locked);
        let mut best = f64::MIN;
        for s in starts(r) {
            let total: f64 = self.cache[d].1.iter().map(|&h| self.best(s, h)).sum();
            best = best.max(total / self.hands.max(1) as f64);
        }
        best
    }

    /// One deal deeper than [`Expectation::value`]: the mean over `deals` sampled next hands
    /// (drawn from `seed`) of the best end of the next turn by [`Expectation::value`], among
    /// the `width` best by [`standing`] of each hand.
    pub fn value_deep(&mut self, r: Solo, deals: usize, width: usize, seed: u64) -> f64 {
        if r.flags >= self.model.flags {
            return 10_000_000.0;
        }
        if r.out {
            return -10_000.0;
        }
        let (pool, n) = next_deal(r.damage, r.locked);
        let mut rng = engine::Rng::seeded(seed);
        let hands: Vec<[u8; 7]> = (0..deals).map(|_| deal(pool, n, &mut rng)).collect();
        let mut best = f64::MIN;
        for s in starts(r) {
            let mut total = 0.0;
            for &h in &hands {
                let mut ends: Vec<(f64, Solo)> = outcomes(self.model, s, h)
                    .into_iter()
                    .map(|(e, _)| (standing(self.model, &e, self.maps), e))
                    .collect();
                ends.sort_by(|a, b| b.0.total_cmp(&a.0));
                total += ends
                    .iter()
                    .take(width.max(1))
                    .map(|&(_, e)| self.value(e))
                    .fold(f64::MIN, f64::max);
            }
            best = best.max(total / deals.max(1) as f64);
        }
        best
    }
}

/// Where a robot at the end of a turn starts the next: where it is, or (destroyed) on its
/// archive facing any way.
fn starts(r: Solo) -> impl Iterator<Item = Solo> {
    let dead = r.state == DEAD;
    (0..if dead { 4 } else { 1 })
        .map(move |f| if dead { Solo { state: r.archive * 4 + f, ..r } } else { r })
}

/// The robot of `seat` as the model sees it (`None` when it is not on the board).
pub fn solo(model: &Model, robot: &roborally::Robot) -> Option<Solo> {
    let at = robot.at?;
    let mut locked = [u8::MAX; 5];
    for (k, slot) in locked.iter_mut().enumerate() {
        if robot.locked(k)
            && let Some(c) = robot.registers[k]
        {
            *slot = c.card as u8;
        }
    }
    Some(Solo {
        state: model.state(at, robot.facing),
        flags: robot.flags_touched,
        damage: robot.damage,
        lives: robot.lives,
        archive: model.cell(robot.archive),
        locked,
        out: robot.out,
    })
}

/// Every distinct end of the turn from `start` with `hand` (kind counts), each with the
/// first program (kinds) that leads there.
pub fn outcomes(model: &Model, start: Solo, hand: [u8; 7]) -> Vec<(Solo, [u8; 5])> {
    let mut seen = std::collections::HashMap::new();
    let mut out = Vec::new();
    model.programs(start, hand, &mut |end, program| {
        seen.entry(end).or_insert_with(|| {
            out.push((end, program));
        });
        false
    });
    out
}
