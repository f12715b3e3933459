//! The web client: every file under `web/` at the top of the repository, embedded in the
//! binary (except the browser tests and their tooling). `web/X` is served at `/X`, and `/`
//! is `web/index.html`.

use crate::reply::ApiError;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
// The browser tests and their node_modules stay out of the binary.
#[exclude = "tests/*"]
#[exclude = "node_modules/*"]
#[exclude = "package*.json"]
#[exclude = "tsconfig.json"]
struct Web;

pub async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET is answered outside /api",
        )
        .into_response();
    }
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match Web::get(path) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, content_type(file.metadata.mimetype())),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            file.data,
        )
            .into_response(),
        None => ApiError::new(StatusCode::NOT_FOUND, format!("no file /{path}")).into_response(),
    }
}

/// Text types carry their charset, so a page without a `<meta charset>` still reads right.
fn content_type(mime: &str) -> String {
    if mime.starts_with("text/") || mime == "application/javascript" || mime == "application/json" {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    }
}
