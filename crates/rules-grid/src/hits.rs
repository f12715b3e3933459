//! Resolving Hits and the "remove units" step of Turn Progression. Hits are counted as they
//! are scored; when the phase ends, each unit hit loses that many strength points and its
//! player rolls one d6 per enemy unit that scored on it: any retreat result moves it back one
//! tile, "retreat and loss" results each cost one more point, and a unit that does not
//! retreat (or cannot) loses one more point. Units at 0 are removed.

use crate::game::{GridGame, COMMANDER_REACH};
use crate::rule;
use crate::terrain;
use crate::tiles;
use crate::unit_data::Impact;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex};

impl GridGame {
    pub fn resolve_hits(&mut self, dice: &mut dyn Dice) -> Vec<Event> {
        let scored = std::mem::take(&mut self.scored);
        let mut targets: Vec<usize> = scored.iter().map(|s| s.target).collect();
        targets.sort_unstable();
        targets.dedup();
        let mut events = Vec::new();
        for target in targets {
            if !self.units[target].alive() {
                continue;
            }
            let by: Vec<(usize, u8)> = scored
                .iter()
                .filter(|s| s.target == target)
                .map(|s| (s.attacker, s.hits))
                .collect();
            events.extend(self.resolve_target(target, &by, dice));
        }
        events.extend(self.check_wipeout());
        events
    }

    fn resolve_target(
        &mut self,
        target: usize,
        by: &[(usize, u8)],
        dice: &mut dyn Dice,
    ) -> Vec<Event> {
        let hits: u8 = by.iter().map(|(_, h)| h).sum();
        let mut events = Vec::new();
        let before = self.units[target].strength;
        self.lose(target, hits);
        let t = &self.units[target];
        events.push(
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
            .units([t.id.clone()]),
        );
        if !t.alive() {
            events.extend(self.remove(target));
            return events;
        }
        let impacts: Vec<(u32, Impact)> = by
            .iter()
            .map(|_| {
                let roll = dice.roll(6);
                (roll, self.setup.data.impact[roll as usize - 1])
            })
            .collect();
        let must_retreat = impacts.iter().any(|(_, i)| *i != Impact::Stand);
        let mut losses = impacts
            .iter()
            .filter(|(_, i)| *i == Impact::RetreatAndLoss)
            .count() as u8;
        let rolled = impacts
            .iter()
            .map(|(r, i)| format!("{r} ({})", i.name()))
            .collect::<Vec<_>>()
            .join(", ");
        let attackers: Vec<Hex> = by.iter().map(|(a, _)| self.units[*a].tile).collect();
        let from = self.units[target].tile;
        let what = if must_retreat {
            match self.retreat_tile(target, &attackers) {
                Some(to) => {
                    self.units[target].tile = to;
                    format!("retreats one tile to {}", label(to))
                }
                None => {
                    losses += 1;
                    "cannot retreat and loses 1 more point instead".to_string()
                }
            }
        } else {
            losses += 1;
            "does not retreat and loses 1 more point".to_string()
        };
        self.lose(target, losses);
        let t = &self.units[target];
        events.push(
            Event::new(
                "impact",
                rule("Resolving Hits"),
                format!(
                    "{} at {} rolls {rolled}: it {what}; strength now {}.",
                    t.id,
                    label(from),
                    t.strength
                ),
            )
            .side(t.side)
            .units([t.id.clone()]),
        );
        if !t.alive() {
            events.extend(self.remove(target));
        }
        events
    }

    fn lose(&mut self, unit: usize, points: u8) {
        let u = &mut self.units[unit];
        u.strength = u.strength.saturating_sub(points);
    }

    /// The tile a unit falls back into: next to it, open to it, empty, and farther from every
    /// enemy that scored on it; tiles beside no enemy first, then the lowest label.
    fn retreat_tile(&self, unit: usize, attackers: &[Hex]) -> Option<Hex> {
        let u = &self.units[unit];
        let grid = self.grid();
        let mut options: Vec<(bool, String, Hex)> = tiles::neighbours(self.map(), u.tile)
            .into_iter()
            .map(|(_, t)| t)
            .filter(|t| {
                terrain::entry(u.kind, self.map().terrain(*t)).is_ok()
                    && terrain::side_crossable(self.map(), u.tile, *t)
                    && self.occupant(*t, Some(unit)).is_none()
                    && attackers
                        .iter()
                        .all(|a| tiles::distance(grid, *t, *a) > tiles::distance(grid, u.tile, *a))
            })
            .map(|t| (!self.enemies_beside(t, u.side).is_empty(), label(t), t))
            .collect();
        options.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        options.first().map(|(_, _, t)| *t)
    }

    /// Removes a destroyed unit; a commander with it rides to the nearest friend within reach,
    /// or is captured.
    fn remove(&mut self, unit: usize) -> Vec<Event> {
        let u = &self.units[unit];
        let mut events = vec![Event::new(
            "removed",
            rule("Resolving Hits"),
            format!(
                "{} ({}) has no strength points left and is removed from play.",
                u.id,
                u.kind.name()
            ),
        )
        .side(u.side)
        .units([u.id.clone()])];
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
            let text = match refuge {
                Some((_, i)) => format!("{} escapes to {}.", c.id, self.units[i].id),
                None => format!(
                    "{} has no friendly unit within {COMMANDER_REACH} tiles and is captured.",
                    c.id
                ),
            };
            events.push(Event::new("commander", rule("Resolving Hits"), text).side(side));
        }
        events
    }
}
