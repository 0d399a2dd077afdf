//! CSRF protection: every form carries the session's token, and a submission is accepted only
//! with that token and, when the browser sends one, an `Origin` of this site (DESIGN.md).

use axum::http::{HeaderMap, header};
use tower_sessions::Session;

use crate::error::WebError;

const KEY: &str = "csrf";

/// The session's token, made on first use (which starts the session).
pub async fn token(session: &Session) -> Result<String, WebError> {
    if let Ok(Some(t)) = session.get::<String>(KEY).await {
        return Ok(t);
    }
    rotate(session).await
}

/// A fresh token: at sign-in and sign-out, so a token seen before sign-in is worthless after.
pub async fn rotate(session: &Session) -> Result<String, WebError> {
    let t = arbiter_store::secrets::new_token();
    session
        .insert(KEY, &t)
        .await
        .map_err(|_| WebError::Unavailable)?;
    Ok(t)
}

/// Refuses a submission whose token is missing, forged or from an ended session, or whose
/// `Origin` is another site.
pub async fn verify(
    session: &Session,
    headers: &HeaderMap,
    submitted: &str,
) -> Result<(), WebError> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let origin_host = origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://").map(|(_, rest)| rest));
        if origin.as_bytes() != b"null" && (host.is_none() || origin_host != host) {
            return Err(WebError::Forbidden(
                "This form was sent from another site, so it was not accepted. Open the page on this site and submit it there.".into(),
            ));
        }
    }
    let expected = session.get::<String>(KEY).await.ok().flatten();
    match expected {
        Some(e) if !submitted.is_empty() && constant_time_eq(e.as_bytes(), submitted.as_bytes()) => Ok(()),
        _ => Err(WebError::Forbidden(
            "This form has expired or did not come from this site, so nothing was changed. Go back, reload the page and submit it again.".into(),
        )),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
