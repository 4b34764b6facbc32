//! A small client for tools and tests outside the server (`robodrome loadtest`, the crash test):
//! plain HTTP/1.1 requests for the lobby and WebSocket connections for play.

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientMsg, ServerMsg};
use serde_json::Value;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// One request (`Connection: close`); the status and the JSON body (text as a JSON string).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), Error> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out);
    let status: u16 =
        text.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or("no status line")?;
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let rest = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, serde_json::from_str(&rest).unwrap_or(Value::String(rest))))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A request that must answer `want`; returns the body.
pub async fn expect(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
    want: u16,
) -> Result<Value, Error> {
    let (status, v) = http(addr, method, path, token, body).await?;
    if status != want {
        return Err(format!("{method} {path}: {status} {v}").into());
    }
    Ok(v)
}

/// A guest identity's token.
pub async fn guest(addr: SocketAddr, name: &str) -> Result<String, Error> {
    let v =
        expect(addr, "POST", "/api/guest", None, Some(&serde_json::json!({ "name": name })), 201)
            .await?;
    v["token"].as_str().map(str::to_string).ok_or_else(|| "no token".into())
}

/// A WebSocket connection to one game.
pub struct Socket {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Socket {
    pub async fn connect(
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
    ) -> Result<Socket, Error> {
        let q = token.map(|t| format!("?token={t}")).unwrap_or_default();
        let url = format!("ws://{addr}/ws/games/{game}{q}");
        // Frames are a few KiB: a small read buffer (the default 128 KiB is zeroed at every read).
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true).await?;
        Ok(Socket { ws })
    }
    pub async fn send(&mut self, m: &ClientMsg) -> Result<(), Error> {
        Ok(self.ws.send(Message::Text(m.to_frame().into())).await?)
    }
    /// The next server message; `None` when the connection is closed.
    pub async fn recv(&mut self) -> Result<Option<ServerMsg>, Error> {
        while let Some(m) = self.ws.next().await {
            if let Message::Text(t) = m? {
                return Ok(Some(ServerMsg::from_frame(&t)?));
            }
        }
        Ok(None)
    }
    /// The next text frame as it came; `None` when the connection is closed.
    pub async fn recv_text(
        &mut self,
    ) -> Result<Option<tokio_tungstenite::tungstenite::Utf8Bytes>, Error> {
        while let Some(m) = self.ws.next().await {
            if let Message::Text(t) = m? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
