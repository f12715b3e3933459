//! What ground an item may enter (M61–M63; guns in woods, M62 and the terrain the text names): water only at a
//! bridge or ford, no marsh or mountain, no forest on a hill for vehicles, and no climbing or
//! crossing obstacles for a crippled vehicle.

use crate::items::{Item, Kind};
use volley_core::map::{Hexside, Map, Terrain};
use volley_core::Hex;

/// Whether `item` may step from `from` into `to`, leaving aside forest rolls, stacking and
/// enemies.
pub fn passable(map: &Map, item: &Item, from: Hex, to: Hex) -> bool {
    let vehicle = matches!(item.kind, Kind::Vehicle { .. });
    let gun = matches!(item.kind, Kind::Gun { .. });
    let road = map.road_between(from, to);
    let ok = match map.terrain(to) {
        Terrain::Water | Terrain::Marsh | Terrain::Mountain => false,
        // M61, M62: no vehicle or gun in a hex that combines forest with another terrain (a
        // forested hill).
        Terrain::Woods if (vehicle || gun) && map.elevation(to) > 0 && !road => false,
        // M62: a gun is never moved from one forest hex into another.
        Terrain::Woods if gun && from != to && map.terrain(from) == Terrain::Woods && !road => {
            false
        }
        _ => true,
    };
    let side = map.hexside(from, to);
    let across = match side {
        Some(Hexside::Stream) => {
            matches!(map.terrain(to), Terrain::Bridge | Terrain::Ford)
                || matches!(map.terrain(from), Terrain::Bridge | Terrain::Ford)
                || road
        }
        _ => true,
    };
    // M63, C15: a crippled vehicle climbs no hill and crosses no obstacle.
    let crippled = crate::moves::crippled(item)
        && (map.elevation(to) > map.elevation(from)
            || matches!(
                side,
                Some(Hexside::Wall | Hexside::Hedge | Hexside::Fence | Hexside::Stream)
            ));
    ok && across && !crippled
}

/// Whether a vehicle entering `to` from `from` must force its way into forest (M61).
pub fn forest_off_road(map: &Map, from: Hex, to: Hex) -> bool {
    map.terrain(to) == Terrain::Woods && !map.road_between(from, to)
}
