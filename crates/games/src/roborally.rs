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

    /// The findings, each with the course cell it concerns (`[x, y]`: a flag's or a dock's),
    /// and when the text assembles (a course, even with errors, or a board piece alone) `size`
    /// (its squares) and `board`, the course as a table draws it (`roborally::view::BoardView`,
    /// the static part's form): the editor draws the game crate's own assembly.
    fn inspect(text: &str) -> Value {
        let (found, course) = roborally::board::course::inspect_text(text);
        let findings: Vec<crate::Finding> = found.iter().map(|(f, _)| f.clone()).collect();
        let mut out = serde_json::json!({
            "findings": crate::findings_json(&findings, |k| {
                found[k].1.map(|at| serde_json::json!([at.x, at.y]))
            }),
        });
        if let Some(c) = course {
            out["size"] = (c.board.width * c.board.height).into();
            out["board"] = serde_json::to_value(roborally::view::BoardView::of(&c.board))
                .unwrap_or(Value::Null);
        }
        // Where each `place` line put its piece (the editor turns and removes pieces by cell).
        let shipped = roborally::board::course::shipped_pieces();
        if let Ok((_, lines)) = roborally::board::course::assemble_course(text, &shipped) {
            out["pieces"] = lines
                .pieces
                .iter()
                .map(|&((line, _), at, w, h)| serde_json::json!({ "line": line, "at": [at.x, at.y], "width": w, "height": h }))
                .collect();
        }
        // The shipped pieces a course may place (the editor's palette).
        out["shipped_pieces"] = shipped
            .iter()
            .map(|p| serde_json::json!({ "id": slug(&p.name), "name": p.name, "width": p.board.width, "height": p.board.height }))
            .collect();
        out
    }

    /// The heuristic bot's turns to finish a course (docs/editors.md "Difficulty"): `games`
    /// games of two heuristic robots (RR-1.3: the race ends when one touches the last flag),
    /// each stopped after `max_turns` turns, all stopped at `deadline`.
    fn difficulty(
        text: &str,
        games: u32,
        max_turns: u32,
        deadline: std::time::Instant,
    ) -> Option<Result<Value, String>> {
        Some(difficulty(text, games, max_turns, deadline))
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

    /// The rules' own random step ([`RoboRally::play_random`]: the draws and the game of
    /// `sample_action` then `apply`) with the tally as the event sink: no action built and
    /// checked again, no event list; the events the tally does not read are not even built
    /// (issue 17).
    fn sim_random_step(
        &mut self,
        seat: engine::Seat,
        rng: &mut engine::Rng,
        _events: &mut Vec<RrEvent>,
        tally: &mut RoboRallyTally,
    ) -> Option<bool> {
        Some(self.play_random(seat, rng, tally)?.is_ok())
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

    fn write_observation(&self, observer: engine::Observer, out: &mut [f32]) -> usize {
        RoboRally::write_observation(self, observer, out)
    }

    /// The programs counted and decoded by arithmetic over the hand (`roborally::encoding`),
    /// never listed.
    fn count_legal(&self, seat: engine::Seat) -> Option<usize> {
        Some(self.legal_count(seat))
    }

    fn nth_legal(&self, seat: engine::Seat, index: usize) -> Option<roborally::Action> {
        RoboRally::nth_legal(self, seat, index)
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

/// [`Registered::difficulty`] for RoboRally: two heuristic robots race on the course.
fn difficulty(
    text: &str,
    games: u32,
    max_turns: u32,
    deadline: std::time::Instant,
) -> Result<Value, String> {
    let req = SetupRequest { players: 2, board: None, variants: None, options: None };
    let setup = <RoboRally as Registered>::setup_on_board(&req, text)?;
    let mut bots = [
        <RoboRally as Registered>::bot(&BotSpec::Heuristic),
        <RoboRally as Registered>::bot(&BotSpec::Heuristic),
    ];
    let (mut played, mut finished, mut turns, mut stopped) = (0u32, 0u32, 0u64, false);
    let mut events = Vec::new();
    'games: for i in 0..games {
        let mut g = RoboRally::new(&setup, u64::from(i) + 1).map_err(|e| e.to_string())?;
        let mut rng = engine::Rng::seeded(u64::from(i) ^ 0x5EED);
        while let Some(d) = g.decision() {
            if g.turn() > max_turns {
                break;
            }
            if std::time::Instant::now() >= deadline {
                stopped = true;
                break 'games;
            }
            let seat = engine::harness::next_seat(&d, &mut rng).ok_or("no seat owes a decision")?;
            let action = bots[seat.0 as usize % 2].act(&g, seat, &mut rng);
            g.apply(seat, &action, &mut events)
                .map_err(|e| format!("a bot's illegal action: {e}"))?;
            events.clear();
        }
        played += 1;
        if g.outcome().is_some() {
            finished += 1;
            turns += u64::from(g.turn());
        }
    }
    let average = if finished > 0 { Some(turns as f64 / f64::from(finished)) } else { None };
    Ok(serde_json::json!({
        "bot": "heuristic",
        "robots": 2,
        "games": played,
        "finished": finished,
        "max_turns": max_turns,
        "average_turns": average,
        "stopped_by_time": stopped,
    }))
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

/// The tally as the rules' event sink ([`Registered::sim_random_step`]): it reads the events
/// [`Tally::event`] reads, straight from the rules.
impl engine::Sink<roborally::Event> for RoboRallyTally {
    #[inline]
    fn push(&mut self, e: RrEvent) {
        Tally::<RoboRally>::event(self, &e);
    }
}

impl Tally<RoboRally> for RoboRallyTally {
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor's answer (docs/editors.md): the course assembled by the game crate, and each
    /// flag or dock finding on its cell (RR-2: a flag on a pit; RR-1.3: a dock off the board, a dock numbered twice).
    #[test]
    fn inspect_draws_the_course_and_marks_the_cells_of_findings() {
        let text = "course T\nplace mine 0 0 0\nplace bay 0 2 0\nflag 1 0\nflag 0 1\ndock 9 1 1\n\
                    board Mine\nsize 12 2\ngrid\n. X . . . . . . . . . .\n. . . . . . . . . . . .\n";
        let a = <RoboRally as Registered>::inspect(text);
        assert!(a["findings"][0]["message"].as_str().unwrap().contains("1..8"), "{a}");
        let text = text.replace("dock 9 1 1", "dock 1 5 9");
        let a = <RoboRally as Registered>::inspect(&text);
        let cells: Vec<&Value> = a["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .map(|f| &f["cell"])
            .collect();
        // The flag on the pit; dock 1 off the board and numbered like the bay's dock 1.
        let (flag, dock) = (serde_json::json!([1, 0]), serde_json::json!([5, 9]));
        assert_eq!(cells, [&flag, &dock, &dock], "{a}");
        assert_eq!(
            (a["board"]["width"].as_i64(), a["board"]["height"].as_i64()),
            (Some(12), Some(6))
        );
        assert_eq!(a["board"]["cells"][1]["kind"], "pit", "{a}");
        assert_eq!(a["size"], 72);
        let at: Vec<&Value> = a["pieces"].as_array().unwrap().iter().map(|p| &p["at"]).collect();
        assert_eq!(at, [&serde_json::json!([0, 0]), &serde_json::json!([0, 2])], "{a}");
        assert_eq!(a["pieces"][1]["line"], 3);
        assert!(a["shipped_pieces"].as_array().unwrap().iter().any(|p| p["id"] == "bay"));
    }

    /// The heuristic bot finishes First Steps (two flags, RR-1.3) within the turn limit; a
    /// piece alone has no flags and gets no estimate.
    #[test]
    fn difficulty_counts_the_heuristic_bots_turns() {
        let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let text = roborally::board::course::COURSES[0];
        let d = difficulty(text, 2, 30, far).unwrap();
        assert_eq!((d["games"].as_u64(), d["stopped_by_time"].as_bool()), (Some(2), Some(false)));
        let avg = d["average_turns"].as_f64().unwrap_or(0.0);
        assert!(d["finished"].as_u64() > Some(0) && (1.0..=30.0).contains(&avg), "{d}");
        assert!(difficulty(roborally::board::course::PIECES[1], 1, 5, far).is_err());
        let past = std::time::Instant::now();
        assert_eq!(difficulty(text, 3, 30, past).unwrap()["games"], 0);
    }
}
