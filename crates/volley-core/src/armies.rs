//! Army lists, for a rule system that has them: the lists, an army file checked against its
//! list, and two armies deployed on a field into a scenario. A ruleset offers them through
//! [`crate::Ruleset::armies`], so the command line, the server and the army builder serve any
//! ruleset that has lists without knowing which.
//!
//! What a list holds differs from one rule system to the next, so a list, an army and what
//! the builder may still add travel as JSON the ruleset writes, and a list and an army as
//! text the ruleset writes for people.

use crate::source::{ScenarioError, ScenarioSource};
use serde::Serialize;
use serde_json::Value;

/// One army list, as the lists are listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListRow {
    pub id: String,
    pub name: String,
    /// The period or war it belongs to (`napoleonic`, `acw`).
    pub period: String,
    /// Whose chart it is: `book`, or `Volley` where Volley authored one the book lacks.
    pub source: String,
    /// How many troop rows it has.
    pub troops: usize,
}

/// An army its list accepts.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedArmy {
    pub name: String,
    /// The id of its list.
    pub list: String,
    /// The points total it was built to, and what it costs.
    pub points: u32,
    pub cost: u32,
    /// The whole army as data.
    pub json: Value,
    /// What it buys and what it costs, a line each, for people.
    pub summary: Vec<String>,
}

/// An army the computer built from a list to a points total.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedArmy {
    /// Its army file's text.
    pub text: String,
    /// What the check makes of it.
    pub army: CheckedArmy,
}

/// A field armies can be deployed on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldRow {
    pub name: String,
    pub title: String,
}

/// An army file that comes with the ruleset: an example to fight against or start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundledArmy {
    pub name: &'static str,
    pub text: &'static str,
}

/// What a deployed battle is called and why it was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Muster {
    /// The scenario's name.
    pub name: String,
    /// The title shown in the lobby (default: the ruleset's, from the armies).
    pub title: Option<String>,
    /// The description shown in the lobby (default: the ruleset's, from the armies).
    pub description: Option<String>,
    /// The command that made it, kept in the scenario's comment.
    pub command: String,
}

/// Two armies deployed into a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mustered {
    /// The scenario file's text.
    pub scenario: String,
    /// What was deployed, in a sentence ("X (1500 points) against Y (1500 points) on the
    /// rolling farmland").
    pub said: String,
}

/// A rule system's army lists.
pub trait Armies: Send + Sync {
    /// The lists.
    fn lists(&self) -> Vec<ListRow>;

    /// One list as data (its troop and command charts, its special rules, and what the
    /// builder needs to offer each row), or `None` if there is no such list.
    fn list(&self, id: &str) -> Option<Value>;

    /// One list for people: its charts and rules as text lines.
    fn show(&self, id: &str) -> Option<Vec<String>>;

    /// Checks an army file against its list (at `points`, if given, instead of the file's
    /// own total). Every problem is a positioned error.
    fn check(
        &self,
        src: &ScenarioSource,
        points: Option<u32>,
    ) -> Result<CheckedArmy, Vec<ScenarioError>>;

    /// An army the computer builds from the list `list` to `points`: one the check accepts
    /// at that total, spent until nothing more fits, its choices drawn from `seed` (the same
    /// seed, the same army). A total too small for the list's compulsory part, too large, or
    /// a list there is not, is refused in words.
    fn generate(&self, list: &str, points: u32, seed: u64) -> Result<GeneratedArmy, String>;

    /// What the builder may still add to an army file as it stands, as data.
    fn addable(&self, text: &str, points: Option<u32>) -> Value;

    /// The fields armies can be deployed on.
    fn fields(&self) -> Vec<FieldRow>;

    /// The field of that name. `None` when it names none; the caller may then take a
    /// scenario of this ruleset, whose ground is used without its troops.
    fn field(&self, name: &str) -> Option<ScenarioSource>;

    /// The armies that come with the ruleset.
    fn bundled(&self) -> Vec<BundledArmy>;

    /// Deploys two armies (army files' text, checked first at `points` if given) on a field
    /// (a scenario `field` gave) into a scenario, checked by loading it; or every problem,
    /// in words.
    fn muster(
        &self,
        red: &ScenarioSource,
        blue: &ScenarioSource,
        points: Option<u32>,
        field: &ScenarioSource,
        words: &Muster,
    ) -> Result<Mustered, Vec<ScenarioError>>;

    /// How an army file is written, for the command line's help.
    fn file_help(&self) -> &'static str;
}
