//! What happens in a game, for logs, animations and replays.

use crate::chart::Letter;
use crate::purse::Purse;
use arrayvec::ArrayVec;
use engine::{Audience, GameEvent, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;

/// Who holds chits: a player, a car (AS-7.4 per-car scoring), or the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Holder {
    Player(Seat),
    Car(u8),
    Box,
}

/// The hexes a car passed in one move (at most three), serialised as a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Path {
    len: u8,
    hexes: [Hex; 3],
}

impl Path {
    /// The first `len` of `hexes` (at most three; the others must be `Hex::default()`, as
    /// [`Path::push`] leaves them).
    #[inline]
    pub(crate) fn from_hexes(len: u8, hexes: [Hex; 3]) -> Path {
        debug_assert!(len <= 3 && hexes[len as usize..].iter().all(|h| *h == Hex::default()));
        Path { len, hexes }
    }
    pub fn push(&mut self, h: Hex) {
        self.hexes[self.len as usize] = h;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Hex] {
        &self.hexes[..self.len as usize]
    }
}

impl Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

/// The kind of a crash (AS-5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CrashKind {
    Front,
    Side,
    Rear,
    Stationary,
    Barrier,
}

impl CrashKind {
    pub const ALL: [CrashKind; 5] = [
        CrashKind::Front,
        CrashKind::Side,
        CrashKind::Rear,
        CrashKind::Stationary,
        CrashKind::Barrier,
    ];
    pub fn name(self) -> &'static str {
        match self {
            CrashKind::Front => "front",
            CrashKind::Side => "side",
            CrashKind::Rear => "rear",
            CrashKind::Stationary => "stationary",
            CrashKind::Barrier => "barrier",
        }
    }
}

/// One event. Serialised with a `type` tag.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new round's planning begins.
    RoundStarted { round: u8 },
    /// A seat plotted a car (public: that it did, not what).
    Committed { seat: Seat, car: u8 },
    /// What the seat plotted (the seat only).
    Plotted { seat: Seat, car: u8, number: u8, letter: Option<Letter> },
    /// A seat plotted the wild car's letter (public: that it did).
    WildCommitted { seat: Seat },
    /// The wild car letter the seat plotted (the seat only).
    WildPlotted { seat: Seat, letter: Option<Letter> },
    /// Time ran out: the rules filled in a plot (AS-4.2). The seat only; numbers are revealed
    /// with the others.
    AutoPlotted { seat: Seat, car: u8, number: u8 },
    /// All plots are in: every car's number for this round, in acting order (AS-4.1).
    NumbersRevealed { order: ArrayVec<(u8, u8), 8> },
    /// A plotted letter was illegal for the car's speed and became straight ahead (AS-4.2).
    LetterConverted { car: u8, plotted: Letter, used: Letter },
    /// A car moved by the chart (cases A and C): its letter is revealed here.
    Moved { car: u8, letter: Letter, path: Path, facing: HexDir, speed: u8 },
    /// A stationary car started (case D, AS-5.4).
    Started { car: u8, seat: Seat, to: Hex, facing: HexDir },
    /// A stationary car could not start: no free adjacent hex (AS-5.4).
    CannotStart { car: u8 },
    /// A crash (AS-5.5). `with` is the car hit (none for the barrier or a car of nobody as
    /// barrier); `indirect` when a jolt passed the crash down a chain (AS-7.2).
    Crash { car: u8, kind: CrashKind, with: Option<u8>, speed: u8, at: Hex, indirect: bool },
    /// Chits changed hands (or went to / came from the box).
    Chits { from: Holder, to: Holder, amount: u32, colours: Option<Purse> },
    /// A car's speed changed by a crash.
    SpeedSet { car: u8, speed: u8 },
    /// A car was turned by a side crash (AS-5.5).
    Turned { car: u8, facing: HexDir },
    /// A car was jolted one hex forward (AS-7.2).
    Jolted { car: u8, to: Hex },
    /// The game is over (AS-6).
    GameOver { winners: ArrayVec<Seat, 8>, scores: Box<[i64]> },
}

impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::Plotted { seat, .. }
            | Event::WildPlotted { seat, .. }
            | Event::AutoPlotted { seat, .. } => Audience::Seat(*seat),
            _ => Audience::Everyone,
        }
    }
}

pub use engine::NoEvents;

/// [`engine::Sink`] of Autoscooter's events: a list, the simulator's crash tally, or
/// [`NoEvents`] for a playout. Its summaries ([`engine::Sink::SUMMARIES`]) are
/// [`Event::NumbersRevealed`] (the acting order) and [`Event::GameOver`] (the ranking).
pub trait Sink: engine::Sink<Event> {}

impl<T: engine::Sink<Event> + ?Sized> Sink for T {}
