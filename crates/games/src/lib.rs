//! The registry of Robodrome's games: every game registers here ONCE, and every dispatcher
//! (the scenario runner, the server, the command line's `scenario`, `sim`, `tournament` and
//! `board`, the architecture test) reads it instead of naming games itself.
//!
//! A game registers by implementing [`Registered`] (one module per game here: what the lobby
//! shows, how a setup is built from a lobby request or the command line, the scenario file
//! adapter, the simulation tally, its pictures and its bots) and by one line in [`all`].
//!
//! This crate decides no rule: seat ranges, lap limits and default boards are the game
//! crates' constants, and every setup is checked by starting a game.

mod any;
mod autoscooter;
mod bumping_bots;
mod championship;
pub mod duel;
pub mod features;
pub mod random;
pub mod render;
mod roborally;
pub mod scenario;
pub mod sim;
mod toy;

pub use any::{ActError, AnyGame, Applied, Listed, Scratch};
pub use engine::check::{Finding, Severity};
pub use scenario::{SchemaError, from_value};

use bots::{Bot, BotSpec};
use engine::{Game, Seat};
use serde::Serialize;
use serde_json::{Map, Value};

/// Every game Robodrome has, one line each. The order is the order of listings.
pub fn all() -> Vec<Kind> {
    vec![
        Kind::of::<::autoscooter::Autoscooter>(),
        Kind::of::<::roborally::RoboRally>(),
        Kind::of::<::bumping_bots::BumpingBots>(),
        Kind::of::<::bumping_bots::championship::Championship>(),
        Kind::of::<::toy::Rps>(),
    ]
}

/// What a lobby request or the command line asks for, as a game's setup builder sees it.
#[derive(Debug, Clone, Default)]
pub struct SetupRequest {
    pub players: usize,
    /// A shipped board's id; `None` for the game's default.
    pub board: Option<String>,
    /// The optional rules switched on, as a JSON object (`{"jolting": true}`).
    pub variants: Option<Value>,
    /// Other choices (`{"beginners": true}`, `{"laps": 1}`).
    pub options: Option<Value>,
}

impl SetupRequest {
    /// An option's value, if given.
    pub fn option(&self, key: &str) -> Option<&Value> {
        self.options.as_ref().and_then(|o| o.get(key))
    }
}

/// A shipped board, course or track.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BoardInfo {
    pub id: String,
    pub title: String,
}

/// A variant or an option as the lobby offers it: a check box.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Choice {
    pub key: &'static str,
    /// The player-facing label.
    pub title: &'static str,
    /// A longer explanation (a tooltip).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub help: &'static str,
    /// For an option: the value sent when it is ticked (`true` when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

impl Choice {
    pub const fn new(key: &'static str, title: &'static str, help: &'static str) -> Choice {
        Choice { key, title, help, value: None }
    }

    /// The "last player" clock option of a game whose rules have no timer (Autoscooter,
    /// Bumping Bots): ticked, the last player to decide has 30 seconds.
    pub fn last_player_clock() -> Choice {
        Choice {
            key: LAST_PLAYER_OPTION,
            title: "Last player clock (30 s)",
            help: "When everybody else has decided, the last player has 30 seconds; then the \
                   rules' default decides for them",
            value: Some(Value::from(30)),
        }
    }
}

/// The setup option of the "last player" clock, in seconds.
pub const LAST_PLAYER_OPTION: &str = "last_player_seconds";

/// The longest clock a lobby request may set, in seconds (an hour).
pub const MAX_CLOCK_SECONDS: u64 = 3600;

/// The "last player" clock's seconds asked for in a request (0: off), checked.
pub(crate) fn last_player_seconds(req: &SetupRequest) -> Result<u32, String> {
    match req.option(LAST_PLAYER_OPTION) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => match v.as_u64() {
            Some(s) if s <= MAX_CLOCK_SECONDS => Ok(s as u32),
            _ => Err(format!("{LAST_PLAYER_OPTION}: 0 to {MAX_CLOCK_SECONDS} seconds, not {v}")),
        },
    }
}

/// What the lobby and the tables need to know of a game (served by `GET /api/kinds`).
#[derive(Serialize, Clone, Debug)]
pub struct Info {
    pub name: &'static str,
    pub title: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    /// What the game calls its board: `rink`, `course`, `track`.
    pub board_noun: &'static str,
    pub boards: Vec<BoardInfo>,
    pub default_board: Option<String>,
    pub variants: Vec<Choice>,
    pub options: Vec<Choice>,
    /// The planning timer the lobby proposes, in seconds (`None`: off).
    pub default_timer_secs: Option<u32>,
    /// Where the lobby's timer is a rule of the game (RoboRally's hourglass, RR-4.3): the
    /// setup option it goes into. The server then runs only the game's own clock
    /// ([`engine::Game::clock`]) and no timer of its own: one setting. `None`: the lobby's
    /// timer is the server's, a deadline for every decision.
    pub timer_option: Option<&'static str>,
    /// Offered in the lobby of a normal `robodrome serve` (the toy game is not).
    #[serde(skip)]
    pub public: bool,
    /// The rules crate (checked by the architecture test).
    #[serde(skip)]
    pub rules_crate: &'static str,
    /// The rules crate's `RULES_VERSION`: stored with every game a server starts; a stored game
    /// of another version is not replayed (docs/security.md "Rules versions").
    #[serde(skip)]
    pub rules_version: u32,
    /// The prefix of the game's shared conformance examples (`as-`), if it has any.
    #[serde(skip)]
    pub conformance_prefix: Option<&'static str>,
    /// `robodrome sim` defaults: players and games.
    #[serde(skip)]
    pub sim_players: usize,
    #[serde(skip)]
    pub sim_games: u64,
}

/// A game as the registry knows it. Implemented once per game, in this crate.
pub trait Registered: Game {
    /// The game's figures for `robodrome sim`.
    type Tally: sim::Tally<Self>;
    fn info() -> Info;
    /// The setup of a new game from a lobby request or the command line. Players, board and
    /// variant names are already checked against [`Registered::info`].
    fn setup(req: &SetupRequest) -> Result<Self::Setup, String>;
    /// The most actions a simulated game may take before it is stopped.
    fn action_cap(_req: &SetupRequest) -> usize {
        1_000_000
    }
    /// Whether a simulated game has reached the request's own limit (RoboRally: `max_turns`)
    /// and is stopped there, unfinished. Checked before every action.
    fn sim_limit_reached(&self, _req: &SetupRequest) -> bool {
        false
    }
    /// A bot of the given strength.
    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>>;
    /// One random action of `robodrome sim` for `seat`: [`Game::sample_action`], then
    /// [`Game::apply`] with its events tallied (in order) and the list emptied. `None`: no action
    /// to sample; `Some(false)`: the action was refused. A game may serve it by a path of its
    /// own that draws the same numbers in the same order and tallies the same figures without
    /// building the action or the events nobody reads (Autoscooter: `Autoscooter::play_random`
    /// into the tally; issue 17).
    fn sim_random_step(
        &mut self,
        seat: engine::Seat,
        rng: &mut engine::Rng,
        events: &mut Vec<Self::Event>,
        tally: &mut Self::Tally,
    ) -> Option<bool> {
        let action = self.sample_action(seat, rng)?;
        let applied = self.apply(seat, &action, events).is_ok();
        sim::tally_events::<Self, _>(tally, events);
        Some(applied)
    }
    /// A whole all-random game of `robodrome sim` by the game's own loop, when every seat is
    /// random and [`Registered::sim_limit_reached`] is never true: the same actions as calling
    /// [`Registered::sim_random_step`] for the seat [`Game::decision`] names until the game ends
    /// or `max_actions` are played (the same draws, the same tally), without asking for the
    /// decision between actions. Returns the actions played; `None` (the default): the game
    /// has no such loop and the sim plays action by action (issue 17; Autoscooter).
    fn sim_random_game(
        &mut self,
        _rng: &mut engine::Rng,
        _tally: &mut Self::Tally,
        _max_actions: usize,
    ) -> Option<u64> {
        None
    }
    /// Make `self` the game `G::new(setup, seed)` would build, in place, keeping what it
    /// allocated (its vectors, its board's `Arc`): `robodrome sim` plays game after game on one
    /// thread from one setup, and building each anew cost a race's allocations and the board
    /// cache's comparison of the whole `BoardSpec` (issue 17). `setup` is the one `self` was
    /// built from (the sim's promise; a game may rely on it, e.g. keep its board). The same
    /// draws in the same order as `G::new`: the reset game equals a new one. `false` (the
    /// default): not done, and the sim builds the game with `G::new` (`self`, in whatever
    /// state, is dropped).
    fn sim_reset(&mut self, _setup: &Self::Setup, _seed: u64) -> bool {
        false
    }
    /// The seats in first place of a finished game for `robodrome sim`: the first group of
    /// [`Game::outcome`]'s ranking, which a game may read without building the whole outcome
    /// (Autoscooter: `Autoscooter::winners`). `None` while the game is not over.
    fn sim_winners(&self) -> Option<engine::SeatSet> {
        self.outcome().map(|o| o.winners().iter().copied().collect())
    }
    /// The observer's view for machine observers (the Python package's observations,
    /// [`features`]): the view, or a lighter one with the same information — without what a
    /// table derives its controls from (each game's `choices`, computed
    /// from the legal actions and previews of moves on the visible position). Never more than
    /// [`Game::view`] shows the observer.
    fn lean_view(&self, observer: engine::Observer) -> Self::View {
        self.view(observer)
    }
    /// The observer's observation ([`features`]): the numbers of [`Registered::lean_view`]
    /// written into `out` (zero-filled after them); returns how many. A game crate that writes
    /// the same numbers straight from its state, without building the view, serves it here
    /// (Autoscooter, Bumping Bots, RoboRally: `write_observation`, checked against this default
    /// by the game's tests).
    fn write_observation(&self, observer: engine::Observer, out: &mut [f32]) -> usize {
        features::write(&self.lean_view(observer), out)
    }
    /// How many legal actions `seat` has (`legal_actions(seat).len()`) when the game counts
    /// them without listing them — Autoscooter's plots (`autoscooter::encoding`); `None`: the
    /// game does not, callers list. The flat action index of the Python package
    /// (docs/python.md "Encodings") uses it with [`Registered::nth_legal`].
    fn count_legal(&self, _seat: engine::Seat) -> Option<usize> {
        None
    }
    /// `legal_actions(seat)[index]` computed without listing, for a game whose
    /// [`Registered::count_legal`] is `Some` (`None` past the end, or when it is not).
    fn nth_legal(&self, _seat: engine::Seat, _index: usize) -> Option<Self::Action> {
        None
    }
    /// Scenario files: the game's setup from the file's `board`, `setup` and `variants`.
    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Self::Setup, SchemaError>;
    /// The round number printed as `round`.
    fn scenario_round(&self) -> u32;
    /// The phase printed as `phase` (`"over"` when the game has ended).
    fn scenario_phase(&self) -> &'static str;
    /// The `state` object (omniscient).
    fn scenario_state(&self) -> Value;
    /// A picture (SVG) of a shipped board by name, or of a board file's text.
    fn render(name: &str, _file: Option<&str>) -> Result<String, String> {
        Err(format!("{} has no pictures (asked for {name:?})", Self::NAME))
    }
    /// `robodrome bench`: a label and a function that plays random game number `i` and returns
    /// its number of actions. By default: the `sim` defaults, random actions to the end.
    fn bench() -> Result<Bench, String> {
        let info = Self::info();
        let req = SetupRequest { players: info.sim_players, ..Default::default() };
        let setup = Self::setup(&req)?;
        let start = Self::new(&setup, 1).map_err(|e| e.to_string())?;
        let cap = Self::action_cap(&req);
        let mut rng = engine::Rng::seeded(1);
        let mut events = Vec::with_capacity(512);
        let label = match &info.default_board {
            Some(b) => format!("{}, {} players, {b}", Self::NAME, info.sim_players),
            None => format!("{}, {} players", Self::NAME, info.sim_players),
        };
        Ok((
            label,
            Box::new(move |_| {
                let mut g = start.clone();
                events.clear();
                engine::play_random(&mut g, &mut rng, &mut events, cap) as u64
            }),
        ))
    }
    /// Further pictures `board render` draws besides the boards (Autoscooter's `chart`).
    fn extra_pictures() -> &'static [&'static str] {
        &[]
    }
    /// `robodrome board check`: the game crate's checker over a board file's text (errors and
    /// warnings by line and column). A game without board files says so.
    fn check(_text: &str) -> Vec<Finding> {
        vec![Finding::error("", format!("{} has no board files", Self::NAME))]
    }
    /// Whether a board file's text looks like this game's (its first keyword or bracket), so
    /// that `board check FILE` finds the game by itself.
    fn recognises(_text: &str) -> bool {
        false
    }
    /// The text of a shipped board, as its file holds it (checked by the registry's tests).
    fn shipped_text(_id: &str) -> Option<&'static str> {
        None
    }
    /// The rules page and context help of the client: the game crate's rule book
    /// (`engine::rulebook`). Empty: the game has no rules page.
    fn rules() -> Vec<engine::rulebook::Topic> {
        Vec::new()
    }
    /// The shipped board the rules page's diagrams are drawn from (`None`: the default one).
    fn rules_board() -> Option<&'static str> {
        None
    }
    /// A playable state from `seat`'s view (its JSON, as the server sends it) of a game made
    /// from `setup`, with `waiting` (the seats the same frame says owe a decision), what the
    /// view hides drawn from `rng`: the game crate's determinization from a view, which a
    /// remote bot (`robodrome bot`) thinks on. `Err` says why not (a game or a stage that
    /// cannot be rebuilt from a view: the client then chooses from the view).
    fn from_view(
        _setup: &Self::Setup,
        _view: &Value,
        _waiting: &[Seat],
        _seat: Seat,
        _rng: &mut engine::Rng,
    ) -> Result<Self, String> {
        Err(format!("{}: no state is rebuilt from a seat's view yet", Self::NAME))
    }
    /// The setup of a new game on a board file's text (a board saved on the server, made in the
    /// editor: docs/editors.md). The text is checked by the game crate's loader; a text with
    /// errors is refused. A game without board files says so.
    fn setup_on_board(_req: &SetupRequest, _text: &str) -> Result<Self::Setup, String> {
        Err(format!("{} cannot be played on a board file", Self::NAME))
    }
    /// The editor's live answer about a board file's text (`POST /api/boards/validate`): the
    /// checker's findings and, where the game crate knows them, the cells each concerns and
    /// what it computes from the board (Bumping Bots: progress and lane of every cell), plus
    /// `size`, the number of cells (the server's limit), when the text parses. By default:
    /// the findings of [`Registered::check`], no cells.
    fn inspect(text: &str) -> Value {
        serde_json::json!({ "findings": findings_json(&Self::check(text), |_| None) })
    }
    /// A difficulty estimate of a board file's text from the bots (docs/editors.md
    /// "Difficulty"): at most `games` games, each of at most `max_turns` turns, none begun
    /// after `deadline`. `None`: the game gives none (only RoboRally does).
    fn difficulty(
        _text: &str,
        _games: u32,
        _max_turns: u32,
        _deadline: std::time::Instant,
    ) -> Option<Result<Value, String>> {
        None
    }
}

/// Findings as the editor reads them: `severity`, `line`, `column` (absent for the whole file),
/// `rule`, `message` and `cell` (a game's coordinates of the cell it concerns, when known).
pub fn findings_json(findings: &[Finding], cell: impl Fn(usize) -> Option<Value>) -> Value {
    Value::Array(
        findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let mut o = Map::new();
                o.insert("severity".into(), f.severity.name().into());
                if let Some(p) = f.place {
                    o.insert("line".into(), p.line.into());
                    o.insert("column".into(), p.column.into());
                }
                o.insert("rule".into(), f.rule.into());
                o.insert("message".into(), f.message.clone().into());
                if let Some(c) = cell(i) {
                    o.insert("cell".into(), c);
                }
                Value::Object(o)
            })
            .collect(),
    )
}

type SetupFn = fn(&SetupRequest) -> Result<Value, String>;
type StartFn = fn(&Value, u64) -> Result<Box<dyn AnyGame>, String>;
type ScenarioFn = fn(&Map<String, Value>, Option<Seat>) -> Result<scenario::Outcome, SchemaError>;
type SimFn = fn(&sim::Request, &(dyn Fn(u64) + Sync)) -> Result<sim::Report, String>;
type DuelFn = fn(&Value, u64, &BotSpec, &BotSpec, u8) -> Result<duel::GameResult, String>;
type RenderFn = fn(&str, Option<&str>) -> Result<String, String>;
type CheckFn = fn(&str) -> Vec<Finding>;
type FromViewFn = fn(&Value, &Value, &[Seat], Seat, u64) -> Result<Box<dyn AnyGame>, String>;
type SetupFn2 = fn(&SetupRequest, &str) -> Result<Value, String>;
/// A measurement's label and a function playing game `i` (returns its number of actions).
pub type Bench = (String, Box<dyn FnMut(u64) -> u64>);

/// One registered game, its type erased.
pub struct Kind {
    pub info: Info,
    setup: SetupFn,
    start: StartFn,
    starter: fn(&Value) -> Result<Box<dyn Starter>, String>,
    scenario: ScenarioFn,
    scenario_setup: fn(&Map<String, Value>) -> Result<Value, SchemaError>,
    sim: SimFn,
    duel: DuelFn,
    render: RenderFn,
    extra_pictures: fn() -> &'static [&'static str],
    bench: fn() -> Result<Bench, String>,
    check: CheckFn,
    recognises: fn(&str) -> bool,
    shipped_text: fn(&str) -> Option<&'static str>,
    rules: fn() -> Vec<engine::rulebook::Topic>,
    sample_static: fn(&Info) -> Option<Value>,
    from_view: FromViewFn,
    setup_on_board: SetupFn2,
    inspect: fn(&str) -> Value,
    difficulty: DifficultyFn,
}

type DifficultyFn = fn(&str, u32, u32, std::time::Instant) -> Option<Result<Value, String>>;

impl std::fmt::Debug for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kind").field("name", &self.info.name).finish_non_exhaustive()
    }
}

impl Kind {
    pub fn of<G: Registered>() -> Kind {
        Kind {
            info: G::info(),
            setup: setup_json::<G>,
            start: start_json::<G>,
            starter: starter_json::<G>,
            scenario: scenario::run_game::<G>,
            scenario_setup: scenario::setup_json::<G>,
            sim: sim::run_erased::<G>,
            duel: duel::play_json::<G>,
            render: G::render,
            extra_pictures: G::extra_pictures,
            bench: G::bench,
            check: G::check,
            recognises: G::recognises,
            shipped_text: G::shipped_text,
            rules: G::rules,
            sample_static: sample_static::<G>,
            from_view: from_view_json::<G>,
            setup_on_board: setup_on_board_json::<G>,
            inspect: G::inspect,
            difficulty: G::difficulty,
        }
    }
    /// A playable state from `seat`'s view of a game made from `setup` (both JSON, as the
    /// server sends them) and the seats the view's frame says owe a decision (`waiting`),
    /// what the view hides drawn from `seed`: [`Registered::from_view`].
    pub fn from_view(
        &self,
        setup: &Value,
        view: &Value,
        waiting: &[Seat],
        seat: Seat,
        seed: u64,
    ) -> Result<Box<dyn AnyGame>, String> {
        (self.from_view)(setup, view, waiting, seat, seed)
    }
    pub fn name(&self) -> &'static str {
        self.info.name
    }
    /// The setup JSON of a new game (checked by starting a game, so a bad request fails here
    /// and not at the start).
    pub fn make_setup(&self, req: &SetupRequest) -> Result<Value, String> {
        check_request(&self.info, req)?;
        let setup = (self.setup)(req)?;
        (self.start)(&setup, 0)?;
        Ok(setup)
    }
    /// The setup JSON of a new game on a board file's text (a saved board): the request's
    /// `board` must be `None`; checked by starting a game, like [`Kind::make_setup`].
    pub fn make_setup_on_board(&self, req: &SetupRequest, text: &str) -> Result<Value, String> {
        if req.board.is_some() {
            return Err("a game on a board file names no shipped board".into());
        }
        check_request(&self.info, req)?;
        let setup = (self.setup_on_board)(req, text)?;
        (self.start)(&setup, 0)?;
        Ok(setup)
    }
    /// The editor's live answer about a board file's text ([`Registered::inspect`]).
    pub fn inspect(&self, text: &str) -> Value {
        (self.inspect)(text)
    }
    /// The bots' difficulty estimate of a board file's text ([`Registered::difficulty`]).
    pub fn difficulty(
        &self,
        text: &str,
        games: u32,
        max_turns: u32,
        deadline: std::time::Instant,
    ) -> Option<Result<Value, String>> {
        (self.difficulty)(text, games, max_turns, deadline)
    }
    /// Start a game from a stored setup JSON and seed.
    pub fn start(&self, setup: &Value, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        (self.start)(setup, seed)
    }
    /// The setup JSON read once into the game's typed setup, to start many games from it by
    /// seed (the Python package's batch restarting its finished games): `starter(s)?.start(seed)`
    /// is the game `start(s, seed)` is, without reading the JSON again.
    pub fn starter(&self, setup: &Value) -> Result<Box<dyn Starter>, String> {
        (self.starter)(setup)
    }
    /// Play a scenario file (its top-level object), optionally printing a seat's view.
    pub fn scenario(
        &self,
        top: &Map<String, Value>,
        view: Option<Seat>,
    ) -> Result<scenario::Outcome, SchemaError> {
        (self.scenario)(top, view)
    }
    /// The game's setup JSON (what [`Kind::start`] takes and the server stores) from a scenario
    /// file's top-level object (its `board`, `setup` and `variants`; checked by starting a
    /// game). The file's `actions` are not played.
    pub fn scenario_setup(&self, top: &Map<String, Value>) -> Result<Value, SchemaError> {
        (self.scenario_setup)(top)
    }
    /// `robodrome sim`: many games, `progress` called with the number played so far.
    pub fn sim(
        &self,
        req: &sim::Request,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<sim::Report, String> {
        check_request(&self.info, &req.setup)?;
        (self.sim)(req, progress)
    }
    /// One two-bot game from a setup made by [`Kind::make_setup`]: bot `a` in seat `a_seat`.
    pub fn duel(
        &self,
        setup: &Value,
        seed: u64,
        a: &BotSpec,
        b: &BotSpec,
        a_seat: u8,
    ) -> Result<duel::GameResult, String> {
        (self.duel)(setup, seed, a, b, a_seat)
    }
    /// A picture of a shipped board (or of `extra_pictures`), or of a board file's text. A
    /// file is checked first ([`Kind::check`]): one with errors is refused, naming each place.
    pub fn render(&self, name: &str, file: Option<&str>) -> Result<String, String> {
        if let Some(text) = file {
            let errors: Vec<String> =
                self.check(text).iter().filter(|f| f.is_error()).map(|f| f.to_string()).collect();
            if !errors.is_empty() {
                return Err(format!("{name}: {}", errors.join("; ")));
            }
        }
        (self.render)(name, file)
    }
    /// The game crate's checker over a board file's text: errors and warnings, sorted by place.
    pub fn check(&self, text: &str) -> Vec<Finding> {
        (self.check)(text)
    }
    /// Whether a board file's text looks like this game's.
    pub fn recognises(&self, text: &str) -> bool {
        (self.recognises)(text)
    }
    /// The text of a shipped board, if the game ships it as a file.
    pub fn shipped_text(&self, id: &str) -> Option<&'static str> {
        (self.shipped_text)(id)
    }
    pub fn extra_pictures(&self) -> &'static [&'static str] {
        (self.extra_pictures)()
    }
    /// The rules page of the client (`GET /api/kinds/{game}/rules`): the game crate's topics
    /// and, for the diagrams the client draws with its own renderers, the static part (board
    /// and rule tables) of a game on the default board, or `null`.
    pub fn rules_page(&self) -> Value {
        serde_json::json!({
            "game": self.info.name,
            "title": self.info.title,
            "topics": (self.rules)(),
            "static": (self.sample_static)(&self.info),
        })
    }
    /// What `robodrome bench` measures for this game.
    pub fn bench(&self) -> Result<Bench, String> {
        (self.bench)()
    }
}

/// Players, board and variant names against what the game registered.
fn check_request(info: &Info, req: &SetupRequest) -> Result<(), String> {
    if !(info.min_players..=info.max_players).contains(&req.players) {
        return Err(format!(
            "{} is for {} to {} players, not {}",
            info.title, info.min_players, info.max_players, req.players
        ));
    }
    if let Some(b) = &req.board
        && !info.boards.iter().any(|x| x.id == *b)
    {
        let ids: Vec<&str> = info.boards.iter().map(|x| x.id.as_str()).collect();
        return Err(format!(
            "no shipped {} {b:?} (shipped: {})",
            info.board_noun,
            if ids.is_empty() { "none".to_string() } else { ids.join(", ") }
        ));
    }
    match &req.variants {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for k in m.keys() {
                if !info.variants.iter().any(|v| v.key == k) {
                    let known: Vec<&str> = info.variants.iter().map(|v| v.key).collect();
                    return Err(format!(
                        "unknown {} variant {k:?} (known: {})",
                        info.title,
                        if known.is_empty() { "none".to_string() } else { known.join(", ") }
                    ));
                }
            }
        }
        Some(_) => return Err("variants: expected an object".into()),
    }
    Ok(())
}

/// The static part of a game on the default board with the fewest players (the rules page's
/// diagrams), `None` when such a game cannot start.
fn sample_static<G: Registered>(info: &Info) -> Option<Value> {
    let req = SetupRequest {
        players: info.min_players,
        board: G::rules_board().map(String::from).or_else(|| info.default_board.clone()),
        ..Default::default()
    };
    let setup = G::setup(&req).ok()?;
    let g = G::new(&setup, 1).ok()?;
    serde_json::to_value(g.static_data()).ok()
}

fn setup_json<G: Registered>(req: &SetupRequest) -> Result<Value, String> {
    let s = G::setup(req)?;
    serde_json::to_value(&s).map_err(|e| e.to_string())
}

fn setup_on_board_json<G: Registered>(req: &SetupRequest, text: &str) -> Result<Value, String> {
    let s = G::setup_on_board(req, text)?;
    serde_json::to_value(&s).map_err(|e| e.to_string())
}

fn start_json<G: Registered>(setup: &Value, seed: u64) -> Result<Box<dyn AnyGame>, String> {
    let s: G::Setup = serde_json::from_value(setup.clone()).map_err(|e| format!("setup: {e}"))?;
    let g = G::new(&s, seed).map_err(|e| e.to_string())?;
    Ok(Box::new(g))
}

/// A typed setup to start games from by seed ([`Kind::starter`]).
pub trait Starter: Send + Sync {
    /// The game of this setup and `seed` (the same as [`Kind::start`] with the setup's JSON).
    fn start(&self, seed: u64) -> Result<Box<dyn AnyGame>, String>;
}

struct TypedSetup<G: Registered>(G::Setup);

impl<G: Registered> Starter for TypedSetup<G> {
    fn start(&self, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        let g = G::new(&self.0, seed).map_err(|e| e.to_string())?;
        Ok(Box::new(g))
    }
}

fn starter_json<G: Registered>(setup: &Value) -> Result<Box<dyn Starter>, String> {
    let s: G::Setup = serde_json::from_value(setup.clone()).map_err(|e| format!("setup: {e}"))?;
    Ok(Box::new(TypedSetup::<G>(s)))
}

fn from_view_json<G: Registered>(
    setup: &Value,
    view: &Value,
    waiting: &[Seat],
    seat: Seat,
    seed: u64,
) -> Result<Box<dyn AnyGame>, String> {
    let s: G::Setup = serde_json::from_value(setup.clone()).map_err(|e| format!("setup: {e}"))?;
    let g = G::from_view(&s, view, waiting, seat, &mut engine::Rng::seeded(seed))?;
    Ok(Box::new(g))
}

/// The variants of a request as the game's type (its defaults when absent).
pub(crate) fn variants<T: serde::de::DeserializeOwned + Default>(
    req: &SetupRequest,
) -> Result<T, String> {
    match &req.variants {
        None | Some(Value::Null) => Ok(T::default()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| format!("variants: {e}")),
    }
}

/// A set of registered games, by name.
#[derive(Debug)]
pub struct Registry(Vec<Kind>);

impl Registry {
    /// Every registered game, the toy game included (the command line, tests).
    pub fn everything() -> &'static Registry {
        static ALL: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        ALL.get_or_init(|| Registry(all()))
    }
    /// The games a normal `robodrome serve` offers: the public ones.
    pub fn public() -> &'static Registry {
        static PUBLIC: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        PUBLIC.get_or_init(|| Registry(all().into_iter().filter(|k| k.info.public).collect()))
    }
    pub fn get(&self, name: &str) -> Option<&Kind> {
        self.0.iter().find(|k| k.info.name == name)
    }
    /// The names, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|k| k.info.name).collect()
    }
    pub fn kinds(&self) -> impl Iterator<Item = &Kind> {
        self.0.iter()
    }
    /// The games whose board files look like `text` (`board check FILE` without `--game`).
    pub fn recognising(&self, text: &str) -> Vec<&Kind> {
        self.0.iter().filter(|k| k.recognises(text)).collect()
    }
    /// "unknown game "x" (known: a, b, c)".
    pub fn unknown(&self, name: &str) -> String {
        format!("unknown game {name:?} (known: {})", self.names().join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_match_the_engines() {
        let r = Registry::everything();
        let mut names = r.names();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), r.names().len());
        assert_eq!(
            r.names(),
            ["autoscooter", "roborally", "bumping-bots", "bumping-bots-championship", "rps"]
        );
        assert!(Registry::public().get("rps").is_none());
    }

    /// A saved board (docs/editors.md): every shipped board file that is a whole board (not a
    /// RoboRally piece alone) makes a game through `make_setup_on_board`, its `inspect` answer
    /// has no error and counts its cells; a text with an error is refused.
    #[test]
    fn every_game_with_board_files_plays_on_their_text() {
        for k in Registry::public().kinds() {
            let mut played = 0;
            for b in &k.info.boards {
                let Some(text) = k.shipped_text(&b.id) else { continue };
                let req = SetupRequest { players: k.info.min_players, ..Default::default() };
                k.make_setup_on_board(&req, text)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", k.name(), b.id));
                let a = k.inspect(text);
                assert!(a["size"].as_u64().is_some_and(|n| n > 0), "{}: {a}", b.id);
                let errors = a["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|f| f["severity"] == "error")
                    .count();
                assert_eq!(errors, 0, "{}: {a}", b.id);
                played += 1;
                let shipped = SetupRequest { board: Some(b.id.clone()), ..req.clone() };
                assert!(k.make_setup_on_board(&shipped, text).is_err(), "a shipped id and a text");
            }
            if k.name() == "bumping-bots-championship" {
                continue;
            }
            assert!(played > 0, "{}: no shipped board file", k.name());
            assert!(
                k.make_setup_on_board(
                    &SetupRequest { players: k.info.min_players, ..Default::default() },
                    "{ not a board"
                )
                .is_err()
            );
        }
    }

    #[test]
    fn every_game_starts_from_its_defaults_and_every_shipped_board() {
        for k in Registry::everything().kinds() {
            let i = &k.info;
            assert!(i.min_players >= 1 && i.min_players <= i.max_players, "{}", i.name);
            if let Some(d) = &i.default_board {
                assert!(i.boards.iter().any(|b| b.id == *d), "{}: default {d}", i.name);
            }
            for n in [i.min_players, i.max_players] {
                let req = SetupRequest { players: n, ..Default::default() };
                k.make_setup(&req).unwrap_or_else(|e| panic!("{}: {n}: {e}", i.name));
            }
            for b in &i.boards {
                let req = SetupRequest {
                    players: i.min_players,
                    board: Some(b.id.clone()),
                    ..Default::default()
                };
                k.make_setup(&req).unwrap_or_else(|e| panic!("{}: {}: {e}", i.name, b.id));
                assert!(k.render(&b.id, None).unwrap().starts_with("<svg"), "{}", b.id);
            }
            // Every variant at once is a game the rules accept (some need others: AS-7.4
            // needs AS-7.3; the wild car needs a car of nobody: three players).
            let all: serde_json::Map<String, Value> =
                i.variants.iter().map(|v| (v.key.to_string(), Value::Bool(true))).collect();
            let req = SetupRequest {
                players: 3.clamp(i.min_players, i.max_players),
                variants: Some(Value::Object(all)),
                ..Default::default()
            };
            k.make_setup(&req).unwrap_or_else(|e| panic!("{}: all variants: {e}", i.name));
        }
    }

    #[test]
    fn every_shipped_board_file_checks_without_an_error_and_is_recognised() {
        let mut checked = 0;
        for k in Registry::everything().kinds() {
            for b in &k.info.boards {
                let Some(text) = k.shipped_text(&b.id) else { continue };
                let errors: Vec<Finding> =
                    k.check(text).into_iter().filter(Finding::is_error).collect();
                assert!(errors.is_empty(), "{} {}: {errors:?}", k.name(), b.id);
                let who: Vec<&str> =
                    Registry::everything().recognising(text).iter().map(|k| k.name()).collect();
                assert_eq!(who, [k.name()], "{}", b.id);
                checked += 1;
            }
        }
        // 1 rink, 4 courses, 3 tracks.
        assert_eq!(checked, 8);
        let rps = Registry::everything().get("rps").unwrap();
        assert!(rps.check("anything")[0].message.contains("no board files"));
    }

    #[test]
    fn requests_outside_the_registered_ranges_are_refused() {
        let r = Registry::everything();
        for k in r.kinds() {
            let i = &k.info;
            let few = SetupRequest { players: i.min_players - 1, ..Default::default() };
            assert!(k.make_setup(&few).unwrap_err().contains("players"), "{}", i.name);
            let many = SetupRequest { players: i.max_players + 1, ..Default::default() };
            assert!(k.make_setup(&many).is_err(), "{}", i.name);
            let board = SetupRequest {
                players: i.min_players,
                board: Some("atlantis".into()),
                ..Default::default()
            };
            assert!(k.make_setup(&board).unwrap_err().contains("no shipped"), "{}", i.name);
            let variant = SetupRequest {
                players: i.min_players,
                variants: Some(serde_json::json!({"turbo": true})),
                ..Default::default()
            };
            assert!(k.make_setup(&variant).unwrap_err().contains("unknown"), "{}", i.name);
        }
    }
}
