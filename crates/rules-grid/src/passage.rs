//! Passage from tile to tile, asked by more than one chapter: whether a unit may cross a
//! side into the next tile (Movement Rules 1, Terrain), and the tiles a unit may fall back
//! into, out of contact (a withdrawal from close combat, Close Combat 3 and 4). Reads the
//! position; changes nothing.

use crate::state::GridGame;
use crate::terrain::{self, Beside};
use crate::unit_data::Kind;
use volley_core::game::Refusal;
use volley_core::geometry::label;
use volley_core::Hex;

impl GridGame {
    /// Whether `kind` may cross from `from` into the next tile `to`, and why not; the tile
    /// beside `from` that it enters.
    pub fn check_passage<R: Refusal>(&self, kind: Kind, from: Hex, to: Hex) -> Result<&Beside, R> {
        let next = self.check_beside::<R>(from, to)?;
        self.check_crossing::<R>(kind, from, next)?;
        Ok(next)
    }

    /// The tile `to` beside `from`, if they share a side.
    pub fn check_beside<R: Refusal>(&self, from: Hex, to: Hex) -> Result<&Beside, R> {
        self.beside(from)
            .iter()
            .find(|b| b.tile == to)
            .ok_or_else(|| R::because(|| format!(
                "{} does not share a side with {}: units move through tile sides, not corners (Movement Rules 1)",
                label(to),
                label(from)
            )))
    }

    /// Whether `kind` may cross from `from` into the tile `next` beside it.
    pub fn check_crossing<R: Refusal>(
        &self,
        kind: Kind,
        from: Hex,
        next: &Beside,
    ) -> Result<(), R> {
        terrain::entry(kind, next.ground.terrain).map_err(|why| R::because(|| why))?;
        if !next.crossable {
            return Err(R::because(|| {
                format!(
                    "a river runs between {} and {}; it is crossed only at bridges or fords (Terrain: River)",
                    label(from),
                    label(next.tile)
                )
            }));
        }
        Ok(())
    }

    /// A tile a unit may fall back into: the next tile, open to it, empty, and beside no
    /// enemy.
    pub fn check_fall_back<R: Refusal>(&self, unit: usize, to: Hex) -> Result<(), R> {
        let u = &self.units[unit];
        self.check_passage::<R>(u.kind, u.tile, to)?;
        if self.occupant(to, Some(unit)).is_some() {
            return Err(R::because(|| format!("{} is occupied", label(to))));
        }
        if self.enemies_beside(to, u.side).next().is_some() {
            return Err(R::because(|| {
                format!(
                    "{} is next to an enemy: a withdrawal leaves contact",
                    label(to)
                )
            }));
        }
        Ok(())
    }
}
