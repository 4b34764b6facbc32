//! The track (BB-2.1, BB-13 inline board): its serialisable spec and the dense board the rules
//! read. Walls are on cell edges; the border of the listed cells is walled.

use grid::{Hex, HexDir, HexEdge};
use serde::{Deserialize, Serialize};

/// Kind of an obstacle (BB-1.3, BB-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleKind {
    Fixed,
    Motorised,
    Mobile,
    Bumper,
}

impl ObstacleKind {
    pub fn name(self) -> &'static str {
        match self {
            ObstacleKind::Fixed => "fixed",
            ObstacleKind::Motorised => "motorised",
            ObstacleKind::Mobile => "mobile",
            ObstacleKind::Bumper => "bumper",
        }
    }
}

/// Sense of rotation of a motorised obstacle (BB-8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    Cw,
    Ccw,
}

impl Spin {
    pub fn steps(self) -> i32 {
        match self {
            Spin::Cw => 1,
            Spin::Ccw => -1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellSpec {
    pub at: Hex,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<i32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpot {
    pub at: Hex,
    pub facing: HexDir,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    pub kind: ObstacleKind,
    pub at: Hex,
    /// Motorised only: the two arm directions from the centre, `[d, d+3]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arms: Option<[HexDir; 2]>,
    /// Motorised only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Spin>,
}

fn default_laps() -> u8 {
    2
}

/// A track as written in a scenario (BB-13 inline board) or produced by the track-file loader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub cells: Vec<CellSpec>,
    #[serde(default)]
    pub walls: Vec<HexEdge>,
    #[serde(default)]
    pub finish_line: Vec<HexEdge>,
    #[serde(default)]
    pub start_grid: Vec<GridSpot>,
    #[serde(default)]
    pub obstacles: Vec<ObstacleSpec>,
    #[serde(default = "default_laps")]
    pub laps: u8,
}

/// What the rules know about one cell (dense storage, cheap lookups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cell {
    pub on: bool,
    /// Bit `d` set: the edge on side `d` is walled (track border included).
    pub walls: u8,
    /// Bit `d` set: stepping through side `d` crosses the line forwards (BB-2.3).
    pub line_fwd: u8,
    /// Bit `d` set: stepping through side `d` crosses the line backwards.
    pub line_back: u8,
    /// A fixed obstacle, a bumper centre or a motorised centre: never moves (BB-8).
    pub solid: bool,
    /// A bumper arrow (BB-8.4): direction + 1, or 0 for none.
    pub arrow: u8,
    pub progress: i32,
    pub lane: i32,
    /// The racing direction from this cell (the neighbour that gains most progress): + 1, 0 none.
    pub pref: u8,
}

/// The dense, validated-for-shape board the rules read. Built from a [`BoardSpec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub spec: BoardSpec,
    q0: i32,
    r0: i32,
    w: i32,
    h: i32,
    cells: Vec<Cell>,
    /// Per direction, the step between neighbouring dense indices (`dq + dr × w`); eight
    /// entries, read with the direction masked by 7, so that no bounds check is needed (a
    /// direction is below 6).
    steps: [isize; 8],
    /// Per dense cell, its rank in BB-2.2's race order by position alone: 0 for the highest
    /// progress, ties by the lower lane; cells with the same progress and lane share a rank
    /// (issue 17: the race order sorts one 64-bit key per bot, [`Board::rank_at`]).
    ranks: Vec<u32>,
    /// Per dense cell, bit `d` set when the step through side `d` is open (no wall) onto a
    /// track cell that is neither solid nor a bumper arrow: what random play's "is the cell
    /// ahead clear" asks of the board, leaving only the occupancy to read ([`Board::clear_dirs`]).
    clear: Vec<u8>,
    /// Per dense cell, bit `d` set when the step through side `d` is open (no wall) onto a
    /// track cell that is not solid ([`Board::open_dirs`]).
    open: Vec<u8>,
    /// Per dense cell `k` and side `d` (`k * 6 + d`), byte `n` (0..8): the racing direction
    /// (`Cell::pref`) of the cell `n` cells straight on from `k` through side `d` when that
    /// cell is on the track, else `k`'s own; what random play's steering reads for the cell
    /// its move reaches ([`Board::pref_ahead`], issue 17).
    ahead: Vec<u64>,
    /// The motorised obstacles (BB-8.2): each one's index in `spec.obstacles` (the state's
    /// obstacles follow the spec's order) and its centre's dense index, for the end of every
    /// round without looking through the other obstacles (issue 17).
    motors: Vec<(usize, usize)>,
    /// Per dense cell, its [`Slot`] with nothing standing on it ([`Board::slots`]).
    slots: Vec<Slot>,
}

/// What the race keeps per dense cell (`BumpingBots::occ`): who stands there, beside the
/// board's step bits of that cell, so that a step of a move reads one small word for the cell
/// it leaves and the cell it enters, one bounds check (issue 17). [`Board::slots`] gives the
/// empty track's table, which a race copies at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Slot {
    /// 0 free, else the piece standing there (the state's encoding).
    pub occ: u8,
    /// [`Board::open_dirs`] of the cell.
    pub open: u8,
    /// [`Board::clear_dirs`] of the cell.
    pub clear: u8,
    /// Bit `d` set: the step through side `d` is clear ([`Board::clear_dirs`]) and crosses no
    /// start/finish line (BB-2.3): a plain step of a move, which only moves the bot.
    pub plain: u8,
}

/// How many cells straight on [`Board::pref_ahead`] answers for: `0..AHEAD`.
pub const AHEAD: u8 = 8;

const OFF: Cell = Cell {
    on: false,
    walls: 0x3f,
    line_fwd: 0,
    line_back: 0,
    solid: false,
    arrow: 0,
    progress: 0,
    lane: 0,
    pref: 0,
};

impl Board {
    /// Build the dense board. Every cell must carry progress and lane (the track-file loader
    /// fills them in, BB-2.1); problems are listed as `(path, message)`.
    pub fn build(spec: &BoardSpec) -> Result<Board, Vec<(String, String)>> {
        let mut problems = Vec::new();
        if spec.cells.is_empty() {
            problems.push(("cells".into(), "a board needs at least one cell".into()));
            return Err(problems);
        }
        let q0 = spec.cells.iter().map(|c| c.at.q).min().unwrap_or(0) - 1;
        let r0 = spec.cells.iter().map(|c| c.at.r).min().unwrap_or(0) - 1;
        let q1 = spec.cells.iter().map(|c| c.at.q).max().unwrap_or(0) + 1;
        let r1 = spec.cells.iter().map(|c| c.at.r).max().unwrap_or(0) + 1;
        let (w, h) = (q1 - q0 + 1, r1 - r0 + 1);
        if (w as i64) * (h as i64) > 1_000_000 {
            problems.push(("cells".into(), "the board spans more than a million cells".into()));
            return Err(problems);
        }
        let mut b = Board {
            spec: spec.clone(),
            q0,
            r0,
            w,
            h,
            cells: vec![OFF; (w * h) as usize],
            steps: {
                let mut steps = [0; 8];
                for d in HexDir::ALL {
                    let (dq, dr) = d.step();
                    steps[d.index() as usize] = (dq + dr * w) as isize;
                }
                steps
            },
            ranks: Vec::new(),
            clear: Vec::new(),
            open: Vec::new(),
            ahead: Vec::new(),
            motors: Vec::new(),
            slots: Vec::new(),
        };
        for (i, c) in spec.cells.iter().enumerate() {
            let (Some(p), Some(l)) = (c.progress, c.lane) else {
                problems.push((format!("cells[{i}]"), "missing progress or lane (BB-13)".into()));
                continue;
            };
            let k = b.index(c.at).expect("inside the bounding box");
            if b.cells[k].on {
                problems.push((format!("cells[{i}].at"), format!("cell {} listed twice", c.at)));
            }
            b.cells[k] = Cell { on: true, walls: 0, progress: p, lane: l, ..OFF };
        }
        b.wall_borders();
        for e in &spec.walls {
            b.add_wall(*e);
        }
        for (i, e) in spec.finish_line.iter().enumerate() {
            if !b.on(e.at) || !b.on(e.at.neighbour(e.side)) {
                problems.push((
                    format!("finish_line[{i}]"),
                    "a line edge joins two track cells".into(),
                ));
                continue;
            }
            b.set(e.at, |c| c.line_fwd |= 1 << e.side.index());
            let f = e.flipped();
            b.set(f.at, |c| c.line_back |= 1 << f.side.index());
        }
        for (i, g) in spec.start_grid.iter().enumerate() {
            if !b.on(g.at) {
                problems
                    .push((format!("start_grid[{i}].at"), format!("{} is off the track", g.at)));
            }
        }
        b.place_static_obstacles(&mut problems);
        b.compute_pref();
        b.compute_ranks();
        b.compute_clear();
        b.compute_ahead();
        b.motors = spec
            .obstacles
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == ObstacleKind::Motorised)
            .filter_map(|(i, o)| Some((i, b.index(o.at)?)))
            .collect();
        if problems.is_empty() { Ok(b) } else { Err(problems) }
    }

    /// [`Board::rank_at`] for every dense cell (off-track cells included: they read as
    /// progress 0, lane 0, as [`Board::cell`] gives them).
    fn compute_ranks(&mut self) {
        let mut keys: Vec<(i32, i32)> = self.cells.iter().map(|c| (c.progress, c.lane)).collect();
        // Higher progress first, then the lower lane (BB-2.2).
        keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        keys.dedup();
        self.ranks = self
            .cells
            .iter()
            .map(|c| {
                let r = keys
                    .binary_search_by(|k| c.progress.cmp(&k.0).then(k.1.cmp(&c.lane)))
                    .expect("every cell's key is listed");
                r as u32
            })
            .collect();
    }

    /// The motorised obstacles: (index in `spec.obstacles`, the centre's dense index).
    #[inline]
    pub fn motors(&self) -> &[(usize, usize)] {
        &self.motors
    }

    /// [`Board::pref_ahead`] for every dense cell, side and distance.
    fn compute_ahead(&mut self) {
        let mut ahead = vec![0u64; self.cells.len() * 6];
        for k in 0..self.cells.len() {
            let from = self.hex_at(k);
            let own = self.cells[k].pref;
            for d in HexDir::ALL {
                let mut ray = 0u64;
                for n in 0..AHEAD {
                    let c = self.cell(from.offset(d, i32::from(n)));
                    let pref = if c.on { c.pref } else { own };
                    ray |= u64::from(pref) << (8 * n);
                }
                ahead[k * 6 + d.index() as usize] = ray;
            }
        }
        self.ahead = ahead;
    }

    /// The racing direction (`Cell::pref`: direction + 1, 0 none) of the cell `n` cells
    /// straight on from the cell at dense index `k` through side `d` if that cell is on the
    /// track, else of `k`'s own cell; `n < AHEAD`. From a table built with the board
    /// (`tests::the_ahead_table_answers_as_the_cells_do`).
    #[inline]
    pub fn pref_ahead(&self, k: usize, d: HexDir, n: u8) -> u8 {
        debug_assert!(n < AHEAD);
        (self.ahead[k * 6 + d.index() as usize] >> (8 * u32::from(n & 7))) as u8
    }

    /// [`Board::open_dirs`] and [`Board::clear_dirs`] for every dense cell.
    fn compute_clear(&mut self) {
        let (mut open, mut clear) = (vec![0u8; self.cells.len()], vec![0u8; self.cells.len()]);
        for k in 0..self.cells.len() {
            let c = self.cells[k];
            if !c.on {
                continue;
            }
            for d in HexDir::ALL {
                let bit = 1u8 << d.index();
                if c.walls & bit != 0 {
                    continue;
                }
                let n = self.cells[self.step_idx(k, d)];
                if n.on && !n.solid {
                    open[k] |= bit;
                    if n.arrow == 0 {
                        clear[k] |= bit;
                    }
                }
            }
        }
        self.slots = (0..self.cells.len())
            .map(|k| {
                let c = self.cells[k];
                Slot {
                    occ: 0,
                    open: open[k],
                    clear: clear[k],
                    plain: clear[k] & !(c.line_fwd | c.line_back),
                }
            })
            .collect();
        (self.open, self.clear) = (open, clear);
    }

    /// Every dense cell's [`Slot`], nothing standing anywhere: the start of a race's
    /// occupancy table.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The sides of the track cell at dense index `k` whose step is open onto a track cell
    /// that is not solid (no wall between, no fixed obstacle, obstacle centre or bumper centre
    /// on it): where a piece may step unless a moving piece stands there (bit `d` for side `d`;
    /// 0 for an off-track cell).
    #[inline]
    pub fn open_dirs(&self, k: usize) -> u8 {
        self.open[k]
    }

    /// The rank of the cell at dense index `k` by BB-2.2's position criteria: a lower rank is
    /// ahead (higher progress, then lower lane); equal progress and lane, equal rank. Ranks
    /// are below the number of dense cells (at most a million, [`Board::build`]).
    #[inline]
    pub fn rank_at(&self, k: usize) -> u32 {
        self.ranks[k]
    }

    /// The sides of the track cell at dense index `k` whose step is open onto a track cell
    /// that no wall, fixed obstacle, obstacle centre or bumper arrow takes (bit `d` for side
    /// `d`; 0 for an off-track cell). Moving pieces are not in it: they are the state's.
    #[inline]
    pub fn clear_dirs(&self, k: usize) -> u8 {
        self.clear[k]
    }

    fn place_static_obstacles(&mut self, problems: &mut Vec<(String, String)>) {
        for (i, o) in self.spec.obstacles.clone().iter().enumerate() {
            if !self.on(o.at) {
                problems.push((format!("obstacles[{i}].at"), format!("{} is off the track", o.at)));
                continue;
            }
            match o.kind {
                ObstacleKind::Fixed => self.set(o.at, |c| c.solid = true),
                ObstacleKind::Motorised => {
                    self.set(o.at, |c| c.solid = true);
                    match (o.arms, o.turn) {
                        (Some([a, b]), Some(_)) if b == a.opposite() => {}
                        _ => problems.push((
                            format!("obstacles[{i}]"),
                            "a motorised obstacle needs \"arms\": [d, d+3] and \"turn\": \"cw\"|\"ccw\"".into(),
                        )),
                    }
                }
                ObstacleKind::Bumper => {
                    self.set(o.at, |c| c.solid = true);
                    for d in HexDir::ALL {
                        self.set(o.at.neighbour(d), |c| c.arrow = d.index() + 1);
                    }
                }
                ObstacleKind::Mobile => {}
            }
        }
    }

    /// For random play: per cell, the open direction whose straight run of up to 3 cells gains
    /// most progress (a forward line crossing adds a lap's worth; walls, solid obstacles and
    /// bumper arrows end the run).
    fn compute_pref(&mut self) {
        let lap = self.cells.iter().map(|c| c.progress).max().unwrap_or(0) + 1;
        for k in 0..self.cells.len() {
            if !self.cells[k].on {
                continue;
            }
            let start = self.hex_at(k);
            let p0 = self.cells[k].progress;
            let mut best: Option<(i32, HexDir)> = None;
            for d in HexDir::ALL {
                let (mut h, mut offset, mut gain) = (start, 0, None);
                for _ in 0..3 {
                    let c = self.cell(h);
                    let bit = 1 << d.index();
                    let n = self.cell(h.neighbour(d));
                    if c.walls & bit != 0 || n.solid || n.arrow != 0 {
                        break;
                    }
                    offset += if c.line_fwd & bit != 0 {
                        lap
                    } else if c.line_back & bit != 0 {
                        -lap
                    } else {
                        0
                    };
                    h = h.neighbour(d);
                    gain = Some(self.cell(h).progress + offset - p0);
                }
                if let Some(g) = gain
                    && best.is_none_or(|(b, _)| g > b)
                {
                    best = Some((g, d));
                }
            }
            self.cells[k].pref = best.map_or(0, |(_, d)| d.index() + 1);
        }
    }

    /// The racing direction from a cell (random play's lean, BB-2.1 progress).
    #[inline]
    pub fn pref(&self, h: Hex) -> Option<HexDir> {
        let p = self.cell(h).pref;
        if p == 0 { None } else { HexDir::new(p - 1) }
    }

    fn wall_borders(&mut self) {
        for k in 0..self.cells.len() {
            if !self.cells[k].on {
                continue;
            }
            let h = self.hex_at(k);
            for d in HexDir::ALL {
                if !self.on(h.neighbour(d)) {
                    self.cells[k].walls |= 1 << d.index();
                }
            }
        }
    }

    fn add_wall(&mut self, e: HexEdge) {
        self.set(e.at, |c| c.walls |= 1 << e.side.index());
        let f = e.flipped();
        self.set(f.at, |c| c.walls |= 1 << f.side.index());
    }

    fn set(&mut self, h: Hex, f: impl FnOnce(&mut Cell)) {
        if let Some(k) = self.index(h)
            && self.cells[k].on
        {
            f(&mut self.cells[k]);
        }
    }

    fn hex_at(&self, k: usize) -> Hex {
        let k = k as i32;
        Hex::new(self.q0 + k % self.w, self.r0 + k / self.w)
    }

    #[inline]
    fn index(&self, h: Hex) -> Option<usize> {
        // Negative offsets wrap to large unsigned ones: one comparison per axis.
        let x = h.q.wrapping_sub(self.q0) as u32;
        let y = h.r.wrapping_sub(self.r0) as u32;
        if x >= self.w as u32 || y >= self.h as u32 {
            None
        } else {
            Some(y as usize * self.w as usize + x as usize)
        }
    }

    /// The dense index of the neighbour through side `d` of the cell at dense index `k`, for a
    /// track cell `k` (the bounding box has a margin of one cell round the track, so every
    /// neighbour of a track cell is inside it).
    #[inline]
    pub fn step_idx(&self, k: usize, d: HexDir) -> usize {
        debug_assert!(self.cells[k].on, "step_idx from an off-track cell");
        k.wrapping_add_signed(self.step_delta(d))
    }

    /// The difference of dense indices between a cell and its neighbour through side `d`.
    #[inline(always)]
    pub fn step_delta(&self, d: HexDir) -> isize {
        self.steps[usize::from(d.index() & 7)]
    }

    /// The dense index of a cell inside the board's bounding box.
    #[inline]
    pub fn idx(&self, h: Hex) -> Option<usize> {
        self.index(h)
    }
    /// Size of the dense storage (for per-cell tables of the state).
    pub fn dense_len(&self) -> usize {
        self.cells.len()
    }
    /// The cell at a dense index.
    #[inline]
    pub fn cell_at(&self, k: usize) -> Cell {
        self.cells[k]
    }

    /// The cell's data (off-track cells are walled all round).
    #[inline]
    pub fn cell(&self, h: Hex) -> Cell {
        match self.index(h) {
            Some(k) => self.cells[k],
            None => OFF,
        }
    }
    #[inline]
    pub fn on(&self, h: Hex) -> bool {
        self.cell(h).on
    }
    /// Is the edge from `h` through side `d` walled (BB-2.1)?
    #[inline]
    pub fn wall(&self, h: Hex, d: HexDir) -> bool {
        self.cell(h).walls & (1 << d.index()) != 0
    }
    /// The bumper arrow on `h`, if any (BB-8.4).
    #[inline]
    pub fn arrow(&self, h: Hex) -> Option<HexDir> {
        let a = self.cell(h).arrow;
        if a == 0 { None } else { HexDir::new(a - 1) }
    }
    /// [`Board::arrow`] of the cell at a dense index.
    #[inline]
    pub fn arrow_at(&self, k: usize) -> Option<HexDir> {
        let a = self.cells[k].arrow;
        if a == 0 { None } else { HexDir::new(a - 1) }
    }
    pub fn laps(&self) -> u8 {
        self.spec.laps
    }
    pub fn start_grid(&self) -> &[GridSpot] {
        &self.spec.start_grid
    }
    /// Every track cell, in row order.
    pub fn track_cells(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.cells.len()).filter(|&k| self.cells[k].on).map(|k| self.hex_at(k))
    }
}
