//! `volley odds`: what an action might do, without doing it.

use super::{line, open_game, stdout, Failure, Outcome};
use crate::render::table;
use std::io::Write;
use std::path::PathBuf;

/// Show the odds of an action for the side to decide: each outcome and its probability,
/// as that side would see it. Nothing is applied and the file is not touched.
///
/// The odds are exact (every sequence of die results walked) when the action rolls few
/// dice, and sampled otherwise; the output says which. What the rules settle later (hits
/// resolved when the phase ends, troops falling back when the enemy's fire ends) counts as
/// the action's own outcome, with the defender's dice.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley odds game.json \"<action from volley legal>\"
  volley odds game.json \"<action>\" --json | jq '.outcomes[0]'")]
pub struct Args {
    /// The saved game.
    #[arg(value_name = "GAME.json")]
    game: PathBuf,
    /// The action, as `volley legal` prints it.
    action: String,
    /// Print {action, exact, trials, outcomes: [{outcome, probability, example}]} as JSON
    /// (`example`: how the log would tell one way of getting that outcome).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let session = open_game(&args.game)?;
    let game = &*session.game;
    let Some(side) = game.to_decide() else {
        return Err(Failure::Message(format!(
            "{}: the game is over; there is nothing to weigh",
            args.game.display()
        )));
    };
    let refused = |e: volley_core::Illegal| {
        Failure::Message(format!(
            "{}: cannot weigh \"{}\": {e} (`volley legal {}` lists the legal actions)",
            args.game.display(),
            args.action,
            args.game.display()
        ))
    };
    let action = game.parse_action(&args.action).map_err(refused)?;
    let odds = volley_core::odds::odds(game, action, Some(side)).map_err(refused)?;
    let mut out = stdout();
    if args.json {
        line(
            &mut out,
            &serde_json::to_string_pretty(&odds).expect("odds serialise"),
        )?;
    } else {
        let how = if odds.exact {
            let s = if odds.trials == 1 { "" } else { "s" };
            format!("exact, over {} die sequence{s}", odds.trials)
        } else {
            let s = if odds.trials == 1 { "" } else { "s" };
            format!("sampled from {} trial{s}", odds.trials)
        };
        line(
            &mut out,
            &format!("Odds of \"{}\" for {side} ({how}):", odds.action),
        )?;
        let rows: Vec<Vec<String>> = odds
            .outcomes
            .iter()
            .map(|o| vec![format!("{:.1}%", 100.0 * o.probability), o.outcome.clone()])
            .collect();
        out.write_all(table(&["CHANCE", "OUTCOME"], &rows).as_bytes())?;
        // How the reckoning goes, as the log will tell it: the most likely outcome's.
        if let Some(how) = odds.outcomes.first().filter(|o| !o.example.is_empty()) {
            line(
                &mut out,
                &format!("How it is reckoned (one way it can fall): {}", how.example),
            )?;
        }
    }
    out.flush()?;
    Ok(())
}
