//! The choices the text leaves to the table: how much fits in a hex, whether fords may be
//! waded, which way hexes fall back, who fires and what gives cover. A scenario's options set
//! them (`crate::OPTIONS`, read in `scenario.rs`); the chapters ask them.

/// The table's choices for one game.
#[derive(Clone, Copy, Debug)]
pub struct TableRules {
    /// Figures' room in one hex.
    pub hex_capacity: u32,
    /// Room one gun takes, in figures.
    pub gun_room: u32,
    /// Whether troops may wade fords (a ford is not an all-water hex).
    pub fords_open: bool,
    /// Which way hexes fired on fall back.
    pub fall_back: FallBackWay,
    /// Which troops in a hex fire: those facing the target, or all.
    pub fire_arc: FireArc,
    /// What terrain gives cover.
    pub cover: CoverGround,
}

/// Which way a hex fired on gives ground (the option `fall_back`; falling back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FallBackWay {
    /// Away from the hexes whose volleys reached it.
    AwayFromTheFire,
    /// Straight behind its facing, wherever the fire came from.
    Behind,
}

/// Which troops in a hex may fire at a target (the option `fire_arc`; musketry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireArc {
    /// Those whose front (the 120° cone through their front hexside) holds the target.
    Front,
    /// All of them: "all troops adjacent to enemy", whatever way they face.
    AllRound,
}

/// What gives the target cover (the option `cover`; musketry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoverGround {
    /// Terrain a man can shelter in: `musketry::COVER`.
    Sheltering,
    /// Any terrain but level open ground: every hex but clear ground with no height, bridges
    /// and fords (all-water hexes hold no targets).
    AnyTerrain,
}
