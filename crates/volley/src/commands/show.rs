//! `volley show`: the position as one side sees it.

use super::{open_game, stdout, viewer, Outcome, SideArg};
use crate::render;
use std::io::Write;
use std::path::PathBuf;

/// Show the position: a hex map, the units, the phase and turn, whose decision it is, and
/// each side's losses against its break point.
///
/// By default you see what the side to decide may see (the player holding the file);
/// --side shows another side's view, and --referee everything, hidden units included.
/// Once the game is over the default is everything.
///
/// On the map red units are UPPERCASE and blue lowercase, each with its arm symbol and an
/// arrow for its facing; ? is an unidentified enemy marker and * an objective.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley show game.json
  volley show game.json --side blue
  volley show game.json --referee --json | jq '.units[].hex'")]
pub struct Args {
    /// The saved game.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// Show what this side may see.
    #[arg(long, value_enum, conflicts_with = "referee")]
    side: Option<SideArg>,
    /// Show everything, hidden units included.
    #[arg(long)]
    referee: bool,
    /// Print the view as JSON (the same shape clients draw).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let session = open_game(&args.game)?;
    let view = session.game.view(viewer(&session, args.side, args.referee));
    let mut out = stdout();
    if args.json {
        let text = serde_json::to_string_pretty(&view).expect("views serialise");
        writeln!(out, "{text}")?;
    } else {
        out.write_all(render::position(&view).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
