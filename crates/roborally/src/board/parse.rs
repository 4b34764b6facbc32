//! The board text format (`docs/roborally-boards.md`): a grid of whitespace-separated cell
//! tokens with a legend, plus `laser` lines. Errors carry a line and a column.
//!
//! ```text
//! board Crossroads          # a name
//! size 12 12                # width height
//! grid                      # then `height` rows of `width` tokens
//! .  .  >  >  vW:E ...
//! laser 3 4 E 2             # beam starts in [3,4], shoots E, 2 beams
//! ```
//! Token = element, optionally followed by `:` and the wall sides of the cell (`R:NW`).
//! Elements: `.` floor, `X` pit, `R` repair, `D` double repair, `GL`/`GR` gears, `^ > v <` belts
//! (`^^ >> vv <<` express) with an optional upper-case side the belt turns in from (`vW`),
//! `P135N`/`P24S` pushers (registers, then the wall side they hang on; the wall is implied),
//! `1`..`8` start docks (facing N in the piece's own orientation).

use super::inline::register_mask;
use super::{Belt, Board, Cell, Dock, Laser, Turn};
use grid::{Sq, SqDir};
use std::fmt;

/// A problem in a board or course text, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}
impl std::error::Error for BoardError {}

pub(crate) fn err(line: usize, column: usize, message: impl Into<String>) -> BoardError {
    BoardError { line, column, message: message.into() }
}

/// A named board piece as read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedBoard {
    pub name: String,
    pub board: Board,
}

/// Words of a line with their 1-based columns, comments (`#`) removed.
pub(crate) fn words(line: &str) -> Vec<(usize, &str)> {
    let line = line.split('#').next().unwrap_or("");
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s + 1, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

/// Parse one board piece (see the module docs).
pub fn parse_board(text: &str) -> Result<Board, BoardError> {
    parse_named_board(text).map(|b| b.board)
}

/// Parse one board piece and its name.
pub fn parse_named_board(text: &str) -> Result<NamedBoard, BoardError> {
    let mut name = None;
    let mut board: Option<Board> = None;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((ln, line)) = lines.next() {
        let w = words(line);
        let Some(&(col, head)) = w.first() else { continue };
        match head {
            "board" => name = Some(w[1..].iter().map(|x| x.1).collect::<Vec<_>>().join(" ")),
            "size" => {
                let [wd, ht] = numbers::<2>(&w, ln)?;
                if !(1..=24).contains(&wd) || !(1..=24).contains(&ht) {
                    return Err(err(ln, col, "a board piece is 1..24 cells each way"));
                }
                board = Some(Board::new(wd, ht));
            }
            "grid" => {
                let b =
                    board.as_mut().ok_or_else(|| err(ln, col, "`size` must come before `grid`"))?;
                for y in 0..b.height {
                    let (ln, row) = lines
                        .next()
                        .ok_or_else(|| err(ln, 1, format!("grid row {y} is missing")))?;
                    parse_row(b, y, ln, row)?;
                }
            }
            "laser" => {
                let b = board
                    .as_mut()
                    .ok_or_else(|| err(ln, col, "`size` must come before `laser`"))?;
                let [x, y] = numbers::<2>(&w[..3.min(w.len())], ln)?;
                let dir = side(w.get(3), ln, col)?;
                let beams = w.get(4).map_or(Ok(1), |&(c, s)| {
                    s.parse::<u8>().map_err(|_| err(ln, c, "beams must be 1..3"))
                })?;
                if !(1..=3).contains(&beams) || !b.in_bounds(Sq::new(x, y)) {
                    return Err(err(ln, col, "a laser is inside the board with 1..3 beams"));
                }
                b.lasers.push(Laser { at: Sq::new(x, y), dir, beams });
            }
            other => {
                return Err(err(
                    ln,
                    col,
                    format!("unknown line `{other}` (board, size, grid, laser)"),
                ));
            }
        }
    }
    let board = board.ok_or_else(|| err(1, 1, "no `size` line"))?;
    Ok(NamedBoard { name: name.unwrap_or_default(), board })
}

fn numbers<const N: usize>(w: &[(usize, &str)], ln: usize) -> Result<[i32; N], BoardError> {
    let mut out = [0; N];
    for (i, o) in out.iter_mut().enumerate() {
        let &(c, s) =
            w.get(i + 1).ok_or_else(|| err(ln, w[0].0, format!("expected {N} numbers")))?;
        *o = s.parse().map_err(|_| err(ln, c, format!("`{s}` is not a number")))?;
    }
    Ok(out)
}

fn side(w: Option<&(usize, &str)>, ln: usize, col: usize) -> Result<SqDir, BoardError> {
    let &(c, s) = w.ok_or_else(|| err(ln, col, "expected a direction letter N, E, S or W"))?;
    SqDir::from_letter(s).ok_or_else(|| err(ln, c, format!("`{s}` is not N, E, S or W")))
}

fn parse_row(b: &mut Board, y: i32, ln: usize, row: &str) -> Result<(), BoardError> {
    let w = words(row);
    if w.len() != b.width as usize {
        return Err(err(ln, 1, format!("grid row has {} cells, expected {}", w.len(), b.width)));
    }
    for (x, &(col, token)) in w.iter().enumerate() {
        let at = Sq::new(x as i32, y);
        let (element, walls) = token.split_once(':').unwrap_or((token, ""));
        for (i, ch) in walls.char_indices() {
            let d = SqDir::from_letter(&ch.to_string()).ok_or_else(|| {
                err(ln, col + element.len() + 1 + i, format!("`{ch}` is not a wall side"))
            })?;
            b.add_wall(at, d);
        }
        let cell = parse_element(element).map_err(|m| err(ln, col, format!("`{token}`: {m}")))?;
        if let Cell::Pusher { side, .. } = cell {
            b.add_wall(at, side);
        }
        if let Some(n) = element.parse::<u8>().ok().filter(|n| (1..=8).contains(n)) {
            b.docks.push(Dock { number: n, at, facing: SqDir::N });
        } else {
            b.set_cell(at, cell);
        }
    }
    Ok(())
}

/// One cell element of the legend.
pub fn parse_element(e: &str) -> Result<Cell, String> {
    Ok(match e {
        "." => Cell::Floor,
        "X" => Cell::Pit,
        "R" => Cell::Repair,
        "D" => Cell::RepairOption,
        "GL" => Cell::Gear(Turn::Left),
        "GR" => Cell::Gear(Turn::Right),
        "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" => Cell::Floor,
        _ if e.starts_with('P') => {
            let side = e
                .chars()
                .last()
                .and_then(|c| SqDir::from_letter(&c.to_string()))
                .ok_or("a pusher ends with its side letter")?;
            let regs: Vec<u8> = e[1..e.len() - 1].bytes().map(|c| c.wrapping_sub(b'0')).collect();
            Cell::Pusher { side, registers: register_mask(&regs)? }
        }
        _ => belt(e)?,
    })
}

fn belt(e: &str) -> Result<Cell, String> {
    let arrow = |c: char| match c {
        '^' => Some(SqDir::N),
        '>' => Some(SqDir::E),
        'v' => Some(SqDir::S),
        '<' => Some(SqDir::W),
        _ => None,
    };
    let chars: Vec<char> = e.chars().collect();
    let dir = chars.first().and_then(|&c| arrow(c)).ok_or("unknown element (see the legend)")?;
    let express = chars.get(1) == chars.first();
    let rest: String = chars[if express { 2 } else { 1 }..].iter().collect();
    let from = match rest.as_str() {
        "" => None,
        s => Some(SqDir::from_letter(s).ok_or("a belt turn is one side letter N, E, S or W")?),
    };
    if from.is_some_and(|f| f == dir || f == dir.opposite()) {
        return Err("a turning belt comes in from a side it does not leave by or face".into());
    }
    Ok(Cell::Belt(Belt { dir, express, from }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend() {
        assert_eq!(
            parse_element(">>").unwrap(),
            Cell::Belt(Belt { dir: SqDir::E, express: true, from: None })
        );
        assert_eq!(
            parse_element("vW").unwrap(),
            Cell::Belt(Belt { dir: SqDir::S, express: false, from: Some(SqDir::W) })
        );
        assert_eq!(
            parse_element("P24S").unwrap(),
            Cell::Pusher { side: SqDir::S, registers: 0b10100 }
        );
        assert!(parse_element("vS").is_err());
        assert!(parse_element("Q").is_err());
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = parse_board("board t\nsize 3 1\ngrid\n. Q .\n").unwrap_err();
        assert_eq!((e.line, e.column), (4, 3));
        let e = parse_board("board t\nsize 3 1\ngrid\n. .\n").unwrap_err();
        assert_eq!(e.line, 4);
        let e = parse_board("board t\nsize 2 1\ngrid\n. R:Q\n").unwrap_err();
        assert_eq!((e.line, e.column), (4, 5));
    }

    #[test]
    fn walls_docks_lasers() {
        let b =
            parse_board("board t\nsize 3 2\ngrid\n. R:N 1\nX P135W .\nlaser 2 1 W 2\n").unwrap();
        assert!(b.wall(Sq::new(1, 0), SqDir::N));
        assert!(b.wall(Sq::new(1, 1), SqDir::W), "a pusher implies its wall");
        assert_eq!(b.docks, vec![Dock { number: 1, at: Sq::new(2, 0), facing: SqDir::N }]);
        assert_eq!(b.lasers.len(), 1);
        assert!(b.is_pit(Sq::new(0, 1)));
    }
}
