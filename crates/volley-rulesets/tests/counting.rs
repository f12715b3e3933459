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
    ("hc-first-clash", 1, 50, 22, 0x84ce9a01c19702c4),
    ("hc-first-clash", 1, 195, 0, 0x0e802c2871285a8f),
    ("hc-first-clash", 2, 0, 39, 0xa83a2655fb8c3843),
    ("hc-first-clash", 2, 10, 37, 0x5a4e5a65369c8b62),
    ("hc-first-clash", 2, 50, 34, 0x023f085985690304),
    ("hc-first-clash", 2, 143, 0, 0xc9e808ae3a797d6d),
    ("hc-crossroads", 1, 0, 89, 0x2d439a45cfc6391c),
    ("hc-crossroads", 1, 10, 60, 0xfd6c510418f02c09),
    ("hc-crossroads", 1, 50, 15, 0x0f78bb957c846ed9),
    ("hc-crossroads", 1, 200, 12, 0x80ccfb23d232cfca),
    ("hc-crossroads", 1, 299, 0, 0x498639aa2fed3c73),
    ("hc-crossroads", 2, 0, 89, 0xa83a2655fb8c3843),
    ("hc-crossroads", 2, 10, 35, 0xb730d748474b9697),
    ("hc-crossroads", 2, 50, 57, 0x92b5c5fc3cbc8fe9),
    ("hc-crossroads", 2, 200, 46, 0x46710b4745183b0c),
    ("hc-crossroads", 2, 334, 0, 0x3b287f25354223db),
    ("hc-night-march", 1, 0, 143, 0x2d439a45cfc6391c),
    ("hc-night-march", 1, 10, 116, 0x4670b38171631769),
    ("hc-night-march", 1, 50, 140, 0xb5d30647f0c36fc2),
    ("hc-night-march", 1, 200, 104, 0xcaed5236e91fa5b3),
    ("hc-night-march", 1, 800, 149, 0xe6bcbe863d871643),
    ("hc-night-march", 2, 0, 152, 0xa83a2655fb8c3843),
    ("hc-night-march", 2, 10, 148, 0x0d113ceee5d414a8),
    ("hc-night-march", 2, 50, 97, 0xa11e8da28518ffd7),
    ("hc-night-march", 2, 200, 131, 0x77e745ec72f83ca2),
    ("hc-night-march", 2, 800, 61, 0xa06c43607b52fd4b),
    ("sad-river-crossing", 1, 0, 57, 0x0912e694d829e2b6),
    ("sad-river-crossing", 1, 10, 42, 0x5c6d91dc1e74d91a),
    ("sad-river-crossing", 1, 50, 12, 0x2ae001f441bdc92b),
    ("sad-river-crossing", 1, 200, 42, 0xc6343e3bc38debb2),
    ("sad-river-crossing", 1, 379, 0, 0x7911d5660d630a09),
    ("sad-river-crossing", 2, 0, 57, 0xc301008a5879ae1e),
    ("sad-river-crossing", 2, 10, 33, 0x6c514d164a2c9e8d),
    ("sad-river-crossing", 2, 50, 59, 0xca2864f8e476ce3f),
    ("sad-river-crossing", 2, 200, 18, 0x3751df359ae1b232),
    ("sad-river-crossing", 2, 353, 0, 0x39810e6f0a784676),
    ("grid-ridge", 1, 0, 58, 0xe7de3bec89245ef5),
    ("grid-ridge", 1, 10, 6, 0x345274851427ff1a),
    ("grid-ridge", 1, 50, 60, 0x7d3fe411962783e6),
    ("grid-ridge", 1, 91, 0, 0x6cc69ad9f07517e9),
    ("grid-ridge", 2, 0, 50, 0x7eee6ba13e89e8de),
    ("grid-ridge", 2, 10, 45, 0x8f0a23ecc3408846),
    ("grid-ridge", 2, 50, 7, 0x4b7c2e6eb7f57852),
    ("grid-ridge", 2, 75, 0, 0xbefbd0daee3d89c7),
    ("hc-corps", 1, 0, 2463, 0x2d439a45cfc6391c),
    ("hc-corps", 1, 10, 1479, 0x153a37c5dfcd95af),
    ("hc-corps", 1, 50, 896, 0x423865a58ab9525b),
    ("hc-corps", 1, 200, 446, 0x2e86fb19fa75fc05),
    ("hc-corps", 1, 800, 509, 0x98ce1e39708bfc84),
    ("hc-corps", 2, 0, 2463, 0xa83a2655fb8c3843),
    ("hc-corps", 2, 10, 1626, 0x90ab46785952898d),
    ("hc-corps", 2, 50, 890, 0xcb762a45bae3ae2d),
    ("hc-corps", 2, 200, 402, 0x014f1e7fccdc81ac),
    ("hc-corps", 2, 800, 934, 0xcef3ced5f2e97e25),
    ("hc-reinforcements", 1, 0, 16, 0x41a42d4877774f0e),
    ("hc-reinforcements", 1, 10, 22, 0x6dcb39ae3f5ab807),
    ("hc-reinforcements", 1, 50, 12, 0x1092b6811bc231ef),
    ("hc-reinforcements", 1, 200, 37, 0xb200077ac0f30658),
    ("hc-reinforcements", 1, 463, 0, 0xbdfc9bf587bf8600),
    ("hc-reinforcements", 2, 0, 16, 0x3f1b1a0589da81b7),
    ("hc-reinforcements", 2, 10, 16, 0x6907da68c707d6a3),
    ("hc-reinforcements", 2, 50, 32, 0x254c905bf568c44b),
    ("hc-reinforcements", 2, 200, 40, 0xd9c0d70a52bb26b4),
    ("hc-reinforcements", 2, 485, 0, 0x889e850612b4e7be),
    ("hc-pike-and-shot", 1, 0, 91, 0xd60840ea4e2d0d09),
    ("hc-pike-and-shot", 1, 10, 45, 0xabfcefcf53631337),
    ("hc-pike-and-shot", 1, 50, 9, 0x72fd0fa69bf91bab),
    ("hc-pike-and-shot", 1, 200, 51, 0x0a73f12b89fbf229),
    ("hc-pike-and-shot", 1, 385, 0, 0x22cc3f2484a73517),
    ("hc-pike-and-shot", 2, 0, 91, 0x783edb7e6d962044),
    ("hc-pike-and-shot", 2, 10, 48, 0x715ca03d90c5caf4),
    ("hc-pike-and-shot", 2, 50, 68, 0x1312871410ff1ccd),
    ("hc-pike-and-shot", 2, 200, 29, 0xaeae05e9cd2a2b45),
    ("hc-pike-and-shot", 2, 358, 0, 0x289e05dd790bfe2b),
    ("hcm-village", 1, 0, 41, 0x166be36501f47fb9),
    ("hcm-village", 1, 10, 41, 0xb571050e6f005c0d),
    ("hcm-village", 1, 50, 4, 0xf9369833fb7cf593),
    ("hcm-village", 1, 182, 0, 0x8531efb311a764d4),
    ("hcm-village", 2, 0, 41, 0x9dcc7b9a2f434559),
    ("hcm-village", 2, 10, 2, 0x877c352c75505398),
    ("hcm-village", 2, 50, 2, 0x0c489a7319cc9437),
    ("hcm-village", 2, 197, 0, 0xab4fef0476605155),
    ("hcm-breakthrough", 1, 0, 66, 0x166be36501f47fb9),
    ("hcm-breakthrough", 1, 10, 8, 0x4c05104998e24ac0),
    ("hcm-breakthrough", 1, 50, 42, 0xfcdf74196fc5f8de),
    ("hcm-breakthrough", 1, 200, 37, 0x32fd96a293e11dee),
    ("hcm-breakthrough", 1, 247, 0, 0xfbe498e755329d4b),
    ("hcm-breakthrough", 2, 0, 66, 0x9dcc7b9a2f434559),
    ("hcm-breakthrough", 2, 10, 4, 0xc9739dd4bb04a2c9),
    ("hcm-breakthrough", 2, 50, 66, 0x4d210e1a024bbf68),
    ("hcm-breakthrough", 2, 200, 48, 0x6f43450bf8e6f135),
    ("hcm-breakthrough", 2, 303, 0, 0x05c03abaf981a9ca),
    ("hcm-night-ambush", 1, 0, 51, 0x166be36501f47fb9),
    ("hcm-night-ambush", 1, 10, 49, 0xa49e3cba93ea4043),
    ("hcm-night-ambush", 1, 50, 7, 0x2904b51cad9d0b83),
    ("hcm-night-ambush", 1, 138, 0, 0xcb6f2d75bc43b674),
    ("hcm-night-ambush", 2, 0, 49, 0x9dcc7b9a2f434559),
    ("hcm-night-ambush", 2, 10, 43, 0x674b59718ecc5bfa),
    ("hcm-night-ambush", 2, 50, 42, 0x4d9c9ce6ba4e0f70),
    ("hcm-night-ambush", 2, 171, 0, 0xff493b42bbb51055),
    ("bptc-first-lesson", 1, 0, 79, 0x5114d312ee207dfc),
    ("bptc-first-lesson", 1, 10, 93, 0xff16a2cfd5e25650),
    ("bptc-first-lesson", 1, 50, 3, 0xca26768dde5e155d),
    ("bptc-first-lesson", 1, 138, 0, 0xe57d31484fd067de),
    ("bptc-first-lesson", 2, 0, 79, 0x5114d312ee207dfc),
    ("bptc-first-lesson", 2, 10, 35, 0x5ef75657a4577ff9),
    ("bptc-first-lesson", 2, 50, 76, 0xd6899b04e124043c),
    ("bptc-first-lesson", 2, 135, 0, 0xb7fc3b9a800a046f),
    ("bptc-napoleonic", 1, 0, 226, 0xb2c3029e743242ca),
    ("bptc-napoleonic", 1, 10, 4, 0xa68b79910ded3267),
    ("bptc-napoleonic", 1, 50, 5, 0x364b4646943ff623),
    ("bptc-napoleonic", 1, 200, 106, 0x7f667057c5751e8d),
    ("bptc-napoleonic", 1, 261, 0, 0x6edda8fde6e80299),
    ("bptc-napoleonic", 2, 0, 226, 0xb2c3029e743242ca),
    ("bptc-napoleonic", 2, 10, 3, 0x8aeb4cfb82703941),
    ("bptc-napoleonic", 2, 50, 373, 0xe983e9843b0fcb86),
    ("bptc-napoleonic", 2, 200, 187, 0xbcb948b830bb73b5),
    ("bptc-napoleonic", 2, 261, 0, 0xdc5cb8693b122fe4),
    ("bptc-acw", 1, 0, 206, 0x0894f14b4ca75ac4),
    ("bptc-acw", 1, 10, 5, 0x1e96e2fad79666c1),
    ("bptc-acw", 1, 50, 334, 0x2f75b2543cdcdf51),
    ("bptc-acw", 1, 200, 10, 0x9beeeed9db2c6ebf),
    ("bptc-acw", 1, 320, 0, 0xd78b07e0a218fef5),
    ("bptc-acw", 2, 0, 206, 0x0894f14b4ca75ac4),
    ("bptc-acw", 2, 10, 81, 0x1470b58020891025),
    ("bptc-acw", 2, 50, 223, 0x8317a4366dfee1bb),
    ("bptc-acw", 2, 200, 116, 0x2e537bba9d27ee7c),
    ("bptc-acw", 2, 321, 0, 0x0dd65bbefea2e551),
    ("bptc-18th-century", 1, 0, 212, 0x610ffbcdd21e2324),
    ("bptc-18th-century", 1, 10, 6, 0x0050ff084c67e259),
    ("bptc-18th-century", 1, 50, 4, 0x808e371a348e6aa3),
    ("bptc-18th-century", 1, 200, 6, 0x5acc3fb839ec1708),
    ("bptc-18th-century", 1, 220, 0, 0xff80b9633345f4e8),
    ("bptc-18th-century", 2, 0, 212, 0x610ffbcdd21e2324),
    ("bptc-18th-century", 2, 10, 68, 0x5e44c1591ae53221),
    ("bptc-18th-century", 2, 50, 207, 0x230c0219efc9dbd4),
    ("bptc-18th-century", 2, 200, 102, 0x7f9a826bc3cc6ffb),
    ("bptc-18th-century", 2, 249, 0, 0xb427ebcd6750a933),
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
