//! Arbiter's rules engine: the domain of chess team competitions, pure of I/O (no file,
//! network, clock or async: time is a parameter).
//!
//! The rules are laid out by area, each a folder whose `mod.rs` says what it holds. The two
//! lowest areas are the foundation every other one reads, and import nothing above them:
//!
//! - [`record`]: what happened and the values it is told in: the competition record (teams,
//!   rounds, matches, boards), the school calendar, the time zone, money, a person's text, and
//!   the words core writes numbers and lists in.
//! - [`rules`]: the ruleset as data with its presets and the settings it holds for each area,
//!   the standings criteria it names, who may act (the permission table), what a record breaks
//!   of its ruleset, and the settings officers change on the site.
//!
//! Above them, areas that may read one another, though no module reaches back round a circle:
//!
//! - [`scoring`]: what games and matches are worth, the standings and FIDE's C.07 tie-breaks.
//! - [`teams`]: rosters, lineups, one player one person across competitions, and who sees a
//!   sealed roster or lineup.
//! - [`season`]: a league's season as it runs: the divisions and their fixtures, results entered
//!   and confirmed, forfeits, extra games, moves, suspensions, notices and the fee ledger.
//! - [`event`]: an event held over a few days (the ASTC): its competitions, deadlines, field
//!   and protests.
//! - [`season_end`]: qualification, the playoff bracket, awards, the race and the media report.
//! - [`rating`]: ratings replayed from the rated games.
//! - [`pairing`]: a team Swiss by FIDE C.04.6, the Berger tables and the lot.
//!
//! A new rule goes into the module of its area, as a function that takes what it needs (time
//! included) and returns a decision with its rule ID and a sentence.

#![warn(missing_docs)]

pub mod event;
pub mod pairing;
pub mod rating;
pub mod record;
pub mod rules;
pub mod scoring;
pub mod season;
pub mod season_end;
pub mod teams;
/// Competitions built in a few lines for tests, here and in other crates' (feature `testing`).
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;

pub use record::model::*;
pub use rules::criteria::{CriterionKind, CriterionSpec, ScoreBasis};
pub use rules::ruleset::{Ruleset, RulesetError, RulesetSpec};
pub use scoring::standings::{Standings, standings};
