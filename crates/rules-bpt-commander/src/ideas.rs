//! MORE IDEAS: morale grades (optional), fixed formations (optional) and multi-national
//! armies. Multi-player battles and solo play need no rules of their own here: each side is
//! one seat (its players share it, or one plays the CO and passes the screen), and the
//! command rolls already give the uncertainty solo play relies on.

use crate::state::BptGame;
use volley_core::Illegal;
use crate::troops::Unit;

/// A unit's morale grade (the optional Morale rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Morale {
    Unmotivated,
    #[default]
    Regular,
    Motivated,
}

impl Morale {
    pub fn parse(text: &str) -> Option<Morale> {
        Some(match text {
            "unmotivated" => Morale::Unmotivated,
            "regular" => Morale::Regular,
            "motivated" => Morale::Motivated,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Morale::Unmotivated => "unmotivated",
            Morale::Regular => "regular",
            Morale::Motivated => "motivated",
        }
    }

    /// A suppression test die at or above this suppresses.
    pub fn suppressed_on(self) -> u32 {
        match self {
            Morale::Unmotivated => 4,
            Morale::Regular => 5,
            Morale::Motivated => 6,
        }
    }

    /// A fall-back longer than this (cm) knocks the unit out.
    pub fn fall_back_limit_cm(self) -> u32 {
        match self {
            Morale::Unmotivated => 5,
            Morale::Regular => 10,
            Morale::Motivated => 15,
        }
    }

    /// The score that hits the unit in a charge, where the grades decide it too.
    pub fn hit_in_charge_on(self) -> u32 {
        self.suppressed_on()
    }

    /// Points a stand, in percent of the list's (-25%, 0, +25%).
    pub fn points_percent(self) -> u32 {
        match self {
            Morale::Unmotivated => 75,
            Morale::Regular => 100,
            Morale::Motivated => 125,
        }
    }
}


/// How a scenario plays morale (option `morale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoraleRule {
    /// The book's suppression test (at the to-hit score) and 20 cm fall-back.
    #[default]
    Off,
    /// Grades replace the suppression score and the fall-back limit.
    Grades,
    /// As `Grades`, and the grade is also the score that hits the unit in a charge.
    GradesAndCharge,
}

impl MoraleRule {
    pub fn parse(text: &str) -> Option<MoraleRule> {
        Some(match text {
            "off" => MoraleRule::Off,
            "grades" => MoraleRule::Grades,
            "grades-and-charge" => MoraleRule::GradesAndCharge,
            _ => return None,
        })
    }
}

impl BptGame {
    /// Whether command unit `hq` may order `unit` at all: in a multi-national army only the
    /// commanding officer and command units of the unit's nation (or of a nation that trained
    /// it) may; with fixed formations only the unit's own command unit may.
    pub fn may_command(&self, hq: usize, unit: usize) -> Result<(), Illegal> {
        let (h, u) = (&self.units[hq], &self.units[unit]);
        if let Some(n) = u.nation {
            let own = h.nation == Some(n);
            let trained = h.nation.is_some_and(|m| u.trained_by & (1 << m) != 0);
            if !(h.co || own || trained) {
                let name = |k: Option<u8>| {
                    k.and_then(|k| self.setting.nations.get(k as usize))
                        .map_or("no nation".to_string(), |s| s.clone())
                };
                return Err(Illegal::new(format!(
                    "{} ({}) takes orders only from the commanding officer and {} command units, not from {} ({}) (Multi-National Armies)",
                    u.label(),
                    name(Some(n)),
                    name(Some(n)),
                    h.label(),
                    name(h.nation)
                )));
            }
        }
        if self.table().fixed_formations {
            if let Some(f) = u.formation_hq {
                if f as usize != hq {
                    return Err(Illegal::new(format!(
                        "{} belongs to {}'s formation and takes orders from it only (Fixed Formations)",
                        u.label(),
                        self.units[f as usize].label()
                    )));
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
