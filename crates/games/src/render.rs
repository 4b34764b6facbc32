//! The games' pictures (SVG text), out of the rules crates: they read the rules crates' public
//! types and decide nothing.

pub mod autoscooter;
pub mod bumping_bots;
pub mod roborally;
