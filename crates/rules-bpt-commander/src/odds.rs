//! Exact odds of an order ("what are my odds?"), worked out analytically however many dice
//! are rolled. A charge: each round's hits by the binomial law, the saves likewise, then the
//! outcome table; rounds fought at equal hits follow one another from the hits the units have
//! then. Paths that leave the units with the same hits lead to the same outcome, so they are
//! merged, and one sequence of dice stands for each. A fire order ([`BptGame::fire_cases`]):
//! hits, saves, then the suppression test or the fall-back. An action that is its own order:
//! the command roll's classes (blunders included), each followed by the action's.

use crate::charge::MAX_ROUNDS;
use crate::orders::{Ammo, Order};
use crate::state::{BptGame, Interrupt, Phase};
use crate::table::Table;
use crate::terrain::Cover;
use crate::troops::{Arm, Formation};
use std::collections::BTreeMap;
use volley_core::codec::Codec;
use volley_core::geometry::Aspect;
use volley_core::odds::OddsCase;
use volley_core::{chance, Dice, Game, Log, ScriptedDice};

/// Net hits one side's attack in a round puts on the other: each class with its chance and
/// its dice (attack dice, then the save dice if any).
fn net_hits(
    game: &BptGame,
    target: usize,
    dice: u32,
    to_hit: u32,
    flank: bool,
) -> Vec<(u32, f64, Vec<u32>)> {
    let mut by_net: BTreeMap<u32, (f64, Vec<u32>)> = BTreeMap::new();
    for (k, pk) in chance::binomial(dice, chance::d6_at_least(to_hit))
        .into_iter()
        .enumerate()
    {
        let k = k as u32;
        let head = chance::dice_for_count(dice, k, to_hit);
        match game.saves(target, k, flank, false) {
            None => {
                let e = by_net.entry(k).or_insert((0.0, head.clone()));
                e.0 += pk;
            }
            Some((sv, m)) => {
                for (s, ps) in chance::binomial(m, chance::d6_at_least(sv))
                    .into_iter()
                    .enumerate()
                {
                    let s = s as u32;
                    let net = k - s.min(k);
                    let mut d = head.clone();
                    d.extend(chance::dice_for_count(m, s, sv));
                    let e = by_net.entry(net).or_insert((0.0, d));
                    e.0 += pk * ps;
                }
            }
        }
    }
    by_net.into_iter().map(|(n, (p, d))| (n, p, d)).collect()
}

impl BptGame {
    /// The outcome classes of a charge whose combat is settled in the preview (the charged
    /// side not answering, no supports): `None` where the charge's own order is rolled with
    /// it, or the charge would not come to combat.
    pub fn charge_cases(&self, o: Order) -> Option<Vec<OddsCase>> {
        let Order::Charge { .. } = o else { return None };
        if self.check_order::<()>(o).is_err() {
            return None;
        }
        // Play the charge up to its combat, with no dice at all.
        let mut g = self.clone();
        g.hold_resolution = true;
        let mut none = ScriptedDice::tolerant(Vec::<u32>::new());
        g.apply(o.pack(), &mut none).ok()?;
        let mut events = Vec::new();
        g.answer_charge_for_preview(&mut none, &mut events);
        if none.fault().is_some() {
            return None;
        }
        let Some(c) = g.charge.clone() else {
            // No combat (the charge failed to close): nothing is rolled.
            return Some(vec![OddsCase {
                probability: 1.0,
                dice: Vec::new(),
            }]);
        };
        let (a, d) = (c.charger, c.target);
        let side_a = g.units[a].side;
        let sup_a = c.supporters[side_a.index()].len();
        let sup_d = c.supporters[side_a.other().index()].len();
        let sup_hits = |units: &[usize]| units.iter().map(|&k| g.units[k].turn_hits).sum::<u32>();
        let (extra_a, extra_d) = (
            sup_hits(&c.supporters[side_a.index()]),
            sup_hits(&c.supporters[side_a.other().index()]),
        );
        let ex = g.table().exhaustion_hit;
        let (cap_a, cap_d) = (g.units[a].capacity(ex), g.units[d].capacity(ex));

        let flank = g.aspect_of(d, a) != Aspect::Front
            || (g.units[d].formed_troops() && g.units[d].formation == Formation::MarchColumn);
        let round_params = |round: u32| {
            let (ad, _) = g.charge_dice(a, d, true, sup_a, false, round);
            let (dd, _) = g.charge_dice(d, a, c.counter, sup_d, flank, round);
            let cover = if round == 1 {
                g.first_round_cover(d, a)
            } else {
                Cover::Open
            };
            (
                net_hits(&g, d, ad, g.charge_to_hit(d, cover.to_hit()), flank),
                net_hits(&g, a, dd, g.charge_to_hit(a, 4), false),
            )
        };
        // States at the start of a round: the contact units' hits this turn.
        let mut frontier: BTreeMap<(u32, u32), (f64, Vec<u32>)> = BTreeMap::new();
        frontier.insert(
            (g.units[a].turn_hits, g.units[d].turn_hits),
            (1.0, Vec::new()),
        );
        let mut ends: BTreeMap<(u32, u32, bool), (f64, Vec<u32>)> = BTreeMap::new();
        for round in 1..=MAX_ROUNDS {
            if frontier.is_empty() {
                break;
            }
            let (on_d, on_a) = round_params(round);
            let mut next: BTreeMap<(u32, u32), (f64, Vec<u32>)> = BTreeMap::new();
            for ((ta, td), (p, path)) in std::mem::take(&mut frontier) {
                for (nd, pd, dice_d) in &on_d {
                    for (na, pa, dice_a) in &on_a {
                        let q = p * pd * pa;
                        let (ta2, td2) = (ta + na, td + nd);
                        let alive = ta2 < cap_a && td2 < cap_d;
                        let tie = ta2 + extra_a == td2 + extra_d;
                        let mut way = path.clone();
                        way.extend(dice_d);
                        way.extend(dice_a);
                        if tie && alive && round < MAX_ROUNDS {
                            let e = next.entry((ta2, td2)).or_insert((0.0, way));
                            e.0 += q;
                        } else {
                            let e = ends.entry((ta2, td2, tie && alive)).or_insert((0.0, way));
                            e.0 += q;
                        }
                    }
                }
            }
            frontier = next;
        }
        Some(
            ends.into_values()
                .map(|(probability, dice)| OddsCase { probability, dice })
                .collect(),
        )
    }
}

#[allow(dead_code)]
fn _uses(_: &mut dyn Dice) {}

/// A case of a command roll put in front of the cases of what follows it.
fn prefixed(prefix: &[u32], p: f64, rest: Vec<OddsCase>) -> impl Iterator<Item = OddsCase> + '_ {
    rest.into_iter().map(move |c| {
        let mut dice = prefix.to_vec();
        dice.extend(c.dice);
        OddsCase {
            probability: p * c.probability,
            dice,
        }
    })
}

impl BptGame {
    /// The outcome classes of an action that is its own order: the command roll's classes
    /// (issued, issued with the bonus, failed, blundered — each blunder of the table with its
    /// own dice) each followed by what the action then rolls. `None` where a part of it must be
    /// walked instead.
    pub fn own_order_cases(&self, o: Order) -> Option<Vec<OddsCase>> {
        let unit = o.actor()?;
        if self.phase != Phase::Command || self.interrupt.is_some() || self.units[unit].actions != 0
        {
            return None;
        }
        if self.check_order::<()>(o).is_err() {
            return None;
        }
        let hq = self.implicit_hq(unit)?;
        let charge = matches!(o, Order::Charge { target, .. } if self.within(unit, target, self.table().charge_penalty_cm));
        let stop = match o {
            Order::Move { to, .. } => self.check_move::<()>(unit, to).ok(),
            _ => None,
        };
        let dense = stop.is_some_and(|s| s.dense);
        let road = stop.is_some_and(|s| s.road);
        let rolled = |pair: [u32; 2], hold: bool| {
            let mut g = self.clone();
            g.joined.clear();
            g.road_order = road;
            g.hold_blunder = hold;
            g.command_roll(
                hq,
                unit,
                charge,
                dense,
                &mut ScriptedDice::tolerant(pair),
                &mut volley_core::Log::silent(),
            );
            g.road_order = false;
            g.hold_blunder = false;
            g
        };
        let mut probe = self.clone();
        probe.joined.clear();
        probe.road_order = road;
        let v = probe.command_value(hq, &[unit], charge, dense).value;
        let pairs: Vec<[u32; 2]> = (1..=6).flat_map(|a| (1..=6).map(move |b| [a, b])).collect();
        let special = |p: &[u32; 2]| *p == [1, 1] || *p == [6, 6];
        let issued: Vec<[u32; 2]> = pairs
            .iter()
            .copied()
            .filter(|p| !special(p) && (p[0] + p[1]) as i32 <= v)
            .collect();
        let failed: Vec<[u32; 2]> = pairs
            .iter()
            .copied()
            .filter(|p| !special(p) && (p[0] + p[1]) as i32 > v)
            .collect();
        let what_follows = |g: &BptGame| -> Option<Vec<OddsCase>> {
            match o {
                Order::Fire { .. } => g.fire_cases(o),
                Order::Charge { .. } => g.charge_cases(o),
                _ => Some(vec![OddsCase {
                    probability: 1.0,
                    dice: Vec::new(),
                }]),
            }
        };
        let mut out = Vec::new();
        if let Some(&pair) = issued.first() {
            let p = issued.len() as f64 / 36.0;
            out.extend(prefixed(&pair, p, what_follows(&rolled(pair, false))?).collect::<Vec<_>>());
        }
        out.extend(
            prefixed(&[1, 1], 1.0 / 36.0, what_follows(&rolled([1, 1], false))?)
                .collect::<Vec<_>>(),
        );
        if let Some(&pair) = failed.first() {
            out.push(OddsCase {
                probability: failed.len() as f64 / 36.0,
                dice: pair.to_vec(),
            });
        }
        let g = rolled([6, 6], true);
        let blunder = g.blunder_cases(hq, unit)?;
        out.extend(prefixed(&[6, 6], 1.0 / 36.0, blunder).collect::<Vec<_>>());
        Some(out)
    }

    /// The blunder table's classes, from the position just after the failed roll: its d6, and
    /// the dice each result rolls.
    fn blunder_cases(&self, hq: usize, unit: usize) -> Option<Vec<OddsCase>> {
        let id = self.attack_seq + 1;
        let sixth = 1.0 / 6.0;
        let mut out = Vec::new();
        for r in 1..=6u32 {
            match r {
                1 => {
                    for n in 1..=6u32 {
                        let classes = self.attack_classes(hq, n, 6, false, true, id, None);
                        out.extend(prefixed(&[1, n], sixth * sixth, classes).collect::<Vec<_>>());
                    }
                }
                2 => {
                    // The three attacks follow one another, and each can change the next
                    // one's target: a fall-back halted by a friend suppresses that friend,
                    // who then tests no more; one that moves it changes its cover. So each
                    // class is played on its own copy of the game before the next attack's
                    // classes are taken from that copy.
                    //
                    // The blunder has drawn its attack number by now (a friend that halts
                    // a fall-back is suppressed under it).
                    let mut start = self.clone();
                    start.attack_seq = id;
                    let mut acc = vec![(
                        start,
                        OddsCase {
                            probability: 1.0,
                            dice: vec![2],
                        },
                    )];
                    for k in self.nearest_three(hq) {
                        let mut next = Vec::new();
                        for (g, case) in &acc {
                            let a = g.cross_fire(hq, k, id);
                            let classes = g.attack_classes(
                                k,
                                a.dice,
                                a.to_hit,
                                a.flank,
                                a.ranged,
                                id,
                                a.cover_save,
                            );
                            for c in classes {
                                let mut after = g.clone();
                                let mut dice = ScriptedDice::tolerant(c.dice.clone());
                                after.resolve_attack(
                                    k,
                                    &a,
                                    &mut dice,
                                    &mut volley_core::Log::silent(),
                                );
                                if dice.fault().is_some() {
                                    return None;
                                }
                                let mut way = case.dice.clone();
                                way.extend(c.dice);
                                next.push((
                                    after,
                                    OddsCase {
                                        probability: case.probability * c.probability,
                                        dice: way,
                                    },
                                ));
                            }
                        }
                        acc = next;
                    }
                    out.extend(acc.into_iter().map(|(_, c)| OddsCase {
                        probability: c.probability * sixth,
                        dice: c.dice,
                    }));
                }
                5 => {
                    let u = &self.units[unit];
                    let target = (!u.ko && !u.is_suppressed())
                        .then(|| {
                            self.nearest_visible_enemies(unit).into_iter().find(|&e| {
                                self.check_shot::<()>(unit, e, self.default_ammo(unit))
                                    .is_ok()
                            })
                        })
                        .flatten();
                    match target {
                        None => out.push(OddsCase {
                            probability: sixth,
                            dice: vec![5],
                        }),
                        Some(e) => {
                            // Round shot going on, shell and a regiment's own guns: enumerated.
                            if self.units[unit].arm == Arm::Artillery
                                && (self.lobs(unit, e)
                                    || !self.round_shot_path(unit, self.units[e].hex).is_empty())
                            {
                                return None;
                            }
                            if self.units[unit].regimental_guns > 0 {
                                return None;
                            }
                            let mut probe = self.clone();
                            probe.force_square(e, &mut volley_core::Log::silent());
                            if probe.units[e].formation != self.units[e].formation {
                                return None;
                            }
                            let (n, _) = self.fire_dice(unit, e);
                            let (t, _) = self.to_hit(unit, e);
                            let classes = self.attack_classes(
                                e,
                                n,
                                t,
                                self.flank_shot(e, unit),
                                true,
                                id,
                                None,
                            );
                            out.extend(prefixed(&[5], sixth, classes).collect::<Vec<_>>());
                        }
                    }
                }
                _ => out.push(OddsCase {
                    probability: sixth,
                    dice: vec![r],
                }),
            }
        }
        Some(out)
    }
}

impl BptGame {
    /// The exact outcome classes of a simple fire order ("what are my odds?"): hits by the
    /// binomial law, saves likewise, then the suppression test or the fall-back sum; shell with
    /// its deviation likewise ([`BptGame::shell_cases`]). Round shot that may go on through,
    /// a regiment's own howitzers firing after it, canister, bursts on two units and forced
    /// squares are left to the enumeration.
    pub fn fire_cases(&self, o: Order) -> Option<Vec<OddsCase>> {
        let Order::Fire { unit, target, ammo } = o else {
            return None;
        };
        if ammo == Ammo::Canister {
            return None;
        }
        // An answer to a charge goes on into the charge itself: enumerated.
        if self.check_order::<()>(o).is_err() || self.interrupt == Some(Interrupt::Response) {
            return None;
        }
        // Scouting cavalry fired on ride off before a die is rolled: one sure outcome.
        if self.units[target].traits.scout {
            return Some(vec![OddsCase {
                probability: 1.0,
                dice: Vec::new(),
            }]);
        }
        // A Gatling gun's jam depends on the dice themselves, not on their count; guns firing
        // at troops in a construction roll against it too: enumerated.
        if self.units[unit].traits.gatling
            || (self.units[unit].arm == Arm::Artillery
                && self.table().constructions
                && self
                    .work_at(self.units[target].hex)
                    .is_some_and(|w| w.kind.construction().is_some()))
        {
            return None;
        }
        if ammo == Ammo::Normal && self.units[unit].arm == Arm::Artillery {
            // Round shot going on into a unit behind the target rolls again: enumerated.
            if !self
                .round_shot_path(unit, self.units[target].hex)
                .is_empty()
            {
                return None;
            }
        }
        let mut probe = self.clone();
        probe.force_square(target, &mut Log::silent());
        if probe.units[target].formation != self.units[target].formation {
            return None;
        }
        if ammo == Ammo::Normal
            && self.units[unit].regimental_guns > 0
            && self.regimental_in_range(unit, self.units[target].hex)
        {
            return None;
        }
        let id = if self.phase == Phase::Command && self.interrupt.is_none() {
            self.order_id
        } else {
            self.attack_seq + 1
        };
        if ammo.is_shell() {
            return self.shell_cases(unit, target, ammo, id);
        }
        let (n, _) = self.fire_dice(unit, target);
        let (t, _) = self.to_hit(unit, target);
        let flank = self.flank_shot(target, unit);
        Some(self.attack_classes(target, n, t, flank, true, id, None))
    }
}
