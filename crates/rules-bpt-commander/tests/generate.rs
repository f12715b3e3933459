//! The army the computer builds (`generate`): for every list and total, an army the check
//! accepts at that total, with nothing more a player could add fitting in its points; the
//! same army for the same seed and others for others; and a total too small for a list's
//! compulsory part refused with the least it takes.

use rules_bpt_commander::army::{self, Army};
use rules_bpt_commander::battle;
use rules_bpt_commander::generate::{self, MAX_POINTS};
use rules_bpt_commander::lists::{self, Arm};
use volley_core::ScenarioSource;

fn check(text: &str) -> Result<Army, Vec<String>> {
    army::check(&ScenarioSource::new("generated.toml", text), None)
        .map_err(|e| e.into_iter().map(|e| e.message).collect())
}

/// Every single thing a player could add to an army file, each as the file with it: a unit
/// of every row bought on its own at its fewest stands (in each grade, with and without horse
/// teams, where the row has them), a command unit of every row of the chart, a Field
/// Artillery Officer, a stand more for any one unit, a regimental gun more for any one unit.
fn additions(text: &str) -> Vec<(String, String)> {
    let doc: toml::Table = toml::from_str(text).expect("the file is TOML");
    let list = lists::find(doc["list"].as_str().unwrap()).unwrap();
    let mut out = Vec::new();
    for t in &list.troops {
        if army::why_not_for_sale(list, t).is_some() {
            continue;
        }
        let (grades, horse, _) = army::row_options(list, t);
        let lo = army::stand_range(t.arm).0;
        let grades: &[&str] = if grades {
            &["regular", "elite", "poor"]
        } else {
            &["regular"]
        };
        let horses: &[bool] = if horse { &[false, true] } else { &[false] };
        for g in grades {
            for h in horses {
                let extra = format!(
                    "\n[[unit]]\ntroop = {}\nstands = {lo}\ngrade = \"{g}\"\nhorse = {h}\n",
                    toml::Value::String(t.name.clone())
                );
                out.push((
                    format!("a unit of {} ({g}, horse {h})", t.name),
                    format!("{text}{extra}"),
                ));
            }
        }
    }
    for r in &list.command_chart().rows {
        let (level, quality) = (army::level_id(r.level), army::quality_name(r.quality));
        out.push((
            format!("{quality} {level} HQ"),
            format!("{text}\n[[command]]\nlevel = \"{level}\"\nquality = \"{quality}\"\n"),
        ));
    }
    out.push((
        "a Field Artillery Officer".into(),
        format!("{text}\n[[command]]\nfao = true\n"),
    ));
    let units = doc["unit"].as_array().unwrap();
    for (i, u) in units.iter().enumerate() {
        let (_, hi, _) = army::stand_range(list.troop(u["troop"].as_str().unwrap()).unwrap().arm);
        for (key, most) in [("stands", hi as i64), ("regimental_guns", 2)] {
            let now = u.get(key).and_then(|v| v.as_integer()).unwrap_or(0);
            if now >= most {
                continue;
            }
            // One unit of the entry one more: the entry less one, and that unit on its own.
            let mut doc = doc.clone();
            let entries = doc["unit"].as_array_mut().unwrap();
            let count = u.get("count").and_then(|c| c.as_integer()).unwrap_or(1);
            let mut one = u.as_table().unwrap().clone();
            one.remove("count");
            one.insert(key.into(), toml::Value::Integer(now + 1));
            if count > 1 {
                entries[i]
                    .as_table_mut()
                    .unwrap()
                    .insert("count".into(), toml::Value::Integer(count - 1));
                entries.push(toml::Value::Table(one));
            } else {
                entries[i] = toml::Value::Table(one);
            }
            out.push((
                format!("one more of {key} for unit entry {}", i + 1),
                toml::to_string(&doc).unwrap(),
            ));
        }
    }
    out
}

/// The points an addition refused only for the total would have cost, from the check's
/// words ("the army costs N points, …"); `None` when a limit refused it.
fn refused_for_cost_only(errors: &[String], cost: u32) -> Option<u32> {
    let [only] = errors else { return None };
    let rest = only.strip_prefix("the army costs ")?;
    let n: u32 = rest.split(' ').next()?.parse().ok()?;
    Some(n - cost)
}

#[test]
fn every_list_and_total_gives_an_army_the_check_accepts_with_nothing_more_fitting() {
    let mut armies = 0;
    for list in lists::lists() {
        for points in [1000, 1500, 2000, 3000, 4500, 6000, MAX_POINTS] {
            for seed in [1, 2, 3] {
                let g = generate::generate(&list.id, points, seed)
                    .unwrap_or_else(|e| panic!("{} at {points}: {e}", list.id));
                let a = check(&g.text).unwrap_or_else(|e| {
                    panic!("{} at {points}, seed {seed}: {e:?}\n{}", list.id, g.text)
                });
                assert_eq!((a.points, &a.list_id), (points, &list.id));
                assert_eq!(a.cost, g.army.cost);
                assert!(a.cost <= points);
                let mut cheapest: Option<(u32, String)> = None;
                for (what, text) in additions(&g.text) {
                    match check(&text) {
                        Ok(b) => panic!(
                            "{} at {points}, seed {seed}: {what} still fits ({} of {points} points)\n{}",
                            list.id, b.cost, g.text
                        ),
                        Err(errors) => {
                            if let Some(price) = refused_for_cost_only(&errors, a.cost) {
                                if cheapest.as_ref().is_none_or(|(p, _)| price < *p) {
                                    cheapest = Some((price, what));
                                }
                            }
                        }
                    }
                }
                // Nothing more fits: the cheapest addition only the total refuses costs more
                // than what is left.
                if let Some((price, what)) = cheapest {
                    assert!(
                        a.cost + price > points,
                        "{} at {points}: {what} costs {price}, {} left",
                        list.id,
                        points - a.cost
                    );
                }
                armies += 1;
            }
        }
    }
    assert_eq!(armies, 12 * 7 * 3);
}

#[test]
fn the_army_file_says_how_it_was_made_and_reads_back_the_same() {
    let g = generate::generate("napoleonic-french", 1500, 7).unwrap();
    assert!(
        g.text.starts_with(
            "# Built by the computer from the Napoleonic French Army to 1500 points:\n\
             # volley army generate napoleonic-french --points 1500 --seed 7\n\
             list = \"napoleonic-french\"\n\
             name = \"Napoleonic French Army of 1500 points\"\n\
             points = 1500\n"
        ),
        "{}",
        g.text
    );
    assert_eq!(g.army.name, "Napoleonic French Army of 1500 points");
    // The commanding officer is listed first.
    let co = g.army.co();
    assert_eq!(co, 0);
    let again = check(&g.text).unwrap();
    assert_eq!(again.cost, g.army.cost);
    assert_eq!(again.units.len(), g.army.units.len());
}

#[test]
fn the_same_seed_gives_the_same_army_and_other_seeds_other_armies() {
    // The file less its first two lines, which name the seed.
    let body = |text: &str| text.lines().skip(2).collect::<Vec<_>>().join("\n");
    for list in lists::lists() {
        let a = generate::generate(&list.id, 3000, 11).unwrap();
        let b = generate::generate(&list.id, 3000, 11).unwrap();
        assert_eq!(a.text, b.text, "{}", list.id);
        let mut bodies: Vec<String> = (1..=5)
            .map(|seed| body(&generate::generate(&list.id, 3000, seed).unwrap().text))
            .collect();
        bodies.sort();
        bodies.dedup();
        assert!(
            bodies.len() >= 4,
            "{}: only {} different armies from 5 seeds",
            list.id,
            bodies.len()
        );
    }
}

#[test]
fn an_army_of_3000_points_has_foot_horse_guns_and_an_hq_for_its_infantry() {
    for list in lists::lists() {
        let has = |arm: Arm| {
            list.troops
                .iter()
                .any(|t| t.arm == arm && army::why_not_for_sale(list, t).is_none())
        };
        for seed in 1..=5 {
            let a = generate::generate(&list.id, 3000, seed).unwrap().army;
            let count = |arm: Arm| a.units.iter().filter(|u| u.troop.arm == arm).count();
            let min = if list.id == "colonial" { 3 } else { 4 };
            assert!(count(Arm::Infantry) >= 2 * min, "{} {seed}", list.id);
            if has(Arm::Cavalry) {
                assert!(count(Arm::Cavalry) >= 1, "{} {seed}", list.id);
            }
            if has(Arm::Artillery) {
                assert!(count(Arm::Artillery) >= 1, "{} {seed}", list.id);
            }
            // An HQ for every seven infantry units at the least (four to six, where the
            // limits allow).
            let hqs = a.commands.iter().filter(|c| !c.fao).count();
            assert!(
                hqs * 7 >= count(Arm::Infantry),
                "{} {seed}: {hqs} HQs for {} infantry units",
                list.id,
                count(Arm::Infantry)
            );
        }
    }
}

#[test]
fn a_total_too_small_for_the_compulsory_part_names_the_list_and_the_least_it_takes() {
    // British foot costs more than horse: the least is an all-cavalry force.
    assert_eq!(
        generate::generate("napoleonic-british", 400, 1).unwrap_err(),
        "the Napoleonic British Army needs at least 510 points for its compulsory part (an \
         uninspiring brigade HQ of 30 points and 4 units of Heavy Cavalry of 2 stands at 120 \
         points each, an all-cavalry force, which takes the infantry minimum for its horse); \
         400 points are too few"
    );
    assert!(generate::generate("napoleonic-british", 509, 1).is_err());
    let least = generate::generate("napoleonic-british", 510, 1)
        .unwrap()
        .army;
    assert_eq!(least.cost, 510);
    assert!(least.units.iter().all(|u| u.troop.arm == Arm::Cavalry));
    // ACW foot may be bought poor, and the guns are compulsory too.
    assert_eq!(
        generate::generate("acw-union", 100, 1).unwrap_err(),
        "the ACW Union Army needs at least 505 points for its compulsory part (an uninspiring \
         brigade HQ of 30 points, 4 units of Regular Infantry Rifled/Breech Loading Musket of 2 \
         stands, bought poor, at 110 points each and 1 unit of Howitzers of 1 stand at 35 points \
         each); 100 points are too few"
    );
    assert!(generate::generate("acw-union", 504, 1).is_err());
    assert!(generate::generate("acw-union", 505, 1).unwrap().army.cost <= 505);
    // Colonial foot is cheap: three units of Zulus and an HQ.
    assert_eq!(
        generate::generate("colonial", 50, 1).unwrap_err(),
        "the Colonial Army 1866-1910 needs at least 120 points for its compulsory part (an \
         uninspiring colonial HQ of 30 points and 3 units of Zulu of 2 stands at 30 points \
         each); 50 points are too few"
    );
}

#[test]
fn unknown_lists_no_points_and_too_many_are_refused_in_words() {
    let e = generate::generate("napoleonic-belgian", 1500, 1).unwrap_err();
    assert!(
        e.starts_with("there is no army list \"napoleonic-belgian\"; the lists are: "),
        "{e}"
    );
    assert!(e.contains("napoleonic-french"), "{e}");
    assert_eq!(
        generate::generate("napoleonic-french", 0, 1).unwrap_err(),
        "the points total must be more than 0"
    );
    assert_eq!(
        generate::generate("napoleonic-french", MAX_POINTS + 1, 1).unwrap_err(),
        format!(
            "the computer builds armies of at most 9000 points, not {}",
            MAX_POINTS + 1
        )
    );
}

#[test]
fn generated_armies_deploy_on_every_field_against_each_other() {
    let all = lists::lists();
    for (k, list) in all.iter().enumerate() {
        let other = &all[(k + 5) % all.len()];
        for points in [1500, 3000, 6000] {
            let red = generate::generate(&list.id, points, 1).unwrap().army;
            let blue = generate::generate(&other.id, points, 2).unwrap().army;
            for (name, _) in battle::MAPS {
                let field = battle::field(&battle::named_map(name).unwrap()).unwrap();
                let words = battle::Words {
                    name: "generated".into(),
                    ..Default::default()
                };
                battle::muster(&red, &blue, &field, &words, "generated.toml").unwrap_or_else(|e| {
                    panic!(
                        "{} against {} at {points} on {name}: {e}",
                        list.id, other.id
                    )
                });
            }
        }
    }
}
