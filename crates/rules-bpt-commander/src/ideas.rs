//! MORE IDEAS: morale grades (optional), fixed formations (optional) and multi-national
//! armies. Multi-player battles and solo play need no rules of their own here: each side is
//! one seat (its players share it, or one plays the CO and passes the screen), and the
//! command rolls already give the uncertainty solo play relies on.

use crate::state::{rule, BptGame};
use crate::table::Table;
use crate::troops::MoraleRule;
use crate::troops::Unit;
use volley_core::game::Refusal;
use volley_core::geometry::{distance, label, line_between};
use volley_core::{Dice, Event, Log};

impl BptGame {
    /// Whether command unit `hq` may order `unit` at all: in a multi-national army only the
    /// commanding officer and command units of the unit's nation (or of a nation that trained
    /// it) may; with fixed formations only the unit's own command unit may.
    pub fn may_command<R: Refusal>(&self, hq: usize, unit: usize) -> Result<(), R> {
        let (h, u) = (&self.units[hq], &self.units[unit]);
        if let Some(n) = u.nation {
            let own = h.nation == Some(n);
            let trained = h.nation.is_some_and(|m| u.trained_by & (1 << m) != 0);
            if !(h.co || own || trained) {
                let name = |k: Option<u8>| {
                    k.and_then(|k| self.setting.nations.get(k as usize))
                        .map_or("no nation".to_string(), |s| s.clone())
                };
                return Err(R::because(|| {
                    format!(
                    "{} ({}) takes orders only from the commanding officer and {} command units, not from {} ({}) (Multi-National Armies)",
                    u.label(),
                    name(Some(n)),
                    name(Some(n)),
                    h.label(),
                    name(h.nation)
                )
                }));
            }
        }
        if self.table().fixed_formations {
            if let Some(f) = u.formation_hq {
                if f as usize != hq {
                    return Err(R::because(|| {
                        format!(
                        "{} belongs to {}'s formation and takes orders from it only (Fixed Formations)",
                        u.label(),
                        self.units[f as usize].label()
                    )
                    }));
                }
            }
        }
        Ok(())
    }

    /// The score a suppression test die must reach: the attack's to-hit score, or with morale
    /// grades the unit's grade.
    pub fn suppression_score(&self, unit: &Unit, to_hit: u32) -> u32 {
        match self.table().morale {
            MoraleRule::Off => to_hit,
            _ => unit.morale.suppressed_on(),
        }
    }

    /// How far (cm) a unit may fall back without being knocked out: 20, or its grade's limit.
    pub fn fall_back_limit_cm(&self, unit: &Unit) -> u32 {
        match self.table().morale {
            MoraleRule::Off => 20,
            _ => unit.morale.fall_back_limit_cm(),
        }
    }

    /// The score that hits `unit` in a charge where cover (or the open) would give
    /// `by_cover`.
    pub fn charge_to_hit(&self, unit: usize, by_cover: u32) -> u32 {
        match self.table().morale {
            MoraleRule::GradesAndCharge => self.units[unit].morale.hit_in_charge_on(),
            _ => by_cover,
        }
    }
}

impl BptGame {
    /// The side's commanding officer, if still in play.
    pub fn co_of(&self, side: volley_core::Side) -> Option<usize> {
        (0..self.units.len()).find(|&k| {
            let u = &self.units[k];
            u.co && u.side == side && !u.ko
        })
    }

    /// The CO who would move units between formations, if the rule is in play and there is
    /// one (whether the CO may order the unit now is the command phase's question).
    pub fn transferring_co<R: Refusal>(&self) -> Result<usize, R> {
        if !self.table().fixed_formations {
            return Err(R::because(|| {
                "the fixed formations rule is not in play (option fixed_formations)"
            }));
        }
        self.co_of(self.active)
            .ok_or_else(|| R::because(|| "no commanding officer to move units between formations"))
    }

    /// Why the CO (`co`) may not try to move `unit` to `hq`'s formation, if it may not.
    pub fn check_transfer<R: Refusal>(&self, unit: usize, hq: usize, co: usize) -> Result<(), R> {
        let (u, h) = (&self.units[unit], &self.units[hq]);
        if u.actions > 0 || u.orders > 0 {
            return Err(R::because(|| {
                format!("{} has had an order this turn", u.label())
            }));
        }
        if !h.is_hq() || h.ko || h.side != u.side || hq == co {
            return Err(R::because(|| {
                format!(
                    "{} is not another command unit of the side to move {} to",
                    h.label(),
                    u.label()
                )
            }));
        }
        if u.formation_hq == Some(hq as u16) {
            return Err(R::because(|| {
                format!("{} is in {}'s formation already", u.label(), h.label())
            }));
        }
        Ok(())
    }

    /// The command value of a transfer: the CO's, less the successive orders, one a full
    /// 10 cm from the CO to the receiving command unit (in place of the distance to the unit),
    /// one for each dense section or enemy unit between them, and the weather.
    pub fn transfer_value(&self, co: usize, unit: usize, hq: usize) -> (i32, Vec<String>) {
        let c = &self.units[co];
        let mut v = c.command as i32;
        let mut words = vec![format!("{} command {}", c.label(), c.command)];
        let mut add = |d: i32, why: String| {
            if d != 0 {
                v += d;
                words.push(format!("{d:+} {why}"));
            }
        };
        let u = &self.units[unit];
        add(
            -(u.orders as i32 + i32::from(u.initiative_used)),
            "successive order".into(),
        );
        let cm = self.distance_cm(co, hq);
        add(
            -((cm / 10) as i32),
            format!("{cm} cm from the CO to {}", self.units[hq].label()),
        );
        let (from, to) = (c.hex, self.units[hq].hex);
        // The line between them (the first of its two where it runs along a hexside).
        let between: Vec<_> = line_between(from, to, 0)
            .filter(|&x| x != from && x != to)
            .collect();
        let dense = between
            .iter()
            .filter(|&&x| self.ground().dense(x, u))
            .count() as i32;
        add(-dense, "dense terrain between them".into());
        let enemies = between
            .iter()
            .filter(|&&x| {
                self.occupant(x)
                    .is_some_and(|k| self.units[k].side != c.side)
            })
            .count() as i32;
        add(-enemies, "enemy units between them".into());
        add(self.weather.command_penalty(), self.weather.name().into());
        (v, words)
    }

    /// The CO's roll to move a unit of its formation to another command unit's: on a success
    /// the unit goes to within 10 cm of that command unit and takes no more orders this turn;
    /// a failure is the CO's failure, which ends the side's orders.
    pub fn transfer(&mut self, unit: usize, hq: usize, dice: &mut dyn Dice, log: &mut Log) {
        let co = self.co_of(self.active).expect("checked");
        if let Some(prev) = self.current_hq {
            if prev != co && !self.finished.contains(&prev) {
                self.finished.push(prev);
            }
        }
        self.current_hq = Some(co);
        let (value, words) = self.transfer_value(co, unit, hq);
        let (a, b) = (dice.roll(6), dice.roll(6));
        let success = (a == 1 && b == 1) || (!(a == 6 && b == 6) && (a + b) as i32 <= value);
        let (cl, ul, hl) = (
            self.units[co].label(),
            self.units[unit].label(),
            self.units[hq].label(),
        );
        log.add(|| {
            Event::new(
                "order",
                rule("Fixed Formations"),
                format!(
                    "{cl} moves {ul} to {hl}'s formation: needs {value} or less ({}), rolled {a}+{b}: {}",
                    words.join(" "),
                    if success { "done" } else { "failed: the CO's orders are over this turn" }
                ),
            )
            .side(self.active)
            .units([self.units[unit].id.clone(), self.units[hq].id.clone()])
        });
        if !success {
            self.units[unit].tried = true;
            self.finished.push(co);
            self.co_failed = true;
            return;
        }
        // To within 10 cm of the receiving command unit: the nearest open hex to the unit.
        let at = self.units[hq].hex;
        let here = self.units[unit].hex;
        let spot = at
            .range(2)
            .filter(|&x| self.map().contains(x))
            .filter(|&x| x == here || self.occupant(x).is_none())
            .filter(|&x| self.ground().passable(x, &self.units[unit]))
            .min_by_key(|&x| (distance(x, here), distance(x, at), label(x)));
        if let Some(to) = spot {
            if to != here {
                self.relocate(unit, to);
            }
        }
        let u = &mut self.units[unit];
        u.formation_hq = Some(hq as u16);
        u.orders += 1;
        u.closed = true;
        let (ul, where_) = (u.label(), label(u.hex));
        log.add(|| {
            Event::new(
                "move",
                rule("Fixed Formations"),
                format!("{ul} joins {hl}'s formation at {where_}"),
            )
            .side(self.active)
            .units([self.units[unit].id.clone()])
        });
    }
}
