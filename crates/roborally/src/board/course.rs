//! RR-1.3 Courses: board pieces (factory boards, the docking bay) rotated and placed on one
//! grid, plus the flags in order. The shipped pieces and courses are embedded text files.
//!
//! ```text
//! course Dizzy Dash         # a name (how a scenario's "board": "dizzy-dash" finds it, slugged)
//! difficulty easy           # free text
//! place gearbox 0 0 0       # piece, x, y of its top-left corner, quarter turns clockwise
//! place bay-a 0 12 0
//! flag 5 4                  # flags in order
//! dock 1 3 14 N             # a start dock of the course's own (number, x, y, facing)
//! board My Piece            # a board piece of the file's own (the piece format, to the next
//! size 12 12                #   course line), placed by its name like a shipped one
//! ...
//! ```

use super::parse::{BoardError, NamedBoard, err, parse_named_board, words};
use super::{Belt, Board, Cell, Dock, Laser, validate};
use engine::check::Finding;
use grid::{Sq, SqDir};
use serde::Serialize;
use std::sync::{Arc, OnceLock};

/// Board pieces shipped with the crate (12×12 factory boards and the 12×4 docking bay).
pub const PIECES: [&str; 5] = [
    include_str!("../../boards/bay.txt"),
    include_str!("../../boards/gearbox.txt"),
    include_str!("../../boards/crossroads.txt"),
    include_str!("../../boards/pit-maze.txt"),
    include_str!("../../boards/laser-alley.txt"),
];

/// Courses shipped with the crate.
pub const COURSES: [&str; 4] = [
    include_str!("../../courses/first-steps.txt"),
    include_str!("../../courses/dizzy-dash.txt"),
    include_str!("../../courses/laser-gauntlet.txt"),
    include_str!("../../courses/grand-tour.txt"),
];

/// A playable course: a name, a difficulty note and the assembled board with its flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Course {
    pub name: String,
    pub difficulty: String,
    pub board: Board,
}

/// Why a course does not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CourseError {
    Text(BoardError),
    Invalid(Vec<String>),
}

impl std::fmt::Display for CourseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CourseError::Text(e) => e.fmt(f),
            CourseError::Invalid(p) => f.write_str(&p.join("; ")),
        }
    }
}
impl std::error::Error for CourseError {}

/// A name as used in files: lower case, spaces as dashes.
pub fn slug(name: &str) -> String {
    name.trim().to_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
}

/// Every shipped piece, parsed once per process (issue 17: setup costs nothing per game).
fn pieces() -> &'static [NamedBoard] {
    static PARSED: OnceLock<Vec<NamedBoard>> = OnceLock::new();
    PARSED.get_or_init(|| {
        PIECES.iter().map(|t| parse_named_board(t).expect("shipped pieces parse")).collect()
    })
}

/// A shipped course as cached: its slug, the course and its board ready to share.
struct Shipped {
    slug: String,
    course: Course,
    board: Arc<Board>,
}

/// Every shipped course, assembled and validated once per process.
fn courses() -> &'static [Shipped] {
    static PARSED: OnceLock<Vec<Shipped>> = OnceLock::new();
    PARSED.get_or_init(|| {
        COURSES
            .iter()
            .map(|t| {
                let course = parse_course(t, pieces()).expect("shipped courses load");
                Shipped { slug: slug(&course.name), board: Arc::new(course.board.clone()), course }
            })
            .collect()
    })
}

/// Every shipped piece, parsed (a copy of the process-wide cache).
pub fn shipped_pieces() -> Vec<NamedBoard> {
    pieces().to_vec()
}

/// Every shipped course, assembled and validated (a copy of the process-wide cache).
pub fn shipped_courses() -> Vec<Course> {
    courses().iter().map(|c| c.course.clone()).collect()
}

/// A shipped course by name (case and spaces do not matter: "Dizzy Dash" = "dizzy-dash").
pub fn course_by_name(name: &str) -> Option<Course> {
    shipped_course(name).cloned()
}

/// A shipped course by name, from the process-wide cache (no parsing, no copy).
pub fn shipped_course(name: &str) -> Option<&'static Course> {
    let want = slug(name);
    courses().iter().find(|c| c.slug == want).map(|c| &c.course)
}

/// A shipped course's board by name, shared: every game on it holds the same parsed board.
pub fn shipped_board(name: &str) -> Option<Arc<Board>> {
    let want = slug(name);
    courses().iter().find(|c| c.slug == want).map(|c| Arc::clone(&c.board))
}

/// Read a course or a single board piece from text (for `robodrome board render FILE`): a text
/// whose first line is `course ...` is a course over the shipped pieces; one starting with
/// `board ...` is drawn as a course of that piece alone (no flags, not validated).
pub fn load_text(text: &str) -> Result<Course, CourseError> {
    if is_course(text) {
        return parse_course(text, pieces());
    }
    let nb = parse_named_board(text).map_err(CourseError::Text)?;
    Ok(Course { name: nb.name, difficulty: String::new(), board: nb.board })
}

/// A course file's text over the shipped pieces, assembled and validated (a board piece alone
/// is not a course: it has no flags).
pub fn load_course_text(text: &str) -> Result<Course, CourseError> {
    if !is_course(text) {
        return Err(CourseError::Invalid(vec![
            "a course file starts with `course NAME` (a board piece alone has no flags)".into(),
        ]));
    }
    parse_course(text, &shipped_pieces())
}

/// Parse a course text against the given pieces, assemble and validate it.
pub fn parse_course(text: &str, pieces: &[NamedBoard]) -> Result<Course, CourseError> {
    let (course, _) = assemble_course(text, pieces)?;
    let problems = validate::validate(&course.board);
    if !problems.is_empty() {
        return Err(CourseError::Invalid(problems));
    }
    Ok(course)
}

/// Where a course text wrote its flags and pieces (1-based line, column of the first word
/// after the keyword), for findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CourseLines {
    pub flags: Vec<(usize, usize)>,
    /// Each `place` line and the cells its piece covers (top-left corner, width, height).
    pub pieces: Vec<((usize, usize), Sq, i32, i32)>,
    /// Each `dock` line, with the dock's number.
    pub docks: Vec<((usize, usize), u8)>,
}

/// `robodrome board check`: every finding about a course or board-piece text, by line and
/// column. A course is checked by [`validate::problems`] once assembled (its flags at their
/// `flag` lines, its docks at their `dock` line or the `place` line of their piece); a piece
/// alone only parses (its flags and reachability belong to the courses that use it).
pub fn check_text(text: &str) -> Vec<Finding> {
    inspect_text(text).0.into_iter().map(|(f, _)| f).collect()
}

/// [`check_text`], each finding with the course cell it concerns when it has one (a flag's or
/// a dock's: what the editor marks), and the assembled course when the text assembles (drawn
/// by the editor even while the validator finds errors).
pub fn inspect_text(text: &str) -> (Vec<(Finding, Option<Sq>)>, Option<Course>) {
    let text_error = |e: &BoardError| Finding::error("", e.message.clone()).at(e.line, e.column);
    if !is_course(text) {
        return match parse_named_board(text) {
            Ok(nb) => (
                Vec::new(),
                Some(Course { name: nb.name, difficulty: String::new(), board: nb.board }),
            ),
            Err(e) => (vec![(text_error(&e), None)], None),
        };
    }
    let (course, lines) = match assemble_course(text, pieces()) {
        Ok(x) => x,
        Err(CourseError::Text(e)) => return (vec![(text_error(&e), None)], None),
        Err(CourseError::Invalid(p)) => {
            return (p.into_iter().map(|m| (Finding::error("RR-1.3", m), None)).collect(), None);
        }
    };
    let mut out: Vec<(Finding, Option<Sq>)> = validate::problems(&course.board)
        .into_iter()
        .map(|p| {
            let f = Finding { severity: p.severity, place: None, rule: p.rule, message: p.message };
            let dock = p.dock.and_then(|k| course.board.docks.get(k));
            let flag = p.flag.and_then(|i| course.board.flags.get(i).copied());
            let at = p.flag.and_then(|i| lines.flags.get(i).copied()).or_else(|| {
                let d = dock?;
                lines.docks.iter().find(|&&(_, n)| n == d.number).map(|x| x.0).or_else(|| {
                    lines.pieces.iter().find_map(|&(place, o, w, h)| {
                        let a = d.at;
                        (a.x >= o.x && a.y >= o.y && a.x < o.x + w && a.y < o.y + h)
                            .then_some(place)
                    })
                })
            });
            let f = match at {
                Some((l, c)) => f.at(l, c),
                None => f,
            };
            (f, flag.or(dock.map(|d| d.at)))
        })
        .collect();
    out.sort_by(|a, b| {
        (a.0.place, a.0.severity, &a.0.message).cmp(&(b.0.place, b.0.severity, &b.0.message))
    });
    (out, Some(course))
}

fn is_course(text: &str) -> bool {
    text.lines()
        .map(words)
        .find(|w| !w.is_empty())
        .and_then(|w| w.first().map(|x| x.1 == "course"))
        .unwrap_or(false)
}

/// The words that begin a course's own lines; every other line after a `board` line belongs
/// to that board piece.
const COURSE_WORDS: [&str; 5] = ["course", "difficulty", "place", "flag", "dock"];

/// The pieces a course file defines itself, each with the line of its `board` line.
type OwnPieces = Vec<(usize, NamedBoard)>;

/// The board pieces a course file defines itself (`board NAME` to the next course line), each
/// parsed, with the 1-based line of its `board` line; the other lines' numbers.
fn own_pieces(text: &str) -> Result<(OwnPieces, Vec<usize>), BoardError> {
    let all: Vec<&str> = text.lines().collect();
    let mut own = Vec::new();
    let mut course_lines = Vec::new();
    let mut piece: Option<usize> = None; // index of its `board` line
    let flush = |start: Option<usize>, end: usize, own: &mut Vec<(usize, NamedBoard)>| {
        let Some(start) = start else { return Ok(()) };
        let body = all[start..end].join("\n");
        let nb = parse_named_board(&body).map_err(|e| err(e.line + start, e.column, e.message))?;
        let ln = start + 1;
        let col = words(all[start]).get(1).map_or(1, |w| w.0);
        if nb.name.trim().is_empty() {
            return Err(err(ln, 1, "a board piece in a course file needs a name (`board NAME`)"));
        }
        if pieces().iter().any(|p| slug(&p.name) == slug(&nb.name)) {
            return Err(err(
                ln,
                col,
                format!(
                    "`{}` is a shipped piece's name: give this piece a name of its own",
                    nb.name
                ),
            ));
        }
        if own.iter().any(|(_, p): &(usize, NamedBoard)| slug(&p.name) == slug(&nb.name)) {
            return Err(err(ln, col, format!("a second board piece named `{}`", nb.name)));
        }
        own.push((ln, nb));
        Ok(())
    };
    for (i, line) in all.iter().enumerate() {
        let head = words(line).first().map(|w| w.1);
        match head {
            Some("board") => {
                flush(piece, i, &mut own)?;
                piece = Some(i);
            }
            Some(h) if COURSE_WORDS.contains(&h) => {
                flush(piece, i, &mut own)?;
                piece = None;
                course_lines.push(i + 1);
            }
            _ if piece.is_some() => {}
            _ => course_lines.push(i + 1),
        }
    }
    flush(piece, all.len(), &mut own)?;
    Ok((own, course_lines))
}

/// Parse a course text against the given pieces (and the pieces it defines itself) and
/// assemble it, without validating it.
pub fn assemble_course(
    text: &str,
    pieces: &[NamedBoard],
) -> Result<(Course, CourseLines), CourseError> {
    let (own, course_lines) = own_pieces(text).map_err(CourseError::Text)?;
    let all: Vec<&str> = text.lines().collect();
    let mut lines = CourseLines::default();
    let mut name = String::new();
    let mut difficulty = String::new();
    let mut placed: Vec<(Board, Sq)> = Vec::new();
    let mut flags = Vec::new();
    let mut docks = Vec::new();
    for ln in course_lines {
        let line = all[ln - 1];
        let w = words(line);
        let Some(&(col, head)) = w.first() else { continue };
        let rest = || w[1..].iter().map(|x| x.1).collect::<Vec<_>>().join(" ");
        let num = |k: usize| -> Result<i32, CourseError> {
            let &(c, s) =
                w.get(k).ok_or_else(|| CourseError::Text(err(ln, col, "missing number")))?;
            s.parse().map_err(|_| CourseError::Text(err(ln, c, format!("`{s}` is not a number"))))
        };
        match head {
            "course" => name = rest(),
            "difficulty" => difficulty = rest(),
            "place" => {
                let &(c, piece) = w
                    .get(1)
                    .ok_or_else(|| err(ln, col, "place PIECE X Y TURNS"))
                    .map_err(CourseError::Text)?;
                let nb = own
                    .iter()
                    .map(|(_, p)| p)
                    .chain(pieces.iter())
                    .find(|p| slug(&p.name) == slug(piece))
                    .ok_or_else(|| {
                        CourseError::Text(err(ln, c, format!("no board piece `{piece}`")))
                    })?;
                let (x, y, k) = (num(2)?, num(3)?, num(4)?);
                let b = rotate(&nb.board, k);
                lines.pieces.push(((ln, c), Sq::new(x, y), b.width, b.height));
                placed.push((b, Sq::new(x, y)));
            }
            "flag" => {
                flags.push(Sq::new(num(1)?, num(2)?));
                lines.flags.push((ln, w.get(1).map_or(col, |x| x.0)));
            }
            "dock" => {
                let number = num(1)?;
                let number = u8::try_from(number)
                    .ok()
                    .filter(|n| (1..=8).contains(n))
                    .ok_or_else(|| CourseError::Text(err(ln, w[1].0, "a dock is numbered 1..8")))?;
                let at = Sq::new(num(2)?, num(3)?);
                let facing = match w.get(4) {
                    None => SqDir::N,
                    Some(&(c, s)) => SqDir::from_letter(s).ok_or_else(|| {
                        CourseError::Text(err(ln, c, format!("`{s}` is not N, E, S or W")))
                    })?,
                };
                docks.push(Dock { number, at, facing });
                lines.docks.push(((ln, w[1].0), number));
            }
            other => {
                return Err(CourseError::Text(err(
                    ln,
                    col,
                    format!(
                        "unknown line `{other}` (course, difficulty, place, flag, dock, board)"
                    ),
                )));
            }
        }
    }
    let mut board = assemble(&placed).map_err(|m| CourseError::Invalid(vec![m]))?;
    board.flags = flags;
    board.docks.extend(docks);
    board.docks.sort_by_key(|d| d.number);
    Ok((Course { name, difficulty, board }, lines))
}

/// Rotate a piece by `k` quarter turns clockwise.
pub fn rotate(b: &Board, k: i32) -> Board {
    let k = k.rem_euclid(4);
    let mut out = b.clone();
    for _ in 0..k {
        out = rotate_once(&out);
    }
    out
}

fn rotate_once(b: &Board) -> Board {
    let h = b.height;
    let map = |s: Sq| Sq::new(h - 1 - s.y, s.x);
    let turn = |d: SqDir| d.turn(1);
    let mut r = Board::new(b.height, b.width);
    for (at, cell) in b.cells() {
        let cell = match cell {
            Cell::Belt(bt) => {
                Cell::Belt(Belt { dir: turn(bt.dir), express: bt.express, from: bt.from.map(turn) })
            }
            Cell::Pusher { side, registers } => Cell::Pusher { side: turn(side), registers },
            c => c,
        };
        r.set_cell(map(at), cell);
    }
    for e in b.walls() {
        r.add_wall(map(e.at), turn(e.side));
    }
    r.lasers = b
        .lasers
        .iter()
        .map(|l| Laser { at: map(l.at), dir: turn(l.dir), beams: l.beams })
        .collect();
    r.flags = b.flags.iter().map(|&f| map(f)).collect();
    r.docks = b
        .docks
        .iter()
        .map(|d| Dock { number: d.number, at: map(d.at), facing: turn(d.facing) })
        .collect();
    r
}

/// Put pieces on one grid; uncovered cells are void.
fn assemble(placed: &[(Board, Sq)]) -> Result<Board, String> {
    let w = placed.iter().map(|(b, o)| o.x.saturating_add(b.width)).max().unwrap_or(0);
    let h = placed.iter().map(|(b, o)| o.y.saturating_add(b.height)).max().unwrap_or(0);
    if placed.is_empty() || placed.iter().any(|(_, o)| o.x < 0 || o.y < 0) {
        return Err("a course places at least one piece, at non-negative coordinates".into());
    }
    if w > 64 || h > 64 {
        return Err(format!("a course is at most 64x64 cells, not {w}x{h}"));
    }
    let mut out = Board::new(w, h);
    let all: Vec<Sq> = out.cells().map(|(s, _)| s).collect();
    for s in all {
        out.set_cell(s, Cell::Void);
    }
    let shift = |s: Sq, o: Sq| Sq::new(s.x + o.x, s.y + o.y);
    for (b, o) in placed {
        for (at, cell) in b.cells() {
            let to = shift(at, *o);
            if out.cell(to) != Cell::Void {
                return Err(format!("pieces overlap at {to}"));
            }
            out.set_cell(to, cell);
        }
    }
    for (b, o) in placed {
        for e in b.walls() {
            out.add_wall(shift(e.at, *o), e.side);
        }
        out.lasers.extend(b.lasers.iter().map(|l| Laser { at: shift(l.at, *o), ..*l }));
        out.docks.extend(b.docks.iter().map(|d| Dock { at: shift(d.at, *o), ..*d }));
    }
    out.docks.sort_by_key(|d| d.number);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_courses_load_and_validate() {
        let courses = shipped_courses();
        assert!(courses.len() >= 4);
        for c in &courses {
            assert!((1..=6).contains(&c.board.flags.len()), "{}", c.name);
            assert_eq!(c.board.docks.len(), 8, "{}", c.name);
            assert!(course_by_name(&c.name).is_some());
        }
        assert!(
            shipped_pieces().iter().filter(|p| p.board.width == 12 && p.board.height == 12).count()
                >= 4
        );
    }

    #[test]
    fn load_text_reads_courses_and_pieces() {
        assert_eq!(load_text(COURSES[1]).unwrap().name, "Dizzy Dash");
        let piece = load_text(PIECES[1]).unwrap();
        assert_eq!((piece.name.as_str(), piece.board.width), ("Gearbox", 12));
        assert!(
            matches!(load_text("course X\nplace nowhere 0 0 0\n"), Err(CourseError::Text(e)) if e.line == 2)
        );
        assert!(matches!(
            load_text("course X\nplace gearbox 2147483647 0 0\nflag 1 1\n"),
            Err(CourseError::Invalid(_))
        ));
    }

    #[test]
    fn rotation_four_times_is_identity() {
        for p in shipped_pieces() {
            assert_eq!(rotate(&p.board, 4), p.board);
            let r = rotate(&p.board, 1);
            assert_eq!((r.width, r.height), (p.board.height, p.board.width));
            assert_eq!(r.walls().len(), p.board.walls().len());
        }
    }

    #[test]
    fn rotation_turns_belts_and_walls() {
        let mut b = Board::new(2, 1);
        b.set_cell(Sq::new(0, 0), Cell::Belt(Belt { dir: SqDir::E, express: false, from: None }));
        b.add_wall(Sq::new(1, 0), SqDir::E);
        let r = rotate(&b, 1);
        // [0,0] of a 2x1 piece goes to [0,0] of the 1x2 result; E becomes S.
        assert_eq!(
            r.cell(Sq::new(0, 0)),
            Cell::Belt(Belt { dir: SqDir::S, express: false, from: None })
        );
        assert!(r.wall(Sq::new(0, 1), SqDir::S));
    }

    #[test]
    fn check_names_the_line_and_column_of_each_finding_rr_1_3() {
        use engine::check::Severity;
        // Pit Maze has a pit at [3,0]; [99,99] is off the course.
        let text = "course Test\nplace pit-maze 0 0 0\nplace bay 0 12 0\nflag 3 0\nflag 99 99\n";
        let f = check_text(text);
        let errors: Vec<(usize, usize, &str)> = f
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .map(|x| {
                let p = x.place.unwrap();
                (p.line, p.column, x.rule)
            })
            .collect();
        assert_eq!(errors, [(4, 6, "RR-2"), (5, 6, "RR-1.3")], "{f:?}");
        // A format error keeps its own line and column; a piece alone is only parsed.
        let f = check_text("course Test\nplace atlantis 0 0 0\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].place.map(|p| (p.line, p.column)), Some((2, 7)), "{f:?}");
        assert!(check_text(PIECES[1]).is_empty());
        // Every shipped course checks without an error.
        for c in COURSES {
            assert!(check_text(c).iter().all(|x| !x.is_error()), "{c}");
        }
    }

    /// A course file may carry its own board pieces (what the editor makes) and its own docks.
    const OWN: &str = "course Own\nplace mine 0 0 1\nplace bay 0 3 0\nflag 1 1\nflag 0 2\n\
        # my piece\nboard Mine\nsize 3 3\ngrid\n. X .\n. . .\n>> . R:N\nlaser 0 0 E 2\n\
        dock 1 1 2 E\n";

    #[test]
    fn a_course_places_its_own_pieces_rr_1_3() {
        // The bay's docks 1..8 plus dock 1 of the file: numbered twice (RR-1.3).
        let (f, course) = inspect_text(OWN);
        let course = course.expect("assembles");
        let errors: Vec<_> = f.iter().filter(|x| x.0.is_error()).collect();
        assert_eq!(errors.len(), 1, "{f:?}");
        assert!(errors[0].0.message.contains("repeats"), "{f:?}");
        assert_eq!(errors[0].0.place.map(|p| p.line), Some(14), "the dock line: {f:?}");
        assert_eq!(errors[0].1, Some(Sq::new(1, 2)), "the dock's cell: {f:?}");
        // Turned a quarter clockwise: [x, y] of the 3x3 piece goes to [2 - y, x]; the pit at
        // [1,0] lands on [2,1], the express belt E at [0,2] on [0,0] going S.
        let b = &course.board;
        assert!(b.is_pit(Sq::new(2, 1)));
        assert_eq!(
            b.cell(Sq::new(0, 0)),
            Cell::Belt(Belt { dir: SqDir::S, express: true, from: None })
        );
        assert_eq!(b.lasers, vec![Laser { at: Sq::new(2, 0), dir: SqDir::S, beams: 2 }]);
        // Without the file's dock the course loads.
        let ok = OWN.replace("dock 1 1 2 E", "");
        assert!(check_text(&ok).iter().all(|x| !x.is_error()), "{:?}", check_text(&ok));
        assert_eq!(parse_course(&ok, &shipped_pieces()).unwrap().board.docks.len(), 8);
        // The flag on the pit is found at its line and cell.
        let pit = ok.replace("flag 0 2", "flag 2 1").replace("flag 1 1", "flag 2 1");
        let (f, _) = inspect_text(&pit);
        let e: Vec<_> = f.iter().filter(|x| x.0.is_error()).collect();
        assert!(e.iter().all(|x| x.1 == Some(Sq::new(2, 1))) && e.len() == 2, "{f:?}");
    }

    #[test]
    fn a_course_s_own_docks_are_checked_rr_1_3() {
        // No bay: docks of the course's own; dock 2 is off the board, dock 3 walled off.
        let text = "course D\nplace p 0 0 0\nflag 0 0\ndock 1 1 0\ndock 2 5 5 S\ndock 3 2 0\n\
            board P\nsize 3 1\ngrid\n. . .:W\n";
        let f = check_text(text);
        let e: Vec<(usize, &str)> = f
            .iter()
            .filter(|x| x.is_error())
            .map(|x| (x.place.unwrap().line, x.message.as_str()))
            .collect();
        assert_eq!(e.len(), 2, "{f:?}");
        assert_eq!(e[0].0, 3, "flag 1 is cut from dock 3: {f:?}");
        assert_eq!(e[1].0, 5, "dock 2 is off the board: {f:?}");
        assert!(e[1].1.contains("off the board"), "{f:?}");
    }

    #[test]
    fn a_course_s_own_pieces_report_errors_at_the_file_s_lines() {
        let text = "course E\nplace p 0 0 0\nflag 0 0\nboard P\nsize 2 1\ngrid\n. Q\n";
        let f = check_text(text);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].place.map(|p| (p.line, p.column)), Some((7, 3)), "{f:?}");
        let f = check_text(
            "course E\nplace gearbox 0 0 0\nflag 1 1\nboard Gearbox\nsize 1 1\ngrid\n.\n",
        );
        assert!(f[0].message.contains("shipped piece"), "{f:?}");
        let twice = "course E\nplace p 0 0 0\nflag 0 0\nboard P\nsize 1 1\ngrid\n.\nboard p\nsize 1 1\ngrid\n.\n";
        assert_eq!(check_text(twice)[0].place.map(|p| p.line), Some(8));
    }
}
