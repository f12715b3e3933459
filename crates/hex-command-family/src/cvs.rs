//! The Command Valuation System (Gunpowder 2.2, 2.2.3; Mechanized 4.5): a commander's five
//! traits, tested on a d10, and the chart that generates them.
//!
//! A trait test passes when the d10 rolls higher than the trait (Initiative, Tactical and
//! Aggressiveness run from 4, the best, to 7, the worst). Combat and Morale are bonuses from
//! 0 to +2 and are not tested.

use volley_core::Dice;

/// The five traits (2.2). The chart's "F" column is Combat (0 to +2), the only one that also
/// exists without the CVS: a commander's combat value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traits {
    pub initiative: u8,
    pub combat: u8,
    pub morale: u8,
    pub tactical: u8,
    pub aggressiveness: u8,
}

/// A trait a test is made against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    Initiative,
    Tactical,
    Aggressiveness,
}

impl Trait {
    pub fn name(self) -> &'static str {
        match self {
            Trait::Initiative => "Initiative",
            Trait::Tactical => "Tactical",
            Trait::Aggressiveness => "Aggressiveness",
        }
    }
}

impl Traits {
    /// A commander the scenario rates only by its combat value, when a rule asks for a trait
    /// anyway (written orders played without the CVS): the chart's commonest Trained row.
    pub fn plain(combat: u8) -> Traits {
        Traits {
            initiative: 6,
            combat,
            morale: 1,
            tactical: 6,
            aggressiveness: 6,
        }
    }

    pub fn value(&self, t: Trait) -> u8 {
        match t {
            Trait::Initiative => self.initiative,
            Trait::Tactical => self.tactical,
            Trait::Aggressiveness => self.aggressiveness,
        }
    }

    /// "I4 C1 M2 T5 A6", as the log and the unit card write a commander's traits.
    pub fn text(&self) -> String {
        format!(
            "I{} C{} M{} T{} A{}",
            self.initiative, self.combat, self.morale, self.tactical, self.aggressiveness
        )
    }

    /// Whether each trait is within the ranges 2.2 gives.
    pub fn check(&self) -> Result<(), String> {
        let tested = [
            ("initiative", self.initiative),
            ("tactical", self.tactical),
            ("aggressiveness", self.aggressiveness),
        ];
        for (name, v) in tested {
            if !(4..=7).contains(&v) {
                return Err(format!("{name} runs from 4 (best) to 7 (worst), not {v}"));
            }
        }
        for (name, v) in [("combat", self.combat), ("morale", self.morale)] {
            if v > 2 {
                return Err(format!("{name} runs from 0 to 2, not {v}"));
            }
        }
        Ok(())
    }
}

/// The outcome of one trait test, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Test {
    pub against: Trait,
    pub value: u8,
    pub roll: u32,
    pub passed: bool,
}

impl Test {
    pub fn text(&self) -> String {
        format!(
            "d10 {} against {} {}: {}",
            self.roll,
            self.against.name(),
            self.value,
            if self.passed { "passes" } else { "fails" }
        )
    }
}

/// A trait test: passes when the d10 rolls higher than the trait (2.2).
pub fn test(traits: &Traits, against: Trait, dice: &mut dyn Dice) -> Test {
    let value = traits.value(against);
    let roll = dice.roll(10);
    Test {
        against,
        value,
        roll,
        passed: roll > value as u32,
    }
}

/// The three groups of the CVS Values chart, picked by the first d6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    Untrained,
    Trained,
    Veteran,
}

impl Grade {
    pub fn parse(text: &str) -> Option<Grade> {
        match text {
            "untrained" => Some(Grade::Untrained),
            "trained" => Some(Grade::Trained),
            "veteran" => Some(Grade::Veteran),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Grade::Untrained => "untrained",
            Grade::Trained => "trained",
            Grade::Veteran => "veteran",
        }
    }

    /// The first d6 of 2.2.3: 1–2 untrained, 3–4 trained, 5–6 veteran.
    pub fn from_d6(d6: u32) -> Grade {
        match d6 {
            1 | 2 => Grade::Untrained,
            3 | 4 => Grade::Trained,
            _ => Grade::Veteran,
        }
    }
}

const fn t(combat: u8, morale: u8, tactical: u8, aggressiveness: u8, initiative: u8) -> Traits {
    Traits {
        initiative,
        combat,
        morale,
        tactical,
        aggressiveness,
    }
}

/// The CVS Values chart (2.2.3), columns F (combat), M, T, A, Init/Act; rows by the second d6,
/// from 1 to 6, for each grade.
pub const CHART: [[Traits; 6]; 3] = [
    // Untrained (first d6 1–2)
    [
        t(0, 0, 7, 7, 6),
        t(0, 0, 7, 6, 7),
        t(1, 1, 7, 7, 7),
        t(0, 0, 6, 6, 6),
        t(1, 0, 6, 7, 6),
        t(0, 1, 6, 6, 5),
    ],
    // Trained (3–4)
    [
        t(0, 1, 6, 6, 6),
        t(1, 1, 6, 7, 5),
        t(1, 1, 5, 5, 7),
        t(1, 0, 6, 6, 6),
        t(0, 1, 6, 5, 7),
        t(1, 1, 5, 6, 5),
    ],
    // Veteran (5–6)
    [
        t(2, 1, 5, 6, 5),
        t(1, 2, 6, 6, 5),
        t(2, 1, 5, 5, 5),
        t(1, 1, 6, 5, 4),
        t(2, 2, 4, 5, 5),
        t(1, 2, 4, 4, 4),
    ],
];

/// The chart row of a grade for the second d6.
pub fn chart(grade: Grade, d6: u32) -> Traits {
    CHART[grade as usize][(d6.clamp(1, 6) - 1) as usize]
}

/// The chart's "% Spread of Commanders" by year (1861 to 1864/5) for the two armies it lists
/// (read as U = Union, C = Confederate): percent untrained, trained and veteran.
pub const SPREAD: [(u32, [u8; 3], [u8; 3]); 4] = [
    (1861, [70, 30, 0], [60, 30, 10]),
    (1862, [40, 50, 10], [40, 30, 30]),
    (1863, [30, 40, 30], [30, 30, 40]),
    (1864, [20, 40, 40], [20, 40, 40]),
];

/// How a commander's grade is found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GradeSource {
    /// Named by the scenario.
    Given(Grade),
    /// The first d6 of 2.2.3.
    Rolled,
    /// A d100 on the year's spread for one of the chart's two armies (`union`, `confederate`).
    Spread { year: u32, army: String },
}

/// Rolls a commander's traits (2.2.3): the grade, then the row. Returns the traits and the
/// words for the log.
pub fn generate(source: &GradeSource, dice: &mut dyn Dice) -> (Traits, String) {
    let (grade, how) = match source {
        GradeSource::Given(g) => (*g, g.name().to_string()),
        GradeSource::Rolled => {
            let d = dice.roll(6);
            let g = Grade::from_d6(d);
            (g, format!("d6 {d}: {}", g.name()))
        }
        GradeSource::Spread { year, army } => {
            let row = SPREAD
                .iter()
                .rev()
                .find(|r| r.0 <= *year)
                .unwrap_or(&SPREAD[0]);
            let spread = if army == "confederate" { row.2 } else { row.1 };
            let d = dice.roll(100);
            let g = if d <= spread[0] as u32 {
                Grade::Untrained
            } else if d <= (spread[0] + spread[1]) as u32 {
                Grade::Trained
            } else {
                Grade::Veteran
            };
            (
                g,
                format!("d100 {d} on the {year} {army} spread: {}", g.name()),
            )
        }
    };
    let d = dice.roll(6);
    let traits = chart(grade, d);
    (traits, format!("{how}, row d6 {d}: {}", traits.text()))
}

/// 2.2.3: a force gets a replacement for a lost commander if a d10 rolls higher than the
/// Tactical value of its best (lowest Tactical) remaining commander.
pub fn replacement_test(best_tactical: u8, dice: &mut dyn Dice) -> Test {
    let roll = dice.roll(10);
    Test {
        against: Trait::Tactical,
        value: best_tactical,
        roll,
        passed: roll > best_tactical as u32,
    }
}

/// 2.2.1: how many order changes a commander may attempt, when the scenario does not say: its
/// Initiative value.
pub fn order_changes(traits: &Traits) -> u8 {
    traits.initiative
}

/// The radius of a commander's sphere of influence (Gunpowder 2.1, Mechanized 3.6): its
/// Morale — 0 the unit it is with only, 1 the hexes around it, 2 two hexes out.
pub fn sphere_radius(traits: &Traits) -> u32 {
    traits.morale as u32
}

/// The CVS traits a scenario gives a commander (`traits = { initiative, morale, tactical,
/// aggressiveness }`), checked, with its combat value as Combat; `None` when it gives none.
/// `section` names the rulebook's CVS section for errors.
pub fn read_traits(
    src: &volley_core::ScenarioSource,
    c: &volley_core::scenario::CommanderSpec,
    value: i32,
    section: &str,
) -> Result<Option<Traits>, volley_core::ScenarioError> {
    let Some(t) = &c.traits else {
        return Ok(None);
    };
    let known = ["initiative", "morale", "tactical", "aggressiveness"];
    if let Some(k) = t.get_ref().keys().find(|k| !known.contains(&k.as_str())) {
        return Err(src.error_at(
            t.span(),
            format!(
                "unknown trait \"{k}\" (expected initiative, morale, tactical, aggressiveness; combat is the commander's value)"
            ),
        ));
    }
    let get = |k: &str| -> Result<u8, volley_core::ScenarioError> {
        t.get_ref()
            .get(k)
            .map(|&v| v.clamp(0, 255) as u8)
            .ok_or_else(|| {
                src.error_at(
                    t.span(),
                    format!("the traits give all four of initiative, morale, tactical and aggressiveness ({k} is missing)"),
                )
            })
    };
    let traits = Traits {
        initiative: get("initiative")?,
        combat: value.clamp(0, 2) as u8,
        morale: get("morale")?,
        tactical: get("tactical")?,
        aggressiveness: get("aggressiveness")?,
    };
    traits
        .check()
        .map_err(|e| src.error_at(t.span(), format!("{e} ({section})")))?;
    Ok(Some(traits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::ScriptedDice;

    #[test]
    fn every_chart_row_is_within_the_ranges_of_2_2() {
        for grade in CHART {
            for row in grade {
                row.check().unwrap();
            }
        }
    }

    #[test]
    fn a_trait_test_passes_only_above_the_value() {
        let tr = chart(Grade::Trained, 6);
        assert_eq!(tr.tactical, 5);
        let mut d = ScriptedDice::new([5, 6]);
        assert!(
            !test(&tr, Trait::Tactical, &mut d).passed,
            "5 is not higher than 5"
        );
        assert!(test(&tr, Trait::Tactical, &mut d).passed);
    }

    #[test]
    fn generation_rolls_the_grade_then_the_row() {
        let mut d = ScriptedDice::new([5, 6]);
        let (traits, how) = generate(&GradeSource::Rolled, &mut d);
        assert_eq!(traits, t(1, 2, 4, 4, 4), "veteran row 6 of the chart");
        assert!(how.contains("veteran"), "{how}");
        let mut d = ScriptedDice::new([71, 1]);
        let spread = GradeSource::Spread {
            year: 1861,
            army: "union".into(),
        };
        assert_eq!(generate(&spread, &mut d).0, chart(Grade::Trained, 1));
        let mut d = ScriptedDice::new([95, 1]);
        let spread = GradeSource::Spread {
            year: 1861,
            army: "confederate".into(),
        };
        assert_eq!(generate(&spread, &mut d).0, chart(Grade::Veteran, 1));
    }

    #[test]
    fn spreads_add_up_to_a_hundred() {
        for (_, u, c) in SPREAD {
            assert_eq!(u.iter().map(|&x| x as u32).sum::<u32>(), 100);
            assert_eq!(c.iter().map(|&x| x as u32).sum::<u32>(), 100);
        }
    }
}
