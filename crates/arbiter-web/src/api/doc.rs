//! Every API route, and the OpenAPI document made from the same registrations.

use std::sync::LazyLock;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{ledger, pairing, rating_lists, read, rosters, settings, suspension, write};
use crate::app::state::AppState;
use crate::http::answer::{PAGE_CACHE, etag, not_modified, ok, unchanged};
use crate::ui::words::fnv1a;

/// Every API route, registered on the router and in the document by the same call.
pub fn routes() -> OpenApiRouter<AppState> {
    let mut routes = read::routes()
        .routes(routes!(openapi_json))
        .merge(write::routes())
        .merge(ledger::routes())
        .merge(rosters::routes())
        .merge(suspension::routes())
        .merge(settings::routes())
        .merge(rating_lists::routes())
        .merge(pairing::routes())
        .merge(crate::season_end::api::routes());
    document_unreadable_addresses(routes.get_openapi_mut());
    document_token_answers(routes.get_openapi_mut());
    routes
}

/// Every route with parameters answers 400 when a segment cannot be read: it is not UTF-8
/// once percent-decoded, or a round is not a whole number from 1. axum's `Path` refuses it
/// before any handler runs, so it is documented here once, where a route cannot forget it.
fn document_unreadable_addresses(doc: &mut utoipa::openapi::OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        if !path.contains('{') {
            continue;
        }
        let description = if path.contains("{round}") {
            "A part of the address cannot be read: a segment is not UTF-8 once percent-decoded, or the round is not a whole number from 1"
        } else {
            "A part of the address cannot be read: a segment is not UTF-8 once percent-decoded"
        };
        for operation in operations(item) {
            answers(operation, "400", description);
        }
    }
}

/// What every endpoint with a token answers alike, said once here: 401 without a valid token,
/// 413 for a body beyond the limit (`body_limit`), 503 when the store fails. The answers that
/// differ (403's rule, 404's what, 409, 422) stay with each endpoint.
fn document_token_answers(doc: &mut utoipa::openapi::OpenApi) {
    for item in doc.paths.paths.values_mut() {
        for operation in operations(item) {
            if operation.security.is_none() {
                continue;
            }
            answers(
                operation,
                "401",
                "No API token, or one not known or revoked",
            );
            if operation.request_body.is_some() {
                answers(
                    operation,
                    "413",
                    "The body is larger than 64 KiB, so it was not read",
                );
            }
            answers(operation, "503", "The store is not answering");
        }
    }
}

fn operations(
    item: &mut utoipa::openapi::PathItem,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .flatten()
}

/// `status` with the API's error body, unless the operation says its own.
fn answers(operation: &mut utoipa::openapi::path::Operation, status: &str, description: &str) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    operation
        .responses
        .responses
        .entry(status.to_string())
        .or_insert_with(|| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorAnswer")))
                        .build(),
                )
                .build()
                .into()
        });
}

/// The OpenAPI 3.1 document of the API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes().into_openapi()
}

static DOCUMENT: LazyLock<Bytes> = LazyLock::new(|| {
    Bytes::from(serde_json::to_vec_pretty(&openapi()).unwrap_or_else(|_| b"{}".to_vec()))
});

/// This document.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI document of this API", content_type = "application/json")))]
async fn openapi_json(headers: HeaderMap) -> Response {
    let body = DOCUMENT.clone();
    let tag = etag(fnv1a(0, &body), b"openapi");
    if not_modified(&headers, &tag) {
        return unchanged(tag, PAGE_CACHE);
    }
    ok(
        HeaderValue::from_static("application/json"),
        tag,
        PAGE_CACHE,
        body,
    )
}
