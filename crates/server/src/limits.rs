//! Limits a public server needs against strangers (docs/security.md, "Limits"): quotas on
//! guests and games created per address and per identity, open games per identity,
//! connections per address, idle and slow-request timeouts, the size of a stored setup, and
//! the bounds of the replay steps cache and pages.
//!
//! Every limit is a `serve` option ([`Limits`], flattened into `robodrome serve`'s arguments).
//!
//! The rate limiter is a small keyed token bucket on tokio's clock rather than the `governor`
//! crate: `governor` reads its own clock (`quanta`), so tests could not drive it with tokio's
//! paused clock, and its keyed state needs the same pruning this one does; the bucket is a
//! dozen lines.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// The limits of `robodrome serve` (each one an option; 0 turns a quota off where noted).
#[derive(Clone, Debug, clap::Args)]
pub struct Limits {
    /// Guest identities one address may create per window (0: no limit).
    #[arg(long, default_value_t = 20)]
    pub guests_per_window: u32,
    /// Games one address, and one identity, may create per window (0: no limit).
    #[arg(long, default_value_t = 60)]
    pub games_per_window: u32,
    /// The window of the two quotas above, in seconds (the quota refills evenly over it).
    #[arg(long, default_value_t = 3600)]
    pub quota_window_secs: u64,
    /// Open and running games one identity may have created at once (0: no limit).
    #[arg(long, default_value_t = 10)]
    pub open_games_per_identity: u32,
    /// Open TCP connections (HTTP and WebSocket) from one address; more are closed at once
    /// (IPv6 addresses count by their /64 network) (0: no limit).
    #[arg(long, default_value_t = 64)]
    pub conns_per_address: u32,
    /// A WebSocket that sends nothing (no message, no pong) for this many seconds is closed;
    /// the server pings every third of it.
    #[arg(long, default_value_t = 60)]
    pub ws_idle_secs: u64,
    /// An HTTP request whose headers have not all arrived after this many seconds is dropped
    /// (slow or half-open requests; also idle keep-alive connections).
    #[arg(long, default_value_t = 10)]
    pub header_read_secs: u64,
    /// The largest game setup (board, course or track included) stored for a new game, in bytes.
    #[arg(long, default_value_t = 256 * 1024)]
    pub max_setup_bytes: usize,
    /// Heap for cached replay steps, in bytes: their JSON text, offsets and bookkeeping as
    /// allocated (least recently used first out).
    #[arg(long, default_value_t = 64 << 20)]
    pub steps_cache_bytes: usize,
    /// The most steps JSON one `/steps` answer carries, in bytes (at least one step).
    #[arg(long, default_value_t = 512 * 1024)]
    pub steps_page_bytes: usize,
    /// The longest chat line, in characters.
    #[arg(long, default_value_t = 300)]
    pub chat_max_chars: usize,
    /// Chat lines one identity may say per chat window, in all games together (0: no limit).
    #[arg(long, default_value_t = 10)]
    pub chat_per_window: u32,
    /// The window of the chat quota, in seconds (it refills evenly over it).
    #[arg(long, default_value_t = 30)]
    pub chat_window_secs: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            guests_per_window: 20,
            games_per_window: 60,
            quota_window_secs: 3600,
            open_games_per_identity: 10,
            conns_per_address: 64,
            ws_idle_secs: 60,
            header_read_secs: 10,
            max_setup_bytes: 256 * 1024,
            steps_cache_bytes: 64 << 20,
            steps_page_bytes: 512 * 1024,
            chat_max_chars: 300,
            chat_per_window: 10,
            chat_window_secs: 30,
        }
    }
}

impl Limits {
    pub fn window(&self) -> Duration {
        Duration::from_secs(self.quota_window_secs.max(1))
    }
    pub fn ws_idle(&self) -> Duration {
        Duration::from_secs(self.ws_idle_secs.max(1))
    }
}

/// The key an address is counted under: IPv4 as is, IPv6 by its /64 network (one host
/// usually holds a whole /64).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Keyed token buckets: `quota` tokens per `window`, refilled evenly, a full bucket to start.
pub struct Quota<K> {
    quota: u32,
    window: Duration,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

/// Buckets kept before full ones are forgotten (a full bucket is the same as none).
const PRUNE_AT: usize = 1 << 16;

impl<K: std::hash::Hash + Eq + Clone> Quota<K> {
    pub fn new(quota: u32, window: Duration) -> Quota<K> {
        Quota { quota, window, buckets: Mutex::new(HashMap::new()) }
    }

    fn level(&self, tokens: f64, since: Instant, now: Instant) -> f64 {
        let per_sec = self.quota as f64 / self.window.as_secs_f64();
        (tokens + now.duration_since(since).as_secs_f64() * per_sec).min(self.quota as f64)
    }

    /// Keys with a bucket kept now (a gauge of `/metrics`).
    pub fn keys(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Whether `key` may take one token now (nothing is taken if not), else how long until it may.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.take(key, true)
    }

    /// Whether `key` would have a token now, without taking it.
    pub fn peek(&self, key: &K) -> Result<(), Duration> {
        self.take(key, false)
    }

    fn take(&self, key: &K, take: bool) -> Result<(), Duration> {
        if self.quota == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if b.len() >= PRUNE_AT {
            b.retain(|_, (t, since)| self.level(*t, *since, now) < self.quota as f64);
        }
        let (tokens, since) = b.get(key).copied().unwrap_or((self.quota as f64, now));
        let level = self.level(tokens, since, now);
        if level >= 1.0 {
            if take {
                b.insert(key.clone(), (level - 1.0, now));
            }
            Ok(())
        } else {
            let per_sec = self.quota as f64 / self.window.as_secs_f64();
            Err(Duration::from_secs_f64((1.0 - level) / per_sec))
        }
    }
}

/// Open connections per address. A [`ConnGuard`] counts one until it is dropped.
#[derive(Default)]
pub struct Conns {
    open: Mutex<HashMap<IpAddr, u32>>,
}

pub struct ConnGuard {
    conns: Arc<Conns>,
    key: IpAddr,
}

impl Conns {
    /// Count a new connection from `ip`, unless `cap` (0: none) are open from it already.
    pub fn try_open(self: &Arc<Self>, ip: IpAddr, cap: u32) -> Option<ConnGuard> {
        let key = address_key(ip);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(key).or_insert(0);
        if cap > 0 && *n >= cap {
            if *n == 0 {
                open.remove(&key);
            }
            return None;
        }
        *n += 1;
        Some(ConnGuard { conns: self.clone(), key })
    }

    /// Addresses with a connection open now (a gauge of `/metrics`).
    pub fn addresses(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Connections open from `ip`'s address key.
    pub fn open_from(&self, ip: IpAddr) -> u32 {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&address_key(ip)).copied().unwrap_or(0)
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut open = self.conns.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// The quotas the lobby checks (one set per server).
pub struct Quotas {
    pub guests_by_address: Quota<IpAddr>,
    pub games_by_address: Quota<IpAddr>,
    pub games_by_identity: Quota<String>,
}

impl Quotas {
    pub fn new(l: &Limits) -> Quotas {
        Quotas {
            guests_by_address: Quota::new(l.guests_per_window, l.window()),
            games_by_address: Quota::new(l.games_per_window, l.window()),
            games_by_identity: Quota::new(l.games_per_window, l.window()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_bucket_empties_and_refills_evenly() {
        let q: Quota<u8> = Quota::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(q.check(&1), Ok(()));
        }
        let wait = q.check(&1).unwrap_err();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20), "{wait:?}");
        assert_eq!(q.check(&2), Ok(()), "keys are separate");
        assert_eq!(q.keys(), 2);
        tokio::time::advance(Duration::from_secs(20)).await;
        assert_eq!(q.check(&1), Ok(()));
        assert!(q.check(&1).is_err());
        assert!(Quota::<u8>::new(0, Duration::from_secs(1)).check(&1).is_ok(), "0 is no limit");
    }

    #[test]
    fn connections_are_counted_per_address_and_released() {
        let c = Arc::new(Conns::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let g1 = c.try_open(a, 2).unwrap();
        let _g2 = c.try_open(a, 2).unwrap();
        assert!(c.try_open(a, 2).is_none());
        assert!(c.try_open("10.0.0.2".parse().unwrap(), 2).is_some());
        assert_eq!(c.addresses(), 1, "10.0.0.2's guard is gone: its key too");
        drop(g1);
        assert_eq!(c.open_from(a), 1);
        assert!(c.try_open(a, 2).is_some());
        // One IPv6 /64 is one address.
        let v6a: IpAddr = "2001:db8::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8::2".parse().unwrap();
        let _h = c.try_open(v6a, 1).unwrap();
        assert!(c.try_open(v6b, 1).is_none());
    }
}
