//! PRONE MOVEMENT (optional rule): by an order, foot lie down and take one hit fewer from
//! each unit firing at them. Prone in skirmish order (extended line) they may still fire but
//! not move; prone in close order they may neither fire nor move. Another order stands them
//! up. The hit saved is in `firing.rs` (`resolve_attack`, `attack_classes`), the lost fire in
//! `may_fire`, the lost move in `movement.rs` `allowance_cm`.

use crate::state::{rule, BptGame};
use crate::troops::{Arm, Formation, Unit};
use volley_core::game::Refusal;
use volley_core::{Event, Log};

impl Unit {
    /// Skirmish order, as the prone rule tells it from close order: extended line.
    pub fn skirmish_order(&self) -> bool {
        self.formed_troops() && self.formation == Formation::ExtendedLine
    }
}

impl BptGame {
    /// Why `unit` may not go prone (`down`) or rise, if it may not.
    pub fn check_prone<R: Refusal>(&self, unit: usize, down: bool) -> Result<(), R> {
        let u = &self.units[unit];
        if !self.table().prone {
            return Err(R::because(|| {
                "the prone movement rule is not in play (option prone)"
            }));
        }
        if u.arm != Arm::Infantry {
            return Err(R::because(|| {
                format!("{} cannot go prone: foot only", u.label())
            }));
        }
        match (down, u.prone) {
            (true, true) => Err(R::because(|| format!("{} is already prone", u.label()))),
            (false, false) => Err(R::because(|| format!("{} is not prone", u.label()))),
            (true, false) if u.formation == Formation::Square => Err(R::because(|| {
                format!("{} is in square: a square does not lie down", u.label())
            })),
            _ => Ok(()),
        }
    }

    pub fn go_prone(&mut self, unit: usize, down: bool, log: &mut Log) {
        self.units[unit].prone = down;
        let u = &self.units[unit];
        let what = match (down, u.skirmish_order()) {
            (false, _) => "stands up".to_string(),
            (true, true) => {
                "goes prone in skirmish order: it may fire but not move, and takes one hit fewer from each unit firing at it".to_string()
            }
            (true, false) => {
                "goes prone in close order: it may neither fire nor move, and takes one hit fewer from each unit firing at it".to_string()
            }
        };
        log.add(|| {
            Event::new(
                "prone",
                rule("Prone Movement"),
                format!("{} {what}", u.label()),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }
}
