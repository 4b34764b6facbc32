//! `robodrome._native`: Robodrome's games for Python. Every game is reached through the
//! registry (`games::Registry::everything()`) and its one object-safe face, `games::AnyGame`:
//! this crate names no game and decides no rule. It translates: JSON text in and out for the
//! engine API, integer indices and `f32` arrays for the encodings of `docs/python.md`, and the
//! batched simulator (games stepped on rayon's threads with the GIL released).

mod pool;

use engine::{Decision, Observer, Rng, Seat};
use games::{ActError, AnyGame, Listed, Registry, Scratch, Starter};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2};
use pool::Pool;
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

/// The bound of every observation number (the environments' `Box(-LIMIT, LIMIT)`).
const LIMIT: f32 = 1e6;

/// One entry of a game's record.
#[derive(Clone)]
enum Entry {
    /// An engine `LogEntry` as JSON (`{"kind": "act", …}` or `{"kind": "time_up"}`).
    Json(Arc<Value>),
    /// The `index`-th legal action of `seat` (the batched step: no JSON built while playing;
    /// the save file turns it into the action's JSON by replaying the record).
    Nth(Seat, u32),
}

/// A game and its record: the setup, the seed and every accepted entry, so that it can be
/// saved (`to_json`) and replayed.
struct Running {
    kind: &'static games::Kind,
    game: Box<dyn AnyGame>,
    /// Shared by clones (a board can be large).
    setup: Arc<Value>,
    seed: u64,
    /// The accepted entries (a clone copies pointers or indices).
    log: Vec<Entry>,
    /// The legal actions of one seat in this state, kept until the state changes.
    legal: Option<(Seat, Vec<Value>)>,
    /// Each seat's legal actions in this state, counted (a game that counts them without
    /// listing: `AnyGame::count_legal_any`) or listed typed (`AnyGame::list_legal`), kept
    /// until the state changes: the mask, the step's check and the action played use one
    /// count or listing. Reused from state to state (no allocation for a counting game).
    listed: Vec<Legal>,
    /// The events of the last action applied by index (the buffer is reused).
    scratch: Scratch,
}

/// One seat's legal actions in the current state, as far as they are known.
enum Legal {
    Unknown,
    Counted(usize),
    Listed(Box<dyn Listed>),
}

fn unknown(seats: usize) -> Vec<Legal> {
    (0..seats).map(|_| Legal::Unknown).collect()
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
            listed: unknown(self.listed.len()),
            scratch: Scratch::default(),
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
        Ok(Running::new(kind, game, Arc::new(setup), seed))
    }

    fn new(
        kind: &'static games::Kind,
        game: Box<dyn AnyGame>,
        setup: Arc<Value>,
        seed: u64,
    ) -> Running {
        let listed = unknown(game.seats());
        Running {
            kind,
            game,
            setup,
            seed,
            log: Vec::new(),
            legal: None,
            listed,
            scratch: Scratch::default(),
        }
    }

    /// Start this game again from `starter` (the same setup, read once) with a new seed,
    /// keeping the record's and the legal actions' buffers.
    fn restart(&mut self, starter: &dyn Starter, seed: u64) -> Result<(), String> {
        self.game = starter.start(seed)?;
        self.seed = seed;
        self.log.clear();
        self.changed();
        Ok(())
    }

    fn autoscooter(&self) -> PyResult<&autoscooter::Autoscooter> {
        self.game.as_any().downcast_ref().ok_or_else(|| {
            bad(format!("the factored plots are Autoscooter's, not {}'s", self.game.name()))
        })
    }

    fn autoscooter_mut(&mut self) -> PyResult<&mut autoscooter::Autoscooter> {
        let name = self.game.name();
        self.game
            .as_any_mut()
            .downcast_mut()
            .ok_or_else(|| bad(format!("the factored plots are Autoscooter's, not {name}'s")))
    }

    /// Back to the state after the record's first `len` entries, by replaying them from the
    /// start (the game is a function of its setup, seed and record).
    fn restore(&mut self, len: usize) -> Result<(), String> {
        let mut g = self.kind.start(&self.setup, self.seed)?;
        for (i, e) in self.log[..len].iter().enumerate() {
            let fail = |e: ActError| format!("the record does not replay at entry {i}: {e:?}");
            match e {
                Entry::Nth(seat, index) => {
                    g.apply_nth_quiet(*seat, *index as usize).map_err(fail)?
                }
                Entry::Json(v) => match (v.get("kind").and_then(Value::as_str), v.get("seat")) {
                    (Some("act"), Some(seat)) => {
                        let seat = Seat(seat.as_u64().unwrap_or(0) as u8);
                        let action = v.get("action").cloned().unwrap_or(Value::Null);
                        g.apply_json(seat, &action).map(|_| ()).map_err(fail)?;
                    }
                    _ => g.time_up().map(|_| ()).map_err(fail)?,
                },
            }
        }
        self.game = g;
        self.log.truncate(len);
        self.changed();
        Ok(())
    }

    /// The state changed: forget what was listed or counted.
    fn changed(&mut self) {
        self.legal = None;
        self.listed.iter_mut().for_each(|c| *c = Legal::Unknown);
    }

    fn legal(&mut self, seat: Seat) -> &[Value] {
        if self.legal.as_ref().is_none_or(|(s, _)| *s != seat) {
            self.legal = Some((seat, self.game.legal_actions_json(seat)));
        }
        self.legal.as_ref().map(|(_, v)| v.as_slice()).unwrap_or(&[])
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<Vec<Value>, ActError> {
        let applied = self.game.apply_json(seat, action)?;
        self.changed();
        self.log.push(Entry::Json(Arc::new(
            json!({"kind": "act", "seat": seat.0, "action": applied.action}),
        )));
        Ok(applied.events.into_iter().map(|(_, e)| e).collect())
    }

    /// Apply the `index`-th legal action of `seat` (typed: no JSON built; the record keeps
    /// the index).
    fn apply_nth(&mut self, seat: Seat, index: usize) -> Result<(), ActError> {
        let known = self.listed.get_mut(seat.index()).map(|l| std::mem::replace(l, Legal::Unknown));
        match known {
            Some(Legal::Listed(list)) => self.game.apply_listed(seat, &*list, index)?,
            _ => self.game.apply_nth_reusing(seat, index, &mut self.scratch)?,
        }
        self.changed();
        self.log.push(Entry::Nth(seat, index as u32));
        Ok(())
    }

    /// The record's entries as the engine's `LogEntry` JSON: entries kept as an index are
    /// turned into their action's JSON by replaying the record from the start (the game is
    /// deterministic from its setup, seed and log), and kept so from then on.
    fn log_json(&mut self) -> Result<Vec<Arc<Value>>, String> {
        if self.log.iter().any(|e| matches!(e, Entry::Nth(..))) {
            let mut g = self.kind.start(&self.setup, self.seed)?;
            let mut out = Vec::with_capacity(self.log.len());
            for (i, e) in self.log.iter().enumerate() {
                let fail = |e: ActError| format!("the record does not replay at entry {i}: {e:?}");
                out.push(match e {
                    Entry::Nth(seat, index) => {
                        let action = g.apply_nth(*seat, *index as usize).map_err(fail)?;
                        Entry::Json(Arc::new(
                            json!({"kind": "act", "seat": seat.0, "action": action}),
                        ))
                    }
                    Entry::Json(v) => {
                        match (v.get("kind").and_then(Value::as_str), v.get("seat")) {
                            (Some("act"), Some(seat)) => {
                                let seat = Seat(seat.as_u64().unwrap_or(0) as u8);
                                let action = v.get("action").cloned().unwrap_or(Value::Null);
                                g.apply_json(seat, &action).map_err(fail)?;
                            }
                            _ => {
                                g.time_up().map_err(fail)?;
                            }
                        }
                        Entry::Json(v.clone())
                    }
                });
            }
            self.log = out;
        }
        Ok(self
            .log
            .iter()
            .filter_map(|e| match e {
                Entry::Json(v) => Some(v.clone()),
                Entry::Nth(..) => None,
            })
            .collect())
    }

    fn legal_len(&mut self, seat: Seat) -> usize {
        let Some(slot) = self.listed.get_mut(seat.index()) else { return 0 };
        match slot {
            Legal::Counted(n) => *n,
            Legal::Listed(list) => list.len(),
            Legal::Unknown => {
                *slot = match self.game.count_legal_any(seat) {
                    Some(n) => Legal::Counted(n),
                    None => Legal::Listed(self.game.list_legal(seat)),
                };
                match slot {
                    Legal::Counted(n) => *n,
                    Legal::Listed(list) => list.len(),
                    Legal::Unknown => 0,
                }
            }
        }
    }

    fn owing(&self) -> Vec<Seat> {
        match self.game.decision() {
            None => Vec::new(),
            Some(Decision::One(s)) => vec![s],
            Some(Decision::Simultaneous(set)) => set.iter().collect(),
        }
    }

    /// The seat's view as numbers (`games::features`: written from the typed view, no JSON),
    /// each clipped to ±`LIMIT`.
    fn observation(&self, seat: Seat, out: &mut [f32]) {
        let n = self.game.view_features(Observer::Seat(seat), out);
        out[..n].iter_mut().for_each(|x| *x = x.clamp(-LIMIT, LIMIT));
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

    fn legal_count(&mut self, seat: i64) -> PyResult<usize> {
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
        self.r.changed();
        self.r.log.push(Entry::Json(Arc::new(json!({"kind": "time_up"}))));
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
        r.changed();
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
    // `&mut`: the record's index entries are written out as JSON once, and kept so.
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&mut self) -> PyResult<String> {
        let log = self.r.log_json().map_err(ReplayError::new_err)?;
        let log: Vec<&Value> = log.iter().map(|e| &**e).collect();
        Ok(json!({"game": self.r.game.name(), "setup": *self.r.setup, "seed": self.r.seed, "log": log})
            .to_string())
    }

    /// The observation of `seat`'s view, `dim` numbers (`games::features`, clipped to ±1e6).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
        dim: usize,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut out = vec![0.0f32; dim];
        self.r.observation(seat, &mut out);
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

    /// The environments' observation in one call: `(observation f32[dim], mask int8[size])`.
    #[allow(clippy::type_complexity)]
    fn obs_mask<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        dim: usize,
        size: usize,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>)> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let mut obs = vec![0.0f32; dim];
        self.r.observation(seat, &mut obs);
        let mut mask = vec![0i8; size];
        if self.r.game.decision().is_some_and(|d| d.owes(seat)) {
            let n = self.r.legal_len(seat).min(size);
            mask[..n].fill(1);
        }
        Ok((PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask)))
    }

    /// Apply the `index`-th legal action of `seat`, the index taken modulo their number (the
    /// environments' rule); nothing when the seat has none. Returns the first seat that owes a
    /// decision next, or `None` when the game is over (one call per environment step).
    fn play_index_mod(&mut self, seat: i64, index: i64) -> PyResult<Option<u32>> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let n = self.r.legal_len(seat);
        if n > 0 {
            let i = index.rem_euclid(n as i64) as usize;
            self.r.apply_nth(seat, i).map_err(act_err)?;
        }
        Ok(self.r.owing().first().map(|s| u32::from(s.0)))
    }

    /// Autoscooter's factored plot masks (`autoscooter::encoding`, docs/python.md):
    /// `(car bool[9], rows bool[9, 11], letters bool[9, 17])`; BadInput for another game.
    #[allow(clippy::type_complexity)]
    fn factored_masks<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
    ) -> PyResult<(
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray2<bool>>,
    )> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let g = self.r.autoscooter()?;
        let (mut car, mut rows, mut letters) = ([false; 9], [[false; 11]; 9], [[false; 17]; 9]);
        g.factored_masks(seat, &mut car, &mut rows, &mut letters);
        let rows = numpy::ndarray::Array2::from_shape_fn((9, 11), |(c, r)| rows[c][r]);
        let letters = numpy::ndarray::Array2::from_shape_fn((9, 17), |(c, l)| letters[c][l]);
        Ok((
            PyArray1::from_slice(py, &car),
            PyArray2::from_owned_array(py, rows),
            PyArray2::from_owned_array(py, letters),
        ))
    }

    /// Apply Autoscooter's factored plot (car, row, letter: `autoscooter::encoding::HEADS`).
    /// BadInput for a choice out of its range or another game; IllegalAction when the rules
    /// refuse it (a choice its mask excludes): nothing changed.
    fn apply_factored(&mut self, seat: i64, car: i64, row: i64, letter: i64) -> PyResult<()> {
        let seat = seat_of(seat, self.r.game.seats())?;
        let idx = |x: i64| usize::try_from(x).unwrap_or(usize::MAX);
        let action =
            self.r.autoscooter()?.factored_action(idx(car), idx(row), idx(letter)).ok_or_else(
                || bad(format!("factored plot ({car}, {row}, {letter}) out of range")),
            )?;
        let g = self.r.autoscooter_mut()?;
        engine::Game::apply(g, seat, &action, &mut Vec::new())
            .map_err(|e| IllegalAction::new_err((engine::RuleError::code(&e), e.to_string())))?;
        self.r.changed();
        self.r
            .log
            .push(Entry::Json(Arc::new(json!({"kind": "act", "seat": seat.0, "action": action}))));
        Ok(())
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
                r.log.push(Entry::Json(Arc::new(json!({"kind": "time_up"}))));
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
    r.changed();
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
    /// The setup read once into the game's typed setup: games start and restart from it by
    /// seed (the same game as from the JSON, without reading it again).
    starter: Box<dyn Starter>,
    seats: usize,
    obs_dim: usize,
    actions: usize,
    /// The arrays `observe` fills in place, allocated once: (N, seats, obs_dim) observations,
    /// (N, seats, actions) masks, (N, seats) rewards, (N,) done.
    obs: Py<PyArray3<f32>>,
    masks: Py<PyArray3<bool>>,
    rewards: Py<PyArray2<f32>>,
    done: Py<PyArray1<bool>>,
    /// (N, seats): how many legal actions each seat has (0: it owes nothing), with the masks.
    counts: Py<PyArray2<i64>>,
    /// (N,): whether each game's last `step_observe` was refused, and why.
    errors: Py<PyArray1<i8>>,
    messages: Vec<Option<String>>,
    /// `reset_done`'s new seed of each game (`None`: it runs on), kept from call to call.
    reseed: Vec<Option<u64>>,
    /// The batch's threads: contiguous chunks of games, the calling thread plays the first.
    pool: Pool,
}

/// The fewest games a thread is given: below that, a hand-off costs more than it saves.
const MIN_CHUNK: usize = 8;

/// What a call does to each game of its chunk.
#[derive(Clone, Copy, PartialEq)]
enum Work {
    /// Write its rows.
    Observe,
    /// Step it (its message and error flag), then write its rows.
    StepObserve,
    /// Step it (its message only).
    Step,
    /// Restart it when it has a new seed, and then write its rows.
    Restart,
}

/// Raw views of the batch's games and arrays, so that each thread can take the rows of its own
/// contiguous range of games ([`Raw::chunk`]) without a list of rows built per call.
struct Raw {
    n: usize,
    dims: (usize, usize, usize),
    games: *mut Running,
    acts: *const i64,
    o: *mut f32,
    m: *mut bool,
    r: *mut f32,
    dn: *mut bool,
    c: *mut i64,
    e: *mut i8,
    msg: *mut Option<String>,
    seeds: *const Option<u64>,
}

// SAFETY: the threads of one call take disjoint ranges of games (`pool::range`), so the rows
// they write are disjoint; `acts` and `seeds` are only read. Everything pointed to outlives the
// call (`Pool::run` returns after every chunk is done).
unsafe impl Sync for Raw {}

/// The rows of a contiguous range of games.
struct Chunk<'a> {
    games: &'a mut [Running],
    acts: &'a [i64],
    o: &'a mut [f32],
    m: &'a mut [bool],
    r: &'a mut [f32],
    dn: &'a mut [bool],
    c: &'a mut [i64],
    e: &'a mut [i8],
    msg: &'a mut [Option<String>],
    seeds: &'a [Option<u64>],
}

impl Raw {
    /// The rows of games `range` (disjoint ranges for different threads; see `Sync` above).
    /// Arrays a call does not use are empty (null pointers).
    ///
    /// # Safety
    /// `range` within `0..n`, taken by one thread at a time; the pointers valid for `n` games.
    unsafe fn chunk(&self, range: std::ops::Range<usize>) -> Chunk<'_> {
        let (s, d, a) = self.dims;
        let k = range.len();
        let i = range.start;
        // SAFETY (both): as the function's contract says; a null pointer stands for an
        // unused array.
        unsafe fn part<'b, T>(p: *mut T, at: usize, len: usize) -> &'b mut [T] {
            if p.is_null() || len == 0 {
                &mut []
            } else {
                unsafe { std::slice::from_raw_parts_mut(p.add(at), len) }
            }
        }
        unsafe fn shared<'b, T>(p: *const T, at: usize, len: usize) -> &'b [T] {
            if p.is_null() || len == 0 {
                &[]
            } else {
                unsafe { std::slice::from_raw_parts(p.add(at), len) }
            }
        }
        unsafe {
            Chunk {
                games: part(self.games, i, k),
                acts: shared(self.acts, i * s, k * s),
                o: part(self.o, i * s * d, k * s * d),
                m: part(self.m, i * s * a, k * s * a),
                r: part(self.r, i * s, k * s),
                dn: part(self.dn, i, k),
                c: part(self.c, i * s, k * s),
                e: part(self.e, i, k),
                msg: part(self.msg, i, k),
                seeds: shared(self.seeds, i, k),
            }
        }
    }
}

/// Do `work` to every game of `chunk`.
fn run_chunk(chunk: Chunk<'_>, work: Work, dims: (usize, usize, usize), starter: &dyn Starter) {
    let (s, d, a) = dims;
    let Chunk { games, acts, o, m, r, dn, c, e, msg, seeds } = chunk;
    for (i, g) in games.iter_mut().enumerate() {
        if matches!(work, Work::Step | Work::StepObserve) {
            let row = acts.get(i * s..(i + 1) * s).unwrap_or(&[]);
            msg[i] = step_one(g, row);
            if work == Work::Step {
                continue;
            }
            e[i] = i8::from(msg[i].is_some());
        }
        if work == Work::Restart {
            let Some(seed) = seeds[i] else { continue };
            if let Err(err) = g.restart(starter, seed) {
                msg[i] = Some(err);
                continue;
            }
        }
        let out = Out {
            o: o.get_mut(i * s * d..(i + 1) * s * d).unwrap_or_default(),
            m: m.get_mut(i * s * a..(i + 1) * s * a).unwrap_or_default(),
            r: &mut r[i * s..(i + 1) * s],
            dn: &mut dn[i],
            c: &mut c[i * s..(i + 1) * s],
        };
        observe_one(g, out, dims);
    }
}

/// The batch's numpy arrays, borrowed for writing (numpy's borrow checking: a Python caller
/// passing one of them as `actions` gets an error, not an alias).
type Arrays<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray3<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

impl Batch {
    /// Do `work` to every game, on the batch's threads without the GIL, writing the arrays
    /// (`actions`: the step's flat indices, [N, seats]). Returns after every game is done.
    fn run(&mut self, py: Python<'_>, work: Work, actions: Option<&[i64]>) -> PyResult<()> {
        let dims = (self.seats, self.obs_dim, self.actions);
        let n = self.games.len();
        let (obs, masks, rewards, done, counts, errors) = (
            self.obs.bind(py),
            self.masks.bind(py),
            self.rewards.bind(py),
            self.done.bind(py),
            self.counts.bind(py),
            self.errors.bind(py),
        );
        let (mut ow, mut mw, mut rw, mut dw, mut cw, mut ew) = (
            obs.readwrite(),
            masks.readwrite(),
            rewards.readwrite(),
            done.readwrite(),
            counts.readwrite(),
            errors.readwrite(),
        );
        let (o, m, r, dn, c, e) = (
            ow.as_slice_mut()?,
            mw.as_slice_mut()?,
            rw.as_slice_mut()?,
            dw.as_slice_mut()?,
            cw.as_slice_mut()?,
            ew.as_slice_mut()?,
        );
        let raw = Raw {
            n,
            dims,
            games: self.games.as_mut_ptr(),
            acts: actions.map_or(std::ptr::null(), <[i64]>::as_ptr),
            o: o.as_mut_ptr(),
            m: m.as_mut_ptr(),
            r: r.as_mut_ptr(),
            dn: dn.as_mut_ptr(),
            c: c.as_mut_ptr(),
            e: e.as_mut_ptr(),
            msg: self.messages.as_mut_ptr(),
            seeds: self.reseed.as_ptr(),
        };
        let starter = &*self.starter;
        let pool = &mut self.pool;
        let chunks = n.div_ceil(MIN_CHUNK).clamp(1, pool.threads());
        py.detach(|| {
            pool.run(chunks, &|k| {
                // SAFETY: chunk `k` of `chunks` contiguous ranges of the `n` games (disjoint),
                // taken once in this call; the arrays live until `pool.run` returns.
                let chunk = unsafe { raw.chunk(pool::range(raw.n, chunks, k)) };
                run_chunk(chunk, work, dims, starter);
            })
        });
        Ok(())
    }

    fn arrays_of<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        (
            self.obs.bind(py).clone(),
            self.masks.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.done.bind(py).clone(),
        )
    }

    /// The step's actions as one C-contiguous [N, seats] slice.
    fn check_actions<'a>(&self, actions: &'a PyReadonlyArray2<'_, i64>) -> PyResult<&'a [i64]> {
        let (n, s) = (self.games.len(), self.seats);
        let view = actions.as_array();
        if view.shape() != [n, s] {
            return Err(bad(format!("actions: shape {:?}, expected [{n}, {s}]", view.shape())));
        }
        actions.as_slice().map_err(|_| bad("actions: a C-contiguous int64 array"))
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (name, setup_json, seeds, obs_dim, actions, threads=None))]
    fn new(
        py: Python<'_>,
        name: &str,
        setup_json: &str,
        seeds: Vec<u64>,
        obs_dim: usize,
        actions: usize,
        threads: Option<usize>,
    ) -> PyResult<Batch> {
        if seeds.len() > MAX_BATCH {
            return Err(bad(format!("at most {MAX_BATCH} games in a batch, not {}", seeds.len())));
        }
        if obs_dim > MAX_WIDTH || actions > MAX_WIDTH {
            return Err(bad(format!("obs_dim and actions: at most {MAX_WIDTH}")));
        }
        let threads = threads.unwrap_or_else(pool::default_threads);
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(bad(format!("threads: 1 to {MAX_THREADS}, not {threads}")));
        }
        let setup = Arc::new(parse(setup_json, "setup")?);
        let kind = kind(name)?;
        let starter = kind.starter(&setup).map_err(bad)?;
        let games = seeds
            .iter()
            .map(|&s| Ok(Running::new(kind, starter.start(s).map_err(bad)?, setup.clone(), s)))
            .collect::<PyResult<Vec<_>>>()?;
        let seats = games.first().map_or(0, |g| g.game.seats());
        let n = games.len();
        Ok(Batch {
            games,
            starter,
            seats,
            obs_dim,
            actions,
            obs: PyArray3::zeros(py, [n, seats, obs_dim], false).unbind(),
            masks: PyArray3::from_owned_array(
                py,
                numpy::ndarray::Array3::from_elem((n, seats, actions), false),
            )
            .unbind(),
            rewards: PyArray2::zeros(py, [n, seats], false).unbind(),
            done: PyArray1::from_vec(py, vec![false; n]).unbind(),
            counts: PyArray2::zeros(py, [n, seats], false).unbind(),
            errors: PyArray1::zeros(py, [n], false).unbind(),
            messages: vec![None; n],
            reseed: vec![None; n],
            pool: Pool::new(threads),
        })
    }

    #[getter]
    fn seats(&self) -> usize {
        self.seats
    }

    /// The threads a call uses at most (the calling thread's included).
    #[getter]
    fn threads(&self) -> usize {
        self.pool.threads()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Restart game `i` with a new seed.
    fn reset(&mut self, i: usize, seed: u64) -> PyResult<()> {
        let slot = self.games.get_mut(i).ok_or_else(|| bad(format!("no game {i}")))?;
        slot.restart(&*self.starter, seed).map_err(bad)
    }

    /// Restart every finished game, with seeds `first_seed`, `first_seed + 1`, … in game order
    /// (on the batch's threads, without the GIL), and write their new rows of the arrays
    /// `observe` returns (the other games' rows are left as they are); returns how many were
    /// restarted.
    fn reset_done(&mut self, py: Python<'_>, first_seed: u64) -> PyResult<usize> {
        let mut k = 0u64;
        for (g, seed) in self.games.iter().zip(self.reseed.iter_mut()) {
            *seed = g.game.decision().is_none().then(|| {
                k += 1;
                first_seed.wrapping_add(k - 1)
            });
        }
        if k == 0 {
            return Ok(0);
        }
        self.messages.iter_mut().for_each(|m| *m = None);
        self.run(py, Work::Restart, None)?;
        match self.messages.iter_mut().find_map(Option::take) {
            Some(e) => Err(bad(e)),
            None => Ok(k as usize),
        }
    }

    /// A copy of game `i` as a `Game`.
    fn game(&self, i: usize) -> PyResult<Game> {
        self.games.get(i).map(|r| Game { r: r.clone() }).ok_or_else(|| bad(format!("no game {i}")))
    }

    /// Observations (N, seats, obs_dim) f32, masks (N, seats, actions) bool, rewards
    /// (N, seats) f32 and done (N,) bool, written on the batch's threads without the GIL
    /// straight from each game's state into the batch's own arrays (allocated once: the same
    /// arrays are returned by every call and overwritten by the next one — copy what you keep).
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        self.run(py, Work::Observe, None)?;
        Ok(self.arrays_of(py))
    }

    /// (N, seats) int64: how many legal actions each seat had at the last `observe` (0 when
    /// it owed nothing): the number of true entries of its mask row, without summing it.
    fn legal_counts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        self.counts.bind(py).clone()
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
        let owned: Vec<i64>;
        let flat: &[i64] = match actions.as_slice() {
            Ok(f) => f,
            Err(_) => {
                owned = a.iter().copied().collect();
                &owned
            }
        };
        self.run(py, Work::Step, Some(flat))?;
        Ok(self.messages.clone())
    }

    /// `step` then `observe` in one call, on the batch's threads without the GIL: each game
    /// steps and writes its rows of the batch's arrays (the ones `observe` returns) in the
    /// same pass. Returns how many games refused their step (left unchanged); `errors()` says
    /// which (int8 per game, the batch's own array) and `error_messages()` why. No Python
    /// object is made, and nothing allocated, per game or per step.
    fn step_observe(&mut self, py: Python<'_>, actions: PyReadonlyArray2<i64>) -> PyResult<usize> {
        let flat = self.check_actions(&actions)?;
        self.run(py, Work::StepObserve, Some(flat))?;
        Ok(self.messages.iter().filter(|m| m.is_some()).count())
    }

    /// The arrays `observe` fills, as they are now (nothing computed).
    fn arrays<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        self.arrays_of(py)
    }

    /// (N,) int8: 1 for each game whose last `step_observe` was refused (it did not change).
    fn errors<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.errors.bind(py).clone()
    }

    /// Why each game's last `step_observe` was refused (`None`: it stepped).
    fn error_messages(&self) -> Vec<Option<String>> {
        self.messages.clone()
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
                    g.changed();
                    n
                })
                .sum()
        })
    }
}

/// One game's rows of the batch's arrays.
struct Out<'a> {
    o: &'a mut [f32],
    m: &'a mut [bool],
    r: &'a mut [f32],
    dn: &'a mut bool,
    c: &'a mut [i64],
}

/// Write one game's observations, masks, rewards, done flag and legal counts into its rows
/// (`s` seats, `d` numbers per observation, `a` mask entries per seat).
fn observe_one(g: &mut Running, out: Out<'_>, (s, d, a): (usize, usize, usize)) {
    let Out { o, m, r, dn, c } = out;
    let decision = g.game.decision();
    for seat in 0..s {
        let st = Seat(seat as u8);
        if d > 0 {
            g.observation(st, &mut o[seat * d..(seat + 1) * d]);
        }
        let m = &mut m[seat * a..(seat + 1) * a];
        let n = if decision.as_ref().is_some_and(|d| d.owes(st)) { g.legal_len(st) } else { 0 };
        let k = n.min(a);
        m[..k].fill(true);
        m[k..].fill(false);
        c[seat] = n as i64;
    }
    match decision {
        Some(_) => r.fill(0.0),
        None => r.copy_from_slice(&g.rewards()),
    }
    *dn = decision.is_none();
}

/// The native baseline of the benchmark (`docs/benchmarks.md` "Python"): `len(seeds)` games
/// of this setup started, then played to their end with random legal actions by the engine's
/// own typed driver (`engine::play_random` through `AnyGame::play_random`: no JSON, no Python),
/// on one thread, or on rayon's threads (every core) with `parallel`. Returns (actions, seconds
/// of play; starting the games is not counted).
#[pyfunction]
#[pyo3(signature = (name, setup_json, seeds, parallel=false))]
fn native_random(
    py: Python<'_>,
    name: &str,
    setup_json: &str,
    seeds: Vec<u64>,
    parallel: bool,
) -> PyResult<(u64, f64)> {
    let setup = parse(setup_json, "setup")?;
    let kind = kind(name)?;
    let mut games =
        seeds.iter().map(|&s| kind.start(&setup, s).map_err(bad)).collect::<PyResult<Vec<_>>>()?;
    Ok(py.detach(move || {
        let t = Instant::now();
        let play = |(i, g): (usize, &mut Box<dyn AnyGame>)| {
            let mut rng = Rng::seeded(i as u64 ^ 0x5eed);
            g.play_random(&mut rng, 1_000_000) as u64
        };
        let n: u64 = if parallel {
            games.par_iter_mut().enumerate().map(play).sum()
        } else {
            games.iter_mut().enumerate().map(play).sum()
        };
        (n, t.elapsed().as_secs_f64())
    }))
}

/// The same-work native baseline of the benchmark (`docs/benchmarks.md` "Python, fifth round"):
/// what `Batch.step_observe` and `Batch.reset_done` do per game and step, in a plain Rust loop
/// over `AnyGame` with no Python between steps and no record kept. `games` games of this setup
/// (seeds `0 …`) are cut into `threads` contiguous chunks, each played on its own thread for
/// `steps` steps: every owing seat's legal actions counted (or listed once, for a game that
/// does not count them), a uniformly random index below that count applied in seat order,
/// then every seat's observation (`obs_dim` numbers), mask row (`actions` entries), legal
/// count and reward written into buffers allocated once, and a finished game restarted from
/// the setup read once (`Kind::starter`) with the next seed and its rows written again.
/// Returns (actions applied, seconds; starting the games is not counted).
#[pyfunction]
#[pyo3(signature = (name, setup_json, games, steps, obs_dim, actions, threads=1))]
#[allow(clippy::too_many_arguments)]
fn native_same_work(
    py: Python<'_>,
    name: &str,
    setup_json: &str,
    games: usize,
    steps: usize,
    obs_dim: usize,
    actions: usize,
    threads: usize,
) -> PyResult<(u64, f64)> {
    if games > MAX_BATCH || obs_dim > MAX_WIDTH || actions > MAX_WIDTH || threads > 256 {
        return Err(bad("native_same_work: too many games, threads or too wide rows"));
    }
    let setup = parse(setup_json, "setup")?;
    let starter = kind(name)?.starter(&setup).map_err(bad)?;
    let mut all = (0..games as u64)
        .map(|s| starter.start(s).map_err(bad))
        .collect::<PyResult<Vec<Box<dyn AnyGame>>>>()?;
    let seats = all.first().map_or(0, |g| g.seats());
    let threads = threads.clamp(1, games.max(1));
    let chunk = games.div_ceil(threads).max(1);
    let starter = &*starter;
    Ok(py.detach(move || {
        let t = Instant::now();
        let n: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = all
                .chunks_mut(chunk)
                .enumerate()
                .map(|(k, part)| {
                    scope.spawn(move || {
                        same_work_chunk(part, starter, (seats, obs_dim, actions), steps, k)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        });
        (n, t.elapsed().as_secs_f64())
    }))
}

/// One thread's games of [`native_same_work`]; `k` numbers the chunk (its seeds and draws).
fn same_work_chunk(
    games: &mut [Box<dyn AnyGame>],
    starter: &dyn Starter,
    (s, d, a): (usize, usize, usize),
    steps: usize,
    k: usize,
) -> u64 {
    let ng = games.len();
    let mut obs = vec![0.0f32; ng * s * d];
    let mut masks = vec![false; ng * s * a];
    let mut rewards = vec![0.0f32; ng * s];
    let mut counts = vec![0usize; ng * s];
    let mut lists: Vec<Option<Box<dyn Listed>>> = (0..ng * s).map(|_| None).collect();
    let mut scratch: Vec<Scratch> = (0..ng).map(|_| Scratch::default()).collect();
    let mut rng = Rng::seeded(0x5eed ^ k as u64);
    let mut seed = 1_000_000 * (k as u64 + 1);
    let mut n = 0u64;
    // Every seat's rows of game `i`: observation, legal count (listed once if need be), mask
    // row, reward.
    let write = |g: &dyn AnyGame,
                 i: usize,
                 obs: &mut [f32],
                 masks: &mut [bool],
                 rewards: &mut [f32],
                 counts: &mut [usize],
                 lists: &mut [Option<Box<dyn Listed>>]| {
        let decision = g.decision();
        for seat in 0..s {
            let st = Seat(seat as u8);
            let row = i * s + seat;
            if d > 0 {
                let o = &mut obs[row * d..(row + 1) * d];
                let w = g.view_features(Observer::Seat(st), o);
                o[..w].iter_mut().for_each(|x| *x = x.clamp(-LIMIT, LIMIT));
            }
            lists[row] = None;
            let c = if decision.as_ref().is_some_and(|d| d.owes(st)) {
                match g.count_legal_any(st) {
                    Some(c) => c,
                    None => {
                        let l = g.list_legal(st);
                        let c = l.len();
                        lists[row] = Some(l);
                        c
                    }
                }
            } else {
                0
            };
            counts[row] = c;
            let m = &mut masks[row * a..(row + 1) * a];
            let kk = c.min(a);
            m[..kk].fill(true);
            m[kk..].fill(false);
        }
        let r = &mut rewards[i * s..(i + 1) * s];
        match decision {
            Some(_) => r.fill(0.0),
            None => r.copy_from_slice(&rewards_of(g)),
        }
    };
    for (i, g) in games.iter().enumerate() {
        write(&**g, i, &mut obs, &mut masks, &mut rewards, &mut counts, &mut lists);
    }
    for _ in 0..steps {
        for (i, g) in games.iter_mut().enumerate() {
            if let Some(decision) = g.decision() {
                let owing = match decision {
                    Decision::One(st) => engine::SeatSet::single(st),
                    Decision::Simultaneous(set) => set,
                };
                for st in owing.iter() {
                    let row = i * s + st.index();
                    let c = counts[row];
                    if c == 0 {
                        continue;
                    }
                    let idx = rng.index(c);
                    let ok = match lists[row].take() {
                        Some(l) => g.apply_listed(st, &*l, idx),
                        None => g.apply_nth_reusing(st, idx, &mut scratch[i]),
                    };
                    if ok.is_ok() {
                        n += 1;
                    }
                }
            }
            write(&**g, i, &mut obs, &mut masks, &mut rewards, &mut counts, &mut lists);
            if g.decision().is_none() {
                if let Ok(new) = starter.start(seed) {
                    *g = new;
                }
                seed += 1;
                write(&**g, i, &mut obs, &mut masks, &mut rewards, &mut counts, &mut lists);
            }
        }
    }
    std::hint::black_box((&obs, &masks, &rewards));
    n
}

/// The end rewards of a game (zeros while it runs): [`rewards`] of its outcome.
fn rewards_of(g: &dyn AnyGame) -> Vec<f32> {
    match g.outcome_json() {
        None => vec![0.0; g.seats()],
        Some(_) => rewards(&engine_outcome(g), g.seats()),
    }
}

/// The most games in one `Batch`, and the widest observation or mask.
const MAX_BATCH: usize = 1 << 16;
const MAX_WIDTH: usize = 1 << 20;
/// The most threads of one `Batch`.
const MAX_THREADS: usize = 256;

/// One game's step: every owing seat's index checked against the legal actions of the state
/// before the step, then applied in seat order. A bad index leaves the game unchanged. Nothing
/// is allocated (a seat set has at most 16 seats).
fn step_one(g: &mut Running, row: &[i64]) -> Option<String> {
    let owing = match g.game.decision() {
        None => return None,
        Some(Decision::One(s)) => engine::SeatSet::single(s),
        Some(Decision::Simultaneous(set)) => set,
    };
    let mut chosen = [(Seat(0), 0usize); 16];
    let mut k = 0;
    for seat in owing.iter() {
        let n = g.legal_len(seat);
        let idx = row.get(seat.index()).copied().unwrap_or(-1);
        match usize::try_from(idx).ok().filter(|&i| i < n) {
            Some(i) if k < chosen.len() => {
                chosen[k] = (seat, i);
                k += 1;
            }
            _ => {
                return Some(format!(
                    "seat {}: action index {idx} is not legal ({n} legal actions)",
                    seat.0
                ));
            }
        }
    }
    // Simultaneous secret choices do not change another seat's legal actions; should a rule
    // ever do so, the game is restored — by replaying its record (it is a function of its
    // setup, seed and record), so that no step pays for a copy kept just in case.
    let len = g.log.len();
    for (j, &(seat, i)) in chosen[..k].iter().enumerate() {
        if let Err(e) = g.apply_nth(seat, i) {
            if j > 0
                && let Err(r) = g.restore(len)
            {
                return Some(format!("seat {}: {e:?}; and the game did not replay: {r}", seat.0));
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
    m.add_function(wrap_pyfunction!(native_random, m)?)?;
    m.add_function(wrap_pyfunction!(native_same_work, m)?)?;
    m.add("RobodromeError", m.py().get_type::<RobodromeError>())?;
    m.add("BadInput", m.py().get_type::<BadInput>())?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add("ReplayError", m.py().get_type::<ReplayError>())?;
    Ok(())
}
