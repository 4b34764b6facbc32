//! Bots: players that choose actions through the engine interface.
//!
//! A [`Bot`] is asked to act for a seat that owes a decision. It receives the whole game state
//! (the server and simulations own it) but promises to look only at what its seat may see: every
//! bot here starts from [`engine::Game::determinize`], which resamples everything the seat cannot
//! see, so hidden cards and plots of other seats never reach its decision.
//!
//! Strengths are named by a spec string: `random`, `heuristic`, `search:N` (N simulations per
//! decision) or `search:Nms` (N milliseconds per decision) — see [`BotSpec`].

mod autoscooter;
mod bumping_bots;
mod championship;
mod heuristic;
pub mod lookahead;
mod random;
mod roborally;
mod search;

pub use championship::championship_bot;
pub use heuristic::HeuristicBot;
pub use random::RandomBot;
pub use roborally::{
    card_map, distance_map, model as roborally_model, oracle as roborally_oracle, search::RrSearch,
};
pub use search::{DEFAULT_PLAYOUT_SHARE, SearchBot};

use engine::{Game, Rng, Seat};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A player that chooses actions.
pub trait Bot<G: Game>: Send {
    /// A short name for tables and logs (`random`, `heuristic`, `search:2000`).
    fn name(&self) -> String;
    /// Choose a legal action for `seat`, which owes a decision in `game`.
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Rng) -> G::Action;
    /// Like [`Bot::act`], but stop thinking as soon as `stop` says so and play the best action
    /// found by then. Bots whose work is bounded and small (random, heuristic) may ignore it
    /// (the default); every search bot overrides it, so that a server can put a ceiling on a
    /// decision's time and cancel the work of a game that ended or a server that stops.
    fn act_until(&mut self, game: &G, seat: Seat, rng: &mut Rng, stop: &Stop) -> G::Action {
        let _ = stop;
        self.act(game, seat, rng)
    }
}

/// When a bot must stop thinking: a deadline, flags another thread may raise, or both.
///
/// A search checks it between simulations and then plays its best candidate so far (a search
/// stopped before its first simulation plays its first candidate). `Stop::default()` never
/// stops.
///
/// It also carries the [`Clock`] the search reads for its deadline and for a `search:Nms` time
/// budget: the system's clock unless [`Stop::on`] gives another (tests: [`Clock::stepping`]).
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flags: Vec<Arc<AtomicBool>>,
    clock: Clock,
}

impl Stop {
    /// Stop at `deadline` (a hard ceiling on the decision's time).
    pub fn at(deadline: Instant) -> Stop {
        Stop { deadline: Some(deadline), ..Stop::default() }
    }
    /// Also stop once `flag` is raised (cancellation: the game ended, the server stops).
    pub fn or_flag(mut self, flag: Arc<AtomicBool>) -> Stop {
        self.flags.push(flag);
        self
    }
    /// Read the time (the deadline's and a time budget's) from `clock`.
    pub fn on(mut self, clock: Clock) -> Stop {
        self.clock = clock;
        self
    }
    /// Whether the bot must stop now.
    pub fn now(&self) -> bool {
        self.cancelled() || self.deadline.is_some_and(|d| self.clock.now() >= d)
    }
    /// Whether a flag was raised (the answer is not wanted any more).
    pub fn cancelled(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::Relaxed))
    }
    /// The clock a search measures its time on.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
}

/// Where a search reads the time: the system's monotonic clock (the default), or a clock that
/// moves only when it is read ([`Clock::stepping`]), so that a test of a time budget or a
/// deadline is decided by how often the search looked, not by how fast the machine is.
#[derive(Clone, Debug, Default)]
pub struct Clock(Option<Arc<Stepping>>);

#[derive(Debug)]
struct Stepping {
    origin: Instant,
    step: std::time::Duration,
    reads: std::sync::atomic::AtomicU32,
}

impl Clock {
    /// A clock that starts at the present moment and moves on by `step` each time it is read.
    pub fn stepping(step: std::time::Duration) -> Clock {
        let reads = std::sync::atomic::AtomicU32::new(0);
        Clock(Some(Arc::new(Stepping { origin: Instant::now(), step, reads })))
    }
    /// The time now: the system's, or the stepping clock's after one more step (its first read
    /// is its origin).
    pub fn now(&self) -> Instant {
        match &self.0 {
            None => Instant::now(),
            Some(s) => s.origin + s.step * s.reads.fetch_add(1, Ordering::Relaxed),
        }
    }
    /// The time passed since `earlier` (one read, like [`Instant::elapsed`]).
    pub fn elapsed(&self, earlier: Instant) -> std::time::Duration {
        self.now() - earlier
    }
    /// How often a stepping clock was read (0 for the system's clock).
    pub fn reads(&self) -> u32 {
        self.0.as_ref().map_or(0, |s| s.reads.load(Ordering::Relaxed))
    }
}

/// The most threads a `search:NxT` bot may use.
pub const MAX_SEARCH_THREADS: u8 = 16;

/// The highest playout share a `search:N:share=S` bot may ask for: every playout step plays
/// the heuristic (shares count in 1/256).
pub const MAX_PLAYOUT_SHARE: u16 = 256;

/// A bot strength as users name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    Random,
    Heuristic,
    /// Search with this many simulations per decision (reproducible for a given seed and
    /// thread count). `threads` > 1 (`search:NxT`): root parallelism, the simulations shared
    /// among T threads (Autoscooter and Bumping Bots; RoboRally's search runs on one thread).
    ///
    /// `share` (`search:N:share=S`, issue 17): the playout's heuristic share in 1/256 — how
    /// often a playout step plays [`HasBots::playout`] instead of a random action; `None`: the
    /// default ([`DEFAULT_PLAYOUT_SHARE`]). Only the generic search reads it
    /// (Autoscooter, Bumping Bots); RoboRally's own search has no random playout steps.
    Search {
        simulations: u32,
        threads: u8,
        share: Option<u16>,
    },
    /// Search for this many milliseconds per decision (not reproducible: it reads the clock).
    SearchFor {
        millis: u32,
    },
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Search { simulations, threads, share } => {
                write!(f, "search:{simulations}")?;
                if *threads > 1 {
                    write!(f, "x{threads}")?;
                }
                match share {
                    Some(s) => write!(f, ":share={s}"),
                    None => Ok(()),
                }
            }
            BotSpec::SearchFor { millis } => write!(f, "search:{millis}ms"),
        }
    }
}

impl std::str::FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "random" => Ok(BotSpec::Random),
            "heuristic" => Ok(BotSpec::Heuristic),
            other => match other.strip_prefix("search") {
                Some("") => Ok(BotSpec::Search { simulations: 1000, threads: 1, share: None }),
                Some(rest) => {
                    let budget = rest.strip_prefix(':').unwrap_or("?");
                    // `search:N:share=S` (issue 17): the playout's heuristic share, 0 to 256.
                    let (budget, share) = match budget.split_once(':') {
                        Some((b, opt)) => match opt.strip_prefix("share=").map(str::parse::<u16>) {
                            Some(Ok(s)) if s <= MAX_PLAYOUT_SHARE && !b.ends_with("ms") => {
                                (b, Some(s))
                            }
                            Some(_) if !b.ends_with("ms") => {
                                return Err(format!(
                                    "bad playout share in {other:?} (search:2000:share=64: the playout plays the heuristic in 64 of 256 steps; 0 to {MAX_PLAYOUT_SHARE})"
                                ));
                            }
                            _ => {
                                return Err(format!(
                                    "bad search option in {other:?} (the one option is share=S after a simulation budget: search:2000:share=64)"
                                ));
                            }
                        },
                        None => (budget, None),
                    };
                    let (number, ms) = match budget.strip_suffix("ms") {
                        Some(n) => (n, true),
                        None => (budget, false),
                    };
                    // `search:NxT`: N simulations on T threads (root parallelism).
                    let (number, threads) = match number.split_once('x') {
                        Some((n, t)) if !ms => match t.parse::<u8>() {
                            Ok(t) if (1..=MAX_SEARCH_THREADS).contains(&t) => (n, t),
                            _ => {
                                return Err(format!(
                                    "bad thread count in {other:?} (search:2000x2: 2000 simulations on 2 threads, 1 to {MAX_SEARCH_THREADS})"
                                ));
                            }
                        },
                        _ => (number, 1),
                    };
                    match number.parse::<u32>() {
                        Ok(n) if n > 0 && ms => Ok(BotSpec::SearchFor { millis: n }),
                        Ok(n) if n > 0 => Ok(BotSpec::Search { simulations: n, threads, share }),
                        _ => Err(format!(
                            "bad search budget in {other:?} (write search:2000 for simulations or search:200ms)"
                        )),
                    }
                }
                None => Err(format!("unknown bot {other:?} (known: random, heuristic, search:N)")),
            },
        }
    }
}

/// Games that have bots of every strength: a heuristic policy, an evaluation for search, and
/// the candidate actions search considers.
pub trait HasBots: Game {
    /// The hand-written policy: a legal action for `seat`, which owes a decision. It must not
    /// read what `seat` cannot see (callers pass a determinized state).
    fn heuristic(game: &Self, seat: Seat, rng: &mut Rng) -> Self::Action;
    /// The policy used inside search playouts: cheaper than [`HasBots::heuristic`], still
    /// better than random. Defaults to the heuristic.
    fn playout(game: &Self, seat: Seat, rng: &mut Rng) -> Self::Action {
        Self::heuristic(game, seat, rng)
    }
    /// How many decisions a search playout plays before it evaluates.
    const HORIZON: u32 = 48;
    /// Search playouts stop at the end of the seat's turn (see [`lookahead::finish_turn`])
    /// instead of after [`HasBots::HORIZON`] decisions.
    const PLAYOUT_TO_END_OF_TURN: bool = false;
    /// How good the state is for `seat`, from 0 (lost) to 1 (won).
    fn evaluate(game: &Self, seat: Seat) -> f64;
    /// The actions search compares (all legal ones by default; games prune huge lists).
    fn candidates(game: &Self, seat: Seat, _rng: &mut Rng) -> Vec<Self::Action> {
        game.legal_actions(seat)
    }
    /// Apply `action` inside a search playout, where only the state after is read: by default
    /// [`Game::apply`] into `events` (emptied first). A game may skip building the events
    /// (Autoscooter; issue 17). `false`: the action was refused.
    fn playout_apply(
        game: &mut Self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> bool {
        events.clear();
        game.apply(seat, action, events).is_ok()
    }
    /// A random action applied inside a playout: [`Game::sample_action`] then
    /// [`HasBots::playout_apply`] by default; a game may draw and play it on its own path, with
    /// the same draws in the same order and the same state after. `None`: nothing to sample.
    fn playout_random(
        game: &mut Self,
        seat: Seat,
        rng: &mut Rng,
        events: &mut Vec<Self::Event>,
    ) -> Option<bool> {
        let action = game.sample_action(seat, rng)?;
        Some(Self::playout_apply(game, seat, &action, events))
    }
    /// What a game's [`HasBots::rollout`] may keep from one playout to the next of one search
    /// (a new one per search, by [`Default`]), as long as it changes no draw and no state:
    /// Autoscooter keeps what its plot heuristic computed for the root's planning phase, the
    /// same position in every simulation (issue 17 round 8); `()` for the others.
    type Scratch: Default;
    /// A search playout from `game`: up to `steps` decisions, each drawn by
    /// [`engine::harness::next_seat`] and played by [`HasBots::playout`] with probability
    /// `heuristic_share`/256, else by [`HasBots::playout_random`] ([`generic_rollout`]). A game
    /// may play it on its own path with the same draws in the same order and the same state
    /// after (Autoscooter: no `Action` values, previews kept for a whole planning phase;
    /// issue 17), reading and keeping what it likes in `scratch`.
    fn rollout(
        game: &mut Self,
        rng: &mut Rng,
        steps: u32,
        heuristic_share: u32,
        events: &mut Vec<Self::Event>,
        _scratch: &mut Self::Scratch,
    ) {
        generic_rollout(game, rng, steps, heuristic_share, events)
    }
    /// A bot of the given strength.
    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        make(spec)
    }
}

/// The search playout every game has ([`HasBots::rollout`]'s default): the seat drawn, a coin
/// of `heuristic_share`/256 for the playout policy, else a random action; stop at the end, after
/// `steps` decisions or at a refused action.
pub fn generic_rollout<G: HasBots>(
    g: &mut G,
    rng: &mut Rng,
    steps: u32,
    heuristic_share: u32,
    events: &mut Vec<G::Event>,
) {
    for _ in 0..steps {
        let Some(d) = g.decision() else { return };
        let Some(s) = engine::harness::next_seat(&d, rng) else { return };
        let applied = if rng.below(256) < heuristic_share {
            let action = G::playout(g, s, rng);
            G::playout_apply(g, s, &action, events)
        } else {
            match G::playout_random(g, s, rng, events) {
                Some(applied) => applied,
                None => return,
            }
        };
        if !applied {
            return;
        }
    }
}

/// At the end of a game, how good `seat`'s place is: `1 − place / seats` (places count from 1).
pub(crate) fn final_place<G: Game>(game: &G, seat: Seat) -> Option<f64> {
    let o = game.outcome()?;
    let place = o.place_of(seat).unwrap_or(game.seats()) as f64;
    Some(1.0 - place / game.seats().max(1) as f64)
}

/// `score(seat)` against the best other seat's score, squashed to 0..1: 0.5 when level, and
/// `scale` ahead is about 0.73 (alone on the board: against 0).
pub(crate) fn margin<G: Game>(
    game: &G,
    seat: Seat,
    scale: f64,
    mut score: impl FnMut(Seat) -> f64,
) -> f64 {
    let me = score(seat);
    let best_other = (0..game.seats() as u8)
        .filter(|&s| s != seat.0)
        .map(|s| score(Seat(s)))
        .fold(f64::MIN, f64::max);
    let best_other = if best_other == f64::MIN { 0.0 } else { best_other };
    1.0 / (1.0 + (-(me - best_other) / scale).exp())
}

/// A bot of the given strength for any game with bots.
pub fn make<G: HasBots>(spec: &BotSpec) -> Box<dyn Bot<G>> {
    match spec {
        BotSpec::Random => Box::new(RandomBot),
        BotSpec::Heuristic => Box::new(HeuristicBot),
        BotSpec::Search { simulations, threads, share } => Box::new(SearchBot {
            threads: (*threads).max(1) as usize,
            heuristic_share: share.map_or(DEFAULT_PLAYOUT_SHARE, u32::from),
            ..SearchBot::new(*simulations)
        }),
        BotSpec::SearchFor { millis } => Box::new(SearchBot {
            time_limit: Some(std::time::Duration::from_millis(*millis as u64)),
            ..SearchBot::new(u32::MAX)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        for s in [
            "random",
            "heuristic",
            "search:2000",
            "search:200ms",
            "search:2000x2",
            "search:2000:share=64",
            "search:2000x2:share=0",
            "search:2000:share=256",
        ] {
            assert_eq!(s.parse::<BotSpec>().unwrap().to_string(), s);
        }
        assert!("search:0".parse::<BotSpec>().is_err());
        for bad in ["search:2000x0", "search:2000x17", "search:2000x", "search:x2", "search:20msx2"]
        {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
        }
        assert_eq!(
            "search:2000x1".parse::<BotSpec>(),
            Ok(BotSpec::Search { simulations: 2000, threads: 1, share: None })
        );
        assert_eq!(
            "search:200:share=64".parse::<BotSpec>(),
            Ok(BotSpec::Search { simulations: 200, threads: 1, share: Some(64) })
        );
    }

    /// Issue 17: a bad playout share names what is wrong and what to write.
    #[test]
    fn bad_playout_shares_are_refused_with_the_reason() {
        for (bad, says) in [
            ("search:200:share=257", "bad playout share"),
            ("search:200:share=-1", "bad playout share"),
            ("search:200:share=", "bad playout share"),
            ("search:200:share=six", "bad playout share"),
            ("search:200:depth=3", "bad search option"),
            ("search:200ms:share=64", "bad search option"),
            ("search::share=64", "bad search budget"),
            ("search:0:share=64", "bad search budget"),
        ] {
            let e = bad.parse::<BotSpec>().expect_err(bad);
            assert!(e.contains(says) && e.contains(bad), "{bad}: {e}");
        }
    }

    /// The share reaches the bot: `search:N:share=S` plays playouts with S/256 heuristic steps,
    /// and no share keeps the default.
    #[test]
    fn the_playout_share_reaches_the_search_bot() {
        let name = |s: &str| make::<::autoscooter::Autoscooter>(&s.parse().unwrap()).name();
        assert_eq!(name("search:200:share=64"), "search:200:share=64");
        assert_eq!(name("search:200"), "search:200");
        assert_eq!(name("search:200x2:share=0"), "search:200x2:share=0");
        assert!("genius".parse::<BotSpec>().is_err());
    }
}
