//! Faults the server survives (docs/security.md "Faults"): games whose stored data cannot be
//! read (skipped, logged, reported) and failing storage (a degraded state with exponential
//! backoff, so nothing retries in a loop, left as soon as a write succeeds again).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use tokio::time::Instant;

/// The first wait after a failed write; it doubles with every failure in a row.
pub const BACKOFF_START: Duration = Duration::from_millis(250);
/// The longest wait between two attempts.
pub const BACKOFF_MAX: Duration = Duration::from_secs(30);

#[derive(Default)]
pub struct Faults {
    /// Games skipped because their stored data cannot be read: id → reason.
    skipped: Mutex<BTreeMap<String, String>>,
    storage: Mutex<Storage>,
    /// Writes that failed (a counter for `/metrics`).
    pub storage_failures: AtomicU64,
    /// Writes refused without trying because storage is backing off.
    pub storage_refused: AtomicU64,
    /// Failed writes in a row, published on every change (0: healthy again), so that a test or
    /// a watcher waits for the state itself rather than for time to pass.
    in_a_row: tokio::sync::watch::Sender<u32>,
}

#[derive(Default)]
struct Storage {
    /// Failed writes in a row (0: healthy).
    failures: u32,
    /// No write is tried before this.
    retry_at: Option<Instant>,
}

/// What `/healthz` reports (public: ids only; the reasons are in the log).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Health {
    /// `"ok"`, or `"degraded"` when storage is failing or a game was skipped.
    pub status: &'static str,
    /// `"ok"` or `"failing"`.
    pub storage: &'static str,
    /// Games whose stored data cannot be read.
    pub skipped_games: Vec<String>,
}

impl Faults {
    /// A game that cannot be read: logged once, remembered.
    pub fn skip(&self, id: &str, reason: &str) {
        let mut m = self.skipped.lock().unwrap_or_else(|p| p.into_inner());
        if !m.contains_key(id) {
            tracing::error!(game = %id, %reason, "a stored game cannot be read: skipped");
            m.insert(id.to_string(), reason.to_string());
        }
    }

    pub fn skipped(&self) -> BTreeMap<String, String> {
        self.skipped.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn storage(&self) -> std::sync::MutexGuard<'_, Storage> {
        self.storage.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `Some(t)`: storage is backing off until `t`; do not try a write before then.
    pub fn backing_off(&self) -> Option<Instant> {
        let s = self.storage();
        s.retry_at.filter(|&t| t > Instant::now())
    }

    /// Is storage failing (the last write failed)?
    pub fn degraded(&self) -> bool {
        self.storage().failures > 0
    }

    /// Failed writes in a row (0: healthy), told of every change.
    pub fn watch_storage(&self) -> tokio::sync::watch::Receiver<u32> {
        self.in_a_row.subscribe()
    }

    /// A write failed: back off (doubling up to [`BACKOFF_MAX`]). Returns when to try again.
    pub fn write_failed(&self, error: &dyn std::fmt::Display) -> Instant {
        self.storage_failures.fetch_add(1, Relaxed);
        let mut s = self.storage();
        s.failures = s.failures.saturating_add(1);
        let wait = BACKOFF_START.saturating_mul(1u32 << (s.failures - 1).min(16)).min(BACKOFF_MAX);
        let at = Instant::now() + wait;
        s.retry_at = Some(at);
        self.in_a_row.send_replace(s.failures);
        tracing::error!(
            failures = s.failures,
            retry_in_ms = wait.as_millis() as u64,
            %error,
            "storage failed: degraded, backing off"
        );
        at
    }

    /// A write succeeded: healthy again.
    pub fn write_ok(&self) {
        let mut s = self.storage();
        if s.failures > 0 {
            tracing::warn!(after = s.failures, "storage works again: no longer degraded");
            s.failures = 0;
            s.retry_at = None;
            self.in_a_row.send_replace(0);
        }
    }

    pub fn health(&self, unreadable: Vec<crate::store::Unreadable>) -> Health {
        let mut skipped = self.skipped();
        for u in unreadable {
            skipped.entry(u.id).or_insert(u.reason);
        }
        let storage_bad = self.degraded();
        Health {
            status: if storage_bad || !skipped.is_empty() { "degraded" } else { "ok" },
            storage: if storage_bad { "failing" } else { "ok" },
            skipped_games: skipped.into_keys().collect(),
        }
    }
}

impl crate::Shared {
    /// The fault counters of `/metrics` (Prometheus text format).
    pub fn fault_metrics(&self) -> String {
        let h = self.faults.health(self.store.unreadable());
        let f = &self.faults;
        let mut s = String::new();
        let mut g = |name: &str, help: &str, kind: &str, v: u64| {
            s.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}\n"));
        };
        g(
            "robodrome_games_skipped_total",
            "Stored games skipped since start because their data cannot be read.",
            "counter",
            h.skipped_games.len() as u64,
        );
        g(
            "robodrome_storage_failures_total",
            "Writes to storage that failed.",
            "counter",
            f.storage_failures.load(Relaxed),
        );
        g(
            "robodrome_storage_refused_total",
            "Writes refused without trying while storage backed off.",
            "counter",
            f.storage_refused.load(Relaxed),
        );
        g(
            "robodrome_storage_degraded",
            "1 while storage is failing (backing off), else 0.",
            "gauge",
            u64::from(f.degraded()),
        );
        s
    }
}
