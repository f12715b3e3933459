//! Bots on the bundled scenarios: they play whole games legally, repeat for a seed, and
//! never decide from what their side cannot see.

use rules_hex_command::{HexCommandGame, OPTIONS};
use volley_ai::{bot_from_spec, play_game, Bot};
use volley_core::{Game, Options, Seed, SeededDice, Side};

fn load(name: &str) -> Box<dyn Game> {
    let (_, source) = volley_rulesets::scenario_source(name).expect("bundled");
    volley_rulesets::ruleset_of(&source)
        .expect("known ruleset")
        .load(&source, &Options::new())
        .expect("loads")
}

/// Where each of a side's units stands ("id place"), sorted.
fn places_of(g: &dyn Game, side: Side) -> Vec<String> {
    let mut places: Vec<String> = g
        .view(None)
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| format!("{} {}", u.id, u.place))
        .collect();
    places.sort();
    places
}

fn bots(red: &str, blue: &str, seed: u64) -> [Box<dyn Bot>; 2] {
    [
        bot_from_spec(red, seed).expect("known"),
        bot_from_spec(blue, seed + 1).expect("known"),
    ]
}

#[test]
fn heuristic_and_easy_play_every_bundled_scenario_to_the_end() {
    for b in volley_rulesets::bundled() {
        let mut players = bots("heuristic", "easy", 5);
        let record = play_game(load(b.name), &mut players, Seed::from_u64(5), 100_000)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert!(record.turns >= 1, "{}", b.name);
    }
}

/// Plays hc-first-clash twice between the two bots from one seed and checks the records match.
fn repeats_for_a_seed(red: &str, blue: &str, seed: u64) {
    let run = || {
        let mut players = bots(red, blue, seed);
        play_game(
            load("hc-first-clash"),
            &mut players,
            Seed::from_u64(seed),
            100_000,
        )
        .expect("plays")
        .untimed()
    };
    assert_eq!(run(), run(), "{red} against {blue}");
}

#[test]
fn mcts_plays_a_small_battle_to_the_end_and_repeats_for_a_seed() {
    repeats_for_a_seed("mcts:iters=40", "mcts:iters=40,threads=2", 9);
}

#[test]
fn hard_plays_a_battle_to_the_end_and_repeats_for_a_seed() {
    // Its follow-ups and the enemy's replies are played in sampled worlds with their own
    // seeded dice: the same seed gives the same game, action for action.
    repeats_for_a_seed("hard", "heuristic:follow=2,reply=2,halving=1", 4);
}

#[test]
fn the_heuristic_decides_the_same_on_any_number_of_threads() {
    // The helpers judge their share of the candidates on the same sampled worlds, and the
    // looks are put back in the candidates' order: the game is the same, action for action,
    // with the halving and the second look shared out as well as the first look.
    let run = |threads: usize, turn_lines: usize| {
        let spec = format!(
            "heuristic:candidates=6,samples=3,reply=4,horizon=2,halving=1,threads={threads},turn_lines={turn_lines}"
        );
        let mut players = bots(&spec, "normal", 12);
        play_game(
            load("hc-first-clash"),
            &mut players,
            Seed::from_u64(12),
            100_000,
        )
        .expect("plays")
        .untimed()
    };
    let one = run(1, 0);
    assert!(one.turns >= 1);
    assert_eq!(one, run(2, 0), "two threads");
    assert_eq!(one, run(3, 0), "three threads");
    // A turn's budget of lines counts the same whichever thread played them.
    let budget = run(1, 60);
    assert_eq!(budget, run(2, 60), "two threads, with a turn's budget");
}

#[test]
fn bot_specs_with_settings() {
    for spec in [
        "random",
        "heuristic",
        "heuristic:follow=2,samples=2,candidates=4",
        "heuristic:blunder=0.5",
        "heuristic:crowd_candidates=8,crowd_samples=3",
        "heuristic:crowd_reply=3,crowd_samples=2",
        "heuristic:crowd_approach=0.09,approach=0.05",
        "heuristic:reply=2,threads=4",
        "heuristic:reply=2,turn_lines=3000",
        "heuristic:approach=0.05,standing_late=0",
        "mcts:ms=100",
        "mcts:iters=2000",
        "mcts:iters=50,threads=2,depth=3,c=0.5",
        "easy",
        "normal",
        "hard",
    ] {
        let bot = bot_from_spec(spec, 1).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(!bot.spec().is_empty());
    }
    for bad in [
        "mcts:ms",
        "mcts:fast=1",
        "heuristic:x=1",
        "mcts:iters=many",
        "heuristic:samples=0",
        "heuristic:follow=many",
        "heuristic:blunder=2",
        "heuristic:crowd_samples=0",
        "heuristic:horizon=3",
        "heuristic:threads=0",
        "heuristic:threads=17",
        "heuristic:approach=-0.1",
        "heuristic:crowd_approach=much",
        "heuristic:crowd_approach=101",
        "heuristic:danger=lots",
        "heuristic:melee=1000",
        "normal:follow=1",
    ] {
        assert!(bot_from_spec(bad, 1).is_err(), "{bad} was accepted");
    }
    // `hard` is the heuristic with the settings its help text gives.
    let documented = volley_ai::HeuristicSettings::parse(
        "candidates=16,samples=12,reply=10,horizon=2,crowd_candidates=8,crowd_samples=4,crowd_approach=0.09,race=0.15,worth=12,threads=2",
    )
    .expect("parses");
    assert_eq!(
        format!("{documented:?}"),
        format!("{:?}", volley_ai::HeuristicSettings::HARD)
    );
}

/// Night March after some moves, with red to decide and at least two blue units hidden from
/// red; and a copy in which two of those hidden units have traded places. Red's view of the
/// two is the same, so every bot must make the same decision in both.
fn fogged_pair(plies: usize) -> (HexCommandGame, HexCommandGame) {
    let (_, source) = volley_rulesets::scenario_source("hc-night-march").expect("bundled");
    let state =
        rules_hex_command::scenario::load(&source, &Options::new(), OPTIONS).expect("loads");
    let mut game = HexCommandGame::new(state);
    let mut dice = SeededDice::new(Seed::from_u64(77));
    game.start(&mut dice);
    let mut mover = bot_from_spec("random", 3).expect("known");
    let mut n = 0;
    loop {
        let side = game.to_decide().expect("the game goes on this long");
        let s = &game.state;
        let hidden: Vec<usize> = (0..s.units.len())
            .filter(|&i| {
                s.units[i].side == Side::Blue && s.units[i].active() && !s.visible_to(i, Side::Red)
            })
            .collect();
        if n >= plies && side == Side::Red && hidden.len() >= 2 {
            let (a, b) = (hidden[0], hidden[hidden.len() - 1]);
            let mut other = game.clone();
            let ua = other.state.units[a].clone();
            let ub = other.state.units[b].clone();
            other.state.units[a].hex = ub.hex;
            other.state.units[a].facing = ub.facing;
            other.state.units[b].hex = ua.hex;
            other.state.units[b].facing = ua.facing;
            assert_ne!(ua.hex, ub.hex);
            return (game, other);
        }
        let a = mover.choose(&game, side);
        game.apply(a, &mut dice).expect("legal");
        n += 1;
    }
}

/// A bot that cheats: it picks by where the units it should not see really stand. The test
/// below must be able to tell it from an honest bot.
struct Peeker;

impl Bot for Peeker {
    fn spec(&self) -> String {
        "peeker".into()
    }

    fn choose(&mut self, game: &dyn Game, _side: Side) -> volley_core::Action {
        let legal = game.legal_actions();
        let hexes: usize = game
            .view(None)
            .units
            .iter()
            .filter(|u| u.side == Side::Blue)
            .map(|u| u.place.to_string().parse::<usize>().unwrap_or(0) * u.id.len())
            .enumerate()
            .map(|(k, h)| h * (k + 1))
            .sum();
        legal[hexes % legal.len()]
    }
}

#[test]
fn no_bot_decides_from_what_its_side_cannot_see() {
    let mut caught = false;
    for plies in [0, 12, 40] {
        let (real, swapped) = fogged_pair(plies);
        assert_eq!(
            real.view(Some(Side::Red)),
            swapped.view(Some(Side::Red)),
            "the swap must be invisible to red"
        );
        assert_ne!(real.view(None), swapped.view(None), "the swap must be real");
        for spec in [
            "random",
            "easy",
            "heuristic",
            "hard",
            "heuristic:follow=2,reply=3,halving=1",
            "mcts:iters=150",
        ] {
            let a = bot_from_spec(spec, 11)
                .expect("known")
                .choose(&real, Side::Red);
            let b = bot_from_spec(spec, 11)
                .expect("known")
                .choose(&swapped, Side::Red);
            assert_eq!(
                real.notation(a),
                swapped.notation(b),
                "{spec} decided differently on hidden information (after {plies} actions)"
            );
        }
        caught |= Peeker.choose(&real, Side::Red) != Peeker.choose(&swapped, Side::Red);
    }
    assert!(
        caught,
        "the test cannot tell a bot that peeks from one that does not"
    );
}

/// The Black Powder battle's view for red at the start, with an evaluator for red.
fn napoleonic() -> (Box<dyn Game>, volley_core::View, volley_ai::eval::Evaluator) {
    let mut game = load("bptc-napoleonic");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let view = game.view(Some(Side::Red));
    let eval = volley_ai::eval::Evaluator::new(&view, Side::Red);
    (game, view, eval)
}

#[test]
fn a_command_unit_is_valued_among_its_troops_not_far_from_them() {
    let (_, view, eval) = napoleonic();
    let hq = view
        .units
        .iter()
        .position(|u| u.side == Side::Red && u.arm == "command")
        .expect("a red command unit");
    let among = eval.evaluate(&view);
    let mut far = view.clone();
    // The map's far corner, away from every red unit.
    far.units[hq].place = volley_core::Place::Hex(volley_core::geometry::hex_at(1, 20));
    let away = eval.evaluate(&far);
    assert!(
        among > away,
        "among its troops {among}, away from them {away}"
    );
}

#[test]
fn winning_as_it_stands_is_worth_more_as_the_last_turn_nears() {
    let (_, view, eval) = napoleonic();
    let standing = view
        .standing
        .clone()
        .expect("Black Powder says how it stands");
    assert_eq!(standing.winner, None, "{}", standing.reason);
    let with = |winner: Option<Side>, decisive: bool, turn: u32| {
        let mut v = view.clone();
        v.turn = turn;
        v.standing = Some(volley_core::view::Standing {
            winner,
            decisive,
            reason: String::new(),
        });
        eval.evaluate(&v)
    };
    let draw = with(None, false, 1);
    assert_eq!(draw, eval.evaluate(&view));
    assert!(with(Some(Side::Red), false, 1) > draw);
    assert!(with(Some(Side::Blue), false, 1) < draw);
    assert!(with(Some(Side::Red), true, 1) > with(Some(Side::Red), false, 1));
    let early = with(Some(Side::Red), false, 1) - draw;
    let late = with(Some(Side::Red), false, view.turn_limit) - with(None, false, view.turn_limit);
    assert!(late > 3.0 * early, "early {early}, late {late}");
}

#[test]
fn a_held_objective_out_of_the_enemys_reach_draws_no_one_to_it() {
    // hc-crossroads: Windmill Hill (1411) lies behind red's lines, the bridge (1007) between
    // the armies; neither is held at the start.
    let mut game = load("hc-crossroads");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let view = game.view(Some(Side::Red));
    let hex = |code: &str| volley_core::geometry::parse_label(code).expect(code);
    let (hill, bridge) = (hex("1411"), hex("1007"));
    let on_hill = view
        .objectives
        .iter()
        .position(|o| o.place == volley_core::Place::Hex(hill))
        .expect("the hill is an objective");
    assert_eq!(view.objectives[on_hill].holder, None);
    let eval = volley_ai::eval::Evaluator::new(&view, Side::Red);
    assert_eq!(eval.objective_distance(hill), Some(0));
    assert_eq!(eval.objective_distance(bridge), Some(0));
    // Once red holds the hill, with no enemy near, the hill is no goal: a unit standing on it
    // is as far from one as the walk to the bridge.
    let mut held = view.clone();
    held.objectives[on_hill].holder = Some(Side::Red);
    let eval = volley_ai::eval::Evaluator::new(&held, Side::Red);
    assert_eq!(eval.objective_distance(bridge), Some(0));
    let from_hill = eval.objective_distance(hill).expect("a goal");
    assert!(
        from_hill >= 4,
        "the hill is {from_hill} from the nearest goal"
    );
    // A blue unit four hexes from the hill makes it one again.
    let blue = held
        .units
        .iter()
        .position(|u| u.side == Side::Blue)
        .expect("a blue unit");
    held.units[blue].place = volley_core::Place::Hex(hex("1407"));
    let eval = volley_ai::eval::Evaluator::new(&held, Side::Red);
    assert_eq!(eval.objective_distance(hill), Some(0));
}

#[test]
fn with_worth_a_unit_walks_past_a_small_objective_to_the_one_that_decides_the_battle() {
    // bptc-napoleonic: the French battalion fr11 stands four hexes from its own Windmill hill
    // (0306, 30 points) and seven from Saint-Aubin (1409, 100 points and the battle).
    let mut game = load("bptc-napoleonic");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let view = game.view(Some(Side::Red));
    let hex = |code: &str| volley_core::geometry::parse_label(code).expect(code);
    let fr11 = view
        .units
        .iter()
        .find(|u| u.id.as_str() == "fr11")
        .expect("fr11");
    let at = fr11.place.hex().expect("on a hex");
    let village = view
        .objectives
        .iter()
        .find(|o| o.place.hex() == Some(hex("1409")))
        .expect("the village");
    assert_eq!(village.decisive, [true, true]);
    let walk = |h: volley_core::Hex| at.unsigned_distance_to(h);
    let (to_hill, to_village) = (walk(hex("0306")), walk(hex("1409")));
    assert_eq!((to_hill, to_village), (4, 7));
    // Standard weights: the nearest goal, the hill.
    let eval = volley_ai::eval::Evaluator::new(&view, Side::Red);
    assert_eq!(eval.objective_distance(at), Some(to_hill));
    // With worth 12 the hill, lacking 70 of the village's 100 points, counts 12 × 0.7 = 8
    // hexes farther: the village is the nearer goal now.
    let mut w = volley_ai::eval::Weights::STANDARD;
    w.worth = 12.0;
    let eval = volley_ai::eval::Evaluator::weighted(&view, Side::Red, w);
    assert_eq!(eval.objective_distance(at), Some(to_village));
    assert_eq!(eval.objective_distance(hex("0306")), Some(8));
    // Where no goal decides the battle, every objective only adds its points and the nearest
    // is worth walking to: with the village a minor objective (still worth 100), worth
    // changes nothing and the hill is the nearer goal again.
    let mut minor = view.clone();
    for o in &mut minor.objectives {
        o.decisive = [false, false];
    }
    let eval = volley_ai::eval::Evaluator::weighted(&minor, Side::Red, w);
    assert_eq!(eval.objective_distance(at), Some(to_hill));
    // bptc-acw: the Union's two objectives (the church, 100, and the farm, 50) both decide
    // the battle, so neither counts farther.
    let mut acw = load("bptc-acw");
    acw.start(&mut SeededDice::new(Seed::from_u64(1)));
    let view = acw.view(Some(Side::Red));
    let eval = volley_ai::eval::Evaluator::weighted(&view, Side::Red, w);
    assert_eq!(eval.objective_distance(hex("1811")), Some(0));
    assert_eq!(eval.objective_distance(hex("2111")), Some(0));
}

#[test]
fn the_race_counts_only_where_a_goal_decides_the_battle() {
    let score = |name: &str, race: f64| {
        let mut game = load(name);
        game.start(&mut SeededDice::new(Seed::from_u64(1)));
        let view = game.view(Some(Side::Red));
        let mut w = volley_ai::eval::Weights::STANDARD;
        w.race = race;
        let eval = volley_ai::eval::Evaluator::weighted(&view, Side::Red, w);
        (eval.evaluate(&view), eval.front_runner(&view))
    };
    // bptc-napoleonic: Saint-Aubin decides the battle. The French front runner stands four
    // hexes from the nearest goal (fr11 from Windmill hill, with the standard weights' worth
    // of 0): a race weight of 1 costs 4.
    let ((without, _), (with, runner)) =
        (score("bptc-napoleonic", 0.0), score("bptc-napoleonic", 1.0));
    assert_eq!(runner, Some(4));
    assert!(
        (without - with - 4.0).abs() < 1e-9,
        "{without} against {with}"
    );
    // hc-crossroads, grid-ridge and bptc-first-lesson (its village a minor objective):
    // objectives held for points only, so no race.
    for name in ["hc-crossroads", "grid-ridge", "bptc-first-lesson"] {
        let ((without, _), (with, runner)) = (score(name, 0.0), score(name, 1.0));
        assert!(runner.is_some_and(|d| d > 0), "{name}: {runner:?}");
        assert_eq!(without, with, "{name}");
    }
}

#[test]
fn the_heuristic_gives_its_first_order_whatever_its_first_worlds_rolled() {
    // A command roll fails about one time in four and a blunder comes one time in 36: on
    // three sampled worlds alone some seeds would see every order fail and end the phase
    // with the whole army standing still. The second look on fresh worlds prevents that.
    let (game, _, _) = napoleonic();
    for seed in 0..24 {
        let mut bot = bot_from_spec("normal", seed).expect("known");
        let a = bot.choose(&*game, Side::Red);
        assert_ne!(
            game.describe(a).kind,
            volley_core::ActionKind::End,
            "seed {seed} ended red's first command phase"
        );
    }
}

#[test]
fn a_line_with_a_reply_ends_the_phase_and_plays_the_enemys_answer() {
    // Stand and Die!: a side marches, fires, and then the other side marches. A line with
    // no follow-up and no reply stops after the one march; with a reply it ends the march,
    // plays the side's own musketry, and then the enemy's first decisions, whatever the
    // follow-up did first.
    use volley_ai::heuristic::play_line;
    let mut game = load("sad-river-crossing");
    game.start(&mut SeededDice::new(Seed::from_u64(2)));
    let side = game.to_decide().expect("someone marches first");
    let march = game
        .legal_actions()
        .into_iter()
        .find(|&a| game.describe(a).kind != volley_core::ActionKind::End)
        .expect("a march");
    let seed = Seed::from_u64(7);
    let (alone, _) = play_line(&*game, seed, side, march, 0, 0, 0).expect("legal");
    assert_eq!(alone.to_decide(), Some(side));
    assert_eq!(alone.view(None).phasing, Some(side));
    for follow in [0, 2] {
        let (answered, _) = play_line(&*game, seed, side, march, follow, 1, 0).expect("legal");
        assert_eq!(
            answered.view(None).phasing,
            Some(side.other()),
            "follow-up {follow}: the enemy's march has begun"
        );
        let (again, _) = play_line(&*game, seed, side, march, follow, 1, 0).expect("legal");
        assert_eq!(
            again.view(None),
            answered.view(None),
            "the same seed, the same line"
        );
    }
}

#[test]
fn a_line_with_a_horizon_ends_with_the_player_turn_or_before_the_sides_next() {
    // Hex Command: Mechanized moves a unit one hex per decision, so a reply of ten enemy
    // decisions after a step is mostly the enemy's next movement, cut off half-way. Kept
    // within the turn, the line plays the rest of the side's own player turn (its
    // commanders, the enemy's defensive fire, its own fire and melee) and stops where the
    // enemy's player turn begins, with no enemy unit moved.
    use volley_ai::heuristic::play_line;
    let mut game = load("hcm-village");
    game.start(&mut SeededDice::new(Seed::from_u64(2)));
    let side = game.to_decide().expect("the initiative winner moves first");
    let step = game
        .legal_actions()
        .into_iter()
        .find(|&a| game.notation(a).starts_with("move"))
        .expect("a step");
    let enemy_places = |g: &dyn Game| places_of(g, side.other());
    let before = enemy_places(&*game);
    let seed = Seed::from_u64(7);
    let (within, _) = play_line(&*game, seed, side, step, 0, 10, 1).expect("legal");
    assert_eq!(within.turn(), 1);
    assert_eq!(
        within.view(None).phasing,
        Some(side.other()),
        "the line stops as the enemy's player turn begins"
    );
    assert_eq!(within.to_decide(), Some(side.other()));
    assert_eq!(enemy_places(&*within), before, "no enemy unit has moved");
    let (beyond, _) = play_line(&*game, seed, side, step, 0, 10, 0).expect("legal");
    assert_ne!(
        enemy_places(&*beyond),
        before,
        "without the limit the reply plays the enemy's movement"
    );
    // Up to the side's own next player turn, the line holds the enemy's movement, and stops
    // there or at its tenth decision, never in the side's next movement.
    let (answered, _) = play_line(&*game, seed, side, step, 0, 10, 2).expect("legal");
    assert_ne!(enemy_places(&*answered), before, "the enemy has moved");
    let view = answered.view(None);
    assert!(
        view.phasing == Some(side.other()) || (answered.turn() == 2 && view.phasing == Some(side)),
        "the line ends in the enemy's player turn or where the side's own next one begins"
    );
}

#[test]
fn the_evaluations_weights_are_the_ones_a_heuristic_spec_sets() {
    use volley_ai::eval::{Evaluator, Weights};
    let (_, view, standard) = napoleonic();
    let with = |approach: f64| {
        Evaluator::weighted(
            &view,
            Side::Red,
            Weights {
                approach,
                ..Weights::STANDARD
            },
        )
        .evaluate(&view)
    };
    // The standard weights are what every bot's evaluation uses unless told otherwise.
    assert_eq!(with(Weights::STANDARD.approach), standard.evaluate(&view));
    // At the start every red unit is some hexes from its goal, so the pull towards it counts,
    // in proportion to its weight.
    let (none, some, twice) = (with(0.0), with(0.03), with(0.06));
    assert!(some < none, "approach costs nothing: {none} {some}");
    assert!(((twice - some) - (some - none)).abs() < 1e-9);
    // A spec sets them by name, over the standard ones.
    let parsed = volley_ai::HeuristicSettings::parse("approach=0.09,cover=0.24").expect("parses");
    assert_eq!(
        parsed.weights,
        Weights {
            approach: 0.09,
            cover: 0.24,
            ..Weights::STANDARD
        }
    );
    let err = volley_ai::HeuristicSettings::parse("approach=2000").expect_err("too big");
    assert!(
        err.contains("approach") && err.contains("0 to 100"),
        "{err}"
    );
}

#[test]
fn the_wear_counts_the_hits_on_the_enemys_squads_and_not_on_the_sides_own() {
    use volley_ai::eval::{Evaluator, Weights};
    // hcm-night-ambush: German squads (red) wait in the woods, Soviet tank riders (blue) ride
    // up the road. A squad of four figures loses one at its third hit; the hits before that
    // are markers.
    let mut game = load("hcm-night-ambush");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let mut view = game.view(None);
    let at = |view: &volley_core::view::View, id: &str| {
        view.units
            .iter()
            .position(|u| &*u.id == id)
            .expect("a unit of the scenario")
    };
    let (rider, hunter, tank) = (at(&view, "b4"), at(&view, "r1"), at(&view, "b1"));
    assert_eq!(view.units[rider].strength, Some(4));
    assert_eq!(view.units[rider].max_hits, 2);
    let fresh = view.clone();
    for i in [rider, hunter, tank] {
        view.units[i].hits = 1;
    }
    let worn = Weights {
        wear: 2.0,
        ..Weights::STANDARD
    };
    let german = Evaluator::weighted(&view, Side::Red, worn);
    // One marker on the enemy's squad is two thirds of a figure at wear 2: (4 − 2/3) / 4.
    let h = german.health(&view.units[rider]);
    assert!((h - (4.0 - 2.0 / 3.0) / 4.0).abs() < 1e-9, "{h}");
    // The side's own markers are not counted, nor are a vehicle's damage blocks changed
    // (they are its hits already: one of six).
    assert_eq!(german.health(&view.units[hunter]), 1.0);
    assert!((german.health(&view.units[tank]) - 5.0 / 6.0).abs() < 1e-9);
    // The standard weights leave the markers out.
    let plain = Evaluator::new(&view, Side::Red);
    assert_eq!(plain.health(&view.units[rider]), 1.0);
    // For the Soviets the marker on their own squad changes nothing; the one on the German
    // squad counts against the Germans, so the Soviet position is worth more.
    let soviet = Evaluator::weighted(&fresh, Side::Blue, worn);
    let mut own_only = fresh.clone();
    own_only.units[rider].hits = 1;
    assert_eq!(soviet.evaluate(&own_only), soviet.evaluate(&fresh));
    let mut theirs = fresh.clone();
    theirs.units[hunter].hits = 1;
    assert!(soviet.evaluate(&theirs) > soviet.evaluate(&fresh));
    // A spec sets it by name.
    let parsed = volley_ai::HeuristicSettings::parse("wear=2").expect("parses");
    assert_eq!(parsed.weights, worn);
}

#[test]
fn the_race_counts_the_fit_unit_nearest_an_objective_and_no_other() {
    use volley_ai::eval::{Evaluator, Weights};
    use volley_core::{geometry::hex_at, Place};
    let mut game = load("bptc-acw");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let start = game.view(Some(Side::Red));
    let unit = |id: &str| {
        start
            .units
            .iter()
            .position(|u| &*u.id == id)
            .expect("a unit of the scenario")
    };
    // The Iron Brigade regiment crosses the bridge (1511) and stands two hexes short of the
    // Mumma farm (1811), the nearest objective; every other Union unit is still at the creek.
    let mut ahead = start.clone();
    ahead.units[unit("r3")].place = Place::Hex(hex_at(16, 11));
    let raced = Weights {
        race: 0.15,
        ..Weights::STANDARD
    };
    let race = Evaluator::weighted(&ahead, Side::Red, raced);
    let plain = Evaluator::new(&ahead, Side::Red);
    assert_eq!(race.front_runner(&ahead), Some(2));
    // The race costs its weight for each hex the front runner has still to go, and nothing
    // else changes.
    let cost = plain.evaluate(&ahead) - race.evaluate(&ahead);
    assert!((cost - 0.3).abs() < 1e-9, "the race cost {cost}");
    // A unit behind it walking back changes nothing in the race…
    let mut behind = ahead.clone();
    behind.units[unit("r4")].place = Place::Hex(hex_at(3, 11));
    assert_eq!(race.front_runner(&behind), Some(2));
    // …one on the farm wins it…
    let mut there = ahead.clone();
    there.units[unit("r4")].place = Place::Hex(hex_at(18, 11));
    assert_eq!(race.front_runner(&there), Some(0));
    // …and a routed front runner is out of it: the next unit, still west of the creek, leads.
    let mut routed = ahead.clone();
    routed.units[unit("r3")].flags.push("routed".into());
    let next = race.front_runner(&routed).expect("another unit");
    assert!(
        next > 2,
        "the routed regiment still leads the race ({next})"
    );
    let mut gone = ahead.clone();
    gone.units.remove(unit("r3"));
    assert_eq!(
        race.front_runner(&gone),
        Some(next),
        "routed counts as gone"
    );
    // A front runner far off counts as twelve hexes, however far: the whole Union army back
    // at the west edge (17 hexes' walk from the farm)…
    let mut far = start.clone();
    for u in far.units.iter_mut().filter(|u| u.side == Side::Red) {
        u.place = Place::Hex(hex_at(1, 11));
    }
    assert_eq!(race.front_runner(&far), Some(12));
    // …and with no unit fit to hold an objective, the race is lost at that full cost.
    let mut beaten = start.clone();
    for u in beaten.units.iter_mut().filter(|u| u.side == Side::Red) {
        u.flags.push("routed".into());
    }
    assert_eq!(race.front_runner(&beaten), None);
    let cost = plain.evaluate(&beaten) - race.evaluate(&beaten);
    assert!(
        (cost - 0.15 * 12.0).abs() < 1e-9,
        "the lost race cost {cost}"
    );
    // The standard weights leave the race out, and a spec sets it by name.
    assert_eq!(Weights::STANDARD.race, 0.0);
    let parsed = volley_ai::HeuristicSettings::parse("race=0.15").expect("parses");
    assert_eq!(parsed.weights, raced);
}

#[test]
fn the_enemys_answer_rolls_the_same_dice_whatever_the_action_before_it_rolled() {
    // Black Powder: the French general gives one order (a command roll, and the march) or
    // gives none and ends his orders (no roll at all). On one sampled world the Russian
    // answer that follows, its first order and the command roll it hangs on, must be the
    // same in both lines: the candidates are compared on the same luck of the answer, not on
    // where in the world's stream the answer happened to begin.
    use volley_ai::heuristic::play_line;
    let russian_places = |g: &dyn Game, side: Side| places_of(g, side.other());
    let mut game = load("bptc-first-lesson");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let side = game.to_decide().expect("the French order first");
    let legal = game.legal_actions();
    let end = legal
        .iter()
        .copied()
        .find(|&a| game.describe(a).kind == volley_core::ActionKind::End)
        .expect("the orders may end");
    let order = legal
        .iter()
        .copied()
        .find(|&a| game.describe(a).kind != volley_core::ActionKind::End)
        .expect("an order");
    let before = russian_places(&*game, side);
    let mut answered = 0;
    for s in 1..=12 {
        let seed = Seed::from_u64(s);
        let (after_order, rolled) = play_line(&*game, seed, side, order, 0, 1, 0).expect("legal");
        let (after_end, _) = play_line(&*game, seed, side, end, 0, 1, 0).expect("legal");
        assert!(rolled > 2, "seed {s}: the order and the answer both rolled");
        let (a, b) = (
            russian_places(&*after_order, side),
            russian_places(&*after_end, side),
        );
        assert_eq!(a, b, "seed {s}: the same answer after either action");
        answered += usize::from(a != before);
    }
    assert!(answered > 0, "in some worlds the Russian order passed");
}

#[test]
fn on_a_crowded_map_equal_steps_are_not_picked_by_the_grids_order() {
    // hc-corps (320 units) is crowded: one action a unit is looked at, and many of a unit's
    // steps are scored alike by the cheap ordering. Picked in the listing's order, the same
    // step came first for every seed (the northernmost, a long stride for a side marching
    // north and a short one for a side marching south); shuffled by the decision's seed, the
    // first decision of the game varies with the bot's seed among steps as good as each
    // other, and each seed still gives one decision.
    let mut game = load("hc-corps");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let side = game.to_decide().expect("player A moves first");
    let first = |seed: u64| {
        let mut bot = bot_from_spec("normal", seed).expect("known");
        bot.choose(&*game, side)
    };
    let mut chosen: Vec<volley_core::Action> = (1..=8).map(first).collect();
    assert_eq!(first(3), chosen[2], "the same seed, the same decision");
    chosen.sort();
    chosen.dedup();
    assert!(
        chosen.len() > 1,
        "every seed chose {}",
        game.notation(chosen[0])
    );
}

#[test]
fn a_bot_with_wear_plays_otherwise_only_where_units_carry_hits_short_of_a_figure() {
    // The weight reaches the bot's evaluation: on hcm-night-ambush, where the squads carry
    // markers, `heuristic:wear=2` as the Germans plays other games than `normal`; on
    // hc-crossroads (Gunpowder's hits, no figures) it plays the very same ones.
    let record = |scenario: &str, red: &str, seed: u64| {
        let mut players = bots(red, "normal", seed);
        play_game(load(scenario), &mut players, Seed::from_u64(seed), 100_000)
            .expect("plays")
            .untimed()
    };
    let differs = (1..=4).any(|seed| {
        record("hcm-night-ambush", "heuristic:wear=2", seed)
            != record("hcm-night-ambush", "normal", seed)
    });
    assert!(differs, "wear=2 changed no game on hcm-night-ambush");
    for seed in 1..=2 {
        assert_eq!(
            record("hc-crossroads", "heuristic:wear=2", seed),
            record("hc-crossroads", "normal", seed),
            "seed {seed}"
        );
    }
}

/// hc-corps (crowded from its first decision) begun, and the side to decide.
fn corps_at_its_start() -> (Box<dyn Game>, Side) {
    let mut game = load("hc-corps");
    game.start(&mut SeededDice::new(Seed::from_u64(1)));
    let side = game.to_decide().expect("player A moves first");
    (game, side)
}

#[test]
fn on_a_crowded_map_a_bot_that_looks_at_the_enemys_answer_repeats_for_a_seed() {
    // `crowd_reply` plays the enemy's answer after each action looked at on a crowded map
    // (hc-corps): its lines roll their own seeded dice, so a seed still gives one decision.
    let (game, side) = corps_at_its_start();
    let first = |spec: &str| {
        let mut bot = bot_from_spec(spec, 5).expect("known");
        bot.choose(&*game, side)
    };
    let spec = "heuristic:crowd_candidates=2,crowd_samples=1,crowd_reply=1";
    let chosen = first(spec);
    assert_eq!(first(spec), chosen, "the same seed, the same decision");
    assert!(game.legal_actions().contains(&chosen));
}

#[test]
fn on_a_crowded_map_crowd_approach_is_the_pull_the_bot_weighs() {
    // hc-corps is crowded from its first decision: a bot with `crowd_approach=X` weighs there
    // exactly as one with `approach=X`, and a strong pull changes what it does.
    let (game, side) = corps_at_its_start();
    let first = |spec: &str| {
        (1..=16)
            .map(|seed| {
                let mut bot = bot_from_spec(spec, seed).expect("known");
                bot.choose(&*game, side)
            })
            .collect::<Vec<_>>()
    };
    let crowd = first("heuristic:crowd_approach=50");
    assert_eq!(crowd, first("heuristic:approach=50"));
    assert_ne!(crowd, first("heuristic"), "the pull changed nothing");
}
