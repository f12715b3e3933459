//! Musketry/Attacking (the rules' third paragraph and its table): a hex fires at an adjacent
//! enemy hex; the chances of its figures are added, every whole one is a casualty and the
//! fraction is rolled for on a d10. Guns take two casualties before they are out of action,
//! and only once no infantry shares their hex. All chances are kept in whole tenths.

use crate::state::{Phase, StandAndDieGame};
use crate::table::{CoverGround, FireArc};
use crate::troops::{Arm, GUN_CASUALTIES};
use crate::water;
use volley_core::geometry::{distance, in_front_arc, label, step, Facing};
use volley_core::map::{Hexside, Terrain};
use volley_core::{Dice, Event, Hex, Illegal, Log};

pub const RULE: &str = "stand-and-die musketry";

/// The target hex's state: the four columns of the chance table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetState {
    Standing,
    FallingBack,
    StandingInCover,
    FallingBackInCover,
}

impl TargetState {
    pub fn of(standing: bool, in_cover: bool) -> TargetState {
        match (standing, in_cover) {
            (true, false) => TargetState::Standing,
            (false, false) => TargetState::FallingBack,
            (true, true) => TargetState::StandingInCover,
            (false, true) => TargetState::FallingBackInCover,
        }
    }

    fn column(self) -> usize {
        self as usize
    }

    pub fn words(self) -> &'static str {
        match self {
            TargetState::Standing => "standing",
            TargetState::FallingBack => "falling back",
            TargetState::StandingInCover => "standing in cover",
            TargetState::FallingBackInCover => "falling back in cover",
        }
    }
}

/// Chance per firing figure that an enemy figure dies, in tenths, by target state (standing,
/// falling back, standing in cover, falling back in cover).
const INFANTRY_CHANCE: [u32; 4] = [3, 1, 1, 0];
const CAVALRY_CHANCE: [u32; 4] = [4, 4, 3, 2];
const ARTILLERY_CHANCE: [u32; 4] = [11, 3, 6, 1];

/// Added per firing figure, in tenths, when the fire comes through one of the target's rear
/// three hexsides.
const INFANTRY_REAR_BONUS: u32 = 1;
const CAVALRY_REAR_BONUS: u32 = 2;
const ARTILLERY_REAR_BONUS: u32 = 5;

/// Hexside features that give cover from fire across them ("any terrain/buildings etc.").
pub const COVER_HEXSIDES: [Hexside; 3] = [Hexside::Wall, Hexside::Hedge, Hexside::Fence];

/// Ground that gives no cover when every terrain but open ground does (`CoverGround::AnyTerrain`).
const OPEN_GROUND: [Terrain; 4] = [
    Terrain::Clear,
    Terrain::Water,
    Terrain::Bridge,
    Terrain::Ford,
];

/// Terrain that gives cover ("any terrain/buildings").
pub const COVER: [Terrain; 5] = [
    Terrain::Woods,
    Terrain::LightWoods,
    Terrain::Town,
    Terrain::Fort,
    Terrain::Rough,
];

/// What a volley leaves for the rest of the musketry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Volley {
    pub from: Hex,
    pub at: Hex,
    /// Whether troops are left in the target hex and it is not Standing: it will fall back
    /// when the musketry ends.
    pub drives_back: bool,
}

pub fn chance_tenths(arm: Arm, target: TargetState) -> u32 {
    let row = match arm {
        Arm::Infantry => INFANTRY_CHANCE,
        Arm::Cavalry => CAVALRY_CHANCE,
        Arm::Artillery => ARTILLERY_CHANCE,
    };
    row[target.column()]
}

pub fn rear_bonus_tenths(arm: Arm) -> u32 {
    match arm {
        Arm::Infantry => INFANTRY_REAR_BONUS,
        Arm::Cavalry => CAVALRY_REAR_BONUS,
        Arm::Artillery => ARTILLERY_REAR_BONUS,
    }
}

/// Tenths as the rules write them: 21 → "2.1".
pub fn tenths(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

fn casualties(n: u32) -> String {
    if n == 1 {
        "1 casualty".into()
    } else {
        format!("{n} casualties")
    }
}

impl StandAndDieGame {
    /// The hexsides of the target through which fire from `from` arrives, if `from` may fire
    /// at `at` at all: the one between them when next to it or straight across one river
    /// hex, or the two beside the corner the line reaches when across the river on a slant
    /// (then both are the same facing for the former).
    fn line_of_fire(&self, from: Hex, at: Hex) -> Option<[Facing; 2]> {
        if distance(from, at) == 1 {
            return Facing::towards(at, from).map(|f| [f, f]);
        }
        if !water::across_the_river(self.map(), from, at, self.table().fords_open) {
            return None;
        }
        let mut towards = Facing::ALL
            .into_iter()
            .filter(|&g| distance(step(at, g), from) == 1);
        let first = towards.next()?;
        Some([first, towards.next().unwrap_or(first)])
    }

    /// What gives the troops in `at` cover from fire arriving through `through` (see
    /// `line_of_fire`), in words, if anything does: their hex's terrain, or a wall, hedge or
    /// fence along the hexside the fire crosses (along both, for fire reaching a corner).
    fn cover(&self, at: Hex, through: [Facing; 2]) -> Option<String> {
        let terrain = self.map().terrain(at);
        let covered = match self.table().cover {
            CoverGround::Sheltering => COVER.contains(&terrain),
            CoverGround::AnyTerrain => !OPEN_GROUND.contains(&terrain),
        };
        if covered {
            return Some(terrain.name().to_string());
        }
        if self.table().cover == CoverGround::AnyTerrain && self.map().elevation(at) > 0 {
            return Some("on a hill".to_string());
        }
        let obstacles = through.map(|side| {
            self.map()
                .hexside(at, step(at, side))
                .filter(|h| COVER_HEXSIDES.contains(h))
        });
        match obstacles {
            [Some(a), Some(_)] => Some(format!("behind a {}", a.name())),
            _ => None,
        }
    }

    /// Whether troops in `from` facing `facing` may fire at `at` (the option `fire_arc`).
    fn may_fire_towards(&self, from: Hex, facing: Facing, at: Hex) -> bool {
        self.table().fire_arc == FireArc::AllRound || in_front_arc(from, facing, at)
    }

    /// The units in `from` that may fire at `at`: those facing it (or all, with
    /// `fire_arc = "all-round"`).
    fn firers(&self, from: Hex, at: Hex) -> Vec<usize> {
        self.troops_in(from)
            .filter(|(_, u)| self.may_fire_towards(u.hex, u.facing, at))
            .map(|(i, _)| i)
            .collect()
    }

    /// The enemy hexes a hex may fire at now, unless it has fired: those next to it and those
    /// across the river, ahead of its troops (what `check_fire` allows, found without
    /// writing the reasons for what it refuses).
    pub fn targets(&self, from: Hex) -> impl Iterator<Item = Hex> + '_ {
        let (map, fords_open) = (self.map(), self.table().fords_open);
        let ready = !self.fired_from.contains(&from);
        let troops = self.troops_in(from).next().map(|(_, u)| (u.side, u.facing));
        Facing::ALL
            .into_iter()
            .map(move |f| step(from, f))
            .chain(water::hexes_across_the_river(map, from, fords_open))
            .filter(move |_| ready)
            .filter(move |&at| {
                troops.is_some_and(|(side, facing)| {
                    self.holder(at) == Some(side.other()) && self.may_fire_towards(from, facing, at)
                })
            })
    }

    pub fn check_fire(&self, from: Hex, at: Hex) -> Result<(), Illegal> {
        let Phase::Musketry(side) = self.phase else {
            return Err(Illegal::new("fire only in your musketry phase"));
        };
        if self.holder(from) != Some(side) {
            return Err(Illegal::new(format!(
                "{side} has no troops in {}",
                label(from)
            )));
        }
        if self.fired_from.contains(&from) {
            return Err(Illegal::new(format!(
                "{} has already fired this turn",
                label(from)
            )));
        }
        if self.holder(at) != Some(side.other()) {
            return Err(Illegal::new(format!("no enemy in {}", label(at))));
        }
        if self.line_of_fire(from, at).is_none() {
            return Err(Illegal::new(format!(
                "{} is neither next to {} nor a river-edge hex facing it across one hex of river",
                label(at),
                label(from)
            )));
        }
        if self.firers(from, at).is_empty() {
            let facing = self.hex_facing(from).map_or("-", Facing::name);
            return Err(Illegal::new(format!(
                "the troops in {} face {facing}: {} is not ahead of them",
                label(from),
                label(at)
            )));
        }
        Ok(())
    }

    /// One hex's volley at an enemy hex: the casualties are taken at once; what the volley
    /// leaves for later (the target's falling back) it returns.
    pub fn fire(&mut self, from: Hex, at: Hex, dice: &mut dyn Dice, log: &mut Log) -> Volley {
        let side = self
            .holder(from)
            .expect("checked: the firing side holds the hex");
        let firers = self.firers(from, at);
        let target_facing = self
            .hex_facing(at)
            .expect("checked: the enemy holds the target");
        let arrives_through = self
            .line_of_fire(from, at)
            .expect("checked: the target is in reach");
        let from_rear = arrives_through
            .iter()
            .all(|&side| target_facing.difference(side) >= 2);
        let standing = self.is_standing(at);
        let cover = self.cover(at, arrives_through);
        let state = TargetState::of(standing, cover.is_some());

        // Per arm: the figures firing, the table's chance and the chance each figure has.
        let volley = Arm::ALL.map(|arm| {
            let figures: u32 = firers
                .iter()
                .map(|&i| &self.units[i])
                .filter(|u| u.arm == arm)
                .map(|u| u.figures)
                .sum();
            let chance = chance_tenths(arm, state);
            let each = if from_rear {
                chance + rear_bonus_tenths(arm)
            } else {
                chance
            };
            (arm, figures, chance, each)
        });
        let total: u32 = volley.iter().map(|&(_, n, _, each)| n * each).sum();
        let sure = total / 10;
        let fraction = total % 10;
        let roll = (fraction > 0).then(|| dice.roll(10));
        let dead = sure + u32::from(roll.is_some_and(|r| r <= fraction));
        log.add(|| {
            let parts: Vec<String> = volley
                .iter()
                .filter(|&&(_, n, _, _)| n > 0)
                .map(|&(arm, n, chance, each)| {
                    let each_words = if from_rear {
                        format!(
                            "({} + {} rear)",
                            tenths(chance),
                            tenths(rear_bonus_tenths(arm))
                        )
                    } else {
                        tenths(chance)
                    };
                    format!("{} × {each_words} = {}", arm.figures(n), tenths(n * each))
                })
                .collect();
            let mut text = format!(
                "{} fires at {} ({}{}{}): {}",
                label(from),
                label(at),
                state.words(),
                if let Some(cover) = &cover {
                    format!(", {cover}")
                } else {
                    String::new()
                },
                if from_rear { ", from its rear" } else { "" },
                parts.join(" + ")
            );
            if parts.len() > 1 {
                text.push_str(&format!(" = {}", tenths(total)));
            }
            text.push_str(&format!(" → {}", casualties(sure)));
            match roll {
                None => text.push_str(", no fraction to roll for"),
                Some(roll) if roll <= fraction => text.push_str(&format!(
                    ", d10 rolled {roll} ≤ {fraction} → +1 = {}",
                    sure + 1
                )),
                Some(roll) => text.push_str(&format!(", d10 rolled {roll} > {fraction} → {sure}")),
            }
            let firing_ids = firers.iter().map(|&i| self.units[i].id.clone());
            Event::new("fire", RULE, text).side(side).units(firing_ids)
        });

        let taken = self.take_casualties(at, dead, log);
        self.inflicted[side.index()] += taken;
        self.fired_from.push(from);
        self.lift_marker_if_empty(at);
        Volley {
            from,
            at,
            drives_back: !standing && self.holder(at).is_some(),
        }
    }

    /// Who takes the next casualty in a hex: infantry first (the most figures first, so the
    /// loss is spread), else cavalry, else guns, finishing a damaged gun before starting one.
    fn next_casualty(&self, hex: Hex) -> Option<usize> {
        for arm in [Arm::Infantry, Arm::Cavalry] {
            let most = self
                .troops_in(hex)
                .filter(|(_, u)| u.arm == arm)
                .max_by_key(|(i, u)| (u.figures, std::cmp::Reverse(*i)));
            if let Some((i, _)) = most {
                return Some(i);
            }
        }
        self.troops_in(hex)
            .max_by_key(|(i, u)| (u.gun_casualties, u.figures, std::cmp::Reverse(*i)))
            .map(|(i, _)| i)
    }

    /// Removes `n` casualties from a hex; returns how many found a victim.
    fn take_casualties(&mut self, hex: Hex, n: u32, log: &mut Log) -> u32 {
        // (unit, figures before, gun casualties before), in the order they were first hit.
        let mut hit: Vec<(usize, u32, u32)> = Vec::new();
        let mut taken = 0;
        for _ in 0..n {
            let Some(i) = self.next_casualty(hex) else {
                break;
            };
            let u = &mut self.units[i];
            if !hit.iter().any(|(j, _, _)| *j == i) {
                hit.push((i, u.figures, u.gun_casualties));
            }
            if u.arm == Arm::Artillery {
                u.gun_casualties += 1;
                if u.gun_casualties == GUN_CASUALTIES {
                    u.gun_casualties = 0;
                    u.figures -= 1;
                }
            } else {
                u.figures -= 1;
            }
            if !u.on_table() {
                self.unlist(i);
            }
            taken += 1;
        }
        for (i, figures, gun_casualties) in hit {
            log.add(|| {
                let u = &self.units[i];
                let mut text = if u.arm == Arm::Artillery {
                    let took =
                        (figures * GUN_CASUALTIES - gun_casualties) - u.casualties_to_destroy();
                    let mut t = format!(
                        "{} takes {} with no infantry in {}: guns in action {figures} → {}",
                        u.label(),
                        casualties(took),
                        label(hex),
                        u.figures
                    );
                    if u.gun_casualties > 0 {
                        t.push_str(&format!(
                            ", one with {} of its {GUN_CASUALTIES}",
                            casualties(u.gun_casualties)
                        ));
                    }
                    t
                } else {
                    format!(
                        "{} loses {}: {figures} → {}",
                        u.label(),
                        if figures - u.figures == 1 {
                            "1 figure".to_string()
                        } else {
                            format!("{} figures", figures - u.figures)
                        },
                        u.figures
                    )
                };
                if !u.on_table() {
                    text.push_str(", and is gone");
                }
                Event::new(if u.on_table() { "hit" } else { "eliminated" }, RULE, text)
                    .side(u.side)
                    .units([u.id.clone()])
            });
        }
        if taken < n {
            log.add(|| {
                Event::new(
                    "hit",
                    RULE,
                    format!(
                        "{} more find no one left in {}",
                        casualties(n - taken),
                        label(hex)
                    ),
                )
            });
        }
        taken
    }
}
