//! The season's end, and the race that leads to it: who qualifies for the playoffs, the playoff
//! bracket, the trophies and top scores, the race told from the first round, and the media report.
//!
//! - [`qualify`]: the teams each division sends to the playoffs, ties at the cut-off shown (GT-F3).
//! - [`bracket`]: the playoff tournament: a seeded knockout or a round robin, and its calendar (GT-F3, GT-F5).
//! - [`awards`]: the trophies and the top scores on each board (GT-F1, GT-F2, GT-F3).
//! - [`race`]: each team's best and worst final place, clinched and eliminated, and what a team needs.
//! - [`media`]: the media report midway and at the end of the season (GT-O3).

pub mod awards;
pub mod bracket;
pub mod media;
pub mod qualify;
pub mod race;
