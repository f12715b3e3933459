//! Mounting and dismounting (the lists' dragoon and cavalry notes): a unit with a stat line for
//! its other mode switches between horse and foot by a deploy action (`dismount UNIT`,
//! `mount UNIT`) that needs an order. On foot one stand stays behind as the horse holders and
//! comes back when the unit mounts.

use crate::state::{rule, BptGame};
use crate::troops::{Arm, Formation, Mode};
use volley_core::game::Refusal;
use volley_core::{Event, Log};

impl BptGame {
    /// Why a unit may not mount (`mount`) or dismount now, if it may not.
    pub fn check_dismount<R: Refusal>(&self, unit: usize, mount: bool) -> Result<(), R> {
        let u = &self.units[unit];
        let Some(other) = u.other_mode else {
            return Err(R::because(|| {
                format!("{} has no other mode to change to", u.label())
            }));
        };
        let wants = if mount { Arm::Cavalry } else { Arm::Infantry };
        if other.arm != wants || u.arm == wants {
            return Err(R::because(|| {
                format!(
                    "{} is {} already",
                    u.label(),
                    if u.arm == Arm::Cavalry {
                        "mounted"
                    } else {
                        "on foot"
                    }
                )
            }));
        }
        if u.formation == Formation::Square || u.prone {
            return Err(R::because(|| format!("{} must form line first", u.label())));
        }
        Ok(())
    }

    pub fn dismount(&mut self, unit: usize, mount: bool, log: &mut Log) {
        let u = &mut self.units[unit];
        let now = Mode::of(u);
        let next = u.other_mode.expect("checked");
        u.other_mode = Some(now);
        u.arm = next.arm;
        u.move_cm = next.move_cm;
        u.dice = next.dice;
        u.range_cm = next.range_cm;
        u.save = next.save;
        u.hits_per_stand = next.hits;
        u.formation = Formation::Line;
        u.refused = 0;
        if mount {
            u.stands += u.holders;
            u.full_stands += u.holders;
            u.holders = 0;
        } else if u.stands > 1 {
            u.stands -= 1;
            u.full_stands = u.full_stands.saturating_sub(1).max(u.stands);
            u.holders = 1;
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                if mount { "mount" } else { "dismount" },
                rule("Army Lists"),
                if mount {
                    format!("{} mounts ({} stands)", u.label(), u.stands)
                } else {
                    format!(
                        "{} dismounts and fights on foot ({} stands, {} left with the horses)",
                        u.label(),
                        u.stands,
                        u.holders
                    )
                },
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }
}
