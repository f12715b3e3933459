//! Brigade Skirmishers: after 1760 the light companies of a brigade's battalions go forward
//! as a screen (two stands for every three infantry units of the brigade). On hexes a screen
//! belongs to the unit it covers (`skirmishers = N` stands in the scenario) and stands in its
//! hex, inside the 5 cm the book allows ahead of the formed troops. While the unit is in line,
//! attack column or extended line, fire at it loses a die for each firing unit (keeping one),
//! and its results fall on the skirmishers first: each skirmish stand takes the 2 hits of a
//! skirmisher stand before the formed unit is touched. Contacted by an enemy charge, the
//! skirmishers run back to their lines and are gone, without a penalty.

use crate::state::{rule, BptGame};
use crate::troops::{Formation, Unit};
use volley_core::{Event, Log};

/// Hits a skirmish stand takes before it is lost (the skirmishing infantry rows' 2).
pub const SCREEN_HITS: u32 = 2;

impl Unit {
    /// Whether the unit's skirmish screen is out: it has one, and is in line, attack column
    /// or extended line.
    pub fn screened(&self) -> bool {
        self.screen > 0
            && !self.ko
            && self.formed_troops()
            && matches!(
                self.formation,
                Formation::Line | Formation::AttackColumn | Formation::ExtendedLine
            )
    }

    /// Of `net` hits of one attack, those the screen takes (the rest reach the unit).
    pub fn screen_takes(&self, net: u32) -> u32 {
        if !self.screened() {
            return 0;
        }
        let room = (self.screen as u32 * SCREEN_HITS).saturating_sub(self.screen_hits as u32);
        net.min(room)
    }
}

impl BptGame {
    /// Puts the screen's share of `net` hits on it, losing a stand for every 2; returns the
    /// hits left for the formed unit.
    pub fn screen_absorbs(&mut self, target: usize, net: u32, log: &mut Log) -> u32 {
        let taken = self.units[target].screen_takes(net);
        if taken == 0 {
            return net;
        }
        let u = &mut self.units[target];
        let before = u.screen;
        u.screen_hits += taken as u8;
        let lost = (u.screen_hits as u32 / SCREEN_HITS) as u8;
        u.screen = u.screen.saturating_sub(lost);
        u.screen_hits -= lost * SCREEN_HITS as u8;
        let u = &self.units[target];
        log.add(|| {
            Event::new(
                "hit",
                rule("Brigade Skirmishers"),
                format!(
                    "{}'s skirmishers take {taken} hit{}{}",
                    u.label(),
                    if taken == 1 { "" } else { "s" },
                    if u.screen < before {
                        format!(": {} of {before} skirmish stands lost", before - u.screen)
                    } else {
                        String::new()
                    }
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
        net - taken
    }

    /// Contacted by an enemy charge, a unit's skirmishers run back to their lines.
    pub fn screen_flees(&mut self, target: usize, log: &mut Log) {
        if self.units[target].screen == 0 {
            return;
        }
        let u = &mut self.units[target];
        u.screen = 0;
        u.screen_hits = 0;
        let u = &self.units[target];
        log.add(|| {
            Event::new(
                "skirmishers",
                rule("Brigade Skirmishers"),
                format!("{}'s skirmishers run back to their lines", u.label()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }
}
