//! One connection's loop, generic over `Sink`/`Stream` so it runs on channels in unit tests and
//! on a WebSocket in the server. It parses and rate-limits what the client sends, forwards
//! actions to the game's task, and writes the frames the task sends it.

use crate::chat::ChatError;
use crate::metrics::Metrics;
use crate::room::Cmd;
use crate::{Shared, Subscription};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use protocol::{ClientMsg, ErrorCode, ServerMsg};
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;

/// What arrives from a client, whatever the transport.
#[derive(Debug)]
pub enum Incoming {
    /// A text frame, as the WebSocket layer read it: its bytes are shared with the frame
    /// tungstenite unmasked, not copied into a `String` of their own (only read, by
    /// `ClientMsg::parse`).
    Text(crate::room::Frame),
    /// A binary frame of this many bytes (refused).
    Binary(usize),
    /// Transport-level traffic (ping/pong): ignored.
    Other,
}

/// What the loop writes: a text frame, or a ping (idle check; the client's pong counts as
/// something said).
#[derive(Debug)]
pub enum Out {
    Text(crate::room::Frame),
    Ping,
}

/// A token bucket: `rate` per second, bursts of `2 × rate`.
struct RateLimit {
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl RateLimit {
    fn new(rate: u32) -> RateLimit {
        let rate = rate.max(1) as f64;
        RateLimit { tokens: 2.0 * rate, rate, last: Instant::now() }
    }
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate)
            .min(2.0 * self.rate);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A connection's write side, shared between its loop and its game's task (docs/benchmarks.md
/// "CPU per accepted action, round 4"). The game's task queues frames on the connection's
/// channel (bounded: a full queue drops the connection, as before) and, once per command it
/// handled, *kicks* every connection it queued frames for ([`Direct::kick`]). With direct
/// writes on (`serve --direct-writes true`; `Config::default()`) the kick writes the queued frames into the
/// socket itself, all in one write, when the socket takes them at once, so the connection's
/// task is not woken for them; only a socket that cannot take them now (or is busy with the
/// loop's own writing) is handed to the connection's loop, which finishes the write when the
/// socket is ready. With direct writes off, every kick wakes the loop, which writes (one hop
/// per connection per command, the design before round 4). Frames, their order and their
/// `seq`s are the same either way: only which task makes the write system call differs.
pub struct Direct {
    /// `None` until the connection's loop attaches (and after it ends): tests and in-process
    /// watchers read the channel themselves.
    state: Mutex<Option<Attached>>,
    /// Wakes the connection's loop: frames to write, a write to finish, or the game dropped it.
    wake: Notify,
}

/// The writer's hold on a connection's [`Direct`] (the game's task's, or a relay's in
/// `fanout.rs`): dropping it tells the connection's loop that its writer let it go (the loop
/// then writes what is queued and ends, finding the channel closed). Declare it after the
/// writer's `mpsc::Sender`, so that the channel is closed by the time the loop looks.
pub(crate) struct DirectHandle(pub(crate) Arc<Direct>);

impl DirectHandle {
    /// After a writer queued frames on `out` (this connection's channel): write or wake.
    /// Every task that queues frames for a connection must call this (or [`Direct::kick`])
    /// before it waits again, or the connection's loop never learns of them.
    pub(crate) fn kick_if_queued(
        &self,
        out: &mpsc::Sender<crate::room::Frame>,
        direct: bool,
        m: &Metrics,
    ) {
        if out.capacity() < out.max_capacity() {
            self.0.kick(direct, m);
        }
    }
}

impl Drop for DirectHandle {
    fn drop(&mut self) {
        self.0.dropped();
    }
}

/// The loop's write side once attached.
struct Attached {
    rx: mpsc::Receiver<crate::room::Frame>,
    sink: Pin<Box<dyn Sink<Out, Error = ()> + Send>>,
    /// Frames of the loop's own (pings, pongs, errors), written after the game's queued ones.
    own: VecDeque<Out>,
    /// Frames were fed but not flushed yet.
    unflushed: bool,
    /// A write is waiting for the socket: only the loop (with its own waker) drives it.
    stalled: bool,
}

/// A sink whose errors all become `()`, however often it fails: a socket that failed once
/// fails again (the loop's `close`, the next write the game's task tries). Not
/// `SinkExt::sink_map_err`: it maps one error only and panics at the second ("polled MapErr
/// after completion"), which left a reset connection's loop without its cleanup.
struct ErrorsDropped<S>(S);

impl<S: Sink<Out> + Unpin> Sink<Out> for ErrorsDropped<S> {
    type Error = ();
    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        Pin::new(&mut self.0).poll_ready(cx).map_err(drop)
    }
    fn start_send(mut self: Pin<&mut Self>, item: Out) -> Result<(), ()> {
        Pin::new(&mut self.0).start_send(item).map_err(drop)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        Pin::new(&mut self.0).poll_flush(cx).map_err(drop)
    }
    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        Pin::new(&mut self.0).poll_close(cx).map_err(drop)
    }
}

/// How a write pass ended.
enum Wrote {
    /// Everything queued is in the socket.
    All,
    /// The game's task dropped the connection (and nothing is left to write).
    Gone,
}

impl Attached {
    /// Feed every queued frame (the game's, then the loop's own), then flush: one write system call for
    /// all of them when the socket takes them.
    fn poll_write(&mut self, cx: &mut Context<'_>, m: &Metrics) -> Poll<Result<Wrote, ()>> {
        loop {
            let gone;
            loop {
                if self.own.is_empty() && self.rx.is_empty() {
                    gone = self.rx.is_closed();
                    break;
                }
                ready!(self.sink.as_mut().poll_ready(cx))?;
                // The game's frames first: a pong (or any frame of the loop's own) follows
                // every frame queued for the connection before it, held ones included
                // (docs/protocol.md "When frames are sent").
                let out = match self.rx.try_recv() {
                    Ok(f) => Out::Text(f),
                    Err(_) => match self.own.pop_front() {
                        Some(o) => o,
                        None => continue,
                    },
                };
                self.sink.as_mut().start_send(out)?;
                self.unflushed = true;
                m.frames_written.fetch_add(1, Relaxed);
            }
            if self.unflushed {
                ready!(self.sink.as_mut().poll_flush(cx))?;
                self.unflushed = false;
                m.socket_flushes.fetch_add(1, Relaxed);
            }
            if self.own.is_empty() && self.rx.is_empty() {
                return Poll::Ready(Ok(if gone { Wrote::Gone } else { Wrote::All }));
            }
        }
    }
}

impl Default for Direct {
    fn default() -> Self {
        Direct { state: Mutex::new(None), wake: Notify::new() }
    }
}

impl Direct {
    /// Called by the game's task after it queued frames on this connection's channel: write
    /// them now without waking the connection's task (`direct`), or wake it to write them.
    pub fn kick(&self, direct: bool, m: &Metrics) {
        if !direct {
            return self.wake.notify_one();
        }
        // The loop holds it (writing, attaching, leaving): it looks at the queue again after.
        let Ok(mut state) = self.state.try_lock() else { return self.wake.notify_one() };
        let Some(a) = state.as_mut() else { return };
        if a.stalled {
            return; // the loop waits for the socket and writes everything queued when it can
        }
        let mut cx = Context::from_waker(std::task::Waker::noop());
        match a.poll_write(&mut cx, m) {
            Poll::Ready(Ok(Wrote::All)) => {
                m.direct_writes.fetch_add(1, Relaxed);
            }
            // The socket cannot take it all now, or failed, or the game is gone: the loop
            // finishes with a waker of its own (a noop waker was registered just now, so
            // nobody else would be woken).
            _ => {
                a.stalled = true;
                m.direct_handoffs.fetch_add(1, Relaxed);
                self.wake.notify_one();
            }
        }
    }

    /// Called when the game's task drops the connection (its sender is gone by then).
    pub fn dropped(&self) {
        self.wake.notify_one();
    }

    /// The loop's write pass, with its own waker: everything queued written and flushed.
    async fn write(&self, m: &Metrics) -> Result<Wrote, ()> {
        std::future::poll_fn(|cx| {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let Some(a) = state.as_mut() else { return Poll::Ready(Err(())) };
            a.stalled = true;
            let r = a.poll_write(cx, m);
            if r.is_ready() {
                a.stalled = false;
            }
            r
        })
        .await
    }

    /// Queue one of the loop's own frames and write it with everything queued.
    async fn send_own(&self, out: Out, m: &Metrics) -> Result<Wrote, ()> {
        if let Some(a) = self.state.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            a.own.push_back(out);
        }
        self.write(m).await
    }
}

/// Run a connection until the client leaves, the game task drops it, the server stops, or the
/// client says nothing (no message, no pong) for `ws_idle_secs` (pinged every third of it).
pub async fn run<S, R>(shared: Arc<Shared>, mut sub: Subscription, sink: S, mut stream: R)
where
    S: Sink<Out> + Send + Unpin + 'static,
    R: Stream<Item = Incoming> + Unpin,
{
    shared.metrics.connections.fetch_add(1, Relaxed);
    let m = &shared.metrics;
    let mut limit = RateLimit::new(shared.config.rate);
    let mut shutdown = shared.shutdown.clone();
    // Made once: a fresh wait on the shutdown signal per loop turn would enter and leave the
    // signal's shared waiter list (a lock) for every frame of every connection.
    let stop = crate::stopped(&mut shutdown);
    tokio::pin!(stop);
    let idle = shared.config.limits.ws_idle();
    let mut heard = Instant::now();
    let mut ping = tokio::time::interval_at(Instant::now() + idle / 3, idle / 3);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The write side is shared with the game's task from here (`Direct`); what it queued
    // before (the welcome) is written at once.
    let direct = sub.direct.clone();
    let (_, closed) = mpsc::channel(1);
    let rx = std::mem::replace(&mut sub.rx, closed);
    *direct.state.lock().unwrap_or_else(|e| e.into_inner()) = Some(Attached {
        rx,
        sink: Box::pin(ErrorsDropped(sink)),
        own: VecDeque::new(),
        unflushed: false,
        stalled: false,
    });
    direct.wake.notify_one();
    loop {
        m.conn_wakeups.fetch_add(1, Relaxed);
        tokio::select! {
            _ = ping.tick() => {
                let quiet = heard.elapsed();
                if quiet >= idle {
                    shared.metrics.ws_idle_closed.fetch_add(1, Relaxed);
                    tracing::debug!(conn = sub.conn, "idle: closed");
                    break;
                }
                // A client heard from within the last third needs no ping yet (at 10,000
                // playing clients, pings were a write and a read per connection every 20 s).
                if quiet >= idle / 3 && !matches!(direct.send_own(Out::Ping, m).await, Ok(Wrote::All)) {
                    break;
                }
            }
            // Frames queued (the game's task kicked, or a direct write needs finishing), or
            // the game's task dropped this connection (too slow) or ended.
            _ = direct.wake.notified() => {
                if !matches!(direct.write(m).await, Ok(Wrote::All)) {
                    break;
                }
            }
            msg = stream.next() => {
                heard = Instant::now();
                match msg {
                    Some(Incoming::Text(text)) => {
                        let reply = match handle(&shared, &sub, &mut limit, text).await {
                            Ok(reply) => reply,
                            Err(e) => {
                                shared.metrics.rejected.fetch_add(1, Relaxed);
                                Some(e)
                            }
                        };
                        if let Some(r) = reply
                            && !matches!(direct.send_own(Out::Text(r.to_frame().into()), m).await, Ok(Wrote::All)) {
                                break;
                            }
                    }
                    Some(Incoming::Binary(_)) => {
                        shared.metrics.rejected.fetch_add(1, Relaxed);
                        let e = ServerMsg::error(ErrorCode::BinaryNotSupported, "send JSON text frames");
                        if !matches!(direct.send_own(Out::Text(e.to_frame().into()), m).await, Ok(Wrote::All)) {
                            break;
                        }
                    }
                    Some(Incoming::Other) => {}
                    None => break,
                }
            }
            _ = &mut stop => break,
        }
    }
    sub.leave().await;
    let attached = direct.state.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(mut a) = attached {
        let _ = a.sink.close().await;
    }
    shared.metrics.connections.fetch_sub(1, Relaxed);
}

/// A message from the client: forwarded to the game task (whose answer comes as a frame),
/// answered here (`pong`), or refused here with a typed error.
async fn handle(
    shared: &Arc<Shared>,
    sub: &Subscription,
    limit: &mut RateLimit,
    text: crate::room::Frame,
) -> Result<Option<ServerMsg>, ServerMsg> {
    let received = Instant::now();
    if !limit.allow() {
        return Err(ServerMsg::error(ErrorCode::RateLimited, "too many messages: slow down"));
    }
    let msg = ClientMsg::parse(&text).map_err(|(code, m)| ServerMsg::error(code, m))?;
    let cmd = match msg {
        ClientMsg::Ping => return Ok(Some(ServerMsg::Pong)),
        ClientMsg::Sync => Cmd::Sync { conn: sub.conn },
        ClientMsg::Chat { text } => {
            let Some(who) = &sub.who else {
                return Err(ServerMsg::error(
                    ErrorCode::NotSignedIn,
                    "chat needs a guest name: sign in first",
                ));
            };
            // The line comes back to this connection too, as a `chat` frame from the game.
            return match shared.say(&sub.game, who, &text).await {
                Ok(_) => Ok(None),
                Err(ChatError::Bad(m)) => Err(ServerMsg::error(ErrorCode::BadChat, m)),
                Err(ChatError::TooMany(s)) => Err(ServerMsg::error(
                    ErrorCode::RateLimited,
                    format!("too many chat lines: wait {s} s"),
                )),
            };
        }
        ClientMsg::Rematch { accept } => Cmd::Rematch { conn: sub.conn, accept },
        ClientMsg::TakeBack => Cmd::TakeBack { conn: sub.conn },
        ClientMsg::Act { seat, action, id } => {
            if sub.seat.is_none() {
                return Err(ServerMsg::Error {
                    code: ErrorCode::NotAPlayer,
                    rule: None,
                    message: "spectators cannot act".into(),
                    id,
                });
            }
            Cmd::Act { conn: sub.conn, seat, action, id, received }
        }
    };
    sub.room
        .tx
        .send(cmd)
        .await
        .map_err(|_| ServerMsg::error(ErrorCode::Unavailable, "the game is closing"))?;
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::store::{Identity, SeatOwner, SqliteStore, Status, Store};
    use futures_util::{sink, stream};
    use protocol::CreateGame;
    use serde_json::{Value, json};
    use tokio::sync::mpsc;

    /// The connection loop on channels: no socket, the real game task behind it; its frames
    /// written by the game's task itself (direct writes) or by the loop.
    #[tokio::test]
    async fn the_loop_on_channels() {
        the_loop(true).await;
    }

    #[tokio::test]
    async fn the_loop_on_channels_without_direct_writes() {
        the_loop(false).await;
    }

    /// A server on an in-memory store, Ann signed in as a guest, and the Autoscooter practice
    /// game she created with seat 1 `other` (the stop signal's sender: the server runs while
    /// the caller keeps it).
    async fn practice_game(
        direct_writes: bool,
        other: &str,
    ) -> (Arc<Shared>, tokio::sync::watch::Sender<bool>, Identity, protocol::GameInfo) {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(":memory:").await.unwrap());
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        let config = Config { web: None, direct_writes, ..Config::default() };
        let shared = Shared::new(config, store, shutdown);
        let g = shared.guest("Ann").await.unwrap();
        let ann = shared.identity(&g.token).await.unwrap().unwrap();
        let req = CreateGame {
            game: "autoscooter".into(),
            seats: vec!["me".into(), other.into()],
            board: None,
            variants: None,
            options: None,
            timer_secs: None,
            seed: Some(1),
            practice: true,
        };
        let info = shared.create_game(&ann, req).await.unwrap();
        (shared, stop, ann, info)
    }

    /// A socket that fails every write, then its close too (a client gone mid-write): the
    /// loop ends without a panic and counts the connection out. (With
    /// `SinkExt::sink_map_err` the second error panicked, and the count stayed up.)
    #[tokio::test]
    async fn a_socket_that_fails_twice_ends_its_loop_cleanly() {
        struct Broken;
        impl Sink<Out> for Broken {
            type Error = &'static str;
            fn poll_ready(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
            ) -> Poll<Result<(), Self::Error>> {
                Poll::Ready(Err("reset"))
            }
            fn start_send(self: Pin<&mut Self>, _: Out) -> Result<(), Self::Error> {
                Err("reset")
            }
            fn poll_flush(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
            ) -> Poll<Result<(), Self::Error>> {
                Poll::Ready(Err("reset"))
            }
            fn poll_close(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
            ) -> Poll<Result<(), Self::Error>> {
                Poll::Ready(Err("reset"))
            }
        }
        for direct_writes in [true, false] {
            let (shared, _stop, ann, info) = practice_game(direct_writes, "bot:random").await;
            let sub = shared.subscribe(&info.id, Some(&ann.id)).await.unwrap();
            // The client's side stays open: only the socket's write side fails.
            let (_client_tx, from_client) = mpsc::channel::<Incoming>(1);
            let input = Box::pin(stream::unfold(from_client, |mut rx| async move {
                rx.recv().await.map(|m| (m, rx))
            }));
            let task = tokio::spawn(run(shared.clone(), sub, Broken, input));
            task.await.expect("the loop ends without a panic");
            assert_eq!(shared.metrics.connections.load(Relaxed), 0, "counted out");
        }
    }

    async fn the_loop(direct_writes: bool) {
        let (shared, _stop, ann, info) = practice_game(direct_writes, "open").await;
        // Seat 1 is Bob's, who never connects; the game runs.
        let seats = vec![
            SeatOwner::Human { identity: ann.id.clone(), name: "Ann".into() },
            SeatOwner::Human { identity: "bob".into(), name: "Bob".into() },
        ];
        shared.store.update_game(&info.id, &seats, Status::Running).await.unwrap();
        let sub = shared.subscribe(&info.id, Some(&ann.id)).await.unwrap();
        assert_eq!(sub.seat, Some(engine::Seat(0)));

        let (to_client, mut client_rx) = mpsc::channel::<String>(64);
        let (client_tx, from_client) = mpsc::channel::<Incoming>(64);
        let out = Box::pin(sink::unfold(to_client, |tx, frame: Out| async move {
            if let Out::Text(frame) = frame {
                tx.send(frame.to_string()).await.map_err(|_| ())?;
            }
            Ok::<_, ()>(tx)
        }));
        let input = Box::pin(stream::unfold(from_client, |mut rx| async move {
            rx.recv().await.map(|m| (m, rx))
        }));
        let task = tokio::spawn(run(shared.clone(), sub, out, input));
        async fn next(rx: &mut mpsc::Receiver<String>) -> Value {
            serde_json::from_str(&rx.recv().await.unwrap()).unwrap()
        }
        let welcome = next(&mut client_rx).await;
        assert_eq!(welcome["type"], "welcome");
        let (car, number) = crate::games::first_car_and_number(&welcome["view"], 0);
        client_tx.send(Incoming::Text("{oops".into())).await.unwrap();
        assert_eq!(next(&mut client_rx).await["code"], "malformed");
        client_tx.send(Incoming::Binary(3)).await.unwrap();
        assert_eq!(next(&mut client_rx).await["code"], "binary_not_supported");
        client_tx.send(Incoming::Text(ClientMsg::Ping.to_frame().into())).await.unwrap();
        assert_eq!(next(&mut client_rx).await["type"], "pong");
        let act = ClientMsg::Act {
            seat: None,
            action: json!({"type": "plot", "car": car, "number": number}),
            id: Some(4),
        };
        let m = &shared.metrics;
        let counts =
            || [&m.frames_written, &m.socket_flushes, &m.direct_writes].map(|c| c.load(Relaxed));
        let before = counts();
        client_tx.send(Incoming::Text(act.to_frame().into())).await.unwrap();
        let ack = next(&mut client_rx).await;
        assert_eq!(
            (ack["type"].as_str(), ack["id"].as_u64(), ack["seq"].as_u64()),
            (Some("ack"), Some(4), Some(1))
        );
        let update = next(&mut client_rx).await;
        assert_eq!(update["type"], "update");
        assert_eq!(update["view"]["plots"][0]["number"], number);
        assert_eq!(shared.store.log(&info.id).await.unwrap().len(), 1);
        // The loop's own pong comes after the game task's write is over (both hold the
        // connection's write side while writing).
        client_tx.send(Incoming::Text(ClientMsg::Ping.to_frame().into())).await.unwrap();
        assert_eq!(next(&mut client_rx).await["type"], "pong");
        let after = counts();
        // Ack and update in one flush, the pong in another; written by the game's task itself
        // with direct writes, by the loop without.
        assert_eq!(
            [after[0] - before[0], after[1] - before[1], after[2] - before[2]],
            [3, 2, u64::from(direct_writes)]
        );
        drop(client_tx); // the client leaves
        task.await.unwrap();
    }
}
