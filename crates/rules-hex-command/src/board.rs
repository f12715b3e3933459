//! Who stands where: the position's index, kept with the state and brought up to date by the
//! effects that move, remove or uncover units ([`crate::effects`]), so that "who is in this
//! hex?" and "whose zone of control covers it?" cost a lookup, whatever the size of the
//! armies.

use crate::state::State;
use volley_core::geometry::{front_hexes, step, Facing};
use volley_core::map::Map;
use volley_core::{Hex, Side};

/// Per map cell: the unit standing there and the unit whose abandoned guns stand there, each
/// as its index plus one (0: nobody). Zones of control are not stored: a hex's zone owners
/// are the neighbours that face it, found from the occupancy in six lookups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    units: Vec<u16>,
    guns: Vec<u16>,
}

impl Board {
    /// An empty board the size of the map.
    pub fn new(map: &Map) -> Board {
        Board {
            units: vec![0; map.cell_count()],
            guns: vec![0; map.cell_count()],
        }
    }

    /// The board of a position, built from scratch (at set-up, after a determinization, and
    /// by the invariant check that compares it with the one kept up to date).
    pub fn of(s: &State) -> Board {
        let mut b = Board::new(s.map());
        for (i, u) in s.units.iter().enumerate().filter(|(_, u)| u.active()) {
            b.put_unit(s.map(), u.hex, Some(i));
            if let Some(g) = u.guns_at {
                b.put_guns(s.map(), g, Some(i));
            }
        }
        b
    }

    fn get(v: &[u16], map: &Map, hex: Hex) -> Option<usize> {
        map.index(hex)
            .and_then(|c| v[c].checked_sub(1))
            .map(usize::from)
    }

    fn put(v: &mut [u16], map: &Map, hex: Hex, unit: Option<usize>) {
        if let Some(c) = map.index(hex) {
            v[c] = unit.map_or(0, |i| i as u16 + 1);
        }
    }

    /// The active unit standing in a hex (a crew away from its guns included).
    pub fn unit_at(&self, map: &Map, hex: Hex) -> Option<usize> {
        Self::get(&self.units, map, hex)
    }

    /// The unit whose abandoned guns stand in a hex.
    pub fn guns_at(&self, map: &Map, hex: Hex) -> Option<usize> {
        Self::get(&self.guns, map, hex)
    }

    pub(crate) fn put_unit(&mut self, map: &Map, hex: Hex, unit: Option<usize>) {
        Self::put(&mut self.units, map, hex, unit)
    }

    pub(crate) fn put_guns(&mut self, map: &Map, hex: Hex, unit: Option<usize>) {
        Self::put(&mut self.guns, map, hex, unit)
    }
}

impl State {
    /// The active unit standing in a hex (crews away from their guns included).
    pub fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.board.unit_at(self.map(), hex)
    }

    /// Abandoned guns standing in a hex.
    pub fn guns_at(&self, hex: Hex) -> Option<usize> {
        self.board.guns_at(self.map(), hex)
    }

    /// The units whose zone of control covers `hex` (5.2): the neighbours facing it, in the
    /// order of the units' numbers.
    pub fn zones_at(&self, hex: Hex) -> Vec<usize> {
        let mut out: Vec<usize> = Facing::ALL
            .into_iter()
            .filter_map(|f| {
                let n = step(hex, f);
                let e = self.unit_at(n)?;
                (self.has_zoc(e) && front_hexes(n, self.units[e].facing).contains(&hex))
                    .then_some(e)
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Whether some unit's zone of control that `pred` accepts covers `hex`.
    pub fn zone_covers(&self, hex: Hex, pred: impl Fn(usize) -> bool) -> bool {
        Facing::ALL.into_iter().any(|f| {
            let n = step(hex, f);
            self.unit_at(n).is_some_and(|e| {
                self.has_zoc(e) && front_hexes(n, self.units[e].facing).contains(&hex) && pred(e)
            })
        })
    }

    /// The enemies of `side` whose zone of control covers `hex`, by number.
    pub fn enemy_zones_at(&self, side: Side, hex: Hex) -> Vec<usize> {
        let mut z = self.zones_at(hex);
        z.retain(|&e| self.units[e].side != side);
        z
    }
}
