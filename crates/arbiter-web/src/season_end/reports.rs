//! The media reports (GT-O3): the Vice-President's page (`GET/POST
//! /leagues/{league}/{season}/reports`), where the product's draft of the midway and the end of
//! season report is edited, saved and published, every version kept; and the published report
//! as a public page, a plain-text press release and Markdown
//! (`/leagues/{league}/{season}/reports/{midway|end}[.txt|.md]`).

use arbiter_core::rules::permissions::Action;
use arbiter_core::season_end::media::{self, Moment};
use askama::Template;
use axum::Form;
use axum::body::Bytes;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, SeasonAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::app::site;
use crate::app::state::AppState;
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::http::auth::{self, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::season_end::{SeasonEnd, load, save_report};
use crate::ui::layout::{Layout, private_layout, site_layout};
use crate::ui::link::{Link, league_href, season_href};
use crate::ui::words::{self, FNV_OFFSET, fnv1a};

/// `/leagues/{league}/{season}/reports`: the Vice-President's page.
pub fn reports_href(league: &str, season: &str) -> String {
    format!("{}/reports", season_href(league, season))
}

/// `/leagues/{league}/{season}/reports/midway`: a published report (add `.txt` or `.md`).
pub fn report_href(league: &str, season: &str, moment: Moment) -> String {
    format!("{}/{}", reports_href(league, season), moment.code())
}

/// The product's draft of the `moment` report: the press release and the Markdown.
pub fn draft(s: &SeasonEnd, moment: Moment) -> Result<(String, String), String> {
    let r = s.report(moment)?;
    Ok((media::to_text(&r), media::to_markdown(&r)))
}

struct VersionLine {
    version: u32,
    what: &'static str,
    by: String,
    at: String,
}

struct MomentBlock {
    code: &'static str,
    title: &'static str,
    seen: u32,
    text: String,
    markdown: String,
    from: String,
    problem: Option<String>,
    versions: Vec<VersionLine>,
    published: Option<String>,
}

#[derive(Template)]
#[template(path = "season_end/reports.html", whitespace = "minimize")]
struct ReportsPage {
    layout: Layout,
    csrf: String,
    action: String,
    notice: Option<String>,
    problems: Vec<String>,
    moments: Vec<MomentBlock>,
    max: usize,
    /// GT-O3: the Vice-President writes and publishes; the President reads the drafts.
    may_publish: bool,
}

fn moment_block(s: &SeasonEnd, moment: Moment) -> MomentBlock {
    let versions = s.versions(moment);
    let latest = versions.last();
    let (text, markdown, from, problem) = match (latest, draft(s, moment)) {
        (Some(v), _) => (
            v.text.clone(),
            v.markdown.clone(),
            format!(
                "Version {}, {} — edit it and save or publish a new version.",
                v.version,
                if v.published { "published" } else { "a draft" }
            ),
            None,
        ),
        (None, Ok((t, m))) => (
            t,
            m,
            "The product's draft, from the standings as they are now (GT-O3).".into(),
            None,
        ),
        (None, Err(e)) => (String::new(), String::new(), String::new(), Some(e)),
    };
    MomentBlock {
        code: moment.code(),
        title: moment.title(),
        seen: latest.map_or(0, |v| v.version),
        text,
        markdown,
        from,
        problem,
        versions: versions
            .iter()
            .rev()
            .map(|v| VersionLine {
                version: v.version,
                what: if v.published { "published" } else { "draft" },
                by: v
                    .written_by
                    .clone()
                    .unwrap_or_else(|| "the command line".into()),
                at: words::timestamp(v.written_at),
            })
            .collect(),
        published: s
            .published(moment)
            .map(|_| report_href(&s.league.slug, &s.season.slug, moment)),
    }
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    path: Addressed<SeasonAddress>,
    action: Action,
) -> Result<(SeasonEnd, auth::Acting), WebError> {
    let Path(SeasonAddress { league, season }) = path.map_err(|e| bad_path(&e))?;
    let (tree, acting) = site::league_officer(state, auth, &league, action).await?;
    Ok((load(state, &tree, &season).await?, acting))
}

async fn page(
    auth: &Auth,
    s: &SeasonEnd,
    notice: Option<String>,
    problems: Vec<String>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let (league, season) = (&s.league.slug, &s.season.slug);
    let page = ReportsPage {
        layout: private_layout(
            &format!("Media reports: {}", s.season.name),
            vec![
                Link::new(league_href(league), &s.league.name),
                Link::new(season_href(league, season), &s.season.name),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: reports_href(league, season),
        notice,
        problems,
        moments: Moment::ALL.iter().map(|m| moment_block(s, *m)).collect(),
        max: arbiter_store::MEDIA_REPORT_MAX_CHARS,
        may_publish: auth::may_in_league(auth, s.league.id, Action::PublishMediaReport),
    };
    Ok(private(status, &page))
}

/// `?saved=draft|published`.
#[derive(Debug, Default, Deserialize)]
pub struct Saved {
    #[serde(default)]
    saved: Option<String>,
}

/// GET `/leagues/{league}/{season}/reports`: both reports, to edit and publish.
pub async fn reports_page(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    saved: Result<Query<Saved>, QueryRejection>,
) -> Result<Response, WebError> {
    let (s, _) = guard(&state, &auth, path, Action::ReadMediaReportDrafts).await?;
    let notice = saved.ok().and_then(|Query(q)| q.saved).map(|w| {
        if w == "published" {
            "The report is published: its page, press release and Markdown are public, and the version is kept in the history (GT-O3).".to_string()
        } else {
            "The draft is saved as a new version; nothing is published yet (GT-O3).".to_string()
        }
    });
    page(&auth, &s, notice, Vec::new(), StatusCode::OK).await
}

/// The form: which report, the version edited, both texts, and draft or publish.
#[derive(Debug, Default, Deserialize)]
pub struct ReportFields {
    #[serde(default)]
    moment: String,
    #[serde(default)]
    seen: u32,
    #[serde(default)]
    text: String,
    #[serde(default)]
    markdown: String,
    #[serde(default)]
    step: String,
}

/// POST `/leagues/{league}/{season}/reports`: saves a draft (`step=draft`) or publishes
/// (`step=publish`) a new version of the report.
pub async fn save(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<SeasonAddress>,
    Form(f): Form<ReportFields>,
) -> Result<Response, WebError> {
    let (s, acting) = guard(&state, &auth, path, Action::PublishMediaReport).await?;
    let Some(moment) = Moment::from_code(&f.moment) else {
        return Err(WebError::BadRequest(format!(
            "“{}” is not a report: the Vice-President reports midway and at the end (GT-O3).",
            f.moment
        )));
    };
    let publish = f.step == "publish";
    // Forms send CRLF line ends; the report keeps the lines as typed, with LF.
    let text = f.text.replace("\r\n", "\n");
    let markdown = f.markdown.replace("\r\n", "\n");
    match save_report(
        &state,
        &s,
        moment,
        f.seen,
        (&text, &markdown),
        publish,
        &acting,
    )
    .await
    {
        Ok(_) => Ok(see_other(&format!(
            "{}?saved={}",
            reports_href(&s.league.slug, &s.season.slug),
            if publish { "published" } else { "draft" }
        ))),
        Err(WebError::Conflict(m) | WebError::Refused(m)) => {
            page(&auth, &s, None, vec![m], StatusCode::UNPROCESSABLE_ENTITY).await
        }
        Err(e) => Err(e),
    }
}

#[derive(Template)]
#[template(path = "season_end/report.html", whitespace = "minimize")]
struct ReportPage {
    layout: Layout,
    text: String,
    at: String,
    text_href: String,
    markdown_href: String,
}

/// GET `/leagues/{league}/{season}/reports/{file}`: `midway` or `end` as a page, `.txt` the
/// press release, `.md` Markdown; only what the Vice-President published (GT-O3).
pub async fn published(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: Result<Path<(String, String, String)>, PathRejection>,
) -> Result<Response, WebError> {
    let (league, season, file) = path.map(|Path(p)| p).map_err(|r| bad_path(&r))?;
    let (code, kind) = file.split_once('.').unwrap_or((file.as_str(), "html"));
    let Some(moment) = Moment::from_code(code) else {
        return Err(WebError::not_found(format!(
            "There is no report “{file}”: the reports are midway and end, as a page, .txt or .md (GT-O3)."
        )));
    };
    let tree = site::one(&state, &league).await?;
    let Some((found, _)) = tree.seasons.iter().find(|(s, _)| s.slug == season) else {
        return Err(WebError::not_found(format!(
            "{} has no season “{season}”.",
            tree.league.name
        )));
    };
    let versions = state.store().media_reports(found.id).await?;
    let Some(v) = versions
        .iter()
        .rev()
        .find(|v| v.moment == moment && v.published)
    else {
        return Err(WebError::not_found(format!(
            "The {} of {} is not published yet; the Vice-President publishes it (GT-O3).",
            moment.title().to_lowercase(),
            found.name
        )));
    };
    let (content_type, body) = match kind {
        "txt" => ("text/plain; charset=utf-8", Bytes::from(v.text.clone())),
        "md" => (
            "text/markdown; charset=utf-8",
            Bytes::from(v.markdown.clone()),
        ),
        "html" => {
            let here = report_href(&league, &season, moment);
            let page = ReportPage {
                layout: site_layout(
                    format!("{}: {} {}", moment.title(), tree.league.name, found.name),
                    format!("{}, {}", moment.title(), found.name),
                    vec![
                        Link::new(league_href(&league), &tree.league.name),
                        Link::new(season_href(&league, &season), &found.name),
                    ],
                    format!("{here}.md"),
                ),
                text: v.text.clone(),
                at: words::timestamp(v.written_at),
                text_href: format!("{here}.txt"),
                markdown_href: format!("{here}.md"),
            };
            (
                "text/html; charset=utf-8",
                page.render().map(Bytes::from).map_err(WebError::internal)?,
            )
        }
        _ => {
            return Err(WebError::not_found(format!(
                "There is no report “{file}”: write {code}, {code}.txt or {code}.md."
            )));
        }
    };
    let tag = etag(fnv1a(FNV_OFFSET, &body), kind.as_bytes());
    if not_modified(&headers, &tag) {
        return Ok(unchanged(tag, PAGE_CACHE));
    }
    Ok(ok(
        HeaderValue::from_static(content_type),
        tag,
        PAGE_CACHE,
        body,
    ))
}
