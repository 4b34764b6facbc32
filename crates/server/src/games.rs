//! The server's view of the games: the registry's type-erased games (`games` crate), and the
//! set of games this server offers.
//!
//! The server decides no rule: every action, timer expiry and bot move goes through the engine,
//! and every game, its seat range, boards and variants come from the registry.

pub use games::{ActError, AnyGame, Applied, Info, Kind as GameKind, SetupRequest};

/// The games this server offers, by name.
#[derive(Clone, Copy)]
pub struct Registry(&'static games::Registry);

impl Registry {
    /// The games a normal `robodrome serve` offers (every public game of the registry).
    pub fn standard() -> Registry {
        Registry(games::Registry::public())
    }
    /// Every registered game, the toy game included (`serve --all-games`, tests).
    pub fn everything() -> Registry {
        Registry(games::Registry::everything())
    }
    pub fn get(&self, name: &str) -> Option<&'static GameKind> {
        self.0.get(name)
    }
    pub fn names(&self) -> Vec<&'static str> {
        self.0.names()
    }
    /// What the lobby and the tables need of each game (`GET /api/kinds`).
    pub fn infos(&self) -> Vec<&'static Info> {
        self.0.kinds().map(|k| &k.info).collect()
    }
}

/// Tests: seat `seat`'s first Autoscooter car and the first turn number of its column, read
/// from its view (AS-1.3: the cars are dealt by lots; AS-2.1: a number of the car's column).
#[cfg(test)]
pub(crate) fn first_car_and_number(view: &serde_json::Value, seat: u64) -> (u8, u8) {
    let car = view["cars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["owner"] == seat)
        .and_then(|c| c["car"].as_u64())
        .unwrap() as u8;
    (car, autoscooter::sheet::column(car)[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use bots::BotSpec;
    use engine::{Audience, Decision, Observer, Rng, Seat};
    use serde_json::Value;

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
        let view = g.view_json(engine::Observer::Seat(Seat(0)));
        let (car, number) = first_car_and_number(&view, 0);
        let plot = serde_json::json!({"type": "plot", "car": car, "number": number});
        let foreign = g.apply_json(Seat(1), &plot);
        assert!(matches!(foreign, Err(ActError::Rule { code: "not_your_car", .. })), "{foreign:?}");
        let ok = g.apply_json(Seat(0), &plot).unwrap();
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
        assert_eq!(
            r.names(),
            vec!["autoscooter", "roborally", "bumping-bots", "bumping-bots-championship"]
        );
        assert!(Registry::everything().get("rps").is_some());
        for name in Registry::everything().names() {
            let k = Registry::everything().get(name).unwrap();
            let req = SetupRequest { players: 2, board: None, variants: None, options: None };
            let setup = k.make_setup(&req).unwrap();
            let mut g = k.start(&setup, 7).unwrap();
            let seat = match g.decision().unwrap() {
                Decision::One(s) => s,
                Decision::Simultaneous(set) => set.first().unwrap(),
            };
            let a = g
                .bot_action(&BotSpec::Heuristic, seat, &mut Rng::seeded(1), &bots::Stop::default())
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
