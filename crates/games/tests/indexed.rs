//! The flat action index through `AnyGame` (the Python package's encoding, docs/python.md
//! "Encodings"): for every registered game but RoboRally (its lists are long: its own tests and
//! the Python suite cover it), in random positions, `legal_len`, `list_legal` + `apply_listed`
//! and `apply_nth` agree with `legal_actions_json` — whether the game lists its actions or counts
//! and indexes them without listing (`Registered::count_legal`, Autoscooter) — and an index past
//! the end is refused with nothing changed.

use engine::{Rng, Seat};
use games::{ActError, AnyGame, Registry, SetupRequest};

fn same(a: &dyn AnyGame, b: &dyn AnyGame) -> bool {
    a.view_text(engine::Observer::Omniscient) == b.view_text(engine::Observer::Omniscient)
        && a.decision() == b.decision()
}

#[test]
fn every_index_path_plays_the_listed_action() {
    for kind in Registry::everything().kinds().filter(|k| k.info.name != "roborally") {
        let name = kind.info.name;
        let players = kind.info.min_players.max(2).min(kind.info.max_players);
        let setup = kind.make_setup(&SetupRequest { players, ..Default::default() }).unwrap();
        for seed in 0..3u64 {
            let mut g = kind.start(&setup, seed).unwrap();
            let mut rng = Rng::seeded(seed);
            for step in 0..200 {
                let Some(d) = g.decision() else { break };
                for s in 0..g.seats() {
                    let seat = Seat(s as u8);
                    let legal = g.legal_actions_json(seat);
                    assert_eq!(g.legal_len(seat), legal.len(), "{name} {seed} {step}");
                    let listed = g.list_legal(seat);
                    assert_eq!(listed.len(), legal.len(), "{name} {seed} {step}");
                    let mut past = g.clone_box();
                    assert!(matches!(
                        past.apply_nth(seat, legal.len()),
                        Err(ActError::BadAction(_))
                    ));
                    assert!(matches!(
                        past.apply_listed(seat, &*listed, legal.len()),
                        Err(ActError::BadAction(_))
                    ));
                    assert!(same(&*past, &*g), "{name}: a refused index changed nothing");
                    if legal.is_empty() {
                        continue;
                    }
                    let i = rng.index(legal.len());
                    let mut by_json = g.clone_box();
                    by_json.apply_json(seat, &legal[i]).unwrap();
                    let mut by_nth = g.clone_box();
                    assert_eq!(by_nth.apply_nth(seat, i).unwrap(), legal[i], "{name} {step}");
                    let mut by_list = g.clone_box();
                    by_list.apply_listed(seat, &*listed, i).unwrap();
                    assert!(same(&*by_nth, &*by_json) && same(&*by_list, &*by_json), "{name}");
                }
                let seat = d.seats().first().unwrap();
                let a = g.sample_action_json(seat, &mut rng).unwrap();
                g.apply_json(seat, &a).unwrap();
            }
        }
    }
}
