//! `volley new`: start a game and write its saved-game file.

use super::{capitalised, line, parse_options, save_game, stdout, Failure, Outcome};
use std::io::Write;
use std::path::PathBuf;
use volley_core::Seed;

/// Start a new game from a scenario and write the saved-game file (the file players pass
/// between them when playing by e-mail).
///
/// The game's opening rolls are made at once. Without --seed the dice seed comes from the
/// operating system; the file records it, so anyone can replay and check every roll — and
/// anyone holding the file can also try actions in secret and keep the rolls they like, so a
/// file game is only as fair as the players. The server (`volley serve`) keeps the seed.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley new hc-crossroads --out game.json
  volley new my-battle.toml --seed 42 --option turns=10 --out game.json")]
pub struct Args {
    /// A bundled scenario's name (see `volley scenarios`) or a scenario file.
    scenario: String,
    /// Dice seed: the same seed and the same actions give the same game.
    #[arg(long)]
    seed: Option<u64>,
    /// A game option, overriding the scenario's [options]; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Where to write the saved game.
    #[arg(long, value_name = "GAME.json")]
    out: PathBuf,
    /// Replace the file if it already exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Outcome {
    if !args.force && args.out.exists() {
        return Err(Failure::Message(format!(
            "{}: the file already exists; choose another name or add --force to replace it",
            args.out.display()
        )));
    }
    let options = parse_options(&args.options)?;
    let (name, source) =
        volley_rulesets::scenario_source(&args.scenario).map_err(|e| e.to_string())?;
    let seed = match args.seed {
        Some(n) => Seed::from_u64(n),
        None => os_seed()?,
    };
    let session = volley_rulesets::new_session(&name, &source, &options, seed)?;
    save_game(&args.out, &session)?;
    let view = session.game.view(None);
    let mut out = stdout();
    line(
        &mut out,
        &format!(
            "{}: new game of {} ({}), dice commitment {}",
            args.out.display(),
            view.title,
            view.ruleset,
            session.commitment()
        ),
    )?;
    if let Some(side) = session.game.to_decide() {
        let file = args.out.display();
        line(
            &mut out,
            &format!(
                "{} to decide. Next: `volley show {file}`, then `volley legal {file}`.",
                capitalised(side)
            ),
        )?;
    }
    line(&mut out, FAIRNESS)?;
    out.flush()?;
    Ok(())
}

/// Said whenever a file game starts: the file cannot keep its own dice honest.
pub const FAIRNESS: &str = "Fair play: the file holds the dice seed, so whoever has it can try actions and keep the rolls they like. Play by file with someone you trust; for a game at your own pace where no one can choose the dice, use `volley serve` (the seed stays on the server).";

/// 32 bytes from the operating system's random source.
fn os_seed() -> Result<Seed, Failure> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("cannot get a random seed from the operating system: {e}"))?;
    Ok(Seed(bytes))
}
