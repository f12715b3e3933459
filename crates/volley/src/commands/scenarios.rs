//! `volley scenarios`: the scenarios bundled with Volley.

use super::{line, stdout, Outcome};
use crate::render::table;
use serde::Serialize;
use std::io::Write;
use volley_core::ScenarioSource;

/// List the bundled scenarios: name, ruleset and title.
///
/// The name is what `volley new` and `volley play` take.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  volley scenarios
  volley scenarios --json | jq -r '.[].name'")]
pub struct Args {
    /// Print a JSON array of {name, ruleset, title, description} instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Entry {
    name: String,
    ruleset: String,
    title: String,
    description: String,
}

pub fn run(args: Args) -> Outcome {
    let mut entries = Vec::new();
    for b in volley_rulesets::bundled() {
        let source = ScenarioSource::new(format!("scenarios/{}.toml", b.name), b.text);
        let header = source.header().map_err(|e| e.to_string())?;
        entries.push(Entry {
            name: b.name.to_string(),
            ruleset: header.ruleset.into_inner(),
            title: header.title,
            description: header.description,
        });
    }
    let mut out = stdout();
    if args.json {
        let text = serde_json::to_string_pretty(&entries).expect("entries serialise");
        line(&mut out, &text)?;
    } else if entries.is_empty() {
        line(&mut out, "No scenarios are bundled yet.")?;
    } else {
        let rows: Vec<Vec<String>> = entries
            .iter()
            .map(|e| vec![e.name.clone(), e.ruleset.clone(), e.title.clone()])
            .collect();
        out.write_all(table(&["NAME", "RULESET", "TITLE"], &rows).as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
