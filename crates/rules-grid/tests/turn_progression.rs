//! The order of a turn (Turn Progression): moves, shooting, close quarters and the removal of
//! units done for, each player-turn in that order, the player with the higher roll first, then
//! a new game-turn with a new roll, until the turn limit. One test per rule, with scripted dice
//! and exact results. Maps are square unless a test says hex; labels are column then row
//! ("0304" = column 3, row 4).

mod common;

use common::*;
use volley_core::{Game, Side};

/// A red and a blue line battalion far apart: nothing to shoot or fight, so every phase but
/// movement ends by itself.
fn far_apart() -> Box<dyn Game> {
    let s = scenario(
        "square",
        &rows(&open(5, 9)),
        &[
            unit("r1", "red", "line_infantry", "0301", "S"),
            unit("b1", "blue", "line_infantry", "0309", "N"),
        ],
        "",
    );
    start(&s, &[6, 1])
}

#[test]
fn turn_progression_runs_initiative_move_ranged_attack_close_combat_for_each_player_in_turn() {
    let mut g = far_apart();
    assert_eq!(g.view(None).phase, "red movement (0 of 6 units moved)");
    // Red ends its movement; with nothing in range or in contact its other phases end by
    // themselves, and blue's player-turn begins.
    let events = play(&mut g, "end", &[]);
    assert_eq!(
        texts(&events),
        "[grid-rules-v1.1 Turn Progression] Game-turn 1: red ranged attacks.
[grid-rules-v1.1 Turn Progression] Game-turn 1: red close combat.
[grid-rules-v1.1 Turn Progression] Game-turn 1: red advance after close combat.
[grid-rules-v1.1 Turn Progression] Game-turn 1: blue movement (0 of 1 unit moved)."
    );
    // After both player-turns a new game-turn rolls the initiative again.
    let events = play(&mut g, "end", &[2, 5]);
    assert_eq!(
        texts(&events),
        "[grid-rules-v1.1 Turn Progression] Game-turn 1: blue ranged attacks.
[grid-rules-v1.1 Turn Progression] Game-turn 1: blue close combat.
[grid-rules-v1.1 Turn Progression] Game-turn 1: blue advance after close combat.
[grid-rules-v1.1 Initiative] Game-turn 2: red rolled 2, blue rolled 5; blue plays first with the higher roll. Red may move 2 units, blue 5.
[grid-rules-v1.1 Turn Progression] Game-turn 2: blue movement (0 of 5 units moved)."
    );
    assert_eq!(g.to_decide(), Some(Side::Blue));
}

#[test]
fn turn_progression_ends_the_battle_after_the_last_game_turn() {
    let mut g = far_apart();
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[2, 5]);
    play(&mut g, "end", &[]);
    play(&mut g, "end", &[4, 3]);
    play(&mut g, "end", &[]);
    assert_eq!(g.view(None).phase, "blue movement (0 of 3 units moved)");
    assert_eq!(g.turn(), 3);
    assert!(g.outcome().is_none());
    // Game-turn 3 (the limit) is red's first, then blue's; blue's last phase ends the battle.
    let events = play(&mut g, "end", &[]);
    assert_eq!(
        texts(&events),
        "[grid-rules-v1.1 Turn Progression] Game-turn 3: blue ranged attacks.
[grid-rules-v1.1 Turn Progression] Game-turn 3: blue close combat.
[grid-rules-v1.1 Turn Progression] Game-turn 3: blue advance after close combat.
[grid-rules-v1.1 Victory (Volley)] A draw: after game-turn 3: red scores 0, blue 0 (enemy strength points destroyed plus objectives held)."
    );
    assert_eq!(g.to_decide(), None);
    assert_eq!(g.view(None).phase, "game over");
    assert!(g.legal_actions().is_empty());
}
