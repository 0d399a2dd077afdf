//! The per-address limit on sign-in and reset attempts: 10 in any minute from one address,
//! counted in the store so that every server on the database counts the same attempts (issue
//! 16, part 3: behind a load balancer, an address spread over several servers gets no more
//! tries than against one). The limits per account and address are the handlers', also in the
//! store.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::state::AppState;
use crate::http::auth::client_address;
use crate::http::error::{Format, WebError};

/// Attempts let through from one address in any [`WINDOW`].
pub const ATTEMPTS: u32 = 10;
/// The window the attempts are counted in.
pub const WINDOW: jiff::SignedDuration = jiff::SignedDuration::from_secs(60);

/// Lets the attempt through when the address has attempts left, else answers 429 with when.
pub async fn per_address(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let address = client_address(req.extensions(), req.headers(), state.trusted_proxies());
    let now = jiff::Timestamp::now();
    let since = now.checked_sub(WINDOW).unwrap_or(jiff::Timestamp::MIN);
    let attempts = match state
        .store()
        .address_attempt(&address, since, ATTEMPTS)
        .await
    {
        Ok(None) => return next.run(req).await,
        Ok(Some(attempts)) => attempts,
        Err(e) => return WebError::unavailable(e).answer(Format::Html),
    };
    // A place frees when the earliest attempt in the window leaves it.
    let wait = attempts
        .earliest
        .and_then(|t| t.checked_add(WINDOW).ok())
        .map_or(WINDOW.as_secs(), |free| {
            free.duration_since(now).as_secs().max(1)
        });
    let unit = if wait == 1 { "second" } else { "seconds" };
    let mut response = WebError::TooManyRequests(format!(
        "Too many attempts from this address in a short time. Try again in {wait} {unit}."
    ))
    .answer(Format::Html);
    response
        .headers_mut()
        .insert(axum::http::header::RETRY_AFTER, wait.into());
    response
}
