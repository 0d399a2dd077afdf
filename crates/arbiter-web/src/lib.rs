//! The HTTP server: HTML pages readable without JavaScript, and the JSON API at /api/v1.
//!
//! Pages (stable, slug-based addresses):
//! - `/`: leagues and events, and what is on this week;
//! - `/leagues/{league}` and `/leagues/{league}/{season}`;
//! - `/leagues/{league}/{season}/{competition}`: standings with every criterion of the ruleset,
//!   and the rounds; `…/crosstable`, `…/rounds/{n}`, `…/teams/{team}`, `…/players/{player}`,
//!   `…/explain` (why the teams are in this order, with rule IDs).
//!
//! The API mirrors them under `/api/v1/leagues/…` (`/standings`, `/crosstable`, `/rounds`,
//! `/rounds/{n}`, `/teams/{team}`, `/players/{player}`), described by `/api/v1/openapi.json`.
//!
//! Every answer carries an ETag made of the build and the data's version; a page is computed
//! once per data version and then served from memory.
//!
//! Accounts (issue 5): sign-in, invitations, resets and the account page (`accounts`), a
//! league's people (`people`), match reports (`results`, the API's `api::write`), the history
//! (`history`) and the Treasurer's fee ledger (`ledger`, the API's `api::ledger`, GT-O2) and the President's
//! suspension of a season's schedule (`suspension`, the API's `api::suspension`, GT-F5). Every route that needs more than the public is in [`routes::table`] with the
//! permission it needs; sessions live in the store (`http::sessions`), and the router
//! checks sign-in and every form's CSRF token from that table (`http::guard`).
//!
//! Areas, each a folder: `ui` (the shared vocabulary, importing nothing outside it), `http`
//! (plumbing) and `app` (state, views, cached answers), then the areas of pages and the API.
//! Before an event's rosters lock (AS-12) the public gets a copy of a competition that names no
//! player (`AppState::seen_by`, by core's `sealed::may_see_roster`). Private pages are drawn
//! per request, `no-store`; `tracing`'s `TraceLayer` is the outermost layer. `templates/` mirror
//! the areas (askama); `static/arbiter.css` holds the phone and print rules.

mod accounts;
mod api;
mod app;
mod event;
mod findings;
mod history;
mod http;
mod ledger;
pub mod pairing;
mod people;
mod public;
mod results;
mod rosters;
pub mod routes;
mod schedule_mail;
pub mod season_end;
mod setup;
mod suspension;
mod ui;

use std::net::SocketAddr;

use axum::Router;
use axum::routing::{MethodRouter, get};
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

pub use api::doc::openapi;
pub use app::state::{AppState, DEFAULT_CACHE_MIB, DEFAULT_FRESHNESS};
pub use event::{EventCommand, event_lines, roster_locked, set_event_as};
pub use http::connections::Limits;
pub use http::error::WebError;
pub use results::command::{MatchAddress, OfficerStep, officer_step};
pub use results::notify::remind;
pub use rosters::{link_person_from_command_line, person_lines};
pub use suspension::undo_suspension_as;

/// Every page, the API and the stylesheet.
pub fn router(state: AppState) -> Router {
    let (api, _document) = api::doc::routes().split_for_parts();
    // Public pages need no session: a signed-in reader gets them from memory as anyone does.
    let c = "/leagues/{league}/{season}/{competition}";
    let below_competition = competition_pages()
        .into_iter()
        .map(|(tail, handler)| (format!("{c}{tail}"), handler));
    let public = league_pages()
        .into_iter()
        .map(|(path, handler)| (path.to_string(), handler))
        .chain(below_competition)
        .fold(Router::new(), |r, (path, handler)| r.route(&path, handler))
        .merge(api);
    // The match page shows each visitor their own controls; the guarded routes are the table's.
    let mut personal = Router::new()
        .route(
            &format!("{c}/rounds/{{round}}/matches/{{home}}"),
            get(results::page::match_page),
        )
        .route(
            &format!("{c}/protests"),
            get(event::protests::protests_page),
        );
    for (rule, handler) in routes::guarded() {
        // The table's guard runs before the handler: sign-in, then a form's CSRF token.
        let handler = handler.layer(axum::middleware::from_fn_with_state(
            http::guard::Enforced::from(&rule),
            http::guard::enforce,
        ));
        let handler = if rule.limited {
            rate_limited(handler, &state)
        } else {
            handler
        };
        personal = personal.route(&rule.path, handler);
    }
    let sessions = SessionManagerLayer::new(http::sessions::Sessions::new(state.store()))
        .with_name("arbiter_session")
        .with_http_only(true)
        .with_secure(state.secure_cookies())
        .with_same_site(SameSite::Lax)
        .with_expiry(Expiry::OnInactivity(
            tower_sessions::cookie::time::Duration::days(14),
        ));
    let auth = axum_login::AuthManagerLayerBuilder::new(
        http::auth::Accounts::new(state.store().clone()),
        sessions,
    )
    .build();
    public
        .merge(
            personal
                .layer(auth)
                .layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    http::csrf::form_cookie,
                )),
        )
        .fallback(public::handlers::not_found)
        .method_not_allowed_fallback(public::handlers::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(
            http::body_limit::BODY_LIMIT,
        ))
        .layer(axum::middleware::from_fn(
            http::body_limit::refuse_large_bodies,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::security::headers,
        ))
        // Outermost: a request's line, status and time, at DEBUG (`RUST_LOG=tower_http=debug`);
        // a 5xx at ERROR.
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// The public pages above a competition's: address and handler.
fn league_pages() -> Vec<(&'static str, MethodRouter<AppState>)> {
    vec![
        ("/", get(public::handlers::home)),
        ("/leagues/{league}", get(public::handlers::league)),
        (
            "/leagues/{league}/schedule.ics",
            get(public::schedule::league),
        ),
        (
            "/leagues/{league}/schools/{school}/schedule.ics",
            get(public::schedule::school),
        ),
        (
            "/leagues/{league}/schools/{school}/schedule",
            get(public::schedule_sheet::school_sheet),
        ),
        (
            "/leagues/{league}/{season}/schedule.csv",
            get(public::schedule_sheet::season_csv),
        ),
        ("/leagues/{league}/lots", get(event::field::lots_page)),
        (
            "/leagues/{league}/current",
            get(public::handlers::current_season),
        ),
        (
            "/leagues/{league}/current/{*rest}",
            get(public::handlers::current_division),
        ),
        ("/search", get(public::schools::search_page)),
        (
            "/leagues/{league}/schools",
            get(public::schools::schools_page),
        ),
        (
            "/leagues/{league}/schools/{school}",
            get(public::schools::school_page),
        ),
        ("/leagues/{league}/{season}", get(public::handlers::season)),
        (
            "/leagues/{league}/{season}/ratings",
            get(public::handlers::season_ratings),
        ),
        (
            "/leagues/{league}/{season}/ratings.csv",
            get(public::handlers::season_ratings_csv),
        ),
        (
            "/leagues/{league}/{season}/playoffs",
            get(season_end::pages::playoffs),
        ),
        (
            "/leagues/{league}/{season}/awards",
            get(season_end::pages::awards),
        ),
        (
            "/leagues/{league}/{season}/reports/{file}",
            get(season_end::reports::published),
        ),
        ("/static/arbiter.css", get(public::handlers::stylesheet)),
    ]
}

/// A competition's public pages: the address below `/leagues/{league}/{season}/{competition}`
/// and the handler.
fn competition_pages() -> Vec<(&'static str, MethodRouter<AppState>)> {
    vec![
        ("", get(public::handlers::competition)),
        ("/crosstable", get(public::handlers::crosstable)),
        ("/explain", get(public::handlers::explain)),
        ("/projector", get(public::handlers::projector)),
        ("/bulletin", get(public::handlers::bulletin)),
        ("/standings.csv", get(public::exports::standings_csv)),
        ("/competition.json", get(public::exports::competition_json)),
        ("/trf.txt", get(public::exports::trf)),
        ("/ratings", get(public::handlers::ratings)),
        ("/ratings.csv", get(public::exports::ratings_csv)),
        (
            "/rounds/{round}",
            get(public::handlers::item::<app::address::RoundAddress>),
        ),
        ("/schedule.ics", get(public::schedule::competition)),
        ("/schedule", get(public::schedule_sheet::division_sheet)),
        ("/schedule.csv", get(public::schedule_sheet::division_csv)),
        (
            "/teams/{team}",
            get(public::handlers::item::<app::address::TeamAddress>),
        ),
        ("/teams/{team}/schedule.ics", get(public::schedule::team)),
        (
            "/players/{player}",
            get(public::handlers::item::<app::address::PlayerAddress>),
        ),
        (
            "/rounds/{round}/matches/{home}/boards/{board}/game.pgn",
            get(results::page::game_score_pgn),
        ),
    ]
}

/// Sign-in and reset, per address: 10 attempts in any minute, counted in the store so that
/// every server on the database shares the count.
fn rate_limited(handler: MethodRouter<AppState>, state: &AppState) -> MethodRouter<AppState> {
    handler.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        http::attempts::per_address,
    ))
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "cannot listen on {addr}: {source}; another program may be using it, so choose another address with --bind"
    )]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// Serves the site on `bind` within `limits` until Ctrl-C (or SIGTERM), then finishes the
/// requests in flight. The store must already be migrated.
pub async fn serve(state: AppState, bind: SocketAddr, limits: Limits) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|source| ServeError::Bind { addr: bind, source })?;
    serve_state(listener, state, limits, shutdown()).await;
    Ok(())
}

/// Serves `state` on an open listener within `limits` until `stop` completes, with the
/// peers' addresses for the rate limits, and removes expired sessions and day-old failed
/// sign-ins hourly.
pub async fn serve_state(
    listener: tokio::net::TcpListener,
    state: AppState,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let sessions = http::sessions::Sessions::new(state.store());
    let store = state.store().clone();
    let upkeep = tokio::spawn(async move {
        loop {
            let _ = sessions.delete_expired().await;
            // The throttle looks back 15 minutes; a day is kept for whoever looks into an attack.
            let day = jiff::SignedDuration::from_hours(24);
            if let Ok(day_ago) = jiff::Timestamp::now().checked_sub(day) {
                let _ = store.forget_sign_in_failures(day_ago).await;
            }
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
        }
    });
    let reminders = state
        .reminders_at()
        .map(|at| tokio::spawn(send_reminders(state.clone(), at)));
    let trusted: std::sync::Arc<[std::net::IpAddr]> = state.trusted_proxies().into();
    let outbox = state.clone();
    http::connections::serve(listener, router(state), limits, trusted, stop).await;
    upkeep.abort();
    if let Some(r) = reminders {
        r.abort();
    }
    // Notices of the last writes go out before the server stops.
    outbox.mail_sent().await;
}

/// Issue 32 (item 12): each league's GT-P2 reminders when its local time passes `at`, checked
/// every minute. Only a moment the server was up for counts: a restart after `at` sends nothing
/// more that day, so a deploy never sends a day's reminders twice (a server down at `at` misses
/// them; `arbiter remind` from cron covers that).
async fn send_reminders(state: AppState, at: jiff::civil::Time) {
    let mut last = state.now();
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(60)).await;
        let now = state.now();
        let leagues = match state.store().leagues().await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(cause = %e, "the leagues could not be read for the reminders");
                continue;
            }
        };
        for league in leagues {
            let zone = &league.time_zone;
            let (was, is) = (zone.local(last), zone.local(now));
            if arbiter_core::record::zone::passed(was, is, at) {
                match results::notify::remind_in(&state, Some(&league.slug)).await {
                    Ok((sent, failed)) => tracing::info!(
                        league = %league.slug, sent, failed, "GT-P2 reminders sent"
                    ),
                    Err(e) => {
                        tracing::warn!(league = %league.slug, cause = %e, "the reminders failed")
                    }
                }
            }
        }
        last = now;
    }
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
