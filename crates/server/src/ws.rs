//! One connection's loop, generic over `Sink`/`Stream` so it runs on channels in unit tests and
//! on a WebSocket in the server. It parses and rate-limits what the client sends, forwards
//! actions to the game's task, and writes the frames the task sends it.

use crate::chat::ChatError;
use crate::room::Cmd;
use crate::{Shared, Subscription};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use protocol::{ClientMsg, ErrorCode, ServerMsg};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use tokio::time::Instant;

/// What arrives from a client, whatever the transport.
#[derive(Debug)]
pub enum Incoming {
    Text(String),
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

/// Frames written together at most.
const BURST: usize = 16;

/// Run a connection until the client leaves, the game task drops it, the server stops, or the
/// client says nothing (no message, no pong) for `ws_idle_secs` (pinged every third of it).
pub async fn run<S, R>(shared: Arc<Shared>, mut sub: Subscription, mut sink: S, mut stream: R)
where
    S: Sink<Out> + Unpin,
    R: Stream<Item = Incoming> + Unpin,
{
    shared.metrics.connections.fetch_add(1, Relaxed);
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
    loop {
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
                if quiet >= idle / 3 && sink.send(Out::Ping).await.is_err() {
                    break;
                }
            }
            frame = sub.rx.recv() => match frame {
                Some(f) => {
                    // Frames already queued (an ack and its update) leave in one write.
                    let mut ok = sink.feed(Out::Text(f)).await.is_ok();
                    for _ in 0..BURST {
                        let Ok(f) = sub.rx.try_recv() else { break };
                        ok = ok && sink.feed(Out::Text(f)).await.is_ok();
                    }
                    if !ok || sink.flush().await.is_err() {
                        break;
                    }
                }
                None => break, // dropped by the game task (too slow) or the game task ended
            },
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
                            && sink.send(Out::Text(r.to_frame().into())).await.is_err() {
                                break;
                            }
                    }
                    Some(Incoming::Binary(_)) => {
                        shared.metrics.rejected.fetch_add(1, Relaxed);
                        let e = ServerMsg::error(ErrorCode::BinaryNotSupported, "send JSON text frames");
                        if sink.send(Out::Text(e.to_frame().into())).await.is_err() {
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
    let _ = sink.close().await;
    shared.metrics.connections.fetch_sub(1, Relaxed);
}

/// A message from the client: forwarded to the game task (whose answer comes as a frame),
/// answered here (`pong`), or refused here with a typed error.
async fn handle(
    shared: &Arc<Shared>,
    sub: &Subscription,
    limit: &mut RateLimit,
    text: String,
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
    use crate::store::{SeatOwner, SqliteStore, Status, Store};
    use futures_util::{sink, stream};
    use protocol::CreateGame;
    use serde_json::{Value, json};
    use tokio::sync::mpsc;

    /// The connection loop on channels: no socket, the real game task behind it.
    #[tokio::test]
    async fn the_loop_on_channels() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(":memory:").await.unwrap());
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let shared = Shared::new(Config { web: None, ..Config::default() }, store, shutdown);
        let g = shared.guest("Ann").await.unwrap();
        let ann = shared.identity(&g.token).await.unwrap().unwrap();
        let req = CreateGame {
            game: "autoscooter".into(),
            seats: vec!["me".into(), "open".into()],
            board: None,
            variants: None,
            options: None,
            timer_secs: None,
            seed: Some(1),
            practice: true,
        };
        let info = shared.create_game(&ann, req).await.unwrap();
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
        client_tx.send(Incoming::Text(ClientMsg::Ping.to_frame())).await.unwrap();
        assert_eq!(next(&mut client_rx).await["type"], "pong");
        let act = ClientMsg::Act {
            seat: None,
            action: json!({"type": "plot", "car": car, "number": number}),
            id: Some(4),
        };
        client_tx.send(Incoming::Text(act.to_frame())).await.unwrap();
        let ack = next(&mut client_rx).await;
        assert_eq!(
            (ack["type"].as_str(), ack["id"].as_u64(), ack["seq"].as_u64()),
            (Some("ack"), Some(4), Some(1))
        );
        let update = next(&mut client_rx).await;
        assert_eq!(update["type"], "update");
        assert_eq!(update["view"]["plots"][0]["number"], number);
        assert_eq!(shared.store.log(&info.id).await.unwrap().len(), 1);
        drop(client_tx); // the client leaves
        task.await.unwrap();
    }
}
