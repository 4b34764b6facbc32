use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Robodrome: RoboRally, Autoscooter and Bumping Bots.
#[derive(Parser)]
#[command(name = "robodrome", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario file and print the position after its last action as JSON.
    ///
    /// Exit status: 0 every action applied; 2 the file is not valid JSON or does not fit the
    /// schema (message on standard error); 3 an action was illegal (the position before it is
    /// printed, with an `error` object).
    Scenario {
        /// The scenario file, or `-` for standard input.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Scenario { file } => scenario(&file),
    }
}

fn scenario(file: &PathBuf) -> ExitCode {
    let bytes = if file.as_os_str() == "-" {
        let mut b = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut b) {
            eprintln!("robodrome scenario: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
        b
    } else {
        match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("robodrome scenario: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    };
    match scenario::run(&bytes) {
        Ok(out) => {
            print!("{}", out.stdout);
            ExitCode::from(out.exit as u8)
        }
        Err(e) => {
            eprintln!("robodrome scenario: {}: {e}", file.display());
            ExitCode::from(2)
        }
    }
}
