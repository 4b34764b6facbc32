//! "Learn to play": the shipped lessons (`docs/lessons.md`).
//!
//! A lesson is a scenario file (`docs/scenarios.md`: `game`, `seed`, `board`, `setup`,
//! `variants`) with a title, an introduction in words citing rule numbers, a goal in words,
//! hints, and the goal as **checks on the engine's position** (the `state`, `round` and `phase`
//! that `robodrome scenario` prints): the lesson is complete when every `goal` check holds, and
//! failed when one of its `fail` rules holds first (or the game ends) — see [`Lesson::status`].
//! The checks are evaluated here, in Rust, on the game crate's own position; the browser only
//! shows the answer. The file also carries a `solution` and a `mistake` (actions written from
//! the rules), which the tests play to show that the goal can be reached and that a wrong move
//! does not reach it.
//!
//! The lessons ship in the repository (`lessons/<game>/NN-name.json`), embedded here with
//! `include_str!`; [`all`] reads them once. A shipped file that does not parse is a bug that
//! the tests catch ([`all`] panics on it).

use engine::Seat;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The shipped lesson files, in order per game (the number is the position in its game's list).
const FILES: &[(&str, &str)] = &[
    (
        "roborally/01-first-program.json",
        include_str!("../../../lessons/roborally/01-first-program.json"),
    ),
    ("roborally/02-conveyors.json", include_str!("../../../lessons/roborally/02-conveyors.json")),
    (
        "roborally/03-flags-in-order.json",
        include_str!("../../../lessons/roborally/03-flags-in-order.json"),
    ),
    ("roborally/04-lasers.json", include_str!("../../../lessons/roborally/04-lasers.json")),
    (
        "autoscooter/01-plot-a-move.json",
        include_str!("../../../lessons/autoscooter/01-plot-a-move.json"),
    ),
    (
        "autoscooter/02-slow-down.json",
        include_str!("../../../lessons/autoscooter/02-slow-down.json"),
    ),
    (
        "autoscooter/03-ram-for-chits.json",
        include_str!("../../../lessons/autoscooter/03-ram-for-chits.json"),
    ),
    ("bumping-bots/01-speed.json", include_str!("../../../lessons/bumping-bots/01-speed.json")),
    (
        "bumping-bots/02-rotation.json",
        include_str!("../../../lessons/bumping-bots/02-rotation.json"),
    ),
    ("bumping-bots/03-push.json", include_str!("../../../lessons/bumping-bots/03-push.json")),
    (
        "bumping-bots/04-obstacles.json",
        include_str!("../../../lessons/bumping-bots/04-obstacles.json"),
    ),
];

/// The most lessons a game may ship (a bound on what `GET /api/lessons` lists).
pub const MAX_PER_GAME: usize = 9;

/// One check on the position: the value at a dotted `path` (`state.robots.0.flags_touched`;
/// a number indexes a list) compared with `value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub path: String,
    /// `is` (equal), `not` (different), `at_least` or `at_most` (numbers).
    pub op: Op,
    pub value: Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Is,
    Not,
    AtLeast,
    AtMost,
}

/// A way to fail: when every check holds (and the goal does not), the lesson is failed and
/// `say` tells the player what went wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailRule {
    pub when: Vec<Check>,
    pub say: String,
}

/// A hint: a sentence, and what the table may highlight on request: cells of the board in the
/// game's coordinates, and `controls` by name — RoboRally cards (`move3`), Autoscooter letters
/// (`J`), Bumping Bots speed choices (`accelerate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hint {
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<[i32; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<String>,
}

/// A lesson file as written (`lessons/<game>/NN-name.json`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    game: String,
    title: String,
    intro: String,
    goal: String,
    rules: Vec<String>,
    hints: Vec<Hint>,
    /// The learner's seat; every other seat is played by `bots`.
    #[serde(default)]
    seat: u8,
    #[serde(default = "default_bots")]
    bots: String,
    seed: u64,
    // The scenario part: declared so that the schema knows them, read from the file's object
    // by the game's adapter (`games::Kind::scenario_setup`).
    #[serde(default)]
    #[allow(dead_code)]
    board: Value,
    #[allow(dead_code)]
    setup: Value,
    #[serde(default)]
    #[allow(dead_code)]
    variants: Value,
    done: Vec<Check>,
    fail: Vec<FailRule>,
    /// Said when the game ends before the goal is reached.
    #[serde(default = "default_over")]
    over: String,
    /// Said when the goal is reached.
    complete: String,
    solution: Vec<Value>,
    mistake: Vec<Value>,
    #[serde(default)]
    why: String,
}

fn default_bots() -> String {
    "heuristic".into()
}
fn default_over() -> String {
    "The game ended before the goal was reached.".into()
}

/// A shipped lesson.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub game: String,
    /// 1-based, in its game's order.
    pub number: usize,
    /// The file's name without its number and extension (`first-program`).
    pub slug: String,
    pub title: String,
    pub intro: String,
    pub goal: String,
    /// The rule numbers the lesson teaches (`RR-5.2`).
    pub rules: Vec<String>,
    pub hints: Vec<Hint>,
    pub seat: Seat,
    /// The bot (`bots::BotSpec` text) that plays every other seat.
    pub bots: String,
    /// Fixed by the file: a lesson is a fixed teaching position (docs/lessons.md).
    pub seed: u64,
    /// The game's setup JSON, as `games::Kind::start` takes it and the server stores it.
    pub setup: Value,
    pub done: Vec<Check>,
    pub fail: Vec<FailRule>,
    pub over: String,
    pub complete: String,
    /// The scenario file's top-level object without actions (`board`, `setup`, `variants`…).
    pub scenario: Map<String, Value>,
    /// Actions that reach the goal / a wrong try that does not (for the tests).
    pub solution: Vec<Value>,
    pub mistake: Vec<Value>,
    pub why: String,
}

/// Where a lesson stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    Playing,
    Complete { message: String },
    Failed { message: String },
}

/// Why a lesson was not found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonError {
    /// No lessons for this game (not a registered game, or none shipped).
    UnknownGame(String),
    /// The game has lessons 1..=n only.
    NoSuchLesson { game: String, number: usize, count: usize },
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LessonError::UnknownGame(g) => {
                let games: Vec<&str> = games_with_lessons();
                write!(f, "no lessons for {g:?} (games with lessons: {})", games.join(", "))
            }
            LessonError::NoSuchLesson { game, number, count } => {
                write!(f, "{game} has lessons 1 to {count}, not {number}")
            }
        }
    }
}
impl std::error::Error for LessonError {}

/// Every shipped lesson, per game in file order.
pub fn all() -> &'static [Lesson] {
    static ALL: OnceLock<Vec<Lesson>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out: Vec<Lesson> = Vec::new();
        for (name, text) in FILES {
            let lesson = parse(name, text, &out).unwrap_or_else(|e| panic!("lessons/{name}: {e}"));
            out.push(lesson);
        }
        out
    })
}

/// The games that ship lessons, in the order of their first lesson.
pub fn games_with_lessons() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for l in all() {
        if !names.contains(&l.game.as_str()) {
            names.push(l.game.as_str());
        }
    }
    names
}

/// The lessons of one game, in order.
pub fn of_game(game: &str) -> Vec<&'static Lesson> {
    all().iter().filter(|l| l.game == game).collect()
}

/// Lesson `number` (1-based) of `game`.
pub fn get(game: &str, number: usize) -> Result<&'static Lesson, LessonError> {
    let list = of_game(game);
    if list.is_empty() {
        return Err(LessonError::UnknownGame(game.to_string()));
    }
    list.get(number.wrapping_sub(1)).copied().ok_or(LessonError::NoSuchLesson {
        game: game.to_string(),
        number,
        count: list.len(),
    })
}

/// The lesson a game was started from, recognised by its game, setup and seed (a lesson's setup
/// is a position no lobby request makes, so a game's row needs no mark of its own).
pub fn find(game: &str, setup: &Value, seed: u64) -> Option<&'static Lesson> {
    all().iter().find(|l| l.game == game && l.seed == seed && l.setup == *setup)
}

fn parse(name: &str, text: &str, earlier: &[Lesson]) -> Result<Lesson, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let file: File = crate::from_value(&doc, "").map_err(|e| e.to_string())?;
    let Value::Object(mut top) = doc else { return Err("not an object".into()) };
    for key in ["title", "intro", "goal", "rules", "hints", "seat", "bots", "done", "fail"] {
        top.remove(key);
    }
    for key in ["over", "complete", "solution", "mistake", "why"] {
        top.remove(key);
    }
    let (dir, base) = name.split_once('/').ok_or("a lesson lives in lessons/<game>/")?;
    if dir != file.game {
        return Err(format!("lives in lessons/{dir}/ but is a {} lesson", file.game));
    }
    let number = earlier.iter().filter(|l| l.game == file.game).count() + 1;
    if number > MAX_PER_GAME {
        return Err(format!("more than {MAX_PER_GAME} lessons for {}", file.game));
    }
    let stem = base.strip_suffix(".json").ok_or("a lesson file ends in .json")?;
    let (nn, slug) = stem.split_once('-').ok_or("a lesson file is named NN-name.json")?;
    if nn.parse::<usize>().ok() != Some(number) {
        return Err(format!("numbered {nn}, but it is lesson {number} of {}", file.game));
    }
    let registry = games::Registry::everything();
    let kind = registry.get(&file.game).ok_or_else(|| registry.unknown(&file.game))?;
    let setup = kind.scenario_setup(&top).map_err(|e| e.to_string())?;
    if earlier.iter().any(|l| l.game == file.game && l.seed == file.seed && l.setup == setup) {
        return Err("the same position and seed as an earlier lesson: give it its own seed".into());
    }
    if file.done.is_empty() {
        return Err("a lesson needs at least one `done` check".into());
    }
    Ok(Lesson {
        game: file.game,
        number,
        slug: slug.to_string(),
        title: file.title,
        intro: file.intro,
        goal: file.goal,
        rules: file.rules,
        hints: file.hints,
        seat: Seat(file.seat),
        bots: file.bots,
        seed: file.seed,
        setup,
        done: file.done,
        fail: file.fail,
        over: file.over,
        complete: file.complete,
        scenario: top,
        solution: file.solution,
        mistake: file.mistake,
        why: file.why,
    })
}

impl Check {
    /// Does it hold on this position (`{"round", "phase", "state"}`)? A path that leads nowhere
    /// does not hold.
    pub fn holds(&self, position: &Value) -> bool {
        let Some(got) = lookup(position, &self.path) else { return false };
        match self.op {
            Op::Is => *got == self.value,
            Op::Not => *got != self.value,
            Op::AtLeast => match (got.as_f64(), self.value.as_f64()) {
                (Some(g), Some(w)) => g >= w,
                _ => false,
            },
            Op::AtMost => match (got.as_f64(), self.value.as_f64()) {
                (Some(g), Some(w)) => g <= w,
                _ => false,
            },
        }
    }
}

fn lookup<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(doc, |cur, part| match cur {
        Value::Object(m) => m.get(part),
        Value::Array(items) => items.get(part.parse::<usize>().ok()?),
        _ => None,
    })
}

impl Lesson {
    /// Where the lesson stands on a position (`games::AnyGame::position_json`); `over` when
    /// the game has ended. The goal is checked first: reaching it on the very action that also
    /// ends the turn is a success.
    pub fn status(&self, position: &Value, over: bool) -> Status {
        if self.done.iter().all(|c| c.holds(position)) {
            return Status::Complete { message: self.complete.clone() };
        }
        if let Some(f) = self.fail.iter().find(|f| f.when.iter().all(|c| c.holds(position))) {
            return Status::Failed { message: f.say.clone() };
        }
        if over {
            return Status::Failed { message: self.over.clone() };
        }
        Status::Playing
    }

    /// What `GET /api/lessons` lists of it (no solution: that is the player's to find).
    pub fn summary(&self) -> Value {
        serde_json::json!({
            "game": self.game,
            "number": self.number,
            "slug": self.slug,
            "title": self.title,
            "goal": self.goal,
            "rules": self.rules,
        })
    }

    /// What the table shows beside the board: the summary, the introduction and the hints.
    pub fn brief(&self) -> Value {
        let mut v = self.summary();
        v["intro"] = Value::String(self.intro.clone());
        v["hints"] = serde_json::to_value(&self.hints).unwrap_or(Value::Null);
        v["seat"] = Value::from(self.seat.0);
        v["count"] = Value::from(of_game(&self.game).len());
        v
    }

    /// The lesson as a scenario file playing `actions` (for tests and `robodrome scenario`).
    pub fn scenario_with(&self, actions: &[Value]) -> Value {
        let mut top = self.scenario.clone();
        top.insert("actions".into(), Value::Array(actions.to_vec()));
        Value::Object(top)
    }
}
