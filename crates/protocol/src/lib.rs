//! The wire messages of Robodrome's server: the only crate that knows the JSON on the wire.
//!
//! Every WebSocket frame is one JSON object with a protocol version `"v": 1` and a `type`.
//! Game-specific parts (actions, views, events) are carried as JSON values exactly as the game
//! crates serialise them; this crate does not know any game's rules.
//! See `docs/protocol.md` for every message with examples.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this crate speaks.
pub const VERSION: u8 = 1;

/// The largest frame a client may send, in bytes.
pub const MAX_FRAME: usize = 64 * 1024;

/// The content id of a game's static part: 16 hex digits of the 64-bit FNV-1a hash of its JSON
/// text as the server sends it. Equal static data gives equal ids (a client may cache by id).
pub fn static_id(static_json: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in static_json.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A message on the wire: the version, then the message's own fields.
#[derive(Serialize)]
struct Envelope<'a, T> {
    v: u8,
    #[serde(flatten)]
    msg: &'a T,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Act for the connection's seat. `seat` may be left out; naming another seat is refused.
    Act {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        action: Value,
        /// Echoed in the `ack` or `error` so the client can match them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Ask for the current view again.
    Sync,
    /// Keep-alive; answered by `pong`.
    Ping,
    /// Say something at the table (docs/protocol.md "Chat"): a seat's player speaks in the
    /// players' channel, anyone else signed in in the spectators' channel.
    Chat { text: String },
    /// After the game: ask for a rematch (`accept: true`, the default) or decline one asked for.
    Rematch {
        #[serde(default = "yes")]
        accept: bool,
    },
    /// Take the seat back from the bot that stood in while its player was away.
    TakeBack,
}

fn yes() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A chat channel: the players' (every observer sees it) or the spectators' (players see it only
/// once the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    Players,
    Spectators,
}

/// A line of chat as it travels: its number within its channel, who said it and what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    pub channel: ChatChannel,
    /// 1, 2, 3, … within the channel and the game: a client keeps each line once.
    pub n: u64,
    /// The speaker's seat (players' channel), none for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    pub name: String,
    pub text: String,
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent once on connect and on `sync`: who you are in this game and what you may see now.
    Welcome {
        game_id: String,
        game: String,
        /// The seats this connection acts for (empty for a spectator).
        seats: Vec<u8>,
        /// Number of log entries applied so far.
        seq: u64,
        /// The content id of the game's static part (board, rule tables): [`static_id`].
        static_id: String,
        /// The game's static part itself: on the welcome that opens a connection (left out on
        /// the welcome that answers `sync`: the connection has it already). Views and updates
        /// never repeat it.
        #[serde(rename = "static", default, skip_serializing_if = "Option::is_none")]
        static_data: Option<Value>,
        view: Value,
        /// The seats that owe a decision now (empty when the game is over).
        waiting: Vec<u8>,
        /// Time left on the running clock, if one runs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_left_ms: Option<u64>,
        /// Who the running clock runs for (RoboRally's hourglass: the last player to program;
        /// the server's timer: every waiting seat); empty when no clock runs.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        clock_for: Vec<u8>,
        /// A practice game (its seed may have been chosen by its creator; never rated): every
        /// seat and spectator is told so on every welcome.
        #[serde(default)]
        practice: bool,
    },
    /// The action with this `id` was accepted and stored as log entry `seq`.
    Ack {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        seq: u64,
    },
    /// The game moved on: the events this connection may see, and its new view. `view` is
    /// left out (`None`) only on a connection that asked for changed views only
    /// (`?views=changed`, docs/protocol.md "Views only when they changed"): then it means "the
    /// same view as in the last `welcome` or `update` this connection received".
    Update {
        seq: u64,
        events: Vec<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        view: Option<Value>,
        waiting: Vec<u8>,
        /// Time left on the running clock, if one runs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_left_ms: Option<u64>,
        /// Who the running clock runs for (RoboRally's hourglass: the last player to program;
        /// the server's timer: every waiting seat); empty when no clock runs.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        clock_for: Vec<u8>,
    },
    /// The game is over.
    Over {
        outcome: Value,
    },
    /// A seat's player left or came back; `bot` is true while a bot plays for them;
    /// `resigned` when the player resigned (a bot plays the seat to the end).
    Presence {
        seat: u8,
        connected: bool,
        bot: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        resigned: bool,
    },
    /// A line of chat (docs/protocol.md "Chat").
    Chat {
        #[serde(flatten)]
        line: ChatLine,
    },
    /// A rematch after the game: the seats that accepted, those still asked, the seat that
    /// declined (the proposal is then over), and the new game once everyone accepted.
    Rematch {
        accepted: Vec<u8>,
        asked: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declined: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
    },
    /// A lesson's game ("Learn to play", docs/lessons.md): the lesson (title, goal,
    /// introduction, hints) and where it stands — `{"status": "playing" | "complete" |
    /// "failed", "message"?}` — checked by the server on the engine's position. Sent after the
    /// welcome and whenever the status changes; never in other games.
    Lesson {
        lesson: Value,
        status: Value,
    },
    /// A request was refused: nothing changed and the connection stays usable.
    Error {
        code: ErrorCode,
        /// The game's own rule code when `code` is `illegal_action` (e.g. `not_your_decision`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    Pong,
}

/// Stable error codes (snake_case on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a JSON object.
    Malformed,
    /// Larger than [`MAX_FRAME`].
    TooLarge,
    /// Missing or unsupported `v`.
    UnsupportedVersion,
    /// A `type` this server does not know.
    UnknownType,
    /// A known type with missing or wrong fields.
    BadMessage,
    /// A binary frame.
    BinaryNotSupported,
    /// The action does not parse as an action of this game.
    BadAction,
    /// The game's rules refused the action (see `rule`).
    IllegalAction,
    /// The connection acts for no seat in this game.
    NotAPlayer,
    /// The seat named belongs to someone else.
    NotYourSeat,
    /// The game is over.
    GameOver,
    /// Too many messages: slow down.
    RateLimited,
    /// The server could not store the action (storage is failing or degraded, see
    /// docs/security.md "Faults"); nothing changed: try again later.
    StorageUnavailable,
    /// The game's task is gone (server shutting down).
    Unavailable,
    /// A chat line that is empty, too long or holds control characters.
    BadChat,
    /// Chat needs a signed-in identity (a guest).
    NotSignedIn,
    /// A rematch is asked for before the game is over, or by someone without a seat.
    NoRematch,
    /// Nothing to take back: no bot plays this seat now (or its player resigned).
    NothingToTakeBack,
    /// The player resigned: a bot plays the seat to the end.
    Resigned,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            Malformed => "malformed",
            TooLarge => "too_large",
            UnsupportedVersion => "unsupported_version",
            UnknownType => "unknown_type",
            BadMessage => "bad_message",
            BinaryNotSupported => "binary_not_supported",
            BadAction => "bad_action",
            IllegalAction => "illegal_action",
            NotAPlayer => "not_a_player",
            NotYourSeat => "not_your_seat",
            GameOver => "game_over",
            RateLimited => "rate_limited",
            StorageUnavailable => "storage_unavailable",
            Unavailable => "unavailable",
            BadChat => "bad_chat",
            NotSignedIn => "not_signed_in",
            NoRematch => "no_rematch",
            NothingToTakeBack => "nothing_to_take_back",
            Resigned => "resigned",
        }
    }
}

impl ServerMsg {
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error { code, rule: None, message: message.into(), id: None }
    }

    /// The frame as sent: the message with `"v": 1`.
    pub fn to_frame(&self) -> String {
        serde_json::to_string(&Envelope { v: VERSION, msg: self }).unwrap_or_default()
    }

    /// Parse a frame sent by the server (clients and tests).
    pub fn from_frame(text: &str) -> Result<ServerMsg, serde_json::Error> {
        let mut v: Value = serde_json::from_str(text)?;
        if let Value::Object(m) = &mut v {
            m.remove("v");
        }
        serde_json::from_value(v)
    }

    /// The `update` frame from parts the caller already serialised to JSON text (each event,
    /// the view): the same frame as `ServerMsg::Update { … }.to_frame()` with those values,
    /// without building JSON values first (the server sends one per observer per action).
    /// The text is allocated once, at its final size (no growing and copying on the way).
    /// `view: None` leaves the view out (a connection that asked for changed views only, whose
    /// view is the same as in its last frame).
    pub fn update_frame<'a, E>(
        seq: u64,
        events: E,
        view: Option<&str>,
        waiting: &[u8],
        time_left_ms: Option<u64>,
        clock_for: &[u8],
    ) -> String
    where
        E: IntoIterator<Item = &'a str>,
        E::IntoIter: Clone,
    {
        use std::fmt::Write;
        let events = events.into_iter();
        // The fixed parts (under 160 bytes with a 20-digit seq and time left), each event and
        // its comma, at most four bytes per seat number ("255,").
        let size = 160
            + view.map_or(0, str::len)
            + events.clone().map(|e| e.len() + 1).sum::<usize>()
            + 4 * (waiting.len() + clock_for.len());
        let mut s = String::with_capacity(size);
        let _ = write!(s, "{{\"v\":{VERSION},\"type\":\"update\",\"seq\":{seq},\"events\":[");
        for (i, e) in events.enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(e);
        }
        s.push(']');
        if let Some(view) = view {
            s.push_str(",\"view\":");
            s.push_str(view);
        }
        s.push_str(",\"waiting\":[");
        for (i, w) in waiting.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{w}");
        }
        s.push(']');
        if let Some(t) = time_left_ms {
            let _ = write!(s, ",\"time_left_ms\":{t}");
        }
        if !clock_for.is_empty() {
            s.push_str(",\"clock_for\":[");
            for (i, w) in clock_for.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                let _ = write!(s, "{w}");
            }
            s.push(']');
        }
        s.push('}');
        debug_assert!(s.len() <= size, "the frame outgrew its size: {} > {size}", s.len());
        s
    }
}

impl ClientMsg {
    /// The frame as a client sends it.
    pub fn to_frame(&self) -> String {
        serde_json::to_string(&Envelope { v: VERSION, msg: self }).unwrap_or_default()
    }

    /// Parse a client frame; every way it can fail has its own code.
    pub fn parse(text: &str) -> Result<ClientMsg, (ErrorCode, String)> {
        if text.len() > MAX_FRAME {
            return Err((ErrorCode::TooLarge, format!("frames are limited to {MAX_FRAME} bytes")));
        }
        let v: Value =
            serde_json::from_str(text).map_err(|e| (ErrorCode::Malformed, e.to_string()))?;
        let Value::Object(mut m) = v else {
            return Err((ErrorCode::Malformed, "a message is a JSON object".into()));
        };
        match m.remove("v") {
            Some(Value::Number(n)) if n.as_u64() == Some(VERSION as u64) => {}
            Some(other) => {
                return Err((
                    ErrorCode::UnsupportedVersion,
                    format!("protocol version {other} is not supported (1 is)"),
                ));
            }
            None => return Err((ErrorCode::UnsupportedVersion, "missing \"v\": 1".into())),
        }
        let ty = match m.get("type") {
            Some(Value::String(t)) => t.clone(),
            _ => return Err((ErrorCode::BadMessage, "missing \"type\"".into())),
        };
        if !matches!(ty.as_str(), "act" | "sync" | "ping" | "chat" | "rematch" | "take_back") {
            return Err((ErrorCode::UnknownType, format!("unknown message type {ty:?}")));
        }
        serde_json::from_value(Value::Object(m)).map_err(|e| (ErrorCode::BadMessage, e.to_string()))
    }
}

// ---- HTTP lobby bodies ----

/// `POST /api/guest`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GuestRequest {
    pub name: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GuestResponse {
    pub id: String,
    pub name: String,
    /// Secret: sent as the `robodrome_token` cookie, `Authorization: Bearer …` or `?token=`.
    pub token: String,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    pub game: String,
    /// `"open"`, `"me"` (the creator takes it) or `"bot:random"`, `"bot:heuristic"`, `"bot:search:N"`.
    pub seats: Vec<String>,
    #[serde(default)]
    pub board: Option<String>,
    /// The game's variants object (Autoscooter: `{"jolting": true}`).
    #[serde(default)]
    pub variants: Option<Value>,
    /// Game-specific options (Autoscooter: `{"beginners": true}`).
    #[serde(default)]
    pub options: Option<Value>,
    /// Planning timer in seconds; absent or 0: off.
    #[serde(default)]
    pub timer_secs: Option<u32>,
    /// Seed of the game's randomness: only with `practice: true` (otherwise refused with
    /// `seed_not_allowed`); the server draws it from the operating system when absent.
    #[serde(default)]
    pub seed: Option<u64>,
    /// A practice game: it may choose its seed, is shown as practice to everyone and is never
    /// rated.
    #[serde(default)]
    pub practice: bool,
}

/// A seat as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: u8,
    /// `open`, `human` or `bot`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// A game in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    pub id: String,
    pub game: String,
    /// `open`, `running` or `finished`.
    pub status: String,
    pub seats: Vec<SeatInfo>,
    pub invite: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer_secs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    /// A practice game (its seed may have been chosen by its creator; never rated).
    #[serde(default)]
    pub practice: bool,
    /// The game's setup as its game serialises it (board, variants, options): in the answer
    /// to `GET /api/games/{id}?setup=true` only, never in lists, so that an invited player
    /// sees the settings before joining. It holds no secret (the seed is not part of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Value>,
}

/// `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    #[serde(default)]
    pub seat: Option<u8>,
    /// The name to sit under at this table (1 to 40 characters); the identity's own otherwise.
    #[serde(default)]
    pub name: Option<String>,
}

/// An HTTP error body.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HttpError {
    pub code: String,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn update_frames_from_parts_are_the_update_message() {
        let events = vec![
            serde_json::json!({"type": "committed", "seat": 0}),
            serde_json::json!({"type": "x", "s": "a\"b"}),
        ];
        let view = serde_json::json!({"cars": [{"car": 0, "at": [1, -2]}], "plots": [], "waiting": {"kind": "plan"}});
        let view_text = view.to_string();
        for (events, waiting, time_left_ms, clock_for, with_view) in [
            (events.clone(), vec![0u8, 2, 3], Some(41230), vec![0u8, 2, 3], true),
            (vec![], vec![], None, vec![], true),
            (events[..1].to_vec(), vec![1], None, vec![], true),
            (events[..1].to_vec(), vec![1, 3], Some(30000), vec![3], true),
            (events.clone(), vec![0u8, 2, 3], Some(41230), vec![0u8, 2, 3], false),
            (vec![], vec![], None, vec![], false),
        ] {
            let msg = ServerMsg::Update {
                seq: 13,
                events: events.clone(),
                view: with_view.then(|| view.clone()),
                waiting: waiting.clone(),
                time_left_ms,
                clock_for: clock_for.clone(),
            };
            let texts: Vec<String> = events.iter().map(|e| e.to_string()).collect();
            let frame = ServerMsg::update_frame(
                13,
                texts.iter().map(String::as_str),
                with_view.then_some(view_text.as_str()),
                &waiting,
                time_left_ms,
                &clock_for,
            );
            assert_eq!(frame, msg.to_frame());
            assert_eq!(ServerMsg::from_frame(&frame).unwrap(), msg);
            // Without the view, the frame has no "view" key at all (not `null`).
            let parsed: Value = serde_json::from_str(&frame).unwrap();
            assert_eq!(parsed.get("view").is_some(), with_view);
        }
    }

    #[test]
    fn client_frames_round_trip_and_fail_with_codes() {
        let m = ClientMsg::Act {
            seat: Some(1),
            action: serde_json::json!({"type": "plot"}),
            id: Some(3),
        };
        assert_eq!(ClientMsg::parse(&m.to_frame()).unwrap(), m);
        assert_eq!(ClientMsg::parse("{").unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(ClientMsg::parse("[1]").unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(
            ClientMsg::parse(r#"{"type":"ping"}"#).unwrap_err().0,
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(
            ClientMsg::parse(r#"{"v":2,"type":"ping"}"#).unwrap_err().0,
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(
            ClientMsg::parse(r#"{"v":1,"type":"dance"}"#).unwrap_err().0,
            ErrorCode::UnknownType
        );
        assert_eq!(
            ClientMsg::parse(r#"{"v":1,"type":"act"}"#).unwrap_err().0,
            ErrorCode::BadMessage
        );
        assert_eq!(
            ClientMsg::parse(&"x".repeat(MAX_FRAME + 1)).unwrap_err().0,
            ErrorCode::TooLarge
        );
        assert_eq!(ClientMsg::parse(r#"{"v":1,"type":"ping"}"#).unwrap(), ClientMsg::Ping);
    }

    #[test]
    fn social_messages_round_trip() {
        for (frame, msg) in [
            (r#"{"v":1,"type":"chat","text":"hi"}"#, ClientMsg::Chat { text: "hi".into() }),
            (r#"{"v":1,"type":"rematch"}"#, ClientMsg::Rematch { accept: true }),
            (r#"{"v":1,"type":"rematch","accept":false}"#, ClientMsg::Rematch { accept: false }),
            (r#"{"v":1,"type":"take_back"}"#, ClientMsg::TakeBack),
        ] {
            assert_eq!(ClientMsg::parse(frame).unwrap(), msg);
            assert_eq!(ClientMsg::parse(&msg.to_frame()).unwrap(), msg);
        }
        assert_eq!(
            ClientMsg::parse(r#"{"v":1,"type":"chat"}"#).unwrap_err().0,
            ErrorCode::BadMessage
        );
        let line = ChatLine {
            channel: ChatChannel::Spectators,
            n: 2,
            seat: None,
            name: "Sam".into(),
            text: "psst".into(),
        };
        let f = ServerMsg::Chat { line: line.clone() }.to_frame();
        assert_eq!(
            f,
            r#"{"v":1,"type":"chat","channel":"spectators","n":2,"name":"Sam","text":"psst"}"#
        );
        assert_eq!(ServerMsg::from_frame(&f).unwrap(), ServerMsg::Chat { line });
        // `resigned` appears only when true: earlier clients see the same presence frames.
        let p = ServerMsg::Presence { seat: 1, connected: false, bot: true, resigned: false };
        assert_eq!(
            p.to_frame(),
            r#"{"v":1,"type":"presence","seat":1,"connected":false,"bot":true}"#
        );
        let r =
            ServerMsg::Rematch { accepted: vec![0], asked: vec![1], declined: None, game: None };
        assert_eq!(r.to_frame(), r#"{"v":1,"type":"rematch","accepted":[0],"asked":[1]}"#);
        assert_eq!(ServerMsg::from_frame(&r.to_frame()).unwrap(), r);
    }

    #[test]
    fn static_ids_are_fnv1a_of_the_text() {
        // The FNV-1a 64 reference values: the empty string and "a".
        assert_eq!(static_id(""), "cbf29ce484222325");
        assert_eq!(static_id("a"), "af63dc4c8601ec8c");
        assert_ne!(static_id(r#"{"board":1}"#), static_id(r#"{"board":2}"#));
    }

    #[test]
    fn a_welcome_carries_static_data_under_static() {
        let w = ServerMsg::Welcome {
            game_id: "g".into(),
            game: "x".into(),
            seats: vec![0],
            seq: 0,
            static_id: static_id("{}"),
            static_data: Some(serde_json::json!({"board": [1]})),
            view: serde_json::json!({}),
            waiting: vec![],
            time_left_ms: None,
            clock_for: vec![],
            practice: false,
        };
        let v: Value = serde_json::from_str(&w.to_frame()).unwrap();
        assert_eq!(v["static"], serde_json::json!({"board": [1]}));
        assert_eq!(v["practice"], false, "always present, so a client need not guess");
        assert_eq!(ServerMsg::from_frame(&w.to_frame()).unwrap(), w);
        let mut sync = w.clone();
        if let ServerMsg::Welcome { static_data, .. } = &mut sync {
            *static_data = None;
        }
        let v: Value = serde_json::from_str(&sync.to_frame()).unwrap();
        assert!(v.get("static").is_none());
    }

    #[test]
    fn server_frames_carry_the_version() {
        let f = ServerMsg::error(ErrorCode::NotYourSeat, "no").to_frame();
        let v: Value = serde_json::from_str(&f).unwrap();
        assert_eq!(v["v"], 1);
        assert_eq!(v["code"], "not_your_seat");
        assert_eq!(
            ServerMsg::from_frame(&f).unwrap(),
            ServerMsg::error(ErrorCode::NotYourSeat, "no")
        );
        assert_eq!(ErrorCode::RateLimited.as_str(), "rate_limited");
        assert_eq!(ServerMsg::Pong.to_frame(), r#"{"v":1,"type":"pong"}"#);
        let ack = ServerMsg::Ack { id: Some(2), seq: 5 }.to_frame();
        assert_eq!(ack, r#"{"v":1,"type":"ack","id":2,"seq":5}"#);
        assert_eq!(ClientMsg::Sync.to_frame(), r#"{"v":1,"type":"sync"}"#);
    }
}
