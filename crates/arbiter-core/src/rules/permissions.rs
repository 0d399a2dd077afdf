//! Who may do what in a league or event (GT-O3 and the rules each action rests on).
//!
//! [`Action::grants`] is the one table: [`decide`] reads it, [`table`] lists it and
//! [`render_markdown`] prints it to `docs/permissions.md`. Every mutating handler asks [`decide`].
//!
//! Who acts is part of the rules: the ruleset's [`Conduct`] says whether a match's result is
//! entered by the home advisor and confirmed by the visitors (a league, the GTHSCL) or entered
//! and moved by the arbiter (an event, the ASTC), and the table has a column set for each.
//!
//! Conflict of interest (GT-O3): every deciding step ([`Action::is_decision`]) is refused to a
//! person whose school is a party, in whatever role they act: the President's own school, and
//! any school the person advises (an arbiter who is also a team's advisor). It passes to the
//! Vice-President in a league, to another arbiter or the President at an event. Standing in for
//! the President (GT-O3) is done by giving the Vice-President the President's role for the time;
//! the table grants nothing implicitly.
//!
//! [`acting_role`] says which of a person's roles acts: the first the table allows.

use std::fmt::Write as _;

/// A person's role in one league or event. One person may hold different roles in different
/// leagues; an advisor advises one or more teams of one school.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Sets the schedule and playoffs, enforces the rules and arbitrates disputes (GT-O3).
    President,
    /// Stands in for the President, reports to the media, and decides for the President's school
    /// (GT-O3).
    VicePresident,
    /// Keeps the minutes and sends the schedule to the schools (GT-O3).
    Secretary,
    /// Keeps the dues, the refunds and the prize purchases (GT-O2, GT-O3).
    Treasurer,
    /// Runs an event: draws the round robin, takes lineups, enters results (AS-11, AS-13, AS-19).
    Arbiter,
    /// The adult with one school's teams: names their lineups, referees their home matches (GT-M1).
    Advisor,
    /// Not signed in, or signed in without a role here: players, parents, press.
    Public,
}

impl Role {
    /// Every role, in the order the permission table lists them.
    pub const ALL: [Role; 7] = [
        Role::President,
        Role::VicePresident,
        Role::Secretary,
        Role::Treasurer,
        Role::Arbiter,
        Role::Advisor,
        Role::Public,
    ];

    /// The role as a person reads it: `President`, `Vice-President`, … `Public`.
    pub fn name(self) -> &'static str {
        match self {
            Role::President => "President",
            Role::VicePresident => "Vice-President",
            Role::Secretary => "Secretary",
            Role::Treasurer => "Treasurer",
            Role::Arbiter => "Arbiter",
            Role::Advisor => "Advisor",
            Role::Public => "Public",
        }
    }

    /// The word stored and used in addresses: `president`, `vice_president`, … `public`.
    pub fn code(self) -> &'static str {
        match self {
            Role::President => "president",
            Role::VicePresident => "vice_president",
            Role::Secretary => "secretary",
            Role::Treasurer => "treasurer",
            Role::Arbiter => "arbiter",
            Role::Advisor => "advisor",
            Role::Public => "public",
        }
    }

    /// Reads [`Role::code`] back; also accepts the display names (`Vice-President`, any case).
    pub fn from_code(s: &str) -> Option<Role> {
        let s = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Role::ALL.into_iter().find(|r| r.code() == s)
    }

    /// Officers hold a league office (GT-O3) or run an event as its arbiter; advisors and the
    /// public do not.
    pub fn is_officer(self) -> bool {
        !matches!(self, Role::Advisor | Role::Public)
    }

    /// GT-M1: an advisor advises the teams of one school, so an advisor's role names it; a role
    /// the table reads no school for names none. `Err` is the sentence that refuses either.
    pub fn check_school(self, school: Option<&str>) -> Result<(), String> {
        match (self, school.map(str::trim)) {
            (Role::Advisor, None | Some("")) => Err(
                "An advisor advises the teams of one school (GT-M1), so the role needs the school."
                    .into(),
            ),
            (role, Some(s)) if !s.is_empty() && !role.has_school() => Err(format!(
                "{} does not act for a school, so the role names none; leave the school empty (only an advisor's role names one, GT-M1, and the President's own school, GT-O3).",
                capitalise(role.in_sentence())
            )),
            _ => Ok(()),
        }
    }

    /// A role that can be given to `whom` (an account, an invitation, a token): any but the
    /// public's, with a school exactly when [`Role::check_school`] says. `Err` is the sentence.
    pub fn check_grantable(self, school: Option<&str>, whom: &str) -> Result<(), String> {
        if self == Role::Public {
            let roles: Vec<&str> = Role::ALL
                .into_iter()
                .filter(|r| *r != Role::Public)
                .map(Role::code)
                .collect();
            return Err(format!(
                "The public is not a role to give {whom}; choose {}.",
                join_or(&roles)
            ));
        }
        self.check_school(school)
    }

    /// Whether the table reads this role's school: an advisor's (GT-M1), and the President's
    /// own school, kept off its disputes (GT-O3).
    pub fn has_school(self) -> bool {
        Action::ALL.into_iter().any(|a| {
            Conduct::ALL.into_iter().any(|c| {
                matches!(
                    a.grants(c).for_role(self),
                    Access::OwnSchool
                        | Access::OwnSchoolHome
                        | Access::OwnSchoolVisiting
                        | Access::UnlessOwnSchool
                )
            })
        })
    }

    /// "the President", "an advisor", "the public": for sentences.
    pub fn in_sentence(self) -> &'static str {
        match self {
            Role::President => "the President",
            Role::VicePresident => "the Vice-President",
            Role::Secretary => "the Secretary",
            Role::Treasurer => "the Treasurer",
            Role::Arbiter => "the arbiter",
            Role::Advisor => "an advisor",
            Role::Public => "the public",
        }
    }
}

/// Who enters, confirms and moves a match's result: a setting of the ruleset (`conduct`), read
/// by the permission table ("Who acts is part of the rules", RULES.md).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Conduct {
    /// A league (the GTHSCL): the home advisor enters the result and the visiting advisor
    /// confirms or disputes it (GT-M1, GT-P2); advisors move their own matches (GT-M2); the
    /// officers decide.
    #[default]
    Advisors,
    /// An event (the ASTC): the arbiter enters every result, which stands, and moves matches;
    /// a team's advisor names its lineups and lodges protests (AS-11, AS-13).
    Arbiter,
}

impl Conduct {
    /// Both, in the order `docs/permissions.md` lists them.
    pub const ALL: [Conduct; 2] = [Conduct::Advisors, Conduct::Arbiter];

    /// The value a ruleset file writes: `advisors`, `arbiter`.
    pub fn code(self) -> &'static str {
        match self {
            Conduct::Advisors => "advisors",
            Conduct::Arbiter => "arbiter",
        }
    }

    /// How `docs/permissions.md` heads its table.
    fn heading(self) -> &'static str {
        match self {
            Conduct::Advisors => {
                "In a league (`conduct = \"advisors\"`, the GTHSCL): the home advisor enters, the visitors confirm, the officers decide"
            }
            Conduct::Arbiter => {
                "At an event (`conduct = \"arbiter\"`, the ASTC): the arbiter enters results and moves matches; advisors name lineups and protest"
            }
        }
    }
}

/// Everything the product changes, in the league's words. `ReadHistory` is the one read: the
/// history shows who did what, so it is not public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Open a season or event, with its divisions and teams (GT-O1).
    CreateSeason,
    /// Change the ruleset of a season or event (GT-O3).
    EditRules,
    /// Draw or redraw the schedule of matches; at an event, the round robin (GT-O3, AS-19), or
    /// a team Swiss's next round, paired by C.04.6 and published (issue 17).
    DrawSchedule,
    /// Send the schedule to the schools (GT-O3).
    SendScheduleToSchools,
    /// Suspend the schedule in severe weather and resume it later (GT-F5).
    SuspendSchedule,
    /// Record the minutes of a meeting (GT-O3).
    RecordMinutes,
    /// Invite a person and give them a role in this league or event.
    InviteUser,
    /// Change a school's roster of players.
    EditRoster,
    /// Name a team's players for a round before the lineup deadline (AS-11).
    SubmitLineup,
    /// Accept a lineup named after the deadline, with the override on record (AS-11).
    OverrideLateLineup,
    /// Protest another team's board order in writing, with grounds (AS-13).
    ProtestBoardOrder,
    /// Reply in writing to a protest against one's own team's board order (AS-13).
    ReplyToProtest,
    /// Dismiss or uphold a board-order protest, ordering the new order (AS-13); never by a
    /// party to it.
    DecideProtest,
    /// Enter a match's result: the home advisor, or the arbiter at an event (GT-M1, GT-P2).
    EnterResult,
    /// Confirm the result the home team entered: the visiting advisor (GT-P2).
    ConfirmResult,
    /// Dispute the result the home team entered: the visiting advisor (GT-P2).
    DisputeResult,
    /// Ask for a correction of a result that stands, within GT-P2's days: either school's
    /// advisor; an officer decides (GT-O3).
    RequestCorrection,
    /// Correct a result, as a new version that keeps the old (GT-P2).
    CorrectResult,
    /// Decide a disputed result; not the President where their own school plays (GT-O3).
    DecideDispute,
    /// Rule on a violation a played match carries (a lineup out of board order, issue 12): the
    /// result stands, with the reason; to change it, correct it. Not the President where their
    /// own school plays (GT-O3).
    RuleOnViolation,
    /// Decide which team offended when a match could not be arranged; it loses by default (GT-M3).
    ApplyMatchForfeit,
    /// Double-forfeit a match reported late; the President applies it, never the product (GT-P4).
    ApplyDoubleForfeitForLateReport,
    /// GT-P3: record a challenge game (GT-R5) or an unranked game (GT-R7) beside a match.
    RecordExtraGame,
    /// GT-P3, GT-P2: confirm an extra game the other school entered, so that it counts: that
    /// school's advisor (never the one that entered it: core's `extra::may_confirm`), or an
    /// officer.
    ConfirmExtraGame,
    /// GT-P3: strike an extra game out, with the reason kept beside it; an officer, not the
    /// President where their own school plays (GT-O3).
    StrikeExtraGame,
    /// GT-M20: decide a game sent for adjudication; not the President where their own school
    /// plays (GT-O3).
    AdjudicateGame,
    /// GT-M20: upload a finished game's moves (PGN), shown on the players' pages.
    UploadGameScore,
    /// Move or postpone a match, with its reason (GT-M2).
    PostponeMatch,
    /// Allow a postponed match a new date outside the window (GT-M2).
    OverridePostponementWindow,
    /// Read the fee ledger: each school's fee due, payments and refunds, the prize purchases
    /// and the league's cash (GT-O2). Not public.
    ReadLedger,
    /// Record a payment, a refund, a prize purchase or a reversal of a mistaken entry in the
    /// fee ledger (GT-O2). The fee due is the ruleset's (`[fees]`), not an entry.
    RecordLedgerEntry,
    /// Publish the midway or final media report (GT-O3).
    PublishMediaReport,
    /// Read the media reports' drafts before they are published: the Vice-President who writes
    /// them and the President, who answers for the league to the press (GT-O3).
    ReadMediaReportDrafts,
    /// Invite the top teams of each division to the playoffs and run them (GT-F3).
    RunPlayoffs,
    /// Decide a playoff match or tie: enter or correct the game deciding a drawn knockout
    /// match, or order teams tied for a playoff place (GT-F3); not the President where their own
    /// school is a party (GT-O3).
    DecidePlayoff,
    /// Create or revoke an API token that acts in one's own role (and an advisor's school).
    CreateApiToken,
    /// Read the history of changes, who did what and when; not public.
    ReadHistory,
}

/// How one role may take one action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Whatever the target.
    Always,
    /// Only when the subject's school is among the target's schools.
    OwnSchool,
    /// Only when the subject's school is the target match's home school (GT-M1, GT-P2).
    OwnSchoolHome,
    /// Only when the subject's school is the target match's visiting school (GT-P2).
    OwnSchoolVisiting,
    /// Except when the subject's own school is among the target's schools (GT-O3).
    UnlessOwnSchool,
    /// Not at all, whatever the target.
    Never,
}

impl Access {
    fn cell(self) -> &'static str {
        match self {
            Access::Always => "yes",
            Access::OwnSchool => "own school",
            Access::OwnSchoolHome => "home school",
            Access::OwnSchoolVisiting => "visiting school",
            Access::UnlessOwnSchool => "not own school (GT-O3)",
            Access::Never => "no",
        }
    }
}

/// One action's row: how each role may take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grants {
    /// How the President may take the action.
    pub president: Access,
    /// How the Vice-President may take the action.
    pub vice_president: Access,
    /// How the Secretary may take the action.
    pub secretary: Access,
    /// How the Treasurer may take the action.
    pub treasurer: Access,
    /// How an event's arbiter may take the action.
    pub arbiter: Access,
    /// How an advisor may take the action.
    pub advisor: Access,
    /// How the public may take the action: never, for every action.
    pub public: Access,
}

impl Grants {
    const NONE: Grants = Grants {
        president: Access::Never,
        vice_president: Access::Never,
        secretary: Access::Never,
        treasurer: Access::Never,
        arbiter: Access::Never,
        advisor: Access::Never,
        public: Access::Never,
    };

    /// The cell of `role` in this row.
    pub fn for_role(&self, role: Role) -> Access {
        match role {
            Role::President => self.president,
            Role::VicePresident => self.vice_president,
            Role::Secretary => self.secretary,
            Role::Treasurer => self.treasurer,
            Role::Arbiter => self.arbiter,
            Role::Advisor => self.advisor,
            Role::Public => self.public,
        }
    }
}

impl Action {
    /// Every action, in the order the permission table lists them.
    pub const ALL: [Action; 37] = [
        Action::CreateSeason,
        Action::EditRules,
        Action::DrawSchedule,
        Action::SendScheduleToSchools,
        Action::SuspendSchedule,
        Action::RecordMinutes,
        Action::InviteUser,
        Action::EditRoster,
        Action::SubmitLineup,
        Action::OverrideLateLineup,
        Action::ProtestBoardOrder,
        Action::ReplyToProtest,
        Action::DecideProtest,
        Action::EnterResult,
        Action::ConfirmResult,
        Action::DisputeResult,
        Action::RequestCorrection,
        Action::CorrectResult,
        Action::DecideDispute,
        Action::RuleOnViolation,
        Action::ApplyMatchForfeit,
        Action::ApplyDoubleForfeitForLateReport,
        Action::RecordExtraGame,
        Action::ConfirmExtraGame,
        Action::StrikeExtraGame,
        Action::AdjudicateGame,
        Action::UploadGameScore,
        Action::PostponeMatch,
        Action::OverridePostponementWindow,
        Action::ReadLedger,
        Action::RecordLedgerEntry,
        Action::PublishMediaReport,
        Action::ReadMediaReportDrafts,
        Action::RunPlayoffs,
        Action::DecidePlayoff,
        Action::CreateApiToken,
        Action::ReadHistory,
    ];

    /// The permission table under the ruleset's `conduct`. Whatever is not named here is
    /// `Never`; the public is never granted.
    pub fn grants(self, conduct: Conduct) -> Grants {
        use Access::{Always, OwnSchool, OwnSchoolHome, OwnSchoolVisiting, UnlessOwnSchool};
        let n = Grants::NONE;
        let event = conduct == Conduct::Arbiter;
        match self {
            Action::CreateSeason
            | Action::EditRules
            | Action::SuspendSchedule
            | Action::RunPlayoffs
            | Action::OverridePostponementWindow
            | Action::InviteUser => Grants {
                president: Always,
                ..n
            },
            // At an event the arbiter draws the round-robin (AS-19).
            Action::DrawSchedule => Grants {
                president: Always,
                arbiter: Always,
                ..n
            },
            Action::SendScheduleToSchools => Grants {
                president: Always,
                secretary: Always,
                ..n
            },
            Action::RecordMinutes => Grants {
                secretary: Always,
                ..n
            },
            Action::EditRoster => Grants {
                president: Always,
                advisor: OwnSchool,
                ..n
            },
            // AS-11: the players are named to the arbiter, who records them too.
            Action::SubmitLineup => Grants {
                arbiter: Always,
                advisor: OwnSchool,
                ..n
            },
            Action::ProtestBoardOrder | Action::ReplyToProtest => Grants {
                advisor: OwnSchool,
                ..n
            },
            Action::OverrideLateLineup => Grants {
                arbiter: Always,
                ..n
            },
            // AS-13: the arbiter decides; when the arbiter is a party (also a team's advisor),
            // another arbiter of the event or the President does.
            Action::DecideProtest => Grants {
                president: UnlessOwnSchool,
                arbiter: Always,
                ..n
            },
            // GT-M1: the home advisor referees and reports; an officer enters a match nobody
            // reported (GT-O3), not one of their own school. At an event the arbiter enters
            // every result and no team's advisor does.
            Action::EnterResult if event => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                arbiter: Always,
                ..n
            },
            Action::EnterResult => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                arbiter: Always,
                advisor: OwnSchoolHome,
                ..n
            },
            // At an event the arbiter's entry stands: there is nothing to confirm or dispute.
            Action::ConfirmResult | Action::DisputeResult | Action::RequestCorrection if event => n,
            // GT-P2: the visitors confirm; when one school's teams meet, its advisor entered the
            // result, so an officer confirms it instead (GT-O3).
            Action::ConfirmResult => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                advisor: OwnSchoolVisiting,
                ..n
            },
            Action::DisputeResult => Grants {
                advisor: OwnSchoolVisiting,
                ..n
            },
            // GT-P2: "corrections are requested" by either school; an officer corrects.
            Action::RequestCorrection => Grants {
                advisor: OwnSchool,
                ..n
            },
            // Ruling on a match between schools: GT-O3 routes the President's own school to the
            // Vice-President.
            Action::CorrectResult | Action::DecideDispute | Action::RuleOnViolation => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                arbiter: Always,
                ..n
            },
            Action::ApplyMatchForfeit
            | Action::ApplyDoubleForfeitForLateReport
            | Action::AdjudicateGame => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                ..n
            },
            // At an event the arbiter sets the rounds' times and moves a match; in a league the
            // schools arrange a move (GT-M2) and the President can.
            Action::PostponeMatch if event => Grants {
                president: Always,
                arbiter: Always,
                ..n
            },
            Action::PostponeMatch => Grants {
                president: Always,
                advisor: OwnSchool,
                ..n
            },
            // GT-P3: both players report a challenge game to their advisor (GT-R5); either
            // school's advisor, or an officer, records it with the day's match. A game's score
            // (GT-M20's moves) is uploaded the same way, by either school.
            // An event has no challenge games beside its matches (GT-P3 is a league's); its
            // arbiter keeps the game scores.
            Action::RecordExtraGame | Action::ConfirmExtraGame | Action::StrikeExtraGame
                if event =>
            {
                n
            }
            Action::UploadGameScore if event => Grants {
                arbiter: Always,
                ..n
            },
            Action::RecordExtraGame | Action::UploadGameScore => Grants {
                president: Always,
                vice_president: Always,
                arbiter: Always,
                advisor: OwnSchool,
                ..n
            },
            // GT-P3: an extra game is confirmed as a result is (GT-P2): by the school that did
            // not enter it (core's `extra::may_confirm` keeps the entering school off), or an
            // officer not of a party (GT-O3).
            Action::ConfirmExtraGame => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                arbiter: Always,
                advisor: OwnSchool,
                ..n
            },
            Action::StrikeExtraGame => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                arbiter: Always,
                ..n
            },
            // GT-O3: the Treasurer keeps the dues, refunds and prizes; the President reads the
            // book as the check on it.
            Action::ReadLedger => Grants {
                president: Always,
                treasurer: Always,
                ..n
            },
            // Only the Treasurer writes in it: the officer who keeps the money keeps the book, and
            // the President, who reads every entry, is the check, not a second hand in it. When
            // the Treasurer is away the President is given the Treasurer's role for the time, as
            // for standing in (the table grants nothing implicitly).
            Action::RecordLedgerEntry => Grants {
                treasurer: Always,
                ..n
            },
            Action::PublishMediaReport => Grants {
                vice_president: Always,
                ..n
            },
            Action::ReadMediaReportDrafts => Grants {
                president: Always,
                vice_president: Always,
                ..n
            },
            // GT-O3: a playoff match or tie of the President's school is decided by the
            // Vice-President, as on a league match page.
            Action::DecidePlayoff => Grants {
                president: UnlessOwnSchool,
                vice_president: Always,
                ..n
            },
            // Tokens are for scripts: an officer's imports, or a school's own results, lineups
            // and roster kept by its advisor's program. A token acts in the role and school it
            // was made in, and the table decides each of its requests as for the person, so an
            // advisor's token reaches only what the advisor may (GT-M1, GT-P2).
            Action::CreateApiToken => Grants {
                president: Always,
                vice_president: Always,
                secretary: Always,
                treasurer: Always,
                arbiter: Always,
                advisor: Always,
                ..n
            },
            Action::ReadHistory => Grants {
                president: Always,
                vice_president: Always,
                secretary: Always,
                treasurer: Always,
                arbiter: Always,
                advisor: OwnSchool,
                ..n
            },
        }
    }

    /// A verb phrase, lower case, to sit in a sentence and (capitalised) in the table.
    pub fn description(self) -> &'static str {
        match self {
            Action::CreateSeason => "create a season or event, with its divisions and teams",
            Action::EditRules => "edit the ruleset of a season or event",
            Action::DrawSchedule => "draw or redraw the schedule of matches",
            Action::SendScheduleToSchools => "send the schedule to the schools",
            Action::SuspendSchedule => "suspend the schedule in severe weather and resume it",
            Action::RecordMinutes => "record the minutes of a meeting",
            Action::InviteUser => "invite a person and give them a role",
            Action::EditRoster => "edit a school's roster",
            Action::SubmitLineup => "name a team's players for a round before the deadline",
            Action::OverrideLateLineup => "accept a lineup named after the deadline, on record",
            Action::ProtestBoardOrder => "protest another team's board order, with grounds",
            Action::ReplyToProtest => "reply to a protest against one's own team's board order",
            Action::DecideProtest => "dismiss or uphold a protest and order the new board order",
            Action::EnterResult => "enter the result of a match",
            Action::ConfirmResult => "confirm the result the home team entered",
            Action::DisputeResult => "dispute the result the home team entered",
            Action::RequestCorrection => "ask for a correction of a result that stands",
            Action::CorrectResult => "correct a result, as a new version that keeps the old",
            Action::DecideDispute => "decide a disputed result",
            Action::RuleOnViolation => {
                "rule on a violation a played match carries: the result stands, with the reason"
            }
            Action::ApplyMatchForfeit => {
                "decide which team offended when a match could not be arranged"
            }
            Action::ApplyDoubleForfeitForLateReport => {
                "apply a double forfeit to a match reported late (never applied automatically)"
            }
            Action::PostponeMatch => "move or postpone a match, with its reason",
            Action::RecordExtraGame => "record a challenge or unranked game played beside a match",
            Action::ConfirmExtraGame => "confirm an extra game the other school entered",
            Action::StrikeExtraGame => "strike an extra game out, with the reason",
            Action::AdjudicateGame => "decide a game sent for adjudication",
            Action::UploadGameScore => "upload a finished game's moves (PGN)",
            Action::OverridePostponementWindow => {
                "allow a new date outside the postponement window"
            }
            Action::ReadLedger => {
                "read the fee ledger: fees due, payments, refunds, prizes and cash"
            }
            Action::RecordLedgerEntry => {
                "record a payment, a refund, a prize purchase or a reversal in the fee ledger"
            }
            Action::PublishMediaReport => "publish the midway or final media report",
            Action::ReadMediaReportDrafts => {
                "read the media reports' drafts before they are published"
            }
            Action::RunPlayoffs => "invite the playoff teams and run the playoffs",
            Action::DecidePlayoff => {
                "enter or correct a playoff match's deciding game, or order teams tied for a playoff place"
            }
            Action::CreateApiToken => {
                "create or revoke an API token that acts in one's own role and school"
            }
            Action::ReadHistory => "read the history of changes: who did what, when",
        }
    }

    /// The rule of RULES.md the action rests on, when one does.
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Action::CreateSeason => Some("GT-O1"),
            Action::EditRules
            | Action::DrawSchedule
            | Action::SendScheduleToSchools
            | Action::RecordMinutes
            | Action::DecideDispute
            | Action::RuleOnViolation
            | Action::PublishMediaReport
            | Action::ReadMediaReportDrafts => Some("GT-O3"),
            Action::SuspendSchedule => Some("GT-F5"),
            Action::InviteUser
            | Action::EditRoster
            | Action::CreateApiToken
            | Action::ReadHistory => None,
            Action::SubmitLineup | Action::OverrideLateLineup => Some("AS-11"),
            Action::ProtestBoardOrder | Action::ReplyToProtest | Action::DecideProtest => {
                Some("AS-13")
            }
            Action::EnterResult
            | Action::ConfirmResult
            | Action::DisputeResult
            | Action::RequestCorrection
            | Action::CorrectResult => Some("GT-P2"),
            Action::ApplyMatchForfeit => Some("GT-M3"),
            Action::ApplyDoubleForfeitForLateReport => Some("GT-P4"),
            Action::RecordExtraGame | Action::ConfirmExtraGame | Action::StrikeExtraGame => {
                Some("GT-P3")
            }
            Action::AdjudicateGame | Action::UploadGameScore => Some("GT-M20"),
            Action::PostponeMatch | Action::OverridePostponementWindow => Some("GT-M2"),
            Action::ReadLedger | Action::RecordLedgerEntry => Some("GT-O2"),
            Action::RunPlayoffs | Action::DecidePlayoff => Some("GT-F3"),
        }
    }

    /// For GT-O3 refusals: what the President is involved in, and what the Vice-President does.
    fn conflict_words(self) -> (&'static str, &'static str) {
        match self {
            Action::DecideDispute => ("dispute", "decides it"),
            Action::RuleOnViolation => ("violation", "rules on it"),
            Action::CorrectResult => ("result", "corrects it"),
            Action::ApplyMatchForfeit => ("match", "decides which team offended"),
            Action::ApplyDoubleForfeitForLateReport => ("match", "decides on the late report"),
            Action::AdjudicateGame => ("game", "adjudicates it"),
            Action::EnterResult => ("match", "enters its result"),
            Action::ConfirmResult => ("match", "confirms its result"),
            Action::DecidePlayoff => ("playoff match", "decides it"),
            Action::DecideProtest => ("protest", "decides it"),
            Action::ConfirmExtraGame => ("match", "confirms its extra game"),
            Action::StrikeExtraGame => ("match", "strikes its extra game out"),
            _ => ("matter", "acts on it"),
        }
    }

    /// A deciding step: refused to a person whose school is a party, whatever role they act in
    /// ("Conflicts", RULES.md; GT-O3).
    pub fn is_decision(self) -> bool {
        matches!(
            self,
            Action::CorrectResult
                | Action::DecideDispute
                | Action::RuleOnViolation
                | Action::ApplyMatchForfeit
                | Action::ApplyDoubleForfeitForLateReport
                | Action::AdjudicateGame
                | Action::DecideProtest
                | Action::DecidePlayoff
                | Action::StrikeExtraGame
        )
    }
}

/// Who is acting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subject<'a> {
    /// The role the person acts in here.
    pub role: Role,
    /// The advisor's school; for the President, the President's own school (GT-O3).
    pub school: Option<&'a str>,
}

/// What is acted on: the league as a whole, one school's teams (a roster, a lineup, a ledger
/// line), a match, which always names its home and visiting schools (GT-M1) and how its
/// competition is conducted, or a matter between several schools' teams (a protest, a tie for a
/// playoff place). A team with no school, a state team at an event, is `None` there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Target<'a> {
    /// A season-wide action: no school is involved.
    #[default]
    League,
    /// One school's teams.
    School(&'a str),
    /// A match between its home and its visiting school.
    Match {
        /// The home team's school.
        home: Option<&'a str>,
        /// The visiting team's school.
        visiting: Option<&'a str>,
        /// Who enters, confirms and moves its result: its ruleset's `conduct`.
        conduct: Conduct,
    },
    /// A matter between the teams of these schools: a protest (the protesting team's school
    /// first), or teams tied for a playoff place.
    Parties(&'a [&'a str]),
}

impl<'a> Target<'a> {
    /// The schools involved: none, one, or the match's two (once each).
    pub fn schools(&self) -> Vec<&'a str> {
        match *self {
            Target::League => Vec::new(),
            Target::School(s) => vec![s],
            Target::Match { home, visiting, .. } => {
                let mut out: Vec<&str> = home.into_iter().collect();
                out.extend(visiting.filter(|v| Some(*v) != home));
                out
            }
            Target::Parties(schools) => {
                let mut out: Vec<&str> = Vec::new();
                for s in schools {
                    if !out.contains(s) {
                        out.push(s);
                    }
                }
                out
            }
        }
        .into_iter()
        // A team entered without a school is handed over as the empty name: no school.
        .filter(|s| !s.trim().is_empty())
        .collect()
    }

    /// The conduct the table reads: the match's, and a league's for every other target (no
    /// row that differs by conduct acts on anything but a match).
    pub fn conduct(&self) -> Conduct {
        match *self {
            Target::Match { conduct, .. } => conduct,
            _ => Conduct::Advisors,
        }
    }

    fn involves(&self, school: &str) -> bool {
        self.schools().contains(&school)
    }

    fn home_school(&self) -> Option<&'a str> {
        match *self {
            Target::Match { home, .. } => home,
            _ => None,
        }
    }

    fn visiting_school(&self) -> Option<&'a str> {
        match *self {
            Target::Match { visiting, .. } => visiting,
            _ => None,
        }
    }
}

/// The answer of [`decide`]: allowed, or refused with the rule and the sentence that says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The person may act.
    Allowed,
    /// `reason` is a sentence naming the rule, to show the person as it is.
    Refused {
        /// The rule the refusal rests on, when one does.
        rule: Option<&'static str>,
        /// The sentence to show, led by the rule ID when there is one: `GT-O3: the dispute …`.
        reason: String,
    },
}

impl Decision {
    /// Whether the person may act.
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allowed)
    }
}

/// May `subject` take `action` on `target`? Reads [`Action::grants`] and nothing else.
pub fn decide(subject: Subject<'_>, action: Action, target: Target<'_>) -> Decision {
    let rule = action.rule();
    let refused = |rule: Option<&'static str>, text: String| Decision::Refused {
        rule,
        reason: match rule {
            Some(id) => format!("{id}: {text}"),
            None => capitalise(&text),
        },
    };
    let involved = |school: &str| target.involves(school);
    match action.grants(target.conduct()).for_role(subject.role) {
        Access::Always => Decision::Allowed,
        Access::Never => refused(
            rule,
            format!(
                "{} may {}; {} may not.",
                who_may(action, target.conduct()),
                action.description(),
                subject.role.in_sentence()
            ),
        ),
        Access::OwnSchool => match subject.school {
            Some(school) if involved(school) => Decision::Allowed,
            Some(school) => refused(rule, not_own_school(school, &target.schools())),
            None => refused(rule, no_school_sentence()),
        },
        Access::OwnSchoolHome => side_check(
            subject.school,
            target.home_school(),
            "home",
            action,
            rule,
            &refused,
        ),
        // GT-O3: when one school's teams meet, its advisor entered the result as the home side
        // and may not also confirm or dispute it as the visitors.
        Access::OwnSchoolVisiting
            if subject.school.is_some()
                && target.home_school() == subject.school
                && target.visiting_school() == subject.school =>
        {
            refused(
                Some("GT-O3"),
                format!(
                    "both teams of this match are {}'s, so its advisor, who entered the result for the home team, does not also {} for the visitors; an officer confirms it (the President, or the Vice-President when the President's school plays).",
                    subject.school.unwrap_or_default(),
                    action.description()
                ),
            )
        }
        Access::OwnSchoolVisiting => side_check(
            subject.school,
            target.visiting_school(),
            "visiting",
            action,
            rule,
            &refused,
        ),
        Access::UnlessOwnSchool => match subject.school {
            Some(school) if involved(school) => {
                refused(Some("GT-O3"), presidents_own_school(action, school))
            }
            _ => Decision::Allowed,
        },
    }
}

/// Which of a person's roles acts: each of `roles` (their roles in this league, with the school
/// of each) is asked in turn and the first the table allows acts. `Err` is the sentence refusing
/// it: an advisor's refusal, which names the school, before a plain "may not"; with no role at
/// all, the public's.
pub fn acting_role<'a>(
    roles: impl IntoIterator<Item = Subject<'a>>,
    action: Action,
    target: Target<'_>,
) -> Result<Subject<'a>, String> {
    let roles: Vec<Subject<'a>> = roles.into_iter().collect();
    // A party does not decide, whichever of its roles it would act in (GT-O3's reading). One
    // with no role that may decide at all is told that instead.
    if action.is_decision()
        && let Some(party) = roles
            .iter()
            .find(|s| s.school.is_some_and(|school| target.involves(school)))
        && roles
            .iter()
            .any(|s| decide(*s, action, target).is_allowed() || s.role == Role::President)
    {
        return Err(party_refusal(action, *party));
    }
    let mut refusal = None;
    for subject in roles {
        match decide(subject, action, target) {
            Decision::Allowed => return Ok(subject),
            Decision::Refused { reason, .. } => {
                if refusal.is_none() || subject.role == Role::Advisor {
                    refusal = Some(reason);
                }
            }
        }
    }
    let public = Subject {
        role: Role::Public,
        school: None,
    };
    Err(
        refusal.unwrap_or_else(|| match decide(public, action, target) {
            Decision::Refused { reason, .. } => reason,
            Decision::Allowed => format!(
                "This account has no role in this league, so it may not {}.",
                action.description()
            ),
        }),
    )
}

/// GT-O3: why the President does not take `action` on a matter of `school`, his own.
fn presidents_own_school(action: Action, school: &str) -> String {
    let (noun, vp_does) = action.conflict_words();
    format!(
        "the {noun} involves {school}, the President's own school; the Vice-President {vp_does}."
    )
}

/// The sentence refusing a deciding step to `party`, whose school is involved.
fn party_refusal(action: Action, party: Subject<'_>) -> String {
    let school = party.school.unwrap_or_default();
    let (noun, vp_does) = action.conflict_words();
    match action {
        Action::DecideProtest => format!(
            "{}: the protest involves {school}, whose advisor this account is, so it does not decide it; another arbiter of the event, or the President, decides it.",
            action.rule().unwrap_or("AS-13")
        ),
        _ if party.role == Role::President => {
            format!("GT-O3: {}", presidents_own_school(action, school))
        }
        _ => format!(
            "GT-O3: the {noun} involves {school}, whose advisor this account is, so it does not decide it; the Vice-President {vp_does}."
        ),
    }
}

fn side_check(
    own: Option<&str>,
    side_school: Option<&str>,
    side: &str,
    action: Action,
    rule: Option<&'static str>,
    refused: &dyn Fn(Option<&'static str>, String) -> Decision,
) -> Decision {
    let Some(own) = own else {
        return refused(rule, no_school_sentence());
    };
    let verb = action.description();
    match side_school.filter(|s| !s.trim().is_empty()) {
        Some(s) if s == own => Decision::Allowed,
        Some(s) => refused(
            rule,
            format!(
                "only the {side} advisor may {verb}; {own} is not the {side} school of this match ({s} is)."
            ),
        ),
        None => refused(
            rule,
            format!("only the {side} advisor may {verb}, and this match names no {side} school."),
        ),
    }
}

fn no_school_sentence() -> String {
    "an advisor acts only for their own school, and this account names no school; ask the President to set it.".to_string()
}

/// Why `school`'s advisor may not act on a target of `schools`: a whole sentence, also when the
/// target names no school (a team entered without one).
fn not_own_school(school: &str, schools: &[&str]) -> String {
    let lead = "an advisor acts only for their own school";
    match schools {
        [] => format!(
            "{lead}, and no school is named for this team or match, so {school}'s advisor may not act on it; ask the President to set the team's school, or ask an officer to act."
        ),
        [one] => format!("{lead}, and {school} is not {one}."),
        many => format!("{lead}, and {school} is not one of {}.", join_or(many)),
    }
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// "the President or the arbiter", "an advisor of the home school".
fn who_may(action: Action, conduct: Conduct) -> String {
    let grants = action.grants(conduct);
    let names: Vec<String> = Role::ALL
        .iter()
        .filter_map(|&role| {
            let who = role.in_sentence();
            match grants.for_role(role) {
                Access::Never => None,
                Access::Always => Some(who.to_string()),
                Access::OwnSchool => Some(format!("{who} for their own school")),
                Access::OwnSchoolHome => Some("the home advisor".to_string()),
                Access::OwnSchoolVisiting => Some("the visiting advisor".to_string()),
                Access::UnlessOwnSchool => Some(format!("{who} (not for their own school)")),
            }
        })
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    if refs.is_empty() {
        "no one".to_string()
    } else {
        format!("only {}", join_or(&refs))
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The table under `conduct` as listed: every action with every role's access, in
/// [`Action::ALL`] and [`Role::ALL`] order.
pub fn table(conduct: Conduct) -> Vec<(Action, Vec<(Role, Access)>)> {
    Action::ALL
        .iter()
        .map(|&action| {
            let grants = action.grants(conduct);
            let row = Role::ALL
                .iter()
                .map(|&role| (role, grants.for_role(role)))
                .collect();
            (action, row)
        })
        .collect()
}

/// `docs/permissions.md`, generated from [`table`].
pub fn render_markdown() -> String {
    let mut out = String::new();
    out.push_str("# Permissions\n\n");
    out.push_str(
        "Generated from `crates/arbiter-core/src/rules/permissions.rs`; do not edit by hand. Regenerate with\n\
         `cargo run -p arbiter-core --example permissions_doc > docs/permissions.md`\n\
         (the test `crates/arbiter-core/tests/permissions.rs` fails while this file is stale).\n\n",
    );
    out.push_str(
        "Every mutating handler asks `arbiter_core::rules::permissions::decide` before it acts. Roles are held\n\
         per league or event; an advisor advises one or more teams of one school. Who enters, confirms\n\
         and moves a match's result is the ruleset's `conduct`, so the table has one form for each.\n",
    );
    for conduct in Conduct::ALL {
        let _ = write!(out, "\n## {}\n\n", conduct.heading());
        out.push_str("| Action | What | Rule |");
        for role in Role::ALL {
            let _ = write!(out, " {} |", role.name());
        }
        out.push_str("\n|---|---|---|");
        for _ in Role::ALL {
            out.push_str("---|");
        }
        out.push('\n');
        for (action, row) in table(conduct) {
            let _ = write!(
                out,
                "| `{action:?}` | {} | {} |",
                capitalise(action.description()),
                action.rule().unwrap_or("—")
            );
            for (_, access) in row {
                let _ = write!(out, " {} |", access.cell());
            }
            out.push('\n');
        }
    }
    out.push_str(
        "\nCells: *own school*: only for a target that involves the person's own school; *home school* /\n\
         *visiting school*: only the advisor of that side of the match (GT-M1, GT-P2); *not own school*:\n\
         refused when the person's own school is involved.\n\n",
    );
    out.push_str(
        "GT-O3, conflict of interest: a dispute involving the President's own school is decided by the\n\
         Vice-President; the President cannot act on it, nor correct that result or decide which team\n\
         offended in that match (GT-M3), nor decide its playoff match or tie (GT-F3). Standing in for the\n\
         President (GT-O3) is done by giving the Vice-President the President's role for the time; the\n\
         table grants nothing implicitly.\n\n",
    );
    out.push_str(
        "A party never decides: every deciding step (a correction, a dispute, a ruling, a forfeit by\n\
         decision, an adjudication, a playoff's deciding game or tie, a protest) is refused to a person\n\
         whose school is involved, in whatever role they hold, so an arbiter who also advises a team\n\
         does not decide its protest (AS-13): another arbiter of the event or the President does.\n\n",
    );
    out.push_str(
        "GT-P4: the product flags a match reported late; an officer (the President, or the Vice-President\n\
         when the President's school plays) applies the double forfeit, never the product on its own.\n\n\
         GT-O3, sister teams: when two teams of one school meet, the school's advisor enters the result for\n\
         the home team and an officer confirms it; the advisor does not confirm or dispute their own entry.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gt_o3_gt_m1_the_first_role_the_table_allows_acts() {
        let target = Target::Match {
            home: Some("Perrysburg"),
            visiting: Some("Maumee"),
            conduct: Conduct::Advisors,
        };
        let advisor = Subject {
            role: Role::Advisor,
            school: Some("Perrysburg"),
        };
        let president = Subject {
            role: Role::President,
            school: Some("Perrysburg"),
        };
        let vice = Subject {
            role: Role::VicePresident,
            school: None,
        };
        // The home advisor enters (GT-M1) whichever role is listed first; the Vice-President
        // corrects where the President's own school plays (GT-O3), but not a person who is both:
        // a party does not decide in any of its roles.
        assert_eq!(
            acting_role([president, advisor], Action::EnterResult, target),
            Ok(advisor)
        );
        assert_eq!(acting_role([vice], Action::CorrectResult, target), Ok(vice));
        let both = acting_role([president, vice], Action::CorrectResult, target).unwrap_err();
        assert!(
            both.starts_with("GT-O3:") && both.contains("Perrysburg"),
            "{both}"
        );
        let refused = acting_role([president, advisor], Action::DecideDispute, target);
        assert!(
            refused.as_ref().is_err_and(|r| r.starts_with("GT-")),
            "{refused:?}"
        );
        // The visiting advisor's refusal names the school, before a plain "may not".
        let secretary = Subject {
            role: Role::Secretary,
            school: None,
        };
        let visiting = Subject {
            role: Role::Advisor,
            school: Some("Maumee"),
        };
        let why = acting_role([secretary, visiting], Action::EnterResult, target).unwrap_err();
        assert!(why.contains("Maumee"), "{why}");
        // No role at all: the public's refusal.
        let none = acting_role([], Action::EnterResult, target).unwrap_err();
        assert!(none.contains("the public"), "{none}");
    }
}
