//! Who plays for a team: rosters, lineups and the rules they keep, one player as one person
//! across a season's or event's competitions, and who may see a sealed roster or lineup.
//!
//! - [`roster`]: players added to the rosters, each to their school's team, with GT-R7's eligibility.
//! - [`lineup`]: the rules a lineup keeps, before the match (refused) and after it (a violation): board order, provisional players, sister teams (GT-M9..GT-M14, GT-R7, AS-4, AS-10).
//! - [`eligibility`]: one player, one person: first teams (GT-M15) and overlapping dates (AS-3).
//! - [`sealed`]: who may see a roster or a named lineup, and from when (AS-11, AS-12).

pub mod eligibility;
pub mod lineup;
pub mod roster;
pub mod sealed;
