//! `GET /api/games/{id}/steps`: a game as a list of steps for the client's replay mode — the
//! view after every log entry and the events that entry caused, computed by replaying the log
//! through the engine (the browser decides no rule and cannot replay a game itself).
//!
//! A finished game is shown to everyone (omniscient views, every event, the actions). A running
//! game is shown as a spectator sees it: public events and views only, and each entry names
//! its seat but not its action (plots stay secret).
//!
//! Cost: a finished game is replayed once (off the async threads) and its steps are kept as
//! JSON text, one allocation per game ([`Doc`]), in a cache bounded by the heap its entries
//! really hold ([`Cache`], least recently used out first; tests/steps_heap.rs); requests
//! for a game being computed wait for that one computation. A running game's steps are cached
//! by log length (a new action makes a new entry; the old ones age out of the cache). Answers are pages
//! (`?from=&limit=`, at most `steps_page_bytes` of steps, at least one step) and `?views=false`
//! leaves the views out (the table's history needs only the events). docs/protocol.md.

use crate::Shared;
use crate::error::ApiError;
use crate::store::Status;
use engine::{LogEntry, Observer};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// A game's steps, computed once, stored compactly: all the JSON text in one allocation of
/// exactly its length (the head, then each step's opening and view), and where each piece
/// ends. Kept this way because a `String` per step grew by doubling left up to half of each
/// allocation unused and uncounted (docs/benchmarks.md "Soak": the cache's resident cost).
pub struct Doc {
    /// `{"v":…,"id":…,…,"outcome":…` (not closed), then for every step
    /// `{"seq":…,"entry":…,"events":[…]` (not closed) and its view.
    text: Box<str>,
    /// Where the head ends.
    head: usize,
    /// For each step: where its opening ends and where its view ends (each step starts where
    /// the one before ends).
    ends: Box<[(usize, usize)]>,
}

/// The heap a cache entry costs beside its document's text and offsets, per entry: the `Doc`
/// (in its `Arc`), the `OnceCell` (in its `Arc`), the map's slot and control byte, and the
/// allocator's header of each of those blocks and of the text, the offsets and the key (glibc:
/// 8 bytes and rounding to 16 per block, counted as 16). The map's slot is counted twice: its
/// table doubles when it grows, so up to half of it is empty.
const ENTRY_OVERHEAD: usize = 2 * 16
    + std::mem::size_of::<Doc>()
    + std::mem::size_of::<OnceCell<Arc<Doc>>>()
    + 2 * (std::mem::size_of::<(String, Slot)>() + 1)
    + 5 * 16;

impl Doc {
    fn builder(head: &str) -> DocBuilder {
        DocBuilder { text: head.to_string(), head: head.len(), ends: Vec::new() }
    }

    /// The heap this document holds: its text and its offsets, exactly as allocated.
    pub fn heap_bytes(&self) -> usize {
        self.text.len() + std::mem::size_of_val::<[(usize, usize)]>(&self.ends)
    }

    /// What a cache entry for it costs, with the key `key`.
    pub fn entry_bytes(&self, key: &str) -> usize {
        self.heap_bytes() + key.len() + ENTRY_OVERHEAD
    }

    /// How many steps.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Step `i`'s opening (`{"seq":…,"entry":…,"events":[…]`, not closed) and view.
    fn step(&self, i: usize) -> (&str, &str) {
        let start = if i == 0 { self.head } else { self.ends[i - 1].1 };
        let (open, view) = self.ends[i];
        (&self.text[start..open], &self.text[open..view])
    }
}

/// A [`Doc`] being written.
struct DocBuilder {
    text: String,
    head: usize,
    ends: Vec<(usize, usize)>,
}

impl DocBuilder {
    fn step(&mut self, seq: usize, entry: &Value, events: &[Value], view: &str) {
        use std::fmt::Write;
        let _ = write!(
            self.text,
            "{{\"seq\":{seq},\"entry\":{entry},\"events\":{}",
            Value::Array(events.to_vec())
        );
        let open = self.text.len();
        self.text.push_str(view);
        self.ends.push((open, self.text.len()));
    }

    /// The document, its text and offsets moved into allocations of exactly their length.
    fn finish(self) -> Doc {
        Doc {
            text: self.text.into_boxed_str(),
            head: self.head,
            ends: self.ends.into_boxed_slice(),
        }
    }
}

/// Which steps to answer with.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub from: usize,
    pub limit: usize,
    pub views: bool,
}

impl Page {
    /// `from` (default 0), `limit` (default: as many as fit), `views` (`true`/`false`, default true).
    pub fn parse(query: Option<&str>) -> Result<Page, ApiError> {
        let mut p = Page { from: 0, limit: usize::MAX, views: true };
        for kv in query.unwrap_or("").split('&').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let num = || {
                v.parse::<usize>().map_err(|_| {
                    ApiError::bad("bad_query", format!("{k} is a whole number, not {v:?}"))
                })
            };
            match k {
                "from" => p.from = num()?,
                "limit" => p.limit = num()?.max(1),
                "views" => {
                    p.views = match v {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(ApiError::bad("bad_query", "views is true or false")),
                    }
                }
                _ => {}
            }
        }
        Ok(p)
    }
}

type Cell = Arc<OnceCell<Arc<Doc>>>;

/// A cache entry: the cell, when it was last used, and the bytes counted for it (0 until its
/// computation is counted: only counted entries are evicted, so what is taken off the total
/// is always what was added to it).
type Slot = (Cell, u64, usize);

/// Finished games' steps by game id (running games' by id and log length), bounded by the bytes
/// the entries hold on the heap ([`Doc::entry_bytes`]: text, offsets, key and bookkeeping).
pub struct Cache {
    cap: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    cells: HashMap<String, Slot>,
    bytes: usize,
    tick: u64,
}

impl Cache {
    pub fn new(cap: usize) -> Cache {
        Cache { cap, inner: Mutex::new(Inner::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The cell of a game (new and empty if unknown); marks it used.
    pub fn cell(&self, id: &str) -> Cell {
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let e = inner.cells.entry(id.to_string()).or_insert_with(|| (Cell::default(), 0, 0));
        e.1 = tick;
        e.0.clone()
    }

    /// A game's steps were computed: count them, and evict the least recently used others
    /// while over the cap (a document larger than the whole cap is not kept).
    pub fn computed(&self, id: &str) {
        let mut inner = self.lock();
        let Some(slot) = inner.cells.get_mut(id) else { return };
        let Some(bytes) = slot.0.get().filter(|_| slot.2 == 0).map(|d| d.entry_bytes(id)) else {
            return;
        };
        slot.2 = bytes;
        inner.bytes += bytes;
        while inner.bytes > self.cap {
            let Some(victim) = inner
                .cells
                .iter()
                .filter(|(_, (_, _, counted))| *counted > 0)
                .min_by_key(|(k, (_, t, _))| (k.as_str() == id, *t))
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((_, _, counted)) = inner.cells.remove(&victim) {
                inner.bytes -= counted;
            }
            if victim == id {
                break;
            }
        }
    }

    fn forget_failed(&self, id: &str) {
        let mut inner = self.lock();
        if inner.cells.get(id).is_some_and(|(c, _, _)| !c.initialized()) {
            inner.cells.remove(id);
        }
    }

    /// Bytes of steps held.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// Entries in the cache, and how many of them hold no counted steps (being computed, or
    /// left behind) (gauges of `/metrics`).
    pub fn entries(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.cells.len(), inner.cells.values().filter(|(_, _, counted)| *counted == 0).count())
    }
}

/// The steps of a game, one page of them, as JSON text.
pub async fn steps(shared: &Arc<Shared>, id: &str, page: Page) -> Result<String, ApiError> {
    let row = shared.store.game(id).await?.ok_or(ApiError::NotFound)?;
    if row.status == Status::Open {
        return Err(ApiError::conflict("not_started", "the game has not started yet"));
    }
    // A finished game is cached under its id; a running one under its id and log length (as a
    // spectator sees it), so spectators asking between two actions share one computation.
    let log = shared.store.log(id).await.map_err(|e| shared.unreadable(id, e))?;
    let key = match row.status {
        Status::Finished => id.to_string(),
        _ => format!("{id}#{}", log.len()),
    };
    let cell = shared.steps_cache.cell(&key);
    let mut computed = false;
    let r = cell
        .get_or_try_init(|| {
            computed = true;
            compute(shared.clone(), row, log)
        })
        .await
        .cloned();
    match &r {
        Ok(_) if computed => shared.steps_cache.computed(&key),
        Ok(_) => {
            shared.metrics.steps_cache_hits.fetch_add(1, Relaxed);
        }
        Err(_) => shared.steps_cache.forget_failed(&key),
    }
    let doc = r?;
    Ok(render(&doc, page, shared.config.limits.steps_page_bytes))
}

fn render(doc: &Doc, page: Page, budget: usize) -> String {
    let total = doc.len();
    let from = page.from.min(total);
    let head = &doc.text[..doc.head];
    let mut out = String::with_capacity(head.len() + 256);
    let mut body = String::new();
    let mut end = from;
    for (open, view) in (from..total).map(|i| doc.step(i)) {
        let len = open.len() + if page.views { view.len() + 9 } else { 0 } + 2;
        if end - from >= page.limit || (end > from && body.len() + len > budget) {
            break;
        }
        if end > from {
            body.push(',');
        }
        body.push_str(open);
        if page.views {
            body.push_str(",\"view\":");
            body.push_str(view);
        }
        body.push('}');
        end += 1;
    }
    let next = if end < total { end.to_string() } else { "null".into() };
    out.push_str(head);
    out.push_str(&format!(",\"total\":{total},\"from\":{from},\"next\":{next},\"steps\":["));
    out.push_str(&body);
    out.push_str("]}");
    out
}

/// Replay the stored log (off the async threads) into steps.
async fn compute(
    shared: Arc<Shared>,
    row: crate::store::GameRow,
    log: Vec<crate::store::Entry>,
) -> Result<Arc<Doc>, ApiError> {
    shared.metrics.steps_computed.fetch_add(1, Relaxed);
    tokio::task::spawn_blocking(move || build(&shared, &row, &log))
        .await
        .map_err(|e| ApiError::Internal(format!("steps: {e}")))?
}

fn build(
    shared: &Shared,
    row: &crate::store::GameRow,
    log: &[crate::store::Entry],
) -> Result<Arc<Doc>, ApiError> {
    let id = row.id.as_str();
    let kind = shared
        .registry
        .get(&row.game)
        .ok_or_else(|| ApiError::Unreadable(format!("game {id}: unknown game kind {}", row.game)))
        .inspect_err(|e| shared.note_unreadable(id, e))?;
    replay(kind, row, log, &|e| shared.note_unreadable(id, e)).map(Arc::new)
}

/// A game's steps: its log replayed through the engine from its setup and seed (`note` is told
/// of a setup that does not start).
pub fn replay(
    kind: &crate::games::GameKind,
    row: &crate::store::GameRow,
    log: &[crate::store::Entry],
    note: &dyn Fn(&ApiError),
) -> Result<Doc, ApiError> {
    let finished = row.status == Status::Finished;
    let observer = if finished { Observer::Omniscient } else { Observer::Spectator };
    let id = row.id.as_str();
    let mut g = kind
        .start(&row.setup, row.seed)
        .map_err(|e| ApiError::Unreadable(format!("game {id}: setup: {e}")))
        .inspect_err(|e| note(e))?;
    let static_text = g.static_text();
    let static_data: Value = serde_json::from_str(&static_text).unwrap_or(Value::Null);
    let head = json!({
        "v": protocol::VERSION,
        "id": row.id,
        "game": row.game,
        "status": row.status.as_str(),
        "setup": row.setup,
        "static_id": protocol::static_id(&static_text),
        "static": static_data,
        "seats": crate::lobby::info(row).seats,
        "outcome": row.outcome,
    })
    .to_string();
    let mut doc = Doc::builder(head.strip_suffix('}').unwrap_or(&head));
    doc.step(0, &Value::Null, &[], &g.view_text(observer));
    for (i, e) in log.iter().enumerate() {
        let (events, entry) = match e {
            LogEntry::Act { seat, action } => {
                let a = g.apply_json(*seat, action).map_err(|err| {
                    ApiError::Unreadable(format!(
                        "game {id}: log entry {i} does not replay: {err:?}"
                    ))
                })?;
                let entry = if finished {
                    json!({ "seat": seat, "action": action })
                } else {
                    json!({ "seat": seat })
                };
                (a.events, entry)
            }
            LogEntry::TimeUp => {
                let ev = g.time_up().map_err(|err| {
                    ApiError::Unreadable(format!(
                        "game {id}: log entry {i} does not replay: {err:?}"
                    ))
                })?;
                (ev, json!({ "time_up": true }))
            }
        };
        let events: Vec<Value> =
            events.into_iter().filter(|(a, _)| a.admits(observer)).map(|(_, v)| v).collect();
        doc.step(i + 1, &entry, &events, &g.view_text(observer));
    }
    Ok(doc.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(n: usize) -> Doc {
        let mut d = Doc::builder("{\"id\":\"x\"");
        for i in 0..n {
            d.text.push_str(&format!("{{\"seq\":{i}"));
            let open = d.text.len();
            d.text.push_str(&format!("\"v{i}\""));
            d.ends.push((open, d.text.len()));
        }
        d.finish()
    }

    #[test]
    fn pages_are_bounded_and_chain() {
        let d = doc(10);
        let all: Value =
            serde_json::from_str(&render(&d, Page::parse(None).unwrap(), 1 << 20)).unwrap();
        assert_eq!((all["total"].as_u64(), all["next"].clone()), (Some(10), Value::Null));
        assert_eq!(all["steps"][9], json!({"seq": 9, "view": "v9"}));
        // A byte budget of about three steps: pages of three, chained by `next`.
        let one = r#"{"seq":0,"view":"v0"}"#.len();
        let mut from = 0;
        let mut seen = Vec::new();
        loop {
            let p = Page { from, limit: usize::MAX, views: true };
            let v: Value = serde_json::from_str(&render(&d, p, 3 * one + 2)).unwrap();
            let got = v["steps"].as_array().unwrap();
            assert!(!got.is_empty() && got.len() <= 3, "{v}");
            seen.extend(got.iter().map(|s| s["seq"].as_u64().unwrap()));
            match v["next"].as_u64() {
                Some(n) => from = n as usize,
                None => break,
            }
        }
        assert_eq!(seen, (0..10).collect::<Vec<u64>>());
        // A budget smaller than one step still answers one step.
        let v: Value =
            serde_json::from_str(&render(&d, Page { from: 4, ..Page::parse(None).unwrap() }, 1))
                .unwrap();
        assert_eq!((v["steps"].as_array().unwrap().len(), v["next"].as_u64()), (1, Some(5)));
        let lean = Page::parse(Some("views=false&limit=2")).unwrap();
        let v: Value = serde_json::from_str(&render(&d, lean, 1 << 20)).unwrap();
        assert_eq!(v["steps"], json!([{"seq": 0}, {"seq": 1}]));
        assert!(Page::parse(Some("from=x")).is_err());
    }

    #[test]
    fn the_cache_stays_under_its_cap() {
        // Room for two documents' entries, not three.
        let one = doc(3).entry_bytes("a");
        assert!(one > doc(3).heap_bytes());
        let c = Cache::new(one * 5 / 2);
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            let cell = c.cell(id);
            assert!(cell.set(Arc::new(doc(3))).is_ok());
            c.computed(id);
            assert!(c.bytes() <= one * 5 / 2, "after {i}: {}", c.bytes());
        }
        assert_eq!(c.bytes(), 2 * one);
        // "a" was the least recently used: gone; "b" and "c" kept.
        assert!(!c.cell("a").initialized());
        assert!(c.cell("c").initialized());
    }

    #[test]
    fn a_document_not_yet_counted_is_not_evicted() {
        // "b" is computed (the oldest) but its computation not yet counted when "a" and "c"
        // push the cache over its cap: only counted entries go, so the total never loses bytes
        // it did not gain.
        let one = doc(3).entry_bytes("a");
        let c = Cache::new(one * 3 / 2);
        assert!(c.cell("b").set(Arc::new(doc(3))).is_ok());
        for id in ["a", "c"] {
            assert!(c.cell(id).set(Arc::new(doc(3))).is_ok());
            c.computed(id);
        }
        assert_eq!(c.bytes(), one);
        c.computed("b");
        c.computed("b");
        assert_eq!(c.bytes(), one);
        assert!(c.cell("b").initialized());
        assert!(!c.cell("a").initialized());
    }
}
