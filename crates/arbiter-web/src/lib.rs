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

mod api;
mod error;
mod format;
mod handlers;
mod http;
mod pages;
mod respond;
mod site;
mod state;
mod view;

use std::net::SocketAddr;

use axum::Router;
use axum::routing::get;

pub use api::openapi;
pub use error::WebError;
pub use state::{AppState, DEFAULT_FRESHNESS};

/// Every page, the API and the stylesheet.
pub fn router(state: AppState) -> Router {
    let (api, _document) = api::routes().split_for_parts();
    let c = "/leagues/{league}/{season}/{competition}";
    Router::new()
        .route("/", get(handlers::home))
        .route("/leagues/{league}", get(handlers::league))
        .route("/leagues/{league}/{season}", get(handlers::season))
        .route(c, get(handlers::competition))
        .route(&format!("{c}/crosstable"), get(handlers::crosstable))
        .route(&format!("{c}/explain"), get(handlers::explain))
        .route(&format!("{c}/rounds/{{round}}"), get(handlers::round))
        .route(&format!("{c}/teams/{{team}}"), get(handlers::team))
        .route(&format!("{c}/players/{{player}}"), get(handlers::player))
        .route("/static/arbiter.css", get(http::stylesheet))
        .merge(api)
        .fallback(handlers::not_found)
        .method_not_allowed_fallback(handlers::method_not_allowed)
        .with_state(state)
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
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// Serves the site on `bind` until Ctrl-C (or SIGTERM), then finishes the requests in flight.
/// The store must already be migrated.
pub async fn serve(store: arbiter_store::Store, bind: SocketAddr) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|source| ServeError::Bind { addr: bind, source })?;
    axum::serve(listener, router(AppState::new(store)))
        .with_graceful_shutdown(shutdown())
        .await
        .map_err(ServeError::Serve)
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
