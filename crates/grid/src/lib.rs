//! Coordinates, directions and cell edges for Robodrome's boards, done once.
//!
//! Two grids, both exactly as the rules spec's `conventions.md` defines them (summarised for
//! users in `docs/scenarios.md`):
//!
//! * [`Hex`] / [`HexDir`]: pointy-top hexes in axial coordinates `[q, r]`,
//!   directions 0..5 clockwise from east (Autoscooter, Bumping Bots);
//! * [`Sq`] / [`SqDir`]: square cells `[x, y]`, `[0, 0]` top-left,
//!   directions N=0, E=1, S=2, W=3 (RoboRally).
//!
//! A wall (or barrier) lies on an [`HexEdge`] / [`SqEdge`]: the edge between a cell
//! and its neighbour in one direction. Both spellings of the same edge compare
//! equal once [normalised](HexEdge::normalised).
//!
//! **Invariant:** integers only. Pixel layout belongs to the renderers.
#![deny(clippy::unwrap_used)]

mod hex;
mod square;

pub use hex::{Hex, HexDir, HexEdge};
pub use square::{Sq, SqDir, SqEdge};
