//! Files in and out of Arbiter: the competition JSON (`arbiter/competition@1`), FIDE TRF, and
//! the CSV every export writes.

pub mod competition_json;
pub mod csv;
pub mod ruleset_file;
pub mod trf;
