//! The one game API every ruleset implements. The CLI, the bots and the server are written
//! against these traits and never ask which ruleset they are playing.

use crate::dice::Dice;
use crate::geometry::Facing;
use crate::name::Name;
use crate::place::Place;
use crate::scenario::{Options, ScenarioError, ScenarioSource};
use crate::view::View;
use crate::view::Word;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The two sides of every battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Blue,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }

    /// The side's name as it begins a sentence: "Red", "Blue".
    pub fn title(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
        }
    }

    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_lowercase().as_str() {
            "red" => Some(Side::Red),
            "blue" => Some(Side::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An action, packed by its ruleset into 64 bits: cheap to copy, hash and compare in search.
/// Its text form (what `legal` prints and `apply` reads) comes from [`Game::notation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u64);

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seen {
    Both,
    Red,
    Blue,
}

impl Seen {
    pub fn by(self, side: Side) -> bool {
        match self {
            Seen::Both => true,
            Seen::Red => side == Side::Red,
            Seen::Blue => side == Side::Blue,
        }
    }

    pub fn only(side: Side) -> Seen {
        match side {
            Side::Red => Seen::Red,
            Side::Blue => Seen::Blue,
        }
    }
}

/// Something that happened, with the rule it came from and the numbers that decided it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// A short machine-readable kind: `move`, `fire`, `hit`, `rout`, `melee`, `phase`, …
    pub kind: Word,
    /// Ruleset and section, e.g. `hex-command 7.5`.
    pub rule: Word,
    /// A sentence for people, with the numbers: range, band, modifiers, roll, result.
    pub text: String,
    /// The side that acted or the side the event concerns, if any.
    pub side: Option<Side>,
    /// Ids of the units involved (for highlighting on the map).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Name>,
    /// Who may see it: hidden units' doings are shown only to their owner.
    pub seen: Seen,
    /// The first event of a new game turn (its initiative roll, say): the log stamps it, and
    /// what follows it, with the new turn, and what came before it with the old one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opens_turn: bool,
}

impl Event {
    pub fn new(kind: &'static str, rule: impl Into<Word>, text: impl Into<String>) -> Event {
        Event {
            kind: kind.into(),
            rule: rule.into(),
            text: text.into(),
            side: None,
            units: Vec::new(),
            seen: Seen::Both,
            opens_turn: false,
        }
    }

    /// Marks the first event of a new game turn (see [`Event::opens_turn`]).
    pub fn opens_turn(mut self) -> Event {
        self.opens_turn = true;
        self
    }

    pub fn side(mut self, side: Side) -> Event {
        self.side = Some(side);
        self
    }

    pub fn units<I: IntoIterator>(mut self, ids: I) -> Event
    where
        I::Item: Into<Name>,
    {
        self.units.extend(ids.into_iter().map(Into::into));
        self
    }

    pub fn seen(mut self, seen: Seen) -> Event {
        self.seen = seen;
        self
    }
}

/// Where a ruleset writes the events of an action: kept for the log, or — in search, through
/// [`Game::apply_unchecked`] — dropped without ever being built. Events are handed over as
/// closures, so a dropped event costs no formatting at all.
#[derive(Debug, Default)]
pub struct Log {
    events: Vec<Event>,
    silent: bool,
}

impl Log {
    /// A log that keeps every event.
    pub fn new() -> Log {
        Log::default()
    }

    /// A log that builds and keeps nothing.
    pub fn silent() -> Log {
        Log {
            events: Vec::new(),
            silent: true,
        }
    }

    /// Writes the event `make` builds, unless this log is silent.
    #[inline]
    pub fn add(&mut self, make: impl FnOnce() -> Event) {
        if !self.silent {
            self.events.push(make());
        }
    }

    /// Whether events are being kept (a ruleset may skip work done only to describe).
    pub fn keeps(&self) -> bool {
        !self.silent
    }

    /// The events kept so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn into_events(self) -> Vec<Event> {
        self.events
    }
}

/// Why an action was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

impl Illegal {
    pub fn new(text: impl Into<String>) -> Illegal {
        Illegal(text.into())
    }
}

/// A rule's refusal of an order, for rulesets that write each check once and use it both to
/// apply an order and to list the legal ones: `apply` needs the sentence that says why (an
/// [`Illegal`]); a listing only needs to know that the order is refused, so there it is `()`
/// and the sentence is never written.
pub trait Refusal {
    fn because<S: Into<String>>(why: impl FnOnce() -> S) -> Self;
}

impl Refusal for Illegal {
    fn because<S: Into<String>>(why: impl FnOnce() -> S) -> Illegal {
        Illegal::new(why())
    }
}

impl Refusal for () {
    fn because<S: Into<String>>(_: impl FnOnce() -> S) {}
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    /// Why, in words: "Blue reached its break point (42% lost of 35%)".
    pub reason: String,
    /// Victory points at the end, red then blue.
    pub score: [i32; 2],
}

/// What kind of thing an action does, for bots and clients that must not read notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// Ends the phase (or the decision) without doing anything more.
    End,
    /// Moves a unit to [`ActionInfo::place`].
    Move,
    /// Turns a unit to [`ActionInfo::facing`] where it stands.
    Turn,
    /// Attacks whatever is at [`ActionInfo::place`]: fire, melee, charge, close combat.
    Attack,
    /// Anything else: formation and limbering changes, orders, markers, answers to a prompt.
    Other,
}

/// An action described in structured form: what `notation` writes, without the text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionInfo {
    /// The first word of the notation: `move`, `fire`, `end`, …
    pub verb: &'static str,
    pub kind: ActionKind,
    /// The acting unit's key ([`crate::view::UnitView::key`]), when one unit acts.
    pub unit: Option<u32>,
    /// Where the action goes or strikes, if anywhere.
    pub place: Option<Place>,
    /// The facing it leaves the unit in, when it sets one.
    pub facing: Option<Facing>,
}

impl ActionInfo {
    pub fn new(verb: &'static str, kind: ActionKind) -> ActionInfo {
        ActionInfo {
            verb,
            kind,
            unit: None,
            place: None,
            facing: None,
        }
    }

    pub fn end() -> ActionInfo {
        ActionInfo::new("end", ActionKind::End)
    }

    pub fn unit(mut self, key: u32) -> ActionInfo {
        self.unit = Some(key);
        self
    }

    pub fn at(mut self, place: impl Into<Place>) -> ActionInfo {
        self.place = Some(place.into());
        self
    }

    pub fn facing(mut self, facing: Facing) -> ActionInfo {
        self.facing = Some(facing);
        self
    }
}

/// A game in progress under one ruleset.
///
/// Work per decision does not grow with the size of the armies: rulesets keep indexes of the
/// position (who stands where, zones of control) with the game and update them with each
/// action; a unit's actions can be listed on their own ([`Game::unit_actions`]); search
/// applies actions it took from the legal list without checking them or writing events
/// ([`Game::apply_unchecked`]); and nothing is written in words until someone reads it
/// ([`Game::notation`], [`Game::view`]) — bots read [`Game::describe`] instead.
pub trait Game: Send + Sync {
    /// The ruleset id, e.g. `hex-command`.
    fn ruleset(&self) -> &'static str;

    /// Rolls whatever the rules roll before the first decision (initiative, say).
    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event>;

    /// The side to decide now; `None` once the game is over. Not always the phasing side:
    /// the rules may ask the other side to decide in the middle of a turn (opportunity fire,
    /// a charge response); the view's `prompt` says what is being decided.
    fn to_decide(&self) -> Option<Side>;

    /// Every legal action now, for the side to decide, written into `out` (cleared first).
    /// Empty once the game is over.
    fn legal_actions_into(&self, out: &mut Vec<Action>);

    /// Every legal action now, for the side to decide. Empty once the game is over.
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// How many legal actions there are now: `legal_actions().len()`, without listing them.
    fn legal_count(&self) -> usize {
        self.legal_actions().len()
    }

    /// The `k`-th of the legal actions, in the order [`Game::legal_actions`] lists them,
    /// without listing them all: how a bot picks uniformly at random in a big battle.
    fn legal_action(&self, k: usize) -> Option<Action> {
        self.legal_actions().get(k).copied()
    }

    /// The legal actions of one unit of the side to decide (by its key), written into `out`
    /// (cleared first): what a client shows when that unit is selected, and what a bot
    /// weighs unit by unit. Empty for a unit that cannot act now or is not the decider's.
    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        self.legal_actions_into(out);
        out.retain(|&a| self.describe(a).unit == Some(unit));
    }

    /// The keys of the units of the side to decide that have an action now, in key order.
    fn actors(&self) -> Vec<u32> {
        let mut keys: Vec<u32> = self
            .legal_actions()
            .into_iter()
            .filter_map(|a| self.describe(a).unit)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Applies an action after checking it is legal. An illegal action is refused with the
    /// reason and changes nothing.
    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal>;

    /// Applies an action after checking it is legal, like [`Game::apply`], but writes no
    /// events: for search in sampled worlds, where an action legal for the searching side may
    /// not be legal in every world it imagines.
    fn apply_quiet(&mut self, action: Action, dice: &mut dyn Dice) -> Result<(), Illegal> {
        self.apply(action, dice).map(|_| ())
    }

    /// Applies an action taken from [`Game::legal_actions`] (or [`Game::unit_actions`]) of
    /// this very position, without checking it and without writing any event: the fast path
    /// for search (shakmaty's `play_unchecked`). Anything else is a caller's bug.
    fn apply_unchecked(&mut self, action: Action, dice: &mut dyn Dice) {
        let applied = self.apply(action, dice);
        debug_assert!(applied.is_ok(), "apply_unchecked: {applied:?}");
    }

    /// Applies an action for its odds ([`crate::odds::odds`]): what the action itself may do,
    /// and nothing else. Checked like [`Game::apply`]. The contract:
    ///
    /// - Every die the action rolls is rolled, and **every consequence of those dice is
    ///   settled now, also those the rules settle later**: hits held to the end of the phase
    ///   are resolved, with the defender's dice; troops that give ground when the enemy's fire
    ///   ends give it. They are settled as if this action were the only one on its target
    ///   still to settle: results held from earlier actions stay held, so the odds show what
    ///   this action adds.
    /// - Nothing that follows for other reasons is played: phases the game would end by itself
    ///   afterwards, and their dice (the next turn's initiative, spotting), are left alone.
    /// - A choice the rules give the target first (to evade, say) is taken so that the
    ///   action's dice are rolled: the odds say what the action does when it lands.
    ///
    /// The position left is for looking at (its views), not for playing on. There is no
    /// default, so that every ruleset answers for it: one that settles every result at once
    /// may return `self.apply(action, dice)`; one that holds any result back settles it here.
    /// As a second guard, the odds refuse to show an attack as sure to do nothing when
    /// playing it out through the end of its phase says otherwise
    /// ([`crate::odds::played_out`]), and the every-ruleset test holds every ruleset's attacks
    /// to what playing them out does.
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal>;

    /// The action's dice, grouped into classes of sequences that lead to the same result,
    /// each with its exact probability and one representative sequence of die results (in
    /// the order the action rolls them). `None` (the default): the odds walk or sample the
    /// dice themselves.
    ///
    /// For rulesets that roll more dice than the odds can walk (twenty fire dice have 6^20
    /// sequences) but whose rules only count or add them up: the ruleset knows which
    /// sequences are alike and can give their chances exactly ([`crate::chance`]), so the
    /// odds stay exact. Each representative is played through [`Game::preview`] on a copy of
    /// this position; a representative that does not hold exactly the dice the action rolls
    /// makes the odds refuse, naming the action. The chances must add up to 1.
    fn odds_cases(&self, action: Action) -> Option<Vec<crate::odds::OddsCase>> {
        let _ = action;
        None
    }

    /// The action's text notation, as `legal` prints it and `apply` reads it.
    fn notation(&self, action: Action) -> String;

    /// What the action is, in structured form (verb, kind, acting unit, target place).
    fn describe(&self, action: Action) -> ActionInfo;

    /// Reads an action in the notation `notation` writes.
    fn parse_action(&self, text: &str) -> Result<Action, Illegal>;

    /// The current game turn (from 1).
    fn turn(&self) -> u32;

    /// The side whose player turn it is, as [`Game::view`] gives it (`None` once the game is
    /// over or before it starts). The default builds the whole view; a ruleset answers it
    /// from its state, since the bots' lookahead asks at every decision of a line.
    fn phasing(&self) -> Option<Side> {
        self.view(None).phasing
    }

    fn outcome(&self) -> Option<Outcome>;

    /// What one side may see (`None`: the whole position, for the referee and for replays).
    /// Hidden information is filtered here and nowhere else.
    fn view(&self, side: Option<Side>) -> View;

    /// [`Game::view`] as the bots' search reads it, many thousands of positions a turn: the
    /// same view less the firing cones ([`crate::view::UnitView::cone`]), which only a person
    /// reads off the map. A ruleset whose cones cost something to work out leaves them out
    /// here; everything else must be as `view` gives it. The default is the whole view.
    fn search_view(&self, side: Option<Side>) -> View {
        self.view(side)
    }

    fn clone_game(&self) -> Box<dyn Game>;

    /// A copy of the game as `side` might believe it to be: everything `side` cannot see is
    /// replaced by a plausible sample drawn with `dice` (hidden units shuffled among the
    /// markers the side sees, say). Bots search from this, never from the real state.
    /// Rulesets without hidden information return a plain copy.
    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        let _ = (side, dice);
        self.clone_game()
    }

    /// Where a unit of the side to decide can get to in this phase, with the movement points
    /// it would spend (for the map's "reachable hexes" overlay). Empty when it cannot move.
    fn reach(&self, unit: &str) -> Vec<Reach> {
        let _ = unit;
        Vec::new()
    }

    /// Checks the ruleset's own invariants (stacking, hit limits, units on the map…); the
    /// generic every-ruleset test calls it after every action. `Err` says what is broken.
    fn check_invariants(&self) -> Result<(), String>;
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Self {
        self.clone_game()
    }
}

/// A hex a unit can reach, and what getting there costs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reach {
    pub hex: String,
    pub cost: u32,
}

/// [`Game::reach`] for rulesets whose units move one hex (or tile) per action: a
/// breadth-first walk from `start` in which `steps` gives, for a position, each hex the unit
/// may step into next and the position after that step. The cost of a hex is the fewest
/// steps that reach it; the unit's own hex is not listed.
pub fn reach_by_steps<S>(
    start: S,
    origin: crate::Hex,
    steps: impl Fn(&S) -> Vec<(crate::Hex, S)>,
) -> Vec<Reach> {
    let mut seen = std::collections::HashSet::from([origin]);
    let mut out = Vec::new();
    let mut frontier = vec![start];
    let mut cost = 0;
    while !frontier.is_empty() {
        cost += 1;
        let mut next = Vec::new();
        for position in &frontier {
            for (hex, after) in steps(position) {
                if seen.insert(hex) {
                    out.push(Reach {
                        hex: crate::geometry::label(hex),
                        cost,
                    });
                    next.push(after);
                }
            }
        }
        frontier = next;
    }
    out
}

/// The game as `side` knows it: what it cannot see dealt out by a fixed sample
/// ([`Game::determinize`] with dice every seat could name). Every answer a seat obtains by
/// playing on the position — odds, reach — is worked out on this copy, never on the real
/// one, so two true positions the side cannot tell apart give it the same answers.
pub fn as_known_to(game: &dyn Game, side: Side) -> Box<dyn Game> {
    let mut dice = crate::dice::SeededDice::new(crate::dice::Seed([0x5e; 32]));
    game.determinize(side, &mut dice)
}

/// Where `side`'s own unit can get to, worked out on the position as `side` knows it; empty
/// for anything but its own unit on its own decision (asking about another id says nothing).
pub fn reach_for(game: &dyn Game, side: Side, unit: &str) -> Vec<Reach> {
    let own = game
        .view(Some(side))
        .units
        .iter()
        .any(|u| u.id == unit && u.side == side);
    if game.to_decide() != Some(side) || !own {
        return Vec::new();
    }
    as_known_to(game, side).reach(unit)
}

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

/// A rule system: its id, its options, and how to set up a game from a scenario.
pub trait Ruleset: Send + Sync {
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn options(&self) -> &'static [OptionSpec];
    /// The game's words in plain English ([`crate::glossary`]), in the order a new player
    /// meets them.
    fn glossary(&self) -> Vec<crate::glossary::Term>;
    /// Reads a scenario of this ruleset and sets up the game with the given options (which
    /// override the scenario's own `[options]`).
    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError>;
}
