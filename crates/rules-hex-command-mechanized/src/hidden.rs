//! Hidden units, spotting and ambush (M76–M78, M117), minefields unknown to the enemy (M65)
//! and the secret AT capability (M4): what each side may know, and a world for a side's
//! search that holds only what it knows.
//!
//! A unit the scenario marks `hidden` is off the enemy's map until it moves, fires or starts a
//! melee, or is spotted: at the start and at the end of each player turn (steps 2 and 9) the
//! phasing side rolls a d6 for each hidden enemy within 15 hexes (20 from a hill) of one of its
//! units that sees it, 5–6 revealing it. An enemy that steps into a hidden unit's hex is
//! ambushed: the step is not made, the hidden unit shows itself and fires first (M117).
//!
//! Decoys (M77): a scenario may place fake markers (`[[decoys]]`, read by the Hex Command
//! family); then hidden units stand on the table as markers among them (the table method of
//! 4.1) instead of off it. Spotting finds a decoy out like a unit (d6 5–6), and so does an
//! enemy entering its hex. An enemy moving next to a marker shows it only if it is a vehicle
//! (real ones) — a decoy next to it is found out unless it stands in heavy terrain (forest,
//! buildings, a fort or works), where it stays a marker.

use crate::indirect;
use crate::items::Kind;
use crate::rule;
use crate::state::MechGame;
use hex_command_family::sight::{self, Sight};
use volley_core::geometry::label;
use volley_core::{Dice, Event, Hex, Log, Seen, Side};

fn only(side: Side) -> Seen {
    match side {
        Side::Red => Seen::Red,
        Side::Blue => Seen::Blue,
    }
}

impl MechGame {
    /// Whether `side` knows item `i` is there.
    pub fn visible_to(&self, i: usize, side: Side) -> bool {
        self.item(i).side == side || !self.s.turn_state[i].hidden
    }

    /// Enemies of `side` in a hex that `side` knows of.
    pub fn known_enemy_in(&self, hex: Hex, side: Side) -> bool {
        self.items_at(hex)
            .any(|e| self.item(e).side != side && self.visible_to(e, side))
    }

    /// Room in a hex as `side` knows it: two less its own items and the enemies it sees.
    pub fn known_room(&self, hex: Hex, side: Side) -> usize {
        let map = &self.s.setup.map;
        if !map.contains(hex) {
            return 0;
        }
        let known = self
            .items_at(hex)
            .filter(|&e| self.item(e).side == side || self.visible_to(e, side))
            .count();
        crate::board::STACK.saturating_sub(known)
    }

    pub fn reveal(&mut self, i: usize, why: &str, log: &mut Log) {
        if !self.s.turn_state[i].hidden {
            return;
        }
        self.s.turn_state[i].hidden = false;
        log.add(|| {
            let it = self.item(i);
            Event::new(
                "reveal",
                rule("M78"),
                format!(
                    "{} ({}) is revealed at {}: {why}.",
                    it.id,
                    it.name,
                    label(it.hex)
                ),
            )
            .side(it.side)
            .units([it.id.clone()])
        });
    }

    /// M76: the phasing side looks for hidden enemies (steps 2 and 9).
    pub fn spotting(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let side = self.phasing();
        let g = self.ground();
        let map = &self.s.setup.map;
        let spotters: Vec<Hex> = (0..self.s.items.len())
            .filter(|&i| self.in_play(i) && self.item(i).side == side && !self.routed(i))
            .map(|i| self.item(i).hex)
            .collect();
        // Within 15 hexes of a spotter (20 from a hill) that sees it.
        let in_view = |t: Hex| {
            spotters.iter().any(|&h| {
                let reach = indirect::spotting_range(map.elevation(h) > 0);
                h.unsigned_distance_to(t) <= reach
                    && sight::line_of_sight(g, h, t, None, |_| None) != Sight::Blocked
                    && !self.smoked(h, t)
            })
        };
        let targets: Vec<usize> = (0..self.s.items.len())
            .filter(|&e| {
                self.in_play(e) && self.item(e).side != side && self.s.turn_state[e].hidden
            })
            .filter(|&e| in_view(self.item(e).hex))
            .collect();
        let decoys: Vec<Hex> = self
            .s
            .decoys
            .iter()
            .filter(|d| d.side != side)
            .map(|d| d.hex)
            .filter(|&t| in_view(t))
            .collect();
        self.spot_items(targets, side, dice, log);
        for hex in decoys {
            let d = dice.roll(6);
            if indirect::spots(d) {
                self.decoy_found(hex, &format!("{side} spots it (d6 {d}, M76)"), log);
            } else {
                log.add(|| {
                    Event::new(
                        "spotting",
                        rule("M76"),
                        format!(
                            "{side} does not spot through the marker at {} (d6 {d}).",
                            label(hex)
                        ),
                    )
                    .side(side.other())
                    .seen(only(side.other()))
                });
            }
        }
    }

    fn spot_items(&mut self, targets: Vec<usize>, side: Side, dice: &mut dyn Dice, log: &mut Log) {
        for e in targets {
            let d = dice.roll(6);
            if indirect::spots(d) {
                self.reveal(e, &format!("{side} spots it (d6 {d}, M76)"), log);
            } else {
                let owner = self.item(e).side;
                log.add(|| {
                    Event::new(
                        "spotting",
                        rule("M76"),
                        format!("{side} does not spot {} (d6 {d}).", self.item(e).id),
                    )
                    .side(owner)
                    .seen(only(owner))
                });
            }
        }
    }

    /// M77: a decoy marker is found out and taken off the table.
    pub fn decoy_found(&mut self, hex: Hex, why: &str, log: &mut Log) {
        let Some(k) = self.s.decoys.iter().position(|d| d.hex == hex) else {
            return;
        };
        let side = self.s.decoys.remove(k).side;
        log.add(|| {
            Event::new(
                "reveal",
                rule("M77"),
                format!(
                    "The {side} marker at {} was a decoy and is removed: {why}.",
                    label(hex)
                ),
            )
            .side(side)
        });
    }

    /// Heavy terrain for a decoy (M77): forest, buildings, a fort or standing works — not a
    /// fence, wall or bushes (light woods).
    pub fn heavy_terrain(&self, hex: Hex) -> bool {
        use volley_core::map::Terrain;
        matches!(
            self.s.setup.map.terrain(hex),
            Terrain::Woods | Terrain::Town | Terrain::Fort
        ) || self.s.works.at(hex).is_some_and(|w| {
            w.standing() && w.kind != hex_command_family::ground::WorkKind::Pontoon
        })
    }

    /// M77: item `i` has entered `hex`. An enemy decoy in the hex is found out; in the
    /// neighbouring hexes hidden enemy vehicles are revealed, other hidden units stay hidden,
    /// and decoys are found out unless they stand in heavy terrain.
    pub fn markers_next_to(&mut self, i: usize, log: &mut Log) {
        let (side, hex) = (self.item(i).side, self.item(i).hex);
        let id = self.item(i).id.clone();
        let near: Vec<Hex> = self
            .s
            .decoys
            .iter()
            .filter(|d| d.side != side)
            .map(|d| d.hex)
            .filter(|&h| {
                let d = h.unsigned_distance_to(hex);
                d == 0 || (d == 1 && !self.heavy_terrain(h))
            })
            .collect();
        for h in near {
            let why = if h == hex {
                format!("{id} enters its hex")
            } else {
                format!("{id} comes next to it")
            };
            self.decoy_found(h, &why, log);
        }
        let vehicles: Vec<usize> = (0..self.s.items.len())
            .filter(|&e| {
                self.in_play(e)
                    && self.item(e).side != side
                    && self.s.turn_state[e].hidden
                    && matches!(self.item(e).kind, Kind::Vehicle { .. })
                    && self.item(e).hex.unsigned_distance_to(hex) == 1
            })
            .collect();
        for e in vehicles {
            self.reveal(e, &format!("{id} comes next to it (M77)"), log);
        }
    }

    /// M117: item `i` stepping into `to` finds hidden enemies there. The step is not made;
    /// they show themselves and each fires first at it. Returns whether it was ambushed.
    pub fn ambush(&mut self, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) -> bool {
        let side = self.item(i).side;
        let waiting: Vec<usize> = self
            .items_at(to)
            .filter(|&e| self.item(e).side != side)
            .collect();
        if waiting.is_empty() {
            return false;
        }
        self.s.turn_state[i].done = true;
        log.add(|| {
            Event::new(
                "ambush",
                rule("M117"),
                format!(
                    "{} tries to enter {} and runs into a waiting enemy: its move ends.",
                    self.item(i).id,
                    label(to)
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
        });
        for e in waiting {
            self.reveal(e, "it springs an ambush", log);
            let bears = crate::fire_tables::bearing(self.item(e), self.item(i).hex, false)
                != crate::fire_tables::Bearing::No;
            let shot = self.shot(e, i).filter(|s| {
                !matches!(
                    s,
                    crate::fire::Shot::At {
                        roll: crate::fire_tables::AtRoll::Impossible,
                        ..
                    }
                )
            });
            if bears && shot.is_some() && self.in_play(i) && !self.routed(e) {
                self.do_fire(e, i, dice, log);
            }
        }
        true
    }

    /// A copy with what `side` does not know taken off the table: hidden enemies and every
    /// minefield (for walks over possible moves that must not roll or reveal anything).
    pub fn without_unknowns(&self, side: Side) -> MechGame {
        let mut g = self.clone();
        for i in 0..g.s.items.len() {
            if g.in_play(i) && !g.visible_to(i, side) {
                g.remove(i);
            }
        }
        g.s.minefields.clear();
        g
    }

    /// A copy of the game as `side` knows it, for a search that must not peek (the bots'
    /// determinization): hidden enemies are dealt out afresh (among the markers with decoys
    /// out, else by `deal_unseen`), unrevealed enemy squads carry no AT weapons, and enemy
    /// minefields `side` has not found are gone.
    pub fn as_known_by(&self, side: Side, dice: &mut dyn Dice) -> MechGame {
        let mut g = self.clone();
        for i in 0..g.s.items.len() {
            if !g.in_play(i) || g.item(i).side == side {
                continue;
            }
            if let Kind::Squad(s) = &mut g.s.items[i].kind {
                if !g.revealed_at[i] {
                    s.at = false;
                }
            }
        }
        if g.s.setup.markers {
            g.deal_markers(side, dice);
        } else {
            g.deal_unseen(side, dice);
        }
        g.s.minefields.retain(|m| m.side == side || m.known);
        g.refresh_legal();
        g
    }

    /// The hidden enemies of `side` (carriers bring their passengers along) are first lifted
    /// off the table, so that where they truly stand makes no difference, then dealt one by
    /// one, each to a random empty hex it could stand in that no unit of `side` is next to:
    /// heavy terrain when any such hex is left (docs/rules, interpretation 41).
    fn deal_unseen(&mut self, side: Side, dice: &mut dyn Dice) {
        let map = self.s.setup.map.clone();
        let unseen: Vec<usize> = (0..self.s.items.len())
            .filter(|&i| {
                self.in_play(i)
                    && self.item(i).side != side
                    && self.s.turn_state[i].hidden
                    && self.aboard(i).is_none()
            })
            .collect();
        for &i in &unseen {
            self.s.board.lift(&map, self.item(i).hex, i);
        }
        let watched: Vec<Hex> = (0..self.s.items.len())
            .filter(|&f| self.in_play(f) && self.item(f).side == side)
            .map(|f| self.item(f).hex)
            .collect();
        for &i in &unseen {
            let open: Vec<Hex> = map
                .hexes()
                .filter(|&h| {
                    self.s.board.room(&map, h) > 0
                        && !self.enemy_in(h, self.item(i).side)
                        && self.passable(self.item(i), h, h)
                })
                .collect();
            let free: Vec<Hex> = open
                .iter()
                .copied()
                .filter(|&h| {
                    self.items_at(h).next().is_none()
                        && !watched.iter().any(|w| w.unsigned_distance_to(h) <= 1)
                })
                .collect();
            // Where a unit could wait unseen, a player looks in cover first.
            let cover: Vec<Hex> = free
                .iter()
                .copied()
                .filter(|&h| self.heavy_terrain(h))
                .collect();
            let spots = [cover, free, open]
                .into_iter()
                .find(|v| !v.is_empty())
                .unwrap_or_default();
            if !spots.is_empty() {
                let k = (dice.roll(spots.len() as u32) - 1) as usize;
                self.s.items[i].hex = spots[k];
            }
            let placed = self.s.board.place(&map, self.item(i).hex, i);
            debug_assert!(placed, "a hex with room, or its own");
            self.carry_along(i);
        }
    }

    /// With decoys on the table (M77), `side` sees the enemy's hidden units and decoys only as
    /// markers: they are dealt out at random among the marker hexes (as Gunpowder's search
    /// does, through the family's shuffle), the decoys taking the hexes left over.
    fn deal_markers(&mut self, side: Side, dice: &mut dyn Dice) {
        let map = self.s.setup.map.clone();
        let hidden: Vec<usize> = (0..self.s.items.len())
            .filter(|&i| self.in_play(i) && self.item(i).side != side && !self.visible_to(i, side))
            .collect();
        let mut spots: Vec<Hex> = hidden.iter().map(|&i| self.item(i).hex).collect();
        spots.extend(
            self.s
                .decoys
                .iter()
                .filter(|d| d.side != side)
                .map(|d| d.hex),
        );
        spots.sort_by_key(|h| volley_core::geometry::col_row(*h));
        hex_command_family::markers::shuffle(&mut spots, dice);
        for &i in &hidden {
            self.s.board.lift(&map, self.item(i).hex, i);
        }
        let mut left = Vec::new();
        for (k, &h) in spots.iter().enumerate() {
            match hidden.get(k) {
                Some(&i) if self.s.board.room(&map, h) > 0 && self.passable(self.item(i), h, h) => {
                    self.s.items[i].hex = h;
                    self.s.board.place(&map, h, i);
                }
                Some(&i) => {
                    // No room there: back where it was, or failing that any marker hex free.
                    let at = std::iter::once(self.item(i).hex)
                        .chain(spots.iter().copied())
                        .find(|&x| self.s.board.room(&map, x) > 0)
                        .unwrap_or(self.item(i).hex);
                    self.s.items[i].hex = at;
                    self.s.board.place(&map, at, i);
                    left.push(h);
                }
                None => left.push(h),
            }
        }
        let mut left = left.into_iter();
        for d in self.s.decoys.iter_mut().filter(|d| d.side != side) {
            if let Some(h) = left.next() {
                d.hex = h;
            }
        }
    }
}
