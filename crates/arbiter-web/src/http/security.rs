//! Headers on every answer, and the way back after signing in.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::state::AppState;
use crate::http::answer::security_headers;
use crate::http::error::{Format, SignInRedirect, unreadable};

/// Every answer gets the security headers (CSP without inline scripts, nosniff, referrer
/// policy, frame denial, and HSTS when the site is served over TLS); a redirect to sign-in
/// learns the page to come back to.
pub async fn headers(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let back = come_back_to(&req);
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    if let Some(uniform) = uniform_rejection(&res, api) {
        res = uniform;
    }
    if res.extensions().get::<SignInRedirect>().is_some() {
        let location = format!("/sign-in?next={}", crate::ui::words::segment(&back));
        if let Ok(v) = HeaderValue::from_str(&location) {
            res.headers_mut().insert(header::LOCATION, v);
        }
    }
    security_headers(res.headers_mut());
    if state.secure_cookies() {
        // A year, and not the subdomains: a league's domain may serve other sites over HTTP.
        res.headers_mut().insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    res
}

/// axum's extractors answer a request they cannot read (a form that is not a form, a body of
/// the wrong type) in plain text with the parser's words; the reader gets the site's own page
/// (or JSON) instead, with the same status.
fn uniform_rejection(res: &Response, api: bool) -> Option<Response> {
    let plain = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    if !plain || !res.status().is_client_error() {
        return None;
    }
    let out = unreadable(res.status(), if api { Format::Json } else { Format::Html });
    Some(out)
}

/// For a page, the page itself; for a form sent by POST, the page it was on (same site only).
fn come_back_to(req: &Request) -> String {
    let path = req
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    if req.method() == Method::GET {
        return path;
    }
    req.headers()
        .get(header::REFERER)
        .and_then(|r| r.to_str().ok())
        .and_then(|r| {
            let host = req.headers().get(header::HOST)?.to_str().ok()?;
            let rest = r.split_once("://")?.1;
            rest.strip_prefix(host).map(str::to_string)
        })
        .filter(|p| p.starts_with('/'))
        .unwrap_or_else(|| "/".to_string())
}

/// Where to go after signing in: a path on this site, else the account page. Browsers drop
/// tabs and newlines from a `Location` and read `\\` as `/`, so `/\t/evil.example` would
/// be `//evil.example`, another site (issue 9, item 7): the path starts with one `/` followed
/// by something else than `/` or `\\`, and has no control character, space or `\\` at all.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if is_local_path(n) => n.to_string(),
        _ => "/account".to_string(),
    }
}

fn is_local_path(n: &str) -> bool {
    let mut chars = n.chars();
    chars.next() == Some('/')
        && !matches!(chars.next(), Some('/' | '\\'))
        && !n
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_is_a_path_on_this_site_or_the_account_page() {
        for good in ["/", "/account", "/leagues/gthscl/2026-27?x=1#top", "/a//b"] {
            assert_eq!(safe_next(Some(good)), good);
        }
        let other_sites = [
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\n/evil.example",
            "/ /evil.example",
            "/\u{0}/evil.example",
            "/x\u{7f}",
            "/\u{a0}/evil.example",
            "https://evil.example",
            "evil.example",
            "",
        ];
        for bad in other_sites {
            assert_eq!(safe_next(Some(bad)), "/account", "{bad:?}");
        }
        assert_eq!(safe_next(None), "/account");
    }
}
