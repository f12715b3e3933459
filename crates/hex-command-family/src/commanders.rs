//! Commanders in play, as both sequences keep them (Gunpowder 2, 6 and Rules by Sequence 1;
//! Mechanized 3.2, M20, M25, M31, M114): where each is posted this turn — with a unit
//! (Gunpowder's symbols) or in a hex (Mechanized's placement) — taken back at the start of
//! its side's player turn, and the ones lost, killed or captured, for good.

use volley_core::Side;

/// Why a commander is out of the game: killed (Gunpowder 2 e, Mechanized M31) or captured
/// (2 e, M114).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallen {
    Killed,
    Captured,
}

impl Fallen {
    pub fn name(self) -> &'static str {
        match self {
            Fallen::Killed => "killed",
            Fallen::Captured => "captured",
        }
    }
}

/// Each commander's post this turn and whether it has fallen, by its place in the scenario's
/// list of commanders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posts<P> {
    /// Where each commander is posted this turn, if anywhere.
    pub at: Vec<Option<P>>,
    /// The commanders lost, and how.
    pub fallen: Vec<Option<Fallen>>,
}

impl<P: Copy + PartialEq> Posts<P> {
    /// `n` commanders, none posted, none lost.
    pub fn new(n: usize) -> Posts<P> {
        Posts {
            at: vec![None; n],
            fallen: vec![None; n],
        }
    }

    /// Whether commander `c` is still in the game.
    #[inline]
    pub fn in_game(&self, c: usize) -> bool {
        self.fallen[c].is_none()
    }

    /// Rules by Sequence 1, M20 (1): the phasing side takes back its commanders at the start
    /// of its player turn; `left` is told of each and where it was.
    pub fn lift(
        &mut self,
        side_of: impl Fn(usize) -> Side,
        side: Side,
        mut left: impl FnMut(usize, P),
    ) {
        for c in 0..self.at.len() {
            if side_of(c) == side {
                if let Some(p) = self.at[c].take() {
                    left(c, p);
                }
            }
        }
    }

    /// A commander falls: it leaves its post, which is given back, and is out of the game.
    /// `None` when it had fallen already (nothing changes then).
    pub fn fall(&mut self, c: usize, why: Fallen) -> Option<Option<P>> {
        if self.fallen[c].is_some() {
            return None;
        }
        self.fallen[c] = Some(why);
        Some(self.at[c].take())
    }

    /// How many of `side`'s commanders are lost (each adds to its losses: Gunpowder Rules by
    /// Sequence 2, Mechanized M41).
    pub fn lost(&self, side_of: impl Fn(usize) -> Side, side: Side) -> usize {
        (0..self.fallen.len())
            .filter(|&c| self.fallen[c].is_some() && side_of(c) == side)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_takes_back_its_own_commanders_and_the_fallen_stay_lost() {
        let sides = [Side::Red, Side::Blue, Side::Red];
        let mut p: Posts<u32> = Posts::new(3);
        p.at = vec![Some(10), Some(20), None];
        let mut back = Vec::new();
        p.lift(|c| sides[c], Side::Red, |c, at| back.push((c, at)));
        assert_eq!(back, vec![(0, 10)]);
        assert_eq!(p.at, vec![None, Some(20), None]);
        assert_eq!(p.fall(1, Fallen::Captured), Some(Some(20)));
        assert_eq!(p.fall(1, Fallen::Killed), None, "once lost, lost");
        assert_eq!(p.fallen[1], Some(Fallen::Captured));
        assert!(!p.in_game(1) && p.in_game(0));
        assert_eq!(p.lost(|c| sides[c], Side::Blue), 1);
        assert_eq!(p.lost(|c| sides[c], Side::Red), 0);
    }
}
