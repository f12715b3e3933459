//! Close Combat: attacks on adjacent enemies (points 1-2 and the modifiers), cavalry evading
//! infantry (4), and occupying a vacated tile (5). Withdrawal (3) is a move: movement.rs.
//! An infantry attack on cavalry that may evade waits for the cavalry's answer (`evade`); the
//! turn progression gives the cavalry's side the decision.

use crate::modifiers::Modifier;
use crate::rule;
use crate::state::{GridGame, Phase, Scored};
use crate::terrain;
use crate::tiles::{self, Aspect};
use crate::unit_data::{hits_for, Kind};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::map::Grid;
use volley_core::{Dice, Event, Hex, Log};

impl GridGame {
    pub fn check_attack<R: Refusal>(&self, unit: usize, at: Hex) -> Result<(), R> {
        self.check_may_attack::<R>(unit)?;
        self.check_attack_at(unit, at)
    }

    /// Whether `unit` may make its close combat attack now, on anyone.
    pub fn check_may_attack<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        if self.phase != Phase::CloseCombat {
            return Err(R::because(|| {
                format!(
                    "close combat is fought in the close combat phase; it is the {}",
                    self.phase_name()
                )
            }));
        }
        let u = self.own_unit::<R>(unit)?;
        if u.turn.attacked {
            return Err(R::because(|| {
                format!(
                    "{} has already made its close combat attack this turn",
                    u.id
                )
            }));
        }
        Ok(())
    }

    /// Whether `unit`, free to attack, may attack the tile `at`: an enemy beside it, ahead of
    /// it, that it did not withdraw from.
    pub fn check_attack_at<R: Refusal>(&self, unit: usize, at: Hex) -> Result<(), R> {
        let u = &self.units[unit];
        let target = self
            .enemy_at(at, u.side)
            .ok_or_else(|| R::because(|| format!("no enemy unit at {}", label(at))))?;
        if !tiles::adjacent(self.grid(), u.tile, at) {
            return Err(R::because(|| {
                format!(
                    "{} is not next to {} (Close Combat 1)",
                    self.units[target].id, u.id
                )
            }));
        }
        // On squares a unit attacks only across the side it faces; on hexes across its three
        // front hexsides.
        let in_front = match self.grid() {
            Grid::Square => tiles::heading_towards(self.grid(), u.tile, at) == Some(u.heading),
            Grid::Hex => tiles::in_front_arc(self.grid(), u.tile, u.heading, at),
        };
        if !in_front {
            return Err(R::because(|| {
                format!(
                    "{} does not face {}; units attack to their front",
                    u.id, self.units[target].id
                )
            }));
        }
        if u.turn.withdrew_from.contains(&target) {
            return Err(R::because(|| {
                format!(
                    "{} withdrew from {} this turn and may not attack it (Close Combat 3)",
                    u.id, self.units[target].id
                )
            }));
        }
        Ok(())
    }

    /// The attacks a side still owes: units that moved into contact must engage the enemy
    /// they faced, while that enemy is there to attack (Close Combat 1).
    fn owed_attack(&self) -> Option<(usize, usize)> {
        self.units.iter().enumerate().find_map(|(i, u)| {
            let enemy = u
                .turn
                .contact
                .filter(|_| u.alive() && u.side == self.phasing())?;
            self.check_attack::<()>(i, self.units[enemy].tile)
                .ok()
                .map(|_| (i, enemy))
        })
    }

    pub fn check_close_combat_may_end<R: Refusal>(&self) -> Result<(), R> {
        match self.owed_attack() {
            Some((u, e)) => Err(R::because(|| {
                format!(
                    "{} moved into contact with {} and must attack it (Close Combat 1)",
                    self.units[u].id, self.units[e].id
                )
            })),
            None => Ok(()),
        }
    }

    pub fn do_attack(&mut self, unit: usize, at: Hex, dice: &mut dyn Dice, log: &mut Log) {
        let target = self
            .enemy_at(at, self.units[unit].side)
            .expect("checked: an enemy there");
        let (u, t) = (&self.units[unit], &self.units[target]);
        if u.kind.is_infantry() && t.kind == Kind::Cavalry && self.may_evade(target) {
            log.add(|| {
                Event::new(
                    "evade",
                    rule("Close Combat 4"),
                    format!(
                        "{} ({}) attacks {} (cavalry); the cavalry may withdraw one tile or stand.",
                        u.id,
                        u.kind.name(),
                        t.id
                    ),
                )
                .side(t.side)
                .units([u.id.clone(), t.id.clone()])
            });
            self.evade = Some((unit, target));
            return;
        }
        self.resolve_attack(unit, target, dice, log);
    }

    fn may_evade(&self, cavalry: usize) -> bool {
        self.beside(self.units[cavalry].tile)
            .iter()
            .any(|b| self.check_fall_back::<()>(cavalry, b.tile).is_ok())
    }

    pub fn check_stand<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        match self.evade {
            Some((_, cavalry)) if cavalry == unit => Ok(()),
            _ => Err(R::because(|| {
                "standing is the answer of cavalry attacked by infantry (Close Combat 4)"
            })),
        }
    }

    pub fn do_stand(&mut self, _unit: usize, dice: &mut dyn Dice, log: &mut Log) {
        let (attacker, cavalry) = self.evade.take().expect("checked: a pending evade");
        let c = &self.units[cavalry];
        log.add(|| {
            Event::new(
                "stand",
                rule("Close Combat 4"),
                format!("{} stands to meet the attack.", c.id),
            )
            .side(c.side)
        });
        self.resolve_attack(attacker, cavalry, dice, log);
    }

    /// Whether the cavalry attacked by infantry may withdraw into `to` (Close Combat 4).
    pub fn check_evade<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        let (_, cavalry) = self
            .evade
            .expect("asked while an attack waits for the answer");
        if unit != cavalry {
            return Err(R::because(|| {
                format!(
                    "only {} may withdraw now (Close Combat 4)",
                    self.units[cavalry].id
                )
            }));
        }
        self.check_fall_back(unit, to)
    }

    pub fn do_evade(&mut self, cavalry: usize, to: Hex, log: &mut Log) {
        let (attacker, _) = self.evade.take().expect("checked: a pending evade");
        let from = self.units[cavalry].tile;
        self.relocate(cavalry, to);
        self.units[attacker].turn.attacked = true;
        self.units[attacker].turn.contact = None;
        self.attacks.push((attacker, cavalry, from));
        let (c, a) = (&self.units[cavalry], &self.units[attacker]);
        log.add(|| {
            Event::new(
                "withdraw",
                rule("Close Combat 4"),
                format!(
                    "{} withdraws from {} to {} before {}'s attack.",
                    c.id,
                    label(from),
                    label(to),
                    a.id
                ),
            )
            .side(c.side)
            .units([c.id.clone()])
        });
    }

    pub fn resolve_attack(
        &mut self,
        unit: usize,
        target: usize,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let (u, t) = (&self.units[unit], &self.units[target]);
        let mut modifiers: Vec<(i32, Modifier)> = Vec::new();
        if let Some(c) = self.commander_near(unit) {
            modifiers.push((1, Modifier::Commander(c.id.as_str())));
        }
        let aspect = tiles::aspect(self.grid(), t.tile, t.heading, u.tile);
        if aspect != Aspect::Front {
            modifiers.push((1, Modifier::Aspect(aspect)));
        }
        let (high, low) = (self.map().elevation(u.tile), self.map().elevation(t.tile));
        if high > low {
            modifiers.push((1, Modifier::Downhill));
        } else if high < low {
            modifiers.push((-1, Modifier::Uphill));
        }
        let ground = self.map().terrain(t.tile);
        if terrain::is_close(ground) {
            modifiers.push((-1, Modifier::Into(ground)));
        }
        let (a, b) = (dice.roll(6), dice.roll(6));
        let total = (a + b) as i32 + modifiers.iter().map(|m| m.0).sum::<i32>();
        let hits = hits_for(&self.setup.data.profile(u.kind).close, total);
        log.add(|| {
            Event::new(
                "attack",
                rule("Close Combat Process 4"),
                format!(
                    "{} ({}) attacks {} ({}) at {}: rolled {a}+{b}{} = {total} on the {} close combat table: {hits} hit{}.",
                    u.id,
                    u.kind.name(),
                    t.id,
                    t.kind.name(),
                    label(t.tile),
                    modifiers
                        .iter()
                        .map(|(v, why)| format!(" {v:+} {why}"))
                        .collect::<String>(),
                    u.kind.name(),
                    if hits == 1 { "" } else { "s" }
                ),
            )
            .side(u.side)
            .units([u.id.clone(), t.id.clone()])
        });
        let tile = t.tile;
        let attacker = &mut self.units[unit];
        attacker.turn.attacked = true;
        attacker.turn.contact = None;
        self.units[target].attacked_by.push(unit);
        self.attacks.push((unit, target, tile));
        if hits > 0 {
            self.scored.push(Scored {
                attacker: unit,
                target,
                hits,
            });
        }
    }

    /// After the hits are resolved: attackers whose enemy was destroyed or fell back may
    /// occupy its tile, even with their movement spent (Close Combat 5).
    pub fn find_advances(&mut self) {
        let attacks = std::mem::take(&mut self.attacks);
        for (attacker, _, tile) in attacks {
            let u = &self.units[attacker];
            let open = u.alive()
                && self.occupant(tile, None).is_none()
                && terrain::entry(u.kind, self.map().terrain(tile)).is_ok()
                && terrain::side_crossable(self.map(), u.tile, tile);
            if open {
                self.advances.push((attacker, tile));
            }
        }
    }

    pub fn check_occupy<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        if self.phase != Phase::Advance || !self.advances.contains(&(unit, to)) {
            return Err(R::because(|| {
                format!(
                    "only an attacker whose enemy left {} in this close combat may occupy it (Close Combat 5)",
                    label(to)
                )
            }));
        }
        if self.occupant(to, None).is_some() {
            return Err(R::because(|| format!("{} is already occupied", label(to))));
        }
        Ok(())
    }

    pub fn do_occupy(&mut self, unit: usize, to: Hex, log: &mut Log) {
        let grid = self.grid();
        let from = self.units[unit].tile;
        self.units[unit].heading =
            tiles::heading_towards(grid, from, to).expect("it attacked across this side");
        self.relocate(unit, to);
        self.advances.retain(|(a, _)| *a != unit);
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "occupy",
                rule("Close Combat 5"),
                format!(
                    "{} advances from {} into the vacated tile {}.",
                    u.id,
                    label(from),
                    label(to)
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }
}
