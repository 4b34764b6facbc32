//! Scenario files (`docs/scenarios.md`): the part every game shares, generic over
//! [`Registered`]. The `scenario` crate reads the file and dispatches through the registry.

use crate::Registered;
use engine::{Game, Observer, RuleError, Seat};
use serde::Serialize;
use serde_json::{Map, Value};

/// The file does not fit the schema: exit status 2, message on standard error.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError {
    /// Where in the file, as a dotted path (`actions[2].letter`); empty for the whole file.
    pub path: String,
    pub message: String,
}

impl SchemaError {
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaError { path: path.into(), message: message.into() }
    }
    pub(crate) fn prefixed(mut self, prefix: &str) -> Self {
        self.path = if self.path.is_empty() || self.path == "." {
            prefix.to_string()
        } else if self.path.starts_with('[') {
            format!("{prefix}{}", self.path)
        } else {
            format!("{prefix}.{}", self.path)
        };
        self
    }
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}
impl std::error::Error for SchemaError {}

/// Deserialize a value, reporting the path of the offending field.
pub fn from_value<T: serde::de::DeserializeOwned>(v: &Value, path: &str) -> Result<T, SchemaError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let inner = e.path().to_string();
        SchemaError::at(inner, e.inner().to_string()).prefixed(path)
    })
}

/// What `robodrome scenario` prints and returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The JSON document for standard output (pretty-printed, with a final newline).
    pub stdout: String,
    /// 0: every action applied; 3: an action was illegal.
    pub exit: i32,
}

#[derive(Serialize)]
struct Output<'a> {
    game: &'a str,
    round: u32,
    phase: &'a str,
    state: Value,
    events: Vec<Value>,
    error: Option<ErrorOut>,
    /// With [`run_with_view`]: the engine's view for that seat (what a client is sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<Value>,
    /// With a seat to view: the game's static part (board, rule tables), which a client
    /// receives once per game beside its views.
    #[serde(rename = "static", skip_serializing_if = "Option::is_none")]
    static_data: Option<Value>,
}

#[derive(Serialize)]
struct ErrorOut {
    action_index: usize,
    code: String,
    message: String,
}

/// A scenario action: either a seat's game action or the timer's `time_up`.
enum Line<A> {
    Act(Seat, A),
    TimeUp,
}

fn parse_actions<G: Game>(top: &Map<String, Value>) -> Result<Vec<Line<G::Action>>, SchemaError> {
    let list = match top.get("actions") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(SchemaError::at("actions", "must be a list of actions")),
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, a) in list.iter().enumerate() {
        let path = format!("actions[{i}]");
        let Value::Object(obj) = a else {
            return Err(SchemaError::at(path, "an action is a JSON object"));
        };
        if obj.get("type") == Some(&Value::String("time_up".into())) {
            out.push(Line::TimeUp);
            continue;
        }
        let seat: Seat = match obj.get("seat") {
            Some(v) => from_value(v, &format!("{path}.seat"))?,
            None => return Err(SchemaError::at(format!("{path}.seat"), "missing field")),
        };
        let mut rest = obj.clone();
        rest.remove("seat");
        let action: G::Action = from_value(&Value::Object(rest.clone()), &path)
            .map_err(|e| name_the_field::<G::Action>(e, &rest, &path))?;
        out.push(Line::Act(seat, action));
    }
    Ok(out)
}

/// Actions are internally tagged (`"type"`), and serde reports an error inside such an enum
/// without its field (`actions[0]: invalid type: string "x", expected u8`). Name the field
/// (conventions.md: the message names the offending field): an unknown field by the name serde
/// quotes; a bad value by the one key whose removal changes the error (a value is checked when
/// its key is read, missing fields only at the end, so removing any other key leaves the error
/// as it was).
fn name_the_field<A: serde::de::DeserializeOwned>(
    e: SchemaError,
    action: &Map<String, Value>,
    path: &str,
) -> SchemaError {
    if e.path != path {
        return e;
    }
    if let Some(rest) = e.message.strip_prefix("unknown field `")
        && let Some((name, _)) = rest.split_once('`')
    {
        return SchemaError::at(format!("{path}.{name}"), e.message);
    }
    let culprits: Vec<&String> = action
        .keys()
        .filter(|k| k.as_str() != "type")
        .filter(|k| {
            let mut without = action.clone();
            without.remove(k.as_str());
            match from_value::<A>(&Value::Object(without), path) {
                Ok(_) => true,
                Err(other) => other.message != e.message,
            }
        })
        .collect();
    match culprits.as_slice() {
        [k] => SchemaError::at(format!("{path}.{k}"), e.message),
        _ => e,
    }
}

/// A scenario file's setup as the game's setup JSON (`Kind::scenario_setup`), checked by
/// starting a game with seed 0.
pub(crate) fn setup_json<G: Registered>(top: &Map<String, Value>) -> Result<Value, SchemaError> {
    let null = Value::Null;
    let setup = G::scenario_setup(
        top.get("board").unwrap_or(&null),
        top.get("setup").unwrap_or(&null),
        top.get("variants").unwrap_or(&null),
    )?;
    G::new(&setup, 0).map_err(|e| SchemaError::at("setup", e.to_string()))?;
    serde_json::to_value(&setup).map_err(|e| SchemaError::at("setup", e.to_string()))
}

pub(crate) fn run_game<G: Registered>(
    top: &Map<String, Value>,
    view: Option<Seat>,
) -> Result<Outcome, SchemaError> {
    let seed = match top.get("seed") {
        None | Some(Value::Null) => 0,
        Some(v) => from_value::<u64>(v, "seed")?,
    };
    let null = Value::Null;
    let setup = G::scenario_setup(
        top.get("board").unwrap_or(&null),
        top.get("setup").unwrap_or(&null),
        top.get("variants").unwrap_or(&null),
    )?;
    let actions = parse_actions::<G>(top)?;
    let mut game = G::new(&setup, seed).map_err(|e| SchemaError::at("setup", e.to_string()))?;
    if let Some(s) = view
        && s.index() >= game.seats()
    {
        return Err(SchemaError::at(
            "--view",
            format!(
                "seat {} does not exist: this game has {} seats (0..{})",
                s.0,
                game.seats(),
                game.seats() - 1
            ),
        ));
    }
    let mut events: Vec<G::Event> = Vec::new();
    let mut error = None;
    for (i, line) in actions.iter().enumerate() {
        let r = match line {
            Line::Act(seat, a) => game.apply(*seat, a, &mut events),
            Line::TimeUp => game.time_up(&mut events),
        };
        if let Err(e) = r {
            error = Some(ErrorOut {
                action_index: i,
                code: e.code().to_string(),
                message: e.to_string(),
            });
            break;
        }
    }
    let exit = if error.is_some() { 3 } else { 0 };
    let out = Output {
        game: G::NAME,
        round: game.scenario_round(),
        phase: game.scenario_phase(),
        state: game.scenario_state(),
        events: events.iter().map(|e| serde_json::to_value(e).expect("events serialise")).collect(),
        error,
        view: view
            .map(|s| serde_json::to_value(game.view(Observer::Seat(s))).expect("views serialise")),
        static_data: view
            .map(|_| serde_json::to_value(game.static_data()).expect("static data serialises")),
    };
    let mut stdout = serde_json::to_string_pretty(&out).expect("output serialises");
    stdout.push('\n');
    Ok(Outcome { stdout, exit })
}
