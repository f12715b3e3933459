//! The legal orders of the side to decide: each item's, the group orders, the aircraft's and
//! the commanders' placements, offered one at a time to whoever asks (the list kept for the
//! position, a count, or the question whether there is a choice at all).

use crate::acting;
use crate::aircraft;
use crate::command;
use crate::hidden;
use crate::items::Kind;
use crate::legal;
use crate::movement;
use crate::orders::Order;
use crate::reinforce;
use crate::state::{State, Step};
use std::ops::ControlFlow;
use volley_core::codec::Codec;
use volley_core::geometry::Facing;
use volley_core::{reach_by_steps, Log, Reach};
use volley_core::{Action, Hex};

/// Every legal order of the side to decide, offered to `take`.
pub(crate) fn each_order(
    s: &State,
    take: &mut impl FnMut(Order) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if !s.started || s.outcome.is_some() {
        return ControlFlow::Continue(());
    }
    if let Some(b) = &s.blocking {
        if !b.answered {
            for withdraw in [false, true] {
                take(Order::Block {
                    arrival: b.arrival,
                    withdraw,
                })?;
            }
            return ControlFlow::Continue(());
        }
        for &i in &b.withdrawing {
            reinforce::fall_back_orders(s, i, take)?;
        }
        return take(Order::End);
    }
    if let Some((_, d)) = s.answer {
        offer(s, Order::Retreat { item: d }, take)?;
        return offer(s, Order::Stand { item: d }, take);
    }
    for i in 0..s.items.len() {
        item_orders(s, i, take)?;
    }
    if s.step == Step::Movement && s.setup.settings.cvs_orders {
        let side = s.deciding();
        let groups: Vec<u8> = s
            .orders
            .iter()
            .filter(|o| o.side == side)
            .map(|o| o.group)
            .collect();
        for group in groups {
            for (k, kind) in hex_command_family::orders::OrderKind::ALL
                .iter()
                .enumerate()
            {
                let hexes: Vec<Option<Hex>> = if kind.has_hex() {
                    command::order_hexes(s).into_iter().map(Some).collect()
                } else {
                    vec![None]
                };
                for hex in hexes {
                    offer(
                        s,
                        Order::Reorder {
                            group,
                            kind: k as u8,
                            hex,
                        },
                        take,
                    )?;
                }
            }
        }
    }
    aircraft::air_orders(s, take)?;
    if s.step == Step::Command {
        for c in 0..s.posts.at.len() {
            for i in 0..s.items.len() {
                if s.in_play(i) {
                    let hex = s.item(i).hex;
                    // Each hex once, at its first item.
                    if s.items_at(hex).next() == Some(i) {
                        offer(s, Order::Place { commander: c, hex }, take)?;
                    }
                }
            }
        }
    }
    take(Order::End)
}

/// The orders one item may be given now.
pub(crate) fn item_orders(
    s: &State,
    i: usize,
    take: &mut impl FnMut(Order) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if let Some(b) = &s.blocking {
        if b.answered && b.withdrawing.contains(&i) {
            reinforce::fall_back_orders(s, i, take)?;
        }
        return ControlFlow::Continue(());
    }
    if let Some(v) = s.aboard(i) {
        if s.step == Step::Movement && s.answer.is_none() && !s.turn_state[i].gone {
            let here = s.item(v).hex;
            for hex in std::iter::once(here).chain(
                Facing::ALL
                    .iter()
                    .map(|f| volley_core::geometry::step(here, *f)),
            ) {
                offer(s, Order::Unload { item: i, hex }, take)?;
            }
        }
        return ControlFlow::Continue(());
    }
    if !s.in_play(i) || s.item(i).side != s.deciding() {
        return ControlFlow::Continue(());
    }
    if s.answer.is_some() {
        if s.answer.map(|(_, d)| d) == Some(i) {
            offer(s, Order::Retreat { item: i }, take)?;
            offer(s, Order::Stand { item: i }, take)?;
        }
        return ControlFlow::Continue(());
    }
    let it = s.item(i);
    match s.step {
        Step::Movement => {
            for v in s.items_at(it.hex) {
                if v != i {
                    offer(
                        s,
                        Order::Load {
                            item: i,
                            carrier: v,
                        },
                        take,
                    )?;
                }
            }
            if acting::check_may_move::<()>(s, i).is_err() {
                // M54: a unit a zone of control stopped may still have its one turn.
                for f in Facing::ALL {
                    if f != it.facing {
                        offer(s, Order::Face { item: i, facing: f }, take)?;
                    }
                }
                return ControlFlow::Continue(());
            }
            offer(s, Order::Dig { item: i }, take)?;
            offer(s, Order::FreeWill { item: i }, take)?;
            offer(s, Order::Dismount { item: i }, take)?;
            offer(s, Order::Mount { item: i }, take)?;
            for hex in std::iter::once(it.hex).chain(
                Facing::ALL
                    .iter()
                    .map(|f| volley_core::geometry::step(it.hex, *f)),
            ) {
                offer(s, Order::Clear { item: i, hex }, take)?;
                offer(s, Order::Bridge { item: i, hex }, take)?;
                offer(s, Order::Lay { item: i, hex }, take)?;
            }
            for f in Facing::ALL {
                let to = volley_core::geometry::step(it.hex, f);
                offer(s, Order::Move { item: i, to }, take)?;
                if f == it.facing.opposite() {
                    offer(s, Order::Reverse { item: i, to }, take)?;
                }
                if f != it.facing {
                    offer(s, Order::Face { item: i, facing: f }, take)?;
                }
            }
        }
        Step::DefensiveFire | Step::OffensiveFire => {
            if acting::check_may_fire::<()>(s, i).is_ok() {
                for t in 0..s.items.len() {
                    if s.in_play(t) && s.item(t).side != it.side {
                        offer(s, Order::Fire { item: i, target: t }, take)?;
                    }
                }
                if matches!(it.kind, Kind::Gun { indirect, mortar, .. } if indirect || mortar) {
                    for t in 0..s.items.len() {
                        let hex = s.item(t).hex;
                        // Each hex once, at its first item.
                        if s.in_play(t) && s.items_at(hex).next() == Some(t) {
                            offer(s, Order::Bombard { item: i, hex }, take)?;
                        }
                    }
                    // Smoke on or next to the enemies the side knows of, each hex once.
                    let mut hexes: Vec<Hex> = Vec::new();
                    for t in 0..s.items.len() {
                        if s.in_play(t)
                            && s.item(t).side != it.side
                            && hidden::visible_to(s, t, it.side)
                        {
                            let h = s.item(t).hex;
                            hexes.push(h);
                            hexes.extend(
                                Facing::ALL
                                    .iter()
                                    .map(|f| volley_core::geometry::step(h, *f)),
                            );
                        }
                    }
                    hexes.sort_by_key(|h| (h.y, h.x));
                    hexes.dedup();
                    for hex in hexes {
                        offer(s, Order::Smoke { item: i, hex }, take)?;
                    }
                }
            }
        }
        Step::Melee => {
            for f in Facing::ALL {
                let hex = volley_core::geometry::step(it.hex, f);
                for t in s.items_at(hex) {
                    offer(s, Order::Melee { item: i, target: t }, take)?;
                }
            }
        }
        Step::Command => {}
    }
    ControlFlow::Continue(())
}

pub(crate) fn offer(
    s: &State,
    order: Order,
    take: &mut impl FnMut(Order) -> ControlFlow<()>,
) -> ControlFlow<()> {
    match legal::check_order::<()>(s, order) {
        Ok(()) => take(order),
        Err(()) => ControlFlow::Continue(()),
    }
}

/// Whether the side to decide has anything to do but end the step (the listing, stopped
/// at the first such order).
pub fn has_choice(s: &State) -> bool {
    let end = Order::End.pack();
    each_order(s, &mut |o| {
        if o.pack() == end {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .is_break()
}

pub(crate) fn list_legal(s: &State, out: &mut Vec<Action>) {
    out.clear();
    let _ = each_order(s, &mut |o| {
        out.push(o.pack());
        ControlFlow::Continue(())
    });
}

/// The hexes an item of the side to decide can reach this movement step, each with the
/// cheapest way there, as its side knows the table.
pub fn reach_of(s: &State, unit: &str) -> Vec<Reach> {
    let Some(i) = s.items.iter().position(|it| it.id == unit) else {
        return Vec::new();
    };
    if s.to_decide() != Some(s.item(i).side) || s.step != Step::Movement {
        return Vec::new();
    }
    // The walk is made on the table as the unit's side knows it, so it neither springs
    // ambushes nor finds mines, and says nothing of what that side cannot see.
    reach_by_steps(
        hidden::without_unknowns(s, s.item(i).side),
        s.item(i).hex,
        |g: &State| {
            Facing::ALL
                .iter()
                .map(|f| volley_core::geometry::step(g.item(i).hex, *f))
                .filter(|&to| legal::check_order::<()>(g, Order::Move { item: i, to }).is_ok())
                .filter_map(|to| {
                    let mut after = g.clone();
                    // Forest rolls are not made for the reach: a forced hex is assumed.
                    after.forced.push(to);
                    let _ = movement::do_step(
                        &mut after,
                        i,
                        to,
                        false,
                        &mut volley_core::ScriptedDice::new([]),
                        &mut Log::silent(),
                    );
                    (after.item(i).hex == to).then_some((to, after))
                })
                .collect()
        },
    )
}
