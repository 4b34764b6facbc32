//! Race setup (BB-3, BB-13 setup): board, bots, variants; the grid draw and the card draw.

use crate::cards::{Card, deck_iter};
use crate::settings::Variants;
use crate::state::{Bot, BumpingBots, Obstacle, Phase, Turn};
use crate::track::{Board, BoardSpec, ObstacleKind, Spin};
use engine::{Rng, Seat, SetupError};
use grid::{Hex, HexDir};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// BB-1: a race is for 2 to 9 bots.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=9;
/// Laps of a race: 2 or 3 by the rules (intro), and 1 for the short race Robodrome also
/// offers (docs/bumping-bots.md).
pub const LAPS: std::ops::RangeInclusive<u8> = 1..=3;
/// The track a new race is run on when none is chosen.
pub const DEFAULT_TRACK: &str = "oval";

/// One bot as a setup places it (BB-13). Fields left out take the starting values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSetup {
    pub seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<HexDir>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u8>,
    #[serde(default)]
    pub reverse: bool,
    #[serde(default)]
    pub laps: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<Card>>,
    #[serde(default)]
    pub engine_turns: u8,
    #[serde(default)]
    pub changed_direction: bool,
}

impl BotSetup {
    /// A bot that takes the start grid with the starting values (BB-3).
    pub fn on_grid(seat: u8) -> BotSetup {
        BotSetup {
            seat: Seat(seat),
            at: None,
            facing: None,
            speed: None,
            reverse: false,
            laps: 0,
            started: None,
            cards: None,
            engine_turns: 0,
            changed_direction: false,
        }
    }
}

/// Everything a race starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub board: BoardSpec,
    pub bots: Vec<BotSetup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    #[serde(default)]
    pub variants: Variants,
    /// BB-11.2: championship points so far, by seat (for `reverse_standings`).
    #[serde(default)]
    pub standings: Vec<i32>,
    /// BB-11.2: an explicit grid order (seats, front first) instead of the random draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_order: Option<Vec<Seat>>,
    /// The "last player" clock (`docs/bumping-bots.md`, a setting, not a rule of the
    /// booklet): the player of the round's last bot to act has this many seconds for each of
    /// its decisions, then `time_up` applies. 0 (the default): off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_player_seconds: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Setup {
    /// A fresh race: `bots` bots on the start grid of `board`.
    pub fn race(board: BoardSpec, bots: u8) -> Setup {
        Setup {
            board,
            bots: (0..bots).map(BotSetup::on_grid).collect(),
            round: None,
            to_act: None,
            variants: Variants::default(),
            standings: Vec::new(),
            grid_order: None,
            last_player_seconds: 0,
        }
    }
}

fn err(problems: Vec<String>) -> Result<(), SetupError> {
    if problems.is_empty() { Ok(()) } else { Err(SetupError { problems }) }
}

impl BumpingBots {
    pub(crate) fn from_setup(setup: &Setup, seed: u64) -> Result<BumpingBots, SetupError> {
        let board = crate::tracks::shared_board(&setup.board).map_err(|p| SetupError {
            problems: p.into_iter().map(|(w, m)| format!("board.{w}: {m}")).collect(),
        })?;
        Self::from_parts(board, setup, seed)
    }

    /// As `Game::new`, on a board already built from `setup.board` (the caller's promise).
    pub fn on_board(
        board: Arc<Board>,
        setup: &Setup,
        seed: u64,
    ) -> Result<BumpingBots, SetupError> {
        let mut g = Self::from_parts(board, setup, seed)?;
        g.start();
        Ok(g)
    }

    fn from_parts(board: Arc<Board>, setup: &Setup, seed: u64) -> Result<BumpingBots, SetupError> {
        let mut g = BumpingBots {
            board,
            cells_table: setup.variants.cells_table(),
            variants: Variants::default(),
            last_player_seconds: 0,
            bots: Vec::new(),
            obstacles: Vec::new(),
            round: 1,
            order: Vec::new(),
            cursor: 0,
            phase: Phase::Over,
            finishing: Vec::new(),
            grid_rank: Vec::new(),
            deck: Vec::new(),
            picks_left: Vec::new(),
            standings: Vec::new(),
            rng: Rng::seeded(seed),
            occ: Vec::new(),
        };
        g.refill(setup, seed)?;
        Ok(g)
    }

    /// A finished (or any) race made the new race of `setup` and `seed` in place, on its own
    /// board, keeping its vectors (`robodrome sim`'s reuse, `games::Registered::sim_reset`;
    /// issue 17). `setup.board` must be the spec `self`'s board was built from (the caller's
    /// promise, asserted in debug builds): the board cache's comparison of the whole spec is
    /// what this saves. The same draws in the same order as [`engine::Game::new`], so the
    /// same race (`tests/reset.rs`). On an error `self` is left half made: drop it.
    pub fn reset(&mut self, setup: &Setup, seed: u64) -> Result<(), SetupError> {
        debug_assert!(self.board.spec == setup.board, "reset on another board");
        self.refill(setup, seed)?;
        self.start();
        Ok(())
    }

    /// Everything of a new race but the board (BB-3: the grid draw, the card draw), written
    /// over `self`'s fields, reusing their memory.
    fn refill(&mut self, setup: &Setup, seed: u64) -> Result<(), SetupError> {
        check_seats(setup)?;
        check_championship(setup)?;
        self.rng = Rng::seeded(seed);
        let n = setup.bots.len();
        self.bots.truncate(n);
        for (b, s) in self.bots.iter_mut().zip(&setup.bots) {
            bot_into(b, s);
        }
        for s in &setup.bots[self.bots.len()..] {
            self.bots.push(bot_from(s));
        }
        let grid_seats = grid_order(setup, &mut self.rng);
        self.grid_rank.clear();
        self.grid_rank.resize(n, u32::MAX);
        place_on_grid(&self.board, &mut self.bots, &grid_seats)?;
        for (i, spot) in self.board.start_grid().iter().enumerate() {
            if let Some(b) = self.bots.iter().find(|b| b.at == Some(spot.at)) {
                self.grid_rank[b.seat.index()] = i as u32;
            }
        }
        check_positions(&self.board, &self.bots)?;
        self.round = setup.round.unwrap_or(1).max(1);
        self.obstacles.clear();
        self.obstacles.extend(obstacles_iter(&self.board.spec));
        self.cells_table = setup.variants.cells_table();
        self.variants.clone_from(&setup.variants);
        self.last_player_seconds = setup.last_player_seconds;
        // The race order is computed afresh below: no previous order (BB-2.2's first round).
        self.order.clear();
        self.cursor = 0;
        // Replaced below, once the race order is known.
        self.phase = Phase::Over;
        self.finishing.clear();
        self.deck.clear();
        self.deck.extend(deck_iter());
        self.picks_left.clear();
        self.picks_left.resize(n, 0);
        self.standings.clone_from(&setup.standings);
        self.fill_occupancy();
        self.check_obstacle_cells()?;
        let (order, len) = self.sorted_order();
        self.order.extend_from_slice(&order[..len]);
        self.deal_cards(setup);
        self.cursor = match setup.to_act {
            Some(s) => self
                .order
                .iter()
                .position(|&o| o == s)
                .ok_or_else(|| SetupError::one("to_act: no such seat"))?,
            None => 0,
        };
        if self.bots[self.order[self.cursor].index()].finished {
            return Err(SetupError::one("to_act: that bot has finished"));
        }
        self.phase = match self.next_picker() {
            Some(s) => Phase::Pick(s),
            None => Phase::Turn(Box::new(Turn::new(self.order[self.cursor].index()))),
        };
        Ok(())
    }

    /// BB-3: bots without `cards` draw as many as the race has laps (or `cards_per_player`),
    /// in seat order, from the shuffled 45-card deck; with `choose_cards` they pick instead.
    fn deal_cards(&mut self, setup: &Setup) {
        for b in &self.bots {
            for c in &b.cards {
                if let Some(i) = self.deck.iter().position(|d| d == c) {
                    self.deck.remove(i);
                }
            }
        }
        self.rng.shuffle(&mut self.deck);
        let per = setup.variants.cards_per_player.unwrap_or(self.board.laps());
        for (i, bs) in setup.bots.iter().enumerate() {
            if bs.cards.is_some() {
                continue;
            }
            if setup.variants.choose_cards {
                let promised: usize = self.picks_left.iter().map(|&p| p as usize).sum();
                self.picks_left[i] = per.min(self.deck.len().saturating_sub(promised) as u8);
                continue;
            }
            for _ in 0..per {
                if let Some(c) = self.deck.pop() {
                    self.bots[i].cards.push(c);
                }
            }
            self.bots[i].hand_changed();
        }
    }

    pub(crate) fn next_picker(&self) -> Option<Seat> {
        self.picks_left.iter().position(|&p| p > 0).map(|i| Seat(i as u8))
    }

    fn check_obstacle_cells(&self) -> Result<(), SetupError> {
        let mut problems = Vec::new();
        for b in &self.bots {
            if let Some(h) = b.at {
                let clash = self.obstacles.iter().any(|o| {
                    o.at == h || (o.kind == ObstacleKind::Motorised && o.arm_cells().contains(&h))
                });
                if clash {
                    problems.push(format!("bots[{}]: {} holds an obstacle", b.seat.0, h));
                }
            }
        }
        err(problems)
    }
}

fn check_seats(setup: &Setup) -> Result<(), SetupError> {
    let n = setup.bots.len();
    let mut problems = Vec::new();
    if !(1..=9).contains(&n) {
        problems.push(format!("bots: a race has 1 to 9 bots (BB-1.1), got {n}"));
    }
    for (i, b) in setup.bots.iter().enumerate() {
        if b.seat.index() != i {
            problems.push(format!(
                "bots[{i}].seat: seats are listed in order from 0, got {}",
                b.seat.0
            ));
        }
        let max = if b.reverse { 3 } else { 6 };
        if let Some(v) = b.speed
            && (v < 1 || v > max)
        {
            problems.push(format!("bots[{i}].speed: 1..={max}, got {v}"));
        }
    }
    err(problems)
}

/// BB-11: standings have one entry per bot (or none); teams exist only with 4, 6 or 8 bots (pairs)
/// or 9 (three triples), and split the seats into disjoint teams of that size.
fn check_championship(setup: &Setup) -> Result<(), SetupError> {
    let n = setup.bots.len();
    let mut problems = Vec::new();
    let s = setup.standings.len();
    if s != 0 && s != n {
        problems.push(format!("standings: one entry per bot ({n}), got {s}"));
    }
    if setup.variants.reverse_standings && s == 0 && setup.grid_order.is_none() {
        problems.push(format!(
            "standings: reverse_standings needs the standings, one entry per bot ({n}) (BB-11.2)"
        ));
    }
    if let Some(teams) = setup.variants.team_list(n) {
        problems.extend(crate::championship::check_teams(&teams, n));
    }
    err(problems)
}

/// [`bot_from`] written over `b`, keeping its card lists' memory.
fn bot_into(b: &mut Bot, s: &BotSetup) {
    let mut cards = std::mem::take(&mut b.cards);
    let mut used = std::mem::take(&mut b.used_cards);
    cards.clear();
    used.clear();
    if let Some(c) = &s.cards {
        cards.extend_from_slice(c);
    }
    *b = Bot { cards, used_cards: used, ..bot_from_cards(s, Vec::new()) };
    b.hand_changed();
}

fn bot_from(s: &BotSetup) -> Bot {
    bot_from_cards(s, s.cards.clone().unwrap_or_default())
}

fn bot_from_cards(s: &BotSetup, cards: Vec<Card>) -> Bot {
    Bot {
        seat: s.seat,
        at: s.at,
        facing: s.facing.unwrap_or_default(),
        speed: s.speed.unwrap_or(1),
        reverse: s.reverse,
        laps: s.laps,
        started: s.started.unwrap_or(s.at.is_some()),
        finished: false,
        finished_place: None,
        used_cards: Vec::new(),
        engine_turns: s.engine_turns,
        changed_direction: s.changed_direction,
        // Set with the occupancy table, once the board is known (`fill_occupancy`).
        k: 0,
        magnet: cards.contains(&Card::Magnet),
        cards,
    }
}

/// BB-3 / BB-11.2: the order in which unplaced bots take the grid: explicit, reverse standings,
/// or drawn at random (seeded).
fn grid_order(setup: &Setup, rng: &mut Rng) -> Vec<Seat> {
    let unplaced: Vec<Seat> =
        setup.bots.iter().filter(|b| b.at.is_none()).map(|b| b.seat).collect();
    if let Some(o) = &setup.grid_order {
        // The listed seats first (once each), then any unplaced seat the list forgot.
        let mut order: Vec<Seat> = Vec::new();
        for s in o.iter().chain(unplaced.iter()) {
            if unplaced.contains(s) && !order.contains(s) {
                order.push(*s);
            }
        }
        return order;
    }
    if setup.variants.reverse_standings && setup.standings.len() == setup.bots.len() {
        // BB-11.2: the lowest standing takes the front place. **Decision:** bots level on
        // points draw lots among themselves for their places (seeded), as the booklet draws
        // the whole grid for the first race: no seat is favoured by its number.
        let mut seats: Vec<Seat> = unplaced;
        rng.shuffle(&mut seats);
        seats.sort_by_key(|s| setup.standings[s.index()]);
        return seats;
    }
    let mut seats = unplaced;
    rng.shuffle(&mut seats);
    seats
}

fn place_on_grid(board: &Board, bots: &mut [Bot], order: &[Seat]) -> Result<(), SetupError> {
    let taken: Vec<Hex> = bots.iter().filter_map(|b| b.at).collect();
    let mut free = board.start_grid().iter().filter(|g| !taken.contains(&g.at));
    for s in order {
        let spot = free
            .next()
            .ok_or_else(|| SetupError::one("start_grid: not enough places for the bots"))?;
        let b = &mut bots[s.index()];
        b.at = Some(spot.at);
        b.facing = spot.facing;
        b.started = false;
    }
    Ok(())
}

fn check_positions(board: &Board, bots: &[Bot]) -> Result<(), SetupError> {
    let mut problems = Vec::new();
    for (i, b) in bots.iter().enumerate() {
        let Some(h) = b.at else { continue };
        if !board.on(h) {
            problems.push(format!("bots[{i}].at: {h} is off the track"));
        }
        if bots[..i].iter().any(|o| o.at == Some(h)) {
            problems.push(format!("bots[{i}].at: {h} already holds a bot"));
        }
    }
    err(problems)
}

/// The obstacles of a spec at the start of a race.
fn obstacles_iter(spec: &BoardSpec) -> impl Iterator<Item = Obstacle> + '_ {
    spec.obstacles.iter().map(|o| {
        let arm = o.arms.map(|a| a[0]).unwrap_or_default();
        Obstacle::new(o.kind, o.at, arm, o.turn.unwrap_or(Spin::Cw))
    })
}

/// The `setup` object of a scenario file (BB-13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSetup {
    #[serde(default)]
    pub bots: Vec<BotSetup>,
    /// Number of bots when some are not listed (they take the start grid).
    #[serde(default)]
    pub players: Option<u8>,
    #[serde(default)]
    pub round: Option<u32>,
    #[serde(default)]
    pub to_act: Option<Seat>,
    #[serde(default)]
    pub standings: Vec<i32>,
    #[serde(default)]
    pub grid_order: Option<Vec<Seat>>,
}

impl ScenarioSetup {
    /// The race setup, or a problem as (path inside `setup`, message).
    pub fn into_setup(
        self,
        board: BoardSpec,
        variants: Variants,
    ) -> Result<Setup, (String, String)> {
        let listed = self.bots.iter().map(|b| b.seat.0 as usize + 1).max().unwrap_or(0);
        let n = listed.max(self.players.unwrap_or(0) as usize);
        if n == 0 {
            return Err(("bots".into(), "list the bots, or give \"players\"".into()));
        }
        let mut bots: Vec<BotSetup> = (0..n as u8).map(BotSetup::on_grid).collect();
        let mut seen = vec![false; n];
        for (i, b) in self.bots.into_iter().enumerate() {
            let k = b.seat.index();
            if seen[k] {
                return Err((format!("bots[{i}].seat"), format!("seat {k} listed twice")));
            }
            seen[k] = true;
            bots[k] = b;
        }
        Ok(Setup {
            board,
            bots,
            round: self.round,
            to_act: self.to_act,
            variants,
            standings: self.standings,
            grid_order: self.grid_order,
            last_player_seconds: 0,
        })
    }
}
