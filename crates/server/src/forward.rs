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
//!
//! **The client's address.** The owner sees a forwarded socket come from the forwarding
//! node. So that per-address connection limits count clients, not nodes, the forwarding node
//! says who the client is in [`CLIENT`]: the client's address and an HMAC-SHA256 of the address
//! and the path under the cluster's key (`crate::cluster::Cluster::secret`, which only nodes
//! read from the database). The owner believes the address only when the signature checks out
//! ([`client_of`]); a client that sends the header itself is counted as itself. Both nodes then
//! count the client: the forwarding node its own socket (its accept loop), the owner the
//! forwarded one (`crate::listen::ConnSlot`).
//!
//! **Leaving a game** (`POST /api/games/{id}/leave`) on a node that does not own the game is
//! forwarded the same way ([`forward_http`]): the owner stores the resignation and tells its
//! game's task at once.

use crate::Shared;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use tokio_tungstenite::tungstenite::Message as Up;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The header of a handshake one node forwards to another.
pub const FORWARDED: &str = "x-robodrome-forwarded";

/// The close code that tells a client to reconnect (RFC 6455 1012, "service restart").
pub const RECONNECT: u16 = 1012;

/// The header of a forwarded handshake naming the client: `ADDRESS SIGNATURE` ([`sign`]).
pub const CLIENT: &str = "x-robodrome-client";

/// HMAC-SHA256 (RFC 2104) of `msg` under `key`.
pub fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(msg);
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The [`CLIENT`] header's value for a client at `ip` forwarded to `path`.
pub fn sign(key: &[u8], ip: IpAddr, path: &str) -> String {
    format!("{ip} {}", hex(&hmac_sha256(key, format!("{ip} {path}").as_bytes())))
}

/// The client's address of a forwarded request to `path`, if its [`CLIENT`] header is signed
/// with `key` (compared in constant time); `None` otherwise.
pub fn client_of(key: &[u8], headers: &HeaderMap, path: &str) -> Option<IpAddr> {
    let v = headers.get(CLIENT)?.to_str().ok()?;
    let (ip, mac) = v.split_once(' ')?;
    let ip: IpAddr = ip.parse().ok()?;
    let want = sign(key, ip, path);
    let got = format!("{ip} {mac}");
    let same = want.len() == got.len()
        && want.bytes().zip(got.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0;
    same.then_some(ip)
}

/// Forward an HTTP request (the lobby's leave) to the owner at `owner`, with the client's own
/// credentials; the owner's answer (status and JSON body) as it came.
pub async fn forward_http(
    owner: &str,
    method: &str,
    path: &str,
    headers: &HeaderMap,
) -> Result<Response, String> {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    let addr: std::net::SocketAddr =
        owner.parse().map_err(|e| format!("the owner's address {owner:?}: {e}"))?;
    let exchange = async {
        let stream = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        let (mut send, conn) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, owner)
            .header(header::CONTENT_TYPE, "application/json")
            .header(FORWARDED, "1");
        for h in [header::AUTHORIZATION, header::COOKIE] {
            if let Some(v) = headers.get(&h) {
                req = req.header(h, v);
            }
        }
        let req = req.body(Full::new(Bytes::new())).map_err(|e| e.to_string())?;
        let res = send.send_request(req).await.map_err(|e| e.to_string())?;
        let status = res.status();
        let body = res.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok::<_, String>((status, body))
    };
    let (status, body) = tokio::time::timeout(std::time::Duration::from_secs(5), exchange)
        .await
        .map_err(|_| "the owner did not answer in time".to_string())??;
    Ok((status, [(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Why a socket was not forwarded.
#[derive(Debug)]
pub enum Refused {
    /// The owner refused the client's address: it has too many connections open there.
    TooMany,
    /// The owner could not be reached or refused otherwise.
    Other(String),
}

impl From<String> for Refused {
    fn from(e: String) -> Refused {
        Refused::Other(e)
    }
}

impl From<&str> for Refused {
    fn from(e: &str) -> Refused {
        Refused::Other(e.to_string())
    }
}

/// Open the owner's socket for this client (at `client`, signed for the owner), then upgrade
/// the client's and copy frames until either side ends. `Err`: the owner could not be reached
/// or refused the socket (the client is answered an error).
pub async fn forward(
    shared: Arc<Shared>,
    owner: &str,
    path_and_query: &str,
    headers: &HeaderMap,
    client: Option<IpAddr>,
    up: WebSocketUpgrade,
) -> Result<Response, Refused> {
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
    if let (Some(ip), Some(node)) = (client, shared.node.get()) {
        let path = path_and_query.split('?').next().unwrap_or(path_and_query);
        let v = sign(&node.secret, ip, path);
        req.headers_mut().insert(CLIENT, v.parse().map_err(|_| "header")?);
    }
    let connect = tokio_tungstenite::connect_async(req);
    let (upstream, _) = tokio::time::timeout(std::time::Duration::from_secs(5), connect)
        .await
        .map_err(|_| "the owner did not answer in time".to_string())?
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Http(r) if r.status().as_u16() == 429 => {
                Refused::TooMany
            }
            e => Refused::Other(e.to_string()),
        })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231, test cases 2 and 6 (a key longer than a block).
    #[test]
    fn hmac_matches_rfc_4231() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(hex(&mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        let mac =
            hmac_sha256(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First");
        assert_eq!(hex(&mac), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }

    /// The client's address is believed only with the key's signature for that address and
    /// that path.
    #[test]
    fn a_client_address_needs_the_key_s_signature() {
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let mut h = HeaderMap::new();
        h.insert(CLIENT, sign(b"key", ip, "/ws/games/g1").parse().unwrap());
        assert_eq!(client_of(b"key", &h, "/ws/games/g1"), Some(ip));
        assert_eq!(client_of(b"other key", &h, "/ws/games/g1"), None);
        assert_eq!(client_of(b"key", &h, "/ws/games/g2"), None, "another game's path");
        // Another address with the first one's signature.
        let forged = sign(b"key", ip, "/ws/games/g1").replace("203.0.113.7", "203.0.113.8");
        h.insert(CLIENT, forged.parse().unwrap());
        assert_eq!(client_of(b"key", &h, "/ws/games/g1"), None);
        h.insert(CLIENT, "203.0.113.7".parse().unwrap());
        assert_eq!(client_of(b"key", &h, "/ws/games/g1"), None);
    }
}
