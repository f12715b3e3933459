//! What a ruleset works out once per pair of cells of a map and keeps for the game: lines of
//! sight, which the bots' search asks for many thousands of times a turn and which the map
//! alone mostly decides.
//!
//! A [`Pairs`] lives in a scenario's shared set-up, so every copy of a game (the search makes
//! many) shares it. Rows are made on first use, and past a bound on the pairs kept a value is
//! made each time it is asked for, so a big map cannot grow it without end.

use crate::map::Map;
use crate::Hex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub struct Pairs<T> {
    /// Per cell of the first hex, per cell of the second: the value, once made.
    rows: Box<[OnceLock<Row<T>>]>,
    kept: AtomicUsize,
    bound: usize,
}

type Row<T> = Box<[OnceLock<Box<T>>]>;

impl<T> Pairs<T> {
    /// Room for the pairs of `map`'s cells, keeping at most `bound` of them.
    pub fn new(map: &Map, bound: usize) -> Pairs<T> {
        Pairs {
            rows: (0..map.cell_count()).map(|_| OnceLock::new()).collect(),
            kept: AtomicUsize::new(0),
            bound,
        }
    }

    /// `read` of the value for the pair `(a, b)` of `map`'s cells, made by `make` the first
    /// time. `None` when either hex is off the map or the map has more cells than the one the
    /// pairs were made for.
    pub fn with<R>(
        &self,
        map: &Map,
        a: Hex,
        b: Hex,
        make: impl FnOnce() -> T,
        read: impl FnOnce(&T) -> R,
    ) -> Option<R> {
        let (i, j) = (map.index(a)?, map.index(b)?);
        let row = self
            .rows
            .get(i)?
            .get_or_init(|| (0..self.rows.len()).map(|_| OnceLock::new()).collect());
        let pair = row.get(j)?;
        if let Some(value) = pair.get() {
            return Some(read(value));
        }
        if self.kept.load(Ordering::Relaxed) < self.bound {
            self.kept.fetch_add(1, Ordering::Relaxed);
            return Some(read(pair.get_or_init(|| Box::new(make()))));
        }
        Some(read(&make()))
    }

    /// How many pairs are kept.
    pub fn kept(&self) -> usize {
        self.kept.load(Ordering::Relaxed)
    }
}

impl<T> std::fmt::Debug for Pairs<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pairs({} kept)", self.kept())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hex_at;
    use std::cell::Cell;

    #[test]
    fn a_pair_is_made_once_and_past_the_bound_each_time() {
        let map = Map::open(4, 3);
        let pairs: Pairs<u32> = Pairs::new(&map, 2);
        let made = Cell::new(0);
        let make = |n: u32| {
            made.set(made.get() + 1);
            n
        };
        let (a, b, c) = (hex_at(1, 1), hex_at(4, 3), hex_at(2, 2));
        assert_eq!(pairs.with(&map, a, b, || make(7), |&v| v), Some(7));
        assert_eq!(pairs.with(&map, a, b, || make(9), |&v| v), Some(7));
        // The other way round is another pair.
        assert_eq!(pairs.with(&map, b, a, || make(8), |&v| v), Some(8));
        assert_eq!((made.get(), pairs.kept()), (2, 2));
        // The bound is reached: a new pair is made at each question and not kept.
        assert_eq!(pairs.with(&map, a, c, || make(5), |&v| v), Some(5));
        assert_eq!(pairs.with(&map, a, c, || make(6), |&v| v), Some(6));
        assert_eq!((made.get(), pairs.kept()), (4, 2));
        // Off the map, nothing.
        assert_eq!(pairs.with(&map, a, hex_at(9, 9), || make(1), |&v| v), None);
        assert_eq!(made.get(), 4);
    }
}
