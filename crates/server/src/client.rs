//! A small client for tools and tests outside the server (`robodrome loadtest`, the crash test):
//! HTTP/1.1 requests for the lobby (hyper) and WebSocket connections for play.

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, header};
use hyper_util::rt::TokioIo;
use protocol::{ClientMsg, ServerMsg};
use serde_json::Value;
use std::net::SocketAddr;
use tokio_tungstenite::tungstenite::Message;

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// One request on a connection of its own (hyper's HTTP/1.1 client); the status and the JSON
/// body (a body that is not JSON comes back as a JSON string).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), Error> {
    http_from(addr, None, method, path, token, body).await
}

/// A TCP connection to `addr` from the local address `from` (any port), or from wherever the
/// system chooses. On loopback every `127.x.y.z` is this host, so `robodrome soak` gives each
/// client an address of its own, as players on the internet have (per-address limits).
pub async fn tcp_from(
    addr: SocketAddr,
    from: Option<std::net::IpAddr>,
) -> std::io::Result<tokio::net::TcpStream> {
    let Some(ip) = from else { return tokio::net::TcpStream::connect(addr).await };
    let socket = match ip {
        std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.bind(SocketAddr::new(ip, 0))?;
    socket.connect(addr).await
}

/// [`http`] from the local address `from` ([`tcp_from`]).
pub async fn http_from(
    addr: SocketAddr,
    from: Option<std::net::IpAddr>,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), Error> {
    let stream = tcp_from(addr, from).await?;
    let _ = stream.set_nodelay(true);
    let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    // The connection's driver; it ends when `send` is dropped after the one exchange.
    tokio::spawn(conn);
    let mut req = Request::builder()
        .method(Method::from_bytes(method.as_bytes())?)
        .uri(path)
        .header(header::HOST, addr.to_string())
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let res = send.send_request(req.body(Full::new(Bytes::from(body)))?).await?;
    let status = res.status().as_u16();
    let bytes = res.into_body().collect().await?.to_bytes();
    let v = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(_) => Value::String(String::from_utf8_lossy(&bytes).into_owned()),
    };
    Ok((status, v))
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
        Socket::connect_from(addr, None, game, token).await
    }
    /// [`Socket::connect`] from the local address `from` ([`tcp_from`]).
    pub async fn connect_from(
        addr: SocketAddr,
        from: Option<std::net::IpAddr>,
        game: &str,
        token: Option<&str>,
    ) -> Result<Socket, Error> {
        Socket::connect_path(addr, from, &format!("/ws/games/{game}"), token).await
    }
    /// A WebSocket on any path of the server (the Bot API's `/api/bot/v1/…` sockets, a query
    /// such as `?views=changed`), the token given as `token=` in the query.
    pub async fn connect_path(
        addr: SocketAddr,
        from: Option<std::net::IpAddr>,
        path: &str,
        token: Option<&str>,
    ) -> Result<Socket, Error> {
        let sep = if path.contains('?') { '&' } else { '?' };
        let q = token.map(|t| format!("{sep}token={t}")).unwrap_or_default();
        let url = format!("ws://{addr}{path}{q}");
        // Frames are a few KiB: a small read buffer (the default 128 KiB is zeroed at every read).
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024);
        let stream = tcp_from(addr, from).await?;
        let _ = stream.set_nodelay(true);
        let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(url, stream, Some(config)).await?;
        Ok(Socket { ws })
    }
    /// A socket whose handshake the caller made (tests that send headers of their own).
    pub fn from_stream(
        ws: tokio_tungstenite::WebSocketStream<
            tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
        >,
    ) -> Socket {
        Socket { ws }
    }
    /// Send any WebSocket message as it is (text that is no protocol message, binary, …).
    pub async fn send_raw(&mut self, m: Message) -> Result<(), Error> {
        Ok(self.ws.send(m).await?)
    }
    /// The next message of any kind as it came (`None`: closed), for tests of the connection
    /// itself; pings are answered by the library when it reads.
    pub async fn recv_raw(&mut self) -> Option<Result<Message, Error>> {
        self.ws.next().await.map(|m| m.map_err(Into::into))
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
