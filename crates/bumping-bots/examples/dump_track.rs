//! Debug helper: prints progress/lane/racing direction of a shipped track.
use bumping_bots::tracks::shipped;
use bumping_bots::track::Board;
use grid::Hex;
fn main() {
    let name = std::env::args().nth(1).unwrap_or("oval".into());
    let b = Board::build(&shipped(&name).unwrap()).unwrap();
    for r in 0..18 {
        let mut line = " ".repeat(r as usize * 4);
        for q in -10..40 {
            let h = Hex::new(q, r);
            if b.on(h) {
                let c = b.cell(h);
                line += &format!("{:4}{}", c.progress, ["?", "E", "a", "b", "W", "d", "e"][c.pref as usize]);
                line += "   ";
            } else if q * 2 + r >= 0 { line += "        "; }
        }
        println!("{}", line.trim_end());
    }
}
