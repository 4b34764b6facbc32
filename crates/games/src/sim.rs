//! `robodrome sim`: many games with any mix of bots, and a summary (each game's own figures
//! through its [`Tally`]).

use crate::{Registered, SetupRequest};
use bots::BotSpec;
use engine::{Decision, Game, Rng, Seat, harness::next_seat};
use serde::Serialize;
use serde_json::Value;
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
pub trait Tally<G: Game>: Default + Serialize {
    fn event(&mut self, e: &G::Event);
    fn finished(&mut self, g: &G);
    /// The figures as lines of text.
    fn report(&self) -> String;
}

/// No figures beyond the common ones.
#[derive(Default, Serialize)]
pub struct NoTally {}

impl<G: Game> Tally<G> for NoTally {
    fn event(&mut self, _e: &G::Event) {}
    fn finished(&mut self, _g: &G) {}
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

/// Play `req.games` games from `setup`, game `i` seeded with `seed + i`. Seat `s` is played by
/// `bots[s mod len]`; with no bots (or only `random`) every seat plays random legal actions.
pub fn run<G: Registered>(
    setup: &G::Setup,
    req: &Request,
    max_actions: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Summary<G::Tally> {
    let bots = &req.bots;
    let all_random = bots.iter().all(|b| *b == BotSpec::Random);
    let mut tally = G::Tally::default();
    let mut wins: Vec<u64> = Vec::new();
    let mut shared: Vec<u64> = Vec::new();
    let mut actions = 0u64;
    let mut unfinished = 0u64;
    let mut events = Vec::with_capacity(1024);
    let started = Instant::now();
    for i in 0..req.games {
        let game_seed = req.seed.wrapping_add(i);
        let Ok(mut g) = G::new(setup, game_seed) else { continue };
        let mut rng = Rng::seeded(game_seed ^ 0x5eed);
        events.clear();
        let limit = |g: &G| g.sim_limit_reached(&req.setup);
        actions += if all_random {
            play_random_until(&mut g, &mut rng, &mut events, max_actions, limit)
        } else {
            play_bots(&mut g, bots, &mut rng, &mut events, max_actions, limit)
        };
        for e in &events {
            tally.event(e);
        }
        tally.finished(&g);
        if wins.len() < g.seats() {
            wins.resize(g.seats(), 0);
            shared.resize(g.seats(), 0);
        }
        match g.outcome() {
            Some(o) => count_firsts(&o, &mut wins, &mut shared),
            None => unfinished += 1,
        }
        if i % 256 == 0 {
            progress(i);
        }
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
        actions,
        unfinished,
        wins_by_seat: wins,
        shared_firsts_by_seat: shared,
        details: tally,
    }
}

/// A finished game's first place: one seat alone is a first place (`wins`); seats tied at the
/// top each count one shared first place (`shared`), and nobody wins that game alone.
fn count_firsts(o: &engine::Outcome, wins: &mut [u64], shared: &mut [u64]) {
    match o.winners() {
        [one] => wins[one.index()] += 1,
        tied => {
            for s in tied {
                shared[s.index()] += 1;
            }
        }
    }
}

/// Play random legal actions (as `engine::play_random`) until the game ends, `max_actions`
/// are played or `limit` says the game has gone far enough.
fn play_random_until<G: Game>(
    g: &mut G,
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
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
        let Some(action) = g.sample_action(seat, rng) else { break };
        if g.apply(seat, &action, events).is_err() {
            break;
        }
        n += 1;
    }
    n as u64
}

/// Play a game to its end with one bot per seat (cycling through `specs`).
fn play_bots<G: Registered>(
    g: &mut G,
    specs: &[BotSpec],
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
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
        if g.apply(s, &a, events).is_err() {
            break;
        }
        n += 1;
    }
    n
}

/// A summary as a short human-readable report.
pub fn text<G: Game, T: Tally<G>>(s: &Summary<T>) -> String {
    let mut out = format!(
        "{} {} games (seed {}, bots {}) in {:.2} s: {:.0} games/s, {} actions\n",
        s.games,
        s.game,
        s.seed,
        s.bots.join(","),
        s.seconds,
        s.games_per_second,
        s.actions
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
        let tie =
            engine::Outcome { ranking: vec![vec![Seat(0), Seat(1)], vec![Seat(2)]], scores: None };
        count_firsts(&tie, &mut wins, &mut shared);
        assert_eq!((wins.clone(), shared.clone()), (vec![0, 0, 0], vec![1, 1, 0]));
        let alone =
            engine::Outcome { ranking: vec![vec![Seat(2)], vec![Seat(0), Seat(1)]], scores: None };
        count_firsts(&alone, &mut wins, &mut shared);
        assert_eq!((wins, shared), (vec![0, 0, 1], vec![1, 1, 0]));
    }
}
