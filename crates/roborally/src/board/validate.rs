//! Checks of an assembled course: flags on pits or off the board, docks off the board,
//! unreachable flags (walking from dock 1 over cells that are not pits, through no wall).

use super::{Board, Cell};
use grid::{Sq, SqDir};

/// Every problem found (empty: the course is fine).
pub fn validate(b: &Board) -> Vec<String> {
    let mut p = Vec::new();
    if b.flags.is_empty() || b.flags.len() > 6 {
        p.push(format!("a course has 1..6 flags, not {}", b.flags.len()));
    }
    for (i, &f) in b.flags.iter().enumerate() {
        match b.cell(f) {
            Cell::Void => p.push(format!("flag {} at {f} is off the board", i + 1)),
            Cell::Pit => p.push(format!("flag {} at {f} is on a pit", i + 1)),
            _ => {}
        }
    }
    for d in &b.docks {
        if !b.on_board(d.at) || b.is_pit(d.at) {
            p.push(format!("dock {} at {} is off the board or on a pit", d.number, d.at));
        }
    }
    if let Some(start) = b.docks.first().map(|d| d.at).filter(|&s| b.on_board(s)) {
        let seen = reachable(b, start);
        for (i, &f) in b.flags.iter().enumerate() {
            if b.on_board(f) && !b.is_pit(f) && !seen[(f.y * b.width + f.x) as usize] {
                p.push(format!(
                    "flag {} at {f} cannot be reached from dock {}",
                    i + 1,
                    b.docks[0].number
                ));
            }
        }
    }
    p
}

fn reachable(b: &Board, start: Sq) -> Vec<bool> {
    let mut seen = vec![false; (b.width * b.height) as usize];
    let mut stack = vec![start];
    seen[(start.y * b.width + start.x) as usize] = true;
    while let Some(s) = stack.pop() {
        for d in SqDir::ALL {
            let n = s.neighbour(d);
            if b.wall(s, d) || !b.on_board(n) || b.is_pit(n) {
                continue;
            }
            let i = (n.y * b.width + n.x) as usize;
            if !seen[i] {
                seen[i] = true;
                stack.push(n);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_bad_flags() {
        let mut b = Board::new(3, 1);
        b.set_cell(Sq::new(1, 0), Cell::Pit);
        b.docks.push(super::super::Dock { number: 1, at: Sq::new(0, 0), facing: SqDir::N });
        b.flags = vec![Sq::new(1, 0), Sq::new(2, 0), Sq::new(5, 5)];
        let p = validate(&b);
        assert_eq!(p.len(), 3, "{p:?}"); // on a pit, unreachable, off the board
    }
}
