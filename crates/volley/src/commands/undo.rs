//! `volley undo`: take back the last action, when the rules of the table allow it.

use super::{capitalised, line, open_game, save_game, stdout, Failure, Outcome};
use std::io::Write;
use std::path::PathBuf;

/// Take back the side to decide's last action and save the game.
///
/// Allowed while the decision is still that side's, for an action that rolled no dice and
/// showed nothing new of the enemy: what the dice said and what was seen stand. Run it again
/// to step further back, down to the last die roll or reveal. A refusal says why and leaves
/// the file unchanged.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley apply game.json \"move r1 0605\"
  volley undo game.json")]
pub struct Args {
    /// The saved game; rewritten only when an action is taken back.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
}

pub fn run(args: Args) -> Outcome {
    let mut session = open_game(&args.game)?;
    let Some(side) = session.game.to_decide() else {
        return Err(Failure::Message(format!(
            "{}: the game is over; nothing can be taken back",
            args.game.display()
        )));
    };
    let ruleset = volley_rulesets::find(session.game.ruleset())
        .ok_or_else(|| format!("{}: unknown ruleset", args.game.display()))?;
    let undone = session.undo(ruleset, side).map_err(|why| {
        format!(
            "{}: cannot take back the last action: {why} (the file is unchanged)",
            args.game.display()
        )
    })?;
    save_game(&args.game, &session)?;
    let mut out = stdout();
    line(&mut out, &format!("Took back \"{undone}\"."))?;
    if let Some(next) = session.game.to_decide() {
        line(&mut out, &format!("{} to decide.", capitalised(next)))?;
    }
    out.flush()?;
    Ok(())
}
