//! Ground-attack aircraft (M69, M140). The text names aircraft and leaves out their chart, so
//! Volley's are simple and scenario-given: `[[aircraft]]` with a side, a weapon weight and
//! the turns it flies. In its side's fire step an aircraft strikes a hex holding an enemy its
//! side knows of (it needs neither sight nor spotter). Enemy vehicles with anti-aircraft
//! machine guns within 2 hexes of the hex fire first: a d6 of 6 (single AA mount), 5–6 (twin)
//! or 4–6 (quad) drives it off. Otherwise it hits the hex on a d6 of 4–6 and every item there
//! takes the weapon: HE on infantry, a block roll on vehicles, gun crews lost.

use crate::charts::{MgMount, Mount, Weight};
use crate::game::{MechGame, Refusal, Step};
use crate::items::Kind;
use crate::losses;
use crate::rule;
use serde::Deserialize;
use toml::Spanned;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, Name, ScenarioError, ScenarioSource, Side};

/// An aircraft of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aircraft {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub weight: Weight,
    /// The turns it flies, one strike each.
    pub turns: Vec<u32>,
    /// The turns it has flown.
    pub flown: Vec<u32>,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    aircraft: Vec<AircraftSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AircraftSpec {
    id: Spanned<String>,
    side: Spanned<String>,
    #[serde(default)]
    name: String,
    weight: Spanned<String>,
    turns: Spanned<Vec<u32>>,
}

/// The scenario's aircraft, each checked where it stands.
pub fn read(
    src: &ScenarioSource,
    ids: &mut volley_core::scenario::Ids,
) -> Result<Vec<Aircraft>, ScenarioError> {
    let f: File = src.parse()?;
    let mut out = Vec::new();
    for a in &f.aircraft {
        ids.claim(src, &a.id)?;
        let weight = Weight::parse(a.weight.get_ref())
            .filter(|w| *w != Weight::Soft)
            .ok_or_else(|| {
                src.error_at(
                    a.weight.span(),
                    format!(
                        "unknown weight \"{}\" (expected VL, L, M, H or VH)",
                        a.weight.get_ref()
                    ),
                )
            })?;
        if a.turns.get_ref().is_empty() || a.turns.get_ref().contains(&0) {
            return Err(src.error_at(
                a.turns.span(),
                "an aircraft flies on turns 1 or later (turns = [3, 5])",
            ));
        }
        let id = a.id.get_ref().as_str();
        out.push(Aircraft {
            id: id.into(),
            name: if a.name.is_empty() {
                id.into()
            } else {
                a.name.as_str().into()
            },
            side: src.side(&a.side)?,
            weight,
            turns: a.turns.get_ref().clone(),
            flown: Vec::new(),
        });
    }
    Ok(out)
}

impl MechGame {
    pub fn check_strike<R: Refusal>(&self, k: usize, hex: Hex) -> Result<(), R> {
        let Some(a) = self.s.aircraft.get(k) else {
            return Err(R::because(|| "no such aircraft"));
        };
        if self.step != Step::OffensiveFire || a.side != self.phasing() {
            return Err(R::because(|| {
                format!(
                    "{} strikes in its side's fire step; it is {}",
                    a.id,
                    self.step_name()
                )
            }));
        }
        let turn = self.s.turn;
        if !a.turns.contains(&turn) || a.flown.contains(&turn) {
            return Err(R::because(|| {
                format!("{} does not fly (again) this turn", a.id)
            }));
        }
        if !self.known_enemy_in(hex, a.side) {
            return Err(R::because(|| {
                format!("{} holds no enemy {}'s side knows of", label(hex), a.id)
            }));
        }
        Ok(())
    }

    /// The d6 an enemy vehicle's anti-aircraft guns need to drive an aircraft off, if it has any.
    fn flak(&self, v: usize) -> Option<u32> {
        match &self.item(v).kind {
            Kind::Vehicle { spec, .. } => match (spec.mount, spec.mg) {
                (_, MgMount::Quad) => Some(4),
                (Mount::Aa, _) | (_, MgMount::Aaa) => Some(5),
                (_, MgMount::Aa) => Some(6),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn do_strike(&mut self, k: usize, hex: Hex, dice: &mut dyn Dice, log: &mut Log) {
        let turn = self.s.turn;
        self.s.aircraft[k].flown.push(turn);
        let (id, side, weight) = (
            self.s.aircraft[k].id.clone(),
            self.s.aircraft[k].side,
            self.s.aircraft[k].weight,
        );
        let flak: Vec<(usize, u32)> = (0..self.s.items.len())
            .filter(|&v| self.in_play(v) && self.item(v).side != side && !self.routed(v))
            .filter(|&v| self.item(v).hex.unsigned_distance_to(hex) <= 2)
            .filter_map(|v| self.flak(v).map(|n| (v, n)))
            .collect();
        for (v, needed) in flak {
            let d = dice.roll(6);
            let off = d >= needed;
            log.add(|| {
                Event::new(
                    "flak",
                    rule("M69"),
                    format!(
                        "{} fires at {id} diving on {}: needs {needed}+, rolled {d}{}.",
                        self.item(v).id,
                        label(hex),
                        if off { ": driven off" } else { "" }
                    ),
                )
                .side(self.item(v).side)
            });
            if off {
                return;
            }
        }
        let d = dice.roll(6);
        let on = d >= 4;
        let hit: Vec<usize> = if on {
            self.items_at(hex).collect()
        } else {
            Vec::new()
        };
        log.add(|| {
            Event::new(
                "strike",
                rule("M69"),
                format!(
                    "{id} strikes {}: d6 {d}: {}.",
                    label(hex),
                    if on { "on target" } else { "its bombs miss" }
                ),
            )
            .side(side)
        });
        if on {
            self.batter(hex, weight, log);
        }
        let charts = self.s.setup.charts.clone();
        for t in hit {
            let target = &mut self.s.items[t];
            let (result, text) = match &target.kind {
                Kind::Squad(_) => losses::he_on_squad(target, charts.guns[&weight].he_markers),
                Kind::Vehicle { .. } => losses::hit_vehicle(target, weight, &charts, dice),
                Kind::Gun { .. } => (
                    losses::Result::Destroyed,
                    format!("{}'s crew is hit and the gun is lost", target.id),
                ),
            };
            let (tside, tid) = (self.item(t).side, self.item(t).id.clone());
            self.reveal(t, "the air strike shows it", log);
            log.add(|| {
                Event::new("hit", rule("M69"), format!("{text}."))
                    .side(tside)
                    .units([tid])
            });
            self.commander_risk(t, dice, log);
            self.after_loss(t, result, log);
        }
    }
}
