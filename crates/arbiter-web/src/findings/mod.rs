//! The officers' page of findings (issue 12): everything each competition of the league breaks
//! of its rules, as `arbiter check` lists it (core's `check`, the season-wide GT-M15 and AS-3
//! included), and the rulings on its violations. A result played with a lineup that broke a
//! rule is kept and scored; the President rules that it stands, with the reason, or corrects
//! it on the match page. GT-O3: the Vice-President rules where the President's school plays.

use std::collections::HashMap;

use arbiter_core::rules::permissions::{Action, Target};
use arbiter_core::rules::validate::{Finding, Severity};
use arbiter_core::season::check;
use arbiter_store::{CompetitionId, CompetitionRecord, Season, StoreError};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::{private, see_other};
use crate::app::season::SeasonViews;
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{self, Account, Auth};
use crate::http::csrf;
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};
use crate::ui::words;

/// One finding on the page, with its ruling or the form to rule.
struct Line {
    anchor: String,
    severity: &'static str,
    text: String,
    at: Option<Link>,
    ruling: Option<String>,
    form: Option<RulingForm>,
}

struct RulingForm {
    competition: i64,
    key: String,
    problem: Option<String>,
}

struct CompetitionBlock {
    name: Link,
    open: usize,
    lines: Vec<Line>,
}

struct SeasonBlock {
    name: String,
    competitions: Vec<CompetitionBlock>,
}

#[derive(Template)]
#[template(path = "findings/findings.html", whitespace = "minimize")]
struct FindingsPage {
    layout: Layout,
    csrf: String,
    action: String,
    seasons: Vec<SeasonBlock>,
    /// The league's other seasons' findings (issue 35: one season is read at a time).
    others: Vec<Link>,
    notice: Option<String>,
}

/// `/leagues/{league}/findings`, of the season `season` (its slug) or the one being played.
fn findings_href(league: &str, season: Option<&str>) -> String {
    let base = format!("{}/findings", league_href(league));
    match season {
        Some(s) => format!("{base}?season={s}"),
        None => base,
    }
}

/// Where a finding of `view`'s is ruled on: its line on its season's findings (issue 32).
pub fn finding_href(view: &CompetitionView, f: &Finding) -> String {
    format!(
        "{}#{}",
        findings_href(&view.league.slug, Some(&view.season.slug)),
        anchor(view, &f.key())
    )
}

/// The season a findings page shows: the one named, else the one being played, else the
/// latest; `None` when the league has no season of that name or none at all.
fn season_of<'t>(
    state: &AppState,
    tree: &'t LeagueTree,
    season: Option<&str>,
) -> Option<&'t (Season, Vec<CompetitionRecord>)> {
    match season {
        Some(slug) => tree.seasons.iter().find(|(s, _)| s.slug == slug),
        None => tree.season_now(state).or(tree.seasons.last()),
    }
}

fn anchor(view: &CompetitionView, key: &str) -> String {
    format!("f-{}-{}", view.id, words::segment(key))
}

/// A finding's match as the league names it: `Round 3: Whitmer v St. John's Jesuit A, Fri 14
/// Nov 2026`; `None` for a finding outside a match.
pub fn match_words(view: &CompetitionView, f: &Finding) -> Option<String> {
    let (round, home) = (f.round?, f.home.as_ref()?);
    let found = view.round(round).and_then(|r| {
        r.pairings.iter().find_map(|p| match p {
            arbiter_core::Pairing::Match(m) if &m.home == home => Some((r, m)),
            _ => None,
        })
    });
    let (away, day) = match found {
        Some((r, m)) => (Some(&m.away), r.date_of(m)),
        None => (f.away.as_ref(), None),
    };
    let mut out = format!("Round {round}: {}", view.team_name(home));
    if let Some(a) = away {
        out.push_str(&format!(" v {}", view.team_name(a)));
    }
    if let Some(d) = day {
        out.push_str(&format!(", {}", words::date(d)));
    }
    Some(out)
}

/// The findings waiting for a ruling that this officer may give (GT-O3), one line a ruling,
/// for the account page's "Needs you now".
pub async fn open_for(
    state: &AppState,
    tree: &LeagueTree,
    officer: arbiter_core::rules::permissions::Subject<'_>,
) -> Result<Vec<(Link, String, String)>, WebError> {
    let mut out = Vec::new();
    // The season being played: an earlier season's are on its findings page.
    if let Some(season) = season_of(state, tree, None) {
        for (view, found) in findings(state, tree, season).await? {
            let mut seen = std::collections::HashSet::new();
            for f in &found {
                let key = f.key();
                if f.severity != Severity::Violation
                    || view.stored.ruling(&key).is_some()
                    || !seen.insert(key)
                    || !arbiter_core::rules::permissions::decide(
                        officer,
                        Action::RuleOnViolation,
                        target(&view, f),
                    )
                    .is_allowed()
                {
                    continue;
                }
                let place = match_words(&view, f).unwrap_or_else(|| view.record.name.clone());
                out.push((
                    Link::new(finding_href(&view, f), place),
                    view.record.name.clone(),
                    format!(
                        "Rule whether the result stands: {} (GT-O3)",
                        f.on_its_match()
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// One season's competitions as views, each with its findings, the season-wide ones (GT-M15,
/// AS-3) among them.
async fn findings(
    state: &AppState,
    tree: &LeagueTree,
    (season, records): &(Season, Vec<CompetitionRecord>),
) -> Result<Vec<(std::sync::Arc<CompetitionView>, Vec<Finding>)>, WebError> {
    let mut views = Vec::new();
    for r in records {
        views.push(state.view(&tree.league.slug, &season.slug, &r.slug).await?);
    }
    let event = state.store().event(season.id).await?;
    let season_views = SeasonViews::of(views, event.as_ref());
    let mut by_competition: Vec<Vec<Finding>> = vec![Vec::new(); season_views.views.len()];
    for f in check::season(&season_views.entries()) {
        by_competition[f.competition].push(f.finding);
    }
    Ok(season_views.views.into_iter().zip(by_competition).collect())
}

/// The table's target of a finding: its match's two schools (GT-O3).
fn target<'a>(view: &'a CompetitionView, f: &Finding) -> Target<'a> {
    let school = |t: &Option<arbiter_core::TeamId>| {
        t.as_ref()
            .and_then(|t| view.competition.team(t))
            .and_then(|t| t.school.as_deref())
    };
    Target::Match {
        home: school(&f.home),
        visiting: school(&f.away),
        conduct: view.rules.conduct,
    }
}

/// Who may rule on a finding of `view`'s: the table's `RuleOnViolation` on its match (GT-O3).
fn may_rule(view: &CompetitionView, account: Option<&Account>, f: &Finding) -> bool {
    auth::may(
        account,
        view.league.id,
        Action::RuleOnViolation,
        target(view, f),
    )
}

/// The findings page of `tree`'s season `season` (its slug; the one being played when `None`).
async fn page(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    season: Option<&str>,
    problem: Option<(String, String)>,
    notice: Option<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let account = auth.user.as_ref();
    let csrf = csrf::session_token(&auth.session).await?;
    let Some(chosen) = season_of(state, tree, season) else {
        return Err(WebError::NotFound {
            message: match season {
                Some(slug) => format!(
                    "{} has no season “{slug}”, so no findings of it. Its seasons' findings are listed below.",
                    tree.league.name
                ),
                None => format!(
                    "{} has no season yet, so nothing to check.",
                    tree.league.name
                ),
            },
            links: season_links(tree, None),
        });
    };
    let mut seasons = Vec::new();
    {
        let name = chosen.0.name.clone();
        let mut blocks = Vec::new();
        for (view, found) in findings(state, tree, chosen).await? {
            let mut seen: HashMap<String, usize> = HashMap::new();
            let lines: Vec<Line> = found
                .iter()
                .map(|f| {
                    let key = f.key();
                    // One ruling covers the findings of one key (a rule one lineup breaks twice).
                    let n = seen.entry(key.clone()).or_default();
                    *n += 1;
                    let ruling = view.stored.ruling(&key).map(|r| {
                        format!(
                            "Ruled by {} on {}: the result stands. “{}”",
                            r.by.as_deref().unwrap_or("the command line"),
                            words::timestamp(r.at),
                            r.reason
                        )
                    });
                    let open = f.severity == Severity::Violation && ruling.is_none();
                    // A match's finding is named by its teams and day, not its ids (issue 32).
                    let at = match (f.round, &f.home, match_words(&view, f)) {
                        (Some(r), Some(h), Some(words)) => {
                            Some(Link::new(view.match_href(r, h), words))
                        }
                        _ => None,
                    };
                    Line {
                        anchor: anchor(&view, &key),
                        severity: f.severity.code(),
                        text: if at.is_some() {
                            f.on_its_match()
                        } else {
                            f.to_string()
                        },
                        at,
                        ruling,
                        form: (open && *n == 1 && may_rule(&view, account, f)).then(|| {
                            RulingForm {
                                competition: view.id.0,
                                problem: problem
                                    .as_ref()
                                    .filter(|(k, _)| *k == key)
                                    .map(|(_, p)| p.clone()),
                                key,
                            }
                        }),
                    }
                })
                .collect();
            let mut open: Vec<String> = found
                .iter()
                .filter(|f| f.severity == Severity::Violation)
                .map(Finding::key)
                .filter(|k| view.stored.ruling(k).is_none())
                .collect();
            open.sort();
            open.dedup();
            let open = open.len();
            blocks.push(CompetitionBlock {
                name: Link::new(view.href(), &view.record.name),
                open,
                lines,
            });
        }
        seasons.push(SeasonBlock {
            name,
            competitions: blocks,
        });
    }
    let page = FindingsPage {
        layout: private_layout(
            &format!("Rule findings: {} {}", tree.league.name, chosen.0.name),
            vec![Link::new(league_href(&tree.league.slug), &tree.league.name)],
        ),
        csrf,
        action: findings_href(&tree.league.slug, Some(&chosen.0.slug)),
        seasons,
        others: season_links(tree, Some(&chosen.0.slug)),
        notice,
    };
    Ok(private(status, &page))
}

/// The findings pages of the league's seasons, newest first, but the one `shown`.
fn season_links(tree: &LeagueTree, shown: Option<&str>) -> Vec<Link> {
    tree.seasons
        .iter()
        .rev()
        .filter(|(s, _)| Some(s.slug.as_str()) != shown)
        .map(|(s, _)| Link::new(findings_href(&tree.league.slug, Some(&s.slug)), &s.name))
        .collect()
}

/// `?season=`: the season whose findings a page shows.
#[derive(Debug, Default, Deserialize)]
pub struct SeasonQuery {
    #[serde(default)]
    season: Option<String>,
}

async fn guard(state: &AppState, auth: &Auth, league: &str) -> Result<LeagueTree, WebError> {
    let tree = site::one(state, league).await?;
    auth::permit_in_league(auth, tree.league.id, Action::RuleOnViolation)?;
    Ok(tree)
}

/// GET `/leagues/{league}/findings`: the officers' page.
pub async fn findings_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Query(q): Query<SeasonQuery>,
) -> Response {
    let answer = async {
        let tree = guard(&state, &auth, &league).await?;
        let season = q.season.as_deref().filter(|s| !s.is_empty());
        page(&state, &auth, &tree, season, None, None, StatusCode::OK).await
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// The ruling form: which competition's finding, and why the result stands.
#[derive(Debug, Default, Deserialize)]
pub struct RulingFields {
    #[serde(default)]
    competition: i64,
    #[serde(default)]
    key: String,
    #[serde(default)]
    reason: String,
}

/// POST `/leagues/{league}/findings`: an officer rules that a result carrying a violation
/// stands, with the reason; back to the page at the finding.
pub async fn rule(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<RulingFields>,
) -> Response {
    let answer = async {
        let tree = guard(&state, &auth, &league).await?;
        // The season of the competition ruled on: only its findings are read.
        let Some(season) = tree
            .seasons
            .iter()
            .find(|(_, cs)| cs.iter().any(|c| c.id.0 == f.competition))
        else {
            return page(
                &state,
                &auth,
                &tree,
                None,
                None,
                Some("That competition is not in this league; here are the findings of the season being played.".into()),
                StatusCode::CONFLICT,
            )
            .await;
        };
        let season_slug = Some(season.0.slug.as_str());
        let all = findings(&state, &tree, season).await?;
        let found = all.iter().find_map(|(view, fs)| {
            (view.id.0 == f.competition)
                .then(|| fs.iter().find(|x| x.key() == f.key).map(|x| (view, x)))
                .flatten()
        });
        let Some((view, finding)) = found else {
            return page(
                &state,
                &auth,
                &tree,
                season_slug,
                None,
                Some("That finding is no longer there: the record changed (a correction fixed it, or it was ruled on). Here is the list as it stands.".into()),
                StatusCode::CONFLICT,
            )
            .await;
        };
        let acting = auth::permit(
            auth.user.as_ref(),
            view.league.id,
            Action::RuleOnViolation,
            target(view, finding),
        )?;
        if finding.severity != Severity::Violation {
            return Err(WebError::Refused(
                "Only a violation is ruled on; an error is fixed in the record, and a warning needs nothing.".into(),
            ));
        }
        let again = |problem: String, status| {
            page(
                &state,
                &auth,
                &tree,
                season_slug,
                Some((f.key.clone(), problem)),
                None,
                status,
            )
        };
        if f.reason.trim().is_empty() {
            return again(
                "Say why the result stands (required); it is kept in the history.".into(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
        match state
            .store()
            .record_ruling(
                CompetitionId(f.competition),
                &f.key,
                &finding.to_string(),
                f.reason.trim(),
                &acting.actor(),
            )
            .await
        {
            Ok(_) => {
                state.invalidate();
                Ok(see_other(&findings_href(&tree.league.slug, season_slug)))
            }
            Err(StoreError::Invalid(m)) => again(m, StatusCode::UNPROCESSABLE_ENTITY).await,
            Err(StoreError::Stale(m)) => again(m, StatusCode::CONFLICT).await,
            Err(e) => Err(e.into()),
        }
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}
