//! The Sequence of Play (traditional A/B system), Rules by Sequence, section 9 (turn
//! conclusion) and victory.

use crate::command;
use crate::effects;
use crate::events::{ev, ev_at};
use crate::hidden;
use crate::melee;
use crate::movement;
use crate::rally;
use crate::state::*;
use volley_core::{Dice, Log, Outcome, Side};

/// Rolls initiative and opens the first player turn of a game turn.
pub fn begin_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    s.touch_everything();
    for u in s.units.iter_mut() {
        u.moved_this_turn = false;
        u.meleed_this_turn = false;
        u.fired_turn = false;
        u.heavy_moved_turn = false;
        u.unlimbered_after_move = false;
        u.facing_changes = 0;
    }
    // Sequence of Play 3: both roll; the higher is player A. Ties are rolled again.
    let mut rolls = Vec::new();
    let first = loop {
        let (r, b) = (dice.roll(6), dice.roll(6));
        rolls.push(format!("red {r}, blue {b}"));
        if r != b {
            break if r > b { Side::Red } else { Side::Blue };
        }
    };
    s.first = first;
    s.half = 0;
    log.add(|| {
        ev!(
            "initiative",
            "Sequence of Play 3",
            format!(
                "turn {}: initiative {}: {first} is player A and moves first",
                s.turn,
                rolls.join("; then ")
            ),
        )
        .side(first)
        .opens_turn()
    });
    begin_player_turn(s, dice, log);
}

/// Rules by Sequence 1–3 and the start of phasing movement.
fn begin_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    command::remove_commanders(s, side);
    hidden::spotting_step(s, dice, log);
    let info = &s.sides[side.index()];
    let lost = s.losses_percent(side);
    if lost >= info.break_point {
        let why = format!(
            "losses {lost:.0}% have reached the break point of {:.0}%",
            info.break_point
        );
        command::integrity_check(s, side, 3, &why, "Rules by Sequence 2", dice, log);
    }
    log.add(|| ev!("phase", "Sequence of Play 4", format!("{side} movement")).side(side));
    for i in 0..s.units.len() {
        if s.units[i].side != side || !s.units[i].active() {
            continue;
        }
        let mp = movement::allowance(s, &s.units[i]);
        let u = &mut s.units[i];
        u.mp = mp;
        u.stepped = false;
        u.move_start = u.hex;
    }
    // Routed units keep running in their own movement phase until rallied (7.5).
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side == side && u.active() && u.routed {
            effects::rout_move(s, i, log);
        }
    }
    s.phase = Phase::Movement;
}

/// Moves on from a phase whose decider has ended it.
pub fn end_phase(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    s.touch_everything();
    match s.phase {
        Phase::Movement => {
            s.phase = Phase::NonPhasingFire;
            reset_fire(s);
            log.add(|| {
                ev!(
                    "phase",
                    "Sequence of Play 5",
                    format!("{} fires (non-phasing)", s.phasing().other()),
                )
                .side(s.phasing().other())
            });
        }
        Phase::NonPhasingFire => {
            s.phase = Phase::PhasingFire;
            reset_fire(s);
            log.add(|| {
                ev!(
                    "phase",
                    "Sequence of Play 6",
                    format!("{} fires (phasing)", s.phasing()),
                )
                .side(s.phasing())
            });
        }
        Phase::PhasingFire => {
            s.phase = Phase::Melee;
            log.add(|| {
                ev!(
                    "phase",
                    "Sequence of Play 7",
                    format!("{} melee", s.phasing()),
                )
                .side(s.phasing())
            });
        }
        Phase::Melee => {
            if !s.melees.is_empty() {
                melee::resolve_round(s, dice, log);
            }
            if s.advances.is_empty() {
                finish_player_turn(s, dice, log);
            } else {
                s.phase = Phase::Advance;
            }
        }
        Phase::Advance => finish_player_turn(s, dice, log),
        Phase::Over => {}
    }
}

fn reset_fire(s: &mut State) {
    s.fire_log.clear();
    for u in s.units.iter_mut() {
        u.fired_phase = false;
    }
}

/// Sequence of Play 8 (rally), then the other player's turn or the turn's end.
fn finish_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    rally::rally(s, log);
    if s.half == 0 {
        s.half = 1;
        begin_player_turn(s, dice, log);
    } else {
        end_turn(s, dice, log);
    }
}

/// Section 9: fired markers off, melee markers turned; TE recovery for units that did not
/// move (Optional Rules, Disorder/Fatigued); then victory or the next turn.
fn end_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    reset_fire(s);
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.active()
            && u.te > 0
            && !u.moved_this_turn
            && !u.meleed_this_turn
            && !s.in_melee(i)
            && !u.routed
        {
            s.units[i].te -= 1;
            let seen = crate::events::seen_for(s, i);
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "recover",
                    "Optional Rules: Disorder/Fatigued",
                    format!("{} rests and recovers a TE hit: TE {}", u.id, u.te),
                )
                .side(u.side)
                .units([&u.id])
                .seen(seen)
            });
        }
    }
    if let Some(outcome) = turn_end_victory(s) {
        let section = if outcome.reason.contains("break point") {
            "Hand-out: Break Point"
        } else {
            "Victory: turn limit"
        };
        finish(s, outcome, section, log);
        return;
    }
    s.turn += 1;
    begin_turn(s, dice, log);
}

/// Victory points: objectives held, plus the points of enemy units lost or routed.
pub fn score(s: &State, side: Side) -> i32 {
    let objectives: i32 = s
        .objectives
        .iter()
        .filter(|o| o.holder == Some(side))
        .map(|o| o.points)
        .sum();
    let enemy_lost: i32 = s
        .units
        .iter()
        .filter(|u| u.side != side && u.arm.is_real() && (!u.active() || u.routed))
        .map(|u| u.points)
        .sum();
    objectives + enemy_lost
}

fn by_score(s: &State, reason: &str) -> Outcome {
    let score = [score(s, Side::Red), score(s, Side::Blue)];
    let winner = match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => Some(Side::Red),
        std::cmp::Ordering::Less => Some(Side::Blue),
        std::cmp::Ordering::Equal => None,
    };
    let reason = format!(
        "{reason}: victory points red {} – blue {}",
        score[0], score[1]
    );
    Outcome {
        winner,
        reason,
        score,
    }
}

/// Break points (hand-out), then the turn limit.
fn turn_end_victory(s: &State) -> Option<Outcome> {
    if s.settings().break_point_ends_game {
        let over: Vec<(Side, f64)> = Side::BOTH
            .into_iter()
            .map(|side| {
                (
                    side,
                    s.losses_percent(side) - s.sides[side.index()].break_point,
                )
            })
            .filter(|(_, excess)| *excess >= 0.0)
            .collect();
        let broken = match over.as_slice() {
            [(side, _)] => Some(*side),
            [(a, ea), (b, eb)] if ea != eb => Some(if ea > eb { *a } else { *b }),
            [_, _] => {
                return Some(by_score(
                    s,
                    "both armies reached their break points together",
                ))
            }
            _ => None,
        };
        if let Some(side) = broken {
            let mut o = by_score(s, "");
            o.winner = Some(side.other());
            o.reason = format!(
                "{side} reached its break point ({:.0}% lost against {:.0}%) and withdraws; score red {} – blue {}",
                s.losses_percent(side),
                s.sides[side.index()].break_point,
                o.score[0],
                o.score[1]
            );
            return Some(o);
        }
    }
    if s.turn >= s.setup.turn_limit {
        return Some(by_score(
            s,
            &format!("turn limit ({}) reached", s.setup.turn_limit),
        ));
    }
    None
}

fn finish(s: &mut State, outcome: Outcome, section: &str, log: &mut Log) {
    let text = match outcome.winner {
        Some(w) => format!("{w} wins: {}", outcome.reason),
        None => format!("a draw: {}", outcome.reason),
    };
    log.add(|| ev_at("game over", section, text));
    s.outcome = Some(outcome);
    s.phase = Phase::Over;
}

/// After every action: a lost supreme commander's integrity rolls, and an army with nothing
/// left on the map loses at once.
pub fn settle(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.phase == Phase::Over {
        return;
    }
    command::settle_supreme_losses(s, dice, log);
    melee::finish_melees(s, log);
    let alive: Vec<bool> = Side::BOTH
        .iter()
        .map(|&side| s.has_active_units(side))
        .collect();
    if !alive[0] || !alive[1] {
        let mut o = by_score(s, "");
        o.winner = match (alive[0], alive[1]) {
            (true, false) => Some(Side::Red),
            (false, true) => Some(Side::Blue),
            _ => None,
        };
        o.reason = format!(
            "{} has no units left on the field; score red {} – blue {}",
            if alive[0] { "blue" } else { "red" },
            o.score[0],
            o.score[1]
        );
        finish(s, o, "Victory: an army with nothing left", log);
    } else if s.phase == Phase::Advance && s.advances.is_empty() {
        end_phase(s, dice, log);
    }
}
