//! Movement Rules 1-7, the initiative limit on units moved, the withdrawal of engaged units
//! in their own movement (Close Combat 3) and commanders attaching. Moves are made one tile at
//! a time; a unit's move ends when it turns to face a side, when it meets an enemy, or when
//! another unit starts moving. (Cavalry evading an infantry attack, Close Combat 4, is the
//! close combat chapter's; the tiles a unit may cross into or fall back into are passage.rs.)

use crate::rule;
use crate::state::{EngagedUnits, GridGame, Phase, COMMANDER_REACH};
use crate::terrain::{Beside, Going, Surroundings};
use crate::tiles::{self, Heading};
use crate::unit_data::Kind;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log};

impl GridGame {
    fn check_movement_phase<R: Refusal>(&self) -> Result<(), R> {
        if self.phase != Phase::Movement {
            return Err(R::because(|| {
                format!(
                    "units move only in the movement phase; it is the {}",
                    self.phase_name()
                )
            }));
        }
        Ok(())
    }

    /// Whether `unit` may make (or go on with) its move now.
    pub fn check_may_move<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        self.check_movement_phase::<R>()?;
        let u = self.own_unit::<R>(unit)?;
        if let Some(f) = self.facing_choice.filter(|f| *f != unit) {
            return Err(R::because(|| {
                format!(
                    "{} must first choose which enemy to face (Movement Rules 6)",
                    self.units[f].id
                )
            }));
        }
        if u.turn.done {
            return Err(R::because(|| {
                format!("{} has already moved this turn (Movement Rules 2)", u.id)
            }));
        }
        if let Some(m) = self.mover.filter(|m| *m != unit) {
            if self.occupant(self.units[m].tile, Some(m)).is_some() {
                return Err(R::because(|| {
                    format!(
                        "{} is passing through a friend's tile and must move on (Movement Rules 5)",
                        self.units[m].id
                    )
                }));
            }
        }
        let side = u.side;
        if !u.turn.moving && self.moved_units >= self.rolls[side.index()] {
            return Err(R::because(|| {
                format!(
                    "{side} rolled {} for initiative and has moved that many units (Initiative)",
                    self.rolls[side.index()]
                )
            }));
        }
        Ok(())
    }

    pub fn check_move<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        self.check_may_step::<R>(unit)?;
        self.check_step(unit, to)
    }

    /// Whether `unit` may step into some tile now: it may move, has not met the enemy, and is
    /// not held in close combat.
    pub fn check_may_step<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        self.check_may_move::<R>(unit)?;
        let u = &self.units[unit];
        if self.facing_choice == Some(unit) {
            return Err(R::because(|| {
                format!(
                    "{} has met the enemy and must stop and face it (Movement Rules 6)",
                    u.id
                )
            }));
        }
        if self.setup.engaged_units == EngagedUnits::Held && !u.turn.moving && self.is_engaged(unit)
        {
            return Err(R::because(|| {
                format!(
                    "{} is engaged in close combat: it may withdraw one tile or stay (Close Combat 3; option engaged_units = held)",
                    u.id
                )
            }));
        }
        Ok(())
    }

    /// Whether `unit`, free to step, may step into `to`: a tile beside it (see
    /// `check_step_across`).
    pub fn check_step<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        let from = self.units[unit].tile;
        let next = self.check_beside::<R>(from, to)?;
        self.check_step_across(unit, self.around(from), next)
    }

    /// Whether `unit`, free to step, may step from `here` (where it stands) into the tile
    /// `next` beside it: open to it, not the enemy's, within its allowance, and not a
    /// friend's unless cavalry can pass on through.
    pub fn check_step_across<R: Refusal>(
        &self,
        unit: usize,
        here: &Surroundings,
        next: &Beside,
    ) -> Result<(), R> {
        let u = &self.units[unit];
        let to = next.tile;
        self.check_crossing::<R>(u.kind, u.tile, next)?;
        if let Some(e) = self.enemy_in(next.cell, u.side) {
            return Err(R::because(|| {
                format!("{} is held by the enemy ({})", label(to), self.units[e].id)
            }));
        }
        let so_far = if u.turn.moving {
            u.turn.going
        } else {
            Going::starting_on(here.ground)
        };
        let going = so_far.with(next.ground);
        let allowance = self.allowance(unit, going);
        if u.turn.tiles + 1 > allowance {
            return Err(R::because(|| {
                format!(
                    "{} may move {allowance} tiles this turn{} and has moved {} (Terrain)",
                    u.id,
                    going.describe(u.kind, self.setup.terrain_cost),
                    u.turn.tiles
                )
            }));
        }
        if self.occupant_in(next.cell, Some(unit)).is_some() {
            if u.kind != Kind::Cavalry {
                return Err(R::because(|| {
                    format!(
                        "{} is occupied: only cavalry may move through a friend (Movement Rules 5, 7)",
                        label(to)
                    )
                }));
            }
            if !self.can_pass_on(unit, to, u.turn.tiles + 1, going) {
                return Err(R::because(|| {
                    format!(
                        "{} could not move on out of the friend's tile {}, and may not end its move there (Movement Rules 5)",
                        u.id,
                        label(to)
                    )
                }));
            }
        }
        Ok(())
    }

    /// Whether cavalry standing in a friend's tile `at` can still reach a tile of its own:
    /// it may not stop in the friend's tile, nor in one beside an enemy (that would halt it).
    fn can_pass_on(&self, unit: usize, at: Hex, tiles_moved: u8, going: Going) -> bool {
        let u = &self.units[unit];
        if self.enemies_beside(at, u.side).next().is_some() {
            return false;
        }
        self.beside(at).iter().any(|next| {
            let going = going.with(next.ground);
            self.check_passage::<()>(u.kind, at, next.tile).is_ok()
                && self.enemy_in(next.cell, u.side).is_none()
                && tiles_moved < self.allowance(unit, going)
                && match self.occupant_in(next.cell, Some(unit)) {
                    None => true,
                    Some(_) => self.can_pass_on(unit, next.tile, tiles_moved + 1, going),
                }
        })
    }

    /// Starts `unit`'s move if it has not begun, ending the move of the unit before it.
    fn take_up_move(&mut self, unit: usize) {
        if self.mover != Some(unit) {
            self.finish_move();
        }
        if !self.units[unit].turn.moving {
            let going = Going::starting_on(self.ground(self.units[unit].tile));
            let u = &mut self.units[unit];
            u.turn.moving = true;
            u.turn.going = going;
            self.moved_units += 1;
        }
        self.mover = Some(unit);
    }

    pub fn finish_move(&mut self) {
        if let Some(m) = self.mover.take() {
            self.units[m].turn.done = true;
        }
    }

    pub fn do_move(&mut self, unit: usize, to: Hex, log: &mut Log) {
        if !self.units[unit].turn.moving {
            self.leave_close_combat(unit, log);
        }
        self.take_up_move(unit);
        let grid = self.grid();
        let from = self.units[unit].tile;
        let heading = tiles::heading_towards(grid, from, to).expect("checked: adjacent");
        let going = self.units[unit].turn.going.with(self.ground(to));
        let allowance = self.allowance(unit, going);
        self.relocate(unit, to);
        let u = &mut self.units[unit];
        u.heading = heading;
        u.turn.tiles += 1;
        u.turn.going = going;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
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
            .units([u.id.clone()])
        });
        let mut enemies = self.enemies_beside(to, u.side);
        let Some((heading, enemy)) = enemies.next() else {
            return;
        };
        let others = enemies.count();
        // Movement Rules 6: next to an enemy the unit stops and turns to face it.
        self.units[unit].turn.done = true;
        self.mover = None;
        if others == 0 {
            self.make_contact(unit, heading, enemy, log);
        } else {
            self.facing_choice = Some(unit);
            let u = &self.units[unit];
            log.add(|| {
                Event::new(
                    "contact",
                    rule("Movement Rules 6"),
                    format!(
                        "{} stops beside {} enemy units; its player chooses which to face.",
                        u.id,
                        others + 1
                    ),
                )
                .side(u.side)
            });
        }
    }

    fn make_contact(&mut self, unit: usize, heading: Heading, enemy: usize, log: &mut Log) {
        let u = &mut self.units[unit];
        u.heading = heading;
        u.turn.contact = Some(enemy);
        let (u, e) = (&self.units[unit], &self.units[enemy]);
        log.add(|| {
            Event::new(
                "contact",
                rule("Movement Rules 6"),
                format!(
                    "{} stops next to {}, turns to face it ({}) and must engage it in close combat.",
                    u.id,
                    e.id,
                    self.heading_name(heading)
                ),
            )
            .side(u.side)
            .units([u.id.clone(), e.id.clone()])
        });
    }

    pub fn check_face<R: Refusal>(&self, unit: usize, heading: Heading) -> Result<(), R> {
        self.check_movement_phase::<R>()?;
        let u = self.own_unit::<R>(unit)?;
        if self.facing_choice == Some(unit) {
            let faces_enemy = self
                .enemies_beside(u.tile, u.side)
                .any(|(h, _)| h == heading);
            return if faces_enemy {
                Ok(())
            } else {
                Err(R::because(|| {
                    format!(
                        "{} must face one of the enemies beside it (Movement Rules 6)",
                        u.id
                    )
                }))
            };
        }
        self.check_may_move::<R>(unit)?;
        if u.heading == heading {
            return Err(R::because(|| {
                format!("{} already faces {}", u.id, self.heading_name(heading))
            }));
        }
        if self.occupant(u.tile, Some(unit)).is_some() {
            return Err(R::because(|| {
                format!(
                    "{} may not end its move in a friend's tile (Movement Rules 5)",
                    u.id
                )
            }));
        }
        Ok(())
    }

    /// The sides a unit of the side to move may turn to face, when it met more than one enemy
    /// or may move (`check_may_move`): one with an enemy across it, for the first; any other
    /// than the one it faces, out of a friend's tile, for the second (what `check_face`
    /// allows, asked once for the unit rather than side by side).
    pub fn turns(&self, unit: usize) -> impl Iterator<Item = Heading> + '_ {
        let u = &self.units[unit];
        let choosing = self.facing_choice == Some(unit);
        let in_friends_tile = self.occupant(u.tile, Some(unit)).is_some();
        Heading::all(self.grid()).filter(move |&h| {
            if choosing {
                self.enemies_beside(u.tile, u.side)
                    .any(|(side, _)| side == h)
            } else {
                !in_friends_tile && h != u.heading
            }
        })
    }

    pub fn do_face(&mut self, unit: usize, heading: Heading, log: &mut Log) {
        if self.facing_choice == Some(unit) {
            self.facing_choice = None;
            let enemy = self
                .enemies_beside(self.units[unit].tile, self.units[unit].side)
                .find(|(h, _)| *h == heading)
                .map(|(_, e)| e)
                .expect("checked: an enemy on that side");
            self.make_contact(unit, heading, enemy, log);
            return;
        }
        self.take_up_move(unit);
        self.units[unit].heading = heading;
        self.finish_move();
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "face",
                rule("Movement Rules 4"),
                format!(
                    "{} ends its move facing {}.",
                    u.id,
                    self.heading_name(heading)
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// Whether an engaged unit may withdraw one tile into `to` in its movement (Close
    /// Combat 3; option `engaged_units = "held"`).
    pub fn check_withdraw<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        self.check_may_withdraw::<R>(unit)?;
        self.check_fall_back(unit, to)
    }

    /// Whether `unit` may withdraw from close combat now, in its own movement.
    pub fn check_may_withdraw<R: Refusal>(&self, unit: usize) -> Result<(), R> {
        self.check_may_move::<R>(unit)?;
        let u = &self.units[unit];
        if u.turn.moving || !self.is_engaged(unit) {
            return Err(R::because(|| {
                format!(
                    "{} was not engaged in close combat in the opponent's turn; only such units withdraw (Close Combat 3)",
                    u.id
                )
            }));
        }
        if self.setup.engaged_units == EngagedUnits::Free {
            return Err(R::because(|| {
                format!(
                    "engaged units move like any other in this game (option engaged_units = free): {} withdraws by moving away (Close Combat 3)",
                    u.id
                )
            }));
        }
        Ok(())
    }

    pub fn do_withdraw(&mut self, unit: usize, to: Hex, log: &mut Log) {
        let engaged: Vec<usize> = self.engaged_with(unit).collect();
        self.take_up_move(unit);
        let going = self.units[unit].turn.going.with(self.ground(to));
        self.relocate(unit, to);
        let u = &mut self.units[unit];
        u.turn.tiles = 1;
        u.turn.going = going;
        u.turn.withdrew_from = engaged;
        self.finish_move();
        log.add(|| {
            self.withdrawal_event(unit, |who, names, them| {
                format!(
                    "{who} withdraws from close combat with {names} to {}, and may not attack {them} this turn.",
                    label(to)
                )
            })
        });
    }

    /// An engaged unit free to move that steps out of its tile withdraws from the enemies it
    /// was engaged with, and may not attack them this turn (Close Combat 3).
    fn leave_close_combat(&mut self, unit: usize, log: &mut Log) {
        let engaged: Vec<usize> = self.engaged_with(unit).collect();
        if engaged.is_empty() {
            return;
        }
        self.units[unit].turn.withdrew_from = engaged;
        log.add(|| {
            self.withdrawal_event(unit, |who, names, them| {
                format!(
                    "{who} moves out of close combat with {names}: it has withdrawn and may not attack {them} this turn."
                )
            })
        });
    }

    /// The event of a unit's withdrawal from the enemies in its `withdrew_from`; `text` is
    /// given the unit's id, the enemies' ids and "it" or "them" for them.
    fn withdrawal_event(
        &self,
        unit: usize,
        text: impl FnOnce(&str, &str, &str) -> String,
    ) -> Event {
        let u = &self.units[unit];
        let names: Vec<&str> = u
            .turn
            .withdrew_from
            .iter()
            .map(|e| self.units[*e].id.as_str())
            .collect();
        let them = if names.len() == 1 { "it" } else { "them" };
        Event::new(
            "withdraw",
            rule("Close Combat 3"),
            text(&u.id, &names.join(", "), them),
        )
        .side(u.side)
        .units([u.id.as_str()])
        .units(names)
    }

    pub fn check_movement_may_end<R: Refusal>(&self) -> Result<(), R> {
        if let Some(f) = self.facing_choice {
            return Err(R::because(|| {
                format!(
                    "{} must first choose which enemy to face (Movement Rules 6)",
                    self.units[f].id
                )
            }));
        }
        if let Some(m) = self.mover {
            if self.occupant(self.units[m].tile, Some(m)).is_some() {
                return Err(R::because(|| {
                    format!(
                        "{} may not end its move in a friend's tile (Movement Rules 5)",
                        self.units[m].id
                    )
                }));
            }
        }
        Ok(())
    }

    pub fn check_attach<R: Refusal>(&self, commander: usize, unit: usize) -> Result<(), R> {
        self.check_may_ride::<R>(commander)?;
        self.check_ride_to(commander, unit)
    }

    /// Whether a commander may ride to some unit now: its side's movement, not captured, not
    /// yet moved.
    pub fn check_may_ride<R: Refusal>(&self, commander: usize) -> Result<(), R> {
        self.check_movement_phase::<R>()?;
        let c = self
            .commanders
            .get(commander)
            .ok_or_else(|| R::because(|| "no such commander"))?;
        if c.with.is_none() {
            return Err(R::because(|| format!("{} has been captured", c.id)));
        }
        if c.side != self.phasing() {
            return Err(R::because(|| {
                format!(
                    "{} is {}'s; it is {}'s player-turn",
                    c.id,
                    c.side,
                    self.phasing()
                )
            }));
        }
        if c.moved {
            return Err(R::because(|| {
                format!("{} has already moved this turn", c.id)
            }));
        }
        Ok(())
    }

    /// Whether a commander free to ride may ride to `unit`: another unit of its side, in play
    /// and within reach.
    pub fn check_ride_to<R: Refusal>(&self, commander: usize, unit: usize) -> Result<(), R> {
        let c = &self.commanders[commander];
        let host = c.with.expect("checked: not captured");
        let target = self.own_unit::<R>(unit)?;
        if host == unit {
            return Err(R::because(|| {
                format!("{} is already with {}", c.id, target.id)
            }));
        }
        let reach = tiles::distance(self.grid(), self.units[host].tile, target.tile);
        if reach > COMMANDER_REACH {
            return Err(R::because(|| {
                format!(
                    "{} is {reach} tiles from {}; a commander rides at most {COMMANDER_REACH}",
                    target.id, c.id
                )
            }));
        }
        Ok(())
    }

    pub fn do_attach(&mut self, commander: usize, unit: usize, log: &mut Log) {
        let c = &mut self.commanders[commander];
        c.with = Some(unit);
        c.moved = true;
        let (c, u) = (&self.commanders[commander], &self.units[unit]);
        log.add(|| {
            Event::new(
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
            .units([u.id.clone()])
        });
    }
}
