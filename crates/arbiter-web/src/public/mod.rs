//! The public pages: leagues, seasons, standings, crosstables, rounds, teams, players and the
//! explanation of the order.

pub mod handlers;
pub mod pages;
pub mod ratings;
pub mod site;
