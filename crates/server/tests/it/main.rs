//! The server as clients see it: a real server on 127.0.0.1:0 with a temporary SQLite file,
//! driven by WebSocket clients (tokio-tungstenite) and plain HTTP/1.1 requests.

mod fair;
mod limits;
mod play;
mod secrecy;
mod support;
