//! How a player turn closes and how the battle is decided (the END PHASE and END OF THE BATTLE
//! chapters, with the replacement of lost commanders and the breakpoint): hits become stand
//! losses and suppression lifts; at the start of a side's turn a lost command unit comes back
//! and the breakpoint roll is made; the battle ends at the turn limit, on a major objective,
//! or when a Command breaks (the sequence of play, `sequence.rs`, asks each in its turn).

use crate::state::{rule, BptGame, Phase, Sight};
use crate::troops::Unit;
use volley_core::geometry::{distance, label};
use volley_core::{Dice, Event, Log, Outcome, Side};

impl BptGame {
    /// A command unit knocked out comes back once, anywhere: Volley places it with the
    /// friendly unit nearest where it fell. It gives no orders and does not move this turn,
    /// and its command value is one less for the rest of the game.
    pub(crate) fn replace_command_units(&mut self, log: &mut Log) {
        for h in 0..self.units.len() {
            let u = &self.units[h];
            if !(u.is_hq() && u.ko && !u.replaced && u.side == self.active) {
                continue;
            }
            let fell = u.hex;
            let place = (0..self.units.len())
                .filter(|&k| {
                    let f = &self.units[k];
                    !f.ko && !f.is_hq() && f.side == u.side && self.hqs_in(f.hex).next().is_none()
                })
                .min_by_key(|&k| (distance(self.units[k].hex, fell), k));
            let Some(k) = place else { continue };
            let at = self.units[k].hex;
            let u = &mut self.units[h];
            u.ko = false;
            u.replaced = true;
            u.fresh = true;
            u.command = u.command.saturating_sub(1);
            u.suppressed = None;
            u.turn_hits = 0;
            self.relocate(h, at);
            let u = &self.units[h];
            log.add(|| {
                Event::new(
                    "replaced",
                    rule("Replacing a Command Units"),
                    format!(
                        "{} is replaced at {} with command {} (no orders or move this turn)",
                        u.label(),
                        label(at),
                        u.command
                    ),
                )
                .side(u.side)
                .units([u.id.clone()])
            });
        }
    }

    /// The breakpoint: half the Command's units (command units left out), rounded up. Once
    /// that many are knocked out, a command roll on the CO's value (an HQ's if the CO is
    /// gone), one less for each unit lost beyond it, at the start of each of its turns; a
    /// failure breaks the Command. Returns whether it broke.
    pub(crate) fn breakpoint_roll(&mut self, dice: &mut dyn Dice, log: &mut Log) -> bool {
        let side = self.active;
        let (lost, all) = self.losses(side);
        let bp = all.div_ceil(2);
        if all == 0 || lost < bp {
            return false;
        }
        let leader = self
            .units
            .iter()
            .filter(|u| u.is_hq() && !u.ko && u.side == side)
            .max_by_key(|u| (u.co, u.command))
            .map(|u| (u.label(), u.command as i32));
        let (who, value) = leader.unwrap_or_else(|| ("no command unit".into(), 0));
        // The weather's command penalty applies to this command roll as to any.
        let need = value - (lost - bp) as i32 + self.weather.command_penalty();
        let (a, b) = (dice.roll(6), dice.roll(6));
        let holds = (a == 1 && b == 1) || (!(a == 6 && b == 6) && (a + b) as i32 <= need);
        log.add(|| {
            Event::new(
                "breakpoint",
                rule("Breakpoint"),
                format!(
                    "{} has lost {lost} of {all} units (breakpoint {bp}): {who} needs {need} or less, rolled {a}+{b}: {}",
                    self.side_name(side),
                    if holds { "the Command holds" } else { "the Command breaks and withdraws" }
                ),
            )
            .side(side)
        });
        if holds {
            return false;
        }
        self.broken = Some(side);
        true
    }

    /// The end phase: hits become stand losses on every unit, and the active player's units
    /// recover from suppression placed before this player turn (not from this turn's).
    pub fn end_phase(&mut self, log: &mut Log) {
        let pt = self.player_turn();
        for k in 0..self.units.len() {
            // A skirmish stand's hits short of losing it are dropped, as a unit's are.
            self.units[k].screen_hits = 0;
            let u = &self.units[k];
            if u.ko || u.turn_hits == 0 {
                continue;
            }
            // Stands go by the list's hits a stand: a disorder that began after the hits were
            // taken (a charge's winners) does not make them cost more stands.
            let lost = u.turn_hits / u.hits_per_stand;
            let left = u.stands.saturating_sub(lost);
            if left == 0 {
                self.knock_out(k, "its last stand was lost", log);
                continue;
            }
            let u = &mut self.units[k];
            u.stands = left;
            u.turn_hits = 0;
            if lost > 0 {
                let u = &self.units[k];
                log.add(|| {
                    Event::new(
                        "losses",
                        rule("End Phase"),
                        format!(
                            "{} loses {lost} stand{} ({} left)",
                            u.label(),
                            if lost == 1 { "" } else { "s" },
                            u.stands
                        ),
                    )
                    .side(u.side)
                    .units([u.id.clone()])
                });
            }
        }
        for u in self
            .units
            .iter_mut()
            .filter(|u| u.side == self.active && !u.ko)
        {
            if u.suppressed.is_some_and(|s| s.placed < pt) {
                u.suppressed = None;
            }
        }
    }

    pub(crate) fn major_reached(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&s| self.reached(s, Sight::AsItIs).0)
    }

    /// Whether a side holds a major objective of its own, and any objective of its own.
    /// Whether `side` holds a major objective, and any objective, as `sight` shows the map
    /// (a side does not see an enemy hidden on an objective).
    fn reached(&self, side: Side, sight: Sight) -> (bool, bool) {
        if self.broken == Some(side) {
            return (false, false);
        }
        let mine = self.setting.objectives.iter().filter(|o| {
            o.goal_of.is_none_or(|s| s == side) && self.holder(o.hex, sight) == Some(side)
        });
        let major = mine.clone().any(|o| o.major[side.index()]);
        let any = mine.count() > 0;
        (major, any)
    }

    /// Victory points of a side: the points of the enemy units it knocked out, command units
    /// included.
    pub fn victory_points(&self, side: Side) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side != side && u.ko)
            .map(Unit::worth)
            .sum()
    }

    /// A side with no units left ends the battle at once.
    pub fn check_end_of_battle(&mut self, log: &mut Log) {
        if self.outcome.is_some() {
            return;
        }
        for side in Side::BOTH {
            let (lost, all) = self.losses(side);
            if all > 0 && lost == all {
                self.finish(format!("{} has no units left", self.side_name(side)), log);
                return;
            }
        }
    }

    /// The battle's result: the objectives table, raised a step for twice the opponent's
    /// victory points; a Command that broke scores no more than its opponent.
    /// The result if the battle ended now ("Deciding the Winner"): +2 a decisive victory for
    /// red, +1 a minor one, 0 a draw, −1 and −2 for blue; with each side's victory points.
    /// Judged from the map as `sight` shows it (at the end of the battle, as it is).
    pub fn judge(&self, sight: Sight) -> (i32, [u32; 2]) {
        let (rmaj, rany) = self.reached(Side::Red, sight);
        let (bmaj, bany) = self.reached(Side::Blue, sight);
        let level = |maj: bool, any: bool| {
            if maj {
                2
            } else if any {
                1
            } else {
                0
            }
        };
        let (r, b) = (level(rmaj, rany), level(bmaj, bany));
        let mut result: i32 = match (r, b) {
            (x, y) if x == y => 0,
            (2, 0) => 2,
            (0, 2) => -2,
            (x, y) if x > y => 1,
            _ => -1,
        };
        let mut vp = [
            self.victory_points(Side::Red),
            self.victory_points(Side::Blue),
        ];
        if let Some(s) = self.broken {
            let i = s.index();
            vp[i] = vp[i].min(vp[1 - i]);
        }
        if vp[0] > 0 && vp[0] >= 2 * vp[1] {
            result = (result + 1).min(2);
        } else if vp[1] > 0 && vp[1] >= 2 * vp[0] {
            result = (result - 1).max(-2);
        }
        for side in Side::BOTH {
            let (lost, all) = self.losses(side);
            if all > 0 && lost == all {
                result = if side == Side::Red { -2 } else { 2 };
            }
        }
        (result, vp)
    }

    /// The judged result in words: "a minor victory for Hood's division", and the winner.
    fn result_words(&self, result: i32) -> (Option<Side>, String) {
        let winner = match result {
            0 => None,
            x if x > 0 => Some(Side::Red),
            _ => Some(Side::Blue),
        };
        let kind = match (result.abs(), winner) {
            (0, _) | (_, None) => "a draw".to_string(),
            (1, Some(w)) => format!("a minor victory for {}", self.side_name(w)),
            (_, Some(w)) => format!("a decisive victory for {}", self.side_name(w)),
        };
        (winner, kind)
    }

    /// Who would win if the battle ended now, as `sight` shows the map, for the view ("as
    /// it stands").
    pub fn standing(&self, sight: Sight) -> volley_core::view::Standing {
        let (result, vp) = self.judge(sight);
        let (winner, kind) = self.result_words(result);
        let held: Vec<String> = Side::BOTH
            .into_iter()
            .flat_map(|side| {
                self.setting
                    .objectives
                    .iter()
                    .filter(move |o| {
                        o.goal_of.is_none_or(|s| s == side)
                            && self.broken != Some(side)
                            && self.holder(o.hex, sight) == Some(side)
                    })
                    .map(move |o| format!("{} holds {}", self.side_name(side), o.name))
            })
            .collect();
        let held = if held.is_empty() {
            "no objective held".to_string()
        } else {
            held.join(", ")
        };
        volley_core::view::Standing {
            winner,
            decisive: result.abs() >= 2,
            reason: format!("{kind} ({held}; victory points {} to {})", vp[0], vp[1]),
        }
    }

    pub fn finish(&mut self, why: String, log: &mut Log) {
        let (result, vp) = self.judge(Sight::AsItIs);
        let (winner, kind) = self.result_words(result);
        let reason = format!("{why}: {kind} (victory points {} to {})", vp[0], vp[1]);
        self.phase = Phase::Over;
        self.interrupt = None;
        self.charge = None;
        self.outcome = Some(Outcome {
            winner,
            reason: reason.clone(),
            score: [vp[0] as i32, vp[1] as i32],
        });
        log.add(|| Event::new("end", rule("Deciding the Winner"), reason));
    }
}
