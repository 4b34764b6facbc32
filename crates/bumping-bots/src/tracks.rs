//! Track files (`docs/bumping-bots-tracks.md`): a drawn hex map plus a few keyword lines;
//! progress and lane computed from the racing line (BB-2.1); the BB-12 validator; the
//! shipped tracks. (The random-race driver and the SVG drawing live in the `games` crate.)

use crate::track::{Board, BoardSpec, CellSpec, GridSpot, ObstacleKind, ObstacleSpec, Spin};
use engine::check::{BoardRejected, Finding, Severity};
use grid::{Hex, HexDir, HexEdge};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, OnceLock};

/// The tracks the project ships, by name (`"board": "oval"` in a scenario).
pub const SHIPPED: [(&str, &str); 3] = [
    ("oval", include_str!("../tracks/oval.track")),
    ("chicane", include_str!("../tracks/chicane.track")),
    ("factory", include_str!("../tracks/factory.track")),
];

/// A shipped track by name, loaded for play (progress and lane computed, BB-12 checked: a
/// shipped track has no errors, `every_shipped_track_validates`).
pub fn shipped(name: &str) -> Option<BoardSpec> {
    // Each loaded once per process, when first asked for (issue 17: setup costs nothing per
    // game, and a run on one track does not load and check the others).
    static LOADED: [OnceLock<BoardSpec>; SHIPPED.len()] =
        [const { OnceLock::new() }; SHIPPED.len()];
    let i = SHIPPED.iter().position(|(n, _)| *n == name)?;
    let spec =
        LOADED[i].get_or_init(|| load_for_play(SHIPPED[i].1).expect("shipped tracks pass BB-12").0);
    Some(spec.clone())
}

/// The board of a spec, built once and shared by the games that follow on the same thread:
/// each thread keeps the last spec it built and its board, so a simulation, a tournament or a
/// search that starts game after game on one track builds it once (issue 17). A different spec
/// is built afresh (and replaces the kept one).
pub fn shared_board(spec: &BoardSpec) -> Result<Arc<Board>, Vec<(String, String)>> {
    thread_local! {
        static LAST: RefCell<Option<(BoardSpec, Arc<Board>)>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((s, b)) = &*last.borrow()
            && s == spec
        {
            return Ok(Arc::clone(b));
        }
        let board = Arc::new(Board::build(spec)?);
        *last.borrow_mut() = Some((spec.clone(), Arc::clone(&board)));
        Ok(board)
    })
}

/// A track file that does not load: where (1-based line; 0 for the whole file) and what was
/// expected.
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

/// Where the things of a track file were written (1-based lines and columns), for findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places {
    /// Each cell's character in the map.
    pub cells: BTreeMap<Hex, (usize, usize)>,
    /// The lines of the `finish:`, `grid:` and `wall:` lines, in order.
    pub finish: Vec<usize>,
    pub grid: Vec<usize>,
    pub walls: Vec<usize>,
    /// The `motorised:` line of each motorised centre.
    pub motorised: BTreeMap<Hex, usize>,
    /// The first `map:` line.
    pub map: Option<usize>,
}

impl Places {
    fn cell(&self, h: Hex) -> Option<(usize, usize)> {
        self.cells.get(&h).copied()
    }
}

/// Load a track for play: parse it and run the BB-12 checker. Errors refuse it (a typed error
/// naming each place); the warnings come back with the track for the caller to print or log.
pub fn load_for_play(text: &str) -> Result<(BoardSpec, Vec<Finding>), BoardRejected> {
    // The checker's own parse is the track (parsed once, issue 17).
    let Inspection { findings, track } = inspect(text);
    let warnings = BoardRejected::from_findings(findings.into_iter().map(|(f, _)| f).collect())?;
    // A text that does not parse has an error finding, refused above.
    let spec = match track {
        Some(spec) => spec,
        None => load(text).map_err(|e| BoardRejected { errors: vec![parse_finding(&e)] })?,
    };
    Ok((spec, warnings))
}

fn parse_finding(e: &TrackError) -> Finding {
    let f = Finding::error("", e.message.clone());
    if e.line == 0 { f } else { f.at(e.line, 1) }
}

/// `robodrome board check`: every finding about a track file, by line and column. A file that
/// does not parse gives its one format error; one that does gives the shape errors of
/// BB-2.1/BB-13 (line edges, grid places and obstacles off the track), the BB-12 errors and
/// warnings ([`validate`]) and the BB-1.3 piece counts as warnings (a track may use more pieces
/// than one box holds; the referee's box is the booklet's, `docs/bumping-bots-tracks.md`).
pub fn check(text: &str) -> Vec<Finding> {
    inspect(text).findings.into_iter().map(|(f, _)| f).collect()
}

/// What the track editor is told about a track file's text (docs/editors.md): every finding of
/// [`check`] with the cell it concerns (an obstacle's or a cell's; `None` for a line of the
/// file or the whole file), and, when the text parses, the track with the racing data computed
/// from it (BB-2.1: `progress` and `lane` of every cell, [`compute_racing_line`]).
#[derive(Clone, Debug, Default)]
pub struct Inspection {
    pub findings: Vec<(Finding, Option<Hex>)>,
    pub track: Option<BoardSpec>,
}

/// [`check`] with the cells the findings concern, and the loaded track (see [`Inspection`]).
pub fn inspect(text: &str) -> Inspection {
    let (spec, places) = match load_located(text) {
        Ok(x) => x,
        Err(e) => return Inspection { findings: vec![(parse_finding(&e), None)], track: None },
    };
    let mut out: Vec<(Finding, Option<Hex>)> = Vec::new();
    let at_cell = |f: Finding, h: Hex| match places.cell(h) {
        Some((l, c)) => f.at(l, c),
        None => f,
    };
    if let Err(problems) = Board::build(&spec) {
        for (path, message) in problems {
            let index = |prefix: &str| {
                path.strip_prefix(prefix)
                    .and_then(|r| r.split(']').next())
                    .and_then(|n| n.parse::<usize>().ok())
            };
            let (line, cell) = if let Some(i) = index("finish_line[") {
                (places.finish.get(i).copied(), spec.finish_line.get(i).map(|e| e.at))
            } else if let Some(i) = index("start_grid[") {
                (places.grid.get(i).copied(), spec.start_grid.get(i).map(|g| g.at))
            } else {
                (None, None)
            };
            let f = Finding::error("BB-2.1", format!("{path}: {message}"));
            out.push((
                match line {
                    Some(l) => f.at(l, 1),
                    None => f,
                },
                cell,
            ));
        }
    }
    for p in problems(&spec) {
        let f = Finding { severity: p.severity, place: None, rule: p.rule, message: p.message };
        out.push((
            match (p.at, p.at.and_then(|h| places.motorised.get(&h))) {
                (Some(h), _) if places.cell(h).is_some() => at_cell(f, h),
                (_, Some(&l)) => f.at(l, 1),
                _ => f,
            },
            p.at,
        ));
    }
    for w in piece_counts(&spec) {
        out.push((
            match places.map {
                Some(l) => w.at(l, 1),
                None => w,
            },
            None,
        ));
    }
    out.sort_by(|a, b| {
        (a.0.place, a.0.severity, &a.0.message).cmp(&(b.0.place, b.0.severity, &b.0.message))
    });
    Inspection { findings: out, track: Some(spec) }
}

/// BB-1.3: the box holds 9 fixed, 8 motorised (4 clockwise, 4 anticlockwise), 5 mobile
/// obstacles and 4 bumpers. More is a warning: the track cannot be built from one box.
pub fn piece_counts(spec: &BoardSpec) -> Vec<Finding> {
    let count = |k: ObstacleKind| spec.obstacles.iter().filter(|o| o.kind == k).count();
    let spin = |s: Spin| {
        spec.obstacles
            .iter()
            .filter(|o| o.kind == ObstacleKind::Motorised && o.turn == Some(s))
            .count()
    };
    let mut out = Vec::new();
    for (n, most, what) in [
        (count(ObstacleKind::Fixed), 9, "fixed obstacles"),
        (count(ObstacleKind::Motorised), 8, "motorised obstacles"),
        (spin(Spin::Cw), 4, "motorised obstacles turning clockwise"),
        (spin(Spin::Ccw), 4, "motorised obstacles turning anticlockwise"),
        (count(ObstacleKind::Mobile), 5, "mobile obstacles"),
        (count(ObstacleKind::Bumper), 4, "bumpers"),
    ] {
        if n > most {
            out.push(Finding::warning("BB-1.3", format!("{n} {what}: the box holds {most}")));
        }
    }
    if spec.start_grid.len() > 9 {
        out.push(Finding::warning(
            "BB-1.1",
            format!("{} grid places: at most 9 bots race", spec.start_grid.len()),
        ));
    }
    out
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

/// Parse a track file. See `docs/bumping-bots-tracks.md` for the format. This only parses;
/// [`load_for_play`] also runs the BB-12 checker.
pub fn load(text: &str) -> Result<BoardSpec, TrackError> {
    load_located(text).map(|(spec, _)| spec)
}

/// Parse a track file and say where each thing was written.
pub fn load_located(text: &str) -> Result<(BoardSpec, Places), TrackError> {
    let mut places = Places::default();
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
                map_row(n, row, raw, &mut spec, &mut places)?;
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
                places.map.get_or_insert(n);
            }
            "wall" | "finish" => {
                let v = ints(n, &words, 3, "q r side")?;
                let e = HexEdge::new(Hex::new(v[0], v[1]), dir(n, v[2])?);
                if key == "wall" {
                    spec.walls.push(e);
                    places.walls.push(n);
                } else {
                    spec.finish_line.push(e);
                    places.finish.push(n);
                }
            }
            "grid" => {
                let v = ints(n, &words, 3, "q r facing")?;
                spec.start_grid.push(GridSpot { at: Hex::new(v[0], v[1]), facing: dir(n, v[2])? });
                places.grid.push(n);
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
                places.motorised.insert(Hex::new(v[0], v[1]), n);
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
                places.cell(o.at).map_or(0, |p| p.0),
                format!("the motorised obstacle at {} has no \"motorised:\" line", o.at),
            );
        };
        o.arms = Some([arm, arm.opposite()]);
        o.turn = Some(spin);
    }
    for (h, &line) in &places.motorised {
        if !spec.obstacles.iter().any(|o| o.at == *h && o.kind == ObstacleKind::Motorised) {
            return fail(line, format!("no motorised obstacle (M) is drawn at {h}"));
        }
    }
    compute_racing_line(&mut spec);
    Ok((spec, places))
}

/// One map row: column x (in half cells) holds cell q = (x - r) / 2 of row r.
fn map_row(
    n: usize,
    r: i32,
    raw: &str,
    spec: &mut BoardSpec,
    places: &mut Places,
) -> Result<(), TrackError> {
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
        places.cells.entry(at).or_insert((n, x as usize + 1));
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

/// One BB-12 finding, about a cell.
struct Problem {
    severity: Severity,
    at: Option<Hex>,
    rule: &'static str,
    message: String,
}

/// BB-12: fixed obstacles touch a wall; motorised obstacles and bumpers keep their centre 3
/// cells from every walled cell; a motorised obstacle's sweep holds no other obstacle and no
/// bumper arrow. Warns about one-cell passages (a free cell blocked on two opposite sides).
pub fn validate(spec: &BoardSpec) -> Validation {
    let mut v = Validation::default();
    for p in problems(spec) {
        let m = format!("{} ({})", p.message, p.rule);
        match p.severity {
            Severity::Error => v.errors.push(m),
            Severity::Warning => v.warnings.push(m),
        }
    }
    v
}

fn problems(spec: &BoardSpec) -> Vec<Problem> {
    let (on, walls) = walled_edges(spec);
    let walled =
        |h: Hex| HexDir::ALL.iter().any(|&d| walls.contains(&HexEdge::new(h, d).normalised()));
    let walled_cells: Vec<Hex> = on.iter().copied().filter(|&h| walled(h)).collect();
    let mut v = Vec::new();
    let mut push = |severity, at: Hex, rule, message: String| {
        v.push(Problem { severity, at: Some(at), rule, message })
    };
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
                push(Severity::Error, o.at, "BB-8.1", format!("{name}: must touch a wall"))
            }
            ObstacleKind::Motorised | ObstacleKind::Bumper => {
                if let Some(w) = walled_cells.iter().find(|w| w.distance(o.at) < 3) {
                    let rule = if o.kind == ObstacleKind::Bumper {
                        "BB-8.4, BB-12"
                    } else {
                        "BB-8.2, BB-12"
                    };
                    push(
                        Severity::Error,
                        o.at,
                        rule,
                        format!("{name}: centre closer than 3 cells to the wall at {w}"),
                    );
                }
            }
            _ => {}
        }
        if o.kind == ObstacleKind::Motorised {
            for d in HexDir::ALL {
                let c = o.at.neighbour(d);
                if spec.obstacles.iter().any(|x| x.at == c) || arrows.contains(&c) {
                    push(
                        Severity::Error,
                        o.at,
                        "BB-8.2",
                        format!("{name}: its sweep cell {c} holds an obstacle or a bumper arrow"),
                    );
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
            push(Severity::Warning, h, "BB-12", format!("one-cell passage at {h}"));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9×9 parallelogram of track (rows shifted as hexes are) with `pieces` drawn at `[q, r]`,
    /// then `tail` lines.
    fn square(pieces: &[(i32, i32, char)], tail: &str) -> String {
        let mut text = String::from("name: test\nmap: 0\n");
        for r in 0..9 {
            text += &" ".repeat(r as usize);
            for q in 0..9 {
                let ch = pieces.iter().find(|p| (p.0, p.1) == (q, r)).map_or('.', |p| p.2);
                text.push(ch);
                text.push(' ');
            }
            text += "\n";
        }
        text + "end\n" + tail
    }

    fn found(f: &[Finding], rule: &str) -> Vec<(Severity, Option<(usize, usize)>)> {
        f.iter()
            .filter(|x| x.rule.contains(rule))
            .map(|x| (x.severity, x.place.map(|p| (p.line, p.column))))
            .collect()
    }

    #[test]
    fn a_fixed_obstacle_must_touch_a_wall_bb_8_1() {
        // [4,4] is drawn on line 3 + 4 = 7, column 2·4 + 4 + 1 = 13; [0,4] touches the border.
        let f = check(&square(&[(4, 4, '#'), (0, 4, '#')], ""));
        assert_eq!(found(&f, "BB-8.1"), [(Severity::Error, Some((7, 13)))], "{f:?}");
    }

    #[test]
    fn a_bumper_keeps_its_centre_3_cells_from_every_wall_bb_12() {
        // [1,4] is one cell from the border; [4,4] is four cells from it.
        let f = check(&square(&[(1, 4, 'B')], ""));
        assert_eq!(found(&f, "BB-8.4, BB-12"), [(Severity::Error, Some((7, 7)))], "{f:?}");
        let f = check(&square(&[(4, 4, 'B')], ""));
        assert!(found(&f, "BB-8.4").is_empty(), "{f:?}");
    }

    #[test]
    fn a_motorised_obstacle_keeps_its_centre_from_walls_and_its_sweep_clear_bb_8_2() {
        let f = check(&square(&[(4, 4, 'M'), (5, 4, 'o')], "motorised: 4 4 1 cw\n"));
        assert_eq!(found(&f, "BB-8.2"), [(Severity::Error, Some((7, 13)))], "{f:?}");
        assert!(f.iter().any(|x| x.is_error() && x.message.contains("sweep")), "{f:?}");
        let f = check(&square(&[(2, 4, 'M')], "motorised: 2 4 1 ccw\n"));
        assert_eq!(found(&f, "BB-8.2, BB-12"), [(Severity::Error, Some((7, 9)))], "{f:?}");
        let f = check(&square(&[(4, 4, 'M')], "motorised: 4 4 1 cw\n"));
        assert!(f.iter().all(|x| !x.is_error()), "{f:?}");
    }

    #[test]
    fn a_one_cell_passage_is_a_warning_bb_12() {
        let f = check("map: 0\n. . . . .\nend\n");
        assert!(!f.is_empty() && f.iter().all(|x| x.severity == Severity::Warning), "{f:?}");
        assert_eq!(found(&f, "BB-12")[0], (Severity::Warning, Some((2, 1))));
    }

    #[test]
    fn more_pieces_than_the_box_holds_are_warnings_bb_1_3() {
        // Ten fixed obstacles along the top border (the box holds 9), five bumpers... fewer
        // than the box: only the fixed count is reported.
        let pieces: Vec<(i32, i32, char)> =
            (0..9).map(|q| (q, 0, '#')).chain([(0, 8, '#')]).collect();
        let f = check(&square(&pieces, ""));
        let counts = found(&f, "BB-1.3");
        assert_eq!(counts, [(Severity::Warning, Some((2, 1)))], "{f:?}");
        assert!(f.iter().any(|x| x.message.starts_with("10 fixed obstacles")), "{f:?}");
        assert!(f.iter().all(|x| !x.is_error()), "{f:?}");
    }

    #[test]
    fn format_errors_and_places_off_the_track_name_their_line() {
        let f = check("map: 0\n. x .\nend\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].place.map(|p| p.line), Some(2), "{f:?}");
        assert!(f[0].message.contains("column 3"), "{f:?}");
        // A grid place off the track: the grid line (BB-2.1).
        let f = check(&square(&[], "grid: 20 20 0\n"));
        assert_eq!(found(&f, "BB-2.1"), [(Severity::Error, Some((13, 1)))], "{f:?}");
        // A `motorised:` line with no M drawn.
        let f = check(&square(&[], "motorised: 4 4 1 cw\n"));
        assert_eq!(f[0].place.map(|p| p.line), Some(13), "{f:?}");
    }

    #[test]
    fn loading_for_play_refuses_errors_and_returns_warnings() {
        let bad = square(&[(4, 4, '#')], "");
        let e = load_for_play(&bad).unwrap_err();
        assert!(e.to_string().contains("line 7, column 13: error"), "{e}");
        let (_, w) = load_for_play("map: 0\n. . . . .\nend\n").unwrap();
        assert!(!w.is_empty());
        for (name, text) in SHIPPED {
            let (_, w) = load_for_play(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(w.iter().all(|x| x.rule != "BB-1.3"), "{name}: {w:?}");
        }
    }
}
