//! Brigades: the groups a side's units are organised in (Gunpowder 1 d), each with its
//! commander, its number in the Activation Sequence (2.3) and its written order (2.2).
//!
//! ```toml
//! [[brigades]]
//! id = "1st"
//! side = "red"
//! name = "1st Brigade"
//! commander = "R2"
//! activation = 1
//! order = { kind = "attack", hex = "0605" }
//! order_changes = 3      # the limit of 2.2.1; else the commander's Initiative
//! ```
//!
//! Units name theirs with `brigade = "1st"`.

use crate::orders::{Order, OrderKind, Standing};
use serde::Deserialize;
use toml::Spanned;
use volley_core::map::Map;
use volley_core::scenario::Ids;
use volley_core::{Name, ScenarioError, ScenarioSource, Side};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrigadeSpec {
    pub id: Spanned<String>,
    pub side: Spanned<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub commander: Option<Spanned<String>>,
    #[serde(default)]
    pub activation: Option<Spanned<u8>>,
    #[serde(default)]
    pub order: Option<OrderSpec>,
    #[serde(default)]
    pub order_changes: Option<Spanned<u8>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderSpec {
    pub kind: Spanned<String>,
    #[serde(default)]
    pub hex: Option<Spanned<String>>,
}

impl OrderSpec {
    pub fn read(&self, src: &ScenarioSource, map: &Map) -> Result<Order, ScenarioError> {
        let kind = OrderKind::parse(self.kind.get_ref()).ok_or_else(|| {
            src.error_at(
                self.kind.span(),
                format!(
                    "unknown order \"{}\" (expected attack, march, hold, withdraw or reserve)",
                    self.kind.get_ref()
                ),
            )
        })?;
        let hex = match (&self.hex, kind.has_hex()) {
            (Some(h), true) => Some(src.hex(h, map)?),
            (None, false) => None,
            (None, true) => {
                return Err(src.error_at(
                    self.kind.span(),
                    format!("a {} order names its hex: hex = \"0605\"", kind.name()),
                ))
            }
            (Some(h), false) => {
                return Err(src.error_at(h.span(), "a reserve order names no hex"));
            }
        };
        Ok(Order { kind, hex })
    }
}

/// A brigade in play.
#[derive(Clone, Debug)]
pub struct Brigade {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    /// Its commander's id, if it has one.
    pub commander: Option<Name>,
    /// Its number in the Activation Sequence; none for groups that float.
    pub activation: Option<u8>,
    /// The order it follows (written orders in play), if any.
    pub order: Option<Order>,
    /// Order changes it may still attempt (2.2.1), when the scenario limits them; otherwise its
    /// commander's Initiative, counted down in `changes_made`.
    pub changes_limit: Option<u8>,
    pub changes_made: u8,
    /// The game turn of its last order change attempt: one a turn.
    pub tried_turn: Option<u32>,
    /// What a failed decision has left it doing.
    pub standing: Standing,
}

/// Reads the scenario's brigades.
pub fn read(
    src: &ScenarioSource,
    map: &Map,
    ids: &mut Ids,
    specs: &[BrigadeSpec],
) -> Result<Vec<Brigade>, ScenarioError> {
    let mut out = Vec::new();
    for b in specs {
        ids.claim(src, &b.id)?;
        let order = b.order.as_ref().map(|o| o.read(src, map)).transpose()?;
        out.push(Brigade {
            id: b.id.get_ref().as_str().into(),
            name: if b.name.is_empty() {
                b.id.get_ref().as_str().into()
            } else {
                b.name.as_str().into()
            },
            side: src.side(&b.side)?,
            commander: b.commander.as_ref().map(|c| c.get_ref().as_str().into()),
            activation: b.activation.as_ref().map(|a| *a.get_ref()),
            order,
            changes_limit: b.order_changes.as_ref().map(|c| *c.get_ref()),
            changes_made: 0,
            tried_turn: None,
            standing: Standing::default(),
        });
    }
    Ok(out)
}
