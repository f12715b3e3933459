//! Which rulesets Volley has, and the scenarios bundled with it. This is the only place that
//! lists rulesets; everything else finds them here by the id a scenario names.

use std::path::Path;
use volley_core::session::SessionError;
use volley_core::{Options, Ruleset, SaveFile, ScenarioError, ScenarioSource, Seed, Session};

/// Every ruleset, by id.
pub fn rulesets() -> &'static [&'static dyn Ruleset] {
    // A static, not a promoted temporary: a slice that refers to other statics is never
    // promoted to 'static.
    static RULESETS: &[&dyn Ruleset] = &[
        &rules_hex_command::RULESET,
        &rules_stand_and_die::RULESET,
        &rules_grid::RULESET,
        &rules_hex_command_mechanized::RULESET,
        &rules_bpt_commander::RULESET,
    ];
    RULESETS
}

pub fn find(id: &str) -> Option<&'static dyn Ruleset> {
    rulesets().iter().copied().find(|r| r.id() == id)
}

/// The rulesets that have army lists ([`Ruleset::armies`]).
pub fn with_armies() -> Vec<&'static dyn Ruleset> {
    rulesets()
        .iter()
        .copied()
        .filter(|r| r.armies().is_some())
        .collect()
}

/// The ruleset whose army lists are meant: the one named, or the only one that has lists.
/// The error says which rulesets have lists.
pub fn armies_of(
    id: Option<&str>,
) -> Result<
    (
        &'static dyn Ruleset,
        &'static dyn volley_core::armies::Armies,
    ),
    String,
> {
    let have = with_armies();
    let names = || {
        have.iter()
            .map(|r| format!("{} ({})", r.id(), r.title()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ruleset = match id {
        Some(id) => find(id).ok_or_else(|| {
            format!(
                "there is no ruleset \"{id}\"; those with army lists: {}",
                names()
            )
        })?,
        None if have.len() == 1 => have[0],
        None => {
            return Err(format!(
                "several rulesets have army lists: say which with --ruleset ({})",
                names()
            ))
        }
    };
    let armies = ruleset.armies().ok_or_else(|| {
        format!(
            "{} has no army lists; those that have: {}",
            ruleset.title(),
            names()
        )
    })?;
    Ok((ruleset, armies))
}

/// A scenario shipped inside the binary.
pub struct Bundled {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! bundled {
    ($($name:literal),* $(,)?) => {
        &[$(Bundled { name: $name, text: include_str!(concat!("../../../scenarios/", $name, ".toml")) }),*]
    };
}

/// The bundled scenarios, from `scenarios/` at the top of the repository.
pub fn bundled() -> &'static [Bundled] {
    bundled![
        "hc-first-clash",
        "hc-crossroads",
        "hc-night-march",
        "sad-river-crossing",
        "grid-ridge",
        "hc-corps",
        "hc-reinforcements",
        "hc-pike-and-shot",
        "hcm-village",
        "hcm-breakthrough",
        "hcm-night-ambush",
        "bptc-first-lesson",
        "bptc-napoleonic",
        "bptc-acw",
        "bptc-18th-century"
    ]
}

/// A scenario by bundled name or by path.
pub fn scenario_source(name_or_path: &str) -> Result<(String, ScenarioSource), ScenarioError> {
    if let Some(b) = bundled().iter().find(|b| b.name == name_or_path) {
        return Ok((
            b.name.to_string(),
            ScenarioSource::new(format!("scenarios/{}.toml", b.name), b.text),
        ));
    }
    let path = Path::new(name_or_path);
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let name = path.file_stem().map_or_else(
                || name_or_path.to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            Ok((name, ScenarioSource::new(name_or_path, text)))
        }
        Err(e) => {
            let names: Vec<&str> = bundled().iter().map(|b| b.name).collect();
            Err(ScenarioError {
                file: name_or_path.to_string(),
                line: 0,
                column: 0,
                message: if path.exists()
                    || name_or_path.contains('/')
                    || name_or_path.ends_with(".toml")
                {
                    format!("cannot read the scenario file: {e}")
                } else {
                    format!(
                        "no bundled scenario by that name and no such file (bundled: {})",
                        names.join(", ")
                    )
                },
            })
        }
    }
}

/// The ruleset a scenario names.
pub fn ruleset_of(source: &ScenarioSource) -> Result<&'static dyn Ruleset, ScenarioError> {
    let header = source.header()?;
    find(header.ruleset.get_ref()).ok_or_else(|| {
        let ids: Vec<&str> = rulesets().iter().map(|r| r.id()).collect();
        source.error_at(
            header.ruleset.span(),
            format!(
                "unknown ruleset \"{}\" (Volley has: {})",
                header.ruleset.get_ref(),
                ids.join(", ")
            ),
        )
    })
}

/// Checks a scenario completely: it parses, names a ruleset, and that ruleset can set it up.
pub fn validate(source: &ScenarioSource) -> Result<(), ScenarioError> {
    ruleset_of(source)?
        .load(source, &Options::new())
        .map(|_| ())
}

/// Starts a new game of a scenario.
pub fn new_session(
    name: &str,
    source: &ScenarioSource,
    options: &Options,
    seed: Seed,
) -> Result<Session, SessionError> {
    let ruleset = ruleset_of(source)?;
    Session::new(ruleset, source, name, options, seed)
}

/// Replays a saved game; `shown` names its file in any error.
pub fn open_session(save: &SaveFile, shown: &str) -> Result<Session, SessionError> {
    let source = ScenarioSource::new(format!("{shown} (scenario)"), save.scenario.clone());
    let ruleset = ruleset_of(&source)?;
    Session::from_save(ruleset, save, shown)
}
