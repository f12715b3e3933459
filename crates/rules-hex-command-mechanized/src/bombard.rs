//! Indirect fire (M94–M97, C19): a field gun or mortar fires at a hex it need not see, when a
//! unit of its side sees the hex within spotting range (15 hexes, 20 from a hill; M95, T14).
//! Field guns fire so only beyond 5 hexes, mortars at any range (M94). The round lands on the
//! hex on a d6 of 5–6, else in the neighbouring hex a second d6 names (M96), and hits every
//! item there, friend or foe: infantry as HE (a figure and markers, M97), vehicles with a
//! damage-block roll of the gun's weight (C19), gun crews lose their gun.

use crate::indirect;
use crate::items::Kind;
use crate::losses;
use crate::rule;
use crate::state::MechGame;
use hex_command_family::sight::{self, Sight};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log};

impl MechGame {
    /// A bombardment: indirect fire at a hex holding an enemy the side knows of. The target is
    /// checked before the spotters, the costliest check (a line of sight from each).
    pub fn check_bombard<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_indirect::<R>(i, hex)?;
        let it = self.item(i);
        if !self.known_enemy_in(hex, it.side) {
            return Err(R::because(|| {
                format!("{} holds no enemy {}'s side knows of", label(hex), it.id)
            }));
        }
        self.check_spotted(i, hex)
    }

    /// Smoke is fired like a bombardment, at a hex holding or next to an enemy the side knows
    /// of; where it lands it hides what is behind and in it until the firing side's next turn.
    pub fn check_smoke<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_indirect::<R>(i, hex)?;
        let side = self.item(i).side;
        let near = (0..self.s.items.len()).any(|e| {
            self.in_play(e)
                && self.item(e).side != side
                && self.visible_to(e, side)
                && self.item(e).hex.unsigned_distance_to(hex) <= 1
        });
        if !near {
            return Err(R::because(|| {
                format!("smoke goes on or next to an enemy; {} is not", label(hex))
            }));
        }
        if self.smoke.iter().any(|&(h, _)| h == hex) {
            return Err(R::because(|| format!("{} is smoked already", label(hex))));
        }
        self.check_spotted(i, hex)
    }

    pub fn do_smoke(&mut self, i: usize, aim: Hex, dice: &mut dyn Dice, log: &mut Log) {
        self.s.turn_state[i].fired += 1;
        self.s.turn_state[i].fired_turn = true;
        self.fire_unseen(i, dice, log);
        let rockets = matches!(self.item(i).kind, Kind::Gun { rockets: true, .. });
        let (at, why) = indirect::shot_fall(aim, 1, rockets, dice);
        let side = self.item(i).side;
        let on_map = self.s.setup.map.contains(at);
        if on_map && !self.smoke.iter().any(|&(h, _)| h == at) {
            self.smoke.push((at, side));
        }
        log.add(|| {
            Event::new(
                "smoke",
                rule("M96"),
                format!(
                    "{} fires smoke at {}: {why}: the smoke {} {}.",
                    self.item(i).id,
                    label(aim),
                    if on_map {
                        "lands on"
                    } else {
                        "falls off the map beyond"
                    },
                    label(at)
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
            .seen(self.firer_seen_by(i))
        });
    }

    /// M101 (D10): heavy fire (a Heavy or Very Heavy weapon) that hits a hex of works or a
    /// fort batters it; after as many hits as its weight's structure points (quick works 2,
    /// a fort 4) it is rubble: no cover, no obstacle.
    pub fn batter(&mut self, hex: Hex, weight: crate::charts::Weight, log: &mut Log) {
        use crate::charts::Weight;
        if !matches!(weight, Weight::H | Weight::VH) {
            return;
        }
        let Some(w) = self.s.works.at_mut(hex) else {
            return;
        };
        if !w.standing() {
            return;
        }
        w.damage += 1;
        let (damage, strength, rubble) = (w.damage, w.kind.strength(), !w.standing());
        log.add(|| {
            Event::new(
                "works",
                rule("M101"),
                format!(
                    "Heavy fire batters the works at {}: {damage} of {strength} hits{}.",
                    label(hex),
                    if rubble { "; they are rubble" } else { "" }
                ),
            )
        });
    }

    /// Whether smoke hides `b` from `a`: smoke on a hex between them, or on `b` itself unless
    /// they are neighbours.
    pub fn smoked(&self, a: Hex, b: Hex) -> bool {
        if self.smoke.is_empty() {
            return false;
        }
        let on = |h: Hex| self.smoke.iter().any(|&(s, _)| s == h);
        if a.unsigned_distance_to(b) > 1 && on(b) {
            return true;
        }
        volley_core::geometry::lines_between(a, b)
            .iter()
            .all(|line| line.iter().any(|&h| h != a && h != b && on(h)))
    }

    /// A hidden gun fires indirectly: it shows itself, or with option `sound_ranging` (M79)
    /// the enemy learns only an area of ten hexes around a point a d6 puts next to it.
    fn fire_unseen(&mut self, i: usize, dice: &mut dyn Dice, log: &mut Log) {
        if !(self.s.setup.settings.sound_ranging && self.s.turn_state[i].hidden) {
            self.reveal(i, "it fires", log);
            return;
        }
        let hex = self.item(i).hex;
        let d = dice.roll(6);
        let centre = volley_core::geometry::step(
            hex,
            volley_core::geometry::Facing::from_index((d - 1) as u8),
        );
        let mut near: Vec<Hex> = self.s.setup.map.hexes().collect();
        near.sort_by_key(|h| (h.unsigned_distance_to(centre), label(*h)));
        let mut area: Vec<Hex> = near.into_iter().take(10).collect();
        if !area.contains(&hex) {
            area.pop();
            area.push(hex);
        }
        area.sort_by_key(|h| label(*h));
        let side = self.item(i).side;
        let turn = self.s.turn;
        self.sound
            .retain(|(s, _, a)| !(*s == side && a.contains(&hex)));
        self.sound.push((side, turn, area.clone()));
        log.add(|| {
            Event::new(
                "sound ranging",
                rule("M79"),
                format!(
                    "{} fires unseen: {} sound-ranges it to the area {}.",
                    side,
                    side.other(),
                    area.iter().map(|h| label(*h)).collect::<Vec<_>>().join(" ")
                ),
            )
            .side(side.other())
        });
    }

    /// Who is told of an indirect shot: both sides, but only the firer's own while the gun
    /// stays hidden under sound ranging (the enemy sees the area and the rounds' effect).
    fn firer_seen_by(&self, i: usize) -> volley_core::Seen {
        if !self.s.turn_state[i].hidden {
            return volley_core::Seen::Both;
        }
        match self.item(i).side {
            volley_core::Side::Red => volley_core::Seen::Red,
            volley_core::Side::Blue => volley_core::Seen::Blue,
        }
    }

    /// What bombardment and smoke both need of the gun and the range (M94); the spotter
    /// (M95) is [`Self::check_spotted`], asked last.
    fn check_indirect<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        self.check_may_fire::<R>(i)?;
        let it = self.item(i);
        let Kind::Gun {
            weight,
            indirect: field,
            mortar,
            ..
        } = it.kind
        else {
            return Err(R::because(|| {
                format!("{} has no indirect fire (M94)", it.id)
            }));
        };
        if !field && !mortar {
            return Err(R::because(|| {
                format!("{} fires only at what it sees (M94)", it.id)
            }));
        }
        let map = &self.s.setup.map;
        if !map.contains(hex) {
            return Err(R::because(|| format!("{} is off the map", label(hex))));
        }
        let r = crate::fire_tables::range(it.hex, hex);
        if !indirect::indirect_allowed(r, mortar) {
            return Err(R::because(|| {
                format!(
                    "field guns fire indirectly only beyond {} hexes (M94)",
                    indirect::MIN_INDIRECT_RANGE
                )
            }));
        }
        let reach = self.s.setup.charts.guns[&weight].max_range;
        if r > reach {
            return Err(R::because(|| {
                format!("{} is out of {}'s reach ({reach})", label(hex), it.id)
            }));
        }
        Ok(())
    }

    /// A unit of the firer's side sees the hex within spotting range (M95).
    fn check_spotted<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        if self.spotter(i, hex).is_none() {
            return Err(R::because(|| {
                format!(
                    "no unit of {}'s side sees {} within spotting range (M95)",
                    self.item(i).id,
                    label(hex)
                )
            }));
        }
        Ok(())
    }

    /// A unit of the firer's side that sees `hex` within spotting range (M95).
    pub fn spotter(&self, i: usize, hex: Hex) -> Option<usize> {
        let side = self.item(i).side;
        let g = self.ground();
        let map = &self.s.setup.map;
        (0..self.s.items.len()).find(|&s| {
            let h = self.item(s).hex;
            self.in_play(s)
                && self.item(s).side == side
                && !self.routed(s)
                && h.unsigned_distance_to(hex) <= indirect::spotting_range(map.elevation(h) > 0)
                && sight::line_of_sight(g, h, hex, None, |_| None) != Sight::Blocked
                && !self.smoked(h, hex)
        })
    }

    pub fn do_bombard(&mut self, i: usize, aim: Hex, dice: &mut dyn Dice, log: &mut Log) {
        let Kind::Gun { weight, .. } = self.item(i).kind else {
            unreachable!("checked: a gun")
        };
        self.s.turn_state[i].fired += 1;
        self.s.turn_state[i].fired_turn = true;
        self.fire_unseen(i, dice, log);
        let spotter = self.spotter(i, aim).expect("checked: a spotter");
        let rockets = matches!(self.item(i).kind, Kind::Gun { rockets: true, .. });
        let (at, why) = indirect::shot_fall(aim, 1, rockets, dice);
        let hit: Vec<usize> = if self.s.setup.map.contains(at) {
            self.items_at(at).collect()
        } else {
            Vec::new()
        };
        log.add(|| {
            Event::new(
                "bombard",
                rule("M96"),
                format!(
                    "{} fires on {} for {}, spotted by {}: {why}: the round lands on {}{}.",
                    self.item(i).id,
                    label(aim),
                    self.item(i).side,
                    self.item(spotter).id,
                    label(at),
                    if hit.is_empty() {
                        ", harming nobody"
                    } else {
                        ""
                    }
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
            .seen(self.firer_seen_by(i))
        });
        if self.s.setup.map.contains(at) {
            self.batter(at, weight, log);
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
            let (side, id) = (self.item(t).side, self.item(t).id.clone());
            self.reveal(t, "the shelling shows it", log);
            log.add(|| {
                Event::new("hit", rule("M97"), format!("{text}."))
                    .side(side)
                    .units([id])
            });
            self.commander_risk(t, dice, log);
            self.after_loss(t, result, log);
        }
    }
}
