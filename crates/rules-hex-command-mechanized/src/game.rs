//! The game in play: the sequence of play (M15–M22: initiative, then each side's player turn
//! of panic check, movement, commander placement, the non-phasing side's fire, the phasing
//! side's fire, melee and Rally Up), losses and victory (M41–M44), and the engine's `Game`.

use crate::board::Board;
use crate::command_tables;
use crate::items::{Item, Kind};
use crate::losses;
use crate::orders::Order;
use crate::state::{Fallen, MechGame, Step};
use crate::{rule, ID};
use std::ops::ControlFlow;
use volley_core::game::Refusal;
use volley_core::geometry::{label, parse_label, Facing};
use volley_core::{
    reach_by_steps, Action, ActionInfo, Dice, Event, Game, Hex, Illegal, Log, Outcome, Reach, Side,
};

impl MechGame {
    /// Moves an item to another hex, keeping the board.
    pub fn relocate(&mut self, i: usize, to: Hex) {
        let map = &self.s.setup.map;
        self.s.board.lift(map, self.s.items[i].hex, i);
        self.s.items[i].hex = to;
        let placed = self.s.board.place(map, to, i);
        debug_assert!(placed, "checked: room in {}", label(to));
        self.carry_along(i);
    }

    /// Removes an item from the table (destroyed or captured) and counts it lost.
    pub fn remove(&mut self, i: usize) {
        let map = &self.s.setup.map;
        self.s.board.lift(map, self.s.items[i].hex, i);
        self.s.turn_state[i].gone = true;
        self.counted[i] = true;
        self.wreck(i, &mut Log::silent());
    }

    /// What a loss did to an item: a routed squad runs (M120), a destroyed item goes.
    pub fn after_loss(&mut self, i: usize, result: losses::Result, log: &mut Log) {
        match result {
            losses::Result::Holds => {}
            losses::Result::Routs if !self.s.turn_state[i].routed => {
                self.s.turn_state[i].routed = true;
                self.counted[i] = true;
                if let Kind::Squad(sq) = &mut self.s.items[i].kind {
                    sq.markers = 0;
                }
                log.add(|| {
                    Event::new(
                        "rout",
                        rule("M120"),
                        format!(
                            "{} is down to two figures and routs: its markers go and it runs.",
                            self.item(i).id
                        ),
                    )
                    .side(self.item(i).side)
                    .units([self.item(i).id.clone()])
                });
                self.run(i, log);
            }
            losses::Result::Routs => {
                // M123: any hit destroys a routed unit.
                self.remove(i);
                log.add(|| self.removed_event(i, "a routed unit hit again is destroyed (M123)"));
            }
            losses::Result::Destroyed => {
                self.wreck(i, log);
                self.remove(i);
                log.add(|| self.removed_event(i, "destroyed"));
            }
        }
    }

    fn removed_event(&self, i: usize, why: &str) -> Event {
        let it = self.item(i);
        Event::new(
            "removed",
            rule("M41"),
            format!("{} is removed from play: {why}.", it.id),
        )
        .side(it.side)
        .units([it.id.clone()])
    }

    /// M31: a hit on an item in a commander's hex kills the commander on a d6 of 1.
    pub fn commander_risk(&mut self, i: usize, dice: &mut dyn Dice, log: &mut Log) {
        if let Some(c) = self.commander_with(i) {
            let d = dice.roll(6);
            if command_tables::commander_dies(d) {
                self.fallen[c] = Some(Fallen::Killed);
                self.placed[c] = None;
            }
            log.add(|| {
                let cm = &self.s.commanders[c];
                Event::new(
                    "commander",
                    rule("M31"),
                    format!(
                        "{} is in the hex hit and rolls {d}: {}.",
                        cm.id,
                        if d == 1 { "killed" } else { "unharmed" }
                    ),
                )
                .side(cm.side)
            });
        }
    }

    /// M120–M121: a routed item runs its full allowance away from the nearest enemy, a hex at
    /// a time, while a hex farther away has room; leaving the map removes it.
    pub fn run(&mut self, i: usize, log: &mut Log) {
        let allowance = crate::moves::allowance(self.item(i), &self.s.setup.charts);
        let from = self.item(i).hex;
        for _ in 0..allowance {
            let here = self.item(i).hex;
            let side = self.item(i).side;
            let nearest = |h: Hex| {
                (0..self.s.items.len())
                    .filter(|&e| self.in_play(e) && self.item(e).side != side)
                    .map(|e| h.unsigned_distance_to(self.item(e).hex))
                    .min()
                    .unwrap_or(u32::MAX)
            };
            let now = nearest(here);
            let best = Facing::ALL
                .iter()
                .map(|f| volley_core::geometry::step(here, *f))
                .filter(|&h| {
                    self.s.setup.map.contains(h)
                        && self.passable(self.item(i), here, h)
                        && !self.enemy_in(h, side)
                        && self.s.board.room(&self.s.setup.map, h) > 0
                        && nearest(h) > now
                })
                .max_by_key(|&h| (nearest(h), std::cmp::Reverse(label(h))));
            match best {
                Some(h) => {
                    self.relocate(i, h);
                    if let Some(f) = Facing::towards(here, h) {
                        self.s.items[i].facing = f;
                    }
                }
                None => break,
            }
        }
        let to = self.item(i).hex;
        if to != from {
            log.add(|| {
                Event::new(
                    "rout",
                    rule("M121"),
                    format!(
                        "{} runs from {} to {}.",
                        self.item(i).id,
                        label(from),
                        label(to)
                    ),
                )
                .side(self.item(i).side)
                .units([self.item(i).id.clone()])
            });
        }
    }

    /// A side's loss percentage (M41): items lost over items begun with, plus ten per
    /// commander lost.
    pub fn loss_percent(&self, side: Side) -> f64 {
        let lost = (0..self.s.items.len())
            .filter(|&i| self.counted[i] && self.item(i).side == side)
            .count();
        let commanders = (0..self.fallen.len())
            .filter(|&c| self.fallen[c].is_some() && self.s.commanders[c].side == side)
            .count();
        command_tables::loss_percent(
            lost as i32,
            self.start_items[side.index()] as i32,
            commanders as u32,
        )
    }

    /// The side holding an objective hex: the one with an unrouted item on it.
    pub fn holder(&self, hex: Hex) -> Option<Side> {
        self.holder_seen_by(hex, None)
    }

    /// The holder as a viewer knows it (hidden enemies hold nothing it can see).
    pub fn holder_seen_by(&self, hex: Hex, viewer: Option<Side>) -> Option<Side> {
        self.items_at(hex)
            .find(|&i| !self.routed(i) && viewer.is_none_or(|v| self.visible_to(i, v)))
            .map(|i| self.item(i).side)
    }

    pub fn objective_points(&self, side: Side) -> i32 {
        self.objective_points_seen_by(side, None)
    }

    /// A side's objective points as a viewer knows them: what hidden enemies hold does not
    /// show.
    pub fn objective_points_seen_by(&self, side: Side, viewer: Option<Side>) -> i32 {
        self.s
            .objectives
            .iter()
            .filter(|o| {
                o.goal_of.is_none_or(|g| g == side)
                    && self.holder_seen_by(o.hex, viewer) == Some(side)
            })
            .map(|o| o.points)
            .sum()
    }

    // ------------------------------------------------------------------ sequence of play

    /// The Initiative a side rolls with (M16): its overall commander's still in the game.
    fn overall_initiative(&self, side: Side) -> u8 {
        self.s
            .commanders
            .iter()
            .enumerate()
            .filter(|(c, cm)| cm.side == side && self.fallen[*c].is_none())
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
            .filter(|&c| self.fallen[c].is_none());
        match own {
            Some(c) => (
                self.s.commanders[c].id.to_string(),
                self.s.commanders[c].initiative,
            ),
            None => ("overall".into(), self.overall_initiative(side)),
        }
    }

    /// Each side's groups this turn, in number order (M18).
    fn groups_of(&self, side: Side) -> Vec<u8> {
        let mut g: Vec<u8> = (0..self.s.items.len())
            .filter(|&i| self.s.items[i].side == side && !self.s.turn_state[i].gone)
            .filter_map(|i| self.s.groups[i])
            .collect();
        g.sort_unstable();
        g.dedup();
        g
    }

    /// M15–M16: the initiative roll opens a game turn; the winner plays first.
    fn roll_initiative(&mut self, dice: &mut dyn Dice, log: &mut Log) {
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
        self.order = [first, first.other()];
        self.player_turn = 0;
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
            self.schedule = schedule;
            self.at = 0;
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
    fn begin_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        // The side's first activation of the game turn (always, in A/B play) does what a
        // player turn does once: panic, spotting, reinforcements, routed units running.
        let first_of_side = !self.s.setup.settings.activation
            || !self.schedule[..self.at].iter().any(|a| a.side == side);
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
        for c in 0..self.placed.len() {
            if self.s.commanders[c].side == side {
                self.placed[c] = None;
            }
        }
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

    /// M121: at the start of its turn (after its reinforcements), the phasing side's routed
    /// units run.
    pub(crate) fn routed_run(&mut self, log: &mut Log) {
        let side = self.phasing();
        for i in 0..self.s.items.len() {
            if self.in_play(i) && self.item(i).side == side && self.routed(i) {
                self.run(i, log);
                self.s.turn_state[i].done = true;
            }
        }
    }

    /// M42–M43 (C5): past its break point a side rolls for panic at the start of each of its
    /// player turns; on a panic every squad of it takes a hit marker, and until its next check
    /// its units advance only with a commander (interpretation 47).
    fn panic_check(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        self.panicked[side.index()] = false;
        let loss = self.loss_percent(side);
        let bp = self.s.sides[side.index()].break_point;
        if loss < bp as f64 {
            return;
        }
        let d = dice.roll(10);
        let panics = command_tables::panics(d, loss, bp);
        self.panicked[side.index()] = panics;
        let name = &self.s.setup.side_names[side.index()];
        log.add(|| {
            Event::new(
                "panic",
                rule("M43"),
                format!(
                    "{name} has lost {loss:.0}% (break point {bp}%) and rolls {d} on a d10 for panic ({} panics): {}.",
                    command_tables::panic_needs(loss),
                    if panics {
                        "it panics; every squad takes a hit marker, and until its next turn no unit advances without a commander"
                    } else {
                        "it holds"
                    }
                ),
            )
            .side(side)
        });
        if panics {
            for i in 0..self.s.items.len() {
                if self.in_play(i) && self.item(i).side == side {
                    if let Kind::Squad(_) = self.item(i).kind {
                        let (r, _) = losses::hit_squad(&mut self.s.items[i], 1);
                        self.after_loss(i, r, log);
                    }
                }
            }
        }
    }

    fn step_event(&self) -> Event {
        Event::new(
            "phase",
            rule("M20"),
            format!("Turn {}: {}.", self.s.turn, self.step_name()),
        )
        .side(self.phasing())
    }

    fn end_step(&mut self, dice: &mut dyn Dice, log: &mut Log) {
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

    fn begin_fire(&mut self, step: Step) {
        for t in &mut self.s.turn_state {
            t.fired = 0;
        }
        self.step = step;
    }

    /// The commander whose influence reaches an item: one in its hex, or with option `sphere`
    /// one of Morale 2 in a neighbouring hex (M35).
    pub fn influenced_by(&self, i: usize) -> Option<usize> {
        self.commander_with(i).or_else(|| {
            if !self.s.setup.settings.sphere {
                return None;
            }
            let (hex, side) = (self.item(i).hex, self.item(i).side);
            (0..self.placed.len()).find(|&c| {
                let cm = &self.s.commanders[c];
                cm.side == side
                    && cm.morale >= 2
                    && self.leads(c, i)
                    && self.placed[c].is_some_and(|p| p.unsigned_distance_to(hex) == 1)
            })
        })
    }

    /// M124: every squad of the phasing side with a commander regains a figure and loses a
    /// marker; a routed one rallies.
    pub(crate) fn rally_up(&mut self, log: &mut Log) {
        let side = self.phasing();
        for i in 0..self.s.items.len() {
            if !self.in_play(i)
                || self.item(i).side != side
                || !self.active(i)
                || self.influenced_by(i).is_none()
            {
                continue;
            }
            let mut routed = self.s.turn_state[i].routed;
            if crate::melee_tables::rally_up(&mut self.s.items[i], &mut routed) {
                if self.s.turn_state[i].routed && !routed {
                    self.counted[i] = false;
                    self.s.turn_state[i].rallied = true;
                }
                self.s.turn_state[i].routed = routed;
                log.add(|| {
                    Event::new(
                        "rally",
                        rule("M124"),
                        format!(
                            "{} rallies up with its commander{}.",
                            self.item(i).id,
                            if routed { "" } else { " and is in good order" }
                        ),
                    )
                    .side(side)
                    .units([self.item(i).id.clone()])
                });
            }
        }
    }

    fn end_player_turn(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        if let Some(o) = self.decided() {
            self.finish(o, log);
            return;
        }
        self.note_break_points(log);
        let more = if self.s.setup.settings.activation {
            self.at + 1 < self.schedule.len()
        } else {
            self.player_turn == 0
        };
        if more {
            if self.s.setup.settings.activation {
                self.at += 1;
            } else {
                self.player_turn = 1;
            }
        } else if self.s.turn >= self.s.setup.turn_limit {
            let o = self.final_outcome();
            self.finish(o, log);
            return;
        } else {
            self.s.turn += 1;
            self.roll_initiative(dice, log);
        }
        self.begin_player_turn(dice, log);
    }

    fn finish(&mut self, o: Outcome, log: &mut Log) {
        log.add(|| {
            let mut e = Event::new("outcome", rule("M44"), o.reason.clone());
            if let Some(w) = o.winner {
                e = e.side(w);
            }
            e
        });
        self.outcome = Some(o);
    }

    fn scores(&self) -> [i32; 2] {
        self.scores_seen_by(None)
    }

    /// Both sides' objective points (red, blue) as `viewer` knows them.
    fn scores_seen_by(&self, viewer: Option<Side>) -> [i32; 2] {
        Side::BOTH.map(|side| self.objective_points_seen_by(side, viewer))
    }

    /// M44: a side with nothing left loses; a side at its break point loses to an enemy
    /// whose losses are lower, or whose objectives are more (3.11). Otherwise the battle goes
    /// on and the broken side checks for panic each turn (M42) — or, with option
    /// `break_point = "ends"`, it ends there as a draw.
    fn decided(&self) -> Option<Outcome> {
        let score = self.scores();
        for side in Side::BOTH {
            let left = (0..self.s.items.len())
                .any(|i| self.in_play(i) && self.item(i).side == side && !self.routed(i));
            if !left {
                return Some(Outcome {
                    winner: Some(side.other()),
                    reason: format!("{side} has no unit left in good order."),
                    score,
                });
            }
        }
        let losses = Side::BOTH.map(|side| self.loss_percent(side));
        let at_break =
            |side: Side| losses[side.index()] >= self.s.sides[side.index()].break_point as f64;
        // The enemy of a side at its break point wins when it has lost less or holds more.
        let beaten = |side: Side| {
            let o = side.other();
            at_break(side)
                && (losses[o.index()] < losses[side.index()]
                    || score[o.index()] > score[side.index()])
        };
        let reason = |side: Side| {
            let o = side.other();
            format!(
                "{side} reached its break point ({:.0}% lost of {}%); {o} has lost {:.0}%, objectives {side} {}, {o} {}.",
                losses[side.index()],
                self.s.sides[side.index()].break_point,
                losses[o.index()],
                score[side.index()],
                score[o.index()],
            )
        };
        // Both past their break points and each ahead on one count: the losses decide.
        let loser = match (beaten(Side::Red), beaten(Side::Blue)) {
            (true, true) => match losses[0].partial_cmp(&losses[1]) {
                Some(std::cmp::Ordering::Greater) => Some(Side::Red),
                Some(std::cmp::Ordering::Less) => Some(Side::Blue),
                _ => None,
            },
            (true, false) => Some(Side::Red),
            (false, true) => Some(Side::Blue),
            (false, false) => None,
        };
        if let Some(side) = loser {
            return Some(Outcome {
                winner: Some(side.other()),
                reason: reason(side),
                score,
            });
        }
        if self.s.setup.settings.break_point_ends {
            if let Some(side) = Side::BOTH.into_iter().find(|&s| at_break(s)) {
                return Some(Outcome {
                    winner: None,
                    reason: format!(
                        "{} The battle ends there as a draw (option break_point = ends).",
                        reason(side)
                    ),
                    score,
                });
            }
        }
        None
    }

    /// M42, M44: tells when a side reaches its break point and the battle goes on.
    fn note_break_points(&mut self, log: &mut Log) {
        for side in Side::BOTH {
            let bp = self.s.sides[side.index()].break_point;
            let (mine, theirs) = (self.loss_percent(side), self.loss_percent(side.other()));
            let broken = mine >= bp as f64;
            if broken && !self.broken[side.index()] {
                let names = &self.s.setup.side_names;
                let (me, them) = (&names[side.index()], &names[side.other().index()]);
                log.add(|| {
                    Event::new(
                        "break point",
                        rule("M44"),
                        format!(
                            "{me} has reached its break point ({mine:.0}% lost of {bp}%), but {them} has lost {theirs:.0}% and holds no more objectives, so the battle goes on; {me} checks for panic at the start of each of its turns (M42)."
                        ),
                    )
                    .side(side)
                });
            }
            self.broken[side.index()] = broken;
        }
    }

    /// M22, M44: at the turn limit objectives decide, then the lower losses.
    fn final_outcome(&self) -> Outcome {
        let (winner, score, [lr, lb]) = self.at_the_limit(None);
        Outcome {
            winner,
            reason: format!(
                "The turn limit is reached: objectives red {}, blue {}; losses red {lr:.0}%, blue {lb:.0}%.",
                score[0], score[1]
            ),
            score,
        }
    }

    /// Who would win if the turn limit came now, as `viewer` knows the table (M22, M44):
    /// the more objective points, then the lower losses. With the objective points (red,
    /// blue) and the loss percentages (red, blue) it was judged on. Losses are open to both
    /// sides; an objective under an enemy the viewer has not seen counts for nobody
    /// (interpretation 42).
    fn at_the_limit(&self, viewer: Option<Side>) -> (Option<Side>, [i32; 2], [f64; 2]) {
        let score = self.scores_seen_by(viewer);
        let losses = Side::BOTH.map(|side| self.loss_percent(side));
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal if losses[0] < losses[1] => Some(Side::Red),
            std::cmp::Ordering::Equal if losses[1] < losses[0] => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        (winner, score, losses)
    }

    /// "As it stands" for the view (interpretation 43): the result M44 would give if the
    /// turn limit came now, judged on what `viewer` sees. The rules know no decisive
    /// victory, so it is never decisive.
    pub fn standing(&self, viewer: Option<Side>) -> volley_core::view::Standing {
        let (winner, score, [lr, lb]) = self.at_the_limit(viewer);
        let lead = match winner {
            Some(w) => format!(
                "{} would win at the turn limit",
                self.s.setup.side_names[w.index()]
            ),
            None => "a draw at the turn limit".into(),
        };
        volley_core::view::Standing {
            winner,
            decisive: false,
            reason: format!(
                "{lead}: objectives red {}, blue {}; losses red {lr:.0}%, blue {lb:.0}%",
                score[0], score[1]
            ),
        }
    }

    // ------------------------------------------------------------------ orders

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

    fn carry_out(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
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

    fn perform(&mut self, order: Order, dice: &mut dyn Dice, log: &mut Log) {
        self.carry_out(order, dice, log);
        self.advance(dice, log);
    }

    /// Every legal order of the side to decide, offered to `take`.
    fn each_order(&self, take: &mut impl FnMut(Order) -> ControlFlow<()>) -> ControlFlow<()> {
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
            for c in 0..self.placed.len() {
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
    fn item_orders(
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

    fn offer(
        &self,
        order: Order,
        take: &mut impl FnMut(Order) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self.check_order::<()>(order) {
            Ok(()) => take(order),
            Err(()) => ControlFlow::Continue(()),
        }
    }

    /// Forgets the legal actions listed: they are listed again, for the position as it
    /// stands, when next asked for.
    pub fn refresh_legal(&mut self) {
        self.legal = std::sync::OnceLock::new();
    }

    /// The legal actions of the position, listed once.
    fn legal(&self) -> &[Action] {
        self.legal.get_or_init(|| {
            let mut out = Vec::new();
            self.list_legal(&mut out);
            out
        })
    }

    /// Whether the side to decide has anything to do but end the step (the listing, stopped
    /// at the first such order).
    pub(crate) fn has_choice(&self) -> bool {
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

    fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let _ = self.each_order(&mut |o| {
            out.push(o.pack());
            ControlFlow::Continue(())
        });
    }

    /// Steps end by themselves when ending them is all that is left.
    fn advance(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        loop {
            self.refresh_legal();
            if self.outcome.is_some() || self.has_choice() {
                return;
            }
            self.end_step(dice, log);
        }
    }

    fn checked(&self, action: Action) -> Result<Order, Illegal> {
        let order =
            Order::unpack(action).ok_or_else(|| Illegal::new("not an order of this game"))?;
        self.check_order::<Illegal>(order)?;
        Ok(order)
    }

    fn item_arg(&self, text: Option<&str>) -> Result<usize, Illegal> {
        let id = text.ok_or_else(|| Illegal::new("expected a unit id"))?;
        self.s
            .items
            .iter()
            .position(|i| i.id == id)
            .ok_or_else(|| Illegal::new(format!("no unit \"{id}\" in this game")))
    }

    fn hex_arg(text: Option<&str>) -> Result<Hex, Illegal> {
        let t = text.ok_or_else(|| Illegal::new("expected a hex like 0405"))?;
        parse_label(t).ok_or_else(|| Illegal::new(format!("\"{t}\" is not a hex like 0405")))
    }

    pub fn describe_order(&self, order: Order) -> ActionInfo {
        use volley_core::ActionKind::*;
        match order {
            Order::Move { item, to } => ActionInfo::new("move", Move).unit(item as u32).at(to),
            Order::Reverse { item, to } => {
                ActionInfo::new("reverse", Move).unit(item as u32).at(to)
            }
            Order::Face { item, facing } => ActionInfo::new("face", Turn)
                .unit(item as u32)
                .facing(facing),
            Order::Place { hex, .. } => ActionInfo::new("place", Other).at(hex),
            Order::Fire { item, target } | Order::Melee { item, target } => {
                let verb = if matches!(order, Order::Fire { .. }) {
                    "fire"
                } else {
                    "melee"
                };
                let info = ActionInfo::new(verb, Attack).unit(item as u32);
                match self.s.items.get(target) {
                    Some(t) => info.at(t.hex),
                    None => info,
                }
            }
            Order::Bombard { item, hex } => {
                ActionInfo::new("bombard", Attack).unit(item as u32).at(hex)
            }
            Order::Retreat { item } => ActionInfo::new("retreat", Move).unit(item as u32),
            Order::Load { item, carrier } => {
                let info = ActionInfo::new("load", Other).unit(item as u32);
                match self.s.items.get(carrier) {
                    Some(c) => info.at(c.hex),
                    None => info,
                }
            }
            Order::Unload { item, hex } => {
                ActionInfo::new("unload", Move).unit(item as u32).at(hex)
            }
            Order::Stand { item } => ActionInfo::new("stand", Other).unit(item as u32),
            Order::Dig { item } => ActionInfo::new("dig", Other).unit(item as u32),
            Order::Clear { item, hex } => ActionInfo::new("clear", Other).unit(item as u32).at(hex),
            Order::Lay { item, hex } => ActionInfo::new("lay", Other).unit(item as u32).at(hex),
            Order::Smoke { item, hex } => ActionInfo::new("smoke", Other).unit(item as u32).at(hex),
            Order::Strike { hex, .. } => ActionInfo::new("strike", Attack).at(hex),
            Order::Fly { to, .. } => ActionInfo::new("fly", Move).at(to),
            Order::Intercept { target, .. } => {
                let info = ActionInfo::new("intercept", Attack);
                match self.s.aircraft.get(target).and_then(|a| a.at) {
                    Some(h) => info.at(h),
                    None => info,
                }
            }
            Order::Reorder { .. } => ActionInfo::new("reorder", Other),
            Order::FreeWill { item } => ActionInfo::new("freewill", Other).unit(item as u32),
            Order::Dismount { item } => ActionInfo::new("dismount", Other).unit(item as u32),
            Order::Mount { item } => ActionInfo::new("mount", Other).unit(item as u32),
            Order::Bridge { item, hex } => {
                ActionInfo::new("bridge", Other).unit(item as u32).at(hex)
            }
            Order::Block { withdraw, .. } => {
                ActionInfo::new(if withdraw { "withdraw" } else { "stand" }, Other)
            }
            Order::End => ActionInfo::end(),
        }
    }
}

impl Game for MechGame {
    fn ruleset(&self) -> &'static str {
        ID
    }

    fn start(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let mut log = Log::new();
        if !self.started {
            self.started = true;
            self.roll_initiative(dice, &mut log);
            self.begin_player_turn(dice, &mut log);
            self.advance(dice, &mut log);
        }
        log.into_events()
    }

    fn to_decide(&self) -> Option<Side> {
        (self.started && self.outcome.is_none()).then(|| self.deciding())
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(self.legal());
    }

    fn unit_actions(&self, unit: u32, out: &mut Vec<Action>) {
        out.clear();
        if self.started && self.outcome.is_none() {
            let _ = self.item_orders(unit as usize, &mut |o| {
                out.push(o.pack());
                ControlFlow::Continue(())
            });
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        self.checked(action).map(|_| ())
    }

    fn play_unchecked(&mut self, action: Action, dice: &mut dyn Dice, log: &mut Log) {
        let order = Order::unpack(action).expect("an action from the legal list");
        self.perform(order, dice, log);
    }

    fn preview(&mut self, action: Action, dice: &mut dyn Dice) -> Result<Vec<Event>, Illegal> {
        // Every roll of an order is made when it is carried out, so the order itself is its
        // preview; the steps that would end by themselves afterwards are not played.
        let order = self.checked(action)?;
        let mut log = Log::new();
        if order != Order::End {
            self.carry_out(order, dice, &mut log);
            // A melee whose defender may step back is weighed as if it stands (it may still
            // step back), so the odds say what the melee does if it is fought.
            if self.answer.is_some() {
                self.do_stand(dice, &mut log);
            }
        }
        // The position changed: no list of its legal actions is kept from before.
        self.refresh_legal();
        Ok(log.into_events())
    }

    fn notation(&self, action: Action) -> String {
        let id = |i: usize| self.s.items.get(i).map_or("?", |it| it.id.as_str());
        match Order::unpack(action) {
            Some(Order::Move { item, to }) => format!("move {} {}", id(item), label(to)),
            Some(Order::Reverse { item, to }) => format!("reverse {} {}", id(item), label(to)),
            Some(Order::Face { item, facing }) => format!("face {} {}", id(item), facing.name()),
            Some(Order::Place { commander, hex }) => format!(
                "place {} {}",
                self.s
                    .commanders
                    .get(commander)
                    .map_or("?", |c| c.id.as_str()),
                label(hex)
            ),
            Some(Order::Fire { item, target }) => format!("fire {} {}", id(item), id(target)),
            Some(Order::Melee { item, target }) => format!("melee {} {}", id(item), id(target)),
            Some(Order::Bombard { item, hex }) => format!("bombard {} {}", id(item), label(hex)),
            Some(Order::Retreat { item }) => format!("retreat {}", id(item)),
            Some(Order::Load { item, carrier }) => {
                let gun = matches!(
                    self.s.items.get(item).map(|i| &i.kind),
                    Some(Kind::Gun { .. })
                );
                format!(
                    "{} {} {}",
                    if gun { "limber" } else { "embark" },
                    id(item),
                    id(carrier)
                )
            }
            Some(Order::Unload { item, hex }) => {
                let gun = matches!(
                    self.s.items.get(item).map(|i| &i.kind),
                    Some(Kind::Gun { .. })
                );
                format!(
                    "{} {} {}",
                    if gun { "unlimber" } else { "disembark" },
                    id(item),
                    label(hex)
                )
            }
            Some(Order::Stand { item }) => format!("stand {}", id(item)),
            Some(Order::Dig { item }) => format!("dig {}", id(item)),
            Some(Order::Clear { item, hex }) => format!("clear {} {}", id(item), label(hex)),
            Some(Order::Lay { item, hex }) => format!("lay {} {}", id(item), label(hex)),
            Some(Order::Smoke { item, hex }) => format!("smoke {} {}", id(item), label(hex)),
            Some(Order::Strike { aircraft, hex }) => format!(
                "strike {} {}",
                self.s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
                label(hex)
            ),
            Some(Order::Reorder { group, kind, hex }) => match written(kind, hex) {
                Some(o) => format!("reorder {group} {}", o.text()),
                None => format!("unknown action {:#x}", action.0),
            },
            Some(Order::FreeWill { item }) => format!("freewill {}", id(item)),
            Some(Order::Dismount { item }) => format!("dismount {}", id(item)),
            Some(Order::Mount { item }) => format!("mount {}", id(item)),
            Some(Order::Bridge { item, hex }) => format!("bridge {} {}", id(item), label(hex)),
            Some(Order::Block { arrival, withdraw }) => format!(
                "block {} {}",
                self.s.arrivals.get(arrival).map_or("?", |a| a.id.as_str()),
                if withdraw { "withdraw" } else { "stand" }
            ),
            Some(Order::Fly { aircraft, to }) => format!(
                "fly {} {}",
                self.s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
                label(to)
            ),
            Some(Order::Intercept { aircraft, target }) => format!(
                "intercept {} {}",
                self.s.aircraft.get(aircraft).map_or("?", |a| a.id.as_str()),
                self.s.aircraft.get(target).map_or("?", |a| a.id.as_str())
            ),
            Some(Order::End) => "end".into(),
            None => format!("unknown action {:#x}", action.0),
        }
    }

    fn describe(&self, action: Action) -> ActionInfo {
        match Order::unpack(action) {
            Some(o) => self.describe_order(o),
            None => ActionInfo::new("?", volley_core::ActionKind::Other),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Illegal> {
        let mut words = text.split_whitespace();
        let verb = words.next().unwrap_or("").to_ascii_lowercase();
        let (a, b) = (words.next(), words.next());
        if words.next().is_some() && verb != "reorder" {
            return Err(Illegal::new(format!("too many words in \"{text}\"")));
        }
        let order = match verb.as_str() {
            "end" if a.is_none() => Order::End,
            "move" => Order::Move {
                item: self.item_arg(a)?,
                to: Self::hex_arg(b)?,
            },
            "reverse" => Order::Reverse {
                item: self.item_arg(a)?,
                to: Self::hex_arg(b)?,
            },
            "face" => {
                let item = self.item_arg(a)?;
                let t = b.unwrap_or("");
                let facing = Facing::parse(t).ok_or_else(|| {
                    Illegal::new(format!(
                        "\"{t}\" is not a facing (N, NE, SE, S, SW or NW)"
                    ))
                })?;
                Order::Face { item, facing }
            }
            "place" => {
                let commander = named(self.s.commanders.iter().map(|x| &x.id), "commander", a)?;
                Order::Place {
                    commander,
                    hex: Self::hex_arg(b)?,
                }
            }
            "fire" => Order::Fire {
                item: self.item_arg(a)?,
                target: self.item_arg(b)?,
            },
            "bombard" => Order::Bombard {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "dig" if b.is_none() => Order::Dig {
                item: self.item_arg(a)?,
            },
            "clear" => Order::Clear {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "lay" => Order::Lay {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "dismount" if b.is_none() => Order::Dismount {
                item: self.item_arg(a)?,
            },
            "bridge" => Order::Bridge {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "mount" if b.is_none() => Order::Mount {
                item: self.item_arg(a)?,
            },
            "freewill" if b.is_none() => Order::FreeWill {
                item: self.item_arg(a)?,
            },
            "reorder" => {
                let group: u8 = a
                    .and_then(|g| g.parse().ok())
                    .ok_or_else(|| Illegal::new("expected a group number: reorder 1 attack 0804"))?;
                let rest: Vec<&str> = text.split_whitespace().skip(2).collect();
                let o = crate::command::parse_order(&rest.join(" ")).ok_or_else(|| {
                    Illegal::new("expected an order: attack, march, hold or withdraw HEX, or reserve")
                })?;
                let kind = hex_command_family::orders::OrderKind::ALL
                    .iter()
                    .position(|k| *k == o.kind)
                    .expect("a kind of the list") as u8;
                Order::Reorder { group, kind, hex: o.hex }
            }
            "strike" => {
                let aircraft = named(self.s.aircraft.iter().map(|x| &x.id), "aircraft", a)?;
                Order::Strike {
                    aircraft,
                    hex: Self::hex_arg(b)?,
                }
            }
            "block" => {
                let arrival = named(self.s.arrivals.iter().map(|x| &x.id), "reinforcements", a)?;
                let withdraw = match b {
                    Some("stand") => false,
                    Some("withdraw") => true,
                    _ => return Err(Illegal::new("block GROUP stand, or block GROUP withdraw")),
                };
                Order::Block { arrival, withdraw }
            }
            "fly" => Order::Fly {
                aircraft: named(self.s.aircraft.iter().map(|x| &x.id), "aircraft", a)?,
                to: Self::hex_arg(b)?,
            },
            "intercept" => Order::Intercept {
                aircraft: named(self.s.aircraft.iter().map(|x| &x.id), "aircraft", a)?,
                target: named(self.s.aircraft.iter().map(|x| &x.id), "aircraft", b)?,
            },
            "smoke" => Order::Smoke {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "embark" | "limber" => Order::Load {
                item: self.item_arg(a)?,
                carrier: self.item_arg(b)?,
            },
            "disembark" | "unlimber" => Order::Unload {
                item: self.item_arg(a)?,
                hex: Self::hex_arg(b)?,
            },
            "retreat" if b.is_none() => Order::Retreat {
                item: self.item_arg(a)?,
            },
            "stand" if b.is_none() => Order::Stand {
                item: self.item_arg(a)?,
            },
            "melee" => Order::Melee {
                item: self.item_arg(a)?,
                target: self.item_arg(b)?,
            },
            _ => {
                return Err(Illegal::new(format!(
                    "cannot read \"{text}\" (orders: move U HEX, reverse U HEX, face U DIR, place C HEX, fire U TARGET, bombard U HEX, melee U TARGET, retreat U, stand U, embark U VEHICLE, disembark U HEX, limber G VEHICLE, unlimber G HEX, dig U, clear U HEX, lay U HEX, smoke G HEX, strike AIRCRAFT HEX, reorder GROUP ORDER, freewill U, dismount U, mount U, bridge U HEX, block GROUP stand|withdraw, fly AIRCRAFT HEX, intercept AIRCRAFT AIRCRAFT, end)"
                )))
            }
        };
        Ok(order.pack())
    }

    fn turn(&self) -> u32 {
        self.s.turn
    }

    fn phasing(&self) -> Option<Side> {
        self.outcome.is_none().then(|| MechGame::phasing(self))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, side: Option<Side>) -> volley_core::view::View {
        self.make_view(side)
    }

    fn clone_game(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn determinize(&self, side: Side, dice: &mut dyn Dice) -> Box<dyn Game> {
        Box::new(self.as_known_by(side, dice))
    }

    fn reach(&self, unit: &str) -> Vec<Reach> {
        let Some(i) = self.s.items.iter().position(|it| it.id == unit) else {
            return Vec::new();
        };
        if self.to_decide() != Some(self.item(i).side) || self.step != Step::Movement {
            return Vec::new();
        }
        // The walk is made on the table as the unit's side knows it, so it neither springs
        // ambushes nor finds mines, and says nothing of what that side cannot see.
        reach_by_steps(
            self.without_unknowns(self.item(i).side),
            self.item(i).hex,
            |g: &MechGame| {
                Facing::ALL
                    .iter()
                    .map(|f| volley_core::geometry::step(g.item(i).hex, *f))
                    .filter(|&to| g.check_order::<()>(Order::Move { item: i, to }).is_ok())
                    .filter_map(|to| {
                        let mut after = g.clone();
                        // Forest rolls are not made for the reach: a forced hex is assumed.
                        after.forced.push(to);
                        after.do_step(
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

    fn check_invariants(&self) -> Result<(), String> {
        let map = &self.s.setup.map;
        let mut board = Board::new(map);
        for (i, it) in self.s.items.iter().enumerate() {
            if !self.in_play(i) {
                continue;
            }
            if !map.contains(it.hex) {
                return Err(format!("{} is off the map at {}", it.id, label(it.hex)));
            }
            if !board.place(map, it.hex, i) {
                return Err(format!("more than two items in {} (M56)", label(it.hex)));
            }
        }
        for hex in self.s.items.iter().map(|i| i.hex) {
            let sorted = |b: &Board| {
                let mut v: Vec<usize> = b.items_at(map, hex).collect();
                v.sort_unstable();
                v
            };
            if sorted(&board) != sorted(&self.s.board) {
                return Err(format!(
                    "the board does not match the items at {}",
                    label(hex)
                ));
            }
        }
        for hex in self.s.items.iter().map(|i| i.hex) {
            let sides: Vec<Side> = self.items_at(hex).map(|i| self.item(i).side).collect();
            if sides.windows(2).any(|w| w[0] != w[1]) {
                return Err(format!("both sides stand in {}", label(hex)));
            }
        }
        // A list kept from an earlier listing must be the position's own (it is dropped at
        // every change).
        if let Some(kept) = self.legal.get() {
            let mut legal = Vec::new();
            self.list_legal(&mut legal);
            if &legal != kept {
                return Err("the legal actions kept are not those of the position".into());
            }
        }
        Ok(())
    }
}

/// The place in its list of the commander, aircraft or reinforcement group an order names.
fn named<'a>(
    ids: impl Iterator<Item = &'a volley_core::Name>,
    what: &str,
    text: Option<&str>,
) -> Result<usize, Illegal> {
    let k = text.unwrap_or("");
    let mut ids = ids;
    ids.position(|x| x == k)
        .ok_or_else(|| Illegal::new(format!("no {what} \"{k}\" in this game")))
}

/// The written order an action packs: a kind by its place in `OrderKind::ALL`, with its hex.
fn written(kind: u8, hex: Option<Hex>) -> Option<hex_command_family::orders::Order> {
    let kind = *hex_command_family::orders::OrderKind::ALL.get(kind as usize)?;
    (kind.has_hex() == hex.is_some()).then_some(hex_command_family::orders::Order { kind, hex })
}
