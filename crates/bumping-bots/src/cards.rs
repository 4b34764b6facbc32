//! BB-9 tuning cards: the deck (BB-1.3, BB-3), race-position brackets and the five cards.

use crate::Event;
use crate::error::BbError;
use crate::event::EventSink;
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
    deck_iter().collect()
}

/// [`full_deck`]'s cards in its order, to refill a deck in place.
pub(crate) fn deck_iter() -> impl Iterator<Item = Card> {
    Card::ALL.iter().flat_map(|&c| std::iter::repeat_n(c, COPIES_PER_KIND))
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

    fn spend(&mut self, t: &mut Turn, bot: usize, card: Card, ev: &mut impl EventSink) {
        let b = &mut self.bots[bot];
        if let Some(i) = b.cards.iter().position(|&c| c == card) {
            b.cards.remove(i);
        }
        b.hand_changed();
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
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        let card = p.card.ok_or(BbError::IllegalCard("no card named"))?;
        if t.card.is_some() {
            return Err(BbError::OneCardPerTurn);
        }
        self.check_holds(bot, card)?;
        check_fields(card, p, When::Start)?;
        let br = self.bracket_of(bot);
        match card {
            Card::Jumper => self.check_jumper(bot, br, p)?,
            Card::Magnet => {
                let target = p.target.ok_or(BbError::IllegalCard("the Magnet needs a target"))?;
                let (d, n) = self.magnet_line(bot, target)?;
                self.spend(t, bot, card, ev);
                self.magnet_pull(bot, target, d, n, ev);
                return Ok(());
            }
            Card::Nitro => self.check_nitro(bot)?,
            Card::Engine => {}
            Card::Rotation => check_rotations(&p.rotations, br, self.max_move_cells(bot))?,
        }
        self.spend(t, bot, card, ev);
        match card {
            // BB-9.1: position 1–2 gains a ground cell (0 over); others leap over 1/2/3 cells.
            Card::Jumper => t.leap = Some((p.at_cell.unwrap_or(0), br as u8)),
            Card::Rotation => {
                t.quick = p.rotations.clone();
                t.quick_card = true;
            }
            Card::Engine => self.bots[bot].engine_turns = [1, 2, 3, 4][br],
            Card::Nitro => self.start_nitro(t, bot, br, ev),
            Card::Magnet => unreachable!(),
        }
        Ok(())
    }

    /// The most cells this turn's move can take, whatever speed the bot then chooses (BB-5,
    /// BB-1.2, BB-9.4): the bound of a Jumper's `at_cell` and of the quick rotations' points,
    /// which are played before the speed choice.
    pub(crate) fn max_move_cells(&self, bot: usize) -> u8 {
        let b = &self.bots[bot];
        let mut most = 0;
        for choice in crate::speed::SpeedChoice::ALL {
            for new_speed in [None, Some(1), Some(2)] {
                if let Ok((v, _)) = crate::speed::speed_after(b, choice, new_speed) {
                    most = most.max(self.cells(v));
                }
            }
        }
        most + u8::from(b.engine_turns > 0)
    }

    /// BB-9.1: in position 1–2 the extra cell is on the ground, one more cell of the move:
    /// `at_cell` is 0 (a decision: the point does not matter). In the air the landing cell is a
    /// cell of the move, so `at_cell` is at most the move's cells minus 1, for the longest move
    /// the bot can still choose this turn ([`Self::max_move_cells`]).
    fn check_jumper(&self, bot: usize, br: usize, p: &CardPlay) -> Result<(), BbError> {
        let most = if br == 0 { 0 } else { self.max_move_cells(bot).saturating_sub(1) };
        match p.at_cell {
            Some(k) if k <= most => Ok(()),
            Some(_) if br == 0 => Err(BbError::IllegalCard(
                "at_cell: in position 1-2 the Jumper's extra cell is on the ground: at_cell is 0 (BB-9.1)",
            )),
            Some(_) => Err(BbError::IllegalCard(
                "at_cell: the leap lands on a cell of the move: at most the move's cells minus 1 (BB-9.1)",
            )),
            None => Err(BbError::IllegalCard("at_cell: the Jumper needs at_cell (BB-9.1)")),
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
    fn start_nitro(&mut self, t: &mut Turn, bot: usize, br: usize, ev: &mut impl EventSink) {
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
        MAGNET_RANGES[self.bracket_of(bot)]
    }

    /// BB-9.2: the target must be on the track, in one of the six lines, within range, with
    /// nothing between. Returns the line and the distance.
    pub(crate) fn magnet_line(&self, bot: usize, target: Seat) -> Result<(HexDir, i32), BbError> {
        self.magnet_line_within(bot, target, self.magnet_range(bot))
    }

    /// [`Self::magnet_line`] with the bot's range already known.
    fn magnet_line_within(
        &self,
        bot: usize,
        target: Seat,
        range: i32,
    ) -> Result<(HexDir, i32), BbError> {
        let t = self.bots.get(target.index()).ok_or(BbError::MagnetBadTarget)?;
        let (Some(to), Some(from)) = (t.at, self.bots[bot].at) else {
            return Err(BbError::MagnetBadTarget);
        };
        if target.index() == bot {
            return Err(BbError::MagnetBadTarget);
        }
        let (d, n) = from.line_to(to).ok_or(BbError::MagnetNotInLine)?;
        if n > range {
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

    /// BB-9.2 pull, straight and without rotating, until next to the target. Entering a bumper
    /// arrow cell ends the pull there and throws the bot (BB-8.4: "by its own move or pushed"),
    /// 1 cell at speed 1–3, 2 at 4–6: the speed marker as it stands when the card is played (a
    /// decision: the pull has no speed of its own).
    fn magnet_pull(
        &mut self,
        bot: usize,
        target: Seat,
        d: HexDir,
        n: i32,
        ev: &mut impl EventSink,
    ) {
        let from = self.pos(bot);
        let mut arrow = None;
        let mut steps = 0;
        for _ in 1..n {
            let at = self.pos(bot);
            self.place_bot(bot, Some(at.neighbour(d)));
            steps += 1;
            arrow = self.board.arrow(at.neighbour(d));
            if arrow.is_some() {
                break;
            }
        }
        ev.push(Event::Magnet { seat: self.bots[bot].seat, target, from, to: self.pos(bot) });
        // The line edges the pull crossed, after the pull's own event.
        for i in 0..steps {
            self.count_crossing(bot, from.offset(d, i), d, ev);
        }
        if let Some(a) = arrow {
            let cells = if self.bots[bot].speed >= 4 { 2 } else { 1 };
            self.throw(bot, a, cells, ev);
        }
    }

    /// Is some bot within Magnet range and line of sight (BB-9.2: the end-of-move question)?
    pub(crate) fn magnet_target(&self, bot: usize) -> Option<Seat> {
        let from = self.bots[bot].at?;
        // In one of the six lines (same q, same r or same s) and at most 5 cells away, the
        // longest range (BB-9.2): what `magnet_line` then checks in full; this spares the range
        // (the bot's race position) and the line walk when no bot is near a line.
        // Each question answered without a branch, and every bot asked (issue 17: where the
        // others stand is random, so branches on it were mispredicted several times a call). A
        // bot off the track is read at `from`: 0 cells away, never near.
        let near = |t: &crate::state::Bot, most: i32| {
            let h = t.at.unwrap_or(from);
            let in_line = (h.q == from.q) | (h.r == from.r) | (h.s() == from.s());
            let d = from.distance(h);
            in_line & (d >= 2) & (d <= most)
        };
        if !self.bots.iter().fold(false, |any, t| any | near(t, MAGNET_RANGES[3])) {
            return None;
        }
        let range = self.magnet_range(bot);
        self.bots
            .iter()
            .filter(|t| near(t, range))
            .find(|t| self.magnet_line_within(bot, t.seat, range).is_ok())
            .map(|t| t.seat)
    }

    /// The end-of-move Magnet decision (BB-9.2): a target, or `"card": null` to decline. Asked
    /// whatever card the bot played at the start of this turn: no rule limits the cards of a
    /// turn at that moment (issue 22).
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn play_end_magnet(
        &mut self,
        t: &mut Turn,
        bot: usize,
        p: &CardPlay,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        let Some(card) = p.card else {
            if p.target.is_some()
                || p.when.is_some()
                || p.at_cell.is_some()
                || !p.rotations.is_empty()
            {
                return Err(BbError::IllegalCard(
                    "declining the Magnet (\"card\": null) names nothing else",
                ));
            }
            return Ok(());
        };
        if card != Card::Magnet {
            return Err(BbError::IllegalCard(
                "only the Magnet is played at the end of the move (BB-9.2)",
            ));
        }
        self.check_holds(bot, card)?;
        check_fields(card, p, When::End)?;
        let target = p.target.ok_or(BbError::IllegalCard("the Magnet needs a target"))?;
        let (d, n) = self.magnet_line(bot, target)?;
        self.spend(t, bot, card, ev);
        self.magnet_pull(bot, target, d, n, ev);
        Ok(())
    }
}

/// The fields a card takes (BB-13: "as the card needs"): `target` and `when` for the Magnet
/// (`when` says the moment: `"start"` before the speed choice, `"end"` when asked after the
/// move), `at_cell` for the Jumper, `rotations` for the quick rotation; any other field is
/// refused, named, so that an action is accepted only as `legal_actions` lists it.
fn check_fields(card: Card, p: &CardPlay, now: When) -> Result<(), BbError> {
    if card != Card::Magnet && p.target.is_some() {
        return Err(BbError::IllegalCard("target: only the Magnet takes a target (BB-9.2)"));
    }
    match (card, p.when) {
        (Card::Magnet, Some(w)) if w == now => {}
        (Card::Magnet, None) => {
            return Err(BbError::IllegalCard(
                "when: the Magnet says when it is played, \"start\" or \"end\" (BB-9.2)",
            ));
        }
        (Card::Magnet, Some(When::Start)) => {
            return Err(BbError::IllegalCard("when: the move is over: \"when\" is \"end\""));
        }
        (Card::Magnet, Some(When::End)) => {
            return Err(BbError::IllegalCard(
                "when: at the start of the turn, \"when\" is \"start\" (BB-9.2)",
            ));
        }
        (_, Some(_)) => {
            return Err(BbError::IllegalCard("when: only the Magnet says when it is played"));
        }
        (_, None) => {}
    }
    if card != Card::Jumper && p.at_cell.is_some() {
        return Err(BbError::IllegalCard("at_cell: only the Jumper takes at_cell (BB-9.1)"));
    }
    if card != Card::Rotation && !p.rotations.is_empty() {
        return Err(BbError::IllegalCard(
            "rotations: only the quick rotation takes rotations (BB-9.5)",
        ));
    }
    Ok(())
}

/// BB-9.5: 1 rotation at the very start (1–2), 1 anywhere (3–4), up to 2 (5–6), up to 3 (7–9);
/// ±60° each, never two at the same point (never more than 60° at once), listed in the order
/// of the move (`at_cell` increasing), each at a point the move can reach: 0 (the very start)
/// to `most` (after the last cell of the longest move the bot can choose this turn).
pub(crate) fn check_rotations(rots: &[QuickRot], br: usize, most: u8) -> Result<(), BbError> {
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
        if r.at_cell > most {
            return Err(BbError::IllegalRotation(
                "quick rotation: at_cell is beyond the longest move the bot can make (BB-9.5)",
            ));
        }
        if i > 0 && rots[i - 1].at_cell == r.at_cell {
            return Err(BbError::IllegalRotation("never more than 60° at once (BB-9.5)"));
        }
        if i > 0 && rots[i - 1].at_cell > r.at_cell {
            return Err(BbError::IllegalRotation(
                "quick rotations are listed in the order of the move, at_cell increasing (BB-9.5)",
            ));
        }
    }
    Ok(())
}

/// BB-9.2: the Magnet's range by race-position bracket ([`bracket`]), nearest first.
const MAGNET_RANGES: [i32; 4] = [2, 3, 4, 5];
