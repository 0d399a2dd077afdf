//! HTTP plumbing shared by pages and the API: ETags and conditional requests, cache headers,
//! security headers, and whether the reader asked for a page or the API.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::ui::stylesheet::BUILD;
use crate::ui::words::fnv1a;

/// Whether the reader asked for a page or the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Html,
    Json,
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
pub const STATIC_FOREVER: &str = "public, max-age=31536000, immutable";
pub const STATIC_SHORT: &str = "public, max-age=300";

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

/// A drawn page gzipped, as a competition's pages are kept (issue 35: a division's 16 KB page
/// is about 2 KB so, and the cache holds eight times as many).
pub fn gzip(body: &[u8]) -> std::io::Result<Bytes> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4 + 64),
        flate2::Compression::default(),
    );
    e.write_all(body)?;
    e.finish().map(Bytes::from)
}

/// Whether the reader takes a gzipped body (`Accept-Encoding: gzip`, not refused by `q=0`).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// The ETag of a page's gzipped form: another representation of the same page (RFC 9110
/// 8.8.3), so another strong tag; `"…-gzip"`.
pub fn gzip_tag(tag: &HeaderValue) -> HeaderValue {
    let t = tag.as_bytes();
    let inner = t.strip_suffix(b"\"").unwrap_or(t);
    let mut out = inner.to_vec();
    out.extend_from_slice(b"-gzip\"");
    HeaderValue::from_bytes(&out).unwrap_or_else(|_| tag.clone())
}

/// A kept page (gzipped, tagged `tag`) as the reader takes it: 304 when either form of it is
/// the reader's copy; else gzipped with its own tag to a reader that accepts gzip, or
/// unzipped. `Vary` tells caches the answer depends on `Accept-Encoding`.
pub fn kept_page(
    headers: &HeaderMap,
    content_type: HeaderValue,
    tag: HeaderValue,
    gzipped: Bytes,
) -> Result<Response, std::io::Error> {
    let zipped = accepts_gzip(headers);
    let zipped_tag = gzip_tag(&tag);
    let served_tag = if zipped {
        zipped_tag.clone()
    } else {
        tag.clone()
    };
    let mut r = if not_modified(headers, &tag) || not_modified(headers, &zipped_tag) {
        unchanged(served_tag, PAGE_CACHE)
    } else if zipped {
        let mut r = ok(content_type, served_tag, PAGE_CACHE, gzipped);
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        use std::io::Read;
        let mut body = Vec::with_capacity(gzipped.len() * 8);
        flate2::read::GzDecoder::new(&gzipped[..]).read_to_end(&mut body)?;
        ok(content_type, served_tag, PAGE_CACHE, Bytes::from(body))
    };
    r.headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    Ok(r)
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

const POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Served to every reader: no sniffing, no framing, and no script but one a page allowed by
/// its hash ([`allow_script`]); a policy the page set is kept.
pub fn security_headers(h: &mut HeaderMap) {
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(POLICY));
    // Same-origin only: invitation and reset links carry their token in the address.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// The site's policy with the one inline `script` of this page allowed by its SHA-256 (CSP
/// level 2), and reading the site itself (the projector's poll, issue 32 item 25).
pub fn allow_script(h: &mut HeaderMap, script: &str) {
    use base64::Engine as _;
    use sha2::Digest as _;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script));
    let policy = format!("{POLICY}; script-src 'sha256-{hash}'; connect-src 'self'");
    if let Ok(v) = HeaderValue::from_str(&policy) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
}
