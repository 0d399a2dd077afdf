//! FIDE team tie-breaks (Handbook C.07, arts. 6-16), computed on the score sheet.

use crate::criteria::{FideCode, FideTiebreak};
use crate::standings::{Context, CriterionValue, StandingsError};

/// Whether the tie-break looks only at the games among the tied teams (C.07 art. 4.3 type A).
pub fn is_group_tiebreak(tb: &FideTiebreak) -> bool {
    matches!(
        tb.code,
        FideCode::De
            | FideCode::Ede
            | FideCode::Edet
            | FideCode::Edeb
            | FideCode::Edebt
            | FideCode::Edebb
    )
}

/// Values of a tie-break that depends on each team's own record and its opponents'.
pub fn team_values(
    _ctx: &Context<'_>,
    tb: &FideTiebreak,
) -> Result<Vec<CriterionValue>, StandingsError> {
    Err(StandingsError(format!(
        "the FIDE tie-break {:?} ({}) is not implemented yet",
        tb.code,
        tb.code.article()
    )))
}

/// Values of a direct-encounter tie-break on the mini-table of `group`, in `group`'s order.
pub fn group_values(
    _ctx: &Context<'_>,
    tb: &FideTiebreak,
    _group: &[usize],
) -> Result<Vec<CriterionValue>, StandingsError> {
    Err(StandingsError(format!(
        "the FIDE tie-break {:?} ({}) is not implemented yet",
        tb.code,
        tb.code.article()
    )))
}
