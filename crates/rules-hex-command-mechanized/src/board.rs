//! Who stands where (M56): up to two items a hex, kept with the position and brought up to
//! date by whatever moves or removes an item, so "what is in this hex?" costs a lookup.

use volley_core::map::Map;
use volley_core::Hex;

/// Items a hex may hold (M56; a commander takes no room).
pub const STACK: usize = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Per map cell: the items standing there, each as its index plus one (0: empty slot).
    cells: Vec<[u16; STACK]>,
}

impl Board {
    pub fn new(map: &Map) -> Board {
        Board {
            cells: vec![[0; STACK]; map.cell_count()],
        }
    }

    /// The items in a hex, in the order they came.
    pub fn items_at(&self, map: &Map, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        map.index(hex)
            .map(|c| self.cells[c])
            .unwrap_or([0; STACK])
            .into_iter()
            .filter_map(|v| v.checked_sub(1).map(usize::from))
    }

    /// How many more items a hex can take.
    pub fn room(&self, map: &Map, hex: Hex) -> usize {
        match map.index(hex) {
            Some(c) => self.cells[c].iter().filter(|&&v| v == 0).count(),
            None => 0,
        }
    }

    /// Item `i` now stands in `hex`. Returns false (and changes nothing) when the hex is full
    /// or off the map.
    pub fn place(&mut self, map: &Map, hex: Hex, i: usize) -> bool {
        let Some(c) = map.index(hex) else {
            return false;
        };
        match self.cells[c].iter_mut().find(|v| **v == 0) {
            Some(slot) => {
                *slot = i as u16 + 1;
                true
            }
            None => false,
        }
    }

    /// Item `i` no longer stands in `hex`; the other keeps its place first.
    pub fn lift(&mut self, map: &Map, hex: Hex, i: usize) {
        if let Some(c) = map.index(hex) {
            let cell = &mut self.cells[c];
            if let Some(k) = cell.iter().position(|&v| v == i as u16 + 1) {
                cell[k] = 0;
                cell.sort_by_key(|&v| v == 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_core::geometry::parse_label;

    fn map() -> Map {
        Map::open(4, 4)
    }

    #[test]
    fn two_items_share_a_hex_and_a_third_finds_no_room() {
        let m = map();
        let h = parse_label("0202").unwrap();
        let mut b = Board::new(&m);
        assert_eq!(b.room(&m, h), 2);
        assert!(b.place(&m, h, 3));
        assert!(b.place(&m, h, 7));
        assert!(!b.place(&m, h, 9), "M56: two items a hex");
        assert_eq!(b.items_at(&m, h).collect::<Vec<_>>(), vec![3, 7]);
        b.lift(&m, h, 3);
        assert_eq!(b.items_at(&m, h).collect::<Vec<_>>(), vec![7]);
        assert_eq!(b.room(&m, h), 1);
        assert_eq!(b.room(&m, parse_label("0909").unwrap()), 0, "off the map");
    }
}
