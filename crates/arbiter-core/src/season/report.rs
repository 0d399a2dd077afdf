//! The result workflow of GT-P2: the home team enters the result, the visiting team confirms or
//! disputes it, and an officer decides a dispute: by keeping the result as entered or by
//! correcting it (a new version). GT-O3: the Vice-President decides when the President's own
//! school plays (the permission table says who; this module says where a match stands).
//!
//! Who entered the version in force matters: a result imported from a file or the command line
//! stands as recorded, and one entered or corrected by an officer (or by an event's arbiter) is
//! decided; only an advisor's entry awaits the visitors. The store keeps every result version and
//! every review with the role it was made in; [`status`] reads them. The deadlines (in `gthscl`,
//! enter within 1 day, confirm within 5) are the ruleset's `[report]`, read as [`Deadlines`].
//!
//! [`ReportStep::check`] says whether a step (enter, correct, confirm, dispute, decide, a forfeit
//! by decision, a late report's double forfeit) may be taken now, or the typed [`Refusal`] with
//! its sentence and a stable `code`; [`ResultBasis`] says whether a version was entered as played
//! or is an officer's penalty; [`OfficerTask`] is what a match asks of an officer, GT-F3's
//! playoff tasks included.

use crate::record::model::{GameResult, MatchOutcome, Unfinished};
use crate::rules::permissions::{Action, Role};
pub use crate::rules::sections::Deadlines;

/// What a review said of one version of the result. The visitors confirm or dispute; an
/// officer's `Confirmed` of a disputed version decides the dispute: the result stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewKind {
    /// The result is right: the visitors confirm it, or an officer keeps it in a dispute (GT-O3).
    Confirmed,
    /// The visitors say the result is wrong; an officer decides (GT-P2, GT-O3).
    Disputed,
    /// GT-P2's "corrections are requested within 5 days": after the result came to stand
    /// (confirmed, recorded or an officer's), either school's advisor asks for a correction, with
    /// the reason; an officer decides, by keeping the result or correcting it (GT-O3).
    CorrectionRequested,
}

impl ReviewKind {
    /// The word stored: `confirmed`, `disputed` or `correction_requested`.
    pub fn code(self) -> &'static str {
        match self {
            ReviewKind::Confirmed => "confirmed",
            ReviewKind::Disputed => "disputed",
            ReviewKind::CorrectionRequested => "correction_requested",
        }
    }

    /// Reads [`ReviewKind::code`] back.
    pub fn from_code(s: &str) -> Option<ReviewKind> {
        match s {
            "confirmed" => Some(ReviewKind::Confirmed),
            "disputed" => Some(ReviewKind::Disputed),
            "correction_requested" => Some(ReviewKind::CorrectionRequested),
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
    /// From what the store keeps of a version: the person (none for an import) and the role
    /// they acted in. A person without a known officer role counts as a team: their entry awaits
    /// the visitors rather than standing unchecked.
    pub fn of(person: Option<&str>, role: Option<Role>) -> EnteredBy {
        match (person, role) {
            (None, _) => EnteredBy::Import,
            (Some(_), Some(r)) if r.is_officer() => EnteredBy::Officer,
            (Some(_), _) => EnteredBy::Team,
        }
    }
}

/// The version in force (it holds a result) and who entered it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The version in force; every entry or correction makes a new one.
    pub version: u32,
    /// Who entered that version: an import, a team or an officer.
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
    /// From the role a review was made in.
    pub fn of(role: Option<Role>) -> ReviewedBy {
        match role {
            Some(r) if r.is_officer() => ReviewedBy::Officer,
            _ => ReviewedBy::Visitors,
        }
    }
}

/// One review of one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Review {
    /// The version reviewed.
    pub version: u32,
    /// What the review said: confirmed or disputed.
    pub kind: ReviewKind,
    /// Who reviewed it: the visitors or an officer.
    pub by: ReviewedBy,
}

/// Where a match's report stands (GT-P2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    /// No result has been entered.
    AwaitingResult,
    /// The result in force (this version), an advisor's entry, awaits the visitors.
    AwaitingConfirmation {
        /// The version in force, awaiting the visitors.
        version: u32,
    },
    /// The visitors confirmed it.
    Confirmed {
        /// The version the visitors confirmed.
        version: u32,
    },
    /// The visitors disputed this version; an officer decides (GT-O3).
    Disputed {
        /// The version the visitors disputed.
        version: u32,
    },
    /// Imported from a file or the command line: it stands as recorded.
    Recorded {
        /// The version imported.
        version: u32,
    },
    /// Entered or corrected by an officer or the arbiter, or a dispute an officer decided by
    /// keeping the entered result: it stands.
    Decided {
        /// The version that stands.
        version: u32,
    },
    /// GT-P2: an advisor asked for a correction of this version, which had come to stand; it
    /// still counts until an officer decides (GT-O3).
    CorrectionRequested {
        /// The version whose correction is asked for.
        version: u32,
    },
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
            ReportStatus::CorrectionRequested { .. } => "correction requested",
        }
    }

    /// The word for machines: `awaiting_result`, `awaiting_confirmation`, `confirmed`,
    /// `disputed`, `recorded`, `decided`, `correction_requested`.
    pub fn code(self) -> &'static str {
        match self {
            ReportStatus::AwaitingResult => "awaiting_result",
            ReportStatus::AwaitingConfirmation { .. } => "awaiting_confirmation",
            ReportStatus::Confirmed { .. } => "confirmed",
            ReportStatus::Disputed { .. } => "disputed",
            ReportStatus::Recorded { .. } => "recorded",
            ReportStatus::Decided { .. } => "decided",
            ReportStatus::CorrectionRequested { .. } => "correction_requested",
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
            | ReportStatus::Decided { version }
            | ReportStatus::CorrectionRequested { version } => Some(version),
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
/// A correction requested of the version in force (GT-P2) waits for an officer, whoever entered
/// it; the officer's keeping it decides it.
pub fn status(latest: Option<Entry>, reviews: &[Review]) -> ReportStatus {
    let Some(Entry { version, by }) = latest else {
        return ReportStatus::AwaitingResult;
    };
    let last = reviews.iter().rev().find(|r| r.version == version);
    match (by, last) {
        (
            _,
            Some(Review {
                kind: ReviewKind::CorrectionRequested,
                ..
            }),
        ) => return ReportStatus::CorrectionRequested { version },
        (
            EnteredBy::Import | EnteredBy::Officer,
            Some(Review {
                kind: ReviewKind::Confirmed,
                by: ReviewedBy::Officer,
                ..
            }),
        ) => return ReportStatus::Decided { version },
        (EnteredBy::Import, _) => return ReportStatus::Recorded { version },
        (EnteredBy::Officer, _) => return ReportStatus::Decided { version },
        (EnteredBy::Team, _) => {}
    }
    match last {
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
        Some(Review {
            kind: ReviewKind::CorrectionRequested,
            ..
        }) => ReportStatus::CorrectionRequested { version },
    }
}

/// What one side's advisor has to do for a match on `today`, if anything: the home team enters
/// the result once the match day has come, the visitors confirm or dispute an entry that awaits
/// them. `entered_on` is the day the version in force was entered. Without `deadlines` (a
/// ruleset with no `[report]`) the task has no day it is due by.
pub fn task(
    deadlines: Option<Deadlines>,
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
            let due = played_on.zip(deadlines).map(|(d, by)| by.enter_by(d));
            Some(Task::EnterResult {
                due,
                overdue: due.is_some_and(|d| d < today),
            })
        }
        (crate::Side::Away, ReportStatus::AwaitingConfirmation { version }) => {
            let due = entered_on.zip(deadlines).map(|(d, by)| by.confirm_by(d));
            Some(Task::ReviewResult {
                version,
                due,
                overdue: due.is_some_and(|d| d < today),
            })
        }
        _ => None,
    }
}

/// GT-P2 asks for the result after the match: an advisor may not enter it before the match
/// day. An officer (or an event's arbiter) may, for a match played early by arrangement.
/// `None` when the entry may be made; else the refusal.
pub fn too_early(
    by: EnteredBy,
    played_on: Option<jiff::civil::Date>,
    today: jiff::civil::Date,
) -> Option<Refusal> {
    match (by, played_on) {
        (EnteredBy::Team, Some(day)) if day > today => Some(Refusal::TooEarly { played_on: day }),
        _ => None,
    }
}

/// A step of the result workflow (GT-P2, GT-O3). The permission table says who may take it;
/// [`ReportStep::check`] says whether the report's state allows it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReportStep {
    /// The home advisor (or an officer, or an event's arbiter) enters the result.
    Enter,
    /// An officer corrects the result in force as a new version.
    Correct,
    /// The visitors confirm the version in force.
    Confirm,
    /// The visitors dispute it.
    Dispute,
    /// An officer decides a dispute by keeping the result as entered (GT-O3).
    Decide,
    /// GT-M3: the advisors could not arrange the match, and an officer decides which team
    /// offended: it loses by default, with the reason.
    ForfeitByDecision,
    /// GT-P4: the home team did not enter the result in time, and the President scores the
    /// match as a double forfeit, with the reason. Never applied by the product on its own.
    DoubleForfeitForLateReport,
    /// GT-M20: the President decides a game sent for adjudication; the decision is the board's
    /// result, with the reason, and stands.
    Adjudicate,
    /// GT-M20: the home advisor enters the result of an adjourned game once it is finished; the
    /// visitors confirm it as any entry.
    FinishAdjourned,
    /// GT-P2: either school's advisor asks for a correction of a result that stands, with the
    /// reason, within the ruleset's days; an officer decides (GT-O3).
    RequestCorrection,
    /// GT-M3, GT-P4: an officer withdraws the penalty in force (a forfeit by decision or a late
    /// report's double forfeit) by a new version with no result, with the reason: the match is
    /// to be reported again, and a team the penalty dropped (GT-M5) is back.
    WithdrawPenalty,
}

/// Why a result version holds what it holds (kept with each version): typed in as played, or
/// an officer's penalty decided on a match (GT-M3, GT-P4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ResultBasis {
    /// Entered or corrected as the match was played (or imported).
    #[default]
    Entered,
    /// GT-M3: the match could not be arranged; an officer decided which team offended.
    ForfeitByDecision,
    /// GT-P4: the result was not reported in time; the President applied a double forfeit.
    LateReport,
}

impl ResultBasis {
    /// The word stored: `entered`, `forfeit_by_decision`, `late_report`.
    pub fn code(self) -> &'static str {
        match self {
            ResultBasis::Entered => "entered",
            ResultBasis::ForfeitByDecision => "forfeit_by_decision",
            ResultBasis::LateReport => "late_report",
        }
    }

    /// Reads [`ResultBasis::code`] back.
    pub fn from_code(s: &str) -> Option<ResultBasis> {
        [
            ResultBasis::Entered,
            ResultBasis::ForfeitByDecision,
            ResultBasis::LateReport,
        ]
        .into_iter()
        .find(|b| b.code() == s)
    }

    /// What pages say of a version on this basis, after its score; `None` for an entry.
    pub fn phrase(self) -> Option<&'static str> {
        match self {
            ResultBasis::Entered => None,
            ResultBasis::ForfeitByDecision => Some(
                "a forfeit by decision: the match could not be arranged and an officer decided which team offended (GT-M3)",
            ),
            ResultBasis::LateReport => {
                Some("a double forfeit for a result not reported in time (GT-P4)")
            }
        }
    }
}

/// A match's report as a writer found it: what [`ReportStep::check`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Where the report stands, as [`status`] reads it.
    pub status: ReportStatus,
    /// The highest version, whatever it holds (0 when there is none).
    pub in_force: u32,
    /// The match day, when the schedule has one.
    pub played_on: Option<jiff::civil::Date>,
    /// GT-P2's last day to enter the result: the match day and the ruleset's `[report]`;
    /// `None` when either is missing, and then no report is late (GT-P4).
    pub enter_by: Option<jiff::civil::Date>,
    /// GT-P2's last day to ask for a correction: the day the version in force was entered and
    /// the ruleset's `[report]`; `None` when either is missing, and then no window closes.
    pub correct_by: Option<jiff::civil::Date>,
    /// Why the version in force holds what it holds: typed in, or an officer's penalty.
    pub basis: ResultBasis,
}

/// GT-P4: a result is late from the day after GT-P2's last day to enter it; without that day
/// (no match day, or no `[report]`) no report is late.
fn late_report(
    enter_by: Option<jiff::civil::Date>,
    today: jiff::civil::Date,
) -> Result<(), Refusal> {
    match enter_by {
        None => Err(Refusal::NoDeadline),
        Some(due) if today > due => Ok(()),
        Some(due) => Err(Refusal::NotOverdue { due }),
    }
}

/// Something an officer has to do for a match (GT-O3), and the action the permission table
/// asks of whoever would do it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfficerTask {
    /// GT-O3: the visitors disputed this version; an officer decides.
    DecideDispute {
        /// The disputed version.
        version: u32,
    },
    /// GT-P2, GT-O3: an advisor asked for a correction of this version; an officer decides.
    DecideCorrection {
        /// The version whose correction is asked for.
        version: u32,
    },
    /// GT-P4: no result was entered by `due`; an officer may enter it or apply a double forfeit
    /// (the product never does).
    LateReport {
        /// GT-P2's last day to enter the result.
        due: jiff::civil::Date,
    },
    /// GT-O3: one school's two teams met, so an officer confirms the result its advisor entered.
    ConfirmOneSchoolsMatch {
        /// The version awaiting confirmation.
        version: u32,
    },
    /// GT-M20: this board's game was sent for adjudication and awaits the President's decision.
    Adjudicate {
        /// The board whose game waits.
        board: u32,
    },
    /// GT-F3: every match of the playoffs' round before this one has gone through, so this
    /// round is ready to pair (`bracket::Bracket::ready_to_pair`).
    PairPlayoffRound {
        /// The knockout round to pair.
        round: u32,
    },
    /// GT-F3: a knockout match of this round was drawn and awaits its Armageddon or playoff
    /// game, which the President enters.
    EnterDecidingGame {
        /// The knockout round of the drawn match.
        round: u32,
    },
}

impl OfficerTask {
    /// The permission table's action for it: an officer the table refuses (the President on
    /// his own school's match, GT-O3) is not asked.
    pub fn action(self) -> Action {
        match self {
            OfficerTask::DecideDispute { .. } | OfficerTask::DecideCorrection { .. } => {
                Action::DecideDispute
            }
            OfficerTask::LateReport { .. } => Action::ApplyDoubleForfeitForLateReport,
            OfficerTask::ConfirmOneSchoolsMatch { .. } => Action::ConfirmResult,
            OfficerTask::Adjudicate { .. } => Action::AdjudicateGame,
            OfficerTask::PairPlayoffRound { .. } | OfficerTask::EnterDecidingGame { .. } => {
                Action::RunPlayoffs
            }
        }
    }
}

/// GT-M20: how `after` settled an unfinished game of `before`: the board whose game (adjourned,
/// or sent for adjudication) went from `*` to a result with every other board as it was, and the
/// step that settles such a game. Computed from the versions, so the history can say
/// "adjudicated" without storing it twice.
pub fn settled(before: &MatchOutcome, after: &MatchOutcome) -> Option<(u32, ReportStep)> {
    let (MatchOutcome::Boards(was), MatchOutcome::Boards(now)) = (before, after) else {
        return None;
    };
    if was.len() != now.len() {
        return None;
    }
    let mut changed = was.iter().zip(now).enumerate().filter(|(_, (w, n))| w != n);
    let (i, (w, n)) = changed.next()?;
    if changed.next().is_some()
        || w.result != GameResult::Pending
        || n.result == GameResult::Pending
    {
        return None;
    }
    let step = match (&w.unfinished, &n.unfinished) {
        (Some(Unfinished::Adjudication(p)), Some(Unfinished::Adjudication(q))) if p == q => {
            ReportStep::Adjudicate
        }
        (
            Some(Unfinished::Adjourned { resume_on: a }),
            Some(Unfinished::Adjourned { resume_on: b }),
        ) if a == b => ReportStep::FinishAdjourned,
        _ => return None,
    };
    Some((u32::try_from(i + 1).ok()?, step))
}

/// GT-M20: the first board of `outcome` whose game was sent for adjudication and is not yet
/// decided (its result still `*`).
pub fn awaiting_adjudication(outcome: &MatchOutcome) -> Option<u32> {
    let MatchOutcome::Boards(boards) = outcome else {
        return None;
    };
    boards
        .iter()
        .position(|b| b.adjudication().is_some() && b.result == GameResult::Pending)
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// What the report asks of an officer on `today`, if anything; `one_school` when both teams are
/// one school's; `adjudication` the board whose game awaits the President's decision
/// ([`awaiting_adjudication`]), asked after a dispute, which may change the boards.
pub fn officer_task(
    report: &Report,
    one_school: bool,
    adjudication: Option<u32>,
    today: jiff::civil::Date,
) -> Option<OfficerTask> {
    match report.status {
        ReportStatus::Disputed { version } => Some(OfficerTask::DecideDispute { version }),
        ReportStatus::CorrectionRequested { version } => {
            Some(OfficerTask::DecideCorrection { version })
        }
        _ if adjudication.is_some() => adjudication.map(|board| OfficerTask::Adjudicate { board }),
        ReportStatus::AwaitingResult => late_report(report.enter_by, today)
            .ok()
            .and(report.enter_by)
            .map(|due| OfficerTask::LateReport { due }),
        ReportStatus::AwaitingConfirmation { version } if one_school => {
            Some(OfficerTask::ConfirmOneSchoolsMatch { version })
        }
        _ => None,
    }
}

/// GT-O3: who may still change a result that stands.
pub const WHO_CORRECTS: &str = "an officer corrects it as a new version, with the reason (the President, or the Vice-President when the President's school plays, GT-O3)";

/// GT-O3: who rules on a dispute, and how.
pub const WHO_DECIDES: &str = "an officer decides the dispute, keeping the result as entered or correcting it as a new version, with the reason (the President, or the Vice-President when the President's school plays, GT-O3)";

/// GT-P2: a correction is asked of a result that stands (the visitors dispute one that awaits
/// them), once, within the ruleset's days of the entry in force.
fn request_correction(
    report: &Report,
    status: ReportStatus,
    today: jiff::civil::Date,
) -> Result<(), Refusal> {
    match status {
        ReportStatus::AwaitingResult => Err(Refusal::NotEntered {
            step: ReportStep::RequestCorrection,
        }),
        ReportStatus::AwaitingConfirmation { version } => Err(Refusal::AwaitsVisitors { version }),
        ReportStatus::Disputed { version } => Err(Refusal::Disputed {
            step: ReportStep::RequestCorrection,
            version,
        }),
        ReportStatus::CorrectionRequested { version } => Err(Refusal::CorrectionRequested {
            step: ReportStep::RequestCorrection,
            version,
        }),
        ReportStatus::Confirmed { version }
        | ReportStatus::Recorded { version }
        | ReportStatus::Decided { version } => match report.correct_by {
            Some(due) if today > due => Err(Refusal::CorrectionTooLate { version, due }),
            _ => Ok(()),
        },
    }
}

impl ReportStep {
    /// May this step be taken now? `seen` is the version the writer read (checked first: a
    /// writer who read an older match is refused as [`Refusal::Changed`]); `by` is who would
    /// enter, which matters only for the match-day rule; `today` is the league's date.
    pub fn check(
        self,
        report: &Report,
        seen: Option<u32>,
        by: EnteredBy,
        today: jiff::civil::Date,
    ) -> Result<(), Refusal> {
        if let Some(seen) = seen
            && seen != report.in_force
        {
            return Err(Refusal::Changed {
                seen,
                in_force: report.in_force,
            });
        }
        if self == ReportStep::Enter
            && let Some(early) = too_early(by, report.played_on, today)
        {
            return Err(early);
        }
        match (self, report.status) {
            (ReportStep::RequestCorrection, status) => request_correction(report, status, today),
            (ReportStep::WithdrawPenalty, ReportStatus::AwaitingResult) => {
                Err(Refusal::NotEntered { step: self })
            }
            (ReportStep::WithdrawPenalty, _) => match report.basis {
                ResultBasis::ForfeitByDecision | ResultBasis::LateReport => Ok(()),
                ResultBasis::Entered => Err(Refusal::NoPenalty),
            },
            (ReportStep::ForfeitByDecision, ReportStatus::AwaitingResult) => Ok(()),
            (ReportStep::DoubleForfeitForLateReport, ReportStatus::AwaitingResult) => {
                late_report(report.enter_by, today)
            }
            (ReportStep::ForfeitByDecision | ReportStep::DoubleForfeitForLateReport, status) => {
                Err(Refusal::Reported { step: self, status })
            }
            (
                ReportStep::Adjudicate | ReportStep::FinishAdjourned,
                ReportStatus::AwaitingResult,
            ) => Err(Refusal::NotEntered { step: self }),
            // GT-M20: the President's decision stands whatever the report's state; a dispute
            // about the other boards is decided as any dispute.
            (ReportStep::Adjudicate, _) => Ok(()),
            (ReportStep::FinishAdjourned, ReportStatus::Disputed { version }) => {
                Err(Refusal::Disputed {
                    step: self,
                    version,
                })
            }
            (ReportStep::FinishAdjourned, _) => Ok(()),
            (
                ReportStep::Enter,
                ReportStatus::AwaitingResult | ReportStatus::AwaitingConfirmation { .. },
            )
            | (
                ReportStep::Confirm | ReportStep::Dispute,
                ReportStatus::AwaitingConfirmation { .. },
            )
            | (
                ReportStep::Decide,
                ReportStatus::Disputed { .. } | ReportStatus::CorrectionRequested { .. },
            ) => Ok(()),
            (_, ReportStatus::AwaitingResult) => Err(Refusal::NotEntered { step: self }),
            (ReportStep::Correct, _) => Ok(()),
            (ReportStep::Decide, ReportStatus::AwaitingConfirmation { version }) => {
                Err(Refusal::NotDisputed { version })
            }
            (_, ReportStatus::Disputed { version }) => Err(Refusal::Disputed {
                step: self,
                version,
            }),
            (_, ReportStatus::CorrectionRequested { version }) => {
                Err(Refusal::CorrectionRequested {
                    step: self,
                    version,
                })
            }
            (_, status) => Err(Refusal::Settled { step: self, status }),
        }
    }

    /// GT-P2, GT-O3: a correction, a dispute and a decision say why; `Some` is the sentence
    /// asking for the reason.
    pub fn reason_missing(self) -> Option<&'static str> {
        match self {
            ReportStep::Correct => Some(
                "A correction needs its reason (GT-P2): say what was wrong with the result in force, so that everyone reading the match sees why it changed.",
            ),
            ReportStep::Dispute => Some(
                "A dispute needs its reason (GT-P2): say which board or result is wrong and what it should be, so that the officer deciding it knows.",
            ),
            ReportStep::Decide => Some(
                "A decision needs its reason (GT-P2, GT-O3): say why the result as entered stands, so that both schools reading the match see it.",
            ),
            ReportStep::ForfeitByDecision => Some(
                "A forfeit by decision needs its reason (GT-M3): say why the match could not be arranged and why this team is the one that offended.",
            ),
            ReportStep::DoubleForfeitForLateReport => Some(
                "A double forfeit for a late report needs its reason (GT-P4): say which report was late and what the schools were told.",
            ),
            ReportStep::Adjudicate => Some(
                "Say how the position was judged: GT-M20's adjudication is kept with its reason.",
            ),
            ReportStep::RequestCorrection => Some(
                "A request for a correction needs its reason (GT-P2): say which board or result is wrong and what it should be, so that the officer deciding it knows.",
            ),
            ReportStep::WithdrawPenalty => Some(
                "Withdrawing a penalty needs its reason (GT-M3, GT-P4): say why the decision no longer stands, so that both schools reading the match see it.",
            ),
            ReportStep::Enter | ReportStep::Confirm | ReportStep::FinishAdjourned => None,
        }
    }

    /// The basis a result version written by this step is kept with.
    pub fn basis(self) -> ResultBasis {
        match self {
            ReportStep::ForfeitByDecision => ResultBasis::ForfeitByDecision,
            ReportStep::DoubleForfeitForLateReport => ResultBasis::LateReport,
            _ => ResultBasis::Entered,
        }
    }

    /// The permission table's action for this step: who may take it.
    pub fn action(self) -> Action {
        match self {
            ReportStep::Enter => Action::EnterResult,
            ReportStep::Correct => Action::CorrectResult,
            ReportStep::Confirm => Action::ConfirmResult,
            ReportStep::Dispute => Action::DisputeResult,
            ReportStep::Decide => Action::DecideDispute,
            ReportStep::ForfeitByDecision => Action::ApplyMatchForfeit,
            ReportStep::DoubleForfeitForLateReport => Action::ApplyDoubleForfeitForLateReport,
            ReportStep::Adjudicate => Action::AdjudicateGame,
            ReportStep::FinishAdjourned => Action::EnterResult,
            ReportStep::RequestCorrection => Action::RequestCorrection,
            // Who may impose a penalty may withdraw it (GT-O3 routes the President's own school).
            ReportStep::WithdrawPenalty => Action::ApplyMatchForfeit,
        }
    }

    /// The verb in a refusal: "nothing to confirm".
    fn verb(self) -> &'static str {
        match self {
            ReportStep::Enter => "enter",
            ReportStep::Correct => "correct",
            ReportStep::Confirm => "confirm",
            ReportStep::Dispute => "dispute",
            ReportStep::Decide => "decide",
            ReportStep::ForfeitByDecision => "declare forfeited",
            ReportStep::DoubleForfeitForLateReport => "score as a double forfeit",
            ReportStep::Adjudicate => "adjudicate",
            ReportStep::FinishAdjourned => "finish",
            ReportStep::RequestCorrection => "ask to correct",
            ReportStep::WithdrawPenalty => "withdraw",
        }
    }
}

/// GT-M20: the result in force with board `board`'s unfinished game settled as `result`: an
/// adjourned game finished (`FinishAdjourned`), or a game sent for adjudication decided
/// (`Adjudicate`). The board keeps its record of how the game ended; every other board is as it
/// was. Refused with the sentence when the board holds no such game still waiting.
pub fn settle(
    in_force: &MatchOutcome,
    board: u32,
    result: GameResult,
    step: ReportStep,
) -> Result<MatchOutcome, String> {
    let MatchOutcome::Boards(boards) = in_force else {
        return Err(
            "The match has no boards in force, so no game of it is waiting (GT-M20).".into(),
        );
    };
    let (want, waiting) = match step {
        ReportStep::Adjudicate => ("sent for adjudication", "for the President's decision"),
        _ => ("adjourned", "to be finished"),
    };
    let Some(b) = usize::try_from(board)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| boards.get(i))
    else {
        return Err(format!("The match has no board {board}."));
    };
    let fits = matches!(
        (&b.unfinished, step),
        (Some(Unfinished::Adjudication(_)), ReportStep::Adjudicate)
            | (
                Some(Unfinished::Adjourned { .. }),
                ReportStep::FinishAdjourned
            )
    );
    if !fits || b.result != GameResult::Pending {
        return Err(format!(
            "Board {board}'s game is not {want} and waiting {waiting}; it stands as {} (GT-M20).",
            b.result.symbol()
        ));
    }
    if !matches!(
        result,
        GameResult::HomeWin | GameResult::Draw | GameResult::AwayWin
    ) {
        return Err(format!(
            "Board {board}: an unfinished game ends 1-0, 1/2-1/2 or 0-1, not {} (GT-M20).",
            result.symbol()
        ));
    }
    let mut boards = boards.clone();
    if let Some(b) = boards.get_mut(usize::try_from(board - 1).unwrap_or(usize::MAX)) {
        b.result = result;
    }
    Ok(MatchOutcome::Boards(boards))
}

/// GT-M20: the sentence for a team's entry that decides a game sent for adjudication.
pub const ONLY_THE_PRESIDENT_ADJUDICATES: &str = "the game was sent for adjudication, and only the President decides it (the Vice-President when the President's school plays; GT-M20, GT-O3); leave its result as *.";

/// GT-M20: the first board an entry by `by` gives a result that only an officer may give: a
/// game sent for adjudication, decided in `entered` but waiting (or decided otherwise) in
/// `in_force`. An officer's entry decides it ([`ReportStep::Adjudicate`] is the officers' way
/// to), so `None` for one; see [`ONLY_THE_PRESIDENT_ADJUDICATES`] for the sentence.
pub fn decides_adjudication(
    by: EnteredBy,
    in_force: Option<&MatchOutcome>,
    entered: &MatchOutcome,
) -> Option<u32> {
    let MatchOutcome::Boards(new) = entered else {
        return None;
    };
    if by != EnteredBy::Team {
        return None;
    }
    let old = match in_force {
        Some(MatchOutcome::Boards(b)) => b.as_slice(),
        _ => &[],
    };
    new.iter().zip(1u32..).find_map(|(b, n)| {
        let decided = matches!(b.unfinished, Some(Unfinished::Adjudication(_)))
            && b.result != GameResult::Pending;
        let as_before = old
            .get(usize::try_from(n - 1).unwrap_or(usize::MAX))
            .is_some_and(|o| o.result == b.result && o.unfinished == b.unfinished);
        (decided && !as_before).then_some(n)
    })
}

/// Why a step of the result workflow is refused now. Its text (`Display`) is the sentence a
/// person reads; [`Refusal::code`] is the word a script reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The writer read version `seen`, and `in_force` is in force now: nothing is written.
    Changed {
        /// The version the writer read.
        seen: u32,
        /// The version in force now.
        in_force: u32,
    },
    /// GT-P2: an advisor enters the result from the match day.
    TooEarly {
        /// The match day, still to come.
        played_on: jiff::civil::Date,
    },
    /// GT-P2: no result has been entered yet.
    NotEntered {
        /// The step refused.
        step: ReportStep,
    },
    /// GT-P2: the visitors disputed `version`; an officer decides it first.
    Disputed {
        /// The step refused.
        step: ReportStep,
        /// The disputed version.
        version: u32,
    },
    /// GT-O3: `version` awaits the visitors and is not disputed: there is nothing to decide.
    NotDisputed {
        /// The version that awaits the visitors.
        version: u32,
    },
    /// GT-M3, GT-P4: a result is entered, so the match was reported; an officer corrects it.
    Reported {
        /// The step refused.
        step: ReportStep,
        /// Where the entered result stands.
        status: ReportStatus,
    },
    /// GT-P4: the home team may still enter the result, until `due` (GT-P2).
    NotOverdue {
        /// The last day to enter the result.
        due: jiff::civil::Date,
    },
    /// GT-P4: the ruleset sets no deadline for entering results, or the match has no day.
    NoDeadline,
    /// GT-P2: a correction of `version` was asked for; an officer decides it first.
    CorrectionRequested {
        /// The step refused.
        step: ReportStep,
        /// The version whose correction is asked for.
        version: u32,
    },
    /// GT-P2: `version` awaits the visitors, who dispute it rather than ask for a correction.
    AwaitsVisitors {
        /// The version that awaits the visitors.
        version: u32,
    },
    /// GT-M3, GT-P4: the result in force is no officer's penalty, so there is none to withdraw.
    NoPenalty,
    /// GT-P2: the days to ask for a correction of `version` ended on `due`.
    CorrectionTooLate {
        /// The version in force.
        version: u32,
        /// The last day a correction could be asked for.
        due: jiff::civil::Date,
    },
    /// GT-P2: the result stands (confirmed, recorded or decided); an officer corrects it.
    Settled {
        /// The step refused.
        step: ReportStep,
        /// How the result came to stand: confirmed, recorded or decided.
        status: ReportStatus,
    },
}

impl Refusal {
    /// `changed`, `too_early`, `not_entered`, `disputed`, `not_disputed`, `reported`,
    /// `not_overdue`, `no_deadline`, `correction_requested`, `awaits_visitors`,
    /// `correction_too_late`, `no_penalty`, `settled`.
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Changed { .. } => "changed",
            Refusal::TooEarly { .. } => "too_early",
            Refusal::NotEntered { .. } => "not_entered",
            Refusal::Disputed { .. } => "disputed",
            Refusal::NotDisputed { .. } => "not_disputed",
            Refusal::Reported { .. } => "reported",
            Refusal::NotOverdue { .. } => "not_overdue",
            Refusal::NoDeadline => "no_deadline",
            Refusal::CorrectionRequested { .. } => "correction_requested",
            Refusal::AwaitsVisitors { .. } => "awaits_visitors",
            Refusal::CorrectionTooLate { .. } => "correction_too_late",
            Refusal::NoPenalty => "no_penalty",
            Refusal::Settled { .. } => "settled",
        }
    }
}

/// Why a settled result is not entered or reviewed again.
fn settled_words(status: ReportStatus) -> String {
    match status {
        ReportStatus::Confirmed { version } => {
            format!("the visitors confirmed version {version} of this result")
        }
        ReportStatus::Recorded { version } => format!(
            "version {version} of this result was recorded from the league's file and stands as recorded"
        ),
        ReportStatus::Decided { version } => {
            format!("version {version} of this result was decided by an officer and stands")
        }
        other => format!("this result is {}", other.phrase()),
    }
}

/// What stands of a match already reported.
fn reported_words(status: ReportStatus) -> String {
    match status {
        ReportStatus::AwaitingConfirmation { version } => {
            format!("version {version} of this result is entered and awaits the visitors")
        }
        ReportStatus::Disputed { version } => {
            format!("version {version} of this result is entered and disputed; {WHO_DECIDES}")
        }
        other => settled_words(other),
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Refusal::Changed { in_force, .. } => write!(
                f,
                "Version {in_force} of this result is now in force; nothing was saved. Reload the match and make your change against version {in_force} if it is still needed (GT-P2)."
            ),
            Refusal::TooEarly { played_on } => write!(
                f,
                "GT-P2: this match is set for {}, so its result is entered from that day, after the match. If it was played earlier by arrangement (GT-M2), ask the President to enter it.",
                played_on.strftime("%a %-d %b %Y")
            ),
            Refusal::NotEntered {
                step: ReportStep::Correct,
            } => f.write_str(
                "GT-P2: no result has been entered for this match yet, so there is nothing to correct; the home advisor enters it first (GT-M1), or the arbiter at an event.",
            ),
            Refusal::NotEntered {
                step: ReportStep::Decide,
            } => f.write_str(
                "GT-P2: no result has been entered for this match yet, so there is no dispute to decide.",
            ),
            Refusal::NotEntered { step } => write!(
                f,
                "GT-P2: no result has been entered for this match yet, so there is nothing to {}; the home advisor enters it first.",
                step.verb()
            ),
            Refusal::Disputed {
                step: ReportStep::Enter,
                version,
            } => write!(
                f,
                "GT-P2: the visitors disputed version {version} of this result; {WHO_DECIDES}, so it is not entered again meanwhile."
            ),
            Refusal::Disputed { version, .. } => write!(
                f,
                "GT-P2: version {version} of this result is already disputed; {WHO_DECIDES}, and the decision stands."
            ),
            Refusal::NotDisputed { version } => write!(
                f,
                "GT-P2: version {version} of this result awaits the visitors' confirmation and is not disputed, so there is no dispute to decide; to change it, correct it with the reason."
            ),
            Refusal::Reported {
                step: ReportStep::ForfeitByDecision,
                status,
            } => write!(
                f,
                "GT-M3: {}, so the match was arranged and reported; a forfeit by decision is for a match that could not be arranged. If the result is wrong, {WHO_CORRECTS}.",
                reported_words(status)
            ),
            Refusal::Reported { status, .. } => write!(
                f,
                "GT-P4: {}, so the report was made; a double forfeit for a late report is for a match whose result was never entered. If the result is wrong, {WHO_CORRECTS}.",
                reported_words(status)
            ),
            Refusal::NotOverdue { due } => write!(
                f,
                "GT-P4: the home team has until {} to enter this result (GT-P2), so it is not late; a double forfeit for a late report may be applied only after that day.",
                due.strftime("%a %-d %b %Y")
            ),
            Refusal::CorrectionRequested { version, .. } => write!(
                f,
                "GT-P2: a correction of version {version} of this result has been asked for; an officer decides it, keeping the result or correcting it as a new version, with the reason (the President, or the Vice-President when the President's school plays, GT-O3)."
            ),
            Refusal::AwaitsVisitors { version } => write!(
                f,
                "GT-P2: version {version} of this result awaits the visitors' confirmation: the visitors dispute it with the reason, and the home advisor may enter it again; a correction is asked of a result once it stands."
            ),
            Refusal::CorrectionTooLate { version, due } => write!(
                f,
                "GT-P2: corrections are requested within the league's days of the entry, and for version {version} of this result they ended on {}; if it is wrong, {WHO_CORRECTS}.",
                due.strftime("%a %-d %b %Y")
            ),
            Refusal::NoPenalty => write!(
                f,
                "GT-M3, GT-P4: the result in force was entered as played, not decided as a forfeit or a late report's double forfeit, so there is no penalty to withdraw; if it is wrong, {WHO_CORRECTS}."
            ),
            Refusal::NoDeadline => f.write_str(
                "GT-P4: this match has no day, or its rules set no deadline for entering results (no [report] section), so no report of it is late.",
            ),
            Refusal::Settled {
                step: ReportStep::Enter,
                status,
            } => write!(
                f,
                "GT-P2: {}, so it is no longer entered again; if it is wrong, {WHO_CORRECTS}.",
                settled_words(status)
            ),
            Refusal::Settled {
                step: ReportStep::Decide,
                status,
            } => write!(
                f,
                "GT-P2: {}, so there is no dispute to decide; if it is wrong, {WHO_CORRECTS}.",
                settled_words(status)
            ),
            Refusal::Settled { step, status } => write!(
                f,
                "GT-P2: {}, so there is nothing to {}; if it is wrong, {WHO_CORRECTS}.",
                settled_words(status),
                step.verb()
            ),
        }
    }
}

/// Something an advisor has to do (GT-P2), with the day it is due by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// The home team enters the result of a match whose day has come (GT-M1, GT-P2).
    EnterResult {
        /// The last day to enter it (GT-P2); `None` without deadlines or a match day.
        due: Option<jiff::civil::Date>,
        /// Past the due day: the President may apply a double forfeit, never the product (GT-P4).
        overdue: bool,
    },
    /// The visitors confirm or dispute the result the home team entered (GT-P2).
    ReviewResult {
        /// The version to confirm or dispute.
        version: u32,
        /// The last day to confirm or dispute it (GT-P2); `None` without deadlines.
        due: Option<jiff::civil::Date>,
        /// Past the due day (GT-P2).
        overdue: bool,
    },
}

impl Deadlines {
    /// The last day the home team enters the result of a match played on `played_on` (GT-P2).
    pub fn enter_by(self, played_on: jiff::civil::Date) -> jiff::civil::Date {
        played_on.saturating_add(jiff::Span::new().days(i64::from(self.enter_within)))
    }

    /// The last day the visitors confirm or dispute a result entered on `entered_on` (GT-P2).
    pub fn confirm_by(self, entered_on: jiff::civil::Date) -> jiff::civil::Date {
        entered_on.saturating_add(jiff::Span::new().days(i64::from(self.confirm_within)))
    }

    /// The last day either school asks for a correction of a result entered on `entered_on`
    /// (GT-P2).
    pub fn correct_by(self, entered_on: jiff::civil::Date) -> jiff::civil::Date {
        entered_on.saturating_add(jiff::Span::new().days(i64::from(self.correct_within)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(unfinished: Unfinished) -> MatchOutcome {
        let mut boards = vec![crate::record::model::Board::new(GameResult::HomeWin); 4];
        boards[2].result = GameResult::Pending;
        boards[2].unfinished = Some(unfinished);
        MatchOutcome::Boards(boards)
    }

    fn sent() -> Unfinished {
        Unfinished::Adjudication(crate::record::model::AdjudicationPosition::default())
    }

    #[test]
    fn gt_m20_the_presidents_decision_is_the_boards_result() {
        let before = waiting(sent());
        let after = settle(&before, 3, GameResult::Draw, ReportStep::Adjudicate).unwrap();
        let MatchOutcome::Boards(b) = &after else {
            panic!("boards")
        };
        assert_eq!(b[2].result, GameResult::Draw);
        assert_eq!(b[2].unfinished, Some(sent()), "the record stays");
        // Once decided, it is not waiting any more.
        let again = settle(&after, 3, GameResult::HomeWin, ReportStep::Adjudicate).unwrap_err();
        assert!(
            again.contains("not sent for adjudication and waiting"),
            "{again}"
        );
        // Only a game's result decides it, and only on that kind of board.
        assert!(
            settle(
                &before,
                3,
                GameResult::HomeWinByForfeit,
                ReportStep::Adjudicate
            )
            .is_err()
        );
        assert!(settle(&before, 3, GameResult::Draw, ReportStep::FinishAdjourned).is_err());
        assert!(settle(&before, 2, GameResult::Draw, ReportStep::Adjudicate).is_err());
        assert!(settle(&before, 9, GameResult::Draw, ReportStep::Adjudicate).is_err());
    }

    #[test]
    fn gt_m20_an_adjourned_game_is_finished_by_its_result() {
        let adjourned = Unfinished::Adjourned {
            resume_on: jiff::civil::date(2026, 12, 4),
        };
        let after = settle(
            &waiting(adjourned),
            3,
            GameResult::AwayWin,
            ReportStep::FinishAdjourned,
        )
        .unwrap();
        let MatchOutcome::Boards(b) = after else {
            panic!("boards")
        };
        assert_eq!(b[2].result, GameResult::AwayWin);
    }

    #[test]
    fn gt_m20_only_the_president_decides_an_adjudication() {
        let before = waiting(sent());
        let decided = settle(&before, 3, GameResult::Draw, ReportStep::Adjudicate).unwrap();
        let team = EnteredBy::Team;
        assert_eq!(decides_adjudication(team, Some(&before), &decided), Some(3));
        assert_eq!(decides_adjudication(team, None, &decided), Some(3));
        assert_eq!(
            decides_adjudication(EnteredBy::Officer, Some(&before), &decided),
            None
        );
        // Re-entering the decided result as it stands is no new decision.
        assert_eq!(decides_adjudication(team, Some(&decided), &decided), None);
        assert_eq!(decides_adjudication(team, Some(&before), &before), None);
    }

    #[test]
    fn gt_m20_adjudication_waits_for_an_entry_and_then_stands_in_any_state() {
        let day = jiff::civil::date(2026, 12, 2);
        let report = |status| Report {
            status,
            in_force: 1,
            played_on: Some(day),
            enter_by: None,
            correct_by: None,
            basis: ResultBasis::Entered,
        };
        let today = jiff::civil::date(2026, 12, 3);
        for status in [
            ReportStatus::AwaitingConfirmation { version: 1 },
            ReportStatus::Confirmed { version: 1 },
            ReportStatus::Disputed { version: 1 },
        ] {
            assert_eq!(
                ReportStep::Adjudicate.check(&report(status), None, EnteredBy::Officer, today),
                Ok(())
            );
        }
        assert!(
            ReportStep::Adjudicate
                .check(
                    &report(ReportStatus::AwaitingResult),
                    None,
                    EnteredBy::Officer,
                    today
                )
                .is_err()
        );
        assert!(
            ReportStep::FinishAdjourned
                .check(
                    &report(ReportStatus::Disputed { version: 1 }),
                    None,
                    EnteredBy::Team,
                    today
                )
                .is_err()
        );
        assert_eq!(
            ReportStep::FinishAdjourned.check(
                &report(ReportStatus::Confirmed { version: 1 }),
                None,
                EnteredBy::Team,
                today
            ),
            Ok(())
        );
    }

    #[test]
    fn gt_p2_an_advisor_enters_from_the_match_day_an_officer_any_day() {
        let day = Some(jiff::civil::date(2026, 12, 9));
        let before = jiff::civil::date(2026, 12, 2);
        let text = too_early(EnteredBy::Team, day, before).unwrap().to_string();
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
        let d = Some(GT_P2);
        let played = Some(jiff::civil::date(2026, 11, 2));
        let before = jiff::civil::date(2026, 11, 1);
        let day_after = jiff::civil::date(2026, 11, 3);
        let later = jiff::civil::date(2026, 11, 10);
        let waiting = ReportStatus::AwaitingResult;
        // Not before the match day; due the day after; overdue later.
        assert_eq!(task(d, Home, waiting, played, None, before), None);
        assert_eq!(
            task(d, Home, waiting, played, None, day_after),
            Some(Task::EnterResult {
                due: Some(day_after),
                overdue: false
            })
        );
        assert!(matches!(
            task(d, Home, waiting, played, None, later),
            Some(Task::EnterResult { overdue: true, .. })
        ));
        assert_eq!(task(d, Away, waiting, played, None, day_after), None);
        // The visitors review within five days of the entry.
        let entered = ReportStatus::AwaitingConfirmation { version: 2 };
        assert_eq!(
            task(d, Away, entered, played, Some(day_after), day_after),
            Some(Task::ReviewResult {
                version: 2,
                due: Some(jiff::civil::date(2026, 11, 8)),
                overdue: false
            })
        );
        assert_eq!(
            task(d, Home, entered, played, Some(day_after), day_after),
            None
        );
        let settled = ReportStatus::Confirmed { version: 2 };
        assert_eq!(task(d, Away, settled, played, Some(day_after), later), None);
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
            by: EnteredBy::of(Some("arbiter@astc.example"), Some(Role::Arbiter)),
        });
        assert_eq!(status(arbiter, &[]), ReportStatus::Decided { version: 2 });
        assert!(ReportStatus::Recorded { version: 1 }.is_settled());
        assert!(!ReportStatus::Disputed { version: 1 }.is_settled());
    }

    #[test]
    fn who_entered_and_who_reviewed_come_from_the_stored_person_and_role() {
        assert_eq!(EnteredBy::of(None, None), EnteredBy::Import);
        assert_eq!(
            EnteredBy::of(None, Some(Role::President)),
            EnteredBy::Import
        );
        assert_eq!(
            EnteredBy::of(Some("a@b.example"), Some(Role::Advisor)),
            EnteredBy::Team
        );
        assert_eq!(
            EnteredBy::of(Some("a@b.example"), Some(Role::VicePresident)),
            EnteredBy::Officer
        );
        // A person with no known role is not trusted as an officer.
        assert_eq!(EnteredBy::of(Some("a@b.example"), None), EnteredBy::Team);
        assert_eq!(ReviewedBy::of(Some(Role::Advisor)), ReviewedBy::Visitors);
        assert_eq!(ReviewedBy::of(None), ReviewedBy::Visitors);
        assert_eq!(ReviewedBy::of(Some(Role::Arbiter)), ReviewedBy::Officer);
        assert_eq!(ReviewedBy::of(Some(Role::President)), ReviewedBy::Officer);
    }

    /// The `gthscl` preset's `[report]`.
    const GT_P2: Deadlines = Deadlines {
        enter_within: 1,
        confirm_within: 5,
        correct_within: 5,
    };

    #[test]
    fn gt_p2_deadlines_are_one_and_five_days() {
        let d = jiff::civil::date(2026, 1, 30);
        assert_eq!(GT_P2.enter_by(d), jiff::civil::date(2026, 1, 31));
        assert_eq!(GT_P2.confirm_by(d), jiff::civil::date(2026, 2, 4));
        assert_eq!(
            crate::Ruleset::preset("gthscl").and_then(|r| r.report),
            Some(GT_P2)
        );
    }

    #[test]
    fn gt_p2_without_report_deadlines_a_task_has_no_due_day() {
        let played = Some(jiff::civil::date(2026, 11, 2));
        let later = jiff::civil::date(2026, 11, 10);
        assert_eq!(
            task(
                None,
                crate::Side::Home,
                ReportStatus::AwaitingResult,
                played,
                None,
                later
            ),
            Some(Task::EnterResult {
                due: None,
                overdue: false
            })
        );
    }

    fn report(status: ReportStatus) -> Report {
        Report {
            status,
            in_force: status.version().unwrap_or(1),
            played_on: Some(jiff::civil::date(2026, 11, 2)),
            enter_by: Some(GT_P2.enter_by(jiff::civil::date(2026, 11, 2))),
            correct_by: Some(GT_P2.correct_by(jiff::civil::date(2026, 11, 2))),
            basis: ResultBasis::Entered,
        }
    }

    #[test]
    fn gt_p2_either_school_asks_for_a_correction_of_a_result_that_stands_within_its_days() {
        let ask = ReportStep::RequestCorrection;
        // Once the result stands, however it came to (the visitors' confirmation, an officer's
        // entry, an import), a correction may be asked for, until the fifth day after entry.
        for stands in [
            ReportStatus::Confirmed { version: 1 },
            ReportStatus::Decided { version: 2 },
            ReportStatus::Recorded { version: 1 },
        ] {
            assert_eq!(check(ask, stands), Ok(()), "{stands:?}");
            let last = ask.check(
                &report(stands),
                None,
                EnteredBy::Team,
                jiff::civil::date(2026, 11, 7),
            );
            assert_eq!(last, Ok(()), "the fifth day still counts");
            let late = ask
                .check(
                    &report(stands),
                    None,
                    EnteredBy::Team,
                    jiff::civil::date(2026, 11, 8),
                )
                .unwrap_err();
            assert_eq!(late.code(), "correction_too_late");
            assert!(late.to_string().contains("Sat 7 Nov 2026"), "{late}");
        }
        // Before it stands the visitors dispute it; once asked, an officer decides first.
        let awaiting = check(ask, ReportStatus::AwaitingConfirmation { version: 1 }).unwrap_err();
        assert_eq!(awaiting.code(), "awaits_visitors");
        let asked = ReportStatus::CorrectionRequested { version: 1 };
        assert_eq!(
            check(ask, asked).unwrap_err().code(),
            "correction_requested"
        );
        assert_eq!(
            check(ReportStep::Enter, asked).unwrap_err().code(),
            "correction_requested"
        );
        assert_eq!(check(ReportStep::Decide, asked), Ok(()));
        assert_eq!(check(ReportStep::Correct, asked), Ok(()));
        assert!(ask.reason_missing().is_some());
        assert_eq!(ask.action(), Action::RequestCorrection);
        assert_eq!(
            officer_task(&report(asked), false, None, MATCH_DAY),
            Some(OfficerTask::DecideCorrection { version: 1 })
        );
    }

    #[test]
    fn gt_m3_gt_p4_an_officers_penalty_is_withdrawn_by_a_new_version_and_nothing_else_is() {
        let withdraw = ReportStep::WithdrawPenalty;
        let decided = ReportStatus::Decided { version: 2 };
        for basis in [ResultBasis::ForfeitByDecision, ResultBasis::LateReport] {
            let penalty = Report {
                basis,
                ..report(decided)
            };
            assert_eq!(
                withdraw.check(&penalty, Some(2), EnteredBy::Officer, MATCH_DAY),
                Ok(())
            );
            // A writer who read an older version is refused as for any step.
            assert_eq!(
                withdraw
                    .check(&penalty, Some(1), EnteredBy::Officer, MATCH_DAY)
                    .unwrap_err()
                    .code(),
                "changed"
            );
        }
        let played = withdraw
            .check(&report(decided), None, EnteredBy::Officer, MATCH_DAY)
            .unwrap_err();
        assert_eq!(played.code(), "no_penalty");
        assert!(played.to_string().starts_with("GT-M3, GT-P4:"), "{played}");
        assert_eq!(
            check(withdraw, ReportStatus::AwaitingResult)
                .unwrap_err()
                .code(),
            "not_entered"
        );
        assert!(withdraw.reason_missing().is_some());
        assert_eq!(withdraw.action(), Action::ApplyMatchForfeit);
    }

    #[test]
    fn gt_p2_a_correction_asked_for_waits_for_an_officer_whoever_entered_the_result() {
        let asked = |version| Review {
            version,
            kind: ReviewKind::CorrectionRequested,
            by: ReviewedBy::Visitors,
        };
        let kept = |version| Review {
            version,
            kind: ReviewKind::Confirmed,
            by: ReviewedBy::Officer,
        };
        let confirmed = Review {
            version: 1,
            kind: ReviewKind::Confirmed,
            by: ReviewedBy::Visitors,
        };
        for by in [EnteredBy::Team, EnteredBy::Officer, EnteredBy::Import] {
            let entry = Some(Entry { version: 1, by });
            assert_eq!(
                status(entry, &[confirmed, asked(1)]),
                ReportStatus::CorrectionRequested { version: 1 },
                "{by:?}"
            );
            // The officer keeps the result: it is decided and stands.
            assert_eq!(
                status(entry, &[confirmed, asked(1), kept(1)]),
                ReportStatus::Decided { version: 1 },
                "{by:?}"
            );
            // A correction is a new version, which is the officer's.
            let corrected = Some(Entry {
                version: 2,
                by: EnteredBy::Officer,
            });
            assert_eq!(
                status(corrected, &[confirmed, asked(1)]),
                ReportStatus::Decided { version: 2 }
            );
        }
        assert_eq!(
            ReviewKind::from_code(ReviewKind::CorrectionRequested.code()),
            Some(ReviewKind::CorrectionRequested)
        );
    }

    const MATCH_DAY: jiff::civil::Date = jiff::civil::date(2026, 11, 2);

    fn check(step: ReportStep, status: ReportStatus) -> Result<(), Refusal> {
        step.check(&report(status), None, EnteredBy::Team, MATCH_DAY)
    }

    #[test]
    fn gt_p2_each_step_has_its_turn() {
        use ReportStep::*;
        let waiting = ReportStatus::AwaitingResult;
        let entered = ReportStatus::AwaitingConfirmation { version: 2 };
        let disputed = ReportStatus::Disputed { version: 2 };
        let confirmed = ReportStatus::Confirmed { version: 2 };
        assert_eq!(check(Enter, waiting), Ok(()));
        // Entered again until the visitors speak.
        assert_eq!(check(Enter, entered), Ok(()));
        assert_eq!(check(Confirm, entered), Ok(()));
        assert_eq!(check(Dispute, entered), Ok(()));
        assert_eq!(check(Correct, entered), Ok(()));
        assert_eq!(check(Correct, confirmed), Ok(()));
        assert_eq!(check(Decide, disputed), Ok(()));
        assert_eq!(
            check(Enter, disputed).map_err(Refusal::code),
            Err("disputed")
        );
        assert_eq!(
            check(Enter, confirmed).map_err(Refusal::code),
            Err("settled")
        );
        assert_eq!(
            check(Correct, waiting).map_err(Refusal::code),
            Err("not_entered")
        );
        assert_eq!(
            check(Confirm, waiting).map_err(Refusal::code),
            Err("not_entered")
        );
        assert_eq!(
            check(Dispute, disputed).map_err(Refusal::code),
            Err("disputed")
        );
        assert_eq!(
            check(Decide, entered).map_err(Refusal::code),
            Err("not_disputed")
        );
        assert_eq!(
            check(Decide, confirmed).map_err(Refusal::code),
            Err("settled")
        );
    }

    #[test]
    fn gt_m3_a_forfeit_by_decision_is_for_a_match_nobody_reported() {
        use ReportStep::ForfeitByDecision;
        assert_eq!(
            check(ForfeitByDecision, ReportStatus::AwaitingResult),
            Ok(())
        );
        // Decided before the match day too: the advisors could not arrange it.
        let before = jiff::civil::date(2026, 10, 20);
        assert_eq!(
            ForfeitByDecision.check(
                &report(ReportStatus::AwaitingResult),
                None,
                EnteredBy::Officer,
                before
            ),
            Ok(())
        );
        let entered = check(
            ForfeitByDecision,
            ReportStatus::AwaitingConfirmation { version: 2 },
        )
        .unwrap_err();
        assert_eq!(entered.code(), "reported");
        assert!(
            entered
                .to_string()
                .starts_with("GT-M3: version 2 of this result is entered")
        );
        assert!(
            ForfeitByDecision
                .reason_missing()
                .unwrap()
                .contains("GT-M3")
        );
        assert_eq!(ForfeitByDecision.basis(), ResultBasis::ForfeitByDecision);
        assert_eq!(ForfeitByDecision.action(), Action::ApplyMatchForfeit);
    }

    /// GT-P4 at its boundary: the result is due by the end of the day after the match (GT-P2),
    /// so a double forfeit may be applied from the day after that, never before.
    #[test]
    fn gt_p4_a_double_forfeit_only_once_the_report_is_late() {
        use ReportStep::DoubleForfeitForLateReport as Late;
        let waiting = report(ReportStatus::AwaitingResult);
        let due = jiff::civil::date(2026, 11, 3);
        assert_eq!(waiting.enter_by, Some(due));
        let on = |day| Late.check(&waiting, None, EnteredBy::Officer, day);
        assert_eq!(on(due), Err(Refusal::NotOverdue { due }));
        assert!(
            on(due)
                .unwrap_err()
                .to_string()
                .contains("until Tue 3 Nov 2026")
        );
        assert_eq!(on(jiff::civil::date(2026, 11, 4)), Ok(()));
        let entered = Late
            .check(
                &report(ReportStatus::Confirmed { version: 2 }),
                None,
                EnteredBy::Officer,
                jiff::civil::date(2026, 11, 9),
            )
            .unwrap_err();
        assert_eq!(entered.code(), "reported");
        assert!(entered.to_string().starts_with("GT-P4:"));
        let no_deadline = Report {
            enter_by: None,
            ..waiting
        };
        assert_eq!(
            Late.check(
                &no_deadline,
                None,
                EnteredBy::Officer,
                jiff::civil::date(2027, 1, 1)
            ),
            Err(Refusal::NoDeadline)
        );
        assert_eq!(Late.basis(), ResultBasis::LateReport);
        assert_eq!(
            ResultBasis::from_code(ResultBasis::LateReport.code()),
            Some(ResultBasis::LateReport)
        );
    }

    /// GT-O3, GT-P4: an officer is asked for a dispute, for a report late from the day after it
    /// was due, and for the confirmation of one school's two teams' match.
    #[test]
    fn gt_o3_gt_p4_what_a_match_asks_of_an_officer() {
        let waiting = report(ReportStatus::AwaitingResult);
        let due = jiff::civil::date(2026, 11, 3);
        assert_eq!(officer_task(&waiting, false, None, due), None);
        assert_eq!(
            officer_task(&waiting, false, None, jiff::civil::date(2026, 11, 4)),
            Some(OfficerTask::LateReport { due })
        );
        let entered = report(ReportStatus::AwaitingConfirmation { version: 2 });
        assert_eq!(officer_task(&entered, false, None, due), None);
        assert_eq!(
            officer_task(&entered, true, None, due),
            Some(OfficerTask::ConfirmOneSchoolsMatch { version: 2 })
        );
        let disputed = report(ReportStatus::Disputed { version: 2 });
        assert_eq!(
            officer_task(&disputed, false, Some(1), due).map(OfficerTask::action),
            Some(Action::DecideDispute)
        );
        // GT-M20: a game sent for adjudication asks the President, once no dispute is open.
        assert_eq!(
            officer_task(&entered, false, Some(3), due),
            Some(OfficerTask::Adjudicate { board: 3 })
        );
        assert_eq!(
            OfficerTask::Adjudicate { board: 3 }.action(),
            Action::AdjudicateGame
        );
    }

    /// GT-M20: a board awaits adjudication while its game was sent for it and its result is `*`;
    /// once decided it no longer does.
    #[test]
    fn gt_m20_a_board_awaits_adjudication_until_it_is_decided() {
        let mut outcome = waiting(sent());
        assert_eq!(awaiting_adjudication(&outcome), Some(3));
        if let MatchOutcome::Boards(boards) = &mut outcome {
            boards[2].result = GameResult::Draw;
        }
        assert_eq!(awaiting_adjudication(&outcome), None);
        let adjourned = Unfinished::Adjourned {
            resume_on: jiff::civil::date(2026, 11, 5),
        };
        assert_eq!(awaiting_adjudication(&waiting(adjourned)), None);
        assert_eq!(awaiting_adjudication(&MatchOutcome::Pending), None);
    }

    /// GT-M20: a version that gives the waiting game its result, and changes nothing else,
    /// settled it; one that also changes another board is a correction.
    #[test]
    fn gt_m20_a_version_that_settles_an_unfinished_game() {
        let before = waiting(sent());
        let decided = settle(&before, 3, GameResult::Draw, ReportStep::Adjudicate).unwrap();
        assert_eq!(
            settled(&before, &decided),
            Some((3, ReportStep::Adjudicate))
        );
        let adjourned = waiting(Unfinished::Adjourned {
            resume_on: jiff::civil::date(2026, 11, 5),
        });
        let finished = settle(
            &adjourned,
            3,
            GameResult::AwayWin,
            ReportStep::FinishAdjourned,
        )
        .unwrap();
        assert_eq!(
            settled(&adjourned, &finished),
            Some((3, ReportStep::FinishAdjourned))
        );
        let MatchOutcome::Boards(mut more) = decided else {
            unreachable!()
        };
        more[0].result = GameResult::AwayWin;
        assert_eq!(settled(&before, &MatchOutcome::Boards(more)), None);
        assert_eq!(settled(&before, &before), None);
    }

    #[test]
    fn gt_p2_a_writer_who_read_an_older_version_changes_nothing() {
        let r = report(ReportStatus::AwaitingConfirmation { version: 3 });
        assert_eq!(
            ReportStep::Confirm.check(&r, Some(2), EnteredBy::Team, MATCH_DAY),
            Err(Refusal::Changed {
                seen: 2,
                in_force: 3
            })
        );
        assert_eq!(
            ReportStep::Confirm.check(&r, Some(3), EnteredBy::Team, MATCH_DAY),
            Ok(())
        );
        // The version is asked before the state: a stale writer learns it is stale.
        let settled = report(ReportStatus::Confirmed { version: 3 });
        assert_eq!(
            ReportStep::Enter
                .check(&settled, Some(1), EnteredBy::Team, MATCH_DAY)
                .map_err(Refusal::code),
            Err("changed")
        );
    }

    #[test]
    fn gt_p2_an_advisor_enters_from_the_match_day_and_the_refusal_says_so() {
        let r = report(ReportStatus::AwaitingResult);
        let day_before = jiff::civil::date(2026, 11, 1);
        let early = ReportStep::Enter
            .check(&r, None, EnteredBy::Team, day_before)
            .unwrap_err();
        assert_eq!(early.code(), "too_early");
        assert_eq!(
            early.to_string(),
            "GT-P2: this match is set for Mon 2 Nov 2026, so its result is entered from that day, after the match. If it was played earlier by arrangement (GT-M2), ask the President to enter it."
        );
        assert_eq!(
            ReportStep::Enter.check(&r, None, EnteredBy::Officer, day_before),
            Ok(())
        );
    }

    #[test]
    fn gt_p2_gt_o3_refusals_name_the_rule_the_version_and_what_to_do() {
        use ReportStep::*;
        let text = |step, status| check(step, status).unwrap_err().to_string();
        assert_eq!(
            text(Enter, ReportStatus::Confirmed { version: 2 }),
            format!(
                "GT-P2: the visitors confirmed version 2 of this result, so it is no longer entered again; if it is wrong, {WHO_CORRECTS}."
            )
        );
        assert_eq!(
            text(Enter, ReportStatus::Disputed { version: 1 }),
            format!(
                "GT-P2: the visitors disputed version 1 of this result; {WHO_DECIDES}, so it is not entered again meanwhile."
            )
        );
        assert_eq!(
            text(Confirm, ReportStatus::Recorded { version: 1 }),
            format!(
                "GT-P2: version 1 of this result was recorded from the league's file and stands as recorded, so there is nothing to confirm; if it is wrong, {WHO_CORRECTS}."
            )
        );
        assert_eq!(
            text(Dispute, ReportStatus::AwaitingResult),
            "GT-P2: no result has been entered for this match yet, so there is nothing to dispute; the home advisor enters it first."
        );
        assert_eq!(
            text(Correct, ReportStatus::AwaitingResult),
            "GT-P2: no result has been entered for this match yet, so there is nothing to correct; the home advisor enters it first (GT-M1), or the arbiter at an event."
        );
        assert_eq!(
            text(Decide, ReportStatus::AwaitingResult),
            "GT-P2: no result has been entered for this match yet, so there is no dispute to decide."
        );
        assert_eq!(
            text(Decide, ReportStatus::Decided { version: 3 }),
            format!(
                "GT-P2: version 3 of this result was decided by an officer and stands, so there is no dispute to decide; if it is wrong, {WHO_CORRECTS}."
            )
        );
        assert!(text(Decide, ReportStatus::AwaitingConfirmation { version: 2 }).starts_with(
            "GT-P2: version 2 of this result awaits the visitors' confirmation and is not disputed"
        ));
        assert!(WHO_DECIDES.contains("GT-O3") && WHO_CORRECTS.contains("GT-O3"));
    }

    #[test]
    fn gt_p2_gt_o3_corrections_disputes_and_decisions_need_their_reason() {
        assert!(ReportStep::Enter.reason_missing().is_none());
        assert!(ReportStep::Confirm.reason_missing().is_none());
        for step in [ReportStep::Correct, ReportStep::Dispute, ReportStep::Decide] {
            assert!(step.reason_missing().is_some_and(|t| t.contains("(GT-P2")));
        }
    }
}
