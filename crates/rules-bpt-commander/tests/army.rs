//! The army builder: points, limits, compulsory troops and command units checked against the
//! book's ARMY LISTS, each problem reported at its line and column; and `battle::muster`
//! deploying any army the check accepts into a scenario that loads and plays.

use proptest::prelude::*;
use rules_bpt_commander::army::{self, Army, Grade};
use rules_bpt_commander::battle;
use rules_bpt_commander::lists::{self, Arm};
use volley_core::{Options, ScenarioSource};

fn src(text: &str) -> ScenarioSource {
    ScenarioSource::new("army.toml", text)
}

fn accept(text: &str) -> Army {
    army::check(&src(text), None).unwrap_or_else(|e| {
        panic!(
            "rejected:\n{}",
            e.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

/// Every problem as `FILE:LINE:COLUMN: message`.
fn reject(text: &str) -> Vec<String> {
    match army::check(&src(text), None) {
        Ok(a) => panic!("accepted an army costing {}", a.cost),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

const RUSSIANS: &str = r#"list = "napoleonic-russian"
points = 1500

[[command]]
level = "brigade"
quality = "average"

[[unit]]
troop = "Line Infantry"
count = 4
"#;

#[test]
fn a_unit_costs_its_points_a_stand_times_its_stands_as_the_book_counts() {
    // The book: an infantry stand of 45 points makes a full (5-stand) unit of 225.
    let a = accept(RUSSIANS);
    assert_eq!(a.units.len(), 4);
    for u in &a.units {
        assert_eq!((u.stands, u.stand_points, u.cost), (5, 45, 225));
    }
    // The book: a battery of 3 sections costs three times a section, of 2 twice.
    let with_guns = format!("{RUSSIANS}\n[[unit]]\ntroop = \"Field Artillery\"\nstands = 2\n");
    let a = accept(&with_guns);
    assert_eq!(a.units[4].cost, 2 * 75);
    let a = army::check(
        &src(&with_guns
            .replace("stands = 2", "stands = 3")
            .replace("count = 4", "count = 8")),
        Some(3000),
    )
    .expect("3 sections at 3000 points");
    assert_eq!(a.units[4].cost, 3 * 75);
    // 4 × 225 infantry + 150 guns + an average brigade HQ of 55.
    assert_eq!(accept(&with_guns).cost, 900 + 150 + 55);
}

#[test]
fn the_bundled_armies_pass_and_are_built_to_equal_points() {
    for (file, list) in [
        ("acw-union", "acw-union"),
        ("acw-confederate", "acw-confederate"),
        ("prussia-1757", "18th-century"),
        ("austria-1757", "18th-century"),
    ] {
        let path = format!(
            "{}/../../scenarios/armies/{file}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("army file");
        let a = army::check(&ScenarioSource::new(&path, text), None)
            .unwrap_or_else(|e| panic!("{file}: {}", e[0]));
        assert_eq!(a.list.id, list);
        assert_eq!(a.points, 3000, "{file}");
        assert!(a.cost <= 3000 && a.cost > 2500, "{file}: {}", a.cost);
    }
}

#[test]
fn an_army_over_its_points_total_is_refused_at_the_total() {
    let e = reject(&RUSSIANS.replace("count = 4", "count = 7"));
    assert_eq!(
        e,
        ["army.toml:2:10: the army costs 1630 points, 130 over its total of 1500"]
    );
}

#[test]
fn maximums_count_units_of_foot_and_horse_and_stands_of_the_rest_per_full_1500() {
    // Heavy cavalry -/1: a second unit is one too many at 1500 points, fine at 3000.
    let two_horse = format!(
        "{}\n[[unit]]\ntroop = \"Heavy Cavalry\"\nstands = 2\ncount = 2\n",
        RUSSIANS
            .replace("count = 4", "count = 2")
            .replace(
                "troop = \"Line Infantry\"",
                "troop = \"Line Infantry\"\nstands = 4"
            )
            .replace("count = 2\n", "count = 4\n")
    );
    let e = reject(&two_horse);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].ends_with(
            "at most 1 units of \"Heavy Cavalry\" at 1500 points (1 per full 1500): this makes 2"
        ),
        "{e:?}"
    );
    assert!(e[0].starts_with("army.toml:14:9:"), "{e:?}");
    if let Err(e) = army::check(&src(&two_horse), Some(3000)) {
        // At 3000 the horse are allowed; only the infantry minimum (8) is short.
        assert_eq!(e.len(), 1);
        assert!(
            e[0].message
                .contains("compulsory: at least 8 infantry units"),
            "{}",
            e[0]
        );
    }
    // Field artillery -/2 counts stands: a 3-section battery is one stand too many.
    let e = reject(&format!(
        "{RUSSIANS}\n[[unit]]\ntroop = \"Field Artillery\"\nstands = 3\n"
    ));
    assert!(
        e[0].contains("at most 2 stands of \"Field Artillery\""),
        "{e:?}"
    );
    assert!(e[0].contains("this makes 3"), "{e:?}");
}

#[test]
fn the_infantry_minimum_is_compulsory_and_an_all_cavalry_force_takes_it_for_its_horse() {
    let e = reject(&RUSSIANS.replace("count = 4", "count = 3"));
    assert_eq!(
        e,
        ["army.toml:1:8: compulsory: at least 4 infantry units from the rows with a minimum at 1500 points (4 per full 1500); the army has 3"]
    );
    // All cavalry: four cossack units stand in for the infantry; their own -/1 is lifted.
    let horse = RUSSIANS.replace(
        "troop = \"Line Infantry\"",
        "troop = \"Cossack Cavalry\"\nstands = 3",
    );
    let a = accept(&horse);
    assert!(a.units.iter().all(|u| u.troop.arm == Arm::Cavalry));
    let e = reject(&horse.replace("count = 4", "count = 3"));
    assert!(
        e[0].contains("cavalry units (an all-cavalry force takes the infantry minimum)"),
        "{e:?}"
    );
}

#[test]
fn rows_that_are_not_bought_on_their_own_say_how_to_get_them() {
    for (row, why) in [
        ("Limbered Artillery", "limbers come with the guns they tow"),
        (
            "Dismounted Cavalry, All",
            "buy the mounted unit and give it `dismounted = true`",
        ),
        ("Skirmishing Infantry", "brigade skirmishers come free"),
    ] {
        let e = reject(&format!("{RUSSIANS}\n[[unit]]\ntroop = \"{row}\"\n"));
        assert_eq!(e.len(), 1, "{row}: {e:?}");
        assert!(
            e[0].starts_with("army.toml:13:9:") && e[0].contains(why),
            "{row}: {e:?}"
        );
    }
    let e = reject(&format!(
        "{RUSSIANS}\n[[unit]]\ntroop = \"Imperial Guard\"\n"
    ));
    assert!(
        e[0].contains("no troop row \"Imperial Guard\" in napoleonic-russian"),
        "{e:?}"
    );
}

const UNION: &str = r#"list = "acw-union"
points = 1500

[[command]]
level = "brigade"
quality = "average"

[[unit]]
troop = "Regular Infantry Rifled/Breech Loading Musket"
stands = 4
count = 4

[[unit]]
troop = "Rifled Cannon"
stands = 1
"#;

#[test]
fn acw_regulars_may_be_bought_elite_or_poor_at_five_points_a_stand_and_one_elite_per_1500() {
    let base = accept(UNION);
    assert_eq!(base.cost, 4 * 4 * 60 + 85 + 55);
    let elite = UNION.replace("count = 4", "count = 3") + "\n[[unit]]\ntroop = \"Regular Infantry Rifled/Breech Loading Musket\"\nstands = 4\ngrade = \"elite\"\n";
    let a = accept(&elite);
    let u = a.units.iter().find(|u| u.grade == Grade::Elite).unwrap();
    assert_eq!((u.stand_points, u.cost), (65, 260));
    let two = elite.clone() + "\n[[unit]]\ntroop = \"Regular Infantry - Smooth Bore Musket\"\nstands = 2\ngrade = \"elite\"\n";
    let e = reject(&two);
    assert!(
        e.iter().any(|e| e.contains(
            "at most 1 elite infantry unit at 1500 points (1 per full 1500): this is elite unit 2"
        )),
        "{e:?}"
    );
    let poor = UNION.to_string() + "\n[[unit]]\ntroop = \"Regular Infantry - Smooth Bore Musket\"\nstands = 2\ngrade = \"poor\"\n";
    let a = accept(&poor);
    assert_eq!(a.units.last().unwrap().stand_points, 55);
    // Only the Regular rows have grades.
    let e = reject(
        &(UNION.to_string()
            + "\n[[unit]]\ntroop = \"US Cavalry 1862\"\nstands = 2\ngrade = \"elite\"\n"),
    );
    assert!(
        e[0].contains("only the ACW Regular Infantry rows can"),
        "{e:?}"
    );
    // ACW guns with horse teams cost 10 more a stand; other lists have their own row.
    let a = accept(&UNION.replace("stands = 1\n", "stands = 1\nhorse = true\n"));
    assert_eq!(a.units.last().unwrap().stand_points, 95);
    let e = reject(&format!(
        "{RUSSIANS}\n[[unit]]\ntroop = \"Field Artillery\"\nstands = 1\nhorse = true\n"
    ));
    assert!(e[0].contains("only ACW field guns"), "{e:?}");
}

#[test]
fn napoleonic_elites_are_one_per_3000_unless_all_the_infantry_is_elite() {
    let grenadiers = RUSSIANS.replace("Line Infantry\"\ncount = 4", "Line Grenadier Infantry\"\ncount = 1\nstands = 4\n\n[[unit]]\ntroop = \"Guard Infantry\"\nstands = 2");
    let e = reject(&grenadiers);
    assert!(e.iter().any(|e| e.contains("at most 0 elite infantry units at 1500 points (1 per full 3000, unless all the infantry is elite)")), "{e:?}");
    // All the infantry elite: allowed.
    let guards = RUSSIANS.replace("Line Infantry\"", "Guard Infantry\"\nstands = 3");
    accept(&guards);
}

#[test]
fn command_units_one_army_hq_one_per_so_many_infantry_and_exceptional_caps() {
    let e = reject(&RUSSIANS.replace(
        "[[command]]\nlevel = \"brigade\"\nquality = \"average\"\n",
        "",
    ));
    assert!(e[0].contains("no command units"), "{e:?}");
    // Two brigades besides the CO need 2 × 3 infantry units (Napoleonic: 1 per 3? see chart).
    let chart = lists::commands("napoleonic").unwrap();
    let per = chart
        .rows
        .iter()
        .find(|r| r.level == lists::Level::Brigade)
        .unwrap()
        .per_infantry;
    let extra = "\n[[command]]\nlevel = \"brigade\"\nquality = \"uninspiring\"\n".repeat(3);
    let text = RUSSIANS.replacen("\n[[unit]]", &format!("{extra}\n[[unit]]"), 1);
    match per {
        Some(n) if 4 / n < 3 => {
            let e = reject(&text);
            assert!(e.iter().any(|e| e.contains(&format!("at most one brigade HQ for every {n} infantry units besides the commanding officer"))), "{e:?}");
        }
        _ => {
            accept(&text);
        }
    }
    let armies = "\n[[command]]\nlevel = \"army\"\nquality = \"average\"\n".repeat(2);
    let e = army::check(
        &src(&RUSSIANS.replacen("\n[[unit]]", &format!("{armies}\n[[unit]]"), 1)),
        Some(9000),
    )
    .unwrap_err();
    assert!(
        e.iter().any(|e| e.message == "at most 1 army HQ a side"),
        "{e:?}"
    );
    // The Union: one exceptional HQ a level; the Confederacy two.
    let two_ex = "\n[[command]]\nlevel = \"brigade\"\nquality = \"exceptional\"\n".repeat(2);
    let u = UNION
        .replace("count = 4", "count = 8")
        .replace("stands = 1\n", "stands = 2\n")
        .replacen("\n[[unit]]", &format!("{two_ex}\n[[unit]]"), 1);
    let e = army::check(&src(&u), Some(3000)).unwrap_err();
    assert!(
        e.iter()
            .any(|e| e.message == "at most 1 exceptional brigade HQ in this army"),
        "{e:?}"
    );
    let c = u
        .replace("acw-union", "acw-confederate")
        .replace("Rifled Cannon", "Smoothbore Light Cannon")
        .replace("stands = 4\ncount", "stands = 3\ncount");
    let a = army::check(&src(&c), Some(3000)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        a.commands
            .iter()
            .filter(|c| c.quality == lists::Quality::Exceptional)
            .count(),
        2
    );
    // A chart without the asked quality says what it has.
    let e = reject(&RUSSIANS.replace("quality = \"average\"", "quality = \"good\""));
    assert!(e.iter().any(|e| e.starts_with("army.toml:6:11: the Napoleonic Wars Command Chart has no good brigade HQ: uninspiring, average, exceptional")), "{e:?}");
}

#[test]
fn every_problem_is_reported_at_once_in_file_order() {
    let text = r#"list = "napoleonic-russian"
points = 1500

[[unit]]
troop = "Line Infantry"
stands = 12

[[unit]]
troop = "Heavy Cavalry"
stands = 3
grade = "elite"
"#;
    let e = reject(text);
    assert_eq!(
        e,
        [
            "army.toml:1:8: compulsory: at least 4 infantry units from the rows with a minimum at 1500 points (4 per full 1500); the army has 0",
            "army.toml:1:8: no command units: buy at least one [[command]] (the highest is the commanding officer)",
            "army.toml:6:10: a unit of infantry has 2 to 8 stands, not 12",
            "army.toml:11:9: \"Heavy Cavalry\" cannot be bought elite or poor: only the ACW Regular Infantry rows can",
        ]
    );
    let e = reject("list = \"napoleonic-belgian\"\npoints = 1500\n");
    assert!(
        e[0].starts_with(
            "army.toml:1:8: no army list \"napoleonic-belgian\": one of napoleonic-french"
        ),
        "{e:?}"
    );
    let e =
        reject("list = \"acw-union\"\npoints = 1500\n[[unit]]\ntroop = \"x\"\ncolour = \"blue\"\n");
    assert!(
        e[0].starts_with("army.toml:5:1: unknown field `colour`"),
        "{e:?}"
    );
}

fn field(name: &str) -> battle::Field {
    battle::field(&battle::named_map(name).expect("bundled map")).expect("field")
}

/// The two armies mustered on the rolling farmland.
fn on_farmland(red: &Army, blue: &Army) -> String {
    battle::muster(red, blue, &field("rolling-farmland"), &words("t"), "t.toml").expect("musters")
}

fn words(name: &str) -> battle::Words {
    battle::Words {
        name: name.into(),
        ..Default::default()
    }
}

#[test]
fn muster_deploys_red_in_the_west_and_blue_in_the_east_facing_each_other() {
    let red = accept(RUSSIANS);
    let blue = accept(&UNION.replace("acw-union", "acw-confederate"));
    let text = on_farmland(&red, &blue);
    let game = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("t.toml", text.clone()),
        &Options::default(),
    )
    .expect("loads");
    let _ = game;
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let units = doc["units"].as_array().unwrap();
    assert_eq!(units.len(), 4 + 5);
    for u in units {
        let hex = u["hex"].as_str().unwrap();
        let col: u32 = hex[..2].parse().unwrap();
        match u["side"].as_str().unwrap() {
            "red" => {
                assert!(col <= 7, "{hex}");
                assert!(["NE", "SE"].contains(&u["facing"].as_str().unwrap()));
            }
            _ => {
                assert!(col >= 24, "{hex}");
                assert!(["NW", "SW"].contains(&u["facing"].as_str().unwrap()));
            }
        }
    }
    // The guns stand in the front line, the command units behind it.
    let gun = units
        .iter()
        .find(|u| u["arm"].as_str() == Some("artillery"))
        .unwrap();
    assert_eq!(&gun["hex"].as_str().unwrap()[..2], "24");
    assert_eq!(gun["canister"].as_array().unwrap().len(), 2);
    let red_hq = &doc["sides"]["red"]["commanders"].as_array().unwrap()[0];
    assert_eq!(&red_hq["hex"].as_str().unwrap()[..2], "05");
    assert_eq!(red_hq["supreme"].as_bool(), Some(true));
    assert_eq!(red_hq["value"].as_integer(), Some(7));
}

#[test]
fn a_fields_fronts_move_each_sides_deployment_zone() {
    // creek-crossing sets red's front at column 12 and blue's at 28: every unit and command
    // unit stands in its zone, a quarter of the map deep from the front towards its edge.
    let red = accept(UNION);
    let blue = accept(&UNION.replace("acw-union", "acw-confederate"));
    let text = battle::muster(&red, &blue, &field("creek-crossing"), &words("t"), "t.toml")
        .expect("musters");
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let col = |v: &toml::Value| -> u32 { v["hex"].as_str().unwrap()[..2].parse().unwrap() };
    for u in doc["units"].as_array().unwrap() {
        let c = col(u);
        match u["side"].as_str().unwrap() {
            "red" => assert!((6..=12).contains(&c), "red {c}"),
            _ => assert!((28..=30).contains(&c), "blue {c}"),
        }
    }
    let front = |side: &str| {
        doc["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["side"].as_str() == Some(side))
            .map(col)
            .collect::<Vec<_>>()
    };
    assert_eq!(front("red").into_iter().max(), Some(12));
    assert_eq!(front("blue").into_iter().min(), Some(28));
    // Fronts off the map, crossed, or of another side are refused in words.
    for fronts in [
        "fronts = { red = 0 }",
        "fronts = { red = 20, blue = 10 }",
        "fronts = { green = 3 }",
        "fronts = 3",
    ] {
        let text = include_str!("../data/maps/creek-crossing.toml")
            .replace("fronts = { red = 12, blue = 28 }", fronts);
        let e = battle::field(&ScenarioSource::new("f.toml", text)).unwrap_err();
        assert!(
            e.message
                .contains("fronts must give each side's front column, from 1 to 30"),
            "{fronts}: {e}"
        );
    }
}

#[test]
fn an_army_too_big_for_its_zone_is_refused_with_the_unit_that_did_not_fit() {
    let big = RUSSIANS
        .replace("count = 4", "count = 40")
        .replace("points = 1500", "points = 18100")
        + "\n[[unit]]\ntroop = \"Line Infantry\"\ncount = 40\n";
    let a = accept(&big);
    let small = battle::field(&ScenarioSource::new(
        "scenarios/bptc-first-lesson.toml",
        include_str!("../../../scenarios/bptc-first-lesson.toml"),
    ))
    .unwrap();
    let e = battle::muster(&a, &a, &small, &words("t"), "t.toml").unwrap_err();
    assert!(
        e.message
            .contains("has no room left in its deployment zone for"),
        "{e}"
    );
}

/// An army file made of random choices from a random list: a command unit or three, the
/// compulsory infantry most of the time (with regimental guns now and then where its row
/// takes them), a few more rows of any kind, and sometimes six guns with a Field Artillery
/// Officer.
fn random_army(seed: u64) -> String {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let all = lists::lists();
    let list = &all[rng.random_range(0..all.len())];
    let points = [1500, 3000, 4500][rng.random_range(0..3)];
    let mut text = format!("list = \"{}\"\npoints = {points}\n", list.id);
    let chart = list.command_chart();
    for _ in 0..rng.random_range(1..4) {
        let row = &chart.rows[rng.random_range(0..chart.rows.len())];
        text += &format!(
            "\n[[command]]\nlevel = \"{}\"\nquality = \"{}\"\n",
            army::level_name(row.level).replace("colonial", "hq"),
            army::quality_name(row.quality)
        );
    }
    let buyable: Vec<_> = list.troops.iter().filter(|t| t.points.is_some()).collect();
    let compulsory: Vec<_> = buyable
        .iter()
        .filter(|t| t.arm == Arm::Infantry && t.min.is_some())
        .collect();
    if !compulsory.is_empty() && rng.random_bool(0.8) {
        let t = compulsory[rng.random_range(0..compulsory.len())];
        let n = t.min.unwrap() as u32 * (points / 1500);
        text += &format!(
            "\n[[unit]]\ntroop = \"{}\"\nstands = {}\ncount = {n}\n",
            t.name,
            rng.random_range(2..5)
        );
        if army::regimental_gun_points(list, t).is_ok() && rng.random_bool(0.4) {
            text += &format!(
                "regimental_guns = {}\n",
                rng.random_range(1..=army::REGIMENTAL_GUNS_MAX)
            );
        }
    }
    let guns: Vec<_> = buyable.iter().filter(|t| t.arm == Arm::Artillery).collect();
    if !guns.is_empty() && rng.random_bool(0.2) {
        text += "\n[[command]]\nfao = true\n";
        for k in 0..army::ARTILLERY_PER_FAO as usize {
            text += &format!(
                "\n[[unit]]\ntroop = \"{}\"\nstands = 1\n",
                guns[k % guns.len()].name
            );
        }
    }
    for _ in 0..rng.random_range(0..5) {
        let t = buyable[rng.random_range(0..buyable.len())];
        let (lo, hi, _) = army::stand_range(t.arm);
        text += &format!(
            "\n[[unit]]\ntroop = \"{}\"\nstands = {}\n",
            t.name,
            rng.random_range(lo..=hi)
        );
        if t.arm == Arm::Cavalry && rng.random_bool(0.3) {
            text += "dismounted = true\n";
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Whatever army the check accepts, `volley battle` deploys on every bundled field into a
    /// scenario that loads and plays its first turn without a panic.
    #[test]
    fn every_army_the_check_accepts_can_be_fought(a in 0u64..1_000_000, b in 0u64..1_000_000, map in 0usize..3) {
        let (ta, tb) = (random_army(a), random_army(b));
        let (Ok(red), Ok(blue)) = (army::check(&src(&ta), None), army::check(&src(&tb), None)) else {
            return Ok(());
        };
        let field = field(battle::MAPS[map].0);
        let text = battle::muster(&red, &blue, &field, &words("p"), "p.toml")
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- red\n{ta}\n--- blue\n{tb}")))?;
        let src = ScenarioSource::new("p.toml", text);
        let mut session = volley_core::Session::new(&rules_bpt_commander::RULESET, &src, "p", &Options::default(), volley_core::Seed::from_u64(a ^ b))
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        for step in 0..60usize {
            let legal = session.game.legal_actions();
            if legal.is_empty() { break; }
            let k = (a as usize).wrapping_mul(31).wrapping_add(step) % legal.len();
            session.apply(legal[k], &[]).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        }
    }
}

#[test]
fn random_armies_are_accepted_often_enough_for_the_property_to_bite() {
    let accepted: Vec<Army> = (0..400u64)
        .filter_map(|s| army::check(&src(&random_army(s)), None).ok())
        .collect();
    assert!(
        accepted.len() >= 40,
        "only {} of 400 random armies pass the check",
        accepted.len()
    );
    // Some of them with a Field Artillery Officer, some with regimental guns.
    let faos = accepted
        .iter()
        .filter(|a| a.commands.iter().any(|c| c.fao))
        .count();
    let guns = accepted
        .iter()
        .filter(|a| a.units.iter().any(|u| u.regimental_guns > 0))
        .count();
    assert!(
        faos >= 3 && guns >= 3,
        "{faos} with an FAO, {guns} with guns"
    );
}

#[test]
fn morale_grades_cost_a_quarter_less_or_more_a_stand_and_reach_the_battle() {
    let a = accept(&RUSSIANS.replace("count = 4", "count = 3\n\n[[unit]]\ntroop = \"Line Infantry\"\nmorale = \"motivated\"\n\n[[unit]]\ntroop = \"Field Artillery\"\nstands = 1\nmorale = \"unmotivated\""));
    let motivated = &a.units[3];
    assert_eq!((motivated.stand_points, motivated.cost), (56, 280)); // 45 × 1.25 = 56.25
    let guns = &a.units[4];
    assert_eq!(guns.stand_points, 56); // 75 × 0.75 = 56.25
    let text = battle::muster(&a, &a, &field("rolling-farmland"), &words("m"), "m.toml").unwrap();
    assert!(text.contains("morale = \"motivated\""), "{text}");
    let e = reject(&RUSSIANS.replace("count = 4", "count = 4\nmorale = \"fearless\""));
    assert!(
        e.iter()
            .any(|e| e.contains("morale \"fearless\"? unmotivated, regular or motivated")),
        "{e:?}"
    );
}

#[test]
fn an_army_in_defence_buys_field_defences_within_its_share_and_battle_sets_them_out() {
    // `defence` goes at the top (keys after a [[table]] belong to it).
    let dug_in = RUSSIANS.replacen("points = 1500\n", "points = 1500\ndefence = \"hasty\"\n", 1)
        + "\n[[work]]\nkind = \"trench\"\ncount = 2\n\n[[work]]\nkind = \"stakes\"\ncount = 2\n";
    let a = accept(&dug_in);
    // 2 trenches at 5, 2 stakes at 25: 60 of the 150 (10%) a hasty defence may spend.
    assert_eq!(a.works.iter().map(|w| w.cost).sum::<u32>(), 60);
    assert_eq!(a.cost, 955 + 60);
    let text = battle::muster(
        &a,
        &accept(RUSSIANS),
        &field("rolling-farmland"),
        &words("w"),
        "w.toml",
    )
    .unwrap();
    assert_eq!(text.matches("[[works]]").count(), 4, "{text}");
    let g = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("w.toml", text),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(g.works.len(), 4);
    assert_eq!(g.units.iter().filter(|u| u.dug_in).count(), 2);
    // Over the share, and a fixed defence's work in a hasty one.
    let e = reject(&dug_in.replace(
        "count = 2\n\n[[work]]\nkind = \"stakes\"",
        "count = 2\n\n[[work]]\nkind = \"fortification\"",
    ));
    assert!(
        e.iter()
            .any(|e| e.contains("fortification need a fixed defence")),
        "{e:?}"
    );
    assert!(
        e.iter().any(|e| e.contains(
            "field defences cost 210 points, over the 10% (150 points) a hasty defence may spend"
        )),
        "{e:?}"
    );
    let e = reject(&format!("{RUSSIANS}\n[[work]]\nkind = \"wire\"\n"));
    assert!(
        e.iter()
            .any(|e| e.contains("field defences need the army in defence")),
        "{e:?}"
    );
}

#[test]
fn muster_gives_howitzers_and_mortars_their_traits_and_no_canister_and_late_wars_shrapnel() {
    let red = accept(
        &(UNION.to_string()
            + "\n[[unit]]\ntroop = \"Howitzers\"\nstands = 1\n\n[[unit]]\ntroop = \"Mortar\"\nstands = 1\n"),
    );
    let blue = accept(&UNION.replace("acw-union", "acw-confederate"));
    let text = on_farmland(&red, &blue);
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let traits = |name: &str| -> (Vec<String>, bool) {
        let u = doc["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"].as_str().unwrap().contains(name))
            .unwrap_or_else(|| panic!("no {name} in\n{text}"));
        (
            u.get("traits")
                .and_then(|t| t.as_array())
                .map(|t| t.iter().map(|s| s.as_str().unwrap().to_string()).collect())
                .unwrap_or_default(),
            u.get("canister").is_some(),
        )
    };
    let (h, h_canister) = traits("Howitzer");
    assert!(h.contains(&"howitzer".to_string()), "{h:?}");
    assert!(!h_canister);
    let (m, m_canister) = traits("Mortar");
    assert!(m.contains(&"mortar".to_string()), "{m:?}");
    assert!(!m.contains(&"howitzer".to_string()), "{m:?}");
    assert!(!m_canister);
    // The American Civil War is after 1845: shell is shrapnel.
    assert_eq!(doc["options"]["shrapnel"].as_str(), Some("on"));
    let game = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("t.toml", text.clone()),
        &Options::default(),
    )
    .expect("loads");
    assert!(game.table().shrapnel);
    assert!(game
        .units
        .iter()
        .any(|u| u.traits.mortar && u.traits.no_manhandle));
}

/// A small colonial force with its machine gun, Gatling and modern light gun.
const COLONIAL: &str = r#"list = "colonial"
points = 1500

[[command]]
level = "hq"
quality = "inspiring"

[[unit]]
troop = "Colonial Egyptian Rifle"
stands = 6
count = 3

[[unit]]
troop = "Machine Gun"
stands = 2

[[unit]]
troop = "Gatling Gun"
stands = 1

[[unit]]
troop = "Artillery, Light, Modern (+1908)"
stands = 1
"#;

#[test]
fn colonial_guns_go_on_their_free_limbers_and_the_modern_light_gun_fires_indirect() {
    let a = accept(COLONIAL);
    let text = on_farmland(&a, &a);
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let unit = |name: &str| {
        doc["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"].as_str().unwrap().contains(name))
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
            .clone()
    };
    let int = |u: &toml::Value, k: &str| u.get(k).and_then(|v| v.as_integer()).unwrap_or(0);
    let traits = |u: &toml::Value| -> Vec<String> {
        u.get("traits")
            .and_then(|t| t.as_array())
            .map(|t| t.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    // The machine gun needs transport: a towed gun on the foot limber's 15 cm, man-handled
    // its own 5 cm.
    let mg = unit("Machine Gun");
    assert_eq!(mg["arm"].as_str(), Some("artillery"));
    assert_eq!((int(&mg, "move"), int(&mg, "manhandle")), (15, 5));
    // A gun printed with no move goes only limbered.
    let gat = unit("Gatling");
    assert_eq!((int(&gat, "move"), int(&gat, "manhandle")), (15, 0));
    let light = unit("Light, Modern");
    assert!(
        traits(&light).contains(&"indirect".to_string()),
        "{light:?}"
    );
    assert!(
        !traits(&light).contains(&"howitzer".to_string()),
        "{light:?}"
    );
    let game = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("t.toml", text.clone()),
        &Options::default(),
    )
    .expect("loads");
    assert!(game.units.iter().any(|u| u.traits.indirect));
}

/// RUSSIANS with a Field Artillery Officer (line 13) and six guns of a section each: the
/// howitzers, field guns and horse guns at their maximum of 2 stands a full 1500.
fn russians_with_guns(horse_guns: u32) -> String {
    format!(
        "{RUSSIANS}\n[[command]]\nfao = true\nname = \"Col. Sievers\"\n\n[[unit]]\ntroop = \"Howitzer Field Artillery\"\nstands = 1\ncount = 2\n\n[[unit]]\ntroop = \"Field Artillery\"\nstands = 1\ncount = 2\n\n[[unit]]\ntroop = \"Horse Artillery\"\nstands = 1\ncount = {horse_guns}\n"
    )
}

#[test]
fn a_field_artillery_officer_needs_six_artillery_units_costs_55_and_is_never_the_co() {
    let a = accept(&russians_with_guns(2));
    let fao = &a.commands[1];
    assert!(fao.fao && !a.commands[0].fao);
    assert_eq!((fao.name.as_str(), fao.cost), ("Col. Sievers", 55));
    // 4 × 225 infantry, 2 × 75 + 2 × 75 + 2 × 85 guns, the brigade HQ and the FAO at 55 each.
    assert_eq!(a.cost, 900 + 150 + 150 + 170 + 55 + 55);
    assert_eq!(a.co(), 0);
    // Five guns are not enough: the error is at the FAO's `fao = true`.
    let e = reject(&russians_with_guns(1));
    assert_eq!(
        e,
        ["army.toml:13:7: at most one Field Artillery Officer for every 6 artillery units: 5 artillery units allow 0"]
    );
    // Six guns allow one, not two.
    let e = reject(&format!(
        "{}\n[[command]]\nfao = true\n",
        russians_with_guns(2).replace("points = 1500", "points = 1600")
    ));
    assert_eq!(
        e,
        ["army.toml:32:7: at most one Field Artillery Officer for every 6 artillery units: 6 artillery units allow 1"]
    );
    // An FAO listed first is still not the CO, and alone it commands nothing.
    let first = russians_with_guns(2)
        .replacen(
            "[[command]]\nlevel",
            "[[command]]\nfao = true\n\n[[command]]\nlevel",
            1,
        )
        .replacen(
            "\n[[command]]\nfao = true\nname = \"Col. Sievers\"\n",
            "",
            1,
        );
    let a = accept(&first);
    assert!(a.commands[0].fao);
    assert_eq!(a.co(), 1);
    let only = russians_with_guns(2).replacen(
        "[[command]]\nlevel = \"brigade\"\nquality = \"average\"\n",
        "",
        1,
    );
    let e = reject(&only);
    assert!(
        e.iter().any(|e| e.starts_with(
            "army.toml:1:8: no command units but Field Artillery Officers, who are never the commanding officer"
        )),
        "{e:?}"
    );
    // An FAO has its own stat line; other command units need theirs.
    let e = reject(&russians_with_guns(2).replace(
        "fao = true\n",
        "fao = true\nlevel = \"brigade\"\nquality = \"average\"\n",
    ));
    assert_eq!(
        e,
        ["army.toml:14:9: a Field Artillery Officer has its own stat line (an average brigade HQ's): leave out level and quality"]
    );
    let e = reject(&RUSSIANS.replace("quality = \"average\"\n", ""));
    assert!(
        e.iter().any(|e| e.starts_with(
            "army.toml:5:9: a command unit needs a level and a quality (or `fao = true`"
        )),
        "{e:?}"
    );
}

#[test]
fn regimental_guns_go_with_formed_18th_century_and_napoleonic_infantry_at_a_howitzers_points() {
    let with = |troop: &str, guns: u32| {
        format!("{RUSSIANS}\n[[unit]]\ntroop = \"{troop}\"\nregimental_guns = {guns}\n")
    };
    let a = accept(&with("Line Infantry", 2));
    let regiment = &a.units[4];
    assert_eq!(regiment.regimental_guns, 2);
    // Five stands at 45 and two guns at the Howitzer Field Artillery row's 75.
    assert_eq!((regiment.stand_points, regiment.cost), (45, 225 + 150));
    assert_eq!(a.cost, 955 + 375);
    // The guns are no artillery unit: no FAO for six regiments with guns.
    assert_eq!(
        reject(&with("Heavy Cavalry", 1)),
        ["army.toml:14:19: regimental guns go with an infantry regiment, and \"Heavy Cavalry\" is cavalry"]
    );
    assert_eq!(
        reject(&with("Line Infantry", 3)),
        ["army.toml:14:19: a regiment has at most 2 regimental guns, not 3"]
    );
    assert_eq!(
        reject(&with("Jager Infantry", 1)),
        ["army.toml:14:19: \"Jager Infantry\" fight in open order: regimental guns go with the formed infantry"]
    );
    let e = reject(&format!(
        "{UNION}\n[[unit]]\ntroop = \"Regular Infantry Rifled/Breech Loading Musket\"\nregimental_guns = 1\n"
    ));
    assert_eq!(
        e,
        ["army.toml:19:19: regimental guns are for the 18th-century and Napoleonic lists, not ACW Union Army"]
    );
    // None is none, on any row.
    accept(&with("Heavy Cavalry", 0));
}

#[test]
fn battle_deploys_the_fao_with_its_trait_and_the_regiments_with_their_guns() {
    // Smaller battalions to pay for the guns: 4 × 3 × 45 + 4 × 75.
    let red = accept(&russians_with_guns(2).replacen(
        "count = 4\n",
        "stands = 3\ncount = 4\nregimental_guns = 1\n",
        1,
    ));
    let blue = accept(RUSSIANS);
    let text = on_farmland(&red, &blue);
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let hqs = doc["sides"]["red"]["commanders"].as_array().unwrap();
    assert_eq!(hqs.len(), 2);
    assert_eq!(hqs[0]["supreme"].as_bool(), Some(true));
    let fao = &hqs[1];
    assert_eq!(fao["name"].as_str(), Some("Col. Sievers"));
    assert!(fao.get("supreme").is_none());
    assert_eq!(fao["traits"]["fao"].as_integer(), Some(1));
    assert_eq!(fao["value"].as_integer(), Some(7));
    assert_eq!(fao["traits"]["points"].as_integer(), Some(55));
    assert_eq!(text.matches("regimental_guns = 1").count(), 4, "{text}");
    let game = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("t.toml", text.clone()),
        &Options::default(),
    )
    .expect("loads");
    assert_eq!(game.units.iter().filter(|u| u.fao && !u.co).count(), 1);
    assert_eq!(
        game.units.iter().filter(|u| u.regimental_guns == 1).count(),
        4
    );
}

#[test]
fn cavalry_bought_as_scouts_go_out_a_stand_a_unit_and_the_battle_is_hidden() {
    let prussia = include_str!("../../../scenarios/armies/prussia-1757.toml")
        .replace("points = 3000", "points = 3500")
        + "\n[[unit]]\ntroop = \"Irregular Cavalry\"\nname = \"Zieten hussars\"\nstands = 3\nscouting = true\n";
    let red = accept(&prussia);
    let hussars = red
        .units
        .iter()
        .find(|u| u.name == "Zieten hussars")
        .unwrap();
    assert!(hussars.scouting);
    let blue = accept(include_str!("../../../scenarios/armies/austria-1757.toml"));
    let text = on_farmland(&red, &blue);
    let doc: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(doc["options"]["hidden_setup"].as_str(), Some("on"));
    let scouts: Vec<&toml::Value> = doc["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| {
            u["name"]
                .as_str()
                .unwrap()
                .starts_with("Zieten hussars scout")
        })
        .collect();
    assert_eq!(scouts.len(), 3, "{text}");
    for s in &scouts {
        assert_eq!(s["stands"].as_integer(), Some(1));
        assert!(s["traits"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t.as_str() == Some("scout")));
    }
    let game = rules_bpt_commander::scenario::load(
        &ScenarioSource::new("t.toml", text.clone()),
        &Options::default(),
    )
    .expect("loads");
    assert_eq!(game.units.iter().filter(|u| u.traits.scout).count(), 3);
    assert!(game.units.iter().all(|u| u.hidden));
    // Only mounted cavalry scout.
    let foot = include_str!("../../../scenarios/armies/prussia-1757.toml").replace(
        "troop = \"Line Infantry\"\n",
        "troop = \"Line Infantry\"\nscouting = true\n",
    );
    let e = reject(&foot);
    assert!(
        e.iter().any(|m| m.contains("only mounted cavalry scout")),
        "{e:?}"
    );
}
