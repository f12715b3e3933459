//! ENGINEERING, Field Defenses and CONSTRUCTIONS (optional rule): works on the table, what
//! they do to movement and fire, and the engineers' tasks in the initiative phase.
//!
//! A work stands in a hex (the book's sections are 5 or 10 cm long; on hexes one section is
//! one hex). Obstacles — stakes, ditches and wire — bar the hex to what may not cross them and
//! are crossed by the rest only from contact, as linear terrain is. Works give the troops in
//! their hex cover: breastworks soft cover, log works, fortified works and fortifications
//! hard cover. A trench digs in the unit in it; a dug-out a command unit or guns. With the
//! Constructions rule, works and buildings also have hits and a save: occupants may use the
//! save, artillery fire at them strikes the construction too, on sixes, and its hits stay until
//! it collapses, knocking out its occupants and suppressing those in contact.

use crate::orders::{Order, Task};
use crate::state::{rule, BptGame};
use crate::terrain::{Cover, Work, WorkKind};
use crate::troops::{Arm, Unit};
use std::sync::Arc;
use volley_core::game::Refusal;
use volley_core::geometry::{distance, label};
use volley_core::map::Terrain;
use volley_core::{Dice, Event, Hex, Log};

impl BptGame {
    /// The work in a hex, if any.
    pub fn work_at(&self, hex: Hex) -> Option<&Work> {
        self.works.iter().find(|w| w.hex == hex)
    }

    /// Whether a unit may enter a hex holding an obstacle: stakes and ditches bar all but
    /// troops on foot, wire bars horses and towed guns.
    pub fn obstacle_bars(&self, hex: Hex, u: &Unit) -> bool {
        match self.work_at(hex).map(|w| w.kind) {
            Some(WorkKind::Stakes | WorkKind::Ditch) => !u.arm.on_foot() || u.arm == Arm::Artillery,
            Some(WorkKind::Wire) => u.arm == Arm::Cavalry || u.arm == Arm::Artillery,
            _ => false,
        }
    }

    /// Whether entering the hex crosses an obstacle (allowed only from contact).
    pub fn obstacle_in(&self, hex: Hex) -> bool {
        self.work_at(hex).is_some_and(|w| w.kind.obstacle())
    }

    /// The cover works give a unit in their hex.
    pub fn works_cover(&self, hex: Hex) -> Cover {
        self.work_at(hex).map_or(Cover::Open, |w| w.kind.cover())
    }

    /// Whether a unit standing in `hex` is dug in by a work there (a trench; a dug-out for a
    /// command unit or guns).
    pub fn dug_in_by_works(&self, hex: Hex, u: &Unit) -> bool {
        match self.work_at(hex).map(|w| w.kind) {
            Some(WorkKind::Trench) => u.formed_troops(),
            Some(WorkKind::DugOut) => u.is_hq() || u.arm == Arm::Artillery,
            _ => false,
        }
    }

    fn works_mut(&mut self) -> &mut Vec<Work> {
        Arc::make_mut(&mut self.works)
    }

    /// Whether a unit is engineers (engineers, or infantry with an engineer stand).
    pub fn is_engineer(&self, unit: usize) -> bool {
        let u = &self.units[unit];
        u.traits.engineer && !u.ko
    }

    /// Why engineers may not do a task at `hex` now, if they may not.
    pub fn check_task<R: Refusal>(&self, unit: usize, task: Task, hex: Hex) -> Result<(), R> {
        let u = &self.units[unit];
        if !self.is_engineer(unit) || u.side != self.active {
            return Err(R::because(|| {
                format!("{} are not engineers of the side to play", u.label())
            }));
        }
        if u.is_suppressed() {
            return Err(R::because(|| {
                format!("{} are suppressed and cannot work", u.label())
            }));
        }
        if u.initiative_used {
            return Err(R::because(|| {
                format!("{} have acted this initiative phase", u.label())
            }));
        }
        let next = distance(u.hex, hex) == 1 && self.map().contains(hex);
        let work = self.work_at(hex).map(|w| w.kind);
        match task {
            Task::Clear => match work {
                Some(WorkKind::Wire | WorkKind::Stakes) if next => Ok(()),
                _ => Err(R::because(|| {
                    format!(
                        "{} has no wire or stakes next to {} to clear",
                        label(hex),
                        u.label()
                    )
                })),
            },
            Task::Demolish => {
                let wall =
                    next && self.map().hexside(u.hex, hex) == Some(volley_core::map::Hexside::Wall);
                let works = matches!(
                    work,
                    Some(
                        WorkKind::Ditch
                            | WorkKind::Breastworks
                            | WorkKind::LogWorks
                            | WorkKind::FortifiedWorks
                            | WorkKind::Fortification
                    )
                );
                if next && (works || wall) {
                    Ok(())
                } else {
                    Err(R::because(|| {
                        format!(
                            "nothing to demolish in {} next to {}: works, a ditch or a wall",
                            label(hex),
                            u.label()
                        )
                    }))
                }
            }
            Task::Bridge => {
                let water = matches!(self.map().terrain(hex), Terrain::Water | Terrain::Ford);
                if next && (water || work == Some(WorkKind::Ditch)) {
                    Ok(())
                } else {
                    Err(R::because(|| {
                        format!(
                            "no water or ditch to bridge in {} next to {}",
                            label(hex),
                            u.label()
                        )
                    }))
                }
            }
            Task::Sap => {
                if hex != u.hex {
                    return Err(R::because(|| "engineers dig in their own hex"));
                }
                if work.is_some() {
                    return Err(R::because(|| format!("{} has works already", label(hex))));
                }
                Ok(())
            }
            Task::Mine => {
                let siege_works = matches!(
                    work,
                    Some(
                        WorkKind::Breastworks
                            | WorkKind::LogWorks
                            | WorkKind::FortifiedWorks
                            | WorkKind::Fortification
                    )
                );
                let from_trench = self.work_at(u.hex).map(|w| w.kind) == Some(WorkKind::Trench);
                if !from_trench {
                    Err(R::because(|| {
                        format!("{} mine from a trench: sap first", u.label())
                    }))
                } else if next && siege_works {
                    Ok(())
                } else {
                    Err(R::because(|| {
                        format!("no works to mine in {} next to {}", label(hex), u.label())
                    }))
                }
            }
        }
    }

    /// Engineering candidates of the active side's engineers.
    pub fn task_candidates(&self, out: &mut Vec<Order>) {
        for k in 0..self.units.len() {
            if !self.is_engineer(k) || self.units[k].side != self.active {
                continue;
            }
            let at = self.units[k].hex;
            let mut places = vec![at];
            places.extend(
                volley_core::geometry::Facing::ALL.map(|f| volley_core::geometry::step(at, f)),
            );
            for task in Task::ALL {
                for &hex in &places {
                    if self.check_task::<()>(k, task, hex).is_ok() {
                        out.push(Order::Task { unit: k, task, hex });
                    }
                }
            }
        }
    }

    /// Whether any engineers of the side to play have a task they may do.
    pub fn anyone_has_a_task(&self) -> bool {
        let mut v = Vec::new();
        self.task_candidates(&mut v);
        !v.is_empty()
    }

    /// An engineering task. The engineers take no orders for the rest of the turn.
    pub fn perform_task(
        &mut self,
        unit: usize,
        task: Task,
        hex: Hex,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        let ul = self.units[unit].label();
        let side = self.units[unit].side;
        let (needs, section) = match task {
            Task::Clear => (Some(3), "Obstacle Clearance"),
            Task::Demolish => (Some(4), "Demolition"),
            Task::Bridge => (None, "Bridging"),
            Task::Sap | Task::Mine => (None, "Sapping and Mining"),
        };
        let roll = needs.map(|_| dice.roll(6));
        let done = match (needs, roll) {
            (Some(n), Some(r)) => r >= n,
            _ => true,
        };
        let what = match task {
            Task::Clear | Task::Demolish | Task::Mine => {
                if done {
                    if self.work_at(hex).is_some() {
                        let gone = self
                            .works
                            .iter()
                            .position(|w| w.hex == hex)
                            .expect("a work");
                        let kind = self.works[gone].kind;
                        self.works_mut().remove(gone);
                        format!("the {} in {} is gone", kind.word(), label(hex))
                    } else {
                        let from = self.units[unit].hex;
                        self.map_mut().remove_hexside(from, hex);
                        format!(
                            "the wall between {} and {} is down",
                            label(from),
                            label(hex)
                        )
                    }
                } else {
                    "the work is not done".to_string()
                }
            }
            Task::Bridge => {
                if self.work_at(hex).map(|w| w.kind) == Some(WorkKind::Ditch) {
                    let gone = self
                        .works
                        .iter()
                        .position(|w| w.hex == hex)
                        .expect("a ditch");
                    self.works_mut().remove(gone);
                } else {
                    let mut cell = self.map().cell(hex).expect("on the map");
                    cell.terrain = Terrain::Bridge;
                    self.map_mut().set(hex, cell);
                }
                format!("a bridge section spans {}", label(hex))
            }
            Task::Sap => {
                self.works_mut().push(Work {
                    hex,
                    kind: WorkKind::Trench,
                    hits: 0,
                });
                self.units[unit].dug_in = true;
                format!("a trench is dug in {}, and they are dug in", label(hex))
            }
        };
        let u = &mut self.units[unit];
        u.initiative_used = true;
        u.closed = true;
        log.add(|| {
            let head = match (needs, roll) {
                (Some(n), Some(r)) => format!(
                    "{ul} {} in {} (needs {n}+, rolled {r}): ",
                    task.word(),
                    label(hex)
                ),
                _ => format!("{ul} {}: ", task.word()),
            };
            Event::new("task", rule(section), format!("{head}{what}"))
                .side(side)
                .units([self.units[unit].id.clone()])
        });
    }

    /// Artillery fire at a unit in a construction strikes the construction too (Constructions):
    /// the same attacks hit it on sixes, it saves at its own save, and its hits stay; at its
    /// hits value it collapses, knocking out everyone in it and suppressing those in contact.
    pub fn strike_construction(
        &mut self,
        hex: Hex,
        attacks: u32,
        id: u32,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        if !self.table().constructions {
            return;
        }
        let Some(i) = self.works.iter().position(|w| w.hex == hex) else {
            return;
        };
        let kind = self.works[i].kind;
        let Some((max, save)) = kind.construction() else {
            return;
        };
        let rolls: Vec<u32> = (0..attacks).map(|_| dice.roll(6)).collect();
        let hits = rolls.iter().filter(|&&r| r == 6).count() as u32;
        let saves: Vec<u32> = if save > 0 {
            (0..hits).map(|_| dice.roll(6)).collect()
        } else {
            Vec::new()
        };
        let saved = saves.iter().filter(|&&r| r >= save).count() as u32;
        let net = hits - saved.min(hits);
        self.works_mut()[i].hits += net;
        let now = self.works[i].hits;
        log.add(|| {
            Event::new(
                "hit",
                rule("Constructions"),
                format!(
                    "the {} in {}: {attacks} attacks needing 6: rolled {rolls:?}{}, {net} hit{}, {now} of {max}",
                    kind.word(),
                    label(hex),
                    if saves.is_empty() { String::new() } else { format!(", saves {saves:?}") },
                    if net == 1 { "" } else { "s" }
                ),
            )
        });
        if now < max {
            return;
        }
        self.works_mut().remove(i);
        log.add(|| {
            Event::new(
                "collapse",
                rule("Constructions"),
                format!("the {} in {} collapses", kind.word(), label(hex)),
            )
        });
        let inside: Vec<usize> = (0..self.units.len())
            .filter(|&k| !self.units[k].ko && self.units[k].hex == hex)
            .collect();
        for k in inside {
            self.knock_out(k, "buried as its construction collapsed", log);
        }
        let near: Vec<usize> = (0..self.units.len())
            .filter(|&k| {
                let u = &self.units[k];
                !u.ko && !u.is_hq() && distance(u.hex, hex) == 1
            })
            .collect();
        for k in near {
            self.suppress(k, id, log, &[]);
        }
    }

    /// The save a unit in a construction may use instead of its own (the better one).
    pub fn construction_save(&self, unit: usize) -> Option<u32> {
        if !self.table().constructions {
            return None;
        }
        let u = &self.units[unit];
        if u.arm != Arm::Infantry {
            return None;
        }
        self.work_at(u.hex)
            .and_then(|w| w.kind.construction())
            .and_then(|(_, save)| (save > 0).then_some(save))
    }
}
