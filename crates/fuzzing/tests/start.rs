//! The fuzz targets start games from boards built once (`Target::start`) instead of
//! `Game::new`, which builds the board every time; both must give the same game.

use engine::Game;
use fuzzing::games::{Target, autoscooter_target, bumping_bots_target, roborally_target};

fn same_start<G: Game>(t: &Target<G>) {
    let (mut setups, mut started) = (0, 0);
    for i in 0..=255u8 {
        let data: Vec<u8> =
            (0..64u8).map(|k| i.wrapping_mul(37).wrapping_add(k.wrapping_mul(11))).collect();
        let mut u = arbitrary::Unstructured::new(&data);
        let Ok(setup) = (t.setup)(&mut u) else { continue };
        let seed = u64::from(i) * 0x9e37_79b9;
        let fast = (t.start)(&setup, seed);
        let slow = G::new(&setup, seed);
        match (fast, slow) {
            (Ok(a), Ok(b)) => {
                assert!(a == b, "{} setup {i}: start differs from new", G::NAME);
                started += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{} setup {i}: different errors", G::NAME),
            (a, b) => {
                panic!("{} setup {i}: start {:?} but new {:?}", G::NAME, a.is_ok(), b.is_ok())
            }
        }
        setups += 1;
    }
    eprintln!("{}: {setups} setups, {started} started", G::NAME);
    assert!(started > 100, "{}: only {started} of {setups} setups started", G::NAME);
}

#[test]
fn cached_boards_start_the_same_game_as_new() {
    same_start(&autoscooter_target());
    same_start(&roborally_target());
    same_start(&bumping_bots_target());
}
