//! What the process tests share: the real `robodrome serve` started on a free port.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Starts `robodrome serve --addr 127.0.0.1:0 --db DB ARGS…` and returns the process and the
/// address it says it serves on. Its stderr is read to the end on a thread of its own, so the
/// server never blocks on a full pipe.
pub fn serve(db: &Path, args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robodrome"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("robodrome starts");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("robodrome: serving on http://") {
                let _ = tx.send(rest.split_whitespace().next().and_then(|a| a.parse().ok()));
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .ok()
        .flatten()
        .expect("the server says where it listens");
    (child, addr)
}
