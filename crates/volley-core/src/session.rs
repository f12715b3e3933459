//! A game being played: the ruleset's state, the dice stream, the action record and the event
//! log. Saved games (the PBEM file) hold the scenario, options, seed and actions; the state
//! is rebuilt by replaying, so a save can never disagree with its log.

use crate::dice::{Dice, ForcedDice, Roll, Seed, SeededDice};
use crate::fairness::Fairness;
use crate::game::{Action, Event, Game, Illegal, Ruleset, Side};
use crate::scenario::{Options, ScenarioError, ScenarioSource};
use serde::{Deserialize, Serialize};

/// An event as logged: numbered, with the turn it happened in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedEvent {
    pub seq: u64,
    pub turn: u32,
    #[serde(flatten)]
    pub event: Event,
}

/// One action in a saved game: its notation, any dice forced for it, and every roll it made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub action: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<u32>,
    #[serde(default)]
    pub rolls: Vec<Roll>,
}

pub const SAVE_FORMAT: &str = "volley-save";
pub const SAVE_VERSION: u32 = 1;

/// The saved-game file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub format: String,
    pub version: u32,
    /// The scenario's name (bundled name or file stem).
    pub scenario_name: String,
    /// The scenario file's full text, so a save travels alone.
    pub scenario: String,
    pub options: Options,
    /// SHA-256 of the dice seed, published before the first roll.
    pub commitment: String,
    /// The seed itself; absent until revealed (online games reveal it at the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// An online game's commit–reveal ([`Fairness`]): absent from a file game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<Fairness>,
    pub actions: Vec<Record>,
}

impl SaveFile {
    /// The file's text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("saves serialise") + "\n"
    }

    /// Reads a saved game's text, with a clear error for a truncated or corrupt one; `shown`
    /// names the file in the error.
    pub fn from_json(text: &str, shown: &str) -> Result<SaveFile, SessionError> {
        serde_json::from_str(text).map_err(|e| {
            let what = if e.is_eof() {
                "the file is truncated"
            } else {
                "the file is not a valid saved game"
            };
            SessionError::Save {
                path: shown.to_string(),
                message: format!("{what} (line {}, column {}: {e})", e.line(), e.column()),
            }
        })
    }
}

/// Why a game could not be opened, or an action could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("{0}")]
    Scenario(#[from] ScenarioError),
    #[error("illegal action: {0}")]
    Illegal(#[from] Illegal),
    #[error("{0}")]
    Dice(String),
    #[error("{path}: {message}")]
    Save { path: String, message: String },
}

/// A game in play.
pub struct Session {
    pub game: Box<dyn Game>,
    dice: SeededDice,
    seed: Seed,
    pub scenario_name: String,
    pub scenario_text: String,
    /// The options given when the game was made (the scenario's own `[options]` are in its
    /// text), so a replay sets the game up exactly as it was.
    pub options: Options,
    pub records: Vec<Record>,
    pub log: Vec<LoggedEvent>,
    /// Whether the seed goes into saves (false for online games until the end).
    pub reveal_seed: bool,
    /// An online game's commit–reveal record (the server's secret left out until the end).
    pub fairness: Option<Fairness>,
}

impl Session {
    /// Sets up a new game: the ruleset reads the scenario, and the game's opening rolls are made.
    pub fn new(
        ruleset: &dyn Ruleset,
        source: &ScenarioSource,
        scenario_name: &str,
        options: &Options,
        seed: Seed,
    ) -> Result<Session, SessionError> {
        let game = ruleset.load(source, options)?;
        let mut s = Session {
            game,
            dice: SeededDice::new(seed),
            seed,
            scenario_name: scenario_name.to_string(),
            scenario_text: source.text.clone(),
            options: options.clone(),
            records: Vec::new(),
            log: Vec::new(),
            reveal_seed: true,
            fairness: None,
        };
        let turn = s.game.turn();
        let events = s.game.start(&mut s.dice);
        s.push_events(events, turn);
        Ok(s)
    }

    /// Rebuilds a game from its save by replaying every action, checking each recorded roll.
    pub fn from_save(
        ruleset: &dyn Ruleset,
        save: &SaveFile,
        path: &str,
    ) -> Result<Session, SessionError> {
        let bad = |message: String| SessionError::Save {
            path: path.to_string(),
            message,
        };
        if save.format != SAVE_FORMAT {
            return Err(bad(format!(
                "not a Volley saved game (format \"{}\")",
                save.format
            )));
        }
        if save.version != SAVE_VERSION {
            return Err(bad(format!(
                "saved-game version {} is not supported (this Volley reads version {SAVE_VERSION})",
                save.version
            )));
        }
        let seed = save.seed.ok_or_else(|| {
            bad("the seed has not been revealed, so the game cannot be rebuilt here".into())
        })?;
        if seed.commitment() != save.commitment {
            return Err(bad(
                "the seed does not match the dice commitment: the file was altered".into(),
            ));
        }
        let source = ScenarioSource::new(format!("{path} (scenario)"), save.scenario.clone());
        let mut s = Session::new(ruleset, &source, &save.scenario_name, &save.options, seed)?;
        s.reveal_seed = true;
        s.fairness = save.fairness.clone();
        for (i, rec) in save.actions.iter().enumerate() {
            let n = i + 1;
            s.apply_text(&rec.action, &rec.forced).map_err(|e| {
                bad(format!(
                    "action {n} (\"{}\") cannot be replayed: {e}",
                    rec.action
                ))
            })?;
            let made = &s.records.last().expect("just applied").rolls;
            if made != &rec.rolls {
                return Err(bad(format!(
                    "action {n} (\"{}\") rolled {} but the file records {}: the file was altered or made by another version",
                    rec.action,
                    show_rolls(made),
                    show_rolls(&rec.rolls)
                )));
            }
        }
        Ok(s)
    }

    pub fn seed(&self) -> Seed {
        self.seed
    }

    pub fn commitment(&self) -> String {
        self.seed.commitment()
    }

    /// Applies an action in text notation, with any forced die results first. On any error
    /// nothing changes.
    pub fn apply_text(
        &mut self,
        text: &str,
        forced: &[u32],
    ) -> Result<Vec<LoggedEvent>, SessionError> {
        if let Some((side, why)) = crate::resign::parse(text) {
            if !forced.is_empty() {
                return Err(SessionError::Dice("a resignation rolls no dice".into()));
            }
            return self.give_up(side, why);
        }
        let action = self.game.parse_action(text)?;
        self.apply(action, forced)
    }

    /// Applies an action, with any forced die results first. On any error nothing changes.
    pub fn apply(
        &mut self,
        action: Action,
        forced: &[u32],
    ) -> Result<Vec<LoggedEvent>, SessionError> {
        let mut next = self.game.clone_game();
        let mut stream = self.dice.clone();
        let (events, rolls) = {
            let mut dice = ForcedDice::new(forced, &mut stream);
            let events = next.apply(action, &mut dice)?;
            if let Some((v, sides)) = dice.bad_forced {
                return Err(SessionError::Dice(format!(
                    "forced die result {v} is not possible on the d{sides} the rules rolled"
                )));
            }
            if dice.unused_forced() > 0 {
                return Err(SessionError::Dice(format!(
                    "{} forced dice were given but the action rolled only {}",
                    forced.len(),
                    forced.len() - dice.unused_forced()
                )));
            }
            (events, dice.rolls)
        };
        let notation = self.game.notation(action);
        let turn_before = self.game.turn();
        self.game = next;
        self.dice = stream;
        self.records.push(Record {
            action: notation,
            forced: forced.to_vec(),
            rolls,
        });
        let start = self.log.len();
        self.push_events(events, turn_before);
        Ok(self.log[start..].to_vec())
    }

    /// Logs an action's events: those before a turn-opening event belong to the turn the
    /// action was made in, that event and the rest to the turn the game is in now.
    fn push_events(&mut self, events: Vec<Event>, turn_before: u32) {
        let mut turn = turn_before;
        for event in events {
            if event.opens_turn {
                turn = self.game.turn();
            }
            let seq = self.log.len() as u64 + 1;
            self.log.push(LoggedEvent { seq, turn, event });
        }
    }

    /// `side` gives up the battle, whether or not it is its decision: the other side wins,
    /// the score stands, and the record says `resign <side>`. Refused once the game is over.
    pub fn resign(&mut self, side: Side) -> Result<Vec<LoggedEvent>, SessionError> {
        self.give_up(side, crate::resign::Why::Resigned)
    }

    /// `side` gives up the battle for `why` (a resignation, or a loss on time claimed by the
    /// other player): recorded as `resign <side>` or `timeout <side>`.
    pub fn give_up(
        &mut self,
        side: Side,
        why: crate::resign::Why,
    ) -> Result<Vec<LoggedEvent>, SessionError> {
        if self.game.to_decide().is_none() {
            let why = self
                .game
                .outcome()
                .map_or(String::new(), |o| format!(": {}", o.reason));
            return Err(SessionError::Illegal(Illegal(format!(
                "the game is already over{why}"
            ))));
        }
        let turn = self.game.turn();
        let placeholder = self.game.clone_game();
        let game = std::mem::replace(&mut self.game, placeholder);
        let (resigned, event) = crate::resign::Resigned::given_up(game, side, why);
        self.game = Box::new(resigned);
        self.records.push(Record {
            action: crate::resign::notation_for(side, why),
            forced: Vec::new(),
            rolls: Vec::new(),
        });
        let start = self.log.len();
        self.push_events(vec![event], turn);
        Ok(self.log[start..].to_vec())
    }

    /// Takes back `side`'s last action, as at the table when a player lifts a counter before
    /// anything has been decided by it. Allowed only while the decision is still `side`'s,
    /// before and after that action, and only for an action that rolled no dice and showed
    /// `side` nothing new of the enemy (no unit came into view, no marker appeared or went):
    /// what the dice said and what was seen stand. Repeated, it steps back through the
    /// player's own moves to the last die roll or reveal. The game is rebuilt by replaying the
    /// record without that action, so position, dice stream and log are exactly what they were
    /// before it. On a refusal nothing changes and the reason is given in words.
    pub fn undo(&mut self, ruleset: &dyn Ruleset, side: Side) -> Result<String, String> {
        let Some(last) = self.records.last() else {
            return Err("there is nothing to take back: no action has been taken".into());
        };
        if self.game.to_decide() != Some(side) {
            return Err(format!(
                "{side} can take back an action only while the decision is still {side}'s"
            ));
        }
        if !last.rolls.is_empty() {
            return Err(format!(
                "\"{}\" rolled dice, and what the dice said stands",
                last.action
            ));
        }
        let undone = last.action.clone();
        let source = ScenarioSource::new(
            format!("{} (scenario)", self.scenario_name),
            self.scenario_text.clone(),
        );
        let rebuilt = (|| {
            let mut before = Session::new(
                ruleset,
                &source,
                &self.scenario_name,
                &self.options,
                self.seed,
            )?;
            for rec in &self.records[..self.records.len() - 1] {
                before.apply_text(&rec.action, &rec.forced)?;
            }
            Ok::<_, SessionError>(before)
        })()
        .map_err(|e| format!("the game could not be rebuilt without \"{undone}\": {e}"))?;
        if rebuilt.game.to_decide() != Some(side) {
            return Err(format!("\"{undone}\" was not {side}'s action"));
        }
        if enemy_in_sight(rebuilt.game.as_ref(), side) != enemy_in_sight(self.game.as_ref(), side) {
            return Err(format!(
                "\"{undone}\" showed {side} something of the enemy, and what was seen stands"
            ));
        }
        let reveal_seed = self.reveal_seed;
        let fairness = self.fairness.take();
        *self = rebuilt;
        self.reveal_seed = reveal_seed;
        self.fairness = fairness;
        Ok(undone)
    }

    /// The events `side` may see from index `from` of the whole log on, numbered as that
    /// side counts them — 1, 2, 3… over the events it sees — so that the numbers and their
    /// gaps say nothing of the events it does not see.
    pub fn events_for(&self, side: Side, from: usize) -> Vec<LoggedEvent> {
        self.events_seen(from, |seen| seen.by(side))
    }

    /// The events from `from` on that both sides saw (what a spectator is shown), numbered
    /// the same way.
    pub fn events_for_both(&self, from: usize) -> Vec<LoggedEvent> {
        self.events_seen(from, |seen| seen == crate::game::Seen::Both)
    }

    fn events_seen(
        &self,
        from: usize,
        shown: impl Fn(crate::game::Seen) -> bool,
    ) -> Vec<LoggedEvent> {
        let from = from.min(self.log.len());
        let mut n = self.log[..from]
            .iter()
            .filter(|e| shown(e.event.seen))
            .count() as u64;
        self.log[from..]
            .iter()
            .filter(|e| shown(e.event.seen))
            .map(|e| {
                n += 1;
                LoggedEvent {
                    seq: n,
                    ..e.clone()
                }
            })
            .collect()
    }

    /// The dice stream, for bots that play the game through this session.
    pub fn dice(&mut self) -> &mut dyn Dice {
        &mut self.dice
    }

    pub fn to_save(&self) -> SaveFile {
        SaveFile {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            scenario_name: self.scenario_name.clone(),
            scenario: self.scenario_text.clone(),
            options: self.options.clone(),
            commitment: self.commitment(),
            seed: self.reveal_seed.then_some(self.seed),
            fairness: self.fairness.clone().map(|mut f| {
                if !self.reveal_seed {
                    f.server_seed = None;
                }
                f
            }),
            actions: self.records.clone(),
        }
    }
}

/// What `side` sees of the enemy: the ids of enemy units in view and the unidentified
/// markers with their places. An action that changes it revealed something.
fn enemy_in_sight(game: &dyn Game, side: Side) -> (Vec<String>, Vec<(String, String)>) {
    let view = game.view(Some(side));
    let mut units: Vec<String> = view
        .units
        .iter()
        .filter(|u| u.side != side)
        .map(|u| u.id.to_string())
        .collect();
    units.sort();
    let mut markers: Vec<(String, String)> = view
        .markers
        .iter()
        .map(|m| (m.id.clone(), format!("{:?}", m.place)))
        .collect();
    markers.sort();
    (units, markers)
}

fn show_rolls(rolls: &[Roll]) -> String {
    if rolls.is_empty() {
        return "nothing".into();
    }
    rolls
        .iter()
        .map(|r| format!("{}(d{})", r.value, r.sides))
        .collect::<Vec<_>>()
        .join(", ")
}
