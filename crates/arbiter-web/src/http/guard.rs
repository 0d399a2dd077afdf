//! What the routes table says of a route, enforced before its handler runs: a guarded route
//! needs a signed-in reader, and every form posted to the site needs its CSRF token. No handler
//! checks either itself, so a route added to the table cannot forget them.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::http::auth::Auth;
use crate::http::body_limit::{BODY_LIMIT, too_large};
use crate::http::csrf::{self, FormCookie};
use crate::http::error::{Format, WebError, unreadable};
use crate::routes::{Guard, Rule, Via};

/// The part of a [`Rule`] the router enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enforced {
    guard: Guard,
    via: Via,
}

impl From<&Rule> for Enforced {
    fn from(rule: &Rule) -> Enforced {
        Enforced {
            guard: rule.guard,
            via: rule.via,
        }
    }
}

/// Sign-in first (a visitor who is not signed in is sent to sign in, whose form brings them
/// back, rather than told their sessionless form is stale), then the CSRF token of a form.
pub async fn enforce(
    State(rule): State<Enforced>,
    auth: Auth,
    form: FormCookie,
    request: Request,
    next: Next,
) -> Response {
    if rule.guard != Guard::Anyone && auth.user.is_none() {
        return WebError::SignInRequired.answer(Format::Html);
    }
    if rule.via != Via::Site || request.method() != Method::POST {
        return next.run(request).await;
    }
    let is_form = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        return unreadable(StatusCode::UNSUPPORTED_MEDIA_TYPE, Format::Html);
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return too_large().answer(Format::Html);
    };
    if !form_is_utf8(&bytes) {
        return unreadable(StatusCode::BAD_REQUEST, Format::Html);
    }
    let submitted = form_field(&bytes, "csrf").unwrap_or_default();
    let checked = match rule.guard {
        Guard::Anyone => csrf::verify(&auth.session, &form, &parts.headers, &submitted).await,
        Guard::SignedIn | Guard::Table(_) => {
            csrf::verify_signed_in(&auth.session, &parts.headers, &submitted).await
        }
    };
    if let Err(refused) = checked {
        return refused.answer(Format::Html);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Whether every name and value of a form's body is UTF-8 once %-decoded. Browsers send
/// nothing else; the form readers would put U+FFFD in place of the rest, and store it.
fn form_is_utf8(body: &[u8]) -> bool {
    body.split(|b| *b == b'&' || *b == b'=')
        .all(|part| percent_encoding::percent_decode(part).decode_utf8().is_ok())
}

/// One field of an `application/x-www-form-urlencoded` body, decoded; `None` when absent.
fn form_field(body: &[u8], name: &str) -> Option<String> {
    form_urlencoded::parse(body)
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}
