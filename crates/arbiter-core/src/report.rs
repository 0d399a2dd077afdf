//! The result workflow of GT-P2: the home team enters the result, the visiting team confirms or
//! disputes it, and a dispute is decided by a correction (a new version) or by confirming it.
//!
//! The store keeps every result version and every review; [`status`] reads them and says where
//! the match stands. Deadlines (enter within 1 day, confirm within 5) are [`Deadlines`].

/// What the visiting team said of one version of the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewKind {
    Confirmed,
    Disputed,
}

impl ReviewKind {
    pub fn code(self) -> &'static str {
        match self {
            ReviewKind::Confirmed => "confirmed",
            ReviewKind::Disputed => "disputed",
        }
    }

    pub fn from_code(s: &str) -> Option<ReviewKind> {
        match s {
            "confirmed" => Some(ReviewKind::Confirmed),
            "disputed" => Some(ReviewKind::Disputed),
            _ => None,
        }
    }
}

/// Where a match's report stands (GT-P2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    /// No result has been entered.
    AwaitingResult,
    /// The result in force (this version) awaits the visitors.
    AwaitingConfirmation {
        version: u32,
    },
    Confirmed {
        version: u32,
    },
    /// The visitors disputed this version; an officer decides (GT-O3).
    Disputed {
        version: u32,
    },
}

impl ReportStatus {
    /// A short phrase for pages: "awaiting confirmation".
    pub fn phrase(self) -> &'static str {
        match self {
            ReportStatus::AwaitingResult => "awaiting the result",
            ReportStatus::AwaitingConfirmation { .. } => "awaiting the visitors' confirmation",
            ReportStatus::Confirmed { .. } => "confirmed",
            ReportStatus::Disputed { .. } => "disputed",
        }
    }
}

/// `latest`: the version in force, `None` while no result is entered. `reviews`: every review of
/// the match as (version, kind), oldest first. Only the reviews of the version in force count: a
/// correction needs confirming afresh.
pub fn status(latest: Option<u32>, reviews: &[(u32, ReviewKind)]) -> ReportStatus {
    let Some(version) = latest else {
        return ReportStatus::AwaitingResult;
    };
    match reviews.iter().rev().find(|(v, _)| *v == version) {
        None => ReportStatus::AwaitingConfirmation { version },
        Some((_, ReviewKind::Confirmed)) => ReportStatus::Confirmed { version },
        Some((_, ReviewKind::Disputed)) => ReportStatus::Disputed { version },
    }
}

/// GT-P2's deadlines, in days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    /// The home team enters the result within this many days of the match.
    pub enter_within: i32,
    /// The visiting team confirms (or asks for a correction) within this many days of entry.
    pub confirm_within: i32,
}

impl Deadlines {
    pub const GT_P2: Deadlines = Deadlines {
        enter_within: 1,
        confirm_within: 5,
    };

    pub fn enter_by(self, played_on: jiff::civil::Date) -> jiff::civil::Date {
        played_on.saturating_add(jiff::Span::new().days(self.enter_within))
    }

    pub fn confirm_by(self, entered_on: jiff::civil::Date) -> jiff::civil::Date {
        entered_on.saturating_add(jiff::Span::new().days(self.confirm_within))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gt_p2_a_correction_needs_confirming_afresh() {
        use ReviewKind::{Confirmed, Disputed};
        assert_eq!(status(None, &[]), ReportStatus::AwaitingResult);
        assert_eq!(
            status(Some(1), &[]),
            ReportStatus::AwaitingConfirmation { version: 1 }
        );
        assert_eq!(
            status(Some(1), &[(1, Disputed)]),
            ReportStatus::Disputed { version: 1 }
        );
        // The officer's correction is version 2: the dispute of version 1 no longer stands.
        assert_eq!(
            status(Some(2), &[(1, Disputed)]),
            ReportStatus::AwaitingConfirmation { version: 2 }
        );
        assert_eq!(
            status(Some(2), &[(1, Disputed), (2, Confirmed)]),
            ReportStatus::Confirmed { version: 2 }
        );
        // The latest review of a version is the one that stands.
        assert_eq!(
            status(Some(2), &[(2, Confirmed), (2, Disputed)]),
            ReportStatus::Disputed { version: 2 }
        );
    }

    #[test]
    fn gt_p2_deadlines_are_one_and_five_days() {
        let d = jiff::civil::date(2026, 1, 30);
        assert_eq!(Deadlines::GT_P2.enter_by(d), jiff::civil::date(2026, 1, 31));
        assert_eq!(
            Deadlines::GT_P2.confirm_by(d),
            jiff::civil::date(2026, 2, 4)
        );
    }
}
