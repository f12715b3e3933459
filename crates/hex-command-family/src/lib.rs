//! The Hex Command family: what Hex Command (Gunpowder) and Hex Command: Mechanized share,
//! written once for both rulesets.
//!
//! - [`cvs`]: the Command Valuation System, a commander's five traits and the chart that rolls
//!   them (Gunpowder 2.2, 2.2.3);
//! - [`orders`]: written orders, order changes and the decision-failure table (2.2.1, 2.2.2);
//! - [`commanders`]: where each commander is posted this turn, taken back and lost (2, 6, Rules
//!   by Sequence 1);
//! - [`brigades`]: the groups units belong to, with their commander, activation number and
//!   order;
//! - [`activation`]: the A/B system and the Activation Sequence (hand-out, 2.3);
//! - [`turns`]: a game turn's order of play, stepped activation by activation (3, 2.3);
//! - [`reinforcements`]: arrivals at entry hexes (4);
//! - [`markers`]: markers for unseen units, and decoys among them (Hidden Movement);
//! - [`ground`]: the map with what the armies build on it (Constructions chart, section 3);
//! - [`lines`]: the lines of sight of a map, remembered as they are walked;
//! - [`sight`]: line of sight and cover (7 h–7 j, 7 p).
//!
//! The two sequences of play run on [`turns`] (the A/B player turns and the activation
//! schedule stepped), [`reinforcements::arrive`] (each group's arrival, over the ruleset's own
//! [`reinforcements::Arriving`] steps) and [`commanders`]; each ruleset keeps its own tables,
//! combat and the steps that are its own.

pub mod activation;
pub mod brigades;
pub mod commanders;
pub mod cvs;
pub mod ground;
pub mod lines;
pub mod markers;
pub mod orders;
pub mod reinforcements;
pub mod sight;
pub mod turns;
