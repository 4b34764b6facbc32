//! `robodrome loadtest`: many WebSocket clients against a running server.

/// Options of `robodrome loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
}

pub fn run_blocking(_args: Args) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    Err("not yet".into())
}
