//! `volley army`: the army lists of the rule systems that have them, as data.

use super::{line, stdout, Failure, Outcome};
use std::io::Write;
use volley_core::armies::Armies;

/// Read the army lists of a rule system that has them (Volley's lists are the books' own
/// charts, with Volley's where a book has none): every troop and command chart, each row's
/// stat line, points and limits; check an army file against its list; and let the computer
/// build an army from a list to a points total.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley army lists
  volley army show napoleonic-french
  volley army show acw-union --json | jq '.list.troop[] | {name, points}'
  volley army check my-division.toml
  volley army check scenarios/armies/acw-union-brigade.toml --points 3000 --json
  volley army format            # how an army file is written
  volley army generate napoleonic-austrian --points 1500 --out austrians.toml
  volley army generate acw-confederate --points 3000 --seed 7   # the same army every time

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
    /// Let the computer build an army from a list to a points total: one `volley army check`
    /// accepts at that total (compulsory troops, maximums, command units, elite and
    /// exceptional caps), spent until nothing more fits, drawn from a seed.
    #[command(after_help = "\
The army is written as an army file (to --out, or to standard output), its first lines saying
how it was made; the same list, points and seed always build the same army. Without --seed a
random seed is drawn and printed, so a good army can be built again.

It buys a commanding officer and each arm's minimum, then foot, horse and guns towards shares
of the points the seed picks (an HQ for every four to six infantry units), then whatever still
fits: a stand more, another unit, a regimental gun, a better or another HQ, last transport. No
morale grades, scouts or field defences (the optional rules and the defence are the player's
to choose). A total too small for the list's compulsory part is refused with the least it
takes.

Examples:
  volley army generate napoleonic-russian --points 1500
  volley army generate colonial --points 3000 --seed 42 --out colonials.toml
  volley army generate acw-union --points 3000 --json | jq .army.cost
  volley battle mine.toml colonials.toml --out battle.toml")]
    Generate {
        /// The list's id (see `volley army lists`).
        list: String,
        /// The points total to build to.
        #[arg(long)]
        points: u32,
        /// The seed the choices are drawn from (default: a random one, printed).
        #[arg(long)]
        seed: Option<u64>,
        /// Write the army file here instead of to standard output (and print what it buys).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Print {seed, text, army} as JSON instead of the army file.
        #[arg(long)]
        json: bool,
    },
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
        What::Generate {
            list,
            points,
            seed,
            out: path,
            json,
        } => {
            let seed = match seed {
                Some(n) => n,
                None => {
                    let mut bytes = [0u8; 8];
                    getrandom::fill(&mut bytes).map_err(|e| {
                        format!("cannot get a random seed from the operating system: {e}")
                    })?;
                    u64::from_le_bytes(bytes)
                }
            };
            let g = armies
                .generate(&list, points, seed)
                .map_err(Failure::Message)?;
            if let Some(path) = &path {
                crate::files::write_atomic(path, &g.text).map_err(|e| {
                    Failure::Message(format!(
                        "{}: cannot write the army file: {e}",
                        path.display()
                    ))
                })?;
            }
            if json {
                let v = serde_json::json!({ "seed": seed, "text": g.text, "army": g.army.json });
                line(
                    &mut out,
                    &serde_json::to_string_pretty(&v).expect("serialises"),
                )?;
            } else if let Some(path) = &path {
                for l in &g.army.summary {
                    line(&mut out, l)?;
                }
                line(
                    &mut out,
                    &format!(
                        "{}: written (seed {seed}); fight it with `volley battle`",
                        path.display()
                    ),
                )?;
            } else {
                write!(out, "{}", g.text)?;
            }
        }
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
