//! Track files (`docs/bumping-bots-tracks.md`): a drawn hex map plus a few keyword lines;
//! progress and lane computed from the racing line (BB-2.1); the BB-12 validator; the
//! shipped tracks. (The random-race driver and the SVG drawing live in the `games` crate.)

use crate::track::{BoardSpec, CellSpec, GridSpot, ObstacleKind, ObstacleSpec, Spin};
use grid::{Hex, HexDir, HexEdge};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The tracks the project ships, by name (`"board": "oval"` in a scenario).
pub const SHIPPED: [(&str, &str); 3] = [
    ("oval", include_str!("../tracks/oval.track")),
    ("chicane", include_str!("../tracks/chicane.track")),
    ("factory", include_str!("../tracks/factory.track")),
];

/// A shipped track by name, loaded (progress and lane computed).
pub fn shipped(name: &str) -> Option<BoardSpec> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| load(text).expect("shipped tracks load"))
}

/// A track file that does not load: where (1-based line) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TrackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
impl std::error::Error for TrackError {}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, TrackError> {
    Err(TrackError { line, message: message.into() })
}

fn ints(line: usize, words: &[&str], n: usize, what: &str) -> Result<Vec<i32>, TrackError> {
    if words.len() != n {
        return fail(line, format!("expected {what}"));
    }
    words
        .iter()
        .map(|w| w.parse::<i32>().or_else(|_| fail(line, format!("expected {what}, got {w:?}"))))
        .collect()
}

fn dir(line: usize, n: i32) -> Result<HexDir, TrackError> {
    HexDir::new(n as u8)
        .filter(|_| (0..6).contains(&n))
        .map_or_else(|| fail(line, format!("a direction is 0..5, got {n}")), Ok)
}

/// Parse a track file. See `docs/bumping-bots-tracks.md` for the format.
pub fn load(text: &str) -> Result<BoardSpec, TrackError> {
    let mut spec = BoardSpec {
        name: None,
        cells: Vec::new(),
        walls: Vec::new(),
        finish_line: Vec::new(),
        start_grid: Vec::new(),
        obstacles: Vec::new(),
        laps: 2,
    };
    let mut motors: BTreeMap<Hex, (HexDir, Spin)> = BTreeMap::new();
    let mut in_map: Option<i32> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(row) = in_map {
            if raw.trim() == "end" {
                in_map = None;
            } else {
                map_row(n, row, raw, &mut spec)?;
                in_map = Some(row + 1);
            }
            continue;
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(':').map_or((line, ""), |(k, r)| (k.trim(), r.trim()));
        let words: Vec<&str> = rest.split_whitespace().collect();
        match key {
            "name" => spec.name = Some(rest.to_string()),
            "laps" => {
                spec.laps = match ints(n, &words, 1, "the number of laps (2 or 3)")?[0] {
                    l @ 1..=9 => l as u8,
                    l => return fail(n, format!("laps: expected 1..9, got {l}")),
                }
            }
            "map" => {
                let top =
                    if words.is_empty() { 0 } else { ints(n, &words, 1, "the first row's r")?[0] };
                in_map = Some(top);
            }
            "wall" | "finish" => {
                let v = ints(n, &words, 3, "q r side")?;
                let e = HexEdge::new(Hex::new(v[0], v[1]), dir(n, v[2])?);
                if key == "wall" { spec.walls.push(e) } else { spec.finish_line.push(e) }
            }
            "grid" => {
                let v = ints(n, &words, 3, "q r facing")?;
                spec.start_grid.push(GridSpot { at: Hex::new(v[0], v[1]), facing: dir(n, v[2])? });
            }
            "motorised" => {
                if words.len() != 4 {
                    return fail(n, "expected q r arm cw|ccw");
                }
                let v = ints(n, &words[..3], 3, "q r arm")?;
                let spin = match words[3] {
                    "cw" => Spin::Cw,
                    "ccw" => Spin::Ccw,
                    w => return fail(n, format!("expected cw or ccw, got {w:?}")),
                };
                motors.insert(Hex::new(v[0], v[1]), (dir(n, v[2])?, spin));
            }
            k => {
                return fail(
                    n,
                    format!(
                        "unknown keyword {k:?} (name, laps, map, wall, finish, grid, motorised)"
                    ),
                );
            }
        }
    }
    if in_map.is_some() {
        return fail(text.lines().count(), "the map is not closed by a line \"end\"");
    }
    for o in spec.obstacles.iter_mut().filter(|o| o.kind == ObstacleKind::Motorised) {
        let Some(&(arm, spin)) = motors.get(&o.at) else {
            return fail(
                0,
                format!("the motorised obstacle at {} has no \"motorised:\" line", o.at),
            );
        };
        o.arms = Some([arm, arm.opposite()]);
        o.turn = Some(spin);
    }
    compute_racing_line(&mut spec);
    Ok(spec)
}

/// One map row: column x (in half cells) holds cell q = (x - r) / 2 of row r.
fn map_row(n: usize, r: i32, raw: &str, spec: &mut BoardSpec) -> Result<(), TrackError> {
    for (x, ch) in raw.chars().enumerate() {
        let x = x as i32;
        if ch == ' ' {
            continue;
        }
        if (x - r).rem_euclid(2) != 0 {
            return fail(
                n,
                format!("column {}: cells of row {r} sit on columns of the other parity", x + 1),
            );
        }
        let at = Hex::new((x - r).div_euclid(2), r);
        let kind = match ch {
            '.' => None,
            '#' => Some(ObstacleKind::Fixed),
            'o' => Some(ObstacleKind::Mobile),
            'B' => Some(ObstacleKind::Bumper),
            'M' => Some(ObstacleKind::Motorised),
            c => {
                return fail(
                    n,
                    format!("column {}: expected . # o B M or a space, got {c:?}", x + 1),
                );
            }
        };
        spec.cells.push(CellSpec { at, progress: None, lane: None });
        if let Some(kind) = kind {
            spec.obstacles.push(ObstacleSpec { kind, at, arms: None, turn: None });
        }
    }
    Ok(())
}

/// Walls of a spec as a set of normalised edges, the border included.
pub fn walled_edges(spec: &BoardSpec) -> (BTreeSet<Hex>, BTreeSet<HexEdge>) {
    let on: BTreeSet<Hex> = spec.cells.iter().map(|c| c.at).collect();
    let mut walls: BTreeSet<HexEdge> = spec.walls.iter().map(|e| e.normalised()).collect();
    for &h in &on {
        for d in HexDir::ALL {
            if !on.contains(&h.neighbour(d)) {
                walls.insert(HexEdge::new(h, d).normalised());
            }
        }
    }
    (on, walls)
}

/// BB-2.1, the project's method. `progress` is the fraction of the lap a cell lies at, in
/// thousandths: with `f` the number of steps from the line along the track in the racing
/// direction and `b` the number of steps back to the line against it (two breadth-first
/// searches that never cross the line or a wall), `progress = 1000 f / (f + b)`; the cells just
/// past the line get 0, those just before it 1000. (Plain step counts would give the outer cells
/// of a bend a plateau; the fraction keeps growing along every lane.) `lane` is the number of
/// steps from the cells touching the inner hole (the off-track region the track goes round),
/// 0 everywhere on a track without one. Values the file gives are kept.
pub fn compute_racing_line(spec: &mut BoardSpec) {
    let (on, walls) = walled_edges(spec);
    let line: BTreeSet<HexEdge> = spec.finish_line.iter().map(|e| e.normalised()).collect();
    let open = |h: Hex, d: HexDir| {
        let e = HexEdge::new(h, d).normalised();
        !walls.contains(&e) && !line.contains(&e)
    };
    let ahead = bfs(&on, spec.finish_line.iter().map(|e| e.at.neighbour(e.side)).collect(), open);
    let behind = bfs(&on, spec.finish_line.iter().map(|e| e.at).collect(), open);
    let lanes =
        bfs(&on, inner_border(&on), |h, d| !walls.contains(&HexEdge::new(h, d).normalised()));
    for c in &mut spec.cells {
        let (f, b) = (ahead.get(&c.at).copied(), behind.get(&c.at).copied());
        let p = match (f, b) {
            (Some(f), Some(b)) if f + b > 0 => 1000 * f / (f + b),
            (Some(f), _) => f,
            _ => 0,
        };
        c.progress.get_or_insert(p);
        c.lane.get_or_insert(lanes.get(&c.at).copied().unwrap_or(0));
    }
}

fn bfs(
    on: &BTreeSet<Hex>,
    starts: Vec<Hex>,
    open: impl Fn(Hex, HexDir) -> bool,
) -> BTreeMap<Hex, i32> {
    let mut dist = BTreeMap::new();
    let mut queue = VecDeque::new();
    for s in starts {
        if on.contains(&s) && !dist.contains_key(&s) {
            dist.insert(s, 0);
            queue.push_back(s);
        }
    }
    while let Some(h) = queue.pop_front() {
        let d0 = dist[&h];
        for d in HexDir::ALL {
            let n = h.neighbour(d);
            if on.contains(&n) && !dist.contains_key(&n) && open(h, d) {
                dist.insert(n, d0 + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Track cells next to an off-track cell that the outside cannot reach (the inner hole).
fn inner_border(on: &BTreeSet<Hex>) -> Vec<Hex> {
    let (q0, q1) = (
        on.iter().map(|h| h.q).min().unwrap_or(0) - 1,
        on.iter().map(|h| h.q).max().unwrap_or(0) + 1,
    );
    let (r0, r1) = (
        on.iter().map(|h| h.r).min().unwrap_or(0) - 1,
        on.iter().map(|h| h.r).max().unwrap_or(0) + 1,
    );
    let inside = |h: Hex| h.q >= q0 && h.q <= q1 && h.r >= r0 && h.r <= r1;
    let mut outside = BTreeSet::new();
    let mut queue = VecDeque::from([Hex::new(q0, r0)]);
    outside.insert(Hex::new(q0, r0));
    while let Some(h) = queue.pop_front() {
        for d in HexDir::ALL {
            let n = h.neighbour(d);
            if inside(n) && !on.contains(&n) && outside.insert(n) {
                queue.push_back(n);
            }
        }
    }
    on.iter()
        .copied()
        .filter(|h| {
            HexDir::ALL.iter().any(|&d| {
                let n = h.neighbour(d);
                !on.contains(&n) && inside(n) && !outside.contains(&n)
            })
        })
        .collect()
}

/// What the BB-12 validator found: errors reject the track, warnings do not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validation {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// BB-12: fixed obstacles touch a wall; motorised obstacles and bumpers keep their centre 3
/// cells from every walled cell; a motorised obstacle's sweep holds no other obstacle and no
/// bumper arrow. Warns about one-cell passages (a free cell blocked on two opposite sides).
pub fn validate(spec: &BoardSpec) -> Validation {
    let (on, walls) = walled_edges(spec);
    let walled =
        |h: Hex| HexDir::ALL.iter().any(|&d| walls.contains(&HexEdge::new(h, d).normalised()));
    let walled_cells: Vec<Hex> = on.iter().copied().filter(|&h| walled(h)).collect();
    let mut v = Validation::default();
    let arrows: BTreeSet<Hex> = spec
        .obstacles
        .iter()
        .filter(|o| o.kind == ObstacleKind::Bumper)
        .flat_map(|o| HexDir::ALL.map(|d| o.at.neighbour(d)))
        .collect();
    for o in &spec.obstacles {
        let name = format!("{} obstacle at {}", o.kind.name(), o.at);
        match o.kind {
            ObstacleKind::Fixed if !walled(o.at) => {
                v.errors.push(format!("{name}: must touch a wall (BB-8.1)"))
            }
            ObstacleKind::Motorised | ObstacleKind::Bumper => {
                if let Some(w) = walled_cells.iter().find(|w| w.distance(o.at) < 3) {
                    v.errors.push(format!(
                        "{name}: centre closer than 3 cells to the wall at {w} (BB-12)"
                    ));
                }
            }
            _ => {}
        }
        if o.kind == ObstacleKind::Motorised {
            for d in HexDir::ALL {
                let c = o.at.neighbour(d);
                if spec.obstacles.iter().any(|x| x.at == c) || arrows.contains(&c) {
                    v.errors.push(format!(
                        "{name}: its sweep cell {c} holds an obstacle or a bumper arrow (BB-8.2)"
                    ));
                }
            }
        }
    }
    let solid: BTreeSet<Hex> =
        spec.obstacles.iter().filter(|o| o.kind != ObstacleKind::Mobile).map(|o| o.at).collect();
    let blocked = |h: Hex, d: HexDir| {
        walls.contains(&HexEdge::new(h, d).normalised()) || solid.contains(&h.neighbour(d))
    };
    for &h in on.iter().filter(|h| !solid.contains(h)) {
        if (0..3).map(|i| HexDir::ALL[i]).any(|d| blocked(h, d) && blocked(h, d.opposite())) {
            v.warnings.push(format!("one-cell passage at {h} (BB-12)"));
        }
    }
    v
}
