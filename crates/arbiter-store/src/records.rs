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
    /// A league that plays seasons, with schools that come back each year (GTHSCL).
    League,
    /// An event held once a year, each year a season of its own (ASTC).
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

    /// Reads [`LeagueKind::as_str`] back; `None` for any other word.
    pub fn parse(s: &str) -> Option<LeagueKind> {
        match s {
            "league" => Some(LeagueKind::League),
            "event" => Some(LeagueKind::Event),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A league or event to create, or for an import to find by its slug.
pub struct NewLeague {
    /// Its address, `/leagues/{slug}`: unique among the site's leagues (`gthscl`).
    pub slug: String,
    /// The name people know it by (`Greater Toledo High School Chess League`).
    pub name: String,
    /// A league with seasons, or a yearly event.
    pub kind: LeagueKind,
    /// A few sentences about it for its public page; may be empty.
    pub description: String,
    /// The zone every day and time its rules count is local to (RULES.md, "Time").
    pub time_zone: arbiter_core::record::zone::Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A league (GTHSCL) or an event (ASTC) as stored: its seasons, schools and members hang off it.
pub struct League {
    /// The league's row id.
    pub id: LeagueId,
    /// Its address, `/leagues/{slug}`, unique on the site.
    pub slug: String,
    /// The name people know it by.
    pub name: String,
    /// A league with seasons, or a yearly event.
    pub kind: LeagueKind,
    /// A few sentences about it for its public page; may be empty.
    pub description: String,
    /// The zone every day and time its rules count is local to (RULES.md, "Time"): a result's
    /// entry day, GT-P2's deadlines, GT-P4's lateness, an event's hall clock (AS-11..AS-13).
    pub time_zone: arbiter_core::record::zone::Zone,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A season to create in a league: its address, name and days (either may be unknown yet).
pub struct NewSeason {
    /// Its address under the league's (`2025-26`), unique in the league; not one of the league's
    /// pages (`current`, `history`, …).
    pub slug: String,
    /// The name people know it by, on its pages.
    pub name: String,
    /// The season's first day; `None` while not known.
    pub starts_on: Option<jiff::civil::Date>,
    /// The season's last day, on or after the first; `None` while not known.
    pub ends_on: Option<jiff::civil::Date>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A season of a league (or one year's event): its competitions, closures, ledger and playoffs
/// belong to it.
pub struct Season {
    /// The season's row id.
    pub id: SeasonId,
    /// The league it is a season of.
    pub league: LeagueId,
    /// Its address under the league's (`2025-26`), unique in the league.
    pub slug: String,
    /// The name people know it by.
    pub name: String,
    /// The season's first day; `None` while not known.
    pub starts_on: Option<jiff::civil::Date>,
    /// The season's last day; `None` while not known. A suspension of the schedule may move it
    /// later (GT-F5).
    pub ends_on: Option<jiff::civil::Date>,
}

/// A school of the league: its teams play in the league's divisions, its advisors name their
/// lineups (GT-O1, GT-M1). Schools outlive seasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct School {
    /// The school's row id.
    pub id: SchoolId,
    /// Its name, unique in the league: how teams, advisors' roles and the ledger name it.
    pub name: String,
    /// Its postal address, set by an officer (issue 32): where its home matches are played
    /// (GT-M1), as a team's page and the calendar feeds say. `None` until set.
    pub address: Option<arbiter_core::record::text::PostalAddress>,
}

/// What a player's roster entry becomes: a name or rating corrected, or a withdrawal from a
/// day (their games before it stay).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerChange {
    /// The player's name as the roster shows it.
    pub name: String,
    /// The rating that orders the boards (GT-M11, GT-R4); `None` for an unrated player.
    pub rating: Option<u32>,
    /// GT-R3: the rating is a provisional `1200N` one.
    pub provisional: bool,
    /// The day the player is withdrawn from the roster; `None` while they are on it.
    pub withdrawn: Option<jiff::civil::Date>,
}

/// A match to move (GT-M2, GT-F5): to which day, and at what time it starts there (`None`:
/// after school, as the advisors agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchMove {
    /// The match to move.
    pub id: MatchId,
    /// The day it moves to.
    pub to: jiff::civil::Date,
    /// Its start time that day; `None`: after school, as the advisors agree.
    pub start: Option<jiff::civil::Time>,
}

/// One of a league's published rating lists (issue 34), without its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingListSummary {
    /// The list's row id.
    pub id: i64,
    /// As the officer named it: `FIDE March 2027`.
    pub name: String,
    /// The first day it orders boards.
    pub in_force_from: jiff::civil::Date,
    /// The file format it was read from: `fide-xml`, `fide-txt`, `csv`.
    pub format: String,
    /// How many rated players it lists.
    pub entries: usize,
}

/// Days a season's schools are closed, both inclusive (GT-M2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewClosure {
    /// The first day the schools are closed.
    pub starts_on: jiff::civil::Date,
    /// The last day the schools are closed, on or after the first.
    pub ends_on: jiff::civil::Date,
    /// What the schools are closed for: "Winter break".
    pub reason: String,
}

/// A stored closure; a withdrawn one no longer closes anything but stays on record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonClosure {
    /// The closure's row id, by which it is withdrawn.
    pub id: i64,
    /// The season whose schools are closed.
    pub season: SeasonId,
    /// The first day closed.
    pub starts_on: jiff::civil::Date,
    /// The last day closed.
    pub ends_on: jiff::civil::Date,
    /// What the schools are closed for: "Winter break".
    pub reason: String,
    /// Withdrawn by an officer: kept on record, but it closes no day.
    pub withdrawn: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A competition (a division, a championship) to store in a season: its address, name and rules.
pub struct NewCompetition {
    /// Its address, unique in the league across seasons (`division-a`); not one of the season's
    /// pages (`history`, `playoffs`, …).
    pub slug: String,
    /// The name people know it by (`Division A`).
    pub name: String,
    /// The rules it plays by.
    pub rules: RulesRef,
}

/// A competition's rules as stored: a preset name, or a whole ruleset TOML text (`extends`
/// may name a preset). Resolved to a [`Ruleset`] on every load.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RulesRef {
    /// A preset by its name (`gthscl`, `astc`, `fide-team`).
    Preset(String),
    /// A whole ruleset, as TOML text.
    Toml(String),
}

/// New rules for a competition (issue 32 item 5), read at `version`; `changes` says in words
/// what changed, for the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesChange {
    /// The competition whose rules change.
    pub competition: CompetitionId,
    /// The competition's data version the rules were read at: if it has moved on, nothing is
    /// written ([`crate::StoreError::Stale`]).
    pub version: i64,
    /// The rules in force from now on.
    pub rules: RulesRef,
    /// What changed, one phrase a setting (its name, from what, to what), for the history.
    pub changes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// A competition (a division, a championship) as stored, without its teams and matches (see
/// [`StoredCompetition`]).
pub struct CompetitionRecord {
    /// The competition's row id.
    pub id: CompetitionId,
    /// The season it is played in.
    pub season: SeasonId,
    /// Its address, unique in the league across seasons.
    pub slug: String,
    /// The name people know it by (`Division A`).
    pub name: String,
    /// The rules it plays by, as stored (a preset or TOML).
    pub rules: RulesRef,
    /// Bumped on every write to this competition (starts at 1 on import).
    pub version: i64,
    /// The data version of the last write that changed what its pages show: its own, or its
    /// league's, season's or a school's (issue 35); with `id` and `version`, its pages' ETags.
    pub changed_in: i64,
}

/// Where an import stores a competition: the league with this slug, created as given when
/// there is none, and a season in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlace {
    /// The league, found by its slug, or created as given.
    pub league: NewLeague,
    /// Which of its seasons.
    pub season: SeasonChoice,
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// Which season of the league an import stores its competition in.
pub enum SeasonChoice {
    /// The league's season with this slug, created as given when it has none by that slug.
    Named(NewSeason),
    /// The league's latest season, or this one created when the league has none.
    LatestOr(NewSeason),
}

/// What an import stored, and what it had to create for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The league the competition is in.
    pub league: League,
    /// That league, when the import created it; `None` when it was there already.
    pub created_league: Option<League>,
    /// The season the competition is in.
    pub season: Season,
    /// That season, when the import created it; `None` when it was there already.
    pub created_season: Option<Season>,
    /// The competition stored.
    pub competition: CompetitionRecord,
}

/// A match's result first entered by a team's advisor (GT-P2): when, for a late-result fine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstEntryAt {
    /// The competition of the match.
    pub competition: CompetitionId,
    /// The match's round.
    pub round: u32,
    /// The match's home team, by its key.
    pub home: arbiter_core::record::model::TeamId,
    /// When the first result was entered.
    pub at: jiff::Timestamp,
}

impl FirstEntryAt {
    /// The entries of `competition`, each on its day in the league's time `zone`, as core's
    /// `fines::assess` reads them.
    pub fn of(
        entries: &[FirstEntryAt],
        competition: CompetitionId,
        zone: &arbiter_core::record::zone::Zone,
    ) -> Vec<arbiter_core::season::fines::FirstEntry> {
        entries
            .iter()
            .filter(|f| f.competition == competition)
            .map(|f| arbiter_core::season::fines::FirstEntry {
                round: f.round,
                home: f.home.clone(),
                entered_on: zone.day_of(f.at),
            })
            .collect()
    }
}

/// A dated round as the home page lists it (issue 35): where it is played, its number and
/// date (the round's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatedRound {
    /// The round's id: what [`Store::rounds_matches`](crate::Store::rounds_matches) reads the
    /// matches of.
    pub id: i64,
    /// The league the round is played in.
    pub league: LeagueId,
    /// Its season.
    pub season: SeasonId,
    /// Its competition.
    pub competition: CompetitionId,
    /// The round's number.
    pub number: u32,
    /// The round's date (a match moved to its own day keeps its round's).
    pub date: jiff::civil::Date,
}

/// The rounds of a week as the home page lists them (issue 35): those of each league's day up
/// to the most it lists, and the rest counted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundDays {
    /// By date, competition and number.
    pub rounds: Vec<DatedRound>,
    /// Each league's day with more competitions playing than are listed.
    pub more: Vec<MoreOnDay>,
}

/// The competitions of a league playing on a day past the most the home page lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoreOnDay {
    /// The league.
    pub league: LeagueId,
    /// The day.
    pub date: jiff::civil::Date,
    /// How many.
    pub competitions: u32,
    /// Their season, when that day's competitions of the league are all of one.
    pub season: Option<SeasonId>,
}

/// Everything a page or the API needs of one competition.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCompetition {
    /// The league (or event) it is played in.
    pub league: League,
    /// The season it is played in.
    pub season: Season,
    /// Its row: id, address, name, rules as stored and data version.
    pub record: CompetitionRecord,
    /// The core model, with the latest version of every result; shared, so that a page's view
    /// of the competition holds it once (issue 35).
    pub competition: std::sync::Arc<Competition>,
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
    /// The round's number.
    pub round: u32,
    /// The home teams of the matches the change made.
    pub matches: Vec<TeamId>,
    /// The team given the bye by the change, if it gave one.
    pub bye: Option<TeamId>,
    /// Why the pairing was changed, as the arbiter gave it.
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
        /// The pairing C.04.6 gave, as JSON, kept in the history beside the one published.
        paired: &'a serde_json::Value,
        /// The home teams of the matches changed by hand; empty when published as given.
        changed: &'a [TeamId],
        /// The team given the bye by hand, if the change gave one.
        bye_by_hand: Option<&'a TeamId>,
        /// Why the pairing was changed by hand; `None` when it was not.
        reason: Option<&'a str>,
        /// The absolute criteria the change breaks by override, each `C.04.1 b: the sentence`.
        overridden: &'a [String],
    },
}

/// A finished game's moves as uploaded (GT-M20): which match and board, and the PGN, which
/// core's `game::read` has checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    /// The match the game was played in.
    pub match_id: MatchId,
    /// The board it was played on, 1 first.
    pub board: u32,
    /// 1 for the first upload of the board; a later one supersedes it.
    pub upload: u32,
    /// The game's moves as uploaded, PGN text.
    pub pgn: String,
}

/// An officer's ruling on a violation: the result stands, with the reason (issue 12).
#[derive(Debug, Clone, PartialEq)]
pub struct Ruling {
    /// The violation's [`arbiter_core::rules::validate::Finding::key`].
    pub key: String,
    /// The violation as it read when ruled on.
    pub message: String,
    /// Why the result stands despite the violation.
    pub reason: String,
    /// The email of the officer who ruled; `None` for the command line.
    pub by: Option<String>,
    /// The role they ruled in.
    pub role: Option<Role>,
    /// When they ruled.
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
    /// The entry itself: its number, kind, school, amount, day and note.
    pub entry: arbiter_core::season::ledger::Entry,
    /// The email of the officer who recorded it (the Treasurer, GT-O2); `None` for the command
    /// line.
    pub recorded_by: Option<String>,
    /// The role they recorded it in.
    pub recorded_role: Option<Role>,
    /// When it was recorded (not the day the money moved: that is the entry's `on`).
    pub recorded_at: jiff::Timestamp,
}

/// One version of a lineup named before its match: who named it, when, and the players.
#[derive(Debug, Clone, PartialEq)]
pub struct LineupVersion {
    /// The match the lineup is for.
    pub match_id: MatchId,
    /// 1 for the first named; a change is the next.
    pub version: u32,
    /// The email of the person who named it; `None` for the command line.
    pub entered_by: Option<String>,
    /// The role they named it in.
    pub entered_role: Option<Role>,
    /// When it was named, by the store's clock.
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
    /// The signed-in person's email; `None` for the command line or the server itself.
    pub user: Option<String>,
    /// The role they act in (an advisor's, the President's, …); `None` with no user.
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
    /// The match it is a result of.
    pub match_id: MatchId,
    /// 1 for the schedule's version; every entry or correction adds one (GT-P2).
    pub version: u32,
    /// The result: each board's, a forfeit, a double forfeit, or none yet (pending).
    pub outcome: MatchOutcome,
    /// The email of the person who entered it (under GT-P2, the home advisor); `None` for the
    /// command line (an import there, say).
    pub entered_by: Option<String>,
    /// The role `entered_by` acted in; none for an import.
    pub entered_role: Option<Role>,
    /// When it was entered, by the store's clock.
    pub entered_at: jiff::Timestamp,
    /// Why, as its writer gave it (a correction's cause, an officer's decision); `None` when none
    /// was given.
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
    /// The result version in force when read; 0 for a match with none.
    pub version: u32,
    /// How many reviews (confirmations, disputes, correction requests) the match had.
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

/// What changed since a data version a server saw (issue 35): the version now, and each
/// competition whose pages changed after it with the version of its last change.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// The store's data version when read.
    pub version: i64,
    /// The competitions changed, each with the data version of the last write that changed it.
    pub competitions: Vec<(CompetitionId, i64)>,
}

/// Which history rows to read. Every field narrows; all `None` reads the whole history.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HistoryFilter {
    /// Rows filed under this league (or event).
    pub league: Option<LeagueId>,
    /// Rows filed under this competition.
    pub competition: Option<CompetitionId>,
    /// Rows of this match: its results, reviews, lineups, moves, extra games, game scores.
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
        /// A league or event: created, its time zone set.
        League = "league",
        /// A season: created, its last day moved, its schedule sent, its event set.
        Season = "season",
        /// A school of a league: added, its address set.
        School = "school",
        /// A season's school closure (GT-M2).
        Closure = "closure",
        /// A competition (a division, a championship): imported, its rules changed, a pairing
        /// published, a tie decided, a ruling, a protest.
        Competition = "competition",
        /// A team of a competition, by its team id: imported, its roster changed.
        Team = "team",
        /// A match: a result version, a review, a lineup, a move, an extra game.
        Match = "match",
        /// An account: made, its password or notices set.
        User = "user",
        /// A role held in a league: granted or revoked.
        Membership = "membership",
        /// An invitation: sent, withdrawn or accepted.
        Invite = "invite",
        /// An API token: made or revoked.
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
        /// A league's published rating list (issue 34), imported; its id is the list's row id.
        RatingList = "rating_list",
    }
);

code_enum!(
    /// What was done to it.
    HistoryAction {
        /// Made: a league, season, school, closure, account, invitation or API token.
        Create = "create",
        /// A competition or one of its teams stored whole, from a file or the season's setup.
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
        /// An account's password set (the history records that it changed, never the hash).
        SetPassword = "set_password",
        /// The kinds of notice a person stops or gets again (issue 13).
        SetNotices = "set_notices",
        /// A role in a league granted to an account.
        Grant = "grant",
        /// A role or an API token revoked: it no longer acts.
        Revoke = "revoke",
        /// An invitation or a school closure withdrawn by an officer; it stays on record.
        Withdraw = "withdraw",
        /// An invitation taken up: the role granted to the account.
        Accept = "accept",
    }
);

/// One change: who, when, in which role, to what, from what to what, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    /// The row's id: rows are numbered in the order written ([`HistoryFilter::before`] pages
    /// by it).
    pub id: i64,
    /// When the change was made, by the store's clock.
    pub at: jiff::Timestamp,
    /// The email of the person who made it; `None` for the command line or the server itself.
    pub actor: Option<String>,
    /// The role they acted in.
    pub role: Option<Role>,
    /// What kind of thing changed.
    pub entity: Entity,
    /// The row id as text; for a team, its team id (`vic`).
    pub entity_id: String,
    /// What was done to it.
    pub action: HistoryAction,
    /// The thing before the change, as JSON; `None` when the change made something new.
    pub before: Option<serde_json::Value>,
    /// The thing after the change, as JSON; never a password hash or a token.
    pub after: Option<serde_json::Value>,
    /// Why, as the person gave it; `None` when no reason was asked or given.
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
    /// The round's number.
    pub round: u32,
    /// The home team's name.
    pub home: String,
    /// The visiting team's name.
    pub away: String,
}

/// An account. Its email is kept trimmed and lower-case; `password_hash` is an argon2id PHC
/// string, `None` until a password is set.
#[derive(Clone, PartialEq, Eq)]
pub struct User {
    /// The account's row id.
    pub id: UserId,
    /// The email they sign in with, trimmed and lower-case; unique on the site.
    pub email: String,
    /// Their name, as the site shows it to others (`Pat Advisor`).
    pub name: String,
    /// The argon2id PHC string of their password; `None` until they set one.
    pub password_hash: Option<String>,
    /// When the account was made.
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
    /// The membership's row id.
    pub id: MembershipId,
    /// The account that holds the role.
    pub user: UserId,
    /// The league (or event) the role is held in.
    pub league: LeagueId,
    /// That league's slug, for links.
    pub league_slug: String,
    /// The role: President, Vice-President, Secretary, Treasurer, arbiter or advisor.
    pub role: Role,
    /// The school's name.
    pub school: Option<String>,
    /// When the role was granted.
    pub granted_at: jiff::Timestamp,
}

/// A user with one of their roles, for a league's list of members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRow {
    /// The account.
    pub user: User,
    /// One role it holds in the league.
    pub membership: Membership,
}

/// An invitation to be sent: who, to which league, in which role, valid how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInvite {
    /// The address the invitation is sent to; the account it makes or joins has it.
    pub email: String,
    /// The league (or event) the role is in.
    pub league: LeagueId,
    /// The role it grants when accepted.
    pub role: Role,
    /// The school's name; an advisor's invite needs one. An unknown name adds the school.
    pub school: Option<String>,
    /// How long its link can be used, from now.
    pub valid_for: jiff::SignedDuration,
}

/// An invitation as stored (its token is kept only as a hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    /// The invitation's row id.
    pub id: InviteId,
    /// The address it was sent to.
    pub email: String,
    /// The league (or event) the role is in.
    pub league: LeagueId,
    /// That league's slug, for links.
    pub league_slug: String,
    /// That league's name, for the invitation's page and mail.
    pub league_name: String,
    /// The role it grants when accepted.
    pub role: Role,
    /// For an advisor's invitation, the school's name.
    pub school: Option<String>,
    /// The email of the officer who sent it; `None` for the command line.
    pub invited_by: Option<String>,
    /// When it was sent.
    pub created_at: jiff::Timestamp,
    /// After this moment its link no longer works.
    pub expires_at: jiff::Timestamp,
    /// When it was taken up; `None` until then. An invitation is taken up once.
    pub accepted_at: Option<jiff::Timestamp>,
    /// When an officer withdrew it, and who: it can no longer be accepted.
    pub withdrawn_at: Option<jiff::Timestamp>,
    /// The email of the officer who withdrew it; `None` for the command line.
    pub withdrawn_by: Option<String>,
}

/// How an invitation is accepted: by signing up, or by a signed-in account with the invite's email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcceptInvite<'a> {
    /// Signing up: a new account with the invitation's email.
    NewAccount {
        /// The new account's name.
        name: &'a str,
        /// An argon2id PHC string ([`crate::secrets::hash_password`]).
        password_hash: &'a str,
    },
    /// The signed-in account, whose email is the invitation's.
    ExistingAccount(UserId),
}

/// An API token to create: it acts for `user` in `role` in `league`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApiToken {
    /// The account it acts for.
    pub user: UserId,
    /// The league (or event) it acts in.
    pub league: LeagueId,
    /// The role it acts in; the account must hold it.
    pub role: Role,
    /// For an advisor's role, the school's name.
    pub school: Option<String>,
    /// What it is for ("nightly import"), so that it can be recognised and revoked.
    pub label: String,
}

/// An API token as stored (its secret is kept only as a hash; `prefix` recognises it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    /// The token's row id.
    pub id: ApiTokenId,
    /// The secret's first 8 characters, shown so that a person can tell their tokens apart.
    pub prefix: String,
    /// What it is for ("nightly import").
    pub label: String,
    /// The account it acts for.
    pub user: UserId,
    /// That account's email.
    pub user_email: String,
    /// The league (or event) it acts in.
    pub league: LeagueId,
    /// That league's slug.
    pub league_slug: String,
    /// The role it acts in.
    pub role: Role,
    /// For an advisor's role, the school's name.
    pub school: Option<String>,
    /// When it was made.
    pub created_at: jiff::Timestamp,
    /// When it was revoked; `None` while it still works.
    pub revoked_at: Option<jiff::Timestamp>,
}

/// The reports of one competition's matches, read together (issue 35, item 5): each match's
/// result in force and its reviews, from which core's `ReportStatus` is worked out.
#[derive(Debug, Clone, Default)]
pub struct CompetitionReports {
    in_force: std::collections::HashMap<MatchId, ResultVersion>,
    reviews: std::collections::HashMap<MatchId, Vec<ResultReview>>,
}

impl CompetitionReports {
    /// The results in force (one a match) and the reviews (oldest first) as read.
    pub fn new(in_force: Vec<ResultVersion>, reviews: Vec<ResultReview>) -> CompetitionReports {
        let mut by_match: std::collections::HashMap<MatchId, Vec<ResultReview>> =
            std::collections::HashMap::new();
        for r in reviews {
            by_match.entry(r.match_id).or_default().push(r);
        }
        CompetitionReports {
            in_force: in_force.into_iter().map(|v| (v.match_id, v)).collect(),
            reviews: by_match,
        }
    }

    /// The result in force of match `m`; `None` for a match not of the competition.
    pub fn in_force(&self, m: MatchId) -> Option<&ResultVersion> {
        self.in_force.get(&m)
    }

    /// The reviews of match `m`, oldest first.
    pub fn reviews(&self, m: MatchId) -> &[ResultReview] {
        self.reviews.get(&m).map_or(&[], Vec::as_slice)
    }
}

/// GT-P2: the visitors' confirmation or dispute of one version of a match's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultReview {
    /// The match whose result is reviewed.
    pub match_id: MatchId,
    /// The result version reviewed.
    pub version: u32,
    /// Confirmed, disputed, or a correction requested.
    pub kind: ReviewKind,
    /// The email of the person who reviewed it (an advisor, an officer); `None` for the command
    /// line.
    pub by: Option<String>,
    /// The role they reviewed it in.
    pub role: Option<Role>,
    /// When it was reviewed.
    pub at: jiff::Timestamp,
    /// Why, as they gave it: a dispute's or a correction request's grounds.
    pub reason: Option<String>,
}

/// Attempts counted for a limit (failed sign-ins, reset requests) within its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempts {
    /// How many attempts fall within the window.
    pub count: u32,
    /// The first in the window: the limit frees a place when it leaves the window.
    pub earliest: Option<jiff::Timestamp>,
}

/// An ASTC event as the arbiter sets it (AS-1, AS-3): what its sheets print, the hall's offset
/// from UTC (the event's clock), and when each round of each competition starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// The event's name, as its sheets print it.
    pub name: String,
    /// The State or Territory hosting it (AS-4).
    pub host: arbiter_core::event::field::State,
    /// Where it is played (`Adelaide Convention Centre, Hall C`).
    pub venue: String,
    /// The hall's offset from UTC in minutes (Adelaide in December: +630).
    pub utc_offset_minutes: i32,
    /// When each round of each competition starts.
    pub rounds: Vec<EventRoundStart>,
}

/// When round `round` of `competition` starts, in the hall's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRoundStart {
    /// The competition (a championship of the event).
    pub competition: CompetitionId,
    /// The round's number.
    pub round: u32,
    /// When it starts, in the hall's time.
    pub starts_at: jiff::civil::DateTime,
}

/// The event in force: its version (1 for the first set), and who set it when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    /// The season (the year's event) it is set for.
    pub season: SeasonId,
    /// 1 for the first set; each time it is set again adds one.
    pub version: u32,
    /// The league's time zone: the hall's clock (see [`EventRecord::clock`]).
    pub time_zone: arbiter_core::record::zone::Zone,
    /// What the arbiter set: name, host, venue, clock and round times.
    pub event: NewEvent,
    /// The email of the arbiter who set it; `None` for the command line.
    pub entered_by: Option<String>,
    /// When it was set.
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
    /// The protest's row id.
    pub id: i64,
    /// Its number in the competition: 1 for the first lodged, then 2, 3 …
    pub number: u32,
    /// The protest: by whom, against whom, its grounds, and the reply and decision once made.
    pub protest: arbiter_core::event::protest::Protest,
    /// The email of the person who entered it; `None` for the command line.
    pub lodged_by: Option<String>,
}

/// AS-11: a lineup named after its deadline and accepted by the arbiter, kept with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateLineup {
    /// When it was named, in the hall's time.
    pub named_at: jiff::civil::DateTime,
    /// How many minutes after its deadline it was named.
    pub minutes_late: u32,
    /// The arbiter who accepted it.
    pub accepted_by: String,
    /// Why the arbiter accepted it.
    pub reason: String,
}

/// GT-F3: the officers' order of teams a division's criteria cannot separate, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieDecision {
    /// The decision's row id.
    pub id: i64,
    /// The division.
    pub competition: CompetitionId,
    /// The tied teams, first first.
    pub order: Vec<TeamId>,
    /// Why the officers ordered them so.
    pub reason: String,
    /// The email of the officer who entered it; `None` for the command line.
    pub decided_by: Option<String>,
    /// When it was entered.
    pub decided_at: jiff::Timestamp,
}

/// A season's playoffs as drawn (GT-F3): the competition their matches are played in, the
/// seeded field and the playoff calendar (GT-F5).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayoffRecord {
    /// The season whose playoffs they are.
    pub season: SeasonId,
    /// The playoff competition their matches are played in.
    pub competition: CompetitionId,
    /// The field, seed 1 first.
    pub field: Vec<arbiter_core::season_end::qualify::Seed>,
    /// Each round's day, round 1 first.
    pub days: Vec<jiff::civil::Date>,
    /// GT-F5: the bye date for all schools.
    pub bye_date: Option<jiff::civil::Date>,
    /// The email of the President who drew them; `None` for the command line.
    pub drawn_by: Option<String>,
    /// When they were drawn.
    pub drawn_at: jiff::Timestamp,
}

/// A game entered to decide a drawn knockout match, with who entered it and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecidingGameRecord {
    /// The row's id, which a correction names.
    pub id: i64,
    /// The entered game this one corrects (issue 15); that one stays, superseded.
    pub corrects: Option<i64>,
    /// The game: its match (round and a team), kind (Armageddon or playoff game), who had Black,
    /// and its result.
    pub game: arbiter_core::season_end::bracket::DecidingGame,
    /// Why, as given (for a correction, what was wrong); `None` when none was given.
    pub reason: Option<String>,
    /// The email of the person who entered it; `None` for the command line.
    pub entered_by: Option<String>,
    /// When it was entered.
    pub entered_at: jiff::Timestamp,
}

/// One version of a media report (GT-O3): a draft saved or a version published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaReportVersion {
    /// Midway through the season or at its end.
    pub moment: arbiter_core::season_end::media::Moment,
    /// 1 for the first saved in its season and moment.
    pub version: u32,
    /// Published for the public; `false` for a draft only the officers read.
    pub published: bool,
    /// The press release.
    pub text: String,
    /// The same report as Markdown, for pasting into other sites.
    pub markdown: String,
    /// The email of the officer who saved it (the Vice-President writes it); `None` for the
    /// command line.
    pub written_by: Option<String>,
    /// The role they saved it in.
    pub written_role: Option<Role>,
    /// When it was saved.
    pub written_at: jiff::Timestamp,
}

/// The longest media report kept (GT-O3), in characters: some ten pages of a press release.
pub const MEDIA_REPORT_MAX_CHARS: usize = 20_000;
