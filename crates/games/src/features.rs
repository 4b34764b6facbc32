//! A game's view as a fixed-length vector of numbers: the observation of the Python package
//! (`docs/python.md`, "Observations"). The encoding is `engine::features` (generic, from the
//! typed view; or written by the game crate straight from its state, the same numbers); this
//! module re-exports it and checks the lean views it is written from.

pub use engine::features::{Full, string_code, write};

#[cfg(test)]
mod tests {
    /// The lean views (`Registered::lean_view`, what the features are written from) are the
    /// views without `choices`, at every decision of random games, for every seat.
    fn lean_is_the_view_without_choices<G, F>(seed: u64, strip: F)
    where
        G: crate::Registered,
        F: Fn(&mut G::View),
    {
        use engine::{Observer, Rng, Seat};
        let req = crate::SetupRequest { players: 2, ..Default::default() };
        let setup = G::setup(&req).expect("the default setup");
        let mut g = G::new(&setup, seed).expect("a game");
        let mut rng = Rng::seeded(seed);
        let mut events = Vec::new();
        for _ in 0..300 {
            if g.decision().is_none() {
                break;
            }
            for s in 0..g.seats() {
                let o = Observer::Seat(Seat(s as u8));
                let mut full = g.view(o);
                strip(&mut full);
                assert_eq!(g.lean_view(o), full);
            }
            engine::play_random(&mut g, &mut rng, &mut events, 1);
        }
    }

    #[test]
    fn autoscooter_lean_view_is_its_view_without_choices() {
        lean_is_the_view_without_choices::<autoscooter::Autoscooter, _>(3, |v| v.choices = None);
    }

    #[test]
    fn bumping_bots_lean_view_is_its_view_without_choices() {
        lean_is_the_view_without_choices::<bumping_bots::BumpingBots, _>(5, |v| v.choices = None);
    }

    #[test]
    fn roborally_lean_view_is_its_view_without_choices() {
        lean_is_the_view_without_choices::<roborally::RoboRally, _>(7, |v| v.choices = None);
    }
}
