//! Close combat, from the CHARGE chapter and the charge paragraphs of the initiative phase:
//! the move into contact, what the charged side may do about it (fire, evade, square,
//! counter-charge), friends moving up in support on both sides, rounds of combat fought to a
//! result, and the winners' and losers' moves afterwards. Events cite each paragraph by its
//! heading.

use crate::attacks::Attack;
use crate::orders::Order;
use crate::state::{rule, BptGame, Charge, Interrupt};
use crate::table::{hexes, Table};
use crate::terrain::Cover;
use crate::troops::{Arm, Formation};
use volley_core::game::Refusal;
use volley_core::geometry::{distance, label, line_between, Aspect, Facing};
use volley_core::{Dice, Event, Hex, Log, Side};

/// Charge distance for infantry and cavalry, whatever their move.
pub const CHARGE_CM: u32 = 20;

/// Rounds fought at equal hits before both sides are taken to have drawn apart (the book
/// fights on while in contact; Volley stops an endless run of even rounds).
pub const MAX_ROUNDS: u32 = 10;

impl BptGame {
    /// Where a charge from `unit` at `target` would make contact: the last hex of a straight
    /// line to it, every hex of the way empty and passable, crossing an obstacle only where
    /// the charger starts against it or the target stands behind it.
    pub fn contact_hex(&self, unit: usize, target: usize) -> Option<Hex> {
        let (u, t) = (&self.units[unit], &self.units[target]);
        if self.touching(unit, target) {
            return Some(u.hex);
        }
        let ground = self.ground();
        'lines: for side in 0..2 {
            let line: Vec<Hex> = line_between(u.hex, t.hex, side).collect();
            let mut prev = u.hex;
            for (i, &h) in line.iter().enumerate() {
                if !ground.passable(h, u)
                    || self.occupant(h).is_some()
                    || self.hqs_in(h).any(|k| self.units[k].side != u.side)
                {
                    continue 'lines;
                }
                if i > 0 && ground.obstacle(prev, h) {
                    continue 'lines;
                }
                prev = h;
            }
            return line.last().copied();
        }
        None
    }

    /// Why `unit` may not charge `target` now ("Charge").
    pub fn check_charge<R: Refusal>(&self, unit: usize, target: usize) -> Result<Hex, R> {
        let (u, t) = (&self.units[unit], &self.units[target]);
        if !u.formed_troops() || u.is_suppressed() {
            return Err(R::because(|| format!("{} may not charge", u.label())));
        }
        if !matches!(u.formation, Formation::Line | Formation::AttackColumn) {
            return Err(R::because(|| {
                format!(
                    "{} must be in line or attack column to charge, not {}",
                    u.label(),
                    u.formation.name()
                )
            }));
        }
        if t.side == u.side || t.ko || t.is_hq() {
            return Err(R::because(|| {
                format!("{} is not an enemy unit to charge", t.label())
            }));
        }
        if u.traits.attack_column_charge && u.formation != Formation::AttackColumn {
            return Err(R::because(|| {
                format!(
                    "{} charges only in attack column (its list's note)",
                    u.label()
                )
            }));
        }
        if u.traits.irregular && t.formation == Formation::Square && t.arm == Arm::Infantry {
            return Err(R::because(|| "irregular cavalry do not charge squares"));
        }
        if u.arm == Arm::Cavalry && t.traits.pikes && self.aspect_of(target, unit) == Aspect::Front
        {
            return Err(R::because(|| {
                format!(
                "cavalry may not charge the pikes of {} from the front (Pikes): take it in the flank or rear",
                t.label()
            )
            }));
        }
        if self.distance_cm(unit, target) > CHARGE_CM {
            return Err(R::because(|| {
                format!("{} is beyond the 20 cm charge distance", t.label())
            }));
        }
        if !self.sees(unit, target) {
            return Err(R::because(|| {
                format!("{} cannot see {}", u.label(), t.label())
            }));
        }
        self.contact_hex(unit, target).ok_or_else(|| {
            R::because(|| format!("no clear straight way from {} to {}", u.label(), t.label()))
        })
    }

    /// The charge move: to contact, facing the target; then the charged side answers.
    pub fn charge(
        &mut self,
        unit: usize,
        target: usize,
        initiative: bool,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let contact = self.check_charge::<()>(unit, target).expect("checked");
        let start = self.units[unit].hex;
        self.move_with_hqs(unit, contact);
        let t_hex = self.units[target].hex;
        let u = &mut self.units[unit];
        u.dug_in = false;
        u.prone = false;
        u.refused = 0;
        if let Some(f) = crate::table::facing_towards(contact, t_hex) {
            u.facing = f;
        }
        let (u, t) = (&self.units[unit], &self.units[target]);
        log.add(|| {
            Event::new(
                "charge",
                rule("Charge"),
                format!(
                    "{} charges {} from {} to {}",
                    u.label(),
                    t.label(),
                    label(start),
                    label(contact)
                ),
            )
            .side(u.side)
            .units([u.id.clone(), t.id.clone()])
        });
        self.overrun(unit, log);
        self.screen_flees(target, log);
        self.charge = Some(Charge {
            charger: unit,
            target,
            initiative,
            counter: false,
            answered: Vec::new(),
            supporters: [Vec::new(), Vec::new()],
        });
        self.charge_start = start;
        self.next_charge_step(Interrupt::Response, dice, log);
    }

    /// Goes on to the next step of the charge that has anyone to decide, or resolves it.
    fn next_charge_step(&mut self, from: Interrupt, dice: &mut dyn Dice, log: &mut Log) {
        let attacker = self.active;
        let steps = [
            Interrupt::Response,
            Interrupt::Support(attacker),
            Interrupt::Support(attacker.other()),
        ];
        let at = steps.iter().position(|s| *s == from).unwrap_or(0);
        for (i, step) in steps.into_iter().enumerate().skip(at) {
            if i == 1 && !self.make_contact(dice, log) {
                return;
            }
            let mut c = Vec::new();
            self.interrupt = Some(step);
            match step {
                Interrupt::Response => self.response_candidates(&mut c),
                Interrupt::Support(side) => self.support_candidates(side, &mut c),
                Interrupt::Opportunity { .. } | Interrupt::Consolidate(_) => {}
            }
            // Someone may answer (or support): the charge waits for them.
            let may = |o: &Order| {
                self.may_act::<()>(*o).is_ok()
                    && match step {
                        Interrupt::Response => self.check_response::<()>(*o).is_ok(),
                        Interrupt::Support(_) => self.check_support::<()>(*o).is_ok(),
                        Interrupt::Opportunity { .. } | Interrupt::Consolidate(_) => false,
                    }
            };
            if c.iter().any(may) {
                return;
            }
        }
        self.interrupt = None;
        self.resolve_charge(dice, log);
    }

    // The charged side's answer.

    pub fn response_candidates(&self, out: &mut Vec<Order>) {
        let Some(c) = &self.charge else { return };
        let side = self.active.other();
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if u.side != side || u.ko || u.is_hq() {
                continue;
            }
            self.fire_orders(k, c.charger, out);
            out.push(Order::Evade { unit: k });
        }
        out.push(Order::Square { unit: c.target });
        out.push(Order::CounterCharge { unit: c.target });
        if let Some(f) =
            crate::table::facing_towards(self.units[c.target].hex, self.units[c.charger].hex)
        {
            out.push(Order::Pivot {
                unit: c.target,
                facing: f,
            });
        }
    }

    /// Whether the charged unit still owes an answer: cavalry never receive a charge at the
    /// halt, and foot that may not form square evade cavalry.
    fn must_answer(&self) -> bool {
        let Some(c) = &self.charge else { return false };
        let t = &self.units[c.target];
        if t.ko || t.is_suppressed() || c.answered.contains(&c.target) {
            return false;
        }
        let charger_hex = self.units[c.charger].hex;
        let can_evade =
            self.evade_to(c.target, charger_hex).is_some() && self.sees(c.target, c.charger);
        match t.arm {
            Arm::Cavalry => true,
            Arm::Infantry
                if self.units[c.charger].arm == Arm::Cavalry && !t.may_form(Formation::Square) =>
            {
                can_evade
            }
            _ => false,
        }
    }

    pub fn check_response<R: Refusal>(&self, o: Order) -> Result<(), R> {
        let c = self.charge.as_ref().expect("a charge in progress");
        let answered = |k: usize| -> Result<(), R> {
            if c.answered.contains(&k) {
                Err(R::because(|| {
                    format!("{} has answered this charge already", self.units[k].label())
                }))
            } else if self.units[k].is_suppressed() {
                Err(R::because(|| {
                    format!("{} is suppressed", self.units[k].label())
                }))
            } else {
                Ok(())
            }
        };
        let (charger, target) = (c.charger, c.target);
        let near = |k: usize, cm: u32| k == target || self.within(k, target, cm);
        match o {
            Order::End => {
                if self.must_answer() {
                    let t = &self.units[target];
                    return Err(R::because(|| {
                        if t.arm == Arm::Cavalry {
                            format!("{} is cavalry: it must evade or counter-charge", t.label())
                        } else {
                            format!(
                                "{} may not form square: it must evade the cavalry",
                                t.label()
                            )
                        }
                    }));
                }
                Ok(())
            }
            Order::Fire {
                unit,
                target: t,
                ammo,
            } if t == charger => {
                answered(unit)?;
                if !near(unit, 10) {
                    return Err(R::because(|| {
                        "only the charged unit and units within 10 cm of it fire at the charger"
                    }));
                }
                self.check_shot(unit, charger, ammo)
            }
            Order::Evade { unit } => {
                answered(unit)?;
                if !near(unit, 5) {
                    return Err(R::because(|| {
                        "only the charged unit and units within 5 cm of it may evade"
                    }));
                }
                if !self.sees(unit, charger) {
                    return Err(R::because(|| {
                        format!("{} cannot see the charger", self.units[unit].label())
                    }));
                }
                self.evade_to(unit, self.units[charger].hex)
                    .map(|_| ())
                    .ok_or_else(|| {
                        R::because(|| {
                            format!("{} has nowhere to evade to", self.units[unit].label())
                        })
                    })
            }
            Order::Square { unit } if unit == target => {
                answered(unit)?;
                if self.units[charger].arm != Arm::Cavalry {
                    return Err(R::because(|| "squares are formed against cavalry"));
                }
                self.check_form(unit, Formation::Square)
            }
            Order::CounterCharge { unit } if unit == target => {
                answered(unit)?;
                if self.units[unit].arm != Arm::Cavalry {
                    return Err(R::because(|| "only cavalry counter-charge"));
                }
                Ok(())
            }
            Order::Pivot { unit, facing } if unit == target => {
                answered(unit)?;
                let u = &self.units[unit];
                if u.arm != Arm::Artillery || u.limbered || u.facing == facing {
                    return Err(R::because(|| {
                        format!("{} cannot pivot to face the charge", u.label())
                    }));
                }
                Ok(())
            }
            _ => Err(R::because(|| {
                "now only answers to the charge: fire at the charger, evade, square, countercharge, pivot, or end"
            })),
        }
    }

    pub fn perform_response(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        if o == Order::End {
            self.next_charge_step(Interrupt::Support(self.active), dice, log);
            return;
        }
        let (charger, target) = {
            let c = self.charge.as_mut().expect("a charge in progress");
            if let Some(k) = o.actor() {
                c.answered.push(k);
            }
            (c.charger, c.target)
        };
        match o {
            Order::Fire { unit, ammo, .. } => {
                log.add(|| {
                    Event::new(
                        "response",
                        rule("Response"),
                        format!(
                            "{} fires at the charging {}",
                            self.units[unit].label(),
                            self.units[charger].label()
                        ),
                    )
                    .side(self.units[unit].side)
                    .units([self.units[unit].id.clone()])
                });
                let id = self.next_attack();
                self.fire(unit, charger, ammo, id, dice, log);
            }
            Order::Evade { unit } => {
                let from = self.units[charger].hex;
                let to = self.evade(unit, from, log);
                // An evader must end 3 cm clear of where the charger ends.
                if distance(to, from) < 2 {
                    self.knock_out(unit, "could not get 3 cm clear of the charger", log);
                }
            }
            Order::Square { unit } => self.form(unit, Formation::Square, log),
            Order::CounterCharge { unit } => {
                self.charge.as_mut().expect("charge").counter = true;
                let u = &self.units[unit];
                log.add(|| {
                    Event::new(
                        "countercharge",
                        rule("Counter-Charge"),
                        format!("{} counter-charges", u.label()),
                    )
                    .side(u.side)
                    .units([u.id.clone()])
                });
            }
            Order::Pivot { unit, facing } => self.pivot(unit, facing, log),
            _ => {}
        }
        let _ = target;
        self.check_end_of_battle(log);
        if self.outcome.is_some() {
            self.charge = None;
            self.interrupt = None;
            return;
        }
        let mut more = Vec::new();
        self.response_candidates(&mut more);
        if !more.iter().any(|o| self.check_response::<()>(*o).is_ok()) {
            self.next_charge_step(Interrupt::Support(self.active), dice, log);
        }
    }

    /// After the answers: the charger closes if it still can ("Charging"). Returns whether
    /// the fight goes on.
    fn make_contact(&mut self, _dice: &mut dyn Dice, log: &mut Log) -> bool {
        let c = self.charge.clone().expect("a charge in progress");
        let (charger, target) = (c.charger, c.target);
        if self.units[charger].ko {
            self.end_charge();
            return false;
        }
        if self.units[target].ko {
            self.end_charge();
            return false;
        }
        if self.touching(charger, target) {
            return true;
        }
        // The target evaded (or the charger fell back): follow it if the 20 cm allow.
        let reach = hexes(CHARGE_CM);
        let start = self.charge_start;
        let fell_back = self.units[charger].is_suppressed()
            && self.units[charger].hex != self.units[target].hex
            && !self.touching(charger, target)
            && !c.answered.contains(&target);
        if !fell_back && distance(start, self.units[target].hex) <= reach + 1 {
            if let Some(h) = self.contact_hex(charger, target) {
                if distance(start, h) <= reach {
                    self.move_with_hqs(charger, h);
                    if let Some(f) = crate::table::facing_towards(h, self.units[target].hex) {
                        self.units[charger].facing = f;
                    }
                    let (u, t) = (&self.units[charger], &self.units[target]);
                    log.add(|| {
                        Event::new(
                            "charge",
                            rule("Counter-Initiative"),
                            format!("{} follows {} to {}", u.label(), t.label(), label(h)),
                        )
                        .side(u.side)
                        .units([u.id.clone()])
                    });
                    return true;
                }
            }
        }
        // It failed to close: disordered, no charge.
        self.disorder(charger, log, "failed to close with its target");
        self.end_charge();
        false
    }

    fn end_charge(&mut self) {
        self.charge = None;
        self.interrupt = None;
    }

    /// Puts a unit in disorder until the end of its side's next initiative phase.
    pub fn disorder(&mut self, unit: usize, log: &mut Log, why: &str) {
        let pt = self.player_turn();
        let until = if self.units[unit].side == self.active {
            pt + 2
        } else {
            pt + 1
        };
        let u = &mut self.units[unit];
        if !u.formed_troops() {
            return;
        }
        u.disorder_until = Some(until);
        u.formation = Formation::Disordered;
        u.refused = 0;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "disordered",
                rule("Disordered"),
                format!("{} is disordered: {why}", u.label()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        self.ko_if_past_capacity(unit, log);
    }

    /// The defender's cover in a charge's first round: its ground as seen from the charger,
    /// one level better for a square against cavalry ("Square") and for pikes against foot
    /// ("Pikes").
    pub fn first_round_cover(&self, d: usize, a: usize) -> Cover {
        let mut cover = self.cover_against(d, a);
        let (t, c) = (&self.units[d], &self.units[a]);
        if c.arm == Arm::Cavalry && t.arm == Arm::Infantry && t.formation == Formation::Square {
            cover = cover.better();
        }
        if c.arm == Arm::Infantry && t.traits.pikes {
            cover = cover.better();
        }
        cover
    }

    /// A unit whose hits this turn already reach what it can take, now that disorder or
    /// exhaustion took a hit off each stand, is knocked out at once (Knock-Out).
    pub fn ko_if_past_capacity(&mut self, unit: usize, log: &mut Log) {
        let u = &self.units[unit];
        if !u.ko && u.turn_hits > 0 && u.turn_hits >= u.capacity(self.table().exhaustion_hit) {
            self.knock_out(
                unit,
                "its hits this turn reach what it can take once disordered",
                log,
            );
        }
    }

    // Supports.

    /// The hex beside `friend` a supporter would move to: empty, passable, nearest the
    /// supporter.
    fn support_hex(&self, unit: usize, friend: usize) -> Option<Hex> {
        let (u, f) = (&self.units[unit], &self.units[friend]);
        if self.touching(unit, friend) {
            return Some(u.hex);
        }
        Facing::ALL
            .into_iter()
            .map(|d| volley_core::geometry::step(f.hex, d))
            .filter(|h| self.ground().passable(*h, u) && self.occupant(*h).is_none())
            .filter(|h| self.hqs_in(*h).all(|k| self.units[k].side == u.side))
            .min_by_key(|h| (distance(*h, u.hex), volley_core::geometry::label(*h)))
    }

    pub fn support_candidates(&self, side: Side, out: &mut Vec<Order>) {
        let Some(c) = &self.charge else { return };
        let friend = if side == self.active {
            c.charger
        } else {
            c.target
        };
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if u.side == side && !u.ko && u.formed_troops() {
                out.push(Order::Support { unit: k, friend });
            }
        }
    }

    pub fn check_support<R: Refusal>(&self, o: Order) -> Result<(), R> {
        let c = self.charge.as_ref().expect("a charge in progress");
        match o {
            Order::End => Ok(()),
            Order::Support { unit, friend } => {
                let (u, f) = (&self.units[unit], &self.units[friend]);
                let in_contact = if u.side == self.active {
                    c.charger
                } else {
                    c.target
                };
                if friend != in_contact || unit == c.charger || unit == c.target {
                    return Err(R::because(|| "support the friend in contact"));
                }
                if !u.formed_troops() || u.dice == 0 || u.is_suppressed() || u.supported {
                    return Err(R::because(|| {
                        format!("{} cannot support a charge now", u.label())
                    }));
                }
                if f.mounted() && !u.mounted() {
                    return Err(R::because(|| {
                        "only mounted cavalry support mounted cavalry"
                    }));
                }
                if c.supporters[u.side.index()].contains(&unit) {
                    return Err(R::because(|| format!("{} supports already", u.label())));
                }
                if !self.within(unit, friend, 10) || !self.sees(unit, friend) {
                    return Err(R::because(|| {
                        format!(
                            "{} is not within 10 cm and sight of {}",
                            u.label(),
                            f.label()
                        )
                    }));
                }
                self.support_hex(unit, friend)
                    .map(|_| ())
                    .ok_or_else(|| R::because(|| format!("there is no room beside {}", f.label())))
            }
            _ => Err(R::because(|| "now only supports of the charge (or end)")),
        }
    }

    pub fn perform_support(&mut self, o: Order, dice: &mut dyn Dice, log: &mut Log) {
        let Some(Interrupt::Support(side)) = self.interrupt else {
            return;
        };
        if let Order::Support { unit, friend } = o {
            let to = self.support_hex(unit, friend).expect("checked");
            self.move_with_hqs(unit, to);
            self.units[unit].supported = true;
            self.units[unit].dug_in = false;
            self.units[unit].prone = false;
            self.charge.as_mut().expect("charge").supporters[side.index()].push(unit);
            let (u, f) = (&self.units[unit], &self.units[friend]);
            log.add(|| {
                Event::new(
                    "support",
                    rule("Support"),
                    format!(
                        "{} moves to {} in support of {}",
                        u.label(),
                        label(to),
                        f.label()
                    ),
                )
                .side(u.side)
                .units([u.id.clone()])
            });
            let mut more = Vec::new();
            self.support_candidates(side, &mut more);
            if more.iter().any(|o| self.check_support::<()>(*o).is_ok()) {
                return;
            }
        }
        if side == self.active {
            self.next_charge_step(Interrupt::Support(side.other()), dice, log);
        } else {
            self.interrupt = None;
            self.resolve_charge(dice, log);
        }
    }

    // Resolution.

    /// Attacks a stand in contact ("Troops In Contact").
    fn per_stand(&self, unit: usize) -> u32 {
        let u = &self.units[unit];
        match u.arm {
            Arm::Cavalry => {
                if self.table().saber {
                    4
                } else {
                    3
                }
            }
            Arm::Infantry => 2,
            _ => 1,
        }
    }

    /// One side's dice in a round: its unit in contact, the modifiers, and in words.
    pub(crate) fn charge_dice(
        &self,
        unit: usize,
        enemy: usize,
        charging: bool,
        supporters: usize,
        flank: bool,
        round: u32,
    ) -> (u32, String) {
        let u = &self.units[unit];
        let stands = if flank { 1 } else { u.stands };
        let per = self.per_stand(unit);
        let mut n = (stands * per) as i32;
        let mut words = vec![format!(
            "{per} × {stands} stand{}",
            if stands == 1 { "" } else { "s" }
        )];
        let mut add = |d: i32, why: &str| {
            n += d;
            words.push(format!("{d:+} {why}"));
        };
        if charging && round == 1 {
            add(1, "charging");
        }
        if supporters > 0 {
            add(supporters as i32, "supports");
        }
        if u.is_suppressed() {
            add(-1, "suppressed");
        }
        if flank {
            add(-2, "fighting to the flank or rear");
        }
        if u.traits.heavy && u.arm == Arm::Cavalry {
            add(1, "heavy cavalry");
        }
        if u.traits.extra_die {
            add(1, "an extra die (list note)");
        }
        if u.traits.lancers && charging && round == 1 {
            add(1, "lancers");
        }
        if u.disordered() {
            add(-2, "disordered");
            if u.exhausted && !self.table().exhaustion_hit {
                add(-1, "exhausted");
            }
        }
        if self.table().saber
            && u.traits.rifled_musket
            && self.units[enemy].arm == Arm::Cavalry
            && !charging
        {
            add(stands as i32, "rifled muskets against charging cavalry");
        }
        let p = self.presence(unit);
        if p > 0 {
            add(p as i32, "command presence");
        }
        (n.max(1) as u32, words.join(" "))
    }

    /// Hits a side's units in the charge have taken this turn (a knocked-out unit counts what
    /// it could take).
    fn side_hits(&self, units: &[usize]) -> u32 {
        let ex = self.table().exhaustion_hit;
        units
            .iter()
            .map(|&k| {
                let u = &self.units[k];
                if u.ko {
                    u.capacity(ex)
                        .max(self.ko_hits.get(&k).copied().unwrap_or(0))
                } else {
                    u.turn_hits
                }
            })
            .sum()
    }

    pub fn resolve_charge(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        if self.hold_resolution {
            return;
        }
        let Some(c) = self.charge.clone() else { return };
        let (a, d) = (c.charger, c.target);
        let side_a = self.units[a].side;
        let mut round = 1;
        let id = self.next_attack();
        let mut consolidators: Vec<usize> = Vec::new();
        loop {
            if self.units[a].ko || self.units[d].ko {
                break;
            }
            // A defender contacted on the flank or rear fights with its flank stand only.
            let flank = self.aspect_of(d, a) != Aspect::Front
                || (self.units[d].formed_troops()
                    && self.units[d].formation == Formation::MarchColumn);
            let (ad, aw) =
                self.charge_dice(a, d, true, c.supporters[side_a.index()].len(), false, round);
            let (dd, dw) = self.charge_dice(
                d,
                a,
                c.counter,
                c.supporters[side_a.other().index()].len(),
                flank,
                round,
            );
            let defender_cover = if round == 1 {
                self.first_round_cover(d, a)
            } else {
                Cover::Open
            };
            log.add(|| {
                Event::new(
                    "melee",
                    rule("Resolution"),
                    format!(
                        "charge round {round}: {} against {}",
                        self.units[a].label(),
                        self.units[d].label()
                    ),
                )
                .side(side_a)
                .units([self.units[a].id.clone(), self.units[d].id.clone()])
            });
            let on_d = Attack {
                dice: ad,
                to_hit: self.charge_to_hit(d, defender_cover.to_hit()),
                flank,
                ranged: false,
                from: self.units[a].hex,
                id,
                reckoning: format!("{aw}; defender {}", defender_cover.name()),
                jams: false,
                cover_save: None,
            };
            let on_a = Attack {
                dice: dd,
                to_hit: self.charge_to_hit(a, 4),
                flank: false,
                ranged: false,
                from: self.units[d].hex,
                id,
                reckoning: format!("{dw}; chargers count as in the open"),
                jams: false,
                cover_save: None,
            };
            self.melee_hits(d, &on_d, dice, log);
            self.melee_hits(a, &on_a, dice, log);
            let side_units = |s: Side, contact: usize| {
                let mut v = vec![contact];
                v.extend(c.supporters[s.index()].iter().copied());
                v
            };
            let ua = side_units(side_a, a);
            let ud = side_units(side_a.other(), d);
            let (ha, hd) = (self.side_hits(&ua), self.side_hits(&ud));
            if ha == hd {
                if !self.units[a].ko && !self.units[d].ko && round < MAX_ROUNDS {
                    round += 1;
                    continue;
                }
                log.add(|| {
                    Event::new(
                        "outcome",
                        rule("Outcome"),
                        format!("hits equal ({ha} each): both sides consolidate"),
                    )
                    .side(side_a)
                });
                consolidators = ua.iter().chain(ud.iter()).copied().collect();
                break;
            }
            let (win, lose, wc, lc, wh, lh) = if ha < hd {
                (ua, ud, a, d, ha, hd)
            } else {
                (ud, ua, d, a, hd, ha)
            };
            consolidators = win.clone();
            let double = lh >= 2 * wh.max(1) || wh == 0;
            let _ = double;
            let big = lh.max(wh);
            let small = lh.min(wh);
            let doubled = big >= 2 * small && small > 0 || small == 0;
            log.add(|| {
                Event::new(
                    "outcome",
                    rule("Outcome"),
                    format!(
                        "{} took {lh} hits this turn, {} {wh}: {}",
                        self.units[lc].label(),
                        self.units[wc].label(),
                        if doubled {
                            "double or more"
                        } else {
                            "greater, but not double"
                        }
                    ),
                )
                .side(self.units[wc].side)
                .units([self.units[wc].id.clone(), self.units[lc].id.clone()])
            });
            let enemy_hex = self.units[wc].hex;
            for &k in &lose {
                if self.units[k].ko {
                    continue;
                }
                let in_contact = k == lc;
                if doubled && in_contact {
                    self.knock_out(k, "lost the charge by double or more", log);
                } else if in_contact || doubled {
                    let aid = self.attack_seq;
                    self.suppress(k, aid, log, &[]);
                    let half = hexes(self.units[k].move_cm / 2);
                    let unlimbered = self.units[k].arm == Arm::Artillery && !self.units[k].limbered;
                    let fortified =
                        self.map().terrain(self.units[k].hex) == volley_core::map::Terrain::Fort;
                    if unlimbered || fortified {
                        self.knock_out(
                            k,
                            "unlimbered guns and troops in fortifications cannot retreat",
                            log,
                        );
                    } else {
                        self.retreat_path(
                            k,
                            enemy_hex,
                            half.max(1),
                            crate::attacks::Giving::Retreat,
                            "retreats half a move",
                            log,
                        );
                    }
                }
            }
            // A winner in contact that charged (the charger, or a defender that
            // counter-charged) has concluded a charge: disordered, and cavalry exhausted as
            // well. A defender that held its ground is not.
            let charged = wc == a || c.counter;
            if !self.units[wc].ko && charged {
                self.disorder(wc, log, "concluded a charge");
                if self.units[wc].arm == Arm::Cavalry {
                    self.units[wc].exhausted = true;
                    self.ko_if_past_capacity(wc, log);
                }
            }
            break;
        }
        self.ko_hits.clear();
        self.charge = None;
        self.interrupt = None;
        self.check_end_of_battle(log);
        if self.outcome.is_none() {
            self.consolidating = consolidators
                .into_iter()
                .filter(|&k| !self.units[k].ko)
                .collect();
            self.consolidated.clear();
            self.next_consolidation(Some(side_a));
        }
    }

    // Consolidation.

    /// Gives the next side with a unit that can consolidate its decision (the attacker
    /// first), or closes the charge.
    fn next_consolidation(&mut self, from: Option<Side>) {
        let order = match from {
            Some(s) => vec![s, s.other()],
            None => vec![],
        };
        for side in order {
            let mut c = Vec::new();
            self.interrupt = Some(Interrupt::Consolidate(side));
            self.consolidate_candidates(side, &mut c);
            if c.iter().any(|o| self.check_consolidate::<()>(*o).is_ok()) {
                return;
            }
        }
        self.interrupt = None;
        self.consolidating.clear();
        self.consolidated.clear();
    }

    pub fn consolidate_candidates(&self, side: Side, out: &mut Vec<Order>) {
        for &k in &self.consolidating {
            let u = &self.units[k];
            if u.side != side || u.ko {
                continue;
            }
            for h in volley_core::geometry::front_hexes(u.hex, u.facing) {
                out.push(Order::Move { unit: k, to: h });
            }
            if u.formed_troops() {
                for f in Facing::ALL {
                    out.push(Order::Pivot { unit: k, facing: f });
                }
            }
        }
    }

    /// "Consolidate": up to 5 cm (a hex) in the facing direction, never closer than 3 cm to
    /// a visible enemy (not next to one), and a new facing; each unit once.
    pub fn check_consolidate<R: Refusal>(&self, o: Order) -> Result<(), R> {
        let (unit, moving) = match o {
            Order::End => return Ok(()),
            Order::Move { unit, .. } => (unit, true),
            Order::Pivot { unit, .. } => (unit, false),
            _ => {
                return Err(R::because(|| {
                    "now only consolidation: a hex forward, a new facing, or end"
                }))
            }
        };
        if !self.consolidating.contains(&unit) {
            return Err(R::because(|| {
                format!("{} does not consolidate", self.units[unit].label())
            }));
        }
        if self.consolidated.contains(&(unit, moving)) {
            return Err(R::because(|| {
                format!("{} has done that already", self.units[unit].label())
            }));
        }
        let u = &self.units[unit];
        match o {
            Order::Move { to, .. } => {
                if !volley_core::geometry::front_hexes(u.hex, u.facing).contains(&to)
                    || !self.ground().passable(to, u)
                    || self.occupant(to).is_some()
                    || self.hqs_in(to).any(|h| self.units[h].side != u.side)
                    || self.ground().obstacle(u.hex, to)
                {
                    return Err(R::because(|| {
                        format!("{} cannot consolidate into {}", u.label(), label(to))
                    }));
                }
                let near_enemy = (0..self.units.len()).any(|e| {
                    let t = &self.units[e];
                    t.side != u.side
                        && !t.ko
                        && !t.is_hq()
                        && distance(t.hex, to) <= 1
                        && self.sees(unit, e)
                });
                if near_enemy {
                    return Err(R::because(|| {
                        "consolidation may not end next to a visible enemy"
                    }));
                }
                Ok(())
            }
            Order::Pivot { facing, .. } => {
                if !u.formed_troops() || facing == u.facing {
                    return Err(R::because(|| format!("{} cannot turn so", u.label())));
                }
                Ok(())
            }
            _ => unreachable!(),
        }
    }

    pub fn perform_consolidate(&mut self, side: Side, o: Order, log: &mut Log) {
        match o {
            Order::Move { unit, to } => {
                self.consolidated.push((unit, true));
                let from = self.units[unit].hex;
                self.move_with_hqs(unit, to);
                let u = &self.units[unit];
                log.add(|| {
                    Event::new(
                        "move",
                        rule("Consolidate"),
                        format!(
                            "{} consolidates {} to {}",
                            u.label(),
                            label(from),
                            label(to)
                        ),
                    )
                    .side(u.side)
                    .units([u.id.clone()])
                });
            }
            Order::Pivot { unit, facing } => {
                self.consolidated.push((unit, false));
                self.units[unit].facing = facing;
                let u = &self.units[unit];
                log.add(|| {
                    Event::new(
                        "turn",
                        rule("Consolidate"),
                        format!("{} consolidates facing {}", u.label(), facing.name()),
                    )
                    .side(u.side)
                    .units([u.id.clone()])
                });
            }
            _ => {
                let next = if side == self.active {
                    Some(side.other())
                } else {
                    None
                };
                match next {
                    Some(s) => {
                        // The other side's turn to consolidate, if it has any to.
                        let mut c = Vec::new();
                        self.interrupt = Some(Interrupt::Consolidate(s));
                        self.consolidate_candidates(s, &mut c);
                        if !c.iter().any(|o| self.check_consolidate::<()>(*o).is_ok()) {
                            self.interrupt = None;
                            self.consolidating.clear();
                            self.consolidated.clear();
                        }
                    }
                    None => {
                        self.interrupt = None;
                        self.consolidating.clear();
                        self.consolidated.clear();
                    }
                }
                return;
            }
        }
        let mut c = Vec::new();
        self.consolidate_candidates(side, &mut c);
        if !c.iter().any(|o| self.check_consolidate::<()>(*o).is_ok()) {
            self.perform_consolidate(side, Order::End, log);
        }
    }

    /// A round's hits on one unit: saves, then knocked out if the turn's hits reach its
    /// capacity. The charge's outcome, not a suppression test, decides what else befalls it.
    fn melee_hits(&mut self, target: usize, a: &Attack, dice: &mut dyn Dice, log: &mut Log) {
        let rolls: Vec<u32> = (0..a.dice).map(|_| dice.roll(6)).collect();
        let hits = rolls.iter().filter(|&&r| r >= a.to_hit).count() as u32;
        let mut saved = 0;
        let mut save_rolls = Vec::new();
        if let Some((sv, n)) = self.saves(target, hits, a.flank, false) {
            save_rolls = (0..n).map(|_| dice.roll(6)).collect();
            saved = (save_rolls.iter().filter(|&&r| r >= sv).count() as u32).min(hits);
        }
        let net = hits - saved;
        let t = &self.units[target];
        log.add(|| {
            Event::new(
                "hit",
                rule("Calculating Hits"),
                format!(
                    "{}: {} dice ({}) needing {}+: rolled {rolls:?}, {hits} hit{}{}",
                    t.label(),
                    a.dice,
                    a.reckoning,
                    a.to_hit,
                    if hits == 1 { "" } else { "s" },
                    if save_rolls.is_empty() {
                        String::new()
                    } else {
                        format!(", saves {save_rolls:?}: {saved} saved")
                    }
                ),
            )
            .side(t.side)
            .units([t.id.clone()])
        });
        if net == 0 {
            return;
        }
        self.units[target].turn_hits += net;
        let ex = self.table().exhaustion_hit;
        let t = &self.units[target];
        if t.turn_hits >= t.capacity(ex) {
            self.ko_hits.insert(target, t.turn_hits);
            let why = format!("{} hits this turn in the charge", t.turn_hits);
            self.knock_out(target, &why, log);
        }
    }
}
