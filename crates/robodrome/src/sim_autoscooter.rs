//! Autoscooter figures for `robodrome sim`.

use crate::sim::Tally;
use autoscooter::{Autoscooter, CrashKind, Event};
use engine::{Game, Seat};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Default, Serialize)]
pub struct AutoscooterTally {
    /// Crashes by type (AS-5.5), over all games.
    pub crashes: BTreeMap<&'static str, u64>,
    /// Jolts (AS-7.2) and letters turned straight (AS-4.2).
    pub jolts: u64,
    pub letters_converted: u64,
    /// Average chits per player at the end, and of the winner.
    pub average_chits: f64,
    pub average_winning_chits: f64,
    #[serde(skip)]
    chits_sum: u64,
    #[serde(skip)]
    players: u64,
    #[serde(skip)]
    winning_sum: u64,
    #[serde(skip)]
    games: u64,
}

impl Tally<Autoscooter> for AutoscooterTally {
    fn event(&mut self, e: &Event) {
        match e {
            Event::Crash { kind, .. } => *self.crashes.entry(kind.name()).or_default() += 1,
            Event::Jolted { .. } => self.jolts += 1,
            Event::LetterConverted { .. } => self.letters_converted += 1,
            _ => {}
        }
    }
    fn finished(&mut self, g: &Autoscooter) {
        for s in 0..g.seats() {
            self.chits_sum += g.chits(Seat(s as u8)).total() as u64;
        }
        self.players += g.seats() as u64;
        if let Some(o) = g.outcome()
            && let Some(w) = o.winners().first()
        {
            self.winning_sum += g.chits(*w).total() as u64;
        }
        self.games += 1;
        self.average_chits = self.chits_sum as f64 / self.players.max(1) as f64;
        self.average_winning_chits = self.winning_sum as f64 / self.games.max(1) as f64;
    }
    fn print(&self) {
        println!(
            "average chits per player at the end: {:.2} (winner: {:.2})",
            self.average_chits, self.average_winning_chits
        );
        let per_game = |n: u64| n as f64 / self.games.max(1) as f64;
        let mut line = Vec::new();
        for k in CrashKind::ALL {
            let n = self.crashes.get(k.name()).copied().unwrap_or(0);
            line.push(format!("{} {} ({:.2}/game)", k.name(), n, per_game(n)));
        }
        println!("crashes: {}", line.join(", "));
        println!(
            "jolts: {}, letters turned straight (AS-4.2): {}",
            self.jolts, self.letters_converted
        );
    }
}
