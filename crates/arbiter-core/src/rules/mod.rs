//! The rules as data: a ruleset with its presets, each area's settings, the criteria it ranks by,
//! who may act, and what a record breaks of it. Imports nothing of core above `record`.
//!
//! - [`ruleset`]: rulesets as TOML data: the presets `astc`, `gthscl` and `fide-team`, a league's file that `extends` one, every setting checked.
//! - [`sections`]: the settings a ruleset holds for other areas: GT-P2's days, the event's deadlines, the fees, the rating system.
//! - [`criteria`]: standings criteria as a ruleset names them: the rulebooks' and FIDE's C.07 codes.
//! - [`permissions`]: who may do what in a league or event (GT-O3): the one permission table.
//! - [`validate`]: what a competition record breaks of its ruleset (GT-M4, GT-M9, GT-M10, AS-9).
//! - [`settings`]: the settings of a season's rules its officers change on the site.
//! - [`own_words`]: a league's own rule IDs in the sentences core writes by the two rulebooks.

pub mod criteria;
pub mod own_words;
pub mod permissions;
pub mod ruleset;
pub mod sections;
pub mod settings;
pub mod validate;
