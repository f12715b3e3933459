//! How far every hex of the map is from the nearest of some sources (the enemies, the
//! objectives), and which source that is: one breadth-first pass from all of them at once, so
//! that a bot asking it for every unit and every move pays for the map once, not for the army
//! once per question. On a rectangular map with nothing in the way a shortest path between
//! two hexes never leaves the rectangle, so the distances are the true hex (or, on squares,
//! through-the-sides) distances; cells marked blocked (open water) are walked around.

use volley_core::geometry::{col_row, hex_at};
use volley_core::map::Grid;
use volley_core::Hex;

const FAR: u16 = u16::MAX;

pub struct Field {
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
        Field::around(grid, width, height, sources, &[])
    }

    /// The same, with paths kept off the cells `blocked` marks (row by row; an empty slice
    /// blocks nothing). A blocked cell has no distance unless it is a source.
    pub fn around(
        grid: Grid,
        width: i32,
        height: i32,
        sources: &[(Hex, u16)],
        blocked: &[bool],
    ) -> Field {
        let starts: Vec<(Hex, u16, u16)> = sources.iter().map(|&(h, k)| (h, k, 0)).collect();
        Field::from_starts(grid, width, height, &starts, blocked)
    }

    /// The same, each source (a hex, its number) counting as some hexes away already: the
    /// distance from a hex is the least of each source's walk plus its start.
    pub fn from_starts(
        grid: Grid,
        width: i32,
        height: i32,
        sources: &[(Hex, u16, u16)],
        blocked: &[bool],
    ) -> Field {
        let cells = (width.max(0) * height.max(0)) as usize;
        let mut f = Field {
            width,
            height,
            dist: vec![FAR; cells],
            source: vec![0; cells],
        };
        // Neighbours as column and row offsets, for columns of either parity: the same on
        // every hex of the map, so the search never converts coordinates.
        let offsets = |col: i32| -> Vec<(i32, i32)> {
            let h = hex_at(col, 5);
            let neighbours: Vec<Hex> = match grid {
                Grid::Hex => h.all_neighbors().to_vec(),
                // Squares are crossed through their sides, never their corners.
                Grid::Square => [(0, -1), (1, 0), (0, 1), (-1, 0)]
                    .map(|(dc, dr)| hex_at(col + dc, 5 + dr))
                    .to_vec(),
            };
            neighbours
                .into_iter()
                .map(|n| {
                    let (c, r) = col_row(n);
                    (c - col, r - 5)
                })
                .collect()
        };
        let by_parity = [offsets(2), offsets(1)];
        let mut queue: Vec<u32> = Vec::with_capacity(cells);
        // The sources by their start, each put on the queue once the walk from those before
        // it is one hex short of its start: the queue only ever holds two distances, one
        // after the other, so it stays in order.
        let mut pending: Vec<(u16, usize, Hex, u16)> = sources
            .iter()
            .enumerate()
            .map(|(i, &(h, k, start))| (start, i, h, k))
            .collect();
        pending.sort_unstable_by_key(|&(start, i, _, _)| (start, i));
        let mut next = 0;
        let mut head = 0;
        loop {
            let front = match queue.get(head) {
                Some(&c) => f.dist[c as usize],
                None => match pending.get(next) {
                    Some(&(start, ..)) => start,
                    None => break,
                },
            };
            while let Some(&(start, _, h, k)) = pending.get(next) {
                if start > front.saturating_add(1) {
                    break;
                }
                next += 1;
                if let Some(c) = f.cell(h) {
                    if f.dist[c] == FAR {
                        f.dist[c] = start;
                        f.source[c] = k;
                        queue.push(c as u32);
                    }
                }
            }
            if head >= queue.len() {
                continue;
            }
            let c = queue[head] as usize;
            head += 1;
            let (col, row) = (c as i32 % width + 1, c as i32 / width + 1);
            let (d, k) = (f.dist[c] + 1, f.source[c]);
            for &(dc, dr) in &by_parity[(col % 2) as usize] {
                let (nc, nr) = (col + dc, row + dr);
                if nc < 1 || nr < 1 || nc > width || nr > height {
                    continue;
                }
                let n = ((nr - 1) * width + (nc - 1)) as usize;
                if f.dist[n] == FAR && !blocked.get(n).copied().unwrap_or(false) {
                    f.dist[n] = d;
                    f.source[n] = k;
                    queue.push(n as u32);
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
                                (a - x).unsigned_abs() + (b - y).unsigned_abs()
                            }
                        })
                        .min();
                    assert_eq!(f.nearest(h).map(|x| x.0), want, "{grid:?} at {c},{r}");
                }
            }
        }
        assert_eq!(Field::new(Grid::Hex, 5, 5, &[]).nearest(hex_at(1, 1)), None);
    }

    #[test]
    fn a_source_with_a_start_counts_as_that_much_farther() {
        // Three sources, two of them counted as some hexes away already; listed out of order
        // of their starts.
        let sources = [
            (hex_at(3, 4), 0, 6),
            (hex_at(17, 11), 1, 0),
            (hex_at(9, 1), 2, 3),
        ];
        for grid in [Grid::Hex, Grid::Square] {
            let f = Field::from_starts(grid, 20, 14, &sources, &[]);
            for c in 1..=20 {
                for r in 1..=14 {
                    let h = hex_at(c, r);
                    let walk = |s: Hex| match grid {
                        Grid::Hex => s.unsigned_distance_to(h),
                        Grid::Square => {
                            let ((a, b), (x, y)) = (col_row(s), col_row(h));
                            (a - x).unsigned_abs() + (b - y).unsigned_abs()
                        }
                    };
                    let want = sources
                        .iter()
                        .map(|&(s, k, start)| (walk(s) + u32::from(start), k))
                        .min_by_key(|&(d, _)| d)
                        .map(|x| x.0);
                    assert_eq!(f.nearest(h).map(|x| x.0), want, "{grid:?} at {c},{r}");
                }
            }
            // On its own hex a source with a start is still that far, unless another is nearer.
            assert_eq!(f.nearest(hex_at(3, 4)).map(|x| x.0), Some(6));
            assert_eq!(f.nearest(hex_at(9, 1)).map(|x| x.0), Some(3));
        }
    }

    #[test]
    fn a_path_goes_round_blocked_cells() {
        // A river across row 3 of a 5 × 5 square map, crossed only at column 5.
        let blocked: Vec<bool> = (0..25).map(|c| c / 5 == 2 && c % 5 != 4).collect();
        let f = Field::around(Grid::Square, 5, 5, &[(hex_at(1, 1), 0)], &blocked);
        // Straight down would be 4; round by the crossing it is 4 across, 4 down and 4 back.
        assert_eq!(f.nearest(hex_at(1, 5)), Some((12, 0)));
        assert_eq!(f.nearest(hex_at(5, 3)), Some((6, 0)));
        assert_eq!(f.nearest(hex_at(2, 3)), None, "in the river");
        assert_eq!(f.nearest(hex_at(1, 2)), Some((1, 0)));
    }
}
