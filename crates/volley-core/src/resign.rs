//! Resigning: a player gives up the battle, whatever the ruleset. The game is wrapped so that
//! it is over — nobody decides, nothing is legal, the view says who won and why — while
//! everything else (the position, the views' fog) stays the ruleset's.

use crate::dice::Dice;
use crate::game::{Action, ActionInfo, Event, Game, Illegal, Log, Outcome, Reach, Side};
use crate::view::View;

/// Why a side gives up the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Its player resigned.
    Resigned,
    /// Its player let the time for a move run out, and the other player claimed the win
    /// (a game played at a pace of days per move).
    OutOfTime,
}

impl Why {
    fn word(self) -> &'static str {
        match self {
            Why::Resigned => "resign",
            Why::OutOfTime => "timeout",
        }
    }
}

/// The notation of a resignation in the record: `resign red`; of a loss on time:
/// `timeout red`.
pub fn notation(side: Side) -> String {
    notation_for(side, Why::Resigned)
}

/// The notation of `side` giving up for `why`.
pub fn notation_for(side: Side, why: Why) -> String {
    format!("{} {side}", why.word())
}

/// Reads `resign red` / `resign blue` / `timeout red` / `timeout blue`.
pub fn parse(text: &str) -> Option<(Side, Why)> {
    let text = text.trim();
    [Why::Resigned, Why::OutOfTime].into_iter().find_map(|why| {
        text.strip_prefix(why.word())
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(|s| Side::parse(s.trim()))
            .map(|side| (side, why))
    })
}

/// A game one side resigned.
pub struct Resigned {
    inner: Box<dyn Game>,
    outcome: Outcome,
}

impl Resigned {
    /// Wraps `game`, which `side` resigns; its score stands as it was.
    pub fn new(game: Box<dyn Game>, side: Side) -> (Resigned, Event) {
        Resigned::given_up(game, side, Why::Resigned)
    }

    /// Wraps `game`, which `side` gives up for `why`; its score stands as it was.
    pub fn given_up(game: Box<dyn Game>, side: Side, why: Why) -> (Resigned, Event) {
        let view = game.view(None);
        let score_of = |s: Side| {
            view.sides
                .iter()
                .find(|x| x.side == s)
                .map_or(0, |x| x.score)
        };
        let winner = side.other();
        let outcome = Outcome {
            winner: Some(winner),
            reason: match why {
                Why::Resigned => format!("{} resigned", side.title()),
                Why::OutOfTime => format!("{} ran out of time", side.title()),
            },
            score: [score_of(Side::Red), score_of(Side::Blue)],
        };
        let event = match why {
            Why::Resigned => Event::new(
                "resign",
                "volley resign",
                format!(
                    "{} resigns: {} wins the battle",
                    side.title(),
                    winner.title()
                ),
            ),
            Why::OutOfTime => Event::new(
                "timeout",
                "volley pace",
                format!(
                    "{}'s time for a move ran out and {} claimed the win",
                    side.title(),
                    winner.title()
                ),
            ),
        }
        .side(side);
        (
            Resigned {
                inner: game,
                outcome,
            },
            event,
        )
    }

    /// The inner game's view, with nobody left to decide and the resignation as the outcome.
    fn over(&self, mut v: View) -> View {
        v.to_decide = None;
        v.prompt = None;
        v.outcome = Some(self.outcome.clone());
        v
    }
}

impl Game for Resigned {
    fn ruleset(&self) -> &'static str {
        self.inner.ruleset()
    }
    fn start(&mut self, _dice: &mut dyn Dice) -> Vec<Event> {
        Vec::new()
    }
    fn to_decide(&self) -> Option<Side> {
        None
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
    }
    fn check(&self, _action: Action) -> Result<(), Illegal> {
        Err(Illegal(format!(
            "the game is over: {}",
            self.outcome.reason
        )))
    }
    /// Nothing is legal in a resigned game, so nothing is played.
    fn play_unchecked(&mut self, _action: Action, _dice: &mut dyn Dice, _log: &mut Log) {}
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        self.apply(action, dice)
    }
    fn notation(&self, action: Action) -> String {
        self.inner.notation(action)
    }
    fn describe(&self, action: Action) -> ActionInfo {
        self.inner.describe(action)
    }
    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        self.inner.parse_action(text)
    }
    fn turn(&self) -> u32 {
        self.inner.turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        Some(self.outcome.clone())
    }
    fn view(&self, side: Option<Side>) -> View {
        self.over(self.inner.view(side))
    }
    fn search_view(&self, side: Option<Side>) -> View {
        self.over(self.inner.search_view(side))
    }
    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(Resigned {
            inner: self.inner.clone_game(),
            outcome: self.outcome.clone(),
        })
    }
    fn reach(&self, _unit: &str) -> Vec<Reach> {
        Vec::new()
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.inner.check_invariants()
    }
}
