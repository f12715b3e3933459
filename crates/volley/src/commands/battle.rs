//! `volley battle`: two armies deployed on a field into a scenario file.

use super::army::read_army;
use super::{line, stdout, Failure, Outcome};
use std::io::Write;
use std::path::PathBuf;
use volley_core::armies::Muster;

/// Deploy two armies (files `volley army check` accepts) on a field and write the scenario:
/// red (the first army) along the west edge, blue along the east, guns and foot in the front
/// line, cavalry on the wings, command units behind. The scenario is checked by loading it
/// before it is written; nothing is written if either army or the field has a problem.
#[derive(clap::Args)]
#[command(after_help = "\
Fields (--map): one of the fields of the armies' rule system (rolling-farmland, the default,
creek-crossing, ridge-and-village for Black Powder Tactical Commander), or any bundled scenario
of that rule system (bptc-first-lesson, bptc-napoleonic, …) or scenario file, whose map,
objectives and turn limit are used without its troops.

Examples:
  volley battle scenarios/armies/acw-union.toml scenarios/armies/acw-confederate.toml \\
      --map creek-crossing --out my-battle.toml
  volley battle mine.toml yours.toml --points 3000 --out game.toml && volley new game.toml --out g.json")]
pub struct Args {
    /// The red army's file.
    red: PathBuf,
    /// The blue army's file.
    blue: PathBuf,
    /// Check both armies at this points total instead of their files' own.
    #[arg(long)]
    points: Option<u32>,
    /// The field: a field's name, a bundled scenario of the armies' rule system, or a
    /// scenario file.
    #[arg(long, default_value = "rolling-farmland")]
    map: String,
    /// The rule system of the armies (its id); needed only when more than one has army lists.
    #[arg(long)]
    ruleset: Option<String>,
    /// Where to write the scenario (TOML).
    #[arg(long)]
    out: PathBuf,
    /// The scenario's name (default: the output file's name).
    #[arg(long)]
    name: Option<String>,
    /// The title shown in the lobby (default: "RED against BLUE").
    #[arg(long)]
    title: Option<String>,
    /// The description shown in the lobby (default: the armies, their points and the field).
    #[arg(long)]
    description: Option<String>,
}

pub fn run(args: Args) -> Outcome {
    let (ruleset, armies) =
        volley_rulesets::armies_of(args.ruleset.as_deref()).map_err(Failure::Message)?;
    let red = read_army(&args.red)?;
    let blue = read_army(&args.blue)?;
    let field = match armies.field(&args.map) {
        Some(src) => src,
        None => {
            let names: Vec<String> = armies.fields().into_iter().map(|f| f.name).collect();
            let (_, src) = volley_rulesets::scenario_source(&args.map).map_err(|e| {
                Failure::Message(format!(
                    "{e}\n(--map takes {} or a {} scenario)",
                    names.join(", "),
                    ruleset.title()
                ))
            })?;
            let header = src.header().map_err(|e| Failure::Message(e.to_string()))?;
            if header.ruleset.get_ref() != ruleset.id() {
                return Err(Failure::Message(format!(
                    "{}: a {} scenario: --map takes a {} field",
                    src.path,
                    header.ruleset.get_ref(),
                    ruleset.title()
                )));
            }
            src
        }
    };
    let name = args.name.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("battle".into(), |s| s.to_string_lossy().into_owned())
    });
    let shown = args.out.display().to_string();
    let words = Muster {
        name,
        title: args.title.clone(),
        description: args.description.clone(),
        command: std::env::args()
            .skip(1)
            .map(|a| {
                if a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,".contains(c))
                {
                    a
                } else {
                    format!("'{}'", a.replace('\'', "'\\''"))
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
    };
    let mustered = armies
        .muster(&red, &blue, args.points, &field, &words)
        .map_err(|errors| {
            for e in &errors {
                eprintln!("{e}");
            }
            Failure::Message(format!(
                "{shown}: {} problem{}; nothing was written",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" }
            ))
        })?;
    crate::files::write_atomic(&args.out, &mustered.scenario)
        .map_err(|e| Failure::Message(format!("{shown}: cannot write the scenario: {e}")))?;
    let mut out = stdout();
    line(
        &mut out,
        &format!(
            "{shown}: {}; start it with `volley new {shown} --out game.json` or in the browser's lobby",
            mustered.said
        ),
    )?;
    out.flush()?;
    Ok(())
}
