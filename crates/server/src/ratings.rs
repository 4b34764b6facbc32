//! Ratings: Glicko-2 per game per player (docs/platform.md "Ratings").
//!
//! A finished game is rated when every seat is an account (a person's, or a robodrome bot's:
//! `bot:<spec>`), it is not a practice game (a chosen seed is practice only), and no bot stood in
//! for a person. Its final ranking becomes pairwise results: for each player, every other rated
//! seat is one game of a rating period, a win against those placed lower, a loss against those
//! placed higher, a draw against those sharing the place; every result uses the opponents'
//! ratings from before the game. Glicko-2 itself is the `skillratings` crate's
//! (`glicko2_rating_period`, τ = 0.5, tolerance 10⁻⁶, the paper's defaults).
//!
//! This module is pure: who is rated and the new ratings. Storing them (in the same
//! transaction as the result) is the store's (`crate::accounts::AccountStore::finish_rated`).

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's rating in one game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500, deviation 350, volatility 0.06 (the paper's starting values).
    fn default() -> Rating {
        let d = Glicko2Rating::new();
        Rating { rating: d.rating, deviation: d.deviation, volatility: d.volatility }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

/// The system constant τ and the convergence tolerance (the paper's example values).
pub fn config() -> Glicko2Config {
    Glicko2Config { tau: 0.5, convergence_tolerance: 0.000_001 }
}

/// One rated seat: who, where it finished (0 = first; equal places tie) and its rating before.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: String,
    pub place: usize,
    pub before: Rating,
}

/// Each player's rating after the game, in the order given: one rating period per player whose
/// games are the pairwise results against every other player, at their ratings before the game.
pub fn rate(standings: &[Standing]) -> Vec<Rating> {
    let cfg = config();
    standings
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let results: Vec<(Glicko2Rating, Outcomes)> = standings
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| {
                    let r = match me.place.cmp(&o.place) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (o.before.into(), r)
                })
                .collect();
            glicko2_rating_period(&me.before.into(), &results, &cfg).into()
        })
        .collect()
}

/// The places of an outcome's seats (`{"ranking": [[0], [1, 2], …]}`: places 0, 1, 1, …),
/// resigned seats below everyone else, sharing the last place. `None` when the outcome does not
/// rank every seat exactly once.
pub fn places(outcome: &serde_json::Value, seats: usize, resigned: &[usize]) -> Option<Vec<usize>> {
    let ranking = outcome.get("ranking")?.as_array()?;
    let mut place = vec![usize::MAX; seats];
    let mut next = 0;
    for group in ranking {
        let group: Vec<usize> = group
            .as_array()?
            .iter()
            .map(|s| s.as_u64().map(|s| s as usize))
            .collect::<Option<_>>()?;
        let live: Vec<usize> = group.into_iter().filter(|s| !resigned.contains(s)).collect();
        for &s in &live {
            if *place.get(s)? != usize::MAX {
                return None;
            }
            place[s] = next;
        }
        next += live.len();
    }
    for &s in resigned {
        *place.get_mut(s)? = next;
    }
    place.iter().all(|&p| p != usize::MAX).then_some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", glicko2.pdf): a player at
    /// 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one rating period, and
    /// ends at 1464.06 / 151.52 / 0.05999. A four-player game with that ranking (the 1400 player
    /// last, the two others first) rates our player exactly as that period.
    #[test]
    fn the_papers_example_is_one_four_player_game() {
        let s = |player: &str, place, rating, deviation| Standing {
            player: player.into(),
            place,
            before: Rating { rating, deviation, volatility: 0.06 },
        };
        let after = rate(&[
            s("me", 2, 1500.0, 200.0),
            s("a", 3, 1400.0, 30.0),
            s("b", 0, 1550.0, 100.0),
            s("c", 1, 1700.0, 300.0),
        ]);
        let me = after[0];
        assert!(close(me.rating, 1464.06, 0.01), "{me:?}");
        assert!(close(me.deviation, 151.52, 0.01), "{me:?}");
        assert!(close(me.volatility, 0.05999, 0.00001), "{me:?}");
    }

    #[test]
    fn places_follow_the_ranking_and_resigned_seats_come_last() {
        let o = serde_json::json!({ "ranking": [[1], [0, 2], [3]] });
        assert_eq!(places(&o, 4, &[]), Some(vec![1, 0, 1, 3]));
        assert_eq!(places(&o, 4, &[1]), Some(vec![0, 3, 0, 2]));
        // A seat ranked twice or not at all: not rated.
        assert_eq!(places(&serde_json::json!({ "ranking": [[0], [0]] }), 2, &[]), None);
        assert_eq!(places(&serde_json::json!({ "ranking": [[0]] }), 2, &[]), None);
        assert_eq!(places(&serde_json::json!({}), 2, &[]), None);
    }

    #[test]
    fn a_draw_between_equals_moves_no_rating() {
        let s = |p: &str| Standing { player: p.into(), place: 0, before: Rating::default() };
        let after = rate(&[s("a"), s("b")]);
        assert!(close(after[0].rating, 1500.0, 1e-9));
        assert!(after[0].deviation < 350.0);
    }
}
