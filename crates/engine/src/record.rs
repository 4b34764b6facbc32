use crate::{Game, Seat, SetupError};
use serde::{Deserialize, Serialize};

/// One line of a game's log: a seat's action, or "time is up" sent by the server's timer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEntry<A> {
    Act { seat: Seat, action: A },
    TimeUp,
}

/// A whole game as it is saved: the save file, the replay and the bug report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "G::Setup: Serialize, G::Action: Serialize"))]
#[serde(bound(deserialize = "G::Setup: Deserialize<'de>, G::Action: Deserialize<'de>"))]
pub struct Record<G: Game> {
    pub setup: G::Setup,
    pub seed: u64,
    pub log: Vec<LogEntry<G::Action>>,
}

/// A log that does not replay.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError<E> {
    Setup(SetupError),
    /// Entry `index` of the log was rejected.
    Rejected {
        index: usize,
        error: E,
    },
}

impl<E: std::fmt::Display> std::fmt::Display for ReplayError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Setup(e) => write!(f, "setup: {e}"),
            ReplayError::Rejected { index, error } => write!(f, "log entry {index}: {error}"),
        }
    }
}

impl<E: std::fmt::Debug + std::fmt::Display> std::error::Error for ReplayError<E> {}

/// Rebuild a game from (setup, seed, log), collecting every event.
pub fn replay<G: Game>(
    setup: &G::Setup,
    seed: u64,
    log: &[LogEntry<G::Action>],
    events: &mut Vec<G::Event>,
) -> Result<G, ReplayError<G::Error>> {
    let mut g = G::new(setup, seed).map_err(ReplayError::Setup)?;
    for (index, entry) in log.iter().enumerate() {
        let r = match entry {
            LogEntry::Act { seat, action } => g.apply(*seat, action, events),
            LogEntry::TimeUp => g.time_up(events),
        };
        r.map_err(|error| ReplayError::Rejected { index, error })?;
    }
    Ok(g)
}

impl<G: Game> Record<G> {
    pub fn new(setup: G::Setup, seed: u64) -> Self {
        Record { setup, seed, log: Vec::new() }
    }
    pub fn replay(&self) -> Result<G, ReplayError<G::Error>> {
        replay::<G>(&self.setup, self.seed, &self.log, &mut Vec::new())
    }
}
