//! `volley options`: the options a rule system offers, with what each chooses.

use super::{line, stdout, Outcome};
use serde::Serialize;
use std::io::Write;

/// List the options of a rule system (or of a scenario's rule system): each key, its values,
/// the default, and what it chooses, in plain words.
///
/// Set them with `volley new … --option KEY=VALUE`, in a scenario's `[options]` table, or in
/// the browser's lobby.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley options hex-command
  volley options hc-crossroads
  volley new hc-crossroads --option cvs=random --option orders=yes --out game.json
  volley options stand-and-die --json | jq -r '.[].key'")]
pub struct Args {
    /// A rule system's id (see `volley scenarios`), or a bundled scenario's name or a scenario
    /// file, for its rule system.
    ruleset: String,
    /// Print a JSON array of {key, label, default, choices, help} instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Entry {
    key: &'static str,
    label: &'static str,
    default: &'static str,
    /// The accepted values; empty: any whole number.
    choices: &'static [&'static str],
    help: &'static str,
}

pub fn run(args: Args) -> Outcome {
    let ruleset = super::ruleset_named(&args.ruleset)?;
    let entries: Vec<Entry> = ruleset
        .options()
        .iter()
        .map(|o| Entry {
            key: o.key,
            label: o.label,
            default: o.default,
            choices: o.choices,
            help: o.help,
        })
        .collect();
    let mut out = stdout();
    if args.json {
        let text = serde_json::to_string_pretty(&entries).expect("entries serialise");
        line(&mut out, &text)?;
    } else {
        line(&mut out, &format!("{} — options", ruleset.title()))?;
        for e in &entries {
            let values = if e.choices.is_empty() {
                "a whole number".to_string()
            } else {
                e.choices.join(" | ")
            };
            line(&mut out, "")?;
            line(
                &mut out,
                &format!("{}  ({}; default {})", e.key, values, e.default),
            )?;
            line(&mut out, &format!("  {}: {}", e.label, e.help))?;
        }
    }
    out.flush()?;
    Ok(())
}
