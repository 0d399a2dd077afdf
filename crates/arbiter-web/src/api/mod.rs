//! The JSON API at /api/v1: reads mirroring the public pages, the result writes, and the fee
//! ledger (GT-O2), read and written with a token.

pub mod answer;
pub mod doc;
pub mod ledger;
pub mod read;
pub mod write;
