//! The common interface every Robodrome game implements, and the machinery around it.
//!
//! A game is a value of a type implementing [`Game`]:
//!
//! * it is created from a setup and a seed ([`Game::new`]) and is deterministic from
//!   (setup, seed, action log): see [`replay`] and [`Record`];
//! * it says who owes a decision now ([`Game::decision`]): several seats deciding at once and
//!   in secret ([`Decision::Simultaneous`], Autoscooter plots, RoboRally programs) or one seat
//!   in the middle of resolution ([`Decision::One`], a start move, a re-entry, a shock choice);
//! * [`Game::apply`] is atomic: it either pushes the events the action caused and plays on by
//!   itself to the next decision, or returns a typed [`RuleError`] and leaves the state exactly as
//!   it was;
//! * [`Game::view`] redacts the state for one [`Observer`]; every event says who may see it
//!   ([`GameEvent::audience`]);
//! * legal actions can be listed ([`Game::legal_actions`]) or sampled
//!   ([`Game::sample_action`]); a finished game reports its [`Outcome`].
//!
//! **Invariant:** no I/O, no clock, no thread-local randomness. All chance goes through the
//! seeded [`Rng`] stored inside a game's state; views never expose it.
#![deny(clippy::unwrap_used)]

pub mod check;
pub mod features;
pub mod harness;
mod record;
mod rng;
pub mod rulebook;
mod seat;

pub use record::{LogEntry, Record, ReplayError, replay};
pub use rng::Rng;
pub use seat::{Seat, SeatSet};

use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observer {
    /// A player: sees public information and their own secrets.
    Seat(Seat),
    /// Someone watching: sees public information only.
    Spectator,
    /// Sees everything: a finished game's replay, tests, the rules themselves.
    Omniscient,
}

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "to", content = "seat")]
pub enum Audience {
    Everyone,
    /// Only this seat (and omniscient observers).
    Seat(Seat),
}

impl Audience {
    pub fn admits(self, observer: Observer) -> bool {
        match (self, observer) {
            (Audience::Everyone, _) | (_, Observer::Omniscient) => true,
            (Audience::Seat(s), Observer::Seat(o)) => s == o,
            (Audience::Seat(_), Observer::Spectator) => false,
        }
    }
}

/// Whose views an action may change ([`Game::views_touched`]): every observer's, or only some
/// seats' — then every other seat's view and the spectators' are, as JSON text, byte for byte
/// what they were before the action (an omniscient view is always touched). The server builds
/// no view for an observer an action did not touch (docs/protocol.md "Views only when they
/// changed"); [`harness::check_game`] checks every claim against the views themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Touched {
    /// Any observer's view may have changed.
    All,
    /// Only these seats' views may have changed.
    Seats(SeatSet),
}

impl Touched {
    /// Only `seat`'s own view may have changed.
    pub const fn only(seat: Seat) -> Touched {
        Touched::Seats(SeatSet::single(seat))
    }
    /// Whether `observer`'s view may have changed.
    pub fn touches(self, observer: Observer) -> bool {
        match (self, observer) {
            (Touched::All, _) | (_, Observer::Omniscient) => true,
            (Touched::Seats(s), Observer::Seat(o)) => s.contains(o),
            (Touched::Seats(_), Observer::Spectator) => false,
        }
    }
}

/// What a game waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// These seats still owe a secret choice; the game resolves when all have committed.
    /// Seats that have already committed are not in the set.
    Simultaneous(SeatSet),
    /// One seat must choose before resolution can go on.
    One(Seat),
}

impl Decision {
    pub fn owes(&self, seat: Seat) -> bool {
        match self {
            Decision::Simultaneous(s) => s.contains(seat),
            Decision::One(s) => *s == seat,
        }
    }
    pub fn seats(&self) -> SeatSet {
        match self {
            Decision::Simultaneous(s) => *s,
            Decision::One(s) => SeatSet::single(*s),
        }
    }
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Places from first to last; seats that tie share a place.
    pub ranking: Vec<Vec<Seat>>,
    /// Each seat's final score, where the game has one (chits, points), by seat.
    pub scores: Option<Vec<i64>>,
}

impl Outcome {
    /// The seats in first place.
    pub fn winners(&self) -> &[Seat] {
        self.ranking.first().map(Vec::as_slice).unwrap_or(&[])
    }
    /// The place (0 = first) of a seat, if ranked.
    pub fn place_of(&self, seat: Seat) -> Option<usize> {
        let mut place = 0;
        for group in &self.ranking {
            if group.contains(&seat) {
                return Some(place);
            }
            place += group.len();
        }
        None
    }
}

/// An illegal action, setup or replay: a typed error with a stable snake_case code
/// (the scenario output's `error.code`, the protocol's error code).
pub trait RuleError: std::error::Error + Debug + Clone + PartialEq + Send + Sync + 'static {
    fn code(&self) -> &'static str;
}

/// Where a game's rules write the events of what they do: a list (`Vec<E>`, what
/// [`Game::apply`] fills), or a sink that keeps only what its reader needs (a simulator's tally),
/// or nothing ([`NoEvents`], for random games and playouts whose only reader is the state). A
/// game plays the same with any sink: only the events written differ; rules generic over the
/// sink compile, for [`NoEvents`], to code that builds no event at all (issue 17).
pub trait Sink<E> {
    /// Whether the sink reads the events that summarise a step and cost work to build (a game
    /// says which: Autoscooter's acting order and ranking), all of which the state itself shows
    /// after the step. A sink that says `false` never receives them; every other event is
    /// pushed to every sink.
    const SUMMARIES: bool = true;
    /// Take one event.
    fn push(&mut self, e: E);
}

impl<E> Sink<E> for Vec<E> {
    #[inline(always)]
    fn push(&mut self, e: E) {
        Vec::push(self, e);
    }
}

/// A sink that reads no event: for random games and playouts whose only reader is the state.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvents;

impl<E> Sink<E> for NoEvents {
    const SUMMARIES: bool = false;
    #[inline(always)]
    fn push(&mut self, _e: E) {}
}

/// Something that happened, for the log, animations and replays.
pub trait GameEvent: Clone + Debug + Serialize + PartialEq + Send + Sync + 'static {
    fn audience(&self) -> Audience;
}

/// A setup that cannot start a game, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub problems: Vec<String>,
}

impl SetupError {
    pub fn one(p: impl Into<String>) -> SetupError {
        SetupError { problems: vec![p.into()] }
    }
}
impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}
impl std::error::Error for SetupError {}

/// The interface every game implements. See the crate docs.
pub trait Game: Clone + Debug + PartialEq + Send + Sync + Sized + 'static {
    /// The game's name in files and messages: `"autoscooter"`, `"roborally"`, `"bumping-bots"`.
    const NAME: &'static str;
    /// Everything needed to start: board, seats, pieces, variants.
    type Setup: Clone + Debug + Send + Sync + Serialize + DeserializeOwned;
    type Action: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned;
    type Event: GameEvent;
    type Error: RuleError;
    /// A redacted picture of the state for one observer: what may change during the game.
    /// `PartialEq`: the conformance suite ([`harness::check_game`]) compares views.
    type View: Clone + Debug + PartialEq + Serialize;
    /// What never changes during one game and every observer may see: the board (rink, course,
    /// track) and the rule tables a client draws or checks with (Autoscooter's chart). Sent to a
    /// client once per game and referenced by a content id, so that views carry only what
    /// changes. A game with nothing static uses `()`.
    type Static: Clone + Debug + Serialize;

    /// Start a game. The engine plays on by itself to the first decision.
    fn new(setup: &Self::Setup, seed: u64) -> Result<Self, SetupError>;
    /// Number of seats (players), numbered from 0.
    fn seats(&self) -> usize;
    /// What the game waits for, or `None` when it is over.
    fn decision(&self) -> Option<Decision>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Apply one seat's action. On `Ok`, the events it caused are pushed to `events` and the
    /// game has played on to the next decision. On `Err`, nothing changed (state and `events`).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;
    /// Time is up for every seat that owes a decision: the rules' default fills them in
    /// (the server sends this when a timer runs out; the engine itself has no clock).
    fn time_up(&mut self, events: &mut Vec<Self::Event>) -> Result<(), Self::Error>;
    /// Every legal action of a seat now (empty when it owes nothing). May be large.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// One legal action drawn uniformly or near-uniformly, without listing them all.
    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Self::Action>;
    /// The state as an observer may see it.
    fn view(&self, observer: Observer) -> Self::View;
    /// The game's static part ([`Game::Static`]): the same value from the first decision to
    /// the end, whatever is played, and the same for every observer.
    fn static_data(&self) -> Self::Static;
    /// A copy in which what `seat` cannot see is resampled (and the RNG reseeded), for search.
    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self;
    /// The rules' own clock now, if one runs (RoboRally's hourglass, RR-4.3; the last-player
    /// clock of a game's settings): the seats it runs for and its length. The engine has no
    /// clock: whoever runs the game starts a deadline `seconds` from the moment this value
    /// first appears (or changes), and sends [`Game::time_up`] when it passes. Public: it
    /// depends on nothing an observer may not see (checked by [`harness::check_game`]).
    fn clock(&self) -> Option<Clock> {
        None
    }
    /// Whose views `seat`'s `action` may change, asked of the state *before* the action and
    /// meaningful only if [`Game::apply`] then accepts it (time-ups touch everyone). A rule of
    /// the game, written from its view (Autoscooter: a plot while the plotter still owes
    /// another changes only the plotter's view, AS-4.1). Claiming too much costs only speed
    /// (the default, [`Touched::All`]); claiming too little would leave a client on a stale
    /// view, so [`harness::check_game`] compares, at every step, the serialised view of every
    /// observer not touched before and after the action.
    fn views_touched(&self, _seat: Seat, _action: &Self::Action) -> Touched {
        Touched::All
    }
}

/// A clock the rules run ([`Game::clock`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Clock {
    /// Who the clock runs for: the seats that still owe the decision it limits.
    pub seats: SeatSet,
    /// Its length, from the moment it starts.
    pub seconds: u32,
}

/// The "last player" clock: when every seat but one has made a simultaneous decision, the last
/// one has `seconds` (0: off). `None` for any other decision, and when only one seat decides
/// at all (nobody has finished before it).
pub fn last_player_clock(
    decision: Option<&Decision>,
    deciding: usize,
    seconds: u32,
) -> Option<Clock> {
    match decision? {
        Decision::Simultaneous(owing) if seconds > 0 && owing.len() == 1 && deciding > 1 => {
            Some(Clock { seats: *owing, seconds })
        }
        _ => None,
    }
}

/// Play random legal actions until the game ends or `max_actions` were applied.
/// Returns the number of actions applied. Used by simulations, benches and property tests.
pub fn play_random<G: Game>(
    game: &mut G,
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
    max_actions: usize,
) -> usize {
    let mut n = 0;
    while n < max_actions {
        let Some(decision) = game.decision() else { break };
        let seat = match decision {
            Decision::One(s) => s,
            Decision::Simultaneous(set) => match set.first() {
                Some(s) => s,
                None => break,
            },
        };
        let Some(action) = game.sample_action(seat, rng) else { break };
        if game.apply(seat, &action, events).is_err() {
            break;
        }
        n += 1;
    }
    n
}
