//! All-water hexes (the rules' second paragraph): closed to troops except by a bridge, while
//! musketry may cross from one river-edge hex to the river-edge hex opposite. Boats are not
//! modelled: no scenario has them yet.

use volley_core::geometry::{label, step, Facing};
use volley_core::map::{Map, Terrain};
use volley_core::{Hex, Illegal};

pub const RULE: &str = "stand-and-die all-water hexes";

/// Whether a hex is river that troops cannot enter: water, and a ford when fords are closed.
pub fn is_river(map: &Map, hex: Hex, fords_open: bool) -> bool {
    match map.terrain(hex) {
        Terrain::Water => true,
        Terrain::Ford => !fords_open,
        _ => false,
    }
}

/// Whether troops may stand in a hex: on the map and not river.
pub fn enterable(map: &Map, hex: Hex, fords_open: bool) -> bool {
    map.contains(hex) && !is_river(map, hex, fords_open)
}

pub fn check_enterable(map: &Map, hex: Hex, fords_open: bool) -> Result<(), Illegal> {
    match map.terrain(hex) {
        Terrain::Water => Err(Illegal::new(format!(
            "{} is an all-water hex: only a bridge crosses the river ({RULE})",
            label(hex)
        ))),
        Terrain::Ford if !fords_open => Err(Illegal::new(format!(
            "{} is a ford, and fords are closed in this game (option fords = closed)",
            label(hex)
        ))),
        _ => Ok(()),
    }
}

/// The hexside of `from` through which it fires across one river hex straight at `at`, if
/// `at` is the river-edge hex directly opposite.
pub fn across_the_river(map: &Map, from: Hex, at: Hex, fords_open: bool) -> Option<Facing> {
    Facing::ALL.into_iter().find(|&f| {
        let river = step(from, f);
        step(river, f) == at && is_river(map, river, fords_open)
    })
}
