//! A game's socket on a cluster node that does not own the game: forwarded to the owner
//! (docs/deployment.md "Several nodes: forwarding").
//!
//! The node opens the same WebSocket (`/ws/games/{id}`, with the client's own credentials:
//! its `Authorization` and `Cookie` headers and `?token=`) on the owner's address from the
//! `nodes` table and copies text frames both ways. The owner authenticates the client and
//! decides its seat exactly as for a direct connection, so a forwarded client is sent what a
//! direct one is (the seat's own frames, nothing of another seat's); this node only copies one
//! client's frames to that same client. When the owner's side ends (the owner stopped or lost
//! the game), the client's socket is closed with code 1012 ("service restart"): the client
//! reconnects (web/net.js reconnects on every close), to any node, which then runs the game
//! (took it over) or forwards to the new owner. A forwarded handshake carries
//! [`FORWARDED`]; a node that no longer owns the game answers it 503 instead of forwarding it
//! again, so a socket never travels through more than two nodes.

use crate::Shared;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio_tungstenite::tungstenite::Message as Up;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The header of a handshake one node forwards to another.
pub const FORWARDED: &str = "x-robodrome-forwarded";

/// The close code that tells a client to reconnect (RFC 6455 1012, "service restart").
pub const RECONNECT: u16 = 1012;

/// Open the owner's socket for this client, then upgrade the client's and copy frames until
/// either side ends. `Err`: the owner could not be reached (the client is answered an error).
pub async fn forward(
    shared: Arc<Shared>,
    owner: &str,
    path_and_query: &str,
    headers: &HeaderMap,
    up: WebSocketUpgrade,
) -> Result<Response, String> {
    let url = format!("ws://{owner}{path_and_query}");
    let mut req = url.into_client_request().map_err(|e| e.to_string())?;
    for h in [header::AUTHORIZATION, header::COOKIE] {
        if let Some(v) = headers.get(&h)
            && let Ok(v) = v.to_str()
            && let Ok(v) = v.parse()
        {
            req.headers_mut().insert(h, v);
        }
    }
    req.headers_mut().insert(FORWARDED, "1".parse().map_err(|_| "header")?);
    let connect = tokio_tungstenite::connect_async(req);
    let (upstream, _) = tokio::time::timeout(std::time::Duration::from_secs(5), connect)
        .await
        .map_err(|_| "the owner did not answer in time".to_string())?
        .map_err(|e| e.to_string())?;
    shared.metrics.forwarded.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let up = up.max_message_size(1 << 20).max_frame_size(1 << 20);
    Ok(up.on_upgrade(move |socket| pipe(shared, socket, upstream)))
}

async fn pipe<S>(shared: Arc<Shared>, client: WebSocket, upstream: S)
where
    S: futures_util::Stream<Item = Result<Up, tokio_tungstenite::tungstenite::Error>>
        + futures_util::Sink<Up>
        + Unpin,
{
    let (mut c_tx, mut c_rx) = client.split();
    let (mut u_tx, mut u_rx) = upstream.split();
    let mut shutdown = shared.shutdown.clone();
    let stop = crate::stopped(&mut shutdown);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            m = c_rx.next() => match m {
                Some(Ok(Message::Text(t))) => {
                    if u_tx.send(Up::Text(t.as_str().into())).await.is_err() {
                        break;
                    }
                }
                // The owner answers a binary frame with its typed error.
                Some(Ok(Message::Binary(b))) => {
                    if u_tx.send(Up::Binary(b)).await.is_err() {
                        break;
                    }
                }
                // axum answers the client's pings itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                _ => {
                    let _ = u_tx.close().await;
                    return;
                }
            },
            m = u_rx.next() => match m {
                Some(Ok(Up::Text(t))) => {
                    if c_tx.send(Message::Text(t.as_str().into())).await.is_err() {
                        break;
                    }
                }
                // The owner's idle check: tungstenite answered it; the client is asked too.
                Some(Ok(Up::Ping(_))) => {
                    if c_tx.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Up::Pong(_) | Up::Binary(_) | Up::Frame(_))) => {}
                _ => break,
            },
            _ = &mut stop => break,
        }
    }
    let _ = u_tx.close().await;
    let frame = CloseFrame { code: RECONNECT, reason: "the game moved: reconnect".into() };
    let _ = c_tx.send(Message::Close(Some(frame))).await;
}
