//! BB-7 shocks: bot against bot, pushes, lateral turns, walls and chains.

use crate::Event;
use crate::error::BbError;
use crate::event::EventSink;
use crate::movement::Step;
use crate::order::StepKind;
use crate::state::{BumpingBots, Chain, Occ, PendingShock, Turn, TurnStep, Via};
use grid::HexDir;

/// BB-7.3: push distance by the active bot's chosen speed.
pub fn push_cells(speed: u8) -> u8 {
    match speed {
        0..=2 => 0,
        3 | 4 => 1,
        _ => 2,
    }
}

impl BumpingBots {
    /// BB-7.4: is a push along `d` lateral for this bot (hits one of its four side edges)?
    pub(crate) fn is_lateral(&self, bot: usize, d: HexDir) -> bool {
        let f = self.bots[bot].facing;
        d != f && d != f.opposite()
    }

    /// The active bot ran into bot `p` along `d` (BB-7.1, 7.3, 7.4, 7.6).
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn bot_shock(
        &mut self,
        t: &mut Turn,
        a: usize,
        p: usize,
        d: HexDir,
        ev: &mut impl EventSink,
    ) -> Step {
        let at = self.pos(a);
        ev.push(Event::Collision { seat: self.bots[a].seat, at, against: "bot" });
        Self::drop_rotations(t);
        let speed = t.chosen_speed;
        match self.chain_shock(p, d, push_cells(speed), speed >= 4, Via::Bot) {
            Ok(chain) => {
                self.lose_speed(a, 2, ev);
                self.shock_chain(&chain, d, push_cells(speed), 0, &[], ev);
                Step::Done
            }
            Err(pending) => {
                t.step = TurnStep::Shock(pending);
                Step::Wait
            }
        }
    }

    /// BB-7.6 with BB-7.4: the chain a shock along `d` reaches from bot `first`, its last bot
    /// pushed `push` cells. `may_turn`: whether a lateral hit lets the active player turn a bot
    /// (at speed 4+ for a bot's shock, BB-7.4; whatever the speed for a mobile obstacle the
    /// active bot launched, BB-8.3). `Ok(chain)` when the player has nothing to choose; else
    /// the shock to ask about: the first bot of a chain may be turned when the hit is lateral
    /// to it, the last instead of each cell of its push when the push is lateral to it and
    /// nothing solid stands behind it (BB-7.5).
    pub(crate) fn chain_shock(
        &self,
        first: usize,
        d: HexDir,
        push: u8,
        may_turn: bool,
        via: Via,
    ) -> Result<Chain, PendingShock> {
        let chain = self.chain(first, d, push);
        let last = *chain.last().expect("non-empty");
        let first_choice = chain.len() > 1 && may_turn && self.is_lateral(first, d);
        let last_choice = push > 0
            && may_turn
            && self.is_lateral(last, d)
            && self.probe(self.pos(last), d) != Occ::Solid;
        if first_choice || last_choice {
            Err(PendingShock {
                chain: chain.to_vec(),
                dir: d,
                push,
                first_choice,
                last_choice,
                via,
            })
        } else {
            Ok(chain)
        }
    }

    /// Validate and resolve the pending shock with the player's choice.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn resolve_shock_choice(
        &mut self,
        t: &mut Turn,
        pending: PendingShock,
        turn_passive: &[i8],
        turn_first: i8,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        if turn_passive.iter().chain([&turn_first]).any(|t| !(-1..=1).contains(t)) {
            return Err(BbError::IllegalShockChoice("each entry is -1, 0 or 1"));
        }
        let a = t.bot;
        check_entries(turn_passive, pending.turn_cells())?;
        let PendingShock { chain, dir, push, first_choice, last_choice: _, via } = pending;
        if turn_first != 0 && !first_choice {
            return Err(BbError::IllegalShockChoice(
                "turn_first: the first bot cannot be turned (BB-7.6)",
            ));
        }
        if via == Via::Bot {
            self.lose_speed(a, 2, ev);
        }
        let moved = self.shock_chain(&chain, dir, push, turn_first, turn_passive, ev);
        match via {
            Via::Bot => t.step = TurnStep::EndMove,
            // BB-8.3: the obstacle passed the shock on; it then moves as many cells as the bot
            // was pushed, in direction initial + 2; the active bot goes on.
            Via::Wedged(o) => {
                self.push_mobile(o, dir.turn(2), moved, false, ev);
                t.step = TurnStep::Moving;
            }
            // BB-8.3: the launched obstacle stops against the chain; the active bot goes on.
            Via::Launched => t.step = TurnStep::Moving,
        }
        Ok(())
    }

    /// BB-7.6: every bot of the chain loses 2; the first may be turned; the last is pushed.
    /// Returns the cells the last bot moved.
    pub(crate) fn shock_chain(
        &mut self,
        chain: &[usize],
        d: HexDir,
        push: u8,
        turn_first: i8,
        entries: &[i8],
        ev: &mut impl EventSink,
    ) -> u8 {
        for &b in chain {
            self.lose_speed(b, 2, ev);
        }
        if chain.len() > 1 {
            self.rotate(chain[0], turn_first, ev);
        }
        let last = *chain.last().expect("non-empty");
        self.push_along(last, d, push, entries, ev)
    }

    /// BB-7.3–7.6: push a bot `k` cells along `d`, an entry ±1 turning it instead of a cell.
    /// Returns the cells it moved.
    pub(crate) fn push_along(
        &mut self,
        b: usize,
        d: HexDir,
        k: u8,
        entries: &[i8],
        ev: &mut impl EventSink,
    ) -> u8 {
        let mut moved = 0;
        for i in 0..k {
            let e = entries.get(i as usize).copied().unwrap_or(0);
            if e != 0 {
                self.rotate(b, e, ev);
                continue;
            }
            let from = self.pos(b);
            match self.probe(from, d) {
                Occ::Solid => {
                    // BB-7.5: against a wall after its first cell: a second shock, 2 more speeds.
                    if moved > 0 {
                        ev.push(Event::Collision {
                            seat: self.bots[b].seat,
                            at: from,
                            against: "wall",
                        });
                        self.lose_speed(b, 2, ev);
                    }
                    return moved;
                }
                Occ::Bot(n) => {
                    // BB-7.5: a new shock passed on by the chain rule with the distance left.
                    ev.push(Event::Collision { seat: self.bots[b].seat, at: from, against: "bot" });
                    if moved > 0 {
                        self.lose_speed(b, 2, ev);
                    }
                    let chain = self.chain(n, d, k - i);
                    self.shock_chain(&chain, d, k - i, 0, &[], ev);
                    return moved;
                }
                Occ::Mobile(o) => {
                    // BB-8.3: a bot pushed into a mobile obstacle stays and pushes it on by the
                    // push left (the obstacle ends the chain). Met after the bot's first cell it
                    // is a second shock, as a wall or a bot would be (BB-7.5, a decision): the
                    // pushed bot loses 2 more.
                    if moved > 0 {
                        ev.push(Event::Collision {
                            seat: self.bots[b].seat,
                            at: from,
                            against: "mobile",
                        });
                        self.lose_speed(b, 2, ev);
                    }
                    self.push_mobile(o, d, k - i, false, ev);
                    return moved;
                }
                Occ::Free => {
                    let to = self.step_bot(b, d, StepKind::Pushed, ev);
                    moved += 1;
                    if let Some(a) = self.board.arrow(to) {
                        self.throw(b, a, k, ev);
                        return moved;
                    }
                }
            }
        }
        moved
    }
}

/// `turn_passive` has exactly one entry per push cell the player may turn (BB-13: "one entry per
/// push cell"), none when the pushed bot cannot be turned: one spelling per choice, the one
/// `legal_actions` lists.
fn check_entries(entries: &[i8], allowed: usize) -> Result<(), BbError> {
    if allowed == 0 && !entries.is_empty() {
        return Err(BbError::IllegalShockChoice(
            "turn_passive: the passive bot cannot be turned in this shock, the list is empty (BB-7.4, BB-7.5)",
        ));
    }
    if entries.len() != allowed {
        return Err(BbError::IllegalShockChoice(
            "turn_passive has one entry per push cell (BB-7.4)",
        ));
    }
    Ok(())
}
