//! A league's season as it runs (the GTHSCL's): its divisions and their fixtures, results
//! entered, confirmed or disputed, late teams and forfeits, extra games and game scores, moves and
//! suspensions, who is told what, and the fee ledger.
//!
//! - [`division`]: a division set up for a season: its teams drawn into a round robin on the match days (GT-O1, GT-M2).
//! - [`fixture`]: when and where each match is played (GT-M1, GT-M2, AS-1), and a team's next match.
//! - [`report`]: the result workflow of GT-P2: entered, confirmed or disputed, decided.
//! - [`entry`]: a result as entered, read into a match outcome with every problem named.
//! - [`late`]: a team that came late (GT-M6, GT-S3).
//! - [`extra`]: games recorded with a match outside its score: challenge games (GT-R5), unranked games (GT-R7).
//! - [`game`]: a game's moves, read and played (GT-M20).
//! - [`postpone`]: what moving a match to another day would break (GT-M2, GT-F4).
//! - [`suspend`]: the schedule suspended in severe weather and shifted by the match days lost (GT-F5).
//! - [`notice`]: who is told what, by mail (GT-P2, GT-O3, GT-M2).
//! - [`offers`]: what a ruleset's competitions offer on their pages and in their mails.
//! - [`check`]: everything a competition breaks, errors and violations alike.
//! - [`fines`]: the fines a league's ruleset sets for forfeits, defaults, drops and late results.
//! - [`ledger`]: the fee ledger: entry fees, payments, refunds, prizes and the league's cash (GT-O2).

pub mod check;
pub mod division;
pub mod entry;
pub mod extra;
pub mod fines;
pub mod fixture;
pub mod game;
pub mod late;
pub mod ledger;
pub mod notice;
pub mod offers;
pub mod postpone;
pub mod report;
pub mod suspend;
