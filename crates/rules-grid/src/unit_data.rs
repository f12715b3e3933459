//! Unit Types and Unit Data. The text lists four unit types and names a Unit Data table it
//! never prints; the table here is Volley's design, kept as data (`unit_data.toml`, compiled
//! in) so a scenario can replace any part of it.

use serde::Deserialize;
use toml::Spanned;
use volley_core::{ScenarioError, ScenarioSource};

/// The unit types of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    LineInfantry,
    LightInfantry,
    Cavalry,
    Artillery,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::LineInfantry,
        Kind::LightInfantry,
        Kind::Cavalry,
        Kind::Artillery,
    ];

    /// The word a scenario uses (`type = "light_infantry"`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::LineInfantry => "line_infantry",
            Kind::LightInfantry => "light_infantry",
            Kind::Cavalry => "cavalry",
            Kind::Artillery => "artillery",
        }
    }

    pub fn from_key(key: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.key() == key)
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::LineInfantry => "line infantry",
            Kind::LightInfantry => "light infantry",
            Kind::Cavalry => "cavalry",
            Kind::Artillery => "artillery",
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Kind::LineInfantry => 'I',
            Kind::LightInfantry => 'L',
            Kind::Cavalry => 'C',
            Kind::Artillery => 'A',
        }
    }

    pub fn is_infantry(self) -> bool {
        matches!(self, Kind::LineInfantry | Kind::LightInfantry)
    }
}

/// Hits scored for a modified 2d6 total of 2 to 12.
pub type HitRow = [u8; 11];

/// Reads a hit row at a modified total; totals past either end read the end column.
pub fn hits_for(row: &HitRow, total: i32) -> u8 {
    row[(total.clamp(2, 12) - 2) as usize]
}

/// One range band of a ranged attack: up to `range` tiles from the previous band.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub range: u32,
    pub hits: HitRow,
}

/// One unit type's line of the Unit Data table.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub strength: u8,
    pub movement: u8,
    pub close: HitRow,
    pub ranged: Vec<Band>,
}

impl Profile {
    /// The band a target `range` tiles away falls in, with the band's lower bound; `None`
    /// out of range (or for a unit with no ranged attack).
    pub fn band(&self, range: u32) -> Option<(u32, &Band)> {
        let mut from = 1;
        for band in &self.ranged {
            if range >= from && range <= band.range {
                return Some((from, band));
            }
            from = band.range + 1;
        }
        None
    }

    pub fn max_range(&self) -> u32 {
        self.ranged.last().map_or(0, |b| b.range)
    }
}

/// What one die of the retreat/damage roll says (Resolving Hits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// The unit must fall back one tile.
    Retreat,
    /// It must fall back and loses one more strength point; these add up.
    RetreatAndLoss,
    /// No retreat on this die.
    Stand,
}

impl Impact {
    pub fn name(self) -> &'static str {
        match self {
            Impact::Retreat => "retreat",
            Impact::RetreatAndLoss => "retreat and 1 loss",
            Impact::Stand => "stand",
        }
    }
}

/// A unit's quality (Resolving Hits): the text says elite units with good officers leave a
/// fight sooner and green ones stay and bleed. Each reads its own retreat/damage table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quality {
    Elite,
    #[default]
    Regular,
    Inexperienced,
}

impl Quality {
    pub const ALL: [Quality; 3] = [Quality::Elite, Quality::Regular, Quality::Inexperienced];

    /// The word a scenario uses (`quality = "elite"`).
    pub fn key(self) -> &'static str {
        match self {
            Quality::Elite => "elite",
            Quality::Regular => "regular",
            Quality::Inexperienced => "inexperienced",
        }
    }

    pub fn from_key(key: &str) -> Option<Quality> {
        Quality::ALL.into_iter().find(|q| q.key() == key)
    }
}

/// The whole Unit Data table and the retreat/damage tables.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    /// The retreat/damage table of regular units.
    pub impact: [Impact; 6],
    /// Elite units: more retreats, fewer losses.
    pub elite_impact: [Impact; 6],
    /// Inexperienced units: fewer retreats, more losses.
    pub inexperienced_impact: [Impact; 6],
    pub line_infantry: Profile,
    pub light_infantry: Profile,
    pub cavalry: Profile,
    pub artillery: Profile,
}

const BUILT_IN: &str = include_str!("unit_data.toml");

impl UnitData {
    pub fn built_in() -> UnitData {
        toml::from_str(BUILT_IN).expect("the built-in unit_data.toml is valid (tested)")
    }

    /// The retreat/damage table a unit of this quality rolls on.
    pub fn impact(&self, quality: Quality) -> &[Impact; 6] {
        match quality {
            Quality::Elite => &self.elite_impact,
            Quality::Regular => &self.impact,
            Quality::Inexperienced => &self.inexperienced_impact,
        }
    }

    pub fn profile(&self, kind: Kind) -> &Profile {
        match kind {
            Kind::LineInfantry => &self.line_infantry,
            Kind::LightInfantry => &self.light_infantry,
            Kind::Cavalry => &self.cavalry,
            Kind::Artillery => &self.artillery,
        }
    }

    fn profile_mut(&mut self, kind: Kind) -> &mut Profile {
        match kind {
            Kind::LineInfantry => &mut self.line_infantry,
            Kind::LightInfantry => &mut self.light_infantry,
            Kind::Cavalry => &mut self.cavalry,
            Kind::Artillery => &mut self.artillery,
        }
    }

    /// The built-in table with a scenario's `[unit_data]` replacements laid over it.
    pub fn with_overrides(
        mut self,
        spec: &UnitDataSpec,
        src: &ScenarioSource,
    ) -> Result<UnitData, ScenarioError> {
        if let Some(impact) = &spec.impact {
            self.impact = *impact;
        }
        if let Some(impact) = &spec.elite_impact {
            self.elite_impact = *impact;
        }
        if let Some(impact) = &spec.inexperienced_impact {
            self.inexperienced_impact = *impact;
        }
        for (kind, over) in [
            (Kind::LineInfantry, &spec.line_infantry),
            (Kind::LightInfantry, &spec.light_infantry),
            (Kind::Cavalry, &spec.cavalry),
            (Kind::Artillery, &spec.artillery),
        ] {
            let Some(over) = over else { continue };
            let profile = self.profile_mut(kind);
            if let Some(s) = &over.strength {
                if *s.get_ref() == 0 {
                    return Err(src.error_at(s.span(), "strength must be at least 1"));
                }
                profile.strength = *s.get_ref();
            }
            if let Some(m) = &over.movement {
                if *m.get_ref() == 0 {
                    return Err(src.error_at(m.span(), "movement must be at least 1 tile"));
                }
                profile.movement = *m.get_ref();
            }
            if let Some(close) = over.close {
                profile.close = close;
            }
            if let Some(ranged) = &over.ranged {
                check_bands(ranged.get_ref()).map_err(|m| src.error_at(ranged.span(), m))?;
                profile.ranged = ranged.get_ref().clone();
            }
        }
        Ok(self)
    }
}

fn check_bands(bands: &[Band]) -> Result<(), String> {
    let mut last = 0;
    for band in bands {
        if band.range <= last {
            return Err(format!(
                "ranged bands must have increasing ranges from 1 up (found {} after {last})",
                band.range
            ));
        }
        last = band.range;
    }
    Ok(())
}

/// `[unit_data]` in a scenario: any part of the table to replace.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDataSpec {
    #[serde(default)]
    pub impact: Option<[Impact; 6]>,
    #[serde(default)]
    pub elite_impact: Option<[Impact; 6]>,
    #[serde(default)]
    pub inexperienced_impact: Option<[Impact; 6]>,
    #[serde(default)]
    pub line_infantry: Option<ProfileSpec>,
    #[serde(default)]
    pub light_infantry: Option<ProfileSpec>,
    #[serde(default)]
    pub cavalry: Option<ProfileSpec>,
    #[serde(default)]
    pub artillery: Option<ProfileSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileSpec {
    #[serde(default)]
    pub strength: Option<Spanned<u8>>,
    #[serde(default)]
    pub movement: Option<Spanned<u8>>,
    #[serde(default)]
    pub close: Option<HitRow>,
    #[serde(default)]
    pub ranged: Option<Spanned<Vec<Band>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_table_is_valid_and_follows_the_text() {
        let d = UnitData::built_in();
        // Resolving Hits: 6 strength points for infantry, 4 for cavalry, 3 for artillery.
        assert_eq!(d.line_infantry.strength, 6);
        assert_eq!(d.light_infantry.strength, 6);
        assert_eq!(d.cavalry.strength, 4);
        assert_eq!(d.artillery.strength, 3);
        for k in Kind::ALL {
            check_bands(&d.profile(k).ranged).unwrap();
            // Rows never fall as the roll rises.
            let p = d.profile(k);
            for row in std::iter::once(&p.close).chain(p.ranged.iter().map(|b| &b.hits)) {
                assert!(row.windows(2).all(|w| w[0] <= w[1]), "{k:?}");
            }
        }
        assert!(d.cavalry.ranged.is_empty());
        // Elite units retreat more often and lose less; inexperienced ones the reverse.
        let retreats = |q| d.impact(q).iter().filter(|i| **i != Impact::Stand).count();
        let losses = |q| {
            d.impact(q)
                .iter()
                .map(|i| match i {
                    Impact::Retreat => 0,
                    Impact::RetreatAndLoss | Impact::Stand => 1,
                })
                .sum::<u32>()
        };
        assert!(retreats(Quality::Elite) > retreats(Quality::Regular));
        assert!(retreats(Quality::Regular) > retreats(Quality::Inexperienced));
        assert!(losses(Quality::Elite) < losses(Quality::Regular));
        assert!(losses(Quality::Regular) < losses(Quality::Inexperienced));
        assert_eq!(
            d.artillery.band(5).map(|(from, b)| (from, b.range)),
            Some((4, 6))
        );
        assert_eq!(d.artillery.band(9), None);
    }

    #[test]
    fn unit_data_override_replaces_only_what_it_names() {
        let src = ScenarioSource::new(
            "t.toml",
            "[light_infantry]\nclose = [1,1,1,1,1,1,1,1,1,1,9]\n[artillery]\nranged = [{ range = 2, hits = [5,5,5,5,5,5,5,5,5,5,5] }]\n",
        );
        let spec: UnitDataSpec = src.parse().unwrap();
        let d = UnitData::built_in().with_overrides(&spec, &src).unwrap();
        assert_eq!(hits_for(&d.light_infantry.close, 12), 9);
        assert_eq!(
            d.light_infantry.ranged,
            UnitData::built_in().light_infantry.ranged
        );
        assert_eq!(d.artillery.max_range(), 2);
        assert_eq!(d.cavalry, UnitData::built_in().cavalry);

        let src = ScenarioSource::new(
            "t.toml",
            "[cavalry]\nranged = [{ range = 3, hits = [0,0,0,0,0,0,0,0,0,0,1] }, { range = 2, hits = [0,0,0,0,0,0,0,0,0,0,1] }]\n",
        );
        let spec: UnitDataSpec = src.parse().unwrap();
        let e = UnitData::built_in()
            .with_overrides(&spec, &src)
            .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("increasing"), "{}", e.message);
    }
}
