//! Issue 9: a request body is read to [`BODY_LIMIT`] at most. A form's or a script's longest
//! texts fit many times over (a reason of 1,000 characters is at most 12 KB in a form); a
//! larger body is refused before it is read when it says its length, else when the reader
//! reaches the limit, with a 413 that says so as a sentence.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::http::error::{Format, WebError};

/// The most a form or an API request body may hold: 64 KiB.
pub const BODY_LIMIT: usize = 64 * 1024;

pub async fn refuse_large_bodies(request: Request, next: Next) -> Response {
    let format = if request.uri().path().starts_with("/api/") {
        Format::Json
    } else {
        Format::Html
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        return too_large().answer(format);
    }
    let response = next.run(request).await;
    // A body that did not say its length and ran past the limit: axum's extractors answer
    // 413 in plain words; the sentence replaces them.
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large().answer(format);
    }
    response
}

pub fn too_large() -> WebError {
    WebError::TooLarge(format!(
        "The request is larger than the {} KiB a form or an API request may send, so it was not read. A reason has at most {} characters and a name {}: shorten the longest text and send it again.",
        BODY_LIMIT / 1024,
        arbiter_core::record::text::REASON_MAX_CHARS,
        arbiter_core::record::text::NAME_MAX_CHARS,
    ))
}
