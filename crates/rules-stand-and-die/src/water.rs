//! All-water hexes (the rules' second paragraph): closed to troops except by a bridge or by
//! the boats a scenario moors on them, while musketry may cross from one river-edge hex to a
//! river-edge hex opposite.

use volley_core::geometry::{distance, label, lines_between, step, Facing};
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

/// Whether troops may stand in a hex: on the map, and not river unless boats are there.
pub fn enterable(map: &Map, hex: Hex, fords_open: bool, boats: &[Hex]) -> bool {
    map.contains(hex) && (!is_river(map, hex, fords_open) || boats.contains(&hex))
}

pub fn check_enterable(
    map: &Map,
    hex: Hex,
    fords_open: bool,
    boats: &[Hex],
) -> Result<(), Illegal> {
    if boats.contains(&hex) {
        return Ok(());
    }
    match map.terrain(hex) {
        Terrain::Water => Err(Illegal::new(format!(
            "{} is an all-water hex: only a bridge or boats cross the river, and there are no boats there ({RULE})",
            label(hex)
        ))),
        Terrain::Ford if !fords_open => Err(Illegal::new(format!(
            "{} is a ford, and fords are closed in this game (option fords = closed)",
            label(hex)
        ))),
        _ => Ok(()),
    }
}

/// Whether `from` and `at` are river-edge hexes facing each other across the river: two
/// hexes apart, with only river between them. The twelve hexes two away are either straight
/// across one hex (the line passes through its middle) or across a corner (the line runs
/// along the hexside between two hexes); as for every line in Volley, a line along a hexside
/// crosses river when either hex beside it is river.
pub fn across_the_river(map: &Map, from: Hex, at: Hex, fords_open: bool) -> bool {
    distance(from, at) == 2
        && lines_between(from, at)
            .iter()
            .any(|line| line.iter().all(|&h| is_river(map, h, fords_open)))
}

/// The hexes across the river from `from` ([`across_the_river`]).
pub fn hexes_across_the_river(
    map: &Map,
    from: Hex,
    fords_open: bool,
) -> impl Iterator<Item = Hex> + '_ {
    Facing::ALL
        .into_iter()
        .flat_map(move |f| {
            let near = step(from, f);
            [step(near, f), step(near, f.turn(1))]
        })
        .filter(move |&at| across_the_river(map, from, at, fords_open))
}
