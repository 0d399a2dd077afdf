//! What the store keeps besides the core model: leagues, seasons, competition records, result
//! versions and the history, accounts and their roles, with the ids that address them.

use std::collections::BTreeMap;
use std::fmt;

use arbiter_core::rules::permissions::Role;
use arbiter_core::season::report::ReviewKind;
use arbiter_core::teams::lineup::NamedLineup;
use arbiter_core::{Competition, MatchOutcome, Ruleset, Side, TeamId};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id_type!(
    /// A league's or event's row id.
    LeagueId
);
id_type!(
    /// A season's row id.
    SeasonId
);
id_type!(
    /// A competition's (division's, championship's) row id.
    CompetitionId
);
id_type!(
    /// A match's row id; it stays the same through every result version.
    MatchId
);
id_type!(
    /// An account's row id.
    UserId
);
id_type!(
    /// A role held in one league (a row of `memberships`).
    MembershipId
);
id_type!(
    /// An invitation's row id.
    InviteId
);
id_type!(
    /// An API token's row id.
    ApiTokenId
);
id_type!(
    /// A school's row id (schools belong to a league).
    SchoolId
);

/// A team within a competition is addressed by the core model's id.
pub type TeamKey = TeamId;

/// GTHSCL is a league (seasons, schools that come back); ASTC is an event (held once a year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeagueKind {
    League,
    Event,
}

impl LeagueKind {
    /// The word stored in the database and used in URLs and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            LeagueKind::League => "league",
            LeagueKind::Event => "event",
        }
    }

    pub fn parse(s: &str) -> Option<LeagueKind> {
        match s {
            "league" => Some(LeagueKind::League),
            "event" => Some(LeagueKind::Event),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLeague {
    pub slug: String,
    pub name: String,
    pub kind: LeagueKind,
    pub description: String,
    /// The zone every day and time its rules count is local to (RULES.md, "Time").
    pub time_zone: arbiter_core::record::zone::Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct League {
    pub id: LeagueId,
    pub slug: String,
    pub name: String,
    pub kind: LeagueKind,
    pub description: String,
    /// The zone every day and time its rules count is local to (RULES.md, "Time"): a result's
    /// entry day, GT-P2's deadlines, GT-P4's lateness, an event's hall clock (AS-11..AS-13).
    pub time_zone: arbiter_core::record::zone::Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSeason {
    pub slug: String,
    pub name: String,
    pub starts_on: Option<jiff::civil::Date>,
    pub ends_on: Option<jiff::civil::Date>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Season {
    pub id: SeasonId,
    pub league: LeagueId,
    pub slug: String,
    pub name: String,
    pub starts_on: Option<jiff::civil::Date>,
    pub ends_on: Option<jiff::civil::Date>,
}

/// A school of the league: its teams play in the league's divisions, its advisors name their
/// lineups (GT-O1, GT-M1). Schools outlive seasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct School {
    pub id: SchoolId,
    pub name: String,
    /// Its postal address, set by an officer (issue 32): where its home matches are played
    /// (GT-M1), as a team's page and the calendar feeds say. `None` until set.
    pub address: Option<arbiter_core::record::text::PostalAddress>,
}

/// What a player's roster entry becomes: a name or rating corrected, or a withdrawal from a
/// day (their games before it stay).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerChange {
    pub name: String,
    pub rating: Option<u32>,
    pub provisional: bool,
    pub withdrawn: Option<jiff::civil::Date>,
}

/// A match to move (GT-M2, GT-F5): to which day, and at what time it starts there (`None`:
/// after school, as the advisors agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchMove {
    pub id: MatchId,
    pub to: jiff::civil::Date,
    pub start: Option<jiff::civil::Time>,
}

/// Days a season's schools are closed, both inclusive (GT-M2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewClosure {
    pub starts_on: jiff::civil::Date,
    pub ends_on: jiff::civil::Date,
    /// What the schools are closed for: "Winter break".
    pub reason: String,
}

/// A stored closure; a withdrawn one no longer closes anything but stays on record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonClosure {
    pub id: i64,
    pub season: SeasonId,
    pub starts_on: jiff::civil::Date,
    pub ends_on: jiff::civil::Date,
    pub reason: String,
    pub withdrawn: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCompetition {
    pub slug: String,
    pub name: String,
    pub rules: RulesRef,
}

/// A competition's rules as stored: a preset name, or a whole ruleset TOML text (`extends`
/// may name a preset). Resolved to a [`Ruleset`] on every load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesRef {
    Preset(String),
    Toml(String),
}

/// New rules for a competition (issue 32 item 5), read at `version`; `changes` says in words
/// what changed, for the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesChange {
    pub competition: CompetitionId,
    pub version: i64,
    pub rules: RulesRef,
    pub changes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompetitionRecord {
    pub id: CompetitionId,
    pub season: SeasonId,
    pub slug: String,
    pub name: String,
    pub rules: RulesRef,
    /// Bumped on every write to this competition (starts at 1 on import).
    pub version: i64,
}

/// Where an import stores a competition: the league with this slug, created as given when
/// there is none, and a season in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlace {
    pub league: NewLeague,
    pub season: SeasonChoice,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeasonChoice {
    /// The league's season with this slug, created as given when it has none by that slug.
    Named(NewSeason),
    /// The league's latest season, or this one created when the league has none.
    LatestOr(NewSeason),
}

/// What an import stored, and what it had to create for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub league: League,
    pub created_league: Option<League>,
    pub season: Season,
    pub created_season: Option<Season>,
    pub competition: CompetitionRecord,
}

/// Everything a page or the API needs of one competition.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCompetition {
    pub league: League,
    pub season: Season,
    pub record: CompetitionRecord,
    /// The core model, with the latest version of every result.
    pub competition: Competition,
    /// Resolved from `record.rules`.
    pub rules: Ruleset,
    /// Every match in pairing order: its round number, home team and id.
    pub match_ids: Vec<(u32, TeamId, MatchId)>,
    /// The competition's data version (`record.version`), for ETags.
    pub version: i64,
    /// The lineup in force for each match side that has one named before its match
    /// (issue 12): the latest version.
    pub lineups: Vec<LineupVersion>,
    /// The officers' rulings on violations (issue 12), oldest first.
    pub rulings: Vec<Ruling>,
    /// The game scores uploaded (GT-M20), the latest of each board, in match and board order.
    pub game_scores: Vec<GameScore>,
    /// The team Swiss rounds whose pairing was changed by hand before it was published, read
    /// from the history (issue 17), oldest first.
    pub hand_changes: Vec<HandChange>,
    /// How many times each match that was ever moved has been (GT-M2, GT-F5), counted from the
    /// history: a calendar event's `SEQUENCE` (issue 32). A match never moved is not here.
    pub moves: BTreeMap<MatchId, u32>,
    /// The postal address of each school of the competition's teams that has one (issue 32),
    /// by the school's name, as the teams name their schools.
    pub school_addresses: BTreeMap<String, arbiter_core::record::text::PostalAddress>,
}

/// A team Swiss round published with its pairing changed by hand (C.04.2 art. 1.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandChange {
    pub round: u32,
    /// The home teams of the matches the change made.
    pub matches: Vec<TeamId>,
    /// The team given the bye by the change, if it gave one.
    pub bye: Option<TeamId>,
    pub reason: String,
    /// The absolute criteria the change broke by the Chief Arbiter's override, each as
    /// `C.04.1 b: the sentence` (issue 30).
    pub overridden: Vec<String>,
}

/// How a round added to a competition was paired, as its history row keeps it.
#[derive(Debug, Clone, PartialEq)]
pub enum RoundNote<'a> {
    /// The next knockout round of the playoffs (GT-F3).
    Knockout,
    /// A team Swiss round (C.04.6): the pairing C.04.6 gave, the matches changed by hand (their
    /// home teams), why, and the absolute criteria overridden.
    Swiss {
        paired: &'a serde_json::Value,
        changed: &'a [TeamId],
        bye_by_hand: Option<&'a TeamId>,
        reason: Option<&'a str>,
        /// The absolute criteria the change breaks by override, each `C.04.1 b: the sentence`.
        overridden: &'a [String],
    },
}

/// A finished game's moves as uploaded (GT-M20): which match and board, and the PGN, which
/// core's `game::read` has checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    pub match_id: MatchId,
    pub board: u32,
    /// 1 for the first upload of the board; a later one supersedes it.
    pub upload: u32,
    pub pgn: String,
}

/// An officer's ruling on a violation: the result stands, with the reason (issue 12).
#[derive(Debug, Clone, PartialEq)]
pub struct Ruling {
    /// The violation's [`arbiter_core::rules::validate::Finding::key`].
    pub key: String,
    /// The violation as it read when ruled on.
    pub message: String,
    pub reason: String,
    pub by: Option<String>,
    pub role: Option<Role>,
    pub at: jiff::Timestamp,
}

impl StoredCompetition {
    /// The game score uploaded for board `board` of match `m`, if any (the latest).
    pub fn game_score(&self, m: MatchId, board: u32) -> Option<&GameScore> {
        self.game_scores
            .iter()
            .find(|g| g.match_id == m && g.board == board)
    }

    /// The ruling on the violation `key`, if an officer has ruled on it.
    pub fn ruling(&self, key: &str) -> Option<&Ruling> {
        self.rulings.iter().find(|r| r.key == key)
    }
}

/// An entry of a season's fee ledger (GT-O2) as kept: core's entry, and who recorded it when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    pub entry: arbiter_core::season::ledger::Entry,
    pub recorded_by: Option<String>,
    pub recorded_role: Option<Role>,
    pub recorded_at: jiff::Timestamp,
}

/// One version of a lineup named before its match: who named it, when, and the players.
#[derive(Debug, Clone, PartialEq)]
pub struct LineupVersion {
    pub match_id: MatchId,
    /// 1 for the first named; a change is the next.
    pub version: u32,
    pub entered_by: Option<String>,
    pub entered_role: Option<Role>,
    pub entered_at: jiff::Timestamp,
    /// The round, the match's home team, the side and the players, as core checks them.
    pub named: NamedLineup,
    /// AS-11: named after its deadline and accepted by the arbiter.
    pub late: Option<LateLineup>,
}

impl StoredCompetition {
    /// The lineup in force for `side` of the match `home` hosts in `round`.
    pub fn lineup(&self, round: u32, home: &TeamId, side: Side) -> Option<&LineupVersion> {
        self.lineups
            .iter()
            .find(|l| l.named.round == round && &l.named.home == home && l.named.side == side)
    }

    /// Every lineup in force, as core's checks read them.
    pub fn named_lineups(&self) -> Vec<NamedLineup> {
        self.lineups.iter().map(|l| l.named.clone()).collect()
    }

    /// The id of the match `home` hosts in round `round`.
    pub fn match_id(&self, round: u32, home: &TeamId) -> Option<MatchId> {
        self.match_ids
            .iter()
            .find(|(r, h, _)| *r == round && h == home)
            .map(|(_, _, id)| *id)
    }

    /// How many times the match of round `round` at home to `home` has been moved (GT-M2,
    /// GT-F5): 0 for one never moved.
    pub fn moves_of(&self, round: u32, home: &TeamId) -> u32 {
        self.match_id(round, home)
            .and_then(|m| self.moves.get(&m).copied())
            .unwrap_or(0)
    }

    /// The postal address of the school `school` names, when it has one set (issue 32).
    pub fn school_address(
        &self,
        school: &str,
    ) -> Option<&arbiter_core::record::text::PostalAddress> {
        self.school_addresses.get(school)
    }
}

/// Who makes a change: a signed-in user (their email) in a role, or the system/CLI (`None`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Actor {
    pub user: Option<String>,
    pub role: Option<Role>,
}

impl Actor {
    /// The CLI or the server itself, with no signed-in user.
    pub fn system() -> Actor {
        Actor::default()
    }

    /// A signed-in person acting in one of their roles.
    pub fn user(email: &str, role: Role) -> Actor {
        Actor {
            user: Some(email.to_string()),
            role: Some(role),
        }
    }
}

/// One version of a match's result. Version 1 is the one imported or scheduled; each
/// correction adds the next; the highest is the one in force.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultVersion {
    pub match_id: MatchId,
    /// 1 for the schedule's version; every entry or correction adds one (GT-P2).
    pub version: u32,
    pub outcome: MatchOutcome,
    pub entered_by: Option<String>,
    /// The role `entered_by` acted in; none for an import.
    pub entered_role: Option<Role>,
    pub entered_at: jiff::Timestamp,
    pub reason: Option<String>,
    /// Entered as played, or an officer's penalty on the match (GT-M3, GT-P4).
    pub basis: arbiter_core::season::report::ResultBasis,
    /// GT-M6, GT-S3: the referee's report of a late team, entered with this version.
    pub late: Option<arbiter_core::season::late::LateArrival>,
}

/// One match's result in a batch written in one transaction ([`crate::Store::record_results`]).
#[derive(Debug, Clone, Copy)]
pub struct ResultWrite<'a> {
    /// The match.
    pub match_id: MatchId,
    /// What the writer read of its report: stored only if it is still so.
    pub seen: ReportSeen,
    /// The result.
    pub outcome: &'a MatchOutcome,
    /// What it rests on (an entry, a forfeit by decision, …).
    pub basis: arbiter_core::season::report::ResultBasis,
    /// The referee's report of a late team (GT-M6, GT-S3).
    pub late: Option<&'a arbiter_core::season::late::LateArrival>,
    /// Why, for a correction.
    pub reason: Option<&'a str>,
    /// Who writes it, in the role the table let act on this match (it may differ by match:
    /// the Vice-President's where the President's school plays, GT-O3).
    pub by: &'a Actor,
}

/// What a writer read of a match's report before deciding to write: the version in force and
/// how many reviews the match had. The write is stored only if both are still so when its
/// transaction holds the write lock, so of two writers who read the same state one wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportSeen {
    pub version: u32,
    pub reviews: u32,
}

impl ReportSeen {
    /// The state `versions` and `reviews` (as the store returned them) show.
    pub fn of(versions: &[ResultVersion], reviews: &[ResultReview]) -> ReportSeen {
        ReportSeen {
            version: versions.last().map_or(0, |v| v.version),
            reviews: u32::try_from(reviews.len()).unwrap_or(u32::MAX),
        }
    }
}

/// Which history rows to read. Every field narrows; all `None` reads the whole history.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HistoryFilter {
    pub league: Option<LeagueId>,
    pub competition: Option<CompetitionId>,
    pub match_id: Option<MatchId>,
    /// The team's own rows and those of its matches.
    pub team: Option<(CompetitionId, TeamId)>,
    /// Rows of the competitions of this season.
    pub season: Option<SeasonId>,
    /// Rows of this school: its own, and those of its teams and their matches.
    pub school: Option<SchoolId>,
    /// Rows written by this person (their account's email).
    pub actor: Option<String>,
    /// Rows written at or after this moment.
    pub from: Option<jiff::Timestamp>,
    /// Rows written before this moment.
    pub until: Option<jiff::Timestamp>,
    /// Only rows older than this row id (`id < before`): the next page after a page ending
    /// at that row.
    pub before: Option<i64>,
    /// At most this many rows, newest first.
    pub limit: Option<u32>,
    /// Rows of these entities are left out: the fee ledger's for a reader who may not read it.
    pub hidden: Vec<Entity>,
    /// When not empty, only rows of these entities (the lots drawn, for the public).
    pub only: Vec<Entity>,
}

/// A closed list of words kept in a text column: one spelling each, read back or refused.
macro_rules! code_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, in the order of the list.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The word kept in the store and written in the CSV.
            pub fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)+
                }
            }

            /// Reads [`Self::code`] back.
            pub fn from_code(code: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.code() == code)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.code())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.code() == *other
            }
        }
    };
}

code_enum!(
    /// What a history entry changed.
    Entity {
        League = "league",
        Season = "season",
        School = "school",
        /// A season's school closure (GT-M2).
        Closure = "closure",
        Competition = "competition",
        Team = "team",
        Match = "match",
        User = "user",
        Membership = "membership",
        Invite = "invite",
        ApiToken = "api_token",
        /// An entry of a season's fee ledger (GT-O2); its id is the entry's row id.
        LedgerEntry = "ledger_entry",
        /// A season's playoffs (GT-F3): drawn, a round paired, a deciding game entered.
        Playoffs = "playoffs",
        /// A media report's draft or published version (GT-O3).
        MediaReport = "media_report",
        /// The lot of an event's invitation order drawn by the product (AS-8); its id is the
        /// competition's name.
        FieldLot = "field_lot",
    }
);

code_enum!(
    /// What was done to it.
    HistoryAction {
        Create = "create",
        Import = "import",
        /// A match result entered, corrected or decided: a new version (GT-P2).
        RecordResult = "record_result",
        /// The visitors confirmed the result in force (GT-P2).
        ConfirmResult = "confirm_result",
        /// The visitors disputed it (GT-P2).
        DisputeResult = "dispute_result",
        /// Either school asked for a correction of a result that stands (GT-P2).
        RequestCorrection = "request_correction",
        /// A team's lineup named before the match, or changed: a new version (issue 12).
        NameLineup = "name_lineup",
        /// An officer ruled that a result carrying a violation stands (issue 12).
        RuleOnViolation = "rule_on_violation",
        /// A match moved to another day, with the reason (GT-M2).
        MoveMatch = "move_match",
        /// A season's last day moved later by a suspension of its schedule (GT-F5).
        ExtendSeason = "extend_season",
        /// A challenge game (GT-R5) or an unranked game (GT-R7) recorded with a match (GT-P3).
        RecordExtraGame = "record_extra_game",
        /// An extra game confirmed by the school that did not enter it, or an officer (GT-P3).
        ConfirmExtraGame = "confirm_extra_game",
        /// An extra game struck out by an officer, with the reason (GT-P3).
        StrikeExtraGame = "strike_extra_game",
        /// A finished game's moves (PGN) uploaded for a board of a match (GT-M20).
        UploadGameScore = "upload_game_score",
        /// A player added to a team's roster (issue 12).
        AddPlayer = "add_player",
        /// A player's name or rating corrected on the roster (issue 12).
        EditPlayer = "edit_player",
        /// A player withdrawn from the roster during the season, their games kept (issue 12).
        WithdrawPlayer = "withdraw_player",
        /// A roster entry made one person with an entry of another competition, or a person of
        /// their own again (one player, one person; AS-3, GT-M15).
        LinkPerson = "link_person",
        /// A payment, refund, prize purchase or reversal recorded in the fee ledger (GT-O2).
        RecordLedgerEntry = "record_ledger_entry",
        /// The officers ordered teams a division's criteria cannot separate (GT-F3).
        DecideTie = "decide_tie",
        /// The product drew the lot of an event's invitation order, from a seed of its own (AS-8).
        DrawLot = "draw_lot",
        /// The President drew the playoff bracket from the qualifiers (GT-F3).
        DrawPlayoffs = "draw_playoffs",
        /// The next knockout round paired once the round before it was decided (GT-F3).
        PairRound = "pair_round",
        /// A team Swiss round's pairing published (C.04.6), with the reason when changed by hand
        /// (C.04.2 art. 1.5).
        PublishPairing = "publish_pairing",
        /// An Armageddon or playoff game entered to decide a drawn knockout match (GT-F3).
        RecordDecidingGame = "record_deciding_game",
        /// A deciding game corrected: a new version naming the one it corrects, with why.
        CorrectDecidingGame = "correct_deciding_game",
        /// A media report's draft saved (GT-O3).
        DraftMediaReport = "draft_media_report",
        /// A media report published (GT-O3).
        PublishMediaReport = "publish_media_report",
        /// A league's time zone set, in which its rules count days and times (RULES.md, "Time").
        SetTimeZone = "set_time_zone",
        /// A season's schedule mailed to its schools, one mail a school (GT-O3).
        SendSchedule = "send_schedule",
        /// A school's postal address set, changed or cleared by an officer (issue 32).
        SetSchoolAddress = "set_school_address",
        /// A season's settings changed by an officer (issue 32 item 5): a competition's rules, a
        /// new version naming what changed (the entry fee, the playoff qualifiers, GT-P2's days).
        ChangeRules = "change_rules",
        /// An ASTC event set, or set again: its venue, clock and round times (AS-1, AS-3).
        SetEvent = "set_event",
        /// A protest against a team's order lodged, with its grounds (AS-13).
        LodgeProtest = "lodge_protest",
        /// The team affected's reply to a protest (AS-13).
        ReplyToProtest = "reply_to_protest",
        /// The arbiter's decision on a protest, and the order it set (AS-13).
        DecideProtest = "decide_protest",
        SetPassword = "set_password",
        /// The kinds of notice a person stops or gets again (issue 13).
        SetNotices = "set_notices",
        Grant = "grant",
        Revoke = "revoke",
        Withdraw = "withdraw",
        Accept = "accept",
    }
);

/// One change: who, when, in which role, to what, from what to what, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub id: i64,
    pub at: jiff::Timestamp,
    pub actor: Option<String>,
    pub role: Option<Role>,
    pub entity: Entity,
    /// The row id as text; for a team, its team id (`vic`).
    pub entity_id: String,
    pub action: HistoryAction,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
    pub reason: Option<String>,
    /// The competition the row is filed under, where it is one's.
    pub competition: Option<CompetitionId>,
    /// That competition's name (`Division A`).
    pub competition_name: Option<String>,
    /// The round and teams of the row's match, by the names the league knows them.
    pub on_match: Option<MatchNames>,
}

/// A match as a history row names it: `round 3, Whitmer v Start`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchNames {
    pub round: u32,
    pub home: String,
    pub away: String,
}

/// An account. Its email is kept trimmed and lower-case; `password_hash` is an argon2id PHC
/// string, `None` until a password is set.
#[derive(Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub name: String,
    pub password_hash: Option<String>,
    pub created_at: jiff::Timestamp,
}

// The hash stays out of logs.
impl fmt::Debug for User {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("User")
            .field("id", &self.id)
            .field("email", &self.email)
            .field("name", &self.name)
            .field("has_password", &self.password_hash.is_some())
            .field("created_at", &self.created_at)
            .finish()
    }
}

/// A role a user holds in one league or event; an advisor's names the school.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub id: MembershipId,
    pub user: UserId,
    pub league: LeagueId,
    pub league_slug: String,
    pub role: Role,
    /// The school's name.
    pub school: Option<String>,
    pub granted_at: jiff::Timestamp,
}

/// A user with one of their roles, for a league's list of members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRow {
    pub user: User,
    pub membership: Membership,
}

/// An invitation to be sent: who, to which league, in which role, valid how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInvite {
    pub email: String,
    pub league: LeagueId,
    pub role: Role,
    /// The school's name; an advisor's invite needs one. An unknown name adds the school.
    pub school: Option<String>,
    pub valid_for: jiff::SignedDuration,
}

/// An invitation as stored (its token is kept only as a hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    pub id: InviteId,
    pub email: String,
    pub league: LeagueId,
    pub league_slug: String,
    pub league_name: String,
    pub role: Role,
    pub school: Option<String>,
    pub invited_by: Option<String>,
    pub created_at: jiff::Timestamp,
    pub expires_at: jiff::Timestamp,
    pub accepted_at: Option<jiff::Timestamp>,
    /// When an officer withdrew it, and who: it can no longer be accepted.
    pub withdrawn_at: Option<jiff::Timestamp>,
    pub withdrawn_by: Option<String>,
}

/// How an invitation is accepted: by signing up, or by a signed-in account with the invite's email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcceptInvite<'a> {
    NewAccount {
        name: &'a str,
        /// An argon2id PHC string ([`crate::secrets::hash_password`]).
        password_hash: &'a str,
    },
    ExistingAccount(UserId),
}

/// An API token to create: it acts for `user` in `role` in `league`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApiToken {
    pub user: UserId,
    pub league: LeagueId,
    pub role: Role,
    pub school: Option<String>,
    pub label: String,
}

/// An API token as stored (its secret is kept only as a hash; `prefix` recognises it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    pub id: ApiTokenId,
    pub prefix: String,
    pub label: String,
    pub user: UserId,
    pub user_email: String,
    pub league: LeagueId,
    pub league_slug: String,
    pub role: Role,
    pub school: Option<String>,
    pub created_at: jiff::Timestamp,
    pub revoked_at: Option<jiff::Timestamp>,
}

/// GT-P2: the visitors' confirmation or dispute of one version of a match's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultReview {
    pub match_id: MatchId,
    pub version: u32,
    pub kind: ReviewKind,
    pub by: Option<String>,
    pub role: Option<Role>,
    pub at: jiff::Timestamp,
    pub reason: Option<String>,
}

/// Attempts counted for a limit (failed sign-ins, reset requests) within its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempts {
    pub count: u32,
    /// The first in the window: the limit frees a place when it leaves the window.
    pub earliest: Option<jiff::Timestamp>,
}

/// An ASTC event as the arbiter sets it (AS-1, AS-3): what its sheets print, the hall's offset
/// from UTC (the event's clock), and when each round of each competition starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    pub name: String,
    pub host: arbiter_core::event::field::State,
    pub venue: String,
    /// The hall's offset from UTC in minutes (Adelaide in December: +630).
    pub utc_offset_minutes: i32,
    pub rounds: Vec<EventRoundStart>,
}

/// When round `round` of `competition` starts, in the hall's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRoundStart {
    pub competition: CompetitionId,
    pub round: u32,
    pub starts_at: jiff::civil::DateTime,
}

/// The event in force: its version (1 for the first set), and who set it when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    pub season: SeasonId,
    pub version: u32,
    /// The league's time zone: the hall's clock (see [`EventRecord::clock`]).
    pub time_zone: arbiter_core::record::zone::Zone,
    pub event: NewEvent,
    pub entered_by: Option<String>,
    pub entered_at: jiff::Timestamp,
}

impl EventRecord {
    /// When round `round` of `competition` starts, if the event says.
    pub fn round_start(
        &self,
        competition: CompetitionId,
        round: u32,
    ) -> Option<jiff::civil::DateTime> {
        self.event
            .rounds
            .iter()
            .find(|s| s.competition == competition && s.round == round)
            .map(|s| s.starts_at)
    }

    /// Every round start of `competition`, round 1 first.
    pub fn starts_of(&self, competition: CompetitionId) -> Vec<jiff::civil::DateTime> {
        let mut starts: Vec<_> = self
            .event
            .rounds
            .iter()
            .filter(|s| s.competition == competition)
            .map(|s| (s.round, s.starts_at))
            .collect();
        starts.sort();
        starts.into_iter().map(|(_, t)| t).collect()
    }

    /// The hall's time at `now`: the event's clock (AS-11..AS-13 count by it).
    pub fn hall_time(&self, now: jiff::Timestamp) -> jiff::civil::DateTime {
        self.clock().to_datetime(now)
    }

    /// The instant a time in the hall names (a time the clocks skip or repeat read as
    /// [`arbiter_core::record::zone::Zone::instant`] reads it); `None` past the range of time.
    pub fn instant(&self, hall: jiff::civil::DateTime) -> Option<jiff::Timestamp> {
        self.clock().to_ambiguous_timestamp(hall).compatible().ok()
    }

    /// The hall's clock: the league's time zone, daylight saving and all (RULES.md, "Time").
    /// A league still counting in UTC, as migration 0027 left every league, keeps the fixed
    /// offset from UTC its arbiter set with the event, so events set before then keep their
    /// times.
    pub fn clock(&self) -> jiff::tz::TimeZone {
        let fixed = jiff::tz::Offset::from_seconds(self.event.utc_offset_minutes * 60)
            .unwrap_or(jiff::tz::Offset::UTC);
        if self.time_zone == arbiter_core::record::zone::Zone::utc() {
            jiff::tz::TimeZone::fixed(fixed)
        } else {
            self.time_zone.tz().clone()
        }
    }
}

/// AS-13: a protest as kept: its number in the competition, who lodged it, and core's
/// protest with its reply and decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredProtest {
    pub id: i64,
    pub number: u32,
    pub protest: arbiter_core::event::protest::Protest,
    pub lodged_by: Option<String>,
}

/// AS-11: a lineup named after its deadline and accepted by the arbiter, kept with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateLineup {
    /// When it was named, in the hall's time.
    pub named_at: jiff::civil::DateTime,
    pub minutes_late: u32,
    /// The arbiter who accepted it.
    pub accepted_by: String,
    pub reason: String,
}

/// GT-F3: the officers' order of teams a division's criteria cannot separate, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieDecision {
    pub id: i64,
    /// The division.
    pub competition: CompetitionId,
    /// The tied teams, first first.
    pub order: Vec<TeamId>,
    pub reason: String,
    pub decided_by: Option<String>,
    pub decided_at: jiff::Timestamp,
}

/// A season's playoffs as drawn (GT-F3): the competition their matches are played in, the
/// seeded field and the playoff calendar (GT-F5).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayoffRecord {
    pub season: SeasonId,
    pub competition: CompetitionId,
    /// The field, seed 1 first.
    pub field: Vec<arbiter_core::season_end::qualify::Seed>,
    /// Each round's day, round 1 first.
    pub days: Vec<jiff::civil::Date>,
    /// GT-F5: the bye date for all schools.
    pub bye_date: Option<jiff::civil::Date>,
    pub drawn_by: Option<String>,
    pub drawn_at: jiff::Timestamp,
}

/// A game entered to decide a drawn knockout match, with who entered it and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecidingGameRecord {
    /// The row's id, which a correction names.
    pub id: i64,
    /// The entered game this one corrects (issue 15); that one stays, superseded.
    pub corrects: Option<i64>,
    pub game: arbiter_core::season_end::bracket::DecidingGame,
    pub reason: Option<String>,
    pub entered_by: Option<String>,
    pub entered_at: jiff::Timestamp,
}

/// One version of a media report (GT-O3): a draft saved or a version published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaReportVersion {
    pub moment: arbiter_core::season_end::media::Moment,
    /// 1 for the first saved in its season and moment.
    pub version: u32,
    pub published: bool,
    /// The press release.
    pub text: String,
    pub markdown: String,
    pub written_by: Option<String>,
    pub written_role: Option<Role>,
    pub written_at: jiff::Timestamp,
}

/// The longest media report kept (GT-O3), in characters: some ten pages of a press release.
pub const MEDIA_REPORT_MAX_CHARS: usize = 20_000;
