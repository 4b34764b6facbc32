//! Typed errors of the HTTP API; client faults are not logged as server errors.

use crate::store::StoreError;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use protocol::HttpError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{1}")]
    BadRequest(&'static str, String),
    #[error("{1}")]
    Conflict(&'static str, String),
    #[error("no such game")]
    NotFound,
    #[error("sign in as a guest first (POST /api/guest)")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("storage: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
    /// A quota or cap (`limits`): 429, with `Retry-After` when waiting helps.
    #[error("{1}")]
    TooMany(&'static str, String, Option<std::time::Duration>),
}

impl ApiError {
    pub fn bad(code: &'static str, msg: impl Into<String>) -> ApiError {
        ApiError::BadRequest(code, msg.into())
    }
    pub fn conflict(code: &'static str, msg: impl Into<String>) -> ApiError {
        ApiError::Conflict(code, msg.into())
    }
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(c, _) | ApiError::Conflict(c, _) | ApiError::TooMany(c, ..) => c,
            ApiError::NotFound => "not_found",
            ApiError::Unauthorized => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Store(_) => "storage",
            ApiError::Internal(_) => "internal",
        }
    }
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(..) => StatusCode::BAD_REQUEST,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Store(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        } else {
            tracing::debug!(code = self.code(), error = %self, "request refused");
        }
        let retry = match &self {
            // Whole seconds, rounded up (RFC 9110 §10.2.3).
            ApiError::TooMany(_, _, Some(d)) => Some(d.as_secs() + u64::from(d.subsec_nanos() > 0)),
            _ => None,
        };
        let mut r =
            (status, Json(HttpError { code: self.code().into(), message: self.to_string() }))
                .into_response();
        if let Some(secs) = retry {
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.max(1).into());
        }
        r
    }
}
