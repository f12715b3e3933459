//! `volley verify`: checks the dice of a finished online game.

use super::{line, stdout, Outcome};
use std::io::Write;
use std::path::PathBuf;
use volley_core::session::read_save;

/// Check that a finished game's dice were fair: the seed the server revealed matches the
/// commitment it published before the first roll, and replaying every action with that seed
/// rolls exactly what the file records.
///
/// Export the game from the server once it is over (the web client's "export", or
/// GET /api/games/ID/export), then run this on the file. It exits with status 1, saying why,
/// when anything does not match.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley verify game.json")]
pub struct Args {
    /// The exported game.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
}

pub fn run(args: Args) -> Outcome {
    let shown = args.game.display().to_string();
    let failed = |reason: String| format!("NOT VERIFIED: {reason}");
    let save = read_save(&args.game).map_err(|e| failed(e.to_string()))?;
    let seed = save.seed.ok_or_else(|| {
        failed(format!(
            "{shown}: the file has no seed (the server reveals it only once the game is over)"
        ))
    })?;
    let session = volley_rulesets::open_session(&args.game).map_err(|e| failed(e.to_string()))?;
    let rolls: usize = save.actions.iter().map(|a| a.rolls.len()).sum();
    let mut out = stdout();
    line(
        &mut out,
        &format!(
            "{shown}: verified. The seed {} matches the commitment {}, and replaying all {} actions rolls exactly the {rolls} dice the file records.",
            seed.to_hex(),
            save.commitment,
            save.actions.len()
        ),
    )?;
    if let Some(o) = session.game.outcome() {
        let winner = o
            .winner
            .map_or("nobody (a draw)".to_string(), |w| w.to_string());
        line(&mut out, &format!("Result: {winner} won: {}", o.reason))?;
    }
    out.flush()?;
    Ok(())
}
