//! The legal orders of the side to decide: each item's, the group orders, the aircraft's and
//! the commanders' placements, offered one at a time to whoever asks (the list kept for the
//! position, a count, or the question whether there is a choice at all).

use crate::items::Kind;
use crate::orders::Order;
use crate::state::{MechGame, Step};
use std::ops::ControlFlow;
use volley_core::codec::Codec;
use volley_core::geometry::Facing;
use volley_core::{Action, Hex};

impl MechGame {
    /// Every legal order of the side to decide, offered to `take`.
    pub(crate) fn each_order(
        &self,
        take: &mut impl FnMut(Order) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if !self.started || self.outcome.is_some() {
            return ControlFlow::Continue(());
        }
        if let Some(b) = &self.blocking {
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
                self.fall_back_orders(i, take)?;
            }
            return take(Order::End);
        }
        if let Some((_, d)) = self.answer {
            self.offer(Order::Retreat { item: d }, take)?;
            return self.offer(Order::Stand { item: d }, take);
        }
        for i in 0..self.s.items.len() {
            self.item_orders(i, take)?;
        }
        if self.step == Step::Movement && self.s.setup.settings.cvs_orders {
            let side = self.deciding();
            let groups: Vec<u8> = self
                .s
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
                        self.order_hexes().into_iter().map(Some).collect()
                    } else {
                        vec![None]
                    };
                    for hex in hexes {
                        self.offer(
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
        self.air_orders(take)?;
        if self.step == Step::Command {
            for c in 0..self.posts.at.len() {
                for i in 0..self.s.items.len() {
                    if self.in_play(i) {
                        let hex = self.item(i).hex;
                        // Each hex once, at its first item.
                        if self.items_at(hex).next() == Some(i) {
                            self.offer(Order::Place { commander: c, hex }, take)?;
                        }
                    }
                }
            }
        }
        take(Order::End)
    }

    /// The orders one item may be given now.
    pub(crate) fn item_orders(
        &self,
        i: usize,
        take: &mut impl FnMut(Order) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some(b) = &self.blocking {
            if b.answered && b.withdrawing.contains(&i) {
                self.fall_back_orders(i, take)?;
            }
            return ControlFlow::Continue(());
        }
        if let Some(v) = self.aboard(i) {
            if self.step == Step::Movement && self.answer.is_none() && !self.s.turn_state[i].gone {
                let here = self.item(v).hex;
                for hex in std::iter::once(here).chain(
                    Facing::ALL
                        .iter()
                        .map(|f| volley_core::geometry::step(here, *f)),
                ) {
                    self.offer(Order::Unload { item: i, hex }, take)?;
                }
            }
            return ControlFlow::Continue(());
        }
        if !self.in_play(i) || self.item(i).side != self.deciding() {
            return ControlFlow::Continue(());
        }
        if self.answer.is_some() {
            if self.answer.map(|(_, d)| d) == Some(i) {
                self.offer(Order::Retreat { item: i }, take)?;
                self.offer(Order::Stand { item: i }, take)?;
            }
            return ControlFlow::Continue(());
        }
        let it = self.item(i);
        match self.step {
            Step::Movement => {
                for v in self.items_at(it.hex) {
                    if v != i {
                        self.offer(
                            Order::Load {
                                item: i,
                                carrier: v,
                            },
                            take,
                        )?;
                    }
                }
                if self.check_may_move::<()>(i).is_err() {
                    // M54: a unit a zone of control stopped may still have its one turn.
                    for f in Facing::ALL {
                        if f != it.facing {
                            self.offer(Order::Face { item: i, facing: f }, take)?;
                        }
                    }
                    return ControlFlow::Continue(());
                }
                self.offer(Order::Dig { item: i }, take)?;
                self.offer(Order::FreeWill { item: i }, take)?;
                self.offer(Order::Dismount { item: i }, take)?;
                self.offer(Order::Mount { item: i }, take)?;
                for hex in std::iter::once(it.hex).chain(
                    Facing::ALL
                        .iter()
                        .map(|f| volley_core::geometry::step(it.hex, *f)),
                ) {
                    self.offer(Order::Clear { item: i, hex }, take)?;
                    self.offer(Order::Bridge { item: i, hex }, take)?;
                    self.offer(Order::Lay { item: i, hex }, take)?;
                }
                for f in Facing::ALL {
                    let to = volley_core::geometry::step(it.hex, f);
                    self.offer(Order::Move { item: i, to }, take)?;
                    if f == it.facing.opposite() {
                        self.offer(Order::Reverse { item: i, to }, take)?;
                    }
                    if f != it.facing {
                        self.offer(Order::Face { item: i, facing: f }, take)?;
                    }
                }
            }
            Step::DefensiveFire | Step::OffensiveFire => {
                if self.check_may_fire::<()>(i).is_ok() {
                    for t in 0..self.s.items.len() {
                        if self.in_play(t) && self.item(t).side != it.side {
                            self.offer(Order::Fire { item: i, target: t }, take)?;
                        }
                    }
                    if matches!(it.kind, Kind::Gun { indirect, mortar, .. } if indirect || mortar) {
                        for t in 0..self.s.items.len() {
                            let hex = self.item(t).hex;
                            // Each hex once, at its first item.
                            if self.in_play(t) && self.items_at(hex).next() == Some(t) {
                                self.offer(Order::Bombard { item: i, hex }, take)?;
                            }
                        }
                        // Smoke on or next to the enemies the side knows of, each hex once.
                        let mut hexes: Vec<Hex> = Vec::new();
                        for t in 0..self.s.items.len() {
                            if self.in_play(t)
                                && self.item(t).side != it.side
                                && self.visible_to(t, it.side)
                            {
                                let h = self.item(t).hex;
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
                            self.offer(Order::Smoke { item: i, hex }, take)?;
                        }
                    }
                }
            }
            Step::Melee => {
                for f in Facing::ALL {
                    let hex = volley_core::geometry::step(it.hex, f);
                    for t in self.items_at(hex) {
                        self.offer(Order::Melee { item: i, target: t }, take)?;
                    }
                }
            }
            Step::Command => {}
        }
        ControlFlow::Continue(())
    }

    pub(crate) fn offer(
        &self,
        order: Order,
        take: &mut impl FnMut(Order) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self.check_order::<()>(order) {
            Ok(()) => take(order),
            Err(()) => ControlFlow::Continue(()),
        }
    }

    /// Whether the legal actions of the position are listed (they are listed when first
    /// asked for).
    pub fn is_listed(&self) -> bool {
        self.legal.get().is_some()
    }

    /// Forgets the legal actions listed: they are listed again, for the position as it
    /// stands, when next asked for.
    pub fn refresh_legal(&mut self) {
        self.legal = std::sync::OnceLock::new();
    }

    /// The legal actions of the position, listed once.
    pub(crate) fn legal(&self) -> &[Action] {
        self.legal.get_or_init(|| {
            let mut out = Vec::new();
            self.list_legal(&mut out);
            out
        })
    }

    /// Whether the side to decide has anything to do but end the step (the listing, stopped
    /// at the first such order).
    pub fn has_choice(&self) -> bool {
        let end = Order::End.pack();
        self.each_order(&mut |o| {
            if o.pack() == end {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_break()
    }

    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let _ = self.each_order(&mut |o| {
            out.push(o.pack());
            ControlFlow::Continue(())
        });
    }
}
