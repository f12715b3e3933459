//! Carrying and towing (M11–M13, M53, M108; T8): squads embark on halftracks, trucks and
//! carriers, guns limber up behind them, up to the vehicle's cargo points (a squad 4, a gun 1).
//! Loading or unloading costs the vehicle a movement point and the passenger nothing; what is
//! aboard rides with the vehicle and takes no room in the hex. Unloading puts it in the
//! vehicle's hex or a neighbouring one. A towed gun is lost with its tow; passengers of a
//! destroyed carrier bail out with a figure lost and a hit marker (C21).

use crate::items::Kind;
use crate::logistics;
use crate::losses;
use crate::rule;
use crate::state::{MechGame, Step};
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::{Event, Hex, Log};

impl MechGame {
    /// The carrier an item rides on, if any.
    pub fn aboard(&self, i: usize) -> Option<usize> {
        self.s.turn_state.get(i).and_then(|t| t.aboard)
    }

    /// Cargo points in use on a carrier.
    fn load_on(&self, v: usize) -> u8 {
        let charts = &self.s.setup.charts;
        (0..self.s.items.len())
            .filter(|&i| self.aboard(i) == Some(v) && !self.s.turn_state[i].gone)
            .filter_map(|i| logistics::load_cost(self.item(i), charts))
            .sum()
    }

    /// Whether the carrier has a movement point left for handling (M53).
    fn handling_points(&self, v: usize) -> bool {
        let allowance = crate::moves::allowance(self.item(v), &self.s.setup.charts);
        !self.s.turn_state[v].done
            && self.s.turn_state[v].mp + logistics::HANDLING_COST <= allowance
            && (self.mover.is_none() || self.mover == Some(v) || !self.s.turn_state[v].moving)
    }

    pub fn check_load<R: Refusal>(&self, i: usize, v: usize) -> Result<(), R> {
        if self.step != Step::Movement {
            return Err(R::because(|| {
                format!(
                    "loading is done in the movement step; it is {}",
                    self.step_name()
                )
            }));
        }
        let it = self.own_item::<R>(i)?;
        if !self.in_play(v) || self.item(v).side != it.side {
            return Err(R::because(|| {
                "the carrier must be a vehicle of the same side in play"
            }));
        }
        let c = self.item(v);
        if logistics::capacity(c) == 0 {
            return Err(R::because(|| format!("{} carries nothing (T8)", c.id)));
        }
        if c.hex != it.hex {
            return Err(R::because(|| {
                format!("{} must be in {}'s hex to get aboard", it.id, c.id)
            }));
        }
        if self.routed(i) || !self.active(i) || self.s.turn_state[i].done && self.mover != Some(i) {
            return Err(R::because(|| format!("{} cannot get aboard now", it.id)));
        }
        if !logistics::fits(c, self.load_on(v), it, &self.s.setup.charts) {
            return Err(R::because(|| {
                format!(
                    "{} has no room for {} ({} of {} cargo points in use, T8)",
                    c.id,
                    it.id,
                    self.load_on(v),
                    logistics::capacity(c)
                )
            }));
        }
        if !self.handling_points(v) {
            return Err(R::because(|| {
                format!("{} has no movement point left to load (M53)", c.id)
            }));
        }
        Ok(())
    }

    pub fn do_load(&mut self, i: usize, v: usize, log: &mut Log) {
        let map = &self.s.setup.map;
        self.s.board.lift(map, self.s.items[i].hex, i);
        self.s.turn_state[i].aboard = Some(v);
        self.s.turn_state[i].done = true;
        if self.mover == Some(i) {
            self.mover = None;
        }
        self.s.turn_state[v].mp += logistics::HANDLING_COST;
        let verb = if matches!(self.item(i).kind, Kind::Gun { .. }) {
            "is limbered up behind"
        } else {
            "embarks on"
        };
        log.add(|| {
            Event::new(
                "load",
                rule("M53"),
                format!(
                    "{} {verb} {} at {}.",
                    self.item(i).id,
                    self.item(v).id,
                    label(self.item(v).hex)
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone(), self.item(v).id.clone()])
        });
    }

    pub fn check_unload<R: Refusal>(&self, i: usize, hex: Hex) -> Result<(), R> {
        if self.step != Step::Movement {
            return Err(R::because(|| {
                format!(
                    "unloading is done in the movement step; it is {}",
                    self.step_name()
                )
            }));
        }
        let Some(v) = self.aboard(i) else {
            return Err(R::because(|| "only an item aboard a vehicle unloads"));
        };
        let it = self.item(i);
        if it.side != self.deciding() {
            return Err(R::because(|| format!("{} is {}'s", it.id, it.side)));
        }
        let c = self.item(v);
        if hex != c.hex && c.hex.unsigned_distance_to(hex) != 1 {
            return Err(R::because(|| {
                format!("{} gets off into {}'s hex or one next to it", it.id, c.id)
            }));
        }
        let map = &self.s.setup.map;
        if !map.contains(hex) || !self.passable(it, hex, hex) {
            return Err(R::because(|| {
                format!("{} cannot stand at {}", it.id, label(hex))
            }));
        }
        if self.known_enemy_in(hex, it.side) || self.known_room(hex, it.side) == 0 {
            return Err(R::because(|| {
                format!("{} has no room for {} (M56)", label(hex), it.id)
            }));
        }
        if !self.handling_points(v) {
            return Err(R::because(|| {
                format!("{} has no movement point left to unload (M53)", c.id)
            }));
        }
        Ok(())
    }

    pub fn do_unload(&mut self, i: usize, hex: Hex, log: &mut Log) {
        let v = self.aboard(i).expect("checked: aboard");
        let map = self.s.setup.map.clone();
        if self.s.board.room(&map, hex) == 0 || self.enemy_in(hex, self.item(i).side) {
            // A hidden enemy holds the hex: the passenger stays aboard (M117 spirit).
            log.add(|| {
                Event::new(
                    "load",
                    rule("M53"),
                    format!(
                        "{} finds {} held and stays aboard.",
                        self.item(i).id,
                        label(hex)
                    ),
                )
                .side(self.item(i).side)
            });
            self.s.turn_state[v].mp += logistics::HANDLING_COST;
            return;
        }
        self.s.turn_state[i].aboard = None;
        self.s.items[i].hex = hex;
        self.s.items[i].facing = self.item(v).facing;
        self.s.board.place(&map, hex, i);
        self.s.turn_state[v].mp += logistics::HANDLING_COST;
        let verb = if matches!(self.item(i).kind, Kind::Gun { .. }) {
            "is unlimbered from"
        } else {
            "gets off"
        };
        log.add(|| {
            Event::new(
                "load",
                rule("M53"),
                format!(
                    "{} {verb} {} at {}.",
                    self.item(i).id,
                    self.item(v).id,
                    label(hex)
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone(), self.item(v).id.clone()])
        });
    }

    /// Everything aboard rides along when the carrier moves.
    pub fn carry_along(&mut self, v: usize) {
        let (hex, facing) = (self.item(v).hex, self.item(v).facing);
        for i in 0..self.s.items.len() {
            if self.aboard(i) == Some(v) {
                self.s.items[i].hex = hex;
                self.s.items[i].facing = facing;
            }
        }
    }

    /// M108, C21: a destroyed carrier's towed guns are lost; its passengers bail out into its
    /// hex (or a neighbouring one) with a figure lost and a hit marker, or are lost with it.
    pub fn wreck(&mut self, v: usize, log: &mut Log) {
        let map = self.s.setup.map.clone();
        for i in 0..self.s.items.len() {
            if self.aboard(i) != Some(v) || self.s.turn_state[i].gone {
                continue;
            }
            self.s.turn_state[i].aboard = None;
            let side = self.item(i).side;
            let here = self.item(v).hex;
            let spot = std::iter::once(here)
                .chain(
                    volley_core::geometry::Facing::ALL
                        .iter()
                        .map(|f| volley_core::geometry::step(here, *f)),
                )
                .find(|&h| {
                    map.contains(h)
                        && self.s.board.room(&map, h) > 0
                        && !self.enemy_in(h, side)
                        && self.passable(self.item(i), h, h)
                });
            let is_gun = matches!(self.item(i).kind, Kind::Gun { .. });
            match spot {
                Some(h) if !is_gun => {
                    self.s.items[i].hex = h;
                    self.s.board.place(&map, h, i);
                    if let Kind::Squad(s) = &mut self.s.items[i].kind {
                        s.figures = s.figures.saturating_sub(1);
                    }
                    let (r, text) = losses::hit_squad(&mut self.s.items[i], 1);
                    log.add(|| {
                        Event::new(
                            "bail out",
                            rule("M108"),
                            format!(
                                "{} bails out of the wreck at {}, losing a figure: {text}.",
                                self.item(i).id,
                                label(h)
                            ),
                        )
                        .side(side)
                    });
                    self.after_loss(i, r, log);
                }
                _ => {
                    self.s.turn_state[i].gone = true;
                    self.counted[i] = true;
                    log.add(|| {
                        Event::new(
                            "removed",
                            rule("M108"),
                            format!("{} is lost with {}.", self.item(i).id, self.item(v).id),
                        )
                        .side(side)
                    });
                }
            }
        }
    }
}

impl MechGame {
    /// M58: cavalry, not yet moved this turn, gets off or on its horses (free).
    pub fn check_horses<R: Refusal>(&self, i: usize, mount: bool) -> Result<(), R> {
        self.check_may_move::<R>(i)?;
        let it = self.item(i);
        let Kind::Squad(s) = &it.kind else {
            return Err(R::because(|| format!("{} has no horses", it.id)));
        };
        if !s.cavalry {
            return Err(R::because(|| format!("{} is not cavalry (M58)", it.id)));
        }
        if s.dismounted != mount {
            return Err(R::because(|| {
                format!(
                    "{} is {} already",
                    it.id,
                    if mount { "mounted" } else { "on foot" }
                )
            }));
        }
        if self.s.turn_state[i].moving {
            return Err(R::because(|| {
                "cavalry mounts or dismounts before it moves (M58)"
            }));
        }
        Ok(())
    }

    /// Dismounting next to the enemy is dismounting into combat: the horses are left behind.
    pub fn do_dismount(&mut self, i: usize, log: &mut Log) {
        let (hex, side) = (self.item(i).hex, self.item(i).side);
        let into_combat = volley_core::geometry::Facing::ALL
            .iter()
            .any(|f| self.known_enemy_in(volley_core::geometry::step(hex, *f), side));
        if let Kind::Squad(s) = &mut self.s.items[i].kind {
            s.dismounted = true;
            s.horses_lost |= into_combat;
        }
        log.add(|| {
            Event::new(
                "horses",
                rule("M58"),
                format!(
                    "{} dismounts{}.",
                    self.item(i).id,
                    if into_combat {
                        " into combat and leaves its horses"
                    } else {
                        ""
                    }
                ),
            )
            .side(side)
            .units([self.item(i).id.clone()])
        });
    }

    /// Mounting again is free, unless the horses were left: then a d6 of 5–6 finds them.
    pub fn do_mount(&mut self, i: usize, dice: &mut dyn volley_core::Dice, log: &mut Log) {
        let lost = matches!(&self.item(i).kind, Kind::Squad(s) if s.horses_lost);
        let roll = lost.then(|| dice.roll(6));
        let found = roll.is_none_or(|d| d >= 5);
        if let Kind::Squad(s) = &mut self.s.items[i].kind {
            if found {
                s.dismounted = false;
                s.horses_lost = false;
            }
        }
        if !found {
            self.s.turn_state[i].done = true;
        }
        let side = self.item(i).side;
        log.add(|| {
            let text = match roll {
                None => format!("{} mounts.", self.item(i).id),
                Some(d) if found => format!(
                    "{} rolls {d} and finds its horses: it mounts.",
                    self.item(i).id
                ),
                Some(d) => format!(
                    "{} rolls {d}: its horses are not found this turn.",
                    self.item(i).id
                ),
            };
            Event::new("horses", rule("M58"), text)
                .side(side)
                .units([self.item(i).id.clone()])
        });
    }
}
