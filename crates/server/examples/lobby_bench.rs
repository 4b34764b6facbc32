//! The lobby with a million finished games (docs/benchmarks.md, "Lobby"): fills a database
//! with N finished games (default 1,000,000; kept between runs), starts the server on it and
//! measures `GET /api/games` over loopback, one new connection per request as a browser tab
//! without keep-alive would. Prints the query plans too (index only: no scan, no temporary sort).
//!
//! `cargo run -p server --example lobby_bench -- [N] [DB]` (or `scripts/lobby-bench`).

use server::store::SqliteStore;
use server::{Config, Server};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

type Error = Box<dyn std::error::Error + Send + Sync>;

async fn get(
    addr: SocketAddr,
    path: &str,
    etag: Option<&str>,
) -> Result<(u16, String, usize), Error> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.set_nodelay(true)?;
    let inm = etag.map(|e| format!("If-None-Match: {e}\r\n")).unwrap_or_default();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{inm}\r\n");
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or("no status")?;
    let etag = text
        .lines()
        .find_map(|l| l.strip_prefix("etag: ").or_else(|| l.strip_prefix("ETag: ")))
        .unwrap_or("")
        .to_string();
    Ok((status, etag, out.len()))
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().collect();
    let n: i64 = args.get(1).map(|a| a.parse()).transpose()?.unwrap_or(1_000_000);
    let db = args.get(2).cloned().unwrap_or_else(|| "target/lobby-bench.db".into());

    // The schema (and the limits migration) as the server makes it.
    drop(SqliteStore::open(&db).await?);
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{db}")).await?;
    let have: i64 = sqlx::query_scalar("SELECT count(*) FROM games WHERE status = 'finished'")
        .fetch_one(&pool)
        .await?;
    if have < n {
        let t = Instant::now();
        let seats =
            r#"[{"kind":"human","identity":"a","name":"Ann"},{"kind":"bot","spec":"heuristic"}]"#;
        let outcome = r#"{"ranking":[[0],[1]],"scores":[3,1]}"#;
        // Twenty games a second over about 14 hours of creation times, ids in random order.
        sqlx::query(
            "WITH RECURSIVE k(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM k WHERE i < ?) \
             INSERT INTO games (id, game, setup, seed, seats, status, timer_secs, creator, outcome, created_at) \
             SELECT lower(hex(randomblob(8))), 'autoscooter', '{}', i, ?, 'finished', NULL, 'c' || (i % 5000), ?, 1700000000 + i / 20 FROM k",
        )
        .bind(have + 1)
        .bind(n)
        .bind(seats)
        .bind(outcome)
        .execute(&pool)
        .await?;
        // A few open games, as a live lobby has.
        sqlx::query(
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 40) \
             INSERT INTO games (id, game, setup, seed, seats, status, creator, created_at) \
             SELECT lower(hex(randomblob(8))), 'autoscooter', '{}', i, '[{\"kind\":\"open\"},{\"kind\":\"open\"}]', 'open', 'c', 1800000000 + i FROM k",
        )
        .execute(&pool)
        .await?;
        sqlx::query("ANALYZE").execute(&pool).await?;
        println!("filled {} finished games in {:.1} s", n - have, t.elapsed().as_secs_f64());
    }
    let total: i64 = sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&pool).await?;
    println!("games stored: {total}");
    for (what, sql) in [
        (
            "first page",
            "EXPLAIN QUERY PLAN SELECT id, game, seed, seats, status, timer_secs, creator, outcome, created_at FROM games WHERE status = 'finished' ORDER BY created_at DESC, id DESC LIMIT 50",
        ),
        (
            "later page",
            "EXPLAIN QUERY PLAN SELECT id, game, seed, seats, status, timer_secs, creator, outcome, created_at FROM games WHERE status = 'finished' AND (created_at, id) < (1700025000, 'ff') ORDER BY created_at DESC, id DESC LIMIT 50",
        ),
    ] {
        let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(sql).fetch_all(&pool).await?;
        let plan: Vec<&str> = rows.iter().map(|r| r.3.as_str()).collect();
        println!("plan ({what}): {}", plan.join(" / "));
    }
    pool.close().await;

    let mut config =
        Config { addr: SocketAddr::from(([127, 0, 0, 1], 0)), db, web: None, ..Config::default() };
    config.limits.conns_per_address = 0;
    let server = Server::start(config).await?;
    let addr = server.addr;
    let (_, _, _) = get(addr, "/api/games?status=finished&limit=50", None).await?;
    // A cursor deep in the table: the 50th page's.
    let mut cursor = String::new();
    {
        let mut path = "/api/games?status=finished&limit=100".to_string();
        for _ in 0..50 {
            let mut s = tokio::net::TcpStream::connect(addr).await?;
            s.write_all(
                format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
            )
            .await?;
            let mut out = Vec::new();
            s.read_to_end(&mut out).await?;
            let text = String::from_utf8_lossy(&out);
            let link = text.lines().find_map(|l| l.strip_prefix("link: ")).ok_or("no Link")?;
            path = link.trim_start_matches('<').split_once('>').ok_or("bad Link")?.0.to_string();
            cursor = path.clone();
        }
    }
    let (_, etag, _) = get(addr, "/api/games", None).await?;
    let cases: Vec<(&str, String, Option<String>)> = vec![
        ("lobby (open, running, finished; 50 each)", "/api/games".into(), None),
        ("finished, first page of 50", "/api/games?status=finished&limit=50".into(), None),
        ("finished, page 51 of 100 (cursor)", cursor, None),
        ("lobby, unchanged (If-None-Match: 304)", "/api/games".into(), Some(etag)),
    ];
    println!(
        "{:<44} {:>7} {:>8} {:>8} {:>8} {:>9}",
        "GET", "status", "p50 ms", "p99 ms", "max ms", "bytes"
    );
    for (what, path, etag) in cases {
        let mut times = Vec::new();
        let mut last = (0, 0);
        for i in 0..520 {
            let t = Instant::now();
            let (status, _, bytes) = get(addr, &path, etag.as_deref()).await?;
            if i >= 20 {
                times.push(t.elapsed());
            }
            last = (status, bytes);
        }
        times.sort();
        println!(
            "{what:<44} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>9}",
            last.0,
            pct(&times, 0.5),
            pct(&times, 0.99),
            pct(&times, 1.0),
            last.1
        );
    }
    server.shutdown().await;
    Ok(())
}
