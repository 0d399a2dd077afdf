//! A form with a file (`enctype="multipart/form-data"`: a roster file, a division's teams
//! uploaded rather than pasted) read as the `application/x-www-form-urlencoded` body every form
//! handler reads: each field by its name, a file by its input's name with its text. So one
//! handler takes the pasted file and the uploaded one, and the CSRF check reads either.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart};
use axum::http::{Request, header};

use crate::http::error::WebError;

/// Whether `content_type` is a form with a file.
pub fn is_multipart(content_type: &str) -> bool {
    content_type.starts_with("multipart/form-data")
}

/// The fields of a `multipart/form-data` body of `content_type`, urlencoded; a sentence when
/// the body is not one, or a file is not text in UTF-8.
pub async fn as_form(content_type: &str, body: Bytes) -> Result<Bytes, WebError> {
    let unreadable = || {
        WebError::BadRequest(
            "This form could not be read: send it again from the site's page.".into(),
        )
    };
    let request = Request::builder()
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .map_err(|_| unreadable())?;
    let mut parts = Multipart::from_request(request, &())
        .await
        .map_err(|_| unreadable())?;
    let mut fields: Vec<(String, String)> = Vec::new();
    while let Some(field) = parts.next_field().await.map_err(|_| unreadable())? {
        let name = field.name().unwrap_or_default().to_string();
        let file = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(|_| unreadable())?;
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
            WebError::BadRequest(format!(
                "The file {} is not text in UTF-8: save it as CSV (UTF-8) and upload it again, or paste it.",
                file.as_deref().map_or_else(String::new, |f| format!("“{f}”"))
            ))
        })?;
        fields.push((name, text));
    }
    // Written after the reading: the serializer may not be held across an await.
    let form = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    Ok(Bytes::from(form))
}
