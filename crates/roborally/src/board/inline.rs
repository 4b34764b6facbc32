//! RR-11 The inline board of a scenario file: `{"width", "height", "cells", "walls", "lasers",
//! "flags", "docks"}`. Cells not listed are floor.

use super::{Belt, Board, Cell, Dock, Laser, Turn};
use grid::{Sq, SqDir};
use serde::{Deserialize, Deserializer, Serialize};

/// A wall or pusher side written as a letter (`"N"`, `"E"`, `"S"`, `"W"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub struct Side(pub SqDir);

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        let s = String::deserialize(d)?;
        SqDir::from_letter(&s).map(Side).ok_or_else(|| {
            serde::de::Error::custom(format!("side must be N, E, S or W, got {s:?}"))
        })
    }
}
impl From<Side> for String {
    fn from(s: Side) -> String {
        s.0.letter().to_string()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnName {
    Left,
    Right,
}

/// One listed cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum InlineCell {
    Pit {
        at: Sq,
    },
    Conveyor {
        at: Sq,
        dir: SqDir,
        #[serde(default)]
        from: Option<SqDir>,
    },
    Express {
        at: Sq,
        dir: SqDir,
        #[serde(default)]
        from: Option<SqDir>,
    },
    Pusher {
        at: Sq,
        side: Side,
        registers: Vec<u8>,
    },
    Gear {
        at: Sq,
        turn: TurnName,
    },
    Repair {
        at: Sq,
    },
    RepairOption {
        at: Sq,
    },
    Floor {
        at: Sq,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineWall {
    pub at: Sq,
    pub side: Side,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineLaser {
    pub at: Sq,
    pub dir: SqDir,
    #[serde(default = "one")]
    pub beams: u8,
}
fn one() -> u8 {
    1
}

/// A dock: `[x, y]` or `{"at": [x, y], "facing": d}` (facing defaults to N).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InlineDock {
    At(Sq),
    Full {
        at: Sq,
        #[serde(default)]
        facing: SqDir,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineBoard {
    pub width: i32,
    pub height: i32,
    #[serde(default)]
    pub cells: Vec<InlineCell>,
    #[serde(default)]
    pub walls: Vec<InlineWall>,
    #[serde(default)]
    pub lasers: Vec<InlineLaser>,
    #[serde(default)]
    pub flags: Vec<Sq>,
    #[serde(default)]
    pub docks: Vec<InlineDock>,
}

impl InlineBoard {
    /// Build the board; every problem found is listed.
    pub fn build(&self) -> Result<Board, Vec<String>> {
        let mut problems = Vec::new();
        if !(1..=64).contains(&self.width) || !(1..=64).contains(&self.height) {
            return Err(vec![format!(
                "board size {}x{} must be 1..64 each way",
                self.width, self.height
            )]);
        }
        let mut b = Board::new(self.width, self.height);
        let check = |at: Sq, what: &str, problems: &mut Vec<String>| {
            let ok = b.in_bounds(at);
            if !ok {
                problems.push(format!("{what} at {at} is off the board"));
            }
            ok
        };
        let mut cells = Vec::new();
        for (i, c) in self.cells.iter().enumerate() {
            let (at, cell) = match c.to_cell() {
                Ok(x) => x,
                Err(e) => {
                    problems.push(format!("cells[{i}]: {e}"));
                    continue;
                }
            };
            if check(at, &format!("cells[{i}]"), &mut problems) {
                cells.push((at, cell));
            }
        }
        let walls: Vec<_> = self
            .walls
            .iter()
            .filter(|w| check(w.at, "wall", &mut problems))
            .map(|w| (w.at, w.side.0))
            .collect();
        let lasers: Vec<_> = self
            .lasers
            .iter()
            .filter(|l| check(l.at, "laser", &mut problems))
            .map(|l| Laser { at: l.at, dir: l.dir, beams: l.beams.max(1) })
            .collect();
        for &f in &self.flags {
            check(f, "flag", &mut problems);
        }
        let docks: Vec<Dock> = self
            .docks
            .iter()
            .enumerate()
            .map(|(i, d)| match *d {
                InlineDock::At(at) => Dock { number: i as u8 + 1, at, facing: SqDir::N },
                InlineDock::Full { at, facing } => Dock { number: i as u8 + 1, at, facing },
            })
            .collect();
        for d in &docks {
            check(d.at, "dock", &mut problems);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        for (at, cell) in cells {
            b.set_cell(at, cell);
        }
        for (at, side) in walls {
            b.add_wall(at, side);
        }
        b.lasers = lasers;
        b.flags = self.flags.clone();
        b.docks = docks;
        Ok(b)
    }
}

impl InlineCell {
    fn to_cell(&self) -> Result<(Sq, Cell), String> {
        Ok(match *self {
            InlineCell::Pit { at } => (at, Cell::Pit),
            InlineCell::Floor { at } => (at, Cell::Floor),
            InlineCell::Conveyor { at, dir, from } => (at, belt(dir, false, from)?),
            InlineCell::Express { at, dir, from } => (at, belt(dir, true, from)?),
            InlineCell::Pusher { at, side, ref registers } => {
                (at, Cell::Pusher { side: side.0, registers: register_mask(registers)? })
            }
            InlineCell::Gear { at, turn } => {
                (at, Cell::Gear(if turn == TurnName::Left { Turn::Left } else { Turn::Right }))
            }
            InlineCell::Repair { at } => (at, Cell::Repair),
            InlineCell::RepairOption { at } => (at, Cell::RepairOption),
        })
    }
}

fn belt(dir: SqDir, express: bool, from: Option<SqDir>) -> Result<Cell, String> {
    if let Some(f) = from {
        // The belt comes in through side `f`, travelling f.opposite(), and must turn 90°.
        if f == dir || f == dir.opposite() {
            return Err(format!(
                "a belt turn from side {} leaving {} does not turn",
                f.letter(),
                dir.letter()
            ));
        }
    }
    Ok(Cell::Belt(Belt { dir, express, from }))
}

/// RR-2: a pusher is active in registers 1-3-5 or 2-4.
pub fn register_mask(registers: &[u8]) -> Result<u8, String> {
    let mut m = 0u8;
    for &r in registers {
        if !(1..=5).contains(&r) {
            return Err(format!("pusher register {r} is not 1..5"));
        }
        m |= 1 << r;
    }
    if m != 0b101010 && m != 0b010100 {
        return Err("pusher registers must be [1, 3, 5] or [2, 4]".into());
    }
    Ok(m)
}
