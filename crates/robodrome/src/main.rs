//! The `robodrome` command: scenarios, simulations, benchmarks, boards.

mod bot_client;
mod tournament;

use clap::{Args, Parser, Subcommand};
use games::{Kind, Registry, SetupRequest};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

// The global allocator: jemalloc (the default feature), or with `--no-default-features` one of
// `mimalloc`, `heap-stats`, or the system's with none (Cargo.toml; the measured choice is in
// docs/benchmarks.md "Soak").
#[cfg(any(
    all(feature = "jemalloc", feature = "mimalloc"),
    all(feature = "jemalloc", feature = "heap-stats"),
    all(feature = "mimalloc", feature = "heap-stats")
))]
compile_error!(
    "one allocator feature at a time: build with --no-default-features --features mimalloc (or heap-stats)"
);

#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
#[global_allocator]
static HEAP: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static HEAP: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The counted heap of the `heap-stats` feature.
#[cfg(feature = "heap-stats")]
#[global_allocator]
static HEAP: &stats_alloc::StatsAlloc<std::alloc::System> = &stats_alloc::INSTRUMENTED_SYSTEM;

/// What the allocator says about the heap, for `serve`'s /metrics.
#[cfg(feature = "heap-stats")]
fn heap_gauges() -> Vec<server::metrics::Gauge> {
    let s = HEAP.stats();
    vec![
        (
            "robodrome_heap_live_bytes",
            "Bytes the program holds allocated (requested sizes; the heap-stats feature).",
            s.bytes_allocated.saturating_sub(s.bytes_deallocated) as u64,
        ),
        (
            "robodrome_heap_live_blocks",
            "Heap blocks the program holds (the heap-stats feature).",
            s.allocations.saturating_sub(s.deallocations) as u64,
        ),
    ]
}

/// What the allocator says about the heap, for `serve`'s /metrics.
#[cfg(all(feature = "jemalloc", not(target_env = "msvc")))]
fn heap_gauges() -> Vec<server::metrics::Gauge> {
    use tikv_jemalloc_ctl::{epoch, stats};
    let _ = epoch::advance();
    let v = |r: Result<usize, tikv_jemalloc_ctl::Error>| r.unwrap_or(0) as u64;
    vec![
        (
            "robodrome_heap_live_bytes",
            "Bytes the program holds allocated (jemalloc's stats.allocated).",
            v(stats::allocated::read()),
        ),
        (
            "robodrome_heap_resident_bytes",
            "Bytes of the allocator's pages resident in memory (jemalloc's stats.resident).",
            v(stats::resident::read()),
        ),
        (
            "robodrome_heap_retained_bytes",
            "Bytes the allocator keeps mapped but returned to the system (jemalloc's stats.retained).",
            v(stats::retained::read()),
        ),
    ]
}

/// Robodrome: RoboRally, Autoscooter and Bumping Bots — rules engine, simulations and tools.
#[derive(Parser)]
#[command(name = "robodrome", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario file and print the position after its last action as JSON.
    ///
    /// Exit status: 0 every action applied; 2 the file is not valid JSON or does not fit the
    /// schema (a message on standard error names the field); 3 an action was illegal (the
    /// position before it is printed, with an `error` object). See docs/scenarios.md.
    Scenario {
        /// The scenario file, or `-` for standard input.
        file: PathBuf,
        /// Also print the engine's view for this seat (0-based) as `view` and the game's
        /// static part as `static`: the JSON a client is sent in that position.
        #[arg(long, value_name = "SEAT")]
        view: Option<u8>,
    },
    /// Play many games with any mix of bots and print a summary (games/s, wins by seat, the
    /// game's own figures).
    Sim(SimArgs),
    /// Measure how fast the engines play random games (a quick figure; `cargo bench` for
    /// criterion's careful one).
    Bench {
        /// Seconds to spend on each measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
    /// Boards: draw them as SVG, list the shipped ones.
    #[command(subcommand)]
    Board(BoardCommand),
    /// Pit bots against each other: every pairing, seats rotated, wins with 95% intervals, Elo.
    Tournament(TournamentArgs),
    /// Run the game server: lobby, WebSocket play and the browser client (see docs/protocol.md).
    Serve(ServeArgs),
    /// Open many WebSocket clients against a running server and report latency (docs/benchmarks.md).
    Loadtest(server::loadtest::Args),
    /// A soak run against a running server on loopback (issue 14): thousands of players and
    /// hostile clients for minutes; memory, latency and errors; every acknowledged action
    /// checked in the log at the end (exit 1 when anything failed; scripts/soak).
    Soak(SoakArgs),
    /// The cluster test (issue 19): bot games and socket clients through a cluster's balancer
    /// while a random node is killed with SIGKILL every few seconds and started again; then
    /// every game's result against a replay of its log, every acknowledged action in the log,
    /// every frame against what its observer may see, the leases' history (exit 1 when
    /// anything failed; scripts/chaos, docs/deployment.md "The chaos test"). An option given
    /// twice takes its last value (scripts/chaos's defaults, then yours).
    #[command(args_override_self = true)]
    Chaos(server::chaos::Args),
    /// Play as a bot account through the Bot API (docs/protocol.md "Bot API"): connect with
    /// the account's token, accept challenges for the chosen games (decline the others) and
    /// play every game the bot is seated in, from its seat's view only.
    ///
    /// Example: robodrome bot --server http://127.0.0.1:8080 --token rdbot_… --bot random
    /// --games autoscooter,bumping-bots
    Bot(bot_client::BotArgs),
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// The SQLite database file (created on first start), or a PostgreSQL database
    /// (`postgres://user@host:port/db`: several nodes on one database, docs/deployment.md).
    #[arg(long, default_value = "robodrome.db")]
    db: String,
    /// Seconds a player may be away before a bot plays for them.
    #[arg(long, default_value_t = 30)]
    grace_secs: u64,
    /// The least time in milliseconds a bot takes per decision.
    #[arg(long, default_value_t = 0)]
    bot_delay_ms: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Run everything on one thread (tokio's current-thread runtime; `--threads` is then not
    /// read): no wake-ups across threads (docs/benchmarks.md "CPU per accepted action, round 4").
    #[arg(long)]
    current_thread: bool,
    /// Whether a game's task writes its frames into the connections' sockets itself (true, the
    /// default since it measured cheaper: docs/benchmarks.md "round 5", "round 6"), or wakes
    /// each connection's task to write them (false: the design before round 4).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    direct_writes: bool,
    /// Milliseconds an update that only says that a seat committed its choice may wait (at the
    /// connections other than the actor's) for other frames to the same connection, to leave
    /// in one write (docs/protocol.md "When frames are
    /// sent"); 0: every frame is written at once.
    #[arg(long, default_value_t = server::SEND_WINDOW_MS)]
    send_window_ms: u64,
    /// Create the database in an existing empty file (a missing file is always created; a file
    /// that is not a robodrome database is always refused).
    #[arg(long)]
    init: bool,
    /// Days a guest token stays valid after it was issued.
    #[arg(long, default_value_t = 30)]
    token_days: u64,
    /// The server's public URL (e.g. https://robodrome.example): its origin is accepted on
    /// WebSocket handshakes, and https makes the guest cookie Secure.
    #[arg(long)]
    public_url: Option<String>,
    /// Quotas, caps and timeouts (docs/security.md, "Limits").
    #[command(flatten)]
    limits: server::limits::Limits,
    /// The ceiling of one bot decision's thinking time in milliseconds: `search:Nms` above it
    /// is refused, and every bot decision stops at it (docs/security.md).
    #[arg(long, default_value_t = 2000)]
    max_bot_ms: u64,
    /// The most simulations a `search:N` bot may ask for.
    #[arg(long, default_value_t = 100_000)]
    max_bot_simulations: u32,
    /// Offer every registered game in the lobby, the toy game included (docs/protocol.md).
    #[arg(long)]
    all_games: bool,
    /// Run as one node of several on one PostgreSQL database (`--db postgres://…`), named
    /// NAME (a random suffix is added per process): games owned by leases, taken over from
    /// dead nodes, sockets forwarded to a game's owner (docs/deployment.md "Several nodes").
    #[arg(long, value_name = "NAME")]
    node_id: Option<String>,
    /// The address other nodes reach this one at (host:port; default: the listening address).
    #[arg(long, value_name = "HOST:PORT")]
    advertise: Option<String>,
    /// How long a node's game lease lasts without renewal, in milliseconds (renewed every
    /// quarter of it; a dead node's games move after about this long).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(400..=600_000))]
    lease_ms: u64,
    /// Redis between the nodes (redis://[:PASSWORD@]HOST:PORT[/DB]): required with
    /// `--node-id`. Spectators of a game another node owns are served from its public frames
    /// there; chat, notices, presence, the lobby's version and quotas are shared through it
    /// (docs/deployment.md "What the nodes share through Redis").
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
}

#[derive(Args)]
struct SoakArgs {
    #[command(flatten)]
    soak: server::soak::Args,
    /// Also fail when memory was not flat after the warm-up (docs/security.md "Soak").
    #[arg(long)]
    memory_check: bool,
}

#[derive(Args)]
struct TournamentArgs {
    /// The game (`robodrome board list` lists every game); two seats.
    #[arg(long)]
    game: String,
    #[command(flatten)]
    setup: SetupArgs,
    /// Comma-separated bots: random, heuristic, search:N (N simulations per decision),
    /// search:Nms, search:NxT (T threads), search:N:share=S (S of 256 playout steps heuristic,
    /// 0 to 256; default 128).
    #[arg(long, value_delimiter = ',', default_value = "random,heuristic")]
    bots: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core); the results are the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the win-rate matrix as SVG to this file.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// How a game is set up from the command line (`sim`, `tournament`): each game checks and
/// interprets these through the registry.
#[derive(Args)]
struct SetupArgs {
    /// A shipped board, course or track (`robodrome board list`; default: the game's own).
    #[arg(long, visible_aliases = ["course", "track"])]
    board: Option<String>,
    /// Optional rules, comma-separated (Autoscooter: wild_car, jolting, colour_scoring,
    /// per_car_scoring; RoboRally: lives4, full_ranking; Bumping Bots: choose_cards).
    #[arg(long, value_delimiter = ',')]
    variants: Vec<String>,
    /// A game option, `KEY` (true) or `KEY=VALUE` (a JSON value), repeatable: Autoscooter
    /// `beginners`, Bumping Bots `laps=N`, RoboRally `max_turns=N` (sim: the turn cap).
    #[arg(long = "option", short = 'o', value_name = "KEY[=VALUE]")]
    options: Vec<String>,
    /// Shorthand of `--option beginners` (Autoscooter: two players with 3 cars each).
    #[arg(long)]
    beginners: bool,
    /// Shorthand of `--option laps=N` (Bumping Bots).
    #[arg(long)]
    laps: Option<u8>,
    /// Shorthand of `--option max_turns=N` (RoboRally sim: stop a game after N turns).
    #[arg(long)]
    max_turns: Option<u32>,
}

impl SetupArgs {
    fn request(&self, players: usize) -> Result<SetupRequest, String> {
        let mut variants = serde_json::Map::new();
        for v in self.variants.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
            variants.insert(v.to_string(), serde_json::Value::Bool(true));
        }
        let mut options = serde_json::Map::new();
        for o in &self.options {
            let (k, v) = match o.split_once('=') {
                Some((k, v)) => (
                    k.trim(),
                    serde_json::from_str(v.trim())
                        .unwrap_or_else(|_| serde_json::Value::String(v.trim().to_string())),
                ),
                None => (o.trim(), serde_json::Value::Bool(true)),
            };
            options.insert(k.to_string(), v);
        }
        if self.beginners {
            options.insert("beginners".into(), true.into());
        }
        if let Some(l) = self.laps {
            options.insert("laps".into(), l.into());
        }
        if let Some(t) = self.max_turns {
            options.insert("max_turns".into(), t.into());
        }
        Ok(SetupRequest {
            players,
            board: self.board.clone(),
            variants: (!variants.is_empty()).then_some(serde_json::Value::Object(variants)),
            options: (!options.is_empty()).then_some(serde_json::Value::Object(options)),
        })
    }
}

#[derive(Args)]
struct SimArgs {
    /// The game (`robodrome board list` lists every game).
    game: String,
    /// Players (default: the game's own); `--robots` is an alias.
    #[arg(long, visible_alias = "robots")]
    players: Option<usize>,
    #[command(flatten)]
    setup: SetupArgs,
    /// Number of games (default: the game's own); `--races` is an alias.
    #[arg(long, visible_alias = "races")]
    games: Option<u64>,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots by seat, comma-separated and repeated over the seats: random, heuristic, search:N,
    /// search:Nms, search:NxT, search:N:share=S (the playout's heuristic share, 0 to 256 of 256;
    /// default 128) (`--strengths` is an alias; a number here is the player count, as Bumping Bots' old
    /// `--bots 9` had it).
    #[arg(long, value_delimiter = ',', visible_alias = "strengths")]
    bots: Vec<String>,
    /// Threads playing the games (default: every core). The summary is the same for any
    /// number: game i is seeded with seed + i and the figures are added up in game order.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Simulate championships of RACES races instead of single games (a game that has them
    /// registers `GAME-championship`: Bumping Bots, BB-11); the summary gives the standings.
    #[arg(long, value_name = "RACES")]
    championship: Option<u8>,
    /// With `--championship`: team scoring (Bumping Bots BB-11.3: 4, 6, 8 or 9 bots).
    #[arg(long, requires = "championship")]
    teams: bool,
}

#[derive(Subcommand)]
enum BoardCommand {
    /// List the shipped boards of every game.
    List,
    /// Draw a board or course as SVG: a file of yours, a shipped one, or the Autoscooter chart.
    Render {
        /// The game (`robodrome board list`).
        game: String,
        /// A board file, a shipped board's name (`robodrome board list`), or `chart` for the
        /// Autoscooter car chart.
        name: String,
        /// Where to write the SVG (standard output if absent).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Check a board file (a RoboRally course or piece, a Bumping Bots track, an Autoscooter
    /// rink): every error and warning with its line and column, and the rule it comes from.
    ///
    /// Exit status: 0 no error (warnings allowed); 1 errors found; 2 the file cannot be read or
    /// its game not told.
    Check {
        /// The board file.
        file: PathBuf,
        /// The game (found from the file's first keyword when absent).
        #[arg(long)]
        game: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Scenario { file, view } => scenario(&file, view),
        Command::Sim(a) => sim(a),
        Command::Bench { seconds } => bench(seconds),
        Command::Board(b) => board(b),
        Command::Tournament(t) => tournament(t),
        Command::Serve(a) => {
            #[cfg(any(
                feature = "heap-stats",
                all(feature = "jemalloc", not(target_env = "msvc"))
            ))]
            server::metrics::set_heap_probe(heap_gauges);
            let config = server::Config {
                addr: a.addr,
                db: a.db,
                grace: std::time::Duration::from_secs(a.grace_secs),
                bot_delay: std::time::Duration::from_millis(a.bot_delay_ms),
                threads: a.threads,
                current_thread: a.current_thread,
                direct_writes: a.direct_writes,
                send_window: std::time::Duration::from_millis(a.send_window_ms),
                init: a.init,
                token_ttl: std::time::Duration::from_secs(a.token_days.saturating_mul(86_400)),
                public_url: a.public_url,
                limits: a.limits,
                max_bot_ms: a.max_bot_ms,
                max_bot_simulations: a.max_bot_simulations,
                all_games: a.all_games,
                redis: a.redis.as_deref().map(server::bus::RedisConfig::new),
                cluster: a.node_id.map(|node| server::cluster::ClusterConfig {
                    node,
                    advertise: a.advertise,
                    lease_ms: a.lease_ms,
                    ..Default::default()
                }),
                ..Default::default()
            };
            match (&config.cluster, &config.redis) {
                (Some(_), None) => {
                    return fail("serve: --node-id needs --redis redis://HOST:PORT (the nodes share spectators, chat, notices and quotas through it: docs/deployment.md)".to_string());
                }
                (None, Some(_)) => {
                    return fail("serve: --redis is for the nodes of a cluster (--node-id); one server needs no Redis".to_string());
                }
                _ => {}
            }
            if let Some(u) = &config.public_url
                && server::http::origin_of(u).is_none()
            {
                return fail(format!("serve: --public-url {u:?} is not a URL like https://host"));
            }
            match server::serve_blocking(config) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(format!("serve: {e}")),
            }
        }
        Command::Chaos(a) => match server::chaos::run_blocking(a) {
            Ok(report) => {
                report.print();
                if report.failures.is_empty() {
                    println!("chaos: passed");
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => fail(format!("chaos: {e}")),
        },
        Command::Bot(a) => match bot_client::run(a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(format!("bot: {e}")),
        },
        Command::Loadtest(a) => match server::loadtest::run_blocking(a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(format!("loadtest: {e}")),
        },
        Command::Soak(a) => match server::soak::run_blocking(a.soak) {
            Ok(report) => {
                report.print();
                let failures = report.failures(a.memory_check);
                for f in &failures {
                    println!("FAILED: {f}");
                }
                if failures.is_empty() {
                    println!("soak: passed");
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => fail(format!("soak: {e}")),
        },
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("robodrome: {msg}");
    ExitCode::from(2)
}

fn scenario(file: &PathBuf, view: Option<u8>) -> ExitCode {
    let bytes = if file.as_os_str() == "-" {
        let mut b = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut b) {
            return fail(format!("scenario: cannot read standard input: {e}"));
        }
        b
    } else {
        match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => return fail(format!("scenario: cannot read {}: {e}", file.display())),
        }
    };
    match scenario::run_with_view(&bytes, view.map(engine::Seat)) {
        Ok(out) => {
            print!("{}", out.stdout);
            ExitCode::from(out.exit as u8)
        }
        Err(e) => fail(format!("scenario: {}: {e}", file.display())),
    }
}

/// Every core of the machine (`--jobs`'s default).
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A game of the registry by name, or a message listing them.
fn kind(name: &str) -> Result<&'static Kind, String> {
    let r = Registry::everything();
    r.get(name).ok_or_else(|| r.unknown(name))
}

fn sim(a: SimArgs) -> ExitCode {
    let name = match a.championship {
        None => a.game.clone(),
        Some(_) => format!("{}-championship", a.game),
    };
    let kind = match kind(&name) {
        Ok(k) => k,
        Err(_) if a.championship.is_some() && kind(&a.game).is_ok() => {
            return fail(format!("{} has no championships", a.game));
        }
        Err(e) => return fail(e),
    };
    // A number among the bots is the player count (the old `sim bumping-bots --bots 9`).
    let (counts, names): (Vec<&String>, Vec<&String>) =
        a.bots.iter().partition(|b| b.trim().parse::<usize>().is_ok());
    let players = a
        .players
        .or_else(|| counts.last().and_then(|c| c.trim().parse().ok()))
        .unwrap_or(kind.info.sim_players);
    let names: Vec<String> = names.into_iter().cloned().collect();
    let bots = match parse_bots(&names) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let mut setup = match a.setup.request(players) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(races) = a.championship {
        let mut options = match setup.options.take() {
            Some(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        options.insert("races".into(), races.into());
        if a.teams {
            options.insert("teams".into(), true.into());
        }
        setup.options = Some(serde_json::Value::Object(options));
    }
    let games = a.games.unwrap_or(kind.info.sim_games);
    let jobs = a.jobs.map_or_else(all_cores, usize::from);
    let req = games::sim::Request { setup, games, seed: a.seed, bots, jobs };
    let bar = if !a.json && games >= 2_000 {
        let b = ProgressBar::new(games);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg} [{bar:40}] {pos}/{len} games ({per_sec}, {eta} left)",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        b.set_message(kind.name());
        b
    } else {
        ProgressBar::hidden()
    };
    let report = kind.sim(&req, &|n| bar.set_position(n));
    bar.finish_and_clear();
    match report {
        Ok(r) if a.json => {
            println!("{}", serde_json::to_string_pretty(&r.json).expect("summaries serialise"));
            ExitCode::SUCCESS
        }
        Ok(r) => {
            print!("{}", r.text);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

fn bench(seconds: f64) -> ExitCode {
    use std::time::{Duration, Instant};
    let budget = Duration::from_secs_f64(seconds.max(0.1));
    println!("random full games, one core, {seconds} s each:");
    for kind in Registry::everything().kinds() {
        let (name, mut one) = match kind.bench() {
            Ok(b) => b,
            Err(e) => return fail(format!("{}: {e}", kind.name())),
        };
        // Repeat `one` (which plays a game and returns its action count) for the time budget.
        let (mut games, mut actions) = (0u64, 0u64);
        let t = Instant::now();
        while t.elapsed() < budget {
            for _ in 0..20 {
                actions += one(games);
                games += 1;
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "  {name:<46} {:>10.0} games/s  {:>12.0} actions/s",
            games as f64 / s,
            actions as f64 / s
        );
    }
    ExitCode::SUCCESS
}

fn board(b: BoardCommand) -> ExitCode {
    match b {
        BoardCommand::List => {
            for k in Registry::everything().kinds() {
                let mut names: Vec<String> =
                    k.info.boards.iter().map(|b| format!("{} ({})", b.id, b.title)).collect();
                names.extend(k.extra_pictures().iter().map(|p| format!("{p} (a picture)")));
                if names.is_empty() {
                    names.push("(no boards)".into());
                }
                println!("{}: {}", k.name(), names.join(", "));
            }
            ExitCode::SUCCESS
        }
        BoardCommand::Check { file, game } => board_check(&file, game.as_deref()),
        BoardCommand::Render { game, name, out } => {
            let kind = match kind(&game) {
                Ok(k) => k,
                Err(e) => return fail(e),
            };
            // A path to a board file, or the name of a shipped board.
            let file = std::path::Path::new(&name);
            let text = if file.is_file() {
                match std::fs::read_to_string(file) {
                    Ok(t) => Some(t),
                    Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
                }
            } else {
                None
            };
            if let Some(t) = &text {
                // The checker's warnings; its errors refuse the file in `render` below.
                for w in kind.check(t).iter().filter(|f| !f.is_error()) {
                    eprintln!("{name}: {w}");
                }
            }
            let svg = match kind.render(&name, text.as_deref()) {
                Ok(svg) => svg,
                Err(e) => return fail(e),
            };
            match out {
                Some(path) => {
                    if let Err(e) = std::fs::write(&path, svg) {
                        return fail(format!("cannot write {}: {e}", path.display()));
                    }
                    eprintln!("wrote {}", path.display());
                }
                None => print!("{svg}"),
            }
            ExitCode::SUCCESS
        }
    }
}

/// `board check FILE`: print every finding as `FILE:LINE:COLUMN: severity: message (rule)`.
fn board_check(file: &std::path::Path, game: Option<&str>) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
    };
    let kind = match game {
        Some(g) => match kind(g) {
            Ok(k) => k,
            Err(e) => return fail(e),
        },
        None => match Registry::everything().recognising(&text).as_slice() {
            [k] => *k,
            _ => {
                return fail(format!(
                    "cannot tell the game of {} from its first line: say --game ({})",
                    file.display(),
                    Registry::everything().names().join(", ")
                ));
            }
        },
    };
    let findings = kind.check(&text);
    for f in &findings {
        let place = f.place.map_or(String::new(), |p| format!("{}:{}:", p.line, p.column));
        let rule = if f.rule.is_empty() { String::new() } else { format!(" ({})", f.rule) };
        println!("{}:{place} {}: {}{rule}", file.display(), f.severity.name(), f.message);
    }
    let errors = findings.iter().filter(|f| f.is_error()).count();
    let warnings = findings.len() - errors;
    eprintln!(
        "{}: {} {}: {errors} error(s), {warnings} warning(s)",
        file.display(),
        kind.name(),
        kind.info.board_noun
    );
    if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn parse_bots(names: &[String]) -> Result<Vec<bots::BotSpec>, String> {
    names.iter().map(|b| b.parse::<bots::BotSpec>()).collect()
}

fn tournament(t: TournamentArgs) -> ExitCode {
    let specs = match parse_bots(&t.bots) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if specs.len() < 2 {
        return fail("a tournament needs at least two bots (--bots random,heuristic)");
    }
    let jobs = t.jobs.map_or_else(all_cores, usize::from);
    let kind = match kind(&t.game) {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let setup = match t.setup.request(2).and_then(|r| kind.make_setup(&r)) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let report = match tournament::run(kind, &setup, &specs, t.games, t.seed, jobs, !t.json) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if t.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("reports serialise"));
    } else {
        tournament::print(&report);
    }
    if let Some(path) = t.plot {
        if let Err(e) = std::fs::write(&path, tournament::svg(&report)) {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
