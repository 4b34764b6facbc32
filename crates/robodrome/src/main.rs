//! The `robodrome` command: scenarios, simulations, benchmarks, boards.

mod sim;
mod sim_autoscooter;
mod sim_others;
mod tournament;

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
        /// Also print the engine's view for this seat (0-based) as `view` and the game's
        /// static part as `static`: the JSON a client is sent in that position.
        #[arg(long, value_name = "SEAT")]
        view: Option<u8>,
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
    /// Pit bots against each other: every pairing, seats rotated, wins with 95% intervals, Elo.
    Tournament(TournamentArgs),
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
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
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
}

#[derive(Args)]
struct TournamentArgs {
    /// The game: autoscooter, roborally or bumping-bots (two seats).
    #[arg(long)]
    game: String,
    /// RoboRally: the course.
    #[arg(long, default_value = "first-steps")]
    course: String,
    /// Bumping Bots: the track.
    #[arg(long, default_value = "oval")]
    track: String,
    /// Comma-separated bots: random, heuristic, search:N (N simulations per decision).
    #[arg(long, value_delimiter = ',', default_value = "random,heuristic")]
    bots: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also draw the win-rate matrix as SVG to this file.
    #[arg(long)]
    plot: Option<PathBuf>,
}

#[derive(Subcommand)]
enum SimCommand {
    /// Autoscooter: random legal plots and starts on the standard rink.
    Autoscooter(AsSim),
    /// RoboRally: programs on a shipped course.
    Roborally(RrSim),
    /// Bumping Bots: races on a shipped track.
    BumpingBots(BbSim),
}

#[derive(Args)]
struct RrSim {
    /// A shipped course (`robodrome board list`).
    #[arg(long, default_value = "first-steps")]
    course: String,
    /// Robots, 2 to 8.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=8))]
    robots: u8,
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bots by seat, comma-separated and repeated over the seats: random, heuristic, search:N.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    bots: Vec<String>,
    /// Stop a game after this many turns (random robots rarely reach every flag).
    #[arg(long, default_value_t = 100)]
    max_turns: u32,
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct BbSim {
    /// A shipped track (`robodrome board list`).
    #[arg(long, default_value = "oval")]
    track: String,
    /// Bots in each race, 2 to 9.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(2..=9))]
    bots: u8,
    /// Laps, 2 or 3.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    laps: u8,
    /// Races to run (points are added up as a championship, BB-11.1).
    #[arg(long, default_value_t = 100)]
    races: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who drives, by seat, comma-separated and repeated: random, heuristic, search:N.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    strengths: Vec<String>,
    #[arg(long)]
    json: bool,
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
    /// Bots by seat, comma-separated and repeated over the seats: random, heuristic, search:N.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    bots: Vec<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum BoardCommand {
    /// List the shipped boards of every game.
    List,
    /// Draw a board or course as SVG: a file of yours, a shipped one, or the Autoscooter chart.
    Render {
        /// `autoscooter`, `roborally` or `bumping-bots`.
        game: String,
        /// A board file, a shipped board's name (`robodrome board list`), or `chart` for the
        /// Autoscooter car chart.
        name: String,
        /// Where to write the SVG (standard output if absent).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Scenario { file, view } => scenario(&file, view),
        Command::Sim(SimCommand::Autoscooter(a)) => sim_autoscooter(a),
        Command::Sim(SimCommand::Roborally(a)) => sim_roborally(a),
        Command::Sim(SimCommand::BumpingBots(a)) => sim_bumping_bots(a),
        Command::Bench { seconds } => bench(seconds),
        Command::Board(b) => board(b),
        Command::Tournament(t) => tournament(t),
        Command::Serve(a) => {
            let config = server::Config {
                addr: a.addr,
                db: a.db,
                grace: std::time::Duration::from_secs(a.grace_secs),
                bot_delay: std::time::Duration::from_millis(a.bot_delay_ms),
                threads: a.threads,
                limits: a.limits,
                max_bot_ms: a.max_bot_ms,
                max_bot_simulations: a.max_bot_simulations,
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
                ));
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
    let bots = match parse_bots(&a.bots) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let summary = sim::run::<Autoscooter, sim_autoscooter::AutoscooterTally>(
        &setup, a.games, a.seed, &bots, !a.json, 100_000,
    );
    print_summary::<Autoscooter, _>(&summary, a.json);
    ExitCode::SUCCESS
}

fn print_summary<G: bots::HasBots, T: sim::Tally<G>>(summary: &sim::Summary<T>, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(summary).expect("summaries serialise"));
    } else {
        sim::print::<G, T>(summary);
    }
}

fn rr_setup(course: &str, robots: u8) -> Result<roborally::Setup, String> {
    if roborally::board::course::course_by_name(course).is_none() {
        let names: Vec<String> = roborally::board::course::shipped_courses()
            .iter()
            .map(|c| roborally::board::course::slug(&c.name))
            .collect();
        return Err(format!("no shipped course {course:?} (shipped: {})", names.join(", ")));
    }
    Ok(roborally::Setup::new_game(
        roborally::BoardSpec::Named(course.to_string()),
        robots,
        roborally::Variants::default(),
    ))
}

fn sim_roborally(a: RrSim) -> ExitCode {
    let setup = match rr_setup(&a.course, a.robots) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Err(e) = <roborally::RoboRally as engine::Game>::new(&setup, a.seed) {
        return fail(format!("this setup cannot start: {e}"));
    }
    let bots = match parse_bots(&a.bots) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    // A turn is at most a few dozen decisions: cap the actions accordingly.
    let cap = a.max_turns as usize * (a.robots as usize * 3 + 8);
    let summary = sim::run::<roborally::RoboRally, sim_others::RoboRallyTally>(
        &setup, a.games, a.seed, &bots, !a.json, cap,
    );
    print_summary::<roborally::RoboRally, _>(&summary, a.json);
    ExitCode::SUCCESS
}

fn bb_setup(track: &str, bots: u8, laps: u8) -> Result<bumping_bots::Setup, String> {
    let Some(mut spec) = bumping_bots::tracks::shipped(track) else {
        let names: Vec<&str> = bumping_bots::tracks::SHIPPED.iter().map(|(n, _)| *n).collect();
        return Err(format!("no shipped track {track:?} (shipped: {})", names.join(", ")));
    };
    spec.laps = laps;
    Ok(bumping_bots::Setup::race(spec, bots))
}

fn sim_bumping_bots(a: BbSim) -> ExitCode {
    let setup = match bb_setup(&a.track, a.bots, a.laps) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Err(e) = <bumping_bots::BumpingBots as engine::Game>::new(&setup, a.seed) {
        return fail(format!("this setup cannot start: {e}"));
    }
    let bots = match parse_bots(&a.strengths) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let summary = sim::run::<bumping_bots::BumpingBots, sim_others::BumpingBotsTally>(
        &setup, a.races, a.seed, &bots, !a.json, 1_000_000,
    );
    print_summary::<bumping_bots::BumpingBots, _>(&summary, a.json);
    ExitCode::SUCCESS
}

fn bench(seconds: f64) -> ExitCode {
    use engine::{Game, Rng, play_random};
    use std::time::{Duration, Instant};
    let budget = Duration::from_secs_f64(seconds.max(0.1));
    println!("random full games, one core, {seconds} s each:");
    // Repeat `one` (which plays a game and returns its action count) for the time budget.
    let measure = |name: &str, one: &mut dyn FnMut(u64) -> u64| {
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
    };
    let setup = AsSetup::standard(8, false, AsVariants::default()).expect("standard setup");
    let start = Autoscooter::new(&setup, 1).expect("standard game");
    let mut rng = Rng::seeded(1);
    let mut events = Vec::with_capacity(512);
    measure("autoscooter, 8 cars, standard rink", &mut |_| {
        let mut g = start.clone();
        events.clear();
        play_random(&mut g, &mut rng, &mut events, 100_000) as u64
    });
    let course = roborally::board::course::course_by_name("dizzy-dash").expect("shipped course");
    measure("roborally, 4 robots, dizzy-dash (≤ 200 turns)", &mut |i| {
        roborally::random_game(&course, 4, i).map_or(0, |s| s.actions as u64)
    });
    let mut track = bumping_bots::tracks::shipped("factory").expect("shipped track");
    track.laps = 2;
    let racer = bumping_bots::tracks::RandomRacer::new(&track, 9, 2);
    measure("bumping-bots, 9 bots, 2 laps, factory", &mut |i| racer.race(i).actions as u64);
    ExitCode::SUCCESS
}

fn board(b: BoardCommand) -> ExitCode {
    match b {
        BoardCommand::List => {
            println!(
                "autoscooter: {} (and `chart`, the car chart)",
                autoscooter::BoardSpec::SHIPPED.join(", ")
            );
            let courses: Vec<String> = roborally::board::course::shipped_courses()
                .iter()
                .map(|c| format!("{} ({})", roborally::board::course::slug(&c.name), c.difficulty))
                .collect();
            println!("roborally: {}", courses.join(", "));
            let tracks: Vec<&str> = bumping_bots::tracks::SHIPPED.iter().map(|(n, _)| *n).collect();
            println!("bumping-bots: {}", tracks.join(", "));
            ExitCode::SUCCESS
        }
        BoardCommand::Render { game, name, out } => {
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
            let svg = match (game.as_str(), name.as_str(), text) {
                ("autoscooter", "chart", None) => autoscooter::svg::chart(),
                ("autoscooter", _, Some(t)) => {
                    match serde_json::from_str::<autoscooter::BoardSpec>(&t) {
                        Ok(spec) => match autoscooter::Board::new(&spec) {
                            Ok(_) => autoscooter::svg::rink(&spec),
                            Err(p) => return fail(format!("{name}: {}", p.join("; "))),
                        },
                        Err(e) => return fail(format!("{name}: {e}")),
                    }
                }
                ("autoscooter", n, None) => match autoscooter::BoardSpec::named(n) {
                    Some(spec) => autoscooter::svg::rink(&spec),
                    None => {
                        return fail(format!(
                            "no shipped Autoscooter board {n:?} (see `robodrome board list`)"
                        ));
                    }
                },
                ("roborally", _, Some(t)) => match roborally::board::course::load_text(&t) {
                    Ok(c) => roborally::render::render_svg(&c),
                    Err(e) => return fail(format!("{name}: {e}")),
                },
                ("roborally", n, None) => match roborally::board::course::course_by_name(n) {
                    Some(c) => roborally::render::render_svg(&c),
                    None => {
                        return fail(format!(
                            "no shipped RoboRally course {n:?} (see `robodrome board list`)"
                        ));
                    }
                },
                ("bumping-bots", _, Some(t)) => match bumping_bots::tracks::load(&t) {
                    Ok(spec) => bumping_bots::render_svg(&spec),
                    Err(e) => return fail(format!("{name}: {e}")),
                },
                ("bumping-bots", n, None) => match bumping_bots::tracks::shipped(n) {
                    Some(t) => bumping_bots::render_svg(&t),
                    None => {
                        return fail(format!(
                            "no shipped Bumping Bots track {n:?} (see `robodrome board list`)"
                        ));
                    }
                },
                (g, _, _) => {
                    return fail(format!(
                        "unknown game {g:?} (known: autoscooter, roborally, bumping-bots)"
                    ));
                }
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
    let jobs =
        t.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let report = match t.game.as_str() {
        "autoscooter" => {
            let setup = AsSetup::standard(2, false, AsVariants::default()).expect("two players");
            tournament::run::<Autoscooter>(&setup, &specs, t.games, t.seed, jobs, !t.json)
        }
        "roborally" => match rr_setup(&t.course, 2) {
            Ok(setup) => tournament::run::<roborally::RoboRally>(
                &setup, &specs, t.games, t.seed, jobs, !t.json,
            ),
            Err(e) => return fail(e),
        },
        "bumping-bots" => match bb_setup(&t.track, 2, 2) {
            Ok(setup) => tournament::run::<bumping_bots::BumpingBots>(
                &setup, &specs, t.games, t.seed, jobs, !t.json,
            ),
            Err(e) => return fail(e),
        },
        other => {
            return fail(format!(
                "unknown game {other:?} (known: autoscooter, roborally, bumping-bots)"
            ));
        }
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
