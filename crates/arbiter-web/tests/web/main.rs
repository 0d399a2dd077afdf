//! The pages and the API, tested in-process on an in-memory SQLite store.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod api;
mod calendar;
mod common;
mod connections;
mod demo;
mod findings;
mod history;
mod ledger;
mod limits;
mod lineups;
mod logs;
mod matches;
mod notices;
mod officers;
mod pages;
mod pairing;
mod people;
mod permissions;
mod rosters;
mod round_entry;
mod season_end;
mod setup;
mod snapshots;
mod suspension;
