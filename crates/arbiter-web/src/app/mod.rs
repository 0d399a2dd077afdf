//! The application's state: the store, the computed views of each competition and the pages
//! drawn from them, the league tree, a season's competitions read together, and serving a
//! cached page.

pub mod address;
pub mod cache;
pub mod ratings;
pub mod respond;
pub mod season;
pub mod site;
pub mod state;
pub mod view;
