//! BB-11 championships: points per place, grids for later races, team scoring.

use engine::Seat;

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

/// A championship: several races, each a separate `BumpingBots` (pure bookkeeping here).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Championship {
    pub bots: usize,
    /// Points per seat so far.
    pub standings: Vec<i32>,
    pub races: usize,
}

impl Championship {
    pub fn new(bots: usize) -> Championship {
        Championship { bots, standings: vec![0; bots], races: 0 }
    }

    /// Add a finished race's ranking (places first to last, ties grouped).
    pub fn record(&mut self, ranking: &[Vec<Seat>]) {
        let mut place = 1;
        for group in ranking {
            for s in group {
                if let Some(p) = self.standings.get_mut(s.index()) {
                    *p += points_for(place, self.bots);
                }
            }
            place += group.len();
        }
        self.races += 1;
    }

    /// The setup of the next race on `track`: every bot on the grid, drawn at random from the
    /// race's seed, or (`reverse_standings`, BB-11.2) in reverse order of the standings.
    pub fn next_race(
        &self,
        track: crate::track::BoardSpec,
        reverse_standings: bool,
    ) -> crate::Setup {
        let mut setup = crate::Setup::race(track, self.bots as u8);
        setup.standings = self.standings.clone();
        setup.variants.reverse_standings = reverse_standings && self.races > 0;
        setup
    }

    /// BB-11.2 `reverse_standings`: the grid order for the next race, the lowest standing at
    /// the front (the project's reading of "players pick in reverse order of the standings":
    /// the first to pick takes the front place); ties by seat.
    pub fn reverse_grid(&self) -> Vec<Seat> {
        reverse_standings_grid(&self.standings)
    }
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

    #[test]
    fn a_championship_drives_races() {
        use engine::Game;
        let track = crate::tracks::shipped("oval").unwrap();
        let mut c = Championship::new(4);
        for race in 0..3u64 {
            let setup = c.next_race(track.clone(), true);
            let mut g = crate::BumpingBots::new(&setup, race).unwrap();
            let mut rng = engine::Rng::seeded(race);
            engine::play_random(&mut g, &mut rng, &mut Vec::new(), 100_000);
            c.record(&g.outcome().expect("over").ranking);
        }
        assert_eq!(c.races, 3);
        assert_eq!(c.standings.iter().sum::<i32>(), 3 * (5 + 3 + 2 + 1));
    }

    #[test]
    fn championship_accumulates() {
        let mut c = Championship::new(4);
        c.record(&[vec![Seat(2)], vec![Seat(0)], vec![Seat(1)], vec![Seat(3)]]);
        assert_eq!(c.standings, vec![3, 2, 5, 1]);
        assert_eq!(c.reverse_grid(), vec![Seat(3), Seat(1), Seat(0), Seat(2)]);
    }
}
