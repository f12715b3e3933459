//! What each side sees ([`volley_core::View`]): the phase and the prompt of the decision, the
//! units and command units it may see (firing cones, markers of a hidden set-up), the
//! objectives and the standing. The table is open, as the book plays it; only a hidden set-up
//! hides units (`scouting.rs`).

use crate::orders::{self, Ammo, Order};
use crate::state::{BptGame, Interrupt, Phase, Sight};
use crate::troops::{Arm, Unit};
use volley_core::view::{
    CommanderView, ElementKind, Elements, ObjectiveView, SideView, UnitView, Word,
};
use volley_core::{Place, Side, View};

/// `n` things, the word plural when `n` is not one.
fn counted(n: u32, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

impl BptGame {
    pub fn phase_words(&self) -> String {
        let words = self.phase_name();
        match self.table().weather {
            crate::weather::WeatherRule::Off => words,
            crate::weather::WeatherRule::Night => format!("{words} · night"),
            _ => format!("{words} · {}", self.weather.name()),
        }
    }

    fn phase_name(&self) -> String {
        let s = self.side_name(self.active);
        match self.phase {
            Phase::Setup => "setting up".into(),
            Phase::Initiative => format!("{s} initiative"),
            Phase::Command => format!("{s} command"),
            Phase::HqMoves => format!("{s} command units move"),
            Phase::Over => "game over".into(),
        }
    }

    fn prompt(&self) -> Option<String> {
        let side = self.decider()?;
        let who = side.title();
        Some(match self.interrupt {
            Some(Interrupt::Response) => {
                let c = self.charge.as_ref().expect("a charge in progress");
                format!(
                    "{who}: {} charges {} — fire at the charger, evade, form square or counter-charge, then end",
                    self.units[c.charger].label(),
                    self.units[c.target].label()
                )
            }
            Some(Interrupt::Support(_)) => format!("{who}: move units in support of the charge, then end"),
            Some(Interrupt::Consolidate(_)) => format!(
                "{who}: consolidate — the charge's winners may go a hex forward (not next to a visible enemy) and turn, then end"
            ),
            Some(Interrupt::Opportunity { target }) => format!(
                "{who}: opportunity fire at {}? (each firer loses its initiative and -1 command next turn)",
                self.units[target].label()
            ),
            None => match self.phase {
                Phase::Initiative => format!(
                    "{who}: initiative — units within 20 cm of the nearest visible enemy may fire, charge, evade or deploy"
                ),
                Phase::Command => match self.current_hq {
                    Some(h) if !self.order_units.is_empty() => format!(
                        "{who}: carry out {}'s order, or give the next (join units, then order)",
                        self.units[h].label()
                    ),
                    _ => format!("{who}: command — give a unit its action (the order's command roll comes first), or join units and order them together; end when done"),
                },
                Phase::HqMoves => format!("{who}: each command unit may move once"),
                Phase::Setup | Phase::Over => return None,
            },
        })
    }

    /// What `side` may see ([`Game::view`]); without the firing cones when `cones` is false
    /// ([`Game::search_view`]: the bots' search never reads them, and they cost a tenth of it).
    pub(crate) fn view_with(&self, side: Option<Side>, cones: bool) -> View {
        View {
            ruleset: crate::ID.into(),
            scenario: self.setting.name.clone(),
            title: self.setting.title.clone(),
            viewer: side,
            turn: self.turn,
            turn_limit: self.setting.turn_limit,
            phase: self.phase_words(),
            phasing: (!matches!(self.phase, Phase::Over | Phase::Setup)).then_some(self.active),
            to_decide: self.decider(),
            prompt: self.prompt(),
            map: self.setting.map_view.clone(),
            sides: Side::BOTH
                .into_iter()
                .map(|s| {
                    let (lost, all) = self.losses(s);
                    SideView {
                        side: s,
                        name: self.setting.side_names[s.index()].clone(),
                        losses_percent: if all == 0 {
                            0.0
                        } else {
                            100.0 * lost as f64 / all as f64
                        },
                        break_point: (all > 0).then(|| 100.0 * all.div_ceil(2) as f64 / all as f64),
                        score: self.victory_points(s) as i32,
                        commanders: self
                            .units
                            .iter()
                            .enumerate()
                            .filter(|(_, u)| u.side == s && u.is_hq())
                            .map(|(hk, u)| CommanderView {
                                id: u.id.clone(),
                                name: u.name.clone(),
                                value: u.command as i32,
                                supreme: u.co,
                                attached_to: self
                                    .occupant(u.hex)
                                    .filter(|&k| self.units[k].side == s)
                                    .filter(|&k| !self.hidden_from_view(k, side))
                                    .map(|k| self.units[k].id.clone()),
                                status: if u.ko {
                                    "killed".into()
                                } else if self.hidden_from_view(hk, side) {
                                    "hidden".into()
                                } else if self
                                    .occupant(u.hex)
                                    .is_some_and(|k| !self.hidden_from_view(k, side))
                                {
                                    "attached".into()
                                } else {
                                    "ready".into()
                                },
                            })
                            .collect(),
                    }
                })
                .collect(),
            units: self
                .units
                .iter()
                .enumerate()
                .filter(|(k, u)| !u.ko && !self.hidden_from_view(*k, side))
                .map(|(k, u)| self.unit_view(k, u, cones))
                .collect(),
            markers: self.markers(side),
            features: Vec::new(),
            objectives: self
                .setting
                .objectives
                .iter()
                .map(|o| ObjectiveView {
                    place: Place::Hex(o.hex),
                    name: match (o.major, o.goal_of) {
                        ([false, false], None) => o.name.clone(),
                        ([true, true], None) => format!("{} (major)", o.name).into(),
                        (major, None) => {
                            let m = if major[0] { 0 } else { 1 };
                            format!(
                                "{} (major for {}, minor for {})",
                                o.name,
                                self.setting.side_names[m],
                                self.setting.side_names[1 - m]
                            )
                            .into()
                        }
                        (major, Some(s)) => format!(
                            "{} ({}{}'s goal)",
                            o.name,
                            if major[s.index()] { "major, " } else { "" },
                            self.setting.side_names[s.index()]
                        )
                        .into(),
                    },
                    points: o.points,
                    holder: self.holder(o.hex, Sight::View(side)),
                    goal_of: o.goal_of,
                    decisive: o.major,
                })
                .collect(),
            outcome: self.outcome.clone(),
            standing: self
                .outcome
                .is_none()
                .then(|| self.standing(Sight::View(side))),
        }
    }

    fn unit_view(&self, key: usize, u: &Unit, cones: bool) -> UnitView {
        let mut flags: Vec<Word> = Vec::new();
        if u.is_suppressed() {
            flags.push("suppressed".into());
        }
        if u.disordered() {
            flags.push("disordered".into());
        }
        if u.exhausted {
            flags.push("exhausted".into());
        }
        if u.arm == Arm::Artillery {
            flags.push(if u.limbered {
                "limbered".into()
            } else {
                "unlimbered".into()
            });
            if u.traits.howitzer {
                flags.push("howitzer".into());
            }
            if u.traits.mortar {
                flags.push("mortar".into());
            }
        }
        if u.regimental_guns > 0 {
            flags.push(counted(u.regimental_guns, "regimental gun").into());
        }
        if u.dug_in {
            flags.push("dug in".into());
        }
        if u.hidden {
            flags.push("hidden".into());
        }
        if u.traits.scout {
            flags.push(
                if u.scout_free {
                    "scouting freely"
                } else {
                    "scouting"
                }
                .into(),
            );
        }
        if u.refused != 0 {
            flags.push(if u.refused < 0 {
                "refused left".into()
            } else {
                "refused right".into()
            });
        }
        if u.initiative_used && self.active == u.side {
            flags.push("acted on initiative".into());
        }
        if u.actions > 0 {
            flags.push(format!("{} left", counted(u.actions, "action")).into());
        }
        if self.joined.contains(&key) {
            flags.push("joined".into());
        }
        if u.opportunity.is_some_and(|t| t + 1 >= self.player_turn()) {
            flags.push("opportunity fired".into());
        }
        let hq = u.is_hq();
        UnitView {
            id: u.id.clone(),
            key: key as u32,
            name: u.name.clone(),
            side: u.side,
            arm: u.arm.name().into(),
            class: hq.then(|| {
                if u.co {
                    "CO".into()
                } else if u.fao {
                    "FAO".into()
                } else {
                    "HQ".into()
                }
            }),
            symbol: u.arm.symbol(),
            place: Place::Hex(u.hex),
            facing: (!hq).then_some(u.facing),
            hits: u.turn_hits,
            max_hits: u.capacity(self.table().exhaustion_hit),
            te: 0,
            max_te: 0,
            strength: hq.then_some(u.command),
            elements: (!hq).then_some(Elements {
                kind: ElementKind::Stands,
                now: u.stands,
                full: u.full_stands,
            }),
            formation: u.formed_troops().then(|| u.formation.name().into()),
            cone: if !cones || hq || u.ko || (u.arm == Arm::Artillery && u.limbered) {
                Vec::new()
            } else {
                self.cone_hexes(key).into_iter().map(Place::Hex).collect()
            },
            flags,
            commander: if hq {
                None
            } else {
                self.hqs_in(u.hex)
                    .find(|&h| self.units[h].side == u.side)
                    .map(|h| self.units[h].name.clone())
            },
        }
    }
}

impl BptGame {
    /// An order in plain words for the side to decide (`view` is its view): the answers to a
    /// charge or a chance of opportunity fire say who does what to whom, an order says which
    /// command unit gives it, and ending an answer says what ending means there. The rest is
    /// the notation worded with the units' names.
    pub fn label_of(&self, o: Order, view: &View) -> String {
        let name = |k: usize| {
            let id = &self.units[k].id;
            view.units
                .iter()
                .find(|u| &u.id == id)
                .map_or_else(|| id.to_string(), |u| u.name.to_string())
        };
        match o {
            Order::End => match self.interrupt {
                Some(Interrupt::Response) => "Stand and receive the charge (end)".into(),
                Some(Interrupt::Opportunity { .. }) => "Hold fire (end)".into(),
                Some(_) => "Done (end)".into(),
                None => "End".into(),
            },
            Order::Fire {
                unit,
                target,
                ammo: Ammo::Canister,
            } => format!("Canister at {} ({})", name(target), name(unit)),
            Order::Fire { unit, target, ammo } => match ammo {
                Ammo::Normal => format!("Fire at {} ({})", name(target), name(unit)),
                _ => format!("Fire {} at {} ({})", ammo.word(), name(target), name(unit)),
            },
            Order::Charge { unit, target } => format!("Charge {} ({})", name(target), name(unit)),
            Order::Evade { unit } => format!("Evade ({})", name(unit)),
            Order::Square { unit } => format!("Form square ({})", name(unit)),
            Order::CounterCharge { unit } => format!("Countercharge ({})", name(unit)),
            Order::Support { unit, friend } => {
                format!("Support {} with {}", name(friend), name(unit))
            }
            Order::Command {
                hq,
                unit,
                charge,
                dense,
            } => format!(
                "Order {} ({}){}{}",
                name(unit),
                name(hq),
                if charge { ", to charge" } else { "" },
                if dense { ", into dense terrain" } else { "" }
            ),
            _ => volley_core::view::action_words(
                &orders::describe(o, &self.units),
                &orders::write(o, &self.units),
                view,
            ),
        }
    }
}

/// A command roll foretold in words: what it needs on two dice, what counts towards it, and
/// its chances, reckoned as the roll is (a double one always passes with a bonus, a double
/// six always fails as a blunder).
pub fn command_roll_words(hq: &crate::troops::Unit, cv: &crate::command::CommandValue) -> String {
    let (mut pass, mut bonus, mut blunder) = (0, 0, 0);
    for a in 1..=6 {
        for b in 1..=6 {
            if a == 1 && b == 1 {
                bonus += 1;
                pass += 1;
            } else if a == 6 && b == 6 {
                blunder += 1;
            } else if a + b <= cv.value {
                pass += 1;
            }
        }
    }
    let percent = |n: i32| format!("{}%", (n * 100 + 18) / 36);
    // The first word is the command unit's own value; the rest are the modifiers.
    let modifiers: Vec<&str> = cv.words.iter().skip(1).map(String::as_str).collect();
    format!(
        "Command roll: {} needs {} or less on two dice (command {}{}): {} it passes; a double one ({}) gives two actions, a double six ({}) is a blunder.",
        hq.name,
        cv.value,
        hq.command,
        if modifiers.is_empty() {
            String::new()
        } else {
            format!(", {}", modifiers.join(", "))
        },
        percent(pass),
        percent(bonus),
        percent(blunder),
    )
}
