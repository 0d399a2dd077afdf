//! The season's end as pages: the President's qualification and playoffs page (GT-F3, private:
//! `GET/POST /leagues/{league}/{season}/qualification`), and the public bracket
//! (`/leagues/{league}/{season}/playoffs`) and awards list (`…/awards`), each drawn once per
//! data version, readable on a phone and printed on one page.

use arbiter_core::record::model::TeamId;
use arbiter_core::rules::permissions::Action;
use arbiter_core::season_end::awards::AwardsList;
use arbiter_core::season_end::bracket::{Bracket, MatchState};
use arbiter_core::season_end::qualify::CutOff;
use askama::Template;
use axum::Form;
use axum::body::Bytes;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{self, bad_path, private, see_other};
use crate::app::site;
use crate::app::state::AppState;
use crate::http::auth::{self, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::season_end::{self, DecidingInput, Drawn, SeasonEnd, load, load_public};
use crate::ui::layout::{Layout, private_layout, site_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// `/leagues/{league}/{season}/qualification`: the President's page.
pub fn qualification_href(league: &str, season: &str) -> String {
    format!("{}/qualification", season_href(league, season))
}

// The public pages' addresses are the shared vocabulary's: a division's page links them too.
pub use crate::ui::link::{awards_href, playoffs_href};

// ---- the President's page ----

struct QualifierLine {
    place: u32,
    name: String,
    school: String,
    score: String,
}

struct TieForm {
    sentence: String,
    places: Vec<u32>,
    teams: Vec<Link>,
}

struct DecisionLine {
    order: String,
    reason: String,
    by: String,
    at: String,
}

struct DivisionBlock {
    name: String,
    href: String,
    slug: String,
    problem: Option<String>,
    qualifiers: Vec<QualifierLine>,
    cut_off: String,
    ties: Vec<TieForm>,
    decisions: Vec<DecisionLine>,
}

struct SeedLine {
    seed: u32,
    name: String,
    from: String,
}

struct DrawnMatch {
    round: u32,
    home: String,
    home_id: String,
    away: String,
    sentence: String,
    kind: String,
}

/// A deciding game entered, with its correction form while it is in force.
struct EnteredLine {
    id: i64,
    title: String,
    home: String,
    away: String,
    result: String,
    black: String,
    said: String,
    by: String,
    /// Corrected by a later version: shown, never offered for correction again.
    superseded: bool,
    /// The version it corrects, in words.
    corrects: String,
}

#[derive(Template)]
#[template(path = "season_end/qualification.html", whitespace = "minimize")]
struct QualificationPage {
    layout: Layout,
    csrf: String,
    action: String,
    places: String,
    notice: Option<String>,
    problems: Vec<String>,
    divisions: Vec<DivisionBlock>,
    field: Vec<SeedLine>,
    field_problems: Vec<String>,
    drawn: bool,
    bracket: String,
    playoff_matches: String,
    starts: String,
    drawn_matches: Vec<DrawnMatch>,
    entered: Vec<EnteredLine>,
    next_round: Option<String>,
    finish: Option<String>,
    reason_max: usize,
}

fn score(mp: f64, gp: f64) -> String {
    format!(
        "{} match points, {} game points",
        words::points(mp),
        words::points(gp)
    )
}

fn cut_off(c: &CutOff) -> String {
    match c {
        CutOff::WholeDivision => "Every team of the division qualifies.".into(),
        CutOff::Clear { sentence } | CutOff::BrokenByCriteria { sentence, .. } => sentence.clone(),
        CutOff::Unbroken => {
            "The criteria cannot decide the cut-off: the officers decide below (GT-F3).".into()
        }
        CutOff::DecidedByOfficers { sentence } => sentence.clone(),
    }
}

fn division_block(d: &season_end::DivisionQualifiers) -> DivisionBlock {
    let v = &d.view;
    let name = |t: &TeamId| v.team_name(t);
    let decisions = d
        .decisions
        .iter()
        .map(|x| DecisionLine {
            order: words_list(x.order.iter().map(name)),
            reason: x.reason.clone(),
            by: x
                .decided_by
                .clone()
                .unwrap_or_else(|| "the command line".into()),
            at: words::timestamp(x.decided_at),
        })
        .collect();
    let mut block = DivisionBlock {
        name: v.record.name.clone(),
        href: v.href(),
        slug: v.record.slug.clone(),
        problem: None,
        qualifiers: Vec::new(),
        cut_off: String::new(),
        ties: Vec::new(),
        decisions,
    };
    match &d.qualifiers {
        Err(e) => block.problem = Some(e.clone()),
        Ok(q) => {
            block.qualifiers = q
                .teams
                .iter()
                .map(|t| QualifierLine {
                    place: t.place,
                    name: t.name.clone(),
                    school: t.school.clone().unwrap_or_default(),
                    score: score(t.match_points, t.game_points),
                })
                .collect();
            block.cut_off = cut_off(&q.cut_off);
            block.ties = q
                .ties
                .iter()
                .map(|t| TieForm {
                    sentence: t.sentence.clone(),
                    places: (1..=u32::try_from(t.teams.len()).unwrap_or(0)).collect(),
                    teams: t
                        .teams
                        .iter()
                        .map(|id| Link::new(&id.0, name(id)))
                        .collect(),
                })
                .collect();
        }
    }
    block
}

fn words_list<I: Iterator<Item = String>>(items: I) -> String {
    let v: Vec<String> = items.collect();
    arbiter_core::record::words::list(v.iter().map(String::as_str))
}

/// What the page shows besides the season.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    problems: Vec<String>,
}

/// The page is the officers' who run the playoffs (the President) or decide their matches and
/// ties (the Vice-President too, for the President's school, GT-O3); each step then asks the
/// table for its own action and parties.
async fn guard(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
) -> Result<SeasonEnd, WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let tree = site::one(state, &league).await?;
    auth::permit_in_league(auth, tree.league.id, Action::DecidePlayoff)?;
    load(state, &tree, &season).await
}

/// The President's steps that run the playoffs: the draw and pairing the next round (GT-F3).
fn runs_playoffs(auth: &Auth, s: &SeasonEnd) -> Result<auth::Acting, WebError> {
    auth::permit_in_league(auth, s.league.id, Action::RunPlayoffs)
}

fn drawn_matches(b: &Bracket) -> Vec<DrawnMatch> {
    b.rounds
        .iter()
        .flat_map(|r| &r.matches)
        .filter_map(|m| match &m.state {
            MatchState::Drawn { awaiting, sentence } => Some(DrawnMatch {
                round: m.round,
                home: m.home.as_ref()?.name.clone(),
                home_id: m.home.as_ref()?.team.0.clone(),
                away: m.away.as_ref()?.name.clone(),
                sentence: sentence.clone(),
                kind: season_end::awaited_words(*awaiting).to_string(),
            }),
            _ => None,
        })
        .collect()
}

/// Every deciding game entered, oldest first, the ones corrected marked so (GT-F3).
fn entered_lines(d: &Drawn) -> Vec<EnteredLine> {
    let number: std::collections::HashMap<i64, usize> = d
        .deciding
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id, i + 1))
        .collect();
    d.deciding
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let away = d
                .view
                .round(g.game.round)
                .and_then(|r| r.matches().find(|m| m.home == g.game.team))
                .map(|m| d.view.team_name(&m.away))
                .unwrap_or_default();
            let home = d.view.team_name(&g.game.team);
            let result = match g.game.result {
                arbiter_core::record::model::GameResult::HomeWin => format!("{home} won"),
                arbiter_core::record::model::GameResult::AwayWin => format!("{away} won"),
                _ => "drawn".to_string(),
            };
            let black_name = if g.game.black == arbiter_core::record::model::Side::Home {
                &home
            } else {
                &away
            };
            EnteredLine {
                id: g.id,
                title: format!(
                    "Game {}: round {}, {home} v {away}, {}",
                    i + 1,
                    g.game.round,
                    g.game.kind.words()
                ),
                result: g.game.result.code().to_string(),
                black: arbiter_core::record::model::Side::code(g.game.black).to_string(),
                said: format!("{result}; Black: {black_name}."),
                by: format!(
                    "{}, {}{}",
                    g.entered_by.as_deref().unwrap_or("the command line"),
                    words::timestamp(g.entered_at),
                    g.reason
                        .as_deref()
                        .map(|r| format!(". Why: {r}"))
                        .unwrap_or_default()
                ),
                superseded: d.deciding.iter().any(|c| c.corrects == Some(g.id)),
                corrects: g
                    .corrects
                    .and_then(|c| number.get(&c))
                    .map(|n| format!("Corrects game {n}."))
                    .unwrap_or_default(),
                home,
                away,
            }
        })
        .collect()
}

fn finish_sentence(d: &Drawn) -> Option<String> {
    let f = d.finish()?;
    Some(format!(
        "{} won the playoffs; {} is the runner-up (GT-F3).",
        f.winner?.name, f.runner_up?.name
    ))
}

async fn page(
    auth: &Auth,
    s: &SeasonEnd,
    shown: Shown,
    status: StatusCode,
) -> Result<Response, WebError> {
    let (league, season) = (&s.league.slug, &s.season.slug);
    let places = s.rules().and_then(|r| r.playoffs.as_ref()).map_or_else(
        || "The divisions' rules have no playoffs (GT-F3).".to_string(),
        |p| {
            format!(
                "The top {} of each division are invited (GT-F3, the officers' setting).",
                p.qualifiers_per_division
            )
        },
    );
    let (field, field_problems) = match s.field() {
        Ok(f) => (
            f.iter()
                .map(|x| SeedLine {
                    seed: x.seed,
                    name: x.name.clone(),
                    from: format!(
                        "{}, {}",
                        x.division,
                        arbiter_core::season_end::race::ordinal(x.place)
                    ),
                })
                .collect(),
            Vec::new(),
        ),
        Err(p) => (Vec::new(), p),
    };
    let bracket = s.playoffs.as_ref().map(Drawn::bracket);
    let page = QualificationPage {
        layout: private_layout(
            &format!("Playoffs: qualification and draw, {}", s.season.name),
            vec![
                Link::new(league_href(league), &s.league.name),
                Link::new(season_href(league, season), &s.season.name),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: qualification_href(league, season),
        places,
        notice: shown.notice,
        problems: shown.problems,
        divisions: s.qualification().iter().map(division_block).collect(),
        field,
        field_problems,
        drawn: s.playoffs.is_some(),
        bracket: playoffs_href(league, season),
        playoff_matches: s
            .playoffs
            .as_ref()
            .map(|d| d.view.href())
            .unwrap_or_default(),
        starts: s.divisions_end().map(|d| d.to_string()).unwrap_or_default(),
        drawn_matches: match &bracket {
            Some(Ok(b)) => drawn_matches(b),
            _ => Vec::new(),
        },
        entered: s.playoffs.as_ref().map(entered_lines).unwrap_or_default(),
        next_round: s.playoffs.as_ref().and_then(|d| {
            let r = season_end::next_round(d)?;
            let matches: Vec<String> = r
                .matches()
                .map(|m| format!("{} v {}", d.view.team_name(&m.home), d.view.team_name(&m.away)))
                .collect();
            Some(format!(
                "Round {} is ready to pair: every match of the round before it is decided (GT-F3). Pairing it sets {} on the playoff calendar.",
                r.number,
                arbiter_core::record::words::list(matches.iter().map(String::as_str))
            ))
        }),
        finish: s.playoffs.as_ref().and_then(finish_sentence),
        reason_max: arbiter_core::record::text::REASON_MAX_CHARS,
    };
    Ok(private(status, &page))
}

/// `?done=…`: what was just done, said on the page.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    #[serde(default)]
    done: Option<String>,
}

/// GET `/leagues/{league}/{season}/qualification`.
pub async fn qualification_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    done: Result<Query<Done>, QueryRejection>,
) -> Result<Response, WebError> {
    let s = guard(&state, &auth, path).await?;
    let notice = done.ok().and_then(|Query(d)| d.done).map(|d| match d.as_str() {
        "decided" => "The officers' decision is kept with its reason in the history (GT-F3).".to_string(),
        "drawn" => "The playoffs are drawn: round 1 is paired on the playoff calendar, and the bracket is public (GT-F3, GT-F5).".to_string(),
        "game" => "The deciding game is entered; the bracket says who goes through (GT-F3).".to_string(),
        "corrected" => "The deciding game is corrected: the new version is in force, the one it corrects is kept, and both are in the history (GT-F3).".to_string(),
        "paired" => "The next round is paired on the playoff calendar (GT-F3).".to_string(),
        _ => String::new(),
    }).filter(|n| !n.is_empty());
    let shown = Shown {
        notice,
        ..Shown::default()
    };
    page(&auth, &s, shown, StatusCode::OK).await
}

/// POST `/leagues/{league}/{season}/qualification`: `step` is `decide` (a tie's order, the
/// `order` fields first first, and `reason`), `draw` (from `starts`), `game` (a deciding game)
/// or `pair` (the next round).
pub async fn qualification_step(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, WebError> {
    let s = guard(&state, &auth, path).await?;
    let account = auth.user.as_ref();
    let one = |k: &str| {
        fields
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let step = one("step");
    let done = match step.as_str() {
        "decide" => {
            let order: Vec<TeamId> = fields
                .iter()
                .filter(|(n, _)| n == "order")
                .map(|(_, v)| TeamId(v.trim().to_string()))
                .collect();
            season_end::decide_tie(
                &state,
                &s,
                &one("division"),
                &order,
                &one("reason"),
                account,
            )
            .await
            .map(|()| "decided")
        }
        "draw" => {
            let starts = one("starts");
            let from = if starts.trim().is_empty() {
                Ok(None)
            } else {
                starts.trim().parse().map(Some).map_err(|_| {
                    WebError::Refused(format!(
                        "“{}” is not a date; write the playoffs' first day as YYYY-MM-DD (GT-F5).",
                        starts.trim()
                    ))
                })
            };
            match from {
                Ok(from) => match runs_playoffs(&auth, &s) {
                    Ok(acting) => season_end::draw(&state, &s, from, &acting)
                        .await
                        .map(|_| "drawn"),
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            }
        }
        "game" => {
            let input = DecidingInput {
                round: one("round").parse().unwrap_or(0),
                home: one("home"),
                black: one("black"),
                result: one("result"),
                reason: one("reason"),
            };
            season_end::enter_deciding_game(&state, &s, &input, account)
                .await
                .map(|()| "game")
        }
        "correct" => {
            let input = season_end::CorrectionInput {
                of: one("game").parse().unwrap_or(0),
                black: one("black"),
                result: one("result"),
                reason: one("reason"),
            };
            season_end::correct_deciding_game(&state, &s, &input, account)
                .await
                .map(|()| "corrected")
        }
        "pair" => match runs_playoffs(&auth, &s) {
            Ok(acting) => season_end::pair_next_round(&state, &s, &acting)
                .await
                .map(|_| "paired"),
            Err(e) => Err(e),
        },
        other => Err(WebError::BadRequest(format!(
            "“{other}” is not a step of the playoffs page; use its buttons."
        ))),
    };
    // From a match page (its form sends `back`), back to that page, of this season only.
    let back = one("back");
    let season = season_href(&s.league.slug, &s.season.slug);
    let back = back
        .strip_prefix(&season)
        .filter(|rest| rest.starts_with('/') && !rest.contains("//"))
        .map(|_| back.clone());
    match done {
        Ok(done) => Ok(see_other(&back.unwrap_or_else(|| {
            format!(
                "{}?done={done}",
                qualification_href(&s.league.slug, &s.season.slug)
            )
        }))),
        Err(WebError::Refused(m) | WebError::Conflict(m)) => {
            let tree = site::one(&state, &s.league.slug).await?;
            let s = load(&state, &tree, &s.season.slug).await?;
            let shown = Shown {
                problems: vec![m],
                ..Shown::default()
            };
            page(&auth, &s, shown, StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(e) => Err(e),
    }
}

// ---- the public bracket ----

struct Side {
    seed: String,
    name: String,
    won: bool,
}

struct MatchBox {
    home: Option<Side>,
    away: Option<Side>,
    state: String,
    href: Option<String>,
}

struct RoundColumn {
    name: String,
    /// The round's page, each match with its boards, once the round is paired.
    href: Option<String>,
    date: String,
    matches: Vec<MatchBox>,
}

/// One match of a round robin playoff's round: its teams and score, linked to its page.
struct ScheduleMatch {
    text: String,
    href: Option<String>,
}

/// A round of a round robin playoff.
struct ScheduleRound {
    name: String,
    date: String,
    matches: Vec<ScheduleMatch>,
}

/// A round robin playoff (`[playoffs] format = "round_robin"`): its crosstable, in the order of
/// its standings, and its rounds.
struct RoundRobin {
    caption: String,
    legend: String,
    teams: Vec<Link>,
    rows: Vec<crate::public::pages::CrossRow>,
    rounds: Vec<ScheduleRound>,
    standings: String,
}

#[derive(Template)]
#[template(path = "season_end/playoffs.html", whitespace = "minimize")]
struct PlayoffsPage {
    layout: Layout,
    drawn: bool,
    lead: String,
    problem: Option<String>,
    rounds: Vec<RoundColumn>,
    round_robin: Option<RoundRobin>,
    bye_date: String,
    finish: Option<(String, String)>,
    matches: String,
    awards: String,
}

fn side(e: &Option<arbiter_core::season_end::bracket::Entrant>, won: bool) -> Option<Side> {
    e.as_ref().map(|e| Side {
        seed: e.seed.to_string(),
        name: e.name.clone(),
        won,
    })
}

fn state_words(m: &arbiter_core::season_end::bracket::BracketMatch) -> String {
    match &m.state {
        MatchState::Bye => "a bye: goes through".into(),
        MatchState::Waiting => "waits for the round before".into(),
        MatchState::ToPlay => "to play".into(),
        MatchState::Won { how, .. } => how.clone(),
        MatchState::Drawn { sentence, .. } | MatchState::Undecided { sentence } => sentence.clone(),
    }
}

fn bracket_columns(d: &Drawn, b: &Bracket) -> Vec<RoundColumn> {
    b.rounds
        .iter()
        .map(|r| RoundColumn {
            name: r.name.clone(),
            href: d.view.round(r.number).map(|_| d.view.round_href(r.number)),
            date: d
                .record
                .days
                .get(usize::try_from(r.number).unwrap_or(0).saturating_sub(1))
                .map(|x| words::date(*x))
                .unwrap_or_default(),
            matches: r
                .matches
                .iter()
                .map(|m| {
                    let winner = m.winner().map(|w| w.team.clone());
                    let won = |e: &Option<arbiter_core::season_end::bracket::Entrant>| {
                        m.state != MatchState::Bye
                            && e.as_ref().is_some_and(|e| Some(&e.team) == winner.as_ref())
                    };
                    let href = match (&m.home, &m.away, d.view.round(r.number)) {
                        (Some(h), Some(a), Some(round)) => round
                            .matches()
                            .find(|x| {
                                (x.home == h.team && x.away == a.team)
                                    || (x.home == a.team && x.away == h.team)
                            })
                            .map(|x| d.view.match_href(r.number, &x.home)),
                        _ => None,
                    };
                    MatchBox {
                        home: side(&m.home, won(&m.home)),
                        away: side(&m.away, won(&m.away)),
                        state: state_words(m),
                        href,
                    }
                })
                .collect(),
        })
        .collect()
}

/// The round robin playoff as a crosstable of its standings and its rounds, match by match.
fn round_robin(d: &Drawn) -> RoundRobin {
    let view = &d.view;
    let cross = crate::public::pages::crosstable(view);
    let rounds = view
        .competition
        .rounds
        .iter()
        .map(|r| ScheduleRound {
            name: format!("Round {}", r.number),
            date: r.date.map(words::date).unwrap_or_default(),
            matches: r
                .pairings
                .iter()
                .map(|p| match p {
                    arbiter_core::record::model::Pairing::Match(m) => {
                        let f = view.facts(r.number, m);
                        let teams =
                            format!("{} v {}", view.team_name(&m.home), view.team_name(&m.away));
                        let text = match f.status {
                            crate::app::view::MatchStatus::Pending
                            | crate::app::view::MatchStatus::InProgress => {
                                format!("{teams}: to play")
                            }
                            _ => format!("{teams}: {}", words::score(f.home_points, f.away_points)),
                        };
                        ScheduleMatch {
                            text,
                            href: Some(view.match_href(r.number, &m.home)),
                        }
                    }
                    arbiter_core::record::model::Pairing::Bye(b) => ScheduleMatch {
                        text: format!("{}: a bye", view.team_name(&b.team)),
                        href: None,
                    },
                })
                .collect(),
        })
        .collect();
    RoundRobin {
        caption: cross.caption,
        legend: cross.legend,
        teams: cross.teams,
        rows: cross.rows,
        rounds,
        standings: format!("{}/standings", view.href()),
    }
}

/// GT-F4 in the words of the league's ruleset: whether its playoff games are rated.
fn rated_words(rules: &arbiter_core::rules::ruleset::Ruleset) -> &'static str {
    if arbiter_core::rating::rated_games::Stage::Playoffs.rated(rules) {
        "Playoff games are rated (GT-F4)."
    } else {
        "Playoff games are not rated: the league's ruleset sets [playoffs] rated = false (GT-F4)."
    }
}

/// The bracket page's body, drawn once per data version.
pub async fn playoffs_html(
    state: &AppState,
    league: &str,
    season: &str,
) -> Result<Bytes, WebError> {
    let tree = site::one(state, league).await?;
    let s = load_public(state, &tree, season).await?;
    let (l, x) = (&s.league.slug, &s.season.slug);
    let mut page = PlayoffsPage {
        layout: site_layout(
            format!("Playoffs: {} {}", s.league.name, s.season.name),
            format!("Playoffs {}", s.season.name),
            vec![
                Link::new(league_href(l), &s.league.name),
                Link::new(season_href(l, x), &s.season.name),
            ],
            super::api::playoffs_api_href(l, x),
        ),
        drawn: s.playoffs.is_some(),
        lead: String::new(),
        problem: None,
        rounds: Vec::new(),
        round_robin: None,
        bye_date: String::new(),
        finish: None,
        matches: String::new(),
        awards: awards_href(l, x),
    };
    match &s.playoffs {
        None => {
            let n = s
                .rules()
                .and_then(|r| r.playoffs.as_ref())
                .map_or(0, |p| p.qualifiers_per_division);
            page.lead = format!(
                "The playoffs are not drawn yet. Once the divisions finish, the top {n} teams of each are invited (GT-F3) and the President draws the bracket here."
            );
        }
        Some(d) => {
            // A knockout's own address is this page; a round robin's has its standings.
            if d.round_robin() {
                page.matches = d.view.href();
            }
            page.bye_date = d.record.bye_date.map(words::date).unwrap_or_default();
            page.lead = format!(
                "A knockout of the {} teams the divisions sent (GT-F3), seeded by their places, the higher seed at home; a drawn match is decided by {} (GT-F3). {}",
                d.record.field.len(),
                d.view
                    .rules
                    .playoffs
                    .as_ref()
                    .map(|p| words_list(p.tiebreak.iter().map(|t| t.words().to_string())))
                    .unwrap_or_default()
                    .replace(" and ", ", then "),
                rated_words(&d.view.rules)
            );
            if d.round_robin() {
                page.lead = format!(
                    "A round robin of the {} teams the divisions sent (GT-F3): each plays every other once, and the final standings, by the divisions' criteria, name the winner and the runner-up. {}",
                    d.record.field.len(),
                    rated_words(&d.view.rules)
                );
                page.round_robin = Some(round_robin(d));
                page.finish = d
                    .finish()
                    .and_then(|f| f.winner.zip(f.runner_up).map(|(w, r)| (w.name, r.name)));
                if let Err(e) = &d.view.standings {
                    page.problem = Some(e.clone());
                }
            } else {
                match d.bracket() {
                    Ok(b) => {
                        page.rounds = bracket_columns(d, &b);
                        page.finish = b
                            .finish
                            .winner
                            .as_ref()
                            .zip(b.finish.runner_up.as_ref())
                            .map(|(w, r)| (w.name.clone(), r.name.clone()));
                    }
                    Err(e) => page.problem = Some(e),
                }
            }
        }
    }
    page.render().map(Bytes::from).map_err(WebError::internal)
}

/// A season's address from the path, or the 400 that says why not.
fn season_path(
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<(String, String), WebError> {
    path.map(|Path(p)| p).map_err(|r| bad_path(&r))
}

/// GET `/leagues/{league}/{season}/playoffs`: the bracket (public).
pub async fn playoffs(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, WebError> {
    let (l, s) = season_path(path)?;
    let key = season_end::public_key(&state, Format::Html, &l, &s, "playoffs").await;
    Ok(respond::site(&state, &headers, key, Format::Html, || {
        playoffs_html(&state, &l, &s)
    })
    .await)
}

// ---- the public awards list ----

struct AwardLine {
    title: String,
    team: String,
    school: String,
    rule: String,
    note: String,
    players: String,
}

struct BoardLine {
    board: u32,
    leaders: String,
}

struct BoardsBlock {
    division: String,
    boards: Vec<BoardLine>,
}

#[derive(Template)]
#[template(path = "season_end/awards.html", whitespace = "minimize")]
struct AwardsPage {
    layout: Layout,
    problem: Option<String>,
    awards: Vec<AwardLine>,
    trophies: u32,
    to_settle: Vec<String>,
    boards: Vec<BoardsBlock>,
    ledger: String,
    playoffs: String,
    playoffs_pending: bool,
    /// Divisions still playing: their winners listed are the leaders so far.
    running: String,
}

fn award_lines(list: &AwardsList) -> Vec<AwardLine> {
    list.awards
        .iter()
        .map(|a| AwardLine {
            title: a.title.clone(),
            team: a.team_name.clone(),
            school: a.school.clone().unwrap_or_default(),
            rule: a.rule.to_string(),
            note: a.note.clone().unwrap_or_default(),
            players: words_list(a.players.iter().map(|p| p.name.clone())),
        })
        .collect()
}

fn board_blocks(list: &AwardsList) -> Vec<BoardsBlock> {
    list.boards
        .iter()
        .map(|d| BoardsBlock {
            division: d.division.clone(),
            boards: d
                .boards
                .iter()
                .map(|b| BoardLine {
                    board: b.board,
                    leaders: b
                        .leaders
                        .iter()
                        .map(|x| {
                            format!(
                                "{}. {} ({}) {}/{}",
                                x.place,
                                x.name,
                                x.team_name,
                                words::points(x.points),
                                x.games
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("; "),
                })
                .collect(),
        })
        .collect()
}

/// The awards page's body, drawn once per data version.
pub async fn awards_html(state: &AppState, league: &str, season: &str) -> Result<Bytes, WebError> {
    let tree = site::one(state, league).await?;
    let s = load_public(state, &tree, season).await?;
    let (l, x) = (&s.league.slug, &s.season.slug);
    let mut page = AwardsPage {
        layout: site_layout(
            format!("Awards: {} {}", s.league.name, s.season.name),
            format!("Awards {}", s.season.name),
            vec![
                Link::new(league_href(l), &s.league.name),
                Link::new(season_href(l, x), &s.season.name),
            ],
            super::api::awards_api_href(l, x),
        ),
        problem: None,
        awards: Vec::new(),
        trophies: 0,
        to_settle: Vec::new(),
        boards: Vec::new(),
        ledger: format!("{}/ledger", league_href(l)),
        playoffs: playoffs_href(l, x),
        playoffs_pending: s
            .playoffs
            .as_ref()
            .and_then(Drawn::finish)
            .and_then(|f| f.winner)
            .is_none(),
        running: words_list(s.running().into_iter()),
    };
    match s.awards() {
        Ok(list) => {
            page.awards = award_lines(&list);
            page.trophies = list.trophies;
            page.to_settle = list.to_settle.clone();
            page.boards = board_blocks(&list);
        }
        Err(e) => page.problem = Some(e),
    }
    page.render().map(Bytes::from).map_err(WebError::internal)
}

/// GET `/leagues/{league}/{season}/awards`: the awards list (public, printable).
pub async fn awards(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, WebError> {
    let (l, s) = season_path(path)?;
    let key = season_end::public_key(&state, Format::Html, &l, &s, "awards").await;
    Ok(respond::site(&state, &headers, key, Format::Html, || {
        awards_html(&state, &l, &s)
    })
    .await)
}

/// A competition's address, for the pages that link a playoff match.
pub fn playoff_competition_href(league: &str, season: &str) -> String {
    competition_href(league, season, &season_end::playoff_slug(season))
}
