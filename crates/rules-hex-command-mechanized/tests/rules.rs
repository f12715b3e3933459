//! One test per rule of Hex Command: Mechanized, with scripted dice and exact results. Rule
//! numbers are the digest's (M1–M140), mapped to the rulebook in
//! docs/rules/hex-command-mechanized.md. Hex labels are column then row.

use rules_hex_command_mechanized::RULESET;
use volley_core::{Event, Game, Options, Ruleset, ScenarioSource, ScriptedDice, Side};

fn squad(id: &str, side: &str, weight: &str, hex: &str, facing: &str, extra: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"squad\"\nweight = \"{weight}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n{extra}\n")
}

fn gun(id: &str, side: &str, weight: &str, extra: &str, hex: &str, facing: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"gun\"\nweight = \"{weight}\"\n{extra}\nhex = \"{hex}\"\nfacing = \"{facing}\"\n")
}

fn vehicle(id: &str, side: &str, kind: &str, hex: &str, facing: &str) -> String {
    format!("[[units]]\nid = \"{id}\"\nside = \"{side}\"\nkind = \"vehicle\"\ntype = \"{kind}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n")
}

/// A 10 × 10 open map (or the rows given), the units, and `red_extra` in red's side table.
fn scenario(rows: Option<&[&str]>, red_extra: &str, units: &[String]) -> String {
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

fn load(text: &str) -> Box<dyn Game> {
    RULESET
        .load(&ScenarioSource::new("t.toml", text), &Options::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Loads and starts with red winning the initiative (red d10 9, blue d10 1).
fn start(text: &str) -> Box<dyn Game> {
    let mut g = load(text);
    let mut d = ScriptedDice::new([9, 1]);
    g.start(&mut d);
    assert_eq!(d.remaining(), 0);
    g
}

fn play(g: &mut Box<dyn Game>, order: &str, dice: &[u32]) -> Vec<Event> {
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

fn refused(g: &mut Box<dyn Game>, order: &str) -> String {
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

fn legal(g: &dyn Game) -> Vec<String> {
    g.legal_actions().iter().map(|a| g.notation(*a)).collect()
}

fn texts(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("[{}] {}", e.rule, e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

fn hex_of(g: &dyn Game, id: &str) -> String {
    g.view(None).unit(id).unwrap().place.to_string()
}

fn gone(g: &dyn Game, id: &str) -> bool {
    g.view(None).unit(id).is_none()
}

#[test]
fn sequence_the_initiative_winner_plays_first() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red d10 3 − I 5 = −2, blue d10 8 − I 5 = 3: blue's margin is larger.
    let events = g.start(&mut ScriptedDice::new([3, 8]));
    let t = texts(&events);
    assert!(
        t.contains("[hex-command-mechanized M16] Turn 1: red d10 3 − I 5 = -2, blue d10 8 − I 5 = 3; blue has the initiative and plays first."),
        "{t}"
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(g.view(None).phase, "blue movement");
}

#[test]
fn movement_steps_ahead_or_obliquely_on_movement_points() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // A Medium squad has 3 points (D7); one a hex.
    play(&mut g, "move r1 0508", &[]);
    assert!(refused(&mut g, "move r1 0509").contains("steps only into the hex ahead"));
    play(&mut g, "move r1 0507", &[]);
    play(&mut g, "move r1 0506", &[]);
    assert!(refused(&mut g, "move r1 0505").contains("0 of its 3 movement points left"));
    assert_eq!(hex_of(&*g, "r1"), "0506");
}

#[test]
fn movement_an_enemy_zone_of_control_ends_the_move() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "L", "0509", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0508", &[]);
    let events = play(&mut g, "move r1 0507", &[]);
    // 0506 is in b1's front hexes, 0507 is not; the next step enters them.
    assert!(!texts(&events).contains("zone of control"));
    let events = play(&mut g, "move r1 0506", &[]);
    assert!(
        texts(&events).contains("into an enemy's zone of control, and stops (M54)"),
        "{}",
        texts(&events)
    );
}

#[test]
fn movement_two_items_a_hex() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0508", "N", ""),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("r3", "red", "M", "0507", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "move r1 0507").contains("already holds two items (M56)"));
}

#[test]
fn movement_vehicles_reverse_at_half_speed() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0505", "N"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // A Medium chassis moves 5 (D2): reversing, 3.
    for hex in ["0506", "0507", "0508"] {
        play(&mut g, &format!("reverse r1 {hex}"), &[]);
    }
    assert!(refused(&mut g, "reverse r1 0509").contains("movement points left"));
}

#[test]
fn facing_changes_are_limited_by_class() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0505", "N"),
            vehicle("r2", "red", "pz2", "0305", "N"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Medium vehicles turn once a turn, Light ones twice (T6).
    play(&mut g, "face r1 NE", &[]);
    assert!(refused(&mut g, "face r1 SE").contains("made its 1 facing change this turn (M51)"));
    play(&mut g, "face r2 NE", &[]);
    play(&mut g, "face r2 SE", &[]);
    assert!(refused(&mut g, "face r2 S").contains("made its 2 facing changes"));
}

/// Red's tank facing a blue one three hexes off; red moves nothing and blue fires first.
fn tank_duel() -> Box<dyn Game> {
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

#[test]
fn fire_the_non_phasing_side_fires_first_then_the_phasing_side() {
    let mut g = tank_duel();
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
    assert_eq!(g.to_decide(), Some(Side::Blue));
    // Range 3 (M83), M gun against an M tank's front (defence 3): 6+ on 2d10. Miss.
    let events = play(&mut g, "fire b1 r1", &[1, 2]);
    assert!(
        texts(&events).contains("b1 fires at r1 at range 3: needs 6+ on 2d10, rolled 1+2: miss."),
        "{}",
        texts(&events)
    );
    assert_eq!(g.view(None).phase, "red fires");
    assert!(refused(&mut g, "fire b1 r1").contains("b1 is blue's; red decides now"));
}

#[test]
fn fire_an_anti_tank_hit_rolls_damage_blocks_by_gun_against_chassis() {
    let mut g = tank_duel();
    // Hit on 5+4; equal weights: one incremental block, a d6 face (6: MM → one M step).
    let events = play(&mut g, "fire b1 r1", &[5, 4, 6]);
    let t = texts(&events);
    assert!(t.contains("needs 6+ on 2d10, rolled 5+4: hit."), "{t}");
    let v = g.view(None).unit("r1").unwrap().clone();
    assert_eq!(v.hits, 1, "{t}");
}

#[test]
fn fire_small_arms_put_a_marker_and_the_third_hit_takes_a_figure() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0506", "N", ""),
            squad("b1", "blue", "M", "0504", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue fires first: range 1, Medium needs 3+ (D6).
    let events = play(&mut g, "fire b1 r1", &[3]);
    assert!(
        texts(&events).contains("needs 3+ on a d6, rolled 3: hit."),
        "{}",
        texts(&events)
    );
    assert!(
        texts(&events).contains("r1 takes 1 hit: 4 figures left, 1 marker"),
        "{}",
        texts(&events)
    );
    // Red answers; its marker costs it a point (needs 4+).
    let events = play(&mut g, "fire r1 b1", &[3]);
    assert!(
        texts(&events).contains("needs 4+ on a d6, rolled 3: miss."),
        "{}",
        texts(&events)
    );
}

#[test]
fn view_hides_a_squads_anti_tank_weapons_until_they_fire_at_a_vehicle() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0506", "N", "at = true"),
            vehicle("b1", "blue", "t34-76", "0504", "S"),
        ],
    );
    let mut g = start(&s);
    assert!(g.view(Some(Side::Red)).unit("r1").unwrap().has("AT"));
    assert!(!g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Red fires its panzerfaust at range 1: an M weapon, 1d10 (M88): 1 + 3 = 4+.
    let events = play(&mut g, "fire r1 b1", &[2]);
    assert!(
        texts(&events).contains("needs 4+ on 1d10, rolled 2: miss."),
        "{}",
        texts(&events)
    );
    assert!(g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
}

/// Two squads face to face, red to melee.
fn melee_game(red_weight: &str) -> Box<dyn Game> {
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

#[test]
fn melee_the_higher_total_captures_the_other() {
    let mut g = melee_game("H");
    // Heavy 3 + d6 5 = 8 against Medium 2 + d6 4 = 6 (D8).
    let events = play(&mut g, "melee r1 b1", &[5, 4]);
    assert!(
        texts(&events).contains("r1 melees b1: 5+3 = 8 against 4+2 = 6: r1 wins and captures b1."),
        "{}",
        texts(&events)
    );
    assert!(gone(&*g, "b1"));
}

#[test]
fn melee_a_tie_costs_both_a_figure_and_pushes_both_back() {
    let mut g = melee_game("M");
    let events = play(&mut g, "melee r1 b1", &[4, 4]);
    let t = texts(&events);
    assert!(
        t.contains("a tie: both lose a figure and fall back (M111)"),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "r1"), "0507");
    assert_eq!(hex_of(&*g, "b1"), "0504");
    assert_eq!(
        g.view(None)
            .unit("r1")
            .unwrap()
            .elements
            .as_ref()
            .unwrap()
            .now,
        3
    );
}

/// `scenario` with top-level keys (works, minefields) before the map.
fn scenario_with(top: &str, units: &[String]) -> String {
    scenario(None, "", units).replacen("turn_limit = 4\n", &format!("turn_limit = 4\n{top}\n"), 1)
}

#[test]
fn movement_vehicles_entering_works_stop_there_infantry_do_not() {
    let s = scenario_with(
        "works = [\"0506\", \"0306\"]",
        &[
            vehicle("r1", "red", "t34-76", "0508", "N"),
            squad("r2", "red", "M", "0308", "N", ""),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0507", &[]);
    let events = play(&mut g, "move r1 0506", &[]);
    assert!(
        texts(&events).contains("into works, and stops for the turn (M64)"),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "move r1 0505").contains("finished its move"));
    play(&mut g, "move r2 0307", &[]);
    play(&mut g, "move r2 0306", &[]);
    play(&mut g, "move r2 0305", &[]);
}

#[test]
fn movement_a_minefield_stops_the_item_and_hurts_it_unless_it_clears_mines() {
    let mines = "[[minefields]]\nhex = \"0506\"\nside = \"blue\"\n\n[[minefields]]\nhex = \"0306\"\nside = \"blue\"";
    let s = scenario_with(
        mines,
        &[
            squad("r1", "red", "M", "0507", "N", ""),
            squad("r2", "red", "M", "0307", "N", "engineer = true"),
            squad("b1", "blue", "M", "0201", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Red cannot see blue's minefields until it finds them.
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .all(|f| f.kind != "minefield"));
    assert_eq!(
        g.view(Some(Side::Blue))
            .features
            .iter()
            .filter(|f| f.kind == "minefield")
            .count(),
        2
    );
    let events = play(&mut g, "move r1 0506", &[]);
    let t = texts(&events);
    assert!(
        t.contains("r1 runs into a minefield at 0506 and stops"),
        "{t}"
    );
    assert!(t.contains("1 marker"), "{t}");
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .any(|f| f.kind == "minefield"));
    // Engineers pass through (M65).
    let events = play(&mut g, "move r2 0306", &[]);
    assert!(
        texts(&events).contains("r2 finds mines at 0306 and passes through them."),
        "{}",
        texts(&events)
    );
    play(&mut g, "move r2 0305", &[]);
}

fn ambush_game() -> Box<dyn Game> {
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

#[test]
fn hidden_units_are_off_the_enemys_map_and_failed_spotting_is_not_told_to_the_spotter() {
    let g = ambush_game();
    assert!(g.view(Some(Side::Blue)).unit("r1").is_none());
    assert!(g.view(Some(Side::Red)).unit("r1").unwrap().has("hidden"));
    // Blue's orders do not depend on r1: it may try to drive into its hex.
    assert!(volley_core::Game::legal_actions(&*g)
        .iter()
        .any(|a| g.notation(*a) == "move b1 0506"));
}

#[test]
fn ambush_a_unit_entering_a_hidden_enemys_hex_is_stopped_and_fired_on_first() {
    let mut g = ambush_game();
    play(&mut g, "move b1 0506", &[]);
    // 0505 holds hidden r1: the step is not made, r1 shows itself and fires its AT weapon at
    // range 0 (automatic, no penalties: a hit without a roll), then one damage block (d6 3).
    let events = play(&mut g, "move b1 0505", &[3]);
    let t = texts(&events);
    assert!(
        t.contains("b1 tries to enter 0505 and runs into a waiting enemy: its move ends."),
        "{t}"
    );
    assert!(
        t.contains("r1 (r1) is revealed at 0505: it springs an ambush."),
        "{t}"
    );
    assert!(
        t.contains("r1 fires at b1 at range 0: automatic range, no roll: hit."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "b1"), "0506");
    assert!(g.view(Some(Side::Blue)).unit("r1").unwrap().has("AT"));
}

#[test]
fn spotting_reveals_a_hidden_unit_on_five_or_six() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0505", "S", "hidden = true"),
            squad("b1", "blue", "M", "0509", "N", ""),
        ],
    );
    let mut g = load(&s);
    let events = g.start(&mut ScriptedDice::new([1, 9, 5]));
    assert!(
        texts(&events).contains("r1 (r1) is revealed at 0505: blue spots it (d6 5, M76)."),
        "{}",
        texts(&events)
    );
    assert!(g.view(Some(Side::Blue)).unit("r1").is_some());
}

#[test]
fn bombard_a_mortar_fires_at_a_hex_its_side_sees_and_the_round_may_scatter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "L", "mortar = true", "0510", "N"),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("b1", "blue", "M", "0503", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue's fire step: b1 at range 3 of r2 (needs 5+), misses.
    play(&mut g, "fire b1 r2", &[1]);
    // On target (d6 5): b1 loses a figure and takes a marker (HE of a Light gun).
    let events = play(&mut g, "bombard r1 0503", &[5]);
    let t = texts(&events);
    assert!(
        t.contains(
            "r1 fires on 0503 for red, spotted by r1: d6 5: on target: the round lands on 0503."
        ),
        "{t}"
    );
    assert!(
        t.contains("HE: a figure lost; b1 takes 1 hit: 3 figures left, 1 marker"),
        "{t}"
    );
}

#[test]
fn bombard_field_guns_need_more_than_five_hexes_and_a_spotter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "M", "indirect = true", "0510", "N"),
            squad("r2", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0506", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert!(refused(&mut g, "bombard r1 0506").contains("only beyond 5 hexes (M94)"));
}

#[test]
fn bombard_needs_an_enemy_in_the_hex_and_a_unit_of_its_side_that_sees_it() {
    // A row of woods across row 06 hides rows 01–05 from every red unit (M95). A hex with no
    // enemy is refused for that first: the enemy is checked before the spotters.
    let mut rows: Vec<String> = vec![["."; 10].join(" "); 10];
    rows[5] = ["W"; 10].join(" ");
    let s = scenario(
        Some(&rows.iter().map(String::as_str).collect::<Vec<_>>()),
        "",
        &[
            gun("r1", "red", "M", "indirect = true", "0510", "N"),
            squad("r2", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
            // In sight, so that red's fire step has something to do.
            squad("b2", "blue", "M", "0807", "N", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red fires");
    let why = refused(&mut g, "bombard r1 0502");
    assert!(
        why.contains("no unit of r1's side sees 0502 within spotting range (M95)"),
        "{why}"
    );
    let why = refused(&mut g, "bombard r1 0503");
    assert!(
        why.contains("0503 holds no enemy r1's side knows of"),
        "{why}"
    );
    assert!(!legal(&*g).iter().any(|a| a.starts_with("bombard")));
}

#[test]
fn sequence_the_overall_commanders_initiative_trait_sets_each_margin() {
    let s = scenario(
        None,
        "commanders = [{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, traits = { initiative = 4, morale = 1, tactical = 5, aggressiveness = 6 } }]",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red's Initiative 4 against blue's default 5: 5 − 4 = 1 ties 6 − 5 = 1; rolled again.
    let events = g.start(&mut ScriptedDice::new([5, 6, 3, 3]));
    assert!(
        texts(&events).contains("red d10 5 − I 4 = 1, blue d10 6 − I 5 = 1; then red d10 3 − I 4 = -1, blue d10 3 − I 5 = -2; red has the initiative"),
        "{}",
        texts(&events)
    );
    let bad = s.replace("initiative = 4", "initiative = 9");
    let e = RULESET
        .load(
            &ScenarioSource::new("t.toml", bad.as_str()),
            &Options::new(),
        )
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("t.toml:"), "{e}");
    assert!(e.to_string().contains("Mechanized 4.5, M23"), "{e}");
}

/// A Medium squad attacks a faster Light one (4 points against 3).
fn retreat_game() -> Box<dyn Game> {
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

#[test]
fn melee_a_faster_unmarked_defender_may_step_back_and_the_attacker_may_advance() {
    let mut g = retreat_game();
    // b1 steps back to 0504 with a marker; r1 rolls 4 and takes 0505 (M118).
    let events = play(&mut g, "retreat b1", &[4]);
    let t = texts(&events);
    assert!(
        t.contains("b1 steps back from 0505 to 0504 and takes a marker"),
        "{t}"
    );
    assert!(t.contains("r1 rolls 4 to advance: it takes 0505."), "{t}");
    assert_eq!(hex_of(&*g, "r1"), "0505");
    assert_eq!(hex_of(&*g, "b1"), "0504");
    assert_eq!(
        g.view(None).unit("b1").unwrap().facing,
        Some(volley_core::geometry::Facing::S)
    );
}

#[test]
fn melee_a_defender_that_stands_fights_it_out() {
    let mut g = retreat_game();
    // Medium 2 + 6 = 8 against Light 1 + 1 = 2.
    let events = play(&mut g, "stand b1", &[6, 1]);
    assert!(
        texts(&events).contains("r1 melees b1: 6+2 = 8 against 1+1 = 2: r1 wins and captures b1."),
        "{}",
        texts(&events)
    );
}

#[test]
fn fire_a_guns_he_roll_against_infantry_reads_the_defence_of_its_weight() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "pz4f2", "0509", "N"),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    // Blue's squad has nothing that reaches a tank at range 3: its fire step ends by itself.
    assert_eq!(g.view(None).phase, "red fires");
    // Beyond machine-gun reach the gun fires HE: range 3 + Medium infantry's defence 3 = 6+.
    let events = play(&mut g, "fire r1 b1", &[3, 3]);
    let t = texts(&events);
    assert!(
        t.contains("r1 fires at b1 at range 3: needs 6+ on 2d10, rolled 3+3: hit."),
        "{t}"
    );
    assert!(
        t.contains("HE: a figure lost; b1 takes 1 hit: 3 figures left, 1 marker"),
        "{t}"
    );
}

fn with_options(s: &str, options: &str) -> String {
    s.replacen("[map]", &format!("[options]\n{options}\n\n[map]"), 1)
}

fn reinforcement_scenario(options: &str) -> String {
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

#[test]
fn reinforcements_enter_on_their_turn_two_a_hex() {
    let mut g = start(&reinforcement_scenario(""));
    assert!(
        g.view(None).unit("r2").is_none(),
        "not on the map before turn 2"
    );
    // Nobody is in reach: each side's turn is its movement, ended. Turn 2 opens with the
    // initiative (red 9, blue 1) and red's reinforcements come in at its step 3.
    play(&mut g, "end", &[]);
    let events = play(&mut g, "end", &[9, 1]);
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M45] red's reinforcements second-wave arrive: r2 at 0510, r3 at 0510, r4 at 0610."), "{t}");
    assert_eq!(hex_of(&*g, "r4"), "0610");
    assert_eq!(
        g.view(None).unit("r4").unwrap().facing,
        Some(volley_core::geometry::Facing::N)
    );
}

#[test]
fn reinforcements_with_the_arrival_test_wait_a_turn_when_they_fail() {
    let mut g = start(&reinforcement_scenario("arrival_test = \"yes\""));
    play(&mut g, "end", &[]);
    // Turn 2: initiative (red 9, blue 1), then the test: d10 5 is not above Initiative 5.
    let events = play(&mut g, "end", &[9, 1, 5]);
    let t = texts(&events);
    assert!(t.contains("red's reinforcements second-wave test to arrive: d10 5 against the default's Initiative 5: delayed a turn."), "{t}");
    assert!(g.view(None).unit("r2").is_none());
}

fn commander_fire_game(options: &str) -> Box<dyn Game> {
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

#[test]
fn commanders_help_fire_by_one_or_by_their_combat_trait() {
    // A commander takes one off the number needed: 3+ becomes 2+ (M27).
    let mut g = commander_fire_game("");
    let events = play(&mut g, "fire r1 b1", &[2]);
    assert!(
        texts(&events).contains("needs 2+ on a d6, rolled 2: hit."),
        "{}",
        texts(&events)
    );
    // With cvs_combat its Combat, 2: a hit without a roll (M132).
    let mut g = commander_fire_game("cvs_combat = \"yes\"");
    let events = play(&mut g, "fire r1 b1", &[]);
    assert!(
        texts(&events).contains("r1 fires at b1 at range 1: a hit without a roll: hit."),
        "{}",
        texts(&events)
    );
}

#[test]
fn melee_advance_by_aggressiveness_with_the_option() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0506", "N", ""),
                squad("b1", "blue", "L", "0505", "S", ""),
            ],
        ),
        "cvs_advance = \"yes\"",
    );
    let mut g = start(&s);
    for _ in 0..3 {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "melee r1 b1", &[]);
    // No commander: the default Aggressiveness 6; a d10 of 7 is above it.
    let events = play(&mut g, "retreat b1", &[7]);
    assert!(
        texts(&events)
            .contains("r1 rolls 7 on a d10 against Aggressiveness 6 to advance: it takes 0505."),
        "{}",
        texts(&events)
    );
}

#[test]
fn movement_rain_sticks_wheeled_vehicles_on_three_to_six() {
    let units = [
        vehicle("r1", "red", "m8", "0508", "N"),
        vehicle("r2", "red", "m8", "0308", "N"),
        squad("b1", "blue", "M", "0901", "S", ""),
    ];
    let mut g = start(&with_options(&scenario(None, "", &units), "rain = \"yes\""));
    let events = play(&mut g, "move r1 0507", &[3]);
    assert!(
        texts(&events).contains("r1 rolls 3 in the mud: stuck for the turn."),
        "{}",
        texts(&events)
    );
    assert_eq!(hex_of(&*g, "r1"), "0508");
    let events = play(&mut g, "move r2 0307", &[2]);
    assert!(
        texts(&events).contains("r2 rolls 2 in the mud: it gets going."),
        "{}",
        texts(&events)
    );
    // One roll a turn: the next step rolls nothing.
    play(&mut g, "move r2 0306", &[]);
    assert_eq!(hex_of(&*g, "r2"), "0306");
}

#[test]
fn cargo_squads_embark_ride_and_get_off_and_the_halftrack_pays_the_points() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "sdkfz251", "0508", "N"),
            squad("r2", "red", "M", "0508", "N", ""),
            squad("r3", "red", "L", "0509", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    let events = play(&mut g, "embark r2 r1", &[]);
    assert!(
        texts(&events).contains("r2 embarks on r1 at 0508."),
        "{}",
        texts(&events)
    );
    assert!(g.view(None).unit("r2").unwrap().has("aboard r1"));
    // r2 takes no room in the hex; but a halftrack carries 6 points: one squad (4), no second
    // (T8).
    play(&mut g, "move r3 0508", &[]);
    assert!(refused(&mut g, "embark r3 r1")
        .contains("r1 has no room for r3 (4 of 6 cargo points in use, T8)"));
    // The halftrack (Very Light: 6 points) has paid one to load; it drives on with r2.
    for hex in ["0507", "0506", "0505", "0504"] {
        play(&mut g, &format!("move r1 {hex}"), &[]);
    }
    assert_eq!(hex_of(&*g, "r2"), "0504");
    // Its last point unloads r2 into the hex ahead.
    let events = play(&mut g, "disembark r2 0503", &[]);
    assert!(
        texts(&events).contains("r2 gets off r1 at 0503."),
        "{}",
        texts(&events)
    );
    // The halftrack has spent its 6 points (load, four hexes, unload) and r2 ends its move as it
    // gets off: red has nothing left to move, and its movement ends by itself.
    assert_eq!(hex_of(&*g, "r2"), "0503");
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
}

#[test]
fn cargo_a_truck_limbers_a_gun_and_a_destroyed_tow_loses_it() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "opelblitz", "0508", "N"),
            gun("r2", "red", "M", "", "0508", "N"),
            squad("r3", "red", "M", "0509", "N", ""),
            gun("b1", "blue", "L", "", "0506", "S"),
        ],
    );
    let mut g = start(&s);
    let events = play(&mut g, "limber r2 r1", &[]);
    assert!(
        texts(&events).contains("r2 is limbered up behind r1 at 0508."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    // Blue's Light gun fires twice (M7). Against the soft truck at range 1 it needs 1+ on
    // 2d10; a Light gun against a soft chassis rolls two blocks as rolled: CC and DD…
    play(&mut g, "fire b1 r1", &[1, 1, 2, 4]);
    assert!(g.view(None).unit("r2").unwrap().has("aboard r1"));
    // …then MM: three doubles, the truck is destroyed and the gun it tows with it (M108).
    let events = play(&mut g, "fire b1 r1", &[1, 1, 6, 1]);
    let t = texts(&events);
    assert!(t.contains("r2 is lost with r1."), "{t}");
    assert!(gone(&*g, "r1") && gone(&*g, "r2"));
}

#[test]
fn engineers_dig_works_over_turns_by_weight_and_do_not_fight_meanwhile() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0508", "N", "engineer = true"),
            squad("r2", "red", "M", "0108", "N", ""),
            squad("b1", "blue", "M", "0506", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "dig r2").contains("only engineers build works (M66)"));
    let events = play(&mut g, "dig r1", &[]);
    assert!(
        texts(&events).contains("r1 digs in at 0508: turn 1 of 2."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    // Blue fires (range 1, 3+) and misses; red's r1 may not answer: it worked.
    play(&mut g, "fire b1 r1", &[1]);
    assert!(refused(&mut g, "fire r1 b1").contains("r1 worked this turn and does not fight"));
    // Red's melee step has nothing to do; blue's turn: it moves nothing, red's r2 may fire
    // back (r1 still may not), blue fires nothing, and turn 2 opens (red 9, blue 1).
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue movement");
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red fires (blue's turn)");
    assert!(refused(&mut g, "fire r1 b1").contains("worked"));
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[9, 1]);
    assert_eq!(g.view(None).phase, "red movement");
    // The second turn of work finishes the works of a Medium squad (T12).
    let events = play(&mut g, "dig r1", &[]);
    assert!(
        texts(&events).contains("r1 digs in at 0508: turn 2 of 2; the works are ready."),
        "{}",
        texts(&events)
    );
    assert!(g.view(None).features.iter().any(|f| f.kind == "works"
        && f.place
            == volley_core::Place::Hex(volley_core::geometry::parse_label("0508").unwrap())));
}

#[test]
fn squads_clear_known_minefields_and_lay_their_own() {
    let mines = "[[minefields]]\nhex = \"0507\"\nside = \"red\"\n\n[[minefields]]\nhex = \"0305\"\nside = \"red\"";
    let s = scenario_with(
        mines,
        &[
            squad("r1", "red", "M", "0508", "N", "mines = 1"),
            squad("r2", "red", "M", "0506", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    // Red knows its own fields; blue cannot see them.
    let events = play(&mut g, "clear r2 0507", &[]);
    assert!(
        texts(&events).contains("r2 clears the minefield at 0507."),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "lay r2 0505").contains("r2 has moved or worked this turn"));
    assert!(g
        .view(Some(Side::Blue))
        .features
        .iter()
        .all(|f| f.kind != "minefield"));
    let events = play(&mut g, "lay r1 0408", &[]);
    assert!(
        texts(&events).contains("r1 lays mines at 0408."),
        "{}",
        texts(&events)
    );
    assert!(
        events
            .iter()
            .filter(|e| e.kind == "mines")
            .all(|e| !e.seen.by(Side::Blue)),
        "blue is not told"
    );
    assert_eq!(
        g.view(Some(Side::Red))
            .features
            .iter()
            .filter(|f| f.kind == "minefield")
            .count(),
        2
    );
}

#[test]
fn smoke_fired_by_a_mortar_hides_what_lies_behind_it() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "L", "mortar = true", "0510", "N"),
            squad("r2", "red", "M", "0507", "N", ""),
            squad("r3", "red", "M", "0703", "NW", ""),
            squad("b1", "blue", "M", "0503", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "fire b1 r2", &[1]);
    assert!(legal(&*g).contains(&"fire r2 b1".to_string()));
    // On target (d6 5): smoke on 0504, between r2 and b1.
    let events = play(&mut g, "smoke r1 0504", &[5]);
    assert!(
        texts(&events)
            .contains("r1 fires smoke at 0504: d6 5: on target: the smoke lands on 0504."),
        "{}",
        texts(&events)
    );
    let why = refused(&mut g, "fire r2 b1");
    assert!(why.contains("r2 cannot see b1 (M71)"), "{why}");
}

/// Red's tank at 0509 (on a hill with `hill`), a friendly squad at 0507 on the line, blue's
/// squad at `target`; red to fire.
fn over_friends(hill: bool, tank: &str, target: &str) -> Box<dyn Game> {
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

#[test]
fn fire_passes_over_friends_only_from_higher_ground_and_not_at_their_neighbours() {
    let fires = |g: &dyn Game| legal(g).contains(&"fire r1 b1".to_string());
    assert!(
        !fires(&*over_friends(false, "pz4f2", "0504")),
        "level ground: r2 is in the way"
    );
    assert!(
        fires(&*over_friends(true, "pz4f2", "0504")),
        "from the hill over r2"
    );
    assert!(
        !fires(&*over_friends(true, "pz4f2", "0506")),
        "b1 is next to r2"
    );
    assert!(
        !fires(&*over_friends(true, "stug3g", "0504")),
        "a low-hulled StuG never fires past a friend"
    );
}

fn obscured_game(options: &str) -> Box<dyn Game> {
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

#[test]
fn fire_through_works_on_the_line_is_obscured_with_the_option() {
    // Range 3 for a Medium squad: 5+; the works on the line add one with obscured_fire (M74).
    let mut g = obscured_game("");
    let events = play(&mut g, "fire r1 b1", &[5]);
    assert!(
        texts(&events).contains("needs 5+ on a d6, rolled 5: hit."),
        "{}",
        texts(&events)
    );
    let mut g = obscured_game("obscured_fire = \"yes\"");
    let events = play(&mut g, "fire r1 b1", &[5]);
    assert!(
        texts(&events).contains("needs 6+ on a d6, rolled 5: miss."),
        "{}",
        texts(&events)
    );
}

#[test]
fn bombard_rockets_always_scatter() {
    let s = scenario(
        None,
        "",
        &[
            gun("r1", "red", "M", "rockets = true", "0510", "N"),
            squad("r2", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0502", "S", ""),
        ],
    );
    let mut g = start(&s);
    while g.view(None).phase != "red fires" {
        play(&mut g, "end", &[]);
    }
    // Even a 6 on the first die does not land on the aim: a second die (2, NE) says where.
    let events = play(&mut g, "bombard r1 0502", &[6, 2]);
    let t = texts(&events);
    assert!(t.contains("rockets always scatter: d6 2 (NE)"), "{t}");
    assert!(!t.contains("lands on 0502"), "{t}");
}

#[test]
fn fire_a_halftrack_fights_as_a_light_anti_tank_stand() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "sdkfz251", "0508", "N"),
            vehicle("b1", "blue", "t34-76", "0506", "S"),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Range 1 against a Medium front (3): 4+ on one d10, the AT squad's roll (M11, M88); a
    // hit rolls one incremental block (its Light weapon against a Medium chassis).
    let events = play(&mut g, "fire r1 b1", &[4, 1]);
    let t = texts(&events);
    assert!(
        t.contains("r1 fires at b1 at range 1: needs 4+ on 1d10, rolled 4: hit."),
        "{t}"
    );
    assert_eq!(g.view(None).unit("b1").unwrap().hits, 1, "{t}");
}

fn air_game(flak: bool) -> Box<dyn Game> {
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

#[test]
fn aircraft_strike_a_known_enemy_and_flak_may_drive_them_off() {
    let mut g = air_game(false);
    // On target on a d6 of 4–6: b1 takes the Medium weapon's HE.
    let events = play(&mut g, "strike jabo 0505", &[4]);
    let t = texts(&events);
    assert!(t.contains("jabo strikes 0505: d6 4: on target."), "{t}");
    assert!(t.contains("HE: a figure lost; b1 takes 1 hit"), "{t}");
    assert!(
        !legal(&*g).iter().any(|a| a.starts_with("strike")),
        "one strike a turn"
    );
    // A quad AA mount within 2 hexes fires first and drives it off on 4–6.
    let mut g = air_game(true);
    let events = play(&mut g, "strike jabo 0505", &[4]);
    let t = texts(&events);
    assert!(
        t.contains("b2 fires at jabo diving on 0505: needs 4+, rolled 4: driven off."),
        "{t}"
    );
    assert!(!t.contains("strikes 0505"), "{t}");
}

#[test]
fn heavy_fire_batters_works_to_rubble() {
    let s = scenario_with(
        "works = [\"0505\"]",
        &[
            gun("r1", "red", "H", "", "0509", "N"),
            gun("r2", "red", "H", "", "0609", "N"),
            squad("b1", "blue", "H", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[]);
    // Range 3 + a Heavy squad's defence 4 + the works' cover 1: 8+ on 2d10.
    let events = play(&mut g, "fire r1 b1", &[4, 4]);
    assert!(
        texts(&events).contains("Heavy fire batters the works at 0505: 1 of 2 hits."),
        "{}",
        texts(&events)
    );
    let events = play(&mut g, "fire r2 b1", &[6, 6]);
    assert!(
        texts(&events)
            .contains("Heavy fire batters the works at 0505: 2 of 2 hits; they are rubble."),
        "{}",
        texts(&events)
    );
    assert!(g
        .view(None)
        .features
        .iter()
        .any(|f| f.text.contains("battered to rubble")));
}

#[test]
fn activation_groups_take_small_player_turns_in_order_and_fire_once_a_turn() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0509", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0506", "S", "group = 1"),
            ],
        ),
        "activation = \"group-turns\"",
    );
    let mut g = start(&s);
    // Red won the initiative: red's group 1 first.
    assert_eq!(g.view(None).phase, "red group 1 movement");
    assert!(refused(&mut g, "move r2 0308").contains("r2 is not in the group that moves now (M18)"));
    play(&mut g, "move r1 0508", &[]);
    play(&mut g, "end", &[]);
    // Blue answers r1 (range 1: 3+) and misses; r1 fires back (3+) and misses.
    play(&mut g, "fire b1 r1", &[1]);
    play(&mut g, "fire r1 b1", &[1]);
    // Blue's group 1 next: b1 has fired this game turn and fires no more (M19).
    assert_eq!(g.view(None).phase, "blue group 1 movement");
    play(&mut g, "end", &[]);
    // Red answers blue's activation: r1 has fired this turn, r2 (not activated yet) may.
    assert_eq!(g.view(None).phase, "red fires (blue's turn)");
    assert!(refused(&mut g, "fire r1 b1").contains("r1 has fired this turn (M19)"));
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "red group 2 movement");
    play(&mut g, "move r2 0308", &[]);
}

fn orders_game() -> Box<dyn Game> {
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

#[test]
fn orders_bind_a_group_until_a_change_gets_through_on_tactical() {
    let mut g = orders_game();
    assert!(refused(&mut g, "move r1 0508")
        .contains("r1: its written order (reserve) does not allow that step (M37)"));
    // d10 6 above Roth's Tactical 5: the new order gets through.
    let events = play(&mut g, "reorder 1 attack 0505", &[6]);
    assert!(texts(&events).contains("red tries to change group 1's order to attack 0505: d10 6 against R1's Tactical 5: the new order gets through."), "{}", texts(&events));
    play(&mut g, "move r1 0508", &[]);
    // Attack 0505 never steps away from it: every step r1 may still take keeps it as near.
    for m in legal(&*g).iter().filter(|a| a.starts_with("move r1 ")) {
        let to = volley_core::geometry::parse_label(&m[8..]).unwrap();
        let farm = volley_core::geometry::parse_label("0505").unwrap();
        let here = volley_core::geometry::parse_label("0508").unwrap();
        assert!(
            to.unsigned_distance_to(farm) <= here.unsigned_distance_to(farm),
            "{m}"
        );
    }
}

#[test]
fn orders_a_failed_change_rolls_the_consequence_table() {
    let mut g = orders_game();
    // d10 3 fails; consequence d10 1: halted this turn (M39).
    let events = play(&mut g, "reorder 1 attack 0505", &[3, 1]);
    let t = texts(&events);
    assert!(
        t.contains(
            "Consequence d10 1 for red's group 1: no advance and no facing change this turn."
        ),
        "{t}"
    );
    assert!(refused(&mut g, "move r1 0508").contains("group 1 is halted this turn"));
}

#[test]
fn orders_a_free_will_test_frees_a_unit_for_the_turn() {
    let mut g = orders_game();
    // d10 7 above Aggressiveness 6.
    let events = play(&mut g, "freewill r2", &[7]);
    assert!(texts(&events).contains("r2 tests its free will: d10 7 against R1's Aggressiveness 6: it acts as it sees fit this turn."), "{}", texts(&events));
    play(&mut g, "move r2 0308", &[]);
}

#[test]
fn commanders_of_a_nation_lead_only_their_own_troops() {
    for (nation, needed) in [("german", "2+"), ("italian", "3+")] {
        let s = scenario(
            None,
            "commanders = [{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, nation = \"German\" }, { id = \"R2\", name = \"Rossi\", value = 1, nation = \"italian\" }]",
            &[
                squad("r1", "red", "M", "0506", "N", &format!("nation = \"{nation}\"")),
                squad("b1", "blue", "M", "0504", "S", ""),
            ],
        );
        let mut g = start(&s);
        play(&mut g, "end", &[]);
        // R2 has no other hex of its side to go to: the step ends with R1 placed.
        play(&mut g, "place R1 0506", &[]);
        play(&mut g, "fire b1 r1", &[1]);
        // Roth leads Germans: his +1 (3+ becomes 2+) reaches only a German squad (M34).
        let events = play(&mut g, "fire r1 b1", &[1]);
        assert!(
            texts(&events).contains(&format!("needs {needed} on a d6")),
            "{nation}: {}",
            texts(&events)
        );
    }
}

#[test]
fn horses_left_when_cavalry_dismounts_into_combat_are_found_on_five_or_six() {
    let cav = |enemy: &str| {
        start(&scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0509", "N", "cavalry = true"),
                squad("r2", "red", "M", "0109", "N", ""),
                squad("b1", "blue", "M", enemy, "S", ""),
            ],
        ))
    };
    // Away from the enemy: off and on again for nothing.
    let mut g = cav("0501");
    play(&mut g, "dismount r1", &[]);
    let events = play(&mut g, "mount r1", &[]);
    assert!(texts(&events).contains("r1 mounts."), "{}", texts(&events));
    // Next to b1: the horses are left; a 4 does not find them, and r1's move is over.
    let mut g = cav("0508");
    let events = play(&mut g, "dismount r1", &[]);
    assert!(
        texts(&events).contains("r1 dismounts into combat and leaves its horses."),
        "{}",
        texts(&events)
    );
    let events = play(&mut g, "mount r1", &[4]);
    assert!(
        texts(&events).contains("r1 rolls 4: its horses are not found this turn."),
        "{}",
        texts(&events)
    );
    assert!(refused(&mut g, "move r1 0408").contains("finished its move"));
}

#[test]
fn engineers_bridge_water_and_troops_cross_when_it_is_open() {
    let mut rows: Vec<String> = vec![["."; 10].join(" "); 10];
    rows[6] = ". . . . ~ . . . . .".into();
    let s = scenario(
        Some(&rows.iter().map(String::as_str).collect::<Vec<_>>()),
        "",
        &[
            squad("r1", "red", "M", "0508", "N", "engineer = true"),
            squad("r2", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = start(&s);
    assert!(refused(&mut g, "move r1 0507").contains("cannot enter 0507 (water)"));
    let events = play(&mut g, "bridge r1 0507", &[]);
    assert!(
        texts(&events).contains("r1 bridges the water at 0507: turn 1 of 2."),
        "{}",
        texts(&events)
    );
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[9, 1]);
    let events = play(&mut g, "bridge r1 0507", &[]);
    assert!(
        texts(&events).contains("turn 2 of 2; the bridge is open."),
        "{}",
        texts(&events)
    );
    play(&mut g, "move r2 0508", &[]);
    play(&mut g, "move r2 0507", &[]);
    assert_eq!(hex_of(&*g, "r2"), "0507");
}

#[test]
fn paratroops_drop_on_their_target_or_scatter() {
    let para = |id: &str| {
        format!("[[units]]\nid = \"{id}\"\nside = \"red\"\nkind = \"squad\"\nweight = \"M\"\nparatroop = true\narrives = \"market\"\n")
    };
    let s = scenario_with(
        "[[drops]]\nid = \"market\"\nside = \"red\"\nturn = 1\ntarget = \"0505\"",
        &[
            squad("r1", "red", "M", "0109", "N", ""),
            para("r2"),
            para("r3"),
            squad("b1", "blue", "M", "0901", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Initiative (red 9, blue 1); the centre lands on 0505 (d6 5); r2 lands by it (6); r3
    // fails (2) and scatters two hexes north of the centre (a wasted die, then 1: N).
    let events = g.start(&mut ScriptedDice::new([9, 1, 5, 6, 2, 3, 1]));
    let t = texts(&events);
    assert!(
        t.contains(
            "red's paratroops market jump over 0505: d6 5: on target: the drop centres on 0505."
        ),
        "{t}"
    );
    assert!(t.contains("r2 lands at 0505."), "{t}");
    assert!(t.contains("r3 lands at 0503, scattered."), "{t}");
}

#[test]
fn fire_at_a_target_that_appeared_this_turn_reaches_only_half_as_far() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", "hidden = true"),
            squad("b2", "blue", "M", "0906", "S", ""),
        ],
    );
    let mut g = load(&s);
    // Red first, and its spotting misses b1 (d6 2).
    g.start(&mut ScriptedDice::new([9, 1, 2]));
    play(&mut g, "end", &[]);
    // Hidden b1 fires (range 3, 5+) and shows itself; b2 holds its fire.
    play(&mut g, "fire b1 r1", &[1]);
    play(&mut g, "end", &[]);
    // r1 did not see b1 at the start of the turn: small arms reach 4, so only 2 now (M75).
    let why = refused(&mut g, "fire r1 b1");
    assert!(why.contains("b1 was not in r1's sight at the start of the turn: it may be fired on only within half the weapon's reach, range 2 (M75)"), "{why}");
    play(&mut g, "fire r2 b2", &[1]);
}

#[test]
fn sound_ranging_shows_the_enemy_only_an_area_around_a_hidden_gun() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                gun(
                    "r1",
                    "red",
                    "L",
                    "mortar = true\nhidden = true",
                    "0510",
                    "N",
                ),
                squad("r2", "red", "M", "0507", "N", ""),
                squad("b1", "blue", "M", "0503", "S", ""),
            ],
        ),
        "sound_ranging = \"yes\"",
    );
    let mut g = start(&s);
    play(&mut g, "end", &[]);
    play(&mut g, "fire b1 r2", &[1]);
    // The area: the ten hexes nearest the hex a d6 (1: N) puts next to the gun; then the
    // round lands on target (5).
    let events = play(&mut g, "bombard r1 0503", &[1, 5]);
    assert!(
        texts(&events).contains("red fires unseen: blue sound-ranges it to the area"),
        "{}",
        texts(&events)
    );
    let blue = g.view(Some(Side::Blue));
    assert!(blue.unit("r1").is_none(), "the gun stays hidden");
    let area: Vec<String> = blue
        .features
        .iter()
        .filter(|f| f.kind == "sound ranging")
        .map(|f| f.place.to_string())
        .collect();
    assert_eq!(area.len(), 10);
    assert!(
        area.contains(&"0510".to_string()) && area.contains(&"0509".to_string()),
        "{area:?}"
    );
    assert!(g
        .view(Some(Side::Red))
        .features
        .iter()
        .all(|f| f.kind != "sound ranging"));
    // The shot's own line, naming the gun, is red's alone.
    assert!(events
        .iter()
        .filter(|e| e.kind == "bombard")
        .all(|e| !e.seen.by(Side::Blue)));
}

#[test]
fn activation_pairs_roll_the_initiative_again_for_each_later_pair() {
    let s = with_options(
        &scenario(
            None,
            "",
            &[
                squad("r1", "red", "M", "0109", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0101", "S", "group = 1"),
                squad("b2", "blue", "M", "0301", "S", "group = 2"),
            ],
        ),
        "activation = \"group-turns-pairs\"",
    );
    let mut g = load(&s);
    // The turn's roll puts red's group 1 first; the second pair's roll (red 1, blue 9) blue's.
    let events = g.start(&mut ScriptedDice::new([9, 1, 1, 9]));
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M18] Groups red 2 and blue 2: red d10 1 − I 5 = -4, blue d10 9 − I 5 = 4; blue activates first."), "{t}");
    assert_eq!(g.view(None).phase, "red group 1 movement");
}

/// The rows of a 10 × 10 open map with forest at these (row, column) places, from 1.
fn forest_at(places: &[(usize, usize)]) -> Vec<String> {
    let mut rows = vec![vec!["."; 10]; 10];
    for &(r, c) in places {
        rows[r - 1][c - 1] = "W";
    }
    rows.iter().map(|r| r.join(" ")).collect()
}

/// The error a scenario is refused with (it must name the file, line and column).
fn load_error(text: &str) -> String {
    let e = RULESET
        .load(&ScenarioSource::new("t.toml", text), &Options::new())
        .err()
        .expect("refused")
        .to_string();
    assert!(e.starts_with("t.toml:"), "{e}");
    e
}

#[test]
fn fire_at_a_target_appearing_in_a_gap_reaches_only_twice_the_gaps_width() {
    // Forest at 0504 and 0506: 0505 between them is a gap one hex wide across the line of
    // fire from the west. Hidden b1 steps into it from 0605; r1 (three hexes off) cannot
    // fire, r2 (two hexes off) can, though both are well within half their guns' reach.
    let rows = forest_at(&[(4, 5), (6, 5)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let s = scenario(
        Some(&rows),
        "",
        &[
            vehicle("r1", "red", "t34-76", "0205", "SE"),
            vehicle("r2", "red", "t34-76", "0306", "NE"),
            squad("b1", "blue", "M", "0605", "NW", "hidden = true"),
        ],
    );
    let mut g = load(&s);
    // Red first; its spotting misses b1 at the start and the end of its turn (d6 2, 2).
    g.start(&mut ScriptedDice::new([9, 1, 2]));
    while g.to_decide() == Some(Side::Red) {
        play(&mut g, "end", &[2]);
    }
    play(&mut g, "move b1 0505", &[]);
    while g.to_decide() == Some(Side::Blue) {
        play(&mut g, "end", &[]);
    }
    let why = refused(&mut g, "fire r1 b1");
    assert!(why.contains("b1 appeared in a gap 1 hex wide and is 3 hexes from r1: a target in a gap is fired on only from within twice the gap's width, 2 hexes (M75)"), "{why}");
    assert!(
        legal(&*g).contains(&"fire r2 b1".to_string()),
        "{:?}",
        legal(&*g)
    );
}

#[test]
fn activation_each_group_rolls_with_its_own_commanders_initiative() {
    let traits = |i: u8| {
        format!("traits = {{ initiative = {i}, morale = 1, tactical = 5, aggressiveness = 5 }}")
    };
    let s = with_options(
        &(scenario(
            None,
            &format!(
                "commanders = [{{ id = \"R1\", name = \"Roth\", value = 1, supreme = true, {} }}, {{ id = \"R2\", name = \"Rau\", value = 1, {} }}]",
                traits(7),
                traits(4)
            ),
            &[
                squad("r1", "red", "M", "0109", "N", "group = 1"),
                squad("r2", "red", "M", "0309", "N", "group = 2"),
                squad("b1", "blue", "M", "0101", "S", "group = 1"),
                squad("b2", "blue", "M", "0301", "S", "group = 2"),
            ],
        ) + "\n[[groups]]\nside = \"red\"\ngroup = 2\ncommander = \"R2\"\n"),
        "activation = \"group-turns-commanders\"",
    );
    let mut g = load(&s);
    // Red's group 1 has no commander of its own: the overall commander's Initiative 7 against
    // blue's default 5 (9 − 7 = 2, 1 − 5 = −4) puts red's group 1 first. Group 2 rolls with
    // R2's Initiative 4: 5 − 4 = 1 against 5 − 5 = 0, red's group 2 first again.
    let events = g.start(&mut ScriptedDice::new([9, 1, 5, 5]));
    let t = texts(&events);
    assert!(
        t.contains("Turn 1: red d10 9 − I 7 = 2, blue d10 1 − I 5 = -4; red has the initiative"),
        "{t}"
    );
    assert!(t.contains("[hex-command-mechanized M18] Groups red 2 (R2) and blue 2 (overall): red d10 5 − I 4 = 1, blue d10 5 − I 5 = 0; red activates first."), "{t}");
    assert_eq!(g.view(None).phase, "red group 1 movement");
    // With the overall commander (option group-turns-pairs) the same dice give blue group 2
    // the lead: 5 − 7 = −2 against 0.
    let mut g = load(&s.replace("group-turns-commanders", "group-turns-pairs"));
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1, 5, 5])));
    assert!(t.contains("Groups red 2 and blue 2: red d10 5 − I 7 = -2, blue d10 5 − I 5 = 0; blue activates first."), "{t}");
    // A group naming a commander that does not exist, or of the other side, or a group no
    // unit is in, is refused where it stands.
    for (from, to, why) in [
        (
            "commander = \"R2\"",
            "commander = \"R9\"",
            "no commander \"R9\"",
        ),
        (
            "side = \"red\"\ngroup = 2",
            "side = \"blue\"\ngroup = 2",
            "R2 is not a commander of blue",
        ),
        (
            "group = 2\ncommander",
            "group = 3\ncommander",
            "no unit of red is in group 3",
        ),
    ] {
        let e = load_error(&s.replacen(from, to, 1));
        assert!(e.contains(why), "{e}");
    }
}

/// Red's group "relief" (`units` of it) is due on turn 2 at 0210, 0410 and 0510; blue's b2
/// stands on 0510. Returns the game at red's turn 2, the blocker asked.
fn blocked_entry(units: usize) -> (Box<dyn Game>, Vec<Event>) {
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

#[test]
fn reinforcements_blocked_at_their_entry_ask_the_blocker_to_stand_or_fall_back() {
    let (mut g, events) = blocked_entry(1);
    let t = texts(&events);
    assert!(t.contains("[hex-command-mechanized M47] blue is told that red's reinforcements relief, 1 unit, arrive at 0210, 0410, 0510; it holds the entry and chooses to stand or fall back."), "{t}");
    // The decision goes to blue in red's turn, and nothing else may be done meanwhile.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    assert_eq!(
        legal(&*g),
        vec!["block relief stand", "block relief withdraw"]
    );
    assert!(g
        .view(Some(Side::Blue))
        .prompt
        .unwrap()
        .contains("1 enemy units arrive at 0210, 0410, 0510 where you stand"));
    assert!(refused(&mut g, "move b2 0509").contains("blue first answers relief's arrival"));
    // Blue falls back: b2 has a full move (3 points), each step farther from the entry.
    play(&mut g, "block relief withdraw", &[]);
    assert!(refused(&mut g, "move b2 0410").contains("farther from the entry"));
    play(&mut g, "move b2 0509", &[]);
    play(&mut g, "move b2 0508", &[]);
    // The third step spends its last point: with nothing left to move the fall-back ends
    // by itself.
    let t = texts(&play(&mut g, "move b2 0507", &[]));
    // The entry is open and the relief comes in at its first hex; red's turn goes on.
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0210."),
        "{t}"
    );
    assert_eq!(g.to_decide(), Some(Side::Red));
    assert_eq!(g.view(None).phase, "red movement");

    // Blue stands: a force of one is no wider than the blocking line (one hex), so it cannot
    // overlap it and comes in only next to b2 (0410, not 0210).
    let (mut g, _) = blocked_entry(1);
    let t = texts(&play(&mut g, "block relief stand", &[]));
    assert!(t.contains("blue stands and fights before relief."), "{t}");
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0410."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "b2"), "0510");
    // A force of two is wider than the line and may come in anywhere free.
    let (mut g, _) = blocked_entry(2);
    let t = texts(&play(&mut g, "block relief stand", &[]));
    assert!(
        t.contains("red's reinforcements relief arrive: n0 at 0210, n1 at 0210."),
        "{t}"
    );
}

#[test]
fn decoys_stand_among_the_markers_and_are_found_out_unless_in_heavy_terrain() {
    let rows = forest_at(&[(6, 6)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let decoy = |hex: &str| format!("[[decoys]]\nside = \"blue\"\nhex = \"{hex}\"\n");
    let s = scenario(
        Some(&rows),
        "",
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0407", "S", "hidden = true"),
            vehicle("b2", "blue", "pz4f2", "0607", "N").replace("facing", "hidden = true\nfacing"),
            decoy("0406"),
            decoy("0606"),
            decoy("0102"),
        ],
    );
    let mut g = load(&s);
    // Red's spotting: b1 and b2 (d6 2, 2), then the decoys: 0406 and 0606 not (2, 2), 0102
    // found out on a 6.
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1, 2, 2, 2, 2, 6])));
    assert!(t.contains("[hex-command-mechanized M77] The blue marker at 0102 was a decoy and is removed: red spots it (d6 6, M76)."), "{t}");
    // Red sees four markers, blue's two hidden units and two decoys alike, and no unit of
    // blue's; blue knows which of its markers are decoys.
    let red = g.view(Some(Side::Red));
    let at: Vec<String> = red.markers.iter().map(|m| m.place.to_string()).collect();
    assert_eq!(at, vec!["0406", "0407", "0606", "0607"]);
    assert!(red.unit("b1").is_none() && red.unit("b2").is_none());
    let blue = g.view(Some(Side::Blue));
    assert_eq!(
        blue.features.iter().filter(|f| f.kind == "decoy").count(),
        2
    );
    // A search for red deals blue's hidden units among the marker hexes.
    let mut d = ScriptedDice::new(std::iter::repeat_n(1, 20));
    g.determinize(Side::Red, &mut d).check_invariants().unwrap();
    // r1 steps next to the hidden vehicle b2 (revealed) and the hidden squad b1 (not); then
    // next to the decoy in the open at 0406 (found out) and the one in the forest at 0606
    // (it stays a marker).
    let t = texts(&play(&mut g, "move r1 0508", &[]));
    assert!(
        t.contains("b2 (") && t.contains("is revealed at 0607: r1 comes next to it (M77)."),
        "{t}"
    );
    assert!(!t.contains("b1 ("), "{t}");
    let t = texts(&play(&mut g, "move r1 0507", &[]));
    assert!(
        t.contains("The blue marker at 0406 was a decoy and is removed: r1 comes next to it."),
        "{t}"
    );
    assert!(!t.contains("0606"), "{t}");
    let at: Vec<String> = g
        .view(Some(Side::Red))
        .markers
        .iter()
        .map(|m| m.place.to_string())
        .collect();
    assert_eq!(at, vec!["0407", "0606"]);
    // A decoy shares its hex with nobody.
    let e = load_error(&s.replace("hex = \"0606\"", "hex = \"0509\""));
    assert!(
        e.contains("hex 0509 is already taken: a decoy stands alone"),
        "{e}"
    );
}

#[test]
fn aircraft_fly_straight_at_twice_a_chassis_speed_only_superior_ones_turn_and_they_fight_in_the_air(
) {
    let s = scenario_with(
        "[[aircraft]]\nid = \"jabo\"\nside = \"red\"\nweight = \"M\"\nturns = [1]\nentry = \"0210\"\nfacing = \"N\"\n\n[[aircraft]]\nid = \"spit\"\nside = \"blue\"\nname = \"Spitfire\"\nweight = \"H\"\nturns = [1]\nentry = \"0406\"\nfacing = \"N\"\nsuperior = true",
        &[
            squad("r1", "red", "M", "0109", "N", ""),
            squad("b1", "blue", "M", "0905", "S", ""),
        ],
    );
    let mut g = load(&s);
    let t = texts(&g.start(&mut ScriptedDice::new([9, 1])));
    // A Medium aircraft flies twice a Medium chassis' 5 hexes; it comes on at its entry.
    assert!(
        t.contains(
            "[hex-command-mechanized M69] jabo (jabo) comes on at 0210 heading N, 10 hexes a turn."
        ),
        "{t}"
    );
    assert_eq!(
        legal(&*g)
            .iter()
            .filter(|a| a.starts_with("fly"))
            .collect::<Vec<_>>(),
        vec!["fly jabo 0209"]
    );
    play(&mut g, "fly jabo 0209", &[]);
    let why = refused(&mut g, "fly jabo 0109");
    assert!(
        why.contains("jabo flies straight ahead: only Superior aircraft turn (M69)"),
        "{why}"
    );
    // Ending the step, it flies the rest of its 10 hexes straight on; blue's Superior
    // Spitfire comes on at the start of blue's turn.
    let t = texts(&play(&mut g, "end", &[]));
    assert!(
        t.contains("jabo flies straight on from 0209 to 0201."),
        "{t}"
    );
    assert!(
        t.contains(
            "spit (Spitfire) comes on at 0406 heading N, 8 hexes a turn, a Superior aircraft."
        ),
        "{t}"
    );
    // It may turn a hexside as it flies: ahead-left, ahead, ahead-right.
    let mut flights: Vec<String> = legal(&*g)
        .into_iter()
        .filter(|a| a.starts_with("fly"))
        .collect();
    flights.sort();
    assert_eq!(
        flights,
        vec!["fly spit 0306", "fly spit 0405", "fly spit 0506"]
    );
    for hex in ["0405", "0404", "0403", "0402", "0302"] {
        play(&mut g, &format!("fly spit {hex}"), &[]);
    }
    let t = texts(&play(&mut g, "end", &[]));
    assert!(
        t.contains("spit flies straight on from 0302 to 0101."),
        "{t}"
    );
    // Red fires first: jabo attacks the Spitfire a hex away and needs a 6 against a
    // Superior aircraft; then the Spitfire needs only 4 against it.
    assert_eq!(g.to_decide(), Some(Side::Red));
    let t = texts(&play(&mut g, "intercept jabo spit", &[5]));
    assert!(
        t.contains("jabo attacks spit in the air: needs 6+, rolled 5: it gets away."),
        "{t}"
    );
    // Red has nothing else to fire: blue's fire step follows at once.
    assert_eq!(g.to_decide(), Some(Side::Blue));
    // (Nothing else is left to do in blue's turn: turn 2 opens, red 9 against blue 1.)
    let t = texts(&play(&mut g, "intercept spit jabo", &[4, 9, 1]));
    assert!(
        t.contains("spit attacks jabo in the air: needs 4+, rolled 4: shot down."),
        "{t}"
    );
    let air: Vec<String> = g
        .view(None)
        .features
        .iter()
        .filter(|f| f.kind == "aircraft")
        .map(|f| f.place.to_string())
        .collect();
    assert_eq!(air, vec!["0101"]);
    // An aircraft with no entry hex is refused where it stands.
    let e = load_error(&s.replacen("entry = \"0210\"\n", "", 1));
    assert!(e.contains("entry"), "{e}");
    let e = load_error(&s.replacen("entry = \"0210\"", "entry = \"9999\"", 1));
    assert!(e.contains("9999"), "{e}");
}

#[test]
fn guns_in_a_forest_fire_only_out_of_the_hexside_they_face_and_never_go_forest_to_forest() {
    // Forest at 0505 and 0504. Blue's gun g1 stands in the forest at 0505 facing S.
    let rows = forest_at(&[(5, 5), (4, 5)]);
    let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
    let s = scenario(
        Some(&rows),
        "",
        &[
            squad("r1", "red", "M", "0508", "N", ""),
            squad("r2", "red", "M", "0605", "NW", ""),
            gun("g1", "blue", "M", "", "0505", "S"),
        ],
    );
    let mut g = start(&s);
    while g.view(None).phase != "blue fires (red's turn)" {
        play(&mut g, "end", &[]);
    }
    // r1, straight out of its southern hexside, may be fired on; r2, in its front arc but
    // beside that hexside, may not.
    assert!(
        legal(&*g).contains(&"fire g1 r1".to_string()),
        "{:?}",
        legal(&*g)
    );
    let why = refused(&mut g, "fire g1 r2");
    assert!(
        why.contains("g1 stands in a forest and fires only out of the hexside it faces, S (M62)"),
        "{why}"
    );
    // A gun in the forest, pushed by hand, may not go on into the next forest hex (blue moves
    // first here: red 1, blue 9).
    let mut g = load(&s.replace(
        "hex = \"0505\"\nfacing = \"S\"",
        "hex = \"0505\"\nfacing = \"N\"",
    ));
    g.start(&mut ScriptedDice::new([1, 9]));
    assert_eq!(g.view(None).phase, "blue movement");
    let why = refused(&mut g, "move g1 0504");
    assert!(why.contains("g1 cannot enter 0504 (woods)"), "{why}");
}

#[test]
fn a_commander_caught_alone_by_the_enemy_is_captured() {
    // Four more blue squads far off keep blue's losses short of its break point.
    let mut units = vec![
        squad("r1", "red", "M", "0507", "N", ""),
        gun("g1", "blue", "M", "", "0506", "N"),
    ];
    units
        .extend((1..=4).map(|c| squad(&format!("b{c}"), "blue", "M", &format!("0{c}01"), "N", "")));
    let s = scenario(
        None,
        "",
        &units,
    )
    .replace(
        "[sides.blue]\nname = \"Blue\"\n",
        "[sides.blue]\nname = \"Blue\"\ncommanders = [{ id = \"B1\", name = \"Blau\", value = 1, supreme = true }]\n",
    );
    let mut g = start(&s);
    while g.view(None).phase != "blue places commanders" {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "place B1 0506", &[]);
    // Red's fire takes the gun's crew (d6 6); B1 survives the hit on its hex (d6 2) and is
    // left alone; blue has nothing left to do, and turn 2 opens (red 9, blue 1).
    play(&mut g, "fire r1 g1", &[6, 2, 9, 1]);
    assert!(gone(&*g, "g1"));
    let t = texts(&play(&mut g, "move r1 0506", &[]));
    assert!(
        t.contains("[hex-command-mechanized M32] B1 is caught alone at 0506 by r1 and captured."),
        "{t}"
    );
}

#[test]
fn an_objective_that_is_the_enemys_goal_scores_nothing_for_its_holder() {
    // `goals` makes the farm blue's goal: red, standing on it, scores nothing for it (M44
    // counts the objectives each side holds at the turn limit).
    let top = "goals = { blue = [\"0505\"] }\n[[objectives]]\nhex = \"0505\"\nname = \"the farm\"\npoints = 10\n\n[[objectives]]\nhex = \"0101\"\nname = \"the mill\"\npoints = 5";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "M", "0505", "N", ""),
            squad("b1", "blue", "M", "0101", "S", ""),
        ],
    );
    let g = start(&s);
    let v = g.view(Some(Side::Red));
    assert_eq!(v.objectives[0].name.as_str(), "the farm (Blue's goal)");
    assert_eq!(v.objectives[0].goal_of, Some(Side::Blue));
    assert_eq!(v.objectives[0].holder, Some(Side::Red));
    assert_eq!((v.sides[0].score, v.sides[1].score), (0, 5));
}

#[test]
fn a_search_guesses_an_unseen_unit_in_heavy_terrain_out_of_the_sides_reach() {
    // Red's squad r1 at 0509 and blue's hidden squad b1 in the open at 0202, with forest at
    // the places given.
    let game = |forest: &[(usize, usize)]| {
        let rows = forest_at(forest);
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        load(&scenario(
            Some(&rows),
            "",
            &[
                squad("r1", "red", "M", "0509", "N", ""),
                squad("b1", "blue", "M", "0202", "S", "hidden = true"),
            ],
        ))
    };
    // Forest at 0703 and 0802, far from red, and at 0508, next to r1.
    let g = game(&[(3, 7), (2, 8), (8, 5)]);
    assert_eq!(hex_of(&*g, "b1"), "0202");
    // Red's search puts b1 where a unit could wait unseen: a forest hex no red unit is next
    // to, the die choosing which (a d2 here). The forest beside r1 is left out, as is the
    // open ground.
    for (k, hex) in [(1, "0802"), (2, "0703")] {
        let known = g.determinize(Side::Red, &mut ScriptedDice::new([k]));
        known.check_invariants().unwrap();
        assert_eq!(hex_of(&*known, "b1"), hex, "die {k}");
    }
    // With no forest free, the guess is any free hex no red unit is next to: here the first
    // of them in the map's order.
    let g = game(&[(8, 5)]);
    let known = g.determinize(Side::Red, &mut ScriptedDice::new([1]));
    assert_eq!(hex_of(&*known, "b1"), "0101");
    // Blue's own search leaves its unit where it is.
    let own = g.determinize(Side::Blue, &mut ScriptedDice::new([1]));
    assert_eq!(hex_of(&*own, "b1"), "0202");
}

#[test]
fn a_search_deals_unseen_units_the_same_wherever_they_truly_stand() {
    // Red's squad r1 at 0509; blue's hidden squads b1 and b2 wherever the case puts them, with
    // forest at 0703, 0802 and 0405, none of them next to r1.
    let game = |b1: &str, b2: &str| {
        let rows = forest_at(&[(3, 7), (2, 8), (5, 4)]);
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        load(&scenario(
            Some(&rows),
            "",
            &[
                squad("r1", "red", "M", "0509", "N", ""),
                squad("b1", "blue", "M", b1, "S", "hidden = true"),
                squad("b2", "blue", "M", b2, "S", "hidden = true"),
            ],
        ))
    };
    // Red knows neither where b1 and b2 stand nor which forest they hide in: its search must
    // deal them out alike whether they sit in the open, in one forest each, or in the very
    // hexes the dice would pick. Each is dealt to a forest hex not yet taken, in map order
    // 0802, 0703, 0405 (b1 from three, b2 from the two left).
    let cases = [
        ("0202", "0909"),
        ("0703", "0802"),
        ("0405", "0703"),
        ("0802", "0202"),
    ];
    for (dice, want) in [
        ([1, 1], ("0802", "0703")),
        ([2, 2], ("0703", "0405")),
        ([3, 1], ("0405", "0802")),
        ([3, 2], ("0405", "0703")),
    ] {
        for (b1, b2) in cases {
            let known = game(b1, b2).determinize(Side::Red, &mut ScriptedDice::new(dice));
            known.check_invariants().unwrap();
            let got = (hex_of(&*known, "b1"), hex_of(&*known, "b2"));
            assert_eq!(
                (got.0.as_str(), got.1.as_str()),
                want,
                "dice {dice:?}, b1 and b2 truly at {b1} and {b2}"
            );
        }
    }
}

#[test]
fn an_objective_a_hidden_unit_holds_shows_as_held_only_to_its_own_side() {
    // Blue's hidden squad b1 stands on the farm (10 points). Red cannot see it (M76), so in
    // red's view nobody holds the farm and blue has no points; blue's own view, and the
    // whole table's, show the farm blue's. The score that decides the battle (M44) is the
    // true one.
    let top = "[[objectives]]\nhex = \"0505\"\nname = \"the farm\"\npoints = 10";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "M", "0509", "N", ""),
            squad("b1", "blue", "M", "0505", "S", "hidden = true"),
        ],
    );
    let g = load(&s);
    let red = g.view(Some(Side::Red));
    assert!(red.unit("b1").is_none(), "b1 is hidden from red");
    assert_eq!(red.objectives[0].holder, None);
    assert_eq!((red.sides[0].score, red.sides[1].score), (0, 0));
    for v in [g.view(Some(Side::Blue)), g.view(None)] {
        assert_eq!(v.objectives[0].holder, Some(Side::Blue));
        assert_eq!((v.sides[0].score, v.sides[1].score), (0, 10));
    }
}

#[test]
fn as_it_stands_is_the_turn_limits_result_on_what_the_side_sees() {
    // Blue's hidden squad b2 holds the farm (10 points); red's heavy squad r1 melees blue's
    // b1. The view's "as it stands" is what M44 would give at the turn limit: the more
    // objective points, then the lower losses, reckoned on what the viewer sees
    // (interpretation 43).
    let top = "[[objectives]]\nhex = \"0101\"\nname = \"the farm\"\npoints = 10";
    let s = scenario_with(
        top,
        &[
            squad("r1", "red", "H", "0506", "N", ""),
            squad("r2", "red", "M", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
            squad("b2", "blue", "M", "0101", "S", "hidden = true"),
            squad("b3", "blue", "M", "0901", "S", ""),
        ],
    );
    // Red wins the initiative (9 against 1) and does not spot b2 (d6 1, M76).
    let mut g = load(&s);
    g.start(&mut ScriptedDice::new([9, 1, 1]));
    let reason = |g: &dyn Game, viewer: Option<Side>| {
        let s = g
            .view(viewer)
            .standing
            .expect("a battle in play stands somehow");
        assert!(!s.decisive, "Mechanized knows no decisive victory");
        (s.winner, s.reason)
    };
    // Nobody has lost anything; red does not see who holds the farm: a draw to red.
    assert_eq!(
        reason(&*g, Some(Side::Red)),
        (
            None,
            "a draw at the turn limit: objectives red 0, blue 0; losses red 0%, blue 0%".into()
        )
    );
    for _ in 0..3 {
        play(&mut g, "end", &[]);
    }
    // Heavy 3 + 5 against Medium 2 + 4: b1 is captured, a third of blue's items; the melee
    // over, red looks for b2 again and misses (d6 1).
    let events = play(&mut g, "melee r1 b1", &[5, 4, 1]);
    assert!(
        texts(&events).contains("r1 wins and captures b1"),
        "{}",
        texts(&events)
    );
    // Red still sees no holder of the farm, so blue's heavier losses decide for red; blue
    // and the whole table see blue's 10 points, which outweigh any losses.
    assert_eq!(
        reason(&*g, Some(Side::Red)),
        (
            Some(Side::Red),
            "Red would win at the turn limit: objectives red 0, blue 0; losses red 0%, blue 33%"
                .into()
        )
    );
    for viewer in [Some(Side::Blue), None] {
        assert_eq!(
            reason(&*g, viewer),
            (
                Some(Side::Blue),
                "Blue would win at the turn limit: objectives red 0, blue 10; losses red 0%, blue 33%"
                    .into()
            )
        );
    }
}

#[test]
fn zone_of_control_3_5_5_a_unit_stopped_before_it_has_turned_may_still_turn() {
    let s = scenario(
        None,
        "",
        &[
            vehicle("r1", "red", "t34-76", "0509", "N"),
            squad("r2", "red", "L", "0109", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
            squad("b2", "blue", "M", "0308", "SW", ""),
        ],
    );
    let mut g = start(&s);
    // The Medium tank has 5 points (D2): three steps bring it into b1's front hex 0506 with
    // two left, and it stops there.
    play(&mut g, "move r1 0508", &[]);
    play(&mut g, "move r1 0507", &[]);
    let t = texts(&play(&mut g, "move r1 0506", &[]));
    assert!(
        t.contains("r1 moves from 0507 to 0506, into an enemy's zone of control, and stops (M54)"),
        "{t}"
    );
    assert!(refused(&mut g, "move r1 0505").contains("finished its move"));
    // Stopped, it may still turn to any side, once.
    let turns: Vec<String> = legal(&*g)
        .into_iter()
        .filter(|a| a.starts_with("face r1"))
        .collect();
    assert_eq!(
        turns,
        [
            "face r1 NE",
            "face r1 SE",
            "face r1 S",
            "face r1 SW",
            "face r1 NW"
        ]
    );
    let t = texts(&play(&mut g, "face r1 NE", &[]));
    assert!(t.contains("r1 turns from N to NE."), "{t}");
    assert!(!legal(&*g).iter().any(|a| a.starts_with("face r1")));
    assert!(refused(&mut g, "face r1 N").contains("r1 has finished its move this turn"));
    assert_eq!(
        g.view(None).unit("r1").unwrap().facing.map(|f| f.name()),
        Some("NE")
    );

    // A squad that has turned already and then walks into a zone of control has had its turn:
    // r2 turns north-east and steps into b2's front hex 0208.
    play(&mut g, "face r2 NE", &[]);
    let t = texts(&play(&mut g, "move r2 0208", &[]));
    assert!(
        t.contains("into an enemy's zone of control, and stops (M54)"),
        "{t}"
    );
    // With no turn left to r2 and nothing else for red to do, red's movement is over.
    assert_eq!(g.view(None).phase, "blue fires (red's turn)");
}

#[test]
fn zone_of_control_3_5_5_the_turn_is_lost_once_another_unit_moves() {
    let s = scenario(
        None,
        "",
        &[
            squad("r1", "red", "L", "0508", "N", ""),
            squad("r2", "red", "L", "0909", "N", ""),
            squad("b1", "blue", "M", "0505", "S", ""),
        ],
    );
    let mut g = start(&s);
    play(&mut g, "move r1 0507", &[]);
    play(&mut g, "move r1 0506", &[]);
    assert!(legal(&*g).contains(&"face r1 NW".to_string()));
    play(&mut g, "move r2 0908", &[]);
    assert!(refused(&mut g, "face r1 NW").contains("finished its move"));
}

/// Red (break point 20%) with a gun and four squads; blue (break point 60%) with a gun and two
/// squads. Blue's squad takes red's gun (red has lost 20%); if `answer`, red's squad takes
/// blue's gun (blue has lost 33%).
fn break_point_game(options: &str, answer: bool) -> (Box<dyn Game>, String) {
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

#[test]
fn victory_3_11_a_side_at_its_break_point_fights_on_when_the_enemy_has_lost_more() {
    let (mut g, mut log) = break_point_game("", true);
    while g.view(None).phase != "blue movement" {
        log += &texts(&play(&mut g, "end", &[]));
    }
    assert!(g.view(None).outcome.is_none(), "{log}");
    assert!(
        log.contains("[hex-command-mechanized M44] Red has reached its break point (20% lost of 20%), but Blue has lost 33% and holds no more objectives, so the battle goes on; Red checks for panic at the start of each of its turns (M42)."),
        "{log}"
    );
    let v = g.view(None);
    assert_eq!(v.sides[0].losses_percent, 20.0);
    assert_eq!(v.sides[1].losses_percent, 100.0 / 3.0);
}

#[test]
fn victory_3_11_a_side_at_its_break_point_loses_to_an_enemy_that_has_lost_less() {
    let (mut g, mut log) = break_point_game("", false);
    while g.view(None).outcome.is_none() {
        log += &texts(&play(&mut g, "end", &[]));
    }
    let o = g.view(None).outcome.unwrap();
    assert_eq!(o.winner, Some(Side::Blue), "{log}");
    assert_eq!(
        o.reason,
        "red reached its break point (20% lost of 20%); blue has lost 0%, objectives red 0, blue 0."
    );
    assert!(!log.contains("panic"), "{log}");
}

#[test]
fn victory_3_11_with_the_option_the_break_point_ends_the_battle_as_a_draw() {
    let (mut g, mut log) = break_point_game("break_point = \"ends\"", true);
    while g.view(None).outcome.is_none() {
        log += &texts(&play(&mut g, "end", &[]));
    }
    let o = g.view(None).outcome.unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(
        o.reason,
        "red reached its break point (20% lost of 20%); blue has lost 33%, objectives red 0, blue 0. The battle ends there as a draw (option break_point = ends)."
    );
}

#[test]
fn panic_3_3_a_side_past_its_break_point_rolls_a_d10_each_turn_and_panics_below_its_losses() {
    let (mut g, mut log) = break_point_game("", true);
    while g.view(None).phase != "blue movement" {
        log += &texts(&play(&mut g, "end", &[]));
    }
    // Blue's turn passes; turn 2 opens with red's initiative (9 against 1) and red, at 20%,
    // rolls for panic: a 1 (10 is below 20) panics.
    let mut t = String::new();
    while g.view(None).phase != "red movement" {
        // Blue's last step ends its turn; turn 2 opens, and red rolls for panic.
        let dice: &[u32] = if g.view(None).phase == "blue melee" {
            &[9, 1, 1]
        } else {
            &[]
        };
        t += &texts(&play(&mut g, "end", dice));
    }
    assert!(
        t.contains("[hex-command-mechanized M43] Red has lost 20% (break point 20%) and rolls 1 on a d10 for panic (a roll of 1 panics): it panics; every squad takes a hit marker, and until its next turn no unit advances without a commander."),
        "{t}"
    );
    let v = g.view(None);
    for id in ["r1", "r2", "r3", "r4"] {
        let u = v.unit(id).unwrap();
        assert_eq!(u.hits, 1, "{id} takes a hit marker");
        assert!(u.flags.iter().any(|f| &**f == "panicked"), "{id}");
    }
    assert!(!v
        .unit("b1")
        .unwrap()
        .flags
        .iter()
        .any(|f| &**f == "panicked"));
    // r4 may not step nearer b1 (two hexes off), but may turn and go back.
    assert_eq!(
        refused(&mut g, "move r4 0908"),
        "r4 may not move nearer the enemy: Red has panicked and no commander is with it (M43)"
    );
    play(&mut g, "face r4 S", &[]);
    play(&mut g, "move r4 0910", &[]);
    assert_eq!(hex_of(&*g, "r4"), "0910");
    // Nor does a panicked unit advance after a melee: b3 steps back from r1's melee, and r1,
    // with no commander, stays where it is without a roll.
    while g.view(None).phase != "red melee" {
        play(&mut g, "end", &[]);
    }
    play(&mut g, "melee r1 b3", &[]);
    let t = texts(&play(&mut g, "retreat b3", &[]));
    assert!(
        t.contains("[hex-command-mechanized M43] r1 may not advance into 0506: Red has panicked and no commander is with it."),
        "{t}"
    );
    assert_eq!(hex_of(&*g, "r1"), "0507");
}
