//! The JSON API at /api/v1: reads mirroring the public pages, the result writes, the fee
//! ledger (GT-O2), read and written with a token, and the suspension of a season's schedule
//! (GT-F5), and a team Swiss's next round, read and published (issue 17), and a roster's
//! changes (issue 16).

pub mod answer;
pub mod doc;
pub mod ledger;
pub mod pairing;
pub mod rating_lists;
pub mod read;
pub mod rosters;
pub mod settings;
pub mod suspension;
pub mod write;
