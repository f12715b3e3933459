//! The rest of the artillery chapter: the firer's choice of ammunition, the shell's burst and
//! what it may harm (with shrapnel and air bursts), howitzers and mortars firing at high angle
//! and their deviation, the choice of the nearest enemy guns as a target, the light guns a
//! regiment drags along, and the artillery officers who order grand batteries. Each event
//! cites its section of the book by name.
//!
//! Round shot and canister are in [`crate::firing`], which asks this file (never the other way
//! round); the casualty pipeline every attack goes through is in [`crate::attacks`]; the readings chosen where the book is unclear are numbered 70–89 in
//! docs/rules/bpt-commander.md.

use crate::attacks::Attack;
use crate::orders::Ammo;
use crate::orders::Order;
use crate::state::{rule, BptGame};
use crate::table::facing_towards;
use crate::table::Table;
use crate::terrain::{self, Cover};
use crate::troops::{Arm, Formation};
use volley_core::game::Refusal;
use volley_core::geometry::{distance, step, Facing};
use volley_core::map::Terrain;
use volley_core::odds::OddsCase;
use volley_core::{chance, Dice, Event, Hex, Log};

/// The light howitzers of a regiment: attacks a gun and range (the lists' Howitzer Field
/// Artillery row, 1/20).
pub const REGIMENTAL_DICE: u32 = 1;
pub const REGIMENTAL_RANGE_CM: u32 = 20;

/// The save a target behind a wall has against a mortar's shell.
pub const MORTAR_WALL_SAVE: u32 = 4;

/// How many artillery units each Field Artillery Officer needs on the table.
pub const GUNS_PER_FAO: usize = 6;

/// Ground a shell is lost in ("High Angle Direct Fire": wet terrain).
pub fn wet(t: Terrain) -> bool {
    matches!(t, Terrain::Water | Terrain::Ford | Terrain::Marsh)
}

/// Where a deviating shell comes down, or why it is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    At(Hex),
    OffTable,
    Wet(Hex),
}

impl BptGame {
    /// Howitzers and mortars: shell only, always at high angle.
    pub fn high_angle(&self, unit: usize) -> bool {
        self.units[unit].high_angle()
    }

    /// Whether a shell from `gun` at `target` goes at high angle, deviating: always from
    /// howitzers and mortars; from a gun with limited indirect fire (trait `indirect`, the
    /// colonial modern light gun) when it cannot see the target itself.
    pub fn lobs(&self, gun: usize, target: usize) -> bool {
        self.high_angle(gun) || (self.units[gun].traits.indirect && !self.sees(gun, target))
    }

    /// Limited indirect fire: a gun with the trait may shell a target it cannot see when a
    /// unit or command unit of its side sees it.
    pub fn observed(&self, gun: usize, target: usize) -> bool {
        let side = self.units[gun].side;
        self.units[gun].traits.indirect
            && (0..self.units.len())
                .any(|k| k != gun && self.units[k].side == side && self.sees(k, target))
    }

    /// The ammunition `fire UNIT TARGET` means: shell for high-angle guns, else small arms or
    /// round shot.
    pub fn default_ammo(&self, unit: usize) -> Ammo {
        Ammo::default_for(&self.units[unit])
    }

    /// The ammunition a unit may choose from, before range and target are looked at.
    pub fn ammo_choices(&self, unit: usize) -> Vec<Ammo> {
        let u = &self.units[unit];
        let mut v = Vec::new();
        if u.arm != Arm::Artillery {
            v.push(Ammo::Normal);
            return v;
        }
        if !self.high_angle(unit) {
            v.push(Ammo::Normal);
            if u.canister.is_some() {
                v.push(Ammo::Canister);
            }
        }
        // A Gatling gun fires bullets only.
        if u.traits.gatling {
            return v;
        }
        v.push(Ammo::Shell);
        if self.table().air_burst {
            v.push(Ammo::AirBurst);
        }
        v
    }

    /// Every fire order a unit could give at a target, one per ammunition.
    pub fn fire_orders(&self, unit: usize, target: usize, out: &mut Vec<Order>) {
        for ammo in self.ammo_choices(unit) {
            out.push(Order::Fire { unit, target, ammo });
        }
    }

    /// Why a unit may not load `ammo` against `target`, if it may not.
    pub fn check_ammo<R: Refusal>(&self, unit: usize, target: usize, ammo: Ammo) -> Result<(), R> {
        let u = &self.units[unit];
        if !self.ammo_choices(unit).contains(&ammo) {
            return Err(R::because(|| match ammo {
                Ammo::AirBurst if u.arm == Arm::Artillery => {
                    "air burst is an optional rule not in play (option air_burst)".to_string()
                }
                _ if self.high_angle(unit) => format!("{} fires shell only", u.label()),
                Ammo::Canister if u.arm == Arm::Artillery => {
                    format!("{} has no canister", u.label())
                }
                _ => format!("{} has no {}", u.label(), ammo.word()),
            }));
        }
        if ammo == Ammo::AirBurst
            && terrain::area(self.map().terrain(self.units[target].hex)).is_some()
        {
            return Err(R::because(|| {
                format!(
                    "air burst only over open ground: {} is in {}",
                    self.units[target].label(),
                    self.map().terrain(self.units[target].hex).name()
                )
            }));
        }
        Ok(())
    }

    // Counter-battery fire.

    /// The targets fire may pick where it must go at the nearest enemy (initiative fire, and
    /// ordered fire with `order_fire = nearest`): the nearest visible enemies and, for guns,
    /// the nearest visible enemy artillery as well ("Counter-Battery Fire").
    pub fn nearest_targets(&self, unit: usize) -> Vec<usize> {
        let mut out = self.nearest_visible_enemies(unit);
        if self.units[unit].arm == Arm::Artillery {
            for k in self.nearest_visible_artillery(unit) {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }

    /// The visible enemy artillery units nearest `unit` (several when tied).
    pub fn nearest_visible_artillery(&self, unit: usize) -> Vec<usize> {
        self.nearest_visible_such(unit, |e| e.arm == Arm::Artillery)
    }

    // High angle direct fire.

    /// Deviation dice for a shell aimed `aim` from `from`: one a 5 cm of range, the first
    /// 10 cm counting one (digest C33), and one more when the firer cannot see the target.
    pub fn deviation_dice(&self, from: Hex, aim: Hex, unseen: bool) -> u32 {
        distance(from, aim).saturating_sub(1).max(1) + u32::from(unseen)
    }

    /// Where a shell aimed at `aim` from `from` comes down after a deviation of `cm` in the
    /// direction of the direction die's `face` (1: straight on, away from the firer; then
    /// clockwise, a hexside a face).
    pub fn deviated(&self, from: Hex, aim: Hex, face: u32, cm: u32) -> Landing {
        let away = facing_towards(from, aim).unwrap_or(Facing::N);
        let f = away.turn(face as i32 - 1);
        let mut at = aim;
        for _ in 0..(cm + 2) / 5 {
            at = step(at, f);
        }
        let map = self.map();
        if !map.contains(at) {
            Landing::OffTable
        } else if wet(map.terrain(at)) {
            Landing::Wet(at)
        } else {
            Landing::At(at)
        }
    }

    /// Rolls a high-angle shell's deviation ("High Angle Direct Fire"): with the hit die
    /// (option `deviation = hit_die`) a 1 or 2 lands on the aiming point; otherwise the
    /// direction die and the distance dice. `None`: the shell is lost.
    pub fn deviate(
        &self,
        gun: usize,
        aim: Hex,
        unseen: bool,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) -> Option<Hex> {
        let from = self.units[gun].hex;
        let u = &self.units[gun];
        let say = |text: String, log: &mut Log| {
            log.add(|| {
                Event::new("deviation", rule("High Angle Direct Fire"), text)
                    .side(u.side)
                    .units([u.id.clone()])
            })
        };
        if self.table().deviation_hit_die {
            let r = dice.roll(6);
            if r <= 2 {
                say(
                    format!(
                        "{}'s shell: hit die {r}, on the aiming point {}",
                        u.label(),
                        volley_core::geometry::label(aim)
                    ),
                    log,
                );
                return Some(aim);
            }
        }
        let face = dice.roll(6);
        let n = self.deviation_dice(from, aim, unseen);
        let rolls: Vec<u32> = (0..n).map(|_| dice.roll(6)).collect();
        let cm: u32 = rolls.iter().sum();
        let landing = self.deviated(from, aim, face, cm);
        say(
            format!(
                "{}'s shell deviates: direction {face}, {n} dice{} {rolls:?} = {cm} cm: {}",
                u.label(),
                if unseen { " (target unseen)" } else { "" },
                match landing {
                    Landing::At(h) => format!("lands in {}", volley_core::geometry::label(h)),
                    Landing::OffTable => "off the table, lost".into(),
                    Landing::Wet(h) =>
                        format!("in wet ground at {}, lost", volley_core::geometry::label(h)),
                }
            ),
            log,
        );
        match landing {
            Landing::At(h) => Some(h),
            _ => None,
        }
    }

    // Shell.

    /// A gun's shell at `target` ("Shell"; "High Angle Direct Fire"): high-angle guns deviate
    /// first; the burst attacks every unit and command unit in the hex it lands in.
    pub fn fire_shell(
        &mut self,
        gun: usize,
        target: usize,
        ammo: Ammo,
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let aim = self.units[target].hex;
        let landing = if self.lobs(gun, target) {
            let unseen = !self.sees(gun, target);
            self.deviate(gun, aim, unseen, dice, log)
        } else {
            Some(aim)
        };
        if let Some(hex) = landing {
            self.burst(gun, hex, ammo == Ammo::AirBurst, id, dice, log);
        }
    }

    /// The units a burst in `hex` attacks: the unit there and any command units with it,
    /// friend or foe.
    pub fn burst_zone(&self, hex: Hex) -> Vec<usize> {
        let mut v: Vec<usize> = self.occupant(hex).into_iter().collect();
        v.extend(self.hqs_in(hex));
        v
    }

    fn burst(
        &mut self,
        gun: usize,
        hex: Hex,
        air: bool,
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let zone = self.burst_zone(hex);
        if zone.is_empty() {
            let u = &self.units[gun];
            log.add(|| {
                Event::new(
                    "shell",
                    rule("Shell"),
                    format!(
                        "{}'s shell bursts on empty ground at {}",
                        u.label(),
                        volley_core::geometry::label(hex)
                    ),
                )
                .side(u.side)
            });
            return;
        }
        // Every target in the burst is attacked with the same dice: those against the unit
        // there (a command unit alone: against it).
        let lead = zone[0];
        let mut attacks = None;
        for k in zone {
            if self.units[k].ko {
                continue;
            }
            match self.shell_attack(gun, k, lead, air, id) {
                Ok(a) => {
                    attacks.get_or_insert(a.dice);
                    self.resolve_attack(k, &a, dice, log);
                }
                Err(why) => {
                    let t = &self.units[k];
                    log.add(|| {
                        Event::new("shell", rule("Howitzers"), format!("{}: {why}", t.label()))
                            .side(t.side)
                            .units([t.id.clone()])
                    });
                }
            }
        }
        // Shell at troops in a wooden construction strikes it too.
        if let Some(n) = attacks {
            if self.wooden_construction_at(hex) {
                self.strike_construction(hex, n, id, dice, log);
            }
        }
    }

    /// Whether the hex holds a wooden construction, which shell harms ("Shell"; the
    /// Constructions optional rule).
    pub fn wooden_construction_at(&self, hex: Hex) -> bool {
        self.table().constructions
            && self.work_at(hex).is_some_and(|w| {
                matches!(
                    w.kind,
                    crate::terrain::WorkKind::WoodenBuilding | crate::terrain::WorkKind::LogWorks
                )
            })
    }

    /// The attack a shell from `gun` (a gun, or a regiment's own howitzers) makes on unit `k`
    /// in its burst, with the dice reckoned against `lead` (the unit in the burst), or why it
    /// has no effect (howitzers harm only targets in the open, unless bursting in the air).
    pub fn shell_attack(
        &self,
        gun: usize,
        k: usize,
        lead: usize,
        air: bool,
        id: u32,
    ) -> Result<Attack, String> {
        let (g, t) = (&self.units[gun], &self.units[k]);
        let howitzer = g.arm != Arm::Artillery || g.traits.howitzer;
        let (mut n, mut words) = if g.arm == Arm::Artillery {
            let (n, w) = self.fire_dice(gun, lead);
            (n as i32, w)
        } else {
            self.regimental_dice(gun, lead)
        };
        let guns = if g.arm == Arm::Artillery {
            g.stands
        } else {
            g.regimental_guns
        };
        if self.table().shrapnel {
            n += guns as i32;
            words.push_str(&format!(" {guns:+} shrapnel"));
        }
        if air {
            n -= 1;
            words.push_str(" -1 air burst");
        }
        let (to_hit, why) = if t.is_hq() {
            (6, "a command unit, hit on 6".to_string())
        } else {
            let mut cover = if air {
                Cover::Open
            } else {
                self.cover_against(k, gun)
            };
            // Howitzers and mortars are smoothbore: cover one step easier.
            if !air && (g.arm != Arm::Artillery || g.traits.cover_shift) {
                cover = cover.easier();
            }
            if howitzer && cover != Cover::Open {
                return Err(format!(
                    "howitzer shell has no effect on a target {} (air burst would reach it)",
                    cover.name()
                ));
            }
            let mut score = cover.to_hit();
            let mut why = format!(
                "target {}{}",
                cover.name(),
                if air { " (air burst)" } else { "" }
            );
            if self.table().first_fire && !g.has_fired {
                score -= 1;
                why.push_str(", first fire +1");
            }
            (score, why)
        };
        // A mortar lobs its shell over a wall at a target it cannot see: 4+ save (list notes).
        let over_wall = g.traits.mortar && !air && !t.is_hq() && self.behind_screen(k, gun);
        Ok(Attack {
            dice: n.max(1) as u32,
            to_hit,
            flank: self.flank_shot(k, gun),
            ranged: true,
            from: g.hex,
            id,
            reckoning: format!(
                "{} {words}; {why}{}",
                if air { "air burst" } else { "shell" },
                if over_wall {
                    "; over a wall, saves 4+"
                } else {
                    ""
                }
            ),
            cover_save: over_wall.then_some(MORTAR_WALL_SAVE),
            jams: false,
        })
    }

    /// Whether a wall, hedge or fence on `target`'s hexside screens it from `from` along both
    /// centre lines (as cover is judged).
    pub fn behind_screen(&self, target: usize, from: usize) -> bool {
        let (t, f) = (self.units[target].hex, self.units[from].hex);
        (0..2).all(|side| {
            let before = volley_core::geometry::line_between(f, t, side)
                .last()
                .unwrap_or(f);
            terrain::screens(self.map().hexside(before, t))
        })
    }

    // Regimental artillery.

    /// The dice of a regiment's own howitzers at unit `k`: the howitzer row's attack a gun,
    /// no half-range bonus, the other firing modifiers as for guns.
    pub fn regimental_dice(&self, unit: usize, k: usize) -> (i32, String) {
        let (u, t) = (&self.units[unit], &self.units[k]);
        let guns = u.regimental_guns;
        let mut n = (REGIMENTAL_DICE * guns) as i32;
        let mut words = vec![format!(
            "regimental howitzers {REGIMENTAL_DICE} × {guns} guns"
        )];
        let mut add = |d: i32, why: &str| {
            n += d;
            words.push(format!("{d:+} {why}"));
        };
        if t.formation == Formation::ExtendedLine && t.formed_troops() {
            add(-1, "target in extended line");
        }
        if self.flank_shot(k, unit) {
            add(2, "at the flank or rear");
        }
        if t.formation == Formation::Square && t.arm == Arm::Infantry {
            add(guns as i32, "artillery against a square");
        }
        if u.disordered() {
            add(-2, "disordered");
        }
        (n.max(1), words.join(" "))
    }

    /// After a regiment fires, its own howitzers fire a shell at the same aiming point, as
    /// high-angle guns do, when it lies within their range ("Regimental Artillery").
    pub fn regimental_shot(
        &mut self,
        unit: usize,
        target: usize,
        aim: Hex,
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let u = &self.units[unit];
        if u.regimental_guns == 0 || u.ko || !self.regimental_in_range(unit, aim) {
            return;
        }
        log.add(|| {
            Event::new(
                "fire",
                rule("Regimental Artillery"),
                format!(
                    "{}'s regimental howitzers fire shell at {}",
                    u.label(),
                    volley_core::geometry::label(aim)
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        let unseen = self.units[target].ko || !self.sees(unit, target);
        if let Some(hex) = self.deviate(unit, aim, unseen, dice, log) {
            self.burst(unit, hex, false, id, dice, log);
        }
    }

    pub fn regimental_in_range(&self, unit: usize, aim: Hex) -> bool {
        distance(self.units[unit].hex, aim) <= crate::table::hexes(REGIMENTAL_RANGE_CM)
    }

    // Field Artillery Officers.

    /// Why a Field Artillery Officer may not order these units, if it may not: only
    /// artillery, and only a grand battery (two or more guns whose hexes touch in one group).
    pub fn check_grand_battery<R: Refusal>(&self, hq: usize, units: &[usize]) -> Result<(), R> {
        let h = &self.units[hq];
        if !h.fao {
            return Ok(());
        }
        if let Some(&k) = units.iter().find(|&&k| self.units[k].arm != Arm::Artillery) {
            return Err(R::because(|| {
                format!(
                    "{} is a Field Artillery Officer: it orders artillery only, not {}",
                    h.label(),
                    self.units[k].label()
                )
            }));
        }
        if units.len() < 2 {
            return Err(R::because(|| {
                format!(
                    "{} orders grand batteries only: join two or more touching guns",
                    h.label()
                )
            }));
        }
        // One group: every gun reached from the first through touching guns.
        let mut reached = vec![units[0]];
        let mut i = 0;
        while i < reached.len() {
            let a = reached[i];
            for &b in units {
                if !reached.contains(&b) && self.touching(a, b) {
                    reached.push(b);
                }
            }
            i += 1;
        }
        if reached.len() < units.len() {
            return Err(R::because(|| {
                "a grand battery's guns must touch one another in one group"
            }));
        }
        Ok(())
    }

    /// Whether a unit is carrying out a grand battery's order now.
    pub fn in_grand_battery(&self, unit: usize) -> bool {
        let u = &self.units[unit];
        self.phase == crate::state::Phase::Command
            && self.interrupt.is_none()
            && u.side == self.active
            && self.order_units.contains(&unit)
            && u.ordered_by.is_some_and(|h| self.units[h].fao)
    }

    /// Why a gun of a grand battery may not give this action: the battery only fires, and all
    /// at one target.
    pub fn check_battery_action<R: Refusal>(&self, o: Order) -> Result<(), R> {
        let Some(unit) = o.actor() else { return Ok(()) };
        if !self.in_grand_battery(unit) {
            return Ok(());
        }
        match o {
            Order::Fire { target, .. } => match self.battery {
                Some((order, t)) if order == self.order_id && t != target => {
                    Err(R::because(|| {
                        format!(
                            "the grand battery fires at one target: {}",
                            self.units[t].label()
                        )
                    }))
                }
                _ => Ok(()),
            },
            _ => Err(R::because(|| {
                "a grand battery's order is to fire, every gun at one target"
            })),
        }
    }

    // Odds.

    /// The exact outcome classes of a shell ("what are my odds?"): the hit die, the direction
    /// and the distance sum of a deviation, each landing followed by the attack classes of
    /// the one unit there. `None` where a burst would attack two units at once (a unit with
    /// its command unit), or where the shot forces a square: enumerated instead.
    pub fn shell_cases(
        &self,
        gun: usize,
        target: usize,
        ammo: Ammo,
        id: u32,
    ) -> Option<Vec<OddsCase>> {
        let aim = self.units[target].hex;
        let from = self.units[gun].hex;
        // (probability, dice, landing)
        let mut landings: Vec<(f64, Vec<u32>, Option<Hex>)> = Vec::new();
        if self.lobs(gun, target) {
            let unseen = !self.sees(gun, target);
            let (p_dev, head): (f64, Vec<u32>) = if self.table().deviation_hit_die {
                landings.push((1.0 / 3.0, vec![1], Some(aim)));
                (2.0 / 3.0, vec![3])
            } else {
                (1.0, Vec::new())
            };
            let n = self.deviation_dice(from, aim, unseen);
            let sums = chance::sum_of_d6(n);
            // Landings merged, each with the first sequence of dice that reaches it.
            let mut merged: Vec<(Option<Hex>, f64, Vec<u32>)> = Vec::new();
            for face in 1..=6u32 {
                for (cm, p) in sums.iter().enumerate() {
                    if *p == 0.0 {
                        continue;
                    }
                    let land = match self.deviated(from, aim, face, cm as u32) {
                        Landing::At(h) => Some(h),
                        _ => None,
                    };
                    let prob = p_dev * p / 6.0;
                    match merged.iter_mut().find(|m| m.0 == land) {
                        Some(m) => m.1 += prob,
                        None => {
                            let mut d = head.clone();
                            d.push(face);
                            d.extend(chance::dice_for_sum(n, cm as u32));
                            merged.push((land, prob, d));
                        }
                    }
                }
            }
            landings.extend(merged.into_iter().map(|(h, p, d)| (p, d, h)));
        } else {
            landings.push((1.0, Vec::new(), Some(aim)));
        }
        let mut out = Vec::new();
        for (p, head, land) in landings {
            // A wooden construction struck as well rolls again: enumerated.
            if land.is_some_and(|h| self.wooden_construction_at(h)) {
                return None;
            }
            let zone = land.map(|h| self.burst_zone(h)).unwrap_or_default();
            match zone.as_slice() {
                [] => out.push(OddsCase {
                    probability: p,
                    dice: head,
                }),
                [k] => match self.shell_attack(gun, *k, *k, ammo == Ammo::AirBurst, id) {
                    Err(_) => out.push(OddsCase {
                        probability: p,
                        dice: head,
                    }),
                    Ok(a) => {
                        for c in self.attack_classes(
                            *k,
                            a.dice,
                            a.to_hit,
                            a.flank,
                            true,
                            id,
                            a.cover_save,
                        ) {
                            let mut d = head.clone();
                            d.extend(c.dice);
                            out.push(OddsCase {
                                probability: p * c.probability,
                                dice: d,
                            });
                        }
                    }
                },
                _ => return None,
            }
        }
        Some(out)
    }
}
