//! The lines of sight of one map, kept as data: what a line crosses ([`Sight`]), the walks
//! remembered for a map ([`Lines`]) and the cells a line or the works cover (`Cells`).
//! [`crate::sight`] walks and judges them; [`crate::ground`] carries them with the map.

use volley_core::map::Map;
use volley_core::pairs::Pairs;
use volley_core::Hex;

/// What a line of sight crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sight {
    Clear,
    /// A partial obstacle on the line (light woods, works, a slope): 1 CP (Gunpowder 7 i).
    Partial,
    Blocked,
}

/// The lines of sight of one map, remembered as they are first walked: the hexes of both lines
/// between two hexes, and what the bare map puts on each. A game keeps one with its map, shared
/// by every copy (the bots' search asks for the same lines many thousands of times a turn).
///
/// The works and the units change as the game goes on, so they are looked at every time: on a
/// line with a work, the hexes with works are judged again and the others as remembered, and a
/// line the map leaves open is walked again when units on it may block (a `viewer`). A line the
/// map itself blocks, with no work on it, stays blocked whatever stands on it.
pub struct Lines(pub(crate) Pairs<[Along; 2]>);

/// One line between two hexes, as the bare map (no works, no units) judges it.
pub(crate) struct Along {
    /// The hexes between the two ends, in order.
    pub(crate) hexes: Box<[Hex]>,
    /// What each of them puts in the way (`sight::obstacle`).
    pub(crate) obstacles: Box<[Sight]>,
    /// Their cells, to tell at once that no work stands on the line.
    pub(crate) cells: Cells,
    /// The lower of the two ends' heights.
    pub(crate) low: u8,
    /// A slope is crossed somewhere along the line.
    pub(crate) slope: bool,
    /// The verdict on the bare map.
    pub(crate) bare: Sight,
}

/// A bound on the pairs of lines kept for one map (a few hundred bytes each): past it, lines
/// are walked each time as before.
pub(crate) const KEPT: usize = 1 << 17;

impl Lines {
    /// Room for the lines of `map`.
    pub fn new(map: &Map) -> Lines {
        Lines(Pairs::new(map, KEPT))
    }
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lines({} kept)", self.0.kept())
    }
}

/// A set of cells as 256 bits, by cell index modulo 256 (a hex off the map sets every bit):
/// exact on maps of up to 256 cells, and on larger ones a quick test that two sets are apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cells([u64; 4]);

impl Cells {
    pub(crate) fn of(map: &Map, hexes: impl Iterator<Item = Hex>) -> Cells {
        let mut bits = [0u64; 4];
        for h in hexes {
            match map.index(h) {
                Some(i) => bits[(i / 64) % 4] |= 1 << (i % 64),
                None => bits = [u64::MAX; 4],
            }
        }
        Cells(bits)
    }

    /// Whether `hex`'s bit is set (for a hex off the map, whether every bit is).
    #[inline]
    pub(crate) fn holds(&self, map: &Map, hex: Hex) -> bool {
        match map.index(hex) {
            Some(i) => self.0[(i / 64) % 4] & (1 << (i % 64)) != 0,
            None => self.0 == [u64::MAX; 4],
        }
    }

    #[inline]
    pub(crate) fn meets(&self, other: &Cells) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}
