//! How far every hex of the map is from the nearest enemy, and which enemy that is: one
//! breadth-first pass from all of them at once, so that a bot asking it for every unit and
//! every move pays for the map once, not for the army once per question. On a rectangular
//! map a shortest path between two hexes never leaves the rectangle, so the distances are
//! the true hex (or, on squares, king-move) distances.

use std::collections::VecDeque;
use volley_core::geometry::{col_row, hex_at};
use volley_core::map::Grid;
use volley_core::Hex;

const FAR: u16 = u16::MAX;

pub struct Field {
    grid: Grid,
    width: i32,
    height: i32,
    /// Per cell, row by row: the distance to the nearest source, and that source's number.
    dist: Vec<u16>,
    source: Vec<u16>,
}

impl Field {
    /// The field of `sources` (hexes with a number each) on a `width` × `height` map. Where two
    /// sources are equally near, the one listed first wins.
    pub fn new(grid: Grid, width: i32, height: i32, sources: &[(Hex, u16)]) -> Field {
        let cells = (width.max(0) * height.max(0)) as usize;
        let mut f = Field {
            grid,
            width,
            height,
            dist: vec![FAR; cells],
            source: vec![0; cells],
        };
        let mut queue = VecDeque::new();
        for &(h, k) in sources {
            if let Some(c) = f.cell(h) {
                if f.dist[c] == FAR {
                    f.dist[c] = 0;
                    f.source[c] = k;
                    queue.push_back(h);
                }
            }
        }
        while let Some(h) = queue.pop_front() {
            let c = f.cell(h).expect("queued hexes are on the map");
            let (d, k) = (f.dist[c] + 1, f.source[c]);
            for n in f.neighbours(h) {
                if let Some(nc) = f.cell(n) {
                    if f.dist[nc] == FAR {
                        f.dist[nc] = d;
                        f.source[nc] = k;
                        queue.push_back(n);
                    }
                }
            }
        }
        f
    }

    fn cell(&self, h: Hex) -> Option<usize> {
        let (c, r) = col_row(h);
        (c >= 1 && r >= 1 && c <= self.width && r <= self.height)
            .then(|| ((r - 1) * self.width + (c - 1)) as usize)
    }

    fn neighbours(&self, h: Hex) -> impl Iterator<Item = Hex> {
        let (c, r) = col_row(h);
        let square = self.grid == Grid::Square;
        let hexes = h.all_neighbors();
        (0..8).filter_map(move |k| {
            if square {
                let (dc, dr) = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)][k];
                Some(hex_at(c + dc, r + dr))
            } else {
                hexes.get(k).copied()
            }
        })
    }

    /// The distance from `h` to the nearest source and that source's number; `None` off the
    /// map or with no sources.
    pub fn nearest(&self, h: Hex) -> Option<(u32, u16)> {
        let c = self.cell(h)?;
        (self.dist[c] != FAR).then(|| (self.dist[c] as u32, self.source[c]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_the_hex_distances_to_the_nearest_source() {
        let sources = [(hex_at(3, 4), 0), (hex_at(17, 11), 1), (hex_at(9, 1), 2)];
        for grid in [Grid::Hex, Grid::Square] {
            let f = Field::new(grid, 20, 14, &sources);
            for c in 1..=20 {
                for r in 1..=14 {
                    let h = hex_at(c, r);
                    let want = sources
                        .iter()
                        .map(|&(s, _)| match grid {
                            Grid::Hex => s.unsigned_distance_to(h),
                            Grid::Square => {
                                let ((a, b), (x, y)) = (col_row(s), col_row(h));
                                (a - x).unsigned_abs().max((b - y).unsigned_abs())
                            }
                        })
                        .min();
                    assert_eq!(f.nearest(h).map(|x| x.0), want, "{grid:?} at {c},{r}");
                }
            }
        }
        assert_eq!(Field::new(Grid::Hex, 5, 5, &[]).nearest(hex_at(1, 1)), None);
    }
}
