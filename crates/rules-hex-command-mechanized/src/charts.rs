//! The reference charts the rulebook leaves out, authored as data (`data/charts.toml`) and
//! the vehicle roster (`data/roster.toml`), compiled in; a scenario may replace any table or
//! row under its own `[charts]` and `[vehicles]` tables. Every value is Volley's; the
//! reasoning is in docs/rules/hex-command-mechanized.md.

use serde::Deserialize;
use std::collections::BTreeMap;

/// The weight ladder of vehicles, guns, infantry and structures (T1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum Weight {
    #[serde(rename = "soft")]
    Soft,
    VL,
    L,
    M,
    H,
    VH,
}

impl Weight {
    pub const ALL: [Weight; 6] = [
        Weight::Soft,
        Weight::VL,
        Weight::L,
        Weight::M,
        Weight::H,
        Weight::VH,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Weight::Soft => "soft",
            Weight::VL => "VL",
            Weight::L => "L",
            Weight::M => "M",
            Weight::H => "H",
            Weight::VH => "VH",
        }
    }

    pub fn parse(text: &str) -> Option<Weight> {
        Weight::ALL.into_iter().find(|w| w.name() == text)
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chassis {
    pub defence: u8,
    pub speed: u8,
    pub facing_changes: u8,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gun {
    pub max_range: u32,
    pub auto_range: u32,
    pub shots: u8,
    /// Hit markers an HE hit puts on each infantry item (with one figure lost).
    pub he_markers: u8,
}

impl Gun {
    /// T3: weapons that reach 10 hexes or less roll one d10, the others two.
    pub fn dice(&self) -> u32 {
        if self.max_range <= 10 {
            1
        } else {
            2
        }
    }
}

/// How a damage block raises its category (M105).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockMode {
    /// One step, whatever the face shows (none → single → double).
    Incremental,
    /// As the face shows: a double face places the double at once.
    AsRolled,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockRow {
    /// The row holds for weight differences up to this one.
    pub up_to: i32,
    pub blocks: u8,
    pub mode: BlockMode,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageEffects {
    /// Points off combat for a single and a double C block.
    pub combat: [u8; 2],
    /// Points off defence for a single and a double D block.
    pub defence: [u8; 2],
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallArms {
    pub base: i32,
    pub max_range: u32,
    pub smg_range: u32,
    pub mg_range: u32,
    pub light_penalty: i32,
    pub heavy_bonus: i32,
    pub smg_bonus: i32,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Infantry {
    pub movement: u8,
    pub melee: i32,
    pub at_weight: Weight,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cargo {
    pub halftrack: u8,
    pub truck: u8,
    pub carrier: u8,
    pub squad: u8,
    pub item: u8,
}

/// All the charts.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Charts {
    pub weights: BTreeMap<Weight, i32>,
    pub chassis: BTreeMap<Weight, Chassis>,
    pub guns: BTreeMap<Weight, Gun>,
    pub damage_blocks: Vec<BlockRow>,
    pub damage_effects: DamageEffects,
    pub small_arms: SmallArms,
    pub infantry: BTreeMap<Weight, Infantry>,
    pub structures: BTreeMap<Weight, u8>,
    pub forest_entry: BTreeMap<Weight, u32>,
    pub cargo: Cargo,
}

/// How a vehicle's gun bears (M84).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mount {
    Turret,
    Sp,
    Aa,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Drive {
    Tracked,
    Halftrack,
    Wheeled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MgMount {
    None,
    Single,
    Aa,
    Aaa,
    Quad,
}

/// A vehicle type of the roster.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleType {
    pub name: String,
    pub nation: String,
    pub chassis: Weight,
    #[serde(default)]
    pub gun: Option<Weight>,
    pub mount: Mount,
    pub drive: Drive,
    #[serde(default)]
    pub open_topped: bool,
    #[serde(default)]
    pub cargo: u8,
    pub mg: MgMount,
    #[serde(default)]
    pub low_silhouette: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub vehicles: BTreeMap<String, VehicleType>,
}

/// The charts as compiled in.
pub const CHARTS_TOML: &str = include_str!("../data/charts.toml");
/// The vehicle roster as compiled in.
pub const ROSTER_TOML: &str = include_str!("../data/roster.toml");

/// Lays `over` onto `base`, table by table: a table in `over` replaces keys of the same name
/// in `base` (recursively), anything else replaces the value whole.
pub fn overlay(base: &mut toml::Value, over: &toml::Value) {
    match (base, over) {
        (toml::Value::Table(b), toml::Value::Table(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) => overlay(slot, v),
                    None => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

impl Charts {
    /// Volley's charts.
    pub fn bundled() -> Charts {
        Charts::read(None).expect("the bundled charts are valid")
    }

    /// The bundled charts with a scenario's `[charts]` laid over them, checked whole: every
    /// weight present where a table is keyed by weight, damage-block rows in order.
    pub fn read(over: Option<&toml::Value>) -> Result<Charts, String> {
        let mut value: toml::Value = toml::from_str(CHARTS_TOML).expect("charts.toml parses");
        if let Some(o) = over {
            overlay(&mut value, o);
        }
        let charts: Charts = value
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        charts.check()?;
        Ok(charts)
    }

    fn check(&self) -> Result<(), String> {
        let armoured = [Weight::VL, Weight::L, Weight::M, Weight::H, Weight::VH];
        for w in Weight::ALL {
            if !self.weights.contains_key(&w) || !self.chassis.contains_key(&w) {
                return Err(format!(
                    "the weights and chassis tables need a row for {}",
                    w.name()
                ));
            }
        }
        for w in armoured {
            if !self.guns.contains_key(&w) {
                return Err(format!("the guns table needs a row for {}", w.name()));
            }
        }
        for w in [Weight::L, Weight::M, Weight::H] {
            if !self.infantry.contains_key(&w) || !self.structures.contains_key(&w) {
                return Err(format!(
                    "the infantry and structures tables need a row for {}",
                    w.name()
                ));
            }
        }
        if self.damage_blocks.is_empty()
            || self
                .damage_blocks
                .windows(2)
                .any(|r| r[0].up_to >= r[1].up_to)
        {
            return Err("damage_blocks rows must be given in rising order of up_to".into());
        }
        Ok(())
    }

    /// D4: the blocks a gun of weight `gun` rolls against a target of weight `target`.
    pub fn blocks(&self, gun: Weight, target: Weight) -> (u8, BlockMode) {
        let diff = self.weights[&gun] - self.weights[&target];
        self.damage_blocks
            .iter()
            .find(|r| diff <= r.up_to)
            .or(self.damage_blocks.last())
            .map_or((0, BlockMode::Incremental), |r| (r.blocks, r.mode))
    }
}

impl Roster {
    pub fn bundled() -> Roster {
        Roster::read(None).expect("the bundled roster is valid")
    }

    /// The bundled roster with a scenario's `[vehicles]` laid over it.
    pub fn read(over: Option<&toml::Value>) -> Result<Roster, String> {
        let mut value: toml::Value = toml::from_str(ROSTER_TOML).expect("roster.toml parses");
        if let Some(o) = over {
            overlay(
                &mut value,
                &toml::Value::Table([("vehicles".to_string(), o.clone())].into_iter().collect()),
            );
        }
        value
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())
    }
}
