//! Autoscooter's pictures: the rink and the car chart as SVG text (pure string building).

use autoscooter::{BoardSpec, CHART, Letter};
use grid::{Hex, HexDir};
use std::fmt::Write;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Pixel centre of a hex (pointy-top) of the given size (centre to corner).
fn centre(h: Hex, size: f64) -> (f64, f64) {
    (size * SQRT3 * (h.q as f64 + h.r as f64 / 2.0), size * 1.5 * h.r as f64)
}

fn hex_points(cx: f64, cy: f64, size: f64) -> String {
    (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 180.0 * (60.0 * i as f64 - 30.0);
            format!("{:.1},{:.1}", cx + size * a.cos(), cy + size * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Unit vector of a hex direction on screen.
fn dir_vec(d: HexDir) -> (f64, f64) {
    let a = std::f64::consts::PI / 180.0 * (60.0 * d.index() as f64);
    (a.cos(), a.sin())
}

fn arrow(out: &mut String, cx: f64, cy: f64, d: HexDir, len: f64, colour: &str) {
    let (dx, dy) = dir_vec(d);
    let (tx, ty) = (cx + dx * len, cy + dy * len);
    let (bx, by) = (cx - dx * len * 0.6, cy - dy * len * 0.6);
    let (px, py) = (-dy, dx);
    let w = len * 0.45;
    let _ = write!(
        out,
        r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{colour}"/>"#,
        tx,
        ty,
        bx + px * w,
        by + py * w,
        bx - px * w,
        by - py * w
    );
}

/// The rink with its start spaces (car number and facing).
pub fn rink(spec: &BoardSpec) -> String {
    let size = 30.0;
    let pts: Vec<(f64, f64)> = spec.cells.iter().map(|&h| centre(h, size)).collect();
    let (minx, maxx) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (miny, maxy) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = size * 1.5;
    let (w, h) = (maxx - minx + 2.0 * pad, maxy - miny + 2.0 * pad);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{:.1} {:.1} {:.1} {:.1}" width="{:.0}" height="{:.0}" font-family="sans-serif">"#,
        minx - pad,
        miny - pad,
        w,
        h,
        w,
        h
    );
    let _ = write!(
        s,
        r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" fill="#3b3f46"/>"##,
        minx - pad,
        miny - pad
    );
    for (&hx, &(cx, cy)) in spec.cells.iter().zip(&pts) {
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="#d9d4c7" stroke="#555" stroke-width="1.5"/>"##,
            hex_points(cx, cy, size)
        );
        let _ = write!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="8" text-anchor="middle" fill="#888">{},{}</text>"##,
            cy + size * 0.7,
            hx.q,
            hx.r
        );
    }
    for (i, st) in spec.starts.iter().enumerate() {
        let (cx, cy) = centre(st.at, size);
        let _ = write!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{}"/>"##,
            size * 0.55,
            CAR_COLOURS[i % 8]
        );
        arrow(&mut s, cx, cy, st.facing, size * 0.45, "#fff");
        let _ = write!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="11" font-weight="bold" text-anchor="middle" fill="#111">{i}</text>"##,
            cy - size * 0.62
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The colours of the eight cars, by car number.
pub const CAR_COLOURS: [&str; 8] =
    ["#d62828", "#1d70b8", "#2a9d3f", "#f2b705", "#7b2cbf", "#f77f00", "#00a6a6", "#e05aa0"];

/// The car chart: all sixteen options A–P, each from a car on the grey hex facing east.
pub fn chart() -> String {
    let size = 16.0;
    let (pw, ph) = (150.0, 130.0);
    let cols = 4;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}" font-family="sans-serif">"#,
        pw * cols as f64,
        ph * 4.0 + 30.0,
        pw * cols as f64,
        ph * 4.0 + 30.0
    );
    let _ = write!(
        s,
        r##"<rect width="100%" height="100%" fill="#fbfaf7"/><text x="8" y="20" font-size="14" font-weight="bold">Autoscooter car chart (AS-3.2): A–E speed 1, F–O speed 2, P speed 3</text>"##
    );
    let around: Vec<Hex> = (-2..=2)
        .flat_map(|r| (-2..=4).map(move |q| Hex::new(q, r)))
        .filter(|h| h.distance(Hex::new(1, 0)) <= 2 || h.distance(Hex::new(2, 0)) <= 1)
        .collect();
    for (i, m) in CHART.iter().enumerate() {
        let letter = Letter::from_index(i as u8).expect("16 letters");
        let (ox, oy) = (pw * (i % cols) as f64 + 35.0, 30.0 + ph * (i / cols) as f64 + 68.0);
        let mut path = vec![];
        let mut at = Hex::ORIGIN;
        for &rel in m.steps {
            at = at.neighbour(HexDir::E.turn(rel as i32));
            path.push(at);
        }
        for &h in &around {
            let (cx, cy) = centre(h, size);
            let fill = if h == Hex::ORIGIN {
                "#bdbdbd"
            } else if let Some(k) = path.iter().position(|&p| p == h) {
                if k + 1 == path.len() { "#f4a259" } else { "#f8d7b0" }
            } else {
                "#ffffff"
            };
            let _ = write!(
                s,
                r##"<polygon points="{}" fill="{fill}" stroke="#999" stroke-width="1"/>"##,
                hex_points(ox + cx, oy + cy, size)
            );
        }
        arrow(&mut s, ox, oy, HexDir::E, size * 0.55, "#333");
        let (ex, ey) = centre(at, size);
        arrow(&mut s, ox + ex, oy + ey, HexDir::E.turn(m.end as i32), size * 0.6, "#c0392b");
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="16" font-weight="bold">{}</text><text x="{:.1}" y="{:.1}" font-size="10" fill="#555">speed {}</text>"##,
            ox - 28.0,
            oy - 42.0,
            letter.char(),
            ox - 10.0,
            oy - 42.0,
            m.speed()
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn pictures_are_svg() {
        let r = super::rink(&autoscooter::BoardSpec::standard());
        assert!(r.starts_with("<svg") && r.ends_with("</svg>\n"));
        assert_eq!(r.matches("<polygon points").count() - 8, 38, "38 hexes + 8 start arrows");
        let c = super::chart();
        assert_eq!(c.matches(">speed ").count(), 16);
    }
}
