//! A rule system's words in plain English — CnC, TE, zone of control, standing, fall back —
//! for players reading the log and the unit cards. Each ruleset keeps its glossary as a TOML
//! file compiled in (`data/glossary.toml`: `[[term]]` tables of `term`, `section`, `meaning`).

use serde::{Deserialize, Serialize};

/// One word of the game and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The word or abbreviation as the log and the unit cards use it.
    pub term: String,
    /// The rulebook section that defines it.
    pub section: String,
    /// What it means, paraphrased, with the numbers that matter.
    pub meaning: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    term: Vec<Term>,
}

/// Reads a glossary file. The files are compiled in and checked by every ruleset's tests, so
/// a broken one is a build defect: the message says what is wrong and where.
pub fn read(toml_text: &str) -> Result<Vec<Term>, String> {
    let file: File = toml::from_str(toml_text).map_err(|e| e.to_string())?;
    for t in &file.term {
        if t.term.trim().is_empty() || t.meaning.trim().is_empty() {
            return Err(format!("a term without a word or a meaning: {t:?}"));
        }
    }
    Ok(file.term)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glossary_reads_its_terms_and_refuses_empty_ones() {
        let terms = read(
            "[[term]]\nterm = \"TE\"\nsection = \"5\"\nmeaning = \"Tactical effect: disorder.\"\n",
        )
        .expect("reads");
        assert_eq!(terms.len(), 1);
        assert_eq!(terms[0].term, "TE");
        assert!(read("[[term]]\nterm = \"\"\nsection = \"5\"\nmeaning = \"x\"\n").is_err());
        assert!(read("[[term]]\nterm = \"TE\"\nmeaning = \"x\"\n").is_err());
    }
}
