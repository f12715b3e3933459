//! Movement ("Movement", "Movement Formations", "Terrain"): how far a unit goes in one move
//! action and where it may stop; wheeling, about face, retiring, obliquing (a move into a
//! front-diagonal hex keeps the facing), refusing a flank, prolonge, the road bonus for
//! columns, limbering and formation changes by the deployment table, and evading.

use crate::reach::Stop;
use crate::state::{rule, BptGame};
use crate::table::{hexes, Table, HEX_CM};
use crate::terrain::area;
use crate::troops::{Arm, Formation, Unit};
use std::cmp::Reverse;
use volley_core::game::Refusal;
use volley_core::geometry::{front_hexes, label, step, Facing};
use volley_core::{Event, Hex, Log};

/// What a move search collects: every place a move may end (the best way to each, by map
/// cell), or only whether there is one.
enum Found<'a> {
    All(&'a mut Vec<Option<(Hex, Stop)>>),
    Any(&'a mut bool),
}

impl BptGame {
    /// The move allowance in cm of one move action.
    pub fn allowance_cm(&self, unit: usize) -> u32 {
        let u = &self.units[unit];
        match u.arm {
            Arm::Artillery if !u.limbered => {
                if u.traits.no_manhandle {
                    0
                } else {
                    u.manhandle_cm
                }
            }
            _ if u.formed_troops() && u.formation == Formation::Square => 0,
            _ if u.prone => 0,
            // Light infantry and sharpshooters move 12 cm when acting on their own (the lists'
            // skirmish notes): not ordered together with other units.
            _ if u.traits.light
                && u.arm == Arm::Infantry
                && !self.order_units.iter().any(|&k| k != unit) =>
            {
                u.move_cm.max(12)
            }
            _ => u.move_cm,
        }
    }

    /// Whether a unit moves freely in any direction (command units, limbered or
    /// man-handled guns, skirmishers in extended line); formed troops go forward or
    /// oblique, and turn by wheeling or about face.
    fn free_mover(u: &Unit) -> bool {
        !u.formed_troops()
            || (u.traits.light && u.formation == Formation::ExtendedLine)
            || u.traits.scout
    }

    /// What [`BptGame::reachable`] gives, kept while the legal actions are listed (one
    /// search a unit rather than one a destination or an order).
    pub fn reach_of(&self, unit: usize) -> crate::reach::Reach {
        self.reach_cache.get(unit, || self.reachable(unit))
    }

    /// Every hex one move action can reach, with its cost ("Movement", "Terrain", "Road Bonus
    /// Movement"). Command units never stop for terrain; others stop on entering or leaving
    /// area terrain, cross a linear obstacle or a ford only from contact (the first step of
    /// a move), and go through friends at the cost of half the allowance.
    pub fn reachable(&self, unit: usize) -> Vec<(Hex, Stop)> {
        let allowance = self.allowance_cm(unit);
        if allowance == 0 {
            return Vec::new();
        }
        let u = &self.units[unit];
        let mut out = vec![None; self.map().cell_count()];
        self.search(unit, allowance, false, &mut Found::All(&mut out));
        // A column moving all the way along a road: +5 cm on foot, +10 cm mounted.
        let column = u.formed_troops() && u.formation == Formation::MarchColumn
            || (u.arm == Arm::Artillery && u.limbered);
        if column && self.map().has_road(u.hex) {
            let bonus = if u.arm == Arm::Infantry { 5 } else { 10 };
            self.search(unit, allowance + bonus, true, &mut Found::All(&mut out));
        }
        let mut v: Vec<(Hex, Stop)> = out.into_iter().flatten().collect();
        v.sort_by_key(|(h, _)| (h.x, h.y));
        v
    }

    /// Whether one move action takes the unit anywhere at all: [`BptGame::reachable`] is not
    /// empty, found without searching further than the first place.
    pub fn may_move_at_all(&self, unit: usize) -> bool {
        let allowance = self.allowance_cm(unit);
        let mut any = false;
        if allowance > 0 {
            self.search(unit, allowance, false, &mut Found::Any(&mut any));
        }
        any
    }

    fn search(&self, unit: usize, allowance: u32, road_only: bool, found: &mut Found<'_>) {
        let u = &self.units[unit];
        // Where the enemy's command units stand: no unit may enter their hexes.
        let enemy_hqs: Vec<Hex> = (0..self.units.len())
            .filter(|&h| {
                let c = &self.units[h];
                c.is_hq() && !c.ko && c.side != u.side
            })
            .map(|h| self.units[h].hex)
            .collect();
        let map = self.map();
        let ground = self.ground();
        let start = u.hex;
        let hq = u.is_hq();
        let free = Self::free_mover(u);
        let start_dense = ground.dense(start, u);
        // The cheapest cost found to each hex, with and without dense terrain on the way.
        let mut best = vec![u32::MAX; 2 * map.cell_count()];
        let slot = |h: Hex, dense: bool| map.index(h).map(|c| 2 * c + usize::from(dense));
        let at_key = |h: Hex| (h.x, h.y);
        // (cost, hex, touched dense), cheapest first.
        let mut queue =
            std::collections::BinaryHeap::from([Reverse((0, at_key(start), start_dense))]);
        while let Some(Reverse((cost, (x, y), dense))) = queue.pop() {
            let at = Hex::new(x, y);
            if slot(at, dense).is_some_and(|i| best[i] < cost) {
                continue;
            }
            let all;
            let front;
            let dirs: &[Hex] = if free {
                all = Facing::ALL.map(|f| step(at, f));
                &all
            } else {
                front = front_hexes(at, u.facing);
                &front
            };
            for &n in dirs {
                if !ground.passable(n, u) {
                    continue;
                }
                if road_only && !map.road_between(at, n) {
                    continue;
                }
                let occupant = self.occupant(n);
                if occupant.is_some_and(|o| self.units[o].side != u.side) {
                    continue;
                }
                if enemy_hqs.contains(&n) {
                    continue;
                }
                // Field defences: stakes and ditches bar all but foot, wire bars horses and
                // guns; the rest cross them only from contact, as linear terrain.
                if !hq && self.obstacle_in(n) && (self.obstacle_bars(n, u) || at != start) {
                    continue;
                }
                // Obstacles and fords are crossed only from contact (the first step), never
                // by limbered guns over an obstacle; command units cross freely.
                let obstacle = ground.obstacle(at, n);
                if !hq && (obstacle || ground.ford(n)) {
                    if u.arm == Arm::Artillery && u.limbered && obstacle {
                        continue;
                    }
                    if at != start {
                        continue;
                    }
                }
                let mut step_cost = if hq {
                    HEX_CM
                } else {
                    ground.cost_cm(at, n, u, road_only || u.formation == Formation::MarchColumn)
                };
                let through_friend = occupant.is_some() && !hq;
                if through_friend {
                    step_cost += allowance / 2;
                }
                let c = cost + step_cost;
                // Any unit may go one hex with its whole allowance.
                if c > allowance && !(at == start && cost == 0) {
                    continue;
                }
                let d = dense || (!hq && ground.dense(n, u));
                let Some(i) = slot(n, d) else { continue };
                if best[i] <= c {
                    continue;
                }
                best[i] = c;
                if !through_friend
                    && (!u.is_hq() || occupant.is_none_or(|o| self.units[o].side == u.side))
                    && n != start
                {
                    let here = Stop {
                        cost_cm: c,
                        dense: d,
                        road: road_only,
                    };
                    let out = match found {
                        Found::Any(any) => {
                            **any = true;
                            return;
                        }
                        Found::All(out) => out,
                    };
                    let Some(entry) = map.index(n).map(|c| &mut out[c]) else {
                        continue;
                    };
                    // Prefer a way that keeps out of dense terrain, then one all along a road,
                    // then the cheaper.
                    let key = |s: &Stop| (s.dense, !s.road, s.cost_cm);
                    if entry.is_none_or(|(_, e)| key(&here) < key(&e)) {
                        *entry = Some((n, here));
                    }
                }
                // Area terrain stops a move on entering and on leaving it.
                let terminal =
                    !hq && area(map.terrain(at)).is_some() != area(map.terrain(n)).is_some();
                if !terminal {
                    queue.push(Reverse((c, at_key(n), d)));
                }
            }
        }
    }

    /// Why a unit may not move to `to` now, if it may not (the order's dense-terrain modifier
    /// is checked by the command phase).
    pub fn check_move<R: Refusal>(&self, unit: usize, to: Hex) -> Result<Stop, R> {
        let reach = self.reach_of(unit);
        let u = &self.units[unit];
        reach
            .iter()
            .find(|(h, _)| *h == to)
            .map(|(_, s)| *s)
            .ok_or_else(|| {
                R::because(|| format!("{} cannot move to {} in one move", u.label(), label(to)))
            })
    }

    pub fn do_move(&mut self, unit: usize, to: Hex, log: &mut Log) {
        let from = self.units[unit].hex;
        let u = &mut self.units[unit];
        u.dug_in = false;
        u.prone = false;
        u.refused = 0;
        if u.arm == Arm::Artillery && u.limbered {
            if let Some(f) = crate::table::facing_towards(from, to) {
                u.facing = f;
            }
        }
        if u.is_hq() {
            self.relocate(unit, to);
        } else {
            self.move_with_hqs(unit, to);
        }
        // A trench (or a dug-out) digs in whoever stands in it.
        if self.dug_in_by_works(to, &self.units[unit]) {
            self.units[unit].dug_in = true;
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "move",
                rule("Movement"),
                format!("{} moves {} to {}", u.label(), label(from), label(to)),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        self.overrun(unit, log);
    }

    /// A command unit an enemy unit comes into contact with is overrun: it must join a
    /// friendly unit within half its move, or it is knocked out ("Command Units").
    pub fn overrun(&mut self, mover: usize, log: &mut Log) {
        if self.units[mover].is_hq() || self.units[mover].ko {
            return;
        }
        let side = self.units[mover].side;
        let near: Vec<usize> = (0..self.units.len())
            .filter(|&h| {
                let c = &self.units[h];
                c.is_hq()
                    && !c.ko
                    && c.side != side
                    && self.touching(h, mover)
                    && self
                        .occupant(c.hex)
                        .is_none_or(|o| self.units[o].side == side)
            })
            .filter(|&h| self.occupant(self.units[h].hex).is_none())
            .collect();
        for h in near {
            let half = self.units[h].move_cm / 2;
            let friend = (0..self.units.len())
                .filter(|&k| {
                    let f = &self.units[k];
                    !f.ko && !f.is_hq() && f.side == self.units[h].side && self.within(k, h, half)
                })
                .min_by_key(|&k| (self.distance_cm(k, h), k));
            match friend {
                Some(k) => {
                    let to = self.units[k].hex;
                    self.relocate(h, to);
                    let (c, f) = (&self.units[h], &self.units[k]);
                    log.add(|| {
                        Event::new(
                            "overrun",
                            rule("Command Units"),
                            format!(
                                "{} is overrun and joins {} at {}",
                                c.label(),
                                f.label(),
                                label(to)
                            ),
                        )
                        .side(c.side)
                        .units([c.id.clone()])
                    });
                }
                None => {
                    self.knock_out(h, "overrun with no friendly unit within half its move", log)
                }
            }
        }
    }

    /// Why a formed unit may not wheel now.
    pub fn check_wheel<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        let u = &self.units[unit];
        if !u.formed_troops() || u.formation == Formation::Square {
            return Err(R::because(|| format!("{} cannot wheel", u.label())));
        }
        if u.formation == Formation::Line && u.wheeled {
            return Err(R::because(|| {
                format!("{} in line has wheeled this phase already", u.label())
            }));
        }
        Ok(())
    }

    pub fn wheel(&mut self, unit: usize, right: bool, log: &mut Log) {
        let u = &mut self.units[unit];
        u.facing = u.facing.turn(if right { 1 } else { -1 });
        u.wheeled = true;
        u.refused = 0;
        u.dug_in = false;
        u.prone = false;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "wheel",
                rule("Wheel Movement"),
                format!("{} wheels to face {}", u.label(), u.facing.name()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    pub fn check_about_face<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        let u = &self.units[unit];
        if !u.formed_troops() || u.formation == Formation::Square {
            return Err(R::because(|| format!("{} cannot about face", u.label())));
        }
        Ok(())
    }

    pub fn about_face(&mut self, unit: usize, log: &mut Log) {
        let u = &mut self.units[unit];
        u.facing = u.facing.opposite();
        u.refused = 0;
        u.dug_in = false;
        u.prone = false;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "about-face",
                rule("About Face Movement"),
                format!(
                    "{} about faces to {} (half its move)",
                    u.label(),
                    u.facing.name()
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// The hexes of a retire (infantry, a quarter of the allowance left after the three
    /// quarters it costs) or a prolonge (guns): straight back, keeping the facing.
    pub fn backwards<R: Refusal>(&self, unit: usize, steps: u32) -> Result<Hex, R> {
        let u = &self.units[unit];
        let mut at = u.hex;
        for _ in 0..steps {
            let n = step(at, u.facing.opposite());
            if !self.ground().passable(n, u)
                || self.occupant(n).is_some()
                || self.ground().obstacle(at, n)
                || self.hqs_in(n).any(|h| self.units[h].side != u.side)
            {
                break;
            }
            at = n;
        }
        if at == u.hex {
            return Err(R::because(|| {
                format!("{} has no room to go back", u.label())
            }));
        }
        Ok(at)
    }

    pub fn retire_steps(&self, unit: usize) -> u32 {
        hexes(self.units[unit].move_cm / 4)
    }

    pub fn check_retire<R: Refusal>(&self, unit: usize) -> Result<Hex, R> {
        let u = &self.units[unit];
        if u.arm != Arm::Infantry || u.formation == Formation::Square {
            return Err(R::because(|| {
                format!("only infantry out of square retire; not {}", u.label())
            }));
        }
        self.backwards(unit, self.retire_steps(unit))
    }

    pub fn check_prolonge<R: Refusal>(&self, unit: usize) -> Result<Hex, R> {
        let u = &self.units[unit];
        if u.arm != Arm::Artillery || u.limbered || u.prolonge_cm == 0 {
            return Err(R::because(|| {
                format!("{} cannot move on prolonge", u.label())
            }));
        }
        self.backwards(unit, hexes(u.prolonge_cm))
    }

    pub fn step_back(&mut self, unit: usize, to: Hex, section: &str, log: &mut Log) {
        let from = self.units[unit].hex;
        self.units[unit].dug_in = false;
        self.units[unit].prone = false;
        self.move_with_hqs(unit, to);
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "move",
                rule(section),
                format!(
                    "{} goes back {} to {}, still facing {}",
                    u.label(),
                    label(from),
                    label(to),
                    u.facing.name()
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        self.overrun(unit, log);
    }

    /// Why a unit may not take up a formation by a deploy action ("Movement Formation
    /// Deployment").
    pub fn check_form<R: Refusal>(&self, unit: usize, f: Formation) -> Result<(), R> {
        let u = &self.units[unit];
        if !u.formed_troops() || !u.may_form(f) {
            return Err(R::because(|| {
                format!("{} cannot form {}", u.label(), f.name())
            }));
        }
        if f == Formation::Disordered {
            return Err(R::because(|| "no unit disorders itself"));
        }
        if f == Formation::Square && !self.table().squares {
            return Err(R::because(|| {
                "squares are not formed in this battle (the ACW, or before 1760)"
            }));
        }
        if !u.formation.may_become(f) {
            return Err(R::because(|| {
                format!(
                    "{} cannot go from {} straight into {} (the deployment table)",
                    u.label(),
                    u.formation.name(),
                    f.name()
                )
            }));
        }
        Ok(())
    }

    pub fn form(&mut self, unit: usize, f: Formation, log: &mut Log) {
        let u = &mut self.units[unit];
        let was = u.formation;
        u.formation = f;
        u.refused = 0;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "form",
                rule("Movement Formations"),
                format!("{} forms {} from {}", u.label(), f.name(), was.name()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    pub fn set_limbered(
        &mut self,
        unit: usize,
        limbered: bool,
        facing: Option<Facing>,
        log: &mut Log,
    ) {
        let u = &mut self.units[unit];
        u.limbered = limbered;
        if let Some(f) = facing {
            u.facing = f;
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                if limbered { "limber" } else { "unlimber" },
                rule("Limbered or Unlimbered"),
                if limbered {
                    format!("{} limbers up", u.label())
                } else {
                    format!("{} unlimbers facing {}", u.label(), u.facing.name())
                },
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    pub fn pivot(&mut self, unit: usize, f: Facing, log: &mut Log) {
        self.units[unit].facing = f;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "pivot",
                rule("Towed Guns"),
                format!("{} pivots to face {}", u.label(), f.name()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    pub fn check_refuse<R: Refusal>(&self, unit: usize, side: i8) -> Result<(), R> {
        let u = &self.units[unit];
        if u.arm != Arm::Infantry
            || !matches!(u.formation, Formation::Line | Formation::ExtendedLine)
        {
            return Err(R::because(|| {
                format!(
                    "only infantry in line or extended line refuse a flank; not {}",
                    u.label()
                )
            }));
        }
        if u.refused == side {
            return Err(R::because(|| format!("{} already stands so", u.label())));
        }
        Ok(())
    }

    pub fn refuse(&mut self, unit: usize, side: i8, log: &mut Log) {
        self.units[unit].refused = side;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "refuse",
                rule("Refuse the Flank Movement"),
                match side {
                    -1 => format!("{} refuses its left flank", u.label()),
                    1 => format!("{} refuses its right flank", u.label()),
                    _ => format!("{} brings its flank back into line", u.label()),
                },
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// Where an evade from `from` would take the unit: its full move straight away, stopping
    /// where the ground or other units stop it ("Evading"). Guns limber and go half a move.
    pub fn evade_to(&self, unit: usize, from: Hex) -> Option<Hex> {
        let u = &self.units[unit];
        if u.exhausted || u.is_hq() {
            return None;
        }
        if u.formed_troops() && u.formation == Formation::Square {
            return None;
        }
        let cm = if u.arm == Arm::Artillery {
            u.move_cm / 2
        } else {
            u.move_cm
        };
        let path = self.straight_path(unit, from, hexes(cm), false);
        let map = self.map();
        let ground = self.ground();
        let mut at = u.hex;
        let mut spent = 0;
        let mut mover = u.clone();
        mover.limbered = true;
        for n in path {
            if !ground.passable(n, &mover)
                || self.occupant(n).is_some()
                || self.hqs_in(n).any(|h| self.units[h].side != u.side)
            {
                break;
            }
            let c = ground.cost_cm(at, n, &mover, false);
            if spent + c > cm && spent > 0 {
                break;
            }
            spent += c;
            at = n;
            if ground.obstacle(at, n) || area(map.terrain(n)).is_some() {
                break;
            }
        }
        (at != u.hex).then_some(at)
    }

    pub fn evade(&mut self, unit: usize, from: Hex, log: &mut Log) -> Hex {
        let start = self.units[unit].hex;
        let to = self.evade_to(unit, from).unwrap_or(start);
        if self.units[unit].arm == Arm::Artillery {
            self.units[unit].limbered = true;
        }
        self.units[unit].dug_in = false;
        self.units[unit].prone = false;
        self.move_with_hqs(unit, to);
        if let Some(f) = crate::table::facing_towards(to, from) {
            self.units[unit].facing = f;
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "evade",
                rule("Evading"),
                format!("{} evades {} to {}", u.label(), label(start), label(to)),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        to
    }
}
