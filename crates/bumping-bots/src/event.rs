//! What happened, for logs, animations and replays. Everything is public but card draws.

use crate::cards::Card;
use crate::track::ObstacleKind;
use engine::{Audience, GameEvent, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

/// Every event is plain data (issue 17): its lists are stored inline ([`SeatList`],
/// [`CardList`], [`Ranking`]) and serialised as the JSON arrays the `Vec`s they replace were, so
/// an event is a few bytes copied into the buffer, and a buffer of events is cleared in one step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoundStarted {
        round: u32,
        order: SeatList,
    },
    CardsDrawn {
        seat: Seat,
        cards: CardList,
    },
    CardPicked {
        seat: Seat,
        card: Card,
    },
    CardPlayed {
        seat: Seat,
        card: Card,
    },
    SpeedChosen {
        seat: Seat,
        speed: u8,
        reverse: bool,
    },
    Moved {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    Leapt {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    LeapCancelled {
        seat: Seat,
    },
    Turned {
        seat: Seat,
        facing: HexDir,
    },
    /// The bot ran into something: `against` is "wall", "obstacle", "mobile" or "bot".
    Collision {
        seat: Seat,
        at: Hex,
        against: &'static str,
    },
    SpeedLost {
        seat: Seat,
        speed: u8,
    },
    Pushed {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    Thrown {
        seat: Seat,
        from: Hex,
        to: Hex,
    },
    ObstacleMoved {
        kind: ObstacleKind,
        from: Hex,
        to: Hex,
    },
    MotorTurned {
        at: Hex,
        arms: [HexDir; 2],
    },
    MotorBlocked {
        at: Hex,
    },
    Magnet {
        seat: Seat,
        target: Seat,
        from: Hex,
        to: Hex,
    },
    LineCrossed {
        seat: Seat,
        forward: bool,
        laps: i32,
        started: bool,
    },
    Finished {
        seat: Seat,
    },
    Placed {
        seat: Seat,
        place: u8,
    },
    RaceOver {
        ranking: Ranking,
    },
}

impl GameEvent for Event {
    fn audience(&self) -> Audience {
        match self {
            Event::CardsDrawn { seat, .. } | Event::CardPicked { seat, .. } => {
                Audience::Seat(*seat)
            }
            _ => Audience::Everyone,
        }
    }
}

/// Most bots in a race (BB-1.1): the longest list of seats an event carries.
const MAX_SEATS: usize = 9;

macro_rules! inline_list {
    ($(#[$doc:meta])* $name:ident, $t:ty, $cap:expr, $fill:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct $name {
            len: u8,
            items: [$t; $cap],
        }

        impl $name {
            /// The most items it holds.
            pub const CAPACITY: usize = $cap;

            /// The list of `items`; `None` when there are more than [`Self::CAPACITY`].
            pub fn new(items: &[$t]) -> Option<$name> {
                let mut out = $name { len: 0, items: [$fill; $cap] };
                out.items.get_mut(..items.len())?.copy_from_slice(items);
                out.len = items.len() as u8;
                Some(out)
            }

            pub fn as_slice(&self) -> &[$t] {
                &self.items[..self.len as usize]
            }
        }

        impl std::ops::Deref for $name {
            type Target = [$t];
            fn deref(&self) -> &[$t] {
                self.as_slice()
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.as_slice()).finish()
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.as_slice().serialize(s)
            }
        }
    };
}

inline_list!(
    /// Seats in order (a race order, BB-2.2), at most one per bot: a JSON array of seats.
    SeatList,
    Seat,
    MAX_SEATS,
    Seat(0)
);

inline_list!(
    /// Cards (at most 9): a JSON array of cards.
    CardList,
    Card,
    9,
    Card::ALL[0]
);

/// The final places (BB-10): groups of tied seats, best first, serialised as a JSON array of
/// arrays of seats (`[[2], [0, 5], …]`), as the `Vec<Vec<Seat>>` it replaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Ranking {
    /// The seats, group after group.
    seats: SeatList,
    /// Bit `i` set: `seats[i]` starts a new group (bit 0 is never needed).
    starts: u16,
}

impl Ranking {
    /// The ranking of these groups; `None` when they hold more than 9 seats.
    pub fn new(groups: &[Vec<Seat>]) -> Option<Ranking> {
        let mut all = [Seat(0); MAX_SEATS];
        let (mut n, mut starts) = (0, 0u16);
        for g in groups {
            if n > 0 {
                starts |= 1 << n;
            }
            all.get_mut(n..n + g.len())?.copy_from_slice(g);
            n += g.len();
        }
        Some(Ranking { seats: SeatList::new(&all[..n])?, starts })
    }

    /// The groups, best first.
    pub fn groups(&self) -> impl Iterator<Item = &[Seat]> {
        let seats = self.seats.as_slice();
        let mut from = 0;
        (0..seats.len()).filter_map(move |i| {
            let last = i + 1 == seats.len() || self.starts & (1 << (i + 1)) != 0;
            last.then(|| {
                let g = &seats[from..=i];
                from = i + 1;
                g
            })
        })
    }

    pub fn to_vecs(&self) -> Vec<Vec<Seat>> {
        self.groups().map(<[Seat]>::to_vec).collect()
    }
}

impl std::fmt::Debug for Ranking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.groups()).finish()
    }
}

impl Serialize for Ranking {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for g in self.groups() {
            seq.serialize_element(g)?;
        }
        seq.end()
    }
}

/// Where the rules write their events (issue 17): a `Vec<Event>` for everyone who reads them,
/// or [`NoEvents`] for a random race nobody watches (`BumpingBots::play_random_race`).
/// The rules' functions are generic over it, so with `NoEvents` the compiler removes the
/// events' construction altogether; the state changes are the same code either way.
pub trait EventSink: engine::Sink<Event> {}

impl<T: engine::Sink<Event> + ?Sized> EventSink for T {}

pub use engine::NoEvents;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_lists_serialise_as_the_vectors_they_replace() {
        let seats = [Seat(3), Seat(0), Seat(8), Seat(1)];
        let order = SeatList::new(&seats).expect("fits");
        assert_eq!(serde_json::to_value(order).ok(), serde_json::to_value(seats.to_vec()).ok());
        assert_eq!(
            serde_json::to_string(&SeatList::new(&[]).expect("fits")).ok(),
            Some("[]".into())
        );
        assert!(SeatList::new(&[Seat(0); 10]).is_none());
        let cards = [Card::Magnet, Card::Nitro];
        assert_eq!(
            serde_json::to_value(CardList::new(&cards).expect("fits")).ok(),
            serde_json::to_value(cards.to_vec()).ok()
        );
        for groups in [
            vec![],
            vec![vec![Seat(2)]],
            vec![vec![Seat(2)], vec![Seat(0), Seat(5)], vec![Seat(1)]],
            vec![vec![Seat(4), Seat(3)]],
            (0..9).map(|s| vec![Seat(s)]).collect(),
            vec![(0..9).map(Seat).collect()],
        ] {
            let r = Ranking::new(&groups).expect("at most 9 seats");
            assert_eq!(r.to_vecs(), groups);
            assert_eq!(serde_json::to_value(r).ok(), serde_json::to_value(&groups).ok());
        }
        assert!(Ranking::new(&[vec![Seat(0); 5], vec![Seat(1); 5]]).is_none());
    }

    #[test]
    fn an_event_is_small_plain_data() {
        // Plain data: `Copy` (no heap memory to free); no bigger than the vector it replaced
        // plus its tag (the engine pushes a few per action).
        fn copy<T: Copy>() {}
        copy::<Event>();
        assert!(std::mem::size_of::<Event>() <= 32, "{}", std::mem::size_of::<Event>());
    }
}
