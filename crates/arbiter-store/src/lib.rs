//! Persistence: leagues, seasons, competitions, results with versions, and the history of every change.
//!
//! One [`Store`] with two backends, SQLite (a file, `arbiter.db` by default; WAL, foreign keys
//! on) and PostgreSQL, each with its own migrations in `migrations/`. The web site and the CLI
//! share it. Nothing is ever lost: a result is corrected by a new version, never overwritten,
//! and every write appends who, when, in which role, before, after and why to the history in
//! the same transaction. No code path updates or deletes a history row, and the databases'
//! triggers refuse it.
//!
//! Each season's fee ledger (GT-O2) lives here too, append-only like the history.
//!
//! Accounts, their roles in each league, invitations, password resets and API tokens live here
//! too; [`secrets`] hashes passwords (argon2id) and tokens (SHA-256), and only hashes are stored.
//!
//! `queries.rs`, `accounts.rs`, `ledger.rs`, `event_days.rs`, `season_end.rs` and
//! `dated_rounds.rs` are written once and `include!`d by each backend (`sqlite.rs`,
//! `postgres.rs`); each migration's header says what it adds. On SQLite every write goes through one connection of its own, queued, and
//! reads through eight others, so a reader never waits behind a writer (issue 16). A write that
//! rests on what its writer read (a result, a review, a lineup, a ledger entry, a round) is made
//! only if that is still so, checked inside its transaction, else [`StoreError::Stale`]; a full
//! disk is [`StoreError::Full`], which the web answers with a 507.

#![warn(missing_docs)]

pub mod backup;
mod check;
mod clock;
mod codes;
mod error;
pub mod json;
pub mod migrations;
mod postgres;
mod records;
pub mod secrets;
mod sqlite;

pub use clock::Clock;
pub use error::StoreError;
pub use postgres::PgStore;
pub use records::*;
pub use sqlite::SqliteStore;

use std::collections::HashMap;

use arbiter_core::record::text::Email;
use arbiter_core::rules::permissions::Role;
use arbiter_core::season::report::{ResultBasis, ReviewKind};
use arbiter_core::teams::lineup::Lineup;
use arbiter_core::{Competition, MatchOutcome, PersonId, Player, PlayerId, Side, TeamId};

/// The store the web site and the CLI share. Cloning is cheap (the pools are shared).
#[derive(Debug, Clone)]
pub enum Store {
    /// A SQLite file, or a private database in memory.
    Sqlite(SqliteStore),
    /// A PostgreSQL database, which several `arbiter serve` processes can share.
    Postgres(PgStore),
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $body:expr) => {
        match $self {
            Store::Sqlite($s) => $body,
            Store::Postgres($s) => $body,
        }
    };
}

impl Store {
    /// `postgres://…` (or `postgresql://…`), `sqlite://PATH`, `sqlite::memory:`, or a plain
    /// path to a SQLite file (created if missing). Call [`Store::migrate`] next.
    pub async fn open(url_or_path: &str) -> Result<Store, StoreError> {
        let s = url_or_path.trim();
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return PgStore::connect(s).await.map(Store::Postgres);
        }
        if s == "sqlite::memory:" || s == ":memory:" {
            return Store::open_sqlite_memory().await;
        }
        if s.starts_with("sqlite:") {
            return SqliteStore::open_url(s).await.map(Store::Sqlite);
        }
        if let Some((scheme, _)) = s.split_once("://") {
            return Err(StoreError::Invalid(format!(
                "`{scheme}://` is not a database Arbiter can use; give a SQLite file path, `sqlite://PATH`, or `postgres://USER:PASSWORD@HOST/DATABASE`"
            )));
        }
        if s.is_empty() {
            return Err(StoreError::Invalid(
                "no database was given; give a SQLite file path such as `arbiter.db`, or a `postgres://` address".into(),
            ));
        }
        SqliteStore::open_path(std::path::Path::new(s))
            .await
            .map(Store::Sqlite)
    }

    /// A private in-memory SQLite database, for tests and demos.
    pub async fn open_sqlite_memory() -> Result<Store, StoreError> {
        SqliteStore::open_memory().await.map(Store::Sqlite)
    }

    /// The store stamping every write by `clock` (RULES.md, "Time": `--now` and `--today` move
    /// the whole site's clock, the history's and the results' times included).
    pub fn with_clock(self, clock: Clock) -> Store {
        match self {
            Store::Sqlite(s) => Store::Sqlite(s.with_clock(clock)),
            Store::Postgres(s) => Store::Postgres(s.with_clock(clock)),
        }
    }

    /// The moment now by the store's clock: what a write made now is stamped with.
    pub fn now(&self) -> jiff::Timestamp {
        dispatch!(self, s => s.now())
    }

    /// `SQLite` or `PostgreSQL`.
    pub fn backend(&self) -> &'static str {
        dispatch!(self, s => s.backend())
    }

    /// Runs this backend's migrations; a second run changes nothing.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        dispatch!(self, s => s.migrate().await)
    }

    /// Creates a league or event, with its history row; [`StoreError::Conflict`] when its slug is
    /// taken.
    pub async fn create_league(&self, new: &NewLeague, by: &Actor) -> Result<League, StoreError> {
        dispatch!(self, s => s.create_league(new, by).await)
    }

    /// Sets a league's time zone, in which its rules count days and times (RULES.md, "Time").
    pub async fn set_time_zone(
        &self,
        league: LeagueId,
        zone: &arbiter_core::record::zone::Zone,
        by: &Actor,
    ) -> Result<League, StoreError> {
        dispatch!(self, s => s.set_time_zone(league, zone, by).await)
    }

    /// Records in the history that a season's schedule was sent to its schools (GT-O3).
    pub async fn record_schedule_sent(
        &self,
        league: LeagueId,
        season: SeasonId,
        sent: serde_json::Value,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_schedule_sent(league, season, sent, by).await)
    }

    /// Every league and event, by name.
    pub async fn leagues(&self) -> Result<Vec<League>, StoreError> {
        dispatch!(self, s => s.leagues().await)
    }

    /// The league or event with this slug, if there is one.
    pub async fn league(&self, slug: &str) -> Result<Option<League>, StoreError> {
        dispatch!(self, s => s.league(slug).await)
    }

    /// Creates a season in `league`, with its history row; [`StoreError::Conflict`] when the league
    /// has a season by its slug already.
    pub async fn create_season(
        &self,
        league: LeagueId,
        new: &NewSeason,
        by: &Actor,
    ) -> Result<Season, StoreError> {
        dispatch!(self, s => s.create_season(league, new, by).await)
    }

    /// Changes a player's roster entry: a name or rating corrected, or a withdrawal from a day;
    /// their games stay (issue 12).
    pub async fn change_player(
        &self,
        competition: CompetitionId,
        player: &arbiter_core::PlayerId,
        after: &PlayerChange,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.change_player(competition, player, after, reason, by).await)
    }

    /// The league's schools, by name (GT-O1).
    pub async fn schools(&self, league: LeagueId) -> Result<Vec<School>, StoreError> {
        dispatch!(self, s => s.schools(league).await)
    }

    /// The schools with a team in any competition of the season (GT-R6), by name.
    pub async fn season_schools(&self, season: SeasonId) -> Result<Vec<String>, StoreError> {
        dispatch!(self, s => s.season_schools(season).await)
    }

    /// Adds a school to the league (GT-O1), refused when it has one of that name.
    pub async fn add_school(
        &self,
        league: LeagueId,
        name: &str,
        by: &Actor,
    ) -> Result<School, StoreError> {
        dispatch!(self, s => s.add_school(league, name, by).await)
    }

    /// Changes the rules of competitions, each a new version in the history with the rules
    /// before, the rules after and the settings that changed in words, all in one transaction;
    /// refused as a conflict when a competition changed since its `version` was read.
    pub async fn set_competition_rules(
        &self,
        changes: &[RulesChange],
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_competition_rules(changes, reason, by).await)
    }

    /// Sets the postal address of `school`, a school of `league` (issue 32), or clears it
    /// (`None`); the history keeps the one before, and the same address again writes nothing.
    pub async fn set_school_address(
        &self,
        league: LeagueId,
        school: SchoolId,
        address: Option<&arbiter_core::record::text::PostalAddress>,
        by: &Actor,
    ) -> Result<School, StoreError> {
        dispatch!(self, s => s.set_school_address(league, school, address, by).await)
    }

    /// A season's closures (GT-M2), withdrawn ones too, by first day.
    pub async fn closures(&self, season: SeasonId) -> Result<Vec<SeasonClosure>, StoreError> {
        dispatch!(self, s => s.closures(season).await)
    }

    /// The season's school calendar: its first and last days and the closures in force
    /// (GT-M2); `None` when the season has no days yet.
    pub async fn school_calendar(
        &self,
        season: &Season,
    ) -> Result<Option<arbiter_core::record::calendar::SchoolCalendar>, StoreError> {
        let (Some(starts_on), Some(ends_on)) = (season.starts_on, season.ends_on) else {
            return Ok(None);
        };
        let closures = self
            .closures(season.id)
            .await?
            .into_iter()
            .filter(|c| !c.withdrawn)
            .map(|c| arbiter_core::record::calendar::Closure {
                from: c.starts_on,
                to: c.ends_on,
                reason: c.reason,
            })
            .collect();
        Ok(Some(arbiter_core::record::calendar::SchoolCalendar {
            starts_on,
            ends_on,
            closures,
        }))
    }

    /// Closes the season's schools on the days of `new` (GT-M2).
    pub async fn add_closure(
        &self,
        season: SeasonId,
        new: &NewClosure,
        by: &Actor,
    ) -> Result<SeasonClosure, StoreError> {
        dispatch!(self, s => s.add_closure(season, new, by).await)
    }

    /// Stores `list` (read from a `format` file: `fide-xml`, `fide-txt`, `csv`) as one of
    /// `league`'s published rating lists (issue 34); one of the same name and day is refused.
    pub async fn import_rating_list(
        &self,
        league: LeagueId,
        list: &arbiter_core::rating::list::RatingList,
        format: &str,
        by: &Actor,
    ) -> Result<RatingListSummary, StoreError> {
        dispatch!(self, s => s.import_rating_list(league, list, format, by).await)
    }

    /// `league`'s published rating lists, by the day each is in force from.
    pub async fn rating_lists(
        &self,
        league: LeagueId,
    ) -> Result<Vec<RatingListSummary>, StoreError> {
        dispatch!(self, s => s.rating_lists(league).await)
    }

    /// `league`'s rating lists with the entries that could be `c`'s players (by federation id
    /// or name): what `[lineup] ratings = "list"` reads.
    pub async fn rating_lists_for(
        &self,
        league: LeagueId,
        c: &Competition,
    ) -> Result<Vec<arbiter_core::rating::list::RatingList>, StoreError> {
        dispatch!(self, s => s.rating_lists_for(league, c).await)
    }

    /// Withdraws a closure added by mistake; the row and the history keep it.
    pub async fn withdraw_closure(
        &self,
        season: SeasonId,
        id: i64,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.withdraw_closure(season, id, reason, by).await)
    }

    /// A league's seasons: dated ones by start date, then undated ones, each in creation order.
    pub async fn seasons(&self, league: LeagueId) -> Result<Vec<Season>, StoreError> {
        dispatch!(self, s => s.seasons(league).await)
    }

    /// Stores a whole competition (teams with schools and rosters in order, players, rounds,
    /// matches and every board result) in one transaction, as version 1 of each result.
    pub async fn import_competition(
        &self,
        season: SeasonId,
        new: &NewCompetition,
        competition: &Competition,
        by: &Actor,
    ) -> Result<CompetitionRecord, StoreError> {
        dispatch!(self, s => s.import_competition(season, new, competition, by).await)
    }

    /// Stores a whole competition in a league and season found or created in the same
    /// transaction: when anything is refused, nothing (no league, no season) is written.
    pub async fn import_competition_into(
        &self,
        place: &ImportPlace,
        new: &NewCompetition,
        competition: &Competition,
        by: &Actor,
    ) -> Result<Imported, StoreError> {
        dispatch!(self, s => s.import_competition_into(place, new, competition, by).await)
    }

    /// A season's competitions, in the order they were stored.
    pub async fn competitions(
        &self,
        season: SeasonId,
    ) -> Result<Vec<CompetitionRecord>, StoreError> {
        dispatch!(self, s => s.competitions(season).await)
    }

    /// The rounds dated from `from` to `to` (both included), of every league: on each
    /// league's day those of its first `up_to` competitions in the site's order, and the rest
    /// counted (issue 35: the home page's week, read by date).
    pub async fn rounds_between(
        &self,
        from: jiff::civil::Date,
        to: jiff::civil::Date,
        up_to: usize,
    ) -> Result<RoundDays, StoreError> {
        dispatch!(self, s => s.rounds_between(from, to, up_to).await)
    }

    /// The first round of `leagues` after `after`, in the site's order (the home page's
    /// "next").
    pub async fn first_round_after(
        &self,
        after: jiff::civil::Date,
        leagues: &[LeagueId],
    ) -> Result<Option<DatedRound>, StoreError> {
        dispatch!(self, s => s.first_round_after(after, leagues).await)
    }

    /// The matches of `rounds` (by [`DatedRound::id`]) as (home, away) team names, each
    /// round's in pairing order; a round without matches is left out.
    pub async fn rounds_matches(
        &self,
        rounds: &[i64],
    ) -> Result<HashMap<i64, Vec<(String, String)>>, StoreError> {
        dispatch!(self, s => s.rounds_matches(rounds).await)
    }

    /// The most match forfeits one team of each of `competitions` has in force; a
    /// competition with none is left out (GT-M5: only at its ruleset's count may a team
    /// have been dropped).
    pub async fn most_match_forfeits(
        &self,
        competitions: &[CompetitionId],
    ) -> Result<HashMap<CompetitionId, u32>, StoreError> {
        dispatch!(self, s => s.most_match_forfeits(competitions).await)
    }

    /// How many competitions each season has, by the rules they play.
    pub async fn competitions_by_rules(
        &self,
    ) -> Result<Vec<(SeasonId, RulesRef, u32)>, StoreError> {
        dispatch!(self, s => s.competitions_by_rules().await)
    }

    /// The competitions of `seasons` and those with the ids `ids`, by season and id.
    pub async fn competitions_among(
        &self,
        seasons: &[SeasonId],
        ids: &[CompetitionId],
    ) -> Result<Vec<CompetitionRecord>, StoreError> {
        dispatch!(self, s => s.competitions_among(seasons, ids).await)
    }

    /// Every season of every league, by league and in each league's order.
    pub async fn every_season(&self) -> Result<Vec<Season>, StoreError> {
        dispatch!(self, s => s.every_season().await)
    }

    /// Every competition of every league, by season and id.
    pub async fn every_competition(&self) -> Result<Vec<CompetitionRecord>, StoreError> {
        dispatch!(self, s => s.every_competition().await)
    }

    /// Every match's result in force of competition `c` and every review of its matches, in
    /// two queries (issue 35: not two a match).
    pub async fn competition_reports(
        &self,
        c: CompetitionId,
    ) -> Result<CompetitionReports, StoreError> {
        dispatch!(self, s => s.competition_reports(c).await)
    }

    /// The competitions of `league` in which a team of the school named `school` plays: all an
    /// advisor's pages need to read (issue 35).
    pub async fn competitions_of_school(
        &self,
        league: LeagueId,
        school: &str,
    ) -> Result<Vec<CompetitionId>, StoreError> {
        dispatch!(self, s => s.competitions_of_school(league, school).await)
    }

    /// The competitions of `league` with a match whose report may ask someone for something on
    /// `today` (GT-P2, GT-O3, GT-M20): the only ones an officer's list and the reminders read.
    pub async fn competitions_with_open_reports(
        &self,
        league: LeagueId,
        today: jiff::civil::Date,
    ) -> Result<Vec<CompetitionId>, StoreError> {
        dispatch!(self, s => s.competitions_with_open_reports(league, today).await)
    }

    /// Everything a page or the API needs of one competition: the core model (latest result
    /// versions), its rules, the ids of its matches, and the data version.
    pub async fn load_competition(
        &self,
        league_slug: &str,
        competition_slug: &str,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        dispatch!(self, s => s.load_competition(league_slug, competition_slug).await)
    }

    /// [`Store::load_competition`] by the competition's row id.
    pub async fn load_competition_by_id(
        &self,
        id: CompetitionId,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        dispatch!(self, s => s.load_competition_by_id(id).await)
    }

    /// Adds the next version of the match's result (corrections never overwrite), if the match
    /// is still as the writer `seen` it; else [`StoreError::Stale`] and nothing is written.
    pub async fn record_result(
        &self,
        m: MatchId,
        seen: ReportSeen,
        outcome: &MatchOutcome,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultVersion, StoreError> {
        dispatch!(self, s => s.record_result(m, seen, outcome, (ResultBasis::Entered, None), by, reason).await)
    }

    /// [`Store::record_result`] with what the version rests on, kept with it: its basis (an
    /// entry, or an officer's forfeit by decision, GT-M3, or double forfeit for a late report,
    /// GT-P4) and the referee's report of a late team (GT-M6, GT-S3).
    pub async fn record_result_on(
        &self,
        m: MatchId,
        seen: ReportSeen,
        outcome: &MatchOutcome,
        on: (
            ResultBasis,
            Option<&arbiter_core::season::late::LateArrival>,
        ),
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultVersion, StoreError> {
        dispatch!(self, s => s.record_result(m, seen, outcome, on, by, reason).await)
    }

    /// Several matches' results in one transaction, each as [`Store::record_result_on`]: all
    /// stored or none; the error says which write (its index) refused.
    pub async fn record_results(
        &self,
        writes: &[ResultWrite<'_>],
    ) -> Result<Vec<ResultVersion>, (usize, StoreError)> {
        dispatch!(self, s => s.record_results(writes).await)
    }

    /// Names `side`'s lineup for the match before it is played (issue 12): the next version, if
    /// the lineup in force is still the version `seen` (0 for none); else [`StoreError::Stale`]
    /// and nothing is written. Core has checked it; the store keeps only players of the
    /// competition, on a match without a result. `late`: named after its deadline and accepted
    /// by the arbiter (AS-11), kept with it.
    pub async fn record_lineup(
        &self,
        m: MatchId,
        side: Side,
        seen: u32,
        lineup: &Lineup,
        late: Option<&LateLineup>,
        by: &Actor,
    ) -> Result<LineupVersion, StoreError> {
        dispatch!(self, s => s.record_lineup(m, side, seen, lineup, late, by).await)
    }

    /// Adds `players` (core's `roster::plan` has placed and checked them) at the end of their
    /// teams' rosters in one transaction, each a change in the history.
    pub async fn add_players(
        &self,
        competition: CompetitionId,
        players: &[(TeamId, Player)],
        reason: Option<&str>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.add_players(competition, players, reason, by).await)
    }

    /// Makes player `player` of `competition` the league's person `to` (an officer's link of
    /// two roster entries that are one person; core's `eligibility::person_refusals` has judged
    /// AS-3), or with `None` a person of their own again; [`StoreError::Stale`], and nothing
    /// written, when a competition of `seen` changed since it was read. In the history with the
    /// person before and why.
    pub async fn link_person(
        &self,
        competition: CompetitionId,
        player: &PlayerId,
        to: Option<&PersonId>,
        seen: &[(CompetitionId, i64)],
        reason: &str,
        by: &Actor,
    ) -> Result<PersonId, StoreError> {
        dispatch!(self, s => s.link_person(competition, player, to, seen, reason, by).await)
    }

    /// Moves match `m` to the day `to` (GT-M2; core's `postpone::check` has said what the move
    /// would break), with the reason, kept in the history with the day before.
    pub async fn move_match(
        &self,
        m: MatchId,
        to: jiff::civil::Date,
        start: Option<jiff::civil::Time>,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.move_match(m, to, start, reason, by).await)
    }

    /// Moves every match of `moves` in one transaction (GT-F5: the schedule suspended and
    /// resumed; core's `suspend::plan` has shifted them), each kept in the history with the day
    /// before and the reason; and when `season_ends` says so, the season's last day moves to the
    /// last of them, in the history too. [`StoreError::Stale`], and nothing moved, when a
    /// competition of `seen` is no longer at the version read (a result or another move came in).
    pub async fn move_matches(
        &self,
        moves: &[MatchMove],
        seen: &[(CompetitionId, i64)],
        season_ends: Option<(SeasonId, jiff::civil::Date)>,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.move_matches(moves, seen, season_ends, reason, by).await)
    }

    /// Records an officer's ruling that the result carrying the violation `key` (core's
    /// `Finding::key`, `message` its sentence) stands, with the reason (issue 12). A second
    /// ruling on one violation is [`StoreError::Stale`].
    pub async fn record_ruling(
        &self,
        competition: CompetitionId,
        key: &str,
        message: &str,
        reason: &str,
        by: &Actor,
    ) -> Result<Ruling, StoreError> {
        dispatch!(self, s => s.record_ruling(competition, key, message, reason, by).await)
    }

    /// Adds `entry` to the season's fee ledger (GT-O2) with its history row, in one transaction
    /// (core's `Ledger::check` has read and checked it). Its number must be the season's next:
    /// else another entry came in after the writer read the ledger, and [`StoreError::Stale`].
    /// A reversal takes the school and amount of the entry it undoes, once. Nothing in the
    /// ledger is ever changed or removed.
    pub async fn record_ledger_entry(
        &self,
        league: LeagueId,
        season: SeasonId,
        entry: &arbiter_core::season::ledger::Entry,
        by: &Actor,
    ) -> Result<LedgerEntry, StoreError> {
        dispatch!(self, s => s.record_ledger_entry(league, season, entry, by).await)
    }

    /// The season's fee ledger (GT-O2): every entry, by number, with who recorded it and when.
    pub async fn ledger(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<LedgerEntry>, StoreError> {
        dispatch!(self, s => s.ledger(league, season).await)
    }

    /// When each match of the season first had its result entered by a team's advisor, for
    /// late-result fines (`[fines] late_result`).
    pub async fn first_entries(&self, season: SeasonId) -> Result<Vec<FirstEntryAt>, StoreError> {
        dispatch!(self, s => s.first_entries(season).await)
    }

    /// GT-F3: keeps the officers' order of teams tied in division `competition`, with why.
    pub async fn record_tie_decision(
        &self,
        competition: CompetitionId,
        order: &[TeamId],
        reason: &str,
        by: &Actor,
    ) -> Result<TieDecision, StoreError> {
        dispatch!(self, s => s.record_tie_decision(competition, order, reason, by).await)
    }

    /// AS-1, AS-3: keeps `event` as the next version of `season`'s event, if it is still at
    /// version `seen` (0: none set yet); [`StoreError::Stale`] when another came in first.
    pub async fn record_event(
        &self,
        season: SeasonId,
        seen: u32,
        event: &NewEvent,
        by: &Actor,
    ) -> Result<EventRecord, StoreError> {
        dispatch!(self, s => s.record_event(season, seen, event, by).await)
    }

    /// AS-13: keeps a protest core has lodged, as the competition's next.
    pub async fn record_protest(
        &self,
        competition: CompetitionId,
        protest: &arbiter_core::event::protest::Protest,
        by: &Actor,
    ) -> Result<StoredProtest, StoreError> {
        dispatch!(self, s => s.record_protest(competition, protest, by).await)
    }

    /// AS-13: keeps the team affected's reply to protest `number`, once.
    pub async fn record_protest_reply(
        &self,
        competition: CompetitionId,
        number: u32,
        reply: &arbiter_core::event::protest::Reply,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_protest_reply(competition, number, reply, by).await)
    }

    /// AS-13: keeps the arbiter's decision on protest `number`, once; an upheld one puts
    /// `against`'s roster in the order it set.
    pub async fn record_protest_decision(
        &self,
        competition: CompetitionId,
        number: u32,
        against: &TeamId,
        decision: &arbiter_core::event::protest::Decision,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_protest_decision(competition, number, against, decision, by).await)
    }

    /// Every protest of `competition`, the first lodged first (AS-13).
    pub async fn protests(
        &self,
        competition: CompetitionId,
    ) -> Result<Vec<StoredProtest>, StoreError> {
        dispatch!(self, s => s.protests(competition).await)
    }

    /// AS-8: keeps the lot the product drew for `competition`'s invitation order in the history.
    pub async fn record_lot_draw(
        &self,
        league: LeagueId,
        competition: &str,
        draw: serde_json::Value,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_lot_draw(league, competition, draw, by).await)
    }

    /// The event of `season` in force, if the arbiter has set one.
    pub async fn event(&self, season: SeasonId) -> Result<Option<EventRecord>, StoreError> {
        dispatch!(self, s => s.event(season).await)
    }

    /// The officers' decisions on ties in the season's divisions, oldest first (GT-F3).
    pub async fn tie_decisions(&self, season: SeasonId) -> Result<Vec<TieDecision>, StoreError> {
        dispatch!(self, s => s.tie_decisions(season).await)
    }

    /// GT-F3, GT-F5: stores the season's playoffs in one transaction: the playoff competition
    /// (the qualifiers' teams and rosters, round 1 paired), the seeded field and the calendar
    /// with its bye date; [`StoreError::Conflict`] when they are drawn already.
    pub async fn draw_playoffs(
        &self,
        season: SeasonId,
        new: &NewCompetition,
        competition: &Competition,
        field: &[arbiter_core::season_end::qualify::Seed],
        calendar: &arbiter_core::season_end::bracket::PlayoffCalendar,
        by: &Actor,
    ) -> Result<PlayoffRecord, StoreError> {
        dispatch!(self, s => s.draw_playoffs(season, new, competition, field, calendar, by).await)
    }

    /// The season's playoffs, once drawn.
    pub async fn playoffs(&self, season: SeasonId) -> Result<Option<PlayoffRecord>, StoreError> {
        dispatch!(self, s => s.playoffs(season).await)
    }

    /// Adds the next knockout round (core's bracket paired it) to the playoff competition, if
    /// it is still at version `seen`; else [`StoreError::Stale`].
    pub async fn pair_round(
        &self,
        competition: CompetitionId,
        seen: i64,
        round: &arbiter_core::Round,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.pair_round(competition, seen, round, by).await)
    }

    /// Adds `round` to the competition if it is still at version `seen` and has no such round;
    /// else [`StoreError::Stale`]. The history keeps how it was paired (`note`), with the reason
    /// for a change by hand.
    pub async fn add_round(
        &self,
        competition: CompetitionId,
        seen: i64,
        round: &arbiter_core::Round,
        note: &RoundNote<'_>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.add_round(competition, seen, round, note, by).await)
    }

    /// Keeps an Armageddon or playoff game deciding a drawn knockout match (GT-F3), or, with
    /// `corrects`, a correction of one entered before (which stays, superseded).
    pub async fn record_deciding_game(
        &self,
        competition: CompetitionId,
        game: &arbiter_core::season_end::bracket::DecidingGame,
        corrects: Option<i64>,
        reason: Option<&str>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_deciding_game(competition, game, corrects, reason, by).await)
    }

    /// The games entered to decide drawn knockout matches, oldest first.
    pub async fn deciding_games(
        &self,
        competition: CompetitionId,
    ) -> Result<Vec<DecidingGameRecord>, StoreError> {
        dispatch!(self, s => s.deciding_games(competition).await)
    }

    /// GT-O3: keeps a draft or a published version of the season's `moment` report, the next
    /// after `seen` (the versions read); else [`StoreError::Stale`]. Nothing is overwritten.
    #[allow(clippy::too_many_arguments)] // one row's columns
    pub async fn record_media_report(
        &self,
        league: LeagueId,
        season: SeasonId,
        moment: arbiter_core::season_end::media::Moment,
        seen: u32,
        bodies: (&str, &str),
        publish: bool,
        by: &Actor,
    ) -> Result<MediaReportVersion, StoreError> {
        dispatch!(self, s => s.record_media_report(league, season, moment, seen, bodies, publish, by).await)
    }

    /// Every version of the season's media reports (GT-O3), by moment, oldest first.
    pub async fn media_reports(
        &self,
        season: SeasonId,
    ) -> Result<Vec<MediaReportVersion>, StoreError> {
        dispatch!(self, s => s.media_reports(season).await)
    }

    /// Each season's media reports with a published version (GT-O3), as (season, moment).
    pub async fn published_media_reports(
        &self,
    ) -> Result<Vec<(SeasonId, arbiter_core::season_end::media::Moment)>, StoreError> {
        dispatch!(self, s => s.published_media_reports().await)
    }

    /// The match's report as a writer sees it now: what to give a write made on what is in
    /// force (the pages and the API give what they drew the match from instead).
    pub async fn report_seen(&self, m: MatchId) -> Result<ReportSeen, StoreError> {
        Ok(ReportSeen::of(
            &self.result_versions(m).await?,
            &self.result_reviews(m).await?,
        ))
    }

    /// Every version of the match's result, oldest first.
    pub async fn result_versions(&self, m: MatchId) -> Result<Vec<ResultVersion>, StoreError> {
        dispatch!(self, s => s.result_versions(m).await)
    }

    /// The version of the match's result in force (the highest), without those before it.
    pub async fn result_version_in_force(&self, m: MatchId) -> Result<ResultVersion, StoreError> {
        dispatch!(self, s => s.result_version_in_force(m).await)
    }

    /// The history rows the filter selects, newest first.
    pub async fn history(&self, filter: &HistoryFilter) -> Result<Vec<HistoryEntry>, StoreError> {
        dispatch!(self, s => s.history(filter).await)
    }

    /// Bumped on every write; pages use it (with the competition's own version) for ETags.
    pub async fn data_version(&self) -> Result<i64, StoreError> {
        dispatch!(self, s => s.data_version().await)
    }

    /// The data version now and the competitions whose pages changed after version `since`
    /// (issue 35): what a server sharing the database reloads.
    pub async fn changes_since(&self, since: i64) -> Result<Changes, StoreError> {
        dispatch!(self, s => s.changes_since(since).await)
    }

    /// Closes every connection of the store (on SQLite, the readers' and the writer's).
    pub async fn close(&self) {
        dispatch!(self, s => s.close().await)
    }

    /// The SQLite pool, for what shares the database (the web's sessions); `None` on PostgreSQL.
    pub fn sqlite_pool(&self) -> Option<&sqlx::SqlitePool> {
        match self {
            Store::Sqlite(s) => Some(s.pool()),
            Store::Postgres(_) => None,
        }
    }

    /// The PostgreSQL pool, for what shares the database (the web's sessions); `None` on SQLite.
    pub fn pg_pool(&self) -> Option<&sqlx::PgPool> {
        match self {
            Store::Postgres(p) => Some(p.pool()),
            Store::Sqlite(_) => None,
        }
    }

    /// A league by its row id.
    pub async fn league_by_id(&self, id: LeagueId) -> Result<Option<League>, StoreError> {
        dispatch!(self, s => s.league_by_id(id).await)
    }

    /// A new account (Invalid without an `@`, Conflict when the email has one already).
    pub async fn create_user(
        &self,
        email: &str,
        name: &str,
        password_hash: Option<&str>,
        by: &Actor,
    ) -> Result<User, StoreError> {
        dispatch!(self, s => s.create_user(email, name, password_hash, by).await)
    }

    /// The account with this email ([`Email`] is kept trimmed and lower-case).
    pub async fn user_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        dispatch!(self, s => s.user_by_email(email).await)
    }

    /// The account with this id.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        dispatch!(self, s => s.user(id).await)
    }

    /// Replaces the account's password hash (history `set_password`, without the hash).
    pub async fn set_password(
        &self,
        user: UserId,
        password_hash: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_password(user, password_hash, by).await)
    }

    /// Gives the account a role in the league; an identical active membership is returned as is.
    pub async fn grant_role(
        &self,
        user: UserId,
        league: LeagueId,
        role: Role,
        school: Option<&str>,
        by: &Actor,
    ) -> Result<Membership, StoreError> {
        dispatch!(self, s => s.grant_role(user, league, role, school, by).await)
    }

    /// Ends a membership (kept, marked revoked).
    pub async fn revoke_role(
        &self,
        membership: MembershipId,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.revoke_role(membership, by, reason).await)
    }

    /// The account's active roles, by league then role.
    pub async fn memberships(&self, user: UserId) -> Result<Vec<Membership>, StoreError> {
        dispatch!(self, s => s.memberships(user).await)
    }

    /// GT-P3: records a challenge game (GT-R5) or an unranked game (GT-R7) with match `m`, after
    /// the `seen` ones its writer read (else [`StoreError::Stale`]), with the side whose school
    /// entered it; says its place among them.
    pub async fn record_extra_game(
        &self,
        m: MatchId,
        game: &arbiter_core::ExtraGame,
        seen: usize,
        by: &Actor,
    ) -> Result<u32, StoreError> {
        dispatch!(self, s => s.record_extra_game(m, game, seen, by).await)
    }

    /// GT-P3: extra game `position` of match `m` confirmed or struck out with the reason, beside
    /// it and in the history.
    pub async fn record_extra_game_step(
        &self,
        m: MatchId,
        position: u32,
        step: &arbiter_core::ExtraStep,
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_extra_game_step(m, position, step, by).await)
    }

    /// GT-M20: keeps a finished game's moves (`pgn`, checked by core's `game::read`) for board
    /// `board` of match `m`, superseding any before; says which upload it is.
    pub async fn record_game_score(
        &self,
        m: MatchId,
        board: u32,
        pgn: &str,
        by: &Actor,
    ) -> Result<u32, StoreError> {
        dispatch!(self, s => s.record_game_score(m, board, pgn, by).await)
    }

    /// The kinds of notice the account has stopped (issue 13); every other kind is mailed.
    pub async fn stopped_notices(
        &self,
        user: UserId,
    ) -> Result<Vec<arbiter_core::season::notice::Notice>, StoreError> {
        dispatch!(self, s => s.stopped_notices(user).await)
    }

    /// Stops exactly these kinds of notice for the account, in one change of the history.
    pub async fn set_stopped_notices(
        &self,
        user: UserId,
        stopped: &[arbiter_core::season::notice::Notice],
        by: &Actor,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_stopped_notices(user, stopped, by).await)
    }

    /// The league's active members, by role then email.
    pub async fn league_members(&self, league: LeagueId) -> Result<Vec<MemberRow>, StoreError> {
        dispatch!(self, s => s.league_members(league).await)
    }

    /// A single-use invitation; returns it with the link's secret (only its hash is stored).
    pub async fn create_invite(
        &self,
        new: &NewInvite,
        by: &Actor,
    ) -> Result<(Invite, String), StoreError> {
        dispatch!(self, s => s.create_invite(new, by).await)
    }

    /// Withdraws a pending invitation of `league` (recorded, never deleted).
    pub async fn withdraw_invite(
        &self,
        league: LeagueId,
        id: InviteId,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<Invite, StoreError> {
        dispatch!(self, s => s.withdraw_invite(league, id, by, reason).await)
    }

    /// The league's invitations, newest first: pending, accepted, withdrawn and expired.
    pub async fn invites(&self, league: LeagueId) -> Result<Vec<Invite>, StoreError> {
        dispatch!(self, s => s.invites(league).await)
    }

    /// The invitation a link's secret opens, whatever its state.
    pub async fn invite_by_token(&self, plain: &str) -> Result<Option<Invite>, StoreError> {
        dispatch!(self, s => s.invite_by_token(plain).await)
    }

    /// Takes up an invitation once: marks it accepted, makes the account if new, grants the role.
    pub async fn accept_invite(
        &self,
        plain: &str,
        accept: AcceptInvite<'_>,
        sender_may: impl FnOnce(&Invite, &[Membership]) -> Result<(), String>,
    ) -> Result<(User, Membership), StoreError> {
        dispatch!(self, s => s.accept_invite(plain, accept, sender_may).await)
    }

    /// A password-reset link's secret for the account (only its hash is stored).
    pub async fn create_password_reset(
        &self,
        user: UserId,
        valid_for: jiff::SignedDuration,
    ) -> Result<String, StoreError> {
        dispatch!(self, s => s.create_password_reset(user, valid_for).await)
    }

    /// The account a password-reset link belongs to, whether or not the link still works.
    pub async fn password_reset_owner(&self, plain: &str) -> Result<Option<User>, StoreError> {
        dispatch!(self, s => s.password_reset_owner(plain).await)
    }

    /// Sets a new password by a reset link, once and before it expires.
    pub async fn use_password_reset(
        &self,
        plain: &str,
        password_hash: &str,
    ) -> Result<User, StoreError> {
        dispatch!(self, s => s.use_password_reset(plain, password_hash).await)
    }

    /// Notes a failed sign-in to this email from this address (no history row).
    pub async fn record_sign_in_failure(
        &self,
        email: &Email,
        address: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_sign_in_failure(email, address).await)
    }

    /// The failed sign-ins to this email from this address at or after `since`.
    pub async fn sign_in_failures(
        &self,
        email: &Email,
        address: &str,
        since: jiff::Timestamp,
    ) -> Result<Attempts, StoreError> {
        dispatch!(self, s => s.sign_in_failures(email, address, since).await)
    }

    /// Notes a request for a password-reset link to this email from this address.
    pub async fn record_reset_request(
        &self,
        email: &Email,
        address: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.record_reset_request(email, address).await)
    }

    /// The reset links asked for this email at or after `since`, from `address` or from anywhere.
    pub async fn reset_requests(
        &self,
        email: &Email,
        address: Option<&str>,
        since: jiff::Timestamp,
    ) -> Result<Attempts, StoreError> {
        dispatch!(self, s => s.reset_requests(email, address, since).await)
    }

    /// An attempt from `address` against the per-address limit every server on this database
    /// shares: `None` when let through (and noted), else the attempts let through since `since`.
    pub async fn address_attempt(
        &self,
        address: &str,
        since: jiff::Timestamp,
        limit: u32,
    ) -> Result<Option<Attempts>, StoreError> {
        dispatch!(self, s => s.address_attempt(address, since, limit).await)
    }

    /// Removes the failed sign-ins, reset requests and per-address attempts noted before
    /// `older_than`; returns how many went (no history row: they are not league data).
    pub async fn forget_sign_in_failures(
        &self,
        older_than: jiff::Timestamp,
    ) -> Result<u64, StoreError> {
        dispatch!(self, s => s.forget_sign_in_failures(older_than).await)
    }

    /// The site's secret called `name`, the same for every server on this database.
    pub async fn site_secret(&self, name: &str) -> Result<String, StoreError> {
        dispatch!(self, s => s.site_secret(name).await)
    }

    /// A new API token in a role its owner holds; returns it with its secret, shown once.
    pub async fn create_api_token(
        &self,
        new: &NewApiToken,
        by: &Actor,
    ) -> Result<(ApiToken, String), StoreError> {
        dispatch!(self, s => s.create_api_token(new, by).await)
    }

    /// The active token a secret names, with its owner (not revoked, role still held).
    pub async fn api_token_by_secret(
        &self,
        plain: &str,
    ) -> Result<Option<(ApiToken, User)>, StoreError> {
        dispatch!(self, s => s.api_token_by_secret(plain).await)
    }

    /// The account's API tokens, revoked ones too, newest first.
    pub async fn api_tokens(&self, user: UserId) -> Result<Vec<ApiToken>, StoreError> {
        dispatch!(self, s => s.api_tokens(user).await)
    }

    /// The league's API tokens, revoked ones too, newest first.
    pub async fn league_api_tokens(&self, league: LeagueId) -> Result<Vec<ApiToken>, StoreError> {
        dispatch!(self, s => s.league_api_tokens(league).await)
    }

    /// Revokes an API token; revoking it again changes nothing.
    pub async fn revoke_api_token(&self, id: ApiTokenId, by: &Actor) -> Result<(), StoreError> {
        dispatch!(self, s => s.revoke_api_token(id, by).await)
    }

    /// GT-P2: confirms or disputes the result version in force, `seen.version`, if the match is
    /// still as the reviewer `seen` it; else [`StoreError::Stale`] and nothing is written.
    pub async fn review_result(
        &self,
        m: MatchId,
        seen: ReportSeen,
        kind: ReviewKind,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultReview, StoreError> {
        dispatch!(self, s => s.review_result(m, seen, kind, by, reason).await)
    }

    /// Every review of the match's results, oldest first.
    pub async fn result_reviews(&self, m: MatchId) -> Result<Vec<ResultReview>, StoreError> {
        dispatch!(self, s => s.result_reviews(m).await)
    }
}
