//! HTTP plumbing shared by pages and the API: ETags and conditional requests, cache headers,
//! security headers, and the stylesheet.

use std::sync::LazyLock;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::Response;

use crate::error::Format;
use crate::format::{FNV_OFFSET, fnv1a};

pub const CSS: &str = include_str!("../static/arbiter.css");
const CSS_HASH: u64 = fnv1a(FNV_OFFSET, CSS.as_bytes());

/// What a page looks like depends on these files; a build with other ones gets other ETags.
const TEMPLATES: &[&str] = &[
    include_str!("../templates/base.html"),
    include_str!("../templates/home.html"),
    include_str!("../templates/league.html"),
    include_str!("../templates/competition.html"),
    include_str!("../templates/standings_table.html"),
    include_str!("../templates/crosstable.html"),
    include_str!("../templates/round.html"),
    include_str!("../templates/team.html"),
    include_str!("../templates/player.html"),
    include_str!("../templates/explain.html"),
    include_str!("../templates/error.html"),
    include_str!("../templates/match_row.html"),
    include_str!("../templates/season_block.html"),
];

const fn build_hash() -> u64 {
    let mut h = fnv1a(FNV_OFFSET, env!("CARGO_PKG_VERSION").as_bytes());
    h = fnv1a(h, CSS.as_bytes());
    let mut i = 0;
    while i < TEMPLATES.len() {
        h = fnv1a(h, TEMPLATES[i].as_bytes());
        i += 1;
    }
    h
}

/// The build's identity in every ETag: a new release (or new templates) invalidates old pages.
pub const BUILD: u64 = build_hash();

static CSS_VERSION: LazyLock<String> = LazyLock::new(|| format!("{:012x}", CSS_HASH >> 16));
static CSS_HREF: LazyLock<String> =
    LazyLock::new(|| format!("/static/arbiter.css?v={}", CSS_VERSION.as_str()));

/// The stylesheet's versioned URL: pages link it, browsers keep it for a year.
pub fn css_href() -> &'static str {
    CSS_HREF.as_str()
}

/// A strong ETag from a base (the build and the data version) and what names the page.
pub fn etag(base: u64, key: &[u8]) -> HeaderValue {
    let h = fnv1a(fnv1a(base, &BUILD.to_le_bytes()), key);
    // Hex digits and quotes only: always a valid header value.
    HeaderValue::from_str(&format!("\"{h:016x}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
}

/// RFC 9110 13.1.2: `If-None-Match` matches on `*` or any listed tag, compared weakly.
pub fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = strip_weak(etag.as_bytes());
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(|t| t.trim_ascii())
        .any(|t| t == b"*" || strip_weak(t) == ours)
}

fn strip_weak(t: &[u8]) -> &[u8] {
    t.strip_prefix(b"W/").unwrap_or(t)
}

pub const PAGE_CACHE: &str = "public, max-age=0, must-revalidate";
const STATIC_FOREVER: &str = "public, max-age=31536000, immutable";
const STATIC_SHORT: &str = "public, max-age=300";

pub fn content_type(format: Format) -> HeaderValue {
    match format {
        Format::Html => HeaderValue::from_static("text/html; charset=utf-8"),
        Format::Json => HeaderValue::from_static("application/json"),
    }
}

/// 200 with the page, its ETag and revalidate-every-time caching.
pub fn ok(
    content_type: HeaderValue,
    etag: HeaderValue,
    cache: &'static str,
    body: Bytes,
) -> Response {
    let mut r = Response::new(Body::from(body));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, content_type);
    h.insert(header::ETAG, etag);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    security_headers(h);
    r
}

/// 304: no body; the ETag and caching headers again (RFC 9110 15.4.5).
pub fn unchanged(etag: HeaderValue, cache: &'static str) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::NOT_MODIFIED;
    let h = r.headers_mut();
    h.insert(header::ETAG, etag);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    r
}

/// Served to every reader: no sniffing, no framing, and no script at all (there is none).
pub fn security_headers(h: &mut HeaderMap) {
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    // Same-origin only: invitation and reset links carry their token in the address.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// `/static/arbiter.css`: kept a year under its versioned URL, five minutes otherwise.
pub async fn stylesheet(uri: Uri, headers: HeaderMap) -> Response {
    let versioned = uri
        .query()
        .and_then(|q| q.strip_prefix("v="))
        .is_some_and(|v| v == CSS_VERSION.as_str());
    let cache = if versioned {
        STATIC_FOREVER
    } else {
        STATIC_SHORT
    };
    let tag = etag(CSS_HASH, b"css");
    if not_modified(&headers, &tag) {
        return unchanged(tag, cache);
    }
    ok(
        HeaderValue::from_static("text/css; charset=utf-8"),
        tag,
        cache,
        Bytes::from_static(CSS.as_bytes()),
    )
}
