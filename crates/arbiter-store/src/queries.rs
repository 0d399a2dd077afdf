// The store's queries, written once and compiled twice: `sqlite.rs` and `postgres.rs` each
// `include!` this file after defining `Db`, `DbRow`, `Backend` (their store type),
// `MIGRATIONS`, `BACKEND_NAME`, `begin_write`, `begin_read` and the dialect functions
// `ts_in`/`ts_out`, `date_in`/`date_out`, `json_in`/`json_out`, which wrap a placeholder or a
// column where the two SQL dialects differ. Values cross the edge as text or i64 only.
//
// Every write runs in one transaction that first bumps `store_meta.data_version` (which also
// takes the write lock, so writers queue instead of failing) and appends its history rows.
// The history table is only ever inserted into.

type Tx = sqlx::Transaction<'static, Db>;

use std::collections::{BTreeMap, HashMap};

use arbiter_core::teams::lineup::{Lineup, NamedLineup};
use arbiter_core::season::late::LateArrival;
use arbiter_core::season::report::ResultBasis;
use arbiter_core::record::text::{PostalAddress, Reason, TextKind};
use arbiter_core::{
    Board, Bye, Competition, Match, MatchOutcome, Pairing, PersonId, Player, PlayerId, RatingRecord, Round,
    Side, Team, TeamId, Unplayed, ExtraEvent, ExtraGame, ExtraKind, ExtraStep, Unfinished, AdjudicationPosition,
};
use arbiter_core::record::zone::Zone;
use sqlx::Row;

use crate::check;
use crate::codes;
use crate::error::{StoreError, corrupt, db};
use crate::json;
use crate::records::{
    Actor, Changes, CompetitionId, Entity, HistoryAction, CompetitionRecord, HistoryEntry, HistoryFilter, MatchNames, League, LeagueId,
    LeagueKind, LineupVersion, MatchId, NewCompetition, Ruling, NewLeague, NewSeason, ReportSeen, ResultVersion, RulesChange, RulesRef, Season,
    SeasonId, StoredCompetition, ImportPlace, Imported, SeasonChoice, School, SchoolId, NewClosure,
    SeasonClosure, PlayerChange, GameScore, MatchMove, LateLineup, HandChange,
};

fn get<'r, T>(row: &'r DbRow, col: &str) -> Result<T, StoreError>
where
    T: sqlx::Decode<'r, Db> + sqlx::Type<Db>,
{
    row.try_get(col)
        .map_err(|e| corrupt(format!("an unreadable `{col}` column ({e})")))
}

fn to_u32(v: i64, what: &str) -> Result<u32, StoreError> {
    u32::try_from(v).map_err(|_| corrupt(format!("the {what} {v}")))
}

/// A history row before it is written.
#[derive(Debug)]
struct Change<'a> {
    entity: Entity,
    entity_id: String,
    action: HistoryAction,
    before: Option<serde_json::Value>,
    after: Option<serde_json::Value>,
    reason: Option<&'a str>,
    league: Option<i64>,
    competition: Option<i64>,
    match_id: Option<i64>,
    team: Option<&'a str>,
    other_team: Option<&'a str>,
}

impl Change<'_> {
    /// A change to match `m`, filed under its league, competition and both teams.
    fn on_match<'a>(place: &'a MatchPlace, m: MatchId, action: HistoryAction) -> Change<'a> {
        Change {
            league: Some(place.league),
            competition: Some(place.competition),
            match_id: Some(m.0),
            team: Some(&place.home.0),
            other_team: Some(&place.away.0),
            ..Change::of(Entity::Match, m.to_string(), action)
        }
    }

    /// A change of `entity` (its id as text) by `action`, with nothing else said yet.
    fn of(entity: Entity, entity_id: String, action: HistoryAction) -> Change<'static> {
        Change {
            entity,
            entity_id,
            action,
            before: None,
            after: None,
            reason: None,
            league: None,
            competition: None,
            match_id: None,
            team: None,
            other_team: None,
        }
    }
}

/// A role column read back (none for the command line or an import).
fn role_in(row: &DbRow, col: &str) -> Result<Option<Role>, StoreError> {
    let text: Option<String> = get(row, col)?;
    text.map(|t| Role::from_code(&t).ok_or_else(|| corrupt(format!("the unknown `{col}` “{t}”"))))
        .transpose()
}

/// A closed-list column read back: a word the list lacks is a corrupt row.
fn code<T>(row: &DbRow, col: &str, read: fn(&str) -> Option<T>) -> Result<T, StoreError> {
    let text: String = get(row, col)?;
    read(&text).ok_or_else(|| corrupt(format!("the unknown `{col}` “{text}”")))
}

/// One write: a transaction that holds the write lock with the data version bumped, the time and
/// the person it is stamped with, and the history rows it appends. A write supplies only what it
/// reads, checks and inserts (through `&mut **w`), then `commit`s; dropped without committing (a
/// refusal, or nothing to change) it leaves no trace, the bump included.
struct Write<'a> {
    tx: Tx,
    /// When the write happens: the store's clock (the site's `--now`); the real time for accounts.
    at: jiff::Timestamp,
    by: &'a Actor,
}

impl<'a> Write<'a> {
    async fn begin(pool: &sqlx::Pool<Db>, at: jiff::Timestamp, by: &'a Actor) -> Result<Write<'a>, StoreError> {
        let mut tx = begin_write(pool).await?;
        bump(&mut tx).await?;
        Ok(Write { tx, at, by })
    }

    /// Appends `change` to the history, in this write's transaction, stamped with its time and
    /// person.
    async fn history(&mut self, change: Change<'_>) -> Result<(), StoreError> {
        append_history(&mut self.tx, self.at, self.by, change).await
    }

    /// Saves everything the write did; `what` names it if the database refuses ("saving the
    /// closure").
    async fn commit(self, what: &'static str) -> Result<(), StoreError> {
        self.tx.commit().await.map_err(db(what))
    }
}

impl std::ops::Deref for Write<'_> {
    type Target = Tx;
    fn deref(&self) -> &Tx {
        &self.tx
    }
}

impl std::ops::DerefMut for Write<'_> {
    fn deref_mut(&mut self) -> &mut Tx {
        &mut self.tx
    }
}

impl Backend {
    /// A write stamped with the store's clock (moved by `--now`).
    async fn write<'a>(&self, by: &'a Actor) -> Result<Write<'a>, StoreError> {
        Write::begin(self.writer(), self.now(), by).await
    }

    /// A write of accounts, sessions and tokens, stamped with the real time: a password reset's
    /// expiry is not moved by `--now`.
    async fn account_write<'a>(&self, by: &'a Actor) -> Result<Write<'a>, StoreError> {
        Write::begin(self.writer(), codes::wall_clock(), by).await
    }
}

async fn bump(tx: &mut Tx) -> Result<i64, StoreError> {
    let row = sqlx::query(
        "UPDATE store_meta SET data_version = data_version + 1 WHERE id = 1 RETURNING data_version",
    )
    .fetch_one(&mut **tx)
    .await
    .map_err(db("bumping the data version"))?;
    get(&row, "data_version")
}

/// GT-F5: the season's last day moves to `last`, the day of the last match a suspension
/// shifted past it; in the history with the day before and the reason.
async fn extend_season(
    tx: &mut Tx,
    season: SeasonId,
    last: jiff::civil::Date,
    reason: &str,
    at: jiff::Timestamp,
    by: &Actor,
) -> Result<(), StoreError> {
    let sql = format!(
        "SELECT league_id, {} AS ends_on FROM seasons WHERE id = $1",
        date_out("ends_on")
    );
    let row = sqlx::query(&sql)
        .bind(season.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading the season's last day"))?
        .ok_or_else(|| StoreError::NotFound(format!("there is no season with id {}", season.0)))?;
    let before = codes::parse_date(get(&row, "ends_on")?)?;
    sqlx::query(&format!(
        "UPDATE seasons SET ends_on = {} WHERE id = $2",
        date_in("$1")
    ))
    .bind(last.to_string())
    .bind(season.0)
    .execute(&mut **tx)
    .await
    .map_err(db("moving the season's last day"))?;
    mark_changed(tx, Touched::Season(season.0)).await?;
    append_history(
        tx,
        at,
        by,
        Change {
            before: Some(serde_json::json!({ "ends_on": before.map(|d| d.to_string()) })),
            after: Some(serde_json::json!({ "ends_on": last.to_string() })),
            reason: Some(reason),
            league: Some(get(&row, "league_id")?),
            ..Change::of(Entity::Season, season.to_string(), HistoryAction::ExtendSeason)
        },
    )
    .await
}

/// A competition's data version up by one: its pages and ETags change (`StoredCompetition`);
/// marked as changed by this write (issue 35).
async fn bump_competition(tx: &mut Tx, competition: i64) -> Result<(), StoreError> {
    let sql = format!(
        "UPDATE competitions SET version = version + 1, changed_in = {WRITE_VERSION} WHERE id = $1"
    );
    sqlx::query(&sql)
        .bind(competition)
        .execute(&mut **tx)
        .await
        .map_err(db("bumping the competition's version"))?;
    Ok(())
}

/// The data version of the write in progress: its transaction bumped it first.
const WRITE_VERSION: &str = "(SELECT data_version FROM store_meta WHERE id = 1)";

/// What a write changes of the competitions' pages besides their own records (issue 35): a
/// league's time zone or a school's address shows on every competition of the league, an
/// event's days and the playoffs on every competition of the season. Each competition so
/// touched is marked with the write's data version, so that every server sharing the database
/// reloads it and only it ([`Backend::changes_since`]). Accounts, sessions, tokens, the ledger,
/// mail and closures (which no competition's pages read) touch none.
#[derive(Debug, Clone, Copy)]
enum Touched {
    Season(i64),
    League(i64),
    /// The competitions with a team of this school.
    School(i64),
}

async fn mark_changed(tx: &mut Tx, touched: Touched) -> Result<(), StoreError> {
    let (which, id) = match touched {
        Touched::Season(id) => ("season_id = $1", id),
        Touched::League(id) => ("season_id IN (SELECT id FROM seasons WHERE league_id = $1)", id),
        Touched::School(id) => ("id IN (SELECT competition_id FROM teams WHERE school_id = $1)", id),
    };
    let sql = format!("UPDATE competitions SET changed_in = {WRITE_VERSION} WHERE {which}");
    sqlx::query(&sql)
        .bind(id)
        .execute(&mut **tx)
        .await
        .map_err(db("marking the competitions a write changed"))?;
    Ok(())
}

async fn append_history(
    tx: &mut Tx,
    at: jiff::Timestamp,
    by: &Actor,
    c: Change<'_>,
) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO history (at, actor, role, entity, entity_id, action, before_json, after_json, \
         reason, league_id, competition_id, match_id, team_key, other_team_key) \
         VALUES ({}, $2, $3, $4, $5, $6, {}, {}, $9, $10, $11, $12, $13, $14)",
        ts_in("$1"),
        json_in("$7"),
        json_in("$8"),
    );
    sqlx::query(&sql)
        .bind(at.to_string())
        .bind(by.user.clone())
        .bind(by.role.map(Role::code))
        .bind(c.entity.code())
        .bind(c.entity_id)
        .bind(c.action.code())
        .bind(c.before.map(|v| v.to_string()))
        .bind(c.after.map(|v| v.to_string()))
        .bind(c.reason)
        .bind(c.league)
        .bind(c.competition)
        .bind(c.match_id)
        .bind(c.team)
        .bind(c.other_team)
        .execute(&mut **tx)
        .await
        .map_err(db("appending to the history"))?;
    Ok(())
}

fn league_from_row(row: &DbRow) -> Result<League, StoreError> {
    let kind: String = get(row, "kind")?;
    Ok(League {
        id: LeagueId(get(row, "id")?),
        slug: get(row, "slug")?,
        name: get(row, "name")?,
        kind: LeagueKind::parse(&kind)
            .ok_or_else(|| corrupt(format!("the league kind `{kind}`")))?,
        description: get(row, "description")?,
        time_zone: zone_in(row)?,
    })
}

/// A school as stored: its id, name and address (`address` read back as it was written).
fn school_from_row(row: &DbRow) -> Result<School, StoreError> {
    let name: String = get(row, "name")?;
    let address: Option<String> = get(row, "address")?;
    Ok(School {
        id: SchoolId(get(row, "id")?),
        address: address_of(&name, address.as_deref())?,
        name,
    })
}

/// A school's address as stored, read back as core keeps it; a corrupt row when it is not one.
fn address_of(school: &str, text: Option<&str>) -> Result<Option<PostalAddress>, StoreError> {
    text.map(|t| PostalAddress::parse(&format!("the address of {school}"), t))
        .transpose()
        .map(Option::flatten)
        .map_err(|e| corrupt(e.to_string()))
}

/// A league's time zone as stored, or a corrupt row.
fn zone_in(row: &DbRow) -> Result<Zone, StoreError> {
    let name: String = get(row, "time_zone")?;
    Zone::named(&name).map_err(|e| corrupt(e.to_string()))
}

/// A list of ids for `IN (…)`: numbers only, so written into the query, not bound (a page may
/// ask for hundreds). A query holding one is not kept prepared (`persistent(false)`): each
/// text is new, and would push the connection's kept statements out.
fn id_list(ids: impl IntoIterator<Item = i64>) -> String {
    let ids: Vec<String> = ids.into_iter().map(|id| id.to_string()).collect();
    if ids.is_empty() {
        // `IN ()` is not SQL; no id is 0 or less.
        "0".to_string()
    } else {
        ids.join(", ")
    }
}

/// The order the site lists leagues in, over `leagues`' own columns: by name.
const LEAGUE_ORDER: &str = "name, id";

/// The order the site lists a league's seasons in, over `seasons`' own columns: by their first
/// day, a season without dates last.
const SEASON_ORDER: &str = "starts_on IS NULL, starts_on, id";

fn season_sql(condition: &str) -> String {
    format!(
        "SELECT id, league_id, slug, name, {} AS starts_on, {} AS ends_on FROM seasons WHERE {condition}",
        date_out("starts_on"),
        date_out("ends_on"),
    )
}

fn season_from_row(row: &DbRow) -> Result<Season, StoreError> {
    Ok(Season {
        id: SeasonId(get(row, "id")?),
        league: LeagueId(get(row, "league_id")?),
        slug: get(row, "slug")?,
        name: get(row, "name")?,
        starts_on: codes::parse_date(get(row, "starts_on")?)?,
        ends_on: codes::parse_date(get(row, "ends_on")?)?,
    })
}

/// A competition's rules as the history keeps them: the preset's name or the file's text.
fn rules_text(r: &RulesRef) -> &str {
    match r {
        RulesRef::Preset(p) | RulesRef::Toml(p) => p,
    }
}

const COMPETITION_COLUMNS: &str =
    "id, league_id, season_id, slug, name, model_name, rules_preset, rules_toml, version, changed_in";

fn rules_from_row(row: &DbRow) -> Result<RulesRef, StoreError> {
    let preset: Option<String> = get(row, "rules_preset")?;
    let toml: Option<String> = get(row, "rules_toml")?;
    match (preset, toml) {
        (Some(p), None) => Ok(RulesRef::Preset(p)),
        (None, Some(t)) => Ok(RulesRef::Toml(t)),
        _ => Err(corrupt(
            "a competition with both or neither of a preset and TOML rules",
        )),
    }
}

fn record_from_row(row: &DbRow) -> Result<CompetitionRecord, StoreError> {
    let rules = rules_from_row(row)?;
    Ok(CompetitionRecord {
        id: CompetitionId(get(row, "id")?),
        season: SeasonId(get(row, "season_id")?),
        slug: get(row, "slug")?,
        name: get(row, "name")?,
        rules,
        version: get(row, "version")?,
        changed_in: get(row, "changed_in")?,
    })
}

/// Writes one result version of a match with its boards. `players` maps player ids to rows.
#[allow(clippy::too_many_arguments)] // one row's columns; a struct would only rename them
async fn insert_result(
    tx: &mut Tx,
    match_id: i64,
    version: i64,
    outcome: &MatchOutcome,
    by: &Actor,
    at: jiff::Timestamp,
    reason: Option<&str>,
    (basis, late): (ResultBasis, Option<&LateArrival>),
    players: &HashMap<String, i64>,
) -> Result<(), StoreError> {
    let (kind, forfeit_by) = codes::outcome_kind(outcome);
    let sql = format!(
        "INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, \
         entered_role, entered_at, reason, basis, late_team, late_day_ends, late_clocks, \
         late_arrived, late_arranged) \
         VALUES ($1, $2, $3, $4, $5, $6, {}, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
        ts_in("$7")
    );
    let row = sqlx::query(&sql)
        .bind(match_id)
        .bind(version)
        .bind(kind)
        .bind(forfeit_by)
        .bind(by.user.clone())
        .bind(by.role.map(Role::code))
        .bind(at.to_string())
        .bind(reason)
        .bind(basis.code())
        .bind(late.map(|l| l.team.code()))
        .bind(late.map(|l| codes::time_text(l.school_day_ends)))
        .bind(late.and_then(|l| l.clocks_started).map(codes::time_text))
        .bind(late.and_then(|l| l.arrived).map(codes::time_text))
        .bind(late.is_some_and(|l| l.arranged))
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing a match result"))?;
    let version_id: i64 = get(&row, "id")?;
    if let MatchOutcome::Boards(boards) = outcome {
        for (i, b) in boards.iter().enumerate() {
            let player = |p: &Option<PlayerId>| p.as_ref().and_then(|p| players.get(&p.0).copied());
            let sent = b.adjudication();
            sqlx::query(
                "INSERT INTO result_boards (result_version_id, board, result, rating_result, \
                 home_player_id, away_player_id, home_colour, unplayed, unplayed_note, \
                 adjourned_to, adjudication_pgn, adjudication_fen, home_clock, away_clock) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            )
            .bind(version_id)
            .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
            .bind(b.result.code())
            .bind(b.rating_result.map(|r| r.code()))
            .bind(player(&b.home_player))
            .bind(player(&b.away_player))
            .bind(b.home_colour.map(codes::colour))
            .bind(b.unplayed.as_ref().map(Unplayed::code))
            .bind(b.unplayed.as_ref().and_then(Unplayed::note))
            .bind(b.resume_on().map(|d| d.to_string()))
            .bind(sent.map(|p| p.pgn.as_str()))
            .bind(sent.map(|p| p.fen.as_str()))
            .bind(sent.and_then(|p| p.home_clock.as_deref()))
            .bind(sent.and_then(|p| p.away_clock.as_deref()))
            .execute(&mut **tx)
            .await
            .map_err(db("storing a board result"))?;
        }
    }
    Ok(())
}

/// A result version's late report (GT-M6, GT-S3), read by [`late_in`].
const LATE_COLUMNS: &str = "late_team, late_day_ends, late_clocks, late_arrived, late_arranged";

/// The late report a result version's row keeps, if any.
fn late_in(row: &DbRow) -> Result<Option<LateArrival>, StoreError> {
    let Some(team) = get::<Option<String>>(row, "late_team")? else {
        return Ok(None);
    };
    let team = Side::from_code(&team).ok_or_else(|| corrupt(format!("the late side `{team}`")))?;
    let time = |col: &str| codes::parse_time(get(row, col)?);
    Ok(Some(LateArrival {
        team,
        school_day_ends: time("late_day_ends")?
            .ok_or_else(|| corrupt("a late report without the school day's end"))?,
        clocks_started: time("late_clocks")?,
        arrived: time("late_arrived")?,
        arranged: get(row, "late_arranged")?,
    }))
}

const BOARD_COLUMNS: &str = "b.result_version_id, b.board, b.result, b.rating_result, \
     hp.player_key AS home_player, ap.player_key AS away_player, b.home_colour, b.unplayed, \
     b.unplayed_note, b.adjourned_to, b.adjudication_pgn, b.adjudication_fen, b.home_clock, \
     b.away_clock";
const BOARD_JOINS: &str = "FROM result_boards b \
     LEFT JOIN players hp ON hp.id = b.home_player_id \
     LEFT JOIN players ap ON ap.id = b.away_player_id";

/// GT-P3: one more extra game of match `match_id`, after the ones it has, with its entry (when a
/// school entered it, or `by` is known) and the steps taken on it; its place.
async fn insert_extra_game(
    tx: &mut Tx,
    match_id: i64,
    g: &ExtraGame,
    players: &HashMap<String, i64>,
    by: &Actor,
    at: jiff::Timestamp,
) -> Result<i64, StoreError> {
    let player = |p: &PlayerId| {
        players.get(&p.0).copied().ok_or_else(|| {
            StoreError::Invalid(format!(
                "the extra game names the player `{p}`, who is on no roster of the competition; name a rostered player"
            ))
        })
    };
    let row = sqlx::query(
        "INSERT INTO extra_games (match_id, position, white_player_id, black_player_id, result, kind) \
         VALUES ($1, (SELECT COALESCE(MAX(position), 0) + 1 FROM extra_games WHERE match_id = $1), \
         $2, $3, $4, $5) RETURNING id, position",
    )
    .bind(match_id)
    .bind(player(&g.white)?)
    .bind(player(&g.black)?)
    .bind(g.result.code())
    .bind(g.kind.code())
    .fetch_one(&mut **tx)
    .await
    .map_err(db("storing an extra game"))?;
    let id: i64 = get(&row, "id")?;
    if g.entered_by.is_some() || by.user.is_some() {
        insert_extra_event(tx, id, ExtraRow::Entered(g.entered_by), by, at).await?;
    }
    for e in &g.events {
        let who = Actor {
            user: e.by.clone(),
            role: None,
        };
        insert_extra_event(tx, id, ExtraRow::Step(&e.step), &who, at).await?;
    }
    get(&row, "position")
}

/// How many extra games match `m` has.
async fn extra_game_count(tx: &mut Tx, m: MatchId) -> Result<usize, StoreError> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM extra_games WHERE match_id = $1")
        .bind(m.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("counting the extra games"))?;
    usize::try_from(get::<i64>(&row, "n")?).map_err(|_| corrupt("a count of extra games"))
}

/// A row of `extra_game_events`: the entry (the side whose school entered it, none for an
/// officer) or a later step.
enum ExtraRow<'a> {
    Entered(Option<Side>),
    Step(&'a ExtraStep),
}

/// GT-P3: a step on extra game `id`, beside it, never a change.
async fn insert_extra_event(
    tx: &mut Tx,
    id: i64,
    row: ExtraRow<'_>,
    by: &Actor,
    at: jiff::Timestamp,
) -> Result<(), StoreError> {
    let (step, side, reason) = match row {
        ExtraRow::Entered(side) => ("entered", side.map(codes::side), None),
        ExtraRow::Step(ExtraStep::Confirmed) => ("confirmed", None, None),
        ExtraRow::Step(ExtraStep::Struck { reason }) => {
            check::text(TextKind::Reason, "the reason", reason)?;
            ("struck", None, Some(reason.as_str()))
        }
    };
    let sql = format!(
        "INSERT INTO extra_game_events (extra_game_id, step, side, reason, by_user, by_role, at) \
         VALUES ($1, $2, $3, $4, $5, $6, {})",
        ts_in("$7")
    );
    sqlx::query(&sql)
        .bind(id)
        .bind(step)
        .bind(side)
        .bind(reason)
        .bind(by.user.clone())
        .bind(by.role.map(Role::code))
        .bind(at.to_string())
        .execute(&mut **tx)
        .await
        .map_err(db("storing a step on an extra game"))?;
    Ok(())
}

/// GT-M20: the unfinished game a board row keeps, if any.
fn unfinished_in(row: &DbRow) -> Result<Option<Unfinished>, StoreError> {
    if let Some(day) = get::<Option<String>>(row, "adjourned_to")? {
        let resume_on = day
            .parse()
            .map_err(|_| corrupt(format!("the adjournment day `{day}`")))?;
        return Ok(Some(Unfinished::Adjourned { resume_on }));
    }
    let (Some(pgn), Some(fen)) = (
        get::<Option<String>>(row, "adjudication_pgn")?,
        get::<Option<String>>(row, "adjudication_fen")?,
    ) else {
        return Ok(None);
    };
    Ok(Some(Unfinished::Adjudication(AdjudicationPosition {
        pgn,
        fen,
        home_clock: get(row, "home_clock")?,
        away_clock: get(row, "away_clock")?,
    })))
}

/// Board rows (ordered by version row, then board) grouped by their result version row.
fn boards_by_version(rows: &[DbRow]) -> Result<HashMap<i64, Vec<Board>>, StoreError> {
    let mut out: HashMap<i64, Vec<Board>> = HashMap::new();
    for row in rows {
        let result: String = get(row, "result")?;
        let rating: Option<String> = get(row, "rating_result")?;
        let colour: Option<String> = get(row, "home_colour")?;
        let home: Option<String> = get(row, "home_player")?;
        let away: Option<String> = get(row, "away_player")?;
        let unplayed: Option<String> = get(row, "unplayed")?;
        let note: Option<String> = get(row, "unplayed_note")?;
        let board = Board {
            result: codes::parse_result(&result)?,
            rating_result: rating.as_deref().map(codes::parse_result).transpose()?,
            home_player: home.map(PlayerId),
            away_player: away.map(PlayerId),
            home_colour: colour.as_deref().map(codes::parse_colour).transpose()?,
            unplayed: unplayed
                .map(|u| {
                    Unplayed::from_code(&u, note.as_deref())
                        .ok_or_else(|| corrupt(format!("the unplayed board `{u}`")))
                })
                .transpose()?,
            unfinished: unfinished_in(row)?,
        };
        out.entry(get(row, "result_version_id")?)
            .or_default()
            .push(board);
    }
    Ok(out)
}

/// The rows of a competition's players, by player id.
async fn player_rows(tx: &mut Tx, competition: i64) -> Result<HashMap<String, i64>, StoreError> {
    let rows = sqlx::query("SELECT id, player_key FROM players WHERE competition_id = $1")
        .bind(competition)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the players"))?;
    rows.iter()
        .map(|r| Ok((get(r, "player_key")?, get(r, "id")?)))
        .collect()
}

/// What `record_result` needs to know of a match.
struct MatchPlace {
    competition: i64,
    league: i64,
    round: u32,
    home: TeamId,
    away: TeamId,
}

async fn match_place(tx: &mut Tx, m: MatchId) -> Result<Option<MatchPlace>, StoreError> {
    let row = sqlx::query(
        "SELECT r.competition_id, c.league_id, r.number, h.team_key AS home, a.team_key AS away \
         FROM matches m JOIN rounds r ON r.id = m.round_id \
         JOIN competitions c ON c.id = r.competition_id \
         JOIN teams h ON h.id = m.home_team_id JOIN teams a ON a.id = m.away_team_id \
         WHERE m.id = $1",
    )
    .bind(m.0)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db("reading a match"))?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(MatchPlace {
        competition: get(&row, "competition_id")?,
        league: get(&row, "league_id")?,
        round: to_u32(get(&row, "number")?, "round number")?,
        home: TeamId(get(&row, "home")?),
        away: TeamId(get(&row, "away")?),
    }))
}

/// Moves one match inside `tx`, with its history row: the day (and start) before and after.
async fn move_in(
    tx: &mut Tx,
    mv: &MatchMove,
    reason: &str,
    at: jiff::Timestamp,
    by: &Actor,
) -> Result<(), StoreError> {
    let m = mv.id;
    let Some(place) = match_place(tx, m).await? else {
        return Err(StoreError::NotFound(format!("there is no match with id {m}")));
    };
    let sql = format!(
        "SELECT {} AS own, {} AS round_day, m.start_time FROM matches m \
         JOIN rounds r ON r.id = m.round_id WHERE m.id = $1",
        date_out("m.played_on"),
        date_out("r.played_on")
    );
    let row = sqlx::query(&sql)
        .bind(m.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a match's day"))?;
    let own: Option<String> = get(&row, "own")?;
    let round_day: Option<String> = get(&row, "round_day")?;
    let before = own.or(round_day);
    let start_before: Option<String> = get(&row, "start_time")?;
    let sql = format!(
        "UPDATE matches SET played_on = {}, start_time = $2 WHERE id = $3",
        date_in("$1")
    );
    let start = mv.start.map(codes::time_text);
    sqlx::query(&sql)
        .bind(mv.to.to_string())
        .bind(start.clone())
        .bind(m.0)
        .execute(&mut **tx)
        .await
        .map_err(db("moving a match"))?;
    bump_competition(tx, place.competition).await?;
    let day = |d: Option<String>, start: Option<String>| serde_json::json!({
        "round": place.round, "home": place.home.0, "away": place.away.0, "date": d,
        "start": start,
    });
    append_history(
        tx,
        at,
        by,
        Change {
            before: Some(day(before, start_before)),
            after: Some(day(Some(mv.to.to_string()), start)),
            reason: Some(reason),
            ..Change::on_match(&place, m, HistoryAction::MoveMatch)
        },
    )
    .await
}

/// Every result version of a match, oldest first.
async fn versions_of(tx: &mut Tx, m: MatchId) -> Result<Vec<ResultVersion>, StoreError> {
    versions_where(tx, "v.match_id = $1", m.0).await
}

/// The version in force of a match's result (none for a match with no version): what a write
/// checks and builds on, read in its transaction without the versions before it, so that a
/// write costs the same on a match corrected a thousand times (issue 16's soak).
async fn latest_version_of(tx: &mut Tx, m: MatchId) -> Result<Vec<ResultVersion>, StoreError> {
    versions_where(tx, &format!("v.match_id = $1 AND {IN_FORCE}"), m.0).await
}

/// The condition on `v` (a result version) that keeps only the version in force of its match.
const IN_FORCE: &str =
    "v.version = (SELECT MAX(l.version) FROM result_versions l WHERE l.match_id = v.match_id)";

/// The result versions `cond` (a condition on `v`, with one parameter `$1`, bound to `id`)
/// keeps, by match and oldest first, with their boards.
async fn versions_where(
    tx: &mut Tx,
    cond: &str,
    id: i64,
) -> Result<Vec<ResultVersion>, StoreError> {
    let sql = format!(
        "SELECT id, match_id, version, outcome, forfeit_by, entered_by, entered_role, \
         {} AS entered_at, reason, basis, {LATE_COLUMNS} FROM result_versions v WHERE {cond} \
         ORDER BY match_id, version",
        ts_out("entered_at")
    );
    let rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading a match's results"))?;
    let sql = format!(
        "SELECT {BOARD_COLUMNS} {BOARD_JOINS} JOIN result_versions v ON v.id = b.result_version_id \
         WHERE {cond} ORDER BY b.result_version_id, b.board"
    );
    let board_rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading a match's boards"))?;
    let mut boards = boards_by_version(&board_rows)?;
    rows.iter()
        .map(|row| {
            let id: i64 = get(row, "id")?;
            let kind: String = get(row, "outcome")?;
            let by: Option<String> = get(row, "forfeit_by")?;
            let version: i64 = get(row, "version")?;
            let at: String = get(row, "entered_at")?;
            Ok(ResultVersion {
                match_id: MatchId(get(row, "match_id")?),
                version: to_u32(version, "result version")?,
                outcome: codes::outcome(
                    &kind,
                    by.as_deref(),
                    boards.remove(&id).unwrap_or_default(),
                )?,
                entered_by: get(row, "entered_by")?,
                entered_role: role_in(row, "entered_role")?,
                entered_at: codes::parse_timestamp(&at)?,
                reason: get(row, "reason")?,
                basis: {
                    let code: String = get(row, "basis")?;
                    ResultBasis::from_code(&code)
                        .ok_or_else(|| corrupt(format!("the result basis `{code}`")))?
                },
                late: late_in(row)?,
            })
        })
        .collect()
}

/// A pairing with its position in the round, and its match id when it is a match.
type PlacedPairing = (i64, Pairing, Option<MatchId>);

/// A new league, in the caller's transaction.
async fn insert_league(
    tx: &mut Tx,
    new: &NewLeague,
    by: &Actor,
    at: jiff::Timestamp,
) -> Result<League, StoreError> {
    check::slug("league", &new.slug)?;
    check::name("league", &new.name)?;
    check::text(TextKind::Description, "the league's description", &new.description)?;
    let taken = sqlx::query("SELECT name FROM leagues WHERE slug = $1")
        .bind(&new.slug)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("looking up a league slug"))?;
    if let Some(row) = taken {
        let name: String = get(&row, "name")?;
        return Err(StoreError::Conflict(format!(
            "the slug `{}` is already taken by the league “{name}”; choose another slug for “{}”",
            new.slug, new.name
        )));
    }
    let sql = format!(
        "INSERT INTO leagues (slug, name, kind, description, created_at, time_zone) \
         VALUES ($1, $2, $3, $4, {}, $6) RETURNING id",
        ts_in("$5")
    );
    let row = sqlx::query(&sql)
        .bind(&new.slug)
        .bind(&new.name)
        .bind(new.kind.as_str())
        .bind(&new.description)
        .bind(at.to_string())
        .bind(new.time_zone.name())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing the league"))?;
    let league = League {
        id: LeagueId(get(&row, "id")?),
        slug: new.slug.clone(),
        name: new.name.clone(),
        kind: new.kind,
        description: new.description.clone(),
        time_zone: new.time_zone.clone(),
    };
    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(json::league(&league)),
            league: Some(league.id.0),
            ..Change::of(Entity::League, league.id.to_string(), HistoryAction::Create)
        },
    )
    .await?;
    Ok(league)
}

/// A new season of `league`, in the caller's transaction.
async fn insert_season(
    tx: &mut Tx,
    league: LeagueId,
    new: &NewSeason,
    by: &Actor,
    at: jiff::Timestamp,
) -> Result<Season, StoreError> {
    check::slug("season", &new.slug)?;
    check::season_slug(&new.slug)?;
    check::name("season", &new.name)?;
    check::season_dates(new)?;
    let Some(league_row) =
        sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE id = $1")
            .bind(league.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a league"))?
    else {
        return Err(StoreError::NotFound(format!(
            "there is no league with id {league}; create the league before its seasons"
        )));
    };
    let league_record = league_from_row(&league_row)?;
    let taken = sqlx::query("SELECT 1 AS one FROM seasons WHERE league_id = $1 AND slug = $2")
        .bind(league.0)
        .bind(&new.slug)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("looking up a season slug"))?;
    if taken.is_some() {
        return Err(StoreError::Conflict(format!(
            "“{}” already has a season with the slug `{}`; choose another slug for “{}”",
            league_record.name, new.slug, new.name
        )));
    }
    let sql = format!(
        "INSERT INTO seasons (league_id, slug, name, starts_on, ends_on, created_at) \
         VALUES ($1, $2, $3, {}, {}, {}) RETURNING id",
        date_in("$4"),
        date_in("$5"),
        ts_in("$6")
    );
    let row = sqlx::query(&sql)
        .bind(league.0)
        .bind(&new.slug)
        .bind(&new.name)
        .bind(new.starts_on.map(|d| d.to_string()))
        .bind(new.ends_on.map(|d| d.to_string()))
        .bind(at.to_string())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing the season"))?;
    let season = Season {
        id: SeasonId(get(&row, "id")?),
        league,
        slug: new.slug.clone(),
        name: new.name.clone(),
        starts_on: new.starts_on,
        ends_on: new.ends_on,
    };
    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(json::season(&season)),
            league: Some(league.0),
            ..Change::of(Entity::Season, season.id.to_string(), HistoryAction::Create)
        },
    )
    .await?;
    Ok(season)
}

/// A whole competition (teams with schools and rosters in order, players, rounds, matches and
/// every board result), as version 1 of each result, in the caller's transaction.
async fn insert_competition(
    tx: &mut Tx,
    season: SeasonId,
    new: &NewCompetition,
    competition: &Competition,
    by: &Actor,
    at: jiff::Timestamp,
) -> Result<CompetitionRecord, StoreError> {
    check::slug("competition", &new.slug)?;
    check::competition_slug(&new.slug)?;
    check::name("competition", &new.name)?;
    check::rules(&new.slug, &new.rules).map_err(|e| {
        StoreError::Invalid(format!(
            "the competition `{}` cannot be stored: {e}",
            new.slug
        ))
    })?;
    check::competition(competition)?;

    let Some(season_row) = sqlx::query("SELECT league_id FROM seasons WHERE id = $1")
        .bind(season.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a season"))?
    else {
        return Err(StoreError::NotFound(format!(
            "there is no season with id {season}; create the season before its competitions"
        )));
    };
    let league: i64 = get(&season_row, "league_id")?;
    let taken = sqlx::query(
        "SELECT c.name, s.slug AS season FROM competitions c JOIN seasons s ON s.id = c.season_id \
         WHERE c.league_id = $1 AND c.slug = $2",
    )
    .bind(league)
    .bind(&new.slug)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db("looking up a competition slug"))?;
    if let Some(row) = taken {
        let name: String = get(&row, "name")?;
        let in_season: String = get(&row, "season")?;
        return Err(StoreError::Conflict(format!(
            "the slug `{}` is already taken by “{name}” (season `{in_season}`) in this league; choose another slug for “{}”",
            new.slug, new.name
        )));
    }

    let (preset, toml) = match &new.rules {
        RulesRef::Preset(p) => (Some(p.as_str()), None),
        RulesRef::Toml(t) => (None, Some(t.as_str())),
    };
    let sql = format!(
        "INSERT INTO competitions (league_id, season_id, slug, name, model_name, rules_preset, \
         rules_toml, version, created_at, changed_in) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, {}, \
         {WRITE_VERSION}) RETURNING id, changed_in",
        ts_in("$8")
    );
    let row = sqlx::query(&sql)
        .bind(league)
        .bind(season.0)
        .bind(&new.slug)
        .bind(&new.name)
        .bind(&competition.name)
        .bind(preset)
        .bind(toml)
        .bind(at.to_string())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing the competition"))?;
    let id: i64 = get(&row, "id")?;
    let changed_in: i64 = get(&row, "changed_in")?;

    // Schools: the league's own, found by name or added.
    let mut schools: HashMap<&str, i64> = HashMap::new();
    for name in competition.teams.iter().filter_map(|t| t.school.as_deref()) {
        if schools.contains_key(name) {
            continue;
        }
        let found = sqlx::query("SELECT id FROM schools WHERE league_id = $1 AND name = $2")
            .bind(league)
            .bind(name)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("looking up a school"))?;
        let school_id = match found {
            Some(row) => get(&row, "id")?,
            None => {
                let row = sqlx::query(
                    "INSERT INTO schools (league_id, name) VALUES ($1, $2) RETURNING id",
                )
                .bind(league)
                .bind(name)
                .fetch_one(&mut **tx)
                .await
                .map_err(db("storing a school"))?;
                let school_id: i64 = get(&row, "id")?;
                append_history(
                    tx,
                    at,
                    by,
                    Change {
                        after: Some(serde_json::json!({ "id": school_id, "name": name })),
                        league: Some(league),
                        competition: Some(id),
                        ..Change::of(Entity::School, school_id.to_string(), HistoryAction::Create)
                    },
                )
                .await?;
                school_id
            }
        };
        schools.insert(name, school_id);
    }

    let mut teams: HashMap<&TeamId, i64> = HashMap::new();
    let mut players: HashMap<String, i64> = HashMap::new();
    for (position, team) in competition.teams.iter().enumerate() {
        let row = sqlx::query(
            "INSERT INTO teams (competition_id, team_key, name, school_id, position) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(id)
        .bind(&team.id.0)
        .bind(&team.name)
        .bind(team.school.as_deref().and_then(|s| schools.get(s).copied()))
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing a team"))?;
        let team_id: i64 = get(&row, "id")?;
        teams.insert(&team.id, team_id);
        for (place, p) in team.players.iter().enumerate() {
            let player_id = match players.get(&p.id.0) {
                Some(pid) => *pid,
                None => {
                    let person = person_of(tx, id, p).await?;
                    let row = insert_player(tx, id, person, p)
                        .await
                        .map_err(db("storing a player"))?;
                    let pid: i64 = get(&row, "id")?;
                    players.insert(p.id.0.clone(), pid);
                    pid
                }
            };
            // AS-10: the declared order of strength, 1 first.
            sqlx::query(
                "INSERT INTO roster_entries (team_id, position, player_id) VALUES ($1, $2, $3)",
            )
            .bind(team_id)
            .bind(i64::try_from(place + 1).unwrap_or(i64::MAX))
            .bind(player_id)
            .execute(&mut **tx)
            .await
            .map_err(db("storing a roster entry"))?;
        }
    }

    let team_row = |t: &TeamId| {
        teams.get(t).copied().ok_or_else(|| {
            StoreError::Invalid(format!("the team `{t}` is not in the competition"))
        })
    };
    for (position, round) in competition.rounds.iter().enumerate() {
        let sql = format!(
            "INSERT INTO rounds (competition_id, number, position, played_on) \
             VALUES ($1, $2, $3, {}) RETURNING id",
            date_in("$4")
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .bind(i64::from(round.number))
            .bind(i64::try_from(position).unwrap_or(i64::MAX))
            .bind(round.date.map(|d| d.to_string()))
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a round"))?;
        let round_id: i64 = get(&row, "id")?;
        for (place, pairing) in round.pairings.iter().enumerate() {
            let place = i64::try_from(place).unwrap_or(i64::MAX);
            match pairing {
                Pairing::Match(m) => {
                    let sql = format!(
                        "INSERT INTO matches (round_id, position, home_team_id, away_team_id, \
                         played_on, start_time) VALUES ($1, $2, $3, $4, {}, $6) RETURNING id",
                        date_in("$5")
                    );
                    let row = sqlx::query(&sql)
                    .bind(round_id)
                    .bind(place)
                    .bind(team_row(&m.home)?)
                    .bind(team_row(&m.away)?)
                    .bind(m.date.map(|d| d.to_string()))
                    .bind(m.start.map(codes::time_text))
                    .fetch_one(&mut **tx)
                    .await
                    .map_err(db("storing a match"))?;
                    let match_id: i64 = get(&row, "id")?;
                    insert_result(
                        tx,
                        match_id,
                        1,
                        &m.outcome,
                        by,
                        at,
                        None,
                        (ResultBasis::Entered, m.late.as_ref()),
                        &players,
                    )
                    .await?;
                    for g in &m.extra_games {
                        insert_extra_game(tx, match_id, g, &players, &Actor::system(), at).await?;
                    }
                }
                Pairing::Bye(b) => {
                    sqlx::query(
                        "INSERT INTO byes (round_id, position, team_id, kind) VALUES ($1, $2, $3, $4)",
                    )
                    .bind(round_id)
                    .bind(place)
                    .bind(team_row(&b.team)?)
                    .bind(codes::bye_kind(b.kind))
                    .execute(&mut **tx)
                    .await
                    .map_err(db("storing a bye"))?;
                }
            }
        }
    }

    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(json::competition(new, competition)),
            league: Some(league),
            competition: Some(id),
            ..Change::of(Entity::Competition, id.to_string(), HistoryAction::Import)
        },
    )
    .await?;
    for team in &competition.teams {
        append_history(
            tx,
            at,
            by,
            Change {
                after: Some(json::team(team)),
                league: Some(league),
                competition: Some(id),
                team: Some(&team.id.0),
                ..Change::of(Entity::Team, team.id.0.clone(), HistoryAction::Import)
            },
        )
        .await?;
    }
    Ok(CompetitionRecord {
        id: CompetitionId(id),
        season,
        slug: new.slug.clone(),
        name: new.name.clone(),
        rules: new.rules.clone(),
        version: 1,
        changed_in,
    })
}

/// Refuses the write when the match is no longer as the writer saw it. Called after `bump`,
/// so no other write can land between this check and the commit (on PostgreSQL each
/// statement after the lock reads what the writers before committed).
async fn check_seen(
    tx: &mut Tx,
    m: MatchId,
    label: &str,
    versions: &[ResultVersion],
    seen: ReportSeen,
) -> Result<(), StoreError> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM result_reviews WHERE match_id = $1")
        .bind(m.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a match's reviews"))?;
    let reviews: i64 = get(&row, "n")?;
    let now = ReportSeen {
        version: versions
            .last()
            .map_or(0, |v| v.version),
        reviews: to_u32(reviews, "review count")?,
    };
    if now == seen {
        return Ok(());
    }
    let reviews = |n: u32| match n {
        0 => "no reviews".to_string(),
        1 => "1 review".to_string(),
        n => format!("{n} reviews"),
    };
    Err(StoreError::Stale(format!(
        "{label} changed after it was read: it was read at version {} with {}, and is now at version {} with {}; nothing was saved, so read it again and make the change against version {}",
        seen.version,
        reviews(seen.reviews),
        now.version,
        reviews(now.reviews),
        now.version
    )))
}

/// The whole competition `id` as of the transaction's snapshot.
async fn load_in(tx: &mut Tx, id: i64) -> Result<Option<StoredCompetition>, StoreError> {
    let sql = format!("SELECT {COMPETITION_COLUMNS} FROM competitions WHERE id = $1");
    let Some(row) = sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a competition"))?
    else {
        return Ok(None);
    };
    let record = record_from_row(&row)?;
    let model_name: String = get(&row, "model_name")?;
    let league_id: i64 = get(&row, "league_id")?;
    let rules = check::rules(&record.slug, &record.rules).map_err(|e| {
        StoreError::Database(format!(
            "the stored rules of the competition `{}` no longer resolve ({e}); store corrected rules for it",
            record.slug
        ))
    })?;

    let league_row =
        sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE id = $1")
            .bind(league_id)
            .fetch_one(&mut **tx)
            .await
            .map_err(db("reading a competition's league"))?;
    let league = league_from_row(&league_row)?;
    let season_row = sqlx::query(&season_sql("id = $1"))
        .bind(record.season.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a competition's season"))?;
    let season = season_from_row(&season_row)?;

    let team_rows = sqlx::query(
        "SELECT t.id, t.team_key, t.name, s.name AS school FROM teams t \
         LEFT JOIN schools s ON s.id = t.school_id WHERE t.competition_id = $1 ORDER BY t.position",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the teams"))?;
    let mut teams = Vec::with_capacity(team_rows.len());
    let mut team_index = HashMap::new();
    for row in &team_rows {
        team_index.insert(get::<i64>(row, "id")?, teams.len());
        teams.push(Team {
            id: TeamId(get(row, "team_key")?),
            name: get(row, "name")?,
            school: get(row, "school")?,
            players: Vec::new(),
        });
    }

    let sql = format!(
        "SELECT e.team_id, p.player_key, p.name, p.rating, p.provisional, {} AS birth_date, \
         p.rated_games, p.k, p.federation_id, p.unranked, p.school, {} AS withdrawn_on, s.person_key \
         FROM roster_entries e JOIN players p ON p.id = e.player_id \
         JOIN teams t ON t.id = e.team_id LEFT JOIN persons s ON s.id = p.person_id \
         WHERE t.competition_id = $1 ORDER BY t.position, e.position",
        date_out("p.birth_date"),
        date_out("p.withdrawn_on")
    );
    let roster_rows = sqlx::query(&sql)
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the rosters"))?;
    for row in &roster_rows {
        let team: i64 = get(row, "team_id")?;
        let rating: Option<i64> = get(row, "rating")?;
        let player = Player {
            id: PlayerId(get(row, "player_key")?),
            name: get(row, "name")?,
            person: get::<Option<String>>(row, "person_key")?.map(PersonId),
            rating: rating.map(|r| to_u32(r, "rating")).transpose()?,
            provisional: get(row, "provisional")?,
            record: RatingRecord {
                birth_date: codes::parse_date(get(row, "birth_date")?)?,
                rated_games: get::<Option<i64>>(row, "rated_games")?
                    .map(|n| to_u32(n, "count of rated games"))
                    .transpose()?,
                k: get::<Option<i64>>(row, "k")?
                    .map(|n| to_u32(n, "K"))
                    .transpose()?,
                federation_id: get(row, "federation_id")?,
            },
            unranked: get(row, "unranked")?,
            school: get(row, "school")?,
            withdrawn: codes::parse_date(get(row, "withdrawn_on")?)?,
        };
        let i = *team_index
            .get(&team)
            .ok_or_else(|| corrupt("a roster entry of a team of another competition"))?;
        teams[i].players.push(player);
    }

    let sql = format!(
        "SELECT id, number, {} AS played_on FROM rounds WHERE competition_id = $1 ORDER BY position",
        date_out("played_on")
    );
    let round_rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the rounds"))?;
    let mut rounds: Vec<(Round, Vec<PlacedPairing>)> = Vec::new();
    let mut round_index = HashMap::new();
    for row in &round_rows {
        round_index.insert(get::<i64>(row, "id")?, rounds.len());
        rounds.push((
            Round {
                number: to_u32(get(row, "number")?, "round number")?,
                date: codes::parse_date(get(row, "played_on")?)?,
                pairings: Vec::new(),
            },
            Vec::new(),
        ));
    }

    let latest = "v.version = (SELECT MAX(v2.version) FROM result_versions v2 WHERE v2.match_id = v.match_id)";
    let sql = format!(
        "SELECT m.id, m.round_id, m.position, h.team_key AS home, a.team_key AS away, \
         {} AS played_on, m.start_time, v.id AS version_id, v.outcome, v.forfeit_by, \
         v.late_team, v.late_day_ends, v.late_clocks, v.late_arrived, v.late_arranged \
         FROM matches m JOIN rounds r ON r.id = m.round_id \
         JOIN teams h ON h.id = m.home_team_id JOIN teams a ON a.id = m.away_team_id \
         JOIN result_versions v ON v.match_id = m.id \
         WHERE r.competition_id = $1 AND {latest}",
        date_out("m.played_on")
    );
    let match_rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the matches"))?;
    let sql = format!(
        "SELECT {BOARD_COLUMNS} {BOARD_JOINS} JOIN result_versions v ON v.id = b.result_version_id \
         JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id \
         WHERE r.competition_id = $1 AND {latest} ORDER BY b.result_version_id, b.board"
    );
    let board_rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the boards"))?;
    let mut boards = boards_by_version(&board_rows)?;
    // GT-P3: each match's extra games, in the order they were recorded.
    let extra_rows = sqlx::query(
        "SELECT g.id, g.match_id, w.player_key AS white, b.player_key AS black, g.result, g.kind \
         FROM extra_games g JOIN matches m ON m.id = g.match_id JOIN rounds r ON r.id = m.round_id \
         JOIN players w ON w.id = g.white_player_id JOIN players b ON b.id = g.black_player_id \
         WHERE r.competition_id = $1 ORDER BY g.match_id, g.position",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the extra games"))?;
    // GT-P3: the steps on them, in order: who entered each, its confirmations and strikes.
    let event_rows = sqlx::query(
        "SELECT e.extra_game_id, e.step, e.side, e.reason, e.by_user FROM extra_game_events e \
         JOIN extra_games g ON g.id = e.extra_game_id JOIN matches m ON m.id = g.match_id \
         JOIN rounds r ON r.id = m.round_id WHERE r.competition_id = $1 ORDER BY e.id",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the steps on the extra games"))?;
    let mut entered: HashMap<i64, Side> = HashMap::new();
    let mut events: HashMap<i64, Vec<ExtraEvent>> = HashMap::new();
    for row in &event_rows {
        let game: i64 = get(row, "extra_game_id")?;
        let step: String = get(row, "step")?;
        let by: Option<String> = get(row, "by_user")?;
        let step = match step.as_str() {
            "entered" => {
                if let Some(side) = get::<Option<String>>(row, "side")? {
                    entered.insert(game, codes::parse_side(&side)?);
                }
                continue;
            }
            "confirmed" => ExtraStep::Confirmed,
            "struck" => ExtraStep::Struck {
                reason: get::<Option<String>>(row, "reason")?
                    .ok_or_else(|| corrupt("an extra game struck out with no reason"))?,
            },
            other => return Err(corrupt(format!("the extra game's step `{other}`"))),
        };
        events.entry(game).or_default().push(ExtraEvent { by, step });
    }
    let mut extra: HashMap<i64, Vec<ExtraGame>> = HashMap::new();
    for row in &extra_rows {
        let result: String = get(row, "result")?;
        let kind: String = get(row, "kind")?;
        let game: i64 = get(row, "id")?;
        extra.entry(get(row, "match_id")?).or_default().push(ExtraGame {
            white: PlayerId(get(row, "white")?),
            black: PlayerId(get(row, "black")?),
            result: codes::parse_result(&result)?,
            kind: ExtraKind::from_code(&kind)
                .ok_or_else(|| corrupt(format!("the extra game's kind `{kind}`")))?,
            entered_by: entered.remove(&game),
            events: events.remove(&game).unwrap_or_default(),
        });
    }
    for row in &match_rows {
        let round: i64 = get(row, "round_id")?;
        let version: i64 = get(row, "version_id")?;
        let kind: String = get(row, "outcome")?;
        let by: Option<String> = get(row, "forfeit_by")?;
        let m = Match {
            date: codes::parse_date(get(row, "played_on")?)?,
            home: TeamId(get(row, "home")?),
            away: TeamId(get(row, "away")?),
            outcome: codes::outcome(
                &kind,
                by.as_deref(),
                boards.remove(&version).unwrap_or_default(),
            )?,
            start: codes::parse_time(get(row, "start_time")?)?,
            extra_games: extra.remove(&get::<i64>(row, "id")?).unwrap_or_default(),
            late: late_in(row)?,
        };
        let i = *round_index
            .get(&round)
            .ok_or_else(|| corrupt("a match of a round of another competition"))?;
        rounds[i].1.push((
            get(row, "position")?,
            Pairing::Match(m),
            Some(MatchId(get(row, "id")?)),
        ));
    }

    let bye_rows = sqlx::query(
        "SELECT y.round_id, y.position, t.team_key, y.kind FROM byes y \
         JOIN rounds r ON r.id = y.round_id JOIN teams t ON t.id = y.team_id \
         WHERE r.competition_id = $1",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the byes"))?;
    for row in &bye_rows {
        let round: i64 = get(row, "round_id")?;
        let kind: String = get(row, "kind")?;
        let bye = Bye {
            team: TeamId(get(row, "team_key")?),
            kind: codes::parse_bye_kind(&kind)?,
        };
        let i = *round_index
            .get(&round)
            .ok_or_else(|| corrupt("a bye of a round of another competition"))?;
        rounds[i]
            .1
            .push((get(row, "position")?, Pairing::Bye(bye), None));
    }

    let mut match_ids = Vec::new();
    let rounds = rounds
        .into_iter()
        .map(|(mut round, mut pairings)| {
            pairings.sort_by_key(|(position, _, _)| *position);
            for (_, p, id) in pairings {
                if let (Pairing::Match(m), Some(id)) = (&p, id) {
                    match_ids.push((round.number, m.home.clone(), id));
                }
                round.pairings.push(p);
            }
            round
        })
        .collect();

    let version = record.version;
    let lineups = lineups_in(tx, id, &match_ids).await?;
    let rulings = rulings_in(tx, id).await?;
    let game_scores = game_scores_in(tx, id).await?;
    let hand_changes = hand_changes_in(tx, id).await?;
    let moves = moves_in(tx, id).await?;
    let school_addresses = school_addresses_in(tx, id).await?;
    Ok(Some(StoredCompetition {
        league,
        season,
        record,
        competition: std::sync::Arc::new(Competition {
            name: model_name,
            teams,
            rounds,
        }),
        rules,
        match_ids,
        version,
        lineups,
        rulings,
        game_scores,
        hand_changes,
        moves,
        school_addresses,
    }))
}

/// How many times each match of competition `id` was moved (GT-M2, GT-F5), from the history.
async fn moves_in(tx: &mut Tx, id: i64) -> Result<BTreeMap<MatchId, u32>, StoreError> {
    let rows = sqlx::query(
        "SELECT match_id, COUNT(*) AS moves FROM history WHERE competition_id = $1 \
         AND action = $2 AND match_id IS NOT NULL GROUP BY match_id",
    )
    .bind(id)
    .bind(HistoryAction::MoveMatch.code())
    .fetch_all(&mut **tx)
    .await
    .map_err(db("counting the matches' moves"))?;
    rows.iter()
        .map(|row| {
            let moves: i64 = get(row, "moves")?;
            Ok((MatchId(get(row, "match_id")?), to_u32(moves, "count of moves")?))
        })
        .collect()
}

/// The addresses of the schools of competition `id`'s teams that have one (issue 32).
async fn school_addresses_in(
    tx: &mut Tx,
    id: i64,
) -> Result<BTreeMap<String, PostalAddress>, StoreError> {
    let rows = sqlx::query(
        "SELECT DISTINCT s.name, s.address FROM teams t JOIN schools s ON s.id = t.school_id \
         WHERE t.competition_id = $1 AND s.address IS NOT NULL",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the schools' addresses"))?;
    let mut out = BTreeMap::new();
    for row in &rows {
        let name: String = get(row, "name")?;
        let address: Option<String> = get(row, "address")?;
        if let Some(a) = address_of(&name, address.as_deref())? {
            out.insert(name, a);
        }
    }
    Ok(out)
}

/// The team Swiss rounds of competition `id` published changed by hand, from the history rows
/// of their publication (issue 17), oldest first.
async fn hand_changes_in(tx: &mut Tx, id: i64) -> Result<Vec<HandChange>, StoreError> {
    let sql = format!(
        "SELECT {} AS after_json, reason FROM history WHERE competition_id = $1 \
         AND action = $2 AND reason IS NOT NULL ORDER BY id",
        json_out("after_json")
    );
    let rows = sqlx::query(&sql)
        .bind(id)
        .bind(HistoryAction::PublishPairing.code())
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the pairings changed by hand"))?;
    rows.iter()
        .map(|row| {
            let text: Option<String> = get(row, "after_json")?;
            let after: serde_json::Value = text
                .and_then(|t| serde_json::from_str(&t).ok())
                .ok_or_else(|| corrupt("a published pairing without its round"))?;
            let teams = |key: &str| -> Vec<TeamId> {
                after[key]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|t| t.as_str().map(|t| TeamId(t.to_string())))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            Ok(HandChange {
                round: after["round"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| corrupt("a published pairing without its round"))?,
                matches: teams("changed_by_hand"),
                bye: after["bye_by_hand"].as_str().map(|t| TeamId(t.to_string())),
                reason: get(row, "reason")?,
                overridden: after["overridden_absolute"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|o| o.as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// The league of a competition, or not found.
async fn league_of_season(tx: &mut Tx, season: SeasonId) -> Result<i64, StoreError> {
    let row = sqlx::query("SELECT league_id FROM seasons WHERE id = $1")
        .bind(season.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a season"))?;
    let Some(row) = row else {
        return Err(StoreError::NotFound(format!("there is no season with id {season}")));
    };
    get(&row, "league_id")
}

/// One player row of competition `competition`, as the roster holds them, the person
/// `person` (a row of `persons`, from [`person_of`]).
async fn insert_player(
    tx: &mut Tx,
    competition: i64,
    person: i64,
    p: &Player,
) -> Result<DbRow, sqlx::Error> {
    let sql = format!(
        "INSERT INTO players (competition_id, player_key, name, rating, provisional, \
         birth_date, rated_games, k, unranked, withdrawn_on, school, person_id, federation_id) \
         VALUES ($1, $2, $3, $4, $5, {}, $7, $8, $9, {}, $11, $12, $13) RETURNING id",
        date_in("$6"),
        date_in("$10")
    );
    sqlx::query(&sql)
        .bind(competition)
        .bind(&p.id.0)
        .bind(&p.name)
        .bind(p.rating.map(i64::from))
        .bind(p.provisional)
        .bind(p.record.birth_date.map(|d| d.to_string()))
        .bind(p.record.rated_games.map(i64::from))
        .bind(p.record.k.map(i64::from))
        .bind(p.unranked)
        .bind(p.withdrawn.map(|d| d.to_string()))
        .bind(p.school.as_deref())
        .bind(person)
        .bind(p.record.federation_id.as_deref())
        .fetch_one(&mut **tx)
        .await
}

/// The `persons` row a new roster entry of `competition` is: the league's person `p.person`
/// names (made when the league has none of that key: a file's), else a person of their own.
async fn person_of(tx: &mut Tx, competition: i64, p: &Player) -> Result<i64, StoreError> {
    let row = sqlx::query("SELECT league_id, slug FROM competitions WHERE id = $1")
        .bind(competition)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a competition"))?;
    let league: i64 = get(&row, "league_id")?;
    match &p.person {
        Some(key) => {
            check::text(TextKind::Name, "a person's key", &key.0)?;
            let Some(id) = person_id(tx, league, &key.0).await? else {
                return insert_person(tx, league, &key.0).await;
            };
            once_in(tx, competition, id, &key.0, &p.id).await?;
            Ok(id)
        }
        None => {
            let slug: String = get(&row, "slug")?;
            new_person(tx, league, &format!("{slug}/{}", p.id)).await
        }
    }
}

/// One player, one person: refused when another entry of `competition` than `player` is the
/// person `id` (`key`) already.
async fn once_in(
    tx: &mut Tx,
    competition: i64,
    id: i64,
    key: &str,
    player: &PlayerId,
) -> Result<(), StoreError> {
    let other: Option<String> = sqlx::query_scalar(
        "SELECT player_key FROM players WHERE competition_id = $1 AND person_id = $2 AND player_key <> $3",
    )
    .bind(competition)
    .bind(id)
    .bind(&player.0)
    .fetch_optional(&mut **tx)
    .await
    .map_err(db("reading a person's players"))?;
    match other {
        Some(other) => Err(StoreError::Invalid(format!(
            "the person `{key}` is the player `{other}` of this competition already, and a person is one player of a competition; make `{player}` one person with a player of another competition"
        ))),
        None => Ok(()),
    }
}

/// The key of the person row `id`.
async fn person_key(tx: &mut Tx, id: i64) -> Result<String, StoreError> {
    sqlx::query_scalar("SELECT person_key FROM persons WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a person"))
}

/// [`StoreError::Stale`] when a competition of `seen` is no longer at the version read.
async fn unchanged_since(tx: &mut Tx, seen: &[(CompetitionId, i64)]) -> Result<(), StoreError> {
    for &(competition, version) in seen {
        let row = sqlx::query("SELECT name, version FROM competitions WHERE id = $1")
            .bind(competition.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a competition's version"))?
            .ok_or_else(|| {
                StoreError::NotFound(format!("there is no competition with id {competition}"))
            })?;
        let now: i64 = get(&row, "version")?;
        if now != version {
            let name: String = get(&row, "name")?;
            return Err(StoreError::Stale(format!(
                "{name} changed after it was read (version {version}, now {now}); nothing was saved: read it again and link the player again"
            )));
        }
    }
    Ok(())
}

/// The row of the league's person `key`, if it has one.
async fn person_id(tx: &mut Tx, league: i64, key: &str) -> Result<Option<i64>, StoreError> {
    let row = sqlx::query("SELECT id FROM persons WHERE league_id = $1 AND person_key = $2")
        .bind(league)
        .bind(key)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a person"))?;
    row.map(|r| get(&r, "id")).transpose()
}

async fn insert_person(tx: &mut Tx, league: i64, key: &str) -> Result<i64, StoreError> {
    let row = sqlx::query("INSERT INTO persons (league_id, person_key) VALUES ($1, $2) RETURNING id")
        .bind(league)
        .bind(key)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing a person"))?;
    get(&row, "id")
}

/// A person of their own for a roster entry: keyed `base` (`competition/player`), or, when the
/// league has that key already, `base-2`, `base-3`, … (never an existing person, which would
/// link them without an officer saying so).
async fn new_person(tx: &mut Tx, league: i64, base: &str) -> Result<i64, StoreError> {
    let mut key = base.to_string();
    let mut n = 1;
    while person_id(tx, league, &key).await?.is_some() {
        n += 1;
        key = format!("{base}-{n}");
    }
    insert_person(tx, league, &key).await
}

fn closure_sql(condition: &str) -> String {
    format!(
        "SELECT id, season_id, {} AS starts_on, {} AS ends_on, reason, \
         withdrawn_at IS NOT NULL AS withdrawn FROM season_closures WHERE {condition}",
        date_out("starts_on"),
        date_out("ends_on")
    )
}

fn closure_from_row(row: &DbRow) -> Result<SeasonClosure, StoreError> {
    let day = |col: &str| -> Result<jiff::civil::Date, StoreError> {
        codes::parse_date(get(row, col)?)?
            .ok_or_else(|| corrupt(format!("a closure without its `{col}`")))
    };
    Ok(SeasonClosure {
        id: get(row, "id")?,
        season: SeasonId(get(row, "season_id")?),
        starts_on: day("starts_on")?,
        ends_on: day("ends_on")?,
        reason: get(row, "reason")?,
        withdrawn: get(row, "withdrawn")?,
    })
}

async fn league_of(tx: &mut Tx, competition: CompetitionId) -> Result<i64, StoreError> {
    let row = sqlx::query("SELECT league_id FROM competitions WHERE id = $1")
        .bind(competition.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a competition"))?;
    let Some(row) = row else {
        return Err(StoreError::NotFound(format!(
            "there is no competition with id {competition}"
        )));
    };
    get(&row, "league_id")
}

/// The latest game score of every board of competition `id` that has one (GT-M20).
async fn game_scores_in(tx: &mut Tx, id: i64) -> Result<Vec<GameScore>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.match_id, g.board, g.upload, g.pgn FROM game_scores g \
         JOIN matches m ON m.id = g.match_id JOIN rounds r ON r.id = m.round_id \
         WHERE r.competition_id = $1 AND g.upload = (SELECT MAX(g2.upload) FROM game_scores g2 \
         WHERE g2.match_id = g.match_id AND g2.board = g.board) \
         ORDER BY r.number, m.position, g.board",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the game scores"))?;
    rows.iter()
        .map(|row| {
            Ok(GameScore {
                match_id: MatchId(get(row, "match_id")?),
                board: to_u32(get(row, "board")?, "game score's board")?,
                upload: to_u32(get(row, "upload")?, "game score's upload")?,
                pgn: get(row, "pgn")?,
            })
        })
        .collect()
}

/// The officers' rulings on competition `id`'s violations, oldest first.
async fn rulings_in(tx: &mut Tx, id: i64) -> Result<Vec<Ruling>, StoreError> {
    let sql = format!(
        "SELECT finding_key, message, reason, ruled_by, ruled_role, {} AS ruled_at \
         FROM violation_rulings WHERE competition_id = $1 ORDER BY id",
        ts_out("ruled_at")
    );
    let rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the rulings"))?;
    rows.iter()
        .map(|row| {
            let at: String = get(row, "ruled_at")?;
            Ok(Ruling {
                key: get(row, "finding_key")?,
                message: get(row, "message")?,
                reason: get(row, "reason")?,
                by: get(row, "ruled_by")?,
                role: role_in(row, "ruled_role")?,
                at: codes::parse_timestamp(&at)?,
            })
        })
        .collect()
}

/// The lineup in force (the latest version) of every match side of competition `id` that has
/// one, in match order.
async fn lineups_in(
    tx: &mut Tx,
    id: i64,
    match_ids: &[(u32, TeamId, MatchId)],
) -> Result<Vec<LineupVersion>, StoreError> {
    let latest = "l.version = (SELECT MAX(l2.version) FROM lineup_versions l2 \
                  WHERE l2.match_id = l.match_id AND l2.side = l.side)";
    let from = "FROM lineup_versions l JOIN matches m ON m.id = l.match_id \
                JOIN rounds r ON r.id = m.round_id";
    let sql = format!(
        "SELECT l.id, l.match_id, l.side, l.version, l.entered_by, l.entered_role, \
         {} AS entered_at, k.named_at AS late_named_at, k.minutes_late, k.accepted_by, \
         k.reason AS late_reason {from} LEFT JOIN late_lineups k ON k.lineup_version_id = l.id \
         WHERE r.competition_id = $1 AND {latest} ORDER BY l.match_id, l.side",
        ts_out("l.entered_at")
    );
    let rows = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the lineups"))?;
    let sql = format!(
        "SELECT b.lineup_version_id, b.board, p.player_key FROM lineup_boards b \
         JOIN lineup_versions l ON l.id = b.lineup_version_id \
         JOIN matches m ON m.id = l.match_id JOIN rounds r ON r.id = m.round_id \
         LEFT JOIN players p ON p.id = b.player_id \
         WHERE r.competition_id = $1 AND {latest} ORDER BY b.lineup_version_id, b.board"
    );
    let boards = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the lineups' boards"))?;
    let sql = format!(
        "SELECT w.lineup_version_id, p.player_key FROM lineup_withdrawals w \
         JOIN players p ON p.id = w.player_id \
         JOIN lineup_versions l ON l.id = w.lineup_version_id \
         JOIN matches m ON m.id = l.match_id JOIN rounds r ON r.id = m.round_id \
         WHERE r.competition_id = $1 AND {latest} ORDER BY w.lineup_version_id, p.player_key"
    );
    let withdrawals = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the lineups' withdrawals"))?;
    let mut by_version: HashMap<i64, Lineup> = HashMap::new();
    for row in &boards {
        let key: Option<String> = get(row, "player_key")?;
        by_version
            .entry(get(row, "lineup_version_id")?)
            .or_default()
            .boards
            .push(key.map(PlayerId));
    }
    for row in &withdrawals {
        by_version
            .entry(get(row, "lineup_version_id")?)
            .or_default()
            .withdrawn
            .push(PlayerId(get(row, "player_key")?));
    }
    rows.iter()
        .map(|row| {
            let match_id = MatchId(get(row, "match_id")?);
            let (round, home) = match_ids
                .iter()
                .find(|(_, _, m)| *m == match_id)
                .map(|(r, h, _)| (*r, h.clone()))
                .ok_or_else(|| corrupt("a lineup of a match of another competition"))?;
            let at: String = get(row, "entered_at")?;
            Ok(LineupVersion {
                match_id,
                version: to_u32(get(row, "version")?, "lineup version")?,
                entered_by: get(row, "entered_by")?,
                entered_role: role_in(row, "entered_role")?,
                entered_at: codes::parse_timestamp(&at)?,
                named: NamedLineup {
                    round,
                    home,
                    side: code(row, "side", Side::from_code)?,
                    lineup: by_version.remove(&get::<i64>(row, "id")?).unwrap_or_default(),
                },
                late: late_lineup_in(row)?,
            })
        })
        .collect()
}

/// A lineup's late acceptance (AS-11), from the row's `late_lineups` columns, when it has one.
fn late_lineup_in(row: &DbRow) -> Result<Option<LateLineup>, StoreError> {
    let Some(named_at) = get::<Option<String>>(row, "late_named_at")? else {
        return Ok(None);
    };
    Ok(Some(LateLineup {
        named_at: named_at
            .parse()
            .map_err(|_| corrupt("a late lineup's time that is not a time"))?,
        minutes_late: to_u32(get(row, "minutes_late")?, "minutes late")?,
        accepted_by: get(row, "accepted_by")?,
        reason: get(row, "late_reason")?,
    }))
}

impl Backend {
    /// Which database this is: `SQLite` or `PostgreSQL`.
    pub fn backend(&self) -> &'static str {
        BACKEND_NAME
    }

    /// Brings the schema up to this version's migrations; running it again changes nothing.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let migrator = sqlx::migrate::Migrator::new(crate::migrations::Embedded(MIGRATIONS))
            .await
            .map_err(|e| {
                StoreError::Database(format!(
                    "the {BACKEND_NAME} migrations could not be read: {e}"
                ))
            })?;
        migrator.run(&self.pool).await.map_err(|e| {
            StoreError::Database(format!(
                "the {BACKEND_NAME} database could not be brought up to this version's schema: {e}; if a newer version of Arbiter wrote it, run that version"
            ))
        })
    }

    /// Creates a league or event, with its history row; a slug already taken is a conflict.
    pub async fn create_league(&self, new: &NewLeague, by: &Actor) -> Result<League, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let league = insert_league(&mut tx, new, by, at).await?;
        tx.commit("saving the league").await?;
        Ok(league)
    }

    /// Sets `league`'s time zone (RULES.md, "Time"), kept in the history with the one before.
    pub async fn set_time_zone(
        &self,
        league: LeagueId,
        zone: &Zone,
        by: &Actor,
    ) -> Result<League, StoreError> {
        let mut tx = self.write(by).await?;
        let before = league_in(&mut tx, league).await?;
        if before.time_zone == *zone {
            return Ok(before);
        }
        sqlx::query("UPDATE leagues SET time_zone = $1 WHERE id = $2")
            .bind(zone.name())
            .bind(league.0)
            .execute(&mut **tx)
            .await
            .map_err(db("setting the league's time zone"))?;
        let after = League {
            time_zone: zone.clone(),
            ..before.clone()
        };
        tx.history(Change {
                before: Some(json::league(&before)),
                after: Some(json::league(&after)),
                league: Some(league.0),
                ..Change::of(Entity::League, league.to_string(), HistoryAction::SetTimeZone)
            },
        )
        .await?;
        mark_changed(&mut tx, Touched::League(league.0)).await?;
        tx.commit("saving the league's time zone").await?;
        Ok(after)
    }

    /// A history row saying the season's schedule went to the schools (GT-O3): `sent` says
    /// to which schools, how many mails and what failed. Nothing else changes.
    pub async fn record_schedule_sent(
        &self,
        league: LeagueId,
        season: SeasonId,
        sent: serde_json::Value,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let mut tx = self.write(by).await?;
        tx.history(Change {
                after: Some(sent),
                league: Some(league.0),
                ..Change::of(Entity::Season, season.to_string(), HistoryAction::SendSchedule)
            },
        )
        .await?;
        tx.commit("saving that the schedule was sent").await?;
        Ok(())
    }

    /// Every league and event, by name.
    pub async fn leagues(&self) -> Result<Vec<League>, StoreError> {
        let rows =
            sqlx::query(&format!("SELECT id, slug, name, kind, description, time_zone FROM leagues ORDER BY {LEAGUE_ORDER}"))
                .fetch_all(&self.pool)
                .await
                .map_err(db("reading the leagues"))?;
        rows.iter().map(league_from_row).collect()
    }

    /// The league or event with this slug, if there is one.
    pub async fn league(&self, slug: &str) -> Result<Option<League>, StoreError> {
        let row =
            sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE slug = $1")
                .bind(slug)
                .fetch_optional(&self.pool)
                .await
                .map_err(db("reading a league"))?;
        row.as_ref().map(league_from_row).transpose()
    }

    /// Creates a season in `league`, with its history row; a slug the league has already is a
    /// conflict.
    pub async fn create_season(
        &self,
        league: LeagueId,
        new: &NewSeason,
        by: &Actor,
    ) -> Result<Season, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let season = insert_season(&mut tx, league, new, by, at).await?;
        tx.commit("saving the season").await?;
        Ok(season)
    }

    /// The league's schools, by name (GT-O1).
    pub async fn schools(&self, league: LeagueId) -> Result<Vec<School>, StoreError> {
        let rows = sqlx::query("SELECT id, name, address FROM schools WHERE league_id = $1")
            .bind(league.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the schools"))?;
        let mut schools = rows.iter().map(school_from_row).collect::<Result<Vec<_>, StoreError>>()?;
        // Sorted here: the two databases collate text differently.
        schools.sort_by_key(|s| s.name.to_lowercase());
        Ok(schools)
    }

    /// The schools with a team in any competition of the season (GT-R6), by name.
    pub async fn season_schools(&self, season: SeasonId) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT s.name FROM teams t JOIN competitions c ON c.id = t.competition_id \
             JOIN schools s ON s.id = t.school_id WHERE c.season_id = $1",
        )
        .bind(season.0)
        .fetch_all(&self.pool)
        .await
        .map_err(db("reading the season's schools"))?;
        let mut names = rows
            .iter()
            .map(|r| get(r, "name"))
            .collect::<Result<Vec<String>, StoreError>>()?;
        names.sort_by_key(|n| n.to_lowercase());
        Ok(names)
    }

    /// Adds a school to the league (GT-O1), refused when the league has one of that name.
    pub async fn add_school(
        &self,
        league: LeagueId,
        name: &str,
        by: &Actor,
    ) -> Result<School, StoreError> {
        let name = name.trim();
        check::name("school", name)?;
        let mut tx = self.write(by).await?;
        let taken = sqlx::query("SELECT id FROM schools WHERE league_id = $1 AND name = $2")
            .bind(league.0)
            .bind(name)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("looking up a school"))?;
        if taken.is_some() {
            return Err(StoreError::Conflict(format!(
                "the league already has a school named “{name}”; its teams and advisors join that one"
            )));
        }
        let row = sqlx::query("INSERT INTO schools (league_id, name) VALUES ($1, $2) RETURNING id")
            .bind(league.0)
            .bind(name)
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a school"))?;
        let id: i64 = get(&row, "id")?;
        tx.history(Change {
                after: Some(serde_json::json!({ "id": id, "name": name })),
                league: Some(league.0),
                ..Change::of(Entity::School, id.to_string(), HistoryAction::Create)
            },
        )
        .await?;
        tx.commit("saving the school").await?;
        Ok(School { id: SchoolId(id), name: name.to_string(), address: None })
    }

    /// Each competition's new rules, a history row each (issue 32 item 5).
    pub async fn set_competition_rules(
        &self,
        changes: &[RulesChange],
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        if changes.is_empty() {
            return Ok(());
        }
        let mut tx = self.write(by).await?;
        for change in changes {
            let sql = format!("SELECT {COMPETITION_COLUMNS} FROM competitions WHERE id = $1");
            let row = sqlx::query(&sql)
                .bind(change.competition.0)
                .fetch_optional(&mut **tx)
                .await
                .map_err(db("reading a competition"))?
                .ok_or_else(|| {
                    StoreError::NotFound(format!("no competition has id {}", change.competition))
                })?;
            let before = record_from_row(&row)?;
            let league: i64 = get(&row, "league_id")?;
            if before.version != change.version {
                return Err(StoreError::Conflict(format!(
                    "the rules of {} changed since you read them (version {} now, {} then); read them again and make your change on the new ones",
                    before.name, before.version, change.version
                )));
            }
            let (preset, toml) = match &change.rules {
                RulesRef::Preset(p) => (Some(p.as_str()), None),
                RulesRef::Toml(t) => (None, Some(t.as_str())),
            };
            sqlx::query("UPDATE competitions SET rules_preset = $1, rules_toml = $2 WHERE id = $3")
                .bind(preset)
                .bind(toml)
                .bind(change.competition.0)
                .execute(&mut **tx)
                .await
                .map_err(db("changing the competition's rules"))?;
            bump_competition(&mut tx, change.competition.0).await?;
            tx.history(Change {
                    before: Some(serde_json::json!({ "rules": rules_text(&before.rules) })),
                    after: Some(serde_json::json!({
                        "rules": rules_text(&change.rules),
                        "changes": change.changes,
                    })),
                    reason: Some(reason),
                    league: Some(league),
                    competition: Some(change.competition.0),
                    ..Change::of(
                        Entity::Competition,
                        change.competition.to_string(),
                        HistoryAction::ChangeRules,
                    )
                },
            )
            .await?;
        }
        tx.commit("saving the rules").await?;
        Ok(())
    }

    /// Sets the postal address of `school`, a school of `league` (issue 32), or clears it
    /// (`None`); the history keeps the one before. The same address again writes nothing.
    pub async fn set_school_address(
        &self,
        league: LeagueId,
        school: SchoolId,
        address: Option<&PostalAddress>,
        by: &Actor,
    ) -> Result<School, StoreError> {
        let mut tx = self.write(by).await?;
        let row = sqlx::query("SELECT id, name, address FROM schools WHERE id = $1 AND league_id = $2")
            .bind(school.0)
            .bind(league.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a school"))?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!(
                "the league has no school with id {school}; its schools are listed on the season set-up page"
            )));
        };
        let before = school_from_row(&row)?;
        if before.address.as_ref() == address {
            return Ok(before);
        }
        sqlx::query("UPDATE schools SET address = $1 WHERE id = $2")
            .bind(address.map(PostalAddress::as_str))
            .bind(school.0)
            .execute(&mut **tx)
            .await
            .map_err(db("setting a school's address"))?;
        let after = School { address: address.cloned(), ..before.clone() };
        tx.history(Change {
                before: Some(json::school(&before)),
                after: Some(json::school(&after)),
                league: Some(league.0),
                ..Change::of(Entity::School, school.to_string(), HistoryAction::SetSchoolAddress)
            },
        )
        .await?;
        mark_changed(&mut tx, Touched::School(school.0)).await?;
        tx.commit("saving the school's address").await?;
        Ok(after)
    }

    /// A season's closures, withdrawn ones too, by first day (GT-M2).
    pub async fn closures(&self, season: SeasonId) -> Result<Vec<SeasonClosure>, StoreError> {
        let sql = closure_sql("season_id = $1 ORDER BY starts_on, id");
        let rows = sqlx::query(&sql)
            .bind(season.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the closures"))?;
        rows.iter().map(closure_from_row).collect()
    }

    /// Closes the season's schools from `new.starts_on` to `new.ends_on` (GT-M2): the schedule
    /// is not placed on those days and no match moves onto one.
    pub async fn add_closure(
        &self,
        season: SeasonId,
        new: &NewClosure,
        by: &Actor,
    ) -> Result<SeasonClosure, StoreError> {
        let reason = new.reason.trim();
        check::name("closure", reason)?;
        // GT-M2's calendar: core says what a closure may be.
        arbiter_core::record::calendar::Closure::new(new.starts_on, new.ends_on, reason)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let mut tx = self.write(by).await?;
        let league = league_of_season(&mut tx, season).await?;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO season_closures (season_id, starts_on, ends_on, reason, created_at) \
             VALUES ($1, {}, {}, $4, {}) RETURNING id",
            date_in("$2"),
            date_in("$3"),
            ts_in("$5")
        );
        let row = sqlx::query(&sql)
            .bind(season.0)
            .bind(new.starts_on.to_string())
            .bind(new.ends_on.to_string())
            .bind(reason)
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a closure"))?;
        let closure = SeasonClosure {
            id: get(&row, "id")?,
            season,
            starts_on: new.starts_on,
            ends_on: new.ends_on,
            reason: reason.to_string(),
            withdrawn: false,
        };
        tx.history(Change {
                after: Some(json::closure(&closure)),
                league: Some(league),
                ..Change::of(Entity::Closure, closure.id.to_string(), HistoryAction::Create)
            },
        )
        .await?;
        tx.commit("saving the closure").await?;
        Ok(closure)
    }

    /// Withdraws closure `id` of `season`, added by mistake: the schools are open those days
    /// again. The row stays; the history says who and why.
    pub async fn withdraw_closure(
        &self,
        season: SeasonId,
        id: i64,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = check::reason(Some(reason))?
            .ok_or_else(|| StoreError::Invalid("withdrawing a closure needs its reason".into()))?;
        let mut tx = self.write(by).await?;
        let league = league_of_season(&mut tx, season).await?;
        let sql = closure_sql("id = $1 AND season_id = $2");
        let found = sqlx::query(&sql)
            .bind(id)
            .bind(season.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a closure"))?;
        let Some(row) = found else {
            return Err(StoreError::NotFound(format!(
                "the season has no closure with id {id}"
            )));
        };
        let closure = closure_from_row(&row)?;
        if closure.withdrawn {
            return Err(StoreError::Conflict(format!(
                "the closure “{}” was already withdrawn",
                closure.reason
            )));
        }
        let at = tx.at;
        let sql = format!("UPDATE season_closures SET withdrawn_at = {} WHERE id = $2", ts_in("$1"));
        sqlx::query(&sql)
            .bind(at.to_string())
            .bind(id)
            .execute(&mut **tx)
            .await
            .map_err(db("withdrawing a closure"))?;
        tx.history(Change {
                before: Some(json::closure(&closure)),
                reason: Some(reason.as_str()),
                league: Some(league),
                ..Change::of(Entity::Closure, id.to_string(), HistoryAction::Withdraw)
            },
        )
        .await?;
        tx.commit("saving the withdrawal").await?;
        Ok(())
    }

    /// A league's seasons: dated ones by start date, then undated ones, each in creation order.
    pub async fn seasons(&self, league: LeagueId) -> Result<Vec<Season>, StoreError> {
        let sql = season_sql(&format!("league_id = $1 ORDER BY {SEASON_ORDER}"));
        let rows = sqlx::query(&sql)
            .bind(league.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the seasons"))?;
        rows.iter().map(season_from_row).collect()
    }

    /// Every season of every league, by league and then as [`Backend::seasons`] orders them;
    /// with [`Backend::every_competition`], the site's tree in two queries (issue 35).
    pub async fn every_season(&self) -> Result<Vec<Season>, StoreError> {
        let sql = season_sql(&format!("TRUE ORDER BY league_id, {SEASON_ORDER}"));
        let rows = sqlx::query(&sql)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the seasons"))?;
        rows.iter().map(season_from_row).collect()
    }

    /// How many competitions each season has, by the rules they play (issue 35: the home page
    /// counts a federation's divisions, it does not read them).
    pub async fn competitions_by_rules(&self) -> Result<Vec<(SeasonId, RulesRef, u32)>, StoreError> {
        let rows = sqlx::query(
            "SELECT season_id, rules_preset, rules_toml, COUNT(*) AS n FROM competitions \
             GROUP BY season_id, rules_preset, rules_toml ORDER BY season_id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db("counting the competitions"))?;
        rows.iter()
            .map(|row| {
                Ok((
                    SeasonId(get(row, "season_id")?),
                    rules_from_row(row)?,
                    to_u32(get(row, "n")?, "competitions")?,
                ))
            })
            .collect()
    }

    /// The competitions of `seasons` and those with the ids `ids`, by season and id.
    pub async fn competitions_among(
        &self,
        seasons: &[SeasonId],
        ids: &[CompetitionId],
    ) -> Result<Vec<CompetitionRecord>, StoreError> {
        let sql = format!(
            "SELECT {COMPETITION_COLUMNS} FROM competitions WHERE season_id IN ({}) OR id IN ({}) \
             ORDER BY season_id, id",
            id_list(seasons.iter().map(|s| s.0)),
            id_list(ids.iter().map(|c| c.0))
        );
        let rows = sqlx::query(&sql)
            .persistent(false)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the competitions"))?;
        rows.iter().map(record_from_row).collect()
    }

    /// Every competition of every league, by season and id.
    pub async fn every_competition(&self) -> Result<Vec<CompetitionRecord>, StoreError> {
        let sql =
            format!("SELECT {COMPETITION_COLUMNS} FROM competitions ORDER BY season_id, id");
        let rows = sqlx::query(&sql)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the competitions"))?;
        rows.iter().map(record_from_row).collect()
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
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let record = insert_competition(&mut tx, season, new, competition, by, at).await?;
        tx.commit("saving the competition").await?;
        Ok(record)
    }

    /// Stores a whole competition as `import_competition` does, in a league and a
    /// season found or created in the same transaction: when anything is refused, nothing of
    /// it (no league, no season) is written.
    pub async fn import_competition_into(
        &self,
        place: &ImportPlace,
        new: &NewCompetition,
        competition: &Competition,
        by: &Actor,
    ) -> Result<Imported, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let found = sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE slug = $1")
            .bind(&place.league.slug)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a league"))?;
        let (league, created_league) = match found {
            Some(row) => (league_from_row(&row)?, None),
            None => {
                let l = insert_league(&mut tx, &place.league, by, at).await?;
                (l.clone(), Some(l))
            }
        };
        let sql = season_sql(&format!("league_id = $1 ORDER BY {SEASON_ORDER}"));
        let seasons = sqlx::query(&sql)
            .bind(league.id.0)
            .fetch_all(&mut **tx)
            .await
            .map_err(db("reading the seasons"))?
            .iter()
            .map(season_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let existing = match &place.season {
            SeasonChoice::Named(s) => seasons.iter().find(|x| x.slug == s.slug),
            SeasonChoice::LatestOr(_) => seasons.last(),
        };
        let (season, created_season) = match existing {
            Some(s) => (s.clone(), None),
            None => {
                let (SeasonChoice::Named(s) | SeasonChoice::LatestOr(s)) = &place.season;
                let s = insert_season(&mut tx, league.id, s, by, at).await?;
                (s.clone(), Some(s))
            }
        };
        let record = insert_competition(&mut tx, season.id, new, competition, by, at).await?;
        tx.commit("saving the competition").await?;
        Ok(Imported {
            league,
            created_league,
            season,
            created_season,
            competition: record,
        })
    }

    /// A season's competitions, in the order they were stored.
    pub async fn competitions(
        &self,
        season: SeasonId,
    ) -> Result<Vec<CompetitionRecord>, StoreError> {
        let sql = format!(
            "SELECT {COMPETITION_COLUMNS} FROM competitions WHERE season_id = $1 ORDER BY id"
        );
        let rows = sqlx::query(&sql)
            .bind(season.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the competitions"))?;
        rows.iter().map(record_from_row).collect()
    }

    /// The competition `competition_slug` of the league `league_slug`, with the latest result
    /// versions, read from one snapshot.
    pub async fn load_competition(
        &self,
        league_slug: &str,
        competition_slug: &str,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let row = sqlx::query(
            "SELECT c.id FROM competitions c JOIN leagues l ON l.id = c.league_id \
             WHERE l.slug = $1 AND c.slug = $2",
        )
        .bind(league_slug)
        .bind(competition_slug)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db("looking up a competition"))?;
        let loaded = match row {
            Some(row) => load_in(&mut tx, get(&row, "id")?).await?,
            None => None,
        };
        tx.commit().await.map_err(db("reading a competition"))?;
        Ok(loaded)
    }

    /// A competition, loaded as `load_competition` does, by its row id.
    pub async fn load_competition_by_id(
        &self,
        id: CompetitionId,
    ) -> Result<Option<StoredCompetition>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let loaded = load_in(&mut tx, id.0).await?;
        tx.commit().await.map_err(db("reading a competition"))?;
        Ok(loaded)
    }

    /// Adds the next version of a match's result, if the match is still as `seen`; the earlier
    /// versions stay readable.
    pub async fn record_result(
        &self,
        m: MatchId,
        seen: ReportSeen,
        outcome: &MatchOutcome,
        on: (ResultBasis, Option<&LateArrival>),
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultVersion, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let written =
            record_result_in(&mut tx, m, seen, outcome, on, (by, at), reason).await?;
        tx.commit("saving the result").await?;
        Ok(written)
    }

    /// Several matches' results in one transaction (an arbiter's round): all stored, or none,
    /// the error naming which write (by its index in `writes`) refused.
    pub async fn record_results(
        &self,
        writes: &[crate::records::ResultWrite<'_>],
    ) -> Result<Vec<ResultVersion>, (usize, StoreError)> {
        let mut tx = begin_write(self.writer()).await.map_err(|e| (0, e))?;
        bump(&mut tx).await.map_err(|e| (0, e))?;
        let mut out = Vec::with_capacity(writes.len());
        let at = self.now();
        for (i, w) in writes.iter().enumerate() {
            let written = record_result_in(
                &mut tx,
                w.match_id,
                w.seen,
                w.outcome,
                (w.basis, w.late),
                (w.by, at),
                w.reason,
            )
            .await
            .map_err(|e| (i, e))?;
            out.push(written);
        }
        tx.commit()
            .await
            .map_err(|e| (0, db("saving the round's results")(e)))?;
        Ok(out)
    }
 
    /// GT-P3: records an extra game with match `m` (a challenge game, GT-R5, or an unranked one,
    /// GT-R7), after the `seen` ones the writer read (else [`StoreError::Stale`]: core's
    /// `extra::read` checked it against those), with who entered it. In the history.
    pub async fn record_extra_game(
        &self,
        m: MatchId,
        game: &ExtraGame,
        seen: usize,
        by: &Actor,
    ) -> Result<u32, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let Some(place) = match_place(&mut tx, m).await? else {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}; reload the schedule and record the game on the match shown there"
            )));
        };
        if extra_game_count(&mut tx, m).await? != seen {
            return Err(StoreError::Stale(
                "another extra game was recorded with this match after you read it; reload the match and enter the game again if it is still missing".into(),
            ));
        }
        let players = player_rows(&mut tx, place.competition).await?;
        let position = insert_extra_game(&mut tx, m.0, game, &players, by, at).await?;
        bump_competition(&mut tx, place.competition).await?;
        tx.history(Change {
                after: Some(serde_json::json!({
                    "round": place.round, "home": place.home.0, "away": place.away.0,
                    "extra_game": position, "white": game.white.0, "black": game.black.0,
                    "result": game.result.code(), "kind": game.kind.code(),
                })),
                ..Change::on_match(&place, m, HistoryAction::RecordExtraGame)
            },
        )
        .await?;
        tx.commit("saving the extra game").await?;
        to_u32(position, "extra game's place")
    }

    /// GT-P3: a step on extra game `position` (from 1) of match `m`, which core's
    /// `extra::may_confirm` or `extra::may_strike` has allowed: kept beside the game, never a
    /// change, and in the history with its reason.
    pub async fn record_extra_game_step(
        &self,
        m: MatchId,
        position: u32,
        step: &ExtraStep,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let Some(place) = match_place(&mut tx, m).await? else {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}; reload the schedule and find the game on the match shown there"
            )));
        };
        let row = sqlx::query("SELECT id FROM extra_games WHERE match_id = $1 AND position = $2")
            .bind(m.0)
            .bind(i64::from(position))
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading an extra game"))?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!(
                "this match has no extra game {position}; reload the match and choose one of the games it lists"
            )));
        };
        insert_extra_event(&mut tx, get(&row, "id")?, ExtraRow::Step(step), by, at).await?;
        bump_competition(&mut tx, place.competition).await?;
        let (action, reason) = match step {
            ExtraStep::Confirmed => (HistoryAction::ConfirmExtraGame, None),
            ExtraStep::Struck { reason } => (HistoryAction::StrikeExtraGame, Some(reason.as_str())),
        };
        tx.history(Change {
                after: Some(serde_json::json!({
                    "round": place.round, "home": place.home.0, "away": place.away.0,
                    "extra_game": position,
                })),
                reason,
                ..Change::on_match(&place, m, action)
            },
        )
        .await?;
        tx.commit("saving the step on the extra game").await
    }

    /// GT-M20: keeps `pgn` (core's `game::read` has checked it) as board `board`'s game score of
    /// match `m`, superseding any before it; in the history. Says which upload it is.
    pub async fn record_game_score(
        &self,
        m: MatchId,
        board: u32,
        pgn: &str,
        by: &Actor,
    ) -> Result<u32, StoreError> {
        let mut tx = self.write(by).await?;
        let Some(place) = match_place(&mut tx, m).await? else {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}; reload the schedule and upload the game on the match shown there"
            )));
        };
        let row = sqlx::query(
            "INSERT INTO game_scores (match_id, board, upload, pgn) VALUES ($1, $2, \
             (SELECT COALESCE(MAX(upload), 0) + 1 FROM game_scores WHERE match_id = $1 AND board = $2), \
             $3) RETURNING upload",
        )
        .bind(m.0)
        .bind(i64::from(board))
        .bind(pgn)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing a game score"))?;
        let upload: i64 = get(&row, "upload")?;
        bump_competition(&mut tx, place.competition).await?;
        tx.history(Change {
                after: Some(serde_json::json!({
                    "round": place.round, "home": place.home.0, "away": place.away.0,
                    "board": board, "upload": upload, "pgn": pgn,
                })),
                ..Change::on_match(&place, m, HistoryAction::UploadGameScore)
            },
        )
        .await?;
        tx.commit("saving the game score").await?;
        to_u32(upload, "game score's upload")
    }

    /// Names `side`'s lineup for match `m`: the next version if the one in force is `seen`.
    pub async fn record_lineup(
        &self,
        m: MatchId,
        side: Side,
        seen: u32,
        lineup: &Lineup,
        late: Option<&LateLineup>,
        by: &Actor,
    ) -> Result<LineupVersion, StoreError> {
        let mut tx = self.write(by).await?;
        let Some(place) = match_place(&mut tx, m).await? else {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}; reload the schedule and name the lineup on the match shown there"
            )));
        };
        let label = check::match_label(place.round, &place.home, &place.away);
        if latest_version_of(&mut tx, m)
            .await?
            .last()
            .is_some_and(|v| v.outcome != MatchOutcome::Pending)
        {
            return Err(StoreError::Invalid(format!(
                "{label} has a result; the lineup it played is the one its boards record, corrected with the result"
            )));
        }
        let players = player_rows(&mut tx, place.competition).await?;
        let id_of = |p: &PlayerId| {
            players.get(&p.0).copied().ok_or_else(|| {
                StoreError::Invalid(format!(
                    "{label}: no player has the id `{p}`; add them to the roster first"
                ))
            })
        };
        let row = sqlx::query(
            "SELECT COALESCE(MAX(version), 0) AS v FROM lineup_versions WHERE match_id = $1 AND side = $2",
        )
        .bind(m.0)
        .bind(side.code())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading a lineup's versions"))?;
        let now = to_u32(get(&row, "v")?, "lineup version")?;
        if now != seen {
            return Err(StoreError::Stale(format!(
                "{label}: the {} lineup changed after it was read: it was read at version {seen} and is now at version {now}; nothing was saved, so read it again and name it against version {now}",
                side.code()
            )));
        }
        let version = now + 1;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO lineup_versions (match_id, side, version, entered_by, entered_role, entered_at) \
             VALUES ($1, $2, $3, $4, $5, {}) RETURNING id",
            ts_in("$6")
        );
        let row = sqlx::query(&sql)
            .bind(m.0)
            .bind(side.code())
            .bind(i64::from(version))
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a lineup"))?;
        let version_id: i64 = get(&row, "id")?;
        for (board, p) in (1_i64..).zip(&lineup.boards) {
            let player = p.as_ref().map(&id_of).transpose()?;
            sqlx::query(
                "INSERT INTO lineup_boards (lineup_version_id, board, player_id) VALUES ($1, $2, $3)",
            )
            .bind(version_id)
            .bind(board)
            .bind(player)
            .execute(&mut **tx)
            .await
            .map_err(db("storing a lineup's board"))?;
        }
        for p in &lineup.withdrawn {
            sqlx::query(
                "INSERT INTO lineup_withdrawals (lineup_version_id, player_id) VALUES ($1, $2)",
            )
            .bind(version_id)
            .bind(id_of(p)?)
            .execute(&mut **tx)
            .await
            .map_err(db("storing a lineup's withdrawal"))?;
        }
        if let Some(l) = late {
            sqlx::query(
                "INSERT INTO late_lineups (lineup_version_id, named_at, minutes_late, accepted_by, reason) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(version_id)
            .bind(l.named_at.strftime("%Y-%m-%dT%H:%M:%S").to_string())
            .bind(i64::from(l.minutes_late))
            .bind(l.accepted_by.as_str())
            .bind(l.reason.as_str())
            .execute(&mut **tx)
            .await
            .map_err(db("storing a late lineup's acceptance"))?;
        }
        bump_competition(&mut tx, place.competition).await?;
        let (team, other) = match side {
            Side::Home => (&place.home, &place.away),
            Side::Away => (&place.away, &place.home),
        };
        let mut after = json::lineup(i64::from(version), place.round, &place.home, &place.away, side, lineup);
        if let (Some(l), Some(o)) = (late, after.as_object_mut()) {
            o.insert(
                "late".into(),
                serde_json::json!({
                    "named_at": l.named_at.to_string(),
                    "minutes_late": l.minutes_late,
                    "accepted_by": l.accepted_by,
                }),
            );
        }
        tx.history(Change {
                league: Some(place.league),
                competition: Some(place.competition),
                match_id: Some(m.0),
                team: Some(&team.0),
                other_team: Some(&other.0),
                after: Some(after),
                reason: late.map(|l| l.reason.as_str()),
                ..Change::of(Entity::Match, m.to_string(), HistoryAction::NameLineup)
            },
        )
        .await?;
        tx.commit("saving the lineup").await?;
        Ok(LineupVersion {
            match_id: m,
            version,
            entered_by: by.user.clone(),
            entered_role: by.role,
            entered_at: at,
            named: NamedLineup {
                round: place.round,
                home: place.home,
                side,
                lineup: lineup.clone(),
            },
            late: late.cloned(),
        })
    }

    /// Adds `players` at the end of their teams' rosters, all or none, each a change in the
    /// history with the reason.
    pub async fn add_players(
        &self,
        competition: CompetitionId,
        players: &[(TeamId, Player)],
        reason: Option<&str>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = check::reason(reason)?;
        let reason = reason.as_ref().map(Reason::as_str);
        for (team, p) in players {
            let of = format!("player {} of team {team}", p.id);
            check::text(TextKind::Name, &format!("the name of {of}"), &p.name)?;
            if let Some(school) = &p.school {
                check::text(TextKind::Name, &format!("the school of {of}"), school)?;
            }
        }
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        for (team, p) in players {
            let row = sqlx::query(
                "SELECT t.id, COALESCE(MAX(e.position), 0) AS last FROM teams t \
                 LEFT JOIN roster_entries e ON e.team_id = t.id \
                 WHERE t.competition_id = $1 AND t.team_key = $2 GROUP BY t.id",
            )
            .bind(competition.0)
            .bind(&team.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a team"))?;
            let Some(row) = row else {
                return Err(StoreError::Invalid(format!(
                    "the team `{team}` is not in the competition"
                )));
            };
            let team_id: i64 = get(&row, "id")?;
            let last: i64 = get(&row, "last")?;
            // Core's plan refused a name already on the roster as read; one here now came in
            // since (the same player sent twice at once).
            let same_name = sqlx::query(
                "SELECT 1 AS found FROM roster_entries e JOIN players p ON p.id = e.player_id \
                 WHERE e.team_id = $1 AND LOWER(TRIM(p.name)) = LOWER(TRIM($2))",
            )
            .bind(team_id)
            .bind(&p.name)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a team's roster"))?;
            if same_name.is_some() {
                return Err(StoreError::Stale(format!(
                    "{} was added to the roster of `{team}` by another writer meanwhile; nothing was saved: read the roster again",
                    p.name.trim()
                )));
            }
            let person = person_of(&mut tx, competition.0, p).await?;
            let inserted = insert_player(&mut tx, competition.0, person, p)
                .await
                .map_err(|e| match &e {
                    // The id was free when the roster was read: another writer added a player
                    // to the team since, so the plan (ids, names, AS-9's size) is out of date.
                    sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale(
                        format!(
                            "another player was added to the roster as {} was, and took the id `{}`; nothing was saved: read the roster again and add the player again",
                            p.name, p.id
                        ),
                    ),
                    _ => db("storing a player")(e),
                })?;
            let player_id: i64 = get(&inserted, "id")?;
            sqlx::query(
                "INSERT INTO roster_entries (team_id, position, player_id) VALUES ($1, $2, $3)",
            )
            .bind(team_id)
            .bind(last + 1)
            .bind(player_id)
            .execute(&mut **tx)
            .await
            .map_err(db("storing a roster entry"))?;
            let key = person_key(&mut tx, person).await?;
            tx.history(Change {
                    after: Some(serde_json::json!({
                        "team": team.0, "id": p.id.0, "name": p.name, "rating": p.rating,
                        "provisional": p.provisional, "unranked": p.unranked,
                        "birth_date": p.record.birth_date.map(|d| d.to_string()),
                        "school": p.school, "person": key,
                    })),
                    reason,
                    league: Some(league),
                    competition: Some(competition.0),
                    team: Some(&team.0),
                    ..Change::of(Entity::Team, team.0.clone(), HistoryAction::AddPlayer)
                },
            )
            .await?;
        }
        bump_competition(&mut tx, competition.0).await?;
        tx.commit("saving the roster").await?;
        Ok(())
    }

    /// Changes player `player`'s roster entry in `competition` (issue 12): a name or rating
    /// corrected, or a withdrawal from a day. The games they played are never touched; the
    /// history keeps the entry before and after, and why.
    pub async fn change_player(
        &self,
        competition: CompetitionId,
        player: &PlayerId,
        after: &PlayerChange,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = check::reason(Some(reason))?.ok_or_else(|| {
            StoreError::Invalid("a change to a roster needs its reason".into())
        })?;
        check::name("player", after.name.trim())?;
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let sql = format!(
            "SELECT p.id, p.name, p.rating, p.provisional, {} AS withdrawn_on, t.team_key \
             FROM players p JOIN roster_entries e ON e.player_id = p.id \
             JOIN teams t ON t.id = e.team_id \
             WHERE p.competition_id = $1 AND p.player_key = $2",
            date_out("p.withdrawn_on")
        );
        let Some(row) = sqlx::query(&sql)
            .bind(competition.0)
            .bind(&player.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a player"))?
        else {
            return Err(StoreError::NotFound(format!(
                "the competition has no player with the id `{player}`"
            )));
        };
        let row_id: i64 = get(&row, "id")?;
        let team: String = get(&row, "team_key")?;
        let was_withdrawn = codes::parse_date(get(&row, "withdrawn_on")?)?;
        let rating: Option<i64> = get(&row, "rating")?;
        let before = serde_json::json!({
            "team": team, "id": player.0, "name": get::<String>(&row, "name")?,
            "rating": rating, "provisional": get::<bool>(&row, "provisional")?,
            "withdrawn": was_withdrawn.map(|d| d.to_string()),
        });
        let sql = format!(
            "UPDATE players SET name = $1, rating = $2, provisional = $3, withdrawn_on = {} \
             WHERE id = $5",
            date_in("$4")
        );
        sqlx::query(&sql)
            .bind(after.name.trim())
            .bind(after.rating.map(i64::from))
            .bind(after.provisional)
            .bind(after.withdrawn.map(|d| d.to_string()))
            .bind(row_id)
            .execute(&mut **tx)
            .await
            .map_err(db("changing a player"))?;
        bump_competition(&mut tx, competition.0).await?;
        let action = if was_withdrawn.is_none() && after.withdrawn.is_some() {
            HistoryAction::WithdrawPlayer
        } else {
            HistoryAction::EditPlayer
        };
        tx.history(Change {
                before: Some(before),
                after: Some(serde_json::json!({
                    "team": team, "id": player.0, "name": after.name.trim(),
                    "rating": after.rating, "provisional": after.provisional,
                    "withdrawn": after.withdrawn.map(|d| d.to_string()),
                })),
                reason: Some(reason.as_str()),
                league: Some(league),
                competition: Some(competition.0),
                team: Some(&team),
                ..Change::of(Entity::Team, team.clone(), action)
            },
        )
        .await?;
        tx.commit("saving the change to the roster").await?;
        Ok(())
    }

    /// Makes player `player` of `competition` the league's person `to` (one player, one person:
    /// an officer's link of two entries that are one person), or with `None` a person of their
    /// own again. Nothing is written, as [`StoreError::Stale`], when a competition of `seen` is
    /// no longer at the version read (core judged AS-3 on what was read); refused when `to` is
    /// no person of the league, or another entry of the competition is `to` already. The
    /// history keeps the person before and after, and why. Returns the person it is now.
    pub async fn link_person(
        &self,
        competition: CompetitionId,
        player: &PlayerId,
        to: Option<&PersonId>,
        seen: &[(CompetitionId, i64)],
        reason: &str,
        by: &Actor,
    ) -> Result<PersonId, StoreError> {
        let reason = check::reason(Some(reason))?.ok_or_else(|| {
            StoreError::Invalid(
                "a link of two roster entries as one person needs its reason, kept in the history"
                    .into(),
            )
        })?;
        let mut tx = self.write(by).await?;
        unchanged_since(&mut tx, seen).await?;
        let league = league_of(&mut tx, competition).await?;
        let row = sqlx::query(
            "SELECT p.id, p.person_id, t.team_key, c.slug FROM players p \
             JOIN roster_entries e ON e.player_id = p.id JOIN teams t ON t.id = e.team_id \
             JOIN competitions c ON c.id = p.competition_id \
             WHERE p.competition_id = $1 AND p.player_key = $2",
        )
        .bind(competition.0)
        .bind(&player.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a player"))?
        .ok_or_else(|| {
            StoreError::NotFound(format!("the competition has no player with the id `{player}`"))
        })?;
        let row_id: i64 = get(&row, "id")?;
        let team: String = get(&row, "team_key")?;
        let before: Option<i64> = get(&row, "person_id")?;
        let person = match to {
            Some(key) => {
                let Some(id) = person_id(&mut tx, league, &key.0).await? else {
                    return Err(StoreError::NotFound(format!(
                        "the league has no person `{key}`; link the player to a player of another competition of the league"
                    )));
                };
                once_in(&mut tx, competition.0, id, &key.0, player).await?;
                id
            }
            None => {
                let slug: String = get(&row, "slug")?;
                new_person(&mut tx, league, &format!("{slug}/{player}")).await?
            }
        };
        sqlx::query("UPDATE players SET person_id = $1 WHERE id = $2")
            .bind(person)
            .bind(row_id)
            .execute(&mut **tx)
            .await
            .map_err(db("linking a player to a person"))?;
        bump_competition(&mut tx, competition.0).await?;
        let before = match before {
            Some(id) => Some(person_key(&mut tx, id).await?),
            None => None,
        };
        let after = person_key(&mut tx, person).await?;
        tx.history(Change {
                before: Some(serde_json::json!({ "team": team, "id": player.0, "person": before })),
                after: Some(serde_json::json!({ "team": team, "id": player.0, "person": after })),
                reason: Some(reason.as_str()),
                league: Some(league),
                competition: Some(competition.0),
                team: Some(&team),
                ..Change::of(Entity::Team, team.clone(), HistoryAction::LinkPerson)
            },
        )
        .await?;
        tx.commit("saving the link").await?;
        Ok(PersonId(after))
    }

    /// Moves match `m` to `to` (GT-M2), with the reason; the history keeps the day before.
    pub async fn move_match(
        &self,
        m: MatchId,
        to: jiff::civil::Date,
        start: Option<jiff::civil::Time>,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let moves = [MatchMove { id: m, to, start }];
        self.move_matches(&moves, &[], None, reason, by).await
    }

    /// Moves every match of `moves` in one transaction (GT-F5's suspension, or one GT-M2 move),
    /// each a change in the history with the day before and the reason; nothing moves unless
    /// each competition of `seen` is still at the version the writer read.
    pub async fn move_matches(
        &self,
        moves: &[MatchMove],
        seen: &[(CompetitionId, i64)],
        season_ends: Option<(SeasonId, jiff::civil::Date)>,
        reason: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = check::reason(Some(reason))?
            .ok_or_else(|| StoreError::Invalid("a move needs its reason (GT-M2)".into()))?;
        let mut tx = self.write(by).await?;
        for &(competition, version) in seen {
            let row = sqlx::query("SELECT name, version FROM competitions WHERE id = $1")
                .bind(competition.0)
                .fetch_optional(&mut **tx)
                .await
                .map_err(db("reading a competition's version"))?;
            let Some(row) = row else {
                return Err(StoreError::NotFound(format!(
                    "there is no competition with id {}",
                    competition.0
                )));
            };
            let now: i64 = get(&row, "version")?;
            if now != version {
                let name: String = get(&row, "name")?;
                return Err(StoreError::Stale(format!(
                    "{name} changed after its schedule was read (a result, a move or a lineup came in), so no match was moved; read it again"
                )));
            }
        }
        let at = tx.at;
        for mv in moves {
            move_in(&mut tx, mv, reason.as_str(), at, by).await?;
        }
        if let Some((season, last)) = season_ends {
            extend_season(&mut tx, season, last, reason.as_str(), at, by).await?;
        }
        tx.commit("saving the move").await?;
        Ok(())
    }

    /// Records an officer's ruling that the result carrying violation `key` stands.
    pub async fn record_ruling(
        &self,
        competition: CompetitionId,
        key: &str,
        message: &str,
        reason: &str,
        by: &Actor,
    ) -> Result<Ruling, StoreError> {
        let reason = check::reason(Some(reason))?
            .ok_or_else(|| StoreError::Invalid("a ruling needs its reason".into()))?;
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO violation_rulings (competition_id, finding_key, message, reason, ruled_by, \
             ruled_role, ruled_at) VALUES ($1, $2, $3, $4, $5, $6, {})",
            ts_in("$7")
        );
        sqlx::query(&sql)
            .bind(competition.0)
            .bind(key)
            .bind(message)
            .bind(reason.as_str())
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .execute(&mut **tx)
            .await
            .map_err(|e| match &e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale(
                    "this violation has been ruled on already; read the page again".into(),
                ),
                _ => db("storing a ruling")(e),
            })?;
        bump_competition(&mut tx, competition.0).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                after: Some(serde_json::json!({"finding": key, "message": message, "ruling": "the result stands"})),
                reason: Some(reason.as_str()),
                ..Change::of(Entity::Competition, competition.to_string(), HistoryAction::RuleOnViolation)
            },
        )
        .await?;
        tx.commit("saving the ruling").await?;
        Ok(Ruling {
            key: key.to_string(),
            message: message.to_string(),
            reason: reason.as_str().to_string(),
            by: by.user.clone(),
            role: by.role,
            at,
        })
    }

    /// The version of a match's result in force, without those before it.
    pub async fn result_version_in_force(&self, m: MatchId) -> Result<ResultVersion, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let latest = latest_version_of(&mut tx, m).await?.pop();
        tx.commit().await.map_err(db("reading a match's result"))?;
        latest.ok_or_else(|| {
            StoreError::NotFound(format!(
                "there is no match with id {m}, so it has no results"
            ))
        })
    }

    /// Every version of a match's result, oldest first.
    pub async fn result_versions(&self, m: MatchId) -> Result<Vec<ResultVersion>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let versions = versions_of(&mut tx, m).await?;
        tx.commit().await.map_err(db("reading a match's results"))?;
        if versions.is_empty() {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}, so it has no results"
            )));
        }
        Ok(versions)
    }

    /// History rows that match every field of the filter, newest first.
    pub async fn history(&self, filter: &HistoryFilter) -> Result<Vec<HistoryEntry>, StoreError> {
        enum Arg<'a> {
            Int(i64),
            Text(&'a str),
            Owned(String),
        }
        let mut clauses = Vec::new();
        let mut args = Vec::new();
        fn next<'a>(arg: Arg<'a>, args: &mut Vec<Arg<'a>>) -> String {
            args.push(arg);
            format!("${}", args.len())
        }
        if let Some(l) = filter.league {
            let p = next(Arg::Int(l.0), &mut args);
            clauses.push(format!("league_id = {p}"));
        }
        if let Some(c) = filter.competition {
            let p = next(Arg::Int(c.0), &mut args);
            clauses.push(format!("competition_id = {p}"));
        }
        if let Some(m) = filter.match_id {
            let p = next(Arg::Int(m.0), &mut args);
            clauses.push(format!("match_id = {p}"));
        }
        if let Some(s) = filter.season {
            let p = next(Arg::Int(s.0), &mut args);
            clauses.push(format!(
                "competition_id IN (SELECT id FROM competitions WHERE season_id = {p})"
            ));
        }
        if let Some((c, t)) = &filter.team {
            let pc = next(Arg::Int(c.0), &mut args);
            let pt = next(Arg::Text(&t.0), &mut args);
            clauses.push(format!(
                "competition_id = {pc} AND (team_key = {pt} OR other_team_key = {pt})"
            ));
        }
        if let Some(s) = filter.school {
            let p = next(Arg::Int(s.0), &mut args);
            let own = next(Arg::Owned(s.0.to_string()), &mut args);
            clauses.push(format!(
                "((entity = 'school' AND entity_id = {own}) \
                 OR EXISTS (SELECT 1 FROM teams t WHERE t.school_id = {p} \
                 AND t.competition_id = history.competition_id \
                 AND t.team_key IN (history.team_key, history.other_team_key)))"
            ));
        }
        if let Some(a) = &filter.actor {
            let p = next(Arg::Text(a), &mut args);
            clauses.push(format!("actor = {p}"));
        }
        // Whole seconds with nine zeros of fraction: text comparison in SQLite then orders a
        // stored `…:00Z` and `…:00.5Z` rightly against the bound.
        let bound = |t: jiff::Timestamp| {
            let whole = t.round(jiff::Unit::Second).unwrap_or(t).to_string();
            whole.replace('Z', ".000000000Z")
        };
        if let Some(f) = filter.from {
            let p = next(Arg::Owned(bound(f)), &mut args);
            clauses.push(format!("at >= {}", ts_in(&p)));
        }
        if let Some(u) = filter.until {
            let p = next(Arg::Owned(bound(u)), &mut args);
            clauses.push(format!("at < {}", ts_in(&p)));
        }
        if let Some(b) = filter.before {
            let p = next(Arg::Int(b), &mut args);
            clauses.push(format!("id < {p}"));
        }
        for e in &filter.hidden {
            let p = next(Arg::Text(e.code()), &mut args);
            clauses.push(format!("entity <> {p}"));
        }
        if !filter.only.is_empty() {
            let mut any = Vec::new();
            for e in &filter.only {
                any.push(next(Arg::Text(e.code()), &mut args));
            }
            clauses.push(format!("entity IN ({})", any.join(", ")));
        }
        let mut inner = String::from("SELECT * FROM history");
        if !clauses.is_empty() {
            inner.push_str(" WHERE ");
            inner.push_str(&clauses.join(" AND "));
        }
        inner.push_str(" ORDER BY id DESC");
        if let Some(limit) = filter.limit {
            inner.push_str(&format!(" LIMIT {limit}"));
        }
        // The rows chosen first, then the names a reader knows them by: the competition, and
        // the round and teams of a match.
        let sql = format!(
            "SELECT h.id, {} AS at, h.actor, h.role, h.entity, h.entity_id, h.action, \
             {} AS before_json, {} AS after_json, h.reason, h.competition_id, \
             c.name AS competition_name, r.number AS round_number, \
             home.name AS home_name, away.name AS away_name \
             FROM ({inner}) h \
             LEFT JOIN competitions c ON c.id = h.competition_id \
             LEFT JOIN matches m ON m.id = h.match_id \
             LEFT JOIN rounds r ON r.id = m.round_id \
             LEFT JOIN teams home ON home.id = m.home_team_id \
             LEFT JOIN teams away ON away.id = m.away_team_id \
             ORDER BY h.id DESC",
            ts_out("h.at"),
            json_out("h.before_json"),
            json_out("h.after_json"),
        );
        let mut query = sqlx::query(&sql);
        for arg in args {
            query = match arg {
                Arg::Int(i) => query.bind(i),
                Arg::Text(s) => query.bind(s),
                Arg::Owned(s) => query.bind(s),
            };
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the history"))?;
        let parse_json = |s: Option<String>| -> Result<Option<serde_json::Value>, StoreError> {
            s.map(|s| {
                serde_json::from_str(&s)
                    .map_err(|e| corrupt(format!("history JSON that does not parse ({e})")))
            })
            .transpose()
        };
        rows.iter()
            .map(|row| {
                let at: String = get(row, "at")?;
                Ok(HistoryEntry {
                    id: get(row, "id")?,
                    at: codes::parse_timestamp(&at)?,
                    actor: get(row, "actor")?,
                    role: role_in(row, "role")?,
                    entity: code(row, "entity", Entity::from_code)?,
                    entity_id: get(row, "entity_id")?,
                    action: code(row, "action", HistoryAction::from_code)?,
                    before: parse_json(get(row, "before_json")?)?,
                    after: parse_json(get(row, "after_json")?)?,
                    reason: get(row, "reason")?,
                    competition: get::<Option<i64>>(row, "competition_id")?.map(CompetitionId),
                    competition_name: get(row, "competition_name")?,
                    on_match: match (
                        get::<Option<i64>>(row, "round_number")?,
                        get::<Option<String>>(row, "home_name")?,
                        get::<Option<String>>(row, "away_name")?,
                    ) {
                        (Some(round), Some(home), Some(away)) => Some(MatchNames {
                            round: to_u32(round, "round number")?,
                            home,
                            away,
                        }),
                        _ => None,
                    },
                })
            })
            .collect()
    }

    /// Bumped on every write.
    pub async fn data_version(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT data_version FROM store_meta WHERE id = 1")
            .fetch_one(&self.pool)
            .await
            .map_err(db("reading the data version"))?;
        get(&row, "data_version")
    }

    /// The data version now and the competitions whose pages changed after version `since`,
    /// read in one snapshot (issue 35): a server reloads those and keeps every other.
    pub async fn changes_since(&self, since: i64) -> Result<Changes, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let row = sqlx::query("SELECT data_version FROM store_meta WHERE id = 1")
            .fetch_one(&mut *tx)
            .await
            .map_err(db("reading the data version"))?;
        let version = get(&row, "data_version")?;
        let rows = sqlx::query("SELECT id, changed_in FROM competitions WHERE changed_in > $1")
            .bind(since)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading the competitions changed"))?;
        let competitions = rows
            .iter()
            .map(|r| Ok((CompetitionId(get(r, "id")?), get(r, "changed_in")?)))
            .collect::<Result<_, StoreError>>()?;
        Ok(Changes { version, competitions })
    }
}

/// Adds the next version of match `m`'s result inside `tx`, if the match is still as `seen`.
async fn record_result_in(
    tx: &mut Tx,
    m: MatchId,
    seen: ReportSeen,
    outcome: &MatchOutcome,
    (basis, late): (ResultBasis, Option<&LateArrival>),
    (by, at): (&Actor, jiff::Timestamp),
    reason: Option<&str>,
) -> Result<ResultVersion, StoreError> {
    let reason = check::reason(reason)?;
    let reason = reason.as_ref().map(Reason::as_str);
    let Some(place) = match_place(tx, m).await? else {
        return Err(StoreError::NotFound(format!(
            "there is no match with id {m}; reload the schedule and enter the result on the match shown there"
        )));
    };
    let label = check::match_label(place.round, &place.home, &place.away);
    let players = player_rows(tx, place.competition).await?;
    check::outcome_players(&label, outcome, |p| players.contains_key(&p.0))?;
    let mut versions = latest_version_of(tx, m).await?;
    check_seen(tx, m, &label, &versions, seen).await?;
    let previous = versions.pop();
    let version = previous.as_ref().map_or(1, |p| i64::from(p.version) + 1);
    insert_result(tx, m.0, version, outcome, by, at, reason, (basis, late), &players)
        .await?;
    bump_competition(tx, place.competition).await?;
    append_history(
        tx,
        at,
        by,
        Change {
            before: previous.as_ref().map(|p| {
                json::result_version(
                    i64::from(p.version),
                    place.round,
                    &place.home,
                    &place.away,
                    &p.outcome,
                )
            }),
            after: Some({
                let mut after = json::result_version(
                    version,
                    place.round,
                    &place.home,
                    &place.away,
                    outcome,
                );
                if basis != ResultBasis::Entered {
                    after["basis"] = basis.code().into();
                }
                if let Some(l) = late {
                    after["late"] = serde_json::json!({
                        "team": l.team.code(),
                        "school_day_ends": codes::time_text(l.school_day_ends),
                        "clocks_started": l.clocks_started.map(codes::time_text),
                        "arrived": l.arrived.map(codes::time_text),
                        "arranged": l.arranged,
                    });
                }
                after
            }),
            reason,
            ..Change::on_match(&place, m, HistoryAction::RecordResult)
        },
    )
    .await?;
    Ok(ResultVersion {
        match_id: m,
        version: to_u32(version, "result version")?,
        outcome: outcome.clone(),
        entered_by: by.user.clone(),
        entered_role: by.role,
        entered_at: at,
        reason: reason.map(str::to_string),
        basis,
        late: late.copied(),
    })
    }
