//! CSRF protection: every form carries a token, and a submission is accepted only with that
//! token and, when the browser sends one, an `Origin` of this site (DESIGN.md).
//!
//! A signed-in visitor's token lives in their session. A visitor who has not signed in has no
//! session, and none is stored for them (issue 9: anonymous visitors filled the database): their
//! token is an HMAC, under the site's secret, of a random value in a form cookie, so it needs
//! no row and is good only with that cookie.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use tower_sessions::Session;
use tower_sessions::cookie::{Cookie, SameSite};

use crate::app::state::AppState;
use crate::http::error::{Format, WebError};

const KEY: &str = "csrf";

/// The form cookie's name; `__Host-` over TLS, so no other site or subdomain can set it.
fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-arbiter_form"
    } else {
        "arbiter_form"
    }
}

/// The visitor's form cookie, or the one this answer will set if a page's form needs it.
#[derive(Debug, Clone)]
pub struct FormCookie {
    value: String,
    /// Whether the request brought it (a submission is good only with a cookie it brought).
    brought: bool,
    site_secret: Arc<str>,
    /// Set when a page used the token, so the answer sets the cookie.
    used: Arc<AtomicBool>,
}

impl FormCookie {
    fn token(&self) -> String {
        self.used.store(true, Ordering::Relaxed);
        arbiter_store::secrets::form_token(&self.site_secret, &self.value)
    }
}

/// Gives every request of the personal pages its [`FormCookie`], and sets the cookie on an
/// answer whose form used a new one.
pub async fn form_cookie(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let site_secret = match state.form_secret().await {
        Ok(secret) => secret,
        Err(e) => return WebError::unavailable(e).answer(Format::Html),
    };
    let secure = state.secure_cookies();
    let name = cookie_name(secure);
    let brought = request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == name && cookie.value().len() == 64)
        .map(|cookie| cookie.value().to_string());
    let form = FormCookie {
        brought: brought.is_some(),
        value: brought.unwrap_or_else(arbiter_store::secrets::new_token),
        site_secret,
        used: Arc::new(AtomicBool::new(false)),
    };
    request.extensions_mut().insert(form.clone());
    let mut response = next.run(request).await;
    if form.used.load(Ordering::Relaxed) && !form.brought {
        let cookie = Cookie::build((name, form.value))
            .path("/")
            .http_only(true)
            .secure(secure)
            .same_site(SameSite::Lax)
            .build();
        if let Ok(value) = HeaderValue::from_str(&cookie.to_string()) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for FormCookie {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<FormCookie>()
            .cloned()
            .ok_or_else(|| {
                WebError::unavailable("the form cookie layer is missing from this route")
                    .answer(Format::Html)
            })
    }
}

/// The token for a page's forms: the session's once signed in, else the form cookie's. Asking
/// stores nothing.
pub async fn token(session: &Session, form: &FormCookie) -> Result<String, WebError> {
    match session.get::<String>(KEY).await {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Ok(form.token()),
        Err(e) => Err(WebError::unavailable(e)),
    }
}

/// The token for the forms of a signed-in person's pages: their session's (made at sign-in).
pub async fn session_token(session: &Session) -> Result<String, WebError> {
    match session.get::<String>(KEY).await {
        Ok(Some(t)) => Ok(t),
        Ok(None) => rotate(session).await,
        Err(e) => Err(WebError::unavailable(e)),
    }
}

/// A fresh session token at sign-in, so a token seen before sign-in is worthless after.
pub async fn rotate(session: &Session) -> Result<String, WebError> {
    let t = arbiter_store::secrets::new_token();
    session
        .insert(KEY, &t)
        .await
        .map_err(WebError::unavailable)?;
    Ok(t)
}

/// Refuses a submission of a form anyone may send (sign-in, a reset) whose token is neither
/// the session's nor the form cookie's, or whose `Origin` is another site.
pub async fn verify(
    session: &Session,
    form: &FormCookie,
    headers: &HeaderMap,
    submitted: &str,
) -> Result<(), WebError> {
    check(session, Some(form), headers, submitted).await
}

/// Refuses a submission of a signed-in person's form whose token is not their session's.
pub async fn verify_signed_in(
    session: &Session,
    headers: &HeaderMap,
    submitted: &str,
) -> Result<(), WebError> {
    check(session, None, headers, submitted).await
}

/// Refuses a token that is missing, forged or from an ended session, and an `Origin` of
/// another site or `null` (a sandboxed frame, a redirect from elsewhere).
async fn check(
    session: &Session,
    form: Option<&FormCookie>,
    headers: &HeaderMap,
    submitted: &str,
) -> Result<(), WebError> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let origin_host = origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://").map(|(_, rest)| rest));
        if host.is_none() || origin_host != host {
            return Err(WebError::Forbidden(
                "This form was sent from another site, so it was not accepted. Open the page on this site and submit it there.".into(),
            ));
        }
    }
    let expected = match session.get::<String>(KEY).await.ok().flatten() {
        Some(in_session) => Some(in_session),
        None => form.filter(|form| form.brought).map(FormCookie::token),
    };
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
