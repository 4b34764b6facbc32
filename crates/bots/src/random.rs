use crate::Bot;
use engine::{Game, Rng, Seat};

/// Uniformly random legal actions (`sample_action`): the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Rng) -> G::Action {
        // Sampling uses only the seat's own options: no hidden information is read.
        game.sample_action(seat, rng).expect("the seat owes a decision")
    }
}
