//! The public pages: leagues, seasons, standings, crosstables, rounds, teams, players and the
//! explanation of the order; the schedule as iCalendar feeds.

pub mod exports;
pub mod handlers;
pub mod home;
pub mod pages;
pub mod ratings;
pub mod schedule;
pub mod schedule_sheet;
pub mod schools;
pub mod site;
