//! The result workflow of GT-P2: the home team enters the result, the visiting team confirms or
//! disputes it, and an officer decides a dispute: by keeping the result as entered or by
//! correcting it (a new version). GT-O3: the Vice-President decides when the President's own
//! school plays (the permission table says who; this module says where a match stands).
//!
//! Who entered the version in force matters: a result imported from a file or the command line
//! stands as recorded, and one entered or corrected by an officer (or by an event's arbiter) is
//! decided; only an advisor's entry awaits the visitors. The store keeps every result version and
//! every review with the role it was made in; [`status`] reads them. Deadlines (enter within 1
//! day, confirm within 5) are [`Deadlines`].

use crate::permissions::Role;

/// What a review said of one version of the result. The visitors confirm or dispute; an
/// officer's `Confirmed` of a disputed version decides the dispute: the result stands.
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

/// Who entered a result version, as far as GT-P2 cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnteredBy {
    /// A file or the command line, with no signed-in person: it stands as recorded.
    Import,
    /// A school's advisor (the home team, GT-M1): it awaits the visitors.
    Team,
    /// An officer, or an event's arbiter: their entry or correction is decided and stands.
    Officer,
}

impl EnteredBy {
    /// From what the store keeps of a version: the person (none for an import) and the role code
    /// they acted in. A person without a known officer role counts as a team: their entry awaits
    /// the visitors rather than standing unchecked.
    pub fn of(person: Option<&str>, role: Option<&str>) -> EnteredBy {
        match (person, role.and_then(Role::from_code)) {
            (None, _) => EnteredBy::Import,
            (Some(_), Some(r)) if r.is_officer() => EnteredBy::Officer,
            (Some(_), _) => EnteredBy::Team,
        }
    }
}

/// The version in force (it holds a result) and who entered it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub version: u32,
    pub by: EnteredBy,
}

/// Who reviewed a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewedBy {
    /// The visiting advisor (or anyone not in an officer's role).
    Visitors,
    /// An officer deciding a dispute (GT-O3).
    Officer,
}

impl ReviewedBy {
    /// From the role code a review was made in.
    pub fn of(role: Option<&str>) -> ReviewedBy {
        match role.and_then(Role::from_code) {
            Some(r) if r.is_officer() => ReviewedBy::Officer,
            _ => ReviewedBy::Visitors,
        }
    }
}

/// One review of one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Review {
    pub version: u32,
    pub kind: ReviewKind,
    pub by: ReviewedBy,
}

/// Where a match's report stands (GT-P2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    /// No result has been entered.
    AwaitingResult,
    /// The result in force (this version), an advisor's entry, awaits the visitors.
    AwaitingConfirmation { version: u32 },
    /// The visitors confirmed it.
    Confirmed { version: u32 },
    /// The visitors disputed this version; an officer decides (GT-O3).
    Disputed { version: u32 },
    /// Imported from a file or the command line: it stands as recorded.
    Recorded { version: u32 },
    /// Entered or corrected by an officer or the arbiter, or a dispute an officer decided by
    /// keeping the entered result: it stands.
    Decided { version: u32 },
}

impl ReportStatus {
    /// A short phrase for pages: "awaiting the visitors' confirmation".
    pub fn phrase(self) -> &'static str {
        match self {
            ReportStatus::AwaitingResult => "awaiting the result",
            ReportStatus::AwaitingConfirmation { .. } => "awaiting the visitors' confirmation",
            ReportStatus::Confirmed { .. } => "confirmed",
            ReportStatus::Disputed { .. } => "disputed",
            ReportStatus::Recorded { .. } => "recorded",
            ReportStatus::Decided { .. } => "decided",
        }
    }

    /// The word for machines: `awaiting_result`, `awaiting_confirmation`, `confirmed`,
    /// `disputed`, `recorded`, `decided`.
    pub fn code(self) -> &'static str {
        match self {
            ReportStatus::AwaitingResult => "awaiting_result",
            ReportStatus::AwaitingConfirmation { .. } => "awaiting_confirmation",
            ReportStatus::Confirmed { .. } => "confirmed",
            ReportStatus::Disputed { .. } => "disputed",
            ReportStatus::Recorded { .. } => "recorded",
            ReportStatus::Decided { .. } => "decided",
        }
    }

    /// The version the status is about; `None` while no result is entered.
    pub fn version(self) -> Option<u32> {
        match self {
            ReportStatus::AwaitingResult => None,
            ReportStatus::AwaitingConfirmation { version }
            | ReportStatus::Confirmed { version }
            | ReportStatus::Disputed { version }
            | ReportStatus::Recorded { version }
            | ReportStatus::Decided { version } => Some(version),
        }
    }

    /// Nothing more is asked of anyone: the result stands (a correction can still change it).
    pub fn is_settled(self) -> bool {
        matches!(
            self,
            ReportStatus::Confirmed { .. }
                | ReportStatus::Recorded { .. }
                | ReportStatus::Decided { .. }
        )
    }
}

/// `latest`: the version in force with who entered it, `None` while no result is entered.
/// `reviews`: every review of the match, oldest first. Only the reviews of the version in force
/// count, and of them the latest: a team's re-entry needs confirming afresh. An import stands as
/// recorded and an officer's entry or correction is decided, whatever was said of older versions.
pub fn status(latest: Option<Entry>, reviews: &[Review]) -> ReportStatus {
    let Some(Entry { version, by }) = latest else {
        return ReportStatus::AwaitingResult;
    };
    match by {
        EnteredBy::Import => return ReportStatus::Recorded { version },
        EnteredBy::Officer => return ReportStatus::Decided { version },
        EnteredBy::Team => {}
    }
    match reviews.iter().rev().find(|r| r.version == version) {
        None => ReportStatus::AwaitingConfirmation { version },
        Some(Review {
            kind: ReviewKind::Confirmed,
            by: ReviewedBy::Visitors,
            ..
        }) => ReportStatus::Confirmed { version },
        // GT-O3: the officer kept the entered result; the dispute is decided.
        Some(Review {
            kind: ReviewKind::Confirmed,
            by: ReviewedBy::Officer,
            ..
        }) => ReportStatus::Decided { version },
        Some(Review {
            kind: ReviewKind::Disputed,
            ..
        }) => ReportStatus::Disputed { version },
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

    /// What one side's advisor has to do for a match on `today`, if anything: the home team
    /// enters the result once the match day has come, the visitors confirm or dispute an entry
    /// that awaits them. `entered_on` is the day the version in force was entered.
    pub fn task(
        self,
        side: crate::Side,
        status: ReportStatus,
        played_on: Option<jiff::civil::Date>,
        entered_on: Option<jiff::civil::Date>,
        today: jiff::civil::Date,
    ) -> Option<Task> {
        match (side, status) {
            (crate::Side::Home, ReportStatus::AwaitingResult)
                if played_on.is_none_or(|d| d <= today) =>
            {
                let due = played_on.map(|d| self.enter_by(d));
                Some(Task::EnterResult {
                    due,
                    overdue: due.is_some_and(|d| d < today),
                })
            }
            (crate::Side::Away, ReportStatus::AwaitingConfirmation { version }) => {
                let due = entered_on.map(|d| self.confirm_by(d));
                Some(Task::ReviewResult {
                    version,
                    due,
                    overdue: due.is_some_and(|d| d < today),
                })
            }
            _ => None,
        }
    }
}

/// GT-P2 asks for the result after the match: an advisor may not enter it before the match
/// day. An officer (or an event's arbiter) may, for a match played early by arrangement.
/// `None` when the entry may be made; else the sentence that refuses it.
pub fn too_early(
    by: EnteredBy,
    played_on: Option<jiff::civil::Date>,
    today: jiff::civil::Date,
) -> Option<String> {
    match (by, played_on) {
        (EnteredBy::Team, Some(day)) if day > today => Some(format!(
            "GT-P2: this match is set for {}, so its result is entered from that day, after the match. If it was played earlier by arrangement (GT-M2), ask the President to enter it.",
            day.strftime("%a %-d %b %Y")
        )),
        _ => None,
    }
}

/// Something an advisor has to do (GT-P2), with the day it is due by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    EnterResult {
        due: Option<jiff::civil::Date>,
        overdue: bool,
    },
    ReviewResult {
        version: u32,
        due: Option<jiff::civil::Date>,
        overdue: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gt_p2_an_advisor_enters_from_the_match_day_an_officer_any_day() {
        let day = Some(jiff::civil::date(2026, 12, 9));
        let before = jiff::civil::date(2026, 12, 2);
        let text = too_early(EnteredBy::Team, day, before).unwrap();
        assert!(
            text.starts_with("GT-P2: this match is set for Wed 9 Dec 2026"),
            "{text}"
        );
        assert_eq!(
            too_early(EnteredBy::Team, day, jiff::civil::date(2026, 12, 9)),
            None
        );
        assert_eq!(too_early(EnteredBy::Officer, day, before), None);
        assert_eq!(too_early(EnteredBy::Team, None, before), None);
    }

    #[test]
    fn gt_p2_each_side_has_its_task_when_its_turn_comes() {
        use crate::Side::{Away, Home};
        let d = Deadlines::GT_P2;
        let played = Some(jiff::civil::date(2026, 11, 2));
        let before = jiff::civil::date(2026, 11, 1);
        let day_after = jiff::civil::date(2026, 11, 3);
        let later = jiff::civil::date(2026, 11, 10);
        let waiting = ReportStatus::AwaitingResult;
        // Not before the match day; due the day after; overdue later.
        assert_eq!(d.task(Home, waiting, played, None, before), None);
        assert_eq!(
            d.task(Home, waiting, played, None, day_after),
            Some(Task::EnterResult {
                due: Some(day_after),
                overdue: false
            })
        );
        assert!(matches!(
            d.task(Home, waiting, played, None, later),
            Some(Task::EnterResult { overdue: true, .. })
        ));
        assert_eq!(d.task(Away, waiting, played, None, day_after), None);
        // The visitors review within five days of the entry.
        let entered = ReportStatus::AwaitingConfirmation { version: 2 };
        assert_eq!(
            d.task(Away, entered, played, Some(day_after), day_after),
            Some(Task::ReviewResult {
                version: 2,
                due: Some(jiff::civil::date(2026, 11, 8)),
                overdue: false
            })
        );
        assert_eq!(
            d.task(Home, entered, played, Some(day_after), day_after),
            None
        );
        let settled = ReportStatus::Confirmed { version: 2 };
        assert_eq!(d.task(Away, settled, played, Some(day_after), later), None);
    }

    fn team(version: u32) -> Option<Entry> {
        Some(Entry {
            version,
            by: EnteredBy::Team,
        })
    }

    fn visitors(version: u32, kind: ReviewKind) -> Review {
        Review {
            version,
            kind,
            by: ReviewedBy::Visitors,
        }
    }

    fn officer(version: u32, kind: ReviewKind) -> Review {
        Review {
            version,
            kind,
            by: ReviewedBy::Officer,
        }
    }

    #[test]
    fn gt_p2_the_home_teams_entry_awaits_the_visitors() {
        use ReviewKind::{Confirmed, Disputed};
        assert_eq!(status(None, &[]), ReportStatus::AwaitingResult);
        assert_eq!(
            status(team(1), &[]),
            ReportStatus::AwaitingConfirmation { version: 1 }
        );
        assert_eq!(
            status(team(1), &[visitors(1, Confirmed)]),
            ReportStatus::Confirmed { version: 1 }
        );
        assert_eq!(
            status(team(1), &[visitors(1, Disputed)]),
            ReportStatus::Disputed { version: 1 }
        );
        // Entered again before the visitors spoke of it: version 2 awaits them afresh.
        assert_eq!(
            status(team(2), &[visitors(1, Disputed)]),
            ReportStatus::AwaitingConfirmation { version: 2 }
        );
        // The latest review of a version is the one that stands.
        assert_eq!(
            status(team(2), &[visitors(2, Confirmed), visitors(2, Disputed)]),
            ReportStatus::Disputed { version: 2 }
        );
    }

    #[test]
    fn gt_p2_gt_o3_an_officer_decides_a_dispute_by_keeping_or_correcting_the_result() {
        use ReviewKind::{Confirmed, Disputed};
        // Kept: the officer's confirmation of the disputed version decides it.
        assert_eq!(
            status(team(1), &[visitors(1, Disputed), officer(1, Confirmed)]),
            ReportStatus::Decided { version: 1 }
        );
        // Corrected: the officer's version 2 stands; no one confirms it again.
        let corrected = Some(Entry {
            version: 2,
            by: EnteredBy::Officer,
        });
        assert_eq!(
            status(corrected, &[visitors(1, Disputed)]),
            ReportStatus::Decided { version: 2 }
        );
        // A review of an older version says nothing of the correction in force.
        assert_eq!(
            status(corrected, &[visitors(1, Disputed), officer(1, Confirmed)]),
            ReportStatus::Decided { version: 2 }
        );
        // A team's entry after an officer's decision awaits the visitors again.
        assert_eq!(
            status(team(3), &[officer(1, Confirmed)]),
            ReportStatus::AwaitingConfirmation { version: 3 }
        );
    }

    #[test]
    fn gt_p2_an_import_stands_as_recorded_and_an_arbiters_entry_is_decided() {
        let imported = Some(Entry {
            version: 1,
            by: EnteredBy::Import,
        });
        assert_eq!(status(imported, &[]), ReportStatus::Recorded { version: 1 });
        let arbiter = Some(Entry {
            version: 2,
            by: EnteredBy::of(Some("arbiter@astc.example"), Some("arbiter")),
        });
        assert_eq!(status(arbiter, &[]), ReportStatus::Decided { version: 2 });
        assert!(ReportStatus::Recorded { version: 1 }.is_settled());
        assert!(!ReportStatus::Disputed { version: 1 }.is_settled());
    }

    #[test]
    fn who_entered_and_who_reviewed_come_from_the_stored_person_and_role() {
        assert_eq!(EnteredBy::of(None, None), EnteredBy::Import);
        assert_eq!(EnteredBy::of(None, Some("president")), EnteredBy::Import);
        assert_eq!(
            EnteredBy::of(Some("a@b.example"), Some("advisor")),
            EnteredBy::Team
        );
        assert_eq!(
            EnteredBy::of(Some("a@b.example"), Some("vice_president")),
            EnteredBy::Officer
        );
        // A person with no known role is not trusted as an officer.
        assert_eq!(EnteredBy::of(Some("a@b.example"), None), EnteredBy::Team);
        assert_eq!(
            EnteredBy::of(Some("a@b.example"), Some("coach")),
            EnteredBy::Team
        );
        assert_eq!(ReviewedBy::of(Some("advisor")), ReviewedBy::Visitors);
        assert_eq!(ReviewedBy::of(None), ReviewedBy::Visitors);
        assert_eq!(ReviewedBy::of(Some("arbiter")), ReviewedBy::Officer);
        assert_eq!(ReviewedBy::of(Some("president")), ReviewedBy::Officer);
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
