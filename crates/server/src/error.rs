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
            ApiError::BadRequest(c, _) | ApiError::Conflict(c, _) => c,
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
        (status, Json(HttpError { code: self.code().into(), message: self.to_string() }))
            .into_response()
    }
}
