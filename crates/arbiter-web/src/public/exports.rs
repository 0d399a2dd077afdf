//! A competition's files for download (issue 14): the standings as CSV (the bytes
//! `arbiter standings --format csv` writes), the rating list as CSV (issue 11), the competition
//! file (`arbiter/competition@1`) and the event as TRF-2026 for rating. Public like the pages they come from, with the same ETag.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;

use crate::app::address::CompetitionAddress;
use crate::app::respond::bad_path;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::http::error::{Format, WebError};
use crate::public::handlers::CompetitionPath;

/// Which file.
#[derive(Debug, Clone, Copy)]
enum Export {
    StandingsCsv,
    RatingsCsv,
    CompetitionJson,
    Trf,
}

impl Export {
    fn suffix(self) -> &'static str {
        match self {
            Export::StandingsCsv => "standings.csv",
            Export::RatingsCsv => "ratings.csv",
            Export::CompetitionJson => "competition.json",
            Export::Trf => "trf.txt",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Export::StandingsCsv | Export::RatingsCsv => "text/csv; charset=utf-8",
            Export::CompetitionJson => "application/json",
            Export::Trf => "text/plain; charset=utf-8",
        }
    }

    fn bytes(self, view: &CompetitionView) -> Result<Vec<u8>, WebError> {
        let (c, rules) = (&view.competition, &view.rules);
        Ok(match self {
            Export::StandingsCsv if view.knockout() => {
                return Err(view.bracket_instead("standings"));
            }
            Export::StandingsCsv => {
                let s = view.standings.as_ref().map_err(|m| {
                    WebError::Refused(format!("The standings cannot be computed: {m}"))
                })?;
                arbiter_formats::standings_csv::write(c, s, Some(&view.explanation)).into_bytes()
            }
            // Every cell through `arbiter_formats::csv`, no formula.
            Export::RatingsCsv => crate::public::ratings::csv(view).into_bytes(),
            Export::CompetitionJson => {
                arbiter_formats::competition_json::write(c, rules, &[]).into_bytes()
            }
            Export::Trf => {
                arbiter_formats::trf::write(&arbiter_formats::trf::from_competition(c, rules, &[]))
            }
        })
    }
}

async fn export(
    state: &AppState,
    headers: &HeaderMap,
    path: CompetitionPath,
    what: Export,
) -> Response {
    let answer = async {
        let Path(CompetitionAddress {
            league,
            season,
            competition,
        }) = path.map_err(|r| bad_path(&r))?;
        let view = state.public_view(&league, &season, &competition).await?;
        let tag = etag(view.etag_base, what.suffix().as_bytes());
        if not_modified(headers, &tag) {
            return Ok(unchanged(tag, PAGE_CACHE));
        }
        let mut answer = ok(
            HeaderValue::from_static(what.content_type()),
            tag,
            PAGE_CACHE,
            Bytes::from(what.bytes(&view)?),
        );
        let file = format!(
            "attachment; filename=\"{league}-{season}-{competition}-{}\"",
            what.suffix()
        );
        if let Ok(v) = HeaderValue::from_str(&file) {
            answer
                .headers_mut()
                .insert(axum::http::header::CONTENT_DISPOSITION, v);
        }
        Ok(answer)
    };
    answer
        .await
        .unwrap_or_else(|e: WebError| e.answer(Format::Html))
}

/// `…/standings.csv`.
pub async fn standings_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    export(&state, &headers, path, Export::StandingsCsv).await
}

/// `…/ratings.csv`: the rating list (issue 11).
pub async fn ratings_csv(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    export(&state, &headers, path, Export::RatingsCsv).await
}

/// `…/competition.json`: the file `arbiter standings` and `arbiter import` read.
pub async fn competition_json(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    export(&state, &headers, path, Export::CompetitionJson).await
}

/// `…/trf.txt`: the event as TRF-2026, for the rating officer.
pub async fn trf(
    State(state): State<AppState>,
    headers: HeaderMap,
    path: CompetitionPath,
) -> Response {
    export(&state, &headers, path, Export::Trf).await
}
