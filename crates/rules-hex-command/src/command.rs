//! Section 2 (command: commanders as symbols, their combat value, death and capture), 2.2
//! (the Command Valuation System: written orders, order changes, decision failures,
//! replacement commanders), section 6 (attaching them) and Rules by Sequence 1–2 (removing
//! commanders, army integrity).

use crate::effects::{self, moving_arm, relocate};
use crate::events::{ev_at, seen_for};
use crate::orders::{HcAction, Sink};
use crate::state::*;
use hex_command_family::cvs::{self, Trait};
use hex_command_family::orders::{Consequence, Order, OrderKind};
use volley_core::geometry::{label, step};
use volley_core::map::Terrain;
use volley_core::{Dice, Hex, Log, Side};

/// Rules by Sequence 1: the phasing player takes back its commanders at the start of its turn
/// (commander pieces stay where they are, 2 d).
pub fn remove_commanders(s: &mut State, side: Side) {
    if s.settings().pieces {
        return;
    }
    let (commanders, units) = (&s.commanders, &mut s.units);
    s.posts.lift(
        |c| commanders[c].side,
        side,
        |_, u| units[u].commander = None,
    );
}

/// An army integrity roll for every unit of `side` (Rules by Sequence 2; hand-out, Break
/// Point): on red a unit falls back `hexes` hexes straight to its rear at once.
pub fn integrity_check(
    s: &mut State,
    side: Side,
    force: Option<u8>,
    distance: Withdrawal,
    why: &str,
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    let section = distance.section();
    log.add(|| {
        ev_at(
            "integrity",
            section,
            format!("{side} checks army integrity: {why}"),
        )
        .side(side)
    });
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if u.side != side
            || !u.active()
            || !u.arm.is_real()
            || u.routed
            || s.in_melee(i)
            || force.is_some_and(|f| u.force != f)
        {
            continue;
        }
        let hexes = distance.hexes(s, i);
        let (r, face) = s.settings().cube.roll(dice);
        let id = u.id.clone();
        if !face.red {
            let seen = seen_for(s, i);
            log.add(|| {
                ev_at(
                    "integrity",
                    section,
                    format!("{id} rolls {r} ({}): holds", face.name()),
                )
                .side(side)
                .units([&id])
                .seen(seen)
            });
            continue;
        }
        let start = s.units[i].hex;
        let moved = withdraw(s, i, hexes, false);
        // A unit under a hidden-movement marker falls back unseen.
        let seen = seen_for(s, i);
        let u = &s.units[i];
        log.add(|| {
            let text = if u.fate == Fate::LeftField {
                format!(
                    "{id} rolls {r} ({}): withdraws off the map and is lost",
                    face.name()
                )
            } else {
                format!(
                    "{id} rolls {r} ({}): withdraws {moved} hex{} from {} to {}",
                    face.name(),
                    if moved == 1 { "" } else { "es" },
                    label(start),
                    label(u.hex)
                )
            };
            ev_at("integrity", section, text)
                .side(side)
                .units([&id])
                .seen(seen)
        });
        if moved > 0 {
            effects::after_move(s, i, log);
        }
    }
}

/// How far a unit that fails an integrity roll goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// A fixed number of hexes (the per-turn check of Rules by Sequence 2).
    Hexes(u8),
    /// Two turns of its own movement (hand-out, Break Point: the supreme commander lost):
    /// infantry 6, cavalry 10, guns twice their limbered rate.
    TwoTurns,
}

impl Withdrawal {
    /// The rule that calls for it.
    fn section(self) -> &'static str {
        match self {
            Withdrawal::Hexes(_) => "Rules by Sequence 2",
            Withdrawal::TwoTurns => "Hand-out: Break Point",
        }
    }

    fn hexes(self, s: &State, i: usize) -> u8 {
        match self {
            Withdrawal::Hexes(n) => n,
            Withdrawal::TwoTurns => {
                let u = &s.units[i];
                // Unlimbered guns go at the pace of their teams: the limbered rate.
                2 * moving_arm(u).movement(s.settings().limbered_rate)
            }
        }
    }
}

/// A unit goes up to `hexes` hexes towards the rear — along the side's Route of Retreat when
/// it has one, else straight back — stopping at anything in the way; off the map it is lost.
/// With `to_cover` it stops in the first hex that gives cover (2.2.2, results 6 and 7).
/// Returns the hexes gone.
pub fn withdraw(s: &mut State, i: usize, hexes: u8, to_cover: bool) -> u8 {
    let mut moved = 0;
    for _ in 0..hexes {
        let here = s.units[i].hex;
        let h = match crate::effects::retreat_step(s, i) {
            Some(h) => h,
            None => step(here, s.units[i].facing.opposite()),
        };
        if !s.map().contains(h) {
            effects::leave_field(s, i);
            break;
        }
        let arm = moving_arm(&s.units[i]);
        let ground = s.ground();
        if !crate::units::may_stand(arm, ground.terrain(h), ground.elevation(h))
            || s.unit_at(h).is_some()
            || s.guns_at(h).is_some()
        {
            break;
        }
        relocate(s, i, h);
        s.units[i].moved_this_turn = true;
        moved += 1;
        if to_cover && gives_cover(s, h) {
            break;
        }
    }
    moved
}

fn gives_cover(s: &State, h: Hex) -> bool {
    matches!(
        s.ground().terrain(h),
        Terrain::Woods | Terrain::LightWoods | Terrain::Town | Terrain::Fort
    ) || s.ground().quick_works(h)
}

/// Pending consequences of a supreme commander's loss, rolled as soon as it happens.
pub fn settle_supreme_losses(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    for side in Side::BOTH {
        let lost = (0..s.commanders.len()).any(|c| {
            let cmd = &s.commanders[c];
            cmd.side == side && cmd.supreme && !s.posts.in_game(c)
        });
        if lost && !s.sides[side.index()].supreme_checked {
            s.sides[side.index()].supreme_checked = true;
            integrity_check(
                s,
                side,
                None,
                Withdrawal::TwoTurns,
                "its supreme commander is lost; units on red withdraw two turns' march",
                dice,
                log,
            );
            mark_checked(s, side);
        }
    }
}

/// A major integrity check marks the side's forces on the field: reinforcements arriving
/// afterwards form a force of their own (Rules by Sequence 2).
pub fn mark_checked(s: &mut State, side: Side) {
    for f in s.forces.iter_mut().filter(|f| f.side == side) {
        f.checked = true;
    }
}

/// Rules by Sequence 2, at the start of a side's player turn: each of its forces checks
/// integrity while its losses have reached the break point, while 30% or less of it is left,
/// or when every commander of the side is lost.
pub fn integrity_step(s: &mut State, side: Side, dice: &mut dyn Dice, log: &mut Log) {
    let all_lost = s.commanders.iter().any(|c| c.side == side)
        && (0..s.commanders.len())
            .filter(|&c| s.commanders[c].side == side && !s.commanders[c].waiting)
            .all(|c| !s.posts.in_game(c));
    for f in 0..s.forces.len() {
        if s.forces[f].side != side {
            continue;
        }
        let lost = s.force_losses(f);
        let bp = s.forces[f].break_point;
        let why = if all_lost {
            "every commander of the army is lost".to_string()
        } else if lost >= 70.0 {
            format!("losses {lost:.0}%: 30% or less of the force is left")
        } else if lost >= bp {
            format!("losses {lost:.0}% have reached the break point of {bp:.0}%")
        } else {
            continue;
        };
        let why = format!("{}: {why}", s.forces[f].name);
        integrity_check(
            s,
            side,
            Some(f as u8),
            Withdrawal::Hexes(3),
            &why,
            dice,
            log,
        );
        s.forces[f].checked = true;
    }
}

// --- Written orders (2.2.1, 2.2.2) ------------------------------------------------------------

/// How many order changes a brigade may still attempt: the scenario's limit, or its deciding
/// commander's Initiative (2.2.1).
pub fn changes_left(s: &State, b: usize) -> u8 {
    let brigade = &s.brigades[b];
    let limit = brigade.changes_limit.unwrap_or_else(|| {
        s.deciding_commander(b)
            .map_or(0, |c| cvs::order_changes(&s.commanders[c].traits()))
    });
    limit.saturating_sub(brigade.changes_made)
}

/// Brigades of the phasing side that may try for a new order this turn.
fn may_change(s: &State, b: usize) -> bool {
    let br = &s.brigades[b];
    s.settings().orders
        && br.side == s.phasing()
        && br.tried_turn != Some(s.turn)
        && changes_left(s, b) > 0
        && s.deciding_commander(b).is_some()
        && s.units
            .iter()
            .any(|u| u.brigade == Some(b as u16) && u.active() && !u.routed)
}

pub fn has_orders_to_write(s: &State) -> bool {
    (0..s.brigades.len()).any(|b| may_change(s, b))
}

/// The new orders a player is offered (Sequence of Play 3): attack, march to or hold each
/// objective and each enemy unit it can see, hold where the brigade stands, withdraw towards
/// its Route of Retreat, or go into reserve. Any other hex may be written in the notation.
pub fn legal_orders(s: &State, out: &mut impl Sink) {
    for b in 0..s.brigades.len() {
        if !may_change(s, b) {
            continue;
        }
        let side = s.brigades[b].side;
        let mut hexes: Vec<Hex> = s.objectives.iter().map(|o| o.hex).collect();
        hexes.extend(
            s.units
                .iter()
                .enumerate()
                .filter(|(k, u)| {
                    u.side != side && u.active() && u.arm.is_real() && s.visible_to(*k, side)
                })
                .map(|(_, u)| u.hex),
        );
        let own: Vec<Hex> = s
            .units
            .iter()
            .filter(|u| u.brigade == Some(b as u16) && u.active())
            .map(|u| u.hex)
            .collect();
        hexes.sort_unstable_by_key(|h| (h.x, h.y));
        hexes.dedup();
        let brigade = b as u16;
        for &hex in &hexes {
            for kind in [OrderKind::Attack, OrderKind::March, OrderKind::Hold] {
                out.put(HcAction::Order {
                    brigade,
                    order: Order {
                        kind,
                        hex: Some(hex),
                    },
                });
            }
        }
        if let Some(&h) = own.first() {
            if !hexes.contains(&h) {
                out.put(HcAction::Order {
                    brigade,
                    order: Order {
                        kind: OrderKind::Hold,
                        hex: Some(h),
                    },
                });
            }
        }
        if let Some(&edge) = s.sides[side.index()].retreat.last() {
            out.put(HcAction::Order {
                brigade,
                order: Order {
                    kind: OrderKind::Withdraw,
                    hex: Some(edge),
                },
            });
        }
        out.put(HcAction::Order {
            brigade,
            order: Order::reserve(),
        });
    }
}

/// Whether a written order is one the brigade may try now (any hex of the map will do).
pub fn order_allowed(s: &State, b: usize, order: Order) -> bool {
    b < s.brigades.len()
        && may_change(s, b)
        && order.hex.is_none_or(|h| s.map().contains(h))
        && order.hex.is_some() == order.kind.has_hex()
}

/// 2.2.2: trying a new order: the deciding commander tests Tactical; passing, the brigade has
/// it at once (and whatever a failed decision left it doing is over); failing, a d10 on the
/// decision-failure table — a 9 is the opponent's choice.
pub fn write_order(s: &mut State, b: usize, order: Order, dice: &mut dyn Dice, log: &mut Log) {
    s.touch_everything();
    let c = s.deciding_commander(b).expect("a brigade with a commander");
    let traits = s.commanders[c].traits();
    s.brigades[b].changes_made += 1;
    s.brigades[b].tried_turn = Some(s.turn);
    let t = cvs::test(&traits, Trait::Tactical, dice);
    let (br, cmd) = (&s.brigades[b], &s.commanders[c]);
    log.add(|| {
        ev_at(
            "order",
            "2.2.2",
            format!(
                "{} tries a new order for {} ({}): {}",
                cmd.name,
                br.name,
                order.text(),
                t.text()
            ),
        )
        .side(br.side)
    });
    if t.passed {
        if s.settings().pieces {
            // 2 d: with commanders as pieces the order goes by courier, from the commander.
            if let Some(hex) = s.commander_hex(c) {
                let side = s.brigades[b].side;
                s.couriers.push(Courier {
                    side,
                    brigade: b,
                    order,
                    hex,
                });
                let (br, cmd) = (&s.brigades[b], &s.commanders[c]);
                log.add(|| {
                    ev_at(
                        "courier",
                        "2 d",
                        format!(
                            "a courier rides from {} at {} with {}'s new order",
                            cmd.name,
                            label(hex),
                            br.name
                        ),
                    )
                    .side(side)
                    .seen(volley_core::Seen::only(side))
                });
                deliver_orders(s, side, log);
                return;
            }
        }
        let br = &mut s.brigades[b];
        br.order = Some(order);
        br.standing = Default::default();
        return;
    }
    let d = dice.roll(10);
    let consequence = Consequence::from_d10(d);
    let br = &s.brigades[b];
    log.add(|| {
        ev_at(
            "decision",
            "2.2.2",
            format!(
                "{} fails to change its order: d10 {d}: {}",
                br.name,
                crate::state::consequence_text(consequence)
            ),
        )
        .side(br.side)
    });
    if consequence == Consequence::OpponentsChoice {
        s.decisions.push(Decision::Consequence { brigade: b });
        s.resume = Resume::Phase(s.phase);
        s.phase = Phase::Decision;
        return;
    }
    apply_consequence(s, b, consequence, log);
}

/// The opponent's pick on a 9.
pub fn choose_consequence(s: &mut State, b: usize, number: u8, log: &mut Log) {
    s.decisions.remove(0);
    let c = Consequence::from_d10(number as u32);
    let br = &s.brigades[b];
    log.add(|| {
        ev_at(
            "decision",
            "2.2.2",
            format!(
                "{} chooses result {} for {}",
                br.side.other(),
                crate::state::consequence_text(c),
                br.name
            ),
        )
        .side(br.side.other())
    });
    apply_consequence(s, b, c, log);
}

/// The consequence choices put to the opponent.
pub fn legal_consequences(b: usize, out: &mut impl Sink) {
    for c in Consequence::choices() {
        out.put(HcAction::Consequence {
            brigade: b as u16,
            number: c.number(),
        });
    }
}

/// What a decision failure does to a brigade (2.2.2, results 1–8 and 10).
pub fn apply_consequence(s: &mut State, b: usize, c: Consequence, log: &mut Log) {
    s.touch_everything();
    let members: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].brigade == Some(b as u16) && s.units[i].active())
        .collect();
    let turn = s.turn;
    let st = &mut s.brigades[b].standing;
    if c.halts() {
        st.halted_turn = Some(turn);
    }
    match c {
        Consequence::Timid => st.timid = true,
        // Hold until a new order comes: in place, as in reserve.
        Consequence::Hold | Consequence::FallBack | Consequence::FallBackDisorder => {
            s.brigades[b].order = Some(Order::reserve());
        }
        _ => {}
    }
    let (te, hits) = c.damage();
    for &i in &members {
        if c.falls_back() && !s.units[i].routed && !s.in_melee(i) {
            // About face and fall back towards the rear until in cover (a full move).
            s.touch(i);
            let hexes = effects::allowance(s, &s.units[i]);
            let from = s.units[i].hex;
            let gone = withdraw(s, i, hexes, true);
            if s.units[i].active() {
                s.touch(i);
                s.units[i].facing = s.units[i].facing.opposite();
            }
            let u = &s.units[i];
            log.add(|| {
                ev_at(
                    "fall back",
                    "2.2.2",
                    format!(
                        "{} about-faces and falls back {gone} hex{} from {} to {}",
                        u.id,
                        if gone == 1 { "" } else { "es" },
                        label(from),
                        label(u.hex)
                    ),
                )
                .side(u.side)
                .units([&u.id])
            });
            if gone > 0 && s.units[i].active() {
                effects::after_move(s, i, log);
            }
        }
        if te > 0 && s.units[i].active() {
            effects::add_te(s, i, te, "decision failure", "2.2.2", log);
        }
        if hits > 0 && s.units[i].active() {
            effects::apply_hits(s, i, hits, "a decision failure", log);
        }
    }
}

/// 2.2.2, result 3: a timid brigade tests Aggressiveness at the start of its side's turn.
pub fn timid_tests(s: &mut State, side: Side, dice: &mut dyn Dice, log: &mut Log) {
    for b in 0..s.brigades.len() {
        if s.brigades[b].side != side || !s.brigades[b].standing.timid {
            continue;
        }
        let Some(c) = s.deciding_commander(b) else {
            continue;
        };
        let t = cvs::test(&s.commanders[c].traits(), Trait::Aggressiveness, dice);
        if t.passed {
            s.brigades[b].standing.timid = false;
            s.touch_everything();
        }
        let br = &s.brigades[b];
        log.add(|| {
            ev_at(
                "timid",
                "2.2.2",
                format!(
                    "{} tests its nerve: {}{}",
                    br.name,
                    t.text(),
                    if t.passed {
                        "; it may advance again"
                    } else {
                        "; still timid"
                    }
                ),
            )
            .side(br.side)
        });
    }
}

/// 2.2.3: when a commander is lost, the force rolls a d10 against the Tactical value of its
/// best remaining commander; higher brings a replacement, rated by a fresh roll on the chart.
pub fn replacements(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    if s.settings().cvs == Cvs::Off {
        return;
    }
    for c in 0..s.commanders.len() {
        let cmd = &s.commanders[c];
        if s.posts.in_game(c) || cmd.replacement_rolled {
            continue;
        }
        let side = cmd.side;
        s.commanders[c].replacement_rolled = true;
        let best = (0..s.commanders.len())
            .filter(|&x| s.commanders[x].side == side && s.commander_ready(x))
            .map(|x| s.commanders[x].traits().tactical)
            .min();
        let Some(best) = best else { continue };
        let t = cvs::replacement_test(best, dice);
        let name = s.commanders[c].name.clone();
        log.add(|| {
            ev_at(
                "replacement",
                "2.2.3",
                format!("{side} seeks a replacement for {name}: {}", t.text()),
            )
            .side(side)
        });
        if !t.passed {
            continue;
        }
        let grade = cvs::GradeSource::Rolled;
        let (traits, how) = cvs::generate(&grade, dice);
        let mut new = s.commanders[c].clone();
        new.id = format!("{}+", new.id).as_str().into();
        new.name = format!("{} (replacement)", name).as_str().into();
        new.value = traits.combat as i32;
        new.traits = Some(traits);
        new.replacement_rolled = false;
        new.hex = s.commanders[c].hex.or_else(|| {
            s.units
                .iter()
                .find(|u| u.side == side && u.active() && !u.routed)
                .map(|u| u.hex)
        });
        log.add(|| {
            ev_at(
                "replacement",
                "2.2.3",
                format!("{} takes command: {how}", new.name),
            )
            .side(side)
        });
        // The new commander takes over the lost one's brigades.
        let (old, fresh) = (s.commanders[c].id.clone(), new.id.clone());
        for b in s
            .brigades
            .iter_mut()
            .filter(|b| b.commander.as_ref() == Some(&old))
        {
            b.commander = Some(fresh.clone());
        }
        s.commanders.push(new);
        s.posts.at.push(None);
        s.posts.fallen.push(None);
        s.touch_everything();
    }
}

/// Optional Rules, Tribes and Light Infantry: at the start, each unit the scenario marks
/// tribal tests its commander's Tactical; one that fails will not close with fresh enemies.
/// As written a test fails by rolling higher than Tactical; the `tribal_test = "cvs"` option
/// reads it as every other CVS test (failing by not rolling higher).
pub fn tribal_tests(s: &mut State, dice: &mut dyn Dice, log: &mut Log) {
    let fail_high = s.settings().tribal_fail_high;
    for i in 0..s.units.len() {
        let u = &s.units[i];
        if !u.tribal || !u.arm.is_real() {
            continue;
        }
        let side = u.side;
        // The unit's brigade commander, else the side's best.
        let c = u
            .brigade
            .and_then(|b| s.deciding_commander(b as usize))
            .or_else(|| {
                s.commanders
                    .iter()
                    .enumerate()
                    .filter(|&(k, c)| c.side == side && s.commander_ready(k))
                    .min_by_key(|(_, c)| c.traits().tactical)
                    .map(|(k, _)| k)
            });
        let Some(c) = c else { continue };
        let t = cvs::test(&s.commanders[c].traits(), Trait::Tactical, dice);
        let failed = if fail_high { t.passed } else { !t.passed };
        s.units[i].reluctant = failed;
        let u = &s.units[i];
        log.add(|| {
            ev_at(
                "tribes",
                "Optional Rules: Tribes and Light Infantry",
                format!(
                    "{} checks its will: d10 {} against Tactical {}: {}",
                    u.id,
                    t.roll,
                    t.value,
                    if failed {
                        "fails; it will not close with fresh enemies"
                    } else {
                        "holds"
                    }
                ),
            )
            .side(u.side)
            .units([&u.id])
        });
    }
}

/// How far a courier rides in a turn: cavalry speed (2 d).
pub const COURIER_SPEED: u32 = 5;

/// 2 d: couriers of `side` ride towards their brigades at the start of its turn, up to
/// cavalry speed over any ground; one that reaches a unit of its brigade (or the hex beside
/// it) hands over the order.
pub fn ride_couriers(s: &mut State, side: Side, log: &mut Log) {
    for k in 0..s.couriers.len() {
        if s.couriers[k].side != side {
            continue;
        }
        for _ in 0..COURIER_SPEED {
            let Some(target) = brigade_nearest(s, k) else {
                break;
            };
            let here = s.couriers[k].hex;
            if here.unsigned_distance_to(target) <= 1 {
                break;
            }
            let next = volley_core::geometry::Facing::ALL
                .into_iter()
                .map(|f| step(here, f))
                .filter(|&h| s.map().contains(h))
                .min_by_key(|h| h.unsigned_distance_to(target));
            match next {
                Some(h) => s.couriers[k].hex = h,
                None => break,
            }
        }
    }
    deliver_orders(s, side, log);
}

/// The hex of the brigade's unit nearest courier `k`.
fn brigade_nearest(s: &State, k: usize) -> Option<Hex> {
    let c = &s.couriers[k];
    s.units
        .iter()
        .filter(|u| u.brigade == Some(c.brigade as u16) && u.active())
        .map(|u| u.hex)
        .min_by_key(|h| h.unsigned_distance_to(c.hex))
}

/// Couriers of `side` at (or beside) their brigade hand over their orders.
fn deliver_orders(s: &mut State, side: Side, log: &mut Log) {
    let mut k = 0;
    while k < s.couriers.len() {
        let arrived = s.couriers[k].side == side
            && brigade_nearest(s, k)
                .is_some_and(|h| h.unsigned_distance_to(s.couriers[k].hex) <= 1);
        if !arrived {
            k += 1;
            continue;
        }
        let c = s.couriers.remove(k);
        s.touch_everything();
        let br = &mut s.brigades[c.brigade];
        br.order = Some(c.order);
        br.standing = Default::default();
        let br = &s.brigades[c.brigade];
        log.add(|| {
            ev_at(
                "courier",
                "2 d",
                format!(
                    "the courier reaches {}: its order is now {}",
                    br.name,
                    c.order.text()
                ),
            )
            .side(side)
            .seen(volley_core::Seen::only(side))
        });
    }
}
