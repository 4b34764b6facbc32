//! Autoscooter policies: rams that score, no barriers, no frontal losses (AS-5.5).

use crate::HasBots;
use autoscooter::board::{Cell, NONE};
use autoscooter::playout::{Move, Moves, PlanPreviews};
use autoscooter::{Action, Autoscooter, Event, Letter, LetterInput, NoEvents, Owed};
use engine::{Game, Rng, Seat};
use grid::HexDir;

impl HasBots for Autoscooter {
    type Scratch = Kept;

    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        match game.owed(seat) {
            Some(Owed::Plot(car)) => plot(game, car, rng),
            Some(Owed::PlotWild) => plot_wild(game, seat, rng),
            Some(Owed::Start(car)) => start(game, seat, car, rng),
            Some(Owed::Payment) => payment(game, seat, &game.legal_actions(seat)),
            None => panic!("{seat} owes no decision"),
        }
    }

    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Action {
        match game.owed(seat) {
            // Inside playouts: the best of three random letters, not of all sixteen.
            Some(Owed::Plot(car)) => plot_among(game, car, 3, rng),
            _ => Self::heuristic(game, seat, rng),
        }
    }

    /// No event list: a playout reads only the state after ([`autoscooter::NoEvents`]).
    fn playout_apply(
        game: &mut Self,
        seat: Seat,
        action: &Action,
        _events: &mut Vec<Event>,
    ) -> bool {
        game.apply_to(seat, action, &mut NoEvents).is_ok()
    }

    /// The rules' own random step ([`Autoscooter::play_random`]: the draws and the state of
    /// `sample_action` then `apply`), without building the action or any event.
    fn playout_random(
        game: &mut Self,
        seat: Seat,
        rng: &mut Rng,
        _events: &mut Vec<Event>,
    ) -> Option<bool> {
        Some(game.play_random(seat, rng, &mut NoEvents)?.is_ok())
    }

    /// The playout of [`crate::generic_rollout`] on Autoscooter's own path (issue 17): the
    /// same draws in the same order and the same state after (`tests::rollout_is_the_generic_one`),
    /// but the seat drawn without building a decision, plots played without an `Action`
    /// ([`Autoscooter::plot_to`]) and the previews of each planning phase computed once
    /// ([`PlanPreviews`]) instead of once per plot decision; those of the search's root
    /// position kept from one playout to the next ([`Kept`]).
    fn rollout(
        game: &mut Self,
        rng: &mut Rng,
        steps: u32,
        heuristic_share: u32,
        _events: &mut Vec<Event>,
        kept: &mut Kept,
    ) {
        let root = kept.start(game);
        let later = &mut kept.later;
        for _ in 0..steps {
            let Some(s) = game.draw_seat(rng) else { return };
            let applied = if autoscooter::playout::below(rng, 256) < heuristic_share {
                // `HasBots::playout` then `playout_apply`, the plots without an `Action`; a
                // plot of the seat's own cars found without `owed`.
                let owed = match game.owed_plot(s) {
                    Some(car) => Some(Owed::Plot(car)),
                    None => game.owed(s),
                };
                match owed {
                    Some(Owed::Plot(car)) => {
                        // The root's planning phase is the round the playout began planning in.
                        let phase = match root {
                            Some(round) if round == game.round() => &mut kept.root,
                            _ => &mut *later,
                        };
                        let (number, letter) = best_plot(game, car, 3, rng, phase);
                        game.plot_to(s, car, number, letter, &mut NoEvents).is_ok()
                    }
                    Some(Owed::Start(car)) => {
                        // The start by cell, without an `Action` (issue 17 round 7).
                        let (moved, _, facing) = start_choice(game, s, car, rng);
                        game.start_to(s, car, moved, facing, &mut NoEvents).is_ok()
                    }
                    _ => {
                        let action = Self::heuristic(game, s, rng);
                        game.apply_to(s, &action, &mut NoEvents).is_ok()
                    }
                }
            } else {
                match game.play_random(s, rng, &mut NoEvents) {
                    Some(r) => r.is_ok(),
                    None => return,
                }
            };
            if !applied {
                return;
            }
        }
    }

    fn evaluate(game: &Self, seat: Seat) -> f64 {
        // Share of first place at the end; before the end, the score margin over the best
        // other seat, squashed to 0..1.
        let margin = crate::margin(game, seat, 4.0, |s| game.seat_score(s) as f64);
        match game.outcome() {
            Some(o) => {
                let win =
                    if o.winners().contains(&seat) { 1.0 / o.winners().len() as f64 } else { 0.0 };
                0.75 * win + 0.25 * margin
            }
            None => margin,
        }
    }

    fn candidates(game: &Self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        let legal = game.legal_actions(seat);
        let Some(Action::Plot { car, .. }) = legal.first() else { return legal };
        // Numbers matter only by their order against the others': lowest, middle, highest.
        let car = *car;
        let c = game.cars().find(|c| c.id == car).expect("the car exists");
        let unused: Vec<u8> = c.unused_numbers().collect();
        let mut numbers = vec![unused[0], unused[unused.len() / 2], unused[unused.len() - 1]];
        numbers.dedup();
        let letters: Vec<Option<Letter>> = if c.speed == 0 {
            vec![None]
        } else {
            let (lo, hi) = Letter::range_at(c.speed);
            (lo..=hi).map(Letter::from_index).collect()
        };
        let mut out: Vec<Action> = numbers
            .iter()
            .flat_map(|&n| letters.iter().map(move |&l| Action::plot(car, n, l)))
            .collect();
        let h = plot(game, car, rng);
        if !out.contains(&h) {
            out.push(h);
        }
        out
    }
}

/// What Autoscooter's playouts keep from one to the next of one search ([`HasBots::Scratch`]):
/// the plot heuristic's [`Phase`] of the root's planning phase. Every simulation of a search
/// starts from a determinization of the root, which changes only plots (AS-4.1: they are
/// secret); the cars stand, face and move as at the root, and so the phase's moves and tables
/// (but not the plans of plotted cars) are the same in every simulation that begins planning
/// there (issue 17 round 8). Kept by the position, not by trust: a playout that begins on
/// another position starts the root's phase anew.
pub struct Kept {
    /// The position `root` belongs to: the round (planning), the cars and the wild car.
    position: Option<(u8, [Option<autoscooter::Car>; 8], Option<u8>)>,
    root: Phase,
    /// The phases after the root's, anew in every playout.
    later: Phase,
}

impl Default for Kept {
    fn default() -> Self {
        Kept { position: None, root: Phase::new(), later: Phase::new() }
    }
}

impl Kept {
    /// Ready for a playout from `game`: the round whose planning phase is the root's, if the
    /// playout begins planning (while planning no car moves, so that round's plots are all
    /// made on this position), the root's phase kept when `game` stands as it did.
    fn start(&mut self, game: &Autoscooter) -> Option<u8> {
        self.later.reset();
        if !game.planning() {
            return None;
        }
        // The moves of a phase read the cars (cells, facings, speeds, owners), the wild car,
        // the board and the variants; the last two are the game's for a whole search, and
        // `used` (in the cars) changes only after planning.
        let position = (game.round(), game.car_slots(), game.wild_car());
        if self.position.as_ref() != Some(&position) {
            self.position = Some(position);
            self.root.reset();
        } else {
            // Plans are plots, which the determinization draws anew.
            self.root.tables.planned = 0;
        }
        Some(game.round())
    }
}

/// What the plot heuristic keeps for a planning phase, in which no car moves and a plot, once
/// made, stays (AS-4.1): the previews of the cars' moves and the phase's [`Tables`].
struct Phase {
    previews: PlanPreviews,
    tables: Tables,
}

impl Phase {
    fn new() -> Self {
        Phase {
            previews: PlanPreviews::new(),
            tables: Tables {
                round: None,
                by_cell: [0; 256],
                owners: [None; 8],
                cars_of: [0; 8],
                moving: 0,
                planned: 0,
                plans: [None; 8],
            },
        }
    }

    /// Forget everything (another position).
    fn reset(&mut self) {
        self.previews.clear();
        self.tables.round = None;
    }
}

/// What every plot of one planning phase reads, built once per phase (issue 17): the cars'
/// owners and who is moving do not change while the players plot, and a car's plan, once
/// made, stays until the round's action (AS-4.1: a second plot is refused).
struct Tables {
    /// The round the tables belong to (they are asked for only while planning: no car moves).
    round: Option<u8>,
    /// The cells each moving car could reach next round straight ahead, within its speed + 1
    /// hexes (the plot heuristic's danger, [`threatens`]), as a bit per car id on each cell,
    /// instead of testing every threat at every letter.
    by_cell: [u8; 256],
    /// Every car's owner, by id.
    owners: [Option<Seat>; 8],
    /// Each seat's cars, a bit per id.
    cars_of: [u8; 8],
    /// The owned cars that move (speed > 0), a bit per id.
    moving: u8,
    /// The cars whose entry in `plans` is known: plotted this phase.
    planned: u8,
    /// A plotted car's planned move ([`OwnPlan`]; `None`: it does not move).
    plans: [Option<OwnPlan>; 8],
}

impl Tables {
    /// The tables for `game`'s planning phase.
    #[inline]
    fn of(&mut self, game: &Autoscooter) -> &mut Tables {
        if self.round != Some(game.round()) {
            self.build(game);
        }
        self
    }

    #[inline(never)]
    fn build(&mut self, game: &Autoscooter) {
        self.round = Some(game.round());
        self.by_cell = [0; 256];
        self.owners = [None; 8];
        self.cars_of = [0; 8];
        self.moving = 0;
        self.planned = 0;
        let board = game.board();
        for c in game.cars() {
            self.owners[c.id as usize] = c.owner;
            let Some(owner) = c.owner else { continue };
            if let Some(mine) = self.cars_of.get_mut(owner.index()) {
                *mine |= 1 << c.id;
            }
            if c.speed == 0 {
                continue;
            }
            self.moving |= 1 << c.id;
            // Walked by the neighbour table while on the rink; past a hex off it, by hex
            // (a rink need not be convex: the line goes on where `threatens` looks).
            let mut cell = c.cell;
            for n in 1..c.speed as i32 + 2 {
                cell = if cell != NONE {
                    board.neighbour(cell, c.facing)
                } else {
                    board.cell(board.hex(c.cell).offset(c.facing, n)).unwrap_or(NONE)
                };
                if cell != NONE {
                    self.by_cell[cell as usize] |= 1 << c.id;
                }
            }
        }
    }

    /// The planned move of car `id` if it has a plot this phase (walked once, then kept).
    #[inline]
    fn plan(&mut self, game: &Autoscooter, moves: &mut Moves, id: u8) -> Option<OwnPlan> {
        if self.planned & (1 << id) != 0 {
            return self.plans[id as usize];
        }
        let plot = game.plot(id)?;
        let plan = plot.letter.and_then(|l| moves.route(id, l)).map(|r| OwnPlan {
            path: r.path,
            end: r.end,
            ahead: game.board().neighbour(r.end, r.facing),
        });
        self.plans[id as usize] = plan;
        self.planned |= 1 << id;
        plan
    }
}

/// A planned move of one of this player's other cars (AS-5.6: bumping one's own car pays),
/// by cell: the cells it passes, where it ends and the cell ahead of it there.
#[derive(Clone, Copy)]
struct OwnPlan {
    /// The cells passed, padded with `NONE` (as [`Move::path`]).
    path: [Cell; 3],
    end: Cell,
    ahead: Cell,
}

/// What a plot's score depends on besides the letter: read once per decision, not per letter.
struct PlotContext {
    car: u8,
    me: Option<Seat>,
    /// Every car's owner, by id (the cars themselves are found by cell: the occupancy).
    owners: [Option<Seat>; 8],
    /// The planned moves of this player's other cars.
    own_plans: arrayvec::ArrayVec<OwnPlan, 8>,
    /// Other seats' moving cars, a bit per id: whose reach next round threatens a move's end.
    enemies: u8,
}

impl PlotContext {
    /// An empty context for `car` of seat `me`, to [`PlotContext::fill`] where it stays (a
    /// context returned by value was copied, issue 17).
    #[inline(always)]
    fn empty(car: u8, me: Option<Seat>) -> Self {
        // At most 8 cars (AS-1): on the stack, no allocation per decision (issue 17).
        PlotContext { car, me, owners: [None; 8], own_plans: arrayvec::ArrayVec::new(), enemies: 0 }
    }

    /// The context from the phase's tables: the other cars of this seat with a plan, and the
    /// other seats' moving cars (a car of nobody's is neither).
    #[inline(always)]
    fn fill(&mut self, game: &Autoscooter, tables: &mut Tables, moves: &mut Moves) {
        self.owners = tables.owners;
        let mine = self.me.and_then(|s| tables.cars_of.get(s.index()).copied()).unwrap_or(0);
        self.enemies = tables.moving & !mine & !(1 << self.car);
        let mut others = mine & !(1 << self.car);
        while others != 0 {
            let id = others.trailing_zeros() as u8;
            others &= others - 1;
            if let Some(plan) = tables.plan(game, moves, id) {
                self.own_plans.push(plan);
            }
        }
    }
}

/// How good a move looks if made now: chits won, barriers and own cars avoided, room ahead,
/// in halves (every term is a multiple of ½, the chits' tenfold an integer). Returns the score
/// and whether the move rams for chits, or `None` when the score before the penalties for own
/// cars and threats (which only subtract) cannot beat `best` with this letter's tie-break
/// `jitter` ([`key`]): the choice is the same without them (issue 17).
#[inline(always)]
fn letter_score(
    game: &Autoscooter,
    ctx: &PlotContext,
    m: &Move,
    threats: &[u8; 256],
    jitter: u64,
    best: i64,
) -> Option<(i32, bool)> {
    let mut score = 20 * m.chits();
    if m.barrier() {
        score -= 10;
    }
    // Room ahead after the move: every option starts straight ahead (AS-3.2), so a car that
    // ends facing the barrier must crash next round. (By cell: a board's neighbour table is its
    // hexes' neighbours on the rink.)
    let board = game.board();
    let ahead = board.neighbour(m.end, m.facing);
    if ahead == NONE {
        score -= 12 + 2 * m.speed as i32;
    } else {
        match game.car_at(ahead).filter(|&id| id != ctx.car) {
            Some(id) => match ctx.owners[id as usize] {
                None => score -= 12,
                owner if owner == ctx.me => score -= 4,
                Some(_) => score += 2,
            },
            None => {
                if board.neighbour(ahead, m.facing) != NONE {
                    score += 2;
                }
            }
        }
    }
    // Slow cars turn sharply and lose little in a crash; speed 3 can only go straight on.
    score += [0, 2, 1, -4][m.speed.min(3) as usize];
    if key(score, jitter) <= best {
        return None;
    }
    // Stay out of the way of this player's own cars' planned moves: a cell of this move (its
    // path and end) on another's path. The paths are padded with `NONE`, which no cell of a
    // move is, so whole arrays compare without their lengths; `==` cell by cell rather than
    // `<[u8]>::contains`, a call of `memchr` per cell (issue 17 round 8).
    let mine = m.path.map(|h| if h == NONE { m.end } else { h });
    for op in &ctx.own_plans {
        let on = |h: Cell| (op.path[0] == h) | (op.path[1] == h) | (op.path[2] == h);
        if on(mine[0]) | on(mine[1]) | on(mine[2]) | on(m.end) {
            score -= 16;
        } else if ahead == op.end || op.ahead == m.end {
            score -= 6;
        }
    }
    // Danger at the end of the move: other seats' moving cars that could reach the hex next,
    // straight ahead of them and within their reach next round.
    score -= 3 * (threats[m.end as usize] & ctx.enemies).count_ones() as i32;
    Some((score, m.chits() > 0))
}

/// An option's rank: its score in halves, then its tie-break's 24 bits ([`jitter_bits`]).
///
/// The policies rank options by the `f64` score + [`jitter`], the first of equals kept. Scores
/// are multiples of ½ far below 2^20 and a tie-break is under 0.1 with distinct bits at least
/// 2^-24 / 10 apart, far more than the rounding of the sum: so the sum ranks as this key ranks,
/// equal keys being equal sums (`tests::keys_rank_as_the_sums`), and an integer compares faster.
#[inline(always)]
fn key(halves: i32, jitter: u64) -> i64 {
    ((halves as i64) << 24) | jitter as i64
}

/// Is `end` straight ahead of a car at `from` facing `facing`, within `reach` hexes? The same
/// as `from.line_to(end) == Some((facing, n))` with `n <= reach`, without trying the six
/// directions: `n` steps along `facing` from `from` land on `end` (issue 17). The policy reads
/// it through the phase's [`Threats`] table; the tests check the table against it.
#[cfg(test)]
fn threatens(from: grid::Hex, facing: HexDir, reach: i32, end: grid::Hex) -> bool {
    let n = from.distance(end);
    n > 0 && n <= reach && from.offset(facing, n) == end
}

/// A small random tie-break in 0..0.1 for the `k`-th option, from one draw per decision.
#[cfg(test)]
fn jitter(noise: u64, k: u32) -> f64 {
    jitter_bits(noise, k) as f64 / (1u64 << 24) as f64 / 10.0
}

/// [`jitter`]'s 24 bits: the tie-break is these bits / 2^24 / 10.
#[inline(always)]
fn jitter_bits(noise: u64, k: u32) -> u64 {
    let x = (noise ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xd6e8_feb8_6659_fd93);
    x >> 40
}

fn plot(game: &Autoscooter, car: u8, rng: &mut Rng) -> Action {
    plot_among(game, car, 16, rng)
}

/// The best plot among `tries` letters (all of them when `tries` covers the car's options).
fn plot_among(game: &Autoscooter, car: u8, tries: u32, rng: &mut Rng) -> Action {
    let (number, letter) = best_plot(game, car, tries, rng, &mut Phase::new());
    Action::plot(car, number, letter)
}

/// [`plot_among`]'s number and letter, with the previews of a planning phase (kept by a
/// playout for the whole phase).
fn best_plot(
    game: &Autoscooter,
    car: u8,
    tries: u32,
    rng: &mut Rng,
    phase: &mut Phase,
) -> (u8, Option<Letter>) {
    let c = *game.car_by_id(car).expect("the car exists");
    let first = c.nth_unused(0).expect("a number is left");
    // The highest unused number: the column's numbers ascend with its rows (AS-2.1).
    let free = !c.used & ((1u16 << autoscooter::sheet::ROUNDS) - 1);
    assert!(free != 0, "a number is left");
    let last = autoscooter::sheet::number(car, (15 - free.leading_zeros()) as u8);
    if c.speed == 0 {
        // Start late, when the others have moved.
        return (last, None);
    }
    let tables = phase.tables.of(game);
    let mut moves = phase.previews.on(game);
    let mut ctx = PlotContext::empty(car, c.owner);
    ctx.fill(game, tables, &mut moves);
    let threats = &tables.by_cell;
    let (lo, hi) = Letter::range_at(c.speed);
    let span = (hi - lo + 1) as u32;
    // The best so far as (key, letter, rams).
    let mut best = (i64::MIN, Letter::straight(c.speed), false);
    let noise = rng.next_u64();
    for k in 0..span.min(tries) {
        let i = if tries >= span { lo + k as u8 } else { lo + rng.below(span) as u8 };
        let l = Letter::from_index(i).expect("A–P");
        let j = jitter_bits(noise, k);
        // The letter is in the car's range: allowed at its speed.
        let m = moves.of(&c, l);
        let Some((score, rams)) = letter_score(game, &ctx, &m, threats, j, best.0) else {
            continue;
        };
        let key = key(score, j);
        if key > best.0 {
            best = (key, l, rams);
        }
    }
    // Strike first when a ram scores; otherwise act late, when the others have moved.
    let number = if best.2 { first } else { last };
    (number, Some(best.1))
}

fn plot_wild(game: &Autoscooter, seat: Seat, rng: &mut Rng) -> Action {
    // The wild car should hurt someone else: prefer a letter whose crash hits another seat's car.
    let w = game.wild_car().expect("a wild car");
    let wc = game.cars().find(|c| c.id == w).expect("the wild car exists");
    let (lo, hi) = Letter::range_at(wc.speed);
    let mut best = (f64::MIN, Letter::straight(wc.speed));
    let mut previews = game.previews(w);
    for i in lo..=hi {
        let l = Letter::from_index(i).expect("A–P");
        let mut s = rng.below(100) as f64 / 1000.0;
        if let Some(p) = previews.get(l)
            && let Some((_, Some(hit))) = p.crash
        {
            let owner = game.cars().find(|c| c.id == hit).and_then(|c| c.owner);
            s += if owner == Some(seat) { -5.0 } else { 3.0 };
        }
        if s > best.0 {
            best = (s, l);
        }
    }
    Action::PlotWild { letter: Some(LetterInput::Valid(best.1)) }
}

fn start(game: &Autoscooter, seat: Seat, car: u8, rng: &mut Rng) -> Action {
    let (_, to, facing) = start_choice(game, seat, car, rng);
    Action::Start { car, to: game.board().hex(to), facing }
}

/// The five facings a start may take after moving each way (AS-5.4: the five facings A–E allow, from the direction moved), in
/// the order the options are numbered: `HexDir::ALL[m].turn(-2..=2)`.
const START_FACINGS: [[HexDir; 5]; 6] = {
    let mut t = [[HexDir::E; 5]; 6];
    let mut m = 0;
    while m < 6 {
        let mut i = 0;
        while i < 5 {
            t[m][i] = HexDir::ALL[m].turn(i as i32 - 2);
            i += 1;
        }
        m += 1;
    }
    t
};

/// What stands on a cell for the start heuristic ([`start_choice`]'s table of the rink).
const FREE: u8 = 0;
const BARRIER: u8 = 1;
const CAR: u8 = 2;
const TARGET: u8 = 3;

/// A start's room and target in halves ([`key`]), by what stands on the three cells straight
/// ahead of it, `first << 4 | second << 2 | third`: a barrier right ahead is a trap (-5); open
/// space in front keeps options (+0.5: the second cell is on the rink); another seat's car
/// ahead is a target, worth 3, 2 or 1 as it is 1, 2 or 3 hexes away (the first car ahead
/// decides). One load instead of the branches on what stands where, whose outcome is random
/// in a playout (issue 17 round 8; `tests::start_halves_table_is_the_rule`).
const START_HALVES: [i8; 64] = {
    let mut t = [0i8; 64];
    let mut i = 0;
    while i < 64 {
        let (first, second, third) = ((i >> 4) as u8, ((i >> 2) & 3) as u8, (i & 3) as u8);
        t[i] = if first == BARRIER {
            -10
        } else {
            let target = if first == TARGET {
                6
            } else if first == FREE && second == TARGET {
                4
            } else if first == FREE && second == FREE && third == TARGET {
                2
            } else {
                0
            };
            (second != BARRIER) as i8 + target
        };
        i += 1;
    }
    t
};

/// [`start`]'s direction moved, cell and facing.
fn start_choice(
    game: &Autoscooter,
    seat: Seat,
    car: u8,
    rng: &mut Rng,
) -> (HexDir, autoscooter::board::Cell, HexDir) {
    let board = game.board();
    // What stands on each cell for this seat, by cell, the car itself not counted; the
    // barrier (`NONE`, the slot after every cell, which the neighbour table leads on to)
    // blocks the view. A table of the stack filled from the cars (they all stand on the rink):
    // the cells ahead are read without looking up a car and then its owner (issue 17).
    let mut on = [FREE; 256];
    on[NONE as usize] = BARRIER;
    let mut from = NONE;
    for c in game.cars() {
        if c.id == car {
            from = c.cell;
        } else {
            let target = c.owner.is_some() && c.owner != Some(seat);
            on[c.cell as usize] = if target { TARGET } else { CAR };
        }
    }
    // The best start so far as (key, direction moved, facing): every key is above `i64::MIN`,
    // so the first option is taken; the action is built once, at the end.
    let mut best = (i64::MIN, 0usize, 0usize);
    let noise = rng.next_u64();
    let mut option = 0;
    for (m, facings) in START_FACINGS.iter().enumerate() {
        let to = board.neighbour(from, HexDir::ALL[m]);
        if on[to as usize] != FREE {
            continue;
        }
        for (f, &facing) in facings.iter().enumerate() {
            // The three cells ahead, read whatever stands on them (past the barrier, `NONE`
            // leads to `NONE`): the table applies the rule.
            let ahead = board.neighbour(to, facing);
            let ahead2 = board.neighbour(ahead, facing);
            let ahead3 = board.neighbour(ahead2, facing);
            let seen = (on[ahead as usize] << 4) | (on[ahead2 as usize] << 2) | on[ahead3 as usize];
            let halves = START_HALVES[seen as usize & 63] as i32;
            let key = key(halves, jitter_bits(noise, option));
            option += 1;
            if key > best.0 {
                best = (key, m, f);
            }
        }
    }
    assert!(best.0 > i64::MIN, "a start is owed only when a neighbour is free");
    let (moved, facing) = (HexDir::ALL[best.1], START_FACINGS[best.1][best.2]);
    (moved, board.neighbour(from, moved), facing)
}

fn payment(game: &Autoscooter, seat: Seat, legal: &[Action]) -> Action {
    // Choose the colours that leave this seat the best score: try each option.
    let mut best = (i64::MIN, legal[0].clone());
    for a in legal {
        let mut g = game.clone();
        if g.apply(seat, a, &mut Vec::new()).is_ok() {
            let s = g.seat_score(seat);
            if s > best.0 {
                best = (s, a.clone());
            }
        }
    }
    best.1
}

#[cfg(test)]
#[path = "autoscooter_reference.rs"]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;
    use grid::Hex;

    /// A new game of 2 to 8 players (by `seed`) with the variants `bits` picks (where the player
    /// count allows them).
    fn new_game(seed: u64, bits: u64) -> Autoscooter {
        use autoscooter::{Setup, Variants, setup::WildCar};
        let players = 2 + (seed % 7) as usize;
        let colour = bits & 4 != 0;
        let variants = Variants {
            wild_car: (bits & 1 != 0 && (5..=7).contains(&players))
                .then_some(WildCar::Lowest(true)),
            jolting: bits & 2 != 0,
            colour_scoring: colour,
            per_car_scoring: colour && bits & 8 != 0 && players <= 4,
        };
        let setup = Setup::standard(players, false, variants).expect("a setup");
        Autoscooter::new(&setup, seed).expect("a game")
    }

    /// Random positions of every player count and variant, with the seat to move: every
    /// decision of 30 random games (2 to 8 players).
    fn positions(mut each: impl FnMut(&Autoscooter, Seat)) {
        use engine::harness::next_seat;
        for seed in 0..30u64 {
            let mut g = new_game(seed, seed / 2);
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            while let Some(d) = g.decision() {
                let seat = next_seat(&d, &mut rng).expect("a seat");
                each(&g, seat);
                let a = g.sample_action(seat, &mut rng).expect("an action");
                g.apply(seat, &a, &mut events).expect("legal");
            }
        }
    }

    /// Issue 17, round 5: the plot heuristic (previews of a planning phase kept, cars found by
    /// cell) and the start heuristic (by cell) choose what the code before the round chose
    /// (`autoscooter_reference.rs`, main `4cd1f964`), with the same draws: three letters as in
    /// a playout and all of them as in a decision, for every car a seat may plot at every
    /// decision of random games, and every start.
    #[test]
    fn heuristics_choose_what_they_chose_before() {
        let (mut plots, mut starts) = (0, 0);
        positions(|g, seat| {
            let mut cache = Phase::new();
            for car in g.cars().filter(|c| c.owner == Some(seat)).map(|c| c.id) {
                if g.plot(car).is_some() || !matches!(g.owed(seat), Some(Owed::Plot(_))) {
                    continue;
                }
                for (tries, seed) in [(3, 1), (3, 2), (16, 3)] {
                    let (mut a, mut b, mut c) =
                        (Rng::seeded(seed), Rng::seeded(seed), Rng::seeded(seed));
                    let want = reference::plot_among(g, car, tries, &mut a);
                    assert_eq!(plot_among(g, car, tries, &mut b), want);
                    // A cache kept over the phase answers as a fresh one.
                    let (n, l) = best_plot(g, car, tries, &mut c, &mut cache);
                    assert_eq!(Action::plot(car, n, l), want);
                    assert_eq!(a, b);
                    assert_eq!(a, c);
                    plots += 1;
                }
            }
            if let Some(Owed::Start(car)) = g.owed(seat) {
                for seed in 0..3 {
                    let (mut a, mut b) = (Rng::seeded(seed), Rng::seeded(seed));
                    assert_eq!(start(g, seat, car, &mut b), reference::start(g, seat, car, &mut a));
                    assert_eq!(a, b);
                    starts += 1;
                }
            }
        });
        assert!(plots > 3000 && starts > 100, "{plots} plots, {starts} starts");
    }

    /// Issue 17: Autoscooter's own rollout is the generic one — the same draws, the same state
    /// after — from positions of random games with 2 to 8 players and every variant, each
    /// determinized for the seat to move, for a playout of all heuristic, all random and mixed
    /// steps, to the horizon and to the end.
    #[test]
    fn rollout_is_the_generic_one() {
        use engine::harness::next_seat;
        let mut compared = 0;
        for seed in 0..40u64 {
            let mut g = new_game(seed, seed / 3);
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            let mut n = 0;
            // Kept over every playout of the game, as a search keeps it over its simulations:
            // positions change under it (issue 17 round 8).
            let mut kept = Kept::default();
            while let Some(d) = g.decision() {
                let seat = next_seat(&d, &mut rng).expect("a seat");
                if n % 7 == 3 {
                    for (share, steps) in [(128, 48), (256, 30), (0, 30), (200, 400)] {
                        // One determinization of the position, played out by the generic loop
                        // and by the game's rollout with `kept`: the same state and draws.
                        let same = |draw_seed: u64, kept: &mut Kept, what: &str| {
                            let mut draw = Rng::seeded(draw_seed);
                            let start = g.determinize(seat, &mut draw);
                            let (mut a, mut b) = (start.clone(), start);
                            let (mut ra, mut rb) = (draw.clone(), draw);
                            crate::generic_rollout(&mut a, &mut ra, steps, share, &mut Vec::new());
                            <Autoscooter as HasBots>::rollout(
                                &mut b,
                                &mut rb,
                                steps,
                                share,
                                &mut Vec::new(),
                                kept,
                            );
                            assert_eq!(a, b, "seed {seed}, step {n}, share {share}, {what}");
                            assert_eq!(ra, rb, "seed {seed}, step {n}, share {share}, {what}");
                        };
                        same(seed * 1000 + n, &mut kept, "kept over the game");
                        // Another determinization of the same position, with what the
                        // playouts kept (the root's phase, issue 17 round 8), and one with
                        // nothing kept: the same as the generic loop.
                        same(seed * 1000 + n + 500, &mut kept, "kept, another draw");
                        same(seed * 1000 + n + 500, &mut Kept::default(), "fresh");
                        compared += 1;
                    }
                }
                let a = g.sample_action(seat, &mut rng).expect("an action");
                g.apply(seat, &a, &mut events).expect("legal");
                n += 1;
            }
        }
        assert!(compared > 40 * 4 * 10, "{compared}");
    }

    /// Issue 17, round 6: the phase's threat table marks a cell for a car exactly when
    /// `threatens` says the car (owned, moving) reaches it, at every decision of random games
    /// of every player count.
    #[test]
    fn threat_table_is_threatens() {
        let mut tables = 0;
        let mut marked = 0;
        positions(|g, _| {
            let mut phase = Phase::new();
            let table = phase.tables.of(g).by_cell;
            let board = g.board();
            for cell in 0..board.len() as u8 {
                let end = board.hex(cell);
                let mut want = 0u8;
                for c in g.cars().filter(|c| c.owner.is_some() && c.speed > 0) {
                    if threatens(board.hex(c.cell), c.facing, (c.speed + 1) as i32, end) {
                        want |= 1 << c.id;
                    }
                }
                assert_eq!(table[cell as usize], want, "cell {cell}");
                marked += want.count_ones();
            }
            tables += 1;
        });
        assert!(tables > 500 && marked > 1000, "{tables} tables, {marked} marks");
    }

    /// Issue 17, round 8: [`START_HALVES`] is the start heuristic's rule (AS-5.4 options,
    /// `docs/bots.md`) for every three things that may stand ahead, read as the rule says it:
    /// the view stops at the barrier; the first car within three hexes decides the target.
    #[test]
    fn start_halves_table_is_the_rule() {
        let kinds = [FREE, BARRIER, CAR, TARGET];
        let mut seen = 0;
        for first in kinds {
            for second in kinds {
                for third in kinds {
                    let line = [first, second, third];
                    // The cells in view: up to the barrier, which ends the rink.
                    let view = line.iter().position(|&k| k == BARRIER).unwrap_or(3);
                    let rule = if view == 0 {
                        -10
                    } else {
                        let room = i32::from(view >= 2);
                        let car = line[..view].iter().position(|&k| k != FREE);
                        let target = match car {
                            Some(d) if line[d] == TARGET => 6 - 2 * d as i32,
                            _ => 0,
                        };
                        room + target
                    };
                    let i = (first << 4 | second << 2 | third) as usize;
                    assert_eq!(START_HALVES[i] as i32, rule, "{line:?}");
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 64);
    }

    /// Issue 17, round 6: an option's integer [`key`] ranks options as the `f64` sums the
    /// policies ranked them by: a plot's score plus its tie-break, and a start's tie-break plus
    /// its room plus its target (summed in that order), for scores over the policies' whole
    /// range and tie-breaks that differ in every bit, in the last bit only, or not at all.
    #[test]
    fn keys_rank_as_the_sums() {
        let mut rng = Rng::seeded(17);
        let bits = |rng: &mut Rng| rng.next_u64() >> 40;
        let tie = |j: u64| j as f64 / (1u64 << 24) as f64 / 10.0;
        assert_eq!(tie(jitter_bits(5, 3)), jitter(5, 3));
        for _ in 0..200_000 {
            // Plots: halves from chits' tenfold and the terms of `letter_score`.
            let (a, b) = (rng.below(2000) as i32 - 1000, rng.below(2000) as i32 - 1000);
            let b = if rng.below(4) == 0 { a } else { b };
            let ja = bits(&mut rng);
            let jb = match rng.below(3) {
                0 => ja,
                1 => (ja ^ 1).min((1 << 24) - 1),
                _ => bits(&mut rng),
            };
            let by_sum = a as f64 / 2.0 + tie(ja) > b as f64 / 2.0 + tie(jb);
            assert_eq!(key(a, ja) > key(b, jb), by_sum, "{a} {ja} / {b} {jb}");
            // Starts: room in {-5, 0, 0.5}, target in 0..=3.
            let start = |room: f64, target: f64, j: u64| {
                let mut s = tie(j);
                if room != 0.0 {
                    s += room;
                }
                if target != 0.0 {
                    s += target;
                }
                s
            };
            let rooms = [-5.0, 0.0, 0.5];
            let (ra, rb) = (rooms[rng.below(3) as usize], rooms[rng.below(3) as usize]);
            let (ta, tb) = (rng.below(4) as f64, rng.below(4) as f64);
            let (ha, hb) = (((ra + ta) * 2.0) as i32, ((rb + tb) * 2.0) as i32);
            assert_eq!(
                key(ha, ja) > key(hb, jb),
                start(ra, ta, ja) > start(rb, tb, jb),
                "{ra} {ta} {ja} / {rb} {tb} {jb}"
            );
        }
    }

    /// `threatens` is `line_to` in a straight line within reach, for every pair of hexes of a
    /// patch larger than any rink's reach.
    #[test]
    fn threatens_is_line_to_within_reach() {
        let patch: Vec<Hex> =
            (-5..=5).flat_map(|q| (-5..=5).map(move |r| Hex::new(q, r))).collect();
        for &from in &patch {
            for &end in &patch {
                for facing in HexDir::ALL {
                    for reach in 0..=4 {
                        let by_line =
                            matches!(from.line_to(end), Some((d, n)) if d == facing && n <= reach);
                        assert_eq!(
                            threatens(from, facing, reach, end),
                            by_line,
                            "{from:?} {end:?}"
                        );
                    }
                }
            }
        }
    }
}
