//! One test per rule of Black Powder Tactical Commander, through the game with scripted dice
//! and exact outcomes. Rule numbers are the digest's (B1–B276); the book's sections are
//! mapped to code and tests in docs/rules/bpt-commander.md. Hex labels are column then row;
//! one hex is 5 cm.

#[path = "rules/artillery.rs"]
mod artillery;
#[path = "rules/charge.rs"]
mod charge;
#[path = "rules/command.rs"]
mod command;
#[path = "rules/common.rs"]
mod common;
#[path = "rules/end.rs"]
mod end;
#[path = "rules/firing.rs"]
mod firing;
#[path = "rules/movement.rs"]
mod movement;
#[path = "rules/odds.rs"]
mod odds;
#[path = "rules/optional.rs"]
mod optional;
#[path = "rules/scouting.rs"]
mod scouting;
