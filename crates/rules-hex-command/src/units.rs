//! Section 1 (units, formations and scale), the movement chart and the firing chart's
//! weapon classes: what each arm is and what it can do.

use serde::Deserialize;
use volley_core::map::Terrain;

/// The arms of the Gunpowder module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arm {
    Infantry,
    LightInfantry,
    Skirmishers,
    Cavalry,
    /// Optional Rules, Mounted Infantry: musket-armed infantry that rides to its place.
    MountedInfantry,
    Artillery,
    Wagon,
    /// A hidden-movement plate with nothing under it (Optional Rules, Hidden Movement).
    Decoy,
}

impl Arm {
    pub fn name(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::LightInfantry => "light infantry",
            Arm::Skirmishers => "skirmishers",
            Arm::Cavalry => "cavalry",
            Arm::MountedInfantry => "mounted infantry",
            Arm::Artillery => "artillery",
            Arm::Wagon => "wagon",
            Arm::Decoy => "decoy",
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Arm::Infantry => 'I',
            Arm::LightInfantry => 'L',
            Arm::Skirmishers => 'K',
            Arm::Cavalry => 'C',
            Arm::MountedInfantry => 'M',
            Arm::Artillery => 'A',
            Arm::Wagon => 'W',
            Arm::Decoy => '?',
        }
    }

    /// Movement chart: hexes a turn, mounted (cavalry, mounted infantry on horseback) or on
    /// foot. Limbered artillery uses the `limbered_rate` option.
    pub fn movement(self, limbered_rate: u8) -> u8 {
        match self {
            Arm::Infantry | Arm::LightInfantry | Arm::Skirmishers | Arm::Wagon => 3,
            Arm::Cavalry | Arm::MountedInfantry | Arm::Decoy => 5,
            Arm::Artillery => limbered_rate,
        }
    }

    /// Base melee value by arm: the table Volley played before base values became scenario
    /// data (the rules give none; 7.3 only compares modified values). Cavalry strongest, line
    /// infantry next, light infantry weaker in close order; the `melee_values = "by-arm"`
    /// option plays it.
    pub fn melee_by_arm(self) -> i32 {
        match self {
            Arm::Cavalry => 4,
            Arm::Infantry => 3,
            Arm::LightInfantry => 2,
            // Mounted infantry fight only dismounted, as infantry.
            Arm::MountedInfantry | Arm::Skirmishers | Arm::Artillery | Arm::Wagon | Arm::Decoy => 0,
        }
    }

    /// The arm it fights as on foot: mounted infantry dismount to fight as infantry.
    pub fn on_foot(self) -> Arm {
        if self == Arm::MountedInfantry {
            Arm::Infantry
        } else {
            self
        }
    }

    /// Whether a unit of this arm fights melees at all: skirmishers, gun crews and wagons
    /// never do (7.2, section 3).
    pub fn can_melee(self) -> bool {
        self.melee_by_arm() > 0
    }

    /// Whether a unit of this arm is a real unit (decoys are not).
    pub fn is_real(self) -> bool {
        self != Arm::Decoy
    }

    /// Facing changes allowed in a turn (5.1 a; the hand-out: cavalry twice).
    pub fn facing_changes(self) -> u8 {
        match self {
            Arm::Cavalry | Arm::Decoy => 2,
            _ => 1,
        }
    }

    /// Hexes a routed unit runs each time (7.5).
    pub fn rout_distance(self) -> u8 {
        match self {
            Arm::Cavalry | Arm::Artillery => 4,
            _ => 3,
        }
    }

    /// Default victory points of a unit of this arm, for break points.
    pub fn default_points(self) -> i32 {
        match self {
            Arm::Infantry | Arm::LightInfantry => 10,
            Arm::Skirmishers => 5,
            Arm::Cavalry | Arm::MountedInfantry => 12,
            Arm::Artillery => 12,
            Arm::Wagon => 4,
            Arm::Decoy => 0,
        }
    }
}

/// Weapon class: small arms A/B (muskets and rifles) or C (other); artillery A rifled,
/// B smoothbore, C other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Class {
    A,
    B,
    C,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::A => "A",
            Class::B => "B",
            Class::C => "C",
        }
    }
}

/// Whether a unit of `arm` may stand on this terrain at all (mounted: on horseback).
pub fn may_stand(arm: Arm, terrain: Terrain, elevation: u8) -> bool {
    match terrain {
        Terrain::Water | Terrain::Mountain => false,
        Terrain::Marsh => !matches!(arm, Arm::Artillery | Arm::Wagon),
        Terrain::Woods => arm != Arm::Cavalry && !(arm == Arm::Artillery && elevation > 0),
        _ => true,
    }
}
