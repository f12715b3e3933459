//! Issue 16, seats and dice: an invitation is claimed, not handed over — the invited player
//! gets a token the creator never sees — and nothing is rolled before every seat is taken,
//! each player adding entropy to a seed the server committed to beforehand.

mod common;

use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn an_invitation_is_claimed_once_and_the_dice_wait_for_both_players() {
    let t = common::start().await;
    let api = &t.api;
    let r = api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "human", "blue": "human",
                    "seat": "red", "entropy": "red's coin flips"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["id"].as_str().unwrap().to_string();
    let red = r.body["seats"]["red"]
        .as_str()
        .expect("the creator's seat")
        .to_string();
    assert!(
        r.body["seats"]["blue"].is_null(),
        "the creator never sees blue's token"
    );
    let claim = r.body["invites"]["blue"]
        .as_str()
        .expect("an invitation")
        .to_string();
    let commitment = r.body["commitment"].as_str().unwrap().to_string();
    assert_eq!(r.body["started"], false);

    // Before blue takes the seat nothing is rolled and nothing can be played.
    let s = api.get(&format!("/api/games/{id}/seats"), None).await;
    assert_eq!(
        s.body,
        json!({"started": false, "open": ["blue"], "commitment": commitment})
    );
    let v = api.get(&format!("/api/games/{id}/view"), Some(&red)).await;
    assert_eq!(v.status, StatusCode::CONFLICT);
    assert!(v.text.contains("has not started"), "{}", v.text);

    // A wrong claim takes nothing; the right one gives blue its own token.
    let path = format!("/api/games/{id}/claim");
    let r = api
        .post(&path, None, &json!({"claim": red, "entropy": "x"}))
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    let r = api
        .post(&path, None, &json!({"claim": "a\nb", "entropy": "x\ny"}))
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "entropy is one line: {}",
        r.text
    );
    let r = api
        .post(
            &path,
            None,
            &json!({"claim": claim, "entropy": "blue's dice cup"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["seat"], "blue");
    let blue = r.body["token"].as_str().unwrap().to_string();
    assert_ne!(blue, red);
    // The invitation is spent.
    let r = api.post(&path, None, &json!({"claim": claim})).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.text.contains("used"), "{}", r.text);

    // The game has started, under the commitment published at creation.
    let s = api.get(&format!("/api/games/{id}/seats"), None).await;
    assert_eq!(
        s.body,
        json!({"started": true, "open": [], "commitment": commitment})
    );
    assert_eq!(api.view(&id, &blue).await["seat"], "blue");
    assert_eq!(api.view(&id, &red).await["commitment"], commitment);

    // Red resigns; the export reveals the secret, and both players' entropy made the seed.
    let r = api
        .post(&format!("/api/games/{id}/resign"), Some(&red), &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = api
        .get(&format!("/api/games/{id}/export"), Some(&blue))
        .await;
    let save: volley_core::SaveFile = serde_json::from_str(&r.text).expect("a saved game");
    let fair = save.fairness.as_ref().expect("the commit-reveal record");
    assert_eq!(fair.entropy["red"], "red's coin flips");
    assert_eq!(fair.entropy["blue"], "blue's dice cup");
    assert_eq!(
        fair.check(&save.scenario, &save.options, &save.seed.unwrap()),
        Ok(())
    );
}

#[tokio::test]
async fn a_game_waiting_for_its_invitee_survives_a_restart() {
    let t = common::start().await;
    let r = t.api.post("/api/games", None, &json!({"scenario": "sad-river-crossing", "red": "human", "blue": "human", "seat": "blue"})).await;
    let id = r.body["id"].as_str().unwrap().to_string();
    let claim = r.body["invites"]["red"].as_str().unwrap().to_string();
    let blue = r.body["seats"]["blue"].as_str().unwrap().to_string();
    let t = t.restart().await;
    let r = t
        .api
        .post(
            &format!("/api/games/{id}/claim"),
            None,
            &json!({"claim": claim}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["seat"], "red");
    assert_eq!(t.api.view(&id, &blue).await["seat"], "blue");
    // And the started game survives the next restart as a game.
    let t = t.restart().await;
    assert_eq!(t.api.view(&id, &blue).await["seat"], "blue");
}

#[tokio::test]
async fn a_solo_game_starts_at_once_and_a_computer_seat_cannot_be_taken() {
    let t = common::start().await;
    let r = t
        .api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "normal", "blue": "human", "seat": "red"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.text.contains("played by the computer"), "{}", r.text);
    let r = t
        .api
        .post(
            "/api/games",
            None,
            &json!({"scenario": "hc-first-clash", "red": "normal", "blue": "human"}),
        )
        .await;
    assert_eq!(r.body["started"], true);
    assert!(r.body["invites"]["red"].is_null() && r.body["invites"]["blue"].is_null());
}
