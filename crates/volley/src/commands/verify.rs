//! `volley verify`: checks the dice of a finished online game.

use super::{line, stdout, Outcome};
use crate::files::read_save;
use std::io::Write;
use std::path::PathBuf;

/// Check that a finished online game's dice were fair: the server's revealed secret matches
/// the commitment it published when the game was created — a commitment to the scenario and
/// the options too — the dice seed is the one made of that secret and both players' entropy,
/// no die was forced, the game is finished, and replaying every action with that seed rolls
/// exactly what the file records.
///
/// A file game (`volley new`) has no commit-reveal: verify then checks only that the seed
/// matches its commitment and the rolls replay, and says that the players had the seed.
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
    let save = read_save(&args.game).map_err(failed)?;
    let seed = save.seed.ok_or_else(|| {
        failed(format!(
            "{shown}: the file has no seed (the server reveals it only once the game is over)"
        ))
    })?;
    if let Some(fair) = &save.fairness {
        fair.check(&save.scenario, &save.options, &seed)
            .map_err(|e| failed(format!("{shown}: {e}")))?;
        if let Some(n) = save.actions.iter().position(|a| !a.forced.is_empty()) {
            return Err(failed(format!(
                "{shown}: action {} (\"{}\") has forced dice, which an online game never has",
                n + 1,
                save.actions[n].action
            ))
            .into());
        }
    }
    let session =
        volley_rulesets::open_session(&save, &shown).map_err(|e| failed(e.to_string()))?;
    if save.fairness.is_some() && session.game.outcome().is_none() {
        return Err(failed(format!(
            "{shown}: the game is not finished (the server exports a game once it is over)"
        ))
        .into());
    }
    let rolls: usize = save.actions.iter().map(|a| a.rolls.len()).sum();
    let mut out = stdout();
    match &save.fairness {
        Some(fair) => line(
            &mut out,
            &format!(
                "{shown}: verified. The server's secret matches the commitment {} it published when the game was created, with this scenario and these options; the seed {} is made of that secret and the players' entropy ({}); no die was forced; and replaying all {} actions rolls exactly the {rolls} dice the file records.",
                fair.commitment,
                seed.to_hex(),
                fair.entropy.keys().cloned().collect::<Vec<_>>().join(" and "),
                save.actions.len()
            ),
        )?,
        None => line(
            &mut out,
            &format!(
                "{shown}: the seed {} matches the commitment {}, and replaying all {} actions rolls exactly the {rolls} dice the file records. This is a file game: whoever held the file had the seed, so the dice are only as fair as the players.",
                seed.to_hex(),
                save.commitment,
                save.actions.len()
            ),
        )?,
    }
    if let Some(o) = session.game.outcome() {
        let winner = o
            .winner
            .map_or("nobody (a draw)".to_string(), |w| w.to_string());
        line(&mut out, &format!("Result: {winner} won: {}", o.reason))?;
    }
    out.flush()?;
    Ok(())
}
