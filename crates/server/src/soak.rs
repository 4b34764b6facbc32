//! `robodrome soak`: a bounded soak run against a running server on loopback (issue 14, item 9;
//! `scripts/soak`, docs/security.md "Soak", figures in docs/benchmarks.md "Soak").
//!
//! Thousands of player clients, each a guest with an address of its own (`127.1.x.y`: every
//! `127.x.y.z` is this host, and per-address limits count each player apart, as on the
//! internet), create and join games of every game the server offers, play them with actions
//! chosen from their own views, disconnect and reconnect with their tokens in the middle of
//! games (sometimes for longer than the grace period, so that a stand-in plays for them), and
//! leave games for good; meanwhile hostile clients (from addresses `127.2.x.y`, a fresh one per
//! round) try everything issue 14 lists and check that each attempt gets its typed error.
//! A monitor asks `/healthz` every second and samples the server's memory.
//!
//! Every client records each action the server acknowledged (game, `seq`, seat, action); at
//! the end every one is looked up in `/api/games/{id}/steps` (the seat must match, and for a
//! finished game the stored action too), and every game created must still be there. The
//! [`Report`] says what failed; `robodrome soak` exits 1 when anything did.
//!
//! The clients choose actions from the JSON of their views, as a browser table does (a
//! client's job, not the server's): Autoscooter through [`crate::loadtest::autoscooter_move`],
//! RoboRally and Bumping Bots below. A choice the rules refuse is tried again a few times with
//! another random choice, then left to the planning timer (`time_up`).

use crate::client::{self, Error, Socket};
use crate::loadtest::{AsView, autoscooter_move};
use engine::Rng;
use protocol::ClientMsg;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Options of `robodrome soak` (the server's own limits are told here so that the hostile
/// clients know what to expect; they must match the server's `serve` options).
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server's address (loopback).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// How long the clients play, in seconds (then they stop and everything is checked).
    #[arg(long, default_value_t = 600)]
    pub seconds: u64,
    /// Player clients (each a guest with an address of its own).
    #[arg(long, default_value_t = 2000)]
    pub clients: usize,
    /// The players arrive spread over this many seconds.
    #[arg(long, default_value_t = 60)]
    pub ramp_secs: u64,
    /// Hostile clients, each trying every attack of issue 14 in rounds.
    #[arg(long, default_value_t = 4)]
    pub hostile: usize,
    /// A player thinks between this and `think-max-ms` before each action.
    #[arg(long, default_value_t = 300)]
    pub think_min_ms: u64,
    #[arg(long, default_value_t = 3000)]
    pub think_max_ms: u64,
    /// The server's process id: its memory is read from `/proc/PID/status` (VmRSS); without
    /// it, from the server's `/metrics`.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Seconds between two memory samples.
    #[arg(long, default_value_t = 5)]
    pub sample_secs: u64,
    /// Also write every memory sample, with every gauge of [`DETAIL`], to this file (tab
    /// separated, one line a sample, a header first).
    #[arg(long)]
    pub samples: Option<std::path::PathBuf>,
    /// Memory samples before this are the warm-up, left out of the flatness criterion
    /// (default: the first third of the run).
    #[arg(long)]
    pub warmup_secs: Option<u64>,
    /// The planning timer of the players' games (seconds).
    #[arg(long, default_value_t = 20)]
    pub timer_secs: u64,
    /// The server's `--grace-secs`: some disconnections last longer, so a stand-in plays.
    #[arg(long, default_value_t = 30)]
    pub grace_secs: u64,
    /// The server's `--ws-idle-secs`.
    #[arg(long, default_value_t = 60)]
    pub ws_idle_secs: u64,
    /// The server's `--header-read-secs`.
    #[arg(long, default_value_t = 10)]
    pub header_read_secs: u64,
    /// The server's `--conns-per-address`.
    #[arg(long, default_value_t = 64)]
    pub conns_per_address: u32,
    /// The server's `--open-games-per-identity`.
    #[arg(long, default_value_t = 10)]
    pub open_games_per_identity: u32,
    /// The server's `--guests-per-window`.
    #[arg(long, default_value_t = 20)]
    pub guests_per_window: u32,
    /// Seed of the clients' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads of the clients' runtime (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

#[derive(clap::Parser)]
struct Defaults {
    #[command(flatten)]
    args: Args,
}

impl Args {
    /// Every option at its default (for tests, which then change what they need).
    pub fn defaults() -> Args {
        <Defaults as clap::Parser>::parse_from(["soak"]).args
    }
}

/// Runs the soak on a runtime of its own; the report, or an error if it could not run at all.
pub fn run_blocking(args: Args) -> Result<Report, Error> {
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if args.threads > 0 {
        rt.worker_threads(args.threads);
    }
    rt.enable_all().build()?.block_on(run(args))
}

/// An action the server acknowledged: `ack.seq` is the number of log entries after it, so it
/// is step `seq` of `/steps`.
#[derive(Clone, Debug)]
pub struct Acked {
    pub game: Arc<str>,
    pub seq: u64,
    pub seat: u8,
    /// The action as sent (JSON text).
    pub action: String,
}

/// One memory sample.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Seconds since the start.
    pub t: f64,
    pub rss_bytes: f64,
    pub games_live: f64,
    pub connections: f64,
    /// The bytes of replay steps the server's cache holds (bounded by `--steps-cache-bytes`).
    pub steps_cache_bytes: f64,
    /// The gauges of [`DETAIL`], in its order (NaN where the server has none).
    pub detail: Vec<f64>,
}

/// What each memory sample records beside the resident memory, so that the report shows which
/// part grows: the server's `/metrics` gauges of every long-lived map and of the heap (short
/// column name, metric). The heap's gauges come from the `robodrome` binary's allocator:
/// jemalloc's statistics (the default: no block count) or the counting allocator of the
/// `heap-stats` feature; other builds have none.
pub const DETAIL: [(&str, &str); 15] = [
    ("anon_mb", "robodrome_process_resident_anon_bytes"),
    ("shmem_mb", "robodrome_process_resident_shmem_bytes"),
    ("heap_mb", "robodrome_heap_live_bytes"),
    ("blocks_k", "robodrome_heap_live_blocks"),
    ("rooms", "robodrome_rooms_entries"),
    ("addrs", "robodrome_conn_addresses"),
    ("q_guest", "robodrome_quota_guests_by_address_keys"),
    ("q_g_addr", "robodrome_quota_games_by_address_keys"),
    ("q_g_id", "robodrome_quota_games_by_identity_keys"),
    ("q_chat", "robodrome_quota_chat_keys"),
    ("chat_g", "robodrome_chat_games"),
    ("chat_l", "robodrome_chat_lines"),
    ("steps_n", "robodrome_steps_cache_entries"),
    ("steps_0", "robodrome_steps_cache_uncounted_entries"),
    ("skipped", "robodrome_faults_skipped_games"),
];

/// A detail value as printed: MB for bytes, thousands for blocks.
fn detail_shown(column: &str, v: f64) -> f64 {
    if column.ends_with("_mb") {
        v / 1e6
    } else if column.ends_with("_k") {
        v / 1e3
    } else {
        v
    }
}

impl Sample {
    /// The sample as one tab-separated line (raw values; the header is [`Sample::tsv_header`]).
    pub fn tsv(&self) -> String {
        let mut cols =
            vec![self.t, self.rss_bytes, self.games_live, self.connections, self.steps_cache_bytes];
        cols.extend(&self.detail);
        cols.iter().map(|v| format!("{v:.1}")).collect::<Vec<_>>().join("\t")
    }

    pub fn tsv_header() -> String {
        let mut h = vec!["t_s", "rss_bytes", "games_live", "connections", "steps_cache_bytes"];
        h.extend(DETAIL.iter().map(|(_, metric)| *metric));
        h.join("\t")
    }
}

/// A hostile attempt's expected answer and how often it came (or did not).
#[derive(Clone, Debug, Default)]
pub struct Check {
    pub expected: String,
    pub passed: u64,
    pub failed: u64,
    /// The last unexpected answer.
    pub wrong: Option<String>,
}

#[derive(Default)]
struct Tally {
    created: Vec<String>,
    acked: Vec<Acked>,
    latencies_us: Vec<u32>,
    errors: BTreeMap<String, u64>,
    finished: HashSet<String>,
    joins: u64,
    disconnects: u64,
    reconnects: u64,
    leaves: u64,
    sessions: u64,
    hostile: BTreeMap<&'static str, Check>,
    healthz_ms: Vec<f64>,
    healthz_failed: u64,
    samples: Vec<Sample>,
}

struct Soak {
    args: Args,
    started: Instant,
    deadline: Instant,
    /// Seats advertised by creators: one entry per open seat.
    open_seats: Mutex<VecDeque<String>>,
    tally: Mutex<Tally>,
    /// Fresh hostile addresses.
    next_hostile: AtomicU32,
    /// Raised when every client has stopped (the last hostile round may end after the deadline).
    stopped: std::sync::atomic::AtomicBool,
}

impl Soak {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn error(&self, key: impl Into<String>) {
        *self.tally().errors.entry(key.into()).or_insert(0) += 1;
    }
    fn check(&self, name: &'static str, expected: &str, got: Result<(), String>) {
        let mut t = self.tally();
        let c = t.hostile.entry(name).or_default();
        c.expected = expected.to_string();
        match got {
            Ok(()) => c.passed += 1,
            Err(e) => {
                c.failed += 1;
                c.wrong = Some(e);
            }
        }
    }
    fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// Player `i`'s address: `127.1.x.y` (y from 1 to 250).
fn player_ip(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 1, (i / 250) as u8, (i % 250) as u8 + 1))
}

/// The `n`th hostile address: `127.2.x.y`.
fn hostile_ip(n: u32) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 2, (n / 250 % 256) as u8, (n % 250) as u8 + 1))
}

/// The monitor's address (healthz, metrics, the final checks).
const MONITOR: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Memory over the run: start, middle and end, and whether it stayed flat after the warm-up.
#[derive(Clone, Debug)]
pub struct Memory {
    pub start: f64,
    pub middle: f64,
    pub end: f64,
    pub peak: f64,
    pub warmup_secs: f64,
    /// Samples after the warm-up.
    pub samples: usize,
    /// Their mean.
    pub mean: f64,
    /// The least-squares slope of those samples, in bytes per second.
    pub slope: f64,
    /// The slope over the window after the warm-up: the trend's growth, in bytes.
    pub growth: f64,
    /// `growth` is under [`FLAT_FRACTION`] of `mean` (needs 5 samples after the warm-up).
    pub flat: bool,
}

/// Memory is flat when the trend after the warm-up grows by less than this part of the mean.
pub const FLAT_FRACTION: f64 = 0.10;

/// The memory verdict from `(seconds, bytes)` samples (docs/security.md "Soak").
pub fn memory_trend(samples: &[(f64, f64)], warmup_secs: f64) -> Memory {
    let at = |i: usize| samples.get(i).map_or(f64::NAN, |s| s.1);
    let after: Vec<(f64, f64)> = samples.iter().copied().filter(|s| s.0 >= warmup_secs).collect();
    let n = after.len() as f64;
    let mean_t = after.iter().map(|s| s.0).sum::<f64>() / n;
    let mean = after.iter().map(|s| s.1).sum::<f64>() / n;
    let cov: f64 = after.iter().map(|s| (s.0 - mean_t) * (s.1 - mean)).sum();
    let var: f64 = after.iter().map(|s| (s.0 - mean_t).powi(2)).sum();
    let slope = if var > 0.0 { cov / var } else { 0.0 };
    let span = after.last().map_or(0.0, |l| l.0) - after.first().map_or(0.0, |f| f.0);
    let growth = slope * span;
    Memory {
        start: at(0),
        middle: at(samples.len() / 2),
        end: at(samples.len().saturating_sub(1)),
        peak: samples.iter().map(|s| s.1).fold(f64::NAN, f64::max),
        warmup_secs,
        samples: after.len(),
        mean,
        slope,
        growth,
        flat: after.len() >= 5 && growth < FLAT_FRACTION * mean,
    }
}

/// What the final checks found.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    pub games_checked: usize,
    pub acked_checked: usize,
    /// Acknowledged actions not in the log as acknowledged (first 20 described).
    pub missing: u64,
    pub missing_examples: Vec<String>,
    /// Games created that the server no longer knows or cannot read.
    pub lost: Vec<String>,
    /// Status of every game checked.
    pub statuses: BTreeMap<String, u64>,
}

/// What a soak measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub seconds: f64,
    pub clients: usize,
    pub samples: Vec<Sample>,
    pub memory: Memory,
    pub games_created: usize,
    pub games_over_seen: usize,
    pub actions_acked: usize,
    /// Send → ack (stored) of every acknowledged action, in ms: p50, p99, max.
    pub latency_ms: (f64, f64, f64),
    /// Players' refusals and failures by code (`illegal_action/RULE` for the rules' own).
    pub errors: BTreeMap<String, u64>,
    pub joins: u64,
    pub sessions: u64,
    pub disconnects: u64,
    pub reconnects: u64,
    pub leaves: u64,
    pub hostile: BTreeMap<&'static str, Check>,
    pub healthz_count: usize,
    pub healthz_p50_ms: f64,
    pub healthz_max_ms: f64,
    pub healthz_slow: usize,
    pub healthz_failed: u64,
    pub verification: Verification,
    /// The server's own counters over the run (`/metrics` deltas).
    pub server: BTreeMap<&'static str, f64>,
    pub verify_secs: f64,
}

impl Report {
    /// Everything that makes the run fail; `memory` also counts memory that was not flat
    /// (meaningful for runs of minutes, not for a smoke run of seconds).
    pub fn failures(&self, memory: bool) -> Vec<String> {
        let mut out = Vec::new();
        let v = &self.verification;
        if v.missing > 0 {
            out.push(format!(
                "{} acknowledged actions are not in the log: {:?}",
                v.missing, v.missing_examples
            ));
        }
        if !v.lost.is_empty() {
            out.push(format!("{} games lost: {:?}", v.lost.len(), v.lost));
        }
        for (name, c) in &self.hostile {
            if c.failed > 0 || c.passed == 0 {
                out.push(format!(
                    "hostile {name}: expected {}, {} times as expected, {} not (last: {:?})",
                    c.expected, c.passed, c.failed, c.wrong
                ));
            }
        }
        if self.healthz_failed > 0 || self.healthz_slow > 0 {
            out.push(format!(
                "/healthz: {} failed, {} took 1 s or more (max {:.0} ms)",
                self.healthz_failed, self.healthz_slow, self.healthz_max_ms
            ));
        }
        for (k, n) in &self.errors {
            if k.starts_with("hostile client failed") {
                out.push(format!("{n} hostile rounds broke off: {k}"));
            }
        }
        if self.actions_acked == 0 {
            out.push("no action was acknowledged".into());
        }
        if memory && !self.memory.flat {
            out.push(format!(
                "memory not flat: +{:.1} MB trend after the warm-up (mean {:.1} MB)",
                self.memory.growth / 1e6,
                self.memory.mean / 1e6
            ));
        }
        out
    }

    pub fn print(&self) {
        let m = &self.memory;
        let mb = |b: f64| b / 1e6;
        println!("soak: {} clients, {:.0} s of play", self.clients, self.seconds);
        println!(
            "memory (RSS)             start {:.1} MB, middle {:.1} MB, end {:.1} MB, peak {:.1} MB",
            mb(m.start),
            mb(m.middle),
            mb(m.end),
            mb(m.peak)
        );
        println!(
            "memory after warm-up     {} samples from {:.0} s: mean {:.1} MB, trend {:+.3} MB/min, {:+.1} MB over the window: {}",
            m.samples,
            m.warmup_secs,
            mb(m.mean),
            m.slope * 60.0 / 1e6,
            mb(m.growth),
            if m.flat { "flat" } else { "NOT flat" }
        );
        println!("memory samples (s, RSS MB, live games, connections, steps cache MB):");
        for s in &self.samples {
            println!(
                "  {:6.0} {:8.1} {:6.0} {:6.0} {:8.1}",
                s.t,
                mb(s.rss_bytes),
                s.games_live,
                s.connections,
                mb(s.steps_cache_bytes)
            );
        }
        println!(
            "memory detail (s, {}; one sample in six):",
            DETAIL.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")
        );
        let last = self.samples.len().saturating_sub(1);
        for (_, s) in self.samples.iter().enumerate().filter(|(i, _)| i % 6 == 0 || *i == last) {
            let cols: Vec<String> = DETAIL
                .iter()
                .zip(&s.detail)
                .map(|((c, _), v)| format!("{:>8.1}", detail_shown(c, *v)))
                .collect();
            println!("  {:6.0} {}", s.t, cols.join(" "));
        }
        let v = &self.verification;
        println!(
            "games                    {} created by the clients, {} seen over; at the end {:?}",
            self.games_created, self.games_over_seen, v.statuses
        );
        println!(
            "players                  {} sessions, {} joins, {} disconnects, {} reconnects, {} left for good",
            self.sessions, self.joins, self.disconnects, self.reconnects, self.leaves
        );
        println!(
            "actions acknowledged     {} (send → ack p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms)",
            self.actions_acked, self.latency_ms.0, self.latency_ms.1, self.latency_ms.2
        );
        println!("players' errors by code  {:?}", self.errors);
        println!("hostile attempts (expected answer: as expected / not):");
        for (name, c) in &self.hostile {
            println!(
                "  {name:<22} {:<44} {:>5} / {}{}",
                c.expected,
                c.passed,
                c.failed,
                c.wrong.as_ref().map(|w| format!(" (last: {w})")).unwrap_or_default()
            );
        }
        println!(
            "/healthz                 {} asked, p50 {:.1} ms, max {:.1} ms, {} at 1 s or more, {} failed",
            self.healthz_count,
            self.healthz_p50_ms,
            self.healthz_max_ms,
            self.healthz_slow,
            self.healthz_failed
        );
        println!("server counters (delta)  {:?}", self.server);
        println!(
            "verification             {} games, {} acknowledged actions checked in {:.1} s: {} missing, {} games lost",
            v.games_checked,
            v.acked_checked,
            self.verify_secs,
            v.missing,
            v.lost.len()
        );
    }
}

const COUNTERS: [&str; 7] = [
    "robodrome_games_created_total",
    "robodrome_games_finished_total",
    "robodrome_actions_total",
    "robodrome_actions_rejected_total",
    "robodrome_connections_refused_total",
    "robodrome_quota_refused_total",
    "robodrome_ws_idle_closed_total",
];

async fn metrics(addr: SocketAddr) -> Result<BTreeMap<String, f64>, Error> {
    let (_, m) = client::http_from(addr, Some(MONITOR), "GET", "/metrics", None, None).await?;
    let text = m.as_str().unwrap_or_default();
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (k, v) = l.split_once(' ')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect())
}

fn rss_of(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0)
}

pub async fn run(args: Args) -> Result<Report, Error> {
    let addr = args.addr;
    let m0 = metrics(addr).await?;
    let started = Instant::now();
    let soak = Arc::new(Soak {
        deadline: started + Duration::from_secs(args.seconds),
        started,
        open_seats: Mutex::new(VecDeque::new()),
        tally: Mutex::new(Tally::default()),
        next_hostile: AtomicU32::new(0),
        stopped: Default::default(),
        args: args.clone(),
    });
    eprintln!(
        "soak: {} players and {} hostile clients against {addr} for {} s",
        args.clients, args.hostile, args.seconds
    );
    let mut tasks = tokio::task::JoinSet::new();
    let monitor = tokio::spawn(monitor(soak.clone()));
    for i in 0..args.clients {
        let soak = soak.clone();
        tasks.spawn(async move {
            if let Err(e) = player(&soak, i).await {
                soak.error(format!("client failed: {}", short(&e.to_string())));
            }
        });
    }
    for h in 0..args.hostile {
        let soak = soak.clone();
        tasks.spawn(async move {
            // Staggered, so the rounds' slow parts overlap the others' fast ones.
            let stagger = Duration::from_secs(args.ws_idle_secs.min(20) * h as u64 / 2);
            tokio::time::sleep(stagger).await;
            let mut round = 0u64;
            while !soak.past_deadline() {
                if let Err(e) = hostile_round(&soak, h as u64 * 1000 + round).await {
                    soak.error(format!("hostile client failed: {}", short(&e.to_string())));
                }
                round += 1;
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    soak.stopped.store(true, Relaxed);
    monitor.await?;
    let seconds = started.elapsed().as_secs_f64();
    let m1 = metrics(addr).await?;
    let (created, acked, mut lat, t) = {
        let mut t = soak.tally();
        (
            std::mem::take(&mut t.created),
            std::mem::take(&mut t.acked),
            std::mem::take(&mut t.latencies_us),
            std::mem::take(&mut *t),
        )
    };
    eprintln!("soak: play over after {seconds:.0} s; checking {} actions", acked.len());
    let v0 = Instant::now();
    let verification = verify(addr, &acked, &created).await;
    let verify_secs = v0.elapsed().as_secs_f64();
    lat.sort_unstable();
    let pct = |v: &[u32], p: f64| -> f64 {
        if v.is_empty() {
            return f64::NAN;
        }
        v[((v.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
    };
    let mut hz = t.healthz_ms.clone();
    hz.sort_by(f64::total_cmp);
    let warmup = args.warmup_secs.map_or(seconds / 3.0, |w| w as f64);
    let points: Vec<(f64, f64)> = t.samples.iter().map(|s| (s.t, s.rss_bytes)).collect();
    let server = COUNTERS
        .iter()
        .map(|&k| (k, m1.get(k).copied().unwrap_or(0.0) - m0.get(k).copied().unwrap_or(0.0)))
        .collect();
    Ok(Report {
        seconds,
        clients: args.clients,
        memory: memory_trend(&points, warmup),
        samples: t.samples,
        games_created: created.len(),
        games_over_seen: t.finished.len(),
        actions_acked: acked.len(),
        latency_ms: (pct(&lat, 0.5), pct(&lat, 0.99), pct(&lat, 1.0)),
        errors: t.errors,
        joins: t.joins,
        sessions: t.sessions,
        disconnects: t.disconnects,
        reconnects: t.reconnects,
        leaves: t.leaves,
        hostile: t.hostile,
        healthz_count: hz.len(),
        healthz_p50_ms: hz.get(hz.len() / 2).copied().unwrap_or(f64::NAN),
        healthz_max_ms: hz.last().copied().unwrap_or(f64::NAN),
        healthz_slow: hz.iter().filter(|&&ms| ms >= 1000.0).count(),
        healthz_failed: t.healthz_failed,
        verification,
        server,
        verify_secs,
    })
}

fn short(s: &str) -> String {
    s.chars().take(80).collect()
}

/// `/healthz` every second (its time, on a new connection each time) until every client has
/// stopped, and memory every `sample_secs` until the deadline (the last sample at it).
async fn monitor(soak: Arc<Soak>) {
    let addr = soak.args.addr;
    let mut next_sample = Instant::now();
    let mut sampled_last = false;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        let t0 = Instant::now();
        let answer = tokio::time::timeout(
            Duration::from_secs(10),
            client::http_from(addr, Some(MONITOR), "GET", "/healthz", None, None),
        )
        .await;
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        {
            let mut t = soak.tally();
            match answer {
                Ok(Ok((200, _))) => t.healthz_ms.push(ms),
                _ => t.healthz_failed += 1,
            }
        }
        let done = soak.past_deadline();
        if !sampled_last && (Instant::now() >= next_sample || done) {
            sampled_last = done;
            next_sample += Duration::from_secs(soak.args.sample_secs.max(1));
            if let Ok(m) = metrics(addr).await {
                let metric = |k: &str| m.get(k).copied().unwrap_or(f64::NAN);
                let rss = soak
                    .args
                    .server_pid
                    .and_then(rss_of)
                    .unwrap_or_else(|| metric("robodrome_process_resident_bytes"));
                let s = Sample {
                    t: soak.started.elapsed().as_secs_f64(),
                    rss_bytes: rss,
                    games_live: metric("robodrome_games_live"),
                    connections: metric("robodrome_connections"),
                    steps_cache_bytes: metric("robodrome_steps_cache_bytes"),
                    detail: DETAIL.iter().map(|(_, k)| metric(k)).collect(),
                };
                if let Some(path) = &soak.args.samples {
                    let mut text = String::new();
                    if soak.tally().samples.is_empty() {
                        text.push_str(&Sample::tsv_header());
                        text.push('\n');
                    }
                    text.push_str(&s.tsv());
                    text.push('\n');
                    let appended = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
                    if let Err(e) = appended {
                        eprintln!("soak: cannot write {}: {e}", path.display());
                    }
                }
                soak.tally().samples.push(s);
            }
        }
        if soak.stopped.load(Relaxed) {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Players

/// What a player keeps while it plays, merged into the tally when a game ends.
#[derive(Default)]
struct Local {
    acked: Vec<Acked>,
    latencies_us: Vec<u32>,
}

impl Local {
    fn flush(&mut self, soak: &Soak) {
        let mut t = soak.tally();
        t.acked.append(&mut self.acked);
        t.latencies_us.append(&mut self.latencies_us);
    }
}

async fn player(soak: &Soak, i: usize) -> Result<(), Error> {
    let args = &soak.args;
    let addr = args.addr;
    let from = Some(player_ip(i));
    let mut rng = Rng::seeded(args.seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let arrive = args.ramp_secs * 1000 * i as u64 / args.clients.max(1) as u64;
    tokio::time::sleep(Duration::from_millis(arrive)).await;
    let name = format!("soak-{i}");
    let token = match client::http_from(
        addr,
        from,
        "POST",
        "/api/guest",
        None,
        Some(&json!({ "name": name })),
    )
    .await?
    {
        (201, v) => v["token"].as_str().ok_or("no token")?.to_string(),
        (s, v) => return Err(format!("guest: {s} {v}").into()),
    };
    let mut local = Local::default();
    while !soak.past_deadline() {
        match find_game(soak, &mut rng, from, &token).await {
            Ok(Some(id)) => {
                let r = play_game(soak, &mut local, &mut rng, from, &token, &id).await;
                local.flush(soak);
                if let Err(e) = r {
                    soak.error(format!("play: {}", short(&e.to_string())));
                }
                // Now and then, look at a game's replay steps and the lobby, as people do.
                if rng.below(5) == 0 {
                    let path = format!("/api/games/{id}/steps?views=false");
                    if let Ok((s, v)) =
                        client::http_from(addr, from, "GET", &path, None, None).await
                        && s != 200
                    {
                        soak.error(format!("http {s} {}", v["code"].as_str().unwrap_or("?")));
                    }
                }
            }
            Ok(None) => {}
            Err(e) => {
                soak.error(format!("lobby: {}", short(&e.to_string())));
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(200 + rng.below(2000) as u64)).await;
    }
    Ok(())
}

/// A new game's request: every public game, short setups (an Autoscooter game of 2 to 4
/// players; RoboRally on First Steps and a one-lap Bumping Bots race, each with a heuristic
/// bot so that someone reaches the end whatever the random players do).
fn new_game(rng: &mut Rng, timer: u64) -> Value {
    match rng.below(10) {
        0..=3 => {
            let mut seats = vec!["me".to_string()];
            for _ in 0..1 + rng.below(3) {
                seats.push("open".into());
            }
            if rng.below(3) == 0 {
                seats.push("bot:random".into());
            }
            json!({"game": "autoscooter", "seats": seats, "timer_secs": timer})
        }
        4..=6 => {
            let mut seats = vec!["me".to_string()];
            if rng.below(2) == 0 {
                seats.push("open".into());
            }
            seats.push("bot:heuristic".into());
            json!({"game": "roborally", "board": "first-steps", "seats": seats, "timer_secs": timer})
        }
        _ => json!({"game": "bumping-bots", "board": "oval", "options": {"laps": 1},
                    "seats": ["me", "bot:heuristic"], "timer_secs": timer}),
    }
}

/// Join an advertised open seat, or create a game; then wait until it runs. `None`: gave up.
async fn find_game(
    soak: &Soak,
    rng: &mut Rng,
    from: Option<IpAddr>,
    token: &str,
) -> Result<Option<String>, Error> {
    let addr = soak.args.addr;
    let mut joined = None;
    for _ in 0..3 {
        let Some(id) = soak.open_seats.lock().unwrap_or_else(|p| p.into_inner()).pop_front() else {
            break;
        };
        let path = format!("/api/games/{id}/join");
        match client::http_from(addr, from, "POST", &path, Some(token), None).await? {
            (200, _) => {
                soak.tally().joins += 1;
                joined = Some(id);
                break;
            }
            (s, v) => soak.error(format!("join {s} {}", v["code"].as_str().unwrap_or("?"))),
        }
    }
    let creator = joined.is_none();
    let id = match joined {
        Some(id) => id,
        None => {
            let body = new_game(rng, soak.args.timer_secs);
            let v =
                match client::http_from(addr, from, "POST", "/api/games", Some(token), Some(&body))
                    .await?
                {
                    (201, v) => v,
                    (s, v) => {
                        soak.error(format!("create {s} {}", v["code"].as_str().unwrap_or("?")));
                        return Ok(None);
                    }
                };
            let id = v["id"].as_str().ok_or("no id")?.to_string();
            soak.tally().created.push(id.clone());
            let open = v["seats"]
                .as_array()
                .map_or(0, |s| s.iter().filter(|s| s["kind"] == "open").count());
            let mut seats = soak.open_seats.lock().unwrap_or_else(|p| p.into_inner());
            seats.extend(std::iter::repeat_n(id.clone(), open));
            id
        }
    };
    // Wait for it to start; the creator starts it after a while (open seats get bots).
    let t0 = Instant::now();
    loop {
        let (s, v) =
            client::http_from(addr, from, "GET", &format!("/api/games/{id}"), None, None).await?;
        if s != 200 {
            return Err(format!("game {id}: {s} {v}").into());
        }
        if v["status"] != "open" {
            return Ok(Some(id));
        }
        if soak.past_deadline() || t0.elapsed() > Duration::from_secs(30) {
            return Ok(None);
        }
        if creator && t0.elapsed() > Duration::from_secs(6) {
            let path = format!("/api/games/{id}/start");
            let (s, v) = client::http_from(addr, from, "POST", &path, Some(token), None).await?;
            if s != 200 {
                soak.error(format!("start {s} {}", v["code"].as_str().unwrap_or("?")));
            }
        }
        tokio::time::sleep(Duration::from_millis(1000)).await;
    }
}

/// What a player reads of every frame.
#[derive(serde::Deserialize)]
struct Head {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    waiting: Vec<u8>,
    #[serde(default)]
    seats: Vec<u8>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    game: Option<String>,
}

#[derive(serde::Deserialize)]
struct ViewOf {
    view: Value,
}

/// Refusals at one position before a player leaves the decision to the timer.
const TRIES: u32 = 4;

/// Play a game to its end, the deadline, or until the player leaves it; with disconnections.
async fn play_game(
    soak: &Soak,
    local: &mut Local,
    rng: &mut Rng,
    from: Option<IpAddr>,
    token: &str,
    id: &str,
) -> Result<(), Error> {
    let args = &soak.args;
    let game: Arc<str> = Arc::from(id);
    let mut kind = String::new();
    let mut failures = 0;
    soak.tally().sessions += 1;
    let mut first = true;
    loop {
        if soak.past_deadline() {
            return Ok(());
        }
        if !first {
            soak.tally().reconnects += 1;
        }
        first = false;
        let mut sock = match Socket::connect_from(args.addr, from, id, Some(token)).await {
            Ok(s) => s,
            Err(e) => {
                soak.error(format!("ws connect: {}", short(&e.to_string())));
                failures += 1;
                if failures > 5 {
                    return Ok(());
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        // This connection ends by itself after a while for a third of them: within the
        // soak's own length when that is under a minute (a short soak's games end in a few
        // seconds; players must still come and go in it).
        let far = Instant::now() + Duration::from_secs(86_400);
        let span = (args.seconds * 1_000).clamp(2_000, 60_000) as u32;
        let drop_at = if rng.below(3) == 0 {
            Instant::now() + Duration::from_millis(1_000 + rng.below(span) as u64)
        } else {
            far
        };
        let mut seat: Option<u8> = None;
        let mut last: Option<String> = None;
        let mut waiting_me = false;
        let mut seq = 0u64;
        let mut tries = 0u32;
        let mut act_at = far;
        let mut inflight: Option<(u64, String, Instant)> = None;
        let mut next_id = 0u64;
        let deadline = soak.deadline;
        let think = |rng: &mut Rng| {
            let span = args.think_max_ms.saturating_sub(args.think_min_ms).max(1);
            Duration::from_millis(args.think_min_ms + rng.below(span as u32) as u64)
        };
        enum Ev {
            Frame(Option<tokio_tungstenite::tungstenite::Utf8Bytes>),
            Act,
            Drop,
            Deadline,
        }
        let ended = loop {
            let ev = tokio::select! {
                t = sock.recv_text() => Ev::Frame(t?),
                _ = tokio::time::sleep_until(act_at.into()), if act_at < far => Ev::Act,
                _ = tokio::time::sleep_until(drop_at.into()), if drop_at < far => Ev::Drop,
                _ = tokio::time::sleep_until(deadline.into()) => Ev::Deadline,
            };
            match ev {
                Ev::Frame(None) | Ev::Drop => break false,
                Ev::Deadline => {
                    sock.close().await;
                    return Ok(());
                }
                Ev::Act => {
                    act_at = far;
                    if let (Some(s), Some(frame)) = (seat, &last)
                        && inflight.is_none()
                        && waiting_me
                    {
                        let view = serde_json::from_str::<ViewOf>(frame)?.view;
                        if let Some(action) = choose(&kind, &view, s, rng, tries) {
                            next_id += 1;
                            let text = action.to_string();
                            sock.send(&ClientMsg::Act { seat: None, action, id: Some(next_id) })
                                .await?;
                            inflight = Some((next_id, text, Instant::now()));
                        }
                    }
                }
                Ev::Frame(Some(text)) => {
                    let head: Head = serde_json::from_str(&text)?;
                    match head.kind.as_str() {
                        "welcome" | "update" => {
                            if head.kind == "welcome" {
                                seat = head.seats.first().copied();
                                if let Some(g) = head.game {
                                    kind = g;
                                }
                            }
                            if head.seq != seq {
                                tries = 0;
                            }
                            seq = head.seq;
                            waiting_me = seat.is_some_and(|s| head.waiting.contains(&s));
                            last = Some(text.to_string());
                            if !waiting_me {
                                act_at = far;
                            } else if inflight.is_none() && act_at == far {
                                act_at = Instant::now() + think(rng);
                            }
                        }
                        "ack" => {
                            if let Some((_, action, t0)) =
                                inflight.take_if(|f| head.id == Some(f.0))
                            {
                                let us = t0.elapsed().as_micros().min(u32::MAX as u128) as u32;
                                local.latencies_us.push(us);
                                if let Some(s) = seat {
                                    let game = game.clone();
                                    local.acked.push(Acked {
                                        game,
                                        seq: head.seq,
                                        seat: s,
                                        action,
                                    });
                                }
                            }
                        }
                        "error" => {
                            let code = head.code.unwrap_or_default();
                            let key = match head.rule {
                                Some(r) => format!("{code}/{r}"),
                                None => code,
                            };
                            soak.error(key);
                            if inflight.take_if(|f| head.id == Some(f.0)).is_some() {
                                tries += 1;
                                if waiting_me && tries < TRIES {
                                    act_at = Instant::now() + Duration::from_millis(100);
                                }
                            }
                        }
                        "over" => {
                            soak.tally().finished.insert(id.to_string());
                            break true;
                        }
                        _ => {}
                    }
                }
            }
        };
        if ended {
            sock.close().await;
            return Ok(());
        }
        // A disconnection: half the time a clean close, else the socket just goes away.
        soak.tally().disconnects += 1;
        if rng.below(2) == 0 {
            sock.close().await;
        } else {
            drop(sock);
        }
        if rng.below(10) == 0 {
            soak.tally().leaves += 1;
            return Ok(());
        }
        let away = if rng.below(4) == 0 {
            // Past the grace period: a stand-in plays meanwhile.
            Duration::from_secs(args.grace_secs + 2 + rng.below(10) as u64)
        } else {
            Duration::from_millis(300 + rng.below(4700) as u64)
        };
        tokio::time::sleep(away).await;
        // A finished game has nothing to come back to.
        let (s, v) =
            client::http_from(args.addr, from, "GET", &format!("/api/games/{id}"), None, None)
                .await?;
        if s == 200 && v["status"] == "finished" {
            return Ok(());
        }
    }
}

/// An action for `seat` from its own view of game `kind`; `tries` is how many were refused at
/// this position already.
pub fn choose(kind: &str, view: &Value, seat: u8, rng: &mut Rng, tries: u32) -> Option<Value> {
    match kind {
        "autoscooter" => {
            let v: AsView = serde_json::from_value(view.clone()).ok()?;
            autoscooter_move(&v, seat, rng)
        }
        "roborally" => roborally_move(view, seat, rng, tries),
        "bumping-bots" => bumping_bots_move(view, seat, rng),
        _ => None,
    }
}

fn turn(rng: &mut Rng) -> i64 {
    rng.below(3) as i64 - 1
}

/// RoboRally (docs/roborally.md, RR-11): the question asked of this seat, a re-entry, the
/// stay-down choice, or a program of distinct cards from the hand (locked registers left
/// empty, RR-7.2).
fn roborally_move(view: &Value, seat: u8, rng: &mut Rng, tries: u32) -> Option<Value> {
    let me = view["robots"].as_array()?.iter().find(|r| r["seat"] == seat)?;
    let options: Vec<Value> = me["options"].as_array().cloned().unwrap_or_default();
    let q = &view["question"];
    if q["seat"] == seat {
        return Some(match q["kind"].as_str()? {
            "damage" => json!({"type": "discard_option", "option": null}),
            "lose_option" => {
                let o = rng.pick(&options).cloned().unwrap_or(Value::Null);
                json!({"type": "discard_option", "option": o})
            }
            _ => json!({"type": "use_option", "option": null}),
        });
    }
    match view["phase"].as_str()? {
        "reenter" => {
            let r = &view["reentry"];
            if r["seat"] != seat {
                return None;
            }
            let choices = r["choices"].as_array()?;
            let c = rng.pick(choices)?;
            let facing = rng.pick(c["facings"].as_array()?)?.clone();
            Some(json!({"type": "reenter", "at": c["at"], "facing": facing, "powered_down": false}))
        }
        "stay_down" => Some(json!({"type": "stay_down", "value": rng.below(2) == 0})),
        "program" => {
            let mut hand: Vec<Value> = me["hand"].as_array()?.clone();
            rng.shuffle(&mut hand);
            let locked: Vec<u64> = me["locked_registers"]
                .as_array()
                .map(|l| l.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            let registers: Vec<Value> = (1..=5u64)
                .map(|r| {
                    if locked.contains(&r) {
                        Value::Null
                    } else {
                        hand.pop().unwrap_or(Value::Null)
                    }
                })
                .collect();
            let down = tries == 0 && rng.below(20) == 0;
            Some(json!({"type": "program", "registers": registers, "power_down_next": down}))
        }
        _ => None,
    }
}

/// Bumping Bots (docs/bumping-bots.md): a speed choice (sometimes a tuning card first), a move
/// with random turns, the shock's choices, an orientation, no magnet.
fn bumping_bots_move(view: &Value, seat: u8, rng: &mut Rng) -> Option<Value> {
    let me = view["bots"].as_array()?.iter().find(|b| b["seat"] == seat)?;
    Some(match view["phase"].as_str()? {
        "speed" => {
            let cards: Vec<Value> = me["cards"].as_array().cloned().unwrap_or_default();
            let simple: Vec<&Value> =
                cards.iter().filter(|c| *c == "nitro" || *c == "engine").collect();
            if !simple.is_empty() && rng.below(6) == 0 {
                json!({"type": "card", "card": rng.pick(&simple)?})
            } else if rng.below(20) == 0 {
                json!({"type": "speed", "choice": "reverse", "new_speed": 1 + rng.below(2)})
            } else {
                let c = ["keep", "accelerate", "accelerate", "accelerate_to_3", "decelerate"];
                json!({"type": "speed", "choice": rng.pick(&c)?})
            }
        }
        "move" => {
            let after = if rng.below(2) == 0 { 0 } else { turn(rng) };
            json!({"type": "move", "rotate_before_last": turn(rng), "rotate_after": after})
        }
        "shock_choice" => {
            let sh = &view["shock"];
            let n = sh["turn_cells"].as_u64().unwrap_or(0);
            let cells: Vec<i64> = (0..n).map(|_| turn(rng)).collect();
            let first = if sh["turn_first"].is_null() { 0 } else { turn(rng) };
            json!({"type": "shock_choice", "turn_passive": cells, "turn_first": first})
        }
        "orient" => json!({"type": "orient", "turn": turn(rng)}),
        "magnet" => json!({"type": "card", "card": null}),
        "pick_cards" => {
            let c = ["jumper", "magnet", "nitro", "engine", "rotation"];
            json!({"type": "card", "card": rng.pick(&c)?})
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// The final checks

/// Whether every field of `sent` is in `stored` with the same value (`null` or absent fields
/// of `sent` may be absent or anything falsy in `stored`: the engine writes its defaults).
pub fn json_subset(sent: &Value, stored: &Value) -> bool {
    match (sent, stored) {
        (Value::Object(a), Value::Object(b)) => a.iter().all(|(k, v)| match b.get(k) {
            Some(w) => json_subset(v, w),
            None => v.is_null() || v == &json!(false) || v == &json!([]),
        }),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| json_subset(x, y))
        }
        (a, b) => a == b,
    }
}

/// Look every acknowledged action up in its game's `/steps` (the seat must match; the action
/// too once the game is finished and shown whole), and every game up in the lobby.
pub async fn verify(addr: SocketAddr, acked: &[Acked], games: &[String]) -> Verification {
    let mut by_game: BTreeMap<&str, Vec<&Acked>> = BTreeMap::new();
    for a in acked {
        by_game.entry(&*a.game).or_default().push(a);
    }
    let mut ids: Vec<String> = games.to_vec();
    ids.extend(by_game.keys().map(|k| k.to_string()));
    ids.sort();
    ids.dedup();
    let by_game: Arc<BTreeMap<String, Vec<Acked>>> = Arc::new(
        by_game
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().cloned().collect()))
            .collect(),
    );
    let out = Arc::new(Mutex::new(Verification::default()));
    let queue = Arc::new(Mutex::new(ids.into_iter().collect::<VecDeque<_>>()));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let (queue, out, by_game) = (queue.clone(), out.clone(), by_game.clone());
        workers.spawn(async move {
            loop {
                let Some(id) = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front() else {
                    return;
                };
                let mine = by_game.get(&id).map(Vec::as_slice).unwrap_or_default();
                let r = verify_game(addr, &id, mine).await;
                let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
                o.games_checked += 1;
                o.acked_checked += mine.len();
                match r {
                    Ok((status, missing)) => {
                        *o.statuses.entry(status).or_insert(0) += 1;
                        o.missing += missing.len() as u64;
                        for m in missing {
                            if o.missing_examples.len() < 20 {
                                o.missing_examples.push(m);
                            }
                        }
                    }
                    Err(e) => {
                        o.lost.push(format!("{id}: {e}"));
                        o.missing += mine.len() as u64;
                    }
                }
            }
        });
    }
    while workers.join_next().await.is_some() {}
    out.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// One game: its status, and the acknowledged actions not found in its steps as acknowledged.
async fn verify_game(
    addr: SocketAddr,
    id: &str,
    acked: &[Acked],
) -> Result<(String, Vec<String>), Error> {
    let path = format!("/api/games/{id}");
    let (s, v) = client::http_from(addr, Some(MONITOR), "GET", &path, None, None).await?;
    if s != 200 {
        return Err(format!("GET {path}: {s} {v}").into());
    }
    let status = v["status"].as_str().unwrap_or("?").to_string();
    if acked.is_empty() {
        return Ok((status, Vec::new()));
    }
    let need = acked.iter().map(|a| a.seq).max().unwrap_or(0);
    let mut entries: BTreeMap<u64, Value> = BTreeMap::new();
    let mut from = 0u64;
    let mut finished;
    loop {
        let path = format!("/api/games/{id}/steps?views=false&from={from}");
        let (s, page) = client::http_from(addr, Some(MONITOR), "GET", &path, None, None).await?;
        if s != 200 {
            return Err(format!("GET {path}: {s} {page}").into());
        }
        finished = page["status"] == "finished";
        for step in page["steps"].as_array().map(Vec::as_slice).unwrap_or_default() {
            if let Some(n) = step["seq"].as_u64() {
                entries.insert(n, step["entry"].clone());
            }
        }
        match page["next"].as_u64() {
            Some(n) if n > from && n <= need => from = n,
            _ => break,
        }
    }
    let mut missing = Vec::new();
    for a in acked {
        let found = match entries.get(&a.seq) {
            None => Err("no such step".to_string()),
            Some(e) if e["seat"] != a.seat => Err(format!("step {e} is not seat {}'s", a.seat)),
            Some(e) if finished => {
                let sent: Value = serde_json::from_str(&a.action).unwrap_or(Value::Null);
                if json_subset(&sent, &e["action"]) {
                    Ok(())
                } else {
                    Err(format!("stored {} ≠ sent {}", e["action"], a.action))
                }
            }
            Some(_) => Ok(()),
        };
        if let Err(why) = found {
            missing.push(format!("{id} step {}: {why}", a.seq));
        }
    }
    Ok((status, missing))
}

// ---------------------------------------------------------------------------------------------
// Hostile clients

/// A raw HTTP/1.1 exchange from `from` (`Connection: close`): status, lower-cased headers,
/// body. `content_type` `None` sends JSON.
async fn raw(
    addr: SocketAddr,
    from: IpAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Result<(u16, Vec<(String, String)>, Value), Error> {
    let mut s = client::tcp_from(addr, Some(from)).await?;
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut out)).await??;
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status =
        lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok());
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let body = serde_json::from_str(rest).unwrap_or(Value::String(rest.to_string()));
    Ok((status.ok_or_else(|| format!("no status line in {:?}", short(&text)))?, headers, body))
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// `status` and `code` as expected.
fn expect_code(
    got: &(u16, Vec<(String, String)>, Value),
    status: u16,
    code: &str,
) -> Result<(), String> {
    if got.0 == status && got.2["code"] == code {
        Ok(())
    } else {
        Err(format!("{} {}", got.0, short(&got.2.to_string())))
    }
}

/// The next error frame's code (updates and the like skipped), within 10 s.
async fn next_error(sock: &mut Socket) -> Result<String, String> {
    let t = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match sock.recv_text().await {
                Ok(Some(text)) => {
                    let v: Value = serde_json::from_str(&text).unwrap_or_default();
                    if v["type"] == "error" {
                        return Ok(v["code"].as_str().unwrap_or("?").to_string());
                    }
                }
                Ok(None) => return Err("closed".to_string()),
                Err(e) => return Err(short(&e.to_string())),
            }
        }
    });
    t.await.map_err(|_| "no error frame in 10 s".to_string())?
}

async fn ws_check(sock: &mut Socket, frame: Message, want: &str) -> Result<(), String> {
    sock.send_raw(frame).await.map_err(|e| short(&e.to_string()))?;
    match next_error(sock).await? {
        c if c == want => Ok(()),
        c => Err(c),
    }
}

/// Whether the server closes the connection within `within` (reading everything it sends).
async fn closed_within(sock: &mut Socket, within: Duration) -> bool {
    tokio::time::timeout(within, async {
        loop {
            match sock.recv_raw().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .is_ok()
}

fn text(s: impl Into<String>) -> Message {
    Message::Text(s.into().into())
}

/// One round of every attack, from fresh addresses.
async fn hostile_round(soak: &Soak, round: u64) -> Result<(), Error> {
    let args = &soak.args;
    let addr = args.addr;
    let from = hostile_ip(soak.next_hostile.fetch_add(1, Relaxed));
    let guest = |name: String| async move {
        let body = json!({ "name": name }).to_string();
        let r = raw(addr, from, "POST", "/api/guest", &[JSON], &body).await?;
        r.2["token"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| -> Error { format!("guest: {} {}", r.0, r.2).into() })
    };
    let a = guest(format!("hostile-{round}-a")).await?;
    let b = guest(format!("hostile-{round}-b")).await?;
    let bearer_a = format!("Bearer {a}");
    let auth_a = ("Authorization", bearer_a.as_str());
    let post_game = |body: Value| {
        let h = [JSON, auth_a];
        async move { raw(addr, from, "POST", "/api/games", &h, &body.to_string()).await }
    };

    // Requests that are not JSON, unknown paths, the token in an HTTP query.
    let r = raw(
        addr,
        from,
        "POST",
        "/api/guest",
        &[("Content-Type", "text/plain")],
        "{\"name\":\"x\"}",
    )
    .await?;
    soak.check(
        "text_plain_post",
        "415 unsupported_media_type",
        expect_code(&r, 415, "unsupported_media_type"),
    );
    let r = raw(addr, from, "GET", "/api/no-such-route", &[], "").await?;
    soak.check("unknown_path", "404 not_found", expect_code(&r, 404, "not_found"));
    let r = raw(addr, from, "POST", &format!("/api/guest/revoke?token={a}"), &[JSON], "").await?;
    soak.check("token_in_http_query", "401 unauthorized", expect_code(&r, 401, "unauthorized"));

    // A chosen seed without practice; bot budgets over the ceiling; a seat that is no seat.
    let r = post_game(json!({"game": "autoscooter", "seats": ["me", "open"], "seed": 7})).await?;
    soak.check(
        "seed_without_practice",
        "400 seed_not_allowed",
        expect_code(&r, 400, "seed_not_allowed"),
    );
    let r =
        post_game(json!({"game": "autoscooter", "seats": ["me", "bot:search:4294967295"]})).await?;
    soak.check(
        "bot_budget_simulations",
        "400 bot_too_strong",
        expect_code(&r, 400, "bot_too_strong"),
    );
    let r =
        post_game(json!({"game": "roborally", "seats": ["me", "bot:search:4294967295ms"]})).await?;
    soak.check("bot_budget_ms", "400 bot_too_strong", expect_code(&r, 400, "bot_too_strong"));
    let r = post_game(json!({"game": "bumping-bots", "seats": ["me", "bot:wizard"]})).await?;
    soak.check("bad_seat", "400 bad_seat", expect_code(&r, 400, "bad_seat"));

    // Open games over the cap: 429 too_many_open_games (they stay open: the lobby holds them).
    let mut open = Vec::new();
    let mut capped = Err("never refused".to_string());
    for _ in 0..args.open_games_per_identity + 2 {
        let r = post_game(json!({"game": "autoscooter", "seats": ["me", "open"]})).await?;
        if r.0 == 201 {
            open.push(r.2["id"].as_str().unwrap_or_default().to_string());
        } else {
            capped = expect_code(&r, 429, "too_many_open_games");
            break;
        }
    }
    if open.len() as u32 > args.open_games_per_identity {
        capped = Err(format!("{} open games accepted", open.len()));
    }
    soak.check("open_games_cap", "429 too_many_open_games", capped);
    soak.tally().created.extend(open.iter().cloned());
    if let Some(id) = open.first() {
        let bearer_b = format!("Bearer {b}");
        let h = [JSON, ("Authorization", bearer_b.as_str())];
        let r =
            raw(addr, from, "POST", &format!("/api/games/{id}/join"), &h, "{\"seat\": 99}").await?;
        soak.check("join_seat_99", "400 no_such_seat", expect_code(&r, 400, "no_such_seat"));
    }

    // A running game of B's own (against a bot), to send it garbage.
    let bearer_b = format!("Bearer {b}");
    let body = json!({"game": "autoscooter", "seats": ["me", "bot:random"], "timer_secs": args.timer_secs});
    let r = raw(
        addr,
        from,
        "POST",
        "/api/games",
        &[JSON, ("Authorization", bearer_b.as_str())],
        &body.to_string(),
    )
    .await?;
    let id =
        r.2["id"].as_str().ok_or_else(|| format!("hostile game: {} {}", r.0, r.2))?.to_string();
    soak.tally().created.push(id.clone());
    let ws_path = format!("/ws/games/{id}");
    let upgrade = [
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Origin", "http://evil.example"),
    ];
    let r = raw(addr, from, "GET", &ws_path, &upgrade, "").await?;
    soak.check("foreign_origin_ws", "403 forbidden", expect_code(&r, 403, "forbidden"));

    let mut sock = Socket::connect_from(addr, Some(from), &id, Some(&b)).await?;
    let frames: [(&'static str, Message, &str); 7] = [
        ("ws_not_json", text("this is not json"), "malformed"),
        ("ws_binary", Message::Binary(vec![1u8, 2, 3].into()), "binary_not_supported"),
        ("ws_wrong_version", text(r#"{"v": 2, "type": "ping"}"#), "unsupported_version"),
        ("ws_unknown_type", text(r#"{"v": 1, "type": "dance"}"#), "unknown_type"),
        ("ws_act_without_action", text(r#"{"v": 1, "type": "act"}"#), "bad_message"),
        (
            "ws_not_an_action",
            text(r#"{"v": 1, "type": "act", "action": {"type": "fly"}}"#),
            "bad_action",
        ),
        (
            "ws_act_for_other_seat",
            text(
                r#"{"v": 1, "type": "act", "seat": 1, "action": {"type": "plot", "car": 1, "number": 2, "letter": "H"}, "id": 9}"#,
            ),
            "not_your_seat",
        ),
    ];
    for (name, frame, want) in frames {
        let got = ws_check(&mut sock, frame, want).await;
        soak.check(name, want, got);
    }
    let big = format!(r#"{{"v": 1, "type": "ping", "pad": "{}"}}"#, "x".repeat(100 * 1024));
    let got = ws_check(&mut sock, text(big), "too_large").await;
    soak.check("ws_frame_100k", "too_large, socket stays open", got);
    // Still open: a ping is answered.
    let got = async {
        sock.send(&ClientMsg::Ping).await.map_err(|e| short(&e.to_string()))?;
        tokio::time::timeout(Duration::from_secs(10), async {
            while let Ok(Some(t)) = sock.recv_text().await {
                if t.contains("\"pong\"") {
                    return Ok(());
                }
            }
            Err("closed".to_string())
        })
        .await
        .map_err(|_| "no pong".to_string())?
    }
    .await;
    soak.check("ws_open_after_100k", "pong", got);
    // A burst of messages: rate_limited.
    let got = async {
        for _ in 0..80 {
            sock.send(&ClientMsg::Ping).await.map_err(|e| short(&e.to_string()))?;
        }
        match next_error(&mut sock).await? {
            c if c == "rate_limited" => Ok(()),
            c => Err(c),
        }
    }
    .await;
    soak.check("ws_message_burst", "rate_limited", got);
    // A frame over 1 MiB: the connection is closed.
    let huge = format!(r#"{{"v": 1, "type": "ping", "pad": "{}"}}"#, "x".repeat(2 << 20));
    let _ = sock.send_raw(text(huge)).await;
    let closed = closed_within(&mut sock, Duration::from_secs(10)).await;
    soak.check("ws_frame_2mib", "closed", if closed { Ok(()) } else { Err("still open".into()) });
    // A spectator acting.
    let got = async {
        let mut spy = Socket::connect_from(addr, Some(from), &id, None).await.map_err(|e| short(&e.to_string()))?;
        let r = ws_check(&mut spy, text(r#"{"v": 1, "type": "act", "action": {"type": "plot", "car": 0, "number": 1, "letter": "H"}}"#), "not_a_player").await;
        spy.close().await;
        r
    }
    .await;
    soak.check("ws_spectator_acts", "not_a_player", got);

    // Guests over the quota: 429 rate_limited with Retry-After.
    let mut got = Err("never refused".to_string());
    for n in 0..args.guests_per_window + 5 {
        let body = json!({ "name": format!("flood-{n}") }).to_string();
        let r = raw(addr, from, "POST", "/api/guest", &[JSON], &body).await?;
        if r.0 != 201 {
            got = expect_code(&r, 429, "rate_limited").and_then(|()| {
                r.1.iter()
                    .any(|(k, _)| k == "retry-after")
                    .then_some(())
                    .ok_or("no Retry-After".to_string())
            });
            break;
        }
    }
    soak.check("guest_flood", "429 rate_limited + Retry-After", got);

    // Slow parts at once: connections over the per-address cap, half-open requests and silent
    // TCP connections, idle WebSockets. B comes back meanwhile and stays (reading, so answering
    // pings), so that its game waits for its timer rather than racing to the end with a
    // stand-in while the idle sockets watch it.
    let mut keeper = Socket::connect_from(addr, Some(from), &id, Some(&b)).await?;
    let keeper = tokio::spawn(async move { while let Ok(Some(_)) = keeper.recv_text().await {} });
    let (conns, half, idle) = tokio::join!(
        conn_flood(
            addr,
            hostile_ip(soak.next_hostile.fetch_add(1, Relaxed)),
            args.conns_per_address
        ),
        half_open(addr, from, Duration::from_secs(args.header_read_secs + 5)),
        idle_sockets(addr, from, &id, Duration::from_secs(args.ws_idle_secs * 4 / 3 + 5)),
    );
    keeper.abort();
    soak.check("conns_over_cap", "closed at once", conns);
    soak.check("half_open_http", "dropped after --header-read-secs", half);
    match idle {
        // The game ended meanwhile (its sockets may have been closed for that): not counted.
        Err(e) if e == "game over" => {}
        idle => soak.check("idle_websockets", "closed after --ws-idle-secs", idle),
    }
    Ok(())
}

/// `cap + 8` connections from one address, all held open while each asks for `/healthz` on
/// a kept-alive connection (at once): at most `cap` are answered, the others are closed before
/// they are answered. (Answered connections stay open until every one has been tried, so a
/// connection the server accepts late cannot take the place of one already closed.)
async fn conn_flood(addr: SocketAddr, from: IpAddr, cap: u32) -> Result<(), String> {
    let mut socks = Vec::new();
    for _ in 0..cap + 8 {
        socks.push(client::tcp_from(addr, Some(from)).await.map_err(|e| e.to_string())?);
    }
    let probes = socks.into_iter().map(|mut s| async move {
        let req = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let _ = s.write_all(req.as_bytes()).await;
        let mut buf = [0u8; 12];
        let answered = matches!(
            tokio::time::timeout(Duration::from_secs(10), s.read_exact(&mut buf)).await,
            Ok(Ok(_))
        ) && buf.starts_with(b"HTTP/1.1 200");
        (answered, s)
    });
    let results = futures_util::future::join_all(probes).await;
    let answered = results.iter().filter(|(a, _)| *a).count();
    let refused = results.len() - answered;
    drop(results);
    if refused >= 8 && answered <= cap as usize {
        Ok(())
    } else {
        Err(format!("{answered} answered, {refused} closed"))
    }
}

/// Ten requests whose headers never end and ten connections that send nothing: all dropped.
async fn half_open(addr: SocketAddr, from: IpAddr, within: Duration) -> Result<(), String> {
    let mut socks = Vec::new();
    for i in 0..20 {
        let mut s = client::tcp_from(addr, Some(from)).await.map_err(|e| e.to_string())?;
        if i % 2 == 0 {
            let part = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n");
            s.write_all(part.as_bytes()).await.map_err(|e| e.to_string())?;
        }
        socks.push(s);
    }
    let t0 = Instant::now();
    let mut open = 0;
    for s in &mut socks {
        let left = within.saturating_sub(t0.elapsed());
        let mut buf = Vec::new();
        // Dropped: the read ends (EOF or a reset), with or without a 408 first.
        if tokio::time::timeout(left, s.read_to_end(&mut buf)).await.is_err() {
            open += 1;
        }
    }
    if open == 0 { Ok(()) } else { Err(format!("{open} of 20 still open after {within:?}")) }
}

/// Five WebSockets on a running game that never read (so never answer a ping): all closed.
async fn idle_sockets(
    addr: SocketAddr,
    from: IpAddr,
    id: &str,
    within: Duration,
) -> Result<(), String> {
    let mut socks = Vec::new();
    for _ in 0..5 {
        socks.push(
            Socket::connect_from(addr, Some(from), id, None)
                .await
                .map_err(|e| short(&e.to_string()))?,
        );
    }
    tokio::time::sleep(within).await;
    let (s, v) =
        client::http_from(addr, Some(from), "GET", &format!("/api/games/{id}"), None, None)
            .await
            .map_err(|e| e.to_string())?;
    if s == 200 && v["status"] == "finished" {
        return Err("game over".into());
    }
    let mut open = 0;
    for s in &mut socks {
        if !closed_within(s, Duration::from_secs(2)).await {
            open += 1;
        }
    }
    if open == 0 { Ok(()) } else { Err(format!("{open} of 5 still open after {within:?}")) }
}
