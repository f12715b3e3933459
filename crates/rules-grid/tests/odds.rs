//! Odds (Volley's): what `volley odds` and the browser show for an attack whose hits the rules hold
//! to the end of the phase. One test per rule, with scripted dice and exact results. Maps are
//! square unless a test says hex; labels are column then row ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::{Game, ScriptedDice, Side};

/// The position: blue b1 and b2 in line facing N, red r1 two tiles ahead of b1; blue
/// plays first and its movement is over.
fn blue_volley() -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 5)),
        &[
            unit("b1", "blue", "line_infantry", "0304", "N"),
            unit("b2", "blue", "line_infantry", "0404", "N"),
            unit("r1", "red", "line_infantry", "0302", "S"),
        ],
        "",
    );
    let mut g = start(&s, &[1, 6]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue ranged attacks");
    g
}

/// The odds of an order as blue sees them: (outcome, probability) by falling probability.
fn odds_of(g: &dyn Game, order: &str) -> Vec<(String, f64)> {
    let action = g.parse_action(order).unwrap();
    let o = volley_core::odds::odds(g, action, Some(Side::Blue)).unwrap();
    assert!(o.exact, "{order}: the odds are exact");
    o.outcomes
        .into_iter()
        .map(|l| (l.outcome, l.probability))
        .collect()
}

fn assert_odds(got: &[(String, f64)], want: &[(&str, f64)]) {
    let got: Vec<(&str, f64)> = got.iter().map(|(o, p)| (o.as_str(), *p)).collect();
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((o, p), (wo, wp)) in got.iter().zip(want) {
        assert_eq!(o, wo, "{got:?}");
        assert!((p - wp).abs() < 1e-9, "{o}: {p} against {wp}");
    }
}

#[test]
fn odds_weigh_a_shots_own_hits_though_they_are_held_to_the_end_of_the_phase() {
    let g = blue_volley();
    // Range 2 on the line infantry table: 2-5 miss (10/36), 6-8 one hit (16/36), 9-11 two
    // (9/36), 12 three (1/36). Then r1's die: 1-2 retreat (to 0202, away from b1 and beside
    // no enemy), 3 retreat and one more loss, 4-6 stand and one more loss.
    let want = [
        ("no effect", 10.0 / 36.0),
        ("0302 r1: hits 0→2, loses 2", 16.0 / 36.0 / 2.0),
        (
            "0302 r1: hits 0→2, loses 2, to 0202",
            16.0 / 36.0 / 6.0 + 9.0 / 36.0 / 3.0,
        ),
        ("0302 r1: hits 0→1, loses 1, to 0202", 16.0 / 36.0 / 3.0),
        ("0302 r1: hits 0→3, loses 3", 9.0 / 36.0 / 2.0),
        (
            "0302 r1: hits 0→3, loses 3, to 0202",
            9.0 / 36.0 / 6.0 + 1.0 / 36.0 / 3.0,
        ),
        ("0302 r1: hits 0→4, loses 4", 1.0 / 36.0 / 2.0),
        ("0302 r1: hits 0→4, loses 4, to 0202", 1.0 / 36.0 / 6.0),
    ];
    assert_odds(&odds_of(&*g, "fire b1 0302"), &want);
    // Weighing the odds changed nothing.
    assert_eq!(legal(&*g), ["fire b1 0302", "fire b2 0302", "end"]);
    assert_eq!(strength(&*g, "r1"), 6);
}

#[test]
fn odds_of_a_later_shot_weigh_its_own_die_and_leave_earlier_hits_held() {
    let mut g = blue_volley();
    // b2's shot, at range 3, scores 1 hit, held for the end of the phase.
    play(&mut g, "fire b2 0302", &[5, 5]);
    assert_eq!(strength(&*g, "r1"), 6);
    // b1's preview: 3+4 = 7, one hit; r1's die for b1 alone is 5: it stands and loses one
    // more. b2's two hits stay held, not counted in what b1's shot does.
    let mut preview = g.clone_game();
    let mut dice = ScriptedDice::new([3, 4, 5]);
    let events = preview
        .preview(g.parse_action("fire b1 0302").unwrap(), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    let t = texts(&events);
    assert!(
        t.contains("r1 takes 1 hit from 1 unit: strength 6 → 5."),
        "{t}"
    );
    assert!(
        t.contains("r1 at 0302 rolls 5 (stand): it does not retreat and loses 1 more point; strength now 4."),
        "{t}"
    );
    assert_eq!(strength(&*preview, "r1"), 4);
    // The game itself is untouched, and ends the phase with both shots' hits together.
    assert_eq!(strength(&*g, "r1"), 6);
    let events = play(&mut g, "fire b1 0302", &[3, 4, 1, 5]);
    assert!(
        texts(&events).contains("r1 takes 2 hits from 2 units: strength 6 → 4."),
        "{}",
        texts(&events)
    );
}

#[test]
fn odds_of_an_infantry_attack_on_cavalry_weigh_it_as_if_the_cavalry_stands() {
    let mut g = melee(
        &rows(&open(5, 5)),
        ("line_infantry", "0304", "N"),
        ("cavalry", "0303", "S"),
    );
    let action = g.parse_action("attack r1 0303").unwrap();
    let o = volley_core::odds::odds(&*g, action, Some(Side::Red)).unwrap();
    // Line infantry close combat: 2-4 no hit (6/36), the cavalry only engaged; every other
    // roll hits it.
    let missed = o
        .outcomes
        .iter()
        .find(|l| l.outcome == "0303 b1: engaged; 0304 r1: attacked")
        .map(|l| l.probability);
    assert!(
        missed.is_some_and(|p| (p - 6.0 / 36.0).abs() < 1e-9),
        "{:?}",
        o.outcomes
    );
    assert_eq!(o.outcomes.len(), 7, "{:?}", o.outcomes);
    assert!(o.outcomes.iter().all(|l| l.outcome != "no effect"));
    // Playing it still puts the choice to the cavalry.
    play(&mut g, "attack r1 0303", &[]);
    assert_eq!(g.to_decide(), Some(Side::Blue));
}

/// Rules v1.1 as it was before odds settled held hits: a preview that is a plain `apply`.
struct HeldHitsUnsettled(Box<dyn Game>);

impl Game for HeldHitsUnsettled {
    fn ruleset(&self) -> &'static str {
        self.0.ruleset()
    }
    fn start(&mut self, dice: &mut dyn volley_core::Dice) -> Vec<volley_core::Event> {
        self.0.start(dice)
    }
    fn to_decide(&self) -> Option<Side> {
        self.0.to_decide()
    }
    fn legal_actions_into(&self, out: &mut Vec<volley_core::Action>) {
        self.0.legal_actions_into(out)
    }
    fn check(&self, action: volley_core::Action) -> Result<(), volley_core::Illegal> {
        self.0.check(action)
    }
    fn play_unchecked(
        &mut self,
        action: volley_core::Action,
        dice: &mut dyn volley_core::Dice,
        log: &mut volley_core::Log,
    ) {
        self.0.play_unchecked(action, dice, log)
    }
    fn preview(
        &mut self,
        action: volley_core::Action,
        dice: &mut dyn volley_core::Dice,
    ) -> Result<Vec<volley_core::Event>, volley_core::Illegal> {
        self.0.apply(action, dice)
    }
    fn notation(&self, action: volley_core::Action) -> String {
        self.0.notation(action)
    }
    fn describe(&self, action: volley_core::Action) -> volley_core::ActionInfo {
        self.0.describe(action)
    }
    fn parse_action(&self, text: &str) -> Result<volley_core::Action, volley_core::Illegal> {
        self.0.parse_action(text)
    }
    fn turn(&self) -> u32 {
        self.0.turn()
    }
    fn outcome(&self) -> Option<volley_core::Outcome> {
        self.0.outcome()
    }
    fn view(&self, side: Option<Side>) -> volley_core::View {
        self.0.view(side)
    }
    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(HeldHitsUnsettled(self.0.clone_game()))
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.0.check_invariants()
    }
}

#[test]
fn odds_are_refused_rather_than_shown_wrong_when_a_preview_leaves_hits_held() {
    let g = HeldHitsUnsettled(blue_volley());
    let action = g.parse_action("fire b1 0302").unwrap();
    let e = volley_core::odds::odds(&g, action, Some(Side::Blue)).unwrap_err();
    assert_eq!(
        e.0,
        "the odds of \"fire b1 0302\" cannot be shown: grid-rules-v1.1's preview says it does nothing, but played out to the end of its phase it does (the ruleset's Game::preview leaves results unsettled)"
    );
}
