//! The real `volley serve` binary: killed with SIGKILL in the middle of play and started
//! again on the same database, it has every acknowledged action and play goes on; and
//! `volley verify` on a game exported from it passes, and fails when a roll is altered.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A `volley serve` process on a free loopback port.
struct Served {
    child: Child,
    addr: String,
}

impl Served {
    fn start(db: &Path) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .spawn()
            .expect("volley serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("volley serve prints its address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in \"{line}\""))
            .to_string();
        Served { child, addr }
    }

    /// SIGKILL: no chance to flush or say goodbye.
    fn kill(mut self) {
        self.child.kill().expect("the server is killed");
        self.child.wait().expect("and gone");
    }

    /// One HTTP/1.1 request; the status and the body as JSON (or as a JSON string).
    fn request(&self, method: &str, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.addr).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .expect("the request is sent");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("a reply");
        let (head, body) = reply.split_once("\r\n\r\n").expect("headers and a body");
        assert!(
            !head.to_ascii_lowercase().contains("chunked"),
            "this little client reads only sized bodies"
        );
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let json = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.into()));
        (status, json)
    }

    fn get(&self, path: &str, token: &str) -> Value {
        let (status, body) = self.request("GET", path, Some(token), &Value::Null);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    fn create(
        &self,
        red: &str,
        blue: &str,
        scenario: &str,
    ) -> (String, Option<String>, Option<String>) {
        let (status, body) = self.request(
            "POST",
            "/api/games",
            None,
            &json!({"scenario": scenario, "red": red, "blue": blue}),
        );
        assert_eq!(status, 201, "{body}");
        let token = |s: &str| body["seats"][s].as_str().map(str::to_string);
        (
            body["id"].as_str().expect("id").to_string(),
            token("red"),
            token("blue"),
        )
    }

    /// The token of the side to decide in a hotseat game, if the game is not over.
    fn deciding<'a>(&self, id: &str, red: &'a str, blue: &'a str) -> Option<&'a str> {
        match self.get(&format!("/api/games/{id}/view"), red)["view"]["to_decide"].as_str() {
            Some("red") => Some(red),
            Some("blue") => Some(blue),
            _ => None,
        }
    }

    /// Plays one action (an "end" every few, to move the game along); returns its seq.
    fn play_one(&self, id: &str, token: &str, n: usize) -> u64 {
        let legal = self.get(&format!("/api/games/{id}/legal"), token);
        let legal: Vec<&str> = legal["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let pick = match legal.iter().find(|a| a.starts_with("end")) {
            Some(end) if n.is_multiple_of(3) => end,
            _ => &legal[n % legal.len()],
        };
        let (status, body) = self.request(
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            &json!({ "action": pick }),
        );
        assert_eq!(status, 200, "{pick}: {body}");
        body["seq"].as_u64().expect("seq")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
    let (id, red, blue) = server.create("human", "human", "hc-crossroads");
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
    let server = Served::start(&dir.path().join("games.db"));
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
fn serve_refuses_a_postgres_url_in_words() {
    let out = volley(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        "postgres://volley@localhost/volley",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("PostgreSQL is not supported yet"),
        "{stderr}"
    );
}
