//! The lobby's list of scenarios: what each is, the options its ruleset offers (with the
//! scenario's own settings as defaults), and its map for a preview.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use volley_core::map::MapView;
use volley_core::{Options, ScenarioSource};

#[derive(Clone, Debug, Serialize)]
pub struct ScenarioEntry {
    pub name: String,
    pub ruleset: String,
    pub title: String,
    pub description: String,
    pub options: Vec<OptionEntry>,
    pub map: std::sync::Arc<MapView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionEntry {
    pub key: &'static str,
    /// The option in plain words.
    pub label: &'static str,
    /// The scenario's own setting when it has one, else the ruleset's default.
    pub default: String,
    /// The accepted values; empty means any whole number.
    pub choices: &'static [&'static str],
    pub help: &'static str,
}

/// A scenario's `[options]` table, read with the values as the file writes them.
#[derive(Deserialize)]
struct ScenarioOptions {
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

fn option_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads every bundled scenario. A bundled scenario that does not load is a bug in the
/// build, said in words.
pub fn bundled_scenarios() -> Result<Vec<ScenarioEntry>, String> {
    let mut entries = Vec::new();
    for b in volley_rulesets::bundled() {
        let source = ScenarioSource::new(format!("scenarios/{}.toml", b.name), b.text);
        let bad = |e: volley_core::ScenarioError| format!("bundled scenario {}: {e}", b.name);
        let header = source.header().map_err(bad)?;
        let ruleset = volley_rulesets::ruleset_of(&source).map_err(bad)?;
        let own = source.parse::<ScenarioOptions>().map_err(bad)?.options;
        let game = ruleset.load(&source, &Options::new()).map_err(bad)?;
        entries.push(ScenarioEntry {
            name: b.name.to_string(),
            ruleset: ruleset.id().to_string(),
            title: header.title,
            description: header.description,
            options: ruleset
                .options()
                .iter()
                .map(|spec| OptionEntry {
                    key: spec.key,
                    label: spec.label,
                    default: own
                        .get(spec.key)
                        .map_or_else(|| spec.default.to_string(), option_text),
                    choices: spec.choices,
                    help: spec.help,
                })
                .collect(),
            map: game.view(None).map,
        });
    }
    Ok(entries)
}
