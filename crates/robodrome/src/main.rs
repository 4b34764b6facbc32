//! The `robodrome` command: scenarios, simulations, benchmarks, boards.

mod sim;
mod sim_autoscooter;

use autoscooter::{Autoscooter, Setup as AsSetup, Variants as AsVariants, WildCar};
use clap::{Args, Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

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
    },
    /// Play many random games and print a summary (games/s, scores, game-specific counts).
    #[command(subcommand)]
    Sim(SimCommand),
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
    /// Run the game server: lobby, WebSocket play and the browser client (see docs/protocol.md).
    Serve(ServeArgs),
    /// Open many WebSocket clients against a running server and report latency (docs/benchmarks.md).
    Loadtest(server::loadtest::Args),
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// The SQLite database file (created on first start).
    #[arg(long, default_value = "robodrome.db")]
    db: String,
    /// Seconds a player may be away before a bot plays for them.
    #[arg(long, default_value_t = 30)]
    grace_secs: u64,
    /// The least time in milliseconds a bot takes per decision.
    #[arg(long, default_value_t = 0)]
    bot_delay_ms: u64,
}

#[derive(Subcommand)]
enum SimCommand {
    /// Autoscooter: random legal plots and starts on the standard rink.
    Autoscooter(AsSim),
}

#[derive(Args)]
struct AsSim {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Players, 2 to 8 (cars and chits per player follow AS-1.3).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(2..=8))]
    players: u8,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Optional rules, comma-separated: wild_car, jolting, colour_scoring, per_car_scoring.
    #[arg(long, value_delimiter = ',')]
    variants: Vec<String>,
    /// Two players with 3 cars each instead of 4 (AS-1.3).
    #[arg(long)]
    beginners: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum BoardCommand {
    /// List the shipped boards of every game.
    List,
    /// Draw a shipped board (or the Autoscooter car chart, `chart`) as SVG.
    Render {
        /// `autoscooter`.
        game: String,
        /// A shipped board's name (`robodrome board list`), or `chart` for the car chart.
        name: String,
        /// Where to write the SVG (standard output if absent).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Scenario { file } => scenario(&file),
        Command::Sim(SimCommand::Autoscooter(a)) => sim_autoscooter(a),
        Command::Bench { seconds } => bench(seconds),
        Command::Board(b) => board(b),
        Command::Serve(a) => {
            let config = server::Config { addr: a.addr, db: a.db, grace: std::time::Duration::from_secs(a.grace_secs),
                bot_delay: std::time::Duration::from_millis(a.bot_delay_ms),
                ..Default::default()
            };
            match server::serve_blocking(config) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(format!("serve: {e}")),
            }
        }
        Command::Loadtest(a) => match server::loadtest::run_blocking(a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(format!("loadtest: {e}")),
        },
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("robodrome: {msg}");
    ExitCode::from(2)
}

fn scenario(file: &PathBuf) -> ExitCode {
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
    match scenario::run(&bytes) {
        Ok(out) => {
            print!("{}", out.stdout);
            ExitCode::from(out.exit as u8)
        }
        Err(e) => fail(format!("scenario: {}: {e}", file.display())),
    }
}

fn as_variants(names: &[String]) -> Result<AsVariants, String> {
    let mut v = AsVariants::default();
    for n in names {
        match n.trim() {
            "wild_car" => v.wild_car = Some(WildCar::Lowest(true)),
            "jolting" => v.jolting = true,
            "colour_scoring" => v.colour_scoring = true,
            "per_car_scoring" => v.per_car_scoring = true,
            "" => {}
            other => {
                return Err(format!(
                    "unknown Autoscooter variant {other:?} (known: wild_car, jolting, colour_scoring, per_car_scoring)"
                ))
            }
        }
    }
    Ok(v)
}

fn sim_autoscooter(a: AsSim) -> ExitCode {
    let variants = match as_variants(&a.variants) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let setup = match AsSetup::standard(a.players as usize, a.beginners, variants) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Err(e) = <Autoscooter as engine::Game>::new(&setup, a.seed) {
        return fail(format!("this setup cannot start: {e}"));
    }
    let summary = sim::run::<Autoscooter, sim_autoscooter::AutoscooterTally>(&setup, a.games, a.seed, !a.json);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary).expect("summaries serialise"));
    } else {
        sim::print::<Autoscooter, _>(&summary);
    }
    ExitCode::SUCCESS
}

fn bench(seconds: f64) -> ExitCode {
    use engine::{play_random, Game, Rng};
    use std::time::{Duration, Instant};
    let budget = Duration::from_secs_f64(seconds.max(0.1));
    println!("random full games, one core, {seconds} s each:");
    let setup = AsSetup::standard(8, false, AsVariants::default()).expect("standard setup");
    let start = Autoscooter::new(&setup, 1).expect("standard game");
    let mut rng = Rng::seeded(1);
    let mut events = Vec::with_capacity(512);
    let (mut games, mut actions) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed() < budget {
        for _ in 0..100 {
            let mut g = start.clone();
            events.clear();
            actions += play_random(&mut g, &mut rng, &mut events, 100_000) as u64;
            games += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "  autoscooter, 8 cars, standard rink: {:>10.0} games/s  {:>12.0} actions/s",
        games as f64 / s,
        actions as f64 / s
    );
    ExitCode::SUCCESS
}

fn board(b: BoardCommand) -> ExitCode {
    match b {
        BoardCommand::List => {
            println!("autoscooter: {} (and `chart`, the car chart)", autoscooter::BoardSpec::SHIPPED.join(", "));
            ExitCode::SUCCESS
        }
        BoardCommand::Render { game, name, out } => {
            let svg = match (game.as_str(), name.as_str()) {
                ("autoscooter", "chart") => autoscooter::svg::chart(),
                ("autoscooter", n) => match autoscooter::BoardSpec::named(n) {
                    Some(spec) => autoscooter::svg::rink(&spec),
                    None => return fail(format!("no shipped Autoscooter board {n:?} (see `robodrome board list`)")),
                },
                (g, _) => return fail(format!("unknown game {g:?} (known: autoscooter)")),
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
