//! RoboRally and Bumping Bots figures for `robodrome sim`.

use crate::sim::Tally;
use bumping_bots::BumpingBots;
use engine::Game;
use roborally::{Event as RrEvent, RoboRally};
use serde::Serialize;

#[derive(Default, Serialize)]
pub struct RoboRallyTally {
    pub games: u64,
    pub average_turns: f64,
    pub flags_touched: u64,
    pub destroyed: u64,
    pub damage_points: u64,
    #[serde(skip)]
    turns: u64,
}

impl Tally<RoboRally> for RoboRallyTally {
    fn event(&mut self, e: &RrEvent) {
        match e {
            RrEvent::FlagTouched { .. } => self.flags_touched += 1,
            RrEvent::Destroyed { .. } => self.destroyed += 1,
            RrEvent::Damaged { points, .. } => self.damage_points += *points as u64,
            _ => {}
        }
    }
    fn finished(&mut self, g: &RoboRally) {
        self.games += 1;
        self.turns += g.turn() as u64;
        self.average_turns = self.turns as f64 / self.games as f64;
    }
    fn print(&self) {
        let per = |n: u64| n as f64 / self.games.max(1) as f64;
        println!(
            "average turns: {:.1}; per game: {:.2} flags touched, {:.2} robots destroyed, {:.1} damage points",
            self.average_turns,
            per(self.flags_touched),
            per(self.destroyed),
            per(self.damage_points)
        );
    }
}

#[derive(Default, Serialize)]
pub struct BumpingBotsTally {
    pub races: u64,
    pub average_rounds: f64,
    /// Championship points by seat over all races (BB-11.1).
    pub points: Vec<i64>,
    #[serde(skip)]
    rounds: u64,
}

impl Tally<BumpingBots> for BumpingBotsTally {
    fn event(&mut self, _e: &bumping_bots::Event) {}
    fn finished(&mut self, g: &BumpingBots) {
        self.races += 1;
        self.rounds += g.round() as u64;
        self.average_rounds = self.rounds as f64 / self.races as f64;
        if self.points.len() < g.seats() {
            self.points.resize(g.seats(), 0);
        }
        if let Some(o) = g.outcome() {
            let mut place = 0;
            for group in &o.ranking {
                for s in group {
                    self.points[s.index()] +=
                        bumping_bots::championship::points_for(place + 1, g.seats()) as i64;
                }
                place += group.len();
            }
        }
    }
    fn print(&self) {
        println!("average rounds per race: {:.1}", self.average_rounds);
        let pts: Vec<String> =
            self.points.iter().enumerate().map(|(i, p)| format!("seat {i}: {p}")).collect();
        println!("championship points (BB-11.1): {}", pts.join(", "));
    }
}
