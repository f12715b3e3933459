//! The real `volley serve` binary on a free loopback port, and a small HTTP client for it.

#![allow(dead_code)] // each test file uses its own part of these helpers

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `volley serve` process on a free loopback port.
pub struct Served {
    child: Child,
    pub addr: String,
}

impl Served {
    pub fn start(db: impl AsRef<std::ffi::OsStr>) -> Served {
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
    pub fn kill(mut self) {
        self.child.kill().expect("the server is killed");
        self.child.wait().expect("and gone");
    }

    /// One HTTP/1.1 request; the status and the body as JSON (or as a JSON string).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> (u16, Value) {
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

    pub fn get(&self, path: &str, token: &str) -> Value {
        let (status, body) = self.request("GET", path, Some(token), &Value::Null);
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    pub fn create(
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
    pub fn deciding<'a>(&self, id: &str, red: &'a str, blue: &'a str) -> Option<&'a str> {
        match self.get(&format!("/api/games/{id}/view"), red)["view"]["to_decide"].as_str() {
            Some("red") => Some(red),
            Some("blue") => Some(blue),
            _ => None,
        }
    }

    /// Plays one action (an "end" every few, to move the game along); returns its seq.
    pub fn play_one(&self, id: &str, token: &str, n: usize) -> u64 {
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
