//! The API's error answer, `{"error": {"code", "message"}}`, shared by reads and writes.

use serde::Serialize;
use utoipa::ToSchema;

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
