//! `volley legal`: the legal actions now.

use super::{line, open_game, stdout, Outcome};
use std::io::Write;
use std::path::PathBuf;

/// List the legal actions of the side to decide, one a line, in the notation `volley apply`
/// and `volley odds` take.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley legal game.json
  volley legal game.json --json | jq -r '.[0]'")]
pub struct Args {
    /// The saved game.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// Print a JSON array of strings.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let session = open_game(&args.game)?;
    let game = &session.game;
    let actions: Vec<String> = game
        .legal_actions()
        .into_iter()
        .map(|a| game.notation(a))
        .collect();
    let mut out = stdout();
    if args.json {
        line(
            &mut out,
            &serde_json::to_string(&actions).expect("strings serialise"),
        )?;
    } else if actions.is_empty() {
        eprintln!(
            "{}: the game is over; there is nothing to do",
            args.game.display()
        );
    } else {
        for a in &actions {
            line(&mut out, a)?;
        }
    }
    out.flush()?;
    Ok(())
}
