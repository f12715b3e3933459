//! `volley serve`: the game server, with the web client, on this machine.

use super::Outcome;
use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;
use volley_server::{Limits, NotifyConfig, ServerBuilder, Smtp};

/// Serve games in the browser: open the printed address, pick a scenario, and play against
/// the computer, at one screen with a friend, or online with an invite link.
///
/// Games are kept in a SQLite file (created readable by its owner only); every accepted
/// action is written before it is acknowledged, so stopping the server (even killing it)
/// loses nothing, and games resume where they were when it starts again. The HTTP API is
/// described in docs/API.md.
///
/// The limits keep one client from taking the server down: a client is an IP address, and a
/// request over a limit is answered at once (429 for one client asking too much, 503 when
/// the server is full) with a sentence saying which. The defaults suit a club server on a
/// small machine; behind a reverse proxy every player shares the proxy's address, so raise
/// the per-client limits there.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley serve
  volley serve --addr 127.0.0.1:9000 --db games/volley.db
  volley serve --db sqlite:/var/lib/volley/volley.db --bot-ms-max 5000 --keep-finished-days 365
  volley serve --smtp localhost:25 --mail-from volley@club.example --public-url https://volley.club.example/
  RUST_LOG=volley_server=debug volley serve --log-format json   # for a log collector

The server logs what goes wrong (a stored game it cannot read, a failed webhook, a bot that
fails) and what it does to the database, on standard error. RUST_LOG chooses how much
(error, warn, info, debug; per module as in RUST_LOG=volley_server=debug); the default is
info.")]
pub struct Args {
    /// How the log is written: text for people, or json (one object a line) for a log
    /// collector.
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file path, or sqlite:PATH.
    #[arg(long, default_value = "volley.db")]
    db: String,
    /// The mail relay that "your turn" e-mails go out through, as HOST:PORT (plain SMTP, as
    /// a mail server on this machine or the local network takes it). Without it, players
    /// can still be told by webhook.
    #[arg(long, help_heading = "Notifications")]
    smtp: Option<String>,
    /// The address "your turn" e-mails come from.
    #[arg(
        long,
        default_value = "volley@localhost",
        help_heading = "Notifications"
    )]
    mail_from: String,
    /// The address players open this server at (e.g. https://volley.example.org/), for the
    /// link in "your turn" messages.
    #[arg(long, help_heading = "Notifications")]
    public_url: Option<String>,
    /// The longest the computer may think for one decision, in milliseconds (a game asking
    /// for `mcts:ms=…` above it is refused).
    #[arg(long, default_value_t = Limits::default().bot_ms_max, help_heading = "Limits")]
    bot_ms_max: u64,
    /// Threads one computer player may think with.
    #[arg(long, default_value_t = Limits::default().bot_threads_max, help_heading = "Limits")]
    bot_threads_max: usize,
    /// Computer players thinking at once over all games (default: four per core); the others
    /// wait their turn.
    #[arg(long, help_heading = "Limits")]
    bots_at_once: Option<usize>,
    /// Games one client may create in an hour (a tenth of them at once).
    #[arg(long, default_value_t = Limits::default().games_per_client_per_hour, help_heading = "Limits")]
    games_per_hour: u32,
    /// Unfinished games the server keeps in all; past it, new games are refused.
    #[arg(long, default_value_t = Limits::default().open_games_max, help_heading = "Limits")]
    open_games_max: usize,
    /// Live connections to one game's updates (WebSockets).
    #[arg(long, default_value_t = Limits::default().sockets_per_game, help_heading = "Limits")]
    sockets_per_game: usize,
    /// Live WebSockets one client may hold.
    #[arg(long, default_value_t = Limits::default().sockets_per_client, help_heading = "Limits")]
    sockets_per_client: usize,
    /// Live WebSockets in all.
    #[arg(long, default_value_t = Limits::default().sockets_max, help_heading = "Limits")]
    sockets_max: usize,
    /// Odds requests one client may have running or waiting.
    #[arg(long, default_value_t = Limits::default().odds_per_client, help_heading = "Limits")]
    odds_per_client: usize,
    /// Open connections one client may hold.
    #[arg(long, default_value_t = Limits::default().connections_per_client, help_heading = "Limits")]
    connections_per_client: usize,
    /// Open connections in all.
    #[arg(long, default_value_t = Limits::default().connections_max, help_heading = "Limits")]
    connections_max: usize,
    /// Seconds a client has to send a request's headers before it is cut off.
    #[arg(long, default_value_t = Limits::default().header_timeout.as_secs(), help_heading = "Limits")]
    header_timeout: u64,
    /// Days a finished game is kept after its last move (for replays and downloads).
    #[arg(long, default_value_t = Limits::default().keep_finished.as_secs() / 86_400, help_heading = "Limits")]
    keep_finished_days: u64,
    /// Days an unfinished game nobody plays is kept.
    #[arg(long, default_value_t = Limits::default().keep_abandoned.as_secs() / 86_400, help_heading = "Limits")]
    keep_abandoned_days: u64,
}

impl Args {
    fn limits(&self) -> Limits {
        let d = Limits::default();
        Limits {
            bot_ms_max: self.bot_ms_max,
            bot_threads_max: self.bot_threads_max.max(1),
            bots_at_once: self.bots_at_once.unwrap_or(d.bots_at_once).max(1),
            games_per_client_per_hour: self.games_per_hour,
            open_games_max: self.open_games_max,
            sockets_per_game: self.sockets_per_game,
            sockets_per_client: self.sockets_per_client,
            sockets_max: self.sockets_max,
            odds_per_client: self.odds_per_client,
            connections_per_client: self.connections_per_client,
            connections_max: self.connections_max,
            header_timeout: Duration::from_secs(self.header_timeout.max(1)),
            keep_finished: Duration::from_secs(self.keep_finished_days * 86_400),
            keep_abandoned: Duration::from_secs(self.keep_abandoned_days * 86_400),
            ..d
        }
    }
}

/// How the server's log is written.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The server's log on standard error, filtered by RUST_LOG (default: info).
fn start_log(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    // A second start (tests call run twice in one process) keeps the first.
    let _ = match format {
        LogFormat::Text => log.try_init(),
        LogFormat::Json => log.json().try_init(),
    };
}

pub fn run(args: Args) -> Outcome {
    start_log(args.log_format);
    let smtp = args
        .smtp
        .as_deref()
        .map(|relay| Smtp::parse(relay, &args.mail_from))
        .transpose()?;
    let builder = ServerBuilder::new(args.db.clone())
        .addr(args.addr)
        .limits(args.limits())
        .notify(NotifyConfig {
            smtp,
            public_url: args.public_url.clone(),
        });
    volley_server::serve_until_ctrl_c(builder, |addr| {
        let mut out = std::io::stdout().lock();
        // Scripts read this line to find the port; it goes out at once.
        let _ = writeln!(out, "Volley is serving at http://{addr}/ (Ctrl-C stops it)");
        let _ = out.flush();
    })?;
    Ok(())
}
