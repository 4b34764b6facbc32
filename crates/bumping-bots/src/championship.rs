//! BB-11 championships: points per place, grids for later races, team scoring, and the
//! championship itself as one game ([`Championship`], in `championship/game.rs`).

use engine::Seat;

mod game;
pub use game::{
    ChampAction, ChampError, ChampEvent, ChampOnly, ChampStatic, ChampView, Championship,
    ChampionshipSetup, GridChoice, GridView, RACES, RaceResult, TeamStanding,
};

/// BB-11.1: points by place (rows 1..9) and number of bots that started (columns 2..9).
const POINTS: [[i32; 8]; 9] = [
    [3, 5, 5, 7, 8, 9, 10, 10],
    [1, 3, 3, 5, 6, 7, 8, 8],
    [0, 1, 2, 3, 4, 5, 6, 6],
    [0, 0, 1, 2, 3, 4, 5, 5],
    [0, 0, 0, 1, 2, 3, 4, 4],
    [0, 0, 0, 0, 1, 2, 3, 3],
    [0, 0, 0, 0, 0, 1, 2, 2],
    [0, 0, 0, 0, 0, 0, 1, 1],
    [0, 0, 0, 0, 0, 0, 0, 0],
];

/// BB-11.1: points for `place` (1-based) in a race `bots` started (2..=9). Tied bots each
/// earn the points of the shared place (BB-10).
pub fn points_for(place: usize, bots: usize) -> i32 {
    if !(1..=9).contains(&place) || !(2..=9).contains(&bots) || place > bots {
        return 0;
    }
    POINTS[place - 1][bots - 2]
}

/// BB-11.3: teams of 2 with 4, 6 or 8 bots; three teams of 3 with 9; every bot in exactly one
/// team. The problems found, each naming its field (`variants.teams`); empty when the teams hold.
/// One check for a race's setup and a championship's.
pub fn check_teams(teams: &[Vec<u8>], n: usize) -> Vec<String> {
    let size = match n {
        4 | 6 | 8 => 2,
        9 => 3,
        _ => {
            return vec![format!(
                "variants.teams: teams need 4, 6, 8 or 9 bots (BB-11.3), got {n}"
            )];
        }
    };
    let mut problems = Vec::new();
    let mut seen = vec![false; n];
    for (i, team) in teams.iter().enumerate() {
        if team.len() != size {
            problems.push(format!(
                "variants.teams[{i}]: with {n} bots a team has {size} bots (BB-11.3), got {}",
                team.len()
            ));
        }
        for &m in team {
            match seen.get_mut(m as usize) {
                None => problems.push(format!("variants.teams[{i}]: no seat {m}")),
                Some(true) => {
                    problems.push(format!("variants.teams[{i}]: seat {m} is in two teams"))
                }
                Some(x) => *x = true,
            }
        }
    }
    let missing: Vec<String> = (0..n).filter(|&k| !seen[k]).map(|k| k.to_string()).collect();
    if !missing.is_empty() {
        problems.push(format!(
            "variants.teams: every bot is in a team (BB-11.3); seats {} are in none",
            missing.join(", ")
        ));
    }
    problems
}

/// BB-11.3: a team scores its better bot (pairs) or its two best bots (teams of 3).
pub fn team_points(teams: &[Vec<u8>], points: &[i32]) -> Vec<i32> {
    teams
        .iter()
        .map(|team| {
            let mut p: Vec<i32> =
                team.iter().filter_map(|&s| points.get(s as usize).copied()).collect();
            p.sort_unstable_by(|a, b| b.cmp(a));
            let counted = if team.len() >= 3 { 2 } else { 1 };
            p.iter().take(counted).sum()
        })
        .collect()
}

/// BB-11.2: seats ordered lowest points first (ties by seat).
pub fn reverse_standings_grid(standings: &[i32]) -> Vec<Seat> {
    let mut seats: Vec<Seat> = (0..standings.len() as u8).map(Seat).collect();
    seats.sort_by_key(|s| (standings[s.index()], *s));
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bb_11_1_table_corners() {
        assert_eq!(points_for(1, 2), 3);
        assert_eq!(points_for(2, 2), 1);
        assert_eq!(points_for(1, 9), 10);
        assert_eq!(points_for(9, 9), 0);
        assert_eq!(points_for(4, 4), 1);
        assert_eq!(points_for(3, 2), 0);
        // Each column sums as the booklet's table.
        let col9: i32 = (1..=9).map(|p| points_for(p, 9)).sum();
        assert_eq!(col9, 10 + 8 + 6 + 5 + 4 + 3 + 2 + 1);
    }

    #[test]
    fn bb_11_3_teams() {
        assert_eq!(team_points(&[vec![0, 1], vec![2, 3]], &[5, 1, 3, 2]), vec![5, 3]);
        assert_eq!(team_points(&[vec![0, 1, 2]], &[10, 8, 6]), vec![18]);
    }
}
