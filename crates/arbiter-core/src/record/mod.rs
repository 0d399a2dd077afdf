//! What happened, and the values it is told in. Nothing here imports anything of core outside
//! this area: every other area reads it.
//!
//! - [`model`]: the competition as the league records it: teams with their players, rounds, matches and board results.
//! - [`calendar`]: the school calendar: a season's days, its closures and match days (GT-M2).
//! - [`zone`]: a league's or event's IANA time zone, in which every day and time a rule counts is local.
//! - [`money`]: an amount of money in whole cents.
//! - [`text`]: how long a text a person types may be, and a school's postal address line by line.
//! - [`markdown`]: a person's text written into Markdown as text, never as markup.
//! - [`words`]: how core writes a number (`2½`) and a list (`A, B and C`) in its sentences.

pub mod calendar;
pub mod markdown;
pub mod model;
pub mod money;
pub mod text;
pub mod words;
pub mod zone;
