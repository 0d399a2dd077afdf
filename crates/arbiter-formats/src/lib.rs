//! Files in and out of Arbiter: the competition JSON (`arbiter/competition@1`), FIDE TRF, and
//! the CSV every export writes.
//!
//! - [`closures_csv`]: a season's closures as CSV, read with every mistake at its line (GT-M2).
//! - [`round_starts_csv`]: an event's round times as CSV, every mistake at its line (AS-3, AS-11).
//! - [`competition_json`]: the native competition file, read with every problem at its place,
//!   and written back.
//! - [`trf`]: FIDE Tournament Report Files (TRF-16, TRF-2026), read and written byte for byte,
//!   and turned into a competition and back.
//! - [`mod@csv`]: the CSV writer and formula guard of every export.
//! - [`field_json`]: an ASTC competition's entries and the previous championship's finish,
//!   read for field planning (AS-4..AS-8) with every problem at its place.
//! - [`ical`]: iCalendar feeds of a schedule, one event a match (issue 12).
//! - [`roster_csv`]: a roster as CSV, read with every mistake at its line (issue 12).
//! - [`teams_csv`]: a division's teams as CSV, read with every mistake at its line (GT-O1).
//! - [`standings_csv`]: the standings as CSV, the explanation after them when asked.
//! - [`rating_list`]: published rating lists (FIDE's XML and TXT, a national CSV), every mistake
//!   at its line.
//! - [`ruleset_file`]: ruleset files on disk, for `extends` and a competition file's `"rules"`.

#![warn(missing_docs)]

pub mod closures_csv;
pub mod competition_json;
pub mod csv;
pub mod field_json;
pub mod ical;
pub mod rating_list;
pub mod roster_csv;
pub mod round_starts_csv;
pub mod ruleset_file;
mod sheet;
pub mod standings_csv;
pub mod teams_csv;
pub mod trf;
