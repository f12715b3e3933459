//! Sections 7.2 (melee), 7.2.1–7.2.3 (several units, joining, zones of control), 7.3 (the
//! melee process and cover), 7.4 (advance after melee), and section 3 / 3.1 (meleeing guns).

use crate::cnc::Face;
use crate::effects::{self, engage, may_melee, relocate};
use crate::events::ev;
use crate::orders::{HcAction, Sink};
use crate::state::*;
use crate::units::{Arm, Class};
use volley_core::geometry::{aspect, front_hexes, in_front_arc, label, Aspect, Facing};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Dice, Hex, Log};

pub fn legal(s: &State, out: &mut impl Sink) {
    for a in 0..s.units.len() {
        unit_melees(s, a, out);
    }
}

/// The melees unit `a` may declare: against visible enemies in its front hexes (7.2).
pub fn unit_melees(s: &State, a: usize, out: &mut impl Sink) {
    let side = s.phasing();
    let u = &s.units[a];
    if u.side != side || !u.active() || u.routed || s.in_melee(a) || !s.activates(a) {
        return;
    }
    for h in front_hexes(u.hex, u.facing) {
        if let Some(d) = s.unit_at(h) {
            // Tribes: a reluctant unit will not melee a fresh enemy.
            let shy = u.reluctant && s.units[d].fresh();
            if s.units[d].side != side && s.visible_to(d, side) && may_melee(s, a, d, u.mp) && !shy
            {
                out.put(HcAction::Melee {
                    unit: a as u16,
                    target: h,
                });
            }
        }
    }
}

pub fn declare(s: &mut State, a: usize, target: Hex, log: &mut Log) {
    let d = s.unit_at(target).expect("legal melee target");
    engage(s, a, d);
    // 7.2: the phasing player names each unit's primary opponent: the one it declares on
    // (for the defender too, unless it already has one).
    s.units[a].primary = Some(d);
    if s.units[d].primary.is_none_or(|p| !s.in_melee_with(d, p)) {
        s.units[d].primary = Some(a);
    }
    let (ua, ud) = (&s.units[a], &s.units[d]);
    log.add(|| {
        ev!(
            "declare",
            "7.2",
            format!(
                "{} {} declares melee against {} {}",
                ua.id, ua.name, ud.id, ud.name
            ),
        )
        .side(ua.side)
        .units([&ua.id, &ud.id])
    });
}

/// The cover a defender fights from, degraded by one for each round already fought
/// (7.3 i); forts are double cover (7.3 a, Melee Forts).
fn melee_cover(s: &State, m: &Melee) -> i32 {
    let map = s.map();
    let (a, d) = (&s.units[m.attacker], &s.units[m.defender]);
    let mut c = match map.terrain(d.hex) {
        Terrain::Woods | Terrain::LightWoods | Terrain::Town => 1,
        Terrain::Fort => 2,
        _ => 0,
    };
    if matches!(
        map.hexside(a.hex, d.hex),
        Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence)
    ) {
        c += 1;
    }
    (c - m.rounds as i32).max(0)
}

/// A unit's melee value against an opponent, with the parts that made it (melee chart).
fn value(s: &State, x: usize, y: usize, cover: i32) -> (i32, Vec<String>) {
    let (ux, uy) = (&s.units[x], &s.units[y]);
    let mut v = ux.melee;
    let mut parts = vec![format!("base {v}")];
    if ux.hits > 0 {
        v -= ux.hits as i32;
        parts.push(format!("-{} hits", ux.hits));
    }
    if ux.fatigued() {
        v -= 1;
        parts.push("-1 fatigued".into());
    }
    let cv = s.commander_value(x);
    if cv > 0 {
        v += cv;
        parts.push(format!("+{cv} commander"));
    }
    if aspect(uy.hex, uy.facing, ux.hex) != Aspect::Front {
        v += 1;
        parts.push("+1 flank/rear".into());
    }
    if cover > 0 {
        v += cover;
        parts.push(format!("+{cover} cover"));
    }
    // A friend beyond the melee plane: another of ours beside or behind the opponent.
    let support = Facing::ALL.into_iter().any(|dir| {
        let h = volley_core::geometry::step(uy.hex, dir);
        s.unit_at(h).is_some_and(|f| {
            let uf = &s.units[f];
            f != x
                && uf.side == ux.side
                && uf.arm.can_melee()
                && !uf.routed
                && !in_front_arc(uy.hex, uy.facing, uf.hex)
        })
    });
    if support {
        v += 1;
        parts.push("+1 friend past the melee plane".into());
    }
    (v, parts)
}

#[derive(Default, Clone, Copy)]
struct Damage {
    hits: u8,
    te: u8,
}

/// One round of every melee in contact (7.3): specials first (guns, skirmishers, wagons,
/// crews), then both sides of each pair roll, and all damage lands together at the end.
pub fn resolve_round(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let mut damage = vec![Damage::default(); s.units.len()];
    let mut winners: Vec<(usize, Hex, bool)> = Vec::new();
    let pairs = s.melees.clone();
    // 7.2: each unit's primary melee: against the opponent the phasing player named, else
    // its first.
    let named: Vec<Option<usize>> = s.units.iter().map(|u| u.primary).collect();
    let primary = |x: usize| {
        named[x]
            .and_then(|p| {
                pairs.iter().position(|m| {
                    (m.attacker == x && m.defender == p) || (m.defender == x && m.attacker == p)
                })
            })
            .or_else(|| {
                pairs
                    .iter()
                    .position(|m| m.attacker == x || m.defender == x)
            })
    };
    let mut points: Vec<(usize, usize)> = Vec::new();
    let cube = s.settings().cube;
    // Where everyone stood when the round began: a loser that routs runs at once, and the
    // hex it vacated is the one the winner may take (7.4).
    let before: Vec<Hex> = s.units.iter().map(|u| u.hex).collect();
    // Gun crews that stepped back from their guns this round: the crew leaves once, and its
    // other attackers have nothing left to fight this round (section 3, Melee and Rout).
    let mut stepped_back: Vec<usize> = Vec::new();
    for (k, m) in pairs.iter().enumerate() {
        let (a, d) = (m.attacker, m.defender);
        if !s.units[a].active() || !s.units[d].active() || s.units[a].routed || s.units[d].routed {
            continue;
        }
        if stepped_back.contains(&d) {
            continue;
        }
        let guns = s.units[d].arm == Arm::Artillery && !s.units[d].is_crew_only();
        if special_defender(s, m, dice, log, &mut damage, &mut winners) {
            if guns && s.units[d].is_crew_only() {
                stepped_back.push(d);
            }
            continue;
        }
        let cover = melee_cover(s, m);
        let (va, pa) = value(s, a, d, 0);
        let (vd, pd) = value(s, d, a, cover);
        let (ra, fa) = cube.roll(dice);
        let (rd, fd) = cube.roll(dice);
        let flank = aspect(s.units[d].hex, s.units[d].facing, s.units[a].hex) != Aspect::Front
            || s.units[d].road_column;
        let mut to_a = Damage::default();
        let mut to_d = Damage::default();
        let result = melee_result(va, vd, fa, fd, &mut to_a, &mut to_d);
        s.units[a].meleed_this_turn = true;
        s.units[d].meleed_this_turn = true;
        // 7.2.1: a unit fighting several enemies hurts only its primary one with hits.
        if primary(a) != Some(k) {
            to_d.te += to_d.hits;
            to_d.hits = 0;
        }
        if primary(d) != Some(k) {
            to_a.te += to_a.hits;
            to_a.hits = 0;
        }
        // Melee Points: the stronger unit's automatic TE hit lands on its primary target; one
        // more opponent of its choice takes another when it fights several.
        let stronger = if va > vd { a } else { d };
        if s.settings().melee_points && va != vd && primary(stronger) == Some(k) {
            let weaker = if va > vd { &mut to_d } else { &mut to_a };
            weaker.te += 1;
            points.push((stronger, if va > vd { d } else { a }));
        }
        if flank {
            to_d.hits *= 2;
            to_d.te *= 2;
        }
        // 2 e: a red star against a unit with a commander falls on the commander instead of
        // one of the hits.
        let mut fallen = Vec::new();
        for (roll, victim, dm) in [(fa, d, &mut to_d), (fd, a, &mut to_a)] {
            if roll.red && roll.star && dm.hits > 0 {
                if let Some(c) = s.units[victim].commander {
                    dm.hits -= 1;
                    fallen.push(c);
                }
            }
        }
        let (ua, ud) = (&s.units[a], &s.units[d]);
        log.add(|| {
            let (ida, idd) = (&ua.id, &ud.id);
            ev!("melee", "7.3",
                format!(
                    "melee {ida} ({va}: {}) against {idd} ({vd}: {}): {ida} rolled {ra} ({}), {idd} rolled {rd} ({}) → {result}{}{}",
                    pa.join(", "),
                    pd.join(", "),
                    fa.name(),
                    fd.name(),
                    if flank { "; doubled on the flanked defender" } else { "" },
                    if fallen.is_empty() { "" } else { "; the red star falls on a commander" }
                ),
            )
            .side(ua.side)
            .units([ida, idd])
        });
        for c in fallen {
            effects::lose_commander(s, c, Fallen::Killed, log);
        }
        for (u, dm) in [(a, to_a), (d, to_d)] {
            damage[u].hits += dm.hits;
            damage[u].te += dm.te;
        }
    }
    // Casualties land at the end of the round of all combatants (7.2).
    for (u, dm) in damage.iter().enumerate() {
        if (dm.hits == 0 && dm.te == 0) || !s.units[u].active() {
            continue;
        }
        let mut hits = dm.hits;
        let mut te = 0;
        for _ in 0..dm.te {
            if s.units[u].te + te >= 3 {
                hits += 1; // a fully fatigued unit takes a casualty instead (fatigue hits)
            } else {
                te += 1;
            }
        }
        effects::add_te(s, u, te, "melee", "7.3", log);
        if hits > 0 {
            effects::apply_hits(s, u, hits, "melee", log);
        }
    }
    for m in s.melees.iter_mut() {
        m.rounds += 1;
    }
    // Melee Points: a stronger unit with other opponents still in contact picks which of them
    // takes one more TE hit.
    for (x, primary_target) in points {
        if !s.units[x].active() || s.units[x].routed {
            continue;
        }
        let candidates: Vec<usize> = s
            .opponents(x)
            .filter(|&o| o != primary_target && s.units[o].active() && !s.units[o].routed)
            .collect();
        if !candidates.is_empty() {
            s.decisions.push(Decision::MeleePoints {
                unit: x,
                candidates,
            });
        }
    }
    finish_melees_from(s, log, winners, Some(&before));
    if !s.decisions.is_empty() {
        s.resume = Resume::MeleeDamage;
        s.phase = Phase::Decision;
        s.touch_everything();
    }
}

/// Melee Points: the chosen opponent takes the stronger unit's second automatic TE hit.
pub fn apply_points(s: &mut State, x: usize, target: Hex, log: &mut Log) {
    s.decisions.remove(0);
    if let Some(t) = s.unit_at(target) {
        let id = s.units[x].id.clone();
        effects::add_te(
            s,
            t,
            1,
            &format!("melee points of {id}"),
            "Optional Rules: Melee Points",
            log,
        );
    }
}

/// The melee chart: who takes what, from the two faces rolled.
fn melee_result(
    va: i32,
    vd: i32,
    fa: Face,
    fd: Face,
    to_a: &mut Damage,
    to_d: &mut Damage,
) -> &'static str {
    if va == vd {
        // Equal values: red deals a hit, blue a TE hit.
        if fa.red {
            to_d.hits += 1
        } else {
            to_d.te += 1
        }
        if fd.red {
            to_a.hits += 1
        } else {
            to_a.te += 1
        }
        return "equal values: each red is a hit, each blue a TE hit";
    }
    let (stronger_red, weaker_red) = if va > vd {
        (fa.red, fd.red)
    } else {
        (fd.red, fa.red)
    };
    let (to_s, to_w) = if va > vd { (to_a, to_d) } else { (to_d, to_a) };
    match (stronger_red, weaker_red) {
        (true, true) => {
            to_s.hits += 1;
            to_w.hits += 1;
            to_w.te += 1;
            "both red: both take a hit and the weaker a TE hit"
        }
        (false, false) => {
            to_w.te += 1;
            "both blue: the weaker takes a TE hit"
        }
        (true, false) => {
            to_w.hits += 1;
            "red by the stronger: the weaker takes a hit"
        }
        (false, true) => {
            to_s.hits += 1;
            "red by the weaker: the stronger takes a hit"
        }
    }
}

/// Defenders that do not fight a melee round: guns (grapeshot, then the crew steps back),
/// skirmishers, wagons and crews without guns. Returns true when the pair was handled.
fn special_defender(
    s: &mut State,
    m: &Melee,
    dice: &mut dyn Dice,
    log: &mut Log,
    damage: &mut [Damage],
    winners: &mut Vec<(usize, Hex, bool)>,
) -> bool {
    let (a, d) = (m.attacker, m.defender);
    let side = s.units[a].side;
    let arm = s.units[d].arm;
    let hex = s.units[d].hex;
    let said = |log: &mut Log, s: &State, text: &dyn Fn(&str, &str) -> String| {
        let (ida, idd) = (&s.units[a].id, &s.units[d].id);
        log.add(|| {
            ev!("melee", "7.2", text(ida, idd))
                .side(side)
                .units([ida, idd])
        });
    };
    if s.units[d].is_crew_only() || arm == Arm::Wagon {
        let what = if arm == Arm::Wagon {
            "wagon is captured"
        } else {
            "crew without guns is cut down"
        };
        said(log, s, &|ida, idd| format!("{idd}'s {what} by {ida}"));
        effects::destroy(s, d, "caught in melee", log);
        winners.push((a, hex, true));
        return true;
    }
    if arm == Arm::MountedInfantry && s.units[d].mounted && s.units[a].arm == Arm::Cavalry {
        said(log, s, &|ida, idd| {
            format!("{idd} is mounted infantry on horseback, engaged by {ida}'s cavalry: it routs")
        });
        effects::rout(s, d, log);
        winners.push((a, hex, true));
        return true;
    }
    if arm == Arm::Skirmishers {
        if s.units[a].arm == Arm::Cavalry || s.settings().skirmisher_contact_removes {
            said(log, s, &|ida, idd| {
                format!("{idd} skirmishers do not melee: caught by {ida}, they are destroyed")
            });
            effects::destroy(s, d, "skirmishers caught in melee", log);
        } else {
            said(log, s, &|ida, idd| {
                format!("{idd} skirmishers do not melee: contacted by {ida}, they rout")
            });
            effects::rout(s, d, log);
        }
        winners.push((a, hex, true));
        return true;
    }
    if arm == Arm::Artillery {
        // 3.1: guns meleed from the front fire one round of grapeshot first; rifled and class C
        // guns must roll red for it to tell.
        if m.rounds == 0
            && in_front_arc(hex, s.units[d].facing, s.units[a].hex)
            && !s.units[d].limbered
        {
            let (ua, ud) = (&s.units[a], &s.units[d]);
            let (ida, idd) = (&ua.id, &ud.id);
            let hit = if ud.class == Class::B {
                log.add(|| {
                    ev!(
                        "grapeshot",
                        "3.1",
                        format!("{idd} fires grapeshot into {ida}: automatic hit"),
                    )
                    .side(ud.side)
                    .units([idd, ida])
                });
                true
            } else {
                let (r, f) = s.settings().cube.roll(dice);
                log.add(|| {
                    ev!("grapeshot", "3.1", format!("{idd} (rifled or class C) fires grapeshot into {ida}: rolled {r} ({}) → {}", f.name(), if f.red { "hit" } else { "no effect" }))
                        .side(ud.side)
                        .units([idd, ida])
                });
                f.red
            };
            if hit {
                damage[a].hits += 1;
            }
        }
        effects::abandon_guns(s, d, s.units[a].hex, log);
        winners.push((a, hex, true));
        return true;
    }
    false
}

/// Ends melees whose units are gone or routed, and lines up the winners' advances (7.4).
pub fn finish_melees(s: &mut State, log: &mut Log) {
    finish_melees_from(s, log, Vec::new(), None);
}

/// As [`finish_melees`]; `before` holds where each unit stood before the round's damage (a
/// loser that routed has already run from the hex it vacated).
fn finish_melees_from(
    s: &mut State,
    log: &mut Log,
    mut winners: Vec<(usize, Hex, bool)>,
    before: Option<&[Hex]>,
) {
    let mut ended = Vec::new();
    s.melees.retain(|m| {
        let over = [m.attacker, m.defender].iter().any(|&u| {
            // A crew that stepped back from its guns this round leaves the melee; one
            // caught away from its guns is fought (and cut down) in the next round.
            !s.units[u].active() || s.units[u].routed || (s.units[u].is_crew_only() && m.rounds > 0)
        });
        if over {
            ended.push(m.clone());
        }
        !over
    });
    for m in ended {
        s.touch(m.attacker);
        s.touch(m.defender);
        for (w, l) in [(m.attacker, m.defender), (m.defender, m.attacker)] {
            let (uw, ul) = (&s.units[w], &s.units[l]);
            if uw.active()
                && !uw.routed
                && !uw.is_crew_only()
                && (!ul.active() || ul.routed || ul.is_crew_only())
            {
                let vacated = ul
                    .guns_at()
                    .filter(|_| ul.active())
                    .or_else(|| before.and_then(|b| b.get(l).copied()))
                    .unwrap_or(ul.hex);
                let infantry_after_cavalry =
                    ul.arm == Arm::Cavalry && matches!(uw.arm, Arm::Infantry | Arm::LightInfantry);
                winners.push((w, vacated, !infantry_after_cavalry));
            }
        }
    }
    for (w, hex, may_move) in winners {
        // Units still locked in another melee cannot advance (7.2.2).
        if s.in_melee(w)
            || !s.units[w].active()
            || s.advances.iter().any(|x| x.unit == w || x.into == hex)
        {
            continue;
        }
        let u = &s.units[w];
        let in_front = front_hexes(u.hex, u.facing).contains(&hex);
        let free = s.unit_at(hex).is_none();
        let may_move = may_move
            && in_front
            && free
            && crate::units::may_stand(u.arm, s.map().terrain(hex), s.map().elevation(hex));
        s.advances.push(Advance {
            unit: w,
            into: hex,
            may_move,
        });
        let u = &s.units[w];
        log.add(|| {
            let text = if may_move {
                format!(
                    "{} wins and must advance into {} or turn instead (7.4)",
                    u.id,
                    label(hex)
                )
            } else {
                format!("{} wins and may turn to face (7.4)", u.id)
            };
            ev!("win", "7.4", text).side(u.side).units([&u.id])
        });
    }
}

pub fn legal_advance(s: &State, out: &mut impl Sink) {
    if let Some(adv) = s.advances.first() {
        let unit = adv.unit as u16;
        for f in Facing::ALL {
            if adv.may_move && s.unit_at(adv.into).is_none() {
                out.put(HcAction::Advance { unit, facing: f });
            }
            out.put(HcAction::Hold { unit, facing: f });
        }
    }
}

pub fn apply_advance(s: &mut State, a: HcAction, dice: &mut dyn Dice, log: &mut Log) {
    let adv = s.advances.remove(0);
    let i = adv.unit;
    match a {
        HcAction::Advance { facing, .. } => {
            let from = s.units[i].hex;
            relocate(s, i, adv.into);
            s.touch(i);
            s.units[i].facing = facing;
            s.units[i].moved_this_turn = true;
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "advance",
                    "7.4",
                    format!(
                        "{} advances {}→{} and faces {facing}",
                        u.id,
                        label(from),
                        label(adv.into)
                    ),
                )
                .side(u.side)
                .units([&u.id])
            });
            effects::guns_entered(s, i, adv.into, dice, log);
            if s.settings().advance_contact_mandatory {
                s.units[i].mp = 0;
                effects::enter_zones(s, i, log);
            }
            effects::after_move(s, i, log);
        }
        HcAction::Hold { facing, .. } => {
            s.touch(i);
            s.units[i].facing = facing;
            let u = &s.units[i];
            log.add(|| {
                ev!(
                    "advance",
                    "7.4",
                    format!(
                        "{} holds its ground and faces {facing} (pursuit by turning, 7.4)",
                        u.id
                    ),
                )
                .side(u.side)
                .units([&u.id])
            });
        }
        _ => unreachable!("not an advance action"),
    }
}
