//! Bumping Bots' pictures: a track as SVG.

use bumping_bots::track::{BoardSpec, ObstacleKind, Spin};
use bumping_bots::tracks::walled_edges;
use grid::{Hex, HexEdge};

/// A picture of a track as SVG (pointy-top hexes, size 20): cells, walls, the line, the grid
/// and the obstacles; a bumper's six arrow cells with their arrows pointing away from its centre
/// (BB-8.4), and a motorised obstacle's sense of rotation as a curved arrow round its centre
/// (BB-8.2: clockwise or anticlockwise on screen).
pub fn render_svg(track: &BoardSpec) -> String {
    let size = 20.0_f64;
    let s3 = 3f64.sqrt();
    let centre = |h: Hex| (size * s3 * (h.q as f64 + h.r as f64 / 2.0), size * 1.5 * h.r as f64);
    let corner = |h: Hex, i: i32| {
        let (x, y) = centre(h);
        let a = std::f64::consts::PI / 180.0 * (60.0 * i as f64 - 30.0);
        (x + size * a.cos(), y + size * a.sin())
    };
    // Side d lies between corners d and d+1 (corner 0 at -30°, E side between -30° and 30°).
    let edge =
        |e: HexEdge| (corner(e.at, e.side.index() as i32), corner(e.at, e.side.index() as i32 + 1));
    let pts: Vec<(f64, f64)> = track.cells.iter().map(|c| centre(c.at)).collect();
    let (minx, maxx) = pts.iter().fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (miny, maxy) = pts.iter().fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{:.1} {:.1} {:.1} {:.1}\">\n",
        minx - 2.0 * size,
        miny - 2.0 * size,
        maxx - minx + 4.0 * size,
        maxy - miny + 4.0 * size
    );
    for c in &track.cells {
        let p: Vec<String> =
            (0..6).map(|i| corner(c.at, i)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        out += &format!("<polygon points=\"{}\" fill=\"#ddd\" stroke=\"#bbb\"/>\n", p.join(" "));
    }
    let (_, walls) = walled_edges(track);
    for e in walls {
        let ((x1, y1), (x2, y2)) = edge(e);
        out += &format!(
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#222\" stroke-width=\"3\"/>\n"
        );
    }
    for e in &track.finish_line {
        let ((x1, y1), (x2, y2)) = edge(*e);
        out += &format!(
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#c00\" stroke-width=\"4\"/>\n"
        );
    }
    for (i, g) in track.start_grid.iter().enumerate() {
        let (x, y) = centre(g.at);
        out += &format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
            y + 4.0,
            i + 1
        );
    }
    for o in &track.obstacles {
        let (x, y) = centre(o.at);
        let colour = match o.kind {
            ObstacleKind::Fixed => "#000",
            ObstacleKind::Motorised => "#777",
            ObstacleKind::Mobile => "#d22",
            ObstacleKind::Bumper => "#fa0",
        };
        out += &format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"{colour}\"/>\n",
            size * 0.6
        );
        if let Some(arms) = o.arms {
            for a in arms {
                let (ax, ay) = centre(o.at.neighbour(a));
                out += &format!(
                    "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{ax:.1}\" y2=\"{ay:.1}\" stroke=\"#777\" stroke-width=\"8\"/>\n"
                );
            }
        }
        if o.kind == ObstacleKind::Bumper {
            out += &bumper_arrows(o.at, size, centre);
        }
        if let Some(spin) = o.turn {
            out += &turn_arrow(x, y, size, spin);
        }
    }
    out += "</svg>\n";
    out
}

/// BB-8.4: in each of the six cells round a bumper, an arrow pointing away from the centre.
fn bumper_arrows(at: Hex, size: f64, centre: impl Fn(Hex) -> (f64, f64)) -> String {
    let mut out = String::new();
    for d in grid::HexDir::ALL {
        let (cx, cy) = centre(at.neighbour(d));
        // Direction d points at 60°·d on screen (0 = E, clockwise: y grows downwards).
        let a = std::f64::consts::PI / 3.0 * f64::from(d.index());
        let (ux, uy) = (a.cos(), a.sin());
        // A notched arrowhead: tip, left barb, notch, right barb (slender, so it reads one way).
        let (tip, back, notch, half) = (size * 0.55, size * 0.35, size * 0.1, size * 0.28);
        let p = [
            (cx + ux * tip, cy + uy * tip),
            (cx - ux * back - uy * half, cy - uy * back + ux * half),
            (cx - ux * notch, cy - uy * notch),
            (cx - ux * back + uy * half, cy - uy * back - ux * half),
        ];
        let pts: Vec<String> = p.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        out += &format!(
            "<polygon class=\"bumper-arrow\" points=\"{}\" fill=\"#fa0\" fill-opacity=\"0.8\"/>\n",
            pts.join(" ")
        );
    }
    out
}

/// BB-8.2: a three-quarter circle round a motorised centre with an arrowhead at its end, going
/// clockwise (`cw`) or anticlockwise (`ccw`) on screen.
fn turn_arrow(x: f64, y: f64, size: f64, spin: Spin) -> String {
    let r = size * 0.9;
    // Screen angles grow clockwise (y downwards). Start at the top (-90°), sweep 270°.
    let sign = if spin == Spin::Cw { 1.0 } else { -1.0 };
    let at = |deg: f64| {
        let a = deg.to_radians();
        (x + r * a.cos(), y + r * a.sin())
    };
    let (sx, sy) = at(-90.0);
    let end = -90.0 + sign * 270.0;
    let (ex, ey) = at(end);
    // The arrowhead: along the tangent at the end, in the sense of travel.
    let t = end.to_radians();
    let (tx, ty) = (-t.sin() * sign, t.cos() * sign);
    let (nx, ny) = (t.cos(), t.sin());
    let h = size * 0.35;
    let head = [
        (ex + tx * h, ey + ty * h),
        (ex + nx * h * 0.6, ey + ny * h * 0.6),
        (ex - nx * h * 0.6, ey - ny * h * 0.6),
    ];
    let pts: Vec<String> = head.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let sweep = if spin == Spin::Cw { 1 } else { 0 };
    let name = if spin == Spin::Cw { "cw" } else { "ccw" };
    format!(
        "<g class=\"turn {name}\"><path d=\"M {sx:.1} {sy:.1} A {r:.1} {r:.1} 0 1 {sweep} {ex:.1} {ey:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\"/><polygon points=\"{}\" fill=\"#333\"/></g>\n",
        pts.join(" ")
    )
}
