//! A scenario's text and where it came from, and errors that point at a line and column of
//! it.

use crate::geometry::{parse_label, Facing};
use crate::map::Map;
use hexx::Hex;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::fmt;
use std::ops::Range;
use toml::Spanned;

/// A scenario's text and where it came from (a path, or `scenarios/NAME.toml` if bundled).
#[derive(Clone, Debug)]
pub struct ScenarioSource {
    pub path: String,
    pub text: String,
}

/// A scenario that cannot be used, and where. `line` 0 means no position (an option given
/// on the command line, say).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl ScenarioSource {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> ScenarioSource {
        ScenarioSource {
            path: path.into(),
            text: text.into(),
        }
    }

    /// An error at a byte span of the text.
    pub fn error_at(&self, span: Range<usize>, message: impl Into<String>) -> ScenarioError {
        let (line, column) = line_column(&self.text, span.start);
        ScenarioError {
            file: self.path.clone(),
            line,
            column,
            message: message.into(),
        }
    }

    /// An error without a position.
    pub fn error(&self, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            file: self.path.clone(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }

    /// Deserialises the whole file as `T`, turning TOML and schema errors into positioned ones.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, ScenarioError> {
        toml::from_str::<T>(&self.text).map_err(|e| {
            let message = e.message().trim().to_string();
            match e.span() {
                Some(span) => self.error_at(span, message),
                None => ScenarioError {
                    file: self.path.clone(),
                    line: 1,
                    column: 1,
                    message,
                },
            }
        })
    }

    /// The header only: `Header` ignores the keys it does not know.
    pub fn header(&self) -> Result<Header, ScenarioError> {
        self.parse::<Header>()
    }

    /// A hex label read from the file, checked against the map.
    pub fn hex(&self, text: &Spanned<String>, map: &Map) -> Result<Hex, ScenarioError> {
        let hex = parse_label(text.get_ref()).ok_or_else(|| {
            self.error_at(
                text.span(),
                format!(
                    "expected a hex label like \"0304\", found \"{}\"",
                    text.get_ref()
                ),
            )
        })?;
        if !map.contains(hex) {
            return Err(self.error_at(
                text.span(),
                format!(
                    "hex {} is off the map ({} columns by {} rows)",
                    text.get_ref(),
                    map.width,
                    map.height
                ),
            ));
        }
        Ok(hex)
    }

    pub fn facing(&self, text: &Spanned<String>) -> Result<Facing, ScenarioError> {
        Facing::parse(text.get_ref()).ok_or_else(|| {
            self.error_at(
                text.span(),
                format!(
                    "expected a facing (N, NE, SE, S, SW or NW), found \"{}\"",
                    text.get_ref()
                ),
            )
        })
    }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The part of a scenario every ruleset has.
#[derive(Clone, Debug, Deserialize)]
pub struct Header {
    pub ruleset: Spanned<String>,
    pub name: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
}
