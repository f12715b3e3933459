//! Why an order is legal or not now: each order handed to the chapter that answers for it,
//! after what holds for every order (the side to decide, the step, an answer awaited).

use crate::aircraft;
use crate::bombard;
use crate::cargo;
use crate::command;
use crate::engineers;
use crate::fire;
use crate::melee;
use crate::movement;
use crate::orders::{written, Order};
use crate::reinforce;
use crate::state::State;
use volley_core::codec::Codec;
use volley_core::game::Refusal;
use volley_core::{Action, Illegal};

pub fn check_order<R: Refusal>(s: &State, order: Order) -> Result<(), R> {
    if !s.started {
        return Err(R::because(|| "the game has not started"));
    }
    if let Some(o) = &s.outcome {
        return Err(R::because(|| format!("the game is over: {}", o.reason)));
    }
    if let Some((a, d)) = s.answer {
        if !matches!(order, Order::Retreat { item } | Order::Stand { item } if item == d) {
            return Err(R::because(|| {
                format!(
                    "{} must first step back from {}'s melee or stand (M115)",
                    s.item(d).id,
                    s.item(a).id
                )
            }));
        }
    }
    if let Some(b) = &s.blocking {
        return reinforce::check_blocking(s, b, order);
    }
    match order {
        Order::Block { .. } => Err(R::because(|| "no reinforcements wait for an answer")),
        Order::Retreat { item } | Order::Stand { item } => melee::check_answer(s, item),
        Order::Move { item, to } => movement::check_step(s, item, to, false),
        Order::Reverse { item, to } => movement::check_step(s, item, to, true),
        Order::Face { item, facing } => movement::check_face(s, item, facing),
        Order::Place { commander, hex } => movement::check_place(s, commander, hex),
        Order::Fire { item, target } => fire::check_fire(s, item, target),
        Order::Melee { item, target } => melee::check_melee(s, item, target),
        Order::Bombard { item, hex } => bombard::check_bombard(s, item, hex),
        Order::Load { item, carrier } => cargo::check_load(s, item, carrier),
        Order::Unload { item, hex } => cargo::check_unload(s, item, hex),
        Order::Dig { item } => engineers::check_dig(s, item),
        Order::Clear { item, hex } => engineers::check_clear(s, item, hex),
        Order::Lay { item, hex } => engineers::check_lay(s, item, hex),
        Order::Smoke { item, hex } => bombard::check_smoke(s, item, hex),
        Order::Strike { aircraft, hex } => aircraft::check_strike(s, aircraft, hex),
        Order::Fly { aircraft, to } => aircraft::check_fly(s, aircraft, to),
        Order::Intercept { aircraft, target } => aircraft::check_intercept(s, aircraft, target),
        Order::Reorder { group, kind, hex } => match written(kind, hex) {
            Some(o) => command::check_reorder(s, group, o),
            None => Err(R::because(|| {
                "not an order (attack, march, hold or withdraw a hex, or reserve)"
            })),
        },
        Order::FreeWill { item } => command::check_free_will(s, item),
        Order::Dismount { item } => cargo::check_horses(s, item, false),
        Order::Mount { item } => cargo::check_horses(s, item, true),
        Order::Bridge { item, hex } => engineers::check_bridge(s, item, hex),
        Order::End => Ok(()),
    }
}

pub(crate) fn checked(s: &State, action: Action) -> Result<Order, Illegal> {
    let order = Order::unpack(action).ok_or_else(|| Illegal::new("not an order of this game"))?;
    check_order::<Illegal>(s, order)?;
    Ok(order)
}
