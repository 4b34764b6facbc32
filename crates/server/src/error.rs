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
    #[error("that method is not allowed here")]
    MethodNotAllowed,
    #[error("the body is over 64 KiB")]
    TooLarge,
    #[error("sign in as a guest first (POST /api/guest)")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    /// What only an account may do (challenges, bot accounts, turn-based games, follows…),
    /// asked by a guest: 403 `account_required`, the sentence says what needs one.
    #[error("{0}")]
    AccountRequired(String),
    /// A Bot API token that is missing, unknown or revoked (docs/protocol.md "Bot API").
    #[error("{0}")]
    BadToken(String),
    /// Something other than a game that does not exist (a challenge, a bot account): 404.
    #[error("{1}")]
    Missing(&'static str, String),
    #[error("storage: {0}")]
    Store(StoreError),
    /// Storage is backing off after failed writes (docs/security.md "Faults").
    #[error("storage is unavailable")]
    StorageUnavailable,
    /// A game's stored data cannot be read (the detail is logged, not answered).
    #[error("{0}")]
    Unreadable(String),
    /// A stored game was played under another version of its game's rules than this server's:
    /// its log would not replay the same game (docs/security.md "Rules versions").
    #[error(
        "this game was played under version {stored} of the {game} rules and this server plays version {current}: its log would not replay the same game, so it is not replayed (a finished game keeps its stored result, but its steps and replay are not available; a running game cannot go on)"
    )]
    RulesChanged { game: String, stored: u32, current: u32 },
    /// The body's content type is not `application/json`.
    #[error("state-changing requests take a JSON body (Content-Type: application/json)")]
    UnsupportedMediaType,
    #[error("{0}")]
    Internal(String),
    /// A cluster node cannot serve this now (the game is moving between nodes, or its node is
    /// not answering): 503 `unavailable`, try again shortly.
    #[error("{0}")]
    Unavailable(String),
    /// A quota or cap (`limits`): 429, with `Retry-After` when waiting helps.
    #[error("{1}")]
    TooMany(&'static str, String, Option<std::time::Duration>),
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            // A row that does not parse is poison data, not a storage failure.
            StoreError::Data(d) => ApiError::Unreadable(format!("stored data: {d}")),
            e => ApiError::Store(e),
        }
    }
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
            ApiError::BadRequest(c, _)
            | ApiError::Conflict(c, _)
            | ApiError::TooMany(c, ..)
            | ApiError::Missing(c, _) => c,
            ApiError::BadToken(_) => "bad_token",
            ApiError::NotFound => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::TooLarge => "too_large",
            ApiError::Unauthorized => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::AccountRequired(_) => "account_required",
            ApiError::Store(_) | ApiError::StorageUnavailable => "storage_unavailable",
            ApiError::Unreadable(_) => "unreadable_game",
            ApiError::RulesChanged { .. } => "rules_changed",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::Internal(_) => "internal",
            ApiError::Unavailable(_) => "unavailable",
        }
    }
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(..) => StatusCode::BAD_REQUEST,
            ApiError::Conflict(..) | ApiError::RulesChanged { .. } => StatusCode::CONFLICT,
            ApiError::NotFound | ApiError::Missing(..) => StatusCode::NOT_FOUND,
            ApiError::BadToken(_) => StatusCode::UNAUTHORIZED,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) | ApiError::AccountRequired(_) => StatusCode::FORBIDDEN,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Store(_) | ApiError::StorageUnavailable | ApiError::Unavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unreadable(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        // Server faults are logged in full and answered without internal details.
        let message = match &self {
            ApiError::Store(_) | ApiError::StorageUnavailable => {
                "storage is unavailable; nothing changed: try again later".to_string()
            }
            ApiError::Unreadable(_) => "this game's stored data cannot be read".to_string(),
            ApiError::Internal(_) => "internal error".to_string(),
            e => e.to_string(),
        };
        if status.is_server_error() {
            tracing::error!(code = self.code(), error = %self, "request failed");
        } else {
            tracing::debug!(code = self.code(), error = %self, "request refused");
        }
        let retry = match &self {
            // Whole seconds, rounded up (RFC 9110 §10.2.3).
            ApiError::TooMany(_, _, Some(d)) => Some(d.as_secs() + u64::from(d.subsec_nanos() > 0)),
            // Storage is backing off (docs/security.md "Faults").
            _ if status == StatusCode::SERVICE_UNAVAILABLE => Some(5),
            _ => None,
        };
        let mut r = (status, Json(HttpError { code: self.code().into(), message })).into_response();
        if let Some(secs) = retry {
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.max(1).into());
        }
        r
    }
}
