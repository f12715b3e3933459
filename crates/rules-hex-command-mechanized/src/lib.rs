//! Hex Command: Mechanized (WWII), Cabak, as a Volley ruleset — in progress. What is built so
//! far: the reference charts the rulebook leaves out, authored as data ([`charts`]), the
//! vehicle roster, and vehicle damage ([`damage`]). The machinery it shares with Gunpowder
//! (command valuation, orders, activation, reinforcements, works, line of sight) is in
//! `hex-command-family`. The ruleset is not registered until it plays.

pub mod board;
pub mod charts;
pub mod command_tables;
pub mod damage;
pub mod fire_tables;
pub mod indirect;
pub mod items;
pub mod logistics;
pub mod losses;
pub mod melee_tables;
pub mod moves;
pub mod scenario;
pub mod state;

#[cfg(test)]
mod tests;
