//! Who plays whom: a team Swiss round by FIDE C.04.6, the Berger round-robin tables, and a lot
//! drawn from a recorded seed.
//!
//! - [`swiss`]: a team Swiss round paired by FIDE C.04.6, each pair explained; a paired round checked.
//! - [`schedule`]: all-play-all schedules from the FIDE Berger tables (AS-19).
//! - [`lot`]: a lot drawn from a recorded seed (AS-8).

pub mod lot;
pub mod schedule;
pub mod swiss;
