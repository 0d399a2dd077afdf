//! Who is told what, by mail (issue 13, part 9): a result entered goes to the visitors, who
//! confirm it (GT-P2); a dispute to the home team and the officers who decide it (GT-O3); a
//! decision and a move to both schools (GT-M2); a deadline due tomorrow to the side it is due
//! from. Each person may stop each kind of notice; the product never stops telling an officer
//! of a dispute they must decide without that person's say.

use crate::record::model::Side;
use crate::season::report::{ReportStatus, ReportStep, Task};

/// A kind of notice, each of which a person may stop on their account page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Notice {
    /// The home team entered a result: the visitors confirm or dispute it (GT-P2); or one school
    /// entered an extra game, which the other confirms (GT-P3).
    ResultEntered,
    /// The visitors disputed a result: an officer decides (GT-O3).
    ResultDisputed,
    /// An officer entered, corrected or decided a result, or declared a penalty (GT-M3, GT-P4).
    ResultDecided,
    /// The match moved to another day (GT-M2).
    MatchMoved,
    /// A result is due tomorrow: the home team's entry or the visitors' confirmation (GT-P2).
    DeadlineTomorrow,
    /// A protest of a team's order was lodged, replied to or decided (AS-13): both teams and
    /// the arbiter hear of each step.
    ProtestStep,
}

impl Notice {
    /// Every kind, in the order the account page lists them.
    pub const ALL: [Notice; 6] = [
        Notice::ResultEntered,
        Notice::ResultDisputed,
        Notice::ResultDecided,
        Notice::MatchMoved,
        Notice::DeadlineTomorrow,
        Notice::ProtestStep,
    ];

    /// The word stored and sent by forms.
    pub fn code(self) -> &'static str {
        match self {
            Notice::ResultEntered => "result_entered",
            Notice::ResultDisputed => "result_disputed",
            Notice::ResultDecided => "result_decided",
            Notice::MatchMoved => "match_moved",
            Notice::DeadlineTomorrow => "deadline_tomorrow",
            Notice::ProtestStep => "protest_step",
        }
    }

    /// Reads [`Notice::code`] back.
    pub fn from_code(code: &str) -> Option<Notice> {
        Notice::ALL.into_iter().find(|n| n.code() == code)
    }

    /// What the account page says of it.
    /// What the notice is about, in words that cite no rule: [`Notice::label`] for any league,
    /// whose own IDs for [`Notice::cite_keys`] follow it.
    pub fn words(self) -> &'static str {
        match self {
            Notice::ResultEntered => {
                "A result is entered for a match your school visits, or an extra game by the other school, for you to confirm"
            }
            Notice::ResultDisputed => "A result is disputed, or a correction of it asked for",
            Notice::ResultDecided => {
                "An officer enters, corrects or decides a result, or declares a forfeit"
            }
            Notice::MatchMoved => "A match moves to another day",
            Notice::DeadlineTomorrow => "A result is due from your school tomorrow",
            Notice::ProtestStep => {
                "A protest of your team's order, or by it, is lodged, replied to or decided; as the arbiter, every protest"
            }
        }
    }

    /// The ruleset's `[cite]` keys of the rules the notice follows (GTHSCL: GT-P2, GT-O3, …).
    pub fn cite_keys(self) -> &'static [&'static str] {
        match self {
            Notice::ResultEntered => &["report", "extra_games"],
            Notice::ResultDisputed => &["report", "officers"],
            Notice::ResultDecided => &["forfeit_by_decision", "late_report", "officers"],
            Notice::MatchMoved => &["match_days"],
            Notice::DeadlineTomorrow => &["report"],
            Notice::ProtestStep => &["protest_minutes"],
        }
    }

    /// The notice as the two rulebooks' leagues read it, with their rules' IDs.
    pub fn label(self) -> &'static str {
        match self {
            Notice::ResultEntered => {
                "A result is entered for a match your school visits, or an extra game by the other school, for you to confirm (GT-P2, GT-P3)"
            }
            Notice::ResultDisputed => {
                "A result is disputed, or a correction of it asked for (GT-P2, GT-O3)"
            }
            Notice::ResultDecided => {
                "An officer enters, corrects or decides a result, or declares a forfeit (GT-M3, GT-P4, GT-O3)"
            }
            Notice::MatchMoved => "A match moves to another day (GT-M2)",
            Notice::DeadlineTomorrow => "A result is due from your school tomorrow (GT-P2)",
            Notice::ProtestStep => {
                "A protest of your team's order, or by it, is lodged, replied to or decided; as the arbiter, every protest (AS-13)"
            }
        }
    }

    /// The word in a subject line: "Result entered".
    pub fn title(self) -> &'static str {
        match self {
            Notice::ResultEntered => "Result entered, please confirm",
            Notice::ResultDisputed => "Result disputed",
            Notice::ResultDecided => "Result decided",
            Notice::MatchMoved => "Match moved",
            Notice::DeadlineTomorrow => "Result due tomorrow",
            Notice::ProtestStep => "Protest",
        }
    }
}

/// Who reads a notice of one match: the advisors of either side, and the officers who decide
/// its disputes (the permission table says which: GT-O3 keeps the President off their own
/// school's match).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Audience {
    /// The home school's advisors.
    pub home: bool,
    /// The visiting school's advisors.
    pub away: bool,
    /// The officers who may decide the match's dispute.
    pub officers: bool,
}

/// The notice a step of the result workflow sends, now that it stands at `after`, and to whom;
/// `None` for a step nobody needs to hear of (a confirmation closes the report).
pub fn of_step(step: ReportStep, after: ReportStatus) -> Option<(Notice, Audience)> {
    let both = Audience {
        home: true,
        away: true,
        officers: false,
    };
    match (step, after) {
        (
            ReportStep::Enter | ReportStep::FinishAdjourned,
            ReportStatus::AwaitingConfirmation { .. },
        ) => Some((
            Notice::ResultEntered,
            Audience {
                away: true,
                ..Audience::default()
            },
        )),
        (ReportStep::Dispute, _) => Some((
            Notice::ResultDisputed,
            Audience {
                home: true,
                officers: true,
                ..Audience::default()
            },
        )),
        // GT-P2: either school may ask; the other school and the officers who decide hear of it.
        (ReportStep::RequestCorrection, _) => Some((
            Notice::ResultDisputed,
            Audience {
                home: true,
                away: true,
                officers: true,
            },
        )),
        (ReportStep::Confirm, ReportStatus::Confirmed { .. }) => None,
        // An officer's entry or confirmation, a correction, a decision, a penalty: it stands.
        _ => Some((Notice::ResultDecided, both)),
    }
}

/// GT-P3: an extra game entered by the school on `entered_by` is told to the other school, which
/// confirms it as it would a result (GT-P2); an officer's entry or strike (`None`), which stands,
/// to both.
pub fn of_extra_game(entered_by: Option<Side>) -> (Notice, Audience) {
    match entered_by {
        Some(side) => (
            Notice::ResultEntered,
            Audience {
                home: side == Side::Away,
                away: side == Side::Home,
                officers: false,
            },
        ),
        None => (
            Notice::ResultDecided,
            Audience {
                home: true,
                away: true,
                officers: false,
            },
        ),
    }
}

/// GT-M2: a move is told to both schools.
pub fn of_move() -> (Notice, Audience) {
    (
        Notice::MatchMoved,
        Audience {
            home: true,
            away: true,
            officers: false,
        },
    )
}

/// GT-P2: the reminder a side's task needs on `today`: the day before it is due.
pub fn reminder(task: Task, today: jiff::civil::Date) -> Option<Notice> {
    let due = match task {
        Task::EnterResult { due, .. } | Task::ReviewResult { due, .. } => due?,
    };
    (today.tomorrow().ok() == Some(due)).then_some(Notice::DeadlineTomorrow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34 item 5: a notice's words with the presets' own IDs for its rules are the label
    /// the two rulebooks' leagues have always read; another league's IDs (or none) follow the
    /// same words.
    #[test]
    fn a_notice_cites_the_rules_of_the_league_by_its_own_ids() {
        for n in Notice::ALL {
            let preset = if n == Notice::ProtestStep {
                "astc"
            } else {
                "gthscl"
            };
            let rules = crate::Ruleset::preset(preset).unwrap();
            let ids: Vec<&str> = n.cite_keys().iter().filter_map(|k| rules.cite(k)).collect();
            assert_eq!(
                format!("{} ({})", n.words(), ids.join(", ")),
                n.label(),
                "{n:?}"
            );
        }
    }

    #[test]
    fn gt_p2_gt_o3_each_step_tells_the_ones_who_act_next() {
        let entered = ReportStatus::AwaitingConfirmation { version: 2 };
        assert_eq!(
            of_step(ReportStep::Enter, entered),
            Some((
                Notice::ResultEntered,
                Audience {
                    away: true,
                    ..Audience::default()
                }
            ))
        );
        let (n, who) = of_step(ReportStep::Dispute, ReportStatus::Disputed { version: 2 }).unwrap();
        assert_eq!(n, Notice::ResultDisputed);
        assert!(who.officers && who.home && !who.away);
        // An officer's entry stands: both schools hear of it.
        let (n, who) = of_step(ReportStep::Enter, ReportStatus::Decided { version: 2 }).unwrap();
        assert_eq!(n, Notice::ResultDecided);
        assert!(who.home && who.away);
        for step in [
            ReportStep::Correct,
            ReportStep::Decide,
            ReportStep::ForfeitByDecision,
            ReportStep::DoubleForfeitForLateReport,
        ] {
            assert_eq!(
                of_step(step, ReportStatus::Decided { version: 3 }).map(|x| x.0),
                Some(Notice::ResultDecided)
            );
        }
        assert_eq!(
            of_step(ReportStep::Confirm, ReportStatus::Confirmed { version: 2 }),
            None
        );
        for n in Notice::ALL {
            assert_eq!(Notice::from_code(n.code()), Some(n));
        }
    }

    /// GT-P2 at its boundary: the reminder goes the day before the due day, not on it.
    #[test]
    fn gt_p2_a_reminder_the_day_before_a_result_is_due() {
        let due = jiff::civil::date(2026, 11, 17);
        let task = Task::EnterResult {
            due: Some(due),
            overdue: false,
        };
        assert_eq!(
            reminder(task, jiff::civil::date(2026, 11, 16)),
            Some(Notice::DeadlineTomorrow)
        );
        assert_eq!(reminder(task, due), None);
        assert_eq!(reminder(task, jiff::civil::date(2026, 11, 15)), None);
        let no_day = Task::ReviewResult {
            version: 2,
            due: None,
            overdue: false,
        };
        assert_eq!(reminder(no_day, due), None);
    }
}
