//! Match results: the match page with its forms (enter, correct, confirm, dispute, decide, and
//! each team's lineup before the match) and the write paths the forms and the API share.

pub mod command;
pub mod context;
pub mod extra;
pub mod games;
pub mod lineup;
pub mod notify;
pub mod page;
pub mod round;
pub mod write;
