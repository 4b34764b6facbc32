//! Checks of an assembled course (RR-1.3): flags on pits or off the board, docks off the board,
//! on pits or numbered twice, flags that some dock cannot reach (walking over cells that are not
//! pits, through no wall: belts, pushers and gears move a robot only between such cells, so a
//! flag no walk reaches no robot reaches), and — a warning — fewer than 8 docks.

use super::{Board, Cell};
use engine::check::Severity;
use grid::{Sq, SqDir};

/// One problem: how bad, which flag or dock it is about (indices into `flags` / `docks`), the
/// rule, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub flag: Option<usize>,
    pub dock: Option<usize>,
    pub rule: &'static str,
    pub message: String,
}

/// Every error found (empty: the course may be played). Warnings: [`problems`].
pub fn validate(b: &Board) -> Vec<String> {
    problems(b)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| format!("{} ({})", p.message, p.rule))
        .collect()
}

/// Every problem found, errors and warnings.
pub fn problems(b: &Board) -> Vec<Problem> {
    let mut p = Vec::new();
    let mut push = |severity, flag, dock, rule, message: String| {
        p.push(Problem { severity, flag, dock, rule, message })
    };
    if b.flags.is_empty() || b.flags.len() > 6 {
        push(
            Severity::Error,
            None,
            None,
            "RR-1.3",
            format!("a course has 1..6 flags, not {}", b.flags.len()),
        );
    }
    for (i, &f) in b.flags.iter().enumerate() {
        match b.cell(f) {
            Cell::Void => push(
                Severity::Error,
                Some(i),
                None,
                "RR-1.3",
                format!("flag {} at {f} is off the board", i + 1),
            ),
            Cell::Pit => push(
                Severity::Error,
                Some(i),
                None,
                "RR-2",
                format!("flag {} at {f} is on a pit", i + 1),
            ),
            _ => {}
        }
    }
    for (k, d) in b.docks.iter().enumerate() {
        if !b.on_board(d.at) || b.is_pit(d.at) {
            push(
                Severity::Error,
                None,
                Some(k),
                "RR-1.3",
                format!("dock {} at {} is off the board or on a pit", d.number, d.at),
            );
        }
        if b.docks[..k].iter().any(|o| o.number == d.number) {
            push(
                Severity::Error,
                None,
                Some(k),
                "RR-1.3",
                format!("dock {} at {} repeats an earlier dock's number", d.number, d.at),
            );
        }
    }
    if b.docks.len() < 8 {
        push(
            Severity::Warning,
            None,
            None,
            "RR-1.3",
            format!(
                "the course has {} start docks: at most {} robots can race",
                b.docks.len(),
                b.docks.len()
            ),
        );
    }
    let reach: Vec<(u8, Vec<bool>)> = b
        .docks
        .iter()
        .filter(|d| b.on_board(d.at) && !b.is_pit(d.at))
        .map(|d| (d.number, reachable(b, d.at)))
        .collect();
    for (i, &f) in b.flags.iter().enumerate() {
        if !b.on_board(f) || b.is_pit(f) {
            continue;
        }
        let cut: Vec<String> = reach
            .iter()
            .filter(|(_, seen)| !seen[(f.y * b.width + f.x) as usize])
            .map(|(n, _)| n.to_string())
            .collect();
        if !cut.is_empty() {
            push(
                Severity::Error,
                Some(i),
                None,
                "RR-1.3",
                format!(
                    "flag {} at {f} cannot be reached from dock{} {}",
                    i + 1,
                    if cut.len() > 1 { "s" } else { "" },
                    cut.join(", ")
                ),
            );
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
    use super::super::Dock;
    use super::*;

    fn dock(number: u8, x: i32) -> Dock {
        Dock { number, at: Sq::new(x, 0), facing: SqDir::N }
    }

    #[test]
    fn finds_bad_flags_rr_1_3() {
        let mut b = Board::new(3, 1);
        b.set_cell(Sq::new(1, 0), Cell::Pit);
        b.docks.push(dock(1, 0));
        b.flags = vec![Sq::new(1, 0), Sq::new(2, 0), Sq::new(5, 5)];
        let p = validate(&b);
        assert_eq!(p.len(), 3, "{p:?}"); // on a pit, unreachable, off the board
        assert!(p[0].contains("on a pit (RR-2)"), "{p:?}");
    }

    #[test]
    fn every_flag_is_reachable_from_every_dock_rr_1_3() {
        // Dock 1 at x=0 reaches the flag at x=1; dock 2 at x=3 is walled off from it.
        let mut b = Board::new(4, 1);
        b.add_wall(Sq::new(2, 0), SqDir::W);
        b.docks = vec![dock(1, 0), dock(2, 3)];
        b.flags = vec![Sq::new(1, 0)];
        let p = problems(&b);
        let errors: Vec<&Problem> = p.iter().filter(|x| x.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{p:?}");
        assert_eq!(errors[0].flag, Some(0));
        assert!(errors[0].message.ends_with("from dock 2"), "{p:?}");
    }

    #[test]
    fn docks_off_the_board_or_numbered_twice_are_errors_and_few_docks_a_warning_rr_1_3() {
        let mut b = Board::new(3, 1);
        b.docks = vec![dock(1, 0), dock(1, 1), dock(3, 7)];
        b.flags = vec![Sq::new(2, 0)];
        let p = problems(&b);
        let errs: Vec<(Option<usize>, &str)> = p
            .iter()
            .filter(|x| x.severity == Severity::Error)
            .map(|x| (x.dock, x.message.as_str()))
            .collect();
        assert_eq!(errs.len(), 2, "{p:?}");
        assert_eq!(errs[0].0, Some(1));
        assert!(errs[0].1.contains("repeats"), "{p:?}");
        assert_eq!(errs[1].0, Some(2));
        assert!(
            p.iter()
                .any(|x| x.severity == Severity::Warning && x.message.contains("3 start docks"))
        );
    }
}
