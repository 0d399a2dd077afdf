//! HTTP plumbing under every area: errors and the answer format, ETags and headers, CSRF,
//! sessions and sign-in, security headers, body and connection limits, the per-address limit
//! on sign-in attempts, a form with a file read as any other form.

pub mod answer;
pub mod attempts;
pub mod auth;
pub mod body_limit;
pub mod connections;
pub mod csrf;
pub mod error;
pub mod guard;
pub mod security;
pub mod sessions;
pub mod upload;
