//! Movement (M48–M68) and commander placement (M25): hex by hex on movement points, stepping
//! into a front hex (obliquely with option `oblique`, C12), vehicles reversing at half speed,
//! facing changes by class and free on a road, two items a hex, enemy zones of control that
//! stop a move (M54–M55), and vehicles forcing their way into forest (M61).

use crate::items::Kind;
use crate::moves;
use crate::orders::Order;
use crate::rule;
use crate::state::{MechGame, Step};
use crate::terrain;
use volley_core::game::Refusal;
use volley_core::geometry::{front_hexes, label, step, Facing};
use volley_core::{reach_by_steps, Game, Reach};
use volley_core::{Dice, Event, Hex, Log};

impl MechGame {
    /// Whether item `i` may still move (or turn) this movement step.
    pub fn check_may_move<R: Refusal>(&self, i: usize) -> Result<(), R> {
        if self.step != Step::Movement {
            return Err(R::because(|| {
                format!(
                    "items move in the movement step; it is {}",
                    self.step_name()
                )
            }));
        }
        let it = self.own_item::<R>(i)?;
        if !self.active(i) {
            return Err(R::because(|| {
                format!("{} is not in the group that moves now (M18)", it.id)
            }));
        }
        let t = &self.s.turn_state[i];
        if t.routed {
            return Err(R::because(|| {
                format!("{} is routed and runs by itself (M121)", it.id)
            }));
        }
        if t.done || (t.moving && self.mover != Some(i)) {
            return Err(R::because(|| {
                format!("{} has finished its move this turn (M48)", it.id)
            }));
        }
        Ok(())
    }

    /// The movement points an item has for a forward or a reverse move.
    fn points(&self, i: usize, reverse: bool) -> u8 {
        let charts = &self.s.setup.charts;
        if reverse {
            moves::reverse_allowance(self.item(i), charts)
        } else {
            moves::allowance(self.item(i), charts)
        }
    }

    /// Whether `hex` is in the zone of control of an enemy of item `i` (M54: the three front
    /// hexes of an enemy without hit markers and not routed, M55).
    pub fn in_enemy_zoc(&self, i: usize, hex: Hex) -> bool {
        let side = self.item(i).side;
        (0..self.s.items.len()).any(|e| {
            self.in_play(e)
                && self.item(e).side != side
                && !self.routed(e)
                && self.visible_to(e, side)
                && !matches!(&self.item(e).kind, Kind::Squad(s) if s.markers > 0)
                && front_hexes(self.item(e).hex, self.item(e).facing).contains(&hex)
        })
    }

    pub fn check_step<R: Refusal>(&self, i: usize, to: Hex, reverse: bool) -> Result<(), R> {
        self.check_may_move::<R>(i)?;
        let it = self.item(i);
        let map = &self.s.setup.map;
        if reverse {
            if !matches!(it.kind, Kind::Vehicle { .. }) {
                return Err(R::because(|| {
                    format!("only vehicles reverse (M50); {} turns to go back", it.id)
                }));
            }
            if to != step(it.hex, it.facing.opposite()) {
                return Err(R::because(|| {
                    format!("{} reverses only into the hex behind it", it.id)
                }));
            }
            if self.s.turn_state[i].mp > 0 && !self.s.turn_state[i].moving {
                return Err(R::because(|| "a reverse move is a whole move"));
            }
        } else {
            let ahead = step(it.hex, it.facing);
            let oblique = [it.facing.turn(-1), it.facing.turn(1)].map(|f| step(it.hex, f));
            if to != ahead && !(self.s.setup.oblique && oblique.contains(&to)) {
                return Err(R::because(|| {
                    format!(
                        "{} steps only into the hex ahead{} (M49); turn first",
                        it.id,
                        if self.s.setup.oblique {
                            " or its front-left and front-right"
                        } else {
                            ""
                        }
                    )
                }));
            }
        }
        if !map.contains(to) {
            return Err(R::because(|| format!("{} is off the map", label(to))));
        }
        if !self.passable(it, it.hex, to) {
            return Err(R::because(|| {
                format!(
                    "{} cannot enter {} ({})",
                    it.id,
                    label(to),
                    map.terrain(to).name()
                )
            }));
        }
        if self.known_enemy_in(to, it.side) {
            return Err(R::because(|| {
                format!("the enemy holds {}; melee it instead", label(to))
            }));
        }
        if self.known_room(to, it.side) == 0 {
            return Err(R::because(|| {
                format!("{} already holds two items (M56)", label(to))
            }));
        }
        let vehicle = matches!(it.kind, Kind::Vehicle { .. });
        if vehicle
            && terrain::forest_off_road(map, it.hex, to)
            && !self.forced.contains(&to)
            && self.s.turn_state[i].forest
        {
            return Err(R::because(|| {
                format!("{} has entered a forest hex this turn already (M61)", it.id)
            }));
        }
        if let Some(why) = self.order_refuses_step(i, it.hex, to) {
            return Err(R::because(|| format!("{}: {why}", it.id)));
        }
        if self.holds(i) && self.nearer_the_enemy(i, to) {
            return Err(R::because(|| {
                format!("{} has rallied and does not move nearer the enemy unless a commander is with it (option rallied = hold)", it.id)
            }));
        }
        if self.panic_holds(i) && self.nearer_the_enemy(i, to) {
            return Err(R::because(|| {
                format!(
                    "{} may not move nearer the enemy: {} has panicked and no commander is with it (M43)",
                    it.id,
                    self.s.setup.side_names[it.side.index()]
                )
            }));
        }
        let cost = moves::step_cost(it, map.road_between(it.hex, to));
        let t = &self.s.turn_state[i];
        let have = self.points(i, reverse);
        if t.mp + cost > have {
            return Err(R::because(|| {
                format!(
                    "{} has {} of its {have} movement points left; {} costs {cost} (M48)",
                    it.id,
                    have.saturating_sub(t.mp),
                    label(to)
                )
            }));
        }
        if moves::crippled(it) && t.mp > 0 {
            return Err(R::because(|| {
                format!("{} is crippled and moves one hex a turn (M63)", it.id)
            }));
        }
        Ok(())
    }

    pub fn do_step(
        &mut self,
        i: usize,
        to: Hex,
        reverse: bool,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        self.begin_moving(i);
        if self.stuck_in_mud(i, dice, log) {
            return;
        }
        self.reveal(i, "it moves", log);
        if self.ambush(i, to, dice, log) {
            return;
        }
        let map = &self.s.setup.map;
        let from = self.item(i).hex;
        let cost = moves::step_cost(self.item(i), map.road_between(from, to));
        let vehicle = matches!(self.item(i).kind, Kind::Vehicle { .. });
        if vehicle && terrain::forest_off_road(map, from, to) && !self.forced.contains(&to) {
            let needed =
                moves::forest_entry_needed(self.item(i), &self.s.setup.charts).unwrap_or(4);
            let d = dice.roll(6);
            let t = &mut self.s.turn_state[i];
            t.forest = true;
            let ok = d >= needed;
            if ok {
                self.forced.push(to);
            } else {
                t.done = true;
            }
            log.add(|| {
                Event::new(
                    "forest",
                    rule("M61"),
                    format!(
                        "{} tries to force its way into the forest at {}: needs {needed}+, rolled {d}: {}.",
                        self.item(i).id,
                        label(to),
                        if ok { "it breaks through" } else { "it cannot, and its move ends" }
                    ),
                )
                .side(self.item(i).side)
                .units([self.item(i).id.clone()])
            });
            if !ok {
                return;
            }
        }
        if vehicle && terrain::forest_off_road(map, from, to) {
            self.s.turn_state[i].forest = true;
        }
        self.relocate(i, to);
        self.markers_next_to(i, log);
        self.catch_commanders(i, log);
        // Steps ahead and oblique steps (C12) keep the facing; so does a reverse (M50).
        let zoc = self.in_enemy_zoc(i, to);
        // M64: anything but infantry entering works stops there for the turn.
        let works = !matches!(self.item(i).kind, Kind::Squad(_))
            && self.s.works.at(to).is_some_and(|w| {
                w.standing() && w.kind != hex_command_family::ground::WorkKind::Pontoon
            });
        let t = &mut self.s.turn_state[i];
        t.mp += cost;
        if zoc || works {
            t.done = true;
        }
        t.zoc_stopped = zoc;
        log.add(|| {
            Event::new(
                "move",
                rule(if reverse { "M50" } else { "M48" }),
                format!(
                    "{} {} {} to {}{}.",
                    self.item(i).id,
                    if reverse {
                        "reverses from"
                    } else {
                        "moves from"
                    },
                    label(from),
                    label(to),
                    if zoc {
                        ", into an enemy's zone of control, and stops (M54)"
                    } else if works {
                        ", into works, and stops for the turn (M64)"
                    } else {
                        ""
                    }
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
        });
        self.mines(i, to, dice, log);
    }

    /// M65: an item entering a minefield stops and, unless it can clear mines, takes a hit
    /// marker (infantry) or a damage block (vehicles); the field is known to both from then on.
    fn mines(&mut self, i: usize, to: Hex, dice: &mut dyn Dice, log: &mut Log) {
        let Some(k) = self.s.minefields.iter().position(|m| m.hex == to) else {
            return;
        };
        self.s.minefields[k].known = true;
        if crate::logistics::mine_capable(self.item(i)) {
            log.add(|| {
                Event::new(
                    "mines",
                    rule("M65"),
                    format!(
                        "{} finds mines at {} and passes through them.",
                        self.item(i).id,
                        label(to)
                    ),
                )
                .side(self.item(i).side)
                .units([self.item(i).id.clone()])
            });
            return;
        }
        self.s.turn_state[i].done = true;
        let (result, text) = crate::logistics::enter_minefield(&mut self.s.items[i], dice);
        log.add(|| {
            Event::new(
                "mines",
                rule("M65"),
                format!(
                    "{} runs into a minefield at {} and stops: {text}.",
                    self.item(i).id,
                    label(to)
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
        });
        self.commander_risk(i, dice, log);
        self.after_loss(i, result, log);
    }

    /// Option `rain` (3.5.1): a wheeled vehicle rolls a d6 as it starts to move; 3–6 and it
    /// is stuck for the turn.
    fn stuck_in_mud(&mut self, i: usize, dice: &mut dyn Dice, log: &mut Log) -> bool {
        let wheeled = matches!(&self.item(i).kind, Kind::Vehicle { spec, .. } if spec.drive == crate::charts::Drive::Wheeled);
        if !self.s.setup.settings.rain || !wheeled || self.s.turn_state[i].rain_checked {
            return false;
        }
        self.s.turn_state[i].rain_checked = true;
        let d = dice.roll(6);
        let stuck = d >= 3;
        if stuck {
            self.s.turn_state[i].done = true;
        }
        log.add(|| {
            Event::new(
                "rain",
                rule("M60"),
                format!(
                    "{} rolls {d} in the mud: {}.",
                    self.item(i).id,
                    if stuck {
                        "stuck for the turn"
                    } else {
                        "it gets going"
                    }
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
        });
        stuck
    }

    /// Whether a step of item `i` to `to` brings it nearer the nearest enemy its side knows of.
    pub fn nearer_the_enemy(&self, i: usize, to: Hex) -> bool {
        let side = self.item(i).side;
        let nearest = |h: Hex| {
            (0..self.s.items.len())
                .filter(|&e| {
                    self.in_play(e) && self.item(e).side != side && self.visible_to(e, side)
                })
                .map(|e| h.unsigned_distance_to(self.item(e).hex))
                .min()
                .unwrap_or(u32::MAX)
        };
        nearest(to) < nearest(self.item(i).hex)
    }

    /// M43: a unit of a panicked side does not advance unless a commander is with it (or, with
    /// option `sphere`, reaches it: 4.5).
    pub fn panic_holds(&self, i: usize) -> bool {
        self.panicked[self.item(i).side.index()] && self.influenced_by(i).is_none()
    }

    /// Option `rallied = "hold"`: a rallied squad with no commander only defends.
    pub fn holds(&self, i: usize) -> bool {
        self.s.setup.settings.rallied_hold
            && self.s.turn_state[i].rallied
            && matches!(self.item(i).kind, Kind::Squad(_))
            && self.commander_with(i).is_none()
    }

    /// The item starts (or goes on with) its move; any other item's move is over.
    fn begin_moving(&mut self, i: usize) {
        if let Some(m) = self.mover.filter(|&m| m != i) {
            self.s.turn_state[m].done = true;
        }
        self.mover = Some(i);
        self.s.turn_state[i].moving = true;
    }

    pub fn check_face<R: Refusal>(&self, i: usize, facing: Facing) -> Result<(), R> {
        self.own_item::<R>(i)?;
        let t = &self.s.turn_state[i];
        // M54 (3.5.5): a unit a zone of control has stopped may still turn, once, if it has
        // not turned this move — whatever points it has left — until another unit moves.
        let zoc_turn = self.step == Step::Movement
            && t.zoc_stopped
            && t.done
            && t.facing_changes == 0
            && self.mover == Some(i);
        if !zoc_turn {
            self.check_may_move::<R>(i)?;
        }
        let it = self.item(i);
        if it.facing == facing {
            return Err(R::because(|| {
                format!("{} already faces {}", it.id, facing.name())
            }));
        }
        let limit = moves::facing_changes(it, &self.s.setup.charts);
        if t.facing_changes >= limit {
            return Err(R::because(|| {
                format!(
                    "{} has made its {limit} facing change{} this turn (M51)",
                    it.id,
                    if limit == 1 { "" } else { "s" }
                )
            }));
        }
        let cost = moves::facing_cost(self.s.setup.map.has_road(it.hex));
        let have = self.points(i, false);
        if t.mp + cost > have && !zoc_turn {
            return Err(R::because(|| {
                format!("{} has no movement point left to turn (M51)", it.id)
            }));
        }
        Ok(())
    }

    pub fn do_face(&mut self, i: usize, facing: Facing, log: &mut Log) {
        if self.mover != Some(i) {
            self.begin_moving(i);
        }
        self.reveal(i, "it moves", log);
        let cost = moves::facing_cost(self.s.setup.map.has_road(self.item(i).hex));
        let before = self.item(i).facing;
        self.s.items[i].facing = facing;
        let t = &mut self.s.turn_state[i];
        t.facing_changes += 1;
        t.mp += cost;
        log.add(|| {
            Event::new(
                "face",
                rule("M51"),
                format!(
                    "{} turns from {} to {}{}.",
                    self.item(i).id,
                    before.name(),
                    facing.name(),
                    if cost == 0 {
                        " (free on the road, M52)"
                    } else {
                        ""
                    }
                ),
            )
            .side(self.item(i).side)
            .units([self.item(i).id.clone()])
        });
    }

    /// M25–M26: after movement the phasing side places each commander with its own items,
    /// one commander a hex.
    pub fn check_place<R: Refusal>(&self, c: usize, hex: Hex) -> Result<(), R> {
        if self.step != Step::Command {
            return Err(R::because(|| {
                format!(
                    "commanders are placed after movement (M25); it is {}",
                    self.step_name()
                )
            }));
        }
        let Some(cm) = self.s.commanders.get(c) else {
            return Err(R::because(|| "no such commander"));
        };
        if cm.side != self.phasing() {
            return Err(R::because(|| format!("{} is {}'s", cm.id, cm.side)));
        }
        if let Some(f) = self.posts.fallen[c] {
            return Err(R::because(|| format!("{} is {f:?}", cm.id).to_lowercase()));
        }
        if self.posts.at[c].is_some() {
            return Err(R::because(|| {
                format!("{} is placed for this turn (M25)", cm.id)
            }));
        }
        if !self.items_at(hex).any(|i| self.item(i).side == cm.side) {
            return Err(R::because(|| {
                format!("{} goes to a hex held by its own side", cm.id)
            }));
        }
        if self.posts.at.contains(&Some(hex)) {
            return Err(R::because(|| {
                format!("a commander is already at {} (M56)", label(hex))
            }));
        }
        Ok(())
    }

    pub fn do_place(&mut self, c: usize, hex: Hex, log: &mut Log) {
        self.posts.at[c] = Some(hex);
        let cm = &self.s.commanders[c];
        let with: Vec<String> = self
            .items_at(hex)
            .map(|i| self.item(i).id.to_string())
            .collect();
        log.add(|| {
            Event::new(
                "commander",
                rule("M25"),
                format!(
                    "{} is placed at {} with {}.",
                    cm.id,
                    label(hex),
                    with.join(" and ")
                ),
            )
            .side(cm.side)
        });
    }
}

impl MechGame {
    /// The hexes an item of the side to decide can reach this movement step, each with the
    /// cheapest way there, as its side knows the table.
    pub fn reach_of(&self, unit: &str) -> Vec<Reach> {
        let Some(i) = self.s.items.iter().position(|it| it.id == unit) else {
            return Vec::new();
        };
        if self.to_decide() != Some(self.item(i).side) || self.step != Step::Movement {
            return Vec::new();
        }
        // The walk is made on the table as the unit's side knows it, so it neither springs
        // ambushes nor finds mines, and says nothing of what that side cannot see.
        reach_by_steps(
            self.without_unknowns(self.item(i).side),
            self.item(i).hex,
            |g: &MechGame| {
                Facing::ALL
                    .iter()
                    .map(|f| volley_core::geometry::step(g.item(i).hex, *f))
                    .filter(|&to| g.check_order::<()>(Order::Move { item: i, to }).is_ok())
                    .filter_map(|to| {
                        let mut after = g.clone();
                        // Forest rolls are not made for the reach: a forced hex is assumed.
                        after.forced.push(to);
                        after.do_step(
                            i,
                            to,
                            false,
                            &mut volley_core::ScriptedDice::new([]),
                            &mut Log::silent(),
                        );
                        (after.item(i).hex == to).then_some((to, after))
                    })
                    .collect()
            },
        )
    }
}
