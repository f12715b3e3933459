//! `volley army`: the army lists of the rule systems that have them, as data.

use super::{line, stdout, Failure, Outcome};
use std::io::Write;
use volley_core::armies::Armies;

/// Read the army lists of a rule system that has them (Volley's lists are the books' own
/// charts, with Volley's where a book has none): every troop and command chart, each row's
/// stat line, points and limits; and check an army file against its list.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley army lists
  volley army show napoleonic-french
  volley army show acw-union --json | jq '.list.troop[] | {name, points}'
  volley army check my-division.toml
  volley army check scenarios/armies/acw-union-brigade.toml --points 3000 --json
  volley army format            # how an army file is written

Turn armies into a battle with `volley battle`.")]
pub struct Args {
    /// The rule system whose lists are meant (its id, as `volley scenarios` shows it); needed
    /// only when more than one has army lists.
    #[arg(long, global = true)]
    ruleset: Option<String>,
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// List the army lists: id, period, troop rows, and whether the chart is the book's or
    /// Volley's.
    Lists {
        /// Print a JSON array of {id, name, period, source, troops} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check an army file against its list: points, limits, compulsory troops, command
    /// units. Every problem is printed as FILE:LINE:COLUMN: message.
    Check {
        /// The army file (TOML).
        army: std::path::PathBuf,
        /// Check it at this points total instead of the file's own.
        #[arg(long)]
        points: Option<u32>,
        /// Print {ok, army} or {ok: false, errors: [...]} as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one army list: its troop chart, its command chart and its special rules.
    Show {
        /// The list's id (see `volley army lists`).
        list: String,
        /// Print the list, its command chart and its rules as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show how an army file is written.
    Format,
}

/// The army lists meant by `--ruleset` (or the only ones there are).
pub fn armies(ruleset: Option<&str>) -> Result<&'static dyn Armies, Failure> {
    volley_rulesets::armies_of(ruleset)
        .map(|(_, a)| a)
        .map_err(Failure::Message)
}

pub fn run(args: Args) -> Outcome {
    let armies = armies(args.ruleset.as_deref())?;
    let mut out = stdout();
    match args.what {
        What::Lists { json } => {
            let rows = armies.lists();
            if json {
                line(
                    &mut out,
                    &serde_json::to_string_pretty(&rows).expect("serialises"),
                )?;
            } else {
                line(
                    &mut out,
                    &format!(
                        "{:<20} {:<13} {:>6}  {:<6} NAME",
                        "ID", "PERIOD", "TROOPS", "CHART"
                    ),
                )?;
                for l in rows {
                    line(
                        &mut out,
                        &format!(
                            "{:<20} {:<13} {:>6}  {:<6} {}",
                            l.id, l.period, l.troops, l.source, l.name
                        ),
                    )?;
                }
            }
        }
        What::Check { army, points, json } => {
            let src = read_army(&army)?;
            match armies.check(&src, points) {
                Ok(a) => {
                    if json {
                        let v = serde_json::json!({ "ok": true, "army": a.json });
                        line(
                            &mut out,
                            &serde_json::to_string_pretty(&v).expect("serialises"),
                        )?;
                    } else {
                        for l in &a.summary {
                            line(&mut out, l)?;
                        }
                    }
                }
                Err(errors) => {
                    if json {
                        let v = serde_json::json!({ "ok": false, "errors": errors.iter().map(|e| serde_json::json!({
                            "file": e.file, "line": e.line, "column": e.column, "message": e.message,
                        })).collect::<Vec<_>>() });
                        line(
                            &mut out,
                            &serde_json::to_string_pretty(&v).expect("serialises"),
                        )?;
                        out.flush()?;
                    }
                    return Err(report(&army, &errors));
                }
            }
        }
        What::Show { list, json } => {
            let unknown = || {
                let ids: Vec<String> = armies.lists().into_iter().map(|l| l.id).collect();
                Failure::Message(format!(
                    "there is no army list \"{list}\"; the lists are: {}",
                    ids.join(", ")
                ))
            };
            if json {
                let v = armies.list(&list).ok_or_else(unknown)?;
                line(
                    &mut out,
                    &serde_json::to_string_pretty(&v).expect("serialises"),
                )?;
            } else {
                for l in armies.show(&list).ok_or_else(unknown)? {
                    line(&mut out, &l)?;
                }
            }
        }
        What::Format => line(&mut out, armies.file_help())?,
    }
    out.flush()?;
    Ok(())
}

/// Reads an army file, or says in plain words why it cannot.
pub fn read_army(path: &std::path::Path) -> Result<volley_core::ScenarioSource, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::Message(format!(
            "{}: cannot read the army file: {e}",
            path.display()
        ))
    })?;
    Ok(volley_core::ScenarioSource::new(
        path.display().to_string(),
        text,
    ))
}

/// Prints every problem of an army on its own line as FILE:LINE:COLUMN: message (on stderr),
/// and gives the failure that ends the command.
pub fn report(path: &std::path::Path, errors: &[volley_core::ScenarioError]) -> Failure {
    for e in errors {
        eprintln!("{e}");
    }
    Failure::Message(format!(
        "{}: {} problem{}; the army is not ready to fight",
        path.display(),
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    ))
}
