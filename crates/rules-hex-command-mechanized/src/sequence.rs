//! The sequence of play (M15–M22): the initiative roll opens a game turn (with the
//! activation sequence, each group's own, M18); each activation is a player turn of panic
//! check, spotting, reinforcements and routed units running, then movement, commander
//! placement, the non-phasing side's fire, the phasing side's fire and melee, and Rally Up.
//! Who decides, whether an order is open now, and the order carried out by its chapter.

use crate::command_tables;
use crate::items::Item;
use crate::orders::written;
use crate::orders::Order;
use crate::rule;
use crate::state::{MechGame, Step};
use volley_core::codec::Codec;
use volley_core::game::Refusal;
use volley_core::{Action, Dice, Event, Illegal, Log, Outcome, Side};

impl MechGame {
    /// The Initiative a side rolls with (M16): its overall commander's still in the game.
    pub(crate) fn overall_initiative(&self, side: Side) -> u8 {
        self.s
            .commanders
            .iter()
            .enumerate()
            .filter(|(c, cm)| cm.side == side && self.posts.in_game(*c))
            .max_by_key(|(_, cm)| cm.supreme)
            .map_or(crate::state::DEFAULT_INITIATIVE, |(_, cm)| cm.initiative)
    }

    /// M18's variant: the Initiative a group rolls with — its own commander's (`[[groups]]`)
    /// while that commander is in the game, else the overall commander's; with the name.
    pub fn group_initiative(&self, side: Side, group: u8) -> (String, u8) {
        let own = self
            .s
            .group_commanders
            .iter()
            .find(|g| g.side == side && g.group == group)
            .map(|g| g.commander)
            .filter(|&c| self.posts.in_game(c));
        match own {
            Some(c) => (
                self.s.commanders[c].id.to_string(),
                self.s.commanders[c].initiative,
            ),
            None => ("overall".into(), self.overall_initiative(side)),
        }
    }

    /// Each side's groups this turn, in number order (M18).
    pub(crate) fn groups_of(&self, side: Side) -> Vec<u8> {
        let mut g: Vec<u8> = (0..self.s.items.len())
            .filter(|&i| self.s.items[i].side == side && !self.s.turn_state[i].gone)
            .filter_map(|i| self.s.groups[i])
            .collect();
        g.sort_unstable();
        g.dedup();
        g
    }

    /// M15–M16: the initiative roll opens a game turn; the winner plays first.
    pub(crate) fn roll_initiative(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let settings = self.s.setup.settings;
        let (r, b) = (self.groups_of(Side::Red), self.groups_of(Side::Blue));
        // M18's variant: with each group's own commander, the turn's roll is the first pair's.
        let by_groups = settings.activation && settings.activation_commanders;
        let initiative_of = |g: &Self, side: Side, groups: &[u8], k: usize| match groups.get(k) {
            Some(&n) if by_groups => g.group_initiative(side, n).1,
            _ => g.overall_initiative(side),
        };
        let (ri, bi) = (
            initiative_of(self, Side::Red, &r, 0),
            initiative_of(self, Side::Blue, &b, 0),
        );
        let (red_first, rolls) = command_tables::initiative(ri, bi, dice);
        let first = if red_first { Side::Red } else { Side::Blue };
        self.turns.begin(first, Vec::new());
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
                            initiative_of(self, Side::Red, &r, k),
                            initiative_of(self, Side::Blue, &b, k),
                        );
                        let (red_first, rolls) = command_tables::initiative(ri, bi, dice);
                        let lead = if red_first { Side::Red } else { Side::Blue };
                        let (n1, n2) = (r[k], b[k]);
                        let who = |side: Side, n: u8| {
                            if by_groups {
                                format!(" ({})", self.group_initiative(side, n).0)
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
            self.turns.schedule = schedule;
            for t in &mut self.s.turn_state {
                t.fired_turn = false;
            }
        }
        self.note_what_is_seen();
        let turn_now = self.s.turn;
        self.sound.retain(|(_, t, _)| t + 1 >= turn_now);
        let turn = self.s.turn;
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
    pub(crate) fn begin_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        // The side's first activation of the game turn (always, in A/B play) does what a
        // player turn does once: panic, spotting, reinforcements, routed units running.
        let first_of_side = self.turns.first_activation_of(side);
        for i in 0..self.s.items.len() {
            let reset = if self.s.setup.settings.activation {
                self.active(i) || (first_of_side && self.s.items[i].side == side)
            } else {
                self.s.items[i].side == side
            };
            let t = &mut self.s.turn_state[i];
            if reset {
                t.new_move();
                t.meleed = false;
                t.rain_checked = false;
                t.worked = false;
                t.free_will = false;
            }
        }
        let commanders = &self.s.commanders;
        self.posts.lift(|c| commanders[c].side, side, |_, _| {});
        self.mover = None;
        self.step = Step::Movement;
        self.smoke.retain(|&(_, s)| s != side);
        log.add(|| self.step_event());
        if !first_of_side {
            return;
        }
        self.panic_check(dice, log);
        self.spotting(dice, log);
        self.stood.clear();
        self.aircraft_arrive(log);
        self.reinforcements(dice, log);
        if self.blocking.is_none() {
            self.routed_run(log);
        }
    }

    pub(crate) fn step_event(&self) -> Event {
        Event::new(
            "phase",
            rule("M20"),
            format!("Turn {}: {}.", self.s.turn, self.step_name()),
        )
        .side(self.phasing())
    }

    pub(crate) fn end_step(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        if self.blocking.is_some() {
            self.end_withdrawal(dice, log);
            return;
        }
        match self.step {
            Step::Movement => {
                self.mover = None;
                self.finish_flights(log);
                self.step = Step::Command;
            }
            Step::Command => self.begin_fire(Step::DefensiveFire),
            Step::DefensiveFire => self.begin_fire(Step::OffensiveFire),
            Step::OffensiveFire => self.step = Step::Melee,
            Step::Melee => {
                self.aircraft_leave(log);
                self.rally_up(log);
                self.spotting(dice, log);
                self.end_player_turn(dice, log);
                return;
            }
        }
        log.add(|| self.step_event());
    }

    pub(crate) fn begin_fire(&mut self, step: Step) {
        for t in &mut self.s.turn_state {
            t.fired = 0;
        }
        self.step = step;
    }

    pub(crate) fn end_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        if let Some(o) = self.decided() {
            self.finish(o, log);
            return;
        }
        self.note_break_points(log);
        if !self.turns.step_on() {
            if self.s.turn >= self.s.setup.turn_limit {
                let o = self.final_outcome();
                self.finish(o, log);
                return;
            }
            self.s.turn += 1;
            self.roll_initiative(dice, log);
        }
        self.begin_player_turn(dice, log);
    }

    pub(crate) fn finish(&mut self, o: Outcome, log: &mut Log) {
        log.add(|| {
            let mut e = Event::new("outcome", rule("M44"), o.reason.clone());
            if let Some(w) = o.winner {
                e = e.side(w);
            }
            e
        });
        self.outcome = Some(o);
    }

    /// The side to decide: the non-phasing side in its fire step, else the phasing side.
    pub fn deciding(&self) -> Side {
        if let Some(b) = &self.blocking {
            self.s.arrivals[b.arrival].side.other()
        } else if let Some((_, d)) = self.answer {
            self.item(d).side
        } else if self.step == Step::DefensiveFire {
            self.phasing().other()
        } else {
            self.phasing()
        }
    }

    /// An item of the side to decide, on the table.
    pub fn own_item<R: Refusal>(&self, i: usize) -> Result<&Item, R> {
        if !self.in_play(i) {
            return Err(R::because(|| "no such item in play"));
        }
        let it = self.item(i);
        if it.side != self.deciding() {
            return Err(R::because(|| {
                format!(
                    "{} is {}'s; {} decides now",
                    it.id,
                    it.side,
                    self.deciding()
                )
            }));
        }
        Ok(it)
    }

    pub fn check_order<R: Refusal>(&self, order: Order) -> Result<(), R> {
        if !self.started {
            return Err(R::because(|| "the game has not started"));
        }
        if let Some(o) = &self.outcome {
            return Err(R::because(|| format!("the game is over: {}", o.reason)));
        }
        if let Some((a, d)) = self.answer {
            if !matches!(order, Order::Retreat { item } | Order::Stand { item } if item == d) {
                return Err(R::because(|| {
                    format!(
                        "{} must first step back from {}'s melee or stand (M115)",
                        self.item(d).id,
                        self.item(a).id
                    )
                }));
            }
        }
        if let Some(b) = &self.blocking {
            return self.check_blocking(b, order);
        }
        match order {
            Order::Block { .. } => Err(R::because(|| "no reinforcements wait for an answer")),
            Order::Retreat { item } | Order::Stand { item } => self.check_answer(item),
            Order::Move { item, to } => self.check_step(item, to, false),
            Order::Reverse { item, to } => self.check_step(item, to, true),
            Order::Face { item, facing } => self.check_face(item, facing),
            Order::Place { commander, hex } => self.check_place(commander, hex),
            Order::Fire { item, target } => self.check_fire(item, target),
            Order::Melee { item, target } => self.check_melee(item, target),
            Order::Bombard { item, hex } => self.check_bombard(item, hex),
            Order::Load { item, carrier } => self.check_load(item, carrier),
            Order::Unload { item, hex } => self.check_unload(item, hex),
            Order::Dig { item } => self.check_dig(item),
            Order::Clear { item, hex } => self.check_clear(item, hex),
            Order::Lay { item, hex } => self.check_lay(item, hex),
            Order::Smoke { item, hex } => self.check_smoke(item, hex),
            Order::Strike { aircraft, hex } => self.check_strike(aircraft, hex),
            Order::Fly { aircraft, to } => self.check_fly(aircraft, to),
            Order::Intercept { aircraft, target } => self.check_intercept(aircraft, target),
            Order::Reorder { group, kind, hex } => match written(kind, hex) {
                Some(o) => self.check_reorder(group, o),
                None => Err(R::because(|| {
                    "not an order (attack, march, hold or withdraw a hex, or reserve)"
                })),
            },
            Order::FreeWill { item } => self.check_free_will(item),
            Order::Dismount { item } => self.check_horses(item, false),
            Order::Mount { item } => self.check_horses(item, true),
            Order::Bridge { item, hex } => self.check_bridge(item, hex),
            Order::End => Ok(()),
        }
    }

    pub(crate) fn carry_out(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        match order {
            Order::Block { withdraw, .. } => self.do_block(withdraw, log),
            Order::Move { item, to } if self.blocking.is_some() => {
                self.do_fall_back(item, to, dice, log)
            }
            Order::Move { item, to } => self.do_step(item, to, false, dice, log),
            Order::Reverse { item, to } => self.do_step(item, to, true, dice, log),
            Order::Face { item, facing } => self.do_face(item, facing, log),
            Order::Place { commander, hex } => self.do_place(commander, hex, log),
            Order::Fire { item, target } => self.do_fire(item, target, dice, log),
            Order::Melee { item, target } => self.do_melee(item, target, dice, log),
            Order::Bombard { item, hex } => self.do_bombard(item, hex, dice, log),
            Order::Load { item, carrier } => self.do_load(item, carrier, log),
            Order::Unload { item, hex } => self.do_unload(item, hex, log),
            Order::Dig { item } => self.do_dig(item, log),
            Order::Clear { item, hex } => self.do_clear(item, hex, log),
            Order::Lay { item, hex } => self.do_lay(item, hex, log),
            Order::Smoke { item, hex } => self.do_smoke(item, hex, dice, log),
            Order::Strike { aircraft, hex } => self.do_strike(aircraft, hex, dice, log),
            Order::Fly { aircraft, to } => self.do_fly(aircraft, to, log),
            Order::Intercept { aircraft, target } => self.do_intercept(aircraft, target, dice, log),
            Order::Reorder { group, kind, hex } => {
                let o = written(kind, hex).expect("checked: an order");
                self.do_reorder(group, o, dice, log)
            }
            Order::FreeWill { item } => self.do_free_will(item, dice, log),
            Order::Dismount { item } => self.do_dismount(item, log),
            Order::Mount { item } => self.do_mount(item, dice, log),
            Order::Bridge { item, hex } => self.do_bridge(item, hex, log),
            Order::Retreat { .. } => self.do_retreat(dice, log),
            Order::Stand { .. } => self.do_stand(dice, log),
            Order::End => self.end_step(dice, log),
        }
    }

    pub(crate) fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        self.carry_out(order, dice, log);
        self.advance(dice, log);
    }

    /// Steps end by themselves when ending them is all that is left.
    pub(crate) fn advance(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        loop {
            self.refresh_legal();
            if self.outcome.is_some() || self.has_choice() {
                return;
            }
            self.end_step(dice, log);
        }
    }

    pub(crate) fn checked(&self, action: Action) -> Result<Order, Illegal> {
        let order =
            Order::unpack(action).ok_or_else(|| Illegal::new("not an order of this game"))?;
        self.check_order::<Illegal>(order)?;
        Ok(order)
    }
}
