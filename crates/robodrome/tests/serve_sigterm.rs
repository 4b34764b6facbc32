//! SIGTERM stops `robodrome serve` within 5 s even while its bots search at the ceiling (issue
//! 14: `search:4294967295` used to keep both bot workers busy forever, and only SIGKILL stopped
//! the process). The ceiling is raised to a minute here so that a search the server did not
//! cancel would keep the process alive far past the 5 s allowed. A spectator's WebSocket and a
//! half-sent HTTP request stay open meanwhile: they must not hold the process either.

mod common;

use serde_json::{Value, json};
use server::client;
use std::process::Command;
use std::time::{Duration, Instant};

/// A gauge or counter of `/metrics`.
fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[test]
fn sigterm_stops_the_server_within_5_s_while_bots_search_at_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = common::serve(
        &dir.path().join("sigterm.db"),
        &["--max-bot-ms", "60000", "--max-bot-simulations", "4294967295"],
    );
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // Also held open through the shutdown: a spectator's WebSocket and a half-sent request.
    let mut half_open = std::net::TcpStream::connect(addr).unwrap();
    std::io::Write::write_all(&mut half_open, b"GET /healthz HTTP/1.1\r\nHost: x\r\n").unwrap();
    let _watcher = rt.block_on(async {
        let token = client::guest(addr, "hostile").await.unwrap();
        let mut ids = Vec::new();
        for game in ["roborally", "bumping-bots"] {
            let body =
                json!({"game": game, "seats": ["bot:search:60000ms", "bot:search:4294967295"]});
            let g = client::expect(addr, "POST", "/api/games", Some(&token), Some(&body), 201)
                .await
                .unwrap();
            ids.push(g["id"].as_str().unwrap().to_string());
        }
        let watcher = client::Socket::connect(addr, &ids[0], None).await.unwrap();
        // Until the bot workers are busy with these searches.
        let t0 = Instant::now();
        loop {
            let m = client::expect(addr, "GET", "/metrics", None, None, 200).await.unwrap();
            let Value::String(text) = m else { panic!("metrics are text") };
            if metric(&text, "robodrome_bots_thinking").is_some_and(|n| n >= 1.0) {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(20), "no bot started thinking");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        watcher
    });
    let term = Instant::now();
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "a clean exit after SIGTERM: {status}");
            break;
        }
        if term.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("still running 5 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("stopped {:?} after SIGTERM", term.elapsed());
}
