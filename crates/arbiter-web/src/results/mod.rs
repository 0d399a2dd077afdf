//! Match results: the match page with its forms (enter, correct, confirm, dispute, decide)
//! and the one write path the forms and the API share.

pub mod context;
pub mod page;
pub mod write;
