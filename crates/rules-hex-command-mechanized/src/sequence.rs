//! The sequence of play (M15–M22): the initiative roll opens a game turn (with the
//! activation sequence, each group's own, M18); each activation is a player turn of panic
//! check, spotting, reinforcements and routed units running, then movement, commander
//! placement, the non-phasing side's fire, the phasing side's fire and melee, and Rally Up.
//! Who decides, whether an order is open now, and the order carried out by its chapter.

use crate::aircraft;
use crate::bombard;
use crate::cargo;
use crate::command;
use crate::command_tables;
use crate::effects;
use crate::engineers;
use crate::fire;
use crate::hidden;
use crate::listing;
use crate::melee;
use crate::movement;
use crate::orders::written;
use crate::orders::Order;
use crate::reinforce;
use crate::rout;
use crate::rule;
use crate::state::{State, Step};
use crate::victory;
use volley_core::{Dice, Event, Hex, Log, Outcome, Side};

/// The Initiative a side rolls with (M16): its overall commander's still in the game.
pub(crate) fn overall_initiative(s: &State, side: Side) -> u8 {
    s.commanders
        .iter()
        .enumerate()
        .filter(|(c, cm)| cm.side == side && s.posts.in_game(*c))
        .max_by_key(|(_, cm)| cm.supreme)
        .map_or(crate::state::DEFAULT_INITIATIVE, |(_, cm)| cm.initiative)
}

/// M18's variant: the Initiative a group rolls with — its own commander's (`[[groups]]`)
/// while that commander is in the game, else the overall commander's; with the name.
pub fn group_initiative(s: &State, side: Side, group: u8) -> (String, u8) {
    let own = s
        .group_commanders
        .iter()
        .find(|g| g.side == side && g.group == group)
        .map(|g| g.commander)
        .filter(|&c| s.posts.in_game(c));
    match own {
        Some(c) => (s.commanders[c].id.to_string(), s.commanders[c].initiative),
        None => ("overall".into(), overall_initiative(s, side)),
    }
}

/// Each side's groups this turn, in number order (M18).
pub(crate) fn groups_of(s: &State, side: Side) -> Vec<u8> {
    let mut g: Vec<u8> = (0..s.items.len())
        .filter(|&i| s.items[i].side == side && !s.turn_state[i].gone)
        .filter_map(|i| s.groups[i])
        .collect();
    g.sort_unstable();
    g.dedup();
    g
}

/// M15–M16: the initiative roll opens a game turn; the winner plays first.
pub(crate) fn roll_initiative(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let settings = s.setup.settings;
    let (r, b) = (groups_of(s, Side::Red), groups_of(s, Side::Blue));
    // M18's variant: with each group's own commander, the turn's roll is the first pair's.
    let by_groups = settings.activation && settings.activation_commanders;
    let initiative_of = |g: &State, side: Side, groups: &[u8], k: usize| match groups.get(k) {
        Some(&n) if by_groups => group_initiative(g, side, n).1,
        _ => overall_initiative(g, side),
    };
    let (ri, bi) = (
        initiative_of(s, Side::Red, &r, 0),
        initiative_of(s, Side::Blue, &b, 0),
    );
    let (red_first, rolls) = command_tables::initiative(ri, bi, dice);
    let first = if red_first { Side::Red } else { Side::Blue };
    s.turns.begin(first, Vec::new());
    if settings.activation {
        // M18: each side's groups in number order, the initiative winner's first of
        // each rank.
        let mut schedule = hex_command_family::activation::schedule(
            hex_command_family::activation::Mode::GroupTurns,
            first,
            [&r, &b],
        );
        if settings.activation_pairs {
            // M18's variants: initiative rolled again for every pair of groups after the
            // first (with the overall commanders, or each group's own), the winner's
            // group activating first.
            schedule.clear();
            let groups = [&r, &b];
            for k in 0..r.len().max(b.len()) {
                let both = r.len() > k && b.len() > k;
                let lead = if k > 0 && both {
                    let (ri, bi) = (
                        initiative_of(s, Side::Red, &r, k),
                        initiative_of(s, Side::Blue, &b, k),
                    );
                    let (red_first, rolls) = command_tables::initiative(ri, bi, dice);
                    let lead = if red_first { Side::Red } else { Side::Blue };
                    let (n1, n2) = (r[k], b[k]);
                    let who = |side: Side, n: u8| {
                        if by_groups {
                            format!(" ({})", group_initiative(s, side, n).0)
                        } else {
                            String::new()
                        }
                    };
                    let (w1, w2) = (who(Side::Red, n1), who(Side::Blue, n2));
                    log.add(|| {
                        Event::new(
                            "initiative",
                            rule("M18"),
                            format!("Groups red {n1}{w1} and blue {n2}{w2}: {rolls}; {lead} activates first."),
                        )
                        .side(lead)
                    });
                    lead
                } else {
                    first
                };
                for side in [lead, lead.other()] {
                    if let Some(&g) = groups[side.index()].get(k) {
                        schedule.push(hex_command_family::activation::Activation {
                            side,
                            group: Some(g),
                        });
                    }
                }
            }
        }
        // A side with no group still has its player turn (its floaters fire in it).
        for side in [first, first.other()] {
            if !schedule.iter().any(|a| a.side == side) {
                schedule.push(hex_command_family::activation::Activation { side, group: None });
            }
        }
        s.turns.schedule = schedule;
        for t in &mut s.turn_state {
            t.fired_turn = false;
        }
    }
    fire::note_what_is_seen(s);
    let turn_now = s.turn;
    s.sound.retain(|(_, t, _)| t + 1 >= turn_now);
    let turn = s.turn;
    log.add(|| {
        Event::new(
            "initiative",
            rule("M16"),
            format!("Turn {turn}: {rolls}; {first} has the initiative and plays first."),
        )
        .side(first)
        .opens_turn()
    });
}

/// M20 (1): the phasing side lifts its commanders, checks for panic, and its routed units
/// run (M121); then it moves.
pub(crate) fn begin_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.phasing();
    // The side's first activation of the game turn (always, in A/B play) does what a
    // player turn does once: panic, spotting, reinforcements, routed units running.
    let first_of_side = s.turns.first_activation_of(side);
    for i in 0..s.items.len() {
        let reset = if s.setup.settings.activation {
            s.active(i) || (first_of_side && s.items[i].side == side)
        } else {
            s.items[i].side == side
        };
        let t = &mut s.turn_state[i];
        if reset {
            t.new_move();
            t.meleed = false;
            t.rain_checked = false;
            t.worked = false;
            t.free_will = false;
        }
    }
    let commanders = &s.commanders;
    s.posts.lift(|c| commanders[c].side, side, |_, _| {});
    s.mover = None;
    s.step = Step::Movement;
    s.smoke.retain(|&(_, sq)| sq != side);
    log.add(|| step_event(s));
    if !first_of_side {
        return;
    }
    victory::panic_check(s, dice, log);
    hidden::spotting(s, dice, log);
    s.stood.clear();
    aircraft::aircraft_arrive(s, log);
    reinforce::reinforcements(s, dice, log);
    if s.blocking.is_none() {
        effects::routed_run(s, log);
    }
}

pub(crate) fn step_event(s: &State) -> Event {
    Event::new(
        "phase",
        rule("M20"),
        format!("Turn {}: {}.", s.turn, s.step_name()),
    )
    .side(s.phasing())
}

pub(crate) fn end_step(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.blocking.is_some() {
        reinforce::end_withdrawal(s, dice, log);
        return;
    }
    match s.step {
        Step::Movement => {
            s.mover = None;
            aircraft::finish_flights(s, log);
            s.step = Step::Command;
        }
        Step::Command => begin_fire(s, Step::DefensiveFire),
        Step::DefensiveFire => begin_fire(s, Step::OffensiveFire),
        Step::OffensiveFire => s.step = Step::Melee,
        Step::Melee => {
            aircraft::aircraft_leave(s, log);
            rout::rally_up(s, log);
            hidden::spotting(s, dice, log);
            end_player_turn(s, dice, log);
            return;
        }
    }
    log.add(|| step_event(s));
}

pub(crate) fn begin_fire(s: &mut State, step: Step) {
    for t in &mut s.turn_state {
        t.fired = 0;
    }
    s.step = step;
}

pub(crate) fn end_player_turn(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if let Some(o) = victory::decided(s) {
        finish(s, o, log);
        return;
    }
    victory::note_break_points(s, log);
    if !s.turns.step_on() {
        if s.turn >= s.setup.turn_limit {
            let o = victory::final_outcome(s);
            finish(s, o, log);
            return;
        }
        s.turn += 1;
        roll_initiative(s, dice, log);
    }
    begin_player_turn(s, dice, log);
}

pub(crate) fn finish(s: &mut State, o: Outcome, log: &mut Log) {
    log.add(|| {
        let mut e = Event::new("outcome", rule("M44"), o.reason.clone());
        if let Some(w) = o.winner {
            e = e.side(w);
        }
        e
    });
    s.outcome = Some(o);
}

/// A step of movement (or of a blocker falling back); hidden enemies it runs into fire first.
fn step(s: &mut State, i: usize, to: Hex, reverse: bool, dice: &mut dyn Dice, log: &mut Log) {
    if let movement::Stepped::Ambushed(waiting) = movement::do_step(s, i, to, reverse, dice, log) {
        fire::ambush_fire(s, i, waiting, dice, log);
    }
}

pub(crate) fn carry_out(s: &mut State, order: Order, dice: &mut dyn Dice, log: &mut Log) {
    match order {
        Order::Block { withdraw, .. } => reinforce::do_block(s, withdraw, log),
        Order::Move { item, to } if s.blocking.is_some() => {
            reinforce::face_to_fall_back(s, item, to);
            step(s, item, to, false, dice, log)
        }
        Order::Move { item, to } => step(s, item, to, false, dice, log),
        Order::Reverse { item, to } => step(s, item, to, true, dice, log),
        Order::Face { item, facing } => movement::do_face(s, item, facing, log),
        Order::Place { commander, hex } => movement::do_place(s, commander, hex, log),
        Order::Fire { item, target } => fire::do_fire(s, item, target, dice, log),
        Order::Melee { item, target } => melee::do_melee(s, item, target, dice, log),
        Order::Bombard { item, hex } => bombard::do_bombard(s, item, hex, dice, log),
        Order::Load { item, carrier } => cargo::do_load(s, item, carrier, log),
        Order::Unload { item, hex } => cargo::do_unload(s, item, hex, log),
        Order::Dig { item } => engineers::do_dig(s, item, log),
        Order::Clear { item, hex } => engineers::do_clear(s, item, hex, log),
        Order::Lay { item, hex } => engineers::do_lay(s, item, hex, log),
        Order::Smoke { item, hex } => bombard::do_smoke(s, item, hex, dice, log),
        Order::Strike { aircraft, hex } => aircraft::do_strike(s, aircraft, hex, dice, log),
        Order::Fly { aircraft, to } => aircraft::do_fly(s, aircraft, to, log),
        Order::Intercept { aircraft, target } => {
            aircraft::do_intercept(s, aircraft, target, dice, log)
        }
        Order::Reorder { group, kind, hex } => {
            let o = written(kind, hex).expect("checked: an order");
            command::do_reorder(s, group, o, dice, log)
        }
        Order::FreeWill { item } => command::do_free_will(s, item, dice, log),
        Order::Dismount { item } => cargo::do_dismount(s, item, log),
        Order::Mount { item } => cargo::do_mount(s, item, dice, log),
        Order::Bridge { item, hex } => engineers::do_bridge(s, item, hex, log),
        Order::Retreat { .. } => melee::do_retreat(s, dice, log),
        Order::Stand { .. } => melee::do_stand(s, dice, log),
        Order::End => end_step(s, dice, log),
    }
}

pub(crate) fn perform(s: &mut State, order: Order, dice: &mut dyn Dice, log: &mut Log) {
    carry_out(s, order, dice, log);
    advance(s, dice, log);
}

/// Steps end by themselves when ending them is all that is left.
pub(crate) fn advance(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    loop {
        if s.outcome.is_some() || listing::has_choice(s) {
            return;
        }
        end_step(s, dice, log);
    }
}
