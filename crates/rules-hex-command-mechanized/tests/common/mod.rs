//! What every chapter's tests share: small scenarios written as TOML, loaded through the
//! registry's `Ruleset`, and orders played by notation with scripted dice, every result
//! exact. Rule numbers are the digest's (M1–M140), mapped to the rulebook in
//! docs/rules/hex-command-mechanized.md. Hex labels are column then row.
#![allow(dead_code)]

pub use rules_hex_command_mechanized::RULESET;
pub use volley_core::{Event, Game, Options, Ruleset, ScenarioSource, ScriptedDice, Side};

pub fn squad(id: &str, side: &str, weight: &str, hex: &str, facing: &str, extra: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"squad\"\nweight = \"{weight}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n{extra}\n")
}

pub fn gun(id: &str, side: &str, weight: &str, extra: &str, hex: &str, facing: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"gun\"\nweight = \"{weight}\"\n{extra}\nhex = \"{hex}\"\nfacing = \"{facing}\"\n")
}

pub fn vehicle(id: &str, side: &str, kind: &str, hex: &str, facing: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"vehicle\"\ntype = \"{kind}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n")
}

/// A 10 × 10 open map (or the rows given), the units, and `red_extra` in red's side table.
pub fn scenario(rows: Option<&[&str]>, red_extra: &str, units: &[String]) -> String {
    let open = vec![["."; 10].join(" "); 10];
    let rows: Vec<String> = match rows {
        Some(r) => r.iter().map(|r| format!("\"{r}\"")).collect(),
        None => open.iter().map(|r| format!("\"{r}\"")).collect(),
    };
    format!(
        "ruleset = \"hex-command-mechanized\"\nname = \"t\"\ntitle = \"t\"\nturn_limit = 4\n[map]\nrows = [{}]\n[sides.red]\nname = \"Red\"\n{red_extra}\n[sides.blue]\nname = \"Blue\"\n\n{}",
        rows.join(", "),
        units.join("\n")
    )
}

pub fn load(text: &str) -> Box<dyn Game> {
    RULESET
        .load(&ScenarioSource::new("t.toml", text), &Options::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Loads and starts with red winning the initiative (red d10 9, blue d10 1).
pub fn start(text: &str) -> Box<dyn Game> {
    let mut g = load(text);
    let mut d = ScriptedDice::new([9, 1]);
    g.start(&mut d);
    assert_eq!(d.remaining(), 0);
    g
}

pub fn play(g: &mut Box<dyn Game>, order: &str, dice: &[u32]) -> Vec<Event> {
    let a = g
        .parse_action(order)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    let mut d = ScriptedDice::new(dice.iter().copied());
    let events = g
        .apply(a, &mut d)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    assert_eq!(d.remaining(), 0, "{order}: dice left over");
    g.check_invariants().unwrap();
    events
}

pub fn refused(g: &mut Box<dyn Game>, order: &str) -> String {
    let before = g.view(None);
    let a = g
        .parse_action(order)
        .unwrap_or_else(|e| panic!("{order}: {e}"));
    assert!(
        !g.legal_actions().contains(&a),
        "{order} is listed as legal"
    );
    let e = g
        .apply(a, &mut ScriptedDice::new([]))
        .expect_err("should be refused");
    assert_eq!(g.view(None), before);
    e.to_string()
}

pub fn legal(g: &dyn Game) -> Vec<String> {
    g.legal_actions().iter().map(|a| g.notation(*a)).collect()
}

pub fn texts(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("[{}] {}", e.rule, e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn hex_of(g: &dyn Game, id: &str) -> String {
    g.view(None).unit(id).unwrap().place.to_string()
}

pub fn gone(g: &dyn Game, id: &str) -> bool {
    g.view(None).unit(id).is_none()
}

/// Red's tank facing a blue one three hexes off; red moves nothing and blue fires first.
pub fn tank_duel() -> Box<dyn Game> {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "pz4f2", "0508", "N"),
            vehicle("b1", "blue", "t34-76", "0504", "S"),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    g
}

/// Two squads face to face, red to melee.
pub fn melee_game(red_weight: &str) -> Box<dyn Game> {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", red_weight, "0506", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    for _ in 0..2 {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red melee");
    g
}

/// `scenario` with top-level keys (works, minefields) before the map.
pub fn scenario_with(top: &str, units: &[String]) -> String {
    scenario(None, "", units).replacen("turn_limit = 4\n", &format!("turn_limit = 4\n{top}\n"), 1)
}

pub fn ambush_game() -> Box<dyn Game> {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0505", "S", "at = true\nhidden = true"),
            vehicle("b1", "blue", "t34-76", "0507", "N"),
            squad("b2", "blue", "M", "0909", "N", ""),
        ],
    );
    let mut g = load(&s);
    // Blue wins the initiative (red 1 − 5, blue 9 − 5); blue spots nothing (d6 2: r1 is in
    // sight, 2 hexes off).
    let events = g.start(&mut ScriptedDice::new([1, 9, 2]));
    assert!(
        texts(&events).contains("blue does not spot r1 (d6 2)"),
        "{}",
        texts(&events)
    );
    g
}

/// A Medium squad attacks a faster Light one (4 points against 3).
pub fn retreat_game() -> Box<dyn Game> {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0506", "N", ""),
            squad("b1", "blue", "L", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    for _ in 0..3 {
        play(&mut g, "end", &[]);
    }
    let events = play(&mut g, "melee r1 b1", &[]);
    assert!(
        texts(&events)
            .contains("r1 attacks b1, which is faster and may step back before the melee."),
        "{}",
        texts(&events)
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert!(
        refused(&mut g, "end").contains("b1 must first step back from r1's melee or stand (M115)")
    );
    g
}

pub fn with_options(s: &str, options: &str) -> String {
    s.replacen("[map]", &format!("[options]\n{options}\n\n[map]"), 1)
}

pub fn reinforcement_scenario(options: &str) -> String {
    let group = "[[reinforcements]]\nid = \"second-wave\"\nside = \"red\"\nturn = 2\nentry = [\"0510\", \"0610\"]\nfacing = \"N\"";
    let late = "[[units]]\nid = \"r2\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\narrives = \"second-wave\"\n".to_string();
    let late2 = late.replace("\"r2\"", "\"r3\"");
    let late3 = late.replace("\"r2\"", "\"r4\"");
    with_options(
        &scenario_with(
            group,
            &[
                squad("r1", "red", "M", "0109", "N", ""),
                late,
                late2,
                late3,
                squad("b1", "blue", "M", "0901", "S", ""),
            ],
        ),
        options,
    )
}

pub fn commander_fire_game(options: &str) -> Box<dyn Game> {
    let s = with_options(
        &scenario(
            None,
            "commanders = [{ id = \"R1\", name = \"Roth\", value = 2, supreme = true }]",
            &[
                squad("r1", "red", "M", "0506", "N", ""),
                squad("b1", "blue", "M", "0504", "S", ""),
            ],
        ),
        options,
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "place R1 0506", &[]);
    // Blue answers first (range 1, Medium: 3+) and misses.
    play(&mut g, "fire b1 r1", &[1]);
    g
}

/// Red's tank at 0509 (on a hill with `hill`), a friendly squad at 0507 on the line, blue's
/// squad at `target`; red to fire.
pub fn over_friends(hill: bool, tank: &str, target: &str) -> Box<dyn Game> {
    let mut rows: Vec<String> = vec![["."; 10].join(" "); 10];
    if hill {
        rows[8] = ". . . . .1 . . . . .".into();
    }
    let s = scenario(
        Some(&rows.iter().map(String::as_str).collect::<Vec<_>>()),
        "",
        &[
            vehicle("r1", "red", tank, "0509", "N"),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("b1", "blue", "L", target, "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    while g.view(None).phase != "red fires" {
        play(&mut g, "end", &[]);
    }
    g
}

pub fn obscured_game(options: &str) -> Box<dyn Game> {
    let s = with_options(
        &scenario_with(
            "works = [\"0506\"]",
            &[
                squad("r1", "red", "M", "0508", "N", ""),
                squad("b1", "blue", "M", "0504", "S", ""),
            ],
        ),
        options,
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "fire b1 r1", &[1]);
    g
}

pub fn air_game(flak: bool) -> Box<dyn Game> {
    let mut units = vec![
        squad("r1", "red", "M", "0109", "N", ""),
        squad("b1", "blue", "M", "0505", "S", ""),
    ];
    if flak {
        units.push(vehicle("b2", "blue", "m16", "0504", "S"));
    }
    let s = scenario_with(
        "[[aircraft]]\nid = \"jabo\"\nside = \"red\"\nname = \"Fw 190\"\nweight = \"M\"\nturns = [1]\nentry = \"0509\"\nfacing = \"N\"",
        &units,
    );
    let mut g = start(&s);
    while g.view(None).phase != "red fires" {
        play(&mut g, "end", &[]);
    }
    g
}

pub fn orders_game() -> Box<dyn Game> {
    let top = "[[objectives]]\nhex = \"0505\"\nname = \"the farm\"\npoints = 10\n\n[[orders]]\nside = \"red\"\ngroup = 1\norder = \"reserve\"\n\n[[orders]]\nside = \"red\"\ngroup = 2\norder = \"reserve\"";
    let s = with_options(
        &scenario(
            None,
            "commanders = [{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, traits = { initiative = 5, morale = 1, tactical = 5, aggressiveness = 6 } }]",
            &[
                squad("r1", "red", "M", "0509", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0901", "S", ""),
            ],
        )
        .replacen("turn_limit = 4\n", &format!("turn_limit = 4\n{top}\n"), 1),
        "cvs_orders = \"yes\"",
    );
    start(&s)
}

/// The rows of a 10 × 10 open map with forest at these (row, column) places, from 1.
pub fn forest_at(places: &[(usize, usize)]) -> Vec<String> {
    let mut rows = vec![vec!["."; 10]; 10];
    for &(r, c) in places {
        rows[r - 1][c - 1] = "W";
    }
    rows.iter().map(|r| r.join(" ")).collect()
}

/// The error a scenario is refused with (it must name the file, line and column).
pub fn load_error(text: &str) -> String {
    let e = RULESET
        .load(&ScenarioSource::new("t.toml", text), &Options::new())
        .err()
        .expect("refused")
        .to_string();
    assert!(e.starts_with("t.toml:"), "{e}");
    e
}

/// Red's group "relief" (`units` of it) is due on turn 2 at 0210, 0410 and 0510; blue's b2
/// stands on 0510. Returns the game at red's turn 2, the blocker asked.
pub fn blocked_entry(units: usize) -> (Box<dyn Game>, Vec<Event>) {
    let group = "[[reinforcements]]\nid = \"relief\"\nside = \"red\"\nturn = 2\nentry = [\"0210\", \"0410\", \"0510\"]\nfacing = \"N\"";
    let mut all = vec![
        squad("r1", "red", "M", "0901", "S", ""),
        squad("b1", "blue", "M", "0101", "N", ""),
        squad("b2", "blue", "M", "0510", "S", ""),
    ];
    for k in 0..units {
        all.push(format!("[[units]]\nid = \"n{k}\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\narrives = \"relief\"\n"));
    }
    let mut g = start(&scenario_with(group, &all));
    play(&mut g, "end", &[]);
    let events = play(&mut g, "end", &[9, 1]);
    (g, events)
}

/// Red (break point 20%) with a gun and four squads; blue (break point 60%) with a gun and two
/// squads. Blue's squad takes red's gun (red has lost 20%); if `answer`, red's squad takes
/// blue's gun (blue has lost 33%).
pub fn break_point_game(options: &str, answer: bool) -> (Box<dyn Game>, String) {
    let s = scenario(
        None,
        "break_point = 20",
        &[
            squad("r1", "red", "M", "0507", "N", ""),
            squad("r2", "red", "M", "0109", "N", ""),
            squad("r3", "red", "M", "0209", "N", ""),
            squad("r4", "red", "M", "0909", "N", ""),
            gun("rg", "red", "M", "", "0908", "N"),
            gun("g1", "blue", "M", "", "0506", "S"),
            squad("b3", "blue", "L", "0506", "S", ""),
            squad("b1", "blue", "M", "0907", "S", ""),
        ],
    )
    .replace(
        "[sides.blue]\nname = \"Blue\"\n",
        "[sides.blue]\nname = \"Blue\"\nbreak_point = 60\n",
    );
    let mut g = load(&with_options(&s, options));
    g.start(&mut ScriptedDice::new([9, 1]));
    let mut log = String::new();
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
    // Small arms at range 0 hit on 2+ (M90); a gun's crew hit loses the gun.
    log += &texts(&play(&mut g, "fire b1 rg", &[6]));
    log += &texts(&play(&mut g, "end", &[]));
    assert_eq!(g.view(None).phase, "red fires");
    if answer {
        log += &texts(&play(&mut g, "fire r1 g1", &[6]));
        assert!(gone(&*g, "g1"), "{log}");
    }
    assert!(gone(&*g, "rg"), "{log}");
    (g, log)
}
