//! Odds for a seat, guarded. `volley_core::odds` walks every die sequence an action can
//! produce, taking `1` for each new die; rules that roll again until the dice differ
//! (initiative ties, when an action's preview reaches them) would then roll for ever and the
//! request would eat the server's memory. Here the game is wrapped so one application of the
//! action may roll at most
//! [`MAX_ROLLS`] dice from the walker; past that the dice run through their faces in turn
//! (which ends any "roll again" loop) and the walk is marked as cut short.
//!
//! A game that gives the action's odds cases ([`Game::odds_cases`]) is not capped: each case
//! is one sequence of die results, played once from a script that ends, and a case may well
//! hold more than [`MAX_ROLLS`] dice (a whole brigade's volley).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use volley_core::odds::{Odds, OddsCase};
use volley_core::{
    Action, ActionInfo, Dice, Event, Game, Illegal, Log, Outcome, Reach, Side, View,
};

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
    // The ruleset's own cases are finite scripts: no cap on them.
    let cap = game.odds_cases(action).is_none().then_some(MAX_ROLLS);
    let watched = Watched {
        game,
        cut_short: cut_short.clone(),
        cap,
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

impl<'a> Capped<'a> {
    /// `inner`'s first `cap` rolls, then made-up ones, noting that it cut short.
    fn new(inner: &'a mut dyn Dice, cap: u32, cut_short: &'a AtomicBool) -> Capped<'a> {
        Capped {
            inner,
            left: cap,
            face: 0,
            cut_short,
        }
    }
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

/// `apply` or `preview` of a game.
type Play = fn(&mut dyn Game, Action, &mut dyn Dice) -> Result<Vec<Event>, Illegal>;

/// A game whose `apply` rolls at most `cap` dice from the dice it is handed (no limit when
/// `cap` is `None`).
struct Watched {
    game: Box<dyn Game>,
    cut_short: Arc<AtomicBool>,
    cap: Option<u32>,
}

impl Watched {
    /// Applies or previews `action` with the dice capped (when there is a cap).
    fn play(
        &mut self,
        action: Action,
        dice: &mut dyn Dice,
        how: Play,
    ) -> Result<Vec<Event>, Illegal> {
        match self.cap {
            Some(cap) => how(
                self.game.as_mut(),
                action,
                &mut Capped::new(dice, cap, &self.cut_short),
            ),
            None => how(self.game.as_mut(), action, dice),
        }
    }
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
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.game.legal_actions_into(out)
    }
    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        self.game.unit_actions(unit, out)
    }
    fn actors(&self) -> Vec<u32> {
        self.game.actors()
    }
    fn describe(&self, action: Action) -> ActionInfo {
        self.game.describe(action)
    }
    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.game.check(action)
    }
    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        match self.cap {
            Some(cap) => {
                self.game
                    .play_unchecked(action, &mut Capped::new(dice, cap, &self.cut_short), log)
            }
            None => self.game.play_unchecked(action, dice, log),
        }
    }
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        self.play(action, dice, |g, a, d| g.preview(a, d))
    }
    fn odds_cases(&self, action: Action) -> Option<Vec<OddsCase>> {
        self.game.odds_cases(action)
    }
    fn notation(&self, action: Action) -> String {
        self.game.notation(action)
    }
    fn notes(&self, action: Action) -> Vec<String> {
        self.game.notes(action)
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
    fn search_view(&self, side: Option<Side>) -> View {
        self.game.search_view(side)
    }
    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(Watched {
            game: self.game.clone_game(),
            cut_short: self.cut_short.clone(),
            cap: self.cap,
        })
    }
    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(Watched {
            game: self.game.determinize(side, dice),
            cut_short: self.cut_short.clone(),
            cap: self.cap,
        })
    }
    fn reach(&self, unit: &str) -> Vec<Reach> {
        self.game.reach(unit)
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.game.check_invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both sides roll a d6, again and again until the dice differ: the shape of an
    /// initiative roll with ties rolled again.
    #[derive(Clone)]
    struct Initiative {
        winner: Option<Side>,
    }

    impl Game for Initiative {
        fn ruleset(&self) -> &'static str {
            "initiative"
        }
        fn start(&mut self, _: &mut dyn Dice) -> Vec<Event> {
            Vec::new()
        }
        fn to_decide(&self) -> Option<Side> {
            self.winner.is_none().then_some(Side::Red)
        }
        fn legal_actions_into(&self, out: &mut Vec<Action>) {
            *out = vec![Action(0)];
        }
        fn describe(&self, _: Action) -> ActionInfo {
            ActionInfo::new("roll", volley_core::ActionKind::Other)
        }
        fn check(&self, _: Action) -> Result<(), Illegal> {
            Ok(())
        }
        fn play_unchecked(&mut self, _: Action, dice: &mut dyn Dice, _: &mut Log) {
            let winner = loop {
                let (red, blue) = (dice.roll(6), dice.roll(6));
                if red != blue {
                    break if red > blue { Side::Red } else { Side::Blue };
                }
            };
            self.winner = Some(winner);
        }
        fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
            self.apply(action, dice)
        }
        fn notation(&self, _: Action) -> String {
            "roll".into()
        }
        fn parse_action(&self, _: &str) -> Result<Action, Illegal> {
            Ok(Action(0))
        }
        fn turn(&self) -> u32 {
            1
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn view(&self, viewer: Option<Side>) -> View {
            View {
                ruleset: "initiative".into(),
                scenario: "initiative".into(),
                title: "initiative".into(),
                viewer,
                turn: 1,
                turn_limit: 1,
                phase: format!("{:?}", self.winner),
                phasing: None,
                to_decide: self.to_decide(),
                prompt: None,
                map: Arc::new(volley_core::map::Map::open(1, 1).to_view()),
                sides: Vec::new(),
                units: Vec::new(),
                markers: Vec::new(),
                features: Vec::new(),
                objectives: Vec::new(),
                outcome: None,
                standing: None,
            }
        }
        fn clone_game(&self) -> Box<dyn Game> {
            Box::new(self.clone())
        }
        fn check_invariants(&self) -> Result<(), String> {
            Ok(())
        }
    }

    /// A volley of a hundred dice that hits if any die is a six, with the two classes of
    /// sequences given as odds cases: more dice than [`MAX_ROLLS`] in each.
    #[derive(Clone)]
    struct Volley {
        hit: Option<bool>,
    }

    const VOLLEY_DICE: usize = 100;

    impl Game for Volley {
        fn ruleset(&self) -> &'static str {
            "volley"
        }
        fn start(&mut self, _: &mut dyn Dice) -> Vec<Event> {
            Vec::new()
        }
        fn to_decide(&self) -> Option<Side> {
            self.hit.is_none().then_some(Side::Red)
        }
        fn legal_actions_into(&self, out: &mut Vec<Action>) {
            *out = vec![Action(0)];
        }
        fn describe(&self, _: Action) -> ActionInfo {
            ActionInfo::new("fire", volley_core::ActionKind::Other)
        }
        fn check(&self, _: Action) -> Result<(), Illegal> {
            Ok(())
        }
        fn play_unchecked(&mut self, _: Action, dice: &mut dyn Dice, _: &mut Log) {
            let sixes = (0..VOLLEY_DICE).filter(|_| dice.roll(6) == 6).count();
            self.hit = Some(sixes > 0);
        }
        fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
            self.apply(action, dice)
        }
        fn odds_cases(&self, _: Action) -> Option<Vec<OddsCase>> {
            let miss = (5.0f64 / 6.0).powi(VOLLEY_DICE as i32);
            let mut hit = vec![1; VOLLEY_DICE];
            hit[VOLLEY_DICE - 1] = 6;
            Some(vec![
                OddsCase {
                    probability: miss,
                    dice: vec![1; VOLLEY_DICE],
                },
                OddsCase {
                    probability: 1.0 - miss,
                    dice: hit,
                },
            ])
        }
        fn notation(&self, _: Action) -> String {
            "fire".into()
        }
        fn parse_action(&self, _: &str) -> Result<Action, Illegal> {
            Ok(Action(0))
        }
        fn turn(&self) -> u32 {
            1
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn view(&self, viewer: Option<Side>) -> View {
            let mut v = Initiative { winner: None }.view(viewer);
            v.phase = format!("{:?}", self.hit);
            v
        }
        fn clone_game(&self) -> Box<dyn Game> {
            Box::new(self.clone())
        }
        fn check_invariants(&self) -> Result<(), String> {
            Ok(())
        }
    }

    #[test]
    fn odds_cases_are_forwarded_and_not_capped() {
        let game: Box<dyn Game> = Box::new(Volley { hit: None });
        let watched = Watched {
            game: game.clone_game(),
            cut_short: Arc::new(AtomicBool::new(false)),
            cap: None,
        };
        assert_eq!(
            watched.odds_cases(Action(0)).map(|c| c.len()),
            Some(2),
            "the wrapper gives the game's cases"
        );
        let odds = match odds(game, Action(0), Side::Red) {
            Ok(o) => o,
            Err(OddsRefusal::Endless(m) | OddsRefusal::Illegal(m)) => panic!("refused: {m}"),
        };
        assert!(odds.exact, "exact from the cases");
        assert_eq!(odds.trials, 2, "one play of each case");
        let total: f64 = odds.outcomes.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-9, "{:?}", odds.outcomes);
    }

    #[test]
    fn rolling_again_on_ties_does_not_run_the_odds_for_ever() {
        // Unguarded, the walker's first path rolls 1 against 1 for ever.
        let game = Box::new(Initiative { winner: None });
        match odds(game, Action(0), Side::Red) {
            Ok(o) => assert!(!o.exact, "sampled, since the walk was cut short"),
            Err(OddsRefusal::Endless(m)) => assert!(m.contains("without end"), "{m}"),
            Err(OddsRefusal::Illegal(m)) => panic!("refused as illegal: {m}"),
        }
    }
}
