//! Odds for a seat, guarded. `volley_core::odds` walks every die sequence an action can
//! produce, taking `1` for each new die; rules that roll again until the dice differ
//! (initiative ties) would then roll for ever and the request would eat the server's memory.
//! Here the game is wrapped so one application of the action may roll at most
//! [`MAX_ROLLS`] dice from the walker; past that the dice run through their faces in turn
//! (which ends any "roll again" loop) and the walk is marked as cut short.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use volley_core::odds::Odds;
use volley_core::{Action, Dice, Event, Game, Illegal, Outcome, Reach, Side, View};

/// Dice one application of an action may take from the walker.
pub const MAX_ROLLS: u32 = 64;

/// Why odds could not be given.
pub enum OddsRefusal {
    Illegal(String),
    Endless(String),
}

/// The outcome distribution of `action` as `viewer` sees it.
pub fn odds(game: Box<dyn Game>, action: Action, viewer: Side) -> Result<Odds, OddsRefusal> {
    let cut_short = Arc::new(AtomicBool::new(false));
    let watched = Watched {
        game,
        cut_short: cut_short.clone(),
    };
    let odds = volley_core::odds::odds(&watched, action, Some(viewer))
        .map_err(|e| OddsRefusal::Illegal(e.0))?;
    // A walk that stayed exact despite cut-short paths gave those paths wrong weights.
    // (When the walk gave up, the odds were sampled with real dice, which is sound.)
    if odds.exact && cut_short.load(Ordering::Relaxed) {
        return Err(OddsRefusal::Endless(format!(
            "the odds of \"{}\" cannot be worked out: its dice may be rolled again without end",
            odds.action
        )));
    }
    Ok(odds)
}

struct Capped<'a> {
    inner: &'a mut dyn Dice,
    left: u32,
    face: u32,
    cut_short: &'a AtomicBool,
}

impl Dice for Capped<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        if self.left > 0 {
            self.left -= 1;
            return self.inner.roll(sides);
        }
        self.cut_short.store(true, Ordering::Relaxed);
        self.face = self.face % sides.max(1) + 1;
        self.face
    }
}

/// A game whose `apply` rolls at most [`MAX_ROLLS`] dice from the dice it is handed.
struct Watched {
    game: Box<dyn Game>,
    cut_short: Arc<AtomicBool>,
}

impl Game for Watched {
    fn ruleset(&self) -> &'static str {
        self.game.ruleset()
    }
    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        self.game.start(dice)
    }
    fn to_decide(&self) -> Option<Side> {
        self.game.to_decide()
    }
    fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions()
    }
    fn apply(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        let mut capped = Capped {
            inner: dice,
            left: MAX_ROLLS,
            face: 0,
            cut_short: &self.cut_short,
        };
        self.game.apply(action, &mut capped)
    }
    fn notation(&self, action: Action) -> String {
        self.game.notation(action)
    }
    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        self.game.parse_action(text)
    }
    fn turn(&self) -> u32 {
        self.game.turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn view(&self, side: Option<Side>) -> View {
        self.game.view(side)
    }
    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(Watched {
            game: self.game.clone_game(),
            cut_short: self.cut_short.clone(),
        })
    }
    fn reach(&self, unit: &str) -> Vec<Reach> {
        self.game.reach(unit)
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.game.check_invariants()
    }
}
