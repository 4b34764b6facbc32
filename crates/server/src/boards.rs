//! Boards saved on the server (docs/editors.md): the tracks, courses and rinks players make in
//! the browser's editors, each with an owner (an account: guests may not save), a name, a game
//! and numbered versions (an edit makes a new version; old versions are kept), listed in a
//! public gallery when marked public, drawn by the registry's renderer, and playable: a lobby
//! request's `board` may say `saved:ID` or `saved:ID@VERSION`, and the game's setup holds the
//! board itself, so that editing the board later never changes a game made on it.
//!
//! The server checks nothing itself: every text goes through the game crate's loader and
//! checker (`games::Kind::inspect`, `Kind::make_setup_on_board`). Behind its own trait,
//! [`BoardStore`], reached through [`crate::store::Store::boards`]; one migration
//! ([`migration`]).

use crate::Shared;
use crate::error::ApiError;
use crate::http::{Body, Caller, Peer};
use crate::schema::{MigrationFut, sql};
use crate::store::{BoxFut, Identity, SqliteStore, StoreError};
use axum::Json;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::Row;
use std::sync::Arc;

/// The largest board file, in bytes (the biggest shipped track, `factory`, is under 4 KiB).
pub const MAX_BOARD_BYTES: usize = 32 * 1024;
/// The most cells a board may have (a track's hexes, a course's squares, a rink's hexes; the
/// game crate counts them).
pub const MAX_BOARD_CELLS: u64 = 4096;
/// The most boards one account may own.
pub const BOARDS_PER_OWNER: u64 = 50;
/// The most versions one board may have.
pub const VERSIONS_PER_BOARD: u32 = 200;
/// The longest board name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// The most boards one listing answers.
pub const LIST_LIMIT: u32 = 100;
/// The difficulty estimate's games per board version (docs/editors.md "Difficulty").
pub const DIFFICULTY_GAMES: u32 = 4;
/// The difficulty estimate's turns per game: a game not finished by then counts as unfinished.
pub const DIFFICULTY_MAX_TURNS: u32 = 40;
/// The difficulty estimate's time for all its games, in seconds.
pub const DIFFICULTY_SECONDS: u64 = 10;
/// The most estimates a server keeps in memory (then the oldest half are forgotten).
pub const DIFFICULTY_CACHE: usize = 1024;

/// A board version: its id and version number.
type Version = (String, u32);
/// Estimates by board version (`None` while computing) and the versions in insertion order.
type Estimates =
    (std::collections::HashMap<Version, Option<Value>>, std::collections::VecDeque<Version>);

/// The bots' difficulty estimates (docs/editors.md "Difficulty"): computed in the background on
/// the blocking pool, one at a time per server, kept per board version.
pub struct Difficulty {
    /// By `(board id, version)`: `None` while computing, then the answer; in insertion order.
    cache: std::sync::Mutex<Estimates>,
    /// Held while an estimate is computed: one at a time.
    running: Arc<tokio::sync::Semaphore>,
    /// Woken whenever an estimate is done (for `?wait=true`).
    done: tokio::sync::Notify,
}

impl Default for Difficulty {
    fn default() -> Difficulty {
        Difficulty::new()
    }
}

impl Difficulty {
    pub fn new() -> Difficulty {
        Difficulty {
            cache: Default::default(),
            running: Arc::new(tokio::sync::Semaphore::new(1)),
            done: tokio::sync::Notify::new(),
        }
    }

    fn get(&self, key: &(String, u32)) -> Option<Option<Value>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).0.get(key).cloned()
    }

    fn put(&self, key: (String, u32), v: Option<Value>) {
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *c;
        if map.insert(key.clone(), v).is_none() {
            order.push_back(key);
        }
        while order.len() > DIFFICULTY_CACHE {
            // Forget the oldest finished estimates (a running one is kept).
            let Some(k) = order.pop_front() else { break };
            if map.get(&k).is_some_and(Option::is_none) {
                order.push_back(k);
                if order.iter().all(|k| map.get(k).is_some_and(Option::is_none)) {
                    break;
                }
            } else {
                map.remove(&k);
            }
        }
    }
}

/// The migration: `boards`, one row per version of a board.
pub fn migration(c: &mut sqlx::SqliteConnection) -> MigrationFut<'_> {
    sql(
        c,
        &[
            "CREATE TABLE boards (id TEXT NOT NULL, version INTEGER NOT NULL, owner TEXT NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, public INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL DEFAULT (unixepoch()), PRIMARY KEY (id, version))",
            "CREATE INDEX boards_owner ON boards (owner, id)",
            "CREATE INDEX boards_public ON boards (public, game)",
        ],
    )
}

/// One version of a saved board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardRow {
    pub id: String,
    pub version: u32,
    /// The owner's identity.
    pub owner: String,
    /// The owner's display name (filled in when read).
    #[serde(default)]
    pub owner_name: String,
    pub game: String,
    pub name: String,
    /// The file, in the game's board format (docs/bumping-bots-tracks.md,
    /// docs/roborally-boards.md, docs/autoscooter.md): exactly what `robodrome board check`
    /// reads. Empty in listings.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub text: String,
    pub public: bool,
    /// Unix seconds.
    pub created_at: i64,
}

pub trait BoardStore: Send + Sync {
    /// Store a new board (version 1) or a new version of `row.id`; returns the version given.
    fn save_board<'a>(&'a self, row: &'a BoardRow) -> BoxFut<'a, u32>;
    /// A board's version (the latest when `None`).
    fn board<'a>(&'a self, id: &'a str, version: Option<u32>) -> BoxFut<'a, Option<BoardRow>>;
    /// The latest version of each board `owner` owns (no text), newest first.
    fn boards_of<'a>(&'a self, owner: &'a str, limit: u32) -> BoxFut<'a, Vec<BoardRow>>;
    /// The latest version of each public board (no text), of one game or all, newest first.
    fn gallery<'a>(&'a self, game: Option<&'a str>, limit: u32) -> BoxFut<'a, Vec<BoardRow>>;
    /// How many boards `owner` owns.
    fn board_count<'a>(&'a self, owner: &'a str) -> BoxFut<'a, u64>;
}

fn board_of(r: &sqlx::sqlite::SqliteRow) -> Result<BoardRow, StoreError> {
    Ok(BoardRow {
        id: r.try_get("id")?,
        version: r.try_get::<i64, _>("version")? as u32,
        owner: r.try_get("owner")?,
        owner_name: r.try_get::<Option<String>, _>("owner_name")?.unwrap_or_default(),
        game: r.try_get("game")?,
        name: r.try_get("name")?,
        text: r.try_get("text")?,
        public: r.try_get::<i64, _>("public")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

/// The latest version of each board, with its owner's name.
const LATEST: &str = "SELECT b.id, b.version, b.owner, i.name AS owner_name, b.game, b.name, '' AS text, b.public, b.created_at \
     FROM boards b LEFT JOIN identities i ON i.id = b.owner \
     WHERE b.version = (SELECT MAX(version) FROM boards x WHERE x.id = b.id)";

impl BoardStore for SqliteStore {
    fn save_board<'a>(&'a self, row: &'a BoardRow) -> BoxFut<'a, u32> {
        Box::pin(async move {
            let r = sqlx::query(
                "INSERT INTO boards (id, version, owner, game, name, text, public) \
                 SELECT ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ?, ? FROM boards WHERE id = ? \
                 RETURNING version",
            )
            .bind(&row.id)
            .bind(&row.owner)
            .bind(&row.game)
            .bind(&row.name)
            .bind(&row.text)
            .bind(i64::from(row.public))
            .bind(&row.id)
            .fetch_one(self.writer())
            .await?;
            Ok(r.try_get::<i64, _>(0)? as u32)
        })
    }

    fn board<'a>(&'a self, id: &'a str, version: Option<u32>) -> BoxFut<'a, Option<BoardRow>> {
        Box::pin(async move {
            let q = "SELECT b.*, i.name AS owner_name FROM boards b LEFT JOIN identities i ON i.id = b.owner WHERE b.id = ?";
            let r = match version {
                Some(v) => {
                    sqlx::query(&format!("{q} AND b.version = ?"))
                        .bind(id)
                        .bind(i64::from(v))
                        .fetch_optional(self.reader())
                        .await?
                }
                None => {
                    sqlx::query(&format!("{q} ORDER BY b.version DESC LIMIT 1"))
                        .bind(id)
                        .fetch_optional(self.reader())
                        .await?
                }
            };
            r.as_ref().map(board_of).transpose()
        })
    }

    fn boards_of<'a>(&'a self, owner: &'a str, limit: u32) -> BoxFut<'a, Vec<BoardRow>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "{LATEST} AND b.owner = ? ORDER BY b.created_at DESC, b.id LIMIT ?"
            ))
            .bind(owner)
            .bind(i64::from(limit))
            .fetch_all(self.reader())
            .await?;
            rows.iter().map(board_of).collect()
        })
    }

    fn gallery<'a>(&'a self, game: Option<&'a str>, limit: u32) -> BoxFut<'a, Vec<BoardRow>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "{LATEST} AND b.public = 1 AND (?1 IS NULL OR b.game = ?1) ORDER BY b.created_at DESC, b.id LIMIT ?2"
            ))
            .bind(game)
            .bind(i64::from(limit))
            .fetch_all(self.reader())
            .await?;
            rows.iter().map(board_of).collect()
        })
    }

    fn board_count<'a>(&'a self, owner: &'a str) -> BoxFut<'a, u64> {
        Box::pin(async move {
            let n: i64 =
                sqlx::query_scalar("SELECT COUNT(DISTINCT id) FROM boards WHERE owner = ?")
                    .bind(owner)
                    .fetch_one(self.reader())
                    .await?;
            Ok(n as u64)
        })
    }
}

/// A lobby request's `board` naming a saved board: `saved:ID` (its latest version) or
/// `saved:ID@VERSION`. `None`: a shipped board's id.
pub fn saved_ref(board: &str) -> Option<Result<(String, Option<u32>), ApiError>> {
    let rest = board.strip_prefix("saved:")?;
    let bad = || {
        ApiError::bad(
            "bad_board",
            format!("a saved board is saved:ID or saved:ID@VERSION, not {board:?}"),
        )
    };
    Some(match rest.split_once('@') {
        None if valid_id(rest) => Ok((rest.to_string(), None)),
        Some((id, v)) if valid_id(id) => match v.parse::<u32>() {
            Ok(v) if v > 0 => Ok((id.to_string(), Some(v))),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    })
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Shared {
    fn board_store(&self) -> Result<&dyn BoardStore, ApiError> {
        self.store.boards().ok_or_else(|| {
            ApiError::conflict("no_boards", "this server's store keeps no saved boards")
        })
    }

    /// Saving needs an account (a guest's boards would be lost with its cookie): 403
    /// `account_required` otherwise.
    async fn board_owner(&self, who: &Identity) -> Result<(), ApiError> {
        let acc = self.store.accounts();
        let ok = match acc {
            Some(acc) => acc
                .account(&who.id)
                .await?
                .is_some_and(|a| a.username.is_some() && !a.deleted && !a.bot),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(ApiError::AccountRequired(
                "only an account may save boards: make one (POST /api/account) and sign in".into(),
            ))
        }
    }

    /// The game crate's live answer about a board text: findings (with cells where the game
    /// knows them), computed data, `size`. Refuses unknown games and over-long texts.
    pub fn inspect_board(&self, game: &str, text: &str) -> Result<(Value, bool), ApiError> {
        let kind = self.registry.get(game).ok_or_else(|| {
            ApiError::bad(
                "unknown_game",
                format!("unknown game {game:?} (known: {:?})", self.registry.names()),
            )
        })?;
        if text.len() > MAX_BOARD_BYTES {
            return Err(ApiError::bad(
                "board_too_large",
                format!("a board file is at most {MAX_BOARD_BYTES} bytes, this one {}", text.len()),
            ));
        }
        let mut answer = kind.inspect(text);
        let errors = answer["findings"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x["severity"] == "error"));
        if let Some(n) = answer["size"].as_u64()
            && n > MAX_BOARD_CELLS
        {
            return Err(ApiError::bad(
                "board_too_large",
                format!("a board has at most {MAX_BOARD_CELLS} cells, this one {n}"),
            ));
        }
        answer["ok"] = (!errors).into();
        Ok((answer, !errors))
    }

    /// Check a text for saving: no error, within the limits; `board_invalid` with the findings.
    fn checked(&self, game: &str, text: &str) -> Result<(), ApiError> {
        let (answer, ok) = self.inspect_board(game, text)?;
        if ok {
            return Ok(());
        }
        let errors: Vec<String> = answer["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["severity"] == "error")
            .map(|f| match (f["line"].as_u64(), f["column"].as_u64()) {
                (Some(l), Some(c)) => {
                    format!("line {l}, column {c}: {}", f["message"].as_str().unwrap_or(""))
                }
                _ => f["message"].as_str().unwrap_or("").to_string(),
            })
            .collect();
        Err(ApiError::bad("board_invalid", format!("the board is refused: {}", errors.join("; "))))
    }

    fn checked_name(name: &str) -> Result<String, ApiError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
            return Err(ApiError::bad(
                "bad_name",
                format!("a board's name has 1 to {MAX_NAME_CHARS} characters"),
            ));
        }
        Ok(name.to_string())
    }

    /// `POST /api/boards`: a new board, version 1.
    pub async fn create_board(&self, who: &Identity, req: NewBoard) -> Result<BoardRow, ApiError> {
        self.board_owner(who).await?;
        let store = self.board_store()?;
        let name = Self::checked_name(&req.name)?;
        self.checked(&req.game, &req.text)?;
        if store.board_count(&who.id).await? >= BOARDS_PER_OWNER {
            return Err(ApiError::TooMany(
                "too_many_boards",
                format!("an account may own at most {BOARDS_PER_OWNER} boards"),
                None,
            ));
        }
        let mut row = BoardRow {
            id: crate::lobby::random_hex(8)?,
            version: 0,
            owner: who.id.clone(),
            owner_name: who.name.clone(),
            game: req.game,
            name,
            text: req.text,
            public: req.public,
            created_at: 0,
        };
        row.version = self.write(store.save_board(&row)).await?;
        Ok(store.board(&row.id, Some(row.version)).await?.unwrap_or(row))
    }

    /// `PUT /api/boards/{id}`: a new version of the caller's board (the game never changes).
    pub async fn update_board(
        &self,
        who: &Identity,
        id: &str,
        req: BoardEdit,
    ) -> Result<BoardRow, ApiError> {
        self.board_owner(who).await?;
        let store = self.board_store()?;
        let old = store.board(id, None).await?.ok_or_else(no_board)?;
        if old.owner != who.id {
            return Err(ApiError::Forbidden("only its owner may edit a board".into()));
        }
        if old.version >= VERSIONS_PER_BOARD {
            return Err(ApiError::TooMany(
                "too_many_versions",
                format!(
                    "a board has at most {VERSIONS_PER_BOARD} versions: save it as a new board"
                ),
                None,
            ));
        }
        let name = match &req.name {
            Some(n) => Self::checked_name(n)?,
            None => old.name.clone(),
        };
        let text = req.text.unwrap_or_else(|| old.text.clone());
        self.checked(&old.game, &text)?;
        let row = BoardRow { name, text, public: req.public.unwrap_or(old.public), ..old };
        let v = self.write(store.save_board(&row)).await?;
        Ok(store.board(id, Some(v)).await?.unwrap_or(row))
    }

    /// A saved board's text for a new game of `game`: anyone holding its id may play it.
    pub async fn saved_board_text(
        &self,
        game: &str,
        id: &str,
        version: Option<u32>,
    ) -> Result<BoardRow, ApiError> {
        let row = self.board_store()?.board(id, version).await?.ok_or_else(no_board)?;
        if row.game != game {
            return Err(ApiError::bad(
                "bad_board",
                format!("board {id} is a {} board, not a {game} one", row.game),
            ));
        }
        Ok(row)
    }
}

fn no_board() -> ApiError {
    ApiError::Missing("no_such_board", "no such board (or version)".into())
}

/// `POST /api/boards`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBoard {
    pub game: String,
    pub name: String,
    pub text: String,
    #[serde(default)]
    pub public: bool,
}

/// `PUT /api/boards/{id}`: what changes (absent: as before).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardEdit {
    pub name: Option<String>,
    pub text: Option<String>,
    pub public: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Validate {
    game: String,
    text: String,
}

#[derive(Deserialize)]
struct VersionQuery {
    version: Option<u32>,
}

#[derive(Deserialize)]
struct ListQuery {
    /// `me` (the caller's boards) or `gallery` (public boards).
    owner: String,
    game: Option<String>,
    limit: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryIt {
    version: Option<u32>,
    /// Bots beside the caller (default: the fewest the game needs, at least 1).
    bots: Option<usize>,
    /// The bots' strength (default `heuristic`).
    bot: Option<String>,
}

type AppState = State<Arc<Shared>>;

/// The board routes (docs/protocol.md "Boards").
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/boards", post(create).get(list))
        .route("/api/boards/validate", post(validate))
        .route("/api/boards/{id}", get(one).put(update))
        .route("/api/boards/{id}/picture", get(picture))
        .route("/api/boards/{id}/try", post(try_it))
        .route("/api/boards/{id}/difficulty", get(difficulty))
}

async fn create(
    State(s): AppState,
    Caller(who): Caller,
    Body(req): Body<NewBoard>,
) -> Result<(StatusCode, Json<BoardRow>), ApiError> {
    Ok((StatusCode::CREATED, Json(s.create_board(&who, req).await?)))
}

async fn update(
    State(s): AppState,
    Caller(who): Caller,
    Path(id): Path<String>,
    Body(req): Body<BoardEdit>,
) -> Result<Json<BoardRow>, ApiError> {
    Ok(Json(s.update_board(&who, &id, req).await?))
}

async fn one(
    State(s): AppState,
    Path(id): Path<String>,
    Query(q): Query<VersionQuery>,
) -> Result<Json<BoardRow>, ApiError> {
    Ok(Json(s.board_store()?.board(&id, q.version).await?.ok_or_else(no_board)?))
}

async fn list(
    State(s): AppState,
    Caller(who): Caller,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = q.limit.unwrap_or(LIST_LIMIT);
    if !(1..=LIST_LIMIT).contains(&limit) {
        return Err(ApiError::bad("bad_query", format!("limit is 1 to {LIST_LIMIT}")));
    }
    let store = s.board_store()?;
    let mut boards = match q.owner.as_str() {
        "me" => store.boards_of(&who.id, limit).await?,
        "gallery" => store.gallery(q.game.as_deref(), limit).await?,
        o => return Err(ApiError::bad("bad_query", format!("owner is me or gallery, not {o:?}"))),
    };
    if let Some(g) = &q.game {
        boards.retain(|b| b.game == *g);
    }
    Ok(Json(json!({ "boards": boards })))
}

/// The board drawn by the registry's renderer (SVG).
async fn picture(
    State(s): AppState,
    Path(id): Path<String>,
    Query(q): Query<VersionQuery>,
) -> Result<Response, ApiError> {
    let row = s.board_store()?.board(&id, q.version).await?.ok_or_else(no_board)?;
    let kind = s.registry.get(&row.game).ok_or_else(no_board)?;
    let svg =
        kind.render(&row.name, Some(&row.text)).map_err(|e| ApiError::bad("no_picture", e))?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

async fn validate(
    State(s): AppState,
    Caller(_): Caller,
    Body(v): Body<Validate>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(s.inspect_board(&v.game, &v.text)?.0))
}

/// "Try it": a practice game on the board at once, the caller against bots.
async fn try_it(
    State(s): AppState,
    Peer(peer): Peer,
    Caller(who): Caller,
    Path(id): Path<String>,
    Body(t): Body<TryIt>,
) -> Result<(StatusCode, Json<protocol::GameInfo>), ApiError> {
    let row = s.board_store()?.board(&id, t.version).await?.ok_or_else(no_board)?;
    let kind = s.registry.get(&row.game).ok_or_else(no_board)?;
    let bots = t.bots.unwrap_or(kind.info.min_players.saturating_sub(1).max(1));
    if bots + 1 > kind.info.max_players {
        return Err(ApiError::bad(
            "bad_seat",
            format!("at most {} bots", kind.info.max_players - 1),
        ));
    }
    let bot = format!("bot:{}", t.bot.as_deref().unwrap_or("heuristic"));
    let mut seats = vec!["me".to_string()];
    seats.extend(std::iter::repeat_n(bot, bots));
    let req = protocol::CreateGame {
        game: row.game.clone(),
        seats,
        board: Some(format!("saved:{}@{}", row.id, row.version)),
        variants: None,
        options: None,
        timer_secs: None,
        seed: None,
        practice: true,
    };
    crate::http::charge_game_quota(&s, &who, peer).await?;
    Ok((StatusCode::CREATED, Json(s.create_game(&who, req).await?)))
}

#[derive(Deserialize)]
struct DifficultyQuery {
    version: Option<u32>,
    /// Wait (at most `DIFFICULTY_SECONDS` and a little) for an estimate being computed.
    #[serde(default)]
    wait: bool,
}

/// `GET /api/boards/{id}/difficulty[?version=N][&wait=true]`: the bots' estimate of the board
/// version (docs/editors.md "Difficulty"). `state` is `ready` (with the figures), `none` (the
/// game or the board gives none: a RoboRally piece alone has no flags), `computing` (202; begun
/// now or earlier) or `busy` (202: another board's estimate is being computed; ask again).
async fn difficulty(
    State(s): AppState,
    Path(id): Path<String>,
    Query(q): Query<DifficultyQuery>,
) -> Result<Response, ApiError> {
    let row = s.board_store()?.board(&id, q.version).await?.ok_or_else(no_board)?;
    let key = (row.id.clone(), row.version);
    let answer = |v: Value| {
        let status = if v["state"] == "ready" || v["state"] == "none" {
            StatusCode::OK
        } else {
            StatusCode::ACCEPTED
        };
        let mut v = v;
        v["id"] = row.id.clone().into();
        v["version"] = row.version.into();
        Ok((status, Json(v)).into_response())
    };
    let until =
        tokio::time::Instant::now() + std::time::Duration::from_secs(DIFFICULTY_SECONDS + 5);
    loop {
        let woken = s.difficulty.done.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        match s.difficulty.get(&key) {
            Some(Some(v)) => return answer(v),
            Some(None) if q.wait && tokio::time::Instant::now() < until => {
                let _ = tokio::time::timeout_at(until, woken).await;
                continue;
            }
            Some(None) => return answer(json!({ "state": "computing" })),
            None => {}
        }
        let Ok(permit) = Arc::clone(&s.difficulty.running).try_acquire_owned() else {
            return answer(json!({ "state": "busy" }));
        };
        s.difficulty.put(key.clone(), None);
        let (text, game, shared, key2) =
            (row.text.clone(), row.game.clone(), Arc::clone(&s), key.clone());
        tokio::spawn(async move {
            let s2 = Arc::clone(&shared);
            let v = tokio::task::spawn_blocking(move || {
                let Some(kind) = s2.registry.get(&game) else {
                    return json!({ "state": "none", "message": "no such game here" });
                };
                let deadline =
                    std::time::Instant::now() + std::time::Duration::from_secs(DIFFICULTY_SECONDS);
                match kind.difficulty(&text, DIFFICULTY_GAMES, DIFFICULTY_MAX_TURNS, deadline) {
                    None => json!({ "state": "none", "message": "this game gives no estimate" }),
                    Some(Err(e)) => json!({ "state": "none", "message": e }),
                    Some(Ok(mut v)) => {
                        v["state"] = "ready".into();
                        v
                    }
                }
            })
            .await
            .unwrap_or_else(|e| json!({ "state": "none", "message": e.to_string() }));
            shared.difficulty.put(key2, Some(v));
            drop(permit);
            shared.difficulty.done.notify_waiters();
        });
        if !q.wait {
            return answer(json!({ "state": "computing" }));
        }
    }
}
