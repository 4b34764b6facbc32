//! Bot accounts and the Bot API, version 1 (docs/protocol.md "Bot API"), after lichess's.
//!
//! A player makes a bot account (`POST /api/bots`) and gets its API token once; the server
//! keeps only the token's SHA-256 (`schema::hash_token`), and the owner may renew or revoke
//! it. A program holding the token speaks `/api/bot/v1/…` with `Authorization: Bearer TOKEN`
//! (`?token=` on WebSocket handshakes as well):
//!
//! * `GET /api/bot/v1/account` — who the token is;
//! * `GET /api/bot/v1/events` — a WebSocket of notices: the open challenges to the bot and
//!   its running games first, then `challenge`, `challenge_closed` and `game_start` as they
//!   happen;
//! * `POST /api/bot/v1/challenges/{id}/accept` and `/decline`;
//! * `POST /api/bot/v1/challenges` — the bot challenges someone;
//! * `GET /api/bot/v1/games/{id}` — a WebSocket on one of its games: exactly the seat
//!   protocol of `/ws/games/{id}` (the same welcome, updates and redacted views, built by the
//!   game's task), for the seat the bot holds and no other.
//!
//! Every request of a bot is counted against its account's quota ([`REQUESTS_PER_MINUTE`]),
//! and its event streams against `challenges::STREAMS_PER_IDENTITY`; a game socket has the
//! per-connection message rate of every socket.

use crate::Shared;
use crate::error::ApiError;
use crate::http::{AppState, Body, Caller};
use crate::platform_store::BotAccount;
use crate::store::{Identity, Status};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Path};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The Bot API's version (its paths say `v1`).
pub const VERSION: u8 = 1;
/// Requests (handshakes included) one bot account may make per minute.
pub const REQUESTS_PER_MINUTE: u32 = 120;
/// Bot accounts one player may own.
pub const BOTS_PER_OWNER: usize = 5;

/// The routes of bot accounts and of the Bot API (merged into `http::router`).
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/bots", post(create_bot).get(my_bots))
        .route("/api/bots/{id}/token", post(renew_token))
        .route("/api/bots/{id}/revoke", post(revoke_token))
        .route("/api/challenges", post(challenge).get(challenges))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/turns", get(turns))
        .route("/api/bot/v1/account", get(account))
        .route("/api/bot/v1/events", get(events))
        .route("/api/bot/v1/challenges", post(bot_challenge))
        .route("/api/bot/v1/challenges/{id}/accept", post(bot_accept))
        .route("/api/bot/v1/challenges/{id}/decline", post(bot_decline))
        .route("/api/bot/v1/games/{id}", get(bot_game))
}

/// A new API token: 192 random bits, prefixed so that it is recognisable in a config file.
fn new_token() -> Result<String, ApiError> {
    Ok(format!("rdbot_{}", crate::lobby::random_hex(24)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBot {
    name: String,
}

/// `POST /api/bots {"name": …}`: a bot account of the caller's, and its token (shown once).
async fn create_bot(
    axum::extract::State(s): AppState,
    Caller(who): Caller,
    Body(req): Body<NewBot>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    s.require_account(&who, "making a bot account").await?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 40 {
        return Err(ApiError::bad("bad_name", "a name has 1 to 40 characters"));
    }
    let platform = s.store.platform();
    if platform.bot(&who.id).await?.is_some() {
        return Err(ApiError::Forbidden("a bot account cannot make bot accounts".into()));
    }
    if platform.bots_of(&who.id).await?.len() >= BOTS_PER_OWNER {
        return Err(ApiError::TooMany(
            "too_many_bots",
            format!("at most {BOTS_PER_OWNER} bot accounts per player"),
            None,
        ));
    }
    let bot = BotAccount {
        id: crate::lobby::random_hex(8)?,
        name: name.to_string(),
        owner: who.id.clone(),
        has_token: true,
    };
    let token = new_token()?;
    s.write(platform.create_bot(&bot, &crate::schema::hash_token(&token))).await?;
    tracing::info!(bot = %bot.id, owner = %who.id, "bot account created");
    Ok((StatusCode::CREATED, Json(json!({"id": bot.id, "name": bot.name, "token": token}))))
}

/// `GET /api/bots`: the caller's bot accounts (never their tokens).
async fn my_bots(
    axum::extract::State(s): AppState,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "bots": s.store.platform().bots_of(&who.id).await? })))
}

async fn owned(s: &Shared, who: &Identity, id: &str) -> Result<BotAccount, ApiError> {
    match s.store.platform().bot(id).await? {
        Some(b) if b.owner == who.id => Ok(b),
        _ => Err(ApiError::Missing("no_such_bot", format!("you own no bot account {id:?}"))),
    }
}

/// `POST /api/bots/{id}/token`: a new token (the old one stops working), shown once.
async fn renew_token(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    let bot = owned(&s, &who, &id).await?;
    let token = new_token()?;
    let hash = crate::schema::hash_token(&token);
    s.write(s.store.platform().set_bot_token(&bot.id, Some(&hash))).await?;
    Ok(Json(json!({"id": bot.id, "name": bot.name, "token": token})))
}

/// `POST /api/bots/{id}/revoke`: the token stops working (no new one).
async fn revoke_token(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    let bot = owned(&s, &who, &id).await?;
    s.write(s.store.platform().set_bot_token(&bot.id, None)).await?;
    tracing::info!(bot = %bot.id, "bot token revoked");
    Ok(Json(json!({"id": bot.id, "revoked": true})))
}

/// `POST /api/challenges`: challenge a player or a bot account.
async fn challenge(
    axum::extract::State(s): AppState,
    Caller(who): Caller,
    Body(body): Body<Value>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((StatusCode::CREATED, Json(s.challenge(&who, body).await?)))
}

/// `GET /api/challenges`: the caller's open challenges, sent and received.
async fn challenges(
    axum::extract::State(s): AppState,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    let open = s.open_challenges(&who.id).await?;
    let list: Vec<Value> = open.iter().map(crate::challenges::challenge_json).collect();
    Ok(Json(json!({ "challenges": list })))
}

async fn accept(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<Json<protocol::GameInfo>, ApiError> {
    Ok(Json(s.accept_challenge(&who, &id).await?))
}

async fn decline(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.decline_challenge(&who, &id).await?))
}

/// `GET /api/turns`: the documented alias of `GET /api/me/games?filter=turn-based` (the
/// caller's running turn-based games, those where it is their move first).
async fn turns(
    axum::extract::State(s): AppState,
    Caller(who): Caller,
) -> Result<Json<Value>, ApiError> {
    crate::platform::my_games_answer(&s, &who, crate::platform::MyGames::TurnBased, false).await
}

/// The caller of a Bot API route: a bot account by its token, within its request quota.
pub struct BotCaller(pub Identity);

impl FromRequestParts<Arc<Shared>> for BotCaller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, s: &Arc<Shared>) -> Result<Self, ApiError> {
        // `?token=` on WebSocket handshakes only (a token in a URL ends up in logs).
        let ws = parts.headers.contains_key(axum::http::header::UPGRADE);
        let token = crate::http::token_of(parts, ws).ok_or_else(|| {
            ApiError::BadToken("the Bot API needs Authorization: Bearer <bot token>".into())
        })?;
        if token.len() > 128 {
            return Err(ApiError::BadToken("unknown or revoked bot token".into()));
        }
        let hash = crate::schema::hash_token(&token);
        let bot = s
            .store
            .platform()
            .bot_by_token_hash(&hash)
            .await?
            .ok_or_else(|| ApiError::BadToken("unknown or revoked bot token".into()))?;
        let shared = match s.bus.get() {
            Some(bus) => {
                let minute = std::time::Duration::from_secs(60);
                bus.window("bot", &bot.id, REQUESTS_PER_MINUTE, minute).await.and_then(|r| r.err())
            }
            None => None,
        };
        if let Err(wait) = s.bot_requests.check(&bot.id).and(shared.map_or(Ok(()), Err)) {
            s.metrics.quota_refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Err(ApiError::TooMany(
                "rate_limited",
                format!("at most {REQUESTS_PER_MINUTE} Bot API requests per minute"),
                Some(wait),
            ));
        }
        Ok(BotCaller(Identity { id: bot.id, name: bot.name, issued_at: 0 }))
    }
}

/// `GET /api/bot/v1/account`.
async fn account(BotCaller(bot): BotCaller) -> Json<Value> {
    Json(json!({"v": VERSION, "id": bot.id, "name": bot.name, "bot": true}))
}

async fn bot_challenge(
    axum::extract::State(s): AppState,
    BotCaller(bot): BotCaller,
    Body(body): Body<Value>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    Ok((StatusCode::CREATED, Json(s.challenge(&bot, body).await?)))
}

async fn bot_accept(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    BotCaller(bot): BotCaller,
) -> Result<Json<protocol::GameInfo>, ApiError> {
    Ok(Json(s.accept_challenge(&bot, &id).await?))
}

async fn bot_decline(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    BotCaller(bot): BotCaller,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.decline_challenge(&bot, &id).await?))
}

/// Running games where `identity` holds a seat (the newest 500 running games are looked at).
async fn running_games_of(s: &Shared, identity: &str) -> Result<Vec<Value>, ApiError> {
    let rows = s.store.games(Some(Status::Running), 500).await?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let seat = crate::challenges::seat_of(&r.seats, identity)?;
            Some(json!({"v": VERSION, "type": "game_start", "game_id": r.id, "game": r.game, "seat": seat}))
        })
        .collect())
}

/// `GET /api/bot/v1/events`: the bot's notices on a WebSocket, one JSON object per text frame.
async fn events(
    axum::extract::State(s): AppState,
    BotCaller(bot): BotCaller,
    up: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let mut rx = s.events.subscribe(&bot.id).ok_or_else(|| {
        ApiError::TooMany(
            "too_many_streams",
            format!(
                "at most {} event streams per bot at once",
                crate::challenges::STREAMS_PER_IDENTITY
            ),
            None,
        )
    })?;
    let mut first: Vec<Value> = s
        .open_challenges(&bot.id)
        .await?
        .iter()
        .filter(|c| c.recipient == bot.id)
        .map(|c| {
            json!({"v": VERSION, "type": "challenge", "challenge": crate::challenges::challenge_json(c)})
        })
        .collect();
    first.extend(running_games_of(&s, &bot.id).await?);
    let mut stop = s.shutdown.clone();
    Ok(up.on_upgrade(move |mut socket: WebSocket| async move {
        for e in first {
            if socket.send(Message::Text(e.to_string().into())).await.is_err() {
                return;
            }
        }
        let mut ping = tokio::time::interval(Duration::from_secs(20));
        ping.tick().await;
        loop {
            tokio::select! {
                e = rx.recv() => match e {
                    Some(e) => if socket.send(Message::Text(e.to_string().into())).await.is_err() { break },
                    None => break,
                },
                m = socket.recv() => match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    // The stream only speaks: anything said to it is ignored.
                    Some(Ok(_)) => {}
                },
                _ = ping.tick() => if socket.send(Message::Ping(Default::default())).await.is_err() { break },
                _ = crate::stopped(&mut stop) => break,
            }
        }
        let _ = socket.send(Message::Close(None)).await;
    }))
}

/// `GET /api/bot/v1/games/{id}`: the seat protocol for the bot's own seat of a game.
async fn bot_game(
    axum::extract::State(s): AppState,
    Path(id): Path<String>,
    BotCaller(bot): BotCaller,
    uri: axum::http::Uri,
    up: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let sub = s.subscribe_as(&id, Some(&bot), crate::http::changed_views(uri.query())).await?;
    if sub.seat.is_none() {
        sub.leave().await;
        return Err(ApiError::Forbidden("this bot holds no seat in that game".into()));
    }
    Ok(crate::http::serve_socket(s, sub, up, ()))
}
