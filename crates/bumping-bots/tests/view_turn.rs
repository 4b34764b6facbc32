//! Issue 22, finding 11: the view says which way each motorised obstacle turns (BB-8.2), so
//! that a table can draw it; nothing else has it.

use bumping_bots::track::{ObstacleKind, Spin};
use bumping_bots::tracks::shipped;
use bumping_bots::{BumpingBots, Setup};
use engine::{Game, Observer};

#[test]
fn every_motorised_obstacle_in_the_view_has_its_turn_bb_8_2() {
    // Factory's track file: `motorised: 8 3 0 cw`, `11 13 0 ccw`, `20 13 1 cw`.
    let g = BumpingBots::new(&Setup::race(shipped("factory").unwrap(), 2), 1).unwrap();
    let v = serde_json::to_value(g.view(Observer::Spectator)).unwrap();
    let mut turns: Vec<(i64, i64, String)> = v["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] == "motorised")
        .map(|o| {
            (
                o["at"][0].as_i64().unwrap(),
                o["at"][1].as_i64().unwrap(),
                o["turn"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    turns.sort();
    assert_eq!(
        turns,
        [(8, 3, "cw".to_string()), (11, 13, "ccw".to_string()), (20, 13, "cw".to_string())]
    );
    // Other obstacles have no turn.
    for o in v["obstacles"].as_array().unwrap().iter().filter(|o| o["kind"] != "motorised") {
        assert!(o.get("turn").is_none(), "{o}");
    }
    // The typed view agrees with the track.
    let view = g.view(Observer::Spectator);
    for o in view.obstacles.iter().filter(|o| o.kind == ObstacleKind::Motorised) {
        assert!(matches!(o.turn, Some(Spin::Cw | Spin::Ccw)));
    }
}
