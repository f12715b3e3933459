//! `volley battle`: two armies of Black Powder Tactical Commander deployed on a field into a
//! scenario file.

use super::army::read_army;
use super::{line, stdout, Failure, Outcome};
use rules_bpt_commander::{army, battle};
use std::io::Write;
use std::path::PathBuf;

/// Deploy two Black Powder Tactical Commander armies (files `volley army check` accepts) on a
/// field and write the scenario: red (the first army) along the west edge, blue along the east,
/// guns and foot in the front line, cavalry on the wings, command units behind. The scenario is
/// checked by loading it before it is written; nothing is written if either army or the field
/// has a problem.
#[derive(clap::Args)]
#[command(after_help = "\
Fields (--map): rolling-farmland (the default), creek-crossing, ridge-and-village, or any
bundled Black Powder scenario (bptc-first-lesson, bptc-napoleonic, …) or scenario file, whose
map, objectives and turn limit are used without its troops.

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
    /// The field: a map name, a bundled Black Powder scenario, or a scenario file.
    #[arg(long, default_value = "rolling-farmland")]
    map: String,
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
    let mut failure = None;
    let mut armies = Vec::new();
    for path in [&args.red, &args.blue] {
        let src = read_army(path)?;
        match army::check(&src, args.points) {
            Ok(a) => armies.push(a),
            Err(errors) => failure = Some(super::army::report(path, &errors)),
        }
    }
    let field_src = match battle::named_map(&args.map) {
        Some(src) => src,
        None => {
            let (_, src) = volley_rulesets::scenario_source(&args.map).map_err(|e| {
                Failure::Message(format!(
                    "{e}\n(--map takes {} or a Black Powder scenario)",
                    battle::map_names()
                ))
            })?;
            let ruleset = src.header().map_err(|e| Failure::Message(e.to_string()))?;
            if ruleset.ruleset.get_ref() != rules_bpt_commander::ID {
                return Err(Failure::Message(format!(
                    "{}: a {} scenario: --map takes a Black Powder Tactical Commander field",
                    src.path,
                    ruleset.ruleset.get_ref()
                )));
            }
            src
        }
    };
    let field = battle::field(&field_src).map_err(|e| Failure::Message(e.to_string()))?;
    if let Some(f) = failure {
        return Err(f);
    }
    let name = args.name.clone().unwrap_or_else(|| {
        args.out
            .file_stem()
            .map_or("battle".into(), |s| s.to_string_lossy().into_owned())
    });
    let shown = args.out.display().to_string();
    let words = battle::Words {
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
    let text = battle::muster(&armies[0], &armies[1], &field, &words, &shown)
        .map_err(|e| Failure::Message(e.to_string()))?;
    crate::files::write_atomic(&args.out, &text)
        .map_err(|e| Failure::Message(format!("{shown}: cannot write the scenario: {e}")))?;
    let mut out = stdout();
    line(
        &mut out,
        &format!(
            "{shown}: {} ({} points) against {} ({} points) on {}; start it with `volley new {shown} --out game.json` or in the browser's lobby",
            armies[0].name, armies[0].cost, armies[1].name, armies[1].cost, field.name
        ),
    )?;
    out.flush()?;
    Ok(())
}
