//! Counters for `/metrics` (Prometheus text format): lock-free atomics.

use std::fmt::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// A gauge of `/metrics`: its name, its help text and its value.
pub type Gauge = (&'static str, &'static str, u64);

/// What the binary's global allocator says about the heap (the `robodrome` binary installs
/// one: docs/benchmarks.md "Soak"); none in tests and embedders that install nothing.
static HEAP_PROBE: OnceLock<fn() -> Vec<Gauge>> = OnceLock::new();

/// Install the heap probe (once per process; later calls change nothing and return false).
pub fn set_heap_probe(probe: fn() -> Vec<Gauge>) -> bool {
    HEAP_PROBE.set(probe).is_ok()
}

/// Upper bounds of the latency histogram's buckets, in milliseconds.
const BUCKETS_MS: [f64; 11] = [0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0];

#[derive(Default)]
pub struct Metrics {
    pub connections: AtomicI64,
    pub rooms: AtomicI64,
    pub games_created: AtomicU64,
    pub games_finished: AtomicU64,
    pub actions: AtomicU64,
    pub rejected: AtomicU64,
    pub bot_actions: AtomicU64,
    /// The most bot decisions that were given a worker while one bot decision waited for one
    /// (fair scheduling keeps it below the number of games with bots thinking at once).
    pub bot_overtaken_max: AtomicU64,
    /// Bot decisions stopped at the `max_bot_ms` ceiling or cancelled.
    pub bot_stopped: AtomicU64,
    /// Bot decisions being thought about on a worker thread now.
    pub bots_thinking: AtomicI64,
    pub timeouts: AtomicU64,
    pub frames_dropped: AtomicU64,
    pub resumed_games: AtomicU64,
    pub resume_us: AtomicU64,
    /// Game sockets this cluster node forwarded to the game's owner (`forward`).
    pub forwarded: AtomicU64,
    /// Relays of games another node owns, serving this node's spectators from Redis (`fanout`).
    pub relays: AtomicI64,
    /// Steps a relay found missing on a game's channel (it then asked for a fresh welcome).
    pub relay_gaps: AtomicU64,
    /// Actions whose latency fell in each bucket (above the one before it): not cumulative.
    buckets: [AtomicU64; BUCKETS_MS.len()],
    latency_count: AtomicU64,
    latency_sum_us: AtomicU64,
    // Limits (limits.rs, docs/security.md).
    pub conns_refused: AtomicU64,
    pub quota_refused: AtomicU64,
    pub ws_idle_closed: AtomicU64,
    pub steps_computed: AtomicU64,
    pub steps_cache_hits: AtomicU64,
    pub lobby_not_modified: AtomicU64,
    // Where the work per action comes from (docs/benchmarks.md "CPU per accepted action,
    // round 4"): wake-ups of the tasks, frames and socket writes.
    /// Turns of the game tasks' loops (each a wake-up: a command, a timer, shutdown).
    pub room_wakeups: AtomicU64,
    /// Times a game's task took players' actions from its inbox, and the actions so taken
    /// (several at once: stored together, `Room::handle_acts`).
    pub act_rounds: AtomicU64,
    pub acts_taken: AtomicU64,
    /// Turns of the connections' loops (each a wake-up: frames to write, a client message, a
    /// ping, shutdown).
    pub conn_wakeups: AtomicU64,
    /// Frames written into sockets, and flushes (each about one `write` system call).
    pub frames_written: AtomicU64,
    pub socket_flushes: AtomicU64,
    /// Game tasks' kicks that wrote a connection's frames themselves, and those that handed
    /// the write to the connection's loop (the socket could not take it at once).
    pub direct_writes: AtomicU64,
    pub direct_handoffs: AtomicU64,
    /// Send windows opened: times a game's task held quiet updates for some connections
    /// (`Room::kick_connections`, docs/protocol.md "When frames are sent").
    pub send_windows: AtomicU64,
    /// Updates built without the view for connections that asked for changed views only
    /// (`Room::update_frames`, docs/protocol.md "Views only when they changed"): one per
    /// observer and change, however many of its connections it goes to.
    pub views_left_out: AtomicU64,
    /// Of those, the ones whose view was not even written: the game said the change did not
    /// touch that observer's view (`engine::Game::views_touched`, `Room::update_frames`).
    pub views_not_built: AtomicU64,
}

/// The SQLite store's group commits and the log entries in them (process-wide: the store has
/// no handle on a server's `Metrics`).
pub static COMMITS: AtomicU64 = AtomicU64::new(0);
pub static COMMITTED_ENTRIES: AtomicU64 = AtomicU64::new(0);

impl Metrics {
    /// Time from receiving an action to having sent its update to every connection.
    pub fn observe_latency(&self, d: Duration) {
        // One counter per observation (the bucket it falls in, none past the last); the
        // cumulative counts Prometheus reads are summed in `render`: each action used to add
        // to every bucket above its latency, up to 11 atomic writes shared by all threads.
        let ms = d.as_secs_f64() * 1000.0;
        if let Some(i) = BUCKETS_MS.iter().position(|b| ms <= *b) {
            self.buckets[i].fetch_add(1, Relaxed);
        }
        self.latency_count.fetch_add(1, Relaxed);
        self.latency_sum_us.fetch_add(d.as_micros() as u64, Relaxed);
    }

    pub fn render(&self) -> String {
        let mut s = String::new();
        let g = |s: &mut String, name: &str, help: &str, kind: &str, v: String| {
            let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        g(
            &mut s,
            "robodrome_connections",
            "Open WebSocket connections.",
            "gauge",
            self.connections.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_games_live",
            "Games with a running task.",
            "gauge",
            self.rooms.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_games_created_total",
            "Games created.",
            "counter",
            self.games_created.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_games_finished_total",
            "Games finished.",
            "counter",
            self.games_finished.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_actions_total",
            "Actions accepted and stored (players and bots).",
            "counter",
            self.actions.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_actions_rejected_total",
            "Client messages refused with an error.",
            "counter",
            self.rejected.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_bot_actions_total",
            "Actions chosen by bots.",
            "counter",
            self.bot_actions.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_bot_overtaken_max",
            "The most bot decisions given a worker while one bot decision waited for one.",
            "gauge",
            self.bot_overtaken_max.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_bots_thinking",
            "Bot decisions being thought about on a worker thread now.",
            "gauge",
            self.bots_thinking.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_bot_stopped_total",
            "Bot decisions stopped at the thinking-time ceiling or cancelled.",
            "counter",
            self.bot_stopped.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_timeouts_total",
            "Timers that ran out.",
            "counter",
            self.timeouts.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_frames_dropped_total",
            "Connections dropped because their queue was full.",
            "counter",
            self.frames_dropped.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_forwarded_sockets_total",
            "Game sockets forwarded to the node that owns the game (cluster).",
            "counter",
            self.forwarded.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_relays",
            "Games another node owns whose spectators on this node are served from Redis.",
            "gauge",
            self.relays.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_relay_gaps_total",
            "Steps missing on a game's Redis channel (a fresh welcome was asked for).",
            "counter",
            self.relay_gaps.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_resumed_games",
            "Running games resumed from storage at the last start.",
            "gauge",
            self.resumed_games.load(Relaxed).to_string(),
        );
        g(
            &mut s,
            "robodrome_resume_seconds",
            "Time taken to resume them (replaying their logs).",
            "gauge",
            (self.resume_us.load(Relaxed) as f64 / 1e6).to_string(),
        );
        if let Some(rss) = resident_bytes() {
            g(
                &mut s,
                "robodrome_process_resident_bytes",
                "Resident memory of the server process.",
                "gauge",
                rss.to_string(),
            );
        }
        for (name, help, v) in
            resident_parts().into_iter().chain(HEAP_PROBE.get().map_or_else(Vec::new, |p| p()))
        {
            g(&mut s, name, help, "gauge", v.to_string());
        }
        let name = "robodrome_action_latency_seconds";
        let _ = writeln!(
            s,
            "# HELP {name} Time from receiving an action to broadcasting its update.\n# TYPE {name} histogram"
        );
        let mut below = 0;
        for (i, b) in BUCKETS_MS.iter().enumerate() {
            below += self.buckets[i].load(Relaxed);
            let _ = writeln!(s, "{name}_bucket{{le=\"{}\"}} {below}", b / 1000.0);
        }
        let n = self.latency_count.load(Relaxed);
        let _ = writeln!(s, "{name}_bucket{{le=\"+Inf\"}} {n}");
        let _ = writeln!(s, "{name}_sum {}", self.latency_sum_us.load(Relaxed) as f64 / 1e6);
        let _ = writeln!(s, "{name}_count {n}");
        for (name, help, v) in [
            (
                "robodrome_connections_refused_total",
                "Connections closed at once: too many from their address.",
                &self.conns_refused,
            ),
            (
                "robodrome_quota_refused_total",
                "Requests refused with 429 (quotas and the open-games cap).",
                &self.quota_refused,
            ),
            (
                "robodrome_ws_idle_closed_total",
                "WebSockets closed after saying nothing for the idle timeout.",
                &self.ws_idle_closed,
            ),
            (
                "robodrome_steps_computed_total",
                "Replays computed for /steps (cache misses and running games).",
                &self.steps_computed,
            ),
            (
                "robodrome_steps_cache_hits_total",
                "/steps answers served from the cache.",
                &self.steps_cache_hits,
            ),
            (
                "robodrome_lobby_not_modified_total",
                "Lobby lists answered 304 Not Modified.",
                &self.lobby_not_modified,
            ),
            (
                "robodrome_room_wakeups_total",
                "Turns of the game tasks' loops (commands, timers).",
                &self.room_wakeups,
            ),
            (
                "robodrome_act_rounds_total",
                "Times a game's task took players' actions from its inbox.",
                &self.act_rounds,
            ),
            (
                "robodrome_acts_taken_total",
                "Players' actions so taken (several per round: stored together).",
                &self.acts_taken,
            ),
            (
                "robodrome_conn_wakeups_total",
                "Turns of the connections' loops (frames to write, client messages, pings).",
                &self.conn_wakeups,
            ),
            (
                "robodrome_frames_written_total",
                "Frames written into WebSocket connections.",
                &self.frames_written,
            ),
            (
                "robodrome_socket_flushes_total",
                "Flushes of WebSocket connections (each about one write system call).",
                &self.socket_flushes,
            ),
            (
                "robodrome_direct_writes_total",
                "Writes made by a game's task itself, without waking the connection's task.",
                &self.direct_writes,
            ),
            (
                "robodrome_direct_handoffs_total",
                "Writes a game's task handed to the connection's task (socket not ready).",
                &self.direct_handoffs,
            ),
            (
                "robodrome_send_windows_total",
                "Times a game's task held \"seat committed\" updates for a send window.",
                &self.send_windows,
            ),
            (
                "robodrome_views_left_out_total",
                "Updates built without the view (the observer's view had not changed).",
                &self.views_left_out,
            ),
            (
                "robodrome_views_not_built_total",
                "Of those, views not written at all (the game said the change did not touch them).",
                &self.views_not_built,
            ),
            ("robodrome_store_commits_total", "Group commits of the SQLite store.", &COMMITS),
            (
                "robodrome_store_committed_entries_total",
                "Log entries in those commits.",
                &COMMITTED_ENTRIES,
            ),
        ] {
            g(&mut s, name, help, "counter", v.load(Relaxed).to_string());
        }
        s
    }
}

/// Render gauges (Prometheus text format).
pub fn render_gauges(gauges: &[Gauge]) -> String {
    let mut s = String::new();
    for (name, help, v) in gauges {
        let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
    }
    s
}

/// The parts of the resident memory from `/proc/self/status` (Linux; none elsewhere): anonymous
/// (the heap, stacks), file-backed (the program's code) and shared (SQLite's `-shm` index).
fn resident_parts() -> Vec<Gauge> {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return Vec::new() };
    let kb = |key: &str| {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|k| k * 1024)
    };
    [
        (
            "RssAnon:",
            "robodrome_process_resident_anon_bytes",
            "Resident anonymous memory (heap and stacks).",
        ),
        (
            "RssFile:",
            "robodrome_process_resident_file_bytes",
            "Resident file-backed memory (code, mapped files).",
        ),
        (
            "RssShmem:",
            "robodrome_process_resident_shmem_bytes",
            "Resident shared memory (SQLite's -shm index).",
        ),
    ]
    .into_iter()
    .filter_map(|(key, name, help)| Some((name, help, kb(key)?)))
    .collect()
}

/// Resident set size from `/proc/self/statm` (Linux; `None` elsewhere).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The histogram Prometheus reads is cumulative although each observation adds to one bucket.
    #[test]
    fn latency_buckets_are_cumulative_in_the_text() {
        let m = Metrics::default();
        for ms in [0.3, 0.5, 3.0, 3.0, 40.0, 2_000.0] {
            m.observe_latency(Duration::from_secs_f64(ms / 1000.0));
        }
        let text = m.render();
        let bucket = |le: &str| {
            let key = format!("robodrome_action_latency_seconds_bucket{{le=\"{le}\"}} ");
            let line = text.lines().find(|l| l.starts_with(&key)).unwrap();
            line[key.len()..].parse::<u64>().unwrap()
        };
        let got: Vec<u64> =
            ["0.0005", "0.001", "0.002", "0.005", "0.05", "1", "+Inf"].map(bucket).to_vec();
        assert_eq!(got, [2, 2, 2, 4, 5, 5, 6]);
    }
}
