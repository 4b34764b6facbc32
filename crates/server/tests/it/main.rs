//! The server as clients see it: a real server on 127.0.0.1:0 with a temporary SQLite file,
//! driven by WebSocket clients (tokio-tungstenite) and HTTP/1.1 requests (hyper, through
//! `server::client`); and the timers on tokio's paused clock over an in-memory store (`paused`).

mod accounts;
mod batched;
mod boards;
mod botapi;
mod championship;
mod cluster;
mod fair;
mod fanout;
mod faults;
mod hourglass;
mod identity;
mod kinds;
mod lessons;
mod limits;
mod loadtest;
mod nodes;
mod paused;
mod play;
mod rematch;
mod secrecy;
mod social;
mod storage;
mod support;
mod turns;
mod views;
