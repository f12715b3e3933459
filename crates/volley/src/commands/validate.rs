//! `volley validate`: check scenario files completely.

use super::{line, stdout, Failure, Outcome};
use std::io::Write;

/// Check scenario files: TOML syntax, the shared parts (map, objectives, options) and
/// everything the scenario's ruleset reads.
///
/// Each problem is printed on stderr as FILE:LINE:COLUMN: message; the exit status is
/// non-zero when any file is invalid.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley validate my-battle.toml
  volley validate scenarios/*.toml")]
pub struct Args {
    /// Scenario files (a bundled scenario's name works too).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

pub fn run(args: Args) -> Outcome {
    let mut out = stdout();
    let mut invalid = 0;
    for file in &args.files {
        let checked = volley_rulesets::scenario_source(file)
            .and_then(|(_, source)| volley_rulesets::validate(&source).map(|()| source));
        match checked {
            Ok(source) => {
                let title = source.header().map(|h| h.title).unwrap_or_default();
                line(&mut out, &format!("{file}: ok ({title})"))?;
            }
            Err(e) => {
                out.flush()?;
                eprintln!("{e}");
                invalid += 1;
            }
        }
    }
    out.flush()?;
    match invalid {
        0 => Ok(()),
        n => Err(Failure::Message(format!(
            "{n} of {} scenario files {} invalid",
            args.files.len(),
            if n == 1 { "is" } else { "are" }
        ))),
    }
}
