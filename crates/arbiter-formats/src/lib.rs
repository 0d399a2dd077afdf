//! Files in and out of Arbiter: the competition JSON (`arbiter/competition@1`) and FIDE TRF.

pub mod competition_json;
pub mod ruleset_file;
pub mod trf;
