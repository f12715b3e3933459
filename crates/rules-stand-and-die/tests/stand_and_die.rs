//! Every rule of Stand and Die, proved through the public game API with scripted dice.

#[path = "stand_and_die/common.rs"]
mod common;
#[path = "stand_and_die/falling_back.rs"]
mod falling_back;
#[path = "stand_and_die/marching.rs"]
mod marching;
#[path = "stand_and_die/musketry.rs"]
mod musketry;
#[path = "stand_and_die/odds.rs"]
mod odds;
#[path = "stand_and_die/orders.rs"]
mod orders;
#[path = "stand_and_die/random_games.rs"]
mod random_games;
#[path = "stand_and_die/scenario.rs"]
mod scenario;
#[path = "stand_and_die/victory.rs"]
mod victory;
#[path = "stand_and_die/water.rs"]
mod water;
