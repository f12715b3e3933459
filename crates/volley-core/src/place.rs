//! Where a unit is. On a hex map (or a square grid) that is a cell, written as its printed
//! label (`0304`); on a measured table it is a point in centimetres with a facing angle.
//! Views, events and actions carry a [`Place`], so a client can draw either.

use crate::geometry::{label, parse_label};
use hexx::Hex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A unit's place: `{"hex": "0304"}` or `{"point": {"x": 12.5, "y": 40, "facing": 90}}` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// A hex, or a tile of a square grid, by its printed column and row.
    Hex(#[serde(with = "as_label")] Hex),
    /// A point on a measured table.
    Point(Point),
}

/// A point on a measured table: centimetres from the table's top-left corner (x to the right,
/// y down), and the direction the unit faces in degrees clockwise from north (up the table).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub x: f32,
    pub y: f32,
    pub facing: f32,
}

impl Place {
    /// The hex, when this place is one.
    pub fn hex(&self) -> Option<Hex> {
        match self {
            Place::Hex(h) => Some(*h),
            Place::Point(_) => None,
        }
    }

    /// Whether this is the hex a label names.
    pub fn is_hex(&self, text: &str) -> bool {
        self.hex().is_some_and(|h| parse_label(text) == Some(h))
    }
}

/// A place equals a label when it is that hex: `place == "0304"`.
impl PartialEq<&str> for Place {
    fn eq(&self, other: &&str) -> bool {
        self.is_hex(other)
    }
}

impl PartialEq<str> for Place {
    fn eq(&self, other: &str) -> bool {
        self.is_hex(other)
    }
}

impl From<Hex> for Place {
    fn from(h: Hex) -> Place {
        Place::Hex(h)
    }
}

impl fmt::Display for Place {
    /// A hex as its label (`0304`); a point as `(12.5, 40.0) facing 90°`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Hex(h) => f.write_str(&label(*h)),
            Place::Point(p) => write!(f, "({:.1}, {:.1}) facing {:.0}°", p.x, p.y, p.facing),
        }
    }
}

mod as_label {
    use super::*;

    pub fn serialize<S: Serializer>(h: &Hex, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&label(*h))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let text = String::deserialize(d)?;
        parse_label(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected a hex label like \"0304\", found \"{text}\""
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hex_at;

    #[test]
    fn a_hex_serialises_as_its_label_and_a_point_as_centimetres_and_a_facing() {
        let hex = Place::Hex(hex_at(3, 4));
        assert_eq!(serde_json::to_string(&hex).unwrap(), r#"{"hex":"0304"}"#);
        assert_eq!(
            serde_json::from_str::<Place>(r#"{"hex":"0304"}"#).unwrap(),
            hex
        );
        let point = Place::Point(Point {
            x: 12.5,
            y: 40.0,
            facing: 90.0,
        });
        let text = serde_json::to_string(&point).unwrap();
        assert_eq!(text, r#"{"point":{"x":12.5,"y":40.0,"facing":90.0}}"#);
        assert_eq!(serde_json::from_str::<Place>(&text).unwrap(), point);
        assert_eq!(point.hex(), None);
        assert_eq!(point.to_string(), "(12.5, 40.0) facing 90°");
        assert!(hex.is_hex("0304") && !hex.is_hex("0305"));
        let bad = serde_json::from_str::<Place>(r#"{"hex":"3x"}"#).unwrap_err();
        assert!(bad.to_string().contains("expected a hex label"), "{bad}");
    }
}
