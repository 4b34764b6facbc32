//! Bumping Bots championships (BB-11): during a race the seat's Bumping Bots bot of the same
//! strength plays the race itself; on the grid choice (BB-11.2) every strength takes the best
//! free place, the one nearest the line (BB-2.1: the grid's first place is nearest the line) —
//! except the random bot, which takes any free place.

use crate::{Bot, BotSpec, HasBots, Stop};
use bumping_bots::BumpingBots;
use bumping_bots::championship::{ChampAction, Championship};
use engine::{Game, Rng, Seat};

/// A championship bot of the given strength.
pub fn championship_bot(spec: &BotSpec) -> Box<dyn Bot<Championship>> {
    Box::new(ChampBot { spec: spec.clone(), racer: <BumpingBots as HasBots>::bot(spec) })
}

struct ChampBot {
    spec: BotSpec,
    racer: Box<dyn Bot<BumpingBots>>,
}

impl ChampBot {
    fn grid(&self, game: &Championship, seat: Seat, rng: &mut Rng) -> ChampAction {
        if self.spec == BotSpec::Random {
            return game.sample_action(seat, rng).unwrap_or(ChampAction::GridPlace { place: 0 });
        }
        ChampAction::GridPlace { place: game.best_free_place().unwrap_or(0) }
    }
}

impl Bot<Championship> for ChampBot {
    fn name(&self) -> String {
        self.racer.name()
    }

    fn act(&mut self, game: &Championship, seat: Seat, rng: &mut Rng) -> ChampAction {
        self.act_until(game, seat, rng, &Stop::default())
    }

    fn act_until(
        &mut self,
        game: &Championship,
        seat: Seat,
        rng: &mut Rng,
        stop: &Stop,
    ) -> ChampAction {
        match game.race() {
            Some(race) => ChampAction::Race(self.racer.act_until(race, seat, rng, stop)),
            None => self.grid(game, seat, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumping_bots::championship::ChampionshipSetup;
    use bumping_bots::tracks::shipped;

    /// Heuristic bots play a whole championship; each grid choice takes the first free place.
    #[test]
    fn heuristic_bots_play_a_championship_and_take_the_front_places() {
        let mut track = shipped("oval").expect("shipped");
        track.laps = 1;
        let setup = ChampionshipSetup::new(track, 3, 2);
        let mut g = Championship::new(&setup, 5).expect("setup");
        let mut bots: Vec<_> = (0..3).map(|_| championship_bot(&BotSpec::Heuristic)).collect();
        let mut rng = Rng::seeded(1);
        let mut chosen = Vec::new();
        for _ in 0..20_000 {
            let Some(d) = g.decision() else { break };
            let seat = d.seats().first().expect("one seat");
            let a = bots[seat.index()].act(&g, seat, &mut rng);
            if let ChampAction::GridPlace { place } = a {
                chosen.push(place);
            }
            g.apply(seat, &a, &mut Vec::new()).expect("a bot's action is legal");
        }
        assert!(g.outcome().is_some(), "the championship ended");
        assert_eq!(chosen, vec![0, 1, 2], "each chooser takes the best free place");
    }
}
