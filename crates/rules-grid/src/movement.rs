//! Movement Rules 1-7, the initiative limit on units moved, the withdrawal of engaged units
//! (Close Combat 3), cavalry evading infantry (Close Combat 4) and commanders attaching.
//! Moves are made one tile at a time; a unit's move ends when it turns to face a side, when it
//! meets an enemy, or when another unit starts moving.

use crate::game::{GridGame, Phase, COMMANDER_REACH};
use crate::rule;
use crate::terrain::{self, Going};
use crate::tiles::{self, Heading};
use crate::unit_data::Kind;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Illegal};

impl GridGame {
    fn check_movement_phase(&self) -> Result<(), Illegal> {
        if self.phase != Phase::Movement {
            return Err(Illegal::new(format!(
                "units move only in the movement phase; it is the {}",
                self.phase_name()
            )));
        }
        Ok(())
    }

    /// Whether `unit` may make (or go on with) its move now.
    fn check_may_move(&self, unit: usize) -> Result<(), Illegal> {
        self.check_movement_phase()?;
        let u = self.own_unit(unit)?;
        if let Some(f) = self.facing_choice.filter(|f| *f != unit) {
            return Err(Illegal::new(format!(
                "{} must first choose which enemy to face (Movement Rules 6)",
                self.units[f].id
            )));
        }
        if u.turn.done {
            return Err(Illegal::new(format!(
                "{} has already moved this turn (Movement Rules 2)",
                u.id
            )));
        }
        if let Some(m) = self.mover.filter(|m| *m != unit) {
            if self.occupant(self.units[m].tile, Some(m)).is_some() {
                return Err(Illegal::new(format!(
                    "{} is passing through a friend's tile and must move on (Movement Rules 5)",
                    self.units[m].id
                )));
            }
        }
        let side = u.side;
        if !u.turn.moving && self.moved_units >= self.rolls[side.index()] {
            return Err(Illegal::new(format!(
                "{side} rolled {} for initiative and has moved that many units (Initiative)",
                self.rolls[side.index()]
            )));
        }
        Ok(())
    }

    /// Whether `kind` may cross from `from` into the next tile `to`, and why not.
    fn check_passage(&self, kind: Kind, from: Hex, to: Hex) -> Result<(), Illegal> {
        if !self.map().contains(to) || !tiles::adjacent(self.grid(), from, to) {
            return Err(Illegal::new(format!(
                "{} does not share a side with {}: units move through tile sides, not corners (Movement Rules 1)",
                label(to),
                label(from)
            )));
        }
        terrain::entry(kind, self.map().terrain(to)).map_err(Illegal::new)?;
        if !terrain::side_crossable(self.map(), from, to) {
            return Err(Illegal::new(format!(
                "a river runs between {} and {}; it is crossed only at bridges or fords (Terrain: River)",
                label(from),
                label(to)
            )));
        }
        Ok(())
    }

    pub fn check_move(&self, unit: usize, to: Hex) -> Result<(), Illegal> {
        self.check_may_move(unit)?;
        let u = &self.units[unit];
        if self.facing_choice == Some(unit) {
            return Err(Illegal::new(format!(
                "{} has met the enemy and must stop and face it (Movement Rules 6)",
                u.id
            )));
        }
        if !u.turn.moving && !self.engaged_with(unit).is_empty() {
            return Err(Illegal::new(format!(
                "{} is engaged in close combat: it may withdraw one tile or stay (Close Combat 3)",
                u.id
            )));
        }
        self.check_passage(u.kind, u.tile, to)?;
        if let Some(e) = self.enemy_at(to, u.side) {
            return Err(Illegal::new(format!(
                "{} is held by the enemy ({})",
                label(to),
                self.units[e].id
            )));
        }
        let so_far = if u.turn.moving {
            u.turn.going
        } else {
            Going::starting_in(self.map(), u.tile)
        };
        let going = so_far.with(self.map(), to);
        let allowance = self.allowance(unit, going);
        if u.turn.tiles + 1 > allowance {
            return Err(Illegal::new(format!(
                "{} may move {allowance} tiles this turn{} and has moved {} (Terrain)",
                u.id,
                going.describe(u.kind),
                u.turn.tiles
            )));
        }
        if self.occupant(to, Some(unit)).is_some() {
            if u.kind != Kind::Cavalry {
                return Err(Illegal::new(format!(
                    "{} is occupied: only cavalry may move through a friend (Movement Rules 5, 7)",
                    label(to)
                )));
            }
            if !self.can_pass_on(unit, to, u.turn.tiles + 1, going) {
                return Err(Illegal::new(format!(
                    "{} could not move on out of the friend's tile {}, and may not end its move there (Movement Rules 5)",
                    u.id,
                    label(to)
                )));
            }
        }
        Ok(())
    }

    /// Whether cavalry standing in a friend's tile `at` can still reach a tile of its own:
    /// it may not stop in the friend's tile, nor in one beside an enemy (that would halt it).
    fn can_pass_on(&self, unit: usize, at: Hex, tiles_moved: u8, going: Going) -> bool {
        let u = &self.units[unit];
        if !self.enemies_beside(at, u.side).is_empty() {
            return false;
        }
        tiles::neighbours(self.map(), at)
            .into_iter()
            .any(|(_, next)| {
                let going = going.with(self.map(), next);
                self.check_passage(u.kind, at, next).is_ok()
                    && self.enemy_at(next, u.side).is_none()
                    && tiles_moved < self.allowance(unit, going)
                    && match self.occupant(next, Some(unit)) {
                        None => true,
                        Some(_) => self.can_pass_on(unit, next, tiles_moved + 1, going),
                    }
            })
    }

    /// Starts `unit`'s move if it has not begun, ending the move of the unit before it.
    fn take_up_move(&mut self, unit: usize) {
        if self.mover != Some(unit) {
            self.finish_move();
        }
        let u = &mut self.units[unit];
        if !u.turn.moving {
            u.turn.moving = true;
            u.turn.going = Going::starting_in(&self.setup.map, u.tile);
            self.moved_units += 1;
        }
        self.mover = Some(unit);
    }

    pub fn finish_move(&mut self) {
        if let Some(m) = self.mover.take() {
            self.units[m].turn.done = true;
        }
    }

    pub fn do_move(&mut self, unit: usize, to: Hex) -> Vec<Event> {
        self.take_up_move(unit);
        let grid = self.grid();
        let from = self.units[unit].tile;
        let heading = tiles::heading_towards(grid, from, to).expect("checked: adjacent");
        let going = self.units[unit].turn.going.with(&self.setup.map, to);
        let allowance = self.allowance(unit, going);
        let u = &mut self.units[unit];
        u.tile = to;
        u.heading = heading;
        u.turn.tiles += 1;
        u.turn.going = going;
        let mut events = vec![Event::new(
            "move",
            rule("Movement Rules 1"),
            format!(
                "{} moves from {} to {} through its {} side ({} of {} tiles).",
                u.id,
                label(from),
                label(to),
                heading.name(grid),
                u.turn.tiles,
                allowance
            ),
        )
        .side(u.side)
        .units([u.id.clone()])];
        let enemies = self.enemies_beside(to, self.units[unit].side);
        if enemies.is_empty() {
            return events;
        }
        // Movement Rules 6: next to an enemy the unit stops and turns to face it.
        self.units[unit].turn.done = true;
        self.mover = None;
        if let [(heading, enemy)] = enemies[..] {
            events.push(self.make_contact(unit, heading, enemy));
        } else {
            self.facing_choice = Some(unit);
            events.push(
                Event::new(
                    "contact",
                    rule("Movement Rules 6"),
                    format!(
                        "{} stops beside {} enemy units; its player chooses which to face.",
                        self.units[unit].id,
                        enemies.len()
                    ),
                )
                .side(self.units[unit].side),
            );
        }
        events
    }

    fn make_contact(&mut self, unit: usize, heading: Heading, enemy: usize) -> Event {
        let name = self.heading_name(heading);
        let enemy_id = self.units[enemy].id.clone();
        let u = &mut self.units[unit];
        u.heading = heading;
        u.turn.contact = Some(enemy);
        Event::new(
            "contact",
            rule("Movement Rules 6"),
            format!(
                "{} stops next to {enemy_id}, turns to face it ({name}) and must engage it in close combat.",
                u.id
            ),
        )
        .side(u.side)
        .units([u.id.clone(), enemy_id])
    }

    pub fn check_face(&self, unit: usize, heading: Heading) -> Result<(), Illegal> {
        self.check_movement_phase()?;
        let u = self.own_unit(unit)?;
        if self.facing_choice == Some(unit) {
            let faces_enemy = self
                .enemies_beside(u.tile, u.side)
                .iter()
                .any(|(h, _)| *h == heading);
            return if faces_enemy {
                Ok(())
            } else {
                Err(Illegal::new(format!(
                    "{} must face one of the enemies beside it (Movement Rules 6)",
                    u.id
                )))
            };
        }
        self.check_may_move(unit)?;
        if u.heading == heading {
            return Err(Illegal::new(format!(
                "{} already faces {}",
                u.id,
                self.heading_name(heading)
            )));
        }
        if self.occupant(u.tile, Some(unit)).is_some() {
            return Err(Illegal::new(format!(
                "{} may not end its move in a friend's tile (Movement Rules 5)",
                u.id
            )));
        }
        Ok(())
    }

    pub fn do_face(&mut self, unit: usize, heading: Heading) -> Vec<Event> {
        if self.facing_choice == Some(unit) {
            self.facing_choice = None;
            let enemy = self
                .enemies_beside(self.units[unit].tile, self.units[unit].side)
                .into_iter()
                .find(|(h, _)| *h == heading)
                .map(|(_, e)| e)
                .expect("checked: an enemy on that side");
            return vec![self.make_contact(unit, heading, enemy)];
        }
        self.take_up_move(unit);
        self.units[unit].heading = heading;
        self.finish_move();
        let u = &self.units[unit];
        vec![Event::new(
            "face",
            rule("Movement Rules 4"),
            format!(
                "{} ends its move facing {}.",
                u.id,
                self.heading_name(heading)
            ),
        )
        .side(u.side)
        .units([u.id.clone()])]
    }

    /// A tile a unit may fall back into: the next tile, open to it, empty, and beside no
    /// enemy.
    pub fn check_fall_back(&self, unit: usize, to: Hex) -> Result<(), Illegal> {
        let u = &self.units[unit];
        self.check_passage(u.kind, u.tile, to)?;
        if self.occupant(to, Some(unit)).is_some() {
            return Err(Illegal::new(format!("{} is occupied", label(to))));
        }
        if !self.enemies_beside(to, u.side).is_empty() {
            return Err(Illegal::new(format!(
                "{} is next to an enemy: a withdrawal leaves contact",
                label(to)
            )));
        }
        Ok(())
    }

    pub fn check_withdraw(&self, unit: usize, to: Hex) -> Result<(), Illegal> {
        if let Some((_, cavalry)) = self.evade {
            if unit != cavalry {
                return Err(Illegal::new(format!(
                    "only {} may withdraw now (Close Combat 4)",
                    self.units[cavalry].id
                )));
            }
            return self.check_fall_back(unit, to);
        }
        self.check_may_move(unit)?;
        let u = &self.units[unit];
        if u.turn.moving || self.engaged_with(unit).is_empty() {
            return Err(Illegal::new(format!(
                "{} was not engaged in close combat in the opponent's turn; only such units withdraw (Close Combat 3)",
                u.id
            )));
        }
        self.check_fall_back(unit, to)
    }

    pub fn do_withdraw(&mut self, unit: usize, to: Hex) -> Vec<Event> {
        if self.evade.is_some() {
            return self.do_evade(unit, to);
        }
        let engaged = self.engaged_with(unit);
        self.take_up_move(unit);
        let going = self.units[unit].turn.going.with(&self.setup.map, to);
        let u = &mut self.units[unit];
        u.tile = to;
        u.turn.tiles = 1;
        u.turn.going = going;
        u.turn.withdrew_from = engaged.clone();
        self.finish_move();
        let names: Vec<String> = engaged
            .iter()
            .map(|e| self.units[*e].id.to_string())
            .collect();
        let u = &self.units[unit];
        vec![Event::new(
            "withdraw",
            rule("Close Combat 3"),
            format!(
                "{} withdraws from close combat with {} to {}, and may not attack {} this turn.",
                u.id,
                names.join(", "),
                label(to),
                if names.len() == 1 { "it" } else { "them" }
            ),
        )
        .side(u.side)
        .units([u.id.clone()])
        .units(names)]
    }

    pub fn check_movement_may_end(&self) -> Result<(), Illegal> {
        if let Some(f) = self.facing_choice {
            return Err(Illegal::new(format!(
                "{} must first choose which enemy to face (Movement Rules 6)",
                self.units[f].id
            )));
        }
        if let Some(m) = self.mover {
            if self.occupant(self.units[m].tile, Some(m)).is_some() {
                return Err(Illegal::new(format!(
                    "{} may not end its move in a friend's tile (Movement Rules 5)",
                    self.units[m].id
                )));
            }
        }
        Ok(())
    }

    pub fn check_attach(&self, commander: usize, unit: usize) -> Result<(), Illegal> {
        self.check_movement_phase()?;
        let c = self
            .commanders
            .get(commander)
            .ok_or_else(|| Illegal::new("no such commander"))?;
        let Some(host) = c.with else {
            return Err(Illegal::new(format!("{} has been captured", c.id)));
        };
        if c.side != self.phasing() {
            return Err(Illegal::new(format!(
                "{} is {}'s; it is {}'s player-turn",
                c.id,
                c.side,
                self.phasing()
            )));
        }
        if c.moved {
            return Err(Illegal::new(format!(
                "{} has already moved this turn",
                c.id
            )));
        }
        let target = self.own_unit(unit)?;
        if host == unit {
            return Err(Illegal::new(format!(
                "{} is already with {}",
                c.id, target.id
            )));
        }
        let reach = tiles::distance(self.grid(), self.units[host].tile, target.tile);
        if reach > COMMANDER_REACH {
            return Err(Illegal::new(format!(
                "{} is {reach} tiles from {}; a commander rides at most {COMMANDER_REACH}",
                target.id, c.id
            )));
        }
        Ok(())
    }

    pub fn do_attach(&mut self, commander: usize, unit: usize) -> Vec<Event> {
        let c = &mut self.commanders[commander];
        c.with = Some(unit);
        c.moved = true;
        let u = &self.units[unit];
        vec![Event::new(
            "attach",
            rule("Movement Rules 5"),
            format!(
                "{} ({}) rides to {} at {} and attaches to it.",
                c.id,
                c.name,
                u.id,
                label(u.tile)
            ),
        )
        .side(u.side)
        .units([u.id.clone()])]
    }
}
