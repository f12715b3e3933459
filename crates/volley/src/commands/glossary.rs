//! `volley glossary`: a rule system's words in plain English.

use super::{line, stdout, Outcome};
use std::io::Write;

/// Explain the words of a rule system (or of a scenario's rule system): CnC, TE, zone of
/// control, standing, fall back… each with the rulebook section that defines it.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley glossary hex-command
  volley glossary sad-river-crossing
  volley glossary hex-command-mechanized --json | jq -r '.[].term'")]
pub struct Args {
    /// A rule system's id (see `volley scenarios`), or a bundled scenario's name or a scenario
    /// file, for its rule system.
    ruleset: String,
    /// Print a JSON array of {term, section, meaning} instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let ruleset = super::ruleset_named(&args.ruleset)?;
    let terms = ruleset.glossary();
    let mut out = stdout();
    if args.json {
        let text = serde_json::to_string_pretty(&terms).expect("terms serialise");
        line(&mut out, &text)?;
    } else {
        line(&mut out, &format!("{} — glossary", ruleset.title()))?;
        for t in &terms {
            line(&mut out, "")?;
            line(&mut out, &format!("{}  ({})", t.term, t.section))?;
            line(&mut out, &format!("    {}", t.meaning))?;
        }
    }
    out.flush()?;
    Ok(())
}
