//! RoboRally's pictures: a course as SVG (pure: returns the document as a string).

use grid::{Sq, SqDir};
use roborally::board::{Board, Cell, Course};
use std::fmt::Write;

const S: i32 = 40;

/// Draw a course: cells, walls, lasers, flags (numbered) and docks.
pub fn render_svg(course: &Course) -> String {
    render_board(&course.board, &course.name)
}

/// Draw any board.
pub fn render_board(b: &Board, title: &str) -> String {
    let mut o = String::new();
    let (w, h) = (b.width * S, b.height * S);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">"#
    );
    let _ = writeln!(o, "<title>{}</title>", escape(title));
    for (at, cell) in b.cells() {
        cell_svg(&mut o, at, cell);
    }
    for l in &b.lasers {
        // The beam's path, up to the first wall or the board edge (robots aside).
        let mut end = l.at;
        while !b.wall(end, l.dir) && b.on_board(end.neighbour(l.dir)) {
            end = end.neighbour(l.dir);
        }
        let ((x1, y1), (x2, y2)) = (centre(l.at), centre(end));
        let _ = writeln!(
            o,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="red" stroke-opacity="0.35" stroke-width="2"/>"#
        );
        let (x, y) = centre(l.at);
        let (dx, dy) = l.dir.step();
        let _ = writeln!(
            o,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="red" stroke-width="{}"/>"#,
            x - dx * S / 2,
            y - dy * S / 2,
            x,
            y,
            l.beams as i32 * 2
        );
    }
    for e in b.walls() {
        let (x1, y1, x2, y2) = side_line(e.at, e.side);
        let _ = writeln!(
            o,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e0a000" stroke-width="5"/>"##
        );
    }
    for (i, &f) in b.flags.iter().enumerate() {
        let (x, y) = centre(f);
        let _ = writeln!(
            o,
            r##"<circle cx="{x}" cy="{y}" r="12" fill="#2a6"/><text x="{x}" y="{}" font-size="14" text-anchor="middle" fill="white">{}</text>"##,
            y + 5,
            i + 1
        );
    }
    for d in &b.docks {
        let (x, y) = centre(d.at);
        let _ = writeln!(
            o,
            r##"<text x="{x}" y="{}" font-size="16" text-anchor="middle" fill="#333">{}</text>"##,
            y + 6,
            d.number
        );
    }
    o.push_str("</svg>\n");
    o
}

fn centre(at: Sq) -> (i32, i32) {
    (at.x * S + S / 2, at.y * S + S / 2)
}

fn side_line(at: Sq, side: SqDir) -> (i32, i32, i32, i32) {
    let (x, y) = (at.x * S, at.y * S);
    match side.index() {
        0 => (x, y, x + S, y),
        1 => (x + S, y, x + S, y + S),
        2 => (x, y + S, x + S, y + S),
        _ => (x, y, x, y + S),
    }
}

fn cell_svg(o: &mut String, at: Sq, cell: Cell) {
    let (x, y) = (at.x * S, at.y * S);
    let fill = match cell {
        Cell::Void => return,
        Cell::Floor => "#bbb",
        Cell::Pit => "#111",
        Cell::Belt(b) if b.express => "#58c",
        Cell::Belt(_) => "#cc5",
        Cell::Pusher { .. } => "#c8c",
        Cell::Gear(_) => "#8a8",
        Cell::Repair => "#9cf",
        Cell::RepairOption => "#6af",
    };
    let _ = writeln!(
        o,
        r##"<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{fill}" stroke="#888"/>"##
    );
    let (cx, cy) = centre(at);
    match cell {
        Cell::Belt(b) => {
            let (dx, dy) = b.dir.step();
            if let Some(f) = b.from {
                // A rotating section: a short stub from the side the belt comes in through.
                let (fx, fy) = f.step();
                let _ = writeln!(
                    o,
                    r#"<line x1="{}" y1="{}" x2="{cx}" y2="{cy}" stroke="black" stroke-width="3"/>"#,
                    cx + fx * 12,
                    cy + fy * 12
                );
            }
            let tail = if b.from.is_some() { (cx, cy) } else { (cx - dx * 12, cy - dy * 12) };
            let _ = writeln!(
                o,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black" stroke-width="3"/>"#,
                tail.0,
                tail.1,
                cx + dx * 12,
                cy + dy * 12
            );
            let _ = writeln!(o, r#"<circle cx="{}" cy="{}" r="4"/>"#, cx + dx * 12, cy + dy * 12);
        }
        Cell::Gear(t) => {
            let _ = writeln!(
                o,
                r#"<text x="{cx}" y="{}" font-size="18" text-anchor="middle">{}</text>"#,
                cy + 6,
                if t == roborally::board::Turn::Left { "↺" } else { "↻" }
            );
        }
        Cell::Repair | Cell::RepairOption => {
            let _ = writeln!(
                o,
                r#"<text x="{cx}" y="{}" font-size="16" text-anchor="middle">{}</text>"#,
                cy + 6,
                if cell == Cell::Repair { "R" } else { "R+" }
            );
        }
        _ => {}
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use roborally::board::shipped_courses;

    #[test]
    fn renders_every_shipped_course() {
        for c in shipped_courses() {
            let svg = render_svg(&c);
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert_eq!(
                svg.matches("<circle cx").count() - svg.matches("r=\"4\"").count(),
                c.board.flags.len()
            );
        }
    }
}
