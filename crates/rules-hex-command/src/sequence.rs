//! The Sequence of Play (traditional A/B system), Rules by Sequence, section 9 (turn
//! conclusion) and victory.

use crate::command;
use crate::effects;
use crate::events::{ev, ev_at};
use crate::fire;
use crate::hidden;
use crate::melee;
use crate::movement;
use crate::orders::{HcAction, Sink};
use crate::rally;
use crate::state::*;
use hex_command_family::activation::Mode;
use hex_command_family::reinforcements::{self, Arrival, Arriving};
use volley_core::{Dice, Hex, Log, Outcome, Side};

/// Set-up steps rolled when play starts: commanders' traits (2.2.3, set-up checklist 1) and
/// tribal troops' will (Optional Rules, Tribes and Light Infantry).
pub fn begin_game(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let cvs = s.settings().cvs;
    if cvs != Cvs::Off {
        for c in 0..s.commanders.len() {
            if cvs == Cvs::Scenario && s.commanders[c].traits.is_some() {
                continue;
            }
            let (traits, how) = hex_command_family::cvs::generate(
                &s.commanders[c].grade.map_or(
                    hex_command_family::cvs::GradeSource::Rolled,
                    hex_command_family::cvs::GradeSource::Given,
                ),
                dice,
            );
            let cmd = &mut s.commanders[c];
            cmd.traits = Some(traits);
            cmd.value = traits.combat as i32;
            let cmd = &s.commanders[c];
            log.add(|| {
                ev_at("cvs", "2.2.3", format!("{} is rated: {how}", cmd.name)).side(cmd.side)
            });
        }
    }
    if s.settings().tribes {
        command::tribal_tests(s, dice, log);
    }
    begin_turn(s, dice, log);
}

/// Rolls initiative and opens the first player turn of a game turn.
pub fn begin_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    s.touch_everything();
    for u in s.units.iter_mut() {
        u.moved_this_turn = false;
        u.meleed_this_turn = false;
        u.fired_turn = false;
        u.heavy_moved_turn = false;
        u.unlimbered_after_move = false;
        u.unlimbered_turn = false;
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
    let schedule = schedule(s, first);
    s.turns.begin(first, schedule);
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

/// Rules by Sequence 1–3, reinforcements (4) and new orders, then phasing movement.
fn begin_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    if !s.turns.first_activation_of(side) {
        // A later group of a side under the Activation Sequence: straight to its movement.
        let (k, g) = (s.turns.at + 1, s.active_group());
        log.add(|| {
            ev_at(
                "activation",
                "2.3",
                format!("activation {k}: {side}'s {}", group_name(g)),
            )
            .side(side)
        });
        start_movement(s, dice, log);
        return;
    }
    if s.settings().activation != Mode::Ab {
        let g = s.active_group();
        log.add(|| {
            ev_at(
                "activation",
                "2.3",
                format!("activation {}: {side}'s {}", s.turns.at + 1, group_name(g)),
            )
            .side(side)
        });
    }
    command::remove_commanders(s, side);
    for c in s.commanders.iter_mut().filter(|c| c.side == side) {
        c.mp = crate::units::Arm::Cavalry.movement(2);
    }
    hidden::spotting_step(s, dice, log);
    command::replacements(s, dice, log);
    command::integrity_step(s, side, dice, log);
    command::timid_tests(s, side, dice, log);
    command::ride_couriers(s, side, log);
    s.resume = Resume::Arrivals;
    arrivals(s, dice, log);
}

/// 4: the phasing player's reinforcements that are due come on at their entry hexes; enemies
/// standing there are asked first whether they stay or fall back (4 b).
fn arrivals(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let (side, turn) = (s.phasing(), s.turn);
    if reinforcements::arrive(s, side, turn, dice, log) {
        start_turn_proper(s, dice, log);
    }
}

/// Gunpowder's steps of a group's arrival (4): no test, the d6 for the location told, the
/// enemies on or beside the entry asked once, the units on free entry hexes.
impl Arriving for State {
    fn arrival(&self, g: usize) -> &Arrival {
        &self.arrivals[g]
    }

    fn arrival_mut(&mut self, g: usize) -> &mut Arrival {
        &mut self.arrivals[g]
    }

    fn arrival_count(&self) -> usize {
        self.arrivals.len()
    }

    fn location_picked(&mut self, a: usize, d: u32, log: &mut Log) {
        let side = self.phasing();
        let ar = &self.arrivals[a];
        log.add(|| {
            ev_at(
                "reinforcements",
                "4 d",
                format!(
                    "{} roll d6 {d} for where they arrive: {}",
                    ar.id,
                    ar.entry_text()
                ),
            )
            .side(side)
        });
    }

    fn ask_blockers(&mut self, a: usize, _log: &mut Log) -> bool {
        let blockers = blockers(self, a);
        if !blockers.is_empty() && !self.arrivals[a].asked {
            self.arrivals[a].asked = true;
            self.decisions.push(Decision::Blocking { arrival: a });
            self.phase = Phase::Decision;
            self.touch_everything();
            return true;
        }
        false
    }

    fn enter(&mut self, a: usize, log: &mut Log) {
        place_arrivals(self, a, log);
    }
}

/// The enemy units on or beside an arrival's entry hexes.
fn blockers(s: &State, a: usize) -> Vec<usize> {
    let ar = &s.arrivals[a];
    (0..s.units.len())
        .filter(|&i| {
            let u = &s.units[i];
            u.side != ar.side
                && u.active()
                && u.arm.is_real()
                && hex_command_family::reinforcements::near_entry(ar.entry(), u.hex, 1)
        })
        .collect()
}

/// Puts an arrival's waiting units on its free entry hexes; the rest wait for room.
fn place_arrivals(s: &mut State, a: usize, log: &mut Log) {
    use hex_command_family::reinforcements::Status;
    let entry: Vec<Hex> = s.arrivals[a].entry().to_vec();
    let facing = s.arrivals[a].facing;
    let force = arrival_force(s, a);
    let mut placed = Vec::new();
    for i in 0..s.units.len() {
        if s.units[i].arrival != Some(a as u16) || s.units[i].fate != Fate::Waiting {
            continue;
        }
        let arm = effects::moving_arm(&s.units[i]);
        let Some(&h) = entry.iter().find(|&&h| {
            s.unit_at(h).is_none()
                && s.guns_at(h).is_none()
                && crate::units::may_stand(arm, s.ground().terrain(h), s.ground().elevation(h))
        }) else {
            break;
        };
        let u = &mut s.units[i];
        u.fate = Fate::Active;
        u.hex = h;
        u.facing = facing;
        u.force = force;
        u.seen = !s.setup.settings.hidden;
        s.forces[force as usize].start_points += u.points;
        s.board.place(&s.setup.map, h, i, u.side);
        s.touch_place(h);
        placed.push(i);
    }
    if let Some(c) = s.arrivals[a].commander.clone() {
        if let Some(cmd) = s.commanders.iter_mut().find(|x| x.id == c && x.waiting) {
            cmd.waiting = false;
            if cmd.hex.is_none() || s.setup.settings.pieces {
                cmd.hex = entry.first().copied();
            }
        }
    }
    let left = s
        .units
        .iter()
        .any(|u| u.arrival == Some(a as u16) && u.fate == Fate::Waiting);
    s.arrivals[a].status = if left {
        Status::Arriving
    } else {
        Status::Arrived
    };
    s.touch_everything();
    let ids: Vec<String> = placed.iter().map(|&i| s.units[i].id.to_string()).collect();
    let ar = &s.arrivals[a];
    if !ids.is_empty() {
        log.add(|| {
            ev_at(
                "reinforcements",
                "4 a",
                format!(
                    "{} arrive at {}: {}{}",
                    ar.id,
                    ar.entry_text(),
                    ids.join(", "),
                    if left { "; the rest wait for room" } else { "" }
                ),
            )
            .side(ar.side)
        });
    }
}

/// Rules by Sequence 2: reinforcements that arrive before their side's major integrity check
/// join its main army; those that arrive after it form a force of their own, with its own
/// break point (one force for each group of reinforcements, however many turns it takes to
/// come on). The points of each unit placed are added to its force as it arrives.
fn arrival_force(s: &mut State, a: usize) -> u8 {
    let side = s.arrivals[a].side;
    if !s.forces[side.index()].checked {
        return side.index() as u8;
    }
    if let Some(f) = s.forces.iter().position(|f| f.arrival == Some(a as u16)) {
        return f as u8;
    }
    let bp = s.forces[side.index()].break_point;
    s.forces.push(Force {
        side,
        name: format!("{}'s {}", side, s.arrivals[a].id).as_str().into(),
        break_point: bp,
        start_points: 0,
        arrival: Some(a as u16),
        checked: false,
    });
    (s.forces.len() - 1) as u8
}

/// 4 b: the blocking side's answer.
pub fn block(s: &mut State, a: usize, withdraw: bool, dice: &mut dyn Dice, log: &mut Log) {
    s.decisions.remove(0);
    s.touch_everything();
    let who = s.arrivals[a].side.other();
    let ar = &s.arrivals[a];
    log.add(|| {
        ev_at(
            "reinforcements",
            "4 b",
            format!(
                "{who} {} before {} arriving at {}",
                if withdraw { "falls back" } else { "stands" },
                ar.id,
                ar.entry_text()
            ),
        )
        .side(who)
    });
    if withdraw {
        s.withdrawing = blockers(s, a);
        s.withdraw_from = s.arrivals[a].entry().to_vec();
        for &i in &s.withdrawing.clone() {
            let mp = 2 * effects::allowance(s, &s.units[i]);
            s.units[i].mp = mp;
        }
        s.phase = Phase::Withdrawal;
        return;
    }
    resume(s, dice, log);
}

/// A side's answer to the decision put to it — the facing of a unit rallied from rout (8 c),
/// the opponent of a Melee Points hit, the result of a decision failure (2.2.2) — and play
/// goes on where it stopped.
pub fn answer(s: &mut State, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
    match a {
        HcAction::Face { unit, facing } => rally::face(s, unit as usize, facing, log),
        HcAction::Points { unit, target } => melee::apply_points(s, unit as usize, target, log),
        HcAction::Consequence { brigade, number } => {
            command::choose_consequence(s, brigade as usize, number, log)
        }
        _ => unreachable!("{a:?} answers no decision"),
    }
    resume(s, dice, log);
}

/// Where play goes on once the decisions put to a side are made.
pub fn resume(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if !s.decisions.is_empty() {
        s.phase = Phase::Decision;
        return;
    }
    match s.resume {
        Resume::Phase(p) => s.phase = p,
        Resume::MeleeDamage => after_melee(s, dice, log),
        Resume::Arrivals => arrivals(s, dice, log),
        Resume::AfterRally => {
            s.phase = Phase::Melee;
            next_player_turn(s, dice, log);
        }
    }
}

/// The side a decision is put to.
pub fn decision_side(s: &State, d: &Decision) -> Side {
    match *d {
        Decision::RallyFacing { unit } | Decision::MeleePoints { unit, .. } => s.units[unit].side,
        Decision::Consequence { brigade } => s.brigades[brigade].side.other(),
        Decision::Blocking { arrival } => s.arrivals[arrival].side.other(),
    }
}

pub fn decision_prompt(s: &State, d: &Decision) -> String {
    let side = decision_side(s, d).title();
    match d {
        Decision::RallyFacing { unit } => format!(
            "{side}: {} has rallied; choose the way it faces (8)",
            s.units[*unit].id
        ),
        Decision::MeleePoints { unit, .. } => format!(
            "{side}: {} wins on melee points; choose which other opponent takes the extra TE hit",
            s.units[*unit].id
        ),
        Decision::Consequence { brigade } => format!(
            "{side}: {}'s order change failed with a 9; choose its consequence (2.2.2)",
            s.brigades[*brigade].name
        ),
        Decision::Blocking { arrival } => {
            let ar = &s.arrivals[*arrival];
            let strength = s
                .units
                .iter()
                .filter(|u| u.arrival == Some(*arrival as u16) && u.fate == Fate::Waiting)
                .count();
            format!(
                "{side}: {strength} enemy units arrive at {}; stand and fight, or fall back two moves (4 b)",
                ar.entry_text()
            )
        }
    }
}

/// The answers open to the decision at hand.
pub fn legal_decision(s: &State, out: &mut impl Sink) {
    let Some(d) = s.decisions.first() else { return };
    match d {
        Decision::RallyFacing { unit } => {
            for facing in volley_core::geometry::Facing::ALL {
                out.put(HcAction::Face {
                    unit: *unit as u16,
                    facing,
                });
            }
        }
        Decision::MeleePoints { unit, candidates } => {
            for &c in candidates {
                out.put(HcAction::Points {
                    unit: *unit as u16,
                    target: s.units[c].hex,
                });
            }
        }
        Decision::Consequence { brigade } => command::legal_consequences(*brigade, out),
        Decision::Blocking { arrival } => {
            for withdraw in [false, true] {
                out.put(HcAction::Block {
                    arrival: *arrival as u16,
                    withdraw,
                });
            }
        }
    }
}

/// After arrivals: the orders phase (when written orders are in play), then movement.
fn start_turn_proper(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    if command::has_orders_to_write(s) {
        s.phase = Phase::Orders;
        s.touch_everything();
        log.add(|| ev!("phase", "Sequence of Play 3", format!("{side} orders")).side(side));
        return;
    }
    start_movement(s, dice, log);
}

fn start_movement(s: &mut State, _dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    s.touch_everything();
    log.add(|| ev!("phase", "Sequence of Play 4", format!("{side} movement")).side(side));
    let first = s.turns.first_activation_of(side);
    for i in 0..s.units.len() {
        // Under the Activation Sequence a group gets its move when it activates; floating
        // units (artillery) get theirs with their side's first activation and may use it in
        // any of the side's activations (2.3).
        let fresh = match s.group_of(i) {
            _ if s.settings().activation == Mode::Ab => true,
            None => first,
            Some(g) => Some(g) == s.active_group(),
        };
        if s.units[i].side != side || !s.units[i].active() || !fresh {
            continue;
        }
        let mp = effects::allowance(s, &s.units[i]);
        let u = &mut s.units[i];
        u.mp = mp;
        u.stepped = false;
        u.horse_change = false;
        u.move_start = u.hex;
    }
    // Routed units keep running in their own movement phase until rallied (7.5).
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side == side && u.active() && u.routed && s.activates(i) {
            effects::rout_move(s, i, log);
        }
    }
    s.phase = Phase::Movement;
}

/// The rounds of the fire step (7 c and its alternatives; Sequence of Play 5), rolled when
/// the step begins.
fn fire_rounds(s: &mut State, dice: &mut dyn Dice, log: &mut Log) -> Vec<FireRound> {
    let p = s.phasing();
    let round = |side: Side, who: FireWho| FireRound { side, who };
    let roll_off = |dice: &mut dyn Dice| loop {
        let (r, b) = (dice.roll(6), dice.roll(6));
        if r != b {
            break (if r > b { Side::Red } else { Side::Blue }, r, b);
        }
    };
    match s.settings().fire_order {
        // Hand-out, Activation Sequence: after all groups have moved both fire, A first.
        FireOrder::Standard if s.settings().activation == Mode::Groups => {
            vec![
                round(s.turns.first, FireWho::All),
                round(s.turns.first.other(), FireWho::All),
            ]
        }
        FireOrder::Standard => vec![round(p.other(), FireWho::All), round(p, FireWho::All)],
        FireOrder::Roll => {
            let (first, r, b) = roll_off(dice);
            log.add(|| {
                ev_at(
                    "fire order",
                    "7 c",
                    format!("fire order: red {r}, blue {b}: {first} fires first"),
                )
            });
            vec![
                round(first, FireWho::All),
                round(first.other(), FireWho::All),
            ]
        }
        FireOrder::Commanders => {
            let (first, r, b) = roll_off(dice);
            log.add(|| {
                ev_at(
                    "fire order",
                    "7 c",
                    format!(
                        "fire order: red {r}, blue {b}: units with commanders fire first, {first}'s before the other's"
                    ),
                )
            });
            vec![
                round(first, FireWho::Commanded(true)),
                round(first.other(), FireWho::Commanded(true)),
                round(first, FireWho::Commanded(false)),
                round(first.other(), FireWho::Commanded(false)),
            ]
        }
        FireOrder::Tactical => {
            s.passed_brigades.clear();
            for b in 0..s.brigades.len() {
                let Some(c) = s.deciding_commander(b) else {
                    continue;
                };
                let t = hex_command_family::cvs::test(
                    &s.commanders[c].traits(),
                    hex_command_family::cvs::Trait::Tactical,
                    dice,
                );
                if t.passed {
                    s.passed_brigades.push(b as u16);
                }
                let br = &s.brigades[b];
                log.add(|| {
                    ev_at(
                        "fire order",
                        "Sequence of Play 5",
                        format!(
                            "{} tests for the fire order: {}{}",
                            br.name,
                            t.text(),
                            if t.passed { "; it fires first" } else { "" }
                        ),
                    )
                    .side(br.side)
                });
            }
            vec![
                round(p.other(), FireWho::Passed(true)),
                round(p, FireWho::Passed(true)),
                round(p.other(), FireWho::Passed(false)),
                round(p, FireWho::Passed(false)),
            ]
        }
    }
}

fn start_fire(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    s.fire_rounds = fire_rounds(s, dice, log);
    s.fire_round = 0;
    s.phase = Phase::Fire;
    reset_fire(s);
    announce_fire_round(s, log);
}

fn announce_fire_round(s: &State, log: &mut Log) {
    let Some(r) = s.fire_rounds.get(s.fire_round as usize) else {
        return;
    };
    let p = s.phasing();
    let who = match r.who {
        FireWho::All => "",
        FireWho::Commanded(true) => ", units with commanders",
        FireWho::Commanded(false) => ", units without commanders",
        FireWho::Passed(true) => ", brigades that passed",
        FireWho::Passed(false) => ", the other brigades",
    };
    let (section, whose) = if r.side == p {
        ("Sequence of Play 6", "phasing")
    } else {
        ("Sequence of Play 5", "non-phasing")
    };
    log.add(|| ev_at("phase", section, format!("{} fires ({whose}{who})", r.side)).side(r.side));
}

/// Moves on from a phase whose decider has ended it.
pub fn end_phase(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    s.touch_everything();
    match s.phase {
        Phase::Orders => start_movement(s, dice, log),
        // The hand-out's Activation Sequence: every group moves in turn, then all fire.
        Phase::Movement if s.settings().activation == Mode::Groups => {
            if s.turns.step_on() {
                begin_player_turn(s, dice, log);
            } else {
                // The fire step and melee belong to the whole turn: player A declares.
                s.turns.at = s.turns.schedule.len();
                start_fire(s, dice, log);
            }
        }
        Phase::Movement => start_fire(s, dice, log),
        Phase::Withdrawal => {
            s.withdrawing.clear();
            s.withdraw_from.clear();
            arrivals(s, dice, log);
        }
        Phase::Decision => {}
        Phase::Fire if (s.fire_round as usize) + 1 < s.fire_rounds.len() => {
            s.fire_round += 1;
            reset_fire(s);
            announce_fire_round(s, log);
        }
        Phase::Fire => {
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
                if s.phase == Phase::Decision {
                    return;
                }
            }
            after_melee(s, dice, log);
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

/// After a melee round: winners advance, or the player turn ends.
fn after_melee(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.advances.is_empty() {
        finish_player_turn(s, dice, log);
    } else {
        s.phase = Phase::Advance;
    }
}

/// Sequence of Play 8 (rally), then the other player's turn or the turn's end.
fn finish_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.settings().activation == Mode::Groups {
        // Hand-out: once firing is done, all sides rally and the turn ends.
        rally::rally(s, s.turns.first, log);
        rally::rally(s, s.turns.first.other(), log);
    } else {
        rally::rally(s, s.phasing(), log);
    }
    if !s.decisions.is_empty() {
        s.resume = Resume::AfterRally;
        s.phase = Phase::Decision;
        return;
    }
    next_player_turn(s, dice, log);
}

fn next_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.turns.step_on() {
        begin_player_turn(s, dice, log);
    } else {
        end_turn(s, dice, log);
    }
}

/// The activations of this turn: the A/B system's two player turns, or every numbered group
/// of both sides in turn (2.3).
fn schedule(s: &State, first: Side) -> Vec<hex_command_family::activation::Activation> {
    let mode = s.settings().activation;
    let mut groups: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.active() && u.arm.is_real() {
            if let Some(g) = s.group_of(i) {
                groups[u.side.index()].push(g);
            }
        }
    }
    for g in groups.iter_mut().filter(|g| g.is_empty()) {
        // A side with nothing but floating units still gets one activation.
        g.push(crate::state::UNNUMBERED);
    }
    hex_command_family::activation::schedule(mode, first, [&groups[0], &groups[1]])
}

fn group_name(g: Option<u8>) -> String {
    match g {
        Some(crate::state::UNNUMBERED) => "units without a group number".into(),
        Some(g) => format!("group {g}"),
        None => "units".into(),
    }
}

/// Section 9: fired markers off, melee markers turned; TE recovery for units that did not
/// move (Optional Rules, Disorder/Fatigued); then victory or the next turn.
fn end_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    reset_fire(s);
    works_progress(s, log);
    if s.settings().supply {
        resupply(s, log);
    }
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

/// Constructions chart: each work whose engineers stayed at it all turn grows a turn.
pub fn works_progress(s: &mut State, log: &mut Log) {
    for i in 0..s.units.len() {
        let Some(h) = s.units[i].building else {
            continue;
        };
        let u = &s.units[i];
        if !u.active() || u.routed || s.in_melee(i) || u.fired_turn {
            s.units[i].building = None;
            continue;
        }
        let Some(w) = s.works.at_mut(h) else {
            s.units[i].building = None;
            continue;
        };
        w.progress += 1;
        let (text, done) = (w.text(), w.complete());
        if done {
            s.units[i].building = None;
        }
        s.touch_everything();
        let u = &s.units[i];
        log.add(|| {
            ev_at(
                "build",
                "Constructions",
                format!(
                    "{} works on the {text}{}",
                    u.id,
                    if done { ": finished" } else { "" }
                ),
            )
            .side(u.side)
            .units([&u.id])
        });
    }
}

/// Optional Rules, Supply: a supply wagon within 2 hexes fills a unit up again.
pub fn resupply(s: &mut State, log: &mut Log) {
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if !u.active() || u.supply >= crate::state::FULL_SUPPLY || !u.arm.is_real() {
            continue;
        }
        let wagon = s.units.iter().any(|w| {
            w.side == u.side
                && w.active()
                && w.arm == crate::units::Arm::Wagon
                && w.hex.unsigned_distance_to(u.hex) <= 2
        });
        if !wagon {
            continue;
        }
        s.units[i].supply = crate::state::FULL_SUPPLY;
        s.touch(i);
        let u = &s.units[i];
        log.add(|| {
            ev_at(
                "supply",
                "Optional Rules: Supply",
                format!("{} refills from a wagon: {} supply", u.id, u.supply),
            )
            .side(u.side)
            .units([&u.id])
        });
    }
}

/// Victory points: objectives held (but not the enemy's goals), plus the points of enemy
/// units lost or routed.
pub fn score(s: &State, side: Side) -> i32 {
    let objectives: i32 = s
        .objectives
        .iter()
        .filter(|o| o.holder == Some(side) && o.goal_of.is_none_or(|g| g == side))
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
    // A winner that has since gone (an integrity roll took it off) no longer advances.
    let units = &s.units;
    s.advances
        .retain(|a| units[a.unit].active() && !units[a.unit].routed);
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

/// An action, carried out by the chapter it belongs to, and what follows it at once (a lost
/// supreme commander's rolls, melees that end, an army with nothing left).
pub fn play(s: &mut State, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
    match a {
        HcAction::End => end_phase(s, dice, log),
        HcAction::Fire { unit, target } => fire::apply(s, unit as usize, target, false, dice, log),
        HcAction::GunFire { unit, target } => {
            fire::apply(s, unit as usize, target, true, dice, log)
        }
        HcAction::Melee { unit, target } => melee::declare(s, unit as usize, target, log),
        HcAction::Advance { .. } | HcAction::Hold { .. } => melee::apply_advance(s, a, dice, log),
        HcAction::Face { .. } if s.phase == Phase::Decision => answer(s, a, dice, log),
        HcAction::Points { .. } | HcAction::Consequence { .. } => answer(s, a, dice, log),
        HcAction::Order { brigade, order } => {
            command::write_order(s, brigade as usize, order, dice, log)
        }
        HcAction::Block { arrival, withdraw } => block(s, arrival as usize, withdraw, dice, log),
        _ => movement::apply(s, a, dice, log),
    }
    settle(s, dice, log);
}
