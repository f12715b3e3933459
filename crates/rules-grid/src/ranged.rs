//! Infantry Ranged Attack and Artillery Ranged Attack: the restrictions (points 1-6), the
//! process (two d6 read on Unit Data) and the modifiers.

use crate::modifiers::Modifier;
use crate::rule;
use crate::state::{CoverFire, EdgeSight, GridGame, Phase, Scored};
use crate::terrain;
use crate::tiles;
use crate::unit_data::{hits_for, Kind};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::map::Terrain;
use volley_core::{Dice, Event, Hex, Log};

/// The heading of the text's section for a unit's ranged attack.
fn section(kind: Kind) -> &'static str {
    if kind == Kind::Artillery {
        "Artillery Ranged Attack"
    } else {
        "Infantry Ranged Attack"
    }
}

impl GridGame {
    pub fn check_fire<R: Refusal>(&self, unit: usize, at: Hex) -> Result<(), R> {
        self.check_may_fire::<R>(unit)?;
        self.check_target(unit, at)
    }

    /// Whether `unit` may make a ranged attack now, at anyone.
    pub fn check_may_fire<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        if self.phase != Phase::Ranged {
            return Err(R::because(|| {
                format!(
                    "ranged attacks are made in the ranged attack phase; it is the {}",
                    self.phase_name()
                )
            }));
        }
        let u = self.own_unit::<R>(unit)?;
        let sec = section(u.kind);
        let profile = self.setup.data.profile(u.kind);
        if profile.ranged.is_empty() {
            return Err(R::because(|| {
                format!(
                    "{} is {} and has no ranged attack (Unit Data)",
                    u.id,
                    u.kind.name()
                )
            }));
        }
        if u.turn.fired {
            return Err(R::because(|| {
                format!("{} has already fired this turn ({sec} 1)", u.id)
            }));
        }
        if u.kind == Kind::Artillery && u.turn.tiles > 0 {
            return Err(R::because(|| {
                format!(
                    "{} has moved and may not fire (Artillery Ranged Attack 2)",
                    u.id
                )
            }));
        }
        let allowance = self.allowance(unit, u.turn.going);
        if u.turn.tiles >= allowance && u.turn.tiles > 0 {
            return Err(R::because(|| {
                format!(
                    "{} moved its full {allowance} tiles; a unit that fires moves one tile less (Movement Rules 3)",
                    u.id
                )
            }));
        }
        Ok(())
    }

    /// Whether `unit`, free to fire, may fire at `at`: an enemy in range, in its arc and in
    /// sight.
    pub fn check_target<R: Refusal>(&self, unit: usize, at: Hex) -> Result<(), R> {
        let u = &self.units[unit];
        let sec = section(u.kind);
        let profile = self.setup.data.profile(u.kind);
        let target = self
            .enemy_at(at, u.side)
            .ok_or_else(|| R::because(|| format!("no enemy unit at {}", label(at))))?;
        if u.turn.withdrew_from.contains(&target) {
            return Err(R::because(|| {
                format!(
                    "{} withdrew from close combat with {} this turn and may not attack it in any way (Close Combat 3)",
                    u.id, self.units[target].id
                )
            }));
        }
        let range = tiles::distance(self.grid(), u.tile, at);
        if profile.band(range).is_none() {
            return Err(R::because(|| {
                format!(
                    "{} is {range} tiles away; {} reaches {} ({sec} 2)",
                    self.units[target].id,
                    u.kind.name(),
                    profile.max_range()
                )
            }));
        }
        let here = self.map().terrain(u.tile);
        // Built-Up-Area: 360 degree range of fire; elsewhere units fire to their front.
        if here != Terrain::Town && !tiles::in_front_arc(self.grid(), u.tile, u.heading, at) {
            return Err(R::because(|| {
                format!("{} is not in {}'s front arc", label(at), u.id)
            }));
        }
        if terrain::is_close(here)
            && !(u.kind.is_infantry() && terrain::on_edge(self.map(), u.tile))
        {
            return Err(R::because(|| {
                format!(
                    "{} may fire out of {} only from its edge ({sec} {})",
                    u.id,
                    here.name(),
                    if u.kind == Kind::Artillery { 6 } else { 5 }
                )
            }));
        }
        if !terrain::line_of_sight(self.map(), u.tile, at) {
            return Err(R::because(|| {
                format!(
                    "{} has no line of sight to {} ({sec} {})",
                    u.id,
                    label(at),
                    if u.kind == Kind::Artillery { 4 } else { 3 }
                )
            }));
        }
        if let Some(place) = self.hidden_on_edge(unit, target) {
            return Err(R::because(|| {
                let t = &self.units[target];
                format!(
                    "{} is {place} facing away from {} and cannot be seen from beyond the next tile (Terrain: {}; option edge_sight)",
                    t.id,
                    u.id,
                    if place.contains("forest") { "Forest" } else { "Hill" }
                )
            }));
        }
        if self.setup.cover_fire == CoverFire::Adjacent
            && terrain::is_close(self.map().terrain(at))
            && range > 1
        {
            return Err(R::because(|| {
                format!(
                    "ranged attacks into {} are made only from the next tile (Terrain: Forest; option fire_into_cover = adjacent)",
                    self.map().terrain(at).name()
                )
            }));
        }
        Ok(())
    }

    /// Where a target stands that hides it from `unit` because it does not face it: in a
    /// forest, or on a hill above the firer (Terrain: Hill, Forest — units on those edges are
    /// seen when they face the enemy). A neighbour is always seen.
    pub fn hidden_on_edge(&self, unit: usize, target: usize) -> Option<&'static str> {
        if self.setup.edge_sight == EdgeSight::Any {
            return None;
        }
        let (u, t) = (&self.units[unit], &self.units[target]);
        let grid = self.grid();
        if tiles::adjacent(grid, u.tile, t.tile) {
            return None;
        }
        let place = if self.map().terrain(t.tile) == Terrain::Woods {
            "in the forest"
        } else if self.map().elevation(t.tile) > self.map().elevation(u.tile) {
            "on the hill"
        } else {
            return None;
        };
        (!tiles::in_front_arc(grid, t.tile, t.heading, u.tile)).then_some(place)
    }

    pub fn do_fire(&mut self, unit: usize, at: Hex, dice: &mut dyn Dice, log: &mut Log) {
        let target = self
            .enemy_at(at, self.units[unit].side)
            .expect("checked: an enemy there");
        let u = &self.units[unit];
        let t = &self.units[target];
        let profile = self.setup.data.profile(u.kind);
        let range = tiles::distance(self.grid(), u.tile, at);
        let (from, band) = profile.band(range).expect("checked: in range");
        let mut modifiers: Vec<(i32, Modifier)> = Vec::new();
        if let Some(c) = self.commander_near(unit) {
            modifiers.push((1, Modifier::Commander(c.id.as_str())));
        }
        if u.kind == Kind::Artillery && u.last_fire == Some((self.turn - 1, at)) {
            modifiers.push((1, Modifier::SameTileAgain));
        }
        if terrain::in_cover(t.kind, self.map().terrain(at)) {
            modifiers.push((-1, Modifier::Cover(self.map().terrain(at))));
        }
        let (a, b) = (dice.roll(6), dice.roll(6));
        let total = (a + b) as i32 + modifiers.iter().map(|m| m.0).sum::<i32>();
        let hits = hits_for(&band.hits, total);
        log.add(|| {
            let sentence = format!(
                "{} fires at {} ({}) at {}, range {range} (band {from}-{}): rolled {a}+{b}{} = {total} on the {} table: {hits} hit{}.",
                u.id,
                t.id,
                t.kind.name(),
                label(at),
                band.range,
                modifiers
                    .iter()
                    .map(|(v, why)| format!(" {v:+} {why}"))
                    .collect::<String>(),
                u.kind.name(),
                if hits == 1 { "" } else { "s" }
            );
            Event::new(
                "fire",
                rule(&format!("{} Process 4", section(u.kind))),
                sentence,
            )
            .side(u.side)
            .units([u.id.clone(), t.id.clone()])
        });
        let turn = self.turn;
        let u = &mut self.units[unit];
        u.turn.fired = true;
        u.last_fire = Some((turn, at));
        if hits > 0 {
            self.scored.push(Scored {
                attacker: unit,
                target,
                hits,
            });
        }
    }
}
