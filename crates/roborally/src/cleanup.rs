//! RR-6 Clean-up after register 5: repairs and option draws, discarding programs, then the
//! re-entry queue (RR-8.3) and the next turn (RR-6.4).

use crate::event::{Event, Sink};
use crate::{Phase, RoboRally};

impl RoboRally {
    pub(crate) fn cleanup(&mut self, events: &mut impl Sink) {
        self.repairs(events);
        self.circuit_breakers(events);
        self.discard_programs();
        let mut queue: crate::PerRobot<u8> = (0..self.robots.len())
            .filter(|&i| self.robots[i].destroyed && self.robots[i].active())
            .map(|i| i as u8)
            .collect();
        // RR-8.3: in order of destruction; at the same moment, lower start dock first.
        queue.sort_by_key(|&i| {
            let r = &self.robots[usize::from(i)];
            (r.destroyed_at, r.dock)
        });
        self.phase = Phase::Reenter { queue };
    }

    /// RR-6.1: −1 damage on a repair site or a flag; a double site also draws an option.
    fn repairs(&mut self, events: &mut impl Sink) {
        for i in 0..self.robots.len() {
            // RR-9 Mechanical Arm: the site it touched at register 5's checkpoint step.
            let Some(at) = self.repair_site(i) else { continue };
            let r = &mut self.robots[i];
            if r.damage > 0 {
                r.damage -= 1;
                events.push(Event::Repaired { seat: r.seat, damage: r.damage });
            }
            if self.is_double_site(at) {
                self.draw_option(i, events);
            }
        }
    }

    /// RR-6.2: every program card not in a locked register goes to the discards (destroyed,
    /// out and finished robots keep nothing: a re-entering robot's damage becomes 2).
    fn discard_programs(&mut self) {
        // Straight onto the discard pile, in the order a gathered vector had (issue 17).
        let deck = &mut self.deck;
        for r in &mut self.robots {
            let keep_locked = !r.destroyed && r.active();
            // RR-9 Fire Control: a jammed register holds its card through one more turn.
            r.opt.radio = None;
            r.opt.arm_touched = None;
            if let Some(c) = r.stash.conditional.take() {
                deck.discard_all([c]);
            }
            for j in &mut r.opt.jammed {
                *j = if keep_locked { j.saturating_sub(1) } else { 0 };
            }
            for k in 0..5 {
                if keep_locked && r.locked(k) {
                    continue;
                }
                if let Some((_, c)) = r.stash.side[k].take() {
                    deck.discard_all([c]);
                }
                if let Some(c) = r.registers[k].take() {
                    deck.discard_all([c]);
                }
                r.revealed[k] = false;
            }
            deck.discard_all(r.hand.drain(..));
        }
    }
}
