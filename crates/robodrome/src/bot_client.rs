//! `robodrome bot`: the Bot API's reference client (`server::bot_client`, docs/protocol.md
//! "Bot API").

use clap::Args;

/// Play as a bot account through the Bot API.
#[derive(Args)]
pub struct BotArgs {
    /// The server, `http://HOST:PORT`.
    #[arg(long)]
    pub server: String,
    /// The bot account's API token (`POST /api/bots` shows it once).
    #[arg(long)]
    pub token: String,
    /// The bot that plays: `random`, `heuristic`, `search:N` or `search:Nms` (robodrome's bots,
    /// thinking on a state the game crate rebuilds from the seat's view; where a game or a
    /// stage cannot be rebuilt from a view, a legal action drawn from the view).
    #[arg(long, default_value = "random")]
    pub bot: String,
    /// Accept challenges for these games only (comma-separated; default: every game the
    /// client plays: autoscooter, roborally, bumping-bots); others are declined.
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Stop after this many games are over (default: run until stopped).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Seed of the client's own random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(a: BotArgs) -> Result<(), String> {
    let opts = server::bot_client::Options {
        games: a.games,
        max_games: a.max_games,
        bot: a.bot,
        seed: a.seed,
    };
    server::bot_client::run_blocking(&a.server, &a.token, opts).map_err(|e| e.to_string())
}
