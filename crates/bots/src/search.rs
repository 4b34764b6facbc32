//! A search bot that uses the engine as its simulator.
//!
//! Simultaneous secret decisions need a method made for them. This bot runs information-set
//! Monte Carlo search at the root: each simulation first **determinizes** — resamples everything
//! its seat cannot see ([`engine::Game::determinize`]) — then plays one of its candidate actions
//! (chosen by UCB1, decoupled from the other seats' choices, which the rollout samples) and rolls
//! the game out with a playout policy to the end or a horizon, scoring the result with
//! [`HasBots::evaluate`]. The candidate with the best mean reward among the well-visited ones
//! is played. Reproducible: the same seed and budget give the same decision.

use crate::{Bot, HasBots, Stop};
use engine::{Rng, Seat};

/// The playout's heuristic share by default (in 1/256): half the playout steps play
/// [`HasBots::playout`], half a random action. `search:N:share=S` sets another
/// (docs/bots.md, issue 17).
pub const DEFAULT_PLAYOUT_SHARE: u32 = 128;

/// Determinized root UCB search with playouts.
pub struct SearchBot {
    pub simulations: u32,
    /// Maximum number of decisions in one playout.
    pub horizon: u32,
    /// Probability (in 1/256) that a playout step uses the heuristic policy instead of random.
    pub heuristic_share: u32,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// Stop early when this much time has passed (checked between simulations).
    pub time_limit: Option<std::time::Duration>,
    /// Threads searching the root together (root parallelism, issue 17): each plays its share
    /// of `simulations` from its own generator; 1 = the calling thread alone.
    pub threads: usize,
}

impl SearchBot {
    pub fn new(simulations: u32) -> Self {
        SearchBot {
            simulations,
            horizon: 48,
            heuristic_share: DEFAULT_PLAYOUT_SHARE,
            exploration: 0.7,
            time_limit: None,
            threads: 1,
        }
    }
}

impl<G: HasBots> Bot<G> for SearchBot {
    fn name(&self) -> String {
        let share = match self.heuristic_share {
            DEFAULT_PLAYOUT_SHARE => String::new(),
            s => format!(":share={s}"),
        };
        match self.time_limit {
            Some(t) => format!("search:{}ms{share}", t.as_millis()),
            None if self.threads > 1 => {
                format!("search:{}x{}{share}", self.simulations, self.threads)
            }
            None => format!("search:{}{share}", self.simulations),
        }
    }

    fn act(&mut self, game: &G, seat: Seat, rng: &mut Rng) -> G::Action {
        self.act_until(game, seat, rng, &Stop::default())
    }

    fn act_until(&mut self, game: &G, seat: Seat, rng: &mut Rng, stop: &Stop) -> G::Action {
        let candidates = G::candidates(game, seat, rng);
        assert!(!candidates.is_empty(), "{seat} owes a decision but has no candidate");
        if candidates.len() == 1 {
            return candidates.into_iter().next().expect("one candidate");
        }
        let threads = self.threads.clamp(1, crate::MAX_SEARCH_THREADS as usize) as u32;
        let (visits, value) = if threads == 1 {
            self.root(game, seat, &candidates, self.simulations, rng, stop)
        } else {
            // Root parallelism: each thread searches the same root with its share of the budget
            // and its own generator (drawn in order from the caller's), and the visits and
            // rewards are added up in thread order: the same decision for the same seed, budget
            // and thread count (`root_parallel_search_is_reproducible`).
            let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
            let (me, total): (&SearchBot, u32) = (self, self.simulations);
            let share = move |t: u32| total / threads + u32::from(t < total % threads);
            let parts: Vec<(Vec<u32>, Vec<f64>)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (candidates, seed) = (&candidates, seeds[t as usize]);
                        scope.spawn(move || {
                            let mut rng = Rng::seeded(seed);
                            me.root(game, seat, candidates, share(t), &mut rng, stop)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a search thread panicked")).collect()
            });
            let mut visits = vec![0u32; candidates.len()];
            let mut value = vec![0f64; candidates.len()];
            for (v, w) in parts {
                for i in 0..candidates.len() {
                    visits[i] += v[i];
                    value[i] += w[i];
                }
            }
            (visits, value)
        };
        // The best mean among the well-tried candidates (at least half the visits of the most
        // visited one); ties go to the earlier candidate.
        let most = visits.iter().copied().max().unwrap_or(0);
        let mean = |i: usize| if visits[i] == 0 { f64::MIN } else { value[i] / visits[i] as f64 };
        let best = (0..candidates.len())
            .filter(|&i| visits[i] * 2 >= most)
            .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
            .expect("candidates");
        candidates.into_iter().nth(best).expect("best exists")
    }
}

impl SearchBot {
    /// UCB1 over the root's candidates for `simulations` simulations: visits and summed rewards
    /// by candidate.
    fn root<G: HasBots>(
        &self,
        game: &G,
        seat: Seat,
        candidates: &[G::Action],
        simulations: u32,
        rng: &mut Rng,
        stop: &Stop,
    ) -> (Vec<u32>, Vec<f64>) {
        let mut visits = vec![0u32; candidates.len()];
        let mut value = vec![0f64; candidates.len()];
        // Each candidate's mean reward and visits as `f64`, kept as they change (one candidate
        // per simulation) rather than divided and converted for every candidate at every
        // selection: the same numbers, so the same choices (issue 17 round 7).
        let mut mean = vec![0f64; candidates.len()];
        let mut tries = vec![0f64; candidates.len()];
        let mut events = Vec::new();
        // What the playouts keep from one simulation to the next ([`HasBots::Scratch`]).
        let mut scratch = G::Scratch::default();
        // Rewards can differ by little (an evaluation squashed to 0..1): scale exploration to
        // the spread of the rewards seen so far.
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        let started = stop.clock().now();
        for sim in 0..simulations {
            if let Some(limit) = self.time_limit
                && sim >= candidates.len() as u32
                && sim % 16 == 0
                && stop.clock().elapsed(started) >= limit
            {
                break;
            }
            // A ceiling or a cancellation: play the best candidate found so far.
            if stop.now() {
                break;
            }
            let i = if (sim as usize) < candidates.len() {
                sim as usize
            } else {
                let ln = (sim as f64).ln();
                let c = self.exploration * (hi - lo).max(1e-9);
                let ucb = |a: usize| mean[a] + c * (ln / tries[a]).sqrt();
                // `max_by` of `total_cmp` (the last of equal maxima), each bound computed once
                // rather than once per comparison (issue 17).
                let mut best = (0, ucb(0));
                for a in 1..candidates.len() {
                    let u = ucb(a);
                    if u.total_cmp(&best.1).is_ge() {
                        best = (a, u);
                    }
                }
                best.0
            };
            let mut g = game.determinize(seat, rng);
            events.clear();
            let reward = if G::playout_apply(&mut g, seat, &candidates[i], &mut events) {
                if G::PLAYOUT_TO_END_OF_TURN {
                    crate::lookahead::finish_turn(&mut g, seat, rng, &mut events);
                } else {
                    self.playout(&mut g, rng, &mut events, &mut scratch);
                }
                G::evaluate(&g, seat)
            } else {
                0.0
            };
            visits[i] += 1;
            value[i] += reward;
            mean[i] = value[i] / visits[i] as f64;
            tries[i] = visits[i] as f64;
            lo = lo.min(reward);
            hi = hi.max(reward);
        }
        (visits, value)
    }
}

impl SearchBot {
    fn playout<G: HasBots>(
        &self,
        g: &mut G,
        rng: &mut Rng,
        events: &mut Vec<G::Event>,
        scratch: &mut G::Scratch,
    ) {
        G::rollout(g, rng, self.horizon.min(G::HORIZON), self.heuristic_share, events, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use autoscooter::Autoscooter;
    use engine::{Game, harness::next_seat};

    /// A mid-game Autoscooter position (two seats, random play up to round 3).
    fn position(seed: u64) -> (Autoscooter, Seat) {
        let setup = autoscooter::Setup::standard(2, false, Default::default()).unwrap();
        let mut g = Autoscooter::new(&setup, seed).unwrap();
        let mut rng = Rng::seeded(seed);
        let mut events = Vec::new();
        for _ in 0..30 {
            let s = next_seat(&g.decision().unwrap(), &mut rng).unwrap();
            let a = g.sample_action(s, &mut rng).unwrap();
            g.apply(s, &a, &mut events).unwrap();
        }
        let s = next_seat(&g.decision().unwrap(), &mut rng).unwrap();
        (g, s)
    }

    /// Issue 17: root parallelism keeps a decision reproducible for a seed, a budget and a
    /// thread count, and spends exactly the budget (shared among the threads).
    #[test]
    fn root_parallel_search_is_reproducible() {
        for seed in 0..4 {
            let (g, seat) = position(seed);
            let candidates = <Autoscooter as HasBots>::candidates(&g, seat, &mut Rng::seeded(1));
            let decide = |threads| {
                let mut bot = SearchBot { threads, ..SearchBot::new(61) };
                bot.act(&g, seat, &mut Rng::seeded(seed ^ 77))
            };
            let three = decide(3);
            assert_eq!(decide(3), three);
            assert!(candidates.contains(&three), "{three:?}");
            let bot = SearchBot::new(61);
            let (visits, _) =
                bot.root(&g, seat, &candidates, 20, &mut Rng::seeded(3), &Stop::default());
            assert_eq!(visits.iter().sum::<u32>(), 20);
        }
    }
}
