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
use crate::http::upload;
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
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let with_file = upload::is_multipart(&content_type);
    if !content_type.starts_with("application/x-www-form-urlencoded") && !with_file {
        return unreadable(StatusCode::UNSUPPORTED_MEDIA_TYPE, Format::Html);
    }
    let (mut parts, body) = request.into_parts();
    let Ok(mut bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return too_large().answer(Format::Html);
    };
    // A form with a file is read on as the form it is, its file a field of text.
    if with_file {
        bytes = match upload::as_form(&content_type, bytes).await {
            Ok(form) => form,
            Err(refused) => return refused.answer(Format::Html),
        };
        parts.headers.insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        parts.headers.remove(header::CONTENT_LENGTH);
    }
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
