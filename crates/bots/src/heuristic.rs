use crate::{Bot, HasBots};
use engine::{Rng, Seat};

/// The game's hand-written policy ([`HasBots::heuristic`]): fast, and what a decent human
/// would recognise.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

impl<G: HasBots> Bot<G> for HeuristicBot {
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn act(&mut self, game: &G, seat: Seat, rng: &mut Rng) -> G::Action {
        // Look only at what the seat may see.
        let seen = game.determinize(seat, rng);
        G::heuristic(&seen, seat, rng)
    }
}
