//! The Game API over whole battles: random games played to the end with the listing and the
//! invariants checked after every action, and the determinized copies of hidden movement.

mod common;

use common::*;

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
