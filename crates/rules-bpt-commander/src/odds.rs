//! Exact odds of a charge ("what are my odds?"), worked out analytically however many dice
//! the two sides roll: each round's hits by the binomial law, the saves likewise, then the
//! outcome table; rounds fought at equal hits follow one another from the hits the units have
//! then. Paths that leave the units with the same hits lead to the same outcome, so they are
//! merged, and one sequence of dice stands for each.

use crate::charge::MAX_ROUNDS;
use crate::order::Order;
use crate::state::BptGame;
use crate::terrain::Cover;
use crate::troops::{Arm, Formation};
use std::collections::BTreeMap;
use volley_core::geometry::Aspect;
use volley_core::odds::OddsCase;
use volley_core::{chance, Dice, Game, ScriptedDice};

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
        if self.check(o).is_err() {
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
        use crate::table::Table;
        let flank = g.aspect_of(d, a) != Aspect::Front
            || (g.units[d].formed_troops() && g.units[d].formation == Formation::MarchColumn);
        let round_params = |round: u32| {
            let (ad, _) = g.charge_dice(a, d, true, sup_a, false, round);
            let (dd, _) = g.charge_dice(d, a, c.counter, sup_d, flank, round);
            let cover = if round == 1 {
                let mut cover = g.cover_against(d, a);
                let t = &g.units[d];
                if g.units[a].arm == Arm::Cavalry
                    && t.arm == Arm::Infantry
                    && t.formation == Formation::Square
                {
                    cover = cover.better();
                }
                cover
            } else {
                Cover::Open
            };
            (
                net_hits(&g, d, ad, cover.to_hit(), flank),
                net_hits(&g, a, dd, 4, false),
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
