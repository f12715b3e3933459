//! Odds from a ruleset's own classes of die sequences ([`Game::odds_cases`]) against the odds
//! walked die by die, on a toy game small enough to walk and large enough not to be.

use std::collections::BTreeMap;
use std::sync::Arc;
use volley_core::chance::{binomial, d6_at_least, dice_for_count};
use volley_core::dice::DiceEnumerator;
use volley_core::geometry::hex_at;
use volley_core::map::{Map, MapView};
use volley_core::odds::{describe_change, odds, Odds, OddsCase};
use volley_core::view::UnitView;
use volley_core::{
    Action, ActionInfo, ActionKind, Dice, Event, Game, Illegal, Log, Outcome, Place, Side, View,
};

/// What the toy game says when asked for its odds cases.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hook {
    /// Nothing: the odds walk (or sample) the dice.
    Off,
    /// The right classes, counted with [`volley_core::chance`].
    Counted,
    /// The right chances, but each representative one die short.
    OneDieShort,
    /// The right chances, but each representative with a die too many.
    OneDieOver,
    /// The right representatives, but every chance halved.
    HalfChances,
}

/// Red's one action: `dice` d6 at a target, hitting on 4+; the target rolls a d6 for each
/// hit and saves it on 5+; each hit not saved takes one strength point off the target.
#[derive(Clone)]
struct Salvo {
    dice: u32,
    strength: u32,
    hook: Hook,
    map: Arc<MapView>,
}

const FIRE: Action = Action(1);
const HIT_ON: u32 = 4;
const SAVE_ON: u32 = 5;

impl Salvo {
    fn new(dice: u32, hook: Hook) -> Salvo {
        Salvo {
            dice,
            strength: 100,
            hook,
            map: Arc::new(Map::open(3, 3).to_view()),
        }
    }
}

impl Game for Salvo {
    fn ruleset(&self) -> &'static str {
        "salvo"
    }
    fn start(&mut self, _: &mut dyn Dice) -> Vec<Event> {
        Vec::new()
    }
    fn to_decide(&self) -> Option<Side> {
        Some(Side::Red)
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.push(FIRE);
    }
    fn check(&self, action: Action) -> Result<(), Illegal> {
        if action != FIRE {
            return Err(Illegal::new("only fire"));
        }
        Ok(())
    }
    fn play_unchecked(&mut self, _: Action, dice: &mut dyn Dice, log: &mut Log) {
        let shots: Vec<u32> = (0..self.dice).map(|_| dice.roll(6)).collect();
        let hits = shots.iter().filter(|&&d| d >= HIT_ON).count() as u32;
        let saves: Vec<u32> = (0..hits).map(|_| dice.roll(6)).collect();
        let saved = saves.iter().filter(|&&d| d >= SAVE_ON).count() as u32;
        self.strength = self.strength.saturating_sub(hits - saved);
        log.add(|| {
            Event::new(
                "fire",
                "salvo 1",
                format!("rolls {shots:?}: {hits} hits; saves {saves:?}: {saved} saved"),
            )
            .side(Side::Red)
        });
    }
    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        self.apply(action, dice)
    }
    fn odds_cases(&self, action: Action) -> Option<Vec<OddsCase>> {
        if self.hook == Hook::Off || action != FIRE {
            return None;
        }
        let n = self.dice;
        let mut cases = Vec::new();
        for (k, &p_hits) in binomial(n, d6_at_least(HIT_ON)).iter().enumerate() {
            let k = k as u32;
            for (s, &p_saves) in binomial(k, d6_at_least(SAVE_ON)).iter().enumerate() {
                let mut dice = dice_for_count(n, k, HIT_ON);
                dice.extend(dice_for_count(k, s as u32, SAVE_ON));
                match self.hook {
                    Hook::OneDieShort => {
                        dice.pop();
                    }
                    Hook::OneDieOver => dice.push(1),
                    _ => {}
                }
                let share = if self.hook == Hook::HalfChances {
                    0.5
                } else {
                    1.0
                };
                cases.push(OddsCase {
                    probability: p_hits * p_saves * share,
                    dice,
                });
            }
        }
        Some(cases)
    }
    fn notation(&self, _: Action) -> String {
        "fire 0202".into()
    }
    fn describe(&self, _: Action) -> ActionInfo {
        ActionInfo::new("fire", ActionKind::Attack).at(hex_at(2, 2))
    }
    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        (text == "fire 0202")
            .then_some(FIRE)
            .ok_or_else(|| Illegal::new("only fire"))
    }
    fn turn(&self) -> u32 {
        1
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn view(&self, side: Option<Side>) -> View {
        let target = UnitView {
            id: "b1".into(),
            key: 1,
            name: "Target".into(),
            side: Side::Blue,
            arm: "infantry".into(),
            class: None,
            symbol: 'I',
            place: Place::Hex(hex_at(2, 2)),
            facing: None,
            hits: 0,
            max_hits: 0,
            te: 0,
            max_te: 0,
            strength: Some(self.strength),
            elements: None,
            formation: None,
            cone: Vec::new(),
            flags: Vec::new(),
            commander: None,
        };
        View {
            ruleset: "salvo".into(),
            scenario: "salvo".into(),
            title: "Salvo".into(),
            viewer: side,
            turn: 1,
            turn_limit: 1,
            phase: "Red fire".into(),
            phasing: Some(Side::Red),
            to_decide: Some(Side::Red),
            prompt: None,
            map: self.map.clone(),
            sides: Vec::new(),
            units: vec![target],
            markers: Vec::new(),
            objectives: Vec::new(),
            features: Vec::new(),
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

fn lines(odds: &Odds) -> BTreeMap<String, f64> {
    odds.outcomes
        .iter()
        .map(|l| (l.outcome.clone(), l.probability))
        .collect()
}

fn assert_same(counted: &BTreeMap<String, f64>, walked: &BTreeMap<String, f64>, n: u32) {
    assert_eq!(
        counted.keys().collect::<Vec<_>>(),
        walked.keys().collect::<Vec<_>>(),
        "{n} dice"
    );
    for (outcome, p) in counted {
        assert!(
            (p - walked[outcome]).abs() < 1e-9,
            "{n} dice, {outcome}: counted {p}, walked {}",
            walked[outcome]
        );
    }
}

/// Every die sequence of the action walked, however many: what `odds` does below its limit.
fn walk_everything(game: &dyn Game) -> BTreeMap<String, f64> {
    let before = game.view(None);
    let mut tally: BTreeMap<String, f64> = BTreeMap::new();
    let mut e = DiceEnumerator::new();
    loop {
        e.begin();
        let mut g = game.clone_game();
        g.preview(FIRE, &mut e).unwrap();
        let outcome = describe_change(&before, &g.view(None));
        *tally.entry(outcome).or_default() += e.probability();
        if !e.advance() {
            break;
        }
    }
    assert!(!e.truncated);
    tally
}

#[test]
fn counted_cases_give_the_walked_odds() {
    for n in 1..=3 {
        for viewer in [None, Some(Side::Red)] {
            let counted = odds(&Salvo::new(n, Hook::Counted), FIRE, viewer).unwrap();
            let walked = odds(&Salvo::new(n, Hook::Off), FIRE, viewer).unwrap();
            assert!(counted.exact && walked.exact, "{n} dice");
            assert_eq!(counted.trials, ((n + 1) * (n + 2) / 2) as usize);
            assert_same(&lines(&counted), &lines(&walked), n);
            // Every line tells one way of getting there: the representative's dice.
            assert!(counted
                .outcomes
                .iter()
                .all(|l| l.example.starts_with("rolls [")));
        }
    }
}

#[test]
fn counted_cases_stay_exact_where_the_walk_gives_up() {
    // Four dice and their saves are 21^4 sequences, past what `odds` walks: it samples.
    let n = 4;
    let counted = odds(&Salvo::new(n, Hook::Counted), FIRE, None).unwrap();
    let sampled = odds(&Salvo::new(n, Hook::Off), FIRE, None).unwrap();
    assert!(counted.exact);
    assert!(!sampled.exact);
    assert_same(
        &lines(&counted),
        &walk_everything(&Salvo::new(n, Hook::Off)),
        n,
    );
}

#[test]
fn thirty_dice_are_counted_exactly() {
    let counted = odds(&Salvo::new(30, Hook::Counted), FIRE, Some(Side::Red)).unwrap();
    assert!(counted.exact);
    assert_eq!(counted.trials, 31 * 32 / 2);
    // Every number of hits not saved, 0 ("no effect") to 30, can happen.
    assert_eq!(counted.outcomes.len(), 31);
    let total: f64 = counted.outcomes.iter().map(|l| l.probability).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Each die does a strength point with chance 1/2 × 2/3 = 1/3, so all thirty get
    // through with chance 3^-30.
    let all = &lines(&counted)["0202 Target: loses 30"];
    assert!((all - 3f64.powi(-30)).abs() < 1e-12);
}

#[test]
fn cases_with_the_wrong_dice_are_refused_not_panicked_on() {
    for (hook, why) in [
        (Hook::OneDieShort, "1 die short"),
        (Hook::OneDieOver, "1 die too many"),
    ] {
        let refused = odds(&Salvo::new(3, hook), FIRE, None).unwrap_err();
        assert!(
            refused.0.contains("\"fire 0202\"")
                && refused.0.contains("odds cases are wrong")
                && refused.0.contains(why),
            "{hook:?}: {}",
            refused.0
        );
    }
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "do not add up to 1")]
fn chances_that_do_not_add_up_are_caught_in_debug_builds() {
    let _ = odds(&Salvo::new(2, Hook::HalfChances), FIRE, None);
}
