//! `robodrome tournament`: every pairing of bots, seats rotated, with a table and a picture.

use bots::BotSpec;
use games::Kind;
use games::duel::GameResult;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Serialize, Clone)]
pub struct Pairing {
    pub a: String,
    pub b: String,
    pub games: u64,
    /// Bot A's points (wins, shared first places count by share).
    pub a_points: f64,
    pub a_win_rate: f64,
    /// Wilson 95% interval of A's win rate.
    pub ci95: [f64; 2],
    pub a_average_score: f64,
    pub b_average_score: f64,
    pub a_ms_per_decision: f64,
    pub b_ms_per_decision: f64,
}

#[derive(Serialize)]
pub struct Report {
    pub game: &'static str,
    pub seed: u64,
    pub games_per_pairing: u64,
    pub pairings: Vec<Pairing>,
    /// Elo ratings fitted to all results (the first bot anchored at 1000).
    pub elo: Vec<(String, f64)>,
}

fn wilson(p: f64, n: f64) -> [f64; 2] {
    if n == 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.96;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / d;
    [(c - h).max(0.0), (c + h).min(1.0)]
}

/// Play every pairing of `specs` for `games` games each on `jobs` threads.
pub fn run(
    kind: &Kind,
    setup: &Value,
    specs: &[BotSpec],
    games: u64,
    seed: u64,
    jobs: usize,
    progress: bool,
) -> Result<Report, String> {
    let pairs: Vec<(usize, usize)> =
        (0..specs.len()).flat_map(|i| (i + 1..specs.len()).map(move |j| (i, j))).collect();
    let total = pairs.len() as u64 * games;
    let bar = if progress {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games ({eta} left)")
                .expect("template")
                .progress_chars("=> "),
        );
        b.set_message(format!("{} tournament", kind.name()));
        b
    } else {
        ProgressBar::hidden()
    };
    let mut pairings = Vec::new();
    for (i, j) in &pairs {
        let (a, b) = (&specs[*i], &specs[*j]);
        let next = AtomicU64::new(0);
        let results: Result<Vec<GameResult>, String> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..jobs.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut out = Vec::new();
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            if k >= games {
                                break;
                            }
                            // Seats rotate fairly: A takes seat 0 in even games, seat 1 in odd.
                            let r = kind.duel(setup, seed.wrapping_add(k / 2), a, b, (k % 2) as u8);
                            out.push((k, r));
                            bar.inc(1);
                        }
                        out
                    })
                })
                .collect();
            let mut all: Vec<(u64, Result<GameResult, String>)> = handles
                .into_iter()
                .flat_map(|h| h.join().expect("a tournament thread panicked"))
                .collect();
            // In game order, whatever thread played a game: the sums (floating-point scores
            // among them) are then the same for any number of jobs.
            all.sort_by_key(|(k, _)| *k);
            all.into_iter().map(|(_, r)| r).collect()
        });
        let results = results?;
        let n = results.len() as f64;
        let pts: f64 = results.iter().map(|r| r.a_points).sum();
        let dec = |w: usize| results.iter().map(|r| r.decisions[w]).sum::<u64>().max(1) as f64;
        let ns = |w: usize| results.iter().map(|r| r.nanos[w]).sum::<u64>() as f64;
        pairings.push(Pairing {
            a: a.to_string(),
            b: b.to_string(),
            games: results.len() as u64,
            a_points: pts,
            a_win_rate: pts / n.max(1.0),
            ci95: wilson(pts / n.max(1.0), n),
            a_average_score: results.iter().map(|r| r.a_score).sum::<f64>() / n.max(1.0),
            b_average_score: results.iter().map(|r| r.b_score).sum::<f64>() / n.max(1.0),
            a_ms_per_decision: ns(0) / dec(0) / 1e6,
            b_ms_per_decision: ns(1) / dec(1) / 1e6,
        });
    }
    bar.finish_and_clear();
    let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    Ok(Report {
        game: kind.name(),
        seed,
        games_per_pairing: games,
        elo: fit_elo(&names, &pairings),
        pairings,
    })
}

/// Elo ratings that best explain the pairings' scores (gradient steps on the logistic model).
fn fit_elo(names: &[String], pairings: &[Pairing]) -> Vec<(String, f64)> {
    let mut r = vec![1000.0; names.len()];
    let idx = |n: &str| names.iter().position(|x| x == n).expect("known bot");
    for _ in 0..2000 {
        let mut grad = vec![0.0; names.len()];
        for p in pairings {
            let (a, b) = (idx(&p.a), idx(&p.b));
            let expected = 1.0 / (1.0 + 10f64.powf((r[b] - r[a]) / 400.0));
            let g = (p.a_points - expected * p.games as f64) / p.games.max(1) as f64;
            grad[a] += g;
            grad[b] -= g;
        }
        for (rk, gk) in r.iter_mut().zip(&grad).skip(1) {
            *rk = (*rk + 20.0 * gk).clamp(-2000.0, 4000.0);
        }
    }
    names.iter().cloned().zip(r).collect()
}

pub fn print(rep: &Report) {
    println!(
        "{} tournament, {} games per pairing, seed {}",
        rep.game, rep.games_per_pairing, rep.seed
    );
    println!(
        "{:<14} {:<14} {:>7} {:>9} {:>17} {:>9} {:>9} {:>10} {:>10}",
        "A", "B", "games", "A wins", "95% CI", "A score", "B score", "A ms/dec", "B ms/dec"
    );
    for p in &rep.pairings {
        println!(
            "{:<14} {:<14} {:>7} {:>8.1}% {:>7.1}%–{:>6.1}% {:>9.2} {:>9.2} {:>10.3} {:>10.3}",
            p.a,
            p.b,
            p.games,
            100.0 * p.a_win_rate,
            100.0 * p.ci95[0],
            100.0 * p.ci95[1],
            p.a_average_score,
            p.b_average_score,
            p.a_ms_per_decision,
            p.b_ms_per_decision
        );
    }
    let elo: Vec<String> = rep.elo.iter().map(|(n, e)| format!("{n} {e:.0}")).collect();
    println!("Elo: {}", elo.join(", "));
}

/// A picture of the win-rate matrix (row bot's win rate against the column bot).
pub fn svg(rep: &Report) -> String {
    let mut names: Vec<String> = Vec::new();
    for p in &rep.pairings {
        for n in [&p.a, &p.b] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let cell = 90.0;
    let left = 130.0;
    let top = 60.0;
    let w = (left + cell * names.len() as f64 + 20.0).max(560.0);
    let h = top + cell * names.len() as f64 + 40.0;
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/><text x="10" y="24" font-size="15" font-weight="bold">{} — win rate of the row bot against the column bot</text>"##,
        rep.game
    );
    for (i, n) in names.iter().enumerate() {
        s += &format!(
            r##"<text x="{}" y="{}" font-size="12" text-anchor="end">{n}</text>"##,
            left - 8.0,
            top + cell * i as f64 + cell / 2.0 + 4.0
        );
        s += &format!(
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">{n}</text>"##,
            left + cell * i as f64 + cell / 2.0,
            top - 8.0
        );
    }
    for (i, a) in names.iter().enumerate() {
        for (j, b) in names.iter().enumerate() {
            let rate = rep.pairings.iter().find_map(|p| {
                if &p.a == a && &p.b == b {
                    Some(p.a_win_rate)
                } else if &p.a == b && &p.b == a {
                    Some(1.0 - p.a_win_rate)
                } else {
                    None
                }
            });
            let (x, y) = (left + cell * j as f64, top + cell * i as f64);
            let (fill, label) = match rate {
                Some(r) => (format!("hsl({:.0},70%,60%)", 120.0 * r), format!("{:.0}%", 100.0 * r)),
                None => ("#eee".to_string(), "—".to_string()),
            };
            s += &format!(
                r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#fff"/><text x="{}" y="{}" font-size="16" text-anchor="middle">{label}</text>"##,
                x + cell / 2.0,
                y + cell / 2.0 + 6.0
            );
        }
    }
    s += "</svg>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 17: `--jobs` changes the speed, not the results (the times per decision aside).
    #[test]
    fn a_tournament_on_three_jobs_is_the_one_job_tournament() {
        let kind = games::Registry::everything().get("autoscooter").expect("registered");
        let setup = kind
            .make_setup(&games::SetupRequest { players: 2, ..Default::default() })
            .expect("a setup");
        let specs = [
            BotSpec::Random,
            BotSpec::Heuristic,
            BotSpec::Search { simulations: 20, threads: 2, share: None },
        ];
        let report = |jobs| {
            let r = run(kind, &setup, &specs, 6, 5, jobs, false).expect("the tournament runs");
            let mut v = serde_json::to_value(&r).expect("serialises");
            for p in v["pairings"].as_array_mut().expect("pairings") {
                p["a_ms_per_decision"] = Value::Null;
                p["b_ms_per_decision"] = Value::Null;
            }
            v
        };
        let one = report(1);
        assert_eq!(one["pairings"].as_array().map(Vec::len), Some(3), "{one}");
        assert_eq!(report(3), one);
    }
}
