//! Line of sight (7 h, 7 j, 7 p) and cover from fire (7 i, Modifiers) on this position: the
//! family's rules ([`hex_command_family::sight`]) with the units the viewer can see standing
//! on the line. Below every chapter that sees.

use crate::state::State;
use hex_command_family::sight::{self as family, Viewer};
use volley_core::{Hex, Side};

pub use family::Sight;

/// Line of sight from `from` to `to`; with `viewer` (its side, and whether it is artillery
/// that fires over friends), the units it can see on the line block.
pub fn line_of_sight(s: &State, from: Hex, to: Hex, viewer: Option<(Side, bool)>) -> Sight {
    let viewer = viewer.map(|(side, fires_over)| Viewer { side, fires_over });
    family::line_of_sight(s.ground(), from, to, viewer, |h| {
        let o = s.unit_at(h)?;
        viewer
            .is_some_and(|v| s.visible_to(o, v.side))
            .then(|| s.units[o].side)
    })
}

/// Covers the target has against fire from `from`.
pub fn cover(s: &State, target: Hex, from: Hex) -> i32 {
    family::cover(s.ground(), target, from)
}
