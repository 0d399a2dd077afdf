//! Headers on every answer, and the way back after signing in.

use axum::extract::Request;
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::error::SignInRedirect;
use crate::http::security_headers;

/// Every answer gets the security headers (CSP without inline scripts, nosniff, referrer
/// policy, frame denial); a redirect to sign-in learns the page to come back to.
pub async fn headers(req: Request, next: Next) -> Response {
    let back = come_back_to(&req);
    let mut res = next.run(req).await;
    if res.extensions().get::<SignInRedirect>().is_some() {
        let location = format!("/sign-in?next={}", crate::format::segment(&back));
        if let Ok(v) = HeaderValue::from_str(&location) {
            res.headers_mut().insert(header::LOCATION, v);
        }
    }
    security_headers(res.headers_mut());
    res
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

/// Where to go after signing in: only a path on this site (never `//elsewhere`).
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.to_string(),
        _ => "/account".to_string(),
    }
}
