//! `robodrome._native`: Robodrome's games for Python. Every game is reached through the
//! registry (`games::Registry::everything()`) and its one object-safe face, `games::AnyGame`:
//! this crate names no game and decides no rule. It translates: JSON text in and out for the
//! engine API, integer indices and `f32` arrays for the encodings of `docs/python.md`, and the
//! batched simulator (games stepped on rayon's threads with the GIL released).

use engine::{Decision, Observer, Rng, Seat};
use games::{ActError, AnyGame, Registry};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

create_exception!(_native, RobodromeError, PyException, "Every error of the robodrome package.");
create_exception!(
    _native,
    BadInput,
    RobodromeError,
    "Input that is not what the call takes (unknown game, bad JSON, bad setup, bad seat): nothing changed."
);
create_exception!(
    _native,
    IllegalAction,
    RobodromeError,
    "The rules refused the action (args: code, message): nothing changed."
);
create_exception!(
    _native,
    ReplayError,
    RobodromeError,
    "A saved game or log that does not replay."
);

fn bad(msg: impl Into<String>) -> PyErr {
    BadInput::new_err(msg.into())
}

fn parse(text: &str, what: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| bad(format!("{what}: not valid JSON: {e}")))
}

fn act_err(e: ActError) -> PyErr {
    match e {
        ActError::BadAction(m) => bad(format!("not an action of this game: {m}")),
        ActError::Rule { code, message } => IllegalAction::new_err((code, message)),
    }
}

/// The observer: a seat number, -1 for a spectator, -2 for the omniscient view.
fn observer(seat: i64, seats: usize) -> PyResult<Observer> {
    match seat {
        -1 => Ok(Observer::Spectator),
        -2 => Ok(Observer::Omniscient),
        s if s >= 0 && (s as usize) < seats => Ok(Observer::Seat(Seat(s as u8))),
        s => Err(bad(format!("no seat {s} (seats 0..{seats}, -1 spectator, -2 omniscient)"))),
    }
}

fn seat_of(seat: i64, seats: usize) -> PyResult<Seat> {
    if seat >= 0 && (seat as usize) < seats {
        Ok(Seat(seat as u8))
    } else {
        Err(bad(format!("no seat {seat} (seats 0..{seats})")))
    }
}

/// The reward of each seat at the end: 1 − 2·(mean place)/(n − 1), from +1 (alone first) to
/// −1 (alone last); tied seats share their mean place; one seat alone gets +1 for finishing.
pub fn rewards(outcome: &engine::Outcome, seats: usize) -> Vec<f32> {
    let mut r = vec![0.0f32; seats];
    let mut place = 0usize;
    for group in &outcome.ranking {
        let k = group.len();
        let mean = place as f32 + (k as f32 - 1.0) / 2.0;
        let v = if seats > 1 { 1.0 - 2.0 * mean / (seats as f32 - 1.0) } else { 1.0 };
        for s in group {
            if s.index() < seats {
                r[s.index()] = v;
            }
        }
        place += k;
    }
    r
}

/// The generic fixed-shape observation (`docs/python.md`): the numbers of a view's JSON in
/// document order (object keys sorted), booleans as 0/1, null as 0, a string as its FNV-1a
/// hash scaled into [0, 1), cut or zero-padded to `dim`.
pub fn flatten(v: &Value, out: &mut Vec<f32>, dim: usize) {
    if out.len() >= dim {
        return;
    }
    match v {
        Value::Null => out.push(0.0),
        Value::Bool(b) => out.push(f32::from(u8::from(*b))),
        Value::Number(n) => out.push(n.as_f64().unwrap_or(0.0) as f32),
        Value::String(s) => {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in s.bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            out.push((h % 1024) as f32 / 1024.0);
        }
        Value::Array(a) => a.iter().for_each(|x| flatten(x, out, dim)),
        Value::Object(m) => m.values().for_each(|x| flatten(x, out, dim)),
    }
}

/// A game and its record: the setup, the seed and every accepted entry, so that it can be
/// saved (`to_json`) and replayed.
struct Running {
    kind: &'static games::Kind,
    game: Box<dyn AnyGame>,
    /// Shared by clones (a board can be large).
    setup: Arc<Value>,
    seed: u64,
    /// Shared entries: a clone copies pointers.
    log: Vec<Arc<Value>>,
    /// The legal actions of one seat in this state, kept until the state changes.
    legal: Option<(Seat, Vec<Value>)>,
}

impl Clone for Running {
    fn clone(&self) -> Self {
        Running {
            kind: self.kind,
            game: self.game.clone_box(),
            setup: self.setup.clone(),
            seed: self.seed,
            log: self.log.clone(),
            legal: None,
        }
    }
}

fn kind(name: &str) -> PyResult<&'static games::Kind> {
    let r = Registry::everything();
    r.get(name).ok_or_else(|| bad(r.unknown(name)))
}

impl Running {
    fn start(name: &str, setup: Value, seed: u64) -> PyResult<Running> {
        let kind = kind(name)?;
        let game = kind.start(&setup, seed).map_err(bad)?;
        Ok(Running { kind, game, setup: Arc::new(setup), seed, log: Vec::new(), legal: None })
    }

    fn legal(&mut self, seat: Seat) -> &[Value] {
        if self.legal.as_ref().is_none_or(|(s, _)| *s != seat) {
            self.legal = Some((seat, self.game.legal_actions_json(seat)));
        }
        self.legal.as_ref().map(|(_, v)| v.as_slice()).unwrap_or(&[])
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Vec<Value>, ActError> {
        let applied = self.game.apply_json(seat, action)?;
        self.legal = None;
        self.log.push(Arc::new(json!({"kind": "act", "seat": seat.0, "action": applied.action})));
        Ok(applied.events.into_iter().map(|(_, e)| e).collect())
    }

    /// Apply the `index`-th legal action of `seat` (typed: no list of JSON built).
    fn apply_nth(&mut self, seat: Seat, index: usize) -> Result<(), ActError> {
        let action = self.game.apply_nth(seat, index)?;
        self.legal = None;
        self.log.push(Arc::new(json!({"kind": "act", "seat": seat.0, "action": action})));
        Ok(())
    }

    fn legal_len(&self, seat: Seat) -> usize {
        match &self.legal {
            Some((s, v)) if *s == seat => v.len(),
            _ => self.game.legal_len(seat),
        }
    }

    fn owing(&self) -> Vec<Seat> {
        match self.game.decision() {
            None => Vec::new(),
            Some(Decision::One(s)) => vec![s],
            Some(Decision::Simultaneous(set)) => set.iter().collect(),
        }
    }

    fn observation(&self, seat: Seat, dim: usize, out: &mut [f32]) {
        let mut v = Vec::with_capacity(dim);
        flatten(&self.game.view_json(Observer::Seat(seat)), &mut v, dim);
        out.fill(0.0);
        out[..v.len()].copy_from_slice(&v);
    }

    fn mask(&mut self, seat: Seat, out: &mut [bool]) {
        out.fill(false);
        if self.game.decision().is_some_and(|d| d.owes(seat)) {
            let n = self.legal_len(seat).min(out.len());
            out[..n].fill(true);
        }
    }

    fn rewards(&self) -> Vec<f32> {
        match self.game.outcome_json() {
            None => vec![0.0; self.game.seats()],
            Some(_) => {
                let o = engine_outcome(&*self.game);
                rewards(&o, self.game.seats())
            }
        }
    }
}

/// The outcome as the engine's type (read back from its JSON).
fn engine_outcome(g: &dyn AnyGame) -> engine::Outcome {
    let v = g.outcome_json().unwrap_or(Value::Null);
    let ranking = v
        .get("ranking")
        .and_then(Value::as_array)
        .map(|groups| {
            groups
                .iter()
                .map(|grp| {
                    grp.as_array()
                        .map(|a| {
                            a.iter().filter_map(Value::as_u64).map(|s| Seat(s as u8)).collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    engine::Outcome { ranking, scores: None }
}

/// A running game of any registered kind.
#[pyclass(module = "robodrome._native")]
struct Game {
    r: Running,
}

#[pymethods]
impl Game {
    /// A new game from a setup (JSON text, as `make_setup` returns) and a seed.
    #[new]
    fn new(name: &str, setup_json: &str, seed: u64) -> PyResult<Game> {
        let setup = parse(setup_json, "setup")?;
        Ok(Game { r: Running::start(name, setup, seed)? })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.r.game.name()
    }

    #[getter]
    fn seats(&self) -> usize {
        self.r.game.seats()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.r.seed
    }

    /// `None` when the game is over; else `("one" | "simultaneous", [seats])`.
    fn decision(&self) -> Option<(&'static str, Vec<u32>)> {
        self.r.game.decision().map(|d| match d {
            Decision::One(s) => ("one", vec![u32::from(s.0)]),
            Decision::Simultaneous(set) => {
                ("simultaneous", set.iter().map(|s| u32::from(s.0)).collect())
            }
        })
    }

    fn legal_actions_json(&mut self, seat: i64) -> PyResult<String> {
        let seat = seat_of(seat, self.r.game.seats())?;
        Ok(Value::Array(self.r.legal(seat).to_vec()).to_string())
    }

    fn legal_count(&self, seat: i64) -> PyResult<usize> {
        let seat = seat_of(seat, self.r.game.seats())?;
        Ok(self.r.legal_len(seat))
    }

    /// Apply an action given as JSON text; returns the events (JSON text, omniscient).
    fn apply_json(&mut self, seat: i64, action_json: &str) -> PyResult<String> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let action = parse(action_json, "action")?;
        let events = self.r.apply(seat, &action).map_err(act_err)?;
        Ok(Value::Array(events).to_string())
    }

    /// Apply the `index`-th of `legal_actions(seat)`.
    fn apply_index(&mut self, seat: i64, index: i64) -> PyResult<()> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let i = usize::try_from(index).unwrap_or(usize::MAX);
        self.r.apply_nth(seat, i).map_err(|e| match e {
            ActError::BadAction(m) => IllegalAction::new_err(("action_index", m)),
            e => act_err(e),
        })
    }

    /// The rules' default for every owed decision (the timer ran out).
    fn time_up(&mut self) -> PyResult<String> {
        let events = self.r.game.time_up().map_err(act_err)?;
        self.r.legal = None;
        self.r.log.push(Arc::new(json!({"kind": "time_up"})));
        Ok(Value::Array(events.into_iter().map(|(_, e)| e).collect()).to_string())
    }

    /// The view of a seat (-1: a spectator, -2: omniscient) as JSON text.
    fn view_json(&self, seat: i64) -> PyResult<String> {
        Ok(self.r.game.view_text(observer(seat, self.r.game.seats())?))
    }

    fn static_json(&self) -> String {
        self.r.game.static_text()
    }

    fn outcome_json(&self) -> Option<String> {
        self.r.game.outcome_json().map(|v| v.to_string())
    }

    /// The end rewards per seat (zeros while the game runs): `docs/python.md`.
    fn rewards(&self) -> Vec<f32> {
        self.r.rewards()
    }

    fn clone(&self) -> Game {
        Game { r: self.r.clone() }
    }

    /// A copy where what `seat` cannot see is resampled with `seed`. It keeps this game's
    /// record, but its hidden parts are invented: it is for search, not for saving.
    fn determinize(&self, seat: i64, seed: u64) -> PyResult<Game> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut rng = Rng::seeded(seed);
        let mut r = self.r.clone();
        r.game = self.r.game.determinize_box(seat, &mut rng);
        r.legal = None;
        Ok(Game { r })
    }

    fn sample_action_json(&self, seat: i64, seed: u64) -> PyResult<Option<String>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut rng = Rng::seeded(seed);
        Ok(self.r.game.sample_action_json(seat, &mut rng).map(|v| v.to_string()))
    }

    /// A Robodrome bot's action for `seat` (`spec`: random, heuristic, search:N, search:Nms),
    /// or `None` when the seat owes nothing. Runs without the GIL.
    #[pyo3(signature = (spec, seat, seed, max_ms=None))]
    fn bot_action_json(
        &self,
        py: Python<'_>,
        spec: &str,
        seat: i64,
        seed: u64,
        max_ms: Option<u64>,
    ) -> PyResult<Option<String>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let spec: bots::BotSpec = spec.parse().map_err(bad)?;
        let game = self.r.game.clone_box();
        Ok(py.detach(move || {
            let mut rng = Rng::seeded(seed);
            let stop = match max_ms {
                Some(ms) => bots::Stop::at(Instant::now() + Duration::from_millis(ms)),
                None => bots::Stop::default(),
            };
            game.bot_action(&spec, seat, &mut rng, &stop).map(|v| v.to_string())
        }))
    }

    /// The save file: `{"game", "setup", "seed", "log"}` (the log's entries as the engine's
    /// `LogEntry`: `{"kind": "act", "seat", "action"}` or `{"kind": "time_up"}`).
    fn to_json(&self) -> String {
        let log: Vec<&Value> = self.r.log.iter().map(|e| &**e).collect();
        json!({"game": self.r.game.name(), "setup": *self.r.setup, "seed": self.r.seed, "log": log})
            .to_string()
    }

    /// The generic observation of `seat`'s view, `dim` numbers.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        dim: usize,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut out = vec![0.0f32; dim];
        self.r.observation(seat, dim, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// The legal-action mask of `seat` over `size` flat indices (all false when it owes nothing).
    fn mask<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        size: usize,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut out = vec![false; size];
        self.r.mask(seat, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// Whether two games are in the same state (their omniscient views and decisions agree).
    fn same_state(&self, other: &Game) -> bool {
        self.r.game.name() == other.r.game.name()
            && self.r.game.view_json(Observer::Omniscient)
                == other.r.game.view_json(Observer::Omniscient)
            && self.r.game.decision() == other.r.game.decision()
    }
}

/// Replay a save file (`Game.to_json`'s text, or a log given with its setup and seed).
#[pyfunction]
fn replay(record_json: &str) -> PyResult<Game> {
    let rec = parse(record_json, "record")?;
    let name = rec.get("game").and_then(Value::as_str).ok_or_else(|| bad("record: no \"game\""))?;
    let setup = rec.get("setup").cloned().ok_or_else(|| bad("record: no \"setup\""))?;
    let seed = rec.get("seed").and_then(Value::as_u64).ok_or_else(|| bad("record: no \"seed\""))?;
    let empty = Vec::new();
    let log = match rec.get("log") {
        None => &empty,
        Some(Value::Array(a)) => a,
        Some(_) => return Err(bad("record: \"log\" must be a list")),
    };
    let mut r = Running::start(name, setup, seed)?;
    for (i, entry) in log.iter().enumerate() {
        match entry.get("kind").and_then(Value::as_str) {
            Some("time_up") => {
                r.game
                    .time_up()
                    .map_err(|e| ReplayError::new_err(format!("log entry {i}: {e:?}")))?;
                r.log.push(Arc::new(json!({"kind": "time_up"})));
            }
            Some("act") => {
                let seat = entry
                    .get("seat")
                    .and_then(Value::as_u64)
                    .filter(|s| (*s as usize) < r.game.seats())
                    .ok_or_else(|| ReplayError::new_err(format!("log entry {i}: bad seat")))?;
                let action = entry.get("action").cloned().unwrap_or(Value::Null);
                r.apply(Seat(seat as u8), &action)
                    .map_err(|e| ReplayError::new_err(format!("log entry {i}: {e:?}")))?;
            }
            _ => return Err(ReplayError::new_err(format!("log entry {i}: kind act or time_up"))),
        }
    }
    r.legal = None;
    Ok(Game { r })
}

/// The registered games' descriptions (`games::Info`, as `GET /api/kinds` serves them).
#[pyfunction]
fn kinds_json() -> String {
    let infos: Vec<&games::Info> = Registry::everything().kinds().map(|k| &k.info).collect();
    serde_json::to_string(&infos).unwrap_or_else(|_| "[]".into())
}

/// A checked setup (JSON text) from players, board, variants and options, as the lobby builds it.
#[pyfunction]
#[pyo3(signature = (name, players, board=None, variants_json=None, options_json=None))]
fn make_setup(
    name: &str,
    players: usize,
    board: Option<String>,
    variants_json: Option<&str>,
    options_json: Option<&str>,
) -> PyResult<String> {
    let req = games::SetupRequest {
        players,
        board,
        variants: variants_json.map(|t| parse(t, "variants")).transpose()?,
        options: options_json.map(|t| parse(t, "options")).transpose()?,
    };
    kind(name)?.make_setup(&req).map(|v| v.to_string()).map_err(bad)
}

/// Run a scenario file (its text): `(stdout, exit)` exactly as `robodrome scenario` prints.
#[pyfunction]
#[pyo3(signature = (text, view=None))]
fn run_scenario(text: &str, view: Option<u8>) -> PyResult<(String, i32)> {
    scenario::run_with_view(text.as_bytes(), view.map(Seat))
        .map(|o| (o.stdout, o.exit))
        .map_err(|e| bad(format!("{e:?}")))
}

/// N games of one kind stepped together (`docs/python.md`, "Batched simulation").
#[pyclass(module = "robodrome._native")]
struct Batch {
    games: Vec<Running>,
    name: String,
    setup: Arc<Value>,
    seats: usize,
    obs_dim: usize,
    actions: usize,
}

#[pymethods]
impl Batch {
    #[new]
    fn new(
        name: &str,
        setup_json: &str,
        seeds: Vec<u64>,
        obs_dim: usize,
        actions: usize,
    ) -> PyResult<Batch> {
        let setup = parse(setup_json, "setup")?;
        let games = seeds
            .iter()
            .map(|&s| Running::start(name, setup.clone(), s))
            .collect::<PyResult<Vec<_>>>()?;
        let seats = games.first().map_or(0, |g| g.game.seats());
        Ok(Batch { games, name: name.into(), setup: Arc::new(setup), seats, obs_dim, actions })
    }

    #[getter]
    fn seats(&self) -> usize {
        self.seats
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Restart game `i` with a new seed.
    fn reset(&mut self, i: usize, seed: u64) -> PyResult<()> {
        let g = Running::start(&self.name, (*self.setup).clone(), seed)?;
        let slot = self.games.get_mut(i).ok_or_else(|| bad(format!("no game {i}")))?;
        *slot = g;
        Ok(())
    }

    /// A copy of game `i` as a `Game`.
    fn game(&self, i: usize) -> PyResult<Game> {
        self.games.get(i).map(|r| Game { r: r.clone() }).ok_or_else(|| bad(format!("no game {i}")))
    }

    /// Observations (N, seats, obs_dim) f32, masks (N, seats, actions) bool, rewards
    /// (N, seats) f32 and done (N,) bool, computed on every core without the GIL.
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray3<f32>>,
        Bound<'py, PyArray3<bool>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let (n, s, d, a) = (self.games.len(), self.seats, self.obs_dim, self.actions);
        let mut obs = vec![0.0f32; n * s * d];
        let mut masks = vec![false; n * s * a];
        let mut rew = vec![0.0f32; n * s];
        let mut done = vec![false; n];
        let games = &mut self.games;
        py.detach(|| {
            games
                .par_iter_mut()
                .zip(obs.par_chunks_mut(s * d))
                .zip(masks.par_chunks_mut(s * a))
                .zip(rew.par_chunks_mut(s))
                .zip(done.par_iter_mut())
                .for_each(|((((g, o), m), r), dn)| {
                    for seat in 0..s {
                        let st = Seat(seat as u8);
                        g.observation(st, d, &mut o[seat * d..(seat + 1) * d]);
                        g.mask(st, &mut m[seat * a..(seat + 1) * a]);
                    }
                    r.copy_from_slice(&g.rewards());
                    *dn = g.game.decision().is_none();
                });
        });
        Ok((
            PyArray1::from_vec(py, obs).reshape([n, s, d])?,
            PyArray1::from_vec(py, masks).reshape([n, s, a])?,
            PyArray1::from_vec(py, rew).reshape([n, s])?,
            PyArray1::from_vec(py, done),
        ))
    }

    /// One step of every game: `actions[i, seat]` is the flat index (into the legal actions)
    /// of each seat that owes a decision in game `i`, applied in seat order; other entries
    /// are ignored. Returns, per game, `None` or the error that left that game unchanged.
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray2<i64>,
    ) -> PyResult<Vec<Option<String>>> {
        let a = actions.as_array();
        if a.shape() != [self.games.len(), self.seats] {
            return Err(bad(format!(
                "actions: shape {:?}, expected [{}, {}]",
                a.shape(),
                self.games.len(),
                self.seats
            )));
        }
        let rows: Vec<Vec<i64>> = a.outer_iter().map(|r| r.to_vec()).collect();
        let games = &mut self.games;
        Ok(py.detach(|| {
            games.par_iter_mut().zip(rows.par_iter()).map(|(g, row)| step_one(g, row)).collect()
        }))
    }

    /// Play every game to its end with random actions (a native throughput measure).
    fn play_random(&mut self, py: Python<'_>, seed: u64, cap: usize) -> u64 {
        let games = &mut self.games;
        py.detach(|| {
            games
                .par_iter_mut()
                .enumerate()
                .map(|(i, g)| {
                    let mut rng = Rng::seeded(seed ^ (i as u64).wrapping_mul(0x9e37_79b9));
                    let mut n = 0u64;
                    while (n as usize) < cap {
                        let Some(seat) = g.owing().first().copied() else { break };
                        let Some(a) = g.game.sample_action_json(seat, &mut rng) else { break };
                        if g.game.apply_json(seat, &a).is_err() {
                            break;
                        }
                        n += 1;
                    }
                    g.legal = None;
                    n
                })
                .sum()
        })
    }
}

/// One game's step: every owing seat's index checked against the legal actions of the state
/// before the step, then applied in seat order. A bad index leaves the game unchanged.
fn step_one(g: &mut Running, row: &[i64]) -> Option<String> {
    let owing = g.owing();
    if owing.is_empty() {
        return None;
    }
    let mut chosen = Vec::with_capacity(owing.len());
    for &seat in &owing {
        let n = g.legal_len(seat);
        let idx = row[seat.index()];
        match usize::try_from(idx).ok().filter(|&i| i < n) {
            Some(i) => chosen.push((seat, i)),
            None => {
                return Some(format!(
                    "seat {}: action index {idx} is not legal ({n} legal actions)",
                    seat.0
                ));
            }
        }
    }
    // Simultaneous secret choices do not change another seat's legal actions; should a rule
    // ever do so, the game is restored and the error reported.
    let before = (chosen.len() > 1).then(|| g.clone());
    for (seat, i) in chosen {
        if let Err(e) = g.apply_nth(seat, i) {
            if let Some(b) = before {
                *g = b;
            }
            return Some(format!("seat {}: {e:?}", seat.0));
        }
    }
    None
}

/// The native engine's own random-game driver (`Kind::bench`, `robodrome bench`): plays
/// `games` random games with typed actions, no JSON, one thread. Returns (its label,
/// actions, seconds).
#[pyfunction]
fn native_bench(name: &str, games: u64) -> PyResult<(String, u64, f64)> {
    let kind = kind(name)?;
    let (label, mut play) = kind.bench().map_err(bad)?;
    let t = Instant::now();
    let n: u64 = (0..games).map(&mut play).sum();
    Ok((label, n, t.elapsed().as_secs_f64()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Batch>()?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(kinds_json, m)?)?;
    m.add_function(wrap_pyfunction!(make_setup, m)?)?;
    m.add_function(wrap_pyfunction!(run_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(native_bench, m)?)?;
    m.add("RobodromeError", m.py().get_type::<RobodromeError>())?;
    m.add("BadInput", m.py().get_type::<BadInput>())?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add("ReplayError", m.py().get_type::<ReplayError>())?;
    Ok(())
}
