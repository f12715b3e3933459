//! The action codec every ruleset writes its orders with: an order packed into the 64 bits of
//! an [`Action`] as bit fields ([`Bits`], [`Codec`]), and read back from its notation word by
//! word ([`Words`]), with refusals that say what was expected.
//!
//! Each ruleset keeps its own field layout (the packed values order the bots' ties and seed
//! their shuffles, so a layout is part of how a ruleset plays); what it packs with and how it
//! reads notation is written here once.

use crate::action::{Action, Illegal};
use crate::geometry::{col_row, hex_at, parse_label, Facing};
use hexx::Hex;

/// An order a ruleset packs into an [`Action`].
pub trait Codec: Copy + PartialEq {
    /// The order in 64 bits.
    fn pack(self) -> Action;

    /// The order the bits hold, read leniently (stray bits may be ignored).
    fn decode(action: Action) -> Option<Self>;

    /// The order an action packs, exactly: bits that [`Codec::pack`] would not have written
    /// make it no order.
    fn unpack(action: Action) -> Option<Self> {
        Self::decode(action).filter(|o| o.pack() == action)
    }
}

/// Bit fields of an action, written and read at fixed offsets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits(pub u64);

impl Bits {
    pub fn new() -> Bits {
        Bits(0)
    }

    /// The bits with `value` written into `width` bits at offset `at` (its higher bits are
    /// dropped; `width` 64 − `at` takes the rest).
    #[inline]
    pub fn put(self, at: u32, width: u32, value: u64) -> Bits {
        Bits(self.0 | ((value & mask(width)) << at))
    }

    /// The `width` bits at offset `at`.
    #[inline]
    pub fn get(self, at: u32, width: u32) -> u64 {
        (self.0 >> at) & mask(width)
    }

    pub fn action(self) -> Action {
        Action(self.0)
    }
}

impl From<Action> for Bits {
    fn from(a: Action) -> Bits {
        Bits(a.0)
    }
}

#[inline]
fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// A hex as its printed column and row, twelve bits each, column in the low half.
#[inline]
pub fn hex_col_row(hex: Hex) -> u64 {
    let (c, r) = col_row(hex);
    (c as u64 & 0xfff) | ((r as u64 & 0xfff) << 12)
}

/// The hex [`hex_col_row`] packed; `None` for column or row 0, which no printed map has.
#[inline]
pub fn col_row_hex(bits: u64) -> Option<Hex> {
    let (c, r) = ((bits & 0xfff) as i32, ((bits >> 12) & 0xfff) as i32);
    (c >= 1 && r >= 1).then(|| hex_at(c, r))
}

/// A hex as its printed row and column, twelve bits each, row in the low half.
#[inline]
pub fn hex_row_col(hex: Hex) -> u64 {
    let (c, r) = col_row(hex);
    ((c as u64 & 0xfff) << 12) | (r as u64 & 0xfff)
}

/// The hex [`hex_row_col`] packed.
#[inline]
pub fn row_col_hex(bits: u64) -> Hex {
    hex_at(((bits >> 12) & 0xfff) as i32, (bits & 0xfff) as i32)
}

/// A hex by its axial coordinates, sixteen bits each (x high, y low): any hex, on the map or
/// off it.
#[inline]
pub fn hex_axial(h: Hex) -> u64 {
    (((h.x as i16) as u16 as u64) << 16) | ((h.y as i16) as u16 as u64)
}

/// The hex [`hex_axial`] packed.
#[inline]
pub fn axial_hex(v: u64) -> Hex {
    Hex::new(((v >> 16) as u16) as i16 as i32, (v as u16) as i16 as i32)
}

/// An action's notation read word by word: `move r1 0304` is the verb `move`, then a unit, then
/// a hex. Each reader refuses with what it expected and what it found.
#[derive(Clone, Debug)]
pub struct Words<'a> {
    text: &'a str,
    words: std::iter::Peekable<std::str::SplitWhitespace<'a>>,
}

impl<'a> Words<'a> {
    pub fn new(text: &'a str) -> Words<'a> {
        Words {
            text,
            words: text.split_whitespace().peekable(),
        }
    }

    /// The whole text being read.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The first word, in lower case ("" for an empty text).
    pub fn verb(&mut self) -> String {
        self.words.next().unwrap_or("").to_ascii_lowercase()
    }

    /// The next word, if any.
    pub fn next_word(&mut self) -> Option<&'a str> {
        self.words.next()
    }

    /// The next word, not taken.
    pub fn peek(&mut self) -> Option<&'a str> {
        self.words.peek().copied()
    }

    /// Whether every word has been read.
    pub fn done(&mut self) -> bool {
        self.words.peek().is_none()
    }

    /// The next word; `what` names it in the refusal when there is none ("a unit id").
    pub fn word(&mut self, what: &str) -> Result<&'a str, Illegal> {
        self.words
            .next()
            .ok_or_else(|| Illegal::new(format!("\"{}\": expected {what} next", self.text.trim())))
    }

    /// The next word as a hex label (`0304`).
    pub fn hex(&mut self) -> Result<Hex, Illegal> {
        let w = self.word("a hex such as 0304")?;
        parse_label(w).ok_or_else(|| {
            Illegal::new(format!("\"{w}\" is not a hex (a hex is written like 0304)"))
        })
    }

    /// The next word as a facing (`N`, `NE`, `SE`, `S`, `SW`, `NW`).
    pub fn facing(&mut self) -> Result<Facing, Illegal> {
        let w = self.word("a facing (N, NE, SE, S, SW or NW)")?;
        Facing::parse(w).ok_or_else(|| {
            Illegal::new(format!("\"{w}\" is not a facing (N, NE, SE, S, SW or NW)"))
        })
    }

    /// The next word as a whole number; `what` names it ("a group number").
    pub fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, Illegal> {
        let w = self.word(what)?;
        w.parse()
            .map_err(|_| Illegal::new(format!("\"{w}\" is not {what}")))
    }

    /// The next word as one of `ids` (case as written), giving its index; `what` names the
    /// kind ("unit", "commander").
    pub fn named<S: AsRef<str>>(
        &mut self,
        ids: impl IntoIterator<Item = S>,
        what: &str,
    ) -> Result<usize, Illegal> {
        let w = self.word(&format!("a {what} id"))?;
        ids.into_iter()
            .position(|id| id.as_ref() == w)
            .ok_or_else(|| Illegal::new(format!("no {what} \"{w}\" in this game")))
    }

    /// The words not read yet, joined by single spaces.
    pub fn rest(&mut self) -> String {
        self.words.by_ref().collect::<Vec<_>>().join(" ")
    }

    /// Refuses words left over.
    pub fn end(mut self) -> Result<(), Illegal> {
        match self.words.next() {
            None => Ok(()),
            Some(w) => Err(Illegal::new(format!(
                "\"{}\": too many words (\"{w}\" and after)",
                self.text.trim()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Toy {
        Move { unit: usize, to: Hex },
        End,
    }

    impl Codec for Toy {
        fn pack(self) -> Action {
            match self {
                Toy::Move { unit, to } => Bits::new()
                    .put(0, 4, 1)
                    .put(4, 12, unit as u64)
                    .put(16, 24, hex_col_row(to))
                    .action(),
                Toy::End => Bits::new().put(0, 4, 2).action(),
            }
        }
        fn decode(action: Action) -> Option<Toy> {
            let b = Bits::from(action);
            match b.get(0, 4) {
                1 => Some(Toy::Move {
                    unit: b.get(4, 12) as usize,
                    to: col_row_hex(b.get(16, 24))?,
                }),
                2 => Some(Toy::End),
                _ => None,
            }
        }
    }

    #[test]
    fn orders_pack_and_unpack_exactly() {
        let m = Toy::Move {
            unit: 7,
            to: hex_at(3, 4),
        };
        assert_eq!(Toy::unpack(m.pack()), Some(m));
        assert_eq!(Toy::unpack(Toy::End.pack()), Some(Toy::End));
        // A stray bit makes it no order, though a lenient read would pass it.
        let stray = Action(Toy::End.pack().0 | 1 << 40);
        assert_eq!(Toy::decode(stray), Some(Toy::End));
        assert_eq!(Toy::unpack(stray), None);
    }

    #[test]
    fn hexes_pack_in_each_layout() {
        for (c, r) in [(1, 1), (3, 4), (64, 40), (120, 99)] {
            let h = hex_at(c, r);
            assert_eq!(col_row_hex(hex_col_row(h)), Some(h));
            assert_eq!(row_col_hex(hex_row_col(h)), h);
            assert_eq!(axial_hex(hex_axial(h)), h);
        }
        assert_eq!(hex_col_row(hex_at(3, 4)), 3 | 4 << 12);
        assert_eq!(hex_row_col(hex_at(3, 4)), 3 << 12 | 4);
    }

    #[test]
    fn words_read_verbs_units_hexes_and_facings_and_say_what_was_wrong() {
        let ids = ["r1", "b1"];
        let mut w = Words::new("Move b1 0304");
        assert_eq!(w.verb(), "move");
        assert_eq!(w.named(ids, "unit"), Ok(1));
        assert_eq!(w.hex(), Ok(hex_at(3, 4)));
        assert!(w.end().is_ok());

        let mut w = Words::new("face r1 up");
        w.verb();
        w.named(ids, "unit").unwrap();
        assert_eq!(
            w.facing().unwrap_err().to_string(),
            "\"up\" is not a facing (N, NE, SE, S, SW or NW)"
        );
        let mut w = Words::new("move x9 0304");
        w.verb();
        assert_eq!(
            w.named(ids, "unit").unwrap_err().to_string(),
            "no unit \"x9\" in this game"
        );
        let mut w = Words::new("move r1");
        w.verb();
        w.named(ids, "unit").unwrap();
        assert_eq!(
            w.hex().unwrap_err().to_string(),
            "\"move r1\": expected a hex such as 0304 next"
        );
        let mut w = Words::new("end now");
        w.verb();
        assert_eq!(
            w.end().unwrap_err().to_string(),
            "\"end now\": too many words (\"now\" and after)"
        );
        let mut w = Words::new("reorder 2 attack 0804");
        w.verb();
        assert_eq!(w.number::<u8>("a group number"), Ok(2));
        assert_eq!(w.rest(), "attack 0804");
    }
}
