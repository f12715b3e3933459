//! What the map's terrain is in this book's terms ("Terrain", "Visibility"): open ground,
//! low and high area terrain, wet terrain, mountains, linear obstacles, and the cover each
//! gives against fire ("Scoring Hits"). The map letters are the shared ones of Volley's maps;
//! docs/rules/bpt-commander.md gives the table of what each letter is here. Field defences and
//! buildings stand on it as works ([`Work`]: the Field Defenses and Constructions tables); what
//! they do in play and what engineers do to them is in [`crate::works`].

use crate::troops::{Arm, Unit};
use volley_core::map::{Hexside, Map, Terrain};
use volley_core::Hex;

/// Area terrain ("Area Terrain").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// Crops, tall grass, scrub, heath: half speed; seen into 20 cm.
    Low,
    /// Orchards, woods, built-up areas: quarter speed; seen into 10 cm.
    High,
}

/// The area a hex is part of: light woods and rough are low area terrain, woods and towns
/// high area terrain, and marsh (partially wet) moves as high area terrain.
pub fn area(t: Terrain) -> Option<Area> {
    match t {
        Terrain::LightWoods | Terrain::Rough => Some(Area::Low),
        Terrain::Woods | Terrain::Town | Terrain::Marsh => Some(Area::High),
        _ => None,
    }
}

/// Whether a hexside feature is linear terrain: walls, fences, hedges, and streams (shallow
/// wet terrain counts as linear).
pub fn linear(side: Option<Hexside>) -> bool {
    matches!(
        side,
        Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence | Hexside::Stream)
    )
}

/// Whether a linear feature blocks sight (walls, fences, hedges; a stream does not).
pub fn screens(side: Option<Hexside>) -> bool {
    matches!(side, Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence))
}

/// Whether a unit of this arm may stand in a hex at all.
pub fn passable(map: &Map, hex: Hex, u: &Unit) -> bool {
    if !map.contains(hex) {
        return false;
    }
    match map.terrain(hex) {
        Terrain::Water => false,
        // Mountains and marsh: troops on foot only, unless a road is marked through.
        Terrain::Mountain | Terrain::Marsh => {
            u.arm.on_foot() || (map.has_road(hex) && u.arm != Arm::Artillery)
        }
        _ => true,
    }
}

/// Whether the terrain is dense for this unit ("Dense Terrain"): marsh for troops on foot and
/// cavalry; for towed guns everything but open ground, roads and hills.
pub fn dense(t: Terrain, u: &Unit) -> bool {
    match u.arm {
        Arm::Infantry | Arm::Cavalry => t == Terrain::Marsh,
        Arm::Artillery => !matches!(t, Terrain::Clear | Terrain::Bridge),
        Arm::Command => false,
    }
}

/// What entering a hex costs in cm of the move (the hex is 5 cm across): open 5, low area
/// half speed 10, high area, marsh and dense terrain quarter speed 20. A road between the two
/// hexes keeps open-ground speed for a column on it.
pub fn cost_cm(map: &Map, from: Hex, to: Hex, u: &Unit, on_road: bool) -> u32 {
    if on_road && map.road_between(from, to) {
        return 5;
    }
    if u.is_hq() {
        return 5;
    }
    let t = map.terrain(to);
    if dense(t, u) {
        return 20;
    }
    match area(t) {
        Some(Area::Low) => 10,
        Some(Area::High) => 20,
        None => 5,
    }
}

/// The ground as troops move over it: the map, and whether its wet terrain is frozen
/// ("Frozen Terrain", option `frozen`). Frozen rivers, lakes, marsh, fords and streams move as
/// high area terrain for every arm; sight and cover do not change.
#[derive(Clone, Copy)]
pub struct Ground<'a> {
    pub map: &'a Map,
    pub frozen: bool,
}

impl Ground<'_> {
    /// Whether the terrain is wet terrain frozen over.
    fn iced(&self, t: Terrain) -> bool {
        self.frozen && matches!(t, Terrain::Water | Terrain::Marsh | Terrain::Ford)
    }

    /// Whether the hexside between two hexes is a frozen stream.
    fn iced_side(&self, from: Hex, to: Hex) -> bool {
        self.frozen && self.map.hexside(from, to) == Some(Hexside::Stream)
    }

    /// Whether a unit may stand in a hex: frozen water bears every arm.
    pub fn passable(&self, hex: Hex, u: &Unit) -> bool {
        if self.map.contains(hex) && self.iced(self.map.terrain(hex)) {
            return true;
        }
        passable(self.map, hex, u)
    }

    /// Whether the hex is dense for this unit. Frozen wet terrain is high area terrain, so
    /// it is dense for towed guns only (everything off open ground is).
    pub fn dense(&self, hex: Hex, u: &Unit) -> bool {
        let t = self.map.terrain(hex);
        if self.iced(t) {
            return u.arm == Arm::Artillery;
        }
        dense(t, u)
    }

    /// Whether the hexside between two hexes is a linear obstacle to movement (crossed only
    /// from contact). A frozen stream is not.
    pub fn obstacle(&self, from: Hex, to: Hex) -> bool {
        linear(self.map.hexside(from, to)) && !self.iced_side(from, to)
    }

    /// Whether the hex is a ford, crossed only from contact (not when frozen).
    pub fn ford(&self, hex: Hex) -> bool {
        self.map.terrain(hex) == Terrain::Ford && !self.frozen
    }

    /// What entering `to` from `from` costs (see [`cost_cm`]): frozen wet terrain, and a
    /// frozen stream crossed, at the high area rate.
    pub fn cost_cm(&self, from: Hex, to: Hex, u: &Unit, on_road: bool) -> u32 {
        let road = on_road && self.map.road_between(from, to);
        if !road && !u.is_hq() && (self.iced(self.map.terrain(to)) || self.iced_side(from, to)) {
            return 20;
        }
        cost_cm(self.map, from, to, u, on_road)
    }
}

/// Cover against fire, in the order of the to-hit table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    Open,
    /// Behind walls and hedges, in woods and built-up areas: hit on 5+.
    Soft,
    /// Fortified works: hit on 6.
    Hard,
}

impl Cover {
    pub fn to_hit(self) -> u32 {
        match self {
            Cover::Open => 4,
            Cover::Soft => 5,
            Cover::Hard => 6,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Cover::Open => "in the open",
            Cover::Soft => "in soft cover",
            Cover::Hard => "in hard cover",
        }
    }

    pub fn better(self) -> Cover {
        match self {
            Cover::Open => Cover::Soft,
            _ => Cover::Hard,
        }
    }

    pub fn easier(self) -> Cover {
        match self {
            Cover::Hard => Cover::Soft,
            _ => Cover::Open,
        }
    }
}

/// The cover of a unit in `target` against fire coming from `from`: its hex's terrain (woods
/// and towns soft, forts hard; low area terrain none), or soft behind a wall, hedge or fence on
/// the hexside the fire crosses into its hex.
pub fn cover(map: &Map, target: Hex, last_before: Hex) -> Cover {
    let by_ground = match map.terrain(target) {
        Terrain::Fort => Cover::Hard,
        Terrain::Woods | Terrain::Town => Cover::Soft,
        _ => Cover::Open,
    };
    let by_obstacle = if screens(map.hexside(last_before, target)) {
        Cover::Soft
    } else {
        Cover::Open
    };
    by_ground.max(by_obstacle)
}

/// What a work is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkKind {
    Trench,
    Wire,
    Ditch,
    Stakes,
    DugOut,
    Breastworks,
    LogWorks,
    FortifiedWorks,
    Fortification,
    WoodenBuilding,
    BrickBuilding,
    StoneBuilding,
}

impl WorkKind {
    pub const ALL: [WorkKind; 12] = [
        WorkKind::Trench,
        WorkKind::Wire,
        WorkKind::Ditch,
        WorkKind::Stakes,
        WorkKind::DugOut,
        WorkKind::Breastworks,
        WorkKind::LogWorks,
        WorkKind::FortifiedWorks,
        WorkKind::Fortification,
        WorkKind::WoodenBuilding,
        WorkKind::BrickBuilding,
        WorkKind::StoneBuilding,
    ];

    pub fn word(self) -> &'static str {
        match self {
            WorkKind::Trench => "trench",
            WorkKind::Wire => "wire",
            WorkKind::Ditch => "ditch",
            WorkKind::Stakes => "stakes",
            WorkKind::DugOut => "dug-out",
            WorkKind::Breastworks => "breastworks",
            WorkKind::LogWorks => "log-works",
            WorkKind::FortifiedWorks => "fortified-works",
            WorkKind::Fortification => "fortification",
            WorkKind::WoodenBuilding => "wooden-building",
            WorkKind::BrickBuilding => "brick-building",
            WorkKind::StoneBuilding => "stone-building",
        }
    }

    pub fn parse(text: &str) -> Option<WorkKind> {
        WorkKind::ALL.into_iter().find(|k| k.word() == text)
    }

    /// Points a section (the Field Defenses table; buildings are terrain, not bought).
    pub fn points(self) -> Option<u32> {
        Some(match self {
            WorkKind::Trench | WorkKind::Wire => 5,
            WorkKind::Ditch | WorkKind::Stakes | WorkKind::DugOut | WorkKind::Breastworks => 25,
            WorkKind::LogWorks => 50,
            WorkKind::FortifiedWorks => 75,
            WorkKind::Fortification => 100,
            _ => return None,
        })
    }

    /// Whether a hasty defence may have it (the rest need a fixed defence).
    pub fn hasty(self) -> bool {
        matches!(
            self,
            WorkKind::Trench | WorkKind::Stakes | WorkKind::Breastworks
        )
    }

    /// Whether it is an obstacle to movement (and what engineers clear or demolish).
    pub fn obstacle(self) -> bool {
        matches!(self, WorkKind::Wire | WorkKind::Ditch | WorkKind::Stakes)
    }

    /// The cover it gives the troops in its hex.
    pub fn cover(self) -> Cover {
        match self {
            WorkKind::Breastworks | WorkKind::WoodenBuilding | WorkKind::BrickBuilding => {
                Cover::Soft
            }
            WorkKind::LogWorks
            | WorkKind::FortifiedWorks
            | WorkKind::Fortification
            | WorkKind::StoneBuilding => Cover::Hard,
            _ => Cover::Open,
        }
    }

    /// Hits and save as a construction (the Constructions table), for what has them.
    pub fn construction(self) -> Option<(u32, u32)> {
        Some(match self {
            WorkKind::WoodenBuilding | WorkKind::Breastworks => (3, 0),
            WorkKind::BrickBuilding | WorkKind::LogWorks => (6, 5),
            WorkKind::StoneBuilding | WorkKind::FortifiedWorks => (9, 4),
            WorkKind::Fortification => (12, 3),
            _ => return None,
        })
    }
}

/// One work on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Work {
    pub hex: Hex,
    pub kind: WorkKind,
    /// Hits it holds as a construction (they are never removed).
    pub hits: u32,
}
