//! The legal actions of every unit of the side to decide, kept from one action to the next:
//! after an action only the units near what changed are listed again, so a decision costs
//! the same in a corps battle as in a brigade fight.
//!
//! Chapters and effects note what they change ([`Changes`]): a unit's state, or what stands
//! in a hex. What a note reaches depends on the phase:
//! - in movement and melee, a unit's steps and melee targets are its neighbouring hexes
//!   (light infantry also look through a friend to the hex beyond, 5 f): a change of what
//!   stands in a hex refreshes the side's units beside it (light infantry within two); a
//!   unit's own change (facing, hits, fatigue, melee, rout…) can also move its zone of
//!   control, which only blocks the units that may not melee (5.2; guns pushed by hand
//!   included), so it refreshes those within two hexes and the rest beside it;
//! - in a fire phase, a unit's shots depend on everything in range and on the lines of sight
//!   to it: a change of place refreshes the side's units within the longest range of any
//!   unit of the scenario ([`crate::state::Setup::fire_reach`]); a change of
//!   state refreshes that unit and the units that list it as a target (the ganging-up rule
//!   counts shots already taken at it);
//! - a new phase or turn changes everything.
//!
//! Attaching commanders (section 6) is kept apart: every unit that may take a commander may
//! take any ready one, so those actions are made from the list of ready commanders and a
//! flag per unit, and a commander attaching (or falling) changes one unit, not every list.
//!
//! The invariant check compares the kept listing with a fresh one after every action of the
//! every-ruleset test, so a change that is not noted is caught.

use crate::legal::{decider, unit_legal};
use crate::orders::{HcAction, Sink};
use crate::state::{Changes, Phase, State};
use crate::units::Arm;
use crate::{effects, movement};
use volley_core::codec::Codec;
use volley_core::{Action, Hex, Side};

/// Actions kept per unit; a unit with more is listed afresh when asked.
pub const SLOT: usize = 24;
const OVERFLOW: u8 = u8::MAX;
/// How far a change in movement or melee reaches at most (see the module's notes): a zone of
/// control lies one hex out, and blocks a step one hex further.
pub const NEAR: u32 = 2;

/// A unit's own actions: everything it may do but take a commander (with ethnic commanders,
/// 2 f, not every commander may join every unit: then the attachments are the unit's own).
fn own_legal(s: &State, i: usize, out: &mut impl Sink) {
    if s.phase == Phase::Movement {
        if s.setup.nations {
            movement::commanders_for(s, i, out);
        }
        movement::unit_moves(s, i, out);
    } else {
        unit_legal(s, i, out);
    }
}

/// The kept listing.
#[derive(Clone, Debug)]
pub struct Listing {
    /// Each unit's actions but attachments (the first [`SLOT`] of them), how many are kept
    /// ([`OVERFLOW`]: too many, listed afresh when asked), how many it has, and their sum.
    slots: Vec<[Action; SLOT]>,
    lens: Vec<u8>,
    counts: Vec<u16>,
    own_total: usize,
    /// Units that may take a commander now, how many, and the commanders ready to join one.
    joinable: Vec<bool>,
    joinable_count: usize,
    ready: Vec<u16>,
    /// The side whose units are listed (`None` when nobody decides), and in what phase.
    side: Option<Side>,
    phase: Phase,
}

/// Writes a unit's actions into its slot.
struct Slot<'a> {
    slot: &'a mut [Action; SLOT],
    n: usize,
}

impl Sink for Slot<'_> {
    fn put(&mut self, a: HcAction) {
        if self.n < SLOT {
            self.slot[self.n] = a.pack();
        }
        self.n += 1;
    }
}

impl Listing {
    /// The listing of a position, made from scratch.
    pub fn of(s: &State) -> Listing {
        let n = s.units.len();
        let mut l = Listing {
            slots: vec![[Action(0); SLOT]; n],
            lens: vec![0; n],
            counts: vec![0; n],
            own_total: 0,
            joinable: vec![false; n],
            joinable_count: 0,
            ready: Vec::new(),
            side: None,
            phase: s.phase,
        };
        l.refresh_all(s);
        l
    }

    fn refresh_all(&mut self, s: &State) {
        self.side = decider(s);
        self.phase = s.phase;
        self.refresh_ready(s);
        for i in 0..s.units.len() {
            self.refresh(s, i);
        }
    }

    fn refresh_ready(&mut self, s: &State) {
        self.ready.clear();
        if s.phase == Phase::Movement && !s.setup.nations {
            self.ready
                .extend(movement::ready_commanders(s).map(|c| c as u16));
        }
    }

    fn refresh(&mut self, s: &State, i: usize) {
        let joinable =
            s.phase == Phase::Movement && self.side.is_some() && movement::may_join(s, i);
        if joinable != self.joinable[i] {
            self.joinable[i] = joinable;
            if joinable {
                self.joinable_count += 1;
            } else {
                self.joinable_count -= 1;
            }
        }
        let n = if Some(s.units[i].side) != self.side {
            0
        } else {
            let mut slot = Slot {
                slot: &mut self.slots[i],
                n: 0,
            };
            own_legal(s, i, &mut slot);
            slot.n
        };
        self.lens[i] = if n > SLOT { OVERFLOW } else { n as u8 };
        self.own_total = self.own_total - self.counts[i] as usize + n;
        self.counts[i] = n as u16;
    }

    /// Brings the listing up to date with `changes`, those noted since it was made or last
    /// brought up to date, on the position as it stands after them.
    pub fn update(&mut self, s: &State, changes: Changes) {
        self.refresh_ready(s);
        if changes.everything
            || s.phase != self.phase
            || decider(s) != self.side
            || !matches!(s.phase, Phase::Movement | Phase::Melee | Phase::Fire)
        {
            self.refresh_all(s);
            return;
        }
        let side = self.side.expect("a phase with a side to decide");
        let fire = s.phase == Phase::Fire;
        let reach = s.setup.fire_reach;
        let mut dirty: Vec<usize> = Vec::new();
        let mut places = changes.places;
        places.sort_unstable_by_key(|h| (h.x, h.y));
        places.dedup();
        if fire {
            if places.is_empty() {
                // Nothing moved: only the shooters of what was hit, below.
            } else {
                dirty.extend((0..s.units.len()).filter(|&k| {
                    let u = &s.units[k];
                    u.side == side
                        && u.active()
                        && places
                            .iter()
                            .any(|&h| u.hex.unsigned_distance_to(h) <= reach)
                }));
            }
        } else {
            // A unit of this arm is blocked by zones of control (5.2), or pushes guns.
            let zone_bound = |k: usize| !effects::moving_arm(&s.units[k]).can_melee();
            let light = |k: usize| s.units[k].arm == Arm::LightInfantry;
            // How far each kind of change reaches unit `k`.
            let reached = |k: usize, hex: Hex, far: &dyn Fn(usize) -> bool| {
                let d = s.units[k].hex.unsigned_distance_to(hex);
                d <= 1 || (d <= NEAR && far(k))
            };
            // Each hex searched once, for whatever changed there.
            let mut centres: Vec<(Hex, bool, bool)> = places
                .iter()
                .map(|&h| (h, true, false))
                .chain(changes.units.iter().map(|&(_, h)| (h, false, true)))
                .collect();
            centres.sort_unstable_by_key(|&(h, _, _)| (h.x, h.y));
            centres.dedup_by(|b, a| {
                let same = a.0 == b.0;
                if same {
                    a.1 |= b.1;
                    a.2 |= b.2;
                }
                same
            });
            let hit = |k: usize, &(hex, place, unit): &(Hex, bool, bool)| {
                (place && reached(k, hex, &light)) || (unit && reached(k, hex, &zone_bound))
            };
            let searches = centres.len() as u32 * 3 * NEAR * (NEAR + 1);
            if searches > s.units.len() as u32 {
                // Fewer units than hexes to search around: one look at each unit.
                dirty.extend((0..s.units.len()).filter(|&k| {
                    s.units[k].side == side
                        && s.units[k].active()
                        && centres.iter().any(|c| hit(k, c))
                }));
            } else {
                for &(hex, place, unit) in &centres {
                    s.near_cells(hex, NEAR, Some(side), |k, d| {
                        let far = (place && light(k)) || (unit && zone_bound(k));
                        if d <= 1 || far {
                            dirty.push(k);
                        }
                    });
                }
            }
        }
        for &(j, hex) in &changes.units {
            dirty.push(j);
            if !fire {
                continue;
            }
            // The shooters that list it as a target, with their own weapons or with guns
            // they captured (a scan of the kept lists, which in a fire phase hold a few
            // shots a unit).
            let targets = [
                HcAction::Fire {
                    unit: 0,
                    target: hex,
                },
                HcAction::GunFire {
                    unit: 0,
                    target: hex,
                },
            ]
            .map(|a| a.pack().0);
            let mask = !(0xffff_u64 << 32);
            dirty.extend((0..self.lens.len()).filter(|&k| {
                let n = self.lens[k];
                n == OVERFLOW
                    || self.slots[k][..n as usize]
                        .iter()
                        .any(|a| targets.contains(&(a.0 & mask)))
            }));
        }
        dirty.sort_unstable();
        dirty.dedup();
        for k in dirty {
            self.refresh(s, k);
        }
    }

    /// The commanders that may join unit `i` now.
    fn attachments(&self, i: usize) -> usize {
        if self.joinable.get(i) == Some(&true) {
            self.ready.len()
        } else {
            0
        }
    }

    fn attach(&self, i: usize, k: usize) -> Action {
        HcAction::Attach {
            commander: self.ready[k],
            unit: i as u16,
        }
        .pack()
    }

    /// Unit `i`'s actions: the commanders that may join it, then its own.
    pub fn unit(&self, s: &State, i: usize, out: &mut Vec<Action>) {
        out.extend((0..self.attachments(i)).map(|k| self.attach(i, k)));
        match self.lens.get(i) {
            None | Some(0) => {}
            Some(&OVERFLOW) => own_legal(s, i, out),
            Some(&n) => out.extend_from_slice(&self.slots[i][..n as usize]),
        }
    }

    /// Whether `a` is among unit `i`'s actions.
    pub fn has(&self, s: &State, i: usize, a: HcAction) -> bool {
        if let HcAction::Attach { commander, .. } = a {
            return self.attachments(i) > 0 && self.ready.contains(&commander);
        }
        let a = a.pack();
        match self.lens.get(i) {
            None => false,
            Some(&OVERFLOW) => {
                let mut all = Vec::new();
                own_legal(s, i, &mut all);
                all.contains(&a)
            }
            Some(&n) => self.slots[i][..n as usize].contains(&a),
        }
    }

    /// The `k`-th of unit `i`'s actions, in the order of [`Listing::unit`].
    pub fn nth(&self, s: &State, i: usize, k: usize) -> Option<Action> {
        let a = self.attachments(i);
        if k < a {
            return Some(self.attach(i, k));
        }
        let k = k - a;
        match self.lens.get(i) {
            Some(&OVERFLOW) => {
                let mut all = Vec::new();
                own_legal(s, i, &mut all);
                all.get(k).copied()
            }
            Some(&n) if k < n as usize => Some(self.slots[i][k]),
            _ => None,
        }
    }

    /// How many actions unit `i` has.
    pub fn count(&self, i: usize) -> usize {
        self.attachments(i) + self.counts.get(i).map_or(0, |&n| n as usize)
    }

    /// How many actions all the units have.
    pub fn total(&self) -> usize {
        self.own_total + self.ready.len() * self.joinable_count
    }

    /// The unit whose actions hold the `k`-th of all (in unit order), and where among its.
    pub fn locate(&self, mut k: usize) -> Option<(usize, usize)> {
        let r = self.ready.len();
        for (i, (&n, &j)) in self.counts.iter().zip(&self.joinable).enumerate() {
            let here = n as usize + if j { r } else { 0 };
            if k < here {
                return Some((i, k));
            }
            k -= here;
        }
        None
    }

    /// Whether any unit has an action.
    pub fn any(&self) -> bool {
        self.total() > 0
    }

    /// Whether this listing agrees with a fresh one (for the invariant check).
    pub fn agrees_with(&self, fresh: &Listing) -> bool {
        self.side == fresh.side
            && self.phase == fresh.phase
            && self.joinable == fresh.joinable
            && self.joinable_count == fresh.joinable_count
            && self.ready == fresh.ready
            && self.lens == fresh.lens
            && self.counts == fresh.counts
            && self.own_total == fresh.own_total
            && self
                .slots
                .iter()
                .zip(&fresh.slots)
                .zip(&self.lens)
                .all(|((a, b), &n)| n == OVERFLOW || a[..n as usize] == b[..n as usize])
    }
}
