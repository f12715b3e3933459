//! Resolving Hits and the "remove units" step of Turn Progression. Hits are counted as they
//! are scored; when the phase ends, each unit hit loses that many strength points and its
//! player rolls one d6 per enemy unit that scored on it: any retreat result moves it back one
//! tile, "retreat and loss" results each cost one more point, and a unit that does not
//! retreat (or cannot) loses one more point. Units at 0 are removed. Whether a side has lost
//! its last unit is victory's question, asked by the turn progression after the hits.

use crate::rule;
use crate::state::{GridGame, COMMANDER_REACH};
use crate::terrain;
use crate::tiles;
use crate::unit_data::{Impact, Quality};
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log};

impl GridGame {
    /// Resolves every hit held, target by target in key order.
    pub fn resolve_hits(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let scored = std::mem::take(&mut self.scored);
        let mut targets: Vec<usize> = scored.iter().map(|s| s.target).collect();
        targets.sort_unstable();
        targets.dedup();
        for target in targets {
            if !self.units[target].alive() {
                continue;
            }
            let by: Vec<(usize, u8)> = scored
                .iter()
                .filter(|s| s.target == target)
                .map(|s| (s.attacker, s.hits))
                .collect();
            self.resolve_target(target, &by, dice, log);
        }
    }

    pub fn resolve_target(
        &mut self,
        target: usize,
        by: &[(usize, u8)],
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let hits: u8 = by.iter().map(|(_, h)| h).sum();
        let before = self.units[target].strength;
        self.lose(target, hits);
        let t = &self.units[target];
        log.add(|| {
            Event::new(
                "hit",
                rule("Resolving Hits"),
                format!(
                    "{} takes {hits} hit{} from {} unit{}: strength {before} → {}.",
                    t.id,
                    if hits == 1 { "" } else { "s" },
                    by.len(),
                    if by.len() == 1 { "" } else { "s" },
                    t.strength
                ),
            )
            .side(t.side)
            .units([t.id.clone()])
        });
        if !t.alive() {
            self.remove(target, log);
            return;
        }
        let quality = self.units[target].quality;
        let table = self.setup.data.impact(quality);
        let impacts: Vec<(u32, Impact)> = by
            .iter()
            .map(|_| {
                let roll = dice.roll(6);
                (roll, table[roll as usize - 1])
            })
            .collect();
        let must_retreat = impacts.iter().any(|(_, i)| *i != Impact::Stand);
        let mut losses = impacts
            .iter()
            .filter(|(_, i)| *i == Impact::RetreatAndLoss)
            .count() as u8;
        let attackers: Vec<Hex> = by.iter().map(|(a, _)| self.units[*a].tile).collect();
        let from = self.units[target].tile;
        // Where it fell back to, if it had to: `Some(None)` when it could not.
        let retreat = must_retreat.then(|| self.retreat_tile(target, &attackers));
        match retreat {
            Some(Some(to)) => self.relocate(target, to),
            Some(None) | None => losses += 1,
        }
        self.lose(target, losses);
        let t = &self.units[target];
        log.add(|| {
            let rolled = impacts
                .iter()
                .map(|(r, i)| format!("{r} ({})", i.name()))
                .collect::<Vec<_>>()
                .join(", ");
            let what = match retreat {
                Some(Some(to)) => format!("retreats one tile to {}", label(to)),
                Some(None) => "cannot retreat and loses 1 more point instead".to_string(),
                None => "does not retreat and loses 1 more point".to_string(),
            };
            let table = match quality {
                Quality::Regular => String::new(),
                q => format!(" on the {} table", q.key()),
            };
            Event::new(
                "impact",
                rule("Resolving Hits"),
                format!(
                    "{} at {} rolls {rolled}{table}: it {what}; strength now {}.",
                    t.id,
                    label(from),
                    t.strength
                ),
            )
            .side(t.side)
            .units([t.id.clone()])
        });
        if !t.alive() {
            self.remove(target, log);
        }
    }

    /// Takes strength points from a unit; one left with none leaves the tile it stood in.
    fn lose(&mut self, unit: usize, points: u8) {
        let was_alive = self.units[unit].alive();
        let u = &mut self.units[unit];
        u.strength = u.strength.saturating_sub(points);
        if was_alive && !u.alive() {
            self.unlist(unit);
        }
    }

    /// The tile a unit falls back into: next to it, open to it, empty, and farther from every
    /// enemy that scored on it; tiles beside no enemy first, then the lowest label.
    fn retreat_tile(&self, unit: usize, attackers: &[Hex]) -> Option<Hex> {
        let u = &self.units[unit];
        let grid = self.grid();
        let mut options: Vec<(bool, String, Hex)> = self
            .beside(u.tile)
            .iter()
            .filter(|b| {
                terrain::entry(u.kind, b.ground.terrain).is_ok()
                    && b.crossable
                    && self.occupant_in(b.cell, Some(unit)).is_none()
                    && attackers.iter().all(|a| {
                        tiles::distance(grid, b.tile, *a) > tiles::distance(grid, u.tile, *a)
                    })
            })
            .map(|b| {
                let near_enemy = self.enemies_beside(b.tile, u.side).next().is_some();
                (near_enemy, label(b.tile), b.tile)
            })
            .collect();
        options.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        options.first().map(|(_, _, t)| *t)
    }

    /// Removes a destroyed unit; a commander with it rides to the nearest friend within reach,
    /// or is captured.
    fn remove(&mut self, unit: usize, log: &mut Log) {
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "removed",
                rule("Resolving Hits"),
                format!(
                    "{} ({}) has no strength points left and is removed from play.",
                    u.id,
                    u.kind.name()
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        let (side, tile) = (u.side, u.tile);
        let grid = self.grid();
        let refuge = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, f)| f.alive() && f.side == side)
            .map(|(i, f)| (tiles::distance(grid, tile, f.tile), i))
            .filter(|(d, _)| *d <= COMMANDER_REACH)
            .min();
        for c in self.commanders.iter_mut().filter(|c| c.with == Some(unit)) {
            c.with = refuge.map(|(_, i)| i);
            log.add(|| {
                let text = match refuge {
                    Some((_, i)) => format!("{} escapes to {}.", c.id, self.units[i].id),
                    None => format!(
                        "{} has no friendly unit within {COMMANDER_REACH} tiles and is captured.",
                        c.id
                    ),
                };
                Event::new("commander", rule("Resolving Hits"), text).side(side)
            });
        }
    }
}
