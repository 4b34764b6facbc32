//! RoboRally: a bot alone on a shipped course against the oracle planner (which knows every
//! future deal), seed by seed.
//!
//! `cargo run --release -p bots --example rr_oracle -- --course first-steps --seeds 1-10
//!  --bot search:200ms --beam 12`

use bots::{BotSpec, HasBots, roborally_oracle};
use engine::{Game, Rng, Seat};
use roborally::{BoardSpec, RoboRally, Setup, Variants};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let course = get("--course", "first-steps");
    let seeds = get("--seeds", "1-5");
    let (a, b) = seeds.split_once('-').unwrap_or((&seeds, &seeds));
    let (a, b): (u64, u64) = (a.parse().expect("--seeds A-B"), b.parse().expect("--seeds A-B"));
    let spec: BotSpec = get("--bot", "search:200ms").parse().expect("--bot");
    let beam: usize = get("--beam", "12").parse().expect("--beam");
    let max_turns: u32 = get("--max-turns", "60").parse().expect("--max-turns");
    let setup = Setup::new_game(BoardSpec::Named(course.clone()), 1, Variants::default());
    println!("course {course}, bot {spec}, oracle beam {beam}");
    println!("seed  oracle  bot  ratio  oracle_s  bot_ms_per_decision");
    let (mut so, mut sb, mut n) = (0u32, 0u32, 0u32);
    for seed in a..=b {
        let g = RoboRally::new(&setup, seed).expect("setup");
        let t = std::time::Instant::now();
        // `--beam 0`: the bot only (the oracle's counts do not depend on the bot).
        let oracle = if beam == 0 {
            None
        } else {
            roborally_oracle::oracle_turns(&g, Seat(0), beam, max_turns)
        };
        let oracle_s = t.elapsed().as_secs_f64();
        let mut bot = <RoboRally as HasBots>::bot(&spec);
        if let (Some(d), BotSpec::Search { simulations, .. }) =
            (args.iter().position(|a| a == "--depth"), &spec)
        {
            let mut s = bots::RrSearch::new(*simulations, None);
            s.depth = args[d + 1].parse().expect("--depth");
            s.candidates = get("--cands", "8").parse().expect("--cands");
            bot = Box::new(s);
        }
        let t = std::time::Instant::now();
        let mut counting = Counting {
            inner: bot.as_mut(),
            decisions: 0,
            trace: args.iter().any(|a| a == "--trace"),
        };
        let solo = roborally_oracle::solo_turns(
            &g,
            Seat(0),
            &mut counting,
            &mut Rng::seeded(seed),
            max_turns,
        );
        let ms = t.elapsed().as_secs_f64() * 1000.0 / counting.decisions.max(1) as f64;
        let show = |x: Option<u32>| x.map_or("-".to_string(), |x| x.to_string());
        let ratio = match (oracle, solo) {
            (Some(o), Some(s)) => {
                so += o;
                sb += s;
                n += 1;
                format!("{:.2}", s as f64 / o as f64)
            }
            _ => "-".into(),
        };
        println!(
            "{seed:>4}  {:>6}  {:>3}  {ratio:>5}  {oracle_s:>8.1}  {ms:>8.1}",
            show(oracle),
            show(solo)
        );
    }
    if n > 0 {
        println!(
            "total over {n} seeds: oracle {so} turns, bot {sb} turns, ratio {:.3}",
            sb as f64 / so as f64
        );
    }
}

struct Counting<'a> {
    inner: &'a mut dyn bots::Bot<RoboRally>,
    decisions: u32,
    trace: bool,
}

impl bots::Bot<RoboRally> for Counting<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn act(&mut self, game: &RoboRally, seat: Seat, rng: &mut Rng) -> roborally::Action {
        self.decisions += 1;
        let a = self.inner.act(game, seat, rng);
        if self.trace {
            let r = game.robot(seat).expect("robot");
            println!(
                "  turn {} at {:?} facing {:?} flags {} damage {} lives {}: {a:?}",
                game.turn(),
                r.at,
                r.facing,
                r.flags_touched,
                r.damage,
                r.lives
            );
        }
        a
    }
}
