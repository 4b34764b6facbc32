//! Seed digests (issue 17 item 2): a fingerprint of many seeded games of every game and of the
//! search bot's choices, so that a change made for speed is shown to change no result.
//!
//! For each game, seeded random games (every decision drawn by `sample_action`, the seat of a
//! simultaneous decision drawn too) are played to the end; every event of every action (as JSON),
//! the omniscient view after the last action (as JSON: every hidden card, deck and program) and
//! the outcome go into one FNV-1a hash per game. The search bot's digest hashes the action it
//! chooses (with a small budget) from positions of each game reached by seeded random play.
//!
//! The expected values in `tests/golden/seed_digests.txt` are not results the rules predict: they
//! are the engines' own results, recorded on `main` before the speed work of issue 17 item 2
//! (2026-11-26) and kept since. A mismatch means some game plays differently than it did: a
//! change meant only for speed must never cause one. A deliberate rule change may: then check
//! that the difference is the intended one and record the new value
//! (`ROBODROME_BLESS_DIGESTS=1 cargo test -p bots --test seed_digests`), saying why in the
//! commit. See docs/benchmarks.md ("Seed digests").

use bots::{Bot, SearchBot};
use engine::{Game, Observer, Rng, harness::next_seat};
use std::collections::BTreeMap;
use std::fmt::Write as _;

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn json(&mut self, v: &impl serde::Serialize) {
        self.bytes(serde_json::to_string(v).expect("serialisable").as_bytes());
        self.bytes(b"\n");
    }
}

/// Play `game` with random sampled actions to its end (or `max_actions`), hashing every event,
/// then the final omniscient view and the outcome.
fn random_game_digest<G: Game>(mut game: G, seed: u64, max_actions: usize, h: &mut Fnv) {
    let mut rng = Rng::seeded(seed ^ 0x00d1_6e57);
    let mut events = Vec::new();
    let mut n = 0;
    while let Some(d) = game.decision() {
        if n == max_actions {
            break;
        }
        let seat = next_seat(&d, &mut rng).expect("a seat owes the decision");
        let action = game.sample_action(seat, &mut rng).expect("a legal action");
        h.json(&action);
        game.apply(seat, &action, &mut events).expect("a sampled action is legal");
        for e in events.drain(..) {
            h.json(&e);
        }
        n += 1;
    }
    h.json(&n);
    h.json(&game.view(Observer::Omniscient));
    h.json(&game.outcome());
}

fn games_digest<G: Game>(seeds: u64, max_actions: usize, new: impl Fn(u64) -> G) -> String {
    let mut h = Fnv::new();
    for seed in 0..seeds {
        random_game_digest(new(seed), seed, max_actions, &mut h);
    }
    format!("{:016x}", h.0)
}

/// The search bot's choice at the first decision of `seat 0` after `skip` random actions, for
/// each seed.
fn search_digest<G: bots::HasBots>(seeds: u64, skip: usize, new: impl Fn(u64) -> G) -> String {
    let mut h = Fnv::new();
    for seed in 0..seeds {
        let mut g = new(seed);
        let mut rng = Rng::seeded(seed);
        let mut events = Vec::new();
        let mut n = 0;
        while let Some(d) = g.decision() {
            let seat = next_seat(&d, &mut rng).expect("a seat owes the decision");
            if n >= skip {
                let action = SearchBot::new(150).act(&g, seat, &mut Rng::seeded(seed + 1));
                h.json(&seat.0);
                h.json(&action);
                break;
            }
            let a = g.sample_action(seat, &mut rng).expect("a legal action");
            g.apply(seat, &a, &mut events).expect("a sampled action is legal");
            events.clear();
            n += 1;
        }
    }
    format!("{:016x}", h.0)
}

fn roborally(board: &str, robots: u8, seed: u64) -> roborally::RoboRally {
    let setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named(board.into()),
        robots,
        roborally::Variants::default(),
    );
    roborally::RoboRally::new(&setup, seed).expect("a shipped course starts")
}

fn autoscooter(players: usize, seed: u64) -> autoscooter::Autoscooter {
    let setup = autoscooter::Setup::standard(players, false, autoscooter::Variants::default())
        .expect("a standard setup");
    autoscooter::Autoscooter::new(&setup, seed).expect("the standard rink starts")
}

fn bumping_bots(track: &str, bots: u8, seed: u64) -> bumping_bots::BumpingBots {
    let mut spec = bumping_bots::tracks::shipped(track).expect("a shipped track");
    spec.laps = 2;
    bumping_bots::BumpingBots::new(&bumping_bots::Setup::race(spec, bots), seed)
        .expect("a shipped track starts")
}

fn digests() -> BTreeMap<&'static str, String> {
    let mut d = BTreeMap::new();
    d.insert(
        "roborally dizzy-dash 8 robots, 100 games",
        games_digest(100, 4000, |s| roborally("dizzy-dash", 8, s)),
    );
    d.insert(
        "roborally grand-tour 5 robots, 40 games",
        games_digest(40, 4000, |s| roborally("grand-tour", 5, s)),
    );
    d.insert(
        "roborally laser-gauntlet 8 robots, 40 games",
        games_digest(40, 4000, |s| roborally("laser-gauntlet", 8, s)),
    );
    d.insert(
        "autoscooter 8 players, 1000 games",
        games_digest(1000, 10_000, |s| autoscooter(8, s)),
    );
    d.insert("autoscooter 2 players, 500 games", games_digest(500, 10_000, |s| autoscooter(2, s)));
    d.insert(
        "bumping-bots factory 9 bots 2 laps, 30 races",
        games_digest(30, 20_000, |s| bumping_bots("factory", 9, s)),
    );
    d.insert(
        "bumping-bots chicane 4 bots 2 laps, 30 races",
        games_digest(30, 20_000, |s| bumping_bots("chicane", 4, s)),
    );
    d.insert(
        "search autoscooter 2 players, 20 positions",
        search_digest(20, 30, |s| autoscooter(2, s)),
    );
    d.insert(
        "search roborally dizzy-dash 4 robots, 12 positions",
        search_digest(12, 10, |s| roborally("dizzy-dash", 4, s)),
    );
    d.insert(
        "search bumping-bots factory 9 bots, 12 positions",
        search_digest(12, 40, |s| bumping_bots("factory", 9, s)),
    );
    d
}

#[test]
fn seeded_games_and_search_choices_match_their_recorded_digests() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/seed_digests.txt");
    let got = digests();
    let mut text = String::from(
        "# Seed digests: see crates/bots/tests/seed_digests.rs. One line per set: digest, then name.\n",
    );
    for (name, digest) in &got {
        writeln!(text, "{digest} {name}").expect("write to a string");
    }
    if std::env::var_os("ROBODROME_BLESS_DIGESTS").is_some() {
        std::fs::write(path, &text).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(path).expect("the golden file");
    let want: BTreeMap<&str, &str> = want
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split_once(' ').map(|(d, n)| (n, d)))
        .collect();
    let mut wrong = Vec::new();
    for (name, digest) in &got {
        if want.get(name) != Some(&digest.as_str()) {
            wrong.push(format!("{name}: recorded {:?}, now {digest}", want.get(name)));
        }
    }
    assert_eq!(want.len(), got.len(), "the golden file names other sets");
    assert!(wrong.is_empty(), "games play differently than recorded:\n{}", wrong.join("\n"));
}
