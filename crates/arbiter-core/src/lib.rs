//! Arbiter's rules engine: the domain of chess team competitions, pure of I/O.
//!
//! - [`model`]: what happened (teams, rounds, matches, boards).
//! - [`ruleset`]: the rules as data, with the shipped presets.
//! - [`scoring`]: what each game and match is worth (GT-S1..GT-S4, GT-M5, GT-M7, AS-15).
//! - [`criteria`] and [`mod@standings`]: the ordered criteria and the tie algorithm (AS-14..AS-18, GT-S5).
//! - [`fide`]: FIDE C.07 team tie-breaks.
//! - [`rating`]: league, FIDE, US Chess and Glicko-2 ratings replayed period by period
//!   (GT-R1..GT-R5, B.02); [`rated_games`]: which games of a competition count for them.
//! - [`lineup`]: the rules a lineup keeps, before the match (refused) and after it (a
//!   violation): board order, provisional players, sister teams, withdrawals (GT-M9..GT-M14,
//!   GT-R7, AS-4, AS-10).
//! - [`eligibility`]: one player, one person across a season's or event's competitions, by
//!   the identity kept for them: first teams (GT-M15) and overlapping dates (AS-3), refused
//!   before and found after; a name only suggests a link.
//! - [`calendar`]: the school calendar, its closures and match days (GT-M2).
//! - [`fixture`]: when and where each match is played (GT-M1, GT-M2, AS-1), whether it will
//!   not be (GT-M5), a team's next match, and a calendar event's sequence.
//! - [`schedule`]: Berger round-robin tables (AS-19), placed on the calendar's match days.
//! - [`postpone`]: what moving a match to another day would break (GT-M2), in the playoffs too
//!   (GT-F4).
//! - [`suspend`]: the schedule suspended in severe weather, every match still to play shifted
//!   by the match days lost (GT-F5).
//! - [`permissions`]: who may do what in a league or event (GT-O3).
//! - [`report`]: the result workflow, entered, confirmed or disputed (GT-P2).
//! - [`roster`]: players added to the rosters, each to their school's team, with GT-R7's
//!   eligibility and every problem at its line.
//! - [`entry`]: a result as entered, read into a match outcome with every problem named.
//! - [`check`]: everything a competition (or a season) breaks, errors and violations alike.
//! - [`validate`]: what a competition record breaks of its ruleset (GT-M4, GT-M9, GT-M10).
//! - [`ledger`]: the fee ledger: each school's entry fee once a season, payments, refunds,
//!   prize purchases and the league's cash (GT-O2).
//! - [`qualify`]: the teams each division sends to the playoffs, ties at the cut-off shown or
//!   left to the officers (GT-F3), and the playoff field seeded.
//! - [`bracket`]: the playoff tournament: a seeded knockout with byes and its drawn matches
//!   decided by the ruleset's tiebreak, or a round robin; its calendar with GT-F5's bye date.
//! - [`awards`]: the division winners' and the playoff's trophies, the players each belongs to
//!   (GT-F2), the top scores on each board (GT-F1, GT-F3).
//! - [`race`]: the best and worst final place each team can still reach from the first round,
//!   exact under the division's criteria (flow bounds, then a search within a budget; "not yet
//!   decided" past it), with "clinched" and "eliminated", certificates, and what a team needs.
//! - [`media`]: the media report's facts midway and at the end of the season, and the press
//!   release and Markdown made of them (GT-O3).
//! - [`words`]: how core writes a number (`2½`) and a list (`A, B and C`) in its sentences.
//! - [`swiss`]: a team Swiss round paired by FIDE C.04.6, each pair explained; a paired round checked.
//! - [`text`]: how long a reason, name, label, email, description or address a person types may
//!   be; a school's postal address kept line by line.
//! - [`field`]: an ASTC competition's field planned from its entries (AS-4..AS-8), the lot by
//!   [`lot`] from a recorded seed.
//! - [`event`]: an ASTC event, its competitions, days and round times (AS-1..AS-3), and a
//!   round's lineup checked against its deadline (AS-11); [`event_day`]: the roster lock, the
//!   protest window and the lineup deadline as functions of the time (AS-11..AS-13);
//!   [`protest`]: a protest against a roster's order, lodged, replied to and decided (AS-13).
//! - [`zone`]: a league's or event's IANA time zone, in which every day and time a rule counts
//!   is local.
//! - [`sealed`]: who may see a roster or a named lineup, and from when (AS-11, AS-12): its own
//!   team and the arbiter always, the opponent and the public from the lock or the deadline.

#![warn(missing_docs)]

pub mod awards;
pub mod bracket;
pub mod calendar;
pub mod check;
pub mod criteria;
pub mod division;
pub mod eligibility;
pub mod entry;
pub mod event;
pub mod event_day;
pub mod extra;
pub mod fide;
pub mod field;
pub mod fixture;
pub mod game;
pub mod late;
pub mod ledger;
pub mod lineup;
pub mod lot;
pub mod markdown;
pub mod media;
pub mod model;
pub mod notice;
pub mod offers;
pub mod permissions;
pub mod postpone;
pub mod protest;
pub mod qualify;
pub mod race;
pub mod rated_games;
pub mod rating;
pub mod report;
pub mod roster;
pub mod ruleset;
pub mod schedule;
pub mod scoring;
pub mod sealed;
pub mod settings;
pub mod standings;
pub mod suspend;
pub mod swiss;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
pub mod text;
pub mod validate;
pub mod words;
pub mod zone;

pub use criteria::{CriterionKind, CriterionSpec, ScoreBasis};
pub use model::*;
pub use ruleset::{Ruleset, RulesetError, RulesetSpec};
pub use standings::{Standings, standings};
