//! RoboRally (RR-1 … RR-8, RR-10, RR-11) in the registry.

use crate::sim::Tally;
use crate::{BoardInfo, Choice, Info, Registered, SchemaError, SetupRequest, from_value};
use bots::{Bot, BotSpec, HasBots};
use engine::Game;
use roborally::board::course::{course_by_name, load_text, shipped_courses, slug};
use roborally::{BoardSpec, Event as RrEvent, RoboRally, ScenarioSetup, Setup, Variants};
use serde::Serialize;
use serde_json::Value;

impl Registered for RoboRally {
    type Tally = RoboRallyTally;

    fn info() -> Info {
        Info {
            name: Self::NAME,
            title: "RoboRally",
            min_players: *roborally::setup::PLAYERS.start(),
            max_players: *roborally::setup::PLAYERS.end(),
            board_noun: "course",
            boards: shipped_courses()
                .iter()
                .map(|c| BoardInfo { id: slug(&c.name), title: c.name.clone() })
                .collect(),
            default_board: Some(roborally::setup::DEFAULT_COURSE.into()),
            variants: vec![
                Choice::new("lives4", "Four lives", "Each robot has four lives instead of three"),
                Choice::new("full_ranking", "Full ranking", "Play on until every robot is placed"),
            ],
            options: Vec::new(),
            default_timer_secs: None,
            timer_option: Some("timer_seconds"),
            public: true,
            rules_crate: "roborally",
            rules_version: roborally::RULES_VERSION,
            conformance_prefix: Some("rr-"),
            sim_players: 4,
            sim_games: 100,
        }
    }

    fn setup(req: &SetupRequest) -> Result<Setup, String> {
        let course = req.board.clone().unwrap_or_else(|| roborally::setup::DEFAULT_COURSE.into());
        if course_by_name(&course).is_none() {
            return Err(format!("no shipped course {course:?}"));
        }
        let mut setup =
            Setup::new_game(BoardSpec::Named(course), req.players as u8, crate::variants(req)?);
        // RR-4.3: the hourglass's seconds per robot (0: no timer). The server puts its lobby
        // timer here (`Info::timer_option`); absent: the rules' default.
        match req.option("timer_seconds") {
            None | Some(Value::Null) => {}
            Some(v) => match v.as_u64() {
                Some(t) if t <= crate::MAX_CLOCK_SECONDS => setup.timer_seconds = t as u32,
                _ => {
                    return Err(format!(
                        "timer_seconds: 0 to {} seconds, not {v}",
                        crate::MAX_CLOCK_SECONDS
                    ));
                }
            },
        }
        Ok(setup)
    }

    /// A saved course (a course file over the shipped pieces), kept whole in the setup.
    fn setup_on_board(req: &SetupRequest, text: &str) -> Result<Setup, String> {
        roborally::board::course::load_course_text(text).map_err(|e| e.to_string())?;
        let mut setup = Self::setup(&SetupRequest { board: None, ..req.clone() })?;
        setup.board = BoardSpec::Text { course: text.to_string() };
        Ok(setup)
    }

    /// The findings, and `size` (the course's squares) when it assembles.
    fn inspect(text: &str) -> Value {
        let mut out = serde_json::json!({
            "findings": crate::findings_json(&roborally::board::course::check_text(text), |_| None),
        });
        if let Ok(c) = load_text(text) {
            out["size"] = (c.board.width * c.board.height).into();
        }
        out
    }

    /// `max_turns` (default 100): random robots rarely reach every flag. A turn is at most a
    /// few dozen decisions.
    fn action_cap(req: &SetupRequest) -> usize {
        let turns = req.option("max_turns").and_then(Value::as_u64).unwrap_or(100) as usize;
        turns * (req.players * 3 + 8)
    }

    /// `max_turns` (default 100): a game is stopped when turn `max_turns + 1` would begin.
    fn sim_limit_reached(&self, req: &SetupRequest) -> bool {
        let turns = req.option("max_turns").and_then(Value::as_u64).unwrap_or(100);
        u64::from(self.turn()) > turns
    }

    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        <Self as HasBots>::bot(spec)
    }

    /// RR-4.2: who still programs is in the frame's `waiting`, not in the view.
    fn from_view(
        setup: &Setup,
        view: &Value,
        waiting: &[engine::Seat],
        seat: engine::Seat,
        rng: &mut engine::Rng,
    ) -> Result<Self, String> {
        RoboRally::from_view(setup, view, waiting, seat, rng).map_err(|e| e.to_string())
    }

    fn lean_view(&self, observer: engine::Observer) -> roborally::View {
        roborally::View::without_choices(self, observer)
    }

    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Setup, SchemaError> {
        let board: BoardSpec = match board {
            Value::Null => {
                return Err(SchemaError::at(
                    "board",
                    "missing: a shipped course name or an inline board",
                ));
            }
            Value::String(s) => BoardSpec::Named(s.clone()),
            v => BoardSpec::Inline(from_value(v, "board")?),
        };
        let setup: ScenarioSetup = match setup {
            Value::Null => ScenarioSetup::default(),
            v => from_value(v, "setup")?,
        };
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        Ok(Setup::from_scenario(board, setup, variants))
    }

    fn scenario_round(&self) -> u32 {
        self.turn()
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase_name()
    }

    fn scenario_state(&self) -> Value {
        RoboRally::scenario_state(self)
    }

    fn bench() -> Result<crate::Bench, String> {
        let course = course_by_name("dizzy-dash").ok_or("dizzy-dash is shipped")?;
        Ok((
            "roborally, 4 robots, dizzy-dash (≤ 200 turns)".into(),
            Box::new(move |i| {
                crate::random::random_game(&course, 4, i).map_or(0, |s| s.actions as u64)
            }),
        ))
    }

    fn check(text: &str) -> Vec<crate::Finding> {
        roborally::board::course::check_text(text)
    }

    /// A course file starts with `course`, a board piece with `board`.
    fn recognises(text: &str) -> bool {
        matches!(crate::bumping_bots::first_word(text, '#'), Some("course" | "board"))
    }

    fn rules() -> Vec<engine::rulebook::Topic> {
        roborally::rulebook::rulebook()
    }

    fn shipped_text(id: &str) -> Option<&'static str> {
        roborally::board::course::COURSES.iter().copied().find(|t| {
            t.lines().find_map(|l| l.trim().strip_prefix("course ")).is_some_and(|n| slug(n) == id)
        })
    }

    fn render(name: &str, file: Option<&str>) -> Result<String, String> {
        match file {
            Some(t) => match load_text(t) {
                Ok(c) => Ok(crate::render::roborally::render_svg(&c)),
                Err(e) => Err(format!("{name}: {e}")),
            },
            None => match course_by_name(name) {
                Some(c) => Ok(crate::render::roborally::render_svg(&c)),
                None => Err(format!(
                    "no shipped RoboRally course {name:?} (see `robodrome board list`)"
                )),
            },
        }
    }
}

#[derive(Default, Serialize)]
pub struct RoboRallyTally {
    pub games: u64,
    pub average_turns: f64,
    pub flags_touched: u64,
    pub destroyed: u64,
    pub damage_points: u64,
    /// Registers revealed (RR-5.1), one per register phase begun, over all games.
    pub registers: u64,
    #[serde(skip)]
    turns: u64,
}

impl Tally<RoboRally> for RoboRallyTally {
    fn event(&mut self, e: &RrEvent) {
        match e {
            RrEvent::FlagTouched { .. } => self.flags_touched += 1,
            RrEvent::Destroyed { .. } => self.destroyed += 1,
            RrEvent::Damaged { points, .. } => self.damage_points += *points as u64,
            RrEvent::RegisterRevealed { .. } => self.registers += 1,
            _ => {}
        }
    }
    fn finished(&mut self, g: &RoboRally) {
        self.games += 1;
        // Turns played: a game stopped at `max_turns` stops as turn `max_turns + 1` begins.
        let played = if g.outcome().is_some() { g.turn() } else { g.turn().saturating_sub(1) };
        self.turns += played as u64;
        self.average_turns = self.turns as f64 / self.games as f64;
    }
    fn merge(&mut self, other: Self) {
        if other.games == 0 {
            return;
        }
        self.games += other.games;
        self.turns += other.turns;
        self.average_turns = self.turns as f64 / self.games as f64;
        self.flags_touched += other.flags_touched;
        self.destroyed += other.destroyed;
        self.damage_points += other.damage_points;
        self.registers += other.registers;
    }
    fn registers(&self) -> Option<u64> {
        Some(self.registers)
    }
    fn report(&self) -> String {
        let per = |n: u64| n as f64 / self.games.max(1) as f64;
        format!(
            "average turns: {:.1}; per game: {:.2} flags touched, {:.2} robots destroyed, {:.1} damage points\n",
            self.average_turns,
            per(self.flags_touched),
            per(self.destroyed),
            per(self.damage_points)
        )
    }
}
