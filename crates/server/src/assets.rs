//! The browser client, embedded in the binary (`web/` at build time, rust-embed), so that
//! `robodrome serve` alone is enough. Any GET path that is not a file and not under `/api` or
//! `/ws` answers `index.html`, so that invite links such as `/games/{id}` and replay links
//! such as `/replay/{id}?step=12` open the client, which routes them itself.
//!
//! Wiring (http.rs): `.fallback(crate::assets::serve)` on the router; Cargo.toml of the server:
//! `rust-embed = "8"` and `mime_guess = "2"`.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
struct Web;

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path.starts_with("ws/") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(file) = Web::get(path) {
        let mime = mime_guess::from_path(path).first_or_octet_stream();
        let cache = if path == "index.html" { "no-cache" } else { "no-cache, max-age=0" };
        return (
            [
                (header::CONTENT_TYPE, mime.as_ref().to_string()),
                (header::CACHE_CONTROL, cache.to_string()),
            ],
            file.data,
        )
            .into_response();
    }
    // A client route (no file extension): the client's page.
    if !path.rsplit('/').next().unwrap_or("").contains('.')
        && let Some(index) = Web::get("index.html")
    {
        return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], index.data).into_response();
    }
    (StatusCode::NOT_FOUND, "not found").into_response()
}
