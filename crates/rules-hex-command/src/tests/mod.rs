//! Rule-by-rule tests: each sets up a position, scripts the dice and asserts the outcome.
//! One file per chapter; this one holds the helpers and whole-game checks.

mod bad_scenarios;
mod command;
mod command_orders;
mod fire;
mod hidden;
mod melee;
mod movement;
mod optional_rules;
mod rout_rally;
mod sequence;

use super::*;
use crate::game::*;
use crate::state::*;
use volley_core::geometry::parse_label;
use volley_core::Side;
use volley_core::{Game, ScriptedDice, Seed, SeededDice};

pub(crate) fn h(l: &str) -> volley_core::Hex {
    parse_label(l).expect("label")
}

/// A game from a small scenario: a 10×10 open map unless `map` rows are given, the units
/// given as TOML `[[units]]` tables, options as `key = "value"` lines.
pub(crate) fn setup(options: &str, map_rows: &[&str], units: &str) -> HexCommandGame {
    let rows = if map_rows.is_empty() {
        (0..10)
            .map(|_| format!("\"{}\"", ["."; 10].join(" ")))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        map_rows
            .iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 10\n[options]\n{options}\n[map]\nrows = [{rows}]\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true }}]\n[sides.blue]\nname = \"Blue\"\ncommanders = [{{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }}]\n{units}"
    );
    let src = volley_core::ScenarioSource::new("test.toml", text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Like [`setup`], on a 10×10 open map with some hexes changed (`("0505", "W")`) and extra
/// `[map]` keys (roads, hexsides) given as TOML lines.
pub(crate) fn setup_map(
    options: &str,
    changes: &[(&str, &str)],
    map_extra: &str,
    units: &str,
) -> HexCommandGame {
    let mut grid = vec![vec!["."; 10]; 10];
    for (l, code) in changes {
        let (c, r) = volley_core::geometry::col_row(h(l));
        grid[(r - 1) as usize][(c - 1) as usize] = code;
    }
    let rows = grid
        .iter()
        .map(|r| format!("\"{}\"", r.join(" ")))
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!(
        "ruleset = \"hex-command\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 10\n[options]\n{options}\n[map]\nrows = [{rows}]\n{map_extra}\n[sides.red]\nname = \"Red\"\ncommanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true }}]\n[sides.blue]\nname = \"Blue\"\ncommanders = [{{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }}]\n{units}"
    );
    let src = volley_core::ScenarioSource::new("test.toml", text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

pub(crate) fn unit(
    id: &str,
    side: &str,
    arm: &str,
    hex: &str,
    facing: &str,
    extra: &str,
) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nname = \"{id}\"\narm = \"{arm}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n{extra}\n")
}

impl HexCommandGame {
    pub(crate) fn idx(&self, id: &str) -> usize {
        self.state
            .units
            .iter()
            .position(|u| u.id == id)
            .expect("unit id")
    }
    pub(crate) fn u(&self, id: &str) -> &Unit {
        &self.state.units[self.idx(id)]
    }
    /// A unit to set up a position with. The board is brought up to date before the next
    /// action, listing or check made through these helpers ([`HexCommandGame::sync`]).
    pub(crate) fn um(&mut self, id: &str) -> &mut Unit {
        let i = self.idx(id);
        &mut self.state.units[i]
    }
    /// Rebuilds the board and the listing after a test has placed units by hand.
    pub(crate) fn sync(&mut self) {
        self.relist();
    }
    /// Puts the game at the start of `side`'s phase `phase`, player A being `side`.
    pub(crate) fn at(&mut self, side: Side, phase: Phase) {
        let s = &mut self.state;
        s.turns.first = side;
        s.turns.at = 0;
        s.phase = phase;
        for i in 0..s.units.len() {
            let mp = crate::effects::allowance(s, &s.units[i]);
            let u = &mut s.units[i];
            u.mp = mp;
            u.move_start = u.hex;
            u.stepped = false;
        }
        self.relist();
    }
    /// The fire step with `side` firing: as the phasing player (the step's second round) or
    /// the non-phasing one (its first), 7 c's standard order.
    pub(crate) fn at_fire(&mut self, side: Side, phasing: bool) {
        let phasing_side = if phasing { side } else { side.other() };
        self.at(phasing_side, Phase::Fire);
        let s = &mut self.state;
        s.fire_rounds = vec![
            crate::state::FireRound {
                side: phasing_side.other(),
                who: crate::state::FireWho::All,
            },
            crate::state::FireRound {
                side: phasing_side,
                who: crate::state::FireWho::All,
            },
        ];
        s.fire_round = phasing as u8;
        self.relist();
    }

    /// Applies an action by notation with scripted dice; panics if illegal.
    pub(crate) fn play(&mut self, text: &str, dice: &[u32]) -> Vec<volley_core::Event> {
        self.sync();
        let a = self
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut d = ScriptedDice::new(dice.iter().copied());
        let events = self
            .apply(a, &mut d)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(d.remaining(), 0, "{text}: unused scripted dice");
        events
    }
    pub(crate) fn refused(&mut self, text: &str) -> String {
        self.sync();
        let before = format!("{:?}", self.view(None));
        let a = self
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let err = self
            .apply(a, &mut ScriptedDice::new([]))
            .expect_err("should be illegal");
        assert_eq!(
            before,
            format!("{:?}", self.view(None)),
            "an illegal action changed the game"
        );
        err.0
    }
    pub(crate) fn legal_texts(&self) -> Vec<String> {
        let mut g = self.clone();
        g.sync();
        g.legal_actions()
            .into_iter()
            .map(|a| g.notation(a))
            .collect()
    }
}

fn bundled(name: &str) -> HexCommandGame {
    let text = match name {
        "hc-first-clash" => include_str!("../../../../scenarios/hc-first-clash.toml"),
        "hc-crossroads" => include_str!("../../../../scenarios/hc-crossroads.toml"),
        _ => include_str!("../../../../scenarios/hc-night-march.toml"),
    };
    let src = volley_core::ScenarioSource::new(name, text);
    HexCommandGame::new(
        scenario::load(&src, &volley_core::Options::new(), OPTIONS)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

#[test]
fn bundled_scenarios_play_to_the_end_with_random_moves() {
    use rand::{Rng, SeedableRng};
    for name in ["hc-first-clash", "hc-crossroads", "hc-night-march"] {
        for seed in 0..40u64 {
            let mut g = bundled(name);
            let mut dice = SeededDice::new(Seed::from_u64(seed));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            g.start(&mut dice);
            let mut n = 0;
            while g.outcome().is_none() {
                let legal = g.legal_actions();
                assert!(!legal.is_empty(), "{name} seed {seed}: stuck");
                // The actions listed unit by unit are the whole list, less `end`.
                let mut by_unit: Vec<volley_core::Action> = Vec::new();
                for k in g.actors() {
                    let mut mine = Vec::new();
                    g.unit_actions(k, &mut mine);
                    assert!(
                        !mine.is_empty(),
                        "{name} seed {seed}: actor {k} has no action"
                    );
                    by_unit.extend(mine);
                }
                let mut all = legal.clone();
                all.retain(|&a| g.describe(a).unit.is_some());
                all.sort();
                by_unit.sort();
                assert_eq!(all, by_unit, "{name} seed {seed}: per-unit listing");
                let a = legal[rng.random_range(0..legal.len())];
                g.apply(a, &mut dice).unwrap();
                // The action is not listed yet: whether the side has a choice is judged
                // unit by unit, and must agree with the listing once it is brought up to date.
                assert!(!g.is_listed(), "{name} seed {seed}: listed at once");
                let unlisted = g.has_choice();
                let listed = g.clone();
                listed.actors();
                assert!(listed.is_listed());
                assert_eq!(
                    unlisted,
                    listed.has_choice(),
                    "{name} seed {seed} after {}: a choice judged before the listing",
                    g.notation(a)
                );
                if let Err(e) = g.check_invariants() {
                    panic!("{name} seed {seed} after {}: {e}", g.notation(a));
                }
                n += 1;
                assert!(n < 20_000, "{name} seed {seed}: does not end");
            }
        }
    }
}

#[test]
#[ignore]
fn stats() {
    use rand::{Rng, SeedableRng};
    for name in ["hc-first-clash", "hc-crossroads", "hc-night-march"] {
        let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
        let mut wins = [0, 0, 0];
        let mut actions = 0;
        let mut turns = 0;
        for seed in 0..100u64 {
            let mut g = bundled(name);
            let mut dice = SeededDice::new(Seed::from_u64(seed));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            g.start(&mut dice);
            while g.outcome().is_none() {
                let legal = g.legal_actions();
                let a = legal[rng.random_range(0..legal.len())];
                for e in g.apply(a, &mut dice).unwrap() {
                    *kinds.entry(e.kind.to_string()).or_default() += 1;
                }
                actions += 1;
            }
            turns += g.turn();
            match g.outcome().unwrap().winner {
                Some(Side::Red) => wins[0] += 1,
                Some(Side::Blue) => wins[1] += 1,
                None => wins[2] += 1,
            }
        }
        println!(
            "{name}: wins {wins:?} actions/game {} turns/game {}\n  {kinds:?}",
            actions / 100,
            turns / 100
        );
    }
}

#[test]
fn determinized_copy_keeps_what_the_side_sees_and_shuffles_the_rest() {
    let g = bundled("hc-night-march");
    let mut dice = SeededDice::new(Seed::from_u64(3));
    let red_view = serde_json::to_string(&g.view(Some(Side::Red))).unwrap();
    let mut moved = 0;
    for _ in 0..20 {
        let d = g.determinize(Side::Red, &mut dice);
        assert_eq!(
            serde_json::to_string(&d.view(Some(Side::Red))).unwrap(),
            red_view,
            "red's picture is unchanged"
        );
        let full = d.view(None);
        moved += g
            .state
            .units
            .iter()
            .filter(|u| {
                u.side == Side::Blue
                    && full
                        .unit(&u.id)
                        .is_some_and(|x| x.place != volley_core::Place::Hex(u.hex))
            })
            .count();
    }
    assert!(
        moved > 0,
        "blue's hidden units are dealt out among the markers"
    );
}
