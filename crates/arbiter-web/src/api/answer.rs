//! The API's answers: JSON with `no-store`, and its errors, `{"error": {"code", "message"}}` or
//! a 422 with each problem at its field, shared by reads and writes.

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use crate::http::answer::security_headers;
use crate::http::error::{Format, WebError};

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorAnswer {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// `not_found`, `bad_request`, `method_not_allowed`, `unavailable`.
    pub code: String,
    /// A sentence saying what was wrong and what to do instead.
    pub message: String,
}

/// 422: what was wrong, and for a result, each problem with its board and field.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvalidAnswer {
    pub error: InvalidDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvalidDetail {
    /// `invalid` (the body), `too_long` (a text beyond its limit: the reason has at most
    /// 1,000 characters) or `refused` (the report's state, GT-P2).
    pub code: String,
    /// With `refused` for the report's state, why, as a stable word (GT-P2): `too_early`
    /// (before the match day), `not_entered`, `disputed`, `not_disputed` or `settled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
    pub message: String,
    pub problems: Vec<ProblemJson>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemJson {
    pub board: Option<u32>,
    /// The rule the problem breaks, when one does (`GT-M11`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// `forfeit`, `boards`, `result`, `home_player`, `away_player`, `rating_result`, `reason`,
    /// `version`, or `body`.
    pub field: String,
    pub message: String,
}

impl ProblemJson {
    /// A problem at `field`, of no board and citing no rule.
    pub fn at(field: &str, message: String) -> ProblemJson {
        ProblemJson {
            board: None,
            rule: None,
            field: field.into(),
            message,
        }
    }
}

/// Why an API request was not done, answered in the API's JSON.
#[derive(Debug)]
pub enum ApiError {
    /// An error a page would show, said as `{"error": {"code", "message"}}`.
    Said(WebError),
    /// 422: the body, the rules or the report's state refused it, each problem at its field.
    Invalid(InvalidAnswer),
    /// 401 without a valid token, saying what to send instead; `invalid_token` when one was
    /// sent and is not known.
    NoToken {
        message: &'static str,
        invalid_token: bool,
    },
}

pub type ApiResult = Result<Response, ApiError>;

impl From<WebError> for ApiError {
    fn from(e: WebError) -> ApiError {
        ApiError::Said(e)
    }
}

impl From<arbiter_store::StoreError> for ApiError {
    fn from(e: arbiter_store::StoreError) -> ApiError {
        ApiError::Said(e.into())
    }
}

impl ApiError {
    /// 422 with `code`, the problems' sentences together as its message.
    pub fn invalid(code: &str, problems: Vec<ProblemJson>) -> ApiError {
        let message = problems
            .iter()
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        ApiError::Invalid(InvalidAnswer {
            error: InvalidDetail {
                code: code.into(),
                refusal: None,
                message,
                problems,
            },
        })
    }

    /// 422 for a body or an entry the rules refuse, each problem a sentence at its field, with
    /// the rule it cites first (the fee ledger, a roster's changes).
    pub fn invalid_fields(problems: Vec<(&'static str, String)>) -> ApiError {
        ApiError::invalid(
            "invalid",
            problems
                .into_iter()
                .map(|(field, message)| ProblemJson {
                    rule: cited_rule(&message),
                    ..ProblemJson::at(field, message)
                })
                .collect(),
        )
    }

    /// With `refused`, why the state refuses it, as a stable word (`not_entered`, `lineup`).
    pub fn because(mut self, refusal: &str) -> ApiError {
        if let ApiError::Invalid(a) = &mut self {
            a.error.refusal = Some(refusal.into());
        }
        self
    }
}

/// The rule a sentence cites first (`GT-O2`, `AS-12`), if any.
fn cited_rule(message: &str) -> Option<String> {
    message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ';' | '(' | ')' | '\'' | '’'))
        .map(|w| w.trim_end_matches('.'))
        .find(|w| (w.starts_with("GT-") || w.starts_with("AS-")) && w.len() > 3)
        .map(str::to_string)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Said(e) => e.answer(Format::Json),
            ApiError::Invalid(body) => json_response(StatusCode::UNPROCESSABLE_ENTITY, &body),
            ApiError::NoToken {
                message,
                invalid_token,
            } => {
                let mut r = json_response(
                    StatusCode::UNAUTHORIZED,
                    &ErrorAnswer {
                        error: ErrorDetail {
                            code: "sign_in_required".into(),
                            message: message.into(),
                        },
                    },
                );
                r.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(if invalid_token {
                        "Bearer realm=\"arbiter\", error=\"invalid_token\""
                    } else {
                        "Bearer realm=\"arbiter\""
                    }),
                );
                r
            }
        }
    }
}

/// `body` as JSON with `status`, never cached.
pub(crate) fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    security_headers(h);
    r
}

/// A write's JSON body; an empty one is the body of defaults (`{}`).
pub(crate) fn read_body<T: DeserializeOwned + Default>(bytes: &Bytes) -> Result<T, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

/// The 422 for a body that is not the JSON an endpoint reads, with an `example` of one.
pub(crate) fn unreadable_body(e: &str, example: &str) -> String {
    format!("The body is not the JSON this endpoint reads ({e}); send {example}.")
}

/// A write's JSON body (an empty one is `{}`), or the 422 at `body` with an `example` of one.
pub(crate) fn json_body<T: DeserializeOwned + Default>(
    bytes: &Bytes,
    example: &str,
) -> Result<T, ApiError> {
    read_body(bytes)
        .map_err(|e| ApiError::invalid_fields(vec![("body", unreadable_body(&e, example))]))
}
