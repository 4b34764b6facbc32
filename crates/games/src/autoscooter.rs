//! Autoscooter (AS-1 … AS-8) in the registry.

use crate::sim::Tally;
use crate::{BoardInfo, Choice, Info, Registered, SchemaError, SetupRequest, from_value};
use autoscooter::{
    Autoscooter, BoardSpec, CarSetup, CrashKind, Event, PlayerSetup, Setup, Variants,
};
use bots::{Bot, BotSpec, HasBots};
use engine::{Game, Observer, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

impl Registered for Autoscooter {
    type Tally = AutoscooterTally;

    fn info() -> Info {
        Info {
            name: Self::NAME,
            title: "Autoscooter",
            min_players: *autoscooter::setup::PLAYERS.start(),
            max_players: *autoscooter::setup::PLAYERS.end(),
            board_noun: "board",
            boards: BoardSpec::SHIPPED
                .iter()
                .map(|&id| BoardInfo { id: id.into(), title: board_title(id) })
                .collect(),
            default_board: BoardSpec::SHIPPED.first().map(|b| b.to_string()),
            variants: vec![
                Choice::new(
                    "jolting",
                    "Jolting",
                    "A car rammed from behind is jolted one hex forward.",
                ),
                Choice::new("wild_car", "Wild car", "A car of nobody that every player steers."),
                Choice::new("colour_scoring", "Colour scoring", "Score = chits × colours held."),
                Choice::new(
                    "per_car_scoring",
                    "Per-car scoring",
                    "With colour scoring: each car scores on its own.",
                ),
            ],
            options: vec![
                Choice::new("beginners", "Beginners (3 cars each for 2 players)", ""),
                Choice::last_player_clock(),
            ],
            default_timer_secs: None,
            timer_option: None,
            public: true,
            rules_crate: "autoscooter",
            rules_version: autoscooter::RULES_VERSION,
            conformance_prefix: Some("as-"),
            sim_players: *autoscooter::setup::PLAYERS.end(),
            sim_games: 1000,
        }
    }

    fn setup(req: &SetupRequest) -> Result<Setup, String> {
        let variants: Variants = crate::variants(req)?;
        let beginners = req.option("beginners").and_then(Value::as_bool).unwrap_or(false);
        let mut setup = Setup::standard(req.players, beginners, variants)?;
        setup.last_player_seconds = crate::last_player_seconds(req)?;
        if let Some(b) = &req.board {
            setup.board = BoardSpec::named(b).ok_or_else(|| format!("unknown board {b:?}"))?;
        }
        Ok(setup)
    }

    /// A saved rink (its JSON text): checked by the game crate's checker (AS-1.1, AS-8).
    fn setup_on_board(req: &SetupRequest, text: &str) -> Result<Setup, String> {
        let errors: Vec<String> = autoscooter::board::check_text(text)
            .iter()
            .filter(|f| f.is_error())
            .map(|f| f.to_string())
            .collect();
        if !errors.is_empty() {
            return Err(format!("the rink is refused: {}", errors.join("; ")));
        }
        let spec: BoardSpec = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut setup = Self::setup(&SetupRequest { board: None, ..req.clone() })?;
        setup.board = spec;
        Ok(setup)
    }

    /// The findings with the hex each concerns (`cell`: `[q, r]`, for the rink editor), and
    /// `size` (the rink's cells) when the text parses.
    fn inspect(text: &str) -> Value {
        let i = autoscooter::board::inspect(text);
        let findings: Vec<crate::Finding> = i.findings.iter().map(|(f, _)| f.clone()).collect();
        let mut out = serde_json::json!({
            "findings": crate::findings_json(&findings, |k| {
                i.findings[k].1.map(|h| serde_json::json!([h.q, h.r]))
            }),
        });
        if let Some(spec) = &i.spec {
            out["size"] = spec.cells.len().into();
        }
        out
    }

    fn action_cap(_req: &SetupRequest) -> usize {
        100_000
    }

    /// The rules' own random step ([`Autoscooter::play_random`]: the draws and the game of
    /// `sample_action` then `apply`) with the tally as the event sink: no action built, no
    /// event list, no summary events (the tally reads none; issue 17).
    fn sim_random_step(
        &mut self,
        seat: Seat,
        rng: &mut engine::Rng,
        _events: &mut Vec<Event>,
        tally: &mut AutoscooterTally,
    ) -> Option<bool> {
        Some(self.play_random(seat, rng, tally)?.is_ok())
    }

    /// The whole game by [`Autoscooter::play_random_game`] (the loop of `play_random` over the
    /// seat that owes, read from the stage), the tally as the sink: the same games as action by
    /// action (`properties::play_random_game_is_the_loop_of_play_random`).
    fn sim_random_game(
        &mut self,
        rng: &mut engine::Rng,
        tally: &mut AutoscooterTally,
        max_actions: usize,
    ) -> Option<u64> {
        Some(self.play_random_game(rng, max_actions as u64, tally))
    }

    /// AS-6's first place from the scores ([`Autoscooter::winners`]), without the ranking.
    fn sim_winners(&self) -> Option<engine::SeatSet> {
        self.winners()
    }

    fn bot(spec: &BotSpec) -> Box<dyn Bot<Self>> {
        <Self as HasBots>::bot(spec)
    }

    /// AS-4: the view's own `waiting` says who still plots.
    fn from_view(
        setup: &Setup,
        view: &Value,
        _waiting: &[engine::Seat],
        seat: engine::Seat,
        rng: &mut engine::Rng,
    ) -> Result<Self, String> {
        Autoscooter::from_view(setup, view, seat, rng).map_err(|e| e.to_string())
    }

    fn lean_view(&self, observer: Observer) -> <Self as Game>::View {
        self.view_without_choices(observer)
    }

    fn write_observation(&self, observer: Observer, out: &mut [f32]) -> usize {
        Autoscooter::write_observation(self, observer, out)
    }

    fn count_legal(&self, seat: Seat) -> Option<usize> {
        Some(self.legal_count(seat))
    }

    fn nth_legal(&self, seat: Seat, index: usize) -> Option<autoscooter::Action> {
        Autoscooter::nth_legal(self, seat, index)
    }

    fn scenario_setup(
        board: &Value,
        setup: &Value,
        variants: &Value,
    ) -> Result<Setup, SchemaError> {
        let board = match board {
            Value::String(name) => BoardSpec::named(name).ok_or_else(|| {
                SchemaError::at(
                    "board",
                    format!(
                        "no shipped board {name:?} (shipped: {})",
                        BoardSpec::SHIPPED.join(", ")
                    ),
                )
            })?,
            Value::Null => BoardSpec::standard(),
            v => from_value(v, "board")?,
        };
        let variants: Variants = match variants {
            Value::Null => Variants::default(),
            v => from_value(v, "variants")?,
        };
        let s: SetupFile = match setup {
            Value::Null => {
                return Err(SchemaError::at("setup", "missing field (players, cars, round)"));
            }
            v => from_value(v, "setup")?,
        };
        Ok(Setup {
            board,
            players: s.players,
            cars: s.cars,
            round: s.round,
            box_chits: s.box_chits,
            variants,
            lots: s.lots,
            last_player_seconds: 0,
        })
    }

    fn scenario_round(&self) -> u32 {
        self.round() as u32
    }

    fn scenario_phase(&self) -> &'static str {
        self.phase()
    }

    fn scenario_state(&self) -> Value {
        serde_json::to_value(self.view(Observer::Omniscient)).expect("views serialise")
    }

    fn render(name: &str, file: Option<&str>) -> Result<String, String> {
        match (name, file) {
            ("chart", None) => Ok(crate::render::autoscooter::chart()),
            (_, Some(t)) => {
                let spec =
                    serde_json::from_str::<BoardSpec>(t).map_err(|e| format!("{name}: {e}"))?;
                autoscooter::Board::new(&spec).map_err(|p| format!("{name}: {}", p.join("; ")))?;
                Ok(crate::render::autoscooter::rink(&spec))
            }
            (n, None) => match BoardSpec::named(n) {
                Some(spec) => Ok(crate::render::autoscooter::rink(&spec)),
                None => {
                    Err(format!("no shipped Autoscooter board {n:?} (see `robodrome board list`)"))
                }
            },
        }
    }

    fn bench() -> Result<crate::Bench, String> {
        let setup = Setup::standard(8, false, Variants::default())?;
        let start = Autoscooter::new(&setup, 1).map_err(|e| e.to_string())?;
        let mut rng = engine::Rng::seeded(1);
        let mut events = Vec::with_capacity(512);
        Ok((
            "autoscooter, 8 cars, standard rink".into(),
            Box::new(move |_| {
                let mut g = start.clone();
                events.clear();
                engine::play_random(&mut g, &mut rng, &mut events, 100_000) as u64
            }),
        ))
    }

    fn extra_pictures() -> &'static [&'static str] {
        &["chart"]
    }

    fn check(text: &str) -> Vec<crate::Finding> {
        autoscooter::board::check_text(text)
    }

    /// A rink file is a JSON object.
    fn recognises(text: &str) -> bool {
        text.trim_start().starts_with('{')
    }

    fn rules() -> Vec<engine::rulebook::Topic> {
        autoscooter::rulebook::rulebook()
    }

    fn shipped_text(id: &str) -> Option<&'static str> {
        BoardSpec::shipped_text(id)
    }
}

fn board_title(id: &str) -> String {
    match BoardSpec::named(id).and_then(|s| autoscooter::Board::new(&s).ok()) {
        Some(b) if id == "standard" => format!("Standard rink ({} hexes)", b.len()),
        _ => id.to_string(),
    }
}

/// The `setup` object of an Autoscooter scenario (AS-8).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFile {
    players: Vec<PlayerSetup>,
    #[serde(default)]
    cars: Vec<CarSetup>,
    #[serde(default = "one")]
    round: u8,
    #[serde(default, rename = "box")]
    box_chits: Option<u32>,
    /// AS-1.3: each player draws this many cars by lots from the seed (players list none).
    #[serde(default)]
    lots: Option<u8>,
}

fn one() -> u8 {
    1
}

#[derive(Default, Serialize)]
pub struct AutoscooterTally {
    /// Crashes by type (AS-5.5), over all games: by `CrashKind as usize`, an array rather than
    /// a map entry per crash (issue 17), written as a map of the kinds that happened.
    #[serde(serialize_with = "crash_map")]
    pub crashes: [u64; 5],
    /// Jolts (AS-7.2) and letters turned straight (AS-4.2).
    pub jolts: u64,
    pub letters_converted: u64,
    /// Average chits per player at the end, and of the winner.
    pub average_chits: f64,
    pub average_winning_chits: f64,
    #[serde(skip)]
    chits_sum: u64,
    #[serde(skip)]
    players: u64,
    #[serde(skip)]
    winning_sum: u64,
    #[serde(skip)]
    games: u64,
}

/// The crashes by kind as the summary shows them: a map from each kind's name to its count,
/// the kinds that never happened left out.
fn crash_map<S: serde::Serializer>(crashes: &[u64; 5], s: S) -> Result<S::Ok, S::Error> {
    let named: BTreeMap<&'static str, u64> = CrashKind::ALL
        .into_iter()
        .map(|k| (k.name(), crashes[k as usize]))
        .filter(|&(_, n)| n > 0)
        .collect();
    serde::Serialize::serialize(&named, s)
}

/// The tally as the rules' event sink ([`Registered::sim_random_step`]): it reads the events
/// [`Tally::event`] reads, straight from the rules, and declines the summaries it ignores.
impl engine::Sink<autoscooter::Event> for AutoscooterTally {
    const SUMMARIES: bool = false;
    #[inline]
    fn push(&mut self, e: Event) {
        Tally::<Autoscooter>::event(self, &e);
    }
}

impl Tally<Autoscooter> for AutoscooterTally {
    #[inline]
    fn event(&mut self, e: &Event) {
        match e {
            Event::Crash { kind, .. } => self.crashes[*kind as usize] += 1,
            Event::Jolted { .. } => self.jolts += 1,
            Event::LetterConverted { .. } => self.letters_converted += 1,
            _ => {}
        }
    }
    fn finished(&mut self, g: &Autoscooter) {
        // The ranking's first seat (AS-6: highest score, the lowest seat among equals, as
        // `compute_outcome` orders them) from the scores, without building the ranking, in the
        // same pass as the chits (issue 17 round 6).
        let over = g.is_over();
        let mut top: Option<(i64, u64)> = None;
        for s in 0..g.seats() {
            let seat = Seat(s as u8);
            let chits = g.chits(seat).total() as u64;
            self.chits_sum += chits;
            if over {
                let score = g.seat_score(seat);
                if top.is_none_or(|(best, _)| score > best) {
                    top = Some((score, chits));
                }
            }
        }
        self.players += g.seats() as u64;
        if let Some((_, chits)) = top {
            self.winning_sum += chits;
        }
        self.games += 1;
        self.average_chits = self.chits_sum as f64 / self.players.max(1) as f64;
        self.average_winning_chits = self.winning_sum as f64 / self.games.max(1) as f64;
    }
    fn merge(&mut self, other: Self) {
        for (total, n) in self.crashes.iter_mut().zip(other.crashes) {
            *total += n;
        }
        self.jolts += other.jolts;
        self.letters_converted += other.letters_converted;
        self.chits_sum += other.chits_sum;
        self.players += other.players;
        self.winning_sum += other.winning_sum;
        self.games += other.games;
        self.average_chits = self.chits_sum as f64 / self.players.max(1) as f64;
        self.average_winning_chits = self.winning_sum as f64 / self.games.max(1) as f64;
    }
    fn report(&self) -> String {
        let mut out = format!(
            "average chits per player at the end: {:.2} (winner: {:.2})\n",
            self.average_chits, self.average_winning_chits
        );
        let per_game = |n: u64| n as f64 / self.games.max(1) as f64;
        let mut line = Vec::new();
        for k in CrashKind::ALL {
            let n = self.crashes[k as usize];
            line.push(format!("{} {} ({:.2}/game)", k.name(), n, per_game(n)));
        }
        out += &format!("crashes: {}\n", line.join(", "));
        out += &format!(
            "jolts: {}, letters turned straight (AS-4.2): {}\n",
            self.jolts, self.letters_converted
        );
        out
    }
}
