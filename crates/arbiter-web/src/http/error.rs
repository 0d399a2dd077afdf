//! What a reader sees when a page cannot be shown: a 404 that says what exists, a 400 that says
//! which parameter was wrong, a 503 when the store fails. Never a 500 for anything a reader sends,
//! and never a database message.

use askama::Template;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

pub use crate::http::answer::Format;
use crate::http::answer::security_headers;
use crate::ui::link::Link;
use crate::ui::stylesheet::css_href;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// An id or slug that names nothing; `links` are what does exist, for the HTML page.
    #[error("{message}")]
    NotFound { message: String, links: Vec<Link> },
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// Not signed in: a page redirects to the sign-in form, the API answers 401.
    #[error("Sign in to do this.")]
    SignInRequired,
    /// Signed in, but the permission table (or a CSRF check) says no; the sentence names the rule.
    #[error("{0}")]
    Forbidden(String),
    /// A write the store refused as given (an expired link, a duplicate, a stale version).
    #[error("{0}")]
    Refused(String),
    /// The thing changed after the writer read it (a newer result version, a review meanwhile):
    /// nothing was saved; the sentence says what is in force now.
    #[error("{0}")]
    Conflict(String),
    /// A single-use link already used or expired.
    #[error("{0}")]
    Gone(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// A request body beyond the limit (`body_limit`): not read.
    #[error("{0}")]
    TooLarge(String),
    /// A request not received and answered in the time a connection is given.
    #[error("{0}")]
    RequestTimeout(String),
    /// The store failed; the detail stays in the server.
    #[error("the results store is not answering")]
    Unavailable,
    /// The database's disk is full: nothing was saved (reads go on); the detail in the log.
    #[error("nothing was saved: the server's disk is full")]
    StorageFull,
    /// A defect of ours; said plainly, with nothing leaked.
    #[error("the page could not be rendered")]
    Internal,
}

impl WebError {
    pub fn not_found(message: impl Into<String>) -> WebError {
        WebError::NotFound {
            message: message.into(),
            links: Vec::new(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound { .. } => StatusCode::NOT_FOUND,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            WebError::SignInRequired => StatusCode::UNAUTHORIZED,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::Gone(_) => StatusCode::GONE,
            WebError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            WebError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            WebError::StorageFull => StatusCode::INSUFFICIENT_STORAGE,
            WebError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            WebError::NotFound { .. } => "not_found",
            WebError::BadRequest(_) => "bad_request",
            WebError::MethodNotAllowed(_) => "method_not_allowed",
            WebError::SignInRequired => "sign_in_required",
            WebError::Forbidden(_) => "forbidden",
            WebError::Refused(_) => "refused",
            WebError::Conflict(_) => "conflict",
            WebError::Gone(_) => "gone",
            WebError::TooManyRequests(_) => "too_many_requests",
            WebError::TooLarge(_) => "too_large",
            WebError::RequestTimeout(_) => "request_timeout",
            WebError::Unavailable => "unavailable",
            WebError::StorageFull => "storage_full",
            WebError::Internal => "internal",
        }
    }

    /// The sentence shown to the reader.
    pub fn message(&self) -> String {
        match self {
            WebError::Unavailable => {
                "The results store is not answering just now. Please try again in a minute.".into()
            }
            WebError::StorageFull => {
                "Nothing was saved: the server's disk is full. The site can still be read; send this again once the league's site administrator has freed space.".into()
            }
            WebError::Internal => {
                "Something went wrong on our side while drawing this page. Please try again later."
                    .into()
            }
            other => other.to_string(),
        }
    }

    /// The answer in the reader's format: the page, or `{"error": …}` for the API.
    pub fn answer(self, format: Format) -> Response {
        if self == WebError::SignInRequired && format == Format::Html {
            return sign_in_redirect();
        }
        let status = self.status();
        let (content_type, body) = match format {
            Format::Json => ("application/json", json_body(&self)),
            Format::Html => ("text/html; charset=utf-8", html_body(&self)),
        };
        let mut r = Response::new(Body::from(body));
        *r.status_mut() = status;
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
        }
        if status == StatusCode::UNAUTHORIZED {
            h.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"arbiter\""),
            );
        }
        security_headers(h);
        r
    }
}

/// Marks a redirect to the sign-in form, so that the security layer (`sign_in_next`) can add the
/// page to come back to.
#[derive(Debug, Clone, Copy)]
pub struct SignInRedirect;

fn sign_in_redirect() -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::SEE_OTHER;
    let h = r.headers_mut();
    h.insert(header::LOCATION, HeaderValue::from_static("/sign-in"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    security_headers(h);
    r.extensions_mut().insert(SignInRedirect);
    r
}

impl WebError {
    /// The store (or another part the visitor cannot see) failed: the cause goes to the log,
    /// the visitor is told the site is not answering.
    pub fn unavailable(cause: impl std::fmt::Display) -> WebError {
        tracing::error!(%cause, "answered 503: the store is not answering");
        WebError::Unavailable
    }

    /// The database's disk is full: the cause goes to the log for whoever keeps the server, the
    /// person is told nothing was saved and why.
    pub fn storage_full(cause: impl std::fmt::Display) -> WebError {
        tracing::error!(%cause, "answered 507: the database's disk is full; free space on it");
        WebError::StorageFull
    }

    /// A defect of ours (a page that would not render, a lost invariant): the cause goes to
    /// the log, the visitor gets a plain 500.
    pub fn internal(cause: impl std::fmt::Display) -> WebError {
        tracing::error!(%cause, "answered 500");
        WebError::Internal
    }

    /// For writes: the store's refusal is a sentence for the person (an expired link, a
    /// duplicate); its failures stay "not answering".
    pub fn from_write(e: arbiter_store::StoreError) -> WebError {
        match e {
            arbiter_store::StoreError::NotFound(m) => WebError::not_found(m),
            arbiter_store::StoreError::Invalid(m) | arbiter_store::StoreError::Conflict(m) => {
                WebError::Refused(m)
            }
            arbiter_store::StoreError::Stale(m) => WebError::Conflict(m),
            e @ arbiter_store::StoreError::Database(_) => WebError::unavailable(e),
            e @ arbiter_store::StoreError::Full(_) => WebError::storage_full(e),
        }
    }
}

impl From<arbiter_store::StoreError> for WebError {
    fn from(e: arbiter_store::StoreError) -> WebError {
        match e {
            arbiter_store::StoreError::NotFound(m) => WebError::not_found(m),
            // A read that writes (a session, a secret made once) on a full disk.
            e @ arbiter_store::StoreError::Full(_) => WebError::storage_full(e),
            // Reads send the store nothing a reader typed except slugs; anything else is the
            // store's trouble, not the reader's.
            e => WebError::unavailable(e),
        }
    }
}

#[derive(serde::Serialize)]
struct ErrorBody<'a> {
    error: ErrorDetail<'a>,
}

#[derive(serde::Serialize)]
struct ErrorDetail<'a> {
    code: &'a str,
    message: String,
}

fn json_body(e: &WebError) -> String {
    let body = ErrorBody {
        error: ErrorDetail {
            code: e.code(),
            message: e.message(),
        },
    };
    serde_json::to_string(&body).unwrap_or_else(|_| {
        r#"{"error":{"code":"internal","message":"The error could not be written."}}"#.into()
    })
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    title: String,
    css: &'static str,
    message: String,
    links: Vec<Link>,
}

fn html_body(e: &WebError) -> String {
    let title = match e {
        WebError::NotFound { .. } => "Not found",
        WebError::BadRequest(_) => "Bad request",
        WebError::MethodNotAllowed(_) => "Method not allowed",
        WebError::SignInRequired => "Sign in",
        WebError::Forbidden(_) => "Not allowed",
        WebError::Refused(_) => "Not saved",
        WebError::Conflict(_) => "Changed meanwhile",
        WebError::Gone(_) => "Link no longer valid",
        WebError::TooManyRequests(_) => "Too many attempts",
        WebError::TooLarge(_) => "Too large",
        WebError::RequestTimeout(_) => "Too slow",
        WebError::Unavailable => "Temporarily unavailable",
        WebError::StorageFull => "Not saved: the disk is full",
        WebError::Internal => "Something went wrong",
    };
    let links = match e {
        WebError::NotFound { links, .. } => links.clone(),
        _ => Vec::new(),
    };
    let page = ErrorPage {
        title: title.into(),
        css: css_href(),
        message: e.message(),
        links,
    };
    page.render()
        .unwrap_or_else(|_| format!("<!doctype html><title>{title}</title><p>{title}."))
}

/// Renders a page's template; a template that fails is the site's fault (500), logged.
pub fn render(t: &impl Template) -> Result<axum::body::Bytes, WebError> {
    t.render()
        .map(axum::body::Bytes::from)
        .map_err(WebError::internal)
}

/// A handler's `?`: a page's error is answered as a page.
impl axum::response::IntoResponse for WebError {
    fn into_response(self) -> Response {
        self.answer(Format::Html)
    }
}

/// A request the site cannot read (a form that is not a form, a body of the wrong type): the
/// site's own page (or JSON) with `status`, never the parser's words.
pub fn unreadable(status: StatusCode, format: Format) -> Response {
    let e = WebError::BadRequest(
        "This request could not be read: it is not what the site's own form or the API sends. Reload the page and try again; for the API, see /api/v1/openapi.json."
            .into(),
    );
    let mut out = e.answer(format);
    *out.status_mut() = status;
    out
}
