//! Section 5 (movement, facing, zone of control, stacking, obstacles, roads and terrain,
//! buildings), the artillery movement of section 3, and section 6 (attaching commanders).

use crate::actions::HcAction;
use crate::events::{ev, seen_for};
use crate::melee;
use crate::scenario::may_stand;
use crate::state::*;
use crate::units::Arm;
use volley_core::geometry::{col_row, front_hexes, label, step, Facing};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Event, Hex, Side};

/// The arm a unit moves as: a gun crew without its guns walks like infantry.
fn moving_arm(u: &Unit) -> Arm {
    if u.is_crew_only() {
        Arm::Infantry
    } else {
        u.arm
    }
}

/// Movement allowance at the start of a phase (movement chart; a fatigued unit creeps one hex).
pub fn allowance(s: &State, u: &Unit) -> u8 {
    let rate = moving_arm(u).movement(s.settings().limbered_rate);
    if u.fatigued() {
        rate.min(1)
    } else {
        rate
    }
}

/// Whether a unit can make voluntary moves at all now.
fn can_act(s: &State, i: usize) -> bool {
    let u = &s.units[i];
    u.active() && u.side == s.phasing() && !u.routed && !s.in_melee(i)
}

/// The directions a unit may step in: straight ahead, or obliquely when that option is on
/// (5 d, 5 e: never backwards). Decoy plates go where they like.
fn step_directions(s: &State, u: &Unit) -> Vec<Facing> {
    if u.arm == Arm::Decoy {
        Facing::ALL.to_vec()
    } else if s.settings().oblique {
        vec![u.facing.turn(-1), u.facing, u.facing.turn(1)]
    } else {
        vec![u.facing]
    }
}

/// Terrain that a unit of this arm may enter from `from` (5.5 b, section 3 Woods, rivers).
fn terrain_allows(s: &State, arm: Arm, from: Hex, to: Hex) -> bool {
    let map = s.map();
    let Some(cell) = map.cell(to) else {
        return false;
    };
    let road = map.road_between(from, to);
    let from_t = map.terrain(from);
    match arm {
        // Cavalry enter and leave normal forest only along a road (5.5 b).
        Arm::Cavalry if cell.terrain == Terrain::Woods || from_t == Terrain::Woods => road,
        // Guns enter woods only by road or from a clear hex; never woods to woods (section 3).
        Arm::Artillery | Arm::Wagon
            if cell.terrain == Terrain::Woods && !road && from_t != Terrain::Clear =>
        {
            false
        }
        _ => may_stand(arm, cell.terrain, cell.elevation),
    }
}

fn enemy_zoc_here(s: &State, side: Side, hex: Hex) -> Vec<usize> {
    (0..s.units.len())
        .filter(|&e| s.units[e].side != side && s.units[e].arm.is_real() && s.in_zoc_of(e, hex))
        .collect()
}

/// Who stands where and whose zones of control cover which hexes, gathered once for a
/// listing of legal moves instead of scanning every unit for every step considered.
pub(crate) struct Board {
    width: i32,
    height: i32,
    /// Per map cell: the unit standing there, plus one (0: nobody).
    units: Vec<u16>,
    /// Per map cell: the unit whose abandoned guns stand there, plus one.
    guns: Vec<u16>,
    /// Per map cell: the first link of its list of zones of control, plus one.
    zone_head: Vec<u32>,
    /// Links: the next link plus one (0: the end), and the unit whose zone it is.
    zone_links: Vec<(u32, u16)>,
}

impl Board {
    pub(crate) fn new(s: &State) -> Board {
        let map = s.map();
        let cells = (map.width * map.height).max(0) as usize;
        let mut b = Board {
            width: map.width,
            height: map.height,
            units: vec![0; cells],
            guns: vec![0; cells],
            zone_head: vec![0; cells],
            zone_links: Vec::with_capacity(3 * s.units.len()),
        };
        for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
            if let Some(c) = b.cell(u.hex) {
                if b.units[c] == 0 {
                    b.units[c] = i as u16 + 1;
                }
            }
            if let Some(c) = u.guns_at.and_then(|g| b.cell(g)) {
                if b.guns[c] == 0 {
                    b.guns[c] = i as u16 + 1;
                }
            }
            if u.arm.is_real() && s.has_zoc(i) {
                for h in front_hexes(u.hex, u.facing) {
                    if let Some(c) = b.cell(h) {
                        b.zone_links.push((b.zone_head[c], i as u16));
                        b.zone_head[c] = b.zone_links.len() as u32;
                    }
                }
            }
        }
        b
    }

    fn cell(&self, hex: Hex) -> Option<usize> {
        let (c, r) = col_row(hex);
        (c >= 1 && r >= 1 && c <= self.width && r <= self.height)
            .then(|| ((r - 1) * self.width + (c - 1)) as usize)
    }

    /// As [`State::unit_at`] (nobody stands off the map).
    fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.cell(hex)
            .and_then(|c| self.units[c].checked_sub(1))
            .map(usize::from)
    }

    /// As [`State::guns_at`].
    fn guns_at(&self, hex: Hex) -> Option<usize> {
        self.cell(hex)
            .and_then(|c| self.guns[c].checked_sub(1))
            .map(usize::from)
    }

    /// The units not of `side` whose zone of control covers `hex` (as `enemy_zoc_here`).
    fn enemy_zones<'a>(
        &'a self,
        s: &'a State,
        side: Side,
        hex: Hex,
    ) -> impl Iterator<Item = usize> + 'a {
        let mut link = self.cell(hex).map_or(0, |c| self.zone_head[c]);
        std::iter::from_fn(move || {
            let (next, unit) = *self.zone_links.get(link.checked_sub(1)? as usize)?;
            link = next;
            Some(usize::from(unit))
        })
        .filter(move |&e| s.units[e].side != side)
    }
}

/// Whether a step into `to` is open to unit `i` as its side knows the map: hexes with units
/// it can see, and zones of control of enemies it can see, are judged here; unseen enemies
/// are discovered when the move is made.
fn step_open(s: &State, board: &Board, i: usize, from: Hex, to: Hex) -> bool {
    let u = &s.units[i];
    let arm = moving_arm(u);
    if !terrain_allows(s, arm, from, to) {
        return false;
    }
    if let Some(o) = board.unit_at(to) {
        if s.visible_to(o, u.side) || s.units[o].side == u.side {
            return false;
        }
        // An unseen enemy or a plate: the step is allowed and becomes a bump.
    }
    if let Some(g) = board.guns_at(to) {
        let own_guns = g == i;
        let capture = s.units[g].side != u.side && arm.can_melee();
        if !own_guns && !capture {
            return false;
        }
    }
    if !arm.can_melee()
        && board
            .enemy_zones(s, u.side, to)
            .any(|e| s.visible_to(e, u.side))
    {
        return false;
    }
    true
}

pub fn legal(s: &State, out: &mut Vec<HcAction>) {
    legal_commanders(s, out);
    let board = Board::new(s);
    for i in 0..s.units.len() {
        unit_moves(s, &board, i, out);
    }
}

/// Attaching a ready commander to a unit of the phasing side.
pub(crate) fn legal_commanders(s: &State, out: &mut Vec<HcAction>) {
    let side = s.phasing();
    for (ci, c) in s.commanders.iter().enumerate() {
        if c.side != side || c.status != CommanderStatus::Ready || c.attached.is_some() {
            continue;
        }
        for (i, u) in s.units.iter().enumerate() {
            if u.side == side
                && u.active()
                && u.arm.is_real()
                && u.commander.is_none()
                && !u.is_crew_only()
                && !(u.routed && u.routed_turn == s.turn)
            {
                out.push(HcAction::Attach {
                    commander: ci as u16,
                    unit: i as u16,
                });
            }
        }
    }
}

/// The movement actions of one unit (everything but attaching commanders).
pub(crate) fn unit_moves(s: &State, board: &Board, i: usize, out: &mut Vec<HcAction>) {
    if !can_act(s, i) {
        return;
    }
    let u = &s.units[i];
    let unit = i as u16;
    let heavy_fired = u.heavy && u.fired_turn;
    let may_walk =
        u.mp > 0 && !(u.arm == Arm::Artillery && !u.is_crew_only() && !u.limbered) && !heavy_fired;
    if may_walk {
        for dir in step_directions(s, u) {
            let to = step(u.hex, dir);
            if step_open(s, board, i, u.hex, to) {
                out.push(HcAction::Move { unit, to });
            } else if u.arm == Arm::LightInfantry && u.mp >= 2 {
                // 5 f: light infantry pass through one friendly unit.
                let beyond = step(to, dir);
                if let Some(f) = board.unit_at(to) {
                    if s.units[f].side == u.side
                        && terrain_allows(s, Arm::LightInfantry, u.hex, to)
                        && step_open(s, board, i, to, beyond)
                    {
                        out.push(HcAction::Move { unit, to: beyond });
                    }
                }
            }
        }
    }
    if facing_change_allowed(s, u) {
        for f in Facing::ALL {
            if f != u.facing {
                out.push(HcAction::Face { unit, facing: f });
            }
        }
    }
    if u.arm == Arm::Artillery && !u.is_crew_only() {
        if u.limbered {
            out.push(HcAction::Unlimber { unit });
        } else if !u.stepped && !heavy_fired {
            out.push(HcAction::Limber { unit });
            if !u.heavy && !u.moved_this_turn {
                for dir in step_directions(s, u) {
                    let to = step(u.hex, dir);
                    if push_open(s, board, i, to) {
                        out.push(HcAction::Push { unit, to });
                    }
                }
            }
        }
    }
}

/// 5.1 and the hand-out: once a turn (cavalry twice), at the start or end of a move
/// (cavalry also midway); never while fatigued.
fn facing_change_allowed(s: &State, u: &Unit) -> bool {
    if u.fatigued() || u.facing_changes >= u.arm.facing_changes() {
        return false;
    }
    u.mp >= s.settings().facing_change_cost
}

/// Section 3, Push Move: one hex over open, level, clear ground; not across streams.
fn push_open(s: &State, board: &Board, i: usize, to: Hex) -> bool {
    let u = &s.units[i];
    let map = s.map();
    map.contains(to)
        && map.terrain(to) == Terrain::Clear
        && map.elevation(to) <= map.elevation(u.hex)
        && map.hexside(u.hex, to) != Some(Hexside::Stream)
        && board.unit_at(to).is_none()
        && board.guns_at(to).is_none()
        && board.enemy_zones(s, u.side, to).next().is_none()
}

/// Adds TE hits; the third makes the unit fatigued and stops it (Optional Rules,
/// Disorder/Fatigued). A fatigued unit that takes another in melee takes a casualty hit
/// instead (charts, fatigue hits) — that case is melee's.
pub fn add_te(s: &mut State, i: usize, n: u8, why: &str, section: &str, events: &mut Vec<Event>) {
    if n == 0 {
        return;
    }
    let was = s.units[i].fatigued();
    let u = &mut s.units[i];
    u.te = (u.te + n).min(3);
    let text = format!(
        "{} {} takes {} TE hit{} ({why}): TE {}",
        u.id,
        u.name,
        n,
        if n > 1 { "s" } else { "" },
        u.te
    );
    let side = u.side;
    let id = u.id.clone();
    events.push(
        ev("te", section, text)
            .side(side)
            .units([id.clone()])
            .seen(seen_for(s, i)),
    );
    if !was && s.units[i].fatigued() {
        s.units[i].mp = 0;
        events.push(ev("fatigued", "Optional Rules: Disorder/Fatigued", format!("{id} is fatigued: it stops, cannot turn, loses its zone of control and fights at 1 CP")).side(side).units([id]).seen(seen_for(s, i)));
    }
}

pub fn apply(s: &mut State, a: HcAction, events: &mut Vec<Event>) {
    match a {
        HcAction::Move { unit, to } => move_unit(s, unit as usize, to, events),
        HcAction::Face { unit, facing } => {
            let i = unit as usize;
            let cost = s.settings().facing_change_cost;
            let u = &mut s.units[i];
            let was = u.facing;
            u.facing = facing;
            u.facing_changes += 1;
            u.mp -= cost;
            if u.stepped && u.arm != Arm::Cavalry && u.arm != Arm::Decoy {
                u.mp = 0;
            }
            let text = format!(
                "{} turns from {was} to {facing}{}",
                u.id,
                if cost > 0 { " (1 MP)" } else { "" }
            );
            let (side, id) = (u.side, u.id.clone());
            events.push(
                ev("face", "5.1", text)
                    .side(side)
                    .units([id])
                    .seen(seen_for(s, i)),
            );
            crate::hidden::after_move(s, i, events);
        }
        HcAction::Unlimber { unit } => {
            let i = unit as usize;
            let u = &mut s.units[i];
            u.limbered = false;
            u.unlimbered_after_move = u.moved_this_turn;
            u.mp = 0;
            let note = if u.unlimbered_after_move {
                if s.setup.settings.move_unlimber_fire_next_turn {
                    "; it moved this turn, so it fires next turn"
                } else {
                    "; it moved this turn, so it fires at 1 CP"
                }
            } else {
                ""
            };
            let text = format!("{} unlimbers{note}", u.id);
            let (side, id) = (u.side, u.id.clone());
            events.push(
                ev("unlimber", "3", text)
                    .side(side)
                    .units([id])
                    .seen(seen_for(s, i)),
            );
            add_te(s, i, 1, "unlimbering, movement chart", "3", events);
        }
        HcAction::Limber { unit } => {
            let i = unit as usize;
            let rate = s.settings().limbered_rate;
            let u = &mut s.units[i];
            u.limbered = true;
            u.mp = if u.fatigued() { 1 } else { rate };
            let text = format!("{} limbers up", u.id);
            let (side, id) = (u.side, u.id.clone());
            events.push(
                ev("limber", "3", text)
                    .side(side)
                    .units([id])
                    .seen(seen_for(s, i)),
            );
            add_te(s, i, 1, "limbering, movement chart", "3", events);
        }
        HcAction::Push { unit, to } => {
            let i = unit as usize;
            let from = s.units[i].hex;
            relocate(s, i, to);
            let u = &mut s.units[i];
            u.mp = 0;
            u.stepped = true;
            u.moved_this_turn = true;
            let text = format!("{} is pushed by hand {}→{}", u.id, label(from), label(to));
            let (side, id) = (u.side, u.id.clone());
            events.push(
                ev("push", "3", text)
                    .side(side)
                    .units([id])
                    .seen(seen_for(s, i)),
            );
            add_te(s, i, 1, "pushing the guns, movement chart", "3", events);
            crate::hidden::after_move(s, i, events);
        }
        HcAction::Attach { commander, unit } => {
            let (c, i) = (commander as usize, unit as usize);
            s.commanders[c].attached = Some(i);
            s.units[i].commander = Some(c);
            let text = format!(
                "{} (combat +{}) attaches to {} {}",
                s.commanders[c].name, s.commanders[c].value, s.units[i].id, s.units[i].name
            );
            let side = s.units[i].side;
            let id = s.units[i].id.clone();
            events.push(
                ev("attach", "6", text)
                    .side(side)
                    .units([id])
                    .seen(seen_for(s, i)),
            );
        }
        _ => unreachable!("not a movement action"),
    }
}

/// Moves a unit's counter, keeping objectives' holders up to date.
pub fn relocate(s: &mut State, i: usize, to: Hex) {
    s.units[i].hex = to;
    if s.units[i].arm.is_real() {
        let side = s.units[i].side;
        for o in s.objectives.iter_mut().filter(|o| o.hex == to) {
            o.holder = Some(side);
        }
    }
}

fn move_unit(s: &mut State, i: usize, to: Hex, events: &mut Vec<Event>) {
    let from = s.units[i].hex;
    let side = s.units[i].side;
    let pass_through = from.unsigned_distance_to(to) == 2;
    let first_hex = if pass_through {
        Facing::ALL
            .into_iter()
            .map(|f| step(from, f))
            .find(|&m| m.unsigned_distance_to(to) == 1)
            .expect("a pass-through crosses one hex")
    } else {
        to
    };
    // Bumping into an unseen enemy or a plate stops the move where it is (Hidden Movement).
    if let Some(o) = [first_hex, to]
        .into_iter()
        .filter_map(|h| s.unit_at(h))
        .find(|&o| s.units[o].side != side)
    {
        s.units[i].mp = 0;
        let text = if s.units[o].arm == Arm::Decoy {
            format!(
                "{} finds only a decoy at {}; it is removed",
                s.units[i].id,
                label(s.units[o].hex)
            )
        } else {
            format!(
                "{} runs into {} {} at {} and halts",
                s.units[i].id,
                s.units[o].id,
                s.units[o].name,
                label(s.units[o].hex)
            )
        };
        events.push(
            ev("bump", "Optional Rules: Hidden Movement", text)
                .side(side)
                .units([s.units[i].id.clone()])
                .seen(seen_for(s, i)),
        );
        crate::hidden::reveal(s, o, events);
        return;
    }
    let map = s.map();
    let road =
        map.road_between(from, first_hex) && (!pass_through || map.road_between(first_hex, to));
    let started_here = from == s.units[i].move_start && !s.units[i].stepped;
    let mut te: Vec<(&str, &str)> = Vec::new();
    let mut stop = false;
    let arm = moving_arm(&s.units[i]);
    if arm != Arm::Decoy && !road {
        for (a, b) in [(from, first_hex), (first_hex, to)] {
            if a == b {
                continue;
            }
            if matches!(
                map.hexside(a, b),
                Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence)
            ) && !(started_here && a == from)
            {
                te.push(("crossing an obstacle", "5.4"));
            }
            match map.terrain(b) {
                Terrain::Ford if !(started_here && a == from) => te.push(("wading a ford", "5.4")),
                Terrain::Town => te.push(("entering buildings", "5.6")),
                Terrain::Marsh => te.push(("entering marsh", "5.5")),
                Terrain::Woods if map.terrain(a) != Terrain::Woods => {
                    te.push(("entering forest", "5.5"));
                    stop = true;
                }
                _ => {}
            }
        }
    }
    relocate(s, i, to);
    let u = &mut s.units[i];
    u.mp -= if pass_through { 2 } else { 1 };
    u.stepped = true;
    u.moved_this_turn = true;
    if u.heavy {
        u.heavy_moved_turn = true;
    }
    if u.guns_at == Some(to) {
        u.guns_at = None;
    }
    let text = format!(
        "{} {} moves {}→{} ({} MP left){}",
        u.id,
        u.name,
        label(from),
        label(to),
        u.mp,
        if road { " along the road" } else { "" }
    );
    events.push(
        ev("move", if road { "5.5" } else { "5" }, text)
            .side(side)
            .units([u.id.clone()])
            .seen(seen_for(s, i)),
    );
    if stop {
        s.units[i].mp = 0;
    }
    if let Some(g) = s.guns_at(to).filter(|&g| s.units[g].side != side) {
        melee::capture_guns(s, g, i, events);
    }
    if pass_through {
        let f = s.unit_at(first_hex).expect("pass-through needs a friend");
        add_te(s, i, 1, "passing through a friendly unit", "5 f", events);
        add_te(s, f, 1, "being passed through", "5 f", events);
    }
    for (why, section) in te {
        add_te(s, i, 1, why, section, events);
    }
    enter_zones(s, i, events);
    crate::hidden::after_move(s, i, events);
}

/// 7.2.1: stepping into enemies' front zones halts the mover, which then fights each of
/// those enemies it is able to reach (terrain and slope may rule some out).
pub fn enter_zones(s: &mut State, i: usize, events: &mut Vec<Event>) {
    let u = &s.units[i];
    let hex = u.hex;
    let zones = enemy_zoc_here(s, u.side, hex);
    if zones.is_empty() {
        return;
    }
    let mp_left = u.mp;
    s.units[i].mp = 0;
    let mut engaged = Vec::new();
    for e in zones {
        crate::hidden::reveal(s, e, events);
        if moving_arm(&s.units[i]).can_melee() && melee::may_melee(s, i, e, mp_left) {
            melee::engage(s, i, e);
            engaged.push(format!("{} {}", s.units[e].id, s.units[e].name));
        }
    }
    let u = &s.units[i];
    let text = if engaged.is_empty() {
        format!(
            "{} enters an enemy zone of control at {} and stops",
            u.id,
            label(hex)
        )
    } else {
        format!(
            "{} enters the zone of control of {} at {}: it stops and must melee",
            u.id,
            engaged.join(" and "),
            label(hex)
        )
    };
    events.push(ev("zoc", "7.2.1", text).side(u.side).units([u.id.clone()]));
}

/// Every hex unit `id` can reach this phase by a chain of legal steps, with the fewest
/// movement points spent getting there (for the map's movement overlay).
pub fn reach(s: &State, id: &str) -> Vec<volley_core::Reach> {
    use std::collections::{HashMap, VecDeque};
    let Some(i) = s.units.iter().position(|u| u.id == id) else {
        return Vec::new();
    };
    if s.phase != Phase::Movement || !can_act(s, i) {
        return Vec::new();
    }
    let start_mp = s.units[i].mp;
    let mut best: HashMap<Hex, u32> = HashMap::new();
    let mut queue = VecDeque::from([s.clone()]);
    let mut out = Vec::new();
    while let Some(state) = queue.pop_front() {
        let mut actions = Vec::new();
        legal(&state, &mut actions);
        for a in actions {
            let HcAction::Move { unit, .. } = a else {
                continue;
            };
            if unit as usize != i {
                continue;
            }
            let mut next = state.clone();
            let mut events = Vec::new();
            apply(&mut next, a, &mut events);
            let u = &next.units[i];
            let cost = (start_mp - u.mp.min(start_mp)) as u32;
            if u.hex == state.units[i].hex || best.get(&u.hex).is_some_and(|&c| c <= cost) {
                continue;
            }
            best.insert(u.hex, cost);
            if u.mp > 0 {
                queue.push_back(next);
            }
        }
    }
    for (hex, cost) in best {
        out.push(volley_core::Reach {
            hex: label(hex),
            cost,
        });
    }
    out.sort_by(|a, b| a.hex.cmp(&b.hex));
    out
}
