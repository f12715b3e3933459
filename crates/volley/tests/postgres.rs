//! Issue 17, more than one server: two real `volley serve` processes on one PostgreSQL
//! database. One is killed with SIGKILL in the middle of play: the players carry on through
//! the other, which holds every action the dead one acknowledged, and a game against the
//! computer that the dead one ran goes on, its bot now run by the survivor.

mod common;

use common::Served;
use std::time::{Duration, Instant};

#[test]
fn killing_one_of_two_servers_loses_no_acknowledged_action() {
    let Some(db) = volley_server::test_database_blocking() else {
        return;
    };
    let a = Served::start(&db);
    let b = Served::start(&db);

    let (id, red, blue) = a.create("human", "human", "hc-crossroads");
    let (red, blue) = (red.expect("red"), blue.expect("blue"));
    // A game against the computer, made on A: A runs its bot.
    let (bot_game, bot_red, _) = a.create("human", "easy", "hc-first-clash");
    let bot_red = bot_red.expect("red");

    // Actions alternate between the two servers; the last few go through A only.
    let mut acknowledged = 0;
    for n in 0..40 {
        let server = if n < 30 && n % 2 == 1 { &b } else { &a };
        let Some(token) = server.deciding(&id, &red, &blue) else {
            break;
        };
        acknowledged = server.play_one(&id, token, n);
    }
    assert!(acknowledged > 0, "the game was played");

    // Red hands the bot game to the bot: an end (A's bot answers).
    let seq_before_kill = loop {
        let v = a.get(&format!("/api/games/{bot_game}/view"), &bot_red);
        if v["view"]["to_decide"] == "red" || !v["view"]["outcome"].is_null() {
            break v["seq"].as_u64().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    a.kill();

    // B holds every action A acknowledged, and play goes on through it.
    let seq = b.get(&format!("/api/games/{id}/view"), &red)["seq"]
        .as_u64()
        .unwrap();
    assert_eq!(seq, acknowledged, "every acknowledged action survived");
    if let Some(token) = b.deciding(&id, &red, &blue) {
        assert_eq!(b.play_one(&id, token, 1), acknowledged + 1);
    }

    // The bot game goes on through B: red ends its phases until the bot is to decide, and
    // B (holding the game's bot lease now that A is gone) answers.
    let v = b.get(&format!("/api/games/{bot_game}/view"), &bot_red);
    assert_eq!(v["seq"].as_u64(), Some(seq_before_kill));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = b.get(&format!("/api/games/{bot_game}/view"), &bot_red);
        if !v["view"]["outcome"].is_null() {
            break;
        }
        if v["view"]["to_decide"] == "red" {
            b.play_one(&bot_game, &bot_red, 0);
            continue;
        }
        // The bot's decision: wait for it.
        let seq = v["seq"].as_u64().unwrap();
        loop {
            let now = b.get(&format!("/api/games/{bot_game}/view"), &bot_red);
            if now["seq"].as_u64().unwrap() > seq {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the bot of the killed server's game never moved on the survivor: {now}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        break;
    }
    b.kill();
}
