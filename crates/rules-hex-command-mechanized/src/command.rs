//! Written orders, free will and their failures (M37–M39, M133; option `cvs_orders`). The
//! scenario writes an order for each group (`[[orders]]`: attack, march, hold or withdraw to a
//! hex, or reserve), as the Hex Command family reads them: a unit of the group takes only the
//! steps its order allows and declares melees only where it allows. Changing a group's order
//! needs a d10 above the overall commander's Tactical, at most 10 − Initiative times a battle;
//! a unit may act outside its order for the turn on a d10 above the overall commander's
//! Aggressiveness (a free-will test). A failed test rolls the consequence table (Mechanized
//! 4.5.1) for the group.

use crate::acting;
use crate::effects;
use crate::items::Kind;
use crate::losses;
use crate::orders;
use crate::rule;
use crate::state::{GroupCommander, GroupOrder};
use crate::state::{State, Step};
use hex_command_family::orders::{Consequence, Order as Written, OrderKind};
use serde::Deserialize;
use toml::Spanned;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, ScenarioError, ScenarioSource, Side};

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    orders: Vec<OrderSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrderSpec {
    side: Spanned<String>,
    group: Spanned<u8>,
    order: Spanned<String>,
}

#[derive(Deserialize)]
struct GroupsFile {
    #[serde(default)]
    groups: Vec<GroupSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupSpec {
    side: Spanned<String>,
    group: Spanned<u8>,
    commander: Spanned<String>,
}

/// The scenario's `[[groups]]`, each checked where it stands: a group some unit of the side
/// belongs to, named once, led by a commander of the same side.
pub fn read_groups(
    src: &ScenarioSource,
    commanders: &[crate::state::Commander],
    units: &[(Side, Option<u8>)],
) -> Result<Vec<GroupCommander>, ScenarioError> {
    let f: GroupsFile = src.parse()?;
    let mut out: Vec<GroupCommander> = Vec::new();
    for g in &f.groups {
        let side = src.side(&g.side)?;
        let group = *g.group.get_ref();
        if !units.iter().any(|&(s, n)| s == side && n == Some(group)) {
            return Err(src.error_at(
                g.group.span(),
                format!("no unit of {side} is in group {group} (`group = {group}` on a unit)"),
            ));
        }
        once(
            src,
            out.iter().map(|x| (x.side, x.group)),
            side,
            &g.group,
            "is named twice",
        )?;
        let id = g.commander.get_ref();
        let commander = commanders
            .iter()
            .position(|c| c.id.as_str() == id.as_str())
            .ok_or_else(|| src.error_at(g.commander.span(), format!("no commander \"{id}\"")))?;
        if commanders[commander].side != side {
            return Err(src.error_at(
                g.commander.span(),
                format!("{id} is not a commander of {side}"),
            ));
        }
        out.push(GroupCommander {
            side,
            group,
            commander,
        });
    }
    Ok(out)
}

/// A side's group listed twice in one of the scenario's group tables is refused where it
/// stands (`what` says how: "has two orders").
fn once(
    src: &ScenarioSource,
    mut listed: impl Iterator<Item = (Side, u8)>,
    side: Side,
    group: &Spanned<u8>,
    what: &str,
) -> Result<(), ScenarioError> {
    let n = *group.get_ref();
    if listed.any(|x| x == (side, n)) {
        return Err(src.error_at(group.span(), format!("{side}'s group {n} {what}")));
    }
    Ok(())
}

/// The scenario's written orders, each checked where it stands.
pub fn read(
    src: &ScenarioSource,
    map: &volley_core::map::Map,
) -> Result<Vec<GroupOrder>, ScenarioError> {
    let f: File = src.parse()?;
    let mut out: Vec<GroupOrder> = Vec::new();
    for o in &f.orders {
        let side = src.side(&o.side)?;
        let order = orders::parse_written(o.order.get_ref()).ok_or_else(|| {
            src.error_at(
                o.order.span(),
                format!("cannot read the order \"{}\" (attack, march, hold or withdraw HEX, or reserve)", o.order.get_ref()),
            )
        })?;
        if order.hex.is_some_and(|h| !map.contains(h)) {
            return Err(src.error_at(o.order.span(), "the order's hex is off the map"));
        }
        let group = *o.group.get_ref();
        once(
            src,
            out.iter().map(|x| (x.side, x.group)),
            side,
            &o.group,
            "has two orders",
        )?;
        out.push(GroupOrder {
            side,
            group,
            order,
            timid: false,
            halted_turn: None,
        });
    }
    Ok(out)
}

/// The overall commander of a side still in the game.
fn overall(s: &State, side: Side) -> Option<usize> {
    (0..s.commanders.len())
        .filter(|&c| s.commanders[c].side == side && s.posts.in_game(c))
        .max_by_key(|&c| s.commanders[c].supreme)
}

/// The hexes an order may name: the scenario's objectives (the "objectives to accomplish").
pub fn order_hexes(s: &State) -> Vec<Hex> {
    s.objectives.iter().map(|o| o.hex).collect()
}

pub fn check_reorder<R: Refusal>(s: &State, group: u8, order: Written) -> Result<(), R> {
    if !s.setup.settings.cvs_orders {
        return Err(R::because(|| {
            "written orders are not in play (option cvs_orders)"
        }));
    }
    if s.step != Step::Movement || s.mover.is_some() {
        return Err(R::because(|| {
            "orders are changed at the start of the movement step (M37)"
        }));
    }
    let side = s.deciding();
    let Some(o) = s.orders.iter().find(|o| o.side == side && o.group == group) else {
        return Err(R::because(|| {
            format!("{side} has no order for group {group}")
        }));
    };
    if o.order == order {
        return Err(R::because(|| {
            format!("group {group}'s order is {} already", order.text())
        }));
    }
    if let Some(h) = order.hex {
        if !order_hexes(s).contains(&h) {
            return Err(R::because(|| {
                format!("orders name an objective; {} is none", label(h))
            }));
        }
    }
    let limit = change_limit(s, side);
    if s.order_changes[side.index()] >= limit {
        return Err(R::because(|| {
            format!("{side} has changed its orders {limit} times, its limit (10 − Initiative, M37)")
        }));
    }
    Ok(())
}

fn change_limit(s: &State, side: Side) -> u32 {
    let init = overall(s, side).map_or(crate::state::DEFAULT_INITIATIVE, |c| {
        s.commanders[c].initiative
    });
    10u32.saturating_sub(init as u32)
}

pub fn do_reorder(s: &mut State, group: u8, order: Written, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.deciding();
    s.order_changes[side.index()] += 1;
    let (who, tactical) = overall(s, side).map_or(("no commander".to_string(), 6), |c| {
        (s.commanders[c].id.to_string(), s.commanders[c].tactical)
    });
    let d = dice.roll(10);
    let ok = d > tactical as u32;
    log.add(|| {
        Event::new(
            "orders",
            rule("M37"),
            format!(
                "{side} tries to change group {group}'s order to {}: d10 {d} against {who}'s Tactical {tactical}: {}.",
                order.text(),
                if ok { "the new order gets through" } else { "it fails" }
            ),
        )
        .side(side)
    });
    if ok {
        if let Some(o) = s
            .orders
            .iter_mut()
            .find(|o| o.side == side && o.group == group)
        {
            o.order = order;
        }
    } else {
        consequence(s, side, group, dice, log);
    }
}

pub fn check_free_will<R: Refusal>(s: &State, i: usize) -> Result<(), R> {
    acting::check_may_move::<R>(s, i)?;
    if acting::order_of(s, i).is_none() {
        return Err(R::because(|| {
            format!("{} is bound by no written order", s.item(i).id)
        }));
    }
    if s.turn_state[i].moving {
        return Err(R::because(|| {
            "a free-will test is taken before the unit moves (M38)"
        }));
    }
    Ok(())
}

/// M38: a d10 above the overall commander's Aggressiveness frees the unit of its order
/// (and of timidity) this turn; a failure rolls the consequences for its group.
pub fn do_free_will(s: &mut State, i: usize, dice: &mut dyn Dice, log: &mut Log) {
    let side = s.item(i).side;
    let group = s.groups[i].expect("checked: in a group");
    let (who, agg) = overall(s, side).map_or(("no commander".to_string(), 6), |c| {
        (
            s.commanders[c].id.to_string(),
            s.commanders[c].aggressiveness,
        )
    });
    let d = dice.roll(10);
    let ok = d > agg as u32;
    log.add(|| {
        Event::new(
            "orders",
            rule("M38"),
            format!(
                "{} tests its free will: d10 {d} against {who}'s Aggressiveness {agg}: {}.",
                s.item(i).id,
                if ok {
                    "it acts as it sees fit this turn"
                } else {
                    "it fails"
                }
            ),
        )
        .side(side)
        .units([s.item(i).id.clone()])
    });
    if ok {
        s.turn_state[i].free_will = true;
    } else {
        s.turn_state[i].done = true;
        consequence(s, side, group, dice, log);
    }
}

/// M39 (Mechanized 4.5.1, C22): the consequence table for a group. Markers of results 2, 7
/// and 8 fall on random units (a d6 of 4–6 each), those of 10 on every unit.
fn consequence(s: &mut State, side: Side, group: u8, dice: &mut dyn Dice, log: &mut Log) {
    let d = dice.roll(10);
    let c = Consequence::from_d10_mechanized(d);
    log.add(|| {
        Event::new(
            "orders",
            rule("M39"),
            format!(
                "Consequence d10 {d} for {side}'s group {group}: {}.",
                c.text()
            ),
        )
        .side(side)
    });
    let turn = s.turn;
    if let Some(o) = s
        .orders
        .iter_mut()
        .find(|o| o.side == side && o.group == group)
    {
        if c.halts() {
            o.halted_turn = Some(turn);
        }
        if matches!(c, Consequence::Timid) {
            o.timid = true;
        }
        if matches!(
            c,
            Consequence::Hold | Consequence::FallBack | Consequence::FallBackDisorder
        ) {
            o.order = Written {
                kind: OrderKind::Reserve,
                hex: None,
            };
        }
    }
    let members: Vec<usize> = (0..s.items.len())
        .filter(|&i| s.in_play(i) && s.item(i).side == side && s.groups[i] == Some(group))
        .collect();
    if c.falls_back() {
        for &i in &members {
            effects::run(s, i, log);
            s.turn_state[i].done = true;
        }
    }
    let (disorder, hits) = c.damage();
    if disorder + hits == 0 {
        return;
    }
    for i in members {
        let every = matches!(c, Consequence::Hit);
        if !every && dice.roll(6) < 4 {
            continue;
        }
        if let Kind::Squad(_) = s.item(i).kind {
            let (r, text) = losses::hit_squad(&mut s.items[i], 1);
            log.add(|| Event::new("hit", rule("M39"), format!("{text}.")).side(side));
            effects::after_loss(s, i, r, log);
        }
    }
}
