//! `robodrome sim`: many games with any mix of bots, and a summary (each game's own figures
//! through its [`Tally`]).

use crate::{Registered, SetupRequest};
use bots::BotSpec;
use engine::{Decision, Game, Rng, Seat, harness::next_seat};
use serde::Serialize;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What a simulation is asked to do.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub setup: SetupRequest,
    pub games: u64,
    /// Game `i` uses seed `seed + i`.
    pub seed: u64,
    /// Bots by seat, cycled over the seats (none: every seat random).
    pub bots: Vec<BotSpec>,
    /// Threads playing the games (0 or 1: the calling thread alone). The summary does not
    /// depend on it: game `i` is seeded with `seed + i` whoever plays it, and the games' figures
    /// are added up in game order (see [`run`]).
    pub jobs: usize,
}

/// A finished simulation: the summary as JSON and as a short report.
#[derive(Debug, Clone)]
pub struct Report {
    pub json: Value,
    pub text: String,
}

/// What a simulation reports, whatever the game.
#[derive(Serialize, Debug)]
pub struct Summary<S: Serialize> {
    pub game: &'static str,
    pub games: u64,
    pub seed: u64,
    /// The bots by seat (cycled over the seats).
    pub bots: Vec<String>,
    pub seconds: f64,
    pub games_per_second: f64,
    pub actions: u64,
    /// RoboRally: the registers resolved (five per turn played to its end, whichever robots
    /// still play), for registers per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registers: Option<u64>,
    /// The threads that played the games (`--jobs`).
    pub jobs: usize,
    /// Games stopped by the action cap before the rules ended them.
    pub unfinished: u64,
    /// How often each seat was first alone (a finished game counts once at most).
    pub wins_by_seat: Vec<u64>,
    /// How often each seat shared the first place with others (a tie at the top: every tied
    /// seat counts one shared first place; such a game has no sole winner).
    pub shared_firsts_by_seat: Vec<u64>,
    /// Game-specific figures.
    pub details: S,
}

/// A game-specific tally of events and final states.
pub trait Tally<G: Game>: Default + Serialize + Send {
    fn event(&mut self, e: &G::Event);
    fn finished(&mut self, g: &G);
    /// Add the figures of later games (`other` tallied games that come after this one's): a
    /// simulation on several threads tallies blocks of games and merges them in game order, so
    /// the result is the one thread's exactly.
    fn merge(&mut self, other: Self);
    /// The registers resolved (RoboRally), reported beside games and actions.
    fn registers(&self) -> Option<u64> {
        None
    }
    /// The figures as lines of text.
    fn report(&self) -> String;
}

/// No figures beyond the common ones.
#[derive(Default, Serialize)]
pub struct NoTally {}

impl<G: Game> Tally<G> for NoTally {
    fn event(&mut self, _e: &G::Event) {}
    fn finished(&mut self, _g: &G) {}
    fn merge(&mut self, _other: Self) {}
    fn report(&self) -> String {
        String::new()
    }
}

pub(crate) fn run_erased<G: Registered>(
    req: &Request,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, String> {
    let setup = G::setup(&req.setup)?;
    G::new(&setup, req.seed).map_err(|e| format!("this setup cannot start: {e}"))?;
    let summary = run::<G>(&setup, req, G::action_cap(&req.setup), progress);
    Ok(Report {
        json: serde_json::to_value(&summary).map_err(|e| e.to_string())?,
        text: text(&summary),
    })
}

/// Games per block: the unit of work a thread takes (and of the merge, in block order).
const BLOCK: u64 = 64;

/// The figures of a block of consecutive games.
struct Part<T> {
    tally: T,
    wins: Vec<u64>,
    shared: Vec<u64>,
    actions: u64,
    unfinished: u64,
}

impl<T> Part<T> {
    /// Add a later block's figures (sums only, so the order of blocks only matters to the
    /// tally, which is merged in game order).
    fn add<G: Game>(&mut self, later: Part<T>)
    where
        T: Tally<G>,
    {
        self.tally.merge(later.tally);
        add_counts(&mut self.wins, &later.wins);
        add_counts(&mut self.shared, &later.shared);
        self.actions += later.actions;
        self.unfinished += later.unfinished;
    }
}

fn add_counts(into: &mut Vec<u64>, from: &[u64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(from) {
        *a += b;
    }
}

/// Play `req.games` games from `setup`, game `i` seeded with `seed + i`. Seat `s` is played by
/// `bots[s mod len]`; with no bots (or only `random`) every seat plays random legal actions.
///
/// On `req.jobs` threads, each takes the next block of [`BLOCK`] games, tallies them alone and
/// keeps its figures by block number; the blocks are then merged in order. A game depends only
/// on its seed and the bots, and every figure is a sum (averages are recomputed from sums), so
/// the summary is the same for any number of jobs but for `seconds`, `games_per_second` and
/// `jobs` (`games/tests/sim_jobs.rs`).
pub fn run<G: Registered>(
    setup: &G::Setup,
    req: &Request,
    max_actions: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Summary<G::Tally> {
    let bots = &req.bots;
    let blocks = req.games.div_ceil(BLOCK);
    let jobs = req.jobs.clamp(1, blocks.clamp(1, 1024) as usize);
    let started = Instant::now();
    let done = AtomicU64::new(0);
    let play = |b: u64| {
        let range = b * BLOCK..((b + 1) * BLOCK).min(req.games);
        let n = range.end - range.start;
        let part = play_block::<G>(setup, req, max_actions, range);
        let before = done.fetch_add(n, Ordering::Relaxed);
        // About every 256 games, as before.
        if (before + n) / 256 != before / 256 {
            progress(before + n);
        }
        part
    };
    let parts: Vec<Part<G::Tally>> = if jobs == 1 {
        (0..blocks).map(play).collect()
    } else {
        let next = AtomicU64::new(0);
        let mut done_parts: Vec<(u64, Part<G::Tally>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..jobs)
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let b = next.fetch_add(1, Ordering::Relaxed);
                            if b >= blocks {
                                break mine;
                            }
                            mine.push((b, play(b)));
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a simulation thread panicked"))
                .collect()
        });
        done_parts.sort_by_key(|(b, _)| *b);
        done_parts.into_iter().map(|(_, p)| p).collect()
    };
    let mut total = Part {
        tally: G::Tally::default(),
        wins: Vec::new(),
        shared: Vec::new(),
        actions: 0,
        unfinished: 0,
    };
    for p in parts {
        total.add::<G>(p);
    }
    progress(req.games);
    let seconds = started.elapsed().as_secs_f64();
    Summary {
        game: G::NAME,
        games: req.games,
        seed: req.seed,
        bots: if bots.is_empty() {
            vec!["random".into()]
        } else {
            bots.iter().map(|b| b.to_string()).collect()
        },
        seconds,
        games_per_second: req.games as f64 / seconds.max(1e-9),
        actions: total.actions,
        registers: Tally::<G>::registers(&total.tally),
        jobs,
        unfinished: total.unfinished,
        wins_by_seat: total.wins,
        shared_firsts_by_seat: total.shared,
        details: total.tally,
    }
}

/// Play the games of `range` on this thread, tallied alone.
fn play_block<G: Registered>(
    setup: &G::Setup,
    req: &Request,
    max_actions: usize,
    range: std::ops::Range<u64>,
) -> Part<G::Tally> {
    let bots = &req.bots;
    let all_random = bots.iter().all(|b| *b == BotSpec::Random);
    let mut part = Part {
        tally: G::Tally::default(),
        wins: Vec::new(),
        shared: Vec::new(),
        actions: 0,
        unfinished: 0,
    };
    let mut events = Vec::with_capacity(64);
    // The last game played, reset in place for the next when the game can
    // ([`Registered::sim_reset`]).
    let mut kept: Option<G> = None;
    for i in range {
        let game_seed = req.seed.wrapping_add(i);
        let reset = kept.as_mut().is_some_and(|g| g.sim_reset(setup, game_seed));
        if !reset {
            kept = G::new(setup, game_seed).ok();
        }
        let Some(g) = kept.as_mut() else { continue };
        let mut rng = Rng::seeded(game_seed ^ 0x5eed);
        events.clear();
        let limit = |g: &G| g.sim_limit_reached(&req.setup);
        // The events are tallied after each action, in order, and dropped: the list stays
        // small and in cache instead of holding a whole game's events (issue 17).
        let tally = &mut part.tally;
        let fast = if all_random { g.sim_random_game(&mut rng, tally, max_actions) } else { None };
        part.actions += if let Some(n) = fast {
            n
        } else if all_random {
            play_random_until(g, &mut rng, &mut events, tally, max_actions, limit)
        } else {
            play_bots(g, bots, &mut rng, &mut events, tally, max_actions, limit)
        };
        part.tally.finished(g);
        if part.wins.len() < g.seats() {
            part.wins.resize(g.seats(), 0);
            part.shared.resize(g.seats(), 0);
        }
        match g.sim_winners() {
            Some(top) => count_firsts(top, &mut part.wins, &mut part.shared),
            None => part.unfinished += 1,
        }
    }
    part
}

/// A finished game's first place: one seat alone is a first place (`wins`); seats tied at the
/// top each count one shared first place (`shared`), and nobody wins that game alone.
fn count_firsts(top: engine::SeatSet, wins: &mut [u64], shared: &mut [u64]) {
    match (top.len(), top.first()) {
        (1, Some(one)) => wins[one.index()] += 1,
        _ => {
            for s in top.iter() {
                shared[s.index()] += 1;
            }
        }
    }
}

/// Play random legal actions (as `engine::play_random`) until the game ends, `max_actions`
/// are played or `limit` says the game has gone far enough. Each action is the game's
/// [`Registered::sim_random_step`]: `sample_action` then `apply`, or the game's own path that
/// draws and plays the same.
fn play_random_until<G: Registered>(
    g: &mut G,
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
    tally: &mut G::Tally,
    max_actions: usize,
    limit: impl Fn(&G) -> bool,
) -> u64 {
    let mut n = 0;
    while n < max_actions && !limit(g) {
        let Some(decision) = g.decision() else { break };
        let seat = match decision {
            Decision::One(s) => s,
            Decision::Simultaneous(set) => match set.first() {
                Some(s) => s,
                None => break,
            },
        };
        match g.sim_random_step(seat, rng, events, tally) {
            Some(true) => n += 1,
            Some(false) | None => break,
        }
    }
    n as u64
}

/// Play a game to its end with one bot per seat (cycling through `specs`).
fn play_bots<G: Registered>(
    g: &mut G,
    specs: &[BotSpec],
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
    tally: &mut G::Tally,
    max_actions: usize,
    limit: impl Fn(&G) -> bool,
) -> u64 {
    let mut seats: Vec<_> = (0..g.seats()).map(|s| G::bot(&specs[s % specs.len()])).collect();
    let mut n = 0;
    while let Some(d) = g.decision() {
        if n as usize >= max_actions || limit(g) {
            break;
        }
        let Some(s) = next_seat(&d, rng) else { break };
        let a = seats[s.index()].act(g, s, rng);
        let applied = g.apply(s, &a, events);
        tally_events::<G, _>(tally, events);
        if applied.is_err() {
            break;
        }
        n += 1;
    }
    n
}

/// Tally the events of the last action, in order, and empty the list.
pub(crate) fn tally_events<G: Game, T: Tally<G>>(tally: &mut T, events: &mut Vec<G::Event>) {
    for e in events.iter() {
        tally.event(e);
    }
    events.clear();
}

/// A summary as a short human-readable report.
pub fn text<G: Game, T: Tally<G>>(s: &Summary<T>) -> String {
    let mut out = format!(
        "{} {} games (seed {}, bots {}, {} jobs) in {:.2} s: {:.0} games/s, {} actions{}\n",
        s.games,
        s.game,
        s.seed,
        s.bots.join(","),
        s.jobs,
        s.seconds,
        s.games_per_second,
        s.actions,
        match s.registers {
            Some(r) => format!(", {r} registers ({:.0}/s)", r as f64 / s.seconds.max(1e-9)),
            None => String::new(),
        }
    );
    let total: u64 = s.wins_by_seat.iter().sum();
    let wins: Vec<String> = s
        .wins_by_seat
        .iter()
        .enumerate()
        .map(|(i, w)| {
            format!("{}: {} ({:.1}%)", Seat(i as u8), w, 100.0 * *w as f64 / total.max(1) as f64)
        })
        .collect();
    out += &format!("first places (alone): {}\n", wins.join(", "));
    if s.shared_firsts_by_seat.iter().any(|&n| n > 0) {
        let shared: Vec<String> = s
            .shared_firsts_by_seat
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}: {n}", Seat(i as u8)))
            .collect();
        let tied = s.games - s.unfinished - total;
        out +=
            &format!("shared first places ({tied} games tied at the top): {}\n", shared.join(", "));
    }
    if s.unfinished > 0 {
        out += &format!("{} games stopped unfinished at the action cap\n", s.unfinished);
    }
    out += &s.details.report();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_at_the_top_is_a_shared_first_place_not_a_win() {
        let (mut wins, mut shared) = (vec![0; 3], vec![0; 3]);
        let tie: engine::SeatSet = [Seat(0), Seat(1)].into_iter().collect();
        count_firsts(tie, &mut wins, &mut shared);
        assert_eq!((wins.clone(), shared.clone()), (vec![0, 0, 0], vec![1, 1, 0]));
        count_firsts(engine::SeatSet::single(Seat(2)), &mut wins, &mut shared);
        assert_eq!((wins, shared), (vec![0, 0, 1], vec![1, 1, 0]));
    }
}
