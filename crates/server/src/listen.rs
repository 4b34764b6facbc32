//! The accept loop: hyper's HTTP/1.1 connection with a header read timeout (a request whose
//! headers do not all arrive in time, or a keep-alive connection that sends nothing, is
//! dropped), and a cap on open connections per address (more are closed as soon as they are
//! accepted, before a byte is read). `axum::serve` offers neither: it sets no timer, so hyper's
//! header timeout never runs.
//!
//! The per-address count is held by the connection's socket itself ([`Counted`]), so a
//! connection upgraded to a WebSocket still counts until its socket closes.
//!
//! On a cluster node, a connection from another node's address (forwarded sockets and leaves,
//! docs/deployment.md) is accepted without the cap (nodes are the cluster's own machines), and
//! the first request of any connection moves its count to the client another node forwards,
//! when that node signed the client's address (`crate::forward::client_of`), with the cap
//! checked there ([`ConnSlot`]).

use crate::Shared;
use crate::limits::ConnGuard;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// A socket that counts against its address until it is dropped. The guard is declared first
/// so that it is released before the socket closes: a client that sees its connection end may
/// open the next one at once.
pub struct Counted {
    slot: Arc<ConnSlot>,
    tcp: TcpStream,
}

impl Drop for Counted {
    fn drop(&mut self) {
        // Released before the socket closes (the fields drop after this).
        drop(self.slot.take());
    }
}

/// The per-address count of one connection (in every request's extensions): a socket another
/// node forwards moves it, once, to the client's address.
pub struct ConnSlot {
    state: std::sync::Mutex<Slot>,
}

struct Slot {
    guard: Option<ConnGuard>,
    /// The first request was seen (later ones change nothing).
    settled: bool,
}

impl ConnSlot {
    fn new(guard: ConnGuard) -> ConnSlot {
        ConnSlot { state: std::sync::Mutex::new(Slot { guard: Some(guard), settled: false }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn take(&self) -> Option<ConnGuard> {
        self.lock().guard.take()
    }

    /// On the connection's first request: count it against `client` (a forwarded client's
    /// address, signed by a node) instead, with `cap`. `false`: `client` has `cap` connections
    /// open already (the request is refused; the count stays where it was).
    pub fn settle(
        &self,
        conns: &Arc<crate::limits::Conns>,
        client: Option<std::net::IpAddr>,
        cap: u32,
    ) -> bool {
        let mut s = self.lock();
        if std::mem::replace(&mut s.settled, true) {
            return true;
        }
        let Some(ip) = client else { return true };
        match conns.try_open(ip, cap) {
            Some(g) => {
                s.guard = Some(g);
                true
            }
            None => false,
        }
    }

    /// Whether the connection's first request is still to come.
    pub fn unsettled(&self) -> bool {
        !self.lock().settled
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

/// Serve `app` on `listener` until `shutdown` turns true; connections then finish gracefully.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shared: Arc<Shared>,
    mut shutdown: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let limits = &shared.config.limits;
    let header_timeout = Duration::from_secs(limits.header_read_secs.max(1));
    let cap = limits.conns_per_address;
    loop {
        let (tcp, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of descriptors, most likely: back off rather than spin.
                    tracing::warn!(error = %e, "accept error");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = crate::stopped(&mut shutdown) => return Ok(()),
        };
        // Another node's connection (forwarded sockets, a forwarded leave) is not capped: a
        // forwarded socket counts against its client's address instead (`ConnSlot::settle`).
        let from_node = shared.node.get().is_some_and(|n| n.is_peer(peer.ip()));
        let Some(guard) = shared.conns.try_open(peer.ip(), if from_node { 0 } else { cap }) else {
            shared.metrics.conns_refused.fetch_add(1, Relaxed);
            tracing::debug!(%peer, "too many connections from this address");
            drop(tcp);
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let slot = Arc::new(ConnSlot::new(guard));
        let io = TokioIo::new(Counted { slot: slot.clone(), tcp });
        let app = app.clone();
        let svc = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(slot.clone());
            app.clone().oneshot(req.map(axum::body::Body::new))
        });
        let mut stop = shutdown.clone();
        tokio::spawn(async move {
            let mut b = hyper::server::conn::http1::Builder::new();
            b.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let conn = b.serve_connection(io, svc).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = crate::stopped(&mut stop) => conn.as_mut().graceful_shutdown(),
            }
            let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
        });
    }
}
