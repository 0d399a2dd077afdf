//! Everything a competition breaks of its rules, the record's problems and its lineups'
//! alike, without stopping at the first: what `arbiter check` prints and the officers' page
//! lists. `validate` finds what stops a record being scored; `lineup` what was played against
//! the rules.

use crate::rating::list::RatingList;
use crate::record::model::Competition;
use crate::rules::ruleset::Ruleset;
use crate::rules::validate::{self, Finding};
use crate::teams::eligibility::{self, SeasonEntry, SeasonFinding};
use crate::teams::lineup::{self, NamedLineup};

/// Every finding of one competition: the record's own (errors and warnings), then its
/// lineups' and rosters' violations.
pub fn competition(c: &Competition, rules: &Ruleset, named: &[NamedLineup]) -> Vec<Finding> {
    competition_with(c, rules, named, &[])
}

/// [`competition`] with the league's published rating lists (`[lineup] ratings = "list"`).
pub fn competition_with(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    lists: &[RatingList],
) -> Vec<Finding> {
    let mut out = validate::validate(c, rules);
    // A record that cannot be scored cannot be ranked either: its lineups wait for the fix.
    if !out.iter().any(Finding::is_error) {
        out.extend(lineup::check_competition_with(c, rules, named, lists));
    }
    out
}

/// Every finding of a season's (or event's) competitions: each one's own, in the order given,
/// then those across them (GT-M15, AS-3).
pub fn season(entries: &[SeasonEntry]) -> Vec<SeasonFinding> {
    let mut out: Vec<SeasonFinding> = entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| {
            competition_with(e.competition, e.rules, e.named, e.lists)
                .into_iter()
                .map(move |finding| SeasonFinding {
                    competition: i,
                    finding,
                })
        })
        .collect();
    out.extend(eligibility::check_season(entries));
    out.sort_by_key(|f| f.competition);
    out
}
