//! The Modifiers of an attack's two d6 (Infantry and Artillery Ranged Attack, Close Combat),
//! in the words the attack's event gives them. Each attack chapter decides which apply.

use crate::tiles::Aspect;
use std::fmt;
use volley_core::map::Terrain;

/// Why an attack's 2d6 is modified.
pub enum Modifier<'a> {
    Commander(&'a str),
    Aspect(Aspect),
    Downhill,
    Uphill,
    /// Close combat into forest or a built-up area.
    Into(Terrain),
    /// Artillery firing again into the tile it fired into last game-turn.
    SameTileAgain,
    /// A ranged target in cover.
    Cover(Terrain),
}

impl fmt::Display for Modifier<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Modifier::Commander(id) => write!(f, "commander {id}"),
            Modifier::Aspect(aspect) => write!(f, "{} attack", aspect.name()),
            Modifier::Downhill => f.write_str("attacking downhill"),
            Modifier::Uphill => f.write_str("attacking uphill"),
            Modifier::Into(ground) => write!(f, "attacking into {}", ground.name()),
            Modifier::SameTileAgain => f.write_str("fired into the same tile last turn"),
            Modifier::Cover(ground) => write!(f, "target in cover ({})", ground.name()),
        }
    }
}
