//! The one game API every ruleset implements. The CLI, the bots and the server are written
//! against these traits and never ask which ruleset they are playing.

use crate::dice::Dice;
use crate::scenario::{ScenarioError, ScenarioSource};
use crate::view::View;
use serde::{Deserialize, Serialize};

pub use crate::action::{Action, ActionInfo, ActionKind, Illegal, Refusal};
pub use crate::event::{Event, Log, Seen};
pub use crate::options::{OptionSpec, Options};
pub use crate::side::{Outcome, Side};

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

    /// Whether an action is legal now: `Ok`, or the reason it is refused, in words. It
    /// changes nothing. With [`Game::play_unchecked`] this is the one pair every ruleset
    /// writes; the apply methods below are built on it (shakmaty's `play` over
    /// `play_unchecked`).
    fn check(&self, action: Action) -> Result<(), Illegal>;

    /// Carries out an action that [`Game::check`] passed, or that was taken from
    /// [`Game::legal_actions`] (or [`Game::unit_actions`]) of this very position, writing its
    /// events into `log` (a silent log builds none). Anything else is a caller's bug.
    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log);

    /// Applies an action after checking it is legal. An illegal action is refused with the
    /// reason and changes nothing.
    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        self.check(action)?;
        let mut log = Log::new();
        self.play_unchecked(action, dice, &mut log);
        Ok(log.into_events())
    }

    /// Applies an action after checking it is legal, like [`Game::apply`], but writes no
    /// events: for search in sampled worlds, where an action legal for the searching side may
    /// not be legal in every world it imagines.
    fn apply_quiet(&mut self, action: Action, dice: &mut dyn Dice) -> Result<(), Illegal> {
        self.check(action)?;
        self.play_unchecked(action, dice, &mut Log::silent());
        Ok(())
    }

    /// Applies an action taken from [`Game::legal_actions`] (or [`Game::unit_actions`]) of
    /// this very position, without checking it and without writing any event: the fast path
    /// for search.
    fn apply_unchecked(&mut self, action: Action, dice: &mut dyn Dice) {
        self.play_unchecked(action, dice, &mut Log::silent());
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
    fn odds_cases(&self, action: Action) -> Option<Vec<crate::chance::OddsCase>> {
        let _ = action;
        None
    }

    /// The action's text notation, as `legal` prints it and `apply` reads it.
    fn notation(&self, action: Action) -> String;

    /// What the action is, in structured form (verb, kind, acting unit, target place).
    fn describe(&self, action: Action) -> ActionInfo;

    /// The action in plain words for a person, with names where the notation has ids
    /// ("Fire at 2nd Guard with 1st Line (range 2)"); `view` is the deciding side's. The
    /// default words it from [`Game::describe`] and the view's names
    /// ([`crate::view::action_words`]); a ruleset says it better where it can.
    fn label(&self, action: Action, view: &View) -> String {
        crate::view::action_words(&self.describe(action), &self.notation(action), view)
    }

    /// Whether dice decide what the action does (a person is offered its odds first). The
    /// default: attacks do.
    fn rolls(&self, action: Action) -> bool {
        self.describe(action).kind == ActionKind::Attack
    }

    /// What a person should know before committing to the action, beyond its odds, in plain
    /// words: the roll that decides whether it happens at all and what counts towards it
    /// ("Command roll: 8 or less on two dice, …"), and who may answer it (opportunity fire, a
    /// counter-charge). Asked of the position as the deciding side knows it, so a note never
    /// names what that side cannot see. The default: nothing to add.
    fn notes(&self, action: Action) -> Vec<String> {
        let _ = action;
        Vec::new()
    }

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

/// A rule system: its id, its options, and how to set up a game from a scenario.
pub trait Ruleset: Send + Sync {
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn options(&self) -> &'static [OptionSpec];
    /// The game's words in plain English ([`crate::glossary`]), in the order a new player
    /// meets them.
    fn glossary(&self) -> Vec<crate::glossary::Term>;
    /// Its army lists, if the rule system has them ([`crate::armies`]).
    fn armies(&self) -> Option<&dyn crate::armies::Armies> {
        None
    }
    /// Reads a scenario of this ruleset and sets up the game with the given options (which
    /// override the scenario's own `[options]`).
    fn load(
        &self,
        source: &ScenarioSource,
        options: &Options,
    ) -> Result<Box<dyn Game>, ScenarioError>;
}
