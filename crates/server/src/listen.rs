//! The accept loop: hyper's HTTP/1.1 connection with a header read timeout (a request whose
//! headers do not all arrive in time, or a keep-alive connection that sends nothing, is
//! dropped), and a cap on open connections per address (more are closed as soon as they are
//! accepted, before a byte is read). `axum::serve` offers neither: it sets no timer, so hyper's
//! header timeout never runs.
//!
//! The per-address count is held by the connection's socket itself ([`Counted`]), so a
//! connection upgraded to a WebSocket still counts until its socket closes.

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
    _guard: ConnGuard,
    tcp: TcpStream,
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
        let Some(guard) = shared.conns.try_open(peer.ip(), cap) else {
            shared.metrics.conns_refused.fetch_add(1, Relaxed);
            tracing::debug!(%peer, "too many connections from this address");
            drop(tcp);
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted { _guard: guard, tcp });
        let app = app.clone();
        let svc = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
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
