//! The standings as CSV: one record a team (rank, place, id, name, then each criterion by its
//! code), and when asked the explanation after an empty record, a sentence a record. The
//! command line's `--format csv` and the site's `standings.csv` write the same bytes.

use arbiter_core::record::model::Competition;
use arbiter_core::scoring::standings::{CriterionValue, Explanation, Standings};

use crate::csv::Writer;

/// `c`'s standings `s` as CSV, with `explanation`'s sentences after them when given.
pub fn write(c: &Competition, s: &Standings, explanation: Option<&[Explanation]>) -> String {
    let mut out = Writer::new();
    let header = ["rank", "place", "team_id", "team"].map(String::from);
    let codes = s.criteria.iter().map(|spec| spec.code.clone());
    out.record(header.into_iter().chain(codes));
    for r in &s.rows {
        let Some(t) = c.teams.get(r.team) else {
            continue;
        };
        let team = [
            r.rank.to_string(),
            r.place.clone(),
            t.id.0.clone(),
            t.name.clone(),
        ];
        let values = r.values.iter().map(CriterionValue::display);
        out.record(team.into_iter().chain(values));
    }
    if let Some(ex) = explanation {
        // After an empty record, a sentence a record, each a cell of its own.
        out.record([""]);
        for e in ex {
            out.record([format!("# {}", e.sentence)]);
        }
    }
    out.finish()
}
