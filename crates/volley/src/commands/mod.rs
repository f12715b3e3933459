//! One module per command, each with its clap `Args` and a `run`.

pub mod apply;
pub mod army;
pub mod battle;
pub mod glossary;
pub mod legal;
pub mod log;
pub mod new;
pub mod odds;
pub mod options;
pub mod play;
pub mod scenarios;
pub mod serve;
pub mod show;
pub mod simulate;
pub mod tournament;
pub mod undo;
pub mod validate;
pub mod verify;

use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::Path;
use volley_core::session::SessionError;
use volley_core::{LoggedEvent, Options, Session, Side};

/// Why a command failed.
pub enum Failure {
    /// Said in plain words on stderr, with a non-zero exit.
    Message(String),
    /// Whoever read our output stopped reading; we stop writing, quietly.
    BrokenPipe,
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Message(m)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("cannot write the output: {e}"))
        }
    }
}

impl From<SessionError> for Failure {
    fn from(e: SessionError) -> Failure {
        Failure::Message(e.to_string())
    }
}

pub type Outcome = Result<(), Failure>;

/// Standard output, buffered (bots can print hundreds of thousands of events).
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::new(io::stdout().lock())
}

/// A side on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SideArg {
    Red,
    Blue,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::Red => Side::Red,
            SideArg::Blue => Side::Blue,
        }
    }
}

/// Opens a saved game and replays it, with the file named in any error.
pub fn open_game(path: &Path) -> Result<Session, Failure> {
    let save = crate::files::read_save(path)?;
    volley_rulesets::open_session(&save, &path.display().to_string()).map_err(|e| match e {
        SessionError::Scenario(e) => Failure::Message(format!(
            "{}: the scenario inside the saved game cannot be used: {e}",
            path.display()
        )),
        SessionError::Illegal(_) | SessionError::Dice(_) => Failure::Message(format!(
            "{}: the saved game cannot be replayed: {e}",
            path.display()
        )),
        other => other.into(),
    })
}

/// Writes a saved game atomically, so a failure leaves the old file whole.
pub fn save_game(path: &Path, session: &Session) -> Result<(), Failure> {
    crate::files::write_save(path, &session.to_save()).map_err(Failure::from)
}

/// Reads `--option KEY=VALUE` arguments; the ruleset checks keys and values when it loads.
/// What every command that lets bots play whole games takes: the scenario's options and a cap
/// on a game's length.
#[derive(clap::Args)]
pub struct BotGames {
    /// A game option, overriding the scenario's [options]; repeat for several.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Give up (with an error) on a game that has not ended after this many actions.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub max_actions: u64,
}

pub fn parse_options(pairs: &[String]) -> Result<Options, Failure> {
    let mut options = Options::new();
    for pair in pairs {
        let (key, value) = pair.split_once('=').ok_or_else(|| {
            format!("--option \"{pair}\" should be KEY=VALUE, e.g. --option turns=10")
        })?;
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("--option \"{pair}\" has no key before the '='").into());
        }
        options.insert(key.to_string(), value.trim().to_string());
    }
    Ok(options)
}

/// Whose eyes a command looks through: `--referee` sees everything; `--side` one side;
/// by default the side to decide (the player holding the file), or everything once the
/// game is over.
pub fn viewer(session: &Session, side: Option<SideArg>, referee: bool) -> Option<Side> {
    if referee {
        None
    } else {
        side.map(Side::from).or_else(|| session.game.to_decide())
    }
}

/// An event as one line of text: `[rule] text`.
pub fn event_line(e: &LoggedEvent) -> String {
    format!("[{}] {}", e.event.rule, e.event.text)
}

/// An event as one JSON line (`seq`, `turn`, `kind`, `rule`, `text`, `side`, `seen`, and
/// `units` when there are any).
pub fn event_json(e: &LoggedEvent) -> String {
    serde_json::to_string(e).expect("events serialise")
}

/// "Red" from "red", for sentences.
pub fn capitalised(side: Side) -> String {
    side.title().to_string()
}

/// A rule system by its id, or the rule system of a bundled scenario or scenario file.
pub fn ruleset_named(name: &str) -> Result<&'static dyn volley_core::Ruleset, Failure> {
    if let Some(r) = volley_rulesets::find(name) {
        return Ok(r);
    }
    let (_, source) = volley_rulesets::scenario_source(name).map_err(|e| {
        let ids: Vec<&str> = volley_rulesets::rulesets().iter().map(|r| r.id()).collect();
        format!(
            "\"{name}\" is neither a rule system ({}) nor a scenario: {e}",
            ids.join(", ")
        )
    })?;
    Ok(volley_rulesets::ruleset_of(&source).map_err(|e| e.to_string())?)
}

/// Writes a line, turning a closed pipe into a quiet stop.
pub fn line(out: &mut (impl Write + ?Sized), text: &str) -> Outcome {
    writeln!(out, "{text}").map_err(Failure::from)
}
