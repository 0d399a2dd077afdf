//! The JSON API at /api/v1: reads mirroring the public pages, the result writes, the fee
//! ledger (GT-O2), read and written with a token, and the suspension of a season's schedule
//! (GT-F5).

pub mod answer;
pub mod doc;
pub mod ledger;
pub mod read;
pub mod suspension;
pub mod write;
