//! A championship as one game (BB-11): a sequence of races, standings carried over, the grid
//! of each later race chosen by the players in reverse order of the standings (BB-11.2), team
//! scoring (BB-11.3). Each race is a whole [`BumpingBots`] race held inside the state; the
//! championship only starts races, reads their places and runs the grid choice between them.
//!
//! Decisions where the booklet is silent are in `docs/bumping-bots.md` ("Championships").

use super::team_points;
use crate::settings::Variants;
use crate::setup::{BotSetup, PLAYERS, Setup};
use crate::track::{Board, BoardSpec};
use crate::{Action, BbError, BumpingBots, Event};
use engine::{Audience, Decision, Game, GameEvent, Observer, Outcome, Rng, RuleError, Seat};
use engine::{SetupError, harness::Conformance};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Races in a championship: "several races" (booklet); at most 10, a project bound.
pub const RACES: std::ops::RangeInclusive<u8> = 2..=10;

/// What a championship starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChampionshipSetup {
    /// The tracks, in turn: race `i` (from 0) is run on `tracks[i % tracks.len()]`.
    pub tracks: Vec<BoardSpec>,
    /// Number of bots (seats), 2 to 9 (BB-1.1).
    pub bots: u8,
    /// Number of races.
    pub races: u8,
    /// The race rules every race is played with (`choose_cards`, `cards_per_player`, `teams`
    /// for BB-11.3, ...). `reverse_standings` and the race's own `standings` are the
    /// championship's business and are ignored here.
    #[serde(default)]
    pub variants: Variants,
    /// BB-11.2: later grids drawn at random like the first instead of chosen by the players.
    #[serde(default)]
    pub random_grid: bool,
    /// The first race's grid (seats, front first) instead of the draw (scenarios).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_grid: Option<Vec<Seat>>,
}

impl ChampionshipSetup {
    /// A championship of `races` races for `bots` bots on one track.
    pub fn new(track: BoardSpec, bots: u8, races: u8) -> ChampionshipSetup {
        ChampionshipSetup {
            tracks: vec![track],
            bots,
            races,
            variants: Variants::default(),
            random_grid: false,
            first_grid: None,
        }
    }
}

/// A player's decision: a race action (BB-13), or a place on the next race's grid (BB-11.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChampAction {
    Race(Action),
    /// `{"type": "grid_place", "place": k}`: the `k`-th place of the start grid (0 = nearest
    /// the line, BB-2.1).
    GridPlace {
        place: u8,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum GridWire {
    GridPlace { place: u8 },
}

impl Serialize for ChampAction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ChampAction::Race(a) => a.serialize(s),
            ChampAction::GridPlace { place } => GridWire::GridPlace { place: *place }.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ChampAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_json::Value::deserialize(d)?;
        if v.get("type").and_then(|t| t.as_str()) == Some("grid_place") {
            let GridWire::GridPlace { place } =
                serde_json::from_value(v).map_err(D::Error::custom)?;
            Ok(ChampAction::GridPlace { place })
        } else {
            serde_json::from_value(v).map(ChampAction::Race).map_err(D::Error::custom)
        }
    }
}

/// A refused championship action: the race's own errors, or the grid choice's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChampError {
    Race(BbError),
    /// The championship is over.
    GameOver,
    /// This seat owes no decision now (BB-11.2: one seat chooses at a time).
    NotYourTurn,
    /// The action is not the kind the current decision asks for.
    WrongAction {
        expected: &'static str,
    },
    /// BB-11.2: another bot already took that place.
    PlaceTaken,
    /// There is no such place on the start grid.
    NoSuchPlace,
}

impl RuleError for ChampError {
    fn code(&self) -> &'static str {
        match self {
            ChampError::Race(e) => e.code(),
            ChampError::GameOver => "game_over",
            ChampError::NotYourTurn => "not_your_turn",
            ChampError::WrongAction { .. } => "wrong_action",
            ChampError::PlaceTaken => "place_taken",
            ChampError::NoSuchPlace => "no_such_place",
        }
    }
}

impl std::fmt::Display for ChampError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChampError::Race(e) => e.fmt(f),
            ChampError::GameOver => f.write_str("the championship is over"),
            ChampError::NotYourTurn => f.write_str("this seat owes no decision now"),
            ChampError::WrongAction { expected } => {
                write!(f, "the game waits for a {expected} action")
            }
            ChampError::PlaceTaken => {
                f.write_str("another bot already took that place on the grid (BB-11.2)")
            }
            ChampError::NoSuchPlace => f.write_str("the start grid has no such place"),
        }
    }
}

impl std::error::Error for ChampError {}

/// What happened: a race's own events, or the championship's.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ChampEvent {
    Race(Event),
    Championship(ChampOnly),
}

/// The championship's own events (all public).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChampOnly {
    /// Race `race` (from 1) starts on track `track` (an index into the static `tracks`).
    RaceStarted {
        race: u8,
        track: usize,
    },
    /// A race ended: its places and points (BB-11.1), the standings after it, and the teams'
    /// points (BB-11.3) when teams score.
    Standings {
        race: u8,
        ranking: Vec<Vec<Seat>>,
        points: Vec<i32>,
        standings: Vec<i32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        team_points: Option<Vec<i32>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        team_standings: Option<Vec<i32>>,
    },
    /// BB-11.2: the players choose their places for race `race` in this order.
    GridChoice {
        race: u8,
        order: Vec<Seat>,
    },
    GridPlaceChosen {
        seat: Seat,
        place: u8,
    },
    /// The championship is over: its ranking (ties share a place).
    ChampionshipOver {
        ranking: Vec<Vec<Seat>>,
    },
}

impl GameEvent for ChampEvent {
    fn audience(&self) -> Audience {
        match self {
            ChampEvent::Race(e) => e.audience(),
            ChampEvent::Championship(_) => Audience::Everyone,
        }
    }
}

/// One finished race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RaceResult {
    /// From 1.
    pub race: u8,
    pub track: usize,
    /// Places, first to last; tied seats share a group (BB-10).
    pub ranking: Vec<Vec<Seat>>,
    /// Each seat's place (1 = first; tied seats share it).
    pub places: Vec<u8>,
    /// BB-11.1 points by seat.
    pub points: Vec<i32>,
    /// BB-11.3 points by team.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_points: Option<Vec<i32>>,
}

/// BB-11.2: the grid of the next race being chosen, one seat at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridChoice {
    /// Who chooses, first to last (reverse order of the standings).
    pub order: Vec<Seat>,
    /// How many have chosen.
    pub next: usize,
    /// By grid place: the seat that took it.
    pub places: Vec<Option<Seat>>,
}

#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Race(Box<BumpingBots>),
    Grid(GridChoice),
    Over,
}

/// The whole championship. Pure, cloneable in the middle of a race.
#[derive(Clone, Debug, PartialEq)]
pub struct Championship {
    boards: Vec<Arc<Board>>,
    variants: Variants,
    bots: usize,
    races: u8,
    random_grid: bool,
    teams: Option<Vec<Vec<u8>>>,
    standings: Vec<i32>,
    results: Vec<RaceResult>,
    stage: Stage,
    rng: Rng,
}

impl Championship {
    /// The race being run or about to be chosen (from 1).
    pub fn race_number(&self) -> u8 {
        (self.results.len() as u8 + 1).min(self.races)
    }
    /// The track of the race being run or chosen for (index into the static `tracks`).
    pub fn track_index(&self) -> usize {
        (self.race_number().max(1) as usize - 1) % self.boards.len()
    }
    /// The race in progress, if any.
    pub fn race(&self) -> Option<&BumpingBots> {
        match &self.stage {
            Stage::Race(r) => Some(r),
            _ => None,
        }
    }
    /// The grid choice in progress, if any.
    pub fn grid(&self) -> Option<&GridChoice> {
        match &self.stage {
            Stage::Grid(g) => Some(g),
            _ => None,
        }
    }
    /// The start grid of the current track.
    pub fn start_grid(&self) -> &[crate::track::GridSpot] {
        self.boards[self.track_index()].start_grid()
    }
    /// Points by seat so far (BB-11.1).
    pub fn standings(&self) -> &[i32] {
        &self.standings
    }
    /// Finished races.
    pub fn results(&self) -> &[RaceResult] {
        &self.results
    }
    /// The teams, if teams score (BB-11.3).
    pub fn teams(&self) -> Option<&[Vec<u8>]> {
        self.teams.as_deref()
    }
    /// Points by team so far (BB-11.3).
    pub fn team_standings(&self) -> Option<Vec<i32>> {
        let teams = self.teams.as_ref()?;
        let mut total = vec![0; teams.len()];
        for r in &self.results {
            for (t, p) in total.iter_mut().zip(r.team_points.iter().flatten()) {
                *t += p;
            }
        }
        Some(total)
    }
    pub fn phase_name(&self) -> &'static str {
        match &self.stage {
            Stage::Race(r) => r.phase_name(),
            Stage::Grid(_) => "grid_choice",
            Stage::Over => "over",
        }
    }

    /// The race's setup for race number `race` (from 1): bots placed on the chosen places, or
    /// taking the grid in the given order or at random.
    fn race_setup(&self, places: Option<&[Option<Seat>]>, order: Option<Vec<Seat>>) -> Setup {
        let board = &self.boards[self.track_index()];
        let mut setup = Setup::race(board.spec.clone(), self.bots as u8);
        setup.variants = self.variants.clone();
        setup.variants.reverse_standings = false;
        setup.standings = self.standings.clone();
        setup.grid_order = order;
        if let Some(places) = places {
            for (spot, seat) in board.start_grid().iter().zip(places) {
                if let Some(s) = seat {
                    setup.bots[s.index()] = BotSetup {
                        at: Some(spot.at),
                        facing: Some(spot.facing),
                        started: Some(false),
                        ..BotSetup::on_grid(s.0)
                    };
                }
            }
        }
        setup
    }

    /// Starts race number `results.len() + 1`.
    fn start_race(
        &mut self,
        places: Option<&[Option<Seat>]>,
        order: Option<Vec<Seat>>,
        ev: &mut Vec<ChampEvent>,
    ) -> Result<(), SetupError> {
        let setup = self.race_setup(places, order);
        let seed = self.rng.next_u64();
        let board = self.boards[self.track_index()].clone();
        let race = BumpingBots::on_board(board, &setup, seed)?;
        ev.push(ChampEvent::Championship(ChampOnly::RaceStarted {
            race: self.race_number(),
            track: self.track_index(),
        }));
        self.stage = Stage::Race(Box::new(race));
        // A race may end without a decision only if it cannot start; never with 2+ bots.
        self.after_race(ev);
        Ok(())
    }

    /// When the race in progress is over: record it, then the grid choice, the next race or
    /// the end.
    fn after_race(&mut self, ev: &mut Vec<ChampEvent>) {
        let Stage::Race(race) = &self.stage else { return };
        let Some(outcome) = race.outcome() else { return };
        let points = race.race_points();
        let ranking = outcome.ranking;
        let mut places = vec![0u8; self.bots];
        let mut place = 1u8;
        for group in &ranking {
            for s in group {
                places[s.index()] = place;
            }
            place += group.len() as u8;
        }
        for (s, p) in self.standings.iter_mut().zip(&points) {
            *s += p;
        }
        let team_points = self.teams.as_ref().map(|t| team_points(t, &points));
        let result = RaceResult {
            race: self.results.len() as u8 + 1,
            track: self.track_index(),
            ranking: ranking.clone(),
            places,
            points: points.clone(),
            team_points: team_points.clone(),
        };
        self.results.push(result);
        ev.push(ChampEvent::Championship(ChampOnly::Standings {
            race: self.results.len() as u8,
            ranking,
            points,
            standings: self.standings.clone(),
            team_points,
            team_standings: self.team_standings(),
        }));
        if self.results.len() >= self.races as usize {
            self.stage = Stage::Over;
            ev.push(ChampEvent::Championship(ChampOnly::ChampionshipOver {
                ranking: self.final_ranking(),
            }));
            return;
        }
        if self.random_grid {
            // BB-11.2 "continuer d'appliquer le hasard": drawn by the race's own seed.
            self.stage = Stage::Over;
            if self.start_race(None, None, ev).is_err() {
                // Every track was checked with these bots at the start (`new`).
                self.stage = Stage::Over;
            }
            return;
        }
        let order = self.choosing_order();
        let places = vec![None; self.start_grid().len()];
        ev.push(ChampEvent::Championship(ChampOnly::GridChoice {
            race: self.race_number(),
            order: order.clone(),
        }));
        self.stage = Stage::Grid(GridChoice { order, next: 0, places });
    }

    /// BB-11.2: "the last in the standings chooses first, then the one before last, etc.".
    /// Decision: equal points are broken by the last race (the worse placed there chooses
    /// first), then the race before, and so on; bots equal in every race are drawn by lot.
    fn choosing_order(&mut self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = (0..self.bots as u8).map(Seat).collect();
        self.rng.shuffle(&mut seats);
        let key = |s: &Seat| {
            let back: Vec<std::cmp::Reverse<u8>> =
                self.results.iter().rev().map(|r| std::cmp::Reverse(r.places[s.index()])).collect();
            (self.standings[s.index()], back)
        };
        seats.sort_by_cached_key(key);
        seats
    }

    /// Decision: the championship ranks by points, ties sharing a place (as ex-aequo bots do in
    /// a race, BB-10); with teams, by the team's points (BB-11.3), team mates sharing a place.
    pub fn final_ranking(&self) -> Vec<Vec<Seat>> {
        let score = self.final_scores();
        let mut seats: Vec<Seat> = (0..self.bots as u8).map(Seat).collect();
        seats.sort_by_key(|s| (std::cmp::Reverse(score[s.index()]), *s));
        let mut out: Vec<Vec<Seat>> = Vec::new();
        for s in seats {
            match out.last_mut() {
                Some(g) if score[g[0].index()] == score[s.index()] => g.push(s),
                _ => out.push(vec![s]),
            }
        }
        out
    }

    /// Each seat's score: its points, or with teams its team's points.
    fn final_scores(&self) -> Vec<i32> {
        match (&self.teams, self.team_standings()) {
            (Some(teams), Some(total)) => {
                let mut score = vec![0; self.bots];
                for (t, members) in teams.iter().enumerate() {
                    for &m in members {
                        score[m as usize] = total[t];
                    }
                }
                score
            }
            _ => self.standings.clone(),
        }
    }

    fn owing(&self) -> Option<Seat> {
        match &self.stage {
            Stage::Race(r) => r.decision().and_then(|d| d.seats().first()),
            Stage::Grid(g) => g.order.get(g.next).copied(),
            Stage::Over => None,
        }
    }

    fn choose_place(
        &mut self,
        seat: Seat,
        place: u8,
        ev: &mut Vec<ChampEvent>,
    ) -> Result<(), ChampError> {
        let Stage::Grid(g) = &mut self.stage else {
            return Err(ChampError::WrongAction { expected: "race" });
        };
        if g.order.get(g.next) != Some(&seat) {
            return Err(ChampError::NotYourTurn);
        }
        match g.places.get(place as usize) {
            None => return Err(ChampError::NoSuchPlace),
            Some(Some(_)) => return Err(ChampError::PlaceTaken),
            Some(None) => {}
        }
        g.places[place as usize] = Some(seat);
        g.next += 1;
        ev.push(ChampEvent::Championship(ChampOnly::GridPlaceChosen { seat, place }));
        if g.next == g.order.len() {
            let places = g.places.clone();
            self.start_race(Some(&places), None, ev).map_err(|_| ChampError::NoSuchPlace)?;
        }
        Ok(())
    }

    /// The best free place: the one nearest the line (BB-2.1: the grid's first place).
    pub fn best_free_place(&self) -> Option<u8> {
        self.grid()?.places.iter().position(Option::is_none).map(|p| p as u8)
    }
}

/// Championship's static part: every track it is run on (sent once per game).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChampStatic {
    pub tracks: Vec<BoardSpec>,
}

/// A standings row.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeamStanding {
    pub id: usize,
    pub seats: Vec<u8>,
    pub points: i32,
}

/// The grid choice as everyone sees it (nothing in it is secret).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GridView {
    pub order: Vec<Seat>,
    pub chooser: Option<Seat>,
    /// By grid place (0 = nearest the line): the seat that took it, or null.
    pub places: Vec<Option<Seat>>,
}

/// The championship as one observer sees it; the race in progress is the race's own view,
/// redacted the same way.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChampView {
    /// The race being run or chosen for (from 1).
    pub race: u8,
    pub races: u8,
    /// Index into the static `tracks`.
    pub track: usize,
    /// `grid_choice`, the race's phase, or `over`.
    pub phase: &'static str,
    pub to_act: Option<Seat>,
    /// Points by seat (BB-11.1), finished races only.
    pub standings: Vec<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<TeamStanding>>,
    pub results: Vec<RaceResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridView>,
    #[serde(skip_serializing_if = "Option::is_none", rename = "race_state")]
    pub race_view: Option<crate::view::View>,
    /// The championship's ranking once it is over.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranking: Vec<Vec<Seat>>,
}

impl Game for Championship {
    const NAME: &'static str = "bumping-bots-championship";
    type Setup = ChampionshipSetup;
    type Action = ChampAction;
    type Event = ChampEvent;
    type Error = ChampError;
    type View = ChampView;
    type Static = ChampStatic;

    fn new(setup: &ChampionshipSetup, seed: u64) -> Result<Self, SetupError> {
        let mut problems = Vec::new();
        let bots = setup.bots as usize;
        if !PLAYERS.contains(&bots) {
            problems.push(format!("bots: a race has 2 to 9 bots (BB-1.1), got {bots}"));
        }
        if !RACES.contains(&setup.races) {
            problems.push(format!(
                "races: a championship has {} to {} races, got {}",
                RACES.start(),
                RACES.end(),
                setup.races
            ));
        }
        if setup.tracks.is_empty() {
            problems.push("tracks: name at least one track".into());
        }
        let teams = setup.variants.team_list(bots);
        if let Some(t) = &teams {
            problems.extend(super::check_teams(t, bots));
        }
        let mut boards = Vec::new();
        for (i, spec) in setup.tracks.iter().enumerate() {
            match Board::build(spec) {
                Ok(b) => {
                    if b.start_grid().len() < bots {
                        problems.push(format!(
                            "tracks[{i}]: its start grid has {} places for {bots} bots",
                            b.start_grid().len()
                        ));
                    }
                    boards.push(Arc::new(b));
                }
                Err(p) => {
                    problems.extend(p.into_iter().map(|(w, m)| format!("tracks[{i}].{w}: {m}")))
                }
            }
        }
        if let Some(order) = &setup.first_grid {
            let mut sorted: Vec<u8> = order.iter().map(|s| s.0).collect();
            sorted.sort_unstable();
            if sorted != (0..setup.bots).collect::<Vec<u8>>() {
                problems.push("grid_order: the first race's grid lists every seat once".into());
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let mut c = Championship {
            boards,
            variants: setup.variants.clone(),
            bots,
            races: setup.races,
            random_grid: setup.random_grid,
            teams,
            standings: vec![0; bots],
            results: Vec::new(),
            stage: Stage::Over,
            rng: Rng::seeded(seed),
        };
        // Every track must take these bots and rules: start each once (the first for real).
        for k in 1..c.boards.len() {
            let s = Setup { board: c.boards[k].spec.clone(), ..c.race_setup(None, None) };
            BumpingBots::on_board(c.boards[k].clone(), &s, 0).map_err(|e| SetupError {
                problems: e.problems.into_iter().map(|p| format!("tracks[{k}]: {p}")).collect(),
            })?;
        }
        c.start_race(None, setup.first_grid.clone(), &mut Vec::new())?;
        Ok(c)
    }

    fn seats(&self) -> usize {
        self.bots
    }

    fn decision(&self) -> Option<Decision> {
        self.owing().map(Decision::One)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.stage != Stage::Over {
            return None;
        }
        let scores = self.final_scores().into_iter().map(i64::from).collect();
        Some(Outcome { ranking: self.final_ranking(), scores: Some(scores) })
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &ChampAction,
        events: &mut Vec<ChampEvent>,
    ) -> Result<(), ChampError> {
        match (&mut self.stage, action) {
            (Stage::Over, _) => Err(ChampError::GameOver),
            (Stage::Race(race), ChampAction::Race(a)) => {
                let mut ev = Vec::new();
                race.apply(seat, a, &mut ev).map_err(ChampError::Race)?;
                events.extend(ev.into_iter().map(ChampEvent::Race));
                self.after_race(events);
                Ok(())
            }
            (Stage::Race(race), ChampAction::GridPlace { .. }) => {
                if race.decision().and_then(|d| d.seats().first()) != Some(seat) {
                    return Err(ChampError::NotYourTurn);
                }
                Err(ChampError::WrongAction { expected: "race" })
            }
            (Stage::Grid(_), ChampAction::GridPlace { place }) => {
                let mark = events.len();
                let before = self.clone();
                let r = self.choose_place(seat, *place, events);
                if r.is_err() {
                    *self = before;
                    events.truncate(mark);
                }
                r
            }
            (Stage::Grid(g), ChampAction::Race(_)) => {
                if g.order.get(g.next) != Some(&seat) {
                    return Err(ChampError::NotYourTurn);
                }
                Err(ChampError::WrongAction { expected: "grid_place" })
            }
        }
    }

    fn time_up(&mut self, events: &mut Vec<ChampEvent>) -> Result<(), ChampError> {
        match &mut self.stage {
            Stage::Race(race) => {
                let mut ev = Vec::new();
                race.time_up(&mut ev).map_err(ChampError::Race)?;
                events.extend(ev.into_iter().map(ChampEvent::Race));
                self.after_race(events);
                Ok(())
            }
            // Decision: time up on the grid takes the best free place for the chooser.
            Stage::Grid(g) => {
                let seat = g.order[g.next];
                let place = self.best_free_place().ok_or(ChampError::NoSuchPlace)?;
                self.apply(seat, &ChampAction::GridPlace { place }, events)
            }
            Stage::Over => Err(ChampError::GameOver),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<ChampAction> {
        match &self.stage {
            Stage::Race(r) => r.legal_actions(seat).into_iter().map(ChampAction::Race).collect(),
            Stage::Grid(g) if g.order.get(g.next) == Some(&seat) => g
                .places
                .iter()
                .enumerate()
                .filter(|(_, p)| p.is_none())
                .map(|(i, _)| ChampAction::GridPlace { place: i as u8 })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<ChampAction> {
        match &self.stage {
            Stage::Race(r) => r.sample_action(seat, rng).map(ChampAction::Race),
            Stage::Grid(_) => {
                let legal = self.legal_actions(seat);
                rng.pick(&legal).cloned()
            }
            Stage::Over => None,
        }
    }

    fn view(&self, observer: Observer) -> ChampView {
        let teams = self.teams.as_ref().map(|t| {
            let total = self.team_standings().unwrap_or_default();
            t.iter()
                .zip(total)
                .enumerate()
                .map(|(id, (seats, points))| TeamStanding { id, seats: seats.clone(), points })
                .collect()
        });
        ChampView {
            race: self.race_number(),
            races: self.races,
            track: self.track_index(),
            phase: self.phase_name(),
            to_act: self.owing(),
            standings: self.standings.clone(),
            teams,
            results: self.results.clone(),
            grid: self.grid().map(|g| GridView {
                order: g.order.clone(),
                chooser: g.order.get(g.next).copied(),
                places: g.places.clone(),
            }),
            race_view: self.race().map(|r| r.view(observer)),
            ranking: if self.stage == Stage::Over { self.final_ranking() } else { Vec::new() },
        }
    }

    fn static_data(&self) -> ChampStatic {
        ChampStatic { tracks: self.boards.iter().map(|b| b.spec.clone()).collect() }
    }

    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut c = self.clone();
        if let Stage::Race(r) = &mut c.stage {
            **r = r.determinize(seat, rng);
        }
        c.rng = rng.fork();
        c
    }
}

impl Conformance for Championship {
    /// The race's secrets (other players' unused cards, the deck, its RNG) and the
    /// championship's RNG (the seeds of later races, the draw of tied choosers). Standings,
    /// results and the grid choice are public.
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        if let Stage::Race(r) = &mut self.stage {
            r.scramble_secrets(observer, rng);
        }
        self.rng = Rng::seeded(rng.next_u64());
    }

    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, ChampAction)> {
        let mut out: Vec<(Seat, ChampAction)> = match &self.stage {
            Stage::Race(r) => {
                r.garbage(rng).into_iter().map(|(s, a)| (s, ChampAction::Race(a))).collect()
            }
            _ => Vec::new(),
        };
        let n = self.bots as u32;
        for _ in 0..2 {
            let seat = Seat(rng.below(n + 1) as u8);
            out.push((seat, ChampAction::GridPlace { place: rng.below(12) as u8 }));
        }
        if let Some(s) = self.owing() {
            out.push((s, ChampAction::Race(Action::Orient { turn: 0 })));
        }
        out
    }
}
