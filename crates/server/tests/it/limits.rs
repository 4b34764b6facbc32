//! Issue 14's attacks on the limits, against the real server on loopback (docs/security.md,
//! "Limits"): quotas answer 429 with `Retry-After`, the open-games cap, the per-address
//! connection cap, idle WebSockets and half-open requests closed after their timeouts,
//! `/steps` computed once and paged, boards stored once, the lobby's pages and 304s.
//!
//! Timeouts are configured short (1 s) and every wait is bounded (`BOUND`): the tests wait for
//! the server to close a socket, never for a fixed time.

use crate::support::*;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest any test waits for the server to act on a timeout of 1 s.
const BOUND: Duration = Duration::from_secs(10);

/// A raw HTTP/1.1 exchange (`Connection: close`): status, lower-cased headers, body.
pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(BOUND, s.read_to_end(&mut out)).await.expect("answer in time").unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok());
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status.expect("a status line"), headers, rest.to_string())
}

pub fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// Reads until the server closes the socket; how long that took (panics past `BOUND`).
async fn until_closed(s: &mut TcpStream) -> (Duration, Vec<u8>) {
    let t = Instant::now();
    let mut got = Vec::new();
    let r = tokio::time::timeout(BOUND, async {
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(r.is_ok(), "the server did not close the socket within {BOUND:?}");
    (t.elapsed(), got)
}

fn create(game: &str, seats: &[&str]) -> Value {
    json!({ "game": game, "seats": seats })
}

/// An Autoscooter game with an open seat, created by the bearer of `auth`, read raw (headers).
async fn create_raw(addr: SocketAddr, auth: &str) -> (u16, Vec<(String, String)>, String) {
    let body = Some(create("autoscooter", &["me", "open"]));
    raw(addr, "POST", "/api/games", &[("Authorization", auth)], body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_over_quota_get_429_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.guests_per_window = 3;
        c.limits.quota_window_secs = 600;
    })
    .await;
    for i in 0..3 {
        guest(server.addr, &format!("G{i}")).await;
    }
    let (status, h, body) =
        raw(server.addr, "POST", "/api/guest", &[], Some(json!({"name": "G3"}))).await;
    assert_eq!(status, 429, "{body}");
    let e: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(e["code"], "rate_limited");
    assert!(e["message"].is_string());
    // One guest every 200 s: the next comes in at most 200 s.
    let retry: u64 = header(&h, "retry-after").expect("Retry-After").parse().unwrap();
    assert!((1..=200).contains(&retry), "{retry}");
    assert_eq!(server.shared.metrics.quota_refused.load(Relaxed), 1);
}

/// `/metrics` gauges a number of `name`.
fn gauge(metrics: &str, name: &str) -> Option<f64> {
    metrics.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// `/metrics` reports the size of every long-lived map the server keeps (what the soak samples
/// beside the resident memory, docs/benchmarks.md "Soak"): here the quota buckets of one
/// address and one identity, and the connections' addresses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_report_the_size_of_every_long_lived_map() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.guests_per_window = 5;
        c.limits.games_per_window = 5;
    })
    .await;
    let addr = server.addr;
    let (_, m) = http(addr, "GET", "/metrics", None, None).await;
    let m0 = m.as_str().unwrap().to_string();
    assert_eq!(gauge(&m0, "robodrome_quota_guests_by_address_keys"), Some(0.0));
    let ann = guest(addr, "Ann").await;
    guest(addr, "Bob").await;
    http(addr, "POST", "/api/games", Some(&ann), Some(create("autoscooter", &["me", "open"])))
        .await;
    let (_, m) = http(addr, "GET", "/metrics", None, None).await;
    let m = m.as_str().unwrap();
    // Two guests and a game, all from 127.0.0.1: one bucket per quota.
    assert_eq!(gauge(m, "robodrome_quota_guests_by_address_keys"), Some(1.0));
    assert_eq!(gauge(m, "robodrome_quota_games_by_address_keys"), Some(1.0));
    assert_eq!(gauge(m, "robodrome_quota_games_by_identity_keys"), Some(1.0));
    // The request asking is open from 127.0.0.1.
    assert_eq!(gauge(m, "robodrome_conn_addresses"), Some(1.0));
    assert_eq!(gauge(m, "robodrome_steps_cache_entries"), Some(0.0));
    // Every gauge the soak records is there, but the heap's (the binary's allocator gives
    // those) and the shared memory's (absent from some kernels' /proc).
    for (_, name) in server::soak::DETAIL {
        if !name.starts_with("robodrome_heap_") && !name.contains("shmem") {
            assert!(gauge(m, name).is_some(), "{name} missing from /metrics");
        }
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_over_quota_get_429_per_identity_and_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.games_per_window = 2;
        c.limits.open_games_per_identity = 0;
    })
    .await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let auth = format!("Bearer {ann}");
    for _ in 0..2 {
        let (status, _, body) = create_raw(addr, &auth).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, h, body) = create_raw(addr, &auth).await;
    assert_eq!(status, 429, "{body}");
    assert!(header(&h, "retry-after").is_some_and(|r| r.parse::<u64>().is_ok()));
    // Another identity from the same address: the address's quota is spent too.
    let (status, h, body) = create_raw(addr, &format!("Bearer {bob}")).await;
    assert_eq!(status, 429, "{body}");
    assert!(header(&h, "retry-after").is_some());
    let (_, list) = http(addr, "GET", "/api/games?status=open", None, None).await;
    assert_eq!(list.as_array().unwrap().len(), 2, "nothing was created over the quota");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_games_per_identity_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.open_games_per_identity = 2;
        c.limits.games_per_window = 0;
    })
    .await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    for _ in 0..2 {
        let (status, g) = http(
            addr,
            "POST",
            "/api/games",
            Some(&ann),
            Some(create("autoscooter", &["me", "open"])),
        )
        .await;
        assert_eq!(status, 201, "{g}");
    }
    let (status, h, body) = create_raw(addr, &format!("Bearer {ann}")).await;
    assert_eq!(status, 429, "{body}");
    let e: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(e["code"], "too_many_open_games");
    assert_eq!(header(&h, "retry-after"), None, "waiting does not help: finishing a game does");
    // Another identity is not affected.
    let bob = guest(addr, "Bob").await;
    let (status, _) =
        http(addr, "POST", "/api/games", Some(&bob), Some(create("autoscooter", &["me", "open"])))
            .await;
    assert_eq!(status, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.limits.conns_per_address = 3).await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let id = joined_game(addr, &ann, &bob, create("autoscooter", &["me", "open"])).await;
    // A WebSocket and two idle sockets: three from 127.0.0.1.
    let mut ws = Client::connect(addr, &id, Some(&ann)).await;
    ws.recv().await; // welcome
    ws.ping().await;
    let idle1 = TcpStream::connect(addr).await.unwrap();
    let _idle2 = TcpStream::connect(addr).await.unwrap();
    // The fourth is closed before a byte is read.
    let mut fourth = TcpStream::connect(addr).await.unwrap();
    let _ = fourth.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let (_, got) = until_closed(&mut fourth).await;
    assert!(got.is_empty(), "no answer: {}", String::from_utf8_lossy(&got));
    assert!(server.shared.metrics.conns_refused.load(Relaxed) >= 1);
    // The WebSocket is still served.
    ws.ping().await;
    // One closes: the next connection is served (the count is released before the socket
    // closes, so the server's close of a finished request frees a place at once).
    drop(idle1);
    let mut freed = false;
    let t = Instant::now();
    while t.elapsed() < BOUND {
        // The server notices `idle1`'s close on its own; each try is one bounded request.
        let mut s = TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
        let (_, got) = until_closed(&mut s).await;
        if String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200") {
            freed = true;
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(freed, "a place was freed");
    ws.close().await;
}

/// A WebSocket client that never answers: the handshake by hand, then only reading.
async fn silent_socket(addr: SocketAddr, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    s
}

/// The opcodes of the server's (unmasked) frames in `bytes`, after the HTTP answer.
fn opcodes(bytes: &[u8]) -> Vec<u8> {
    let text_end =
        bytes.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4).expect("handshake answer");
    let mut i = text_end;
    let mut out = Vec::new();
    while i + 2 <= bytes.len() {
        let op = bytes[i] & 0x0f;
        let (len, hdr) = match bytes[i + 1] & 0x7f {
            126 if i + 4 <= bytes.len() => {
                (u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]) as usize, 4)
            }
            127 if i + 10 <= bytes.len() => {
                (u64::from_be_bytes(bytes[i + 2..i + 10].try_into().unwrap()) as usize, 10)
            }
            n if n < 126 => (n as usize, 2),
            _ => break,
        };
        out.push(op);
        i += hdr + len;
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_websocket_is_pinged_then_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.limits.ws_idle_secs = 1).await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let bob = guest(addr, "Bob").await;
    let id = joined_game(addr, &ann, &bob, create("autoscooter", &["me", "open"])).await;

    // A client that answers pings (tungstenite does while it reads) outlives the timeout...
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (mut alive, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/games/{id}")).await.unwrap();
    let (go, mut go_rx) = tokio::sync::oneshot::channel::<()>();
    let keeper = tokio::spawn(async move {
        let mut sent = false;
        loop {
            tokio::select! {
                _ = &mut go_rx, if !sent => {
                    sent = true;
                    let ping = Message::Text(protocol::ClientMsg::Ping.to_frame().into());
                    if alive.send(ping).await.is_err() {
                        return false;
                    }
                }
                m = alive.next() => match m {
                    Some(Ok(Message::Text(t))) if t.contains("\"pong\"") => return true,
                    Some(Ok(_)) => {}
                    _ => return false,
                },
            }
        }
    });
    // ...and the silent one is closed after about a second, having been pinged.
    let mut silent = silent_socket(addr, &format!("/ws/games/{id}")).await;
    let (took, bytes) = until_closed(&mut silent).await;
    let ops = opcodes(&bytes);
    assert!(ops.contains(&0x9), "pinged first: {ops:?}");
    assert!(took >= Duration::from_millis(900), "closed for idleness, not at once: {took:?}");
    assert!(server.shared.metrics.ws_idle_closed.load(Relaxed) >= 1);
    // The reading client has been connected longer than the timeout and is still served.
    let _ = go.send(());
    let ponged = tokio::time::timeout(BOUND, keeper).await.expect("in time").unwrap();
    assert!(ponged, "the answering client is still served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_and_silent_http_connections_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.limits.header_read_secs = 1).await;
    let addr = server.addr;
    // Headers never finished.
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    // Nothing sent at all.
    let mut mute = TcpStream::connect(addr).await.unwrap();
    let (took, _) = until_closed(&mut half).await;
    assert!(took >= Duration::from_millis(900), "{took:?}");
    let (took2, _) = until_closed(&mut mute).await;
    assert!(took2 <= BOUND, "{took2:?}");
    // Both released their place.
    assert_eq!(server.shared.conns.open_from("127.0.0.1".parse().unwrap()), 0);
    let (status, _) = http(addr, "GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_are_computed_once_and_paged() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| {
        c.limits.steps_page_bytes = 8 * 1024;
        c.rate = 10_000; // the oracle plays as fast as it can
    })
    .await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let (_, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(create("autoscooter", &["me", "bot:random"])),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut c = Client::connect(addr, &id, Some(&ann)).await;
    play(&mut c, &shared, &id, 0, 5).await;
    c.close().await;
    let entries = shared.store.log(&id).await.unwrap().len();
    let before = shared.metrics.steps_computed.load(Relaxed);

    // Every page, twice over: one computation.
    let mut rounds = Vec::new();
    for _ in 0..2 {
        let mut seqs = Vec::new();
        let mut from = Some(0u64);
        let mut pages = 0;
        while let Some(f) = from {
            let (status, _, body) =
                raw(addr, "GET", &format!("/api/games/{id}/steps?from={f}"), &[], None).await;
            assert_eq!(status, 200, "{body}");
            let v: Value = serde_json::from_str(&body).unwrap();
            let steps = v["steps"].as_array().unwrap();
            let size = serde_json::to_string(steps).unwrap().len();
            assert!(steps.len() == 1 || size <= 8 * 1024, "a page of {size} bytes");
            assert!(steps.iter().all(|s| s["view"].is_object()));
            seqs.extend(steps.iter().map(|s| s["seq"].as_u64().unwrap()));
            assert_eq!(v["total"].as_u64(), Some(entries as u64 + 1));
            from = v["next"].as_u64();
            pages += 1;
        }
        assert!(pages > 1, "the game does not fit in one page of 8 KiB");
        assert_eq!(seqs, (0..=entries as u64).collect::<Vec<_>>());
        rounds.push(pages);
    }
    assert_eq!(shared.metrics.steps_computed.load(Relaxed) - before, 1, "replayed once");
    assert!(shared.metrics.steps_cache_hits.load(Relaxed) >= 2 * rounds[0] as u64 - 1);
    // Without views: the same steps, smaller.
    let (_, _, lean) =
        raw(addr, "GET", &format!("/api/games/{id}/steps?views=false&limit=5"), &[], None).await;
    let v: Value = serde_json::from_str(&lean).unwrap();
    assert_eq!(v["steps"].as_array().unwrap().len(), 5);
    assert!(v["steps"][0].get("view").is_none());
    assert_eq!(shared.metrics.steps_computed.load(Relaxed) - before, 1);
    let (status, _, e) =
        raw(addr, "GET", &format!("/api/games/{id}/steps?from=x"), &[], None).await;
    assert_eq!(status, 400, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_track_is_stored_once_and_setups_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.limits.open_games_per_identity = 0).await;
    let (addr, shared) = (server.addr, server.shared.clone());
    let ann = guest(addr, "Ann").await;
    let mut ids = Vec::new();
    for seats in [&["me", "open"][..], &["me", "open", "open"][..]] {
        let (status, g) =
            http(addr, "POST", "/api/games", Some(&ann), Some(create("bumping-bots", seats))).await;
        assert_eq!(status, 201, "{g}");
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let db = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.path().join("robodrome.db").display()
    ))
    .await
    .unwrap();
    let (blobs,): (i64,) =
        sqlx::query_as("SELECT count(*) FROM blobs").fetch_one(&db).await.unwrap();
    assert_eq!(blobs, 1, "one track, two games, one stored copy");
    for id in &ids {
        let (len,): (i64,) = sqlx::query_as("SELECT length(setup) FROM games WHERE id = ?")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
        assert!(len < 1024, "the row holds a reference, not the track ({len} bytes)");
        // Read back whole: the track is in the setup again.
        let row = shared.store.game(id).await.unwrap().unwrap();
        assert!(row.setup["board"].is_object() && row.setup["board"].get("$blob").is_none());
    }
    drop(server);

    // A server that stores setups of at most 100 bytes refuses the track.
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |c| c.limits.max_setup_bytes = 100).await;
    let ann = guest(server.addr, "Ann").await;
    let (status, e) = http(
        server.addr,
        "POST",
        "/api/games",
        Some(&ann),
        Some(create("bumping-bots", &["me", "open"])),
    )
    .await;
    assert_eq!((status, e["code"].as_str()), (400, Some("setup_too_large")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_pages_by_cursor_and_answers_304_when_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&dir, |_| {}).await;
    let addr = server.addr;
    let ann = guest(addr, "Ann").await;
    let mut made = Vec::new();
    for _ in 0..5 {
        let (_, g) = http(
            addr,
            "POST",
            "/api/games",
            Some(&ann),
            Some(create("autoscooter", &["me", "open"])),
        )
        .await;
        made.push(g["id"].as_str().unwrap().to_string());
    }
    let mut seen = Vec::new();
    let mut path = Some("/api/games?status=open&limit=2".to_string());
    let mut pages = 0;
    while let Some(p) = path {
        let (status, h, body) = raw(addr, "GET", &p, &[], None).await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        seen.extend(v.as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()));
        path = header(&h, "link").map(|l| {
            l.trim_start_matches('<').split_once('>').expect("a Link header").0.to_string()
        });
        pages += 1;
    }
    assert_eq!(pages, 3, "2 + 2 + 1");
    let mut sorted = made.clone();
    sorted.sort();
    let mut got = seen.clone();
    got.sort();
    assert_eq!(got, sorted, "every game once");

    let (_, h, _) = raw(addr, "GET", "/api/games", &[], None).await;
    let etag = header(&h, "etag").expect("an ETag").to_string();
    let (status, _, body) = raw(addr, "GET", "/api/games", &[("If-None-Match", &etag)], None).await;
    assert_eq!((status, body.as_str()), (304, ""));
    // A change (a new game) changes the ETag.
    http(addr, "POST", "/api/games", Some(&ann), Some(create("autoscooter", &["me", "open"])))
        .await;
    let (status, h2, _) = raw(addr, "GET", "/api/games", &[("If-None-Match", &etag)], None).await;
    assert_eq!(status, 200);
    assert_ne!(header(&h2, "etag"), Some(etag.as_str()));
    let (status, _, _) = raw(addr, "GET", "/api/games?limit=1000", &[], None).await;
    assert_eq!(status, 400);
}
