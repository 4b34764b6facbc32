//! Print the SVG drawing of a shipped course: `cargo run -p roborally --example render -- grand-tour`.
fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "first-steps".into());
    match roborally::board::course_by_name(&name) {
        Some(c) => print!("{}", roborally::render::render_svg(&c)),
        None => eprintln!("no shipped course {name:?}"),
    }
}
