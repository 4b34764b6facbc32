//! BB-6 movement: the move cursor, stepped one cell at a time so that a shock needing a
//! decision can stop it and a later action can resume it.

use crate::Event;
use crate::error::BbError;
use crate::event::EventSink;
use crate::order::StepKind;
use crate::state::{BumpingBots, MoveCursor, Occ, Turn, TurnStep, travel};

/// What one step of the move cursor led to.
pub(crate) enum Step {
    Continue,
    /// A decision is owed (the phase says which).
    Wait,
    Done,
}

fn check_turn(t: i8) -> Result<(), BbError> {
    if (-1..=1).contains(&t) {
        Ok(())
    } else {
        Err(BbError::IllegalRotation("a rotation is -1, 0 or 1 (60°)"))
    }
}

impl BumpingBots {
    /// Cells this turn's move takes (BB-1.2, BB-9.1 ground leap, BB-9.4 engine).
    #[inline(always)]
    pub(crate) fn move_cells(&self, t: &Turn, bot: usize) -> u8 {
        let b = &self.bots[bot];
        let cells = self.cells(b.speed) + u8::from(b.engine_turns > 0);
        // Most turns play no Jumper: one test for them.
        match t.leap {
            None => cells,
            Some((_, over)) => cells + u8::from(over == 0),
        }
    }

    /// Validate a `move` (BB-6.2, BB-6.3, BB-9.5) and start the cursor.
    #[inline(always)]
    pub(crate) fn start_move(
        &mut self,
        t: &mut Turn,
        bot: usize,
        before_last: i8,
        after: i8,
    ) -> Result<(), BbError> {
        check_turn(before_last)?;
        check_turn(after)?;
        let total = self.move_cells(t, bot);
        // Every refusal below in one test of bits, taken almost never, instead of a branch on
        // each drawn rotation (random, so mispredicted; issue 17); the reason is then found
        // rule by rule.
        let before = u8::from(before_last != 0);
        let landing = match t.leap {
            None => false,
            Some((at, over)) => over > 0 && at + 1 == total,
        };
        let refused = (u8::from(t.quick_card) & u8::from((before_last | after) != 0))
            | (u8::from(!self.bots[bot].reverse) & before & u8::from(after != 0))
            | (u8::from(total <= 1) & before)
            | (u8::from(landing) & before);
        if refused != 0 {
            return Err(self.move_refusal(t, bot, total, before_last, after));
        }
        t.mv = MoveCursor { total, taken: 0, before_last, after, straight: false };
        t.step = TurnStep::Moving;
        Ok(())
    }

    /// Why [`Self::start_move`] refuses a move's rotations, rule by rule.
    #[cold]
    #[inline(never)]
    fn move_refusal(&self, t: &Turn, bot: usize, total: u8, before_last: i8, after: i8) -> BbError {
        if t.quick_card && (before_last != 0 || after != 0) {
            return BbError::IllegalRotation(
                "after a quick rotation card the move carries no rotation (BB-9.5)",
            );
        }
        if !self.bots[bot].reverse && before_last != 0 && after != 0 {
            return BbError::IllegalRotation("one rotation at most going forward (BB-6.2)");
        }
        if total <= 1 && before_last != 0 {
            return BbError::IllegalRotation("at 1 cell only a rotation after the move (BB-6.1)");
        }
        debug_assert!(matches!(t.leap, Some((at, over)) if over > 0 && at + 1 == total));
        BbError::IllegalRotation(
            "the last cell is the Jumper's landing: no rotation before the leap (BB-9.1)",
        )
    }

    /// BB-7.1: a collision drops the rotations not yet taken.
    pub(crate) fn drop_rotations(t: &mut Turn) {
        t.collided = true;
        t.mv.before_last = 0;
        t.mv.after = 0;
        t.quick.clear();
    }

    /// The active bot's move from where its cursor stands to its end (`Done`) or to a
    /// decision (`Wait`, never `Continue`): the plain cells in a straight run
    /// ([`Self::run_plain`]), every other step by the cursor ([`Self::step_move`]).
    #[inline(always)]
    pub(crate) fn run_move(&mut self, t: &mut Turn, ev: &mut impl EventSink) -> Step {
        loop {
            // No air leap to take (BB-9.1) and no quick rotation (BB-9.5): every cell before
            // the one that takes the planned rotation (BB-6.2) may be a plain step.
            if t.quick.is_empty() && t.leap.is_none_or(|(_, over)| over == 0) {
                let end = t.mv.total.saturating_sub(u8::from(t.mv.before_last != 0));
                self.run_plain(t, end, ev);
            }
            match self.step_move(t, ev) {
                Step::Continue => {}
                s => return s,
            }
        }
    }

    /// The move's plain steps straight on while its cursor is below `end`: steps onto a free
    /// cell without a bumper arrow, crossing no start/finish line, by a bot that has not
    /// finished, each of which only moves the bot one cell (BB-6.1); it stops before any
    /// other step, which [`Self::step_move`] then takes. Each step reads one slot of the
    /// occupancy table (the cell entered: who stands there, and its own step bits for the
    /// next step), and the bot and the table are written once at the end (issue 17:
    /// straight-line code for the cells of a move instead of the cursor's state machine cell by
    /// cell; the same events in the same order, the same state after it).
    #[inline(always)]
    fn run_plain(&mut self, t: &mut Turn, end: u8, ev: &mut impl EventSink) {
        let mut taken = t.mv.taken;
        let bot = t.bot;
        let b = &self.bots[bot];
        // A finished bot's steps count the cells past its line (BB-10): the cursor's way.
        if taken >= end || b.finished {
            return;
        }
        let d = travel(b.facing, b.reverse);
        let bit = 1u8 << d.index();
        let delta = self.board.step_delta(d);
        let (seat, k0) = (b.seat, b.k as usize);
        let mut at = b.at.expect("a bot on the track");
        debug_assert_eq!(k0, self.cell_of(bot));
        let mut k = k0;
        let mut here = self.occ[k0];
        while taken < end && here.plain & bit != 0 {
            let to = k.wrapping_add_signed(delta);
            let next = self.occ[to];
            if next.occ != 0 {
                break;
            }
            debug_assert_eq!(self.probe_at(k, d), (Occ::Free, to));
            let h = at.neighbour(d);
            ev.push(Event::Moved { seat, from: at, to: h });
            (at, k, here) = (h, to, next);
            taken += 1;
        }
        if k != k0 {
            // The cells between were never marked: nothing else moved meanwhile, and a straight
            // run never comes back to a cell it left.
            self.place_bot_at(bot, k0, at, k);
            t.mv.taken = taken;
        }
    }

    /// One step of the active bot's move.
    #[inline(always)]
    pub(crate) fn step_move(&mut self, t: &mut Turn, ev: &mut impl EventSink) -> Step {
        let bot = t.bot;
        // BB-9.1: no rotation before or during the leap: it comes before this point's rotations.
        // The landing cell is a cell of the move (BB-9.1 amended): a leap needs one cell left.
        if let Some((at, over)) = t.leap
            && over > 0
            && at == t.mv.taken
            && at < t.mv.total
        {
            t.leap = None;
            if self.leap(t, bot, over, ev) {
                return Step::Done;
            }
            return Step::Continue;
        }
        self.take_planned_rotations(t, bot, ev);
        if t.mv.taken >= t.mv.total {
            let after = t.mv.after;
            self.rotate(bot, after, ev);
            return Step::Done;
        }
        let d = self.travel_dir(bot);
        let from = self.pos(bot);
        let kf = self.cell_of(bot);
        let (found, kt) = self.probe_at(kf, d);
        match found {
            Occ::Solid => {
                ev.push(Event::Collision { seat: self.bots[bot].seat, at: from, against: "wall" });
                Self::drop_rotations(t);
                self.lose_speed(bot, 2, ev);
                Step::Done
            }
            Occ::Bot(p) => self.bot_shock(t, bot, p, d, ev),
            Occ::Mobile(o) => self.mobile_shock(t, bot, o, d, ev),
            Occ::Free => {
                self.step_bot_from(bot, from, kf, d, kt, StepKind::Moved, ev);
                t.mv.taken += 1;
                // Open onto `kt` but not clear: a bumper arrow (the board's tables, issue 17).
                let arrow = self.occ[kf].clear & (1 << d.index()) == 0;
                debug_assert_eq!(arrow, self.board.arrow_at(kt).is_some());
                match if arrow { self.board.arrow_at(kt) } else { None } {
                    Some(a) => {
                        // BB-8.4: the move ends on the arrow; thrown 1 (speed 1–3) or 2 (4–6) cells.
                        let cells = if t.chosen_speed >= 4 { 2 } else { 1 };
                        t.thrown = true;
                        self.throw(bot, a, cells, ev);
                        Step::Done
                    }
                    None => Step::Continue,
                }
            }
        }
    }

    /// BB-6.2/6.3 rotation before the last cell, BB-9.5 quick rotations at this point.
    fn take_planned_rotations(&mut self, t: &mut Turn, bot: usize, ev: &mut impl EventSink) {
        // Most steps have neither (the random lean turns after the move only): one test.
        if t.quick.is_empty() && t.mv.before_last == 0 {
            return;
        }
        let taken = t.mv.taken;
        let mut turns = [0i8; 2];
        if let Some(i) = t.quick.iter().position(|q| q.at_cell == taken) {
            turns[0] = t.quick.remove(i).turn;
        }
        if t.mv.taken + 1 == t.mv.total && t.mv.before_last != 0 {
            turns[1] = t.mv.before_last;
            t.mv.before_last = 0;
        }
        for turn in turns {
            self.rotate(bot, turn, ev);
        }
    }

    /// BB-9.1 air leap: pass over `over` cells and land on the next, which must be free and on
    /// the track, crossing no wall edge; otherwise the leap is lost (a decision). The landing
    /// cell counts as one cell of the move. Returns true
    /// when the bot landed on a bumper arrow and was thrown (its move ends).
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    fn leap(&mut self, t: &mut Turn, bot: usize, over: u8, ev: &mut impl EventSink) -> bool {
        let d = self.travel_dir(bot);
        let from = self.pos(bot);
        let mut h = from;
        for _ in 0..=over {
            if self.board.wall(h, d) {
                ev.push(Event::LeapCancelled { seat: self.bots[bot].seat });
                return false;
            }
            h = h.neighbour(d);
        }
        if self.occupant(h) != Occ::Free {
            ev.push(Event::LeapCancelled { seat: self.bots[bot].seat });
            return false;
        }
        // Passing over cells (whatever they hold), landing once: the leap's event, then the
        // line edges it crossed. The landing cell is the next cell of the bot's own move
        // (BB-9.1 amended: "+N in the air" is N cells further than its speed).
        self.place_bot(bot, Some(h));
        t.mv.taken += 1;
        ev.push(Event::Leapt { seat: self.bots[bot].seat, from, to: h });
        let mut at = from;
        for _ in 0..=over {
            self.count_crossing(bot, at, d, ev);
            at = at.neighbour(d);
        }
        if let Some(a) = self.board.arrow(h) {
            let cells = if t.chosen_speed >= 4 { 2 } else { 1 };
            t.thrown = true;
            self.throw(bot, a, cells, ev);
            return true;
        }
        false
    }
}
