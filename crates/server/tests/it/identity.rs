//! Identity hygiene and the error object (docs/security.md "Identity"): tokens expire and can
//! be revoked, the cookie is `Secure` behind https, `?token=` only on the WebSocket handshake,
//! `Origin` checked there, JSON-only posts, and every error is `{code, message}`.

use crate::support::{guest, http, start_server};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A raw HTTP/1.1 request with exactly these headers; the status, the head and the body.
async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> (u16, String, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        req.push_str(h);
        req.push_str("\r\n");
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut out)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap();
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        body.split("\r\n").nth(1).unwrap_or("").to_string()
    } else {
        body.to_string()
    };
    (status, head.to_string(), serde_json::from_str(&body).unwrap_or(Value::String(body)))
}

/// The documented error object: exactly `code` and `message`, both strings.
fn assert_error_object(v: &Value, code: &str) {
    let m = v.as_object().unwrap_or_else(|| panic!("not an object: {v}"));
    assert_eq!(m.len(), 2, "{v}");
    assert_eq!(m["code"], code, "{v}");
    assert!(m["message"].is_string(), "{v}");
}

async fn new_game(addr: SocketAddr, token: &str) -> String {
    let (status, v) = http(
        addr,
        "POST",
        "/api/games",
        Some(token),
        Some(json!({"game": "autoscooter", "seats": ["me", "bot:random"]})),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// A WebSocket handshake with these extra headers: the HTTP status of a refusal, or 101.
async fn handshake(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> u16 {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    for (k, v) in headers {
        let name = tungstenite::http::HeaderName::from_bytes(k.as_bytes()).unwrap();
        req.headers_mut().insert(name, v.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, resp)) => {
            drop(ws);
            resp.status().as_u16()
        }
        Err(tungstenite::Error::Http(resp)) => resp.status().as_u16(),
        Err(e) => panic!("handshake: {e}"),
    }
}

#[tokio::test]
async fn origin_is_checked_on_the_websocket_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server(&dir, |c| c.public_url = Some("https://robodrome.example/".into())).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let id = new_game(addr, &token).await;
    let path = format!("/ws/games/{id}?token={token}");
    // Another site's page: refused with 403 and the error object.
    assert_eq!(handshake(addr, &path, &[("Origin", "https://evil.example")]).await, 403);
    assert_eq!(handshake(addr, &path, &[("Origin", "http://127.0.0.1:1")]).await, 403);
    // The server's own origins: the Host it was asked at, and --public-url.
    assert_eq!(handshake(addr, &path, &[("Origin", &format!("http://{addr}"))]).await, 101);
    assert_eq!(handshake(addr, &path, &[("Origin", "https://robodrome.example")]).await, 101);
    // No Origin: not a browser, allowed (with its token).
    assert_eq!(handshake(addr, &path, &[]).await, 101);
    // The refusal is the error object.
    let (status, _, body) = raw(
        addr,
        "GET",
        &path,
        &[
            "Origin: https://evil.example",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ],
        "",
    )
    .await;
    assert_eq!(status, 403);
    assert_error_object(&body, "forbidden");
    server.shutdown().await;
}

#[tokio::test]
async fn state_changing_requests_take_json_only() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let (_, v) = http(
        addr,
        "POST",
        "/api/games",
        Some(&token),
        Some(json!({"game": "autoscooter", "seats": ["me", "open", "open"]})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_string();
    let auth = format!("Authorization: Bearer {bob}");
    let create = r#"{"game": "autoscooter", "seats": ["me", "open"]}"#;
    // A text/plain or form post (what another site can send without asking): 415.
    for (path, ct, body) in [
        ("/api/games", "Content-Type: text/plain", create),
        ("/api/games", "Content-Type: application/x-www-form-urlencoded", "a=b"),
        ("/api/guest", "Content-Type: text/plain", r#"{"name": "Eve"}"#),
        (&format!("/api/games/{id}/join") as &str, "Content-Type: text/plain", ""),
        (&format!("/api/games/{id}/join"), "X-None: 1", ""),
        (&format!("/api/games/{id}/start"), "X-None: 1", ""),
    ] {
        let (status, _, body) = raw(addr, "POST", path, &[&auth, ct], body).await;
        assert_eq!(status, 415, "{path} {ct}: {body}");
        assert_error_object(&body, "unsupported_media_type");
    }
    // Nothing changed: both open seats are still open.
    let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["seats"][1]["kind"], "open", "{g}");
    // JSON, even with an empty body, joins.
    let (status, _, body) = raw(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        &[&auth, "Content-Type: application/json"],
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][1]["name"], "Bob");
    server.shutdown().await;
}

#[tokio::test]
async fn every_error_is_the_code_and_message_object() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let json_ct = "Content-Type: application/json";
    for (method, path, headers, body, status, code) in [
        ("GET", "/api/nothing-here", vec![], "", 404, "not_found"),
        ("GET", "/api/games/nope", vec![], "", 404, "not_found"),
        ("GET", "/ws/nothing", vec![], "", 404, "not_found"),
        ("DELETE", "/api/games", vec![json_ct], "", 405, "method_not_allowed"),
        ("GET", "/api/guest", vec![], "", 405, "method_not_allowed"),
        ("PUT", "/healthz", vec![json_ct], "", 405, "method_not_allowed"),
        ("GET", "/api/games?status=nope", vec![], "", 400, "bad_status"),
        ("POST", "/api/guest", vec![json_ct], "{oops", 400, "bad_request"),
        ("POST", "/api/games", vec![json_ct], "{}", 401, "unauthorized"),
        ("GET", "/api/games/x/replay?step=%ZZ", vec![], "", 404, "not_found"),
    ] {
        let (got, _, v) = raw(addr, method, path, &headers, body).await;
        assert_eq!(got, status, "{method} {path}: {v}");
        assert_error_object(&v, code);
    }
    let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(70 * 1024));
    let (got, _, v) = raw(addr, "POST", "/api/guest", &[json_ct], &big).await;
    assert_eq!(got, 413, "{v}");
    assert_error_object(&v, "too_large");
    server.shutdown().await;
}

#[tokio::test]
async fn tokens_expire_and_are_only_taken_from_the_query_on_the_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.token_ttl = Duration::ZERO).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let (status, v) = http(
        addr,
        "POST",
        "/api/games",
        Some(&token),
        Some(json!({"game": "autoscooter", "seats": ["me", "open"]})),
    )
    .await;
    assert_eq!(status, 401, "an expired token: {v}");
    assert_error_object(&v, "unauthorized");
    server.shutdown().await;

    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    // ?token= on an HTTP route is not a credential.
    let (status, _) = http(
        addr,
        "POST",
        &format!("/api/games?token={token}"),
        None,
        Some(json!({"game": "autoscooter", "seats": ["me", "open"]})),
    )
    .await;
    assert_eq!(status, 401);
    // On the WebSocket handshake it is (a browser cannot set a header there).
    let id = new_game(addr, &token).await;
    let mut c = crate::support::Client::connect(addr, &id, Some(&token)).await;
    match c.recv().await {
        protocol::ServerMsg::Welcome { seats, .. } => assert_eq!(seats, vec![0]),
        other => panic!("{other:?}"),
    }
    c.close().await;
    server.shutdown().await;
}

#[tokio::test]
async fn log_out_everywhere_revokes_every_token_and_the_cookie_is_secure_behind_https() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        start_server(&dir, |c| c.public_url = Some("https://robodrome.example".into())).await;
    let addr = server.addr;
    let (status, head, g) =
        raw(addr, "POST", "/api/guest", &["Content-Type: application/json"], r#"{"name": "Ann"}"#)
            .await;
    assert_eq!(status, 201);
    let cookie = head.lines().find(|l| l.to_ascii_lowercase().starts_with("set-cookie:")).unwrap();
    assert!(cookie.contains("; Secure") && cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("Max-Age=2592000"), "30 days by default: {cookie}");
    let token = g["token"].as_str().unwrap().to_string();
    let id = new_game(addr, &token).await;
    // The token is stored hashed.
    let stored = server.shared.store.identity_by_token(&token).await.unwrap();
    assert!(stored.is_some());
    // Log out everywhere.
    let (status, head, v) = raw(
        addr,
        "POST",
        "/api/guest/revoke",
        &[&format!("Authorization: Bearer {token}"), "Content-Type: application/json"],
        "",
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["revoked"], 1);
    assert!(head.contains("Max-Age=0"), "the cookie is cleared: {head}");
    let (status, _) = http(
        addr,
        "POST",
        "/api/games",
        Some(&token),
        Some(json!({"game": "autoscooter", "seats": ["me", "open"]})),
    )
    .await;
    assert_eq!(status, 401);
    // The handshake with the revoked token is refused too.
    assert_eq!(handshake(addr, &format!("/ws/games/{id}?token={token}"), &[]).await, 401);
    server.shutdown().await;

    // Without https, no Secure flag.
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let (_, head, _) = raw(
        server.addr,
        "POST",
        "/api/guest",
        &["Content-Type: application/json"],
        r#"{"name": "Ann"}"#,
    )
    .await;
    assert!(!head.contains("Secure"), "{head}");
    server.shutdown().await;
}

/// docs/protocol.md: a frame over 64 KiB gets `too_large` (play.rs tests it); one over 1 MiB is
/// not read: that connection is closed, the game and other connections go on.
#[tokio::test]
async fn a_frame_over_1_mib_closes_that_connection_only() {
    use futures_util::{SinkExt, StreamExt};
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let token = guest(addr, "Ann").await;
    let id = new_game(addr, &token).await;
    let url = format!("ws://{addr}/ws/games/{id}?token={token}");
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let mut watcher = crate::support::Client::connect(addr, &id, None).await;
    assert!(matches!(watcher.recv().await, protocol::ServerMsg::Welcome { .. }));
    let _ = ws.next().await; // welcome
    let big = format!(r#"{{"v":1,"type":"ping","pad":"{}"}}"#, "x".repeat(2 << 20));
    let _ = ws.send(tungstenite::Message::Text(big.into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(tungstenite::Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the connection is closed");
    watcher.ping().await;
    let (status, _) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
    server.shutdown().await;
}
