//! Game settings: the cells-per-speed table (BB-1.2), variants (BB-3, BB-9, BB-11) and limits.

use serde::{Deserialize, Serialize};

/// BB-1.2: cells moved per speed, `CELLS_PER_SPEED[speed - 1]`. The one place the table lives.
pub const DEFAULT_CELLS_PER_SPEED: [u8; 6] = [1, 2, 3, 4, 4, 5];

/// Safety bound on a race's length (a project decision, `docs/bumping-bots.md`): a race that
/// reaches this round ends after it, the bots still racing ranked by race order (BB-2.2).
pub const DEFAULT_ROUND_LIMIT: u32 = 200;

/// Team membership (BB-11.3): `true` pairs seats (0,1), (2,3), ... or, with 9 bots,
/// makes the triples (0,1,2), (3,4,5), (6,7,8); or an explicit list of teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TeamsSpec {
    Auto(bool),
    Explicit(Vec<Vec<u8>>),
}

/// The optional rules a race is played with (scenario `variants`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Variants {
    /// BB-3: players pick their tuning cards instead of drawing them.
    pub choose_cards: bool,
    /// BB-3: cards per player (default: as many as the race has laps).
    pub cards_per_player: Option<u8>,
    /// BB-11.2: grid in reverse order of the championship standings.
    pub reverse_standings: bool,
    /// BB-11.3: team scoring.
    pub teams: Option<TeamsSpec>,
    /// BB-1.2: replaces the cells-per-speed table (six entries, speeds 1..6).
    pub cells_per_speed: Option<[u8; 6]>,
    /// Overrides [`DEFAULT_ROUND_LIMIT`].
    pub round_limit: Option<u32>,
}

impl Variants {
    pub fn cells_table(&self) -> [u8; 6] {
        self.cells_per_speed.unwrap_or(DEFAULT_CELLS_PER_SPEED)
    }
    pub fn round_limit(&self) -> u32 {
        self.round_limit.unwrap_or(DEFAULT_ROUND_LIMIT)
    }
    /// The teams as lists of seats, if team scoring is on (BB-11.3).
    pub fn team_list(&self, bots: usize) -> Option<Vec<Vec<u8>>> {
        match &self.teams {
            None | Some(TeamsSpec::Auto(false)) => None,
            Some(TeamsSpec::Explicit(t)) => Some(t.clone()),
            Some(TeamsSpec::Auto(true)) => {
                let size = if bots == 9 { 3 } else { 2 };
                let seats: Vec<u8> = (0..bots as u8).collect();
                Some(seats.chunks(size).map(|c| c.to_vec()).collect())
            }
        }
    }
}

/// Cells moved at `speed` (BB-1.2), with the table given.
pub fn cells_for(table: &[u8; 6], speed: u8) -> u8 {
    table[(speed.clamp(1, 6) - 1) as usize]
}
