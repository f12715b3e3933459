//! Drives the built `volley` binary the way a player or a script would: every command on
//! every bundled scenario, and the ways people get things wrong.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use volley_core::SaveFile;

fn read_save(path: &std::path::Path) -> Result<SaveFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    SaveFile::from_json(&text, &path.display().to_string()).map_err(|e| e.to_string())
}

fn write_save(path: &std::path::Path, save: &SaveFile) -> std::io::Result<()> {
    std::fs::write(path, save.to_json())
}
use volley_core::{Seed, Session};

fn volley(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(args)
        .output()
        .expect("the volley binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed and returns its standard output.
fn ok(args: &[&str]) -> String {
    let out = volley(args);
    assert!(
        out.status.success(),
        "volley {} failed:\n{}",
        args.join(" "),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a command that must fail with a message, and returns that message.
fn fails(args: &[&str]) -> String {
    let out = volley(args);
    let err = text(&out.stderr);
    assert!(
        !out.status.success(),
        "volley {} should have failed; it printed:\n{}",
        args.join(" "),
        text(&out.stdout)
    );
    assert!(
        !err.trim().is_empty(),
        "volley {} failed without saying why",
        args.join(" ")
    );
    assert!(
        !err.contains("panicked"),
        "volley {} panicked:\n{err}",
        args.join(" ")
    );
    err
}

/// Every bundled scenario by name, as `volley scenarios --json` lists them.
fn scenarios() -> Vec<Value> {
    let list: Vec<Value> =
        serde_json::from_str(&ok(&["scenarios", "--json"])).expect("scenarios --json is JSON");
    assert!(
        !list.is_empty(),
        "no scenarios are bundled: no rulesets registered in volley-rulesets"
    );
    list
}

fn name(entry: &Value) -> String {
    entry["name"].as_str().expect("a name").to_string()
}

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// A new game of the scenario in a temporary directory.
fn new_game(dir: &Path, scenario: &str, seed: u64) -> PathBuf {
    let file = dir.join(format!("{scenario}-{seed}.json"));
    ok(&[
        "new",
        scenario,
        "--seed",
        &seed.to_string(),
        "--out",
        p(&file),
    ]);
    file
}

fn legal(file: &Path) -> Vec<String> {
    serde_json::from_str(&ok(&["legal", p(file), "--json"])).expect("legal --json is JSON")
}

/// Runs a failing command on a saved game and checks the file did not change.
fn fails_leaving_file(args: &[&str], file: &Path) -> String {
    let before = std::fs::read(file).expect("the save exists");
    let err = fails(args);
    assert_eq!(
        std::fs::read(file).expect("the save still exists"),
        before,
        "volley {} changed the file although it failed",
        args.join(" ")
    );
    err
}

#[test]
fn scenarios_lists_name_ruleset_title_as_text_and_json() {
    let list = scenarios();
    let table = ok(&["scenarios"]);
    assert!(table.starts_with("NAME"), "{table}");
    for s in &list {
        for key in ["name", "ruleset", "title", "description"] {
            assert!(s[key].is_string(), "{key} missing in {s}");
        }
        assert!(table.contains(&name(s)), "{table}");
        assert!(
            volley_rulesets::find(s["ruleset"].as_str().expect("string")).is_some(),
            "scenario {s} names a ruleset that is not registered"
        );
    }
}

#[test]
fn options_lists_a_rule_systems_options_by_id_or_scenario() {
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["options", "hex-command", "--json"])).expect("JSON");
    let keys: Vec<&str> = json
        .as_array()
        .expect("an array")
        .iter()
        .map(|o| o["key"].as_str().expect("a key"))
        .collect();
    let expected: Vec<&str> = volley_rulesets::find("hex-command")
        .expect("registered")
        .options()
        .iter()
        .map(|o| o.key)
        .collect();
    assert_eq!(keys, expected);
    let text = ok(&["options", "hc-crossroads"]);
    assert!(
        text.contains("activation  (ab | groups | group-turns; default ab)"),
        "{text}"
    );
    assert!(text.contains("Turn sequence: "), "{text}");
    let err = fails(&["options", "no-such-thing"]);
    assert!(err.contains("neither a rule system"), "{err}");
}

#[test]
fn every_command_works_on_every_bundled_scenario() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for s in scenarios() {
        let scenario = name(&s);
        ok(&["validate", &scenario]);
        let file = new_game(dir.path(), &scenario, 11);

        let shown = ok(&["show", p(&file)]);
        assert!(shown.contains("Turn "), "{shown}");
        assert!(shown.contains("to decide"), "{shown}");
        for side in ["red", "blue"] {
            ok(&["show", p(&file), "--side", side]);
        }
        let view: Value =
            serde_json::from_str(&ok(&["show", p(&file), "--referee", "--json"])).expect("JSON");
        assert_eq!(view["scenario"].as_str(), Some(scenario.as_str()));

        let actions = legal(&file);
        assert!(
            !actions.is_empty(),
            "{scenario}: no legal action at the start"
        );
        let lines = ok(&["legal", p(&file)]);
        assert_eq!(lines.lines().collect::<Vec<_>>(), actions);

        let odds = ok(&["odds", p(&file), &actions[0]]);
        assert!(odds.contains("exact") || odds.contains("sampled"), "{odds}");
        let odds: Value =
            serde_json::from_str(&ok(&["odds", p(&file), &actions[0], "--json"])).expect("JSON");
        let total: f64 = odds["outcomes"]
            .as_array()
            .expect("outcomes")
            .iter()
            .map(|o| o["probability"].as_f64().expect("a probability"))
            .sum();
        assert!(
            (total - 1.0).abs() < 1e-6,
            "{scenario}: odds add up to {total}"
        );

        let log_before = ok(&["log", p(&file), "--referee", "--json"])
            .lines()
            .count();
        let before = std::fs::read(&file).expect("save");
        ok(&["apply", p(&file), &actions[0]]);
        assert_ne!(
            std::fs::read(&file).expect("save"),
            before,
            "apply saved nothing"
        );
        let save = read_save(&file).expect("a readable save");
        assert_eq!(save.actions.len(), 1);
        assert_eq!(save.actions[0].action, actions[0]);

        let log = ok(&["log", p(&file), "--referee", "--json"]);
        assert!(log.lines().count() >= log_before);
        for line in log.lines() {
            let e: Value = serde_json::from_str(line).expect("each log line is JSON");
            for key in ["seq", "turn", "side", "kind", "rule", "text"] {
                assert!(e.get(key).is_some(), "{key} missing in {line}");
            }
        }
        let log_text = ok(&["log", p(&file)]);
        assert!(log_text.contains('['), "{log_text}");
    }
}

#[test]
fn play_is_the_same_for_the_same_seed_and_ends_with_a_summary() {
    for s in scenarios() {
        let scenario = name(&s);
        let args = [
            "play", &scenario, "--red", "random", "--blue", "random", "--seed", "3", "--json",
        ];
        let first = volley(&args);
        assert!(first.status.success(), "{}", text(&first.stderr));
        let second = volley(&args);
        assert_eq!(
            first.stdout, second.stdout,
            "{scenario}: same seed, different game"
        );
        let out = text(&first.stdout);
        let lines: Vec<&str> = out.lines().collect();
        let (last, events) = lines.split_last().expect("at least a summary");
        let summary: Value = serde_json::from_str(last).expect("the summary is JSON");
        assert!(summary.get("winner").is_some(), "{last}");
        assert!(summary["turns"].as_u64().is_some(), "{last}");
        assert!(summary["reason"].is_string(), "{last}");
        assert!(summary.get("score").is_some(), "{last}");
        for line in events {
            let e: Value = serde_json::from_str(line).expect("each event line is JSON");
            for key in ["seq", "turn", "side", "kind", "rule", "text"] {
                assert!(e.get(key).is_some(), "{key} missing in {line}");
            }
        }
        let other = volley(&[
            "play", &scenario, "--red", "random", "--blue", "random", "--seed", "4", "--json",
        ]);
        assert!(other.status.success(), "{}", text(&other.stderr));

        let plain = ok(&[
            "play", &scenario, "--red", "random", "--blue", "random", "--seed", "3",
        ]);
        assert!(
            plain.contains("after") && plain.contains("Score"),
            "{plain}"
        );
    }
}

#[test]
fn play_refuses_unknown_bots_and_stops_at_the_action_cap() {
    let scenario = name(&scenarios()[0]);
    let err = fails(&["play", &scenario, "--red", "random", "--blue", "genius"]);
    assert!(
        err.contains("unknown bot \"genius\"") && err.contains("random"),
        "{err}"
    );
    let capped = volley(&[
        "play",
        &scenario,
        "--red",
        "random",
        "--blue",
        "random",
        "--seed",
        "1",
        "--max-actions",
        "1",
        "--json",
    ]);
    // A game that ends in one action is fine; otherwise the cap is an error that says so.
    if !capped.status.success() {
        assert!(text(&capped.stderr).contains("did not end within 1 actions"));
    }
    let err = fails(&[
        "play",
        "no-such-scenario",
        "--red",
        "random",
        "--blue",
        "random",
    ]);
    assert!(err.contains("no-such-scenario"), "{err}");
}

#[test]
fn new_refuses_to_overwrite_without_force_and_checks_options() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let scenario = name(&scenarios()[0]);
    let file = new_game(dir.path(), &scenario, 1);
    let err = fails_leaving_file(&["new", &scenario, "--seed", "2", "--out", p(&file)], &file);
    assert!(
        err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    ok(&[
        "new",
        &scenario,
        "--seed",
        "2",
        "--out",
        p(&file),
        "--force",
    ]);

    let other = dir.path().join("other.json");
    let err = fails(&["new", &scenario, "--option", "novalue", "--out", p(&other)]);
    assert!(err.contains("KEY=VALUE"), "{err}");
    let err = fails(&[
        "new",
        &scenario,
        "--option",
        "no-such-option=1",
        "--out",
        p(&other),
    ]);
    assert!(err.contains("unknown option"), "{err}");
    // A number out of its range is refused, not quietly replaced by the default.
    for bad in ["sight=-1", "sight=0", "sight=999"] {
        let err = fails(&["new", "hc-night-march", "--option", bad, "--out", p(&other)]);
        assert!(
            err.contains("option sight: expected a whole number from 1 to 30"),
            "{bad}: {err}"
        );
    }
    ok(&[
        "new",
        "hc-night-march",
        "--option",
        "sight=6",
        "--out",
        p(&other),
    ]);
    std::fs::remove_file(&other).expect("removed");
    assert!(!other.exists(), "a failed new wrote a file");

    // Without --seed the seed comes from the system: two games differ in their commitment.
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    ok(&["new", &scenario, "--out", p(&a)]);
    ok(&["new", &scenario, "--out", p(&b)]);
    let (a, b) = (read_save(&a).expect("a"), read_save(&b).expect("b"));
    assert_ne!(a.commitment, b.commitment);
}

/// FILE:LINE:COLUMN: at the start of the line that mentions the file.
fn assert_positioned(err: &str, file: &Path) {
    let shown = p(file);
    let line = err
        .lines()
        .find(|l| l.starts_with(shown))
        .unwrap_or_else(|| panic!("no line starts with {shown}:\n{err}"));
    let rest: Vec<&str> = line[shown.len()..].splitn(4, ':').collect();
    assert!(
        rest.len() == 4
            && rest[0].is_empty()
            && rest[1].parse::<usize>().is_ok_and(|n| n > 0)
            && rest[2].parse::<usize>().is_ok_and(|n| n > 0),
        "not FILE:LINE:COLUMN: message: {line}"
    );
}

#[test]
fn validate_reports_file_line_column() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let s = &scenarios()[0];
    let bundled = volley_rulesets::bundled()
        .iter()
        .find(|b| b.name == name(s))
        .expect("listed scenarios are bundled");

    let good = dir.path().join("good.toml");
    std::fs::write(&good, bundled.text).expect("write");
    let out = ok(&["validate", p(&good)]);
    assert!(out.contains("ok"), "{out}");

    let syntax = dir.path().join("syntax.toml");
    std::fs::write(&syntax, "ruleset = \"x\"\nname = \n").expect("write");
    let err = fails(&["validate", p(&good), p(&syntax)]);
    assert_positioned(&err, &syntax);
    assert!(err.contains(&format!("{}:2:", p(&syntax))), "{err}");

    let unknown = dir.path().join("unknown-ruleset.toml");
    let ruleset = s["ruleset"].as_str().expect("ruleset");
    std::fs::write(
        &unknown,
        bundled
            .text
            .replacen(&format!("\"{ruleset}\""), "\"no-such-rules\"", 1),
    )
    .expect("write");
    let err = fails(&["validate", p(&unknown)]);
    assert_positioned(&err, &unknown);
    assert!(err.contains("unknown ruleset \"no-such-rules\""), "{err}");

    // The first hex label in the file (a road, objective or unit) moved off the map.
    let off = dir.path().join("off-map.toml");
    let label = first_hex_label(bundled.text).expect("the scenario names a hex");
    std::fs::write(&off, bundled.text.replacen(&label, "\"9999\"", 1)).expect("write");
    let err = fails(&["validate", p(&off)]);
    assert_positioned(&err, &off);
    assert!(err.contains("off the map"), "{err}");

    let err = fails(&["validate", p(&dir.path().join("missing.toml"))]);
    assert!(err.contains("missing.toml"), "{err}");
}

/// The first quoted four-digit string, e.g. `"0304"`.
fn first_hex_label(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(5)).find_map(|i| {
        let w = &bytes[i..i + 6];
        (w[0] == b'"' && w[5] == b'"' && w[1..5].iter().all(u8::is_ascii_digit))
            .then(|| text[i..i + 6].to_string())
    })
}

#[test]
fn wrong_actions_and_dice_are_refused_and_leave_the_save_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for s in scenarios() {
        let scenario = name(&s);
        let file = new_game(dir.path(), &scenario, 5);
        let f = p(&file);
        let actions = legal(&file);

        fails_leaving_file(&["apply", f, "dance-a-jig"], &file);
        fails_leaving_file(&["apply", f, ""], &file);
        fails_leaving_file(&["apply", f, "%%% 0101 ###"], &file);
        let nines: String = actions[0]
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect();
        if !actions.contains(&nines) {
            fails_leaving_file(&["apply", f, &nines], &file);
        }
        let err = fails_leaving_file(&["apply", f, &actions[0], "--dice", "99"], &file);
        assert!(err.contains("forced") || err.contains("99"), "{err}");
        fails_leaving_file(&["apply", f, &actions[0], "--dice", "0"], &file);
        fails_leaving_file(&["apply", f, &actions[0], "--dice", "six"], &file);
        fails_leaving_file(&["odds", f, "dance-a-jig"], &file);
        let err = fails(&["apply", p(&dir.path().join("missing.json")), &actions[0]]);
        assert!(err.contains("missing.json"), "{err}");
    }
}

/// A game of the scenario played until some action has rolled dice.
fn game_with_rolls(scenario: &str) -> Session {
    let (name, source) = volley_rulesets::scenario_source(scenario).expect("bundled");
    for seed in 0..50u64 {
        let mut session =
            volley_rulesets::new_session(&name, &source, &Default::default(), Seed::from_u64(seed))
                .expect("a new game");
        let mut bot = volley_ai::RandomBot::new(seed);
        for _ in 0..2_000 {
            let Some(side) = session.game.to_decide() else {
                break;
            };
            let action = volley_ai::Bot::choose(&mut bot, &*session.game, side);
            session.apply(action, &[]).expect("a legal action");
            if session.records.iter().any(|r| !r.rolls.is_empty()) {
                return session;
            }
        }
    }
    panic!("{scenario}: no action rolled a die in 50 random games");
}

#[test]
fn damaged_saves_are_refused_in_plain_words_and_left_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for s in scenarios() {
        let scenario = name(&s);
        let file = new_game(dir.path(), &scenario, 9);
        let actions = legal(&file);
        let whole = std::fs::read_to_string(&file).expect("save");

        let garbage = dir.path().join("garbage.json");
        std::fs::write(&garbage, "this is not { a saved game").expect("write");
        for args in [
            vec!["show", p(&garbage)],
            vec!["legal", p(&garbage)],
            vec!["log", p(&garbage)],
            vec!["apply", p(&garbage), &actions[0]],
        ] {
            let err = fails_leaving_file(&args, &garbage);
            assert!(
                err.contains("garbage.json") && err.contains("not a valid saved game"),
                "{err}"
            );
        }

        let truncated = dir.path().join("truncated.json");
        std::fs::write(&truncated, &whole[..whole.len() / 2]).expect("write");
        let err = fails_leaving_file(&["apply", p(&truncated), &actions[0]], &truncated);
        assert!(
            err.contains("truncated.json") && err.contains("truncated"),
            "{err}"
        );
        fails_leaving_file(&["show", p(&truncated)], &truncated);

        let mut save = game_with_rolls(&scenario).to_save();
        let altered = dir.path().join("altered.json");
        let record = save
            .actions
            .iter_mut()
            .find(|r| !r.rolls.is_empty())
            .expect("a record with rolls");
        let roll = &mut record.rolls[0];
        roll.value = roll.value % roll.sides.max(2) + 1;
        write_save(&altered, &save).expect("write");
        for args in [
            vec!["show", p(&altered)],
            vec!["apply", p(&altered), &actions[0]],
        ] {
            let err = fails_leaving_file(&args, &altered);
            assert!(
                err.contains("altered.json") && err.contains("altered"),
                "{err}"
            );
        }

        let mut save = read_save(&file).expect("save");
        save.seed = Some(Seed::from_u64(12345));
        let reseeded = dir.path().join("reseeded.json");
        write_save(&reseeded, &save).expect("write");
        let err = fails_leaving_file(&["show", p(&reseeded)], &reseeded);
        assert!(err.contains("commitment"), "{err}");
    }
}

#[test]
fn help_teaches_each_command_with_an_example() {
    let top = ok(&["--help"]);
    for command in [
        "scenarios",
        "validate",
        "new",
        "show",
        "legal",
        "apply",
        "odds",
        "log",
        "play",
    ] {
        assert!(top.contains(command), "{top}");
        let help = ok(&[command, "--help"]);
        assert!(
            help.contains("Examples:") && help.contains(&format!("volley {command}")),
            "volley {command} --help has no example:\n{help}"
        );
    }
}

#[test]
fn show_says_who_decides_and_what_when_the_rules_interrupt_a_turn() {
    // Rules v1.1, Close Combat 4: red infantry attacks blue cavalry, which must choose to
    // withdraw or stand — blue's decision in the middle of red's turn.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let scenario = dir.path().join("charge.toml");
    std::fs::write(
        &scenario,
        "ruleset = \"grid-rules-v1.1\"\nname = \"charge\"\ntitle = \"Charge\"\nturn_limit = 3\n\
         [options]\nfirst_player = \"red\"\n[map]\ngrid = \"square\"\n\
         rows = [\". . . . .\", \". . . . .\", \". . . . .\", \". . . . .\", \". . . . .\"]\n\
         [sides.red]\nname = \"Red\"\nsetup = \"free\"\n[sides.blue]\nname = \"Blue\"\nsetup = \"free\"\n\
         [[units]]\nid = \"r1\"\nside = \"red\"\ntype = \"line_infantry\"\ntile = \"0304\"\nfacing = \"N\"\n\
         [[units]]\nid = \"b1\"\nside = \"blue\"\ntype = \"cavalry\"\ntile = \"0303\"\nfacing = \"S\"\n",
    )
    .expect("the scenario is written");
    let file = dir.path().join("g.json");
    ok(&["new", p(&scenario), "--seed", "1", "--out", p(&file)]);
    while !legal(&file).iter().any(|a| a == "attack r1 0303") {
        ok(&["apply", p(&file), "end"]);
    }
    ok(&["apply", p(&file), "attack r1 0303"]);
    let shown = ok(&["show", p(&file)]);
    assert!(
        shown.contains("Blue to decide, in the middle of red's turn"),
        "{shown}"
    );
    assert!(
        shown.contains("Now: Blue: b1 is attacked by r1 — withdraw a tile or stand"),
        "{shown}"
    );
    let json: Value = serde_json::from_str(&ok(&["show", p(&file), "--json"])).expect("JSON");
    assert_eq!(json["to_decide"], "blue");
    assert_eq!(json["phasing"], "red");
    assert!(json["prompt"]
        .as_str()
        .is_some_and(|t| t.starts_with("Blue: b1")));
    assert_eq!(legal(&file)[0], "stand b1");
}

#[test]
fn undo_takes_back_moves_to_the_file_before_them_and_refuses_past_dice() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = new_game(dir.path(), "hc-crossroads", 1);
    let f = p(&file);
    let start = std::fs::read(&file).expect("save");
    let err = fails_leaving_file(&["undo", f], &file);
    assert!(err.contains("nothing to take back"), "{err}");
    let first = legal(&file)
        .into_iter()
        .find(|a| a.starts_with("move "))
        .expect("a move");
    ok(&["apply", f, &first]);
    let after_one = std::fs::read(&file).expect("save");
    let second = legal(&file)
        .into_iter()
        .find(|a| a.starts_with(&first[..first.rfind(' ').expect("a hex")]))
        .expect("the unit moves on");
    ok(&["apply", f, &second]);
    assert!(ok(&["undo", f]).contains(&format!("Took back \"{second}\"")));
    assert_eq!(std::fs::read(&file).expect("save"), after_one);
    ok(&["undo", f]);
    assert_eq!(std::fs::read(&file).expect("save"), start);

    // An action that rolled dice stands.
    let session = game_with_rolls("hc-first-clash");
    let rolled = dir.path().join("rolled.json");
    write_save(&rolled, &session.to_save()).expect("written");
    let err = fails_leaving_file(&["undo", p(&rolled)], &rolled);
    assert!(
        err.contains("rolled dice") || err.contains("still"),
        "{err}"
    );
}

#[test]
fn glossary_explains_a_rule_systems_words_by_id_or_scenario() {
    let text = ok(&["glossary", "hex-command"]);
    assert!(text.contains("Zone of control"), "{text}");
    let json: Vec<Value> =
        serde_json::from_str(&ok(&["glossary", "sad-river-crossing", "--json"])).expect("JSON");
    assert!(json
        .iter()
        .any(|t| t["term"] == "Standing" && t["section"] == "Marching"));
    let err = fails(&["glossary", "no-such-thing"]);
    assert!(err.contains("neither a rule system"), "{err}");
}

#[test]
fn army_lists_and_show_read_the_black_powder_lists() {
    let out = volley(&["army", "lists", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lists: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let lists = lists.as_array().expect("an array");
    assert_eq!(lists.len(), 12);
    let troops: u64 = lists.iter().map(|l| l["troops"].as_u64().unwrap()).sum();
    // 199 rows printed in the book, and the 32 rows of the two charts Volley authored.
    assert_eq!(troops, 199 + 32);
    let out = volley(&["army", "show", "napoleonic-french"]);
    assert!(out.status.success());
    let shown = text(&out.stdout);
    let old_guard = shown
        .lines()
        .find(|l| l.starts_with("Old Guard"))
        .expect("the Old Guard row");
    for cell in ["10", "1/10", "3", "4+", "105", "4/-", "1, 2, 21"] {
        assert!(old_guard.contains(cell), "{old_guard}");
    }
    let out = volley(&["army", "show", "napoleonic-belgian"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("there is no army list \"napoleonic-belgian\""));
}

#[test]
fn army_check_reports_every_problem_at_its_line_and_column() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        "list = \"napoleonic-russian\"\npoints = 1500\n\n[[unit]]\ntroop = \"Line Infantry\"\nstands = 12\n\n[[unit]]\ntroop = \"Limbered Artillery\"\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let err = fails(&["army", "check", p]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines[0].starts_with(&format!("{p}:1:8: compulsory: at least 4 infantry units")),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("{p}:1:8: no command units")),
        "{err}"
    );
    assert_eq!(
        lines[2],
        format!("{p}:6:10: a unit of infantry has 2 to 8 stands, not 12")
    );
    assert!(
        lines[3].starts_with(&format!("{p}:9:9: limbers come with the guns they tow")),
        "{err}"
    );
    assert!(
        lines[4].contains("3 problems") || lines[4].contains("4 problems"),
        "{err}"
    );
    let out = volley(&["army", "check", p, "--json"]);
    assert!(!out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["ok"], false);
    assert_eq!(v["errors"][2]["line"], 6);
    assert_eq!(v["errors"][2]["column"], 10);
    let good = ok(&[
        "army",
        "check",
        "../../scenarios/armies/acw-union.toml",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&good).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["army"]["cost"], 2725);
    assert_eq!(v["army"]["points"], 3000);
}

#[test]
fn army_generate_builds_an_army_the_check_accepts_at_the_points_asked() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let path = tmp.path().join("austrians.toml");
    let p = path.to_str().unwrap();
    // To a file: what it buys, and the seed to build it again.
    let said = ok(&[
        "army",
        "generate",
        "napoleonic-austrian",
        "--points",
        "1500",
        "--seed",
        "5",
        "--out",
        p,
    ]);
    assert!(
        said.starts_with("Napoleonic Austrian Army of 1500 points (Napoleonic Austrian Army): "),
        "{said}"
    );
    assert!(
        said.ends_with(&format!(
            "{p}: written (seed 5); fight it with `volley battle`\n"
        )),
        "{said}"
    );
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(
        file.starts_with(
            "# Built by the computer from the Napoleonic Austrian Army to 1500 points:\n\
             # volley army generate napoleonic-austrian --points 1500 --seed 5\n"
        ),
        "{file}"
    );
    // The check accepts it at its total, and the same seed gives the same file.
    let v: Value = serde_json::from_str(&ok(&["army", "check", p, "--json"])).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["army"]["points"], 1500);
    let cost = v["army"]["cost"].as_u64().unwrap();
    assert!((1400..=1500).contains(&cost), "{cost}");
    let again = ok(&[
        "army",
        "generate",
        "napoleonic-austrian",
        "--points",
        "1500",
        "--seed",
        "5",
    ]);
    assert_eq!(again, file);
    let json: Value = serde_json::from_str(&ok(&[
        "army",
        "generate",
        "napoleonic-austrian",
        "--points",
        "1500",
        "--seed",
        "5",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["seed"], 5);
    assert_eq!(json["text"], file);
    assert_eq!(json["army"]["cost"].as_u64(), Some(cost));
    // Two generated armies make a battle.
    let other = tmp.path().join("russians.toml");
    ok(&[
        "army",
        "generate",
        "napoleonic-russian",
        "--points",
        "1500",
        "--out",
        other.to_str().unwrap(),
    ]);
    let battle = tmp.path().join("b.toml");
    ok(&[
        "battle",
        p,
        other.to_str().unwrap(),
        "--out",
        battle.to_str().unwrap(),
    ]);
    // Refusals in words, and nothing written.
    let small = tmp.path().join("small.toml");
    let err = fails(&[
        "army",
        "generate",
        "napoleonic-british",
        "--points",
        "400",
        "--out",
        small.to_str().unwrap(),
    ]);
    assert!(
        err.contains(
            "the Napoleonic British Army needs at least 510 points for its compulsory part"
        ),
        "{err}"
    );
    assert!(!small.exists());
    let err = fails(&["army", "generate", "napoleonic-belgian", "--points", "1500"]);
    assert!(
        err.contains("there is no army list \"napoleonic-belgian\""),
        "{err}"
    );
    let help = ok(&["army", "generate", "--help"]);
    assert!(
        help.contains("volley army generate colonial --points 3000 --seed 42"),
        "{help}"
    );
    assert!(help.contains("refused with the least it"), "{help}");
}

#[test]
fn battle_deploys_two_armies_into_a_scenario_that_plays_and_writes_nothing_on_error() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path();
    let out = dir.join("b.toml");
    let o = out.to_str().unwrap();
    let said = ok(&[
        "battle",
        "../../scenarios/armies/prussia-1757.toml",
        "../../scenarios/armies/austria-1757.toml",
        "--map",
        "bptc-first-lesson",
        "--out",
        o,
    ]);
    assert!(said.contains("against"), "{said}");
    let checked = ok(&["validate", o]);
    assert!(checked.contains("ok"), "{checked}");
    let played = ok(&[
        "play",
        o,
        "--red",
        "heuristic",
        "--blue",
        "random",
        "--seed",
        "3",
        "--json",
    ]);
    let summary: Value = serde_json::from_str(played.lines().last().unwrap()).unwrap();
    assert!(summary["turns"].as_u64().unwrap() >= 1, "{summary}");
    // A bad army or field: a clear message, and the old file is left as it was.
    let before = std::fs::read_to_string(&out).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "list = \"acw-union\"\npoints = 100\n").unwrap();
    let err = fails(&[
        "battle",
        bad.to_str().unwrap(),
        "../../scenarios/armies/austria-1757.toml",
        "--out",
        o,
    ]);
    assert!(
        err.contains(&format!("{}:2:10: the army costs", bad.display()))
            || err.contains("no command units"),
        "{err}"
    );
    let err = fails(&[
        "battle",
        "../../scenarios/armies/prussia-1757.toml",
        "../../scenarios/armies/austria-1757.toml",
        "--map",
        "hc-first-clash",
        "--out",
        o,
    ]);
    assert!(
        err.contains("a hex-command scenario: --map takes a Black Powder Tactical Commander (1705–1899) field"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
}

#[test]
fn tournament_rates_the_bots_of_a_round_robin_the_same_for_the_same_seed() {
    let args = [
        "tournament",
        "hc-first-clash",
        "--bots",
        "random,easy",
        "--games",
        "2",
        "--seed",
        "5",
        "--json",
    ];
    let first = ok(&args);
    assert_eq!(first, ok(&args), "the same seed plays the same games");
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["anchor"], "random");
    let pairing = &v["pairings"][0];
    assert_eq!(pairing["bots"], serde_json::json!(["random", "easy"]));
    let wins = pairing["wins"].as_array().unwrap();
    let played =
        wins[0].as_u64().unwrap() + wins[1].as_u64().unwrap() + pairing["draws"].as_u64().unwrap();
    assert_eq!(played, 2);
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    let random = ratings.iter().find(|r| r["bot"] == "random").unwrap();
    assert_eq!(random["elo"].as_f64(), Some(0.0));
    assert_eq!(random["games"].as_f64(), Some(2.0));
    // The bots' scores are the pairing's points.
    let easy = ratings.iter().find(|r| r["bot"] == "easy").unwrap();
    let points = wins[1].as_f64().unwrap() + pairing["draws"].as_f64().unwrap() / 2.0;
    assert_eq!(easy["score"].as_f64(), Some(points / 2.0));
    // Mistakes are named.
    let e = fails(&["tournament", "hc-first-clash", "--bots", "random"]);
    assert!(e.contains("at least two bots"), "{e}");
    let e = fails(&["tournament", "hc-first-clash", "--bots", "random,wizard"]);
    assert!(e.contains("wizard"), "{e}");
    let e = fails(&[
        "tournament",
        "hc-first-clash",
        "--anchor",
        "normal",
        "--bots",
        "random,easy",
    ]);
    assert!(e.contains("not among --bots"), "{e}");
}

#[test]
fn simulate_with_swap_tells_each_bots_wins_by_the_side_it_played() {
    let args = [
        "simulate",
        "hc-first-clash",
        "--red",
        "random",
        "--blue",
        "easy",
        "--swap",
        "--games",
        "4",
    ];
    let v: Value = serde_json::from_str(&ok(&[&args[..], &["--json"]].concat()))
        .expect("simulate --json is JSON");
    for bot in v["bots"].as_array().expect("bots") {
        let n = |key: &str, field: &str| bot[key][field].as_u64().expect("a count");
        // Swapped every other game: each bot plays each side twice.
        assert_eq!(
            (n("wins_as_red", "of"), n("wins_as_blue", "of")),
            (2, 2),
            "{bot}"
        );
        assert_eq!(
            n("wins_as_red", "count") + n("wins_as_blue", "count"),
            n("wins", "count"),
            "{bot}"
        );
        // Its time to decide: the longest player turn is one of the four games', and no
        // shorter than the mean.
        let t = &bot["thinking"];
        let game = t["longest_turn"]["game"].as_u64().expect("a game");
        assert!((1..=4).contains(&game), "{bot}");
        assert!(
            t["longest_turn"]["turn"].as_u64().expect("a turn") >= 1,
            "{bot}"
        );
        let seconds = |key: &str| t[key].as_f64().expect("seconds");
        assert!(
            seconds("longest_turn_seconds") >= seconds("mean_turn_seconds"),
            "{bot}"
        );
    }
    let text = ok(&args);
    assert!(
        text.contains("    as red ") && text.contains(", as blue "),
        "{text}"
    );
    assert!(
        text.contains("  easy took ") && text.contains(" a player turn on average, "),
        "{text}"
    );
}

/// `simulate --balance` on a scenario file, without the report's timings.
fn balance_report(seed: &str) -> Value {
    let mut v: Value = serde_json::from_str(&ok(&[
        "simulate",
        "../../scenarios/hc-first-clash.toml",
        "--balance",
        "--games",
        "4",
        "--seed",
        seed,
        "--threads",
        "2",
        "--json",
    ]))
    .expect("simulate --json is JSON");
    let o = v.as_object_mut().expect("an object");
    o.remove("seconds");
    o.remove("games_per_second");
    // Times on the clock, different every run.
    for bot in v["bots"].as_array_mut().expect("bots") {
        bot.as_object_mut().expect("a bot").remove("thinking");
    }
    v
}

#[test]
fn simulate_balance_judges_a_scenario_between_equal_bots_the_same_way_for_a_seed() {
    let report = balance_report("5");
    let count = |key: &str| {
        report[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {report}"))
    };
    assert_eq!(count("games"), 4);
    assert_eq!(
        count("red_wins") + count("blue_wins") + count("draws"),
        4,
        "{report}"
    );
    assert_eq!(report["red"], "heuristic");
    assert_eq!(report["blue"], "heuristic");
    assert_eq!(report["swap"], true);
    let b = &report["balance"];
    let decided = count("red_wins") + count("blue_wins");
    assert_eq!(b["decided"]["count"].as_u64(), Some(decided), "{b}");
    assert_eq!(b["decided"]["of"].as_u64(), Some(4), "{b}");
    assert_eq!(
        b["red_of_decided"]["count"].as_u64(),
        Some(count("red_wins")),
        "{b}"
    );
    assert_eq!(b["red_of_decided"]["of"].as_u64(), Some(decided), "{b}");
    for key in ["targets", "balanced", "sure", "summary", "problems", "bot"] {
        assert!(b.get(key).is_some(), "{key} missing in {b}");
    }
    let verdict = b["verdict"].as_str().expect("a verdict");
    assert!(verdict == "balanced" || verdict == "unbalanced", "{b}");
    assert_eq!(
        b["balanced"].as_bool(),
        Some(b["problems"].as_array().expect("problems").is_empty()),
        "{b}"
    );
    assert_eq!(balance_report("5"), report, "same seed, different report");

    let text = ok(&[
        "simulate",
        "../../scenarios/hc-first-clash.toml",
        "--balance",
        "--games",
        "2",
    ]);
    assert!(
        text.contains("red, of decided games") && text.contains("verdict: "),
        "{text}"
    );
    let err = fails(&["simulate", "hc-first-clash", "--balance", "--red", "random"]);
    assert!(err.contains("--red"), "{err}");
    let err = fails(&["simulate", "hc-first-clash", "--balance", "--bot", "genius"]);
    assert!(err.contains("--bot: unknown bot \"genius\""), "{err}");
    let err = fails(&["simulate", "hc-first-clash", "--red", "random"]);
    assert!(err.contains("--blue"), "{err}");
    let help = ok(&["simulate", "--help"]);
    assert!(
        help.contains("volley simulate") && help.contains("--balance"),
        "{help}"
    );
}
