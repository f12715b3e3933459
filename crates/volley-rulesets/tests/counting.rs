//! Counting tests, in the spirit of chess engines' perft: from fixed seeds, every bundled
//! scenario is played by a fixed stream of choices, and at fixed points the number of legal
//! actions and a hash of the whole event log are compared with pinned figures. Any change to
//! what the rules allow or do — move generation, dice use, event texts, turn stamps — moves
//! a figure; a change that only makes the engine faster moves none.
//!
//! The choices do not depend on the order in which a ruleset lists its actions: each is
//! picked from the legal list sorted by notation, so listing actions in another order (or by
//! unit) keeps the figures.
//!
//! When a rule is changed on purpose, print the new figures with
//! `VOLLEY_PIN=print cargo test -p volley-rulesets --test counting -- --nocapture`, paste
//! them below, and say in the commit why they moved.

use volley_core::{Game, LoggedEvent, Options, Seed, Session};
use volley_rulesets::{bundled, new_session, scenario_source};

/// After how many actions the figures are taken.
const CHECKPOINTS: [usize; 5] = [0, 10, 50, 200, 800];
/// The seeds (dice and choices) each scenario is played from.
const SEEDS: [u64; 2] = [1, 2];

/// (scenario, seed, actions played, legal actions then, hash of the log then).
/// A game that ends before a checkpoint is pinned at its end (legal actions 0).
const PINNED: &[(&str, u64, usize, usize, u64)] = &[
    ("hc-first-clash", 1, 0, 36, 0x2d439a45cfc6391c),
    ("hc-first-clash", 1, 10, 2, 0xf98e91593d29c516),
    ("hc-first-clash", 1, 50, 20, 0x816f8146bfc34f45),
    ("hc-first-clash", 1, 175, 0, 0x7d8c76508721ff46),
    ("hc-first-clash", 2, 0, 38, 0xa83a2655fb8c3843),
    ("hc-first-clash", 2, 10, 13, 0x83444679df933d6a),
    ("hc-first-clash", 2, 50, 30, 0x0f94c49f6343e3f1),
    ("hc-first-clash", 2, 63, 0, 0x64f8e65fdfa9b75e),
    ("hc-crossroads", 1, 0, 89, 0x2d439a45cfc6391c),
    ("hc-crossroads", 1, 10, 46, 0xc0e67d9acdbc5e2d),
    ("hc-crossroads", 1, 50, 82, 0x56edce112414cd70),
    ("hc-crossroads", 1, 200, 84, 0x4952df33b734be9d),
    ("hc-crossroads", 1, 566, 0, 0xf712a10d474aa65d),
    ("hc-crossroads", 2, 0, 90, 0xa83a2655fb8c3843),
    ("hc-crossroads", 2, 10, 51, 0x44686d36fb3eb111),
    ("hc-crossroads", 2, 50, 34, 0x76b810b0eb32eaf8),
    ("hc-crossroads", 2, 200, 84, 0x1a14f3b4c5f15993),
    ("hc-crossroads", 2, 507, 0, 0x6cee8c3a37d1afcc),
    ("hc-night-march", 1, 0, 115, 0x2d439a45cfc6391c),
    ("hc-night-march", 1, 10, 104, 0x949f78bd4573d8de),
    ("hc-night-march", 1, 50, 21, 0xf8d3680f0ac370f3),
    ("hc-night-march", 1, 200, 27, 0x56ff386d67b53a9a),
    ("hc-night-march", 1, 800, 56, 0x5c7533fa01cac430),
    ("hc-night-march", 2, 0, 117, 0xa83a2655fb8c3843),
    ("hc-night-march", 2, 10, 85, 0xc7cb964c233e8844),
    ("hc-night-march", 2, 50, 95, 0xf37d3c32b9a31464),
    ("hc-night-march", 2, 200, 70, 0x55114222a942ac1e),
    ("hc-night-march", 2, 800, 47, 0x99173130ba0fbea9),
    ("sad-river-crossing", 1, 0, 57, 0x0912e694d829e2b6),
    ("sad-river-crossing", 1, 10, 42, 0x5c6d91dc1e74d91a),
    ("sad-river-crossing", 1, 50, 12, 0x2ae001f441bdc92b),
    ("sad-river-crossing", 1, 200, 24, 0x6c2dafaff7614a49),
    ("sad-river-crossing", 1, 380, 0, 0x7604d454ad02fe92),
    ("sad-river-crossing", 2, 0, 57, 0xc301008a5879ae1e),
    ("sad-river-crossing", 2, 10, 33, 0x6c514d164a2c9e8d),
    ("sad-river-crossing", 2, 50, 59, 0xca2864f8e476ce3f),
    ("sad-river-crossing", 2, 200, 41, 0x8aa686b25cec9631),
    ("sad-river-crossing", 2, 374, 0, 0xed7dd1b9dd81087a),
    ("grid-ridge", 1, 0, 53, 0xe7de3bec89245ef5),
    ("grid-ridge", 1, 10, 5, 0x1e353f51d7a12fa1),
    ("grid-ridge", 1, 50, 48, 0x7e69aa525ce00ec2),
    ("grid-ridge", 1, 150, 0, 0xbadb27d05ca97f20),
    ("grid-ridge", 2, 0, 56, 0x7eee6ba13e89e8de),
    ("grid-ridge", 2, 10, 46, 0xf3913dfdb99ee79a),
    ("grid-ridge", 2, 50, 50, 0xf09a80a2ba49426a),
    ("grid-ridge", 2, 120, 0, 0xc402ae634460dec1),
    ("hc-corps", 1, 0, 2447, 0x2d439a45cfc6391c),
    ("hc-corps", 1, 10, 1769, 0xa8d126503e16b3dd),
    ("hc-corps", 1, 50, 844, 0xe2b38970aa0d8f35),
    ("hc-corps", 1, 200, 566, 0x54a4eab59f69f4d3),
    ("hc-corps", 1, 800, 249, 0x6d9e045cd171ab18),
    ("hc-corps", 2, 0, 2425, 0xa83a2655fb8c3843),
    ("hc-corps", 2, 10, 1737, 0xf8a88ddd4109ce47),
    ("hc-corps", 2, 50, 845, 0x2e95a34b44c8df18),
    ("hc-corps", 2, 200, 453, 0x219fdf02ba6900b5),
    ("hc-corps", 2, 800, 904, 0xf665db4461a75b95),
];

/// FNV-1a over everything a player reads in the log.
fn log_hash(log: &[LoggedEvent]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for e in log {
        let ev = &e.event;
        eat(&e.turn.to_le_bytes());
        eat(ev.kind.as_bytes());
        eat(ev.rule.as_bytes());
        eat(ev.text.as_bytes());
        eat(ev.side.map_or("-", |s| s.name()).as_bytes());
        eat(ev.units.join(",").as_bytes());
        eat(format!("{:?}", ev.seen).as_bytes());
        eat(&[ev.opens_turn as u8]);
    }
    h
}

/// splitmix64: the test's own choices.
struct Choices(u64);

impl Choices {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The figures of one scenario and seed, one row per checkpoint.
fn count(name: &str, seed: u64) -> Vec<(usize, usize, u64)> {
    let (name, source) = scenario_source(name).expect("bundled");
    let mut session: Session = new_session(&name, &source, &Options::new(), Seed::from_u64(seed))
        .expect("a bundled scenario starts");
    let mut choices = Choices(seed ^ 0x5eed);
    let mut played = 0;
    let mut rows = Vec::new();
    for &k in &CHECKPOINTS {
        while played < k && session.game.to_decide().is_some() {
            let game: &dyn Game = &*session.game;
            let mut legal: Vec<(String, volley_core::Action)> = game
                .legal_actions()
                .into_iter()
                .map(|a| (game.notation(a), a))
                .collect();
            legal.sort();
            let (_, action) = legal[(choices.next() % legal.len() as u64) as usize];
            session.apply(action, &[]).expect("a listed action applies");
            played += 1;
        }
        rows.push((
            played,
            session.game.legal_actions().len(),
            log_hash(&session.log),
        ));
        if session.game.to_decide().is_none() {
            break;
        }
    }
    rows
}

#[test]
fn legal_action_counts_and_event_logs_match_the_pinned_figures() {
    let print = std::env::var("VOLLEY_PIN").is_ok_and(|v| v == "print");
    let mut mismatches = Vec::new();
    let mut lines = Vec::new();
    for b in bundled() {
        for seed in SEEDS {
            for (played, legal, hash) in count(b.name, seed) {
                lines.push(format!(
                    "    (\"{}\", {seed}, {played}, {legal}, {hash:#018x}),",
                    b.name
                ));
                let pinned = PINNED
                    .iter()
                    .find(|p| p.0 == b.name && p.1 == seed && p.2 == played);
                match pinned {
                    Some(&(_, _, _, l, h)) if l == legal && h == hash => {}
                    Some(&(_, _, _, l, h)) => mismatches.push(format!(
                        "{} seed {seed} after {played} actions: {legal} legal actions (pinned {l}), log hash {hash:#018x} (pinned {h:#018x})",
                        b.name
                    )),
                    None => mismatches.push(format!(
                        "{} seed {seed} after {played} actions: no pinned figures",
                        b.name
                    )),
                }
            }
        }
    }
    if print {
        println!(
            "const PINNED: &[(&str, u64, usize, usize, u64)] = &[\n{}\n];",
            lines.join("\n")
        );
    }
    assert!(
        mismatches.is_empty(),
        "the rules behave differently from the pinned figures:\n{}\n(if a rule was changed on purpose, see the top of this file)",
        mismatches.join("\n")
    );
}
