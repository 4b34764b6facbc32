//! `robodrome sim`: many random games, a progress bar, and a summary.

use bots::{BotSpec, HasBots};
use engine::{Game, Rng, Seat, harness::next_seat, play_random};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::time::Instant;

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
    /// How often each seat finished first (ties count for every tied seat).
    pub wins_by_seat: Vec<u64>,
    /// Game-specific figures.
    pub details: S,
}

/// A game-specific tally of events and final states.
pub trait Tally<G: Game>: Default + Serialize {
    fn event(&mut self, e: &G::Event);
    fn finished(&mut self, g: &G);
    fn print(&self);
}

/// Play `games` games from `setup`, game `i` seeded with `seed + i`. Seat `s` is played by
/// `bots[s mod len]`; with no bots (or only `random`) every seat plays random legal actions.
pub fn run<G: HasBots, T: Tally<G>>(
    setup: &G::Setup,
    games: u64,
    seed: u64,
    bots: &[BotSpec],
    show_progress: bool,
    max_actions: usize,
) -> Summary<T> {
    let all_random = bots.iter().all(|b| *b == BotSpec::Random);
    let bar = if show_progress && games >= 2_000 {
        let b = ProgressBar::new(games);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg} [{bar:40}] {pos}/{len} games ({per_sec}, {eta} left)",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        b.set_message(G::NAME);
        b
    } else {
        ProgressBar::hidden()
    };
    let mut tally = T::default();
    let mut wins: Vec<u64> = Vec::new();
    let mut actions = 0u64;
    let mut unfinished = 0u64;
    let mut events = Vec::with_capacity(1024);
    let started = Instant::now();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i);
        let mut g = G::new(setup, game_seed).expect("setup checked before the run");
        let mut rng = Rng::seeded(game_seed ^ 0x5eed);
        events.clear();
        actions += if all_random {
            play_random(&mut g, &mut rng, &mut events, max_actions) as u64
        } else {
            play_bots(&mut g, bots, &mut rng, &mut events, max_actions)
        };
        for e in &events {
            tally.event(e);
        }
        tally.finished(&g);
        if wins.len() < g.seats() {
            wins.resize(g.seats(), 0);
        }
        match g.outcome() {
            Some(o) => {
                for s in o.winners() {
                    wins[s.index()] += 1;
                }
            }
            None => unfinished += 1,
        }
        if i % 256 == 0 {
            bar.set_position(i);
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    Summary {
        game: G::NAME,
        games,
        seed,
        bots: if bots.is_empty() {
            vec!["random".into()]
        } else {
            bots.iter().map(|b| b.to_string()).collect()
        },
        seconds,
        games_per_second: games as f64 / seconds.max(1e-9),
        actions,
        unfinished,
        wins_by_seat: wins,
        details: tally,
    }
}

/// Play a game to its end with one bot per seat (cycling through `specs`).
fn play_bots<G: HasBots>(
    g: &mut G,
    specs: &[BotSpec],
    rng: &mut Rng,
    events: &mut Vec<G::Event>,
    max_actions: usize,
) -> u64 {
    let mut seats: Vec<_> = (0..g.seats()).map(|s| G::bot(&specs[s % specs.len()])).collect();
    let mut n = 0;
    while let Some(d) = g.decision() {
        if n as usize >= max_actions {
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

/// Print a summary as a short human-readable report.
pub fn print<G: Game, T: Tally<G>>(s: &Summary<T>) {
    println!(
        "{} {} games (seed {}, bots {}) in {:.2} s: {:.0} games/s, {} actions",
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
    println!("first places: {}", wins.join(", "));
    if s.unfinished > 0 {
        println!("{} games stopped unfinished at the action cap", s.unfinished);
    }
    s.details.print();
}
