//! Engineering (M66–M67): an engineer squad that has not moved builds a hex of works where it
//! stands over one, two or three turns by its weight (T12); any squad clears a minefield its
//! side knows of in its hex or the next, or lays one there from the mines the scenario gives
//! it. Whoever works does not fight that turn.

use crate::items::Kind;
use crate::logistics;
use crate::rule;
use crate::state::Digging;
use crate::state::Minefield;
use crate::state::{MechGame, Step};
use hex_command_family::ground::{Work, WorkKind};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log, Side};

impl MechGame {
    /// A squad of the side to decide that has not moved this turn, free to work.
    fn check_worker<R: Refusal>(&self, i: usize) -> Result<(), R> {
        if self.step != Step::Movement {
            return Err(R::because(|| {
                format!(
                    "engineering is done in the movement step; it is {}",
                    self.step_name()
                )
            }));
        }
        let it = self.own_item::<R>(i)?;
        if !matches!(it.kind, Kind::Squad(_)) || self.routed(i) || !self.active(i) {
            return Err(R::because(|| format!("{} cannot work", it.id)));
        }
        let t = &self.s.turn_state[i];
        if t.moving || t.done || t.worked {
            return Err(R::because(|| {
                format!("{} has moved or worked this turn (M66–M67)", it.id)
            }));
        }
        Ok(())
    }

    pub fn check_dig<R: Refusal>(&self, i: usize) -> Result<(), R> {
        self.check_worker::<R>(i)?;
        let it = self.item(i);
        if !matches!(&it.kind, Kind::Squad(s) if s.engineer) {
            return Err(R::because(|| {
                format!("only engineers build works (M66); {} is not", it.id)
            }));
        }
        if self.s.works.at(it.hex).is_some() {
            return Err(R::because(|| {
                format!("{} already has works", label(it.hex))
            }));
        }
        Ok(())
    }

    /// M66: a turn's work on the works in the engineer's hex.
    pub fn do_dig(&mut self, i: usize, log: &mut Log) {
        let (hex, side) = (self.item(i).hex, self.item(i).side);
        let weight = match &self.item(i).kind {
            Kind::Squad(s) => s.weight.unwrap_or(crate::charts::Weight::M),
            _ => unreachable!("checked: a squad"),
        };
        let needed = logistics::works_turns(weight);
        let k = match self
            .digging
            .iter()
            .position(|d| d.hex == hex && d.side == side)
        {
            Some(k) => k,
            None => {
                self.digging.push(Digging {
                    hex,
                    side,
                    progress: 0,
                });
                self.digging.len() - 1
            }
        };
        self.digging[k].progress += 1;
        let progress = self.digging[k].progress;
        self.finish_work(i);
        let done = progress >= needed;
        if done {
            self.digging.remove(k);
            self.s.works.0.push(Work {
                hex,
                kind: WorkKind::QuickWorks,
                side,
                progress: WorkKind::QuickWorks.turns(),
                damage: 0,
            });
        }
        log.add(|| {
            Event::new(
                "works",
                rule("M66"),
                format!(
                    "{} digs in at {}: turn {progress} of {needed}{}.",
                    self.item(i).id,
                    label(hex),
                    if done { "; the works are ready" } else { "" }
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
        });
    }

    pub fn check_bridge<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_worker::<R>(i)?;
        let it = self.item(i);
        if !matches!(&it.kind, Kind::Squad(s) if s.engineer) {
            return Err(R::because(|| {
                format!("only engineers bridge water (M66); {} is not", it.id)
            }));
        }
        if it.hex.unsigned_distance_to(hex) != 1 {
            return Err(R::because(|| {
                format!("{} bridges a water hex next to it", it.id)
            }));
        }
        let map = &self.s.setup.map;
        if !map.contains(hex) || map.terrain(hex) != volley_core::map::Terrain::Water {
            return Err(R::because(|| format!("{} is not water", label(hex))));
        }
        if self.s.works.at(hex).is_some() {
            return Err(R::because(|| format!("{} is bridged already", label(hex))));
        }
        Ok(())
    }

    /// M66: a turn's work on a bridge over the water next to the engineers; it carries troops
    /// after as many turns as the engineers' weight says (T12).
    pub fn do_bridge(&mut self, i: usize, hex: Hex, log: &mut Log) {
        let side = self.item(i).side;
        let weight = match &self.item(i).kind {
            Kind::Squad(s) => s.weight.unwrap_or(crate::charts::Weight::M),
            _ => unreachable!("checked: a squad"),
        };
        let needed = logistics::works_turns(weight);
        let k = match self
            .digging
            .iter()
            .position(|d| d.hex == hex && d.side == side)
        {
            Some(k) => k,
            None => {
                self.digging.push(Digging {
                    hex,
                    side,
                    progress: 0,
                });
                self.digging.len() - 1
            }
        };
        self.digging[k].progress += 1;
        let progress = self.digging[k].progress;
        self.finish_work(i);
        let done = progress >= needed;
        if done {
            self.digging.remove(k);
            self.s.works.0.push(Work {
                hex,
                kind: WorkKind::Pontoon,
                side,
                progress: WorkKind::Pontoon.turns(),
                damage: 0,
            });
        }
        log.add(|| {
            Event::new(
                "works",
                rule("M66"),
                format!(
                    "{} bridges the water at {}: turn {progress} of {needed}{}.",
                    self.item(i).id,
                    label(hex),
                    if done { "; the bridge is open" } else { "" }
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
        });
    }

    /// The worker is done for the turn and does not fight until its side's next turn.
    fn finish_work(&mut self, i: usize) {
        let t = &mut self.s.turn_state[i];
        t.done = true;
        t.worked = true;
        if self.mover == Some(i) {
            self.mover = None;
        }
    }

    pub fn check_clear<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_worker::<R>(i)?;
        let it = self.item(i);
        if it.hex != hex && it.hex.unsigned_distance_to(hex) != 1 {
            return Err(R::because(|| {
                format!("{} clears mines in its own hex or the next (M67)", it.id)
            }));
        }
        let known = self
            .s
            .minefields
            .iter()
            .any(|m| m.hex == hex && (m.known || m.side == it.side));
        if !known {
            return Err(R::because(|| {
                format!("{}'s side knows of no minefield at {}", it.id, label(hex))
            }));
        }
        Ok(())
    }

    pub fn do_clear(&mut self, i: usize, hex: Hex, log: &mut Log) {
        self.s.minefields.retain(|m| m.hex != hex);
        self.finish_work(i);
        log.add(|| {
            Event::new(
                "mines",
                rule("M67"),
                format!(
                    "{} clears the minefield at {}.",
                    self.item(i).id,
                    label(hex)
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
        });
    }

    pub fn check_lay<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_worker::<R>(i)?;
        let it = self.item(i);
        if !matches!(&it.kind, Kind::Squad(s) if s.mines > 0) {
            return Err(R::because(|| {
                format!("{} has no mines to lay (the scenario's `mines`)", it.id)
            }));
        }
        if it.hex != hex && it.hex.unsigned_distance_to(hex) != 1 {
            return Err(R::because(|| {
                format!("{} lays mines in its own hex or the next (M67)", it.id)
            }));
        }
        let map = &self.s.setup.map;
        if !map.contains(hex) || !self.passable(it, hex, hex) {
            return Err(R::because(|| {
                format!("no mines can be laid at {}", label(hex))
            }));
        }
        if self
            .s
            .minefields
            .iter()
            .any(|m| m.hex == hex && (m.known || m.side == it.side))
        {
            return Err(R::because(|| format!("{} is mined already", label(hex))));
        }
        Ok(())
    }

    pub fn do_lay(&mut self, i: usize, hex: Hex, log: &mut Log) {
        let side = self.item(i).side;
        if let Kind::Squad(s) = &mut self.s.items[i].kind {
            s.mines -= 1;
        }
        if !self.s.minefields.iter().any(|m| m.hex == hex) {
            self.s.minefields.push(Minefield {
                hex,
                side,
                known: false,
            });
        }
        self.finish_work(i);
        log.add(|| {
            Event::new(
                "mines",
                rule("M67"),
                format!("{} lays mines at {}.", self.item(i).id, label(hex)),
            )
            .side(side)
            .units([self.item(i).id.clone()])
            .seen(match side {
                Side::Red => volley_core::Seen::Red,
                Side::Blue => volley_core::Seen::Blue,
            })
        });
    }
}
