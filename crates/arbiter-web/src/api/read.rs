//! The read-only JSON API at `/api/v1`: the same data as the pages, and its OpenAPI document.
//! Errors are `{"error": {"code", "message"}}`: 404 for ids that name nothing, 400 for bad
//! parameters, 503 when the store fails.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use arbiter_core::record::model::{Colour, GameOutcome, Pairing, Side};
use arbiter_core::scoring::standings::CriterionValue;
use arbiter_core::scoring::{self, EntryKind, Exclusion, RoundEntry};

use crate::api::answer::{ApiResult, ErrorAnswer};
use crate::app::address::{
    Addressed, CompetitionAddress, LeagueAddress, PlayerAddress, RoundAddress, SeasonAddress,
    TeamAddress,
};
use crate::app::respond::{self, bad_path};
use crate::app::site::{self, LeagueTree};
use crate::app::state::{AppState, SiteKey};
use crate::app::view::{CompetitionView, MatchFacts, MatchStatus, Page, RatingOrder};
use crate::http::answer::{PAGE_CACHE, content_type, etag, not_modified, ok, unchanged};
use crate::http::error::{Format, WebError};
use crate::public::pages::{describe, kind_word};
use crate::ui::link::{league_href, season_href};
use crate::ui::words::{self, segment};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "Read-only data of chess team competitions run by their rulebook: leagues, seasons, competitions (divisions), standings with every criterion of the ruleset, crosstables, rounds with board results, teams and players. Rule IDs (GT-M5, AS-16) refer to the rulebooks' rules as Arbiter numbers them. Every answer carries an ETag; send it back in If-None-Match for a 304. The parameters' examples name the data of `arbiter demo`."
    ),
    tags(
        (name = "leagues", description = "Leagues and events, their seasons and competitions"),
        (name = "competitions", description = "One competition (a division, a championship)"),
        (name = "meta", description = "This document")
    )
)]
struct ApiDoc;

/// The read routes, registered on the router and in the document by the same call.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(leagues))
        .routes(routes!(league))
        .routes(routes!(competition))
        .routes(routes!(standings))
        .routes(routes!(crosstable))
        .routes(routes!(rounds))
        .routes(routes!(round))
        .routes(routes!(team))
        .routes(routes!(player))
        .routes(routes!(ratings))
        .routes(routes!(season_ratings))
        .routes(routes!(findings))
}

// ---------------------------------------------------------------------------------------------
// The shapes of the answers

#[derive(Debug, Serialize, ToSchema)]
pub struct LeagueList {
    pub leagues: Vec<LeagueJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeagueJson {
    pub slug: String,
    pub name: String,
    /// `league` (a season-long league, GTHSCL) or `event` (a championship over a few days, ASTC).
    pub kind: String,
    pub description: String,
    pub url: String,
    pub api: String,
    pub seasons: Vec<SeasonJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonJson {
    pub slug: String,
    pub name: String,
    /// ISO 8601 date.
    pub starts_on: Option<String>,
    pub ends_on: Option<String>,
    pub url: String,
    pub competitions: Vec<CompetitionRef>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionRef {
    pub slug: String,
    pub name: String,
    pub url: String,
    pub api: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NamedRef {
    pub slug: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TeamRef {
    pub id: String,
    pub name: String,
    pub school: Option<String>,
    pub url: String,
    pub api: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CriterionJson {
    /// As the ruleset writes it: `MP`, `H2H:GP`, `BH:MP/C1`.
    pub code: String,
    /// The rule it applies (`GT-S5`, `AS-16`, `C.07 art. 8.1`).
    pub rule: Option<String>,
    pub description: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RulesJson {
    pub name: String,
    pub boards: u32,
    pub criteria: Vec<CriterionJson>,
    /// Which side has White on odd boards (GT-M18: `away`; AS-19: `home`).
    pub white_on_odd_boards: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionJson {
    pub league: NamedRef,
    pub season: NamedRef,
    pub slug: String,
    pub name: String,
    /// The competition's data version; it changes with every result.
    pub version: i64,
    pub rules: RulesJson,
    pub teams: Vec<TeamRef>,
    pub rounds: Vec<u32>,
    pub url: String,
    pub standings: String,
    pub crosstable: String,
    pub rounds_api: String,
}

/// A criterion's value: a number, a sequence compared element by element (AS-17 board wins),
/// or null when the criterion was never needed for the team.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ValueJson {
    Number(f64),
    Sequence(Vec<f64>),
}

/// The document's type of a standings value: a number, a sequence, or null (a criterion never
/// needed for the team). utoipa cannot put `Option` in a map's value type, so it is written out.
#[derive(Debug)]
pub struct NullableValue;

impl utoipa::PartialSchema for NullableValue {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        let number = || ObjectBuilder::new().schema_type(Type::Number);
        OneOfBuilder::new()
            .item(number())
            .item(ArrayBuilder::new().items(number()))
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .into()
    }
}

impl utoipa::ToSchema for NullableValue {
    fn name() -> std::borrow::Cow<'static, str> {
        "NullableValue".into()
    }
}

/// A criterion code to value object that keeps the ruleset's order of criteria.
#[derive(Debug)]
pub struct CriterionValues(pub Vec<(String, Option<ValueJson>)>);

impl Serialize for CriterionValues {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DroppedJson {
    /// Always `GT-M5`.
    pub rule: String,
    /// The round of the match forfeit that dropped the team.
    pub round: u32,
    pub match_forfeits: u32,
    pub played: u32,
    pub scheduled: u32,
    /// Under half its schedule played: all its matches are excluded from every figure.
    pub all_matches_excluded: bool,
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StandingJson {
    /// 1-based; teams that share a place share the rank of its first position.
    pub rank: usize,
    /// `2`, or `2-3` for a shared place (AS-18).
    pub place: String,
    pub team_id: String,
    pub team: String,
    /// By criterion code, in the ruleset's order; null for a criterion never needed for the
    /// team (one computed among tied teams only).
    #[schema(value_type = BTreeMap<String, NullableValue>)]
    pub values: CriterionValues,
    pub dropped: Option<DroppedJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExplanationJson {
    pub rule: Option<String>,
    pub text: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StandingsJson {
    pub criteria: Vec<CriterionJson>,
    pub rows: Vec<StandingJson>,
    /// For each pair of adjacent rows, what put the upper above the lower (`--explain`).
    pub explanation: Vec<ExplanationJson>,
    /// Set when the ruleset's criteria cannot be applied; `rows` is then empty.
    pub problem: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExclusionJson {
    /// The league's ID for its drop rule (GT-M5 in GTHSCL); null when its ruleset cites none.
    pub rule: Option<String>,
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MeetingJson {
    pub round: u32,
    /// `home` or `away`.
    pub side: String,
    /// On board 1: `white` or `black`.
    pub colour: String,
    /// `played`, `forfeit_win`, `forfeit_loss`, `double_forfeit`, `pending`.
    pub kind: String,
    pub game_points: f64,
    pub opponent_game_points: f64,
    pub match_points: f64,
    pub excluded: Option<ExclusionJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CrossCellJson {
    pub opponent_id: String,
    pub meetings: Vec<MeetingJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CrossRowJson {
    pub team_id: String,
    pub team: String,
    pub place: Option<String>,
    pub match_points: f64,
    pub game_points: f64,
    pub cells: Vec<CrossCellJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CrosstableJson {
    /// In standings order, as the rows.
    pub teams: Vec<TeamRef>,
    pub rows: Vec<CrossRowJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BoardJson {
    pub board: u32,
    pub home_player_id: Option<String>,
    pub home_player: Option<String>,
    pub away_player_id: Option<String>,
    pub away_player: Option<String>,
    /// The home player's colour: `white` or `black`.
    pub home_colour: String,
    /// From the home side: `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`, `*`.
    pub result: String,
    /// GT-P1: the result for ratings, when it differs.
    pub rating_result: Option<String>,
    /// Why the board was not played, when the record says: `absent` (GT-M9), `coach`
    /// (GT-M16), `conduct` (GT-M17), `double_default` (GT-S2), `agreed_draw` (GT-M4).
    pub unplayed: Option<String>,
    /// GT-M17: what happened, for a conduct forfeit.
    pub note: Option<String>,
    /// GT-M20: the day an adjourned game resumes.
    pub adjourned_to: Option<String>,
    /// GT-M20: the position of a game sent for adjudication; the result is `*` until the
    /// President decides, then the decision.
    pub adjudication: Option<AdjudicationJson>,
}

/// GT-M20: a game sent for adjudication.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdjudicationJson {
    /// The moves played, as PGN.
    pub pgn: String,
    /// The position when play stopped, as FEN.
    pub fen: String,
    pub home_clock: Option<String>,
    pub away_clock: Option<String>,
    /// Whether the President has decided it.
    pub decided: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MatchJson {
    pub home_id: String,
    pub home: String,
    pub away_id: String,
    pub away: String,
    /// `pending`, `in_progress`, `played`, `forfeit`, `double_forfeit`, or `forfeit_after_drop`
    /// (GT-M5: a dropped team's match still to come).
    pub status: String,
    /// `home` or `away`, for a forfeit.
    pub forfeited_by: Option<String>,
    /// The rule that scored a forfeit (`GT-M7`, `GT-M5`).
    pub rule: Option<String>,
    pub home_points: f64,
    pub away_points: f64,
    /// `2½–1½`, home first.
    pub score: String,
    pub excluded: Option<ExclusionJson>,
    pub boards: Vec<BoardJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ByeJson {
    pub team_id: String,
    pub team: String,
    /// `pab` (the pairing left the team out), `full`, `half` or `zero` (a requested bye worth a
    /// win, a draw or nothing): as the competition file spells it.
    pub kind: String,
    pub match_points: f64,
    pub game_points: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RoundJson {
    pub number: u32,
    pub date: Option<String>,
    pub matches: Vec<MatchJson>,
    pub byes: Vec<ByeJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RoundsJson {
    pub rounds: Vec<RoundJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RosterJson {
    /// 1-based, the declared order (AS-10).
    pub order: usize,
    pub id: String,
    pub name: String,
    pub rating: Option<u32>,
    /// GT-R3: a provisional 1200N rating.
    pub provisional: bool,
    /// `1200N`, `1450`, or empty.
    pub rating_display: String,
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TeamResultJson {
    pub round: u32,
    pub opponent_id: Option<String>,
    pub opponent: Option<String>,
    pub side: Option<String>,
    pub colour: Option<String>,
    /// `played`, `forfeit_win`, `forfeit_loss`, `double_forfeit`, `bye`, `pending`.
    pub kind: String,
    pub match_points: f64,
    pub game_points: f64,
    pub opponent_game_points: f64,
    /// Whether it counts toward the standings (decided and not excluded).
    pub counts: bool,
    pub excluded: Option<ExclusionJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TeamJson {
    pub id: String,
    pub name: String,
    pub school: Option<String>,
    pub place: Option<String>,
    pub match_points: f64,
    pub game_points: f64,
    pub dropped: Option<DroppedJson>,
    pub roster: Vec<RosterJson>,
    /// AS-12: before an event's rosters lock the roster is empty here, and this says when it
    /// is published.
    pub roster_withheld: Option<String>,
    pub results: Vec<TeamResultJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GameJson {
    pub round: u32,
    pub board: u32,
    pub side: String,
    pub colour: String,
    pub opponent_id: Option<String>,
    pub opponent: Option<String>,
    pub opponent_team_id: String,
    pub opponent_team: String,
    /// The player's result: `win`, `draw`, `loss`, `forfeit_win`, `forfeit_loss`,
    /// `double_forfeit`, `pending`.
    pub result: String,
    pub points: f64,
    pub excluded: Option<ExclusionJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerJson {
    pub id: String,
    pub name: String,
    pub team_id: String,
    pub team: String,
    pub rating: Option<u32>,
    pub provisional: bool,
    pub rating_display: String,
    /// Points over the decided games that count (GT-M5 exclusions aside).
    pub score: f64,
    pub games_decided: usize,
    pub games: Vec<GameJson>,
}

// ---------------------------------------------------------------------------------------------
// Building the answers

fn to_json<T: Serialize>(v: &T) -> Result<Bytes, WebError> {
    serde_json::to_vec(v)
        .map(Bytes::from)
        .map_err(WebError::internal)
}

/// Renders one resource of a competition as JSON.
pub fn competition_json(view: &CompetitionView, page: Page) -> Result<Bytes, WebError> {
    match page {
        Page::Overview => to_json(&overview(view)),
        Page::Standings | Page::Explain | Page::Projector | Page::Bulletin => {
            to_json(&standings_json(view))
        }
        Page::Crosstable => to_json(&crosstable_json(view)),
        Page::Rounds => to_json(&RoundsJson {
            rounds: view
                .rounds()
                .into_iter()
                .map(|r| round_json(view, r))
                .collect(),
        }),
        Page::Round(n) => match view.round(n) {
            Some(r) => to_json(&round_json(view, r)),
            None => Err(WebError::not_found(format!("There is no round {n}."))),
        },
        Page::Team(t, _) => to_json(&team_json(view, t)?),
        Page::Player(t, p) => to_json(&player_json(view, t, p)?),
        Page::Ratings(order) => to_json(&ratings_json(view, order)),
        Page::Findings => to_json(&findings_json(view)),
        Page::Race => crate::season_end::api::race_json(view, page),
    }
}

fn side_word(s: Side) -> String {
    s.code().to_string()
}

fn colour_word(c: Colour) -> String {
    c.code().to_string()
}

fn exclusion(e: &Exclusion) -> ExclusionJson {
    ExclusionJson {
        rule: e.rule.clone(),
        reason: e.reason.clone(),
    }
}

fn criteria(view: &CompetitionView) -> Vec<CriterionJson> {
    view.rules
        .criteria
        .iter()
        .map(|c| CriterionJson {
            code: c.code.clone(),
            rule: c.cited_rule(),
            description: describe(c),
        })
        .collect()
}

fn team_ref(view: &CompetitionView, t: usize) -> TeamRef {
    let team = &view.competition.teams[t];
    TeamRef {
        id: team.id.0.clone(),
        name: team.name.clone(),
        school: team.school.clone(),
        url: view.team_href(t),
        api: format!("{}/teams/{}", view.api_href(), segment(&team.id.0)),
    }
}

fn overview(view: &CompetitionView) -> CompetitionJson {
    let api = view.api_href();
    CompetitionJson {
        league: NamedRef {
            slug: view.league.slug.clone(),
            name: view.league.name.clone(),
        },
        season: NamedRef {
            slug: view.season.slug.clone(),
            name: view.season.name.clone(),
        },
        slug: view.record.slug.clone(),
        name: view.record.name.clone(),
        version: view.version,
        rules: RulesJson {
            name: view.rules.name.clone(),
            boards: view.rules.boards,
            criteria: criteria(view),
            white_on_odd_boards: side_word(view.rules.white_on_odd_boards),
        },
        teams: (0..view.competition.teams.len())
            .map(|t| team_ref(view, t))
            .collect(),
        rounds: view.rounds().iter().map(|r| r.number).collect(),
        url: view.href(),
        standings: format!("{api}/standings"),
        crosstable: format!("{api}/crosstable"),
        rounds_api: format!("{api}/rounds"),
    }
}

fn value(v: &CriterionValue) -> Option<ValueJson> {
    match v {
        CriterionValue::Number(x) => Some(ValueJson::Number(*x)),
        CriterionValue::Sequence(xs) => Some(ValueJson::Sequence(xs.clone())),
        CriterionValue::NotApplied => None,
    }
}

fn dropped(view: &CompetitionView, t: usize) -> Option<DroppedJson> {
    let d = view.sheet.teams.get(t)?.dropped.as_ref()?;
    Some(DroppedJson {
        rule: "GT-M5".into(),
        round: d.round,
        match_forfeits: d.match_forfeits,
        played: d.played,
        scheduled: d.scheduled,
        all_matches_excluded: d.all_matches_excluded,
        reason: crate::public::pages::dropped_sentence(view, t).unwrap_or_default(),
    })
}

fn standings_json(view: &CompetitionView) -> StandingsJson {
    let (rows, problem) = match &view.standings {
        Ok(s) => (
            s.rows
                .iter()
                .map(|r| {
                    let team = &view.competition.teams[r.team];
                    StandingJson {
                        rank: r.rank,
                        place: r.place.clone(),
                        team_id: team.id.0.clone(),
                        team: team.name.clone(),
                        values: CriterionValues(
                            s.criteria
                                .iter()
                                .zip(&r.values)
                                .map(|(c, v)| (c.code.clone(), value(v)))
                                .collect(),
                        ),
                        dropped: if r.dropped {
                            dropped(view, r.team)
                        } else {
                            None
                        },
                    }
                })
                .collect(),
            None,
        ),
        Err(p) => (Vec::new(), Some(p.clone())),
    };
    StandingsJson {
        criteria: criteria(view),
        rows,
        explanation: view
            .explanation
            .iter()
            .map(|e| ExplanationJson {
                rule: e.rule.clone(),
                text: e.sentence.clone(),
            })
            .collect(),
        problem,
    }
}

fn kind_word_entry(k: EntryKind) -> &'static str {
    match k {
        EntryKind::Played => "played",
        EntryKind::ForfeitWin => "forfeit_win",
        EntryKind::ForfeitLoss => "forfeit_loss",
        EntryKind::DoubleForfeit => "double_forfeit",
        EntryKind::Bye(_) => "bye",
        EntryKind::Pending => "pending",
    }
}

fn board_one(view: &CompetitionView, team: usize, e: &RoundEntry) -> Option<Colour> {
    let side = e.side?;
    let board = view
        .match_of(e.round, team)
        .and_then(|m| CompetitionView::boards(m).first());
    Some(view.rules.colour(board, 1, side))
}

fn crosstable_json(view: &CompetitionView) -> CrosstableJson {
    let order = view.ranked_teams();
    let rows = order
        .iter()
        .map(|&t| {
            let score = &view.sheet.teams[t];
            CrossRowJson {
                team_id: view.competition.teams[t].id.0.clone(),
                team: view.competition.teams[t].name.clone(),
                place: view.place(t).map(str::to_string),
                match_points: score.match_points,
                game_points: score.game_points,
                cells: order
                    .iter()
                    .filter(|&&o| o != t)
                    .map(|&o| CrossCellJson {
                        opponent_id: view.competition.teams[o].id.0.clone(),
                        meetings: score
                            .entries
                            .iter()
                            .filter(|e| e.opponent == Some(o))
                            .map(|e| MeetingJson {
                                round: e.round,
                                side: e.side.map(side_word).unwrap_or_default(),
                                colour: board_one(view, t, e).map(colour_word).unwrap_or_default(),
                                kind: kind_word_entry(e.kind).into(),
                                game_points: e.game_points,
                                opponent_game_points: e.opponent_game_points,
                                match_points: e.match_points,
                                excluded: e.excluded.as_ref().map(exclusion),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    CrosstableJson {
        teams: order.iter().map(|&t| team_ref(view, t)).collect(),
        rows,
    }
}

fn status_word(s: MatchStatus) -> (&'static str, Option<String>) {
    match s {
        MatchStatus::Pending => ("pending", None),
        MatchStatus::InProgress => ("in_progress", None),
        MatchStatus::Played => ("played", None),
        MatchStatus::Forfeit { by } => ("forfeit", Some(side_word(by))),
        MatchStatus::DoubleForfeit => ("double_forfeit", None),
        MatchStatus::ForfeitAfterDrop { by } => ("forfeit_after_drop", Some(side_word(by))),
    }
}

fn player_name(view: &CompetitionView, id: Option<&arbiter_core::PlayerId>) -> Option<String> {
    let id = id?;
    Some(
        view.player(&id.0)
            .map_or_else(|| id.0.clone(), |(p, _)| p.name.clone()),
    )
}

fn match_json(view: &CompetitionView, f: &MatchFacts<'_>) -> MatchJson {
    let (status, forfeited_by) = status_word(f.status);
    let rule = match f.status {
        MatchStatus::Forfeit { .. } => view.forfeit_rule().map(str::to_string),
        MatchStatus::ForfeitAfterDrop { .. } => Some("GT-M5".into()),
        _ => None,
    };
    let boards = CompetitionView::boards(f.record)
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            BoardJson {
                board: number,
                home_player_id: b.home_player.as_ref().map(|p| p.0.clone()),
                home_player: player_name(view, b.home_player.as_ref()),
                away_player_id: b.away_player.as_ref().map(|p| p.0.clone()),
                away_player: player_name(view, b.away_player.as_ref()),
                home_colour: colour_word(view.rules.colour(Some(b), number, Side::Home)),
                result: b.result.code().to_string(),
                rating_result: b
                    .rating_result
                    .filter(|r| *r != b.result)
                    .map(|r| r.code().to_string()),
                unplayed: b.unplayed.as_ref().map(|u| u.code().to_string()),
                note: b
                    .unplayed
                    .as_ref()
                    .and_then(|u| u.note())
                    .map(str::to_string),
                adjourned_to: b.resume_on().map(|d| d.to_string()),
                adjudication: b.adjudication().map(|p| AdjudicationJson {
                    pgn: p.pgn.clone(),
                    fen: p.fen.clone(),
                    home_clock: p.home_clock.clone(),
                    away_clock: p.away_clock.clone(),
                    decided: b.result != arbiter_core::GameResult::Pending,
                }),
            }
        })
        .collect();
    MatchJson {
        home_id: f.record.home.0.clone(),
        home: view.team_name(&f.record.home),
        away_id: f.record.away.0.clone(),
        away: view.team_name(&f.record.away),
        status: status.into(),
        forfeited_by,
        rule,
        home_points: f.home_points,
        away_points: f.away_points,
        score: if f.status == MatchStatus::Pending {
            String::new()
        } else {
            words::score(f.home_points, f.away_points)
        },
        excluded: f.excluded.map(exclusion),
        boards,
    }
}

fn round_json(view: &CompetitionView, r: &arbiter_core::Round) -> RoundJson {
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for p in &r.pairings {
        match p {
            Pairing::Match(m) => matches.push(match_json(view, &view.facts(r.number, m))),
            Pairing::Bye(b) => {
                let award = scoring::bye_award(&view.rules, b.kind);
                byes.push(ByeJson {
                    team_id: b.team.0.clone(),
                    team: view.team_name(&b.team),
                    kind: b.kind.code().into(),
                    match_points: award.match_points,
                    game_points: award.game_points,
                });
            }
        }
    }
    RoundJson {
        number: r.number,
        date: r.date.map(|d| d.to_string()),
        matches,
        byes,
    }
}

fn team_json(view: &CompetitionView, t: usize) -> Result<TeamJson, WebError> {
    let team = view
        .competition
        .teams
        .get(t)
        .ok_or_else(|| WebError::not_found("There is no such team."))?;
    let score = &view.sheet.teams[t];
    Ok(TeamJson {
        id: team.id.0.clone(),
        name: team.name.clone(),
        school: team.school.clone(),
        place: view.place(t).map(str::to_string),
        match_points: score.match_points,
        game_points: score.game_points,
        dropped: dropped(view, t),
        roster: team
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| RosterJson {
                order: i + 1,
                id: p.id.0.clone(),
                name: p.name.clone(),
                rating: p.rating,
                provisional: p.provisional,
                rating_display: words::rating(p),
                url: view.player_href(p),
            })
            .collect(),
        roster_withheld: view
            .roster_lock
            .as_ref()
            .filter(|_| view.rosters_withheld)
            .map(|l| l.withheld_sentence()),
        results: score
            .entries
            .iter()
            .map(|e| TeamResultJson {
                round: e.round,
                opponent_id: e
                    .opponent
                    .and_then(|o| view.competition.teams.get(o))
                    .map(|x| x.id.0.clone()),
                opponent: e
                    .opponent
                    .and_then(|o| view.competition.teams.get(o))
                    .map(|x| x.name.clone()),
                side: e.side.map(side_word),
                colour: board_one(view, t, e).map(colour_word),
                kind: kind_word_entry(e.kind).into(),
                match_points: e.match_points,
                game_points: e.game_points,
                opponent_game_points: e.opponent_game_points,
                counts: e.counts(),
                excluded: e.excluded.as_ref().map(exclusion),
            })
            .collect(),
    })
}

fn outcome_word(o: GameOutcome) -> &'static str {
    match o {
        GameOutcome::Win => "win",
        GameOutcome::Draw => "draw",
        GameOutcome::Loss => "loss",
        GameOutcome::ForfeitWin => "forfeit_win",
        GameOutcome::ForfeitLoss => "forfeit_loss",
        GameOutcome::DoubleForfeit => "double_forfeit",
        GameOutcome::Pending => "pending",
    }
}

fn player_json(view: &CompetitionView, t: usize, p: usize) -> Result<PlayerJson, WebError> {
    let team = view
        .competition
        .teams
        .get(t)
        .ok_or_else(|| WebError::not_found("There is no such team."))?;
    let pl = team
        .players
        .get(p)
        .ok_or_else(|| WebError::not_found("There is no such player."))?;
    let played = crate::public::pages::player_games(view, &pl.id.0);
    let (score, decided) = crate::public::pages::player_score(view, &played);
    let games = played
        .iter()
        .map(|g| {
            let (opp, opp_team) = match g.side {
                Side::Home => (g.game.away_player.as_ref(), &g.facts.record.away),
                Side::Away => (g.game.home_player.as_ref(), &g.facts.record.home),
            };
            let o = g.game.result.outcome_for(g.side);
            GameJson {
                round: g.round,
                board: g.board,
                side: side_word(g.side),
                colour: colour_word(view.rules.colour(Some(g.game), g.board, g.side)),
                opponent_id: opp.map(|x| x.0.clone()),
                opponent: player_name(view, opp),
                opponent_team_id: opp_team.0.clone(),
                opponent_team: view.team_name(opp_team),
                result: outcome_word(o).into(),
                points: scoring::game_points(&view.rules, o),
                excluded: g.facts.excluded.map(exclusion),
            }
        })
        .collect();
    Ok(PlayerJson {
        id: pl.id.0.clone(),
        name: pl.name.clone(),
        team_id: team.id.0.clone(),
        team: team.name.clone(),
        rating: pl.rating,
        provisional: pl.provisional,
        rating_display: words::rating(pl),
        score,
        games_decided: decided,
        games,
    })
}

fn league_json(t: &LeagueTree) -> LeagueJson {
    let l = &t.league;
    LeagueJson {
        slug: l.slug.clone(),
        name: l.name.clone(),
        kind: kind_word(l.kind).into(),
        description: l.description.clone(),
        url: league_href(&l.slug),
        api: format!("/api/v1{}", league_href(&l.slug)),
        seasons: t
            .seasons
            .iter()
            .map(|(s, comps)| SeasonJson {
                slug: s.slug.clone(),
                name: s.name.clone(),
                starts_on: s.starts_on.map(|d| d.to_string()),
                ends_on: s.ends_on.map(|d| d.to_string()),
                url: season_href(&l.slug, &s.slug),
                competitions: comps
                    .iter()
                    .map(|c| {
                        let url = crate::ui::link::competition_href(&l.slug, &s.slug, &c.slug);
                        CompetitionRef {
                            slug: c.slug.clone(),
                            name: c.name.clone(),
                            api: format!("/api/v1{url}"),
                            url,
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Everything the competition breaks of its rules, as `arbiter check --format json` lists it
/// (issue 12): errors, violations (a result played with a lineup out of order: kept, scored,
/// flagged) and warnings, each with its ruling when an officer ruled that the result stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct FindingsJson {
    pub findings: Vec<FindingJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FindingJson {
    /// The rule ID, when a rule applies.
    pub rule: Option<String>,
    /// `error`, `violation` or `warning`.
    #[schema(example = "violation")]
    pub severity: String,
    pub round: Option<u32>,
    /// The match's home team id, when in a match.
    pub home: Option<String>,
    pub away: Option<String>,
    pub board: Option<u32>,
    /// The team whose lineup or roster it is, when it is one team's.
    pub team: Option<String>,
    pub message: String,
    /// The whole sentence with its place.
    pub text: String,
    /// For a violation: the officer's ruling that the result stands, with the reason; null
    /// while it is under review.
    pub ruling: Option<String>,
}

fn findings_json(view: &CompetitionView) -> FindingsJson {
    FindingsJson {
        findings: view
            .findings
            .iter()
            .filter(|f| arbiter_core::teams::sealed::public_may_read(&view.competition, f))
            .map(|f| FindingJson {
                rule: f.rule.clone(),
                severity: f.severity.code().to_string(),
                round: f.round,
                home: f.home.as_ref().map(ToString::to_string),
                away: f.away.as_ref().map(ToString::to_string),
                board: f.board,
                team: f.team.as_ref().map(ToString::to_string),
                message: f.message.clone(),
                text: f.to_string(),
                ruling: view.stored.ruling(&f.key()).map(|r| r.reason.clone()),
            })
            .collect(),
    }
}

/// The rating list, as `arbiter ratings --format json` writes it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingsJson {
    /// `league` (GT-R3), `fide` (B.02), `uscf` or `glicko2`: the ruleset's `[rating]`.
    pub system: String,
    /// Every rostered player, highest rating first (or as `?sort=` asks).
    pub players: Vec<RatingJson>,
    /// Why the games could not be rated, when they could not; `players` is then empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// One player of the rating list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingJson {
    pub player_id: String,
    pub name: String,
    pub team_id: String,
    /// The published rating before the first rated game; `null` when unrated.
    pub before: Option<i64>,
    /// Rated games this season (forfeits are not rated, GT-M7).
    pub games: u32,
    pub score: f64,
    /// Points expected in those games, to hundredths.
    pub expected: f64,
    /// The change before rounding, to hundredths (`7.6`).
    pub change: f64,
    /// The published rating now: the whole number; `null` when unrated.
    pub after: Option<i64>,
    /// The K of the last period, for the Elo systems.
    pub k: Option<f64>,
    /// GT-R3: provisional (shown `1200N`).
    pub provisional: bool,
}

fn ratings_json(view: &CompetitionView, order: RatingOrder) -> RatingsJson {
    let hundredths = |x: f64| (x * 100.0).round() / 100.0;
    let published = |s: &arbiter_core::rating::Standing| s.rated.then(|| s.published());
    RatingsJson {
        system: view.rules.rating.code().to_string(),
        players: view
            .rating_lines(order)
            .into_iter()
            .map(|line| {
                let s = &line.summary;
                RatingJson {
                    player_id: line.player.id.0.clone(),
                    name: line.player.name.clone(),
                    team_id: view.competition.teams[line.team].id.0.clone(),
                    before: published(&s.before),
                    games: s.games,
                    score: s.score,
                    expected: hundredths(s.expected),
                    change: hundredths(s.change),
                    after: published(&s.after),
                    k: s.k,
                    provisional: s.after.provisional,
                }
            })
            .collect(),
        problem: view.rated().err().map(str::to_string),
    }
}

// ---------------------------------------------------------------------------------------------
// Handlers

type CompetitionPath = Addressed<CompetitionAddress>;

async fn one_of(
    state: &AppState,
    headers: &HeaderMap,
    path: CompetitionPath,
    page: Page,
) -> Response {
    respond::one_of(state, headers, Format::Json, path, page, competition_json).await
}

/// A read endpoint of one competition, the JSON of one of its pages: the document's entry and
/// the handler, which answers the page through [`one_of`] (cached per data version, with an ETag).
macro_rules! competition_read {
    ($(#[doc = $doc:literal])* $name:ident: $path:literal, $body:ident = $what:literal, $page:expr) => {
        $(#[doc = $doc])*
        #[utoipa::path(get, path = $path, tag = "competitions",
            params(CompetitionAddress),
            responses(
                (status = 200, description = $what, body = $body),
                (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
                (status = 404, description = "No such league, season or competition", body = ErrorAnswer),
                (status = 503, description = "The store is not answering", body = ErrorAnswer),
            ))]
        async fn $name(
            State(state): State<AppState>,
            headers: HeaderMap,
            path: CompetitionPath,
        ) -> Response {
            one_of(&state, &headers, path, $page).await
        }
    };
}

/// Every league and event, with their seasons and competitions.
#[utoipa::path(get, path = "/api/v1/leagues", tag = "leagues",
    responses(
        (status = 200, description = "The leagues and events", body = LeagueList),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn leagues(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let key = SiteKey::Leagues(Format::Json);
    respond::site(&state, &headers, key, Format::Json, || async {
        let trees = site::all(&state).await?;
        to_json(&LeagueList {
            leagues: trees.iter().map(league_json).collect(),
        })
    })
    .await
}

/// One league or event, with its seasons and competitions.
#[utoipa::path(get, path = "/api/v1/leagues/{league}", tag = "leagues",
    params(LeagueAddress),
    responses(
        (status = 200, description = "The league", body = LeagueJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No league has this slug", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn league(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<LeagueAddress>,
) -> ApiResult {
    let Path(a) = path.map_err(|r| bad_path(&r))?;
    let slug = a.league;
    let key = SiteKey::League(Format::Json, slug.clone());
    Ok(
        respond::site(&state, &headers, key, Format::Json, || async {
            to_json(&league_json(&site::one(&state, &slug).await?))
        })
        .await,
    )
}

competition_read!(
    /// A competition (a division, a championship): its rules, teams and rounds.
    competition: "/api/v1/leagues/{league}/{season}/{competition}",
    CompetitionJson = "The competition",
    Page::Overview
);

competition_read!(
    /// The standings: every criterion of the ruleset, shared places (AS-18), dropped teams (GT-M5),
    /// and the explanation of the order.
    standings: "/api/v1/leagues/{league}/{season}/{competition}/standings",
    StandingsJson = "The standings",
    Page::Standings
);

competition_read!(
    /// The crosstable: each team against each, game points, colour on board 1, exclusions.
    crosstable: "/api/v1/leagues/{league}/{season}/{competition}/crosstable",
    CrosstableJson = "The crosstable",
    Page::Crosstable
);

competition_read!(
    /// Every round: matches with scores, forfeits, exclusions and board results.
    rounds: "/api/v1/leagues/{league}/{season}/{competition}/rounds",
    RoundsJson = "The rounds",
    Page::Rounds
);

/// One round.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/rounds/{round}", tag = "competitions",
    params(RoundAddress),
    responses(
        (status = 200, description = "The round", body = RoundJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 400, description = "The round is not a whole number from 1", body = ErrorAnswer),
        (status = 404, description = "No such competition or round", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn round(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<RoundAddress>,
) -> Response {
    respond::item(&state, &headers, Format::Json, path, competition_json).await
}

/// A team: school, roster in board order with ratings (GT-R3 `1200N`), results by round.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/teams/{team}", tag = "competitions",
    params(TeamAddress),
    responses(
        (status = 200, description = "The team", body = TeamJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such competition or team", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn team(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<TeamAddress>,
) -> Response {
    respond::item(&state, &headers, Format::Json, path, competition_json).await
}

/// A player: games with colours, opponents and results.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/players/{player}", tag = "competitions",
    params(PlayerAddress),
    responses(
        (status = 200, description = "The player", body = PlayerJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such competition or player", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn player(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<PlayerAddress>,
) -> Response {
    respond::item(&state, &headers, Format::Json, path, competition_json).await
}

/// `?sort=` of the rating list: `rating` (the default), `name`, `team`, `games`, `change`.
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// `rating` (the default), `name`, `team`, `games` or `change`
    #[param(example = "rating")]
    sort: Option<String>,
}

/// The rating list: every rostered player's rating before and after this competition's rated
/// games, under the ruleset's system (GT-R3, B.02); the same as `arbiter ratings --format json`.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/{competition}/ratings", tag = "competitions",
    params(CompetitionAddress, RatingsQuery),
    responses(
        (status = 200, description = "The rating list", body = RatingsJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such league, season or competition", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn ratings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
    axum::extract::Query(query): axum::extract::Query<RatingsQuery>,
) -> Response {
    let order = RatingOrder::from_code(query.sort.as_deref());
    one_of(&state, &headers, path, Page::Ratings(order)).await
}

/// A season's rating list: each competition's, as its own `…/ratings` gives it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeasonRatingsJson {
    /// The season's slug.
    pub season: String,
    /// Every competition of the season, in the season's order.
    pub competitions: Vec<CompetitionRatingsJson>,
}

/// One competition's rating list in a season's.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompetitionRatingsJson {
    /// The competition's slug.
    pub competition: String,
    pub name: String,
    pub ratings: RatingsJson,
}

/// The season's rating list (the league's ratings, GT-R1): every competition's players, each
/// competition rated under its ruleset's system.
#[utoipa::path(get, path = "/api/v1/leagues/{league}/{season}/ratings", tag = "leagues",
    params(SeasonAddress, RatingsQuery),
    responses(
        (status = 200, description = "The season's rating lists", body = SeasonRatingsJson),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
        (status = 404, description = "No such league or season", body = ErrorAnswer),
        (status = 503, description = "The store is not answering", body = ErrorAnswer),
    ))]
async fn season_ratings(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Addressed<SeasonAddress>,
    axum::extract::Query(query): axum::extract::Query<RatingsQuery>,
) -> ApiResult {
    let order = RatingOrder::from_code(query.sort.as_deref());
    let Path(a) = path.map_err(|r| bad_path(&r))?;
    let (_, season, views) =
        crate::public::site::season_views(&state, &a.league, &a.season).await?;
    let tag = etag(
        crate::public::site::etag_base(&views),
        format!("api/season/ratings?sort={}", order.code()).as_bytes(),
    );
    if not_modified(&headers, &tag) {
        return Ok(unchanged(tag, PAGE_CACHE));
    }
    let body = to_json(&SeasonRatingsJson {
        season: season.slug.clone(),
        competitions: views
            .iter()
            .map(|v| CompetitionRatingsJson {
                competition: v.record.slug.clone(),
                name: v.record.name.clone(),
                ratings: ratings_json(v, order),
            })
            .collect(),
    })?;
    Ok(ok(content_type(Format::Json), tag, PAGE_CACHE, body))
}

competition_read!(
    /// Everything the competition breaks of its rules, errors and violations alike, as `arbiter
    /// check` lists it (issue 12; GT-M9..GT-M15, GT-R3, GT-R7, AS-3, AS-4, AS-10).
    findings: "/api/v1/leagues/{league}/{season}/{competition}/findings",
    FindingsJson = "The findings",
    Page::Findings
);
