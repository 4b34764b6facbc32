//! The object-safe face of a running game, implemented once for every registered game: what
//! the server holds (actions and views travel as JSON).

use crate::Registered;
use bots::{BotSpec, Stop};
use engine::{Audience, Decision, Game, GameEvent, Observer, Rng, RuleError, Seat, Touched};
use serde_json::Value;

/// Why an action was refused (nothing changed).
#[derive(Debug, Clone, PartialEq)]
pub enum ActError {
    /// The JSON is not an action of this game.
    BadAction(String),
    /// The rules refused it: the game's stable code and message.
    Rule { code: &'static str, message: String },
}

/// An accepted action: its canonical JSON (as stored), the events it caused, and whose views
/// it may have changed (the game crate's [`engine::Game::views_touched`], asked before it was
/// applied): the server builds no view for the others.
#[derive(Debug, Clone)]
pub struct Applied {
    pub action: Value,
    pub events: Vec<(Audience, Value)>,
    pub touched: Touched,
}

/// A running game of any kind.
pub trait AnyGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn decision(&self) -> Option<Decision>;
    /// The rules' own clock now ([`engine::Game::clock`]).
    fn clock(&self) -> Option<engine::Clock>;
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActError>;
    fn time_up(&mut self) -> Result<Vec<(Audience, Value)>, ActError>;
    fn view_json(&self, observer: Observer) -> Value;
    /// The same view as JSON text, serialised directly (no JSON value built on the way).
    fn view_text(&self, observer: Observer) -> String;
    /// The same text as [`AnyGame::view_text`], appended to `out`: a buffer the caller keeps
    /// from view to view, so that a view of a few KB is not grown by reallocation and copies
    /// as it is written (the server writes one per seat after every action).
    fn view_into(&self, observer: Observer, out: &mut Vec<u8>);
    fn outcome_json(&self) -> Option<Value>;
    /// The game's static part (`Game::static_data`) as JSON text: sent once per connection,
    /// never inside views.
    fn static_text(&self) -> String;
    /// A bot's action for `seat` (call it on a copy, off the game's task: it may be slow). The
    /// bot stops thinking when `stop` says so and plays its best action found by then.
    fn bot_action(&self, spec: &BotSpec, seat: Seat, rng: &mut Rng, stop: &Stop) -> Option<Value>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// Every action `seat` may take now (`Game::legal_actions`), canonical JSON, in the
    /// engine's order.
    fn legal_actions_json(&self, seat: Seat) -> Vec<Value>;
    /// How many actions `seat` may take now (the length of `legal_actions_json`, no JSON built).
    fn legal_len(&self, seat: Seat) -> usize;
    /// Apply the `index`-th of `seat`'s legal actions (typed, no JSON parsed); returns its
    /// canonical JSON. An index past the list is `ActError::BadAction`, nothing changed.
    fn apply_nth(&mut self, seat: Seat, index: usize) -> Result<Value, ActError>;
    /// [`AnyGame::apply_nth`] without the action's JSON (the batched simulator's step).
    fn apply_nth_quiet(&mut self, seat: Seat, index: usize) -> Result<(), ActError>;
    /// [`AnyGame::apply_nth_quiet`] with the events written into a buffer the caller keeps
    /// from step to step (cleared first; no allocation once it has grown).
    fn apply_nth_reusing(
        &mut self,
        seat: Seat,
        index: usize,
        scratch: &mut Scratch,
    ) -> Result<(), ActError>;
    /// How many legal actions `seat` has when the game counts them without listing them
    /// ([`Registered::count_legal`]); `None`: the game lists them ([`AnyGame::list_legal`]).
    fn count_legal_any(&self, seat: Seat) -> Option<usize>;
    /// `seat`'s legal actions listed once (typed, no JSON), for a caller that keeps the list
    /// while the state does not change: its length is the number of legal actions, and
    /// [`AnyGame::apply_listed`] plays one of them without listing again.
    fn list_legal(&self, seat: Seat) -> Box<dyn Listed>;
    /// Apply the `index`-th action of `listed`, a list [`AnyGame::list_legal`] made for `seat`
    /// in this very state (the rules still judge the action). A list of another game, or an
    /// index past its end, is `ActError::BadAction`, nothing changed.
    fn apply_listed(
        &mut self,
        seat: Seat,
        listed: &dyn Listed,
        index: usize,
    ) -> Result<(), ActError>;
    /// A random legal action for `seat` (`Game::sample_action`).
    fn sample_action_json(&self, seat: Seat, rng: &mut Rng) -> Option<Value>;
    /// A copy in which what `seat` cannot see is resampled (`Game::determinize`).
    fn determinize_box(&self, seat: Seat, rng: &mut Rng) -> Box<dyn AnyGame>;
    /// The whole position as a scenario file prints it (nothing hidden): `{"round", "phase",
    /// "state"}`. For the server's own checks (a lesson's goal, `scenario::lessons`); never
    /// sent to a client.
    fn position_json(&self) -> Value {
        Value::Null
    }
    /// The observer's view as numbers written into `out` ([`crate::features`]: no JSON
    /// built); returns how many the view wrote (the rest of `out` is zeros).
    fn view_features(&self, observer: Observer, out: &mut [f32]) -> usize;
    /// Play random legal actions (`engine::play_random`: typed, no JSON) until the game ends or
    /// `max_actions` were applied; returns how many were. The native baseline of the Python
    /// package's benchmark, on the very setup the Python side plays.
    fn play_random(&mut self, rng: &mut Rng, max_actions: usize) -> usize;
    /// The game itself, for a caller that serves one game's own encodings (the Python
    /// package's factored Autoscooter plots, `autoscooter::encoding`).
    fn as_any(&self) -> &dyn std::any::Any;
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// A list of legal actions of some game ([`AnyGame::list_legal`]).
pub trait Listed: Send + Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<A: Send + Sync + 'static> Listed for Vec<A> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The list of a game that counts and indexes its legal actions without listing them
/// ([`Registered::count_legal`]): only their number is kept.
struct Counted(usize);

impl Listed for Counted {
    fn len(&self) -> usize {
        self.0
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn events_json<E: GameEvent>(events: &[E]) -> Vec<(Audience, Value)> {
    events.iter().map(|e| (e.audience(), serde_json::to_value(e).unwrap_or(Value::Null))).collect()
}

impl<G: Registered> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        Game::seats(self)
    }
    fn decision(&self) -> Option<Decision> {
        Game::decision(self)
    }
    fn clock(&self) -> Option<engine::Clock> {
        Game::clock(self)
    }
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActError> {
        // Read from the borrowed value: no copy of it first.
        let action = <G::Action as serde::Deserialize>::deserialize(action)
            .map_err(|e| ActError::BadAction(e.to_string()))?;
        let mut events = Vec::new();
        let touched = self.views_touched(seat, &action);
        self.apply(seat, &action, &mut events)
            .map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })?;
        let action = serde_json::to_value(&action).unwrap_or(Value::Null);
        Ok(Applied { action, events: events_json(&events), touched })
    }
    fn time_up(&mut self) -> Result<Vec<(Audience, Value)>, ActError> {
        let mut events = Vec::new();
        Game::time_up(self, &mut events)
            .map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })?;
        Ok(events_json(&events))
    }
    fn view_json(&self, observer: Observer) -> Value {
        serde_json::to_value(self.view(observer)).unwrap_or(Value::Null)
    }
    fn view_text(&self, observer: Observer) -> String {
        serde_json::to_string(&self.view(observer)).unwrap_or_else(|_| "null".into())
    }
    fn view_into(&self, observer: Observer, out: &mut Vec<u8>) {
        let start = out.len();
        if serde_json::to_writer(&mut *out, &self.view(observer)).is_err() {
            out.truncate(start);
            out.extend_from_slice(b"null");
        }
    }
    fn outcome_json(&self) -> Option<Value> {
        self.outcome().map(|o| serde_json::to_value(o).unwrap_or(Value::Null))
    }
    fn static_text(&self) -> String {
        serde_json::to_string(&self.static_data()).unwrap_or_else(|_| "null".into())
    }
    fn bot_action(&self, spec: &BotSpec, seat: Seat, rng: &mut Rng, stop: &Stop) -> Option<Value> {
        if !Game::decision(self)?.owes(seat) {
            return None;
        }
        let mut bot = G::bot(spec);
        let a = bot.act_until(self, seat, rng, stop);
        serde_json::to_value(a).ok()
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn legal_actions_json(&self, seat: Seat) -> Vec<Value> {
        self.legal_actions(seat)
            .iter()
            .map(|a| serde_json::to_value(a).unwrap_or(Value::Null))
            .collect()
    }
    fn legal_len(&self, seat: Seat) -> usize {
        self.count_legal(seat).unwrap_or_else(|| self.legal_actions(seat).len())
    }
    fn apply_nth(&mut self, seat: Seat, index: usize) -> Result<Value, ActError> {
        let action = nth(self, seat, index)?;
        Ok(serde_json::to_value(&action).unwrap_or(Value::Null))
    }
    fn apply_nth_quiet(&mut self, seat: Seat, index: usize) -> Result<(), ActError> {
        nth(self, seat, index).map(|_| ())
    }
    fn apply_nth_reusing(
        &mut self,
        seat: Seat,
        index: usize,
        scratch: &mut Scratch,
    ) -> Result<(), ActError> {
        let action = find_nth(self, seat, index)?;
        let events = scratch.events::<G::Event>();
        events.clear();
        self.apply(seat, &action, events)
            .map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })
    }
    fn count_legal_any(&self, seat: Seat) -> Option<usize> {
        self.count_legal(seat)
    }
    fn list_legal(&self, seat: Seat) -> Box<dyn Listed> {
        match self.count_legal(seat) {
            Some(n) => Box::new(Counted(n)),
            None => Box::new(self.legal_actions(seat)),
        }
    }
    fn apply_listed(
        &mut self,
        seat: Seat,
        listed: &dyn Listed,
        index: usize,
    ) -> Result<(), ActError> {
        let past = || {
            ActError::BadAction(format!(
                "action index {index} is not legal for seat {} now ({} legal actions)",
                seat.0,
                listed.len()
            ))
        };
        let any = listed.as_any();
        let mut events = Vec::new();
        let result = if let Some(list) = any.downcast_ref::<Vec<G::Action>>() {
            let action = list.get(index).ok_or_else(past)?;
            self.apply(seat, action, &mut events)
        } else if any.is::<Counted>() {
            let action = (index < listed.len())
                .then(|| self.nth_legal(seat, index))
                .flatten()
                .ok_or_else(past)?;
            self.apply(seat, &action, &mut events)
        } else {
            return Err(ActError::BadAction("a list of another game's actions".into()));
        };
        result.map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })
    }
    fn sample_action_json(&self, seat: Seat, rng: &mut Rng) -> Option<Value> {
        self.sample_action(seat, rng).and_then(|a| serde_json::to_value(a).ok())
    }
    fn determinize_box(&self, seat: Seat, rng: &mut Rng) -> Box<dyn AnyGame> {
        Box::new(self.determinize(seat, rng))
    }
    fn position_json(&self) -> Value {
        serde_json::json!({
            "round": self.scenario_round(),
            "phase": self.scenario_phase(),
            "state": self.scenario_state(),
        })
    }
    fn view_features(&self, observer: Observer, out: &mut [f32]) -> usize {
        self.write_observation(observer, out)
    }
    fn play_random(&mut self, rng: &mut Rng, max_actions: usize) -> usize {
        let mut events = Vec::new();
        engine::play_random(self, rng, &mut events, max_actions)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// A buffer for a game's events kept by a caller that applies many actions
/// ([`AnyGame::apply_nth_reusing`]): typed by the game on first use.
#[derive(Default)]
pub struct Scratch(Option<Box<dyn std::any::Any + Send + Sync>>);

impl Scratch {
    fn events<E: Send + Sync + 'static>(&mut self) -> &mut Vec<E> {
        if !self.0.as_ref().is_some_and(|b| b.is::<Vec<E>>()) {
            self.0 = Some(Box::new(Vec::<E>::with_capacity(64)));
        }
        self.0.as_mut().and_then(|b| b.downcast_mut()).expect("a Vec of the game's events")
    }
}

/// Apply the `index`-th of `seat`'s legal actions; returns it.
fn nth<G: Registered>(g: &mut G, seat: Seat, index: usize) -> Result<G::Action, ActError> {
    let action = find_nth(g, seat, index)?;
    let mut events = Vec::new();
    g.apply(seat, &action, &mut events)
        .map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })?;
    Ok(action)
}

/// The `index`-th of `seat`'s legal actions (computed by a game that counts them, else
/// listed). `nth_legal` is `None` past the end, so a counting game counts only to say how many
/// there are when the index is past them.
fn find_nth<G: Registered>(g: &G, seat: Seat, index: usize) -> Result<G::Action, ActError> {
    if let Some(action) = g.nth_legal(seat, index) {
        return Ok(action);
    }
    let found = match g.count_legal(seat) {
        Some(n) => Err(n),
        None => {
            let mut legal = g.legal_actions(seat);
            let n = legal.len();
            if index < n { Ok(legal.swap_remove(index)) } else { Err(n) }
        }
    };
    found.map_err(|n| {
        ActError::BadAction(format!(
            "action index {index} is not legal for seat {} now ({n} legal actions)",
            seat.0
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Registry, SetupRequest};

    /// `view_into` appends exactly `view_text` for every observer,
    /// at every step of random games of every registered game, into a buffer kept across views.
    #[test]
    fn view_into_appends_the_view_text() {
        let mut buf = Vec::new();
        for kind in Registry::everything().kinds() {
            let name = kind.info.name;
            let players = kind.info.min_players.max(2).min(kind.info.max_players);
            let setup = kind.make_setup(&SetupRequest { players, ..Default::default() }).unwrap();
            for seed in 0..2u64 {
                let mut g = kind.start(&setup, seed).unwrap();
                let mut rng = Rng::seeded(seed);
                for step in 0..60 {
                    let observers = (0..g.seats() as u8)
                        .map(|s| Observer::Seat(Seat(s)))
                        .chain([Observer::Spectator, Observer::Omniscient]);
                    for o in observers {
                        buf.clear();
                        buf.extend_from_slice(b"kept");
                        g.view_into(o, &mut buf);
                        let text = g.view_text(o);
                        assert_eq!(&buf[..4], b"kept", "{name} {step}: what was there stays");
                        assert_eq!(
                            std::str::from_utf8(&buf[4..]),
                            Ok(text.as_str()),
                            "{name} {step}"
                        );
                    }
                    let Some(d) = g.decision() else { break };
                    let seat = d.seats().first().unwrap();
                    let a = g.sample_action_json(seat, &mut rng).unwrap();
                    g.apply_json(seat, &a).unwrap();
                }
            }
        }
    }
}
