//! Engine and bot benchmarks (criterion): `cargo bench -p volley-ai --bench engine`.
//! docs/PERFORMANCE.md records the figures and the targets they are held to. Nothing here is
//! a test: a slow machine makes slow figures, never a failure.

use criterion::{
    criterion_group, criterion_main, BatchSize, Bencher, BenchmarkId, Criterion, Throughput,
};
use rules_hex_command::{HexCommandGame, OPTIONS};
use std::hint::black_box;
use std::time::Duration;
use volley_ai::{Bot, HeuristicBot, HeuristicSettings, MctsBot, MctsSettings, RandomBot};
use volley_core::geometry::parse_label;
use volley_core::{Game, Options, ScenarioSource, Seed, SeededDice, Side};

fn hex_command(name: &str, text: Option<String>) -> HexCommandGame {
    let source = match text {
        Some(t) => ScenarioSource::new(format!("{name}.toml"), t),
        None => volley_rulesets::scenario_source(name).expect("bundled").1,
    };
    let state = rules_hex_command::scenario::load(&source, &Options::new(), OPTIONS)
        .expect("the scenario loads");
    HexCommandGame::new(state)
}

/// A game started and played by random bots for `actions` actions (a mid-game position).
fn mid_game(mut game: HexCommandGame, actions: usize, seed: u64) -> (HexCommandGame, SeededDice) {
    let mut dice = SeededDice::new(Seed::from_u64(seed));
    game.start(&mut dice);
    let mut bot = RandomBot::new(seed);
    for _ in 0..actions {
        let Some(side) = game.to_decide() else { break };
        let a = bot.choose(&game, side);
        game.apply(a, &mut dice).expect("legal");
    }
    (game, dice)
}

/// Plays a started game to the end with random bots; returns the actions played.
fn random_game(game: &mut dyn Game, dice: &mut SeededDice, bot: &mut RandomBot) -> u64 {
    let mut n = 0;
    while let Some(side) = game.to_decide() {
        let a = bot.choose(game, side);
        game.apply(a, dice).expect("legal");
        n += 1;
    }
    n
}

/// Whole random games from `fresh`, a new seed for each.
fn random_games(b: &mut Bencher, fresh: &dyn Game) {
    let mut seed = 0u64;
    b.iter_batched(
        || {
            seed += 1;
            (
                fresh.clone_game(),
                SeededDice::new(Seed::from_u64(seed)),
                RandomBot::new(seed),
            )
        },
        |(mut game, mut dice, mut bot)| {
            game.start(&mut dice);
            random_game(&mut *game, &mut dice, &mut bot)
        },
        BatchSize::SmallInput,
    )
}

fn crossroads(c: &mut Criterion) {
    let fresh = hex_command("hc-crossroads", None);
    let mut g = c.benchmark_group("hc-crossroads");

    let actions: u64 = (1..=20)
        .map(|seed| {
            let (mut game, mut dice) = mid_game(fresh.clone(), 0, seed);
            random_game(&mut game, &mut dice, &mut RandomBot::new(seed))
        })
        .sum();
    eprintln!(
        "hc-crossroads: {} actions a random game on average",
        actions / 20
    );
    g.bench_function("random game", |b| random_games(b, &fresh));

    // Legal actions plus applying one of them, along four whole games (every kind of phase):
    // the list is made as a client or a bot gets it (`legal_actions`), and the action at a
    // recorded place in it is applied, checked, with its events. Timed per action.
    let lines: Vec<(u64, Vec<usize>)> = (1..=4)
        .map(|seed| {
            let (mut game, mut dice) = mid_game(fresh.clone(), 0, seed);
            let mut bot = RandomBot::new(seed);
            let mut picks = Vec::new();
            while let Some(side) = game.to_decide() {
                let a = bot.choose(&game, side);
                let legal = game.legal_actions();
                picks.push(legal.iter().position(|&x| x == a).expect("listed"));
                game.apply(a, &mut dice).expect("legal");
            }
            (seed, picks)
        })
        .collect();
    let per_line = lines.iter().map(|l| l.1.len()).sum::<usize>() / lines.len();
    g.throughput(Throughput::Elements(per_line as u64));
    g.bench_function("legal + apply, per action", |b| {
        let mut k = 0usize;
        b.iter_batched(
            || {
                k = (k + 1) % lines.len();
                let (seed, picks) = &lines[k];
                let (game, dice) = mid_game(fresh.clone(), 0, *seed);
                (game, dice, picks)
            },
            |(mut game, mut dice, picks)| {
                for &p in picks {
                    let legal = game.legal_actions();
                    game.apply(legal[p], &mut dice).expect("legal");
                }
                game
            },
            BatchSize::SmallInput,
        )
    });
    g.throughput(Throughput::Elements(1));

    let (mid, _) = mid_game(fresh.clone(), 120, 3);
    g.bench_function("legal actions (mid-game)", |b| {
        b.iter(|| black_box(mid.legal_actions()))
    });
    g.bench_function("view(red) (mid-game)", |b| {
        b.iter(|| black_box(mid.view(Some(Side::Red))))
    });
    let (from, to) = (
        parse_label("0812").expect("label"),
        parse_label("1003").expect("label"),
    );
    g.bench_function("line of sight, 9 hexes", |b| {
        b.iter(|| {
            black_box(rules_hex_command::sight::line_of_sight(
                &fresh.state,
                black_box(from),
                black_box(to),
                None,
            ))
        })
    });
    let (start, _) = mid_game(fresh.clone(), 0, 1);
    let mover = start
        .view(None)
        .units
        .iter()
        .find(|u| Some(u.side) == start.to_decide() && u.arm == "cavalry")
        .expect("the side to move has cavalry")
        .id
        .clone();
    g.bench_function("movement reach, cavalry", |b| {
        b.iter(|| black_box(start.reach(&mover)))
    });

    let (search_from, _) = mid_game(fresh.clone(), 60, 5);
    let side = search_from.to_decide().expect("not over");
    const ITERS: u64 = 200;
    g.throughput(Throughput::Elements(ITERS));
    g.sample_size(10);
    g.bench_function("mcts iterations", |b| {
        let settings = MctsSettings {
            budget: volley_ai::Budget::Iterations(ITERS),
            ..MctsSettings::default()
        };
        // The early stop would make iterations uneven: compare searches of equal work.
        b.iter_batched(
            || MctsBot::new(1, settings, "mcts"),
            |mut bot| black_box(bot.search(&search_from, side)),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn corps(c: &mut Criterion) {
    // Not in the bundled list (the every-ruleset test would play it for many minutes):
    // read from the file the script writes.
    let corps = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/hc-corps.toml");
    let text = std::fs::read_to_string(corps).expect("scenarios/hc-corps.toml is there");
    let fresh = hex_command("hc-corps", Some(text));
    let mut g = c.benchmark_group("hc-corps");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    let (start, _) = mid_game(fresh.clone(), 0, 1);
    let units = start
        .view(Some(Side::Red))
        .units
        .iter()
        .filter(|u| Some(u.side) == start.to_decide())
        .count() as u64;
    g.throughput(Throughput::Elements(units));
    g.bench_function("legal actions, all units of the side", |b| {
        b.iter(|| black_box(start.legal_actions()))
    });
    // A whole random game, timed per action (to set against hc-crossroads/random game).
    let actions: u64 = (1..=2)
        .map(|seed| {
            let (mut game, mut dice) = mid_game(fresh.clone(), 0, seed);
            random_game(&mut game, &mut dice, &mut RandomBot::new(seed))
        })
        .sum();
    g.throughput(Throughput::Elements(actions / 2));
    g.bench_function("random game, per action", |b| random_games(b, &fresh));
    g.throughput(Throughput::Elements(1));
    g.bench_function("view(red)", |b| {
        b.iter(|| black_box(start.view(Some(Side::Red))))
    });
    // One game turn: both player turns, every decision made by the heuristic.
    g.bench_function("heuristic game turn (both sides)", |b| {
        b.iter_batched(
            || (start.clone(), SeededDice::new(Seed::from_u64(4))),
            |(mut game, mut dice)| {
                let mut bots = [
                    HeuristicBot::new(1, HeuristicSettings::NORMAL, "heuristic"),
                    HeuristicBot::new(2, HeuristicSettings::NORMAL, "heuristic"),
                ];
                let turn = game.turn();
                while let Some(side) = game.to_decide() {
                    if game.turn() != turn {
                        break;
                    }
                    let a = bots[side.index()].choose(&game, side);
                    game.apply(a, &mut dice).expect("legal");
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// A generated battle with `n` units a side on a 64 x 40 open map, six turns.
fn battle(n: usize) -> String {
    let mut t = String::from(
        "ruleset = \"hex-command\"\nname = \"scale\"\ntitle = \"Scale\"\nturn_limit = 6\n[map]\nrows = [\n",
    );
    for _ in 0..40 {
        t += &format!("  \"{}\",\n", vec!["."; 64].join(" "));
    }
    t += "]\n[sides.red]\nname = \"Red\"\nbreak_point = 35\n[sides.blue]\nname = \"Blue\"\nbreak_point = 35\n";
    let arms = [
        ("infantry", Some("B")),
        ("infantry", Some("B")),
        ("infantry", Some("B")),
        ("infantry", Some("B")),
        ("light-infantry", Some("A")),
        ("skirmishers", Some("C")),
        ("cavalry", None),
        ("artillery", Some("B")),
    ];
    for (side, row0, facing, dir) in [("red", 36, "N", -1i32), ("blue", 5, "S", 1)] {
        for k in 0..n {
            let (arm, class) = arms[k % arms.len()];
            let col = 2 + (k % 60) as i32;
            let row = row0 + dir * (k / 60) as i32;
            t += &format!(
                "[[units]]\nid = \"{}{k}\"\nside = \"{side}\"\nname = \"u{k}\"\narm = \"{arm}\"\nhex = \"{col:02}{row:02}\"\nfacing = \"{facing}\"\n",
                &side[..1]
            );
            if let Some(c) = class {
                t += &format!("class = \"{c}\"\n");
            }
        }
    }
    t
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("scaling: random game, units a side");
    g.sample_size(10);
    for n in [10usize, 20, 40, 80, 160] {
        let fresh = hex_command("scale", Some(battle(n)));
        // Actions per game, to read the time per game against (printed, not timed).
        let actions: u64 = (1..=3)
            .map(|seed| {
                let (mut game, mut dice) = mid_game(fresh.clone(), 0, seed);
                random_game(&mut game, &mut dice, &mut RandomBot::new(seed))
            })
            .sum();
        eprintln!(
            "{n} units a side: {} actions a game on average",
            actions / 3
        );
        g.bench_with_input(BenchmarkId::from_parameter(n), &fresh, |b, g| {
            random_games(b, g)
        });
    }
    g.finish();
}

/// Whole random games of the other rulesets' bundled battles, timed per action.
fn other_rulesets(c: &mut Criterion) {
    let mut g = c.benchmark_group("random game, per action");
    for name in ["sad-river-crossing", "grid-ridge"] {
        let (name, source) = volley_rulesets::scenario_source(name).expect("bundled");
        let ruleset = volley_rulesets::ruleset_of(&source).expect("known ruleset");
        let fresh = ruleset.load(&source, &Options::new()).expect("loads");
        let actions: u64 = (1..=20)
            .map(|seed| {
                let mut game = fresh.clone();
                let mut dice = SeededDice::new(Seed::from_u64(seed));
                game.start(&mut dice);
                random_game(&mut *game, &mut dice, &mut RandomBot::new(seed))
            })
            .sum();
        g.throughput(Throughput::Elements(actions / 20));
        g.bench_function(&name, |b| random_games(b, &*fresh));
    }
    g.finish();
}

criterion_group!(benches, crossroads, corps, scaling, other_rulesets);
criterion_main!(benches);
