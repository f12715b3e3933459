//! `volley log`: the game's events so far.

use super::{event_json, event_line, line, open_game, stdout, viewer, Outcome, SideArg};
use std::io::Write;
use std::path::PathBuf;

/// Print the event log: every roll and result with the rule it came from.
///
/// Text lines read `SEQ TURN [rule] text`. With --json, one JSON object a line (JSON Lines)
/// with seq, turn, side, kind, rule, text and seen — the same lines `volley play --json`
/// prints. Like `volley show`, you see what the side to decide may see unless you give
/// --side or --referee.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley log game.json
  volley log game.json --referee --json | jq -r 'select(.kind == \"fire\") | .text'")]
pub struct Args {
    /// The saved game.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// Show the events this side may see.
    #[arg(long, value_enum, conflicts_with = "referee")]
    side: Option<SideArg>,
    /// Show every event, hidden ones included.
    #[arg(long)]
    referee: bool,
    /// One JSON object a line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let session = open_game(&args.game)?;
    // A side's events are numbered as that side counts them (the gaps would tell it how
    // much it does not see); the referee's are the whole log's.
    let events = match viewer(&session, args.side, args.referee) {
        Some(side) => session.events_for(side, 0),
        None => session.log.clone(),
    };
    let mut out = stdout();
    for e in &events {
        let text = if args.json {
            event_json(e)
        } else {
            format!("{:>5} {:>3} {}", e.seq, e.turn, event_line(e))
        };
        line(&mut out, &text)?;
    }
    out.flush()?;
    Ok(())
}
