//! SCOUTING CAVALRY (optional rule) and the hidden set-up it is for (option `hidden_setup`).
//!
//! The book names a hidden set-up but never says how it is played; Volley plays it as blinds
//! (docs/rules/bpt-commander.md, reading 97): each unit starts hidden from the enemy, who sees
//! only a marker in its hex. A hidden unit shows itself when it acts (an order, a move, a
//! shot: the dug-in troops' rule for giving their position away), when it is struck, when an
//! enemy comes within 5 cm of it, and when enemy scouting cavalry see it within 30 cm in the
//! open or 15 cm in cover.
//!
//! Scouting cavalry are single cavalry stands (trait `scout`). One command roll sets them
//! free; after it each may order itself one move a command phase, in any direction. They do
//! not fight: fired on, or touched by enemy troops, they leave the table without counting
//! as lost.

use crate::state::BptGame;
use crate::terrain;
use crate::troops::Unit;
use volley_core::geometry::{distance, label, Facing};
use volley_core::{Dice, Event, Hex, Log, Side};

/// How far scouting cavalry spot hidden troops, in hexes: 30 cm in the open, 15 cm in cover.
pub const SCOUT_OPEN: u32 = 6;
pub const SCOUT_COVER: u32 = 3;

fn rule(section: &str) -> String {
    format!("SCOUTING CAVALRY: {section}")
}

/// What a hidden unit shows of itself by acting, compared before and after each action.
#[derive(PartialEq, Eq)]
struct Trace {
    hex: Hex,
    facing: Facing,
    formation: crate::troops::Formation,
    limbered: bool,
    fired: bool,
    hits: u32,
    stands: u32,
    suppressed: bool,
    prone: bool,
    orders: u32,
    actions: u32,
}

impl Trace {
    fn of(u: &Unit) -> Trace {
        Trace {
            hex: u.hex,
            facing: u.facing,
            formation: u.formation,
            limbered: u.limbered,
            fired: u.has_fired,
            hits: u.turn_hits,
            stands: u.stands,
            suppressed: u.is_suppressed(),
            prone: u.prone,
            orders: u.orders,
            actions: u.actions,
        }
    }
}

/// The hidden units' traces before an action, to find who gave themselves away by it.
pub struct Before(Vec<(usize, Trace)>);

impl BptGame {
    /// Before an action: the units it names show themselves (an order given, a shot, a
    /// move), and the others' traces are kept.
    pub fn before_action(&mut self, named: &[usize], log: &mut Log) -> Before {
        if !self.table().hidden_setup {
            return Before(Vec::new());
        }
        for &k in named {
            if self.units[k].hidden && !self.units[k].ko {
                self.reveal(k, "gives itself away by acting", log);
            }
        }
        Before(
            (0..self.units.len())
                .filter(|&k| self.units[k].hidden && !self.units[k].ko)
                .map(|k| (k, Trace::of(&self.units[k])))
                .collect(),
        )
    }

    /// After an action: hidden units it changed show themselves, then the enemy spots what
    /// it can, and scouting cavalry touched by the enemy leave the table.
    pub fn after_action(&mut self, before: Before, log: &mut Log) {
        if !self.table().hidden_setup {
            return;
        }
        for (k, trace) in before.0 {
            let u = &self.units[k];
            if u.hidden && !u.ko && Trace::of(u) != trace {
                self.reveal(k, "gives itself away", log);
            }
        }
        self.spot(log);
    }

    /// Spotting: hidden units within 5 cm of an enemy unit, or seen by enemy scouting cavalry
    /// within 30 cm in the open or 15 cm in cover, are revealed; then scouting cavalry that
    /// enemy troops touch retire. Hidden units are looked at in the order of their hexes.
    pub fn spot(&mut self, log: &mut Log) {
        if !self.table().hidden_setup {
            return;
        }
        let mut hidden: Vec<usize> = (0..self.units.len())
            .filter(|&k| self.units[k].hidden && !self.units[k].ko)
            .collect();
        hidden.sort_by_key(|&k| {
            (
                label(self.units[k].hex),
                self.units[k].side,
                !self.units[k].is_hq(),
            )
        });
        for t in hidden {
            if !self.units[t].hidden {
                continue;
            }
            if let Some((by, how)) = self.spotter_of(t) {
                let why = format!("{how} {}", self.units[by].label());
                self.reveal(t, &why, log);
            }
        }
        self.scouts_retire(log);
    }

    /// The enemy unit that spots hidden unit `t`, and how.
    fn spotter_of(&self, t: usize) -> Option<(usize, &'static str)> {
        let target = &self.units[t];
        let cover = self.in_cover(target);
        let mut best: Option<(u32, usize, &'static str)> = None;
        for (k, o) in self.units.iter().enumerate() {
            if o.ko || o.side == target.side {
                continue;
            }
            let d = distance(o.hex, target.hex);
            let found = if d <= 1 {
                Some("comes within 5 cm of")
            } else if o.traits.scout
                && d <= if cover { SCOUT_COVER } else { SCOUT_OPEN }
                && self.sight_of(k, t)
            {
                Some("is found by the scouting cavalry")
            } else {
                None
            };
            if let Some(how) = found {
                if best.is_none_or(|(bd, bk, _)| (d, k) < (bd, bk)) {
                    best = Some((d, k, how));
                }
            }
        }
        best.map(|(_, k, how)| (k, how))
    }

    /// Cover for spotting: area terrain, or sheltered behind a wall, hedge or fence.
    fn in_cover(&self, u: &Unit) -> bool {
        let map = self.map();
        terrain::area(map.terrain(u.hex)).is_some()
            || u.dug_in
            || Facing::ALL.into_iter().any(|f| {
                terrain::screens(map.hexside(u.hex, volley_core::geometry::step(u.hex, f)))
            })
    }

    /// The markers `viewer` sees: one in each hex holding units hidden from it, named by the
    /// hex alone.
    pub fn markers(&self, viewer: Option<Side>) -> Vec<volley_core::view::MarkerView> {
        let mut out: Vec<volley_core::view::MarkerView> = Vec::new();
        let mut at: Vec<(String, Side, Hex)> = (0..self.units.len())
            .filter(|&k| self.hidden_from_view(k, viewer))
            .map(|k| {
                (
                    label(self.units[k].hex),
                    self.units[k].side,
                    self.units[k].hex,
                )
            })
            .collect();
        at.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        at.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        for (l, side, hex) in at {
            out.push(volley_core::view::MarkerView {
                id: format!("marker-{}-{l}", side.name()),
                side,
                place: volley_core::Place::Hex(hex),
            });
        }
        out
    }

    /// After a command roll for `unit`: scouting cavalry whose order passed are free from now on.
    pub fn free_scouts(&mut self, unit: usize) {
        let u = &mut self.units[unit];
        if u.traits.scout && u.actions > 0 {
            u.scout_free = true;
        }
    }

    /// Shows a hidden unit to the enemy.
    pub fn reveal(&mut self, unit: usize, why: &str, log: &mut Log) {
        self.units[unit].hidden = false;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "spotted",
                rule("the hidden set-up"),
                format!("{} at {} {why}", u.label(), label(u.hex)),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// Scouting cavalry touched by enemy troops retire from the battle.
    fn scouts_retire(&mut self, log: &mut Log) {
        for k in 0..self.units.len() {
            let u = &self.units[k];
            if !u.traits.scout || u.ko {
                continue;
            }
            let touched = self
                .units
                .iter()
                .any(|e| !e.ko && e.side != u.side && !e.is_hq() && distance(e.hex, u.hex) <= 1);
            if touched {
                self.retire_scout(k, "enemy troops touch it", log);
            }
        }
    }

    /// A scouting stand leaves the table: out of the battle, but not lost.
    pub fn retire_scout(&mut self, unit: usize, why: &str, log: &mut Log) {
        let mut quiet = Log::silent();
        self.knock_out(unit, why, &mut quiet);
        self.units[unit].retired = true;
        self.units[unit].hidden = false;
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                "retired",
                rule("fired on or touched"),
                format!(
                    "{} retires out of danger ({why}); it is not counted as lost",
                    u.label()
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// The position as `side` might believe it: the hexes holding units hidden from it are
    /// dealt out afresh among those units, each group of units sharing a hex moving together
    /// and keeping its facings. Only what `side` cannot see changes.
    pub fn determinized(&self, side: Side, dice: &mut dyn Dice) -> BptGame {
        let mut out = self.clone();
        // Groups of hidden units by hex, in an order that does not depend on the hexes.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut spots: Vec<Hex> = Vec::new();
        for k in 0..self.units.len() {
            if !self.hidden_from(k, side) {
                continue;
            }
            let h = self.units[k].hex;
            match spots.iter().position(|&s| s == h) {
                Some(i) => groups[i].push(k),
                None => {
                    spots.push(h);
                    groups.push(vec![k]);
                }
            }
        }
        if groups.is_empty() {
            return out;
        }
        // A hex shared with a unit the side sees cannot take a group with a unit in it.
        groups.sort_by_key(|g| g.iter().map(|&k| self.units[k].id.to_string()).min());
        spots.sort_by_key(|h| label(*h));
        for i in (1..spots.len()).rev() {
            let j = dice.roll(i as u32 + 1) as usize - 1;
            spots.swap(i, j);
        }
        let ground = self.ground();
        let fits = |g: &[usize], h: Hex| {
            g.iter().all(|&k| {
                let u = &self.units[k];
                ground.passable(h, u)
                    && (u.is_hq() || self.occupant(h).is_none_or(|o| self.hidden_from(o, side)))
            })
        };
        let stacks = |g: &[usize], h: Hex| {
            g.iter().all(|&k| {
                self.units[k].is_hq() || self.occupant(h).is_none_or(|o| self.hidden_from(o, side))
            })
        };
        let mut free: Vec<Hex> = spots;
        let mut placed: Vec<(usize, Hex)> = Vec::new();
        for g in &groups {
            // Where no hex left suits the group, it stays where it is (its own hex is always
            // among the free ones then, as every other group found one).
            let own = self.units[g[0]].hex;
            let i = free
                .iter()
                .position(|&h| fits(g, h))
                .or_else(|| free.iter().position(|&h| stacks(g, h)))
                .or_else(|| free.iter().position(|&h| h == own))
                .unwrap_or(0);
            let h = free.remove(i);
            for &k in g {
                placed.push((k, h));
            }
        }
        // Empty the hexes first, then place, so no two units meet on the way.
        for &(k, _) in &placed {
            out.lift(k);
        }
        for (k, h) in placed {
            out.relocate(k, h);
        }
        out
    }
}
