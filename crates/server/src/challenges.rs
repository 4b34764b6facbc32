//! Challenges (docs/protocol.md "Challenges"): a player (or a bot account) asks another
//! identity — a player or a bot account — for a game; the recipient accepts (the game is made
//! and starts at once) or declines, and the challenger may cancel. An open challenge expires.
//! Limits: [`OPEN_PER_IDENTITY`] open challenges from one identity, expiry between
//! [`EXPIRES_SECS`]'s bounds.
//!
//! Also here: [`Events`], the in-memory notices behind the Bot API's event stream (challenges
//! and game starts, per identity).

use crate::Shared;
use crate::error::ApiError;
use crate::platform_store::Challenge;
use crate::store::Identity;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Open challenges one identity may have sent at once.
pub const OPEN_PER_IDENTITY: usize = 20;
/// A challenge's life: default, least and most (seconds).
pub const EXPIRES_SECS: (i64, i64, i64) = (24 * 3600, 60, 7 * 24 * 3600);
/// Event streams one identity may hold open at once.
pub const STREAMS_PER_IDENTITY: usize = 2;

/// Notices for identities that hold an event stream open (`botapi`), in memory: a stream
/// that is not open misses nothing it cannot read again (a new stream starts with the open
/// challenges and running games).
#[derive(Default)]
pub struct Events {
    subs: Mutex<HashMap<String, Vec<mpsc::Sender<Value>>>>,
}

impl Events {
    fn subs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<mpsc::Sender<Value>>>> {
        self.subs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new stream of `identity`'s notices, unless it holds [`STREAMS_PER_IDENTITY`] already.
    pub fn subscribe(&self, identity: &str) -> Option<mpsc::Receiver<Value>> {
        let mut subs = self.subs();
        let list = subs.entry(identity.to_string()).or_default();
        list.retain(|tx| !tx.is_closed());
        if list.len() >= STREAMS_PER_IDENTITY {
            return None;
        }
        let (tx, rx) = mpsc::channel(64);
        list.push(tx);
        Some(rx)
    }

    /// Tell every stream of `identity` (a stream too slow to take it is dropped).
    pub fn notify(&self, identity: &str, event: Value) {
        let mut subs = self.subs();
        if let Some(list) = subs.get_mut(identity) {
            list.retain(|tx| tx.try_send(event.clone()).is_ok());
            if list.is_empty() {
                subs.remove(identity);
            }
        }
    }
}

fn now_secs() -> i64 {
    crate::turns::now_ms() / 1000
}

/// A challenge as the API shows it.
pub fn challenge_json(c: &Challenge) -> Value {
    json!({
        "id": c.id,
        "challenger": {"id": c.challenger, "name": c.challenger_name},
        "recipient": {"id": c.recipient, "name": c.recipient_name},
        "request": c.request,
        "status": c.status,
        "created_at": c.created_at,
        "expires_at": c.expires_at,
        "game_id": c.game_id,
    })
}

impl Shared {
    /// `POST /api/challenges`: `{"to": IDENTITY, "game": …, "seats": […], …, "clock": …,
    /// "expires_secs": N}` (a lobby request whose seats say `me` and `you` once each; default
    /// `["me", "you"]`). The request is checked as far as it can be without making the game.
    pub async fn challenge(
        self: &Arc<Self>,
        who: &Identity,
        mut body: Value,
    ) -> Result<Value, ApiError> {
        self.require_account(who, "challenging a player").await?;
        let Some(map) = body.as_object_mut() else {
            return Err(ApiError::bad("bad_request", "a challenge is a JSON object"));
        };
        let to = match map.remove("to") {
            Some(Value::String(s)) if !s.is_empty() && s.len() <= 64 => s,
            _ => return Err(ApiError::bad("bad_challenge", "to: the identity challenged (an id)")),
        };
        let (def, lo, hi) = EXPIRES_SECS;
        let expires = match map.remove("expires_secs") {
            None => def,
            Some(v) => match v.as_i64() {
                Some(n) if (lo..=hi).contains(&n) => n,
                _ => {
                    return Err(ApiError::bad(
                        "bad_challenge",
                        format!("expires_secs is {lo} to {hi}"),
                    ));
                }
            },
        };
        map.entry("seats").or_insert_with(|| json!(["me", "you"]));
        // The request must be a lobby request (with its optional clock).
        let (req, _clock) = crate::turns::split_request(body.clone())?;
        if self.registry.get(&req.game).is_none() {
            return Err(ApiError::bad("unknown_game", format!("unknown game {:?}", req.game)));
        }
        let count = |w: &str| req.seats.iter().filter(|s| *s == w).count();
        if count("me") != 1 || count("you") != 1 {
            return Err(ApiError::bad(
                "bad_seat",
                "a challenge's seats say \"me\" once and \"you\" once (others: \"bot:…\")",
            ));
        }
        if req.seats.iter().any(|s| s == "open") {
            return Err(ApiError::bad("bad_seat", "a challenge has no open seat"));
        }
        if to == who.id {
            return Err(ApiError::bad("bad_challenge", "you cannot challenge yourself"));
        }
        let platform = self.store.platform();
        let recipient_name = platform
            .identity_name(&to)
            .await?
            .ok_or_else(|| ApiError::Missing("no_such_player", format!("no identity {to:?}")))?;
        let open = self.open_challenges(&who.id).await?;
        if open.iter().filter(|c| c.challenger == who.id).count() >= OPEN_PER_IDENTITY {
            return Err(ApiError::TooMany(
                "too_many_challenges",
                format!("at most {OPEN_PER_IDENTITY} of your challenges may be open at once"),
                None,
            ));
        }
        let now = now_secs();
        let c = Challenge {
            id: crate::lobby::random_hex(8)?,
            challenger: who.id.clone(),
            challenger_name: who.name.clone(),
            recipient: to.clone(),
            recipient_name,
            request: body,
            status: "open".into(),
            created_at: now,
            expires_at: now + expires,
            game_id: None,
        };
        self.write(platform.insert_challenge(&c)).await?;
        let v = challenge_json(&c);
        self.notify_event(
            &to,
            json!({"v": protocol::VERSION, "type": "challenge", "challenge": v}),
        );
        tracing::info!(challenge = %c.id, from = %who.id, to = %to, "challenge sent");
        Ok(v)
    }

    /// Open challenges from or to `identity`; those past their time are marked expired.
    pub async fn open_challenges(&self, identity: &str) -> Result<Vec<Challenge>, ApiError> {
        let platform = self.store.platform();
        let now = now_secs();
        let mut out = Vec::new();
        for c in platform.open_challenges_of(identity).await? {
            if c.expires_at <= now {
                let _ = self.write(platform.close_challenge(&c.id, "expired", None)).await;
            } else {
                out.push(c);
            }
        }
        Ok(out)
    }

    async fn open_challenge(&self, id: &str) -> Result<Challenge, ApiError> {
        let platform = self.store.platform();
        let c = platform.challenge(id).await?.ok_or_else(|| {
            ApiError::Missing("no_such_challenge", format!("no challenge {id:?}"))
        })?;
        if c.status == "open" && c.expires_at <= now_secs() {
            self.write(platform.close_challenge(&c.id, "expired", None)).await?;
            return Err(ApiError::conflict("challenge_closed", "the challenge has expired"));
        }
        if c.status != "open" {
            return Err(ApiError::conflict(
                "challenge_closed",
                format!("the challenge is {} already", c.status),
            ));
        }
        Ok(c)
    }

    /// The recipient accepts: the game is made (the challenger's request, `you` = the
    /// recipient) and starts; both are told `game_start`. Returns the game.
    pub async fn accept_challenge(
        self: &Arc<Self>,
        who: &Identity,
        id: &str,
    ) -> Result<protocol::GameInfo, ApiError> {
        self.require_account(who, "accepting a challenge").await?;
        // One acceptance at a time: a challenge makes one game.
        let _lobby = self.lobby_lock.lock().await;
        let c = self.open_challenge(id).await?;
        if c.recipient != who.id {
            return Err(ApiError::Forbidden("only the challenged player may accept".into()));
        }
        let (req, clock) = crate::turns::split_request(c.request.clone())?;
        let challenger =
            Identity { id: c.challenger.clone(), name: c.challenger_name.clone(), issued_at: 0 };
        let info = self.create_game_with(&challenger, req, clock, Some(who)).await?;
        self.write(self.store.platform().close_challenge(&c.id, "accepted", Some(&info.id)))
            .await?;
        tracing::info!(challenge = %c.id, game = %info.id, "challenge accepted");
        let row = self.store.game(&info.id).await?;
        for identity in [&c.challenger, &c.recipient] {
            let seat = row.as_ref().and_then(|r| seat_of(&r.seats, identity));
            self.notify_event(
                identity,
                json!({"v": protocol::VERSION, "type": "game_start", "game_id": info.id,
                       "game": info.game, "seat": seat, "challenge": c.id}),
            );
        }
        Ok(info)
    }

    /// The recipient declines, or the challenger cancels.
    pub async fn decline_challenge(&self, who: &Identity, id: &str) -> Result<Value, ApiError> {
        let c = self.open_challenge(id).await?;
        let status = if c.recipient == who.id {
            "declined"
        } else if c.challenger == who.id {
            "cancelled"
        } else {
            return Err(ApiError::Forbidden("the challenge is not yours".into()));
        };
        if !self.write(self.store.platform().close_challenge(&c.id, status, None)).await? {
            return Err(ApiError::conflict("challenge_closed", "the challenge is closed already"));
        }
        let other = if c.recipient == who.id { &c.challenger } else { &c.recipient };
        self.notify_event(
            other,
            json!({"v": protocol::VERSION, "type": "challenge_closed", "id": c.id, "status": status}),
        );
        Ok(challenge_json(&Challenge { status: status.into(), ..c }))
    }
}

/// The seat `identity` holds among `seats`.
pub fn seat_of(seats: &[crate::store::SeatOwner], identity: &str) -> Option<u8> {
    seats
        .iter()
        .position(
            |s| matches!(s, crate::store::SeatOwner::Human { identity: i, .. } if i == identity),
        )
        .map(|i| i as u8)
}
