//! The real `volley serve` binary: killed with SIGKILL in the middle of play and started
//! again on the same database, it has every acknowledged action and play goes on; and
//! `volley verify` on a game exported from it passes, and fails when a roll is altered.

use serde_json::{json, Value};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;

use common::Served;

fn volley(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(args)
        .output()
        .expect("volley runs")
}

#[test]
fn a_killed_server_loses_no_acknowledged_action() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("games.db");
    let server = Served::start(&db);
    // A long battle (16 turns): the 41 actions below must not finish it.
    let (id, red, blue) = server.create("human", "human", "hc-pike-and-shot");
    let (red, blue) = (red.expect("red"), blue.expect("blue"));
    let (bot_game, _, bot_blue) = server.create("random", "human", "hc-first-clash");
    let bot_blue = bot_blue.expect("blue");

    let mut acknowledged = 0;
    for n in 0..40 {
        let token = server.deciding(&id, &red, &blue).expect("not over yet");
        acknowledged = server.play_one(&id, token, n);
    }
    let views = [&red, &blue].map(|t| server.get(&format!("/api/games/{id}/view"), t));
    let log = server.get(&format!("/api/games/{id}/log"), &red);
    // One more, and the kill right after its acknowledgement.
    let token = server.deciding(&id, &red, &blue).expect("not over yet");
    let last = server.play_one(&id, token, 41);
    assert_eq!(last, acknowledged + 1);
    server.kill();

    let server = Served::start(&db);
    let view = server.get(&format!("/api/games/{id}/view"), &red);
    assert_eq!(
        view["seq"], last,
        "the last acknowledged action survived the kill"
    );
    let after = server.get(&format!("/api/games/{id}/log"), &red);
    let before = log["events"].as_array().expect("events");
    assert_eq!(
        &after["events"].as_array().expect("events")[..before.len()],
        &before[..],
        "the log up to then is the same"
    );
    assert_eq!(view["commitment"], views[0]["commitment"]);
    let token = server.deciding(&id, &red, &blue).expect("not over yet");
    assert_eq!(server.play_one(&id, token, 42), last + 1, "play goes on");

    // The bot's game resumes too: the bot still moves when it is its decision.
    let started = Instant::now();
    loop {
        let v = server.get(&format!("/api/games/{bot_game}/view"), &bot_blue);
        if v["view"]["to_decide"] != "red" {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the bot moves");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill();
}

#[test]
fn verify_passes_an_exported_game_and_catches_an_altered_roll() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = Served::start(dir.path().join("games.db"));
    let (id, red, blue) = server.create("human", "human", "hc-first-clash");
    let (red, blue) = (red.expect("red"), blue.expect("blue"));
    let mut n = 0;
    while let Some(token) = server.deciding(&id, &red, &blue) {
        server.play_one(&id, token, n);
        n += 1;
        assert!(n < 5000, "the game ends");
    }
    let (status, save) = server.request(
        "GET",
        &format!("/api/games/{id}/export"),
        Some(&blue),
        &Value::Null,
    );
    assert_eq!(status, 200, "{save}");
    let file = dir.path().join("game.json");
    std::fs::write(&file, save.to_string()).expect("written");
    let path = file.to_str().expect("utf-8");

    let out = volley(&["verify", path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("verified"), "{stdout}");

    // Change one recorded roll.
    let mut altered = save.clone();
    let roll = altered["actions"]
        .as_array_mut()
        .expect("actions")
        .iter_mut()
        .find_map(|a| a["rolls"].as_array_mut().and_then(|r| r.first_mut()))
        .expect("the game rolled a die");
    let sides = roll["sides"].as_u64().expect("sides");
    let value = roll["value"].as_u64().expect("value");
    roll["value"] = json!(value % sides + 1);
    std::fs::write(&file, altered.to_string()).expect("written");
    let out = volley(&["verify", path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an altered roll must fail");
    assert!(stderr.contains("NOT VERIFIED"), "{stderr}");
    assert!(stderr.contains("rolled"), "says which roll: {stderr}");

    // Change the seed: it is no longer the one the commit-reveal makes.
    let mut altered = save.clone();
    let seed = altered["seed"].as_str().expect("the seed is revealed");
    let flipped = if seed.starts_with('0') { "1" } else { "0" };
    altered["seed"] = json!(format!("{flipped}{}", &seed[1..]));
    std::fs::write(&file, altered.to_string()).expect("written");
    let out = volley(&["verify", path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("seed"), "{stderr}");

    // Issue 16's tamperings of an online export: each is caught, in words.
    let scenario = save["scenario"]
        .as_str()
        .expect("the scenario text")
        .to_string();
    let tamperings: Vec<(&str, Value, &str)> = vec![
        (
            "an option changed",
            {
                let mut a = save.clone();
                a["options"]["sight"] = json!("4");
                a
            },
            "options",
        ),
        (
            "the scenario's text changed",
            {
                let mut a = save.clone();
                a["scenario"] = json!(scenario.replacen("title", "#\ntitle", 1));
                a
            },
            "scenario",
        ),
        (
            "a side renamed",
            {
                let mut a = save.clone();
                a["scenario"] = json!(scenario.replacen("name = \"", "name = \"The ", 1));
                a
            },
            "scenario",
        ),
        (
            "a die forced",
            {
                let mut a = save.clone();
                let first = a["actions"]
                    .as_array_mut()
                    .expect("actions")
                    .iter_mut()
                    .find(|x| x["rolls"].as_array().is_some_and(|r| !r.is_empty()))
                    .expect("an action that rolled");
                first["forced"] = json!([first["rolls"][0]["value"]]);
                a
            },
            "forced",
        ),
        (
            "the game cut short",
            {
                let mut a = save.clone();
                let actions = a["actions"].as_array_mut().expect("actions");
                let keep = actions.len() / 2;
                actions.truncate(keep);
                a
            },
            "not finished",
        ),
        (
            "another secret",
            {
                let mut a = save.clone();
                a["fairness"]["server_seed"] = json!("00".repeat(32));
                a
            },
            "committed",
        ),
    ];
    for (what, altered, words) in tamperings {
        std::fs::write(&file, altered.to_string()).expect("written");
        let out = volley(&["verify", path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what} must fail verification");
        assert!(
            stderr.contains("NOT VERIFIED") && stderr.contains(words),
            "{what}: {stderr}"
        );
    }
    server.kill();
}

#[test]
fn serve_says_in_words_when_postgres_cannot_be_reached() {
    let out = volley(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        "postgres://volley@127.0.0.1:1/volley",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(
            "cannot connect to the PostgreSQL database postgres://volley@127.0.0.1:1/volley"
        ),
        "{stderr}"
    );
}
