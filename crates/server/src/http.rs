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
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/api/kinds", get(kinds))
        .route("/api/guest", post(guest))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/start", post(start))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/steps", get(steps))
        .route("/ws/games/{id}", get(socket));
    // The browser client, embedded (crate::assets); client routes answer index.html.
    r = r.fallback(crate::assets::serve);
    r.layer(DefaultBodyLimit::max(MAX_FRAME)).with_state(shared)
}

/// The games this server offers and what the lobby and the tables need of each (seat range,
/// boards with titles, variants and options with labels, the default timer): docs/protocol.md.
async fn kinds(State(shared): AppState) -> Response {
    Json(serde_json::json!({ "v": protocol::VERSION, "kinds": shared.registry.infos() }))
        .into_response()
}

/// The caller's guest identity: cookie, `Authorization: Bearer`, or `?token=`.
pub struct Caller(pub Identity);

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

fn token_of(parts: &Parts) -> Option<String> {
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
    let q: Query<TokenQuery> = Query::try_from_uri(&parts.uri).ok()?;
    q.0.token
}

impl FromRequestParts<Arc<Shared>> for Caller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Self, ApiError> {
        let token = token_of(parts).ok_or(ApiError::Unauthorized)?;
        shared.identity(&token).await?.map(Caller).ok_or(ApiError::Unauthorized)
    }
}

/// Like [`Caller`], but spectators need no identity.
pub struct MaybeCaller(pub Option<Identity>);

impl FromRequestParts<Arc<Shared>> for MaybeCaller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Self, ApiError> {
        match token_of(parts) {
            None => Ok(MaybeCaller(None)),
            Some(t) => {
                Ok(MaybeCaller(Some(shared.identity(&t).await?.ok_or(ApiError::Unauthorized)?)))
            }
        }
    }
}

/// A JSON body whose rejections are typed API errors.
pub struct Body<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(t)) => Ok(Body(t)),
            Err(e) => Err(ApiError::bad("bad_request", e.body_text())),
        }
    }
}

async fn metrics(State(s): AppState) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], s.metrics.render())
}

async fn guest(State(s): AppState, Body(req): Body<GuestRequest>) -> Result<Response, ApiError> {
    let g = s.guest(&req.name).await?;
    let cookie = format!("{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000", g.token);
    let mut headers = HeaderMap::new();
    if let Ok(v) = cookie.parse() {
        headers.insert(header::SET_COOKIE, v);
    }
    Ok((StatusCode::CREATED, headers, Json(g)).into_response())
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
    // The body is optional: no body takes the first open seat.
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
