//! `volley serve`: the game server, with the web client, on this machine.

use super::Outcome;
use std::io::Write;
use std::net::SocketAddr;

/// Serve games in the browser: open the printed address, pick a scenario, and play against
/// the computer, at one screen with a friend, or online with an invite link.
///
/// Games are kept in a SQLite file; every accepted action is written before it is
/// acknowledged, so stopping the server (even killing it) loses nothing, and games resume
/// where they were when it starts again. The HTTP API is described in docs/API.md.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley serve
  volley serve --addr 127.0.0.1:9000 --db games/volley.db
  volley serve --db sqlite:/var/lib/volley/volley.db")]
pub struct Args {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file path, or sqlite:PATH.
    #[arg(long, default_value = "volley.db")]
    db: String,
}

pub fn run(args: Args) -> Outcome {
    volley_server::serve_until_ctrl_c(args.addr, &args.db, |addr| {
        let mut out = std::io::stdout().lock();
        // Scripts read this line to find the port; it goes out at once.
        let _ = writeln!(out, "Volley is serving at http://{addr}/ (Ctrl-C stops it)");
        let _ = out.flush();
    })?;
    Ok(())
}
