//! `volley apply`: make a move and save the game.

use super::{capitalised, event_line, line, open_game, save_game, stdout, Failure, Outcome};
use crate::render;
use std::io::Write;
use std::path::PathBuf;

/// Apply one action for the side to decide, print what happened, and save the game.
///
/// ACTION is written as `volley legal` prints it. An illegal action changes nothing: the
/// file stays exactly as it was. --dice forces the next die results, in order (to re-enact
/// rolls made at a real table); any further rolls come from the game's own dice.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley apply game.json \"$(volley legal game.json | head -n 1)\"
  volley apply game.json \"<action>\" --dice 6,2")]
pub struct Args {
    /// The saved game; rewritten only when the action is applied.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// The action, as `volley legal` prints it.
    action: String,
    /// Die results to use for the action's first rolls, comma-separated (e.g. 6,2).
    #[arg(long, value_name = "N,N,...")]
    dice: Option<String>,
}

pub fn run(args: Args) -> Outcome {
    let forced = match &args.dice {
        Some(text) => parse_dice(text)?,
        None => Vec::new(),
    };
    let mut session = open_game(&args.game)?;
    let Some(side) = session.game.to_decide() else {
        return Err(Failure::Message(format!(
            "{}: the game is over; no more actions can be applied",
            args.game.display()
        )));
    };
    let events = session.apply_text(&args.action, &forced).map_err(|e| {
        format!(
            "{}: cannot apply \"{}\": {e}\n(the file is unchanged; `volley legal {}` lists the legal actions)",
            args.game.display(),
            args.action,
            args.game.display()
        )
    })?;
    save_game(&args.game, &session)?;
    let mut out = stdout();
    for e in events.iter().filter(|e| e.event.seen.by(side)) {
        line(&mut out, &event_line(e))?;
    }
    match session.game.to_decide() {
        Some(next) => line(&mut out, &format!("{} to decide.", capitalised(next)))?,
        None => out.write_all(render::state_of_play(&session.game.view(None)).as_bytes())?,
    }
    out.flush()?;
    Ok(())
}

/// `6,2` → [6, 2]; whether each fits its die is checked when the action rolls.
fn parse_dice(text: &str) -> Result<Vec<u32>, Failure> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            part.parse::<u32>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| {
                    Failure::Message(format!(
                        "--dice \"{text}\": \"{part}\" is not a die result (expected whole numbers from 1, comma-separated, e.g. --dice 6,2)"
                    ))
                })
        })
        .collect()
}
