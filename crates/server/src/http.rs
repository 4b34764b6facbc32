//! The routes: the JSON lobby, the WebSocket endpoint, health, metrics and the client page.
//! Handlers are thin: they authenticate, call the lobby and turn its answer into a response.

use crate::Shared;
use crate::error::ApiError;
use crate::store::{Identity, Status};
use crate::ws::{self, Incoming};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use protocol::{CreateGame, GameInfo, GuestRequest, JoinGame, MAX_FRAME};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

pub const COOKIE: &str = "robodrome_token";

type AppState = State<Arc<Shared>>;

pub fn router(shared: Arc<Shared>) -> Router {
    let mut r = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/api/guest", post(guest))
        .route("/api/guest/revoke", post(revoke))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/start", post(start))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/steps", get(steps))
        .route("/ws/games/{id}", get(socket));
    // The browser client, embedded (crate::assets); client routes answer index.html.
    r = r.fallback(crate::assets::serve).method_not_allowed_fallback(method_not_allowed);
    r.layer(axum::middleware::from_fn(json_only))
        .layer(axum::middleware::map_response(error_object))
        .layer(DefaultBodyLimit::max(MAX_FRAME))
        .with_state(shared)
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// State-changing requests (anything but GET/HEAD/OPTIONS) take `application/json` only, even
/// with an empty body: a form or `text/plain` post (which a browser sends cross-site without
/// asking) is refused with 415 before any handler runs.
async fn json_only(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use axum::http::Method;
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return ApiError::UnsupportedMediaType.into_response();
        }
    }
    next.run(req).await
}

/// Every error answer is the `{code, message}` object: axum's own rejections (a bad path or
/// query, a body over the limit, ...) and plain-text answers are rewritten by status.
async fn error_object(r: Response) -> Response {
    let status = r.status();
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return r;
    }
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "no such page or resource"),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "that method is not allowed here"),
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "the body is over 64 KiB"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            ("unsupported_media_type", "state-changing requests take a JSON body")
        }
        s if s.is_server_error() => ("internal", "internal error"),
        _ => ("bad_request", "the request is not understood"),
    };
    let mut out =
        (status, Json(protocol::HttpError { code: code.into(), message: message.into() }))
            .into_response();
    // Keep headers such as Allow (405) and Retry-After.
    for (k, v) in r.headers() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    out
}

/// The caller's guest identity: cookie or `Authorization: Bearer` (`?token=` only on the
/// WebSocket handshake, where a browser cannot set a header: see [`MaybeCaller`]).
pub struct Caller(pub Identity);

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

fn token_of(parts: &Parts, query: bool) -> Option<String> {
    if let Some(b) = parts.headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok())
        && let Some(t) = b.strip_prefix("Bearer ")
    {
        return Some(t.trim().to_string());
    }
    if let Some(c) = parts.headers.get(header::COOKIE).and_then(|h| h.to_str().ok()) {
        for kv in c.split(';') {
            if let Some(t) = kv.trim().strip_prefix(COOKIE).and_then(|r| r.strip_prefix('=')) {
                return Some(t.to_string());
            }
        }
    }
    if !query {
        return None;
    }
    let q: Query<TokenQuery> = Query::try_from_uri(&parts.uri).ok()?;
    q.0.token
}

impl FromRequestParts<Arc<Shared>> for Caller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Self, ApiError> {
        let token = token_of(parts, false).ok_or(ApiError::Unauthorized)?;
        shared.identity(&token).await?.map(Caller).ok_or(ApiError::Unauthorized)
    }
}

/// The WebSocket handshake's caller: like [`Caller`], also `?token=`, and spectators need no
/// identity. It checks `Origin` first (docs/security.md "Identity").
pub struct MaybeCaller(pub Option<Identity>);

impl FromRequestParts<Arc<Shared>> for MaybeCaller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Self, ApiError> {
        check_origin(parts, shared.config.public_url.as_deref())?;
        match token_of(parts, true) {
            None => Ok(MaybeCaller(None)),
            Some(t) => {
                Ok(MaybeCaller(Some(shared.identity(&t).await?.ok_or(ApiError::Unauthorized)?)))
            }
        }
    }
}

/// A browser's WebSocket handshake carries `Origin`; it must be this server's own: the origin
/// of the `Host` it was asked at (either scheme), or that of `--public-url`. Clients that send
/// no `Origin` (not browsers, so no cross-site page can ride on a cookie) are let through.
fn check_origin(parts: &Parts, public_url: Option<&str>) -> Result<(), ApiError> {
    let Some(origin) = parts.headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("").trim_end_matches('/').to_ascii_lowercase();
    let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let host = host.to_ascii_lowercase();
    let ok = (!host.is_empty()
        && (origin == format!("http://{host}") || origin == format!("https://{host}")))
        || public_url.and_then(origin_of).is_some_and(|p| p == origin);
    if ok {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!("the WebSocket origin {origin:?} is not this server's")))
    }
}

/// `scheme://host[:port]` of a URL, lower case.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty()).then(|| format!("{scheme}://{authority}").to_ascii_lowercase())
}

/// A JSON body whose rejections are typed API errors.
pub struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(t)) => Ok(Body(t)),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::TooLarge),
            Err(e) => Err(ApiError::bad("bad_request", e.body_text())),
        }
    }
}

async fn metrics(State(s): AppState) -> impl IntoResponse {
    let mut text = s.metrics.render();
    text.push_str(&s.fault_metrics());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text)
}

/// `GET /healthz`: 200 while the server answers, with what is wrong (docs/protocol.md).
async fn healthz(State(s): AppState) -> Json<crate::faults::Health> {
    Json(s.faults.health(s.store.unreadable()))
}

/// The guest cookie: `Secure` when the server sits behind https (`--public-url https://…`).
fn cookie(s: &Shared, token: &str, max_age: u64) -> HeaderMap {
    let secure = s.config.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    let cookie = format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
        if secure { "; Secure" } else { "" }
    );
    let mut headers = HeaderMap::new();
    if let Ok(v) = cookie.parse() {
        headers.insert(header::SET_COOKIE, v);
    }
    headers
}

async fn guest(State(s): AppState, Body(req): Body<GuestRequest>) -> Result<Response, ApiError> {
    let g = s.guest(&req.name).await?;
    let headers = cookie(&s, &g.token, s.config.token_ttl.as_secs());
    Ok((StatusCode::CREATED, headers, Json(g)).into_response())
}

/// `POST /api/guest/revoke`: log out everywhere (every token of the caller's identity).
async fn revoke(State(s): AppState, Caller(who): Caller) -> Result<Response, ApiError> {
    let n = s.revoke_all(&who).await?;
    let headers = cookie(&s, "", 0);
    Ok((headers, Json(serde_json::json!({ "revoked": n }))).into_response())
}

async fn create(
    State(s): AppState,
    Caller(who): Caller,
    Body(req): Body<CreateGame>,
) -> Result<(StatusCode, Json<GameInfo>), ApiError> {
    Ok((StatusCode::CREATED, Json(s.create_game(&who, req).await?)))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list(
    State(s): AppState,
    Query(q): Query<ListQuery>,
) -> Result<Json<Vec<GameInfo>>, ApiError> {
    let status = match q.status.as_deref() {
        None => None,
        Some("open") => Some(Status::Open),
        Some("running") => Some(Status::Running),
        Some("finished") => Some(Status::Finished),
        Some(o) => {
            return Err(ApiError::bad(
                "bad_status",
                format!("status is open, running or finished, not {o:?}"),
            ));
        }
    };
    Ok(Json(s.list(status).await?))
}

async fn game(State(s): AppState, Path(id): Path<String>) -> Result<Json<GameInfo>, ApiError> {
    Ok(Json(s.game_info(&id).await?))
}

async fn join(
    State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
    body: axum::body::Bytes,
) -> Result<Json<GameInfo>, ApiError> {
    // The body may be empty (still `Content-Type: application/json`): the first open seat.
    let req: JoinGame = if body.iter().all(u8::is_ascii_whitespace) {
        JoinGame::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| ApiError::bad("bad_request", e.to_string()))?
    };
    Ok(Json(s.join(&who, &id, req).await?))
}

async fn start(
    State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<Json<GameInfo>, ApiError> {
    Ok(Json(s.start(&who, &id).await?))
}

async fn replay(State(s): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.replay(&id).await?))
}

/// `GET /ws/games/{id}`: play the seat the caller holds, or watch.
async fn socket(
    State(s): AppState,
    Path(id): Path<String>,
    MaybeCaller(who): MaybeCaller,
    up: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let sub = s.subscribe(&id, who.as_ref().map(|w| w.id.as_str())).await?;
    // Frames up to 1 MiB are read so that those over 64 KiB get a typed error, not a dropped socket.
    // Small buffers keep an idle connection cheap; frames are written when the connection's
    // loop flushes (after the frames already queued for it), or as soon as 64 KiB wait.
    let up = up
        .read_buffer_size(8 * 1024)
        .write_buffer_size(64 * 1024)
        .max_message_size(1 << 20)
        .max_frame_size(1 << 20);
    Ok(up.on_upgrade(move |socket: WebSocket| async move {
        let (sink, stream) = socket.split();
        let sink =
            sink.with(|s: String| async move { Ok::<_, axum::Error>(Message::Text(s.into())) });
        let stream = stream
            .take_while(|m| {
                std::future::ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_))))
            })
            .filter_map(|m| async move {
                Some(match m.ok()? {
                    Message::Text(t) => Incoming::Text(t.to_string()),
                    Message::Binary(b) => Incoming::Binary(b.len()),
                    _ => Incoming::Other,
                })
            });
        ws::run(s, sub, Box::pin(sink), Box::pin(stream)).await;
    }))
}

async fn steps(State(s): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(crate::steps::steps(&s, &id).await?))
}
