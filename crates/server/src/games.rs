//! The server's view of a game: an object-safe adapter implemented once for every
//! `G: engine::Game + bots::HasBots`, and the registry of games the server offers.
//!
//! The server decides no rule: every action, timer expiry and bot move goes through the engine.

use bots::{BotSpec, HasBots, Stop};
use engine::{Audience, Decision, Game, GameEvent, Observer, Rng, RuleError, Seat};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Why an action was refused (nothing changed).
#[derive(Debug, Clone, PartialEq)]
pub enum ActError {
    /// The JSON is not an action of this game.
    BadAction(String),
    /// The rules refused it: the game's stable code and message.
    Rule { code: &'static str, message: String },
}

/// An accepted action: its canonical JSON (as stored) and the events it caused.
#[derive(Debug, Clone)]
pub struct Applied {
    pub action: Value,
    pub events: Vec<(Audience, Value)>,
}

/// A running game of any kind.
pub trait AnyGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn decision(&self) -> Option<Decision>;
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActError>;
    fn time_up(&mut self) -> Result<Vec<(Audience, Value)>, ActError>;
    fn view_json(&self, observer: Observer) -> Value;
    /// The same view as JSON text, serialised directly (no JSON value built on the way).
    fn view_text(&self, observer: Observer) -> String;
    fn outcome_json(&self) -> Option<Value>;
    /// The game's static part (`Game::static_data`) as JSON text: sent once per connection,
    /// never inside views.
    fn static_text(&self) -> String;
    /// A bot's action for `seat` (call it on a copy, off the game's task: it may be slow). The
    /// bot stops thinking when `stop` says so and plays its best action found by then.
    fn bot_action(&self, spec: &BotSpec, seat: Seat, rng: &mut Rng, stop: &Stop) -> Option<Value>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

fn events_json<E: GameEvent>(events: &[E]) -> Vec<(Audience, Value)> {
    events.iter().map(|e| (e.audience(), serde_json::to_value(e).unwrap_or(Value::Null))).collect()
}

impl<G: Game + HasBots> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        Game::seats(self)
    }
    fn decision(&self) -> Option<Decision> {
        Game::decision(self)
    }
    fn apply_json(&mut self, seat: Seat, action: &Value) -> Result<Applied, ActError> {
        let action: G::Action = serde_json::from_value(action.clone())
            .map_err(|e| ActError::BadAction(e.to_string()))?;
        let mut events = Vec::new();
        self.apply(seat, &action, &mut events)
            .map_err(|e| ActError::Rule { code: e.code(), message: e.to_string() })?;
        let action = serde_json::to_value(&action).unwrap_or(Value::Null);
        Ok(Applied { action, events: events_json(&events) })
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
}

/// What a lobby request asks for, as a game's setup builder sees it.
#[derive(Debug, Clone)]
pub struct SetupRequest {
    pub players: usize,
    pub board: Option<String>,
    pub variants: Option<Value>,
    pub options: Option<Value>,
}

type MakeSetup = Box<dyn Fn(&SetupRequest) -> Result<Value, String> + Send + Sync>;
type Start = Box<dyn Fn(&Value, u64) -> Result<Box<dyn AnyGame>, String> + Send + Sync>;

/// One game the server offers.
pub struct GameKind {
    pub name: &'static str,
    /// Build the game's setup JSON from a lobby request (checked by starting a game).
    make_setup: MakeSetup,
    /// Start a game from a stored setup JSON and seed.
    start: Start,
}

impl GameKind {
    pub fn of<G: Game + HasBots>(
        make_setup: impl Fn(&SetupRequest) -> Result<G::Setup, String> + Send + Sync + 'static,
    ) -> GameKind {
        GameKind {
            name: G::NAME,
            make_setup: Box::new(move |req| {
                let s = make_setup(req)?;
                serde_json::to_value(&s).map_err(|e| e.to_string())
            }),
            start: Box::new(|setup, seed| {
                let s: G::Setup =
                    serde_json::from_value(setup.clone()).map_err(|e| format!("setup: {e}"))?;
                let g = G::new(&s, seed).map_err(|e| e.to_string())?;
                Ok(Box::new(g) as Box<dyn AnyGame>)
            }),
        }
    }
    pub fn make_setup(&self, req: &SetupRequest) -> Result<Value, String> {
        let setup = (self.make_setup)(req)?;
        // Check it starts, so a bad request fails at creation and not at start.
        (self.start)(&setup, 0)?;
        Ok(setup)
    }
    pub fn start(&self, setup: &Value, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        (self.start)(setup, seed)
    }
}

/// The games this server offers, by name.
#[derive(Clone)]
pub struct Registry(Arc<BTreeMap<&'static str, GameKind>>);

impl Registry {
    /// Every game Robodrome has, one line each.
    pub fn standard() -> Registry {
        let mut m = BTreeMap::new();
        for k in [
            GameKind::of::<autoscooter::Autoscooter>(autoscooter_setup),
            GameKind::of::<roborally::RoboRally>(roborally_setup),
            GameKind::of::<bumping_bots::BumpingBots>(bumping_bots_setup),
        ] {
            m.insert(k.name, k);
        }
        Registry(Arc::new(m))
    }
    pub fn get(&self, name: &str) -> Option<&GameKind> {
        self.0.get(name)
    }
    pub fn names(&self) -> Vec<&'static str> {
        self.0.keys().copied().collect()
    }
}

fn autoscooter_setup(req: &SetupRequest) -> Result<autoscooter::Setup, String> {
    let variants: autoscooter::Variants = match &req.variants {
        None | Some(Value::Null) => Default::default(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| format!("variants: {e}"))?,
    };
    let beginners = req
        .options
        .as_ref()
        .and_then(|o| o.get("beginners"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut setup = autoscooter::Setup::standard(req.players, beginners, variants)?;
    if let Some(b) = &req.board {
        setup.board =
            autoscooter::BoardSpec::named(b).ok_or_else(|| format!("unknown board {b:?}"))?;
    }
    Ok(setup)
}

fn variants<T: serde::de::DeserializeOwned + Default>(req: &SetupRequest) -> Result<T, String> {
    match &req.variants {
        None | Some(Value::Null) => Ok(T::default()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| format!("variants: {e}")),
    }
}

fn roborally_setup(req: &SetupRequest) -> Result<roborally::Setup, String> {
    if !(2..=8).contains(&req.players) {
        return Err(format!("RoboRally is for 2 to 8 robots, not {}", req.players));
    }
    let course = req.board.clone().unwrap_or_else(|| "first-steps".into());
    if roborally::board::course::course_by_name(&course).is_none() {
        return Err(format!("unknown course {course:?}"));
    }
    let mut setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named(course),
        req.players as u8,
        variants(req)?,
    );
    if let Some(t) =
        req.options.as_ref().and_then(|o| o.get("timer_seconds")).and_then(Value::as_u64)
    {
        setup.timer_seconds = t as u32;
    }
    Ok(setup)
}

fn bumping_bots_setup(req: &SetupRequest) -> Result<bumping_bots::Setup, String> {
    if !(2..=9).contains(&req.players) {
        return Err(format!("Bumping Bots is for 2 to 9 bots, not {}", req.players));
    }
    let name = req.board.clone().unwrap_or_else(|| "oval".into());
    let mut track =
        bumping_bots::tracks::shipped(&name).ok_or_else(|| format!("unknown track {name:?}"))?;
    if let Some(l) = req.options.as_ref().and_then(|o| o.get("laps")).and_then(Value::as_u64) {
        if !(1..=3).contains(&l) {
            return Err(format!("a race is 1 to 3 laps, not {l}"));
        }
        track.laps = l as u8;
    }
    let mut setup = bumping_bots::Setup::race(track, req.players as u8);
    setup.variants = variants(req)?;
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoscooter_through_the_adapter() {
        let r = Registry::standard();
        let k = r.get("autoscooter").unwrap();
        let req = SetupRequest { players: 2, board: None, variants: None, options: None };
        let setup = k.make_setup(&req).unwrap();
        let mut g = k.start(&setup, 1).unwrap();
        assert_eq!(g.seats(), 2);
        let bad = g.apply_json(Seat(0), &serde_json::json!({"type": "fly"}));
        assert!(matches!(bad, Err(ActError::BadAction(_))));
        let foreign =
            g.apply_json(Seat(1), &serde_json::json!({"type": "plot", "car": 0, "number": 1}));
        assert!(matches!(foreign, Err(ActError::Rule { code: "not_your_car", .. })), "{foreign:?}");
        let ok = g
            .apply_json(Seat(0), &serde_json::json!({"type": "plot", "car": 0, "number": 1}))
            .unwrap();
        assert!(ok.events.iter().any(|(a, _)| *a == Audience::Seat(Seat(0))));
        let too_many = SetupRequest { players: 9, ..req };
        assert!(k.make_setup(&too_many).is_err());
    }

    /// The static part is the same from the start to the end of a game (so sending it once is
    /// enough), it is not repeated inside views, and its content id follows its content.
    #[test]
    fn static_data_never_changes_during_a_game_and_stays_out_of_views() {
        let r = Registry::standard();
        for name in r.names() {
            let k = r.get(name).unwrap();
            let req = SetupRequest { players: 4, board: None, variants: None, options: None };
            let setup = k.make_setup(&req).unwrap();
            for seed in 0..3 {
                let mut g = k.start(&setup, seed).unwrap();
                let first = g.static_text();
                assert!(first.len() > 100, "{name}: a board is static data");
                let mut rng = Rng::seeded(seed);
                for _ in 0..400 {
                    let Some(d) = g.decision() else { break };
                    let seat = d.seats().first().unwrap();
                    let a = g
                        .bot_action(&BotSpec::Random, seat, &mut rng, &bots::Stop::default())
                        .unwrap();
                    g.apply_json(seat, &a).unwrap();
                    assert_eq!(g.static_text(), first, "{name} seed {seed}");
                }
                let view = g.view_text(Observer::Omniscient);
                let board: Value = serde_json::from_str(&first).unwrap();
                let part = board.as_object().unwrap().values().next().unwrap().to_string();
                assert!(!view.contains(&part), "{name}: the view repeats the static data");
            }
        }
        let a = r.get("autoscooter").unwrap();
        let req = |b: Option<&str>| SetupRequest {
            players: 2,
            board: b.map(String::from),
            variants: None,
            options: None,
        };
        let id = |b| {
            protocol::static_id(&a.start(&a.make_setup(&req(b)).unwrap(), 1).unwrap().static_text())
        };
        assert_eq!(id(None), id(Some("standard")));
        let rr = r.get("roborally").unwrap();
        let course = |c: &str| {
            let s = rr.make_setup(&SetupRequest { board: Some(c.into()), ..req(None) }).unwrap();
            protocol::static_id(&rr.start(&s, 1).unwrap().static_text())
        };
        assert_ne!(course("first-steps"), course("grand-tour"));
    }

    #[test]
    fn every_game_starts_and_plays_a_bot_move_through_the_adapter() {
        let r = Registry::standard();
        assert_eq!(r.names(), vec!["autoscooter", "bumping-bots", "roborally"]);
        for name in r.names() {
            let k = r.get(name).unwrap();
            let req = SetupRequest { players: 3, board: None, variants: None, options: None };
            let setup = k.make_setup(&req).unwrap();
            let mut g = k.start(&setup, 7).unwrap();
            let seat = match g.decision().unwrap() {
                Decision::One(s) => s,
                Decision::Simultaneous(set) => set.first().unwrap(),
            };
            let a = g
                .bot_action(&BotSpec::Heuristic, seat, &mut Rng::seeded(1), &Stop::default())
                .unwrap();
            g.apply_json(seat, &a).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
        let k = r.get("roborally").unwrap();
        let bad = SetupRequest {
            players: 2,
            board: Some("atlantis".into()),
            variants: None,
            options: None,
        };
        assert!(k.make_setup(&bad).is_err());
    }
}
