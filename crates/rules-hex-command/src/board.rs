//! Who stands where: the position's index, kept with the state and brought up to date by the
//! effects that move, remove or uncover units (`effects.rs`), so that "who is in this
//! hex?" and "whose zone of control covers it?" cost a lookup, whatever the size of the
//! armies.

use volley_core::geometry::{col_row, hex_at};
use volley_core::map::Map;
use volley_core::{Hex, Side};

/// Per map cell: the unit standing there and the unit whose abandoned guns stand there, each
/// as its index plus one (0: nobody). Zones of control are not stored: a hex's zone owners
/// are the neighbours that face it, found from the occupancy in six lookups. Per block of
/// [`BLOCK`] × [`BLOCK`] cells: how many units of each side stand in it, so a search for
/// units within some distance passes over empty country a block at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    units: Vec<u16>,
    /// Per map cell: the side of the unit standing there (its index plus one; 0: nobody), so
    /// a search for one side's units reads the board alone.
    sides: Vec<u8>,
    guns: Vec<u16>,
    blocks: Vec<[u16; 2]>,
    blocks_across: i32,
}

/// The side of a block, in cells.
pub const BLOCK: i32 = 4;

impl Board {
    /// An empty board the size of the map.
    pub fn new(map: &Map) -> Board {
        let across = (map.width + BLOCK - 1) / BLOCK;
        let down = (map.height + BLOCK - 1) / BLOCK;
        Board {
            units: vec![0; map.cell_count()],
            sides: vec![0; map.cell_count()],
            guns: vec![0; map.cell_count()],
            blocks: vec![[0, 0]; (across * down).max(0) as usize],
            blocks_across: across,
        }
    }

    fn block(&self, map: &Map, hex: Hex) -> Option<usize> {
        map.index(hex)?;
        let (c, r) = col_row(hex);
        Some((((r - 1) / BLOCK) * self.blocks_across + (c - 1) / BLOCK) as usize)
    }

    /// Unit `i` of `side` now stands in `hex`.
    pub(crate) fn place(&mut self, map: &Map, hex: Hex, i: usize, side: Side) {
        if let (Some(c), Some(b)) = (map.index(hex), self.block(map, hex)) {
            self.units[c] = i as u16 + 1;
            self.sides[c] = side.index() as u8 + 1;
            self.blocks[b][side.index()] += 1;
        }
    }

    /// Unit `i` of `side` no longer stands in `hex`.
    pub(crate) fn lift(&mut self, map: &Map, hex: Hex, i: usize, side: Side) {
        if let (Some(c), Some(b)) = (map.index(hex), self.block(map, hex)) {
            if self.units[c] == i as u16 + 1 {
                self.units[c] = 0;
                self.sides[c] = 0;
                self.blocks[b][side.index()] -= 1;
            }
        }
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

    pub(crate) fn put_guns(&mut self, map: &Map, hex: Hex, unit: Option<usize>) {
        Self::put(&mut self.guns, map, hex, unit)
    }
}

/// The column and row offsets of the hexes within `reach` of a hex in column `col`: the same
/// for every column of one parity, so worked out once for each reach asked for.
fn ring_offsets(reach: u32, col: i32) -> &'static [(i32, i32, u32)] {
    use std::sync::OnceLock;
    const MOST: usize = 4;
    /// Per reach, per column parity: the offsets.
    type Offsets = Vec<[Vec<(i32, i32, u32)>; 2]>;
    static TABLES: OnceLock<Offsets> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=MOST as u32)
            .map(|reach| {
                [2, 1].map(|c0| {
                    let centre = hex_at(c0, 20);
                    centre
                        .range(reach)
                        .map(|h| {
                            let (c, r) = col_row(h);
                            (c - c0, r - 20, h.unsigned_distance_to(centre))
                        })
                        .collect()
                })
            })
            .collect()
    });
    &tables[(reach as usize).min(MOST)][(col % 2) as usize]
}

impl Board {
    /// Adds the units within `reach` hexes of `hex` (of `side` only, if given) that `wanted`
    /// accepts to `out`, in no particular order; `units` is how many the army has. Blocks of
    /// the board with nobody of that side in them are passed over.
    #[allow(clippy::too_many_arguments)]
    pub fn units_near_into(
        &self,
        map: &Map,
        units: usize,
        hex: Hex,
        reach: u32,
        side: Option<Side>,
        wanted: impl Fn(usize) -> bool,
        out: &mut Vec<usize>,
    ) {
        // A small army is quicker to look through than the hexes in reach, and a few hexes
        // quicker than the blocks around them.
        let cells = 3 * reach * (reach + 1) + 1;
        if units as u32 <= cells {
            out.extend((0..units).filter(|&k| wanted(k)));
            return;
        }
        if cells <= 4 * (BLOCK * BLOCK) as u32 {
            self.near_cells(map, hex, reach, side, |k, _| out.push(k));
            return;
        }
        let b = self;
        let (c, r) = col_row(hex);
        let reach_i = reach as i32;
        let col_blocks =
            ((c - 1 - reach_i).max(0) / BLOCK)..=((c - 1 + reach_i).min(map.width - 1) / BLOCK);
        let row_blocks =
            ((r - 1 - reach_i).max(0) / BLOCK)..=((r - 1 + reach_i).min(map.height - 1) / BLOCK);
        for by in row_blocks {
            for bx in col_blocks.clone() {
                let count = b.blocks[(by * b.blocks_across + bx) as usize];
                let here = match side {
                    Some(s) => count[s.index()],
                    None => count[0] + count[1],
                };
                if here == 0 {
                    continue;
                }
                for row in by * BLOCK..((by + 1) * BLOCK).min(map.height) {
                    for col in bx * BLOCK..((bx + 1) * BLOCK).min(map.width) {
                        let h = hex_at(col + 1, row + 1);
                        if let Some(k) = self.unit_at(map, h).filter(|&k| wanted(k)) {
                            out.push(k);
                        }
                    }
                }
            }
        }
    }

    /// Calls `f` with each unit (and its distance) within `reach` of `hex`, hex by hex over
    /// the board: for a short reach (at most four hexes).
    pub fn near_cells(
        &self,
        map: &Map,
        hex: Hex,
        reach: u32,
        side: Option<Side>,
        mut f: impl FnMut(usize, u32),
    ) {
        let (c, r) = col_row(hex);
        let want = side.map_or(0, |s| s.index() as u8 + 1);
        for &(dc, dr, d) in ring_offsets(reach, c) {
            let (nc, nr) = (c + dc, r + dr);
            if nc < 1 || nr < 1 || nc > map.width || nr > map.height {
                continue;
            }
            let cell = ((nr - 1) * map.width + (nc - 1)) as usize;
            let here = self.sides[cell];
            if here != 0 && (want == 0 || here == want) {
                f(usize::from(self.units[cell] - 1), d);
            }
        }
    }
}
