//! Attacks, hits and saves, and the casualty pipeline every attack goes through — fire, shell
//! and charge alike ("Attacks, Hits & Saves", "Testing For Casualties", "Knock-Out",
//! "Suppression", "Fall-back"): the dice a unit rolls and what it needs to hit, the flank
//! shot, saves, hits held to the end phase, suppression, fall-back and the path it takes,
//! knock-out. The chapters that attack ([`crate::firing`], [`crate::artillery`],
//! [`crate::charge`]) use it; it uses none of them.

use crate::state::{rule, BptGame};
use crate::table::{facing_towards, Table, HEX_CM};
use crate::troops::{Arm, Formation};
use volley_core::geometry::Aspect;
use volley_core::odds::OddsCase;
use volley_core::{chance, Dice, Event, Hex, Log};

/// Ground given under fire or after a lost charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Giving {
    /// "Fall-back": away from the firer, turning to face it.
    FallBack,
    /// "Retreat": away from the enemy, facing unchanged; into suppressed friends both are lost.
    Retreat,
}

/// One attack on one unit, as "Testing For Casualties" resolves it.
#[derive(Clone, Debug)]
pub struct Attack {
    pub dice: u32,
    pub to_hit: u32,
    /// Against the flank or rear: saves one worse.
    pub flank: bool,
    /// Fire (squares have no saves against it) rather than a charge.
    pub ranged: bool,
    /// Where the nearest attacker stands, for a fall-back directly away from it.
    pub from: Hex,
    /// The attack's number: one order's (or initiative action's) attacks share it.
    pub id: u32,
    /// How the dice were reckoned, for the log.
    pub reckoning: String,
    /// A Gatling gun's fire: any double among the dice jams it and makes no attack.
    pub jams: bool,
    /// A save the target has at least against this attack, whatever its own (a mortar's
    /// shell over a wall: 4+).
    pub cover_save: Option<u32>,
}

/// What an attack did to its target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Struck {
    pub hits: u32,
    pub saved: u32,
    pub ko: bool,
    /// A Gatling gun jammed: no attack was made.
    pub jammed: bool,
    pub suppressed: bool,
    pub fell_back_cm: Option<u32>,
}

impl BptGame {
    /// Stands that fire in the unit's formation ("Movement Formations"): all in line and
    /// extended line, one from a march column, the two front stands of an attack column, one
    /// face of a square (a quarter of its stands), the guns of a battery.
    pub fn firing_stands(&self, unit: usize) -> u32 {
        let u = &self.units[unit];
        match (u.arm, u.formation) {
            (Arm::Artillery, _) => u.stands,
            (_, Formation::MarchColumn) => 1,
            (_, Formation::AttackColumn) => u.stands.min(2),
            (_, Formation::Square) => u.stands.div_ceil(4),
            _ => u.stands,
        }
    }

    /// The dice of a unit's fire at a target, with the modifiers in words ("Calculating
    /// Firing", "Firing Modifiers", "Command Presence").
    pub fn fire_dice(&self, unit: usize, target: usize) -> (u32, String) {
        let (u, t) = (&self.units[unit], &self.units[target]);
        let stands = self.firing_stands(unit);
        let base = (u.dice * stands) as i32;
        let mut words = vec![format!("{} × {stands} stands", u.dice)];
        let mut n = base;
        let mut add = |d: i32, why: &str| {
            n += d;
            words.push(format!("{d:+} {why}"));
        };
        if u.formation == Formation::ExtendedLine && u.formed_troops() {
            add(-1, "firing in extended line");
        }
        if t.formation == Formation::ExtendedLine && t.formed_troops() {
            add(-1, "target in extended line");
        }
        if !u.traits.no_half_range && self.within(unit, target, u.range_cm / 2) {
            add(1, "within half range");
        }
        if self.flank_shot(target, unit) {
            add(2, "at the flank or rear");
        }
        if t.formation == Formation::Square && t.arm == Arm::Infantry {
            match u.arm {
                Arm::Artillery => add(u.stands as i32, "artillery against a square"),
                Arm::Infantry => add(1, "infantry against a square"),
                _ => {}
            }
        }
        if u.disordered() {
            add(-2, "disordered");
            if u.exhausted && !self.table().exhaustion_hit {
                add(-1, "exhausted");
            }
        }
        let presence = self.presence(unit);
        if presence > 0 {
            add(presence as i32, "command presence");
        }
        if t.screened() {
            add(-1, "target screened by skirmishers");
        }
        if u.traits.extra_die {
            add(1, "an extra die (list note)");
        }
        (n.max(1) as u32, words.join(" "))
    }

    /// Dice a command unit touching (sharing the hex of) a unit adds to its attacks.
    pub fn presence(&self, unit: usize) -> u32 {
        let u = &self.units[unit];
        self.hqs_in(u.hex)
            .filter(|&h| self.units[h].side == u.side && !self.units[h].is_suppressed())
            .map(|h| self.units[h].presence)
            .max()
            .unwrap_or(0)
    }

    /// Whether fire from `attacker` takes `target` in the flank or rear: outside its front, or
    /// any fire at a march column ("March Column"). Command units have no flank.
    pub fn flank_shot(&self, target: usize, attacker: usize) -> bool {
        let t = &self.units[target];
        if t.is_hq() {
            return false;
        }
        (t.formed_troops() && t.formation == Formation::MarchColumn)
            || self.aspect_of(target, attacker) != Aspect::Front
    }

    /// The score to hit a target, and why ("Scoring Hits"): by its cover, command units on 6,
    /// smoothbore and rifled guns reading cover a step easier; the first fire of the battle
    /// +1 on each die where the option is on.
    pub fn to_hit(&self, unit: usize, target: usize) -> (u32, String) {
        let (u, t) = (&self.units[unit], &self.units[target]);
        if t.is_hq() {
            return (6, "a command unit, hit on 6".into());
        }
        let mut cover = self.cover_against(target, unit);
        if u.arm == Arm::Artillery && u.traits.cover_shift {
            cover = cover.easier();
        }
        let mut score = cover.to_hit();
        let mut why = format!("target {}", cover.name());
        if self.table().first_fire && !u.has_fired {
            score -= 1;
            why.push_str(", first fire +1");
        }
        (score, why)
    }

    /// Saves against an attack: the save value (one worse against flank or rear, a 6 stays a
    /// 6) and how many dice (one a hit, one more for a line), or none at all.
    pub fn saves(&self, target: usize, hits: u32, flank: bool, ranged: bool) -> Option<(u32, u32)> {
        self.saves_with(target, hits, flank, ranged, None)
    }

    /// Saves against an attack that gives the target at least the save `cover_save`.
    pub fn saves_with(
        &self,
        target: usize,
        hits: u32,
        flank: bool,
        ranged: bool,
        cover_save: Option<u32>,
    ) -> Option<(u32, u32)> {
        let t = &self.units[target];
        // Infantry in a construction may use its save where it is better (Constructions), and
        // an attack may give the target a save of its own (a mortar over a wall).
        let sv = [t.save, self.construction_save(target), cover_save]
            .into_iter()
            .flatten()
            .min()?;
        if hits == 0
            || (t.formed_troops() && t.formation == Formation::AttackColumn)
            || (ranged && t.formed_troops() && t.formation == Formation::Square)
        {
            return None;
        }
        let sv = if flank && sv < 6 { sv + 1 } else { sv };
        let line = t.formed_troops() && t.formation == Formation::Line;
        Some((sv, hits + u32::from(line)))
    }

    /// Whether the next hit test of `target` by attack `id` would be a fall-back (it is already
    /// suppressed, by another attack).
    pub fn falls_back_next(&self, target: usize, id: u32) -> Option<bool> {
        match self.units[target].suppressed {
            Some(s) if s.by_attack == id => None,
            Some(_) => Some(true),
            None => Some(false),
        }
    }

    /// Steps 3–8 of "Testing For Casualties" for one attack on one unit.
    pub fn resolve_attack(
        &mut self,
        target: usize,
        a: &Attack,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) -> Struck {
        let mut out = Struck::default();
        let rolls: Vec<u32> = (0..a.dice).map(|_| dice.roll(6)).collect();
        if a.jams && (1..rolls.len()).any(|i| rolls[..i].contains(&rolls[i])) {
            let t = &self.units[target];
            log.add(|| {
                Event::new(
                    "fire",
                    rule("Firing"),
                    format!(
                        "the Gatling gun's dice at {} show a double ({rolls:?}): it jams and makes no attack",
                        t.label()
                    ),
                )
                .side(t.side)
                .units([t.id.clone()])
            });
            out.jammed = true;
            return out;
        }
        let hits = rolls.iter().filter(|&&r| r >= a.to_hit).count() as u32;
        let mut saved = 0;
        let mut save_rolls = Vec::new();
        if let Some((sv, n)) = self.saves_with(target, hits, a.flank, a.ranged, a.cover_save) {
            save_rolls = (0..n).map(|_| dice.roll(6)).collect();
            saved = (save_rolls.iter().filter(|&&r| r >= sv).count() as u32).min(hits);
        }
        // Prone Movement: a prone unit takes one hit fewer from each unit firing at it.
        let prone = u32::from(a.ranged && self.units[target].prone && hits > saved);
        let mut net = hits - saved - prone;
        if a.ranged {
            net = self.screen_absorbs(target, net, log);
        }
        out.hits = net;
        out.saved = saved;
        let t = &self.units[target];
        log.add(|| {
            Event::new(
                "hit",
                rule("Testing For Casualties"),
                format!(
                    "{}: {} dice ({}) needing {}+: rolled {:?}, {hits} hit{}{}{}",
                    t.label(),
                    a.dice,
                    a.reckoning,
                    a.to_hit,
                    rolls,
                    if hits == 1 { "" } else { "s" },
                    if save_rolls.is_empty() {
                        String::new()
                    } else {
                        format!(", saves {save_rolls:?}: {saved} saved")
                    },
                    if a.flank { " (flank or rear)" } else { "" }
                ),
            )
            .side(t.side)
            .units([t.id.clone()])
        });
        if net == 0 {
            return out;
        }
        let exhaustion = self.table().exhaustion_hit;
        self.units[target].turn_hits += net;
        let t = &self.units[target];
        if t.turn_hits >= t.capacity(exhaustion) {
            let why = format!(
                "{} hits this turn, as many as its {} stands take",
                t.turn_hits, t.stands
            );
            self.knock_out(target, &why, log);
            out.ko = true;
            return out;
        }
        match self.falls_back_next(target, a.id) {
            None => {}
            Some(false) => {
                let test: Vec<u32> = (0..net).map(|_| dice.roll(6)).collect();
                let score = self.suppression_score(&self.units[target], a.to_hit);
                if test.iter().any(|&r| r >= score) {
                    self.suppress(target, a.id, log, &test);
                    out.suppressed = true;
                }
            }
            Some(true) => {
                let t = &self.units[target];
                let n = (net + u32::from(t.traits.poor)).saturating_sub(u32::from(t.traits.elite));
                let cm: u32 = (0..n).map(|_| dice.roll(6)).sum();
                out.fell_back_cm = Some(cm);
                self.fall_back(target, cm, a.from, log);
            }
        }
        out
    }

    /// A fall-back of `cm` directly away from `from` ("Fall-back"): knocked out beyond 20 cm,
    /// or into impassable ground, enemies or off the table; halted by friends, who are
    /// suppressed; dug-in troops and unlimbered guns hold unless it is more than 10 cm.
    pub fn fall_back(&mut self, unit: usize, cm: u32, from: Hex, log: &mut Log) {
        let u = &self.units[unit];
        let holds = u.dug_in || (u.arm == Arm::Artillery && !u.limbered);
        let limit = self.fall_back_limit_cm(u);
        if cm > limit || (holds && cm > limit.min(10)) {
            self.knock_out(unit, &format!("fell back {cm} cm, too far"), log);
            return;
        }
        if holds {
            log.add(|| {
                Event::new(
                    "fall-back",
                    rule("Fall-back"),
                    format!("{} holds its ground ({cm} cm)", u.label()),
                )
                .side(u.side)
                .units([u.id.clone()])
            });
            return;
        }
        let steps = (cm + 2) / HEX_CM;
        self.retreat_path(
            unit,
            from,
            steps,
            Giving::FallBack,
            &format!("falls back {cm} cm"),
            log,
        );
    }

    /// Moves a unit `steps` hexes straight away from `from`, as fall-backs and retreats do,
    /// with their knock-out cases. A fall-back ends facing `from`; a retreat keeps its facing.
    pub fn retreat_path(
        &mut self,
        unit: usize,
        from: Hex,
        steps: u32,
        giving: Giving,
        what: &str,
        log: &mut Log,
    ) {
        // Driven back, prone troops are on their feet again.
        self.units[unit].prone = false;
        let path = self.straight_path(unit, from, steps, false);
        let start = self.units[unit].hex;
        let mut at = start;
        let retreat = giving == Giving::Retreat;
        let (face, section) = match giving {
            Giving::FallBack => (true, "Fall-back"),
            Giving::Retreat => (false, "Retreat"),
        };
        for h in path {
            let u = &self.units[unit];
            if !self.ground().passable(h, u) {
                self.knock_out(
                    unit,
                    &format!("{what} into impassable ground or off the table"),
                    log,
                );
                return;
            }
            if let Some(o) = self.occupant(h) {
                if self.units[o].side != u.side {
                    self.knock_out(unit, &format!("{what} into the enemy"), log);
                    return;
                }
                if retreat && self.units[o].is_suppressed() {
                    self.knock_out(
                        o,
                        "a retreating unit ran into it while it was suppressed",
                        log,
                    );
                    self.knock_out(unit, &format!("{what} into suppressed friends"), log);
                    return;
                }
                let id = self.attack_seq;
                self.suppress(o, id, log, &[]);
                break;
            }
            at = h;
        }
        self.move_with_hqs(unit, at);
        if face {
            if let Some(f) = facing_towards(at, from) {
                self.units[unit].facing = f;
            }
        }
        let u = &self.units[unit];
        log.add(|| {
            Event::new(
                if retreat { "retreat" } else { "fall-back" },
                rule(section),
                format!(
                    "{} {what}: {} to {}",
                    u.label(),
                    volley_core::geometry::label(start),
                    volley_core::geometry::label(at)
                ),
            )
            .side(u.side)
            .units([u.id.clone()])
        });
    }

    /// The outcome classes of one attack of `n` dice needing `t` on `target` ("Testing For
    /// Casualties"): hits by the binomial law, saves likewise, then the suppression test or
    /// the fall-back sum; each with its chance and one sequence of dice.
    /// `cover_save`: a save the attack gives the target at least (see [`Attack`]).
    #[allow(clippy::too_many_arguments)]
    pub fn attack_classes(
        &self,
        target: usize,
        n: u32,
        t: u32,
        flank: bool,
        ranged: bool,
        id: u32,
        cover_save: Option<u32>,
    ) -> Vec<OddsCase> {
        let p_hit = chance::d6_at_least(t);
        let tgt = &self.units[target];
        let cap = tgt.capacity(self.table().exhaustion_hit);
        let mut out = Vec::new();
        for (k, pk) in chance::binomial(n, p_hit).into_iter().enumerate() {
            let k = k as u32;
            let hit_dice = chance::dice_for_count(n, k, t);
            let save = self.saves_with(target, k, flank, ranged, cover_save);
            let save_classes: Vec<(u32, f64, Vec<u32>)> = match save {
                None => vec![(0, 1.0, Vec::new())],
                Some((sv, m)) => chance::binomial(m, chance::d6_at_least(sv))
                    .into_iter()
                    .enumerate()
                    .map(|(s, ps)| (s as u32, ps, chance::dice_for_count(m, s as u32, sv)))
                    .collect(),
            };
            for (s, ps, save_dice) in save_classes {
                let mut net =
                    (k - s.min(k)).saturating_sub(u32::from(ranged && tgt.prone && k > s.min(k)));
                if ranged {
                    net -= tgt.screen_takes(net);
                }
                let mut head = hit_dice.clone();
                head.extend(&save_dice);
                let p = pk * ps;
                if net == 0 || tgt.turn_hits + net >= cap {
                    out.push(OddsCase {
                        probability: p,
                        dice: head,
                    });
                    continue;
                }
                match self.falls_back_next(target, id) {
                    None => out.push(OddsCase {
                        probability: p,
                        dice: head,
                    }),
                    Some(false) => {
                        let yes = chance::any_at_least(net, self.suppression_score(tgt, t));
                        let mut a = head.clone();
                        a.push(6);
                        a.extend(std::iter::repeat_n(1, net as usize - 1));
                        let mut b = head;
                        b.extend(std::iter::repeat_n(1, net as usize));
                        out.push(OddsCase {
                            probability: p * yes,
                            dice: a,
                        });
                        out.push(OddsCase {
                            probability: p * (1.0 - yes),
                            dice: b,
                        });
                    }
                    Some(true) => {
                        let m = (net + u32::from(tgt.traits.poor))
                            .saturating_sub(u32::from(tgt.traits.elite));
                        for (sum, psum) in chance::sum_of_d6(m).into_iter().enumerate() {
                            if psum == 0.0 {
                                continue;
                            }
                            let mut a = head.clone();
                            a.extend(chance::dice_for_sum(m, sum as u32));
                            out.push(OddsCase {
                                probability: p * psum,
                                dice: a,
                            });
                        }
                    }
                }
            }
        }
        out
    }
}
