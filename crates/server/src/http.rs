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
use protocol::{GameInfo, GuestRequest, JoinGame, MAX_FRAME};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

pub const COOKIE: &str = "robodrome_token";

pub(crate) type AppState = State<Arc<Shared>>;

pub fn router(shared: Arc<Shared>) -> Router {
    let mut r = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/api/kinds", get(kinds))
        .route("/api/kinds/{name}/rules", get(rules))
        .route("/api/lessons", get(lessons))
        .route("/api/lessons/{game}/{number}", post(start_lesson))
        .route("/api/guest", post(guest))
        .route("/api/guest/revoke", post(revoke))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/start", post(start))
        .route("/api/games/{id}/leave", post(leave))
        .route("/api/games/{id}/chat", post(chat_say).get(chat_lines))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/steps", get(steps))
        .route("/ws/games/{id}", get(socket))
        // Bot accounts, challenges, turn-based games and the Bot API (`crate::botapi`).
        .merge(crate::botapi::routes())
        .merge(crate::platform::routes())
        // Saved boards, the editors' validation, the gallery (`crate::boards`).
        .merge(crate::boards::routes());
    // The browser client, embedded (crate::assets); client routes answer index.html.
    r = r.fallback(crate::assets::serve).method_not_allowed_fallback(method_not_allowed);
    r.layer(axum::middleware::from_fn_with_state(shared.clone(), settle_connection))
        .layer(axum::middleware::from_fn(json_only))
        .layer(axum::middleware::map_response(error_object))
        .layer(DefaultBodyLimit::max(MAX_FRAME))
        .with_state(shared)
}

/// The games this server offers and what the lobby and the tables need of each (seat range,
/// boards with titles, variants and options with labels, the default timer): docs/protocol.md.
async fn kinds(State(shared): AppState) -> Response {
    Json(serde_json::json!({ "v": protocol::VERSION, "kinds": shared.registry.infos() }))
        .into_response()
}

/// A game's rules page and context help (docs/client.md "Rules and help"): the game crate's
/// rule book and the static part of a game on the default board, for the diagrams. Only the
/// games this server offers; computed per request (a few kilobytes, a game started and
/// dropped: no more work than `/api/kinds`'s caller could cause with a lobby game).
async fn rules(State(shared): AppState, Path(name): Path<String>) -> Response {
    match shared.registry.get(&name) {
        Some(kind) => {
            let mut page = kind.rules_page();
            page["v"] = serde_json::json!(protocol::VERSION);
            Json(page).into_response()
        }
        None => ApiError::NotFound.into_response(),
    }
}

/// "Learn to play": the lessons of the games this server offers (docs/lessons.md).
async fn lessons(State(s): AppState) -> Response {
    Json(s.lessons()).into_response()
}

/// Start a lesson as a practice game against its bots: `201` with the game, `404
/// no_such_lesson` for a game or number without a lesson, `400 bad_lesson_number` for a number
/// that is not one. Counts against the caller's game quotas like any new game.
async fn start_lesson(
    State(s): AppState,
    Peer(peer): Peer,
    Caller(who): Caller,
    Path((game, number)): Path<(String, String)>,
) -> Result<(StatusCode, Json<GameInfo>), ApiError> {
    let number: usize = number.parse().map_err(|_| {
        ApiError::bad("bad_lesson_number", format!("a lesson number is 1, 2, 3…, not {number:?}"))
    })?;
    charge_game_quota(&s, &who, peer).await?;
    Ok((StatusCode::CREATED, Json(s.create_lesson_game(&who, &game, number).await?)))
}

/// A connection's first request settles which address it counts against (`listen::ConnSlot`):
/// a socket another node forwards counts against its client's address when that node signed it
/// (`forward::client_of`). Over the per-address cap: `429 too_many_connections`.
async fn settle_connection(
    State(s): AppState,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if let Some(slot) = req.extensions().get::<Arc<crate::listen::ConnSlot>>().cloned()
        && slot.unsettled()
    {
        let client = s
            .node
            .get()
            .filter(|_| req.headers().contains_key(crate::forward::FORWARDED))
            .and_then(|n| crate::forward::client_of(&n.secret, req.headers(), req.uri().path()));
        if !slot.settle(&s.conns, client, s.config.limits.conns_per_address) {
            s.metrics.conns_refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return ApiError::TooMany(
                "too_many_connections",
                "too many connections from this address".into(),
                None,
            )
            .into_response();
        }
    }
    next.run(req).await
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

/// The token of a request's `Authorization: Bearer` header or cookie.
pub(crate) fn token_in(headers: &HeaderMap) -> Option<String> {
    if let Some(b) = headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok())
        && let Some(t) = b.strip_prefix("Bearer ")
    {
        return Some(t.trim().to_string());
    }
    if let Some(c) = headers.get(header::COOKIE).and_then(|h| h.to_str().ok()) {
        for kv in c.split(';') {
            if let Some(t) = kv.trim().strip_prefix(COOKIE).and_then(|r| r.strip_prefix('=')) {
                return Some(t.to_string());
            }
        }
    }
    None
}

pub(crate) fn token_of(parts: &Parts, query: bool) -> Option<String> {
    if let Some(t) = token_in(&parts.headers) {
        return Some(t);
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
        let who = shared.identity(&token).await?.ok_or(ApiError::Unauthorized)?;
        shared.renew(&token, &who).await;
        Ok(Caller(who))
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
                let who = shared.identity(&t).await?.ok_or(ApiError::Unauthorized)?;
                shared.renew(&t, &who).await;
                Ok(MaybeCaller(Some(who)))
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

/// The peer's IP address (set by the accept loop, `listen`); `None` in-process.
pub struct Peer(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Peer(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|c| crate::limits::address_key(c.0.ip())),
        ))
    }
}

/// 429 when any of the quotas checked (`Quota::peek`) is spent: `Retry-After` is the longest wait.
fn refuse(
    s: &Shared,
    waits: impl IntoIterator<Item = Option<std::time::Duration>>,
    what: &str,
) -> Result<(), ApiError> {
    match waits.into_iter().flatten().max() {
        None => Ok(()),
        Some(d) => {
            s.metrics.quota_refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Err(ApiError::TooMany(
                "rate_limited",
                format!("too many {what} created: try again in {} s", d.as_secs() + 1),
                Some(d),
            ))
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
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::TooLarge),
            Err(e) => Err(ApiError::bad("bad_request", e.body_text())),
        }
    }
}

async fn metrics(State(s): AppState) -> impl IntoResponse {
    let mut text = s.metrics.render();
    text.push_str(&s.fault_metrics());
    let name = "robodrome_steps_cache_bytes";
    text.push_str(&format!(
        "# HELP {name} Replay steps of finished games held in the cache (their JSON text).\n# TYPE {name} gauge\n{name} {}\n",
        s.steps_cache.bytes()
    ));
    text.push_str(&crate::metrics::render_gauges(&s.memory_gauges()));
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text)
}

/// `GET /healthz`: 200 while the server answers, with what is wrong (docs/protocol.md).
async fn healthz(State(s): AppState) -> Json<crate::faults::Health> {
    Json(s.faults.health(s.store.unreadable()))
}

/// The guest cookie: `Secure` when the server sits behind https (`--public-url https://…`).
pub(crate) fn cookie(s: &Shared, token: &str, max_age: u64) -> HeaderMap {
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

async fn guest(
    State(s): AppState,
    Peer(peer): Peer,
    Body(req): Body<GuestRequest>,
) -> Result<Response, ApiError> {
    let q = &s.quotas.guests_by_address;
    refuse(&s, [peer.and_then(|ip| q.peek(&ip).err())], "guests")?;
    if let Some(ip) = peer {
        let _ = q.check(&ip);
        let limit = s.config.limits.guests_per_window;
        shared_quota(&s, "guests", limit, s.config.limits.window(), &[format!("ip:{ip}")]).await?;
    }
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

/// A page's `before` cursor, `TIME.ID` (a game's time and id, as the page before gave it in
/// `from`: a `Link` header, a `next` field): the lobby's list and a player's games.
pub(crate) fn before_cursor(
    cursor: Option<&str>,
    from: &str,
) -> Result<Option<(i64, String)>, ApiError> {
    let Some(c) = cursor else { return Ok(None) };
    c.split_once('.')
        .and_then(|(t, id)| Some((t.parse::<i64>().ok()?, id.to_string())))
        .filter(|(_, id)| id.len() <= 64)
        .map(Some)
        .ok_or_else(|| ApiError::bad("bad_query", format!("before is a cursor from {from}")))
}

async fn create(
    State(s): AppState,
    Peer(peer): Peer,
    Caller(who): Caller,
    Body(body): Body<Value>,
) -> Result<(StatusCode, Json<GameInfo>), ApiError> {
    // A lobby request, with an optional turn-based `clock` (`crate::turns`).
    let (req, clock) = crate::turns::split_request(body)?;
    if clock.is_some() {
        s.require_account(&who, "a turn-based game").await?;
    }
    charge_game_quota(&s, &who, peer).await?;
    Ok((StatusCode::CREATED, Json(s.create_game_with(&who, req, clock, None).await?)))
}

/// The games-created quotas: both the identity's and the address's must have room; only then
/// is each charged.
pub(crate) async fn charge_game_quota(
    s: &Shared,
    who: &crate::store::Identity,
    peer: Option<std::net::IpAddr>,
) -> Result<(), ApiError> {
    let (by_id, by_addr) = (&s.quotas.games_by_identity, &s.quotas.games_by_address);
    refuse(s, [by_id.peek(&who.id).err(), peer.and_then(|ip| by_addr.peek(&ip).err())], "games")?;
    let _ = by_id.check(&who.id);
    if let Some(ip) = peer {
        let _ = by_addr.check(&ip);
    }
    let mut keys = vec![format!("id:{}", who.id)];
    keys.extend(peer.map(|ip| format!("ip:{ip}")));
    shared_quota(s, "games", s.config.limits.games_per_window, s.config.limits.window(), &keys)
        .await
}

/// On a cluster node with Redis, a quota is also counted across the nodes: a fixed window per
/// key in Redis (`bus::Bus::window`), beside this node's own bucket (docs/deployment.md
/// "Quotas"). Without Redis, or while it does not answer, the node's own bucket decides alone.
pub(crate) async fn shared_quota(
    s: &Shared,
    what: &str,
    limit: u32,
    window: std::time::Duration,
    keys: &[String],
) -> Result<(), ApiError> {
    let Some(bus) = s.bus.get() else { return Ok(()) };
    let mut waits = Vec::new();
    for k in keys {
        if let Some(Err(d)) = bus.window(what, k, limit, window).await {
            waits.push(Some(d));
        }
    }
    refuse(s, waits, what)
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    /// Games per status (1 to 100, default 50).
    limit: Option<u32>,
    /// The cursor of the page before (`next` from its `Link` header).
    before: Option<String>,
}

/// The lobby list's default and largest page.
const LIST_LIMIT: (u32, u32) = (50, 100);

/// `GET /api/games[?status=&limit=&before=]`: one page, newest first. The answer carries an
/// `ETag` that changes whenever any game's lobby entry does; `If-None-Match` with it answers
/// `304 Not Modified` without reading the database. With a status, a `Link: <…>; rel="next"`
/// header points at the next page when there may be one.
async fn list(
    State(s): AppState,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let Query(q): Query<ListQuery> =
        Query::try_from_uri(&uri).map_err(|e| ApiError::bad("bad_query", e.body_text()))?;
    // The version first: a change that lands while the page is read makes the next ETag differ.
    let etag = format!("\"{}-{}\"", s.lobby_tag(), uri.query().unwrap_or(""));
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim().trim_start_matches("W/") == etag));
    if matches {
        s.metrics.lobby_not_modified.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    let limit = q.limit.unwrap_or(LIST_LIMIT.0);
    if !(1..=LIST_LIMIT.1).contains(&limit) {
        return Err(ApiError::bad("bad_query", format!("limit is 1 to {}", LIST_LIMIT.1)));
    }
    let before = before_cursor(q.before.as_deref(), "a Link header")?;
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
    let (games, next) = s.list(status, before, limit).await?;
    let mut r = Json(games).into_response();
    let h = r.headers_mut();
    if let Ok(v) = etag.parse() {
        h.insert(header::ETAG, v);
    }
    // Revalidate every time: the ETag makes that cheap.
    h.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
    if let (Some(n), Some(st)) = (next, q.status.as_deref())
        && let Ok(v) =
            format!("</api/games?status={st}&limit={limit}&before={n}>; rel=\"next\"").parse()
    {
        h.insert(header::LINK, v);
    }
    Ok(r)
}

#[derive(Deserialize)]
struct GameQuery {
    /// `?setup=true`: with the game's setup (the waiting room's settings), once, not per poll.
    #[serde(default)]
    setup: bool,
}

async fn game(
    State(s): AppState,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Json<GameInfo>, ApiError> {
    let Query(q): Query<GameQuery> =
        Query::try_from_uri(&uri).map_err(|e| ApiError::bad("bad_query", e.body_text()))?;
    let mut info = s.game_info(&id).await?;
    if !q.setup {
        info.setup = None;
    }
    Ok(Json(info))
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

/// `POST /api/games/{id}/leave`: free the seat of an open game, or resign a running one.
///
/// On a cluster node, a running game another node owns is left on the owner: the request is
/// forwarded there (with the caller's credentials), whose game task applies the resignation
/// at once (docs/deployment.md "Forwarding").
async fn leave(
    State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    match s.leave(&who, &id).await {
        Err(ApiError::Conflict(crate::OWNED_ELSEWHERE, _)) => {
            let addr = s.owner_addr(&id, &headers).await?;
            crate::forward::forward_http(&addr, "POST", uri.path(), &headers).await.map_err(|e| {
                ApiError::Unavailable(format!("the game's node is not answering: {e}"))
            })
        }
        r => Ok(Json(r?).into_response()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Say {
    text: String,
}

/// `POST /api/games/{id}/chat` `{"text": …}`: say a line (the waiting room's way; a table
/// says it on its socket). Answers the line as said.
async fn chat_say(
    State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
    Body(req): Body<Say>,
) -> Result<Json<protocol::ChatLine>, ApiError> {
    s.store.game(&id).await?.ok_or(ApiError::NotFound)?;
    match s.say(&id, &who, &req.text).await {
        Ok(line) => Ok(Json(line)),
        Err(crate::chat::ChatError::Bad(m)) => Err(ApiError::bad("bad_chat", m)),
        Err(crate::chat::ChatError::TooMany(secs)) => Err(ApiError::TooMany(
            "rate_limited",
            format!("too many chat lines: wait {secs} s"),
            Some(std::time::Duration::from_secs(secs)),
        )),
    }
}

/// `GET /api/games/{id}/chat`: the kept lines the caller may see (a seat's player sees the
/// spectators' channel only once the game is over; anyone else, signed in or not, sees both).
async fn chat_lines(
    State(s): AppState,
    Path(id): Path<String>,
    MaybeCaller(who): MaybeCaller,
) -> Result<Json<Value>, ApiError> {
    let row = s.store.game(&id).await?.ok_or(ApiError::NotFound)?;
    let player = who.as_ref().is_some_and(|w| {
        row.seats.iter().any(
            |o| matches!(o, crate::store::SeatOwner::Human { identity, .. } if *identity == w.id),
        )
    });
    let sees = crate::chat::visible(
        protocol::ChatChannel::Spectators,
        player,
        row.status == Status::Finished,
    );
    // Not the lines of players the caller blocks (docs/platform.md "Blocking").
    let viewer = who.as_ref().map(|w| w.id.as_str());
    if let Some(v) = viewer {
        s.load_blocks(v).await;
    }
    let lines = s.chats.lines_hiding(&id, sees, |speaker| s.blocks.hides(viewer, speaker));
    Ok(Json(serde_json::json!({ "lines": lines })))
}

async fn replay(State(s): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.replay(&id).await?))
}

/// `GET /ws/games/{id}`: play the seat the caller holds, or watch.
async fn socket(
    State(s): AppState,
    Path(id): Path<String>,
    MaybeCaller(who): MaybeCaller,
    Peer(peer): Peer,
    headers: HeaderMap,
    uri: axum::http::Uri,
    up: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let sub = match s.subscribe_as(&id, who.as_ref(), changed_views(uri.query())).await {
        // A cluster node that does not own the game: the socket goes to the owner.
        Err(ApiError::Conflict(crate::OWNED_ELSEWHERE, _)) => {
            let addr = s.owner_addr(&id, &headers).await?;
            let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str()).to_string();
            return crate::forward::forward(s.clone(), &addr, &path, &headers, peer, up)
                .await
                .map_err(|e| match e {
                    crate::forward::Refused::TooMany => ApiError::TooMany(
                        "too_many_connections",
                        "too many connections from this address".into(),
                        None,
                    ),
                    crate::forward::Refused::Other(e) => {
                        ApiError::Unavailable(format!("the game's node is not answering: {e}"))
                    }
                });
        }
        r => r?,
    };
    // Presence (docs/platform.md): online while a game socket is open.
    let online = who.as_ref().map(|w| crate::platform::online_guard(&s, &w.id));
    Ok(serve_socket(s, sub, up, online))
}

/// Whether a game socket's query asks for views only when they changed: `views=changed`
/// (docs/protocol.md "Views only when they changed"). Anything else (no `views`, another
/// value) is the whole view in every update, as every client has always had it.
pub(crate) fn changed_views(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|pair| pair == "views=changed"))
}

/// Upgrade to a game's socket and run the connection's loop for a subscription (a player's,
/// a spectator's, or a bot's through the Bot API); `guard` is dropped when the socket ends.
pub(crate) fn serve_socket<G: Send + 'static>(
    s: Arc<Shared>,
    sub: crate::Subscription,
    up: WebSocketUpgrade,
    guard: G,
) -> Response {
    // Frames up to 1 MiB are read so that those over 64 KiB get a typed error, not a dropped socket.
    // Small buffers keep an idle connection cheap; frames are written when the connection's
    // loop flushes (after the frames already queued for it), or as soon as 64 KiB wait. The
    // read buffer is what one read asks of the socket, and tungstenite zeroes the part of it it
    // reads into before every read: a client's messages are a few hundred bytes (an action),
    // so 2 KiB (not 8) takes one in one read and zeroes a quarter as much per action
    // (docs/benchmarks.md "CPU per accepted action, round 7"); a longer one takes more reads.
    let up = up
        .read_buffer_size(2 * 1024)
        .write_buffer_size(64 * 1024)
        .max_message_size(1 << 20)
        .max_frame_size(1 << 20);
    up.on_upgrade(move |socket: WebSocket| async move {
        let (sink, stream) = socket.split();
        // The text read is handed on as the frame tungstenite unmasked (no copy).
        let stream = stream
            .take_while(|m| {
                std::future::ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_))))
            })
            .filter_map(|m| {
                std::future::ready(m.ok().map(|m| match m {
                    Message::Text(t) => Incoming::Text(t),
                    Message::Binary(b) => Incoming::Binary(b.len()),
                    _ => Incoming::Other,
                }))
            });
        let sink = sink.with(|o: ws::Out| async move {
            Ok::<_, axum::Error>(match o {
                ws::Out::Text(s) => Message::Text(s),
                ws::Out::Ping => Message::Ping(Default::default()),
            })
        });
        ws::run(s, sub, Box::pin(sink), Box::pin(stream)).await;
        drop(guard);
    })
}

async fn steps(
    State(s): AppState,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let page = crate::steps::Page::parse(uri.query())?;
    let body = crate::steps::steps(&s, &id, page).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

impl Shared {
    /// Where the node that owns running game `id` listens, for a request this node does not
    /// own; `503 unavailable` (the client tries again) when the game is between owners or the
    /// request was forwarded here already (never forwarded twice).
    pub(crate) async fn owner_addr(
        &self,
        id: &str,
        headers: &HeaderMap,
    ) -> Result<String, ApiError> {
        let moving = || ApiError::Unavailable("the game is moving between nodes: reconnect".into());
        if headers.contains_key(crate::forward::FORWARDED) {
            return Err(moving());
        }
        let owner = match self.node.get() {
            Some(node) => node.cluster.owner(id).await.map_err(crate::store::StoreError::from)?,
            None => None,
        };
        owner.and_then(|o| o.addr).ok_or_else(moving)
    }
}
