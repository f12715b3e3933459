//! Melee (M109–M119), fought from the neighbouring hex (C2): each item starts at most one
//! melee a turn, against an enemy item in its front hexes. Squads (and gun crews) roll a d6
//! plus their melee value each; the higher total captures the other, a tie costs both a
//! figure and pushes both back a hex (M110–M112). A vehicle rams a vehicle (M116), a squad
//! swarms a vehicle (M107), and a vehicle against infantry kills a figure (M114).

use crate::items::Kind;
use crate::losses;
use crate::melee_tables::{self, MeleeModifiers, MeleeResult};
use crate::rule;
use crate::state::{Fallen, MechGame, Step};
use hex_command_family::sight;
use volley_core::game::Refusal;
use volley_core::geometry::{aspect, front_hexes, label, step, Aspect};
use volley_core::{Dice, Event, Log};

impl MechGame {
    pub fn check_melee<R: Refusal>(&self, i: usize, t: usize) -> Result<(), R> {
        if self.step != Step::Melee {
            return Err(R::because(|| {
                format!(
                    "melees are started after fire (M20); it is {}",
                    self.step_name()
                )
            }));
        }
        let it = self.own_item::<R>(i)?;
        if !self.active(i) {
            return Err(R::because(|| {
                format!("{} is not in the group that fights now (M18)", it.id)
            }));
        }
        if self.routed(i) {
            return Err(R::because(|| {
                format!("{} is routed and cannot melee (M123)", it.id)
            }));
        }
        if self.s.turn_state[i].worked {
            return Err(R::because(|| {
                format!("{} worked this turn and does not fight (M66–M67)", it.id)
            }));
        }
        if self.s.turn_state[i].meleed {
            return Err(R::because(|| {
                format!("{} has started a melee this turn (M109)", it.id)
            }));
        }
        if let Some(why) = self.order_refuses_melee(i) {
            return Err(R::because(|| format!("{}: {why}", it.id)));
        }
        if self.holds(i) {
            return Err(R::because(|| {
                format!("{} has rallied and only holds unless a commander is with it (option rallied = hold)", it.id)
            }));
        }
        if matches!(it.kind, Kind::Gun { .. }) {
            return Err(R::because(|| {
                format!("{} is a gun and does not start melees", it.id)
            }));
        }
        if !self.in_play(t) || self.item(t).side == it.side || !self.visible_to(t, it.side) {
            return Err(R::because(|| {
                "the target must be an enemy item in play that its side can see"
            }));
        }
        let tg = self.item(t);
        if !front_hexes(it.hex, it.facing).contains(&tg.hex) {
            return Err(R::because(|| {
                format!("{} is not in a front hex of {} (M109)", tg.id, it.id)
            }));
        }
        Ok(())
    }

    /// Melee modifiers of one side against the other (D8).
    fn melee_mods(&self, i: usize, against: usize, defending: bool) -> MeleeModifiers {
        let g = self.ground();
        let (h, o) = (self.item(i).hex, self.item(against).hex);
        let map = &self.s.setup.map;
        MeleeModifiers {
            commander: self.commander_with(i).is_some(),
            cover: defending && sight::terrain_cover(g, h) > 0,
            flank: !defending && aspect(o, self.item(against).facing, h) != Aspect::Front,
            over_wall: !defending && sight::sheltering(map.hexside(h, o)),
            higher: map.elevation(h) > map.elevation(o),
        }
    }

    pub fn do_melee(&mut self, i: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
        self.s.turn_state[i].meleed = true;
        self.reveal(i, "it starts a melee", log);
        let charts = self.s.setup.charts.clone();
        let (attacker_vehicle, target_vehicle) = (
            matches!(self.item(i).kind, Kind::Vehicle { .. }),
            matches!(self.item(t).kind, Kind::Vehicle { .. }),
        );
        let (side, ids) = (
            self.item(i).side,
            [self.item(i).id.clone(), self.item(t).id.clone()],
        );
        match (attacker_vehicle, target_vehicle) {
            (true, true) => {
                let (mut a, mut b) = (self.s.items[i].clone(), self.s.items[t].clone());
                let ((ra, ta), (rb, tb)) = losses::ram(&mut a, &mut b, &charts, dice);
                self.s.items[i] = a;
                self.s.items[t] = b;
                log.add(|| {
                    Event::new(
                        "ram",
                        rule("M116"),
                        format!("{} rams {}: {ta}; {tb}.", ids[0], ids[1]),
                    )
                    .side(side)
                    .units(ids.clone())
                });
                self.after_loss(i, ra, log);
                self.after_loss(t, rb, log);
            }
            (false, true) => match losses::swarm(&mut self.s.items[t], dice) {
                Some((r, text)) => {
                    log.add(|| {
                        Event::new(
                            "swarm",
                            rule("M107"),
                            format!("{} swarms {}: {text}.", ids[0], ids[1]),
                        )
                        .side(side)
                        .units(ids.clone())
                    });
                    self.after_loss(t, r, log);
                }
                None => {
                    // M107: an open-topped vehicle swarmed is taken; Volley destroys it (C20).
                    log.add(|| {
                        Event::new(
                            "swarm",
                            rule("M107"),
                            format!(
                                "{} swarms the open-topped {} and takes it out of the fight.",
                                ids[0], ids[1]
                            ),
                        )
                        .side(side)
                        .units(ids.clone())
                    });
                    self.after_loss(t, losses::Result::Destroyed, log);
                }
            },
            (true, false) => {
                // M114: each attacking vehicle kills one figure of the defending stand (a gun
                // is overrun).
                let target = &mut self.s.items[t];
                let (r, text) = match &mut target.kind {
                    Kind::Squad(s) => {
                        s.figures = s.figures.saturating_sub(1);
                        let r = match s.figures {
                            0 => losses::Result::Destroyed,
                            1 | 2 => losses::Result::Routs,
                            _ => losses::Result::Holds,
                        };
                        (
                            r,
                            format!("{} loses a figure, {} left", target.id, s.figures),
                        )
                    }
                    _ => (
                        losses::Result::Destroyed,
                        format!("{} is overrun", target.id),
                    ),
                };
                log.add(|| {
                    Event::new(
                        "melee",
                        rule("M114"),
                        format!("{} attacks {}: {text}.", ids[0], ids[1]),
                    )
                    .side(side)
                    .units(ids.clone())
                });
                self.after_loss(t, r, log);
            }
            (false, false) => {
                if self.may_step_back(i, t) {
                    self.answer = Some((i, t));
                    log.add(|| {
                        Event::new(
                            "melee",
                            rule("M115"),
                            format!("{} attacks {}, which is faster and may step back before the melee.", ids[0], ids[1]),
                        )
                        .side(side)
                        .units(ids.clone())
                    });
                } else {
                    self.infantry_melee(i, t, dice, log)
                }
            }
        }
    }

    /// M115: the defender may step back if it is faster by a point, unmarked, and the hex
    /// straight behind it is open.
    fn may_step_back(&self, a: usize, d: usize) -> bool {
        let charts = &self.s.setup.charts;
        let Kind::Squad(s) = &self.item(d).kind else {
            return false;
        };
        let (dmp, amp) = (
            crate::moves::allowance(self.item(d), charts),
            crate::moves::allowance(self.item(a), charts),
        );
        melee_tables::may_retreat_before_melee(dmp, amp, s.markers) && self.back_open(d).is_some()
    }

    /// The hex straight behind an item, if it may enter it now.
    fn back_open(&self, x: usize) -> Option<volley_core::Hex> {
        let it = self.item(x);
        let to = step(it.hex, it.facing.opposite());
        let map = &self.s.setup.map;
        (map.contains(to)
            && self.passable(it, it.hex, to)
            && !self.enemy_in(to, it.side)
            && self.s.board.room(map, to) > 0
            && !self.in_enemy_zoc(x, to))
        .then_some(to)
    }

    pub fn check_answer<R: Refusal>(&self, item: usize) -> Result<(), R> {
        match self.answer {
            Some((_, d)) if d == item => Ok(()),
            _ => Err(R::because(|| {
                "only a defender that may step back before a melee answers it (M115)"
            })),
        }
    }

    /// M115, M118: the defender steps back a hex, takes a marker and faces the hex it left;
    /// the attacker takes the vacated hex on a d6 of 4–6 (+1 with a commander).
    pub fn do_retreat(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let (a, d) = self.answer.take().expect("checked: a melee waiting");
        let from = self.item(d).hex;
        let to = self
            .back_open(d)
            .expect("checked when the melee was declared");
        self.relocate(d, to);
        if let Some(f) = volley_core::geometry::Facing::towards(to, from) {
            self.s.items[d].facing = f;
        }
        let (r, text) = losses::hit_squad(&mut self.s.items[d], 1);
        log.add(|| {
            Event::new(
                "melee",
                rule("M115"),
                format!(
                    "{} steps back from {} to {} and takes a marker: {text}.",
                    self.item(d).id,
                    label(from),
                    label(to)
                ),
            )
            .side(self.item(d).side)
            .units([self.item(d).id.clone()])
        });
        self.after_loss(d, r, log);
        if self.panic_holds(a) {
            log.add(|| {
                Event::new(
                    "advance",
                    rule("M43"),
                    format!(
                        "{} may not advance into {}: {} has panicked and no commander is with it.",
                        self.item(a).id,
                        label(from),
                        self.s.setup.side_names[self.item(a).side.index()]
                    ),
                )
                .side(self.item(a).side)
                .units([self.item(a).id.clone()])
            });
            return;
        }
        let commander = self.influenced_by(a);
        let (roll, why, won) = if self.s.setup.settings.cvs_advance {
            // Option cvs_advance (3.8.5): a d10 above the Aggressiveness of the commander with
            // the attacker, else of the overall commander.
            let side = self.item(a).side;
            let c = commander.or_else(|| {
                (0..self.s.commanders.len())
                    .filter(|&c| self.s.commanders[c].side == side && self.posts.in_game(c))
                    .max_by_key(|&c| self.s.commanders[c].supreme)
            });
            let agg = c.map_or(6, |c| self.s.commanders[c].aggressiveness);
            let d = dice.roll(10);
            (
                d,
                format!(" on a d10 against Aggressiveness {agg}"),
                d > agg as u32,
            )
        } else {
            let d = dice.roll(6);
            (
                d,
                if commander.is_some() {
                    " +1 (commander)".to_string()
                } else {
                    String::new()
                },
                melee_tables::advances(d, commander.is_some()),
            )
        };
        let goes = won && self.items_at(from).next().is_none();
        if goes {
            self.relocate(a, from);
            self.catch_commanders(a, log);
        }
        log.add(|| {
            Event::new(
                "advance",
                rule("M118"),
                format!(
                    "{} rolls {roll}{why} to advance: {}.",
                    self.item(a).id,
                    if goes {
                        format!("it takes {}", label(from))
                    } else {
                        "it stays".into()
                    }
                ),
            )
            .side(self.item(a).side)
            .units([self.item(a).id.clone()])
        });
    }

    /// The defender stands: the melee is fought.
    pub fn do_stand(&mut self, dice: &mut dyn Dice, log: &mut Log) {
        let (a, d) = self.answer.take().expect("checked: a melee waiting");
        self.infantry_melee(a, d, dice, log);
    }

    /// M110–M112: d6 + melee value each; the loser is captured, a tie costs both a figure
    /// and pushes both back.
    fn infantry_melee(&mut self, i: usize, t: usize, dice: &mut dyn Dice, log: &mut Log) {
        let charts = &self.s.setup.charts;
        let av = melee_tables::melee_value(self.item(i), charts, self.melee_mods(i, t, false));
        let dv = melee_tables::melee_value(self.item(t), charts, self.melee_mods(t, i, true));
        let (ad, dd) = (dice.roll(6), dice.roll(6));
        let result = melee_tables::resolve(av, ad, dv, dd);
        let (side, ids) = (
            self.item(i).side,
            [self.item(i).id.clone(), self.item(t).id.clone()],
        );
        log.add(|| {
            Event::new(
                "melee",
                rule("M110"),
                format!(
                    "{} melees {}: {ad}+{av} = {} against {dd}+{dv} = {}: {}.",
                    ids[0],
                    ids[1],
                    ad as i32 + av,
                    dd as i32 + dv,
                    match result {
                        MeleeResult::AttackerWins =>
                            format!("{} wins and captures {}", ids[0], ids[1]),
                        MeleeResult::DefenderWins =>
                            format!("{} wins and captures {}", ids[1], ids[0]),
                        MeleeResult::Tie => "a tie: both lose a figure and fall back (M111)".into(),
                    }
                ),
            )
            .side(side)
            .units(ids.clone())
        });
        match result {
            MeleeResult::AttackerWins => self.captured(t, log),
            MeleeResult::DefenderWins => self.captured(i, log),
            MeleeResult::Tie => {
                for x in [i, t] {
                    let r = match &mut self.s.items[x].kind {
                        Kind::Squad(s) => {
                            s.figures = s.figures.saturating_sub(1);
                            match s.figures {
                                0 => losses::Result::Destroyed,
                                1 | 2 => losses::Result::Routs,
                                _ => losses::Result::Holds,
                            }
                        }
                        _ => losses::Result::Holds,
                    };
                    self.after_loss(x, r, log);
                    if self.in_play(x) && !self.routed(x) {
                        self.push_back(x, log);
                    }
                }
            }
        }
    }

    /// A commander is captured (M32, M119): out of the game, counted lost.
    fn capture(&mut self, c: usize, section: &str, text: String, log: &mut Log) {
        self.posts.fall(c, Fallen::Captured);
        let side = self.s.commanders[c].side;
        log.add(|| Event::new("commander", rule(section), text).side(side));
    }

    /// M32: an item entering a hex where an enemy commander stands with none of its own side's
    /// items catches it unattached: the commander is captured.
    pub fn catch_commanders(&mut self, i: usize, log: &mut Log) {
        let (side, hex) = (self.item(i).side, self.item(i).hex);
        if self.items_at(hex).any(|x| self.item(x).side != side) {
            return;
        }
        for c in 0..self.posts.at.len() {
            if self.posts.at[c] == Some(hex) && self.s.commanders[c].side != side {
                let text = format!(
                    "{} is caught alone at {} by {} and captured.",
                    self.s.commanders[c].id,
                    label(hex),
                    self.item(i).id
                );
                self.capture(c, "M32", text, log);
            }
        }
    }

    /// The loser of a melee is captured, and so is a commander with it (M119).
    fn captured(&mut self, x: usize, log: &mut Log) {
        if let Some(c) = self.commander_with(x) {
            if self.items_at(self.item(x).hex).count() == 1 {
                let text = format!(
                    "{} is captured with {}.",
                    self.s.commanders[c].id,
                    self.item(x).id
                );
                self.capture(c, "M119", text, log);
            }
        }
        self.after_loss(x, losses::Result::Destroyed, log);
    }

    /// M111–M112: pushed back one hex straight behind; with no way back the item routs.
    fn push_back(&mut self, x: usize, log: &mut Log) {
        if let Some(to) = self.back_open(x) {
            let from = self.item(x).hex;
            self.relocate(x, to);
            log.add(|| {
                Event::new(
                    "push",
                    rule("M111"),
                    format!(
                        "{} is pushed back from {} to {}.",
                        self.item(x).id,
                        label(from),
                        label(to)
                    ),
                )
                .side(self.item(x).side)
                .units([self.item(x).id.clone()])
            });
        } else {
            log.add(|| {
                Event::new(
                    "push",
                    rule("M112"),
                    format!("{} has no way back and routs.", self.item(x).id),
                )
                .side(self.item(x).side)
                .units([self.item(x).id.clone()])
            });
            self.after_loss(x, losses::Result::Routs, log);
        }
    }
}
