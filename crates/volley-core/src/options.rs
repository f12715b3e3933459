//! Game options: what a ruleset understands ([`OptionSpec`]), the scenario's `[options]`
//! merged with the command line's and checked ([`resolve_options`]), and typed readers for a
//! ruleset's settings.

use crate::source::{ScenarioError, ScenarioSource};
use serde::Serialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// Option values by key, as a scenario's `[options]` and `--option` give them.
pub type Options = BTreeMap<String, String>;

/// One game option a ruleset understands.
#[derive(Clone, Debug, Serialize)]
pub struct OptionSpec {
    /// The name scenario files and `--option` use.
    pub key: &'static str,
    /// The option in plain words, as a player reads it in a menu ("Facing change cost").
    pub label: &'static str,
    pub default: &'static str,
    /// The accepted values; empty means a whole number.
    pub choices: &'static [&'static str],
    /// For a number: the least and the greatest it may be (`None`: any whole number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(i64, i64)>,
    pub help: &'static str,
}

/// Merges the scenario's `[options]` with command-line overrides and checks every key and
/// value against what the ruleset understands.
pub fn resolve_options(
    src: &ScenarioSource,
    specs: &[OptionSpec],
    scenario: &BTreeMap<String, Spanned<toml::Value>>,
    overrides: &Options,
) -> Result<Options, ScenarioError> {
    let known = || specs.iter().map(|s| s.key).collect::<Vec<_>>().join(", ");
    let mut out: Options = specs
        .iter()
        .map(|s| (s.key.to_string(), s.default.to_string()))
        .collect();
    for (key, value) in scenario {
        let text = match value.get_ref() {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return Err(src.error_at(
                    value.span(),
                    format!(
                        "option {key}: expected a string, number or boolean, found {}",
                        other.type_str()
                    ),
                ))
            }
        };
        let spec = specs.iter().find(|s| s.key == key).ok_or_else(|| {
            src.error_at(
                value.span(),
                format!("unknown option \"{key}\" (this ruleset has: {})", known()),
            )
        })?;
        check_option(spec, &text).map_err(|m| src.error_at(value.span(), m))?;
        out.insert(key.clone(), text);
    }
    for (key, text) in overrides {
        let spec = specs.iter().find(|s| s.key == key).ok_or_else(|| {
            src.error(format!(
                "unknown option \"{key}\" (this ruleset has: {})",
                known()
            ))
        })?;
        check_option(spec, text).map_err(|m| src.error(m))?;
        out.insert(key.clone(), text.clone());
    }
    Ok(out)
}

fn check_option(spec: &OptionSpec, value: &str) -> Result<(), String> {
    if spec.choices.is_empty() {
        let n = value.trim().parse::<i64>().map_err(|_| {
            format!(
                "option {}: expected a whole number, found \"{value}\"",
                spec.key
            )
        })?;
        match spec.range {
            Some((least, most)) if n < least || n > most => Err(format!(
                "option {}: expected a whole number from {least} to {most}, found {n}",
                spec.key
            )),
            _ => Ok(()),
        }
    } else if spec.choices.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "option {}: expected one of {}, found \"{value}\"",
            spec.key,
            spec.choices.join(", ")
        ))
    }
}

/// Reads an option already checked by [`resolve_options`].
pub fn option<'a>(options: &'a Options, key: &str) -> &'a str {
    options.get(key).map(String::as_str).unwrap_or("")
}

/// Whether a yes/no option is "yes".
pub fn yes(options: &Options, key: &str) -> bool {
    option(options, key) == "yes"
}

/// The setting an option's value names: `choices` pairs each value the option accepts with
/// what it sets. A value not among them (none is, once [`resolve_options`] has checked it)
/// gives the first.
pub fn pick<T: Copy>(options: &Options, key: &str, choices: &[(&str, T)]) -> T {
    let value = option(options, key);
    choices
        .iter()
        .find(|(v, _)| *v == value)
        .unwrap_or(&choices[0])
        .1
}

/// A whole-number option already checked by [`resolve_options`] (0 if absent).
pub fn whole(options: &Options, key: &str) -> i64 {
    option(options, key).trim().parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_readers_read_checked_options() {
        let o: Options = [("rain", "yes"), ("cover", "hard"), ("room", "3")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert!(yes(&o, "rain") && !yes(&o, "snow"));
        assert_eq!(pick(&o, "cover", &[("soft", 1), ("hard", 2)]), 2);
        assert_eq!(pick(&o, "missing", &[("soft", 1), ("hard", 2)]), 1);
        assert_eq!(whole(&o, "room"), 3);
    }
}
