//! BB-9 tuning cards: the deck (BB-1.3, BB-3), race-position brackets and the five cards.

use crate::Event;
use crate::error::BbError;
use crate::state::{BumpingBots, QuickRot, Turn, TurnStep};
use engine::Seat;
use grid::HexDir;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    Jumper,
    Magnet,
    Nitro,
    Engine,
    Rotation,
}

impl Card {
    pub const ALL: [Card; 5] =
        [Card::Jumper, Card::Magnet, Card::Nitro, Card::Engine, Card::Rotation];
}

/// Cards of each kind in the tuning deck (BB-1.3).
pub const COPIES_PER_KIND: usize = 9;

/// BB-1.3: 45 cards, 9 of each kind (the split is a decision of the spec).
pub fn full_deck() -> Vec<Card> {
    Card::ALL.iter().flat_map(|&c| std::iter::repeat_n(c, COPIES_PER_KIND)).collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    Start,
    End,
}

/// A `card` action's fields (BB-13).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CardPlay {
    pub card: Option<Card>,
    pub target: Option<Seat>,
    pub when: Option<When>,
    pub at_cell: Option<u8>,
    pub rotations: Vec<QuickRot>,
}

/// BB-9 brackets: race position 1–2 → 0, 3–4 → 1, 5–6 → 2, 7–9 → 3.
pub fn bracket(position: usize) -> usize {
    (position.max(1) - 1).min(7) / 2
}

impl BumpingBots {
    /// BB-9: the bot's race position now: its place in this round's order, bots that have
    /// finished (this round included) counted ahead of it.
    pub(crate) fn race_position(&self, bot: usize) -> usize {
        let finished = self.bots.iter().filter(|b| b.finished).count();
        let ahead = self
            .order
            .iter()
            .take_while(|&&s| s.index() != bot)
            .filter(|s| !self.bots[s.index()].finished)
            .count();
        finished + ahead + 1
    }

    fn bracket_of(&self, bot: usize) -> usize {
        bracket(self.race_position(bot))
    }

    fn check_holds(&self, bot: usize, card: Card) -> Result<(), BbError> {
        let b = &self.bots[bot];
        if b.cards.contains(&card) {
            Ok(())
        } else if b.used_cards.contains(&card) {
            Err(BbError::CardAlreadyUsed)
        } else {
            Err(BbError::CardNotHeld)
        }
    }

    fn spend(&mut self, t: &mut Turn, bot: usize, card: Card, ev: &mut Vec<Event>) {
        let b = &mut self.bots[bot];
        if let Some(i) = b.cards.iter().position(|&c| c == card) {
            b.cards.remove(i);
        }
        b.used_cards.push(card);
        ev.push(Event::CardPlayed { seat: b.seat, card });
        t.card = Some(card);
    }

    /// A card played at the start of the turn, before the speed choice (BB-9).
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn play_start_card(
        &mut self,
        t: &mut Turn,
        bot: usize,
        p: &CardPlay,
        ev: &mut Vec<Event>,
    ) -> Result<(), BbError> {
        let card = p.card.ok_or(BbError::IllegalCard("no card named"))?;
        if t.card.is_some() {
            return Err(BbError::OneCardPerTurn);
        }
        self.check_holds(bot, card)?;
        if p.when == Some(When::End) {
            return Err(BbError::IllegalCard("at the start of the turn, \"when\" is \"start\""));
        }
        let br = self.bracket_of(bot);
        match card {
            Card::Jumper => self.check_jumper(p)?,
            Card::Magnet => {
                let target = p.target.ok_or(BbError::IllegalCard("the Magnet needs a target"))?;
                let (d, n) = self.magnet_line(bot, target)?;
                self.spend(t, bot, card, ev);
                self.magnet_pull(bot, target, d, n, ev);
                return Ok(());
            }
            Card::Nitro => self.check_nitro(bot)?,
            Card::Engine => {}
            Card::Rotation => check_rotations(&p.rotations, br)?,
        }
        self.spend(t, bot, card, ev);
        match card {
            // BB-9.1: position 1–2 gains a ground cell (0 over); others leap over 1/2/3 cells.
            Card::Jumper => t.leap = Some((p.at_cell.unwrap_or(0), br as u8)),
            Card::Rotation => {
                t.quick = p.rotations.clone();
                t.quick.sort_by_key(|q| q.at_cell);
                t.quick_card = true;
            }
            Card::Engine => self.bots[bot].engine_turns = [1, 2, 3, 4][br],
            Card::Nitro => self.start_nitro(t, bot, br, ev),
            Card::Magnet => unreachable!(),
        }
        Ok(())
    }

    fn check_jumper(&self, p: &CardPlay) -> Result<(), BbError> {
        match p.at_cell {
            Some(k) if k <= 12 => Ok(()),
            Some(_) => Err(BbError::IllegalCard("at_cell is beyond any move")),
            None => Err(BbError::IllegalCard("the Jumper needs at_cell (BB-9.1)")),
        }
    }

    fn check_nitro(&self, bot: usize) -> Result<(), BbError> {
        let b = &self.bots[bot];
        if self.round <= 1 {
            return Err(BbError::NitroFirstRound);
        }
        if b.reverse {
            return Err(BbError::NitroNotAllowed("not in reverse"));
        }
        if b.speed >= 6 {
            return Err(BbError::NitroNotAllowed("not at speed 6"));
        }
        if b.changed_direction {
            return Err(BbError::NitroNotAllowed("not on the turn after a change of direction"));
        }
        Ok(())
    }

    /// BB-9.3: speed +1, `cells(new) + 1/2/3/4` cells straight ahead; replaces speed and move.
    fn start_nitro(&mut self, t: &mut Turn, bot: usize, br: usize, ev: &mut Vec<Event>) {
        let b = &mut self.bots[bot];
        b.speed += 1;
        b.changed_direction = false;
        ev.push(Event::SpeedChosen { seat: b.seat, speed: b.speed, reverse: false });
        let speed = b.speed;
        let boost = u8::from(b.engine_turns > 0);
        let total = self.cells(speed) + [1, 2, 3, 4][br] + boost;
        t.chosen_speed = speed;
        t.mv =
            crate::state::MoveCursor { total, taken: 0, before_last: 0, after: 0, straight: true };
        t.step = TurnStep::Moving;
    }

    /// BB-9.2: range by bracket.
    fn magnet_range(&self, bot: usize) -> i32 {
        [2, 3, 4, 5][self.bracket_of(bot)]
    }

    /// BB-9.2: the target must be on the track, in one of the six lines, within range, with
    /// nothing between. Returns the line and the distance.
    pub(crate) fn magnet_line(&self, bot: usize, target: Seat) -> Result<(HexDir, i32), BbError> {
        let t = self.bots.get(target.index()).ok_or(BbError::MagnetBadTarget)?;
        let (Some(to), Some(from)) = (t.at, self.bots[bot].at) else {
            return Err(BbError::MagnetBadTarget);
        };
        if target.index() == bot {
            return Err(BbError::MagnetBadTarget);
        }
        let (d, n) = from.line_to(to).ok_or(BbError::MagnetNotInLine)?;
        if n > self.magnet_range(bot) {
            return Err(BbError::MagnetOutOfRange);
        }
        if n < 2 {
            return Err(BbError::IllegalCard("the target is already adjacent (BB-9.2)"));
        }
        for i in 0..n {
            let h = from.offset(d, i);
            if self.board.wall(h, d) || (i > 0 && self.occupant(h) != crate::state::Occ::Free) {
                return Err(BbError::MagnetBlocked);
            }
        }
        Ok((d, n))
    }

    fn magnet_pull(&mut self, bot: usize, target: Seat, d: HexDir, n: i32, ev: &mut Vec<Event>) {
        let from = self.pos(bot);
        for _ in 1..n {
            self.step_bot(bot, d, ev);
        }
        ev.push(Event::Magnet { seat: self.bots[bot].seat, target, from, to: self.pos(bot) });
    }

    /// Is some bot within Magnet range and line of sight (BB-9.2: the end-of-move question)?
    pub(crate) fn magnet_target(&self, bot: usize) -> Option<Seat> {
        let from = self.bots[bot].at?;
        let range = self.magnet_range(bot);
        self.bots
            .iter()
            .filter(|t| t.at.is_some_and(|h| (2..=range).contains(&from.distance(h))))
            .find(|t| self.magnet_line(bot, t.seat).is_ok())
            .map(|t| t.seat)
    }

    /// The end-of-move Magnet decision (BB-9.2): a target, or `"card": null` to decline.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn play_end_magnet(
        &mut self,
        t: &mut Turn,
        bot: usize,
        p: &CardPlay,
        ev: &mut Vec<Event>,
    ) -> Result<(), BbError> {
        let Some(card) = p.card else { return Ok(()) };
        if t.card.is_some() {
            return Err(BbError::OneCardPerTurn);
        }
        if card != Card::Magnet {
            return Err(BbError::IllegalCard(
                "only the Magnet is played at the end of the move (BB-9.2)",
            ));
        }
        if p.when == Some(When::Start) {
            return Err(BbError::IllegalCard("the move is over: \"when\" is \"end\""));
        }
        self.check_holds(bot, card)?;
        let target = p.target.ok_or(BbError::IllegalCard("the Magnet needs a target"))?;
        let (d, n) = self.magnet_line(bot, target)?;
        self.spend(t, bot, card, ev);
        self.magnet_pull(bot, target, d, n, ev);
        Ok(())
    }
}

/// BB-9.5: 1 rotation at the very start (1–2), 1 anywhere (3–4), 2 (5–6), 3 (7–9); ±60° each,
/// never two at the same point (never more than 60° at once).
fn check_rotations(rots: &[QuickRot], br: usize) -> Result<(), BbError> {
    let allowed = [1, 1, 2, 3][br];
    if rots.is_empty() || rots.len() > allowed {
        return Err(BbError::IllegalRotation(
            "quick rotation: wrong number of rotations for the race position (BB-9.5)",
        ));
    }
    for (i, r) in rots.iter().enumerate() {
        if r.turn != 1 && r.turn != -1 {
            return Err(BbError::IllegalRotation(
                "each quick rotation turns 60°: turn is -1 or 1 (BB-9.5)",
            ));
        }
        if br == 0 && r.at_cell != 0 {
            return Err(BbError::IllegalRotation(
                "in position 1–2 the quick rotation is at the very start (BB-9.5)",
            ));
        }
        if rots[..i].iter().any(|o| o.at_cell == r.at_cell) {
            return Err(BbError::IllegalRotation("never more than 60° at once (BB-9.5)"));
        }
    }
    Ok(())
}
