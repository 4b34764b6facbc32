//! RR-5.3–5.5 Board elements, in their own files: conveyors, pushers, gears, lasers, checkpoints.

pub mod checkpoint;
pub mod conveyor;
pub mod gear;
pub mod laser;
pub mod pusher;
