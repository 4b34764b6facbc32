//! Several server nodes on one PostgreSQL database: which node owns which running game
//! (docs/deployment.md "Game ownership").
//!
//! A game is owned through a **lease** in PostgreSQL's `leases` table (migration 2 of
//! `crate::store_pg`): the node, an **epoch** (one more at every change of owner: the fencing
//! token) and an expiry in Unix milliseconds **on the database's clock** (so nodes' clocks
//! never matter). Every grant is also written to `lease_history`, which the cluster test reads
//! to show that no two nodes ever held a game at once.
//!
//! * [`Cluster::acquire`]: one transaction locks the game's lease row (`FOR UPDATE`, after
//!   inserting an expired placeholder if there is none) and grants it only if it is this node's
//!   already (then it is renewed, same epoch) or has expired (then the epoch goes up by one and
//!   the grant is recorded). Two nodes asking at once are serialised by the row lock.
//! * [`Cluster::renew`]: every live game's lease at once (one statement); a game whose lease
//!   is no longer this node's at the epoch it was granted is returned as lost.
//! * [`Cluster::release`]: a finished or stopped game's lease ends now (expires at once).
//! * Node ids are unique per process (`<name>/<random>`), so a node restarted after SIGKILL
//!   waits like every other node for its old leases to expire: nothing of a dead process can
//!   still be writing then.
//!
//! Why PostgreSQL and not Redis for leases: the game's log is in PostgreSQL, so the lease and
//! the log's writes can be checked in the same database (an append can be fenced by the lease
//! in the same statement); a Redis lease (SET NX PX) would need a second system to agree with
//! the first, and Redis' replication is asynchronous (a failover can hand the same lease twice).

use sqlx::{PgPool, Row};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

/// The database's clock in Unix milliseconds, as SQL.
const NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT";

/// This node's view of the cluster.
pub struct Cluster {
    pool: PgPool,
    /// Unique per process.
    pub node: String,
    /// Where other nodes reach this one (its listening address).
    pub addr: String,
    /// How long a lease lasts without renewal.
    pub ttl_ms: i64,
}

/// A lease granted to this node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    pub epoch: i64,
    pub expires_ms: i64,
}

/// Who owns a game now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub node: String,
    pub addr: Option<String>,
    pub epoch: i64,
    pub expires_ms: i64,
}

impl Cluster {
    /// A node named `name` (its id gets a random suffix) reachable at `addr`, registered in
    /// `nodes`.
    pub async fn join(
        pool: PgPool,
        name: &str,
        addr: &str,
        ttl_ms: i64,
    ) -> Result<Cluster, sqlx::Error> {
        let suffix = crate::lobby::random_hex(4).unwrap_or_else(|_| "0".into());
        let c = Cluster { pool, node: format!("{name}/{suffix}"), addr: addr.to_string(), ttl_ms };
        c.heartbeat().await?;
        Ok(c)
    }

    /// The key every node of this database signs with (`cluster_secret`, PostgreSQL migration
    /// 4): made by the first node that asks (from the operating system's generator), read by
    /// every other. Whoever can read the database is trusted anyway; no setting to share.
    pub async fn secret(&self) -> Result<Vec<u8>, sqlx::Error> {
        let mine =
            crate::lobby::random_hex(32).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
        sqlx::query(
            "INSERT INTO cluster_secret (one, secret) VALUES (1, $1) ON CONFLICT DO NOTHING",
        )
        .bind(&mine)
        .execute(&self.pool)
        .await?;
        let s: String = sqlx::query_scalar("SELECT secret FROM cluster_secret WHERE one = 1")
            .fetch_one(&self.pool)
            .await?;
        Ok(s.into_bytes())
    }

    /// The IP addresses of the nodes seen alive within `within_ms` (their advertised
    /// addresses; a name that is not an IP address is left out).
    pub async fn node_ips(&self, within_ms: i64) -> Result<HashSet<IpAddr>, sqlx::Error> {
        let addrs: Vec<String> =
            sqlx::query_scalar(&format!("SELECT addr FROM nodes WHERE seen_ms > {NOW_MS} - $1"))
                .bind(within_ms)
                .fetch_all(&self.pool)
                .await?;
        Ok(addrs
            .iter()
            .filter_map(|a| a.parse::<std::net::SocketAddr>().ok())
            .map(|a| a.ip())
            .collect())
    }

    /// Say this node is alive (and where it listens).
    pub async fn heartbeat(&self) -> Result<(), sqlx::Error> {
        sqlx::query(&format!(
            "INSERT INTO nodes (node, addr, seen_ms) VALUES ($1, $2, {NOW_MS}) \
             ON CONFLICT (node) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms"
        ))
        .bind(&self.node)
        .bind(&self.addr)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Take (or renew) the lease of `game`: `None` while another node holds it unexpired.
    pub async fn acquire(&self, game: &str) -> Result<Option<Lease>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO leases (game_id, node, epoch, expires_ms) VALUES ($1, '', 0, 0) ON CONFLICT DO NOTHING",
        )
        .bind(game)
        .execute(&mut *tx)
        .await?;
        let r = sqlx::query(&format!(
            "SELECT node, epoch, expires_ms, {NOW_MS} AS now_ms FROM leases WHERE game_id = $1 FOR UPDATE"
        ))
        .bind(game)
        .fetch_one(&mut *tx)
        .await?;
        let (node, epoch, expires, now): (String, i64, i64, i64) =
            (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?);
        let until = now + self.ttl_ms;
        let lease = if node == self.node && expires > now {
            sqlx::query("UPDATE leases SET expires_ms = $2 WHERE game_id = $1")
                .bind(game)
                .bind(until)
                .execute(&mut *tx)
                .await?;
            Some(Lease { epoch, expires_ms: until })
        } else if expires <= now {
            let epoch = epoch + 1;
            sqlx::query(
                "UPDATE leases SET node = $2, epoch = $3, expires_ms = $4 WHERE game_id = $1",
            )
            .bind(game)
            .bind(&self.node)
            .bind(epoch)
            .bind(until)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO lease_history (game_id, epoch, node, granted_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(game)
            .bind(epoch)
            .bind(&self.node)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            Some(Lease { epoch, expires_ms: until })
        } else {
            None
        };
        tx.commit().await?;
        Ok(lease)
    }

    /// Renew the leases of `held` (game, epoch granted); returns the games whose lease is lost
    /// (another epoch, another node): their tasks must stop.
    pub async fn renew(&self, held: &[(String, i64)]) -> Result<Vec<String>, sqlx::Error> {
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let games: Vec<&str> = held.iter().map(|(g, _)| g.as_str()).collect();
        let epochs: Vec<i64> = held.iter().map(|(_, e)| *e).collect();
        let kept: Vec<String> = sqlx::query_scalar(&format!(
            "UPDATE leases l SET expires_ms = {NOW_MS} + $2 FROM UNNEST($3::TEXT[], $4::BIGINT[]) AS u(g, e) \
             WHERE l.game_id = u.g AND l.epoch = u.e AND l.node = $1 RETURNING l.game_id"
        ))
        .bind(&self.node)
        .bind(self.ttl_ms)
        .bind(&games)
        .bind(&epochs)
        .fetch_all(&self.pool)
        .await?;
        let kept: std::collections::HashSet<String> = kept.into_iter().collect();
        Ok(held.iter().filter(|(g, _)| !kept.contains(g)).map(|(g, _)| g.clone()).collect())
    }

    /// End this node's lease of `game` now (its game finished or its task stopped).
    pub async fn release(&self, game: &str, epoch: i64) -> Result<(), sqlx::Error> {
        sqlx::query(&format!(
            "UPDATE leases SET expires_ms = {NOW_MS} WHERE game_id = $1 AND node = $2 AND epoch = $3"
        ))
        .bind(game)
        .bind(&self.node)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Who holds `game` unexpired (with the address its node last gave), if anyone.
    pub async fn owner(&self, game: &str) -> Result<Option<Owner>, sqlx::Error> {
        let r = sqlx::query(&format!(
            "SELECT l.node, n.addr, l.epoch, l.expires_ms FROM leases l LEFT JOIN nodes n ON n.node = l.node \
             WHERE l.game_id = $1 AND l.expires_ms > {NOW_MS}"
        ))
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        r.map(|r| {
            Ok(Owner {
                node: r.try_get(0)?,
                addr: r.try_get(1)?,
                epoch: r.try_get(2)?,
                expires_ms: r.try_get(3)?,
            })
        })
        .transpose()
    }

    /// Running games that no node holds (never leased, or their lease expired: a dead node's),
    /// oldest first, at most `limit`: a node with room takes them over.
    pub async fn orphans(&self, limit: u32) -> Result<Vec<String>, sqlx::Error> {
        sqlx::query_scalar(&format!(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
             WHERE g.status = 'running' AND (l.game_id IS NULL OR l.expires_ms <= {NOW_MS}) \
             ORDER BY g.created_at, g.id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
    }
}

/// Grants in `lease_history` that break the lease order: a game's epochs must be 1, 2, 3, …
/// with grant times that never go back. (A grant happens only under the lease row's lock and
/// only once the previous term expired on the database's clock, so an ordered history means
/// that no two nodes held the game at once.) Returned as (game, epoch). For the cluster test.
pub async fn disordered_grants(pool: &PgPool) -> Result<Vec<(String, i64)>, sqlx::Error> {
    // Epochs of a game must be 1, 2, 3, … with strictly increasing grant times.
    let rows = sqlx::query(
        "SELECT game_id, epoch FROM (SELECT game_id, epoch, granted_ms, \
         lag(epoch) OVER w AS pe, lag(granted_ms) OVER w AS pg FROM lease_history \
         WINDOW w AS (PARTITION BY game_id ORDER BY epoch)) h \
         WHERE (pe IS NULL AND epoch <> 1) OR (pe IS NOT NULL AND (epoch <> pe + 1 OR granted_ms < pg))",
    )
    .fetch_all(pool)
    .await?;
    rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
}

/// How a node of a cluster runs (`serve --node-id`, docs/deployment.md "Several nodes").
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The node's name (its id gets a random suffix per process).
    pub node: String,
    /// Where the other nodes reach this one (forwarded sockets); the listening address if unset.
    pub advertise: Option<String>,
    /// How long a lease lasts without renewal (renewed every quarter of it).
    pub lease_ms: u64,
    /// Orphaned games one node takes over per round at most.
    pub takeover_batch: u32,
}

impl Default for ClusterConfig {
    fn default() -> ClusterConfig {
        ClusterConfig { node: "node".into(), advertise: None, lease_ms: 10_000, takeover_batch: 16 }
    }
}

/// A game's lease as its task holds it: the epoch its log writes are fenced with, and the
/// signal that the node lost it (the task stops at once).
pub struct RoomLease {
    pub epoch: i64,
    pub lost: Arc<Notify>,
    pub node: Arc<Node>,
}

struct Held {
    epoch: i64,
    /// Local time until which the lease certainly holds: when the request that granted or last
    /// renewed it was sent, plus the lease's length, minus a margin. (The database started the
    /// lease no earlier than that request was sent, so the lease cannot end before this.)
    valid_until: Instant,
    lost: Arc<Notify>,
}

/// The timers of a game as stored by its owner (`game_timers`, PostgreSQL migration 3): the
/// time left, on the database's clock, of the server's timer and of the rules' clock, for the
/// position after `seq` log entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredTimers {
    pub seq: u64,
    pub deadline_left_ms: Option<i64>,
    pub clock_left_ms: Option<i64>,
}

/// A running node of a cluster: its leases and the loop that keeps them (heartbeat, renewal,
/// dropping games whose lease could not be renewed in time, taking over orphaned games).
pub struct Node {
    pub cluster: Cluster,
    held: Mutex<HashMap<String, Held>>,
    /// Set by tests (a node that stops renewing as a dead or cut-off one would).
    paused: AtomicBool,
    batch: u32,
    /// The cluster's key ([`Cluster::secret`]): a forwarded socket's client address is signed
    /// with it (`crate::forward`).
    pub secret: Vec<u8>,
    /// The IP addresses of live nodes, refreshed every round: their connections are not capped
    /// per address when accepted (each forwarded socket counts against its client's address
    /// instead, once its handshake is read: `crate::listen`).
    peers: std::sync::RwLock<HashSet<IpAddr>>,
}

impl Node {
    pub async fn join(
        pool: PgPool,
        config: &ClusterConfig,
        addr: &str,
    ) -> Result<Arc<Node>, sqlx::Error> {
        let addr = config.advertise.clone().unwrap_or_else(|| addr.to_string());
        let ttl = config.lease_ms.max(1) as i64;
        let cluster = Cluster::join(pool, &config.node, &addr, ttl).await?;
        tracing::info!(node = %cluster.node, %addr, lease_ms = ttl, "joined the cluster");
        let secret = cluster.secret().await?;
        let peers = cluster.node_ips(3 * ttl).await?;
        Ok(Arc::new(Node {
            cluster,
            held: Mutex::new(HashMap::new()),
            paused: AtomicBool::new(false),
            batch: config.takeover_batch.max(1),
            secret,
            peers: std::sync::RwLock::new(peers),
        }))
    }

    /// Whether `ip` is a live node's address (as of the last round).
    pub fn is_peer(&self, ip: IpAddr) -> bool {
        self.peers.read().unwrap_or_else(|p| p.into_inner()).contains(&ip)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn ttl(&self) -> Duration {
        Duration::from_millis(self.cluster.ttl_ms.max(0) as u64)
    }

    /// A fifth of the lease: a game is dropped this long before its lease could end.
    fn margin(&self) -> Duration {
        self.ttl() / 5
    }

    /// Take `game`'s lease for a task of this node (`None`: another node holds it).
    pub async fn acquire(self: &Arc<Self>, game: &str) -> Result<Option<RoomLease>, sqlx::Error> {
        let sent = Instant::now();
        let Some(l) = self.cluster.acquire(game).await? else { return Ok(None) };
        let valid_until = sent + self.ttl() - self.margin();
        let mut held = self.held();
        let lost = match held.get(game) {
            Some(h) if h.epoch == l.epoch => h.lost.clone(),
            _ => Arc::new(Notify::new()),
        };
        held.insert(game.to_string(), Held { epoch: l.epoch, valid_until, lost: lost.clone() });
        Ok(Some(RoomLease { epoch: l.epoch, lost, node: self.clone() }))
    }

    /// The game's task ended (finished, or the server stops): its lease ends now.
    pub fn release(self: &Arc<Self>, game: &str, epoch: i64) {
        let mut held = self.held();
        if held.get(game).is_some_and(|h| h.epoch == epoch) {
            held.remove(game);
            drop(held);
            let me = self.clone();
            let game = game.to_string();
            tokio::spawn(async move {
                if let Err(e) = me.cluster.release(&game, epoch).await {
                    tracing::warn!(%game, error = %e, "cannot release a lease (it will expire)");
                }
            });
        }
    }

    /// Release every lease now (a node stopping on SIGTERM hands its games over at once).
    pub async fn release_all(&self) {
        let all: Vec<(String, i64)> = self.held().drain().map(|(g, h)| (g, h.epoch)).collect();
        for (g, e) in all {
            let _ = self.cluster.release(&g, e).await;
        }
    }

    /// The database of the cluster (tests read the lease history through it).
    pub fn cluster_pool(&self) -> &PgPool {
        &self.cluster.pool
    }

    /// Games this node holds now.
    pub fn holds(&self) -> Vec<String> {
        let mut v: Vec<String> = self.held().keys().cloned().collect();
        v.sort();
        v
    }

    /// Stop (or restart) renewing leases and taking games over: the node then behaves as one
    /// cut off from the database (its games stop before their leases end). For tests.
    pub fn pause(&self, on: bool) {
        self.paused.store(on, Relaxed);
    }

    fn lose(&self, game: &str) {
        if let Some(h) = self.held().remove(game) {
            tracing::warn!(%game, epoch = h.epoch, "lease lost: the game's task stops");
            h.lost.notify_one();
        }
    }

    /// One round: heartbeat, renew, drop what could not be renewed in time, take over orphans.
    async fn round(self: &Arc<Self>, shared: &Arc<crate::Shared>) {
        let step = self.ttl() / 4;
        if !self.paused.load(Relaxed) {
            let _ = tokio::time::timeout(step, self.cluster.heartbeat()).await;
            if let Ok(Ok(ips)) =
                tokio::time::timeout(step, self.cluster.node_ips(3 * self.cluster.ttl_ms)).await
            {
                *self.peers.write().unwrap_or_else(|p| p.into_inner()) = ips;
            }
            let held: Vec<(String, i64)> =
                self.held().iter().map(|(g, h)| (g.clone(), h.epoch)).collect();
            let sent = Instant::now();
            match tokio::time::timeout(step, self.cluster.renew(&held)).await {
                Ok(Ok(lost)) => {
                    let until = sent + self.ttl() - self.margin();
                    {
                        let mut map = self.held();
                        for (g, e) in &held {
                            if let Some(h) = map.get_mut(g)
                                && h.epoch == *e
                                && !lost.contains(g)
                            {
                                h.valid_until = h.valid_until.max(until);
                            }
                        }
                    }
                    for g in lost {
                        self.lose(&g);
                    }
                }
                Ok(Err(e)) => tracing::warn!(error = %e, "cannot renew leases"),
                Err(_) => tracing::warn!("renewing leases timed out"),
            }
        }
        // Whatever was not renewed in time is dropped before its lease can end.
        let now = Instant::now();
        let late: Vec<String> = self
            .held()
            .iter()
            .filter(|(_, h)| h.valid_until <= now)
            .map(|(g, _)| g.clone())
            .collect();
        for g in late {
            self.lose(&g);
        }
        if self.paused.load(Relaxed) {
            return;
        }
        let orphans = match tokio::time::timeout(step, self.cluster.orphans(self.batch)).await {
            Ok(Ok(o)) => o,
            _ => return,
        };
        let skipped = shared.faults.skipped();
        for id in orphans {
            if skipped.contains_key(&id) {
                continue;
            }
            match shared.room(&id).await {
                Ok(_) => tracing::info!(game = %id, node = %self.cluster.node, "took over a game"),
                Err(e) => tracing::debug!(game = %id, error = %e, "no takeover"),
            }
        }
    }

    /// The node's loop, every quarter of a lease, until the server stops.
    pub async fn run(self: Arc<Self>, shared: Arc<crate::Shared>) {
        let mut stop = shared.shutdown.clone();
        let mut tick = tokio::time::interval(self.ttl() / 4);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => self.round(&shared).await,
                _ = crate::stopped(&mut stop) => break,
            }
        }
    }

    /// Store a game's timers, fenced by its lease (a stale owner changes nothing).
    pub async fn set_timers(
        &self,
        game: &str,
        epoch: i64,
        t: &StoredTimers,
    ) -> Result<bool, sqlx::Error> {
        let r = sqlx::query(&format!(
            "INSERT INTO game_timers (game_id, seq, deadline_ms, clock_ms) \
             SELECT $1, $2, {NOW_MS} + $3, {NOW_MS} + $4 FROM leases \
             WHERE game_id = $1 AND epoch = $5 AND node = $6 \
             ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, \
             deadline_ms = excluded.deadline_ms, clock_ms = excluded.clock_ms"
        ))
        .bind(game)
        .bind(t.seq as i64)
        .bind(t.deadline_left_ms)
        .bind(t.clock_left_ms)
        .bind(epoch)
        .bind(&self.cluster.node)
        .execute(&self.cluster.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// A game's stored timers, as time left now on the database's clock.
    pub async fn timers(&self, game: &str) -> Result<Option<StoredTimers>, sqlx::Error> {
        let r = sqlx::query(&format!(
            "SELECT seq, deadline_ms - {NOW_MS}, clock_ms - {NOW_MS} FROM game_timers WHERE game_id = $1"
        ))
        .bind(game)
        .fetch_optional(&self.cluster.pool)
        .await?;
        r.map(|r| {
            let seq: i64 = r.try_get(0)?;
            Ok(StoredTimers {
                seq: seq as u64,
                deadline_left_ms: r.try_get(1)?,
                clock_left_ms: r.try_get(2)?,
            })
        })
        .transpose()
    }
}
