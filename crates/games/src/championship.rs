//! Bumping Bots championships (BB-11) in the registry: a game of its own
//! (`bumping-bots-championship`), whose races are Bumping Bots races.

use crate::sim::Tally;
use crate::{Choice, Info, Registered, SchemaError, SetupRequest, from_value};
use bots::{Bot, BotSpec};
use bumping_bots::championship::{ChampEvent, Championship, ChampionshipSetup, RACES, check_teams};
use bumping_bots::settings::TeamsSpec;
use bumping_bots::setup::{DEFAULT_TRACK, LAPS, PLAYERS};
use bumping_bots::track::BoardSpec;
use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{BumpingBots, Variants};
use engine::{Game, Observer, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Races of a championship when the request names none.
pub const DEFAULT_RACES: u8 = 3;

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct LobbyVariants {
    random_grid: bool,
    choose_cards: bool,
}

impl Registered for Championship {
    type Tally = ChampionshipTally;

    fn info() -> Info {
        let race = <BumpingBots as Registered>::info();
        Info {
            name: Self::NAME,
            title: "Bumping Bots championship",
            min_players: *PLAYERS.start(),
            max_players: *PLAYERS.end(),
            board_noun: "track",
            timer_option: None,
            boards: race.boards,
            default_board: Some(DEFAULT_TRACK.into()),
            variants: vec![
                Choice::new(
                    "random_grid",
                    "Later grids drawn at random",
                    "Every race's grid is drawn at random, instead of the players choosing their places in reverse order of the standings",
                ),
                Choice::new(
                    "choose_cards",
                    "Choose tuning cards",
                    "Players pick their tuning cards instead of drawing them",
                ),
            ],
            options: vec![
                Choice {
                    key: "races",
                    title: "Short championship (2 races)",
                    help: "Two races instead of three",
                    value: Some(Value::from(2)),
                },
                Choice {
                    key: "laps",
                    title: "Short races (1 lap)",
                    help: "One lap instead of the track's own number of laps",
                    value: Some(Value::from(*LAPS.start())),
                },
                Choice {
                    key: "teams",
                    title: "Teams (4, 6, 8 or 9 bots)",
                    help: "Teams of 2 score their better bot; with 9 bots, teams of 3 score their two best (seats 1-2, 3-4, … play together)",
                    value: Some(Value::Bool(true)),
                },
                Choice {
                    key: "tour",
                    title: "Tour of every track",
                    help: "Each race on the next shipped track, starting with the chosen one",
                    value: Some(Value::Bool(true)),
                },
            ],
            default_timer_secs: None,
            public: true,
            rules_crate: "bumping-bots",
            rules_version: bumping_bots::RULES_VERSION,
            conformance_prefix: None,
            sim_players: 4,
            sim_games: 20,
        }
    }

    fn setup(req: &SetupRequest) -> Result<ChampionshipSetup, String> {
        let name = req.board.clone().unwrap_or_else(|| DEFAULT_TRACK.into());
        let mut names = vec![name.clone()];
        if req.option("tour").and_then(Value::as_bool) == Some(true) {
            let at = SHIPPED.iter().position(|(n, _)| *n == name).unwrap_or(0);
            names =
                (0..SHIPPED.len()).map(|i| SHIPPED[(at + i) % SHIPPED.len()].0.into()).collect();
        }
        let laps = match req.option("laps") {
            None => None,
            Some(l) => match l.as_u64() {
                Some(l) if l <= u64::from(u8::MAX) && LAPS.contains(&(l as u8)) => Some(l as u8),
                _ => {
                    return Err(format!(
                        "a race is {} to {} laps, not {l}",
                        LAPS.start(),
                        LAPS.end()
                    ));
                }
            },
        };
        let mut tracks = Vec::new();
        for n in names {
            let mut t = shipped(&n).ok_or_else(|| format!("no shipped track {n:?}"))?;
            if let Some(l) = laps {
                t.laps = l;
            }
            tracks.push(t);
        }
        let races = match req.option("races") {
            None => DEFAULT_RACES,
            Some(r) => match r.as_u64() {
                Some(r) if r <= u64::from(u8::MAX) && RACES.contains(&(r as u8)) => r as u8,
                _ => {
                    return Err(format!(
                        "a championship is {} to {} races, not {r}",
                        RACES.start(),
                        RACES.end()
                    ));
                }
            },
        };
        let v: LobbyVariants = crate::variants(req)?;
        let mut variants = Variants { choose_cards: v.choose_cards, ..Variants::default() };
        variants.teams = match req.option("teams") {
            None | Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => Some(TeamsSpec::Auto(true)),
            Some(t) => Some(TeamsSpec::Explicit(
                serde_json::from_value(t.clone())
                    .map_err(|e| format!("teams: true, or lists of seats ({e})"))?,
            )),
        };
        if let Some(t) = variants.team_list(req.players) {
            let problems = check_teams(&t, req.players);
            if !problems.is_empty() {
                return Err(problems.join("; "));
            }
        }
        Ok(ChampionshipSetup {
            tracks,
            bots: req.players as u8,
            races,
            variants,
            random_grid: v.random_grid,
            first_grid: None,
        })
    }

    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        bots::championship_bot(spec)
    }

    /// `board`: a track (a shipped name or an inline board, BB-13) or a list of them, raced in
    /// turn; `setup`: `players`, `races` and the first race's `grid_order`; `variants`: the
    /// race variants (BB-13) and `random_grid`.
    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Self::Setup, SchemaError> {
        let tracks = match board {
            Value::Array(list) => list
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    // `board[i]` and what is wrong inside it.
                    crate::bumping_bots::board_spec(b).map_err(|mut e| {
                        e.path = e.path.replacen("board", &format!("board[{i}]"), 1);
                        e
                    })
                })
                .collect::<Result<Vec<BoardSpec>, SchemaError>>()?,
            b => vec![crate::bumping_bots::board_spec(b)?],
        };
        // The race variants (BB-13), read as a race reads them, and `random_grid`.
        let (race, random_grid) = match variants {
            Value::Null => (Variants::default(), false),
            Value::Object(m) => {
                let mut m = m.clone();
                let random_grid = match m.remove("random_grid") {
                    None => false,
                    Some(v) => from_value::<bool>(&v, "variants.random_grid")?,
                };
                (from_value(&Value::Object(m), "variants")?, random_grid)
            }
            _ => return Err(SchemaError::at("variants", "expected an object")),
        };
        let s: ScenarioSetup = from_value(setup, "setup")?;
        Ok(ChampionshipSetup {
            tracks,
            bots: s.players,
            races: s.races,
            variants: race,
            random_grid,
            first_grid: s.grid_order,
        })
    }

    fn scenario_round(&self) -> u32 {
        self.race().map_or(0, |r| r.round())
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase_name()
    }

    fn scenario_state(&self) -> Value {
        serde_json::to_value(engine::Game::view(self, Observer::Omniscient))
            .expect("the view serialises")
    }

    fn render(name: &str, file: Option<&str>) -> Result<String, String> {
        <BumpingBots as Registered>::render(name, file)
    }
}

/// The `setup` of a championship scenario file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioSetup {
    players: u8,
    races: u8,
    /// The first race's grid, seats front first (instead of the draw).
    #[serde(default)]
    grid_order: Option<Vec<Seat>>,
}

/// `robodrome sim bumping-bots --championship N`: the standings over the championships.
#[derive(Default, Serialize)]
pub struct ChampionshipTally {
    pub championships: u64,
    /// Championships each seat won (shared titles count for each).
    pub titles: Vec<u64>,
    /// Average championship points by seat (BB-11.1).
    pub average_points: Vec<f64>,
    /// Average team points by team (BB-11.3), when teams score.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub average_team_points: Vec<f64>,
    /// Grid places chosen (BB-11.2), by place (0 = nearest the line).
    pub grid_places_chosen: Vec<u64>,
    #[serde(skip)]
    points: Vec<i64>,
    #[serde(skip)]
    team_points: Vec<i64>,
}

impl Tally<Championship> for ChampionshipTally {
    fn event(&mut self, e: &ChampEvent) {
        if let ChampEvent::Championship(bumping_bots::championship::ChampOnly::GridPlaceChosen {
            place,
            ..
        }) = e
        {
            let p = *place as usize;
            if self.grid_places_chosen.len() <= p {
                self.grid_places_chosen.resize(p + 1, 0);
            }
            self.grid_places_chosen[p] += 1;
        }
    }
    fn finished(&mut self, g: &Championship) {
        let Some(o) = g.outcome() else { return };
        self.championships += 1;
        let n = g.seats();
        self.titles.resize(n, 0);
        self.points.resize(n, 0);
        for s in o.ranking.first().into_iter().flatten() {
            self.titles[s.index()] += 1;
        }
        for (t, p) in self.points.iter_mut().zip(g.standings()) {
            *t += i64::from(*p);
        }
        let c = self.championships as f64;
        self.average_points = self.points.iter().map(|&p| p as f64 / c).collect();
        if let Some(ts) = g.team_standings() {
            self.team_points.resize(ts.len(), 0);
            for (t, p) in self.team_points.iter_mut().zip(ts) {
                *t += i64::from(p);
            }
            self.average_team_points = self.team_points.iter().map(|&p| p as f64 / c).collect();
        }
    }
    fn merge(&mut self, other: Self) {
        fn add<T: Copy + Default + std::ops::AddAssign>(into: &mut Vec<T>, from: &[T]) {
            if into.len() < from.len() {
                into.resize(from.len(), T::default());
            }
            for (a, b) in into.iter_mut().zip(from) {
                *a += *b;
            }
        }
        add(&mut self.grid_places_chosen, &other.grid_places_chosen);
        if other.championships == 0 {
            return;
        }
        self.championships += other.championships;
        add(&mut self.titles, &other.titles);
        add(&mut self.points, &other.points);
        let c = self.championships as f64;
        self.average_points = self.points.iter().map(|&p| p as f64 / c).collect();
        if !other.team_points.is_empty() {
            add(&mut self.team_points, &other.team_points);
            self.average_team_points = self.team_points.iter().map(|&p| p as f64 / c).collect();
        }
    }
    fn report(&self) -> String {
        let mut out = format!("championships: {}\n", self.championships);
        let rows: Vec<String> = self
            .average_points
            .iter()
            .zip(&self.titles)
            .enumerate()
            .map(|(i, (p, t))| format!("  seat {i}: {p:.2} points on average, {t} titles"))
            .collect();
        out += &format!("championship standings (BB-11.1):\n{}\n", rows.join("\n"));
        if !self.average_team_points.is_empty() {
            let teams: Vec<String> = self
                .average_team_points
                .iter()
                .enumerate()
                .map(|(i, p)| format!("team {i}: {p:.2}"))
                .collect();
            out += &format!("team points on average (BB-11.3): {}\n", teams.join(", "));
        }
        if !self.grid_places_chosen.is_empty() {
            let places: Vec<String> =
                self.grid_places_chosen.iter().map(|n| n.to_string()).collect();
            out += &format!("grid places chosen, front first (BB-11.2): {}\n", places.join(", "));
        }
        out
    }
}
