//! Bumping Bots (BB-1 … BB-13) in the registry.

use crate::sim::Tally;
use crate::{BoardInfo, Choice, Info, Registered, SchemaError, SetupRequest, from_value};
use bots::{Bot, BotSpec, HasBots};
use bumping_bots::setup::{DEFAULT_TRACK, LAPS, PLAYERS, ScenarioSetup};
use bumping_bots::track::{Board, BoardSpec};
use bumping_bots::tracks::{SHIPPED, load_for_play, shipped};
use bumping_bots::{BumpingBots, Setup, Variants};
use engine::{Game, Observer};
use serde::Serialize;
use serde_json::Value;

impl Registered for BumpingBots {
    type Tally = BumpingBotsTally;

    fn info() -> Info {
        Info {
            name: Self::NAME,
            title: "Bumping Bots",
            min_players: *PLAYERS.start(),
            max_players: *PLAYERS.end(),
            board_noun: "track",
            boards: SHIPPED
                .iter()
                .map(|(id, _)| BoardInfo { id: id.to_string(), title: capitalised(id) })
                .collect(),
            default_board: Some(DEFAULT_TRACK.into()),
            variants: vec![Choice::new(
                "choose_cards",
                "Choose tuning cards",
                "Players pick their tuning cards instead of drawing them",
            )],
            options: vec![
                Choice {
                    key: "laps",
                    title: "Short race (1 lap)",
                    help: "One lap instead of the track's own number of laps",
                    value: Some(Value::from(*LAPS.start())),
                },
                Choice::last_player_clock(),
            ],
            default_timer_secs: None,
            timer_option: None,
            public: true,
            rules_crate: "bumping-bots",
            rules_version: bumping_bots::RULES_VERSION,
            conformance_prefix: Some("bb-"),
            sim_players: *PLAYERS.end(),
            sim_games: 100,
        }
    }

    fn setup(req: &SetupRequest) -> Result<Setup, String> {
        let name = req.board.clone().unwrap_or_else(|| DEFAULT_TRACK.into());
        let track = shipped(&name).ok_or_else(|| format!("no shipped track {name:?}"))?;
        race_setup(req, track)
    }

    /// A saved track: loaded for play (BB-12 errors refuse it).
    fn setup_on_board(req: &SetupRequest, text: &str) -> Result<Setup, String> {
        let (track, _) = load_for_play(text).map_err(|e| e.to_string())?;
        if (track.start_grid.len()) < req.players {
            return Err(format!(
                "the track has {} grid places for {} bots (BB-2.1)",
                track.start_grid.len(),
                req.players
            ));
        }
        race_setup(req, track)
    }

    /// The findings with their cells (`[q, r]`), and when the track parses its cells with
    /// `progress` and `lane` (BB-2.1) and `size`.
    fn inspect(text: &str) -> Value {
        let i = bumping_bots::tracks::inspect(text);
        let findings: Vec<crate::Finding> = i.findings.iter().map(|(f, _)| f.clone()).collect();
        let cells = &i.findings;
        let mut out = serde_json::json!({
            "findings": crate::findings_json(&findings, |k| {
                cells[k].1.map(|h| serde_json::json!([h.q, h.r]))
            }),
        });
        if let Some(t) = &i.track {
            out["size"] = t.cells.len().into();
            out["cells"] = t
                .cells
                .iter()
                .map(|c| serde_json::json!([c.at.q, c.at.r, c.progress, c.lane]))
                .collect();
        }
        out
    }

    /// The whole random race by [`BumpingBots::play_random_race`], without events: the tally
    /// reads none and no race is cut short by a limit of the sim's own, so this is the loop of
    /// `sim_random_step` (`bumping-bots/tests/random_race.rs`; issue 17).
    fn sim_random_game(
        &mut self,
        rng: &mut engine::Rng,
        _tally: &mut BumpingBotsTally,
        max_actions: usize,
    ) -> Option<u64> {
        Some(self.play_random_race(rng, max_actions as u64))
    }

    /// The next race on the same board, in place ([`BumpingBots::reset`]): no board cache
    /// lookup, the vectors kept (issue 17).
    fn sim_reset(&mut self, setup: &Setup, seed: u64) -> bool {
        self.reset(setup, seed).is_ok()
    }

    /// BB-10's first place ([`BumpingBots::winners`]), without the ranking.
    fn sim_winners(&self) -> Option<engine::SeatSet> {
        self.winners()
    }

    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        <Self as HasBots>::bot(spec)
    }

    /// BB-2.2: one seat acts at a time, named in the view (`to_act`).
    fn from_view(
        setup: &Setup,
        view: &Value,
        _waiting: &[engine::Seat],
        seat: engine::Seat,
        rng: &mut engine::Rng,
    ) -> Result<Self, String> {
        BumpingBots::from_view(setup, view, seat, rng).map_err(|e| e.to_string())
    }

    fn lean_view(&self, observer: Observer) -> bumping_bots::view::View {
        bumping_bots::view::View::without_choices(self, observer)
    }

    fn write_observation(&self, observer: Observer, out: &mut [f32]) -> usize {
        BumpingBots::write_observation(self, observer, out)
    }

    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Self::Setup, SchemaError> {
        let spec = board_spec(board)?;
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        let setup: ScenarioSetup = match setup {
            Value::Null => ScenarioSetup::default(),
            v => from_value(v, "setup")?,
        };
        setup
            .into_setup(spec, variants)
            .map_err(|(path, msg)| SchemaError::at(format!("setup.{path}"), msg))
    }

    fn scenario_round(&self) -> u32 {
        self.round()
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase_name()
    }

    fn scenario_state(&self) -> Value {
        serde_json::to_value(engine::Game::view(self, Observer::Omniscient))
            .expect("the view serialises")
    }

    fn bench() -> Result<crate::Bench, String> {
        let track = shipped("factory").ok_or("factory is shipped")?;
        let racer = crate::random::RandomRacer::new(&track, 9, 2);
        Ok((
            "bumping-bots, 9 bots, 2 laps, factory".into(),
            Box::new(move |i| racer.race(i).actions as u64),
        ))
    }

    fn check(text: &str) -> Vec<crate::Finding> {
        bumping_bots::tracks::check(text)
    }

    /// A track file's first keyword line is `name:`, `laps:` or `map:`.
    fn recognises(text: &str) -> bool {
        first_word(text, '#').is_some_and(|w| {
            ["name", "laps", "map"]
                .iter()
                .any(|k| w.strip_prefix(k).is_some_and(|r| r.starts_with(':')))
        })
    }

    fn rules() -> Vec<engine::rulebook::Topic> {
        bumping_bots::rulebook::rulebook()
    }

    /// The factory track has every kind of obstacle and bumpers: the rules page draws each.
    fn rules_board() -> Option<&'static str> {
        Some("factory")
    }

    fn shipped_text(id: &str) -> Option<&'static str> {
        SHIPPED.iter().find(|(n, _)| *n == id).map(|(_, t)| *t)
    }

    fn render(name: &str, file: Option<&str>) -> Result<String, String> {
        match file {
            Some(t) => match load_for_play(t) {
                Ok((spec, _)) => Ok(crate::render::bumping_bots::render_svg(&spec)),
                Err(e) => Err(format!("{name}: {e}")),
            },
            None => match shipped(name) {
                Some(t) => Ok(crate::render::bumping_bots::render_svg(&t)),
                None => Err(format!(
                    "no shipped Bumping Bots track {name:?} (see `robodrome board list`)"
                )),
            },
        }
    }
}

/// A race on `track` for the request's players, laps, variants and clock.
fn race_setup(req: &SetupRequest, mut track: BoardSpec) -> Result<Setup, String> {
    if let Some(l) = req.option("laps") {
        match l.as_u64() {
            Some(l) if l <= u64::from(u8::MAX) && LAPS.contains(&(l as u8)) => track.laps = l as u8,
            _ => {
                return Err(format!("a race is {} to {} laps, not {l}", LAPS.start(), LAPS.end()));
            }
        }
    }
    let mut setup = Setup::race(track, req.players as u8);
    setup.variants = crate::variants(req)?;
    setup.last_player_seconds = crate::last_player_seconds(req)?;
    Ok(setup)
}

fn capitalised(id: &str) -> String {
    let mut c = id.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// BB-13: `board` is an inline board or a shipped track's name.
pub(crate) fn board_spec(board: &Value) -> Result<BoardSpec, SchemaError> {
    match board {
        Value::String(name) => shipped(name).ok_or_else(|| {
            let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
            SchemaError::at(
                "board",
                format!("no shipped track {name:?} (tracks: {})", names.join(", ")),
            )
        }),
        Value::Object(_) => {
            let spec: BoardSpec = from_value(board, "board")?;
            // BB-13: an inline board gives progress and lane for every cell.
            Board::build(&spec)
                .map_err(|p| SchemaError::at(format!("board.{}", p[0].0), p[0].1.clone()))?;
            Ok(spec)
        }
        Value::Null => {
            Err(SchemaError::at("board", "missing field (an inline board or a track name)"))
        }
        _ => Err(SchemaError::at(
            "board",
            "expected an inline board (object) or a track name (string)",
        )),
    }
}

#[derive(Default, Serialize)]
pub struct BumpingBotsTally {
    pub races: u64,
    pub average_rounds: f64,
    /// Championship points by seat over all races (BB-11.1).
    pub points: Vec<i64>,
    #[serde(skip)]
    rounds: u64,
}

impl Tally<BumpingBots> for BumpingBotsTally {
    fn event(&mut self, _e: &bumping_bots::Event) {}
    fn finished(&mut self, g: &BumpingBots) {
        self.races += 1;
        self.rounds += g.round() as u64;
        self.average_rounds = self.rounds as f64 / self.races as f64;
        if self.points.len() < g.seats() {
            self.points.resize(g.seats(), 0);
        }
        // The outcome's ranking, read from the places without building it (issue 17): a
        // placed seat scores the points of 1 + the number of seats placed strictly ahead of
        // it (tied seats share a place, BB-10), as the ranking's groups count them.
        if g.winners().is_some() {
            let bots = g.bots();
            for b in bots {
                let Some(p) = b.finished_place else { continue };
                let ahead = bots.iter().filter(|o| o.finished_place.is_some_and(|q| q < p)).count();
                self.points[b.seat.index()] +=
                    bumping_bots::championship::points_for(ahead + 1, g.seats()) as i64;
            }
        }
    }
    fn merge(&mut self, other: Self) {
        if other.races == 0 {
            return;
        }
        self.races += other.races;
        self.rounds += other.rounds;
        self.average_rounds = self.rounds as f64 / self.races as f64;
        if self.points.len() < other.points.len() {
            self.points.resize(other.points.len(), 0);
        }
        for (a, b) in self.points.iter_mut().zip(other.points) {
            *a += b;
        }
    }
    fn report(&self) -> String {
        let mut out = format!("average rounds per race: {:.1}\n", self.average_rounds);
        let pts: Vec<String> =
            self.points.iter().enumerate().map(|(i, p)| format!("seat {i}: {p}")).collect();
        out += &format!("championship points (BB-11.1): {}\n", pts.join(", "));
        out
    }
}

/// The first word of the first line that is not blank or a comment.
pub(crate) fn first_word(text: &str, comment: char) -> Option<&str> {
    text.lines()
        .map(|l| l.split(comment).next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .and_then(|l| l.split_whitespace().next())
}
