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
