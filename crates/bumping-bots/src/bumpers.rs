//! BB-8.4 bumpers: arrows throw bots away from the centre.

use crate::Event;
use crate::event::EventSink;
use crate::order::StepKind;
use crate::state::{BumpingBots, Occ};
use grid::HexDir;

/// Bound on throws in one resolution, against bumper loops on puzzle boards.
const MAX_THROWS: u32 = 16;

impl BumpingBots {
    /// Throw bot `b` along arrow `a` by `cells` (1 or 2), again on every arrow it lands on.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn throw(&mut self, b: usize, a: HexDir, cells: u8, ev: &mut impl EventSink) {
        let mut arrow = a;
        'throws: for _ in 0..MAX_THROWS {
            self.lose_speed(b, 2, ev);
            self.turn_towards(b, arrow, cells, ev);
            for i in 0..cells {
                let from = self.pos(b);
                match self.probe(from, arrow) {
                    // A wall or an obstacle stops the throw before it, and that is a shock:
                    // 2 more speeds (BB-8.4 amended, BB-7.2). A mobile obstacle is not pushed
                    // (the throw "stops before it").
                    hit @ (Occ::Solid | Occ::Mobile(_)) => {
                        let against = if matches!(hit, Occ::Mobile(_)) { "mobile" } else { "wall" };
                        ev.push(Event::Collision { seat: self.bots[b].seat, at: from, against });
                        self.lose_speed(b, 2, ev);
                        break 'throws;
                    }
                    Occ::Bot(n) => {
                        // A normal shock that pushes by the throw cells left (BB-7.3 does not apply).
                        ev.push(Event::Collision {
                            seat: self.bots[b].seat,
                            at: from,
                            against: "bot",
                        });
                        self.lose_speed(b, 2, ev);
                        let chain = self.chain(n, arrow, cells - i);
                        self.shock_chain(&chain, arrow, cells - i, 0, &[], ev);
                        break 'throws;
                    }
                    Occ::Free => {
                        let to = self.step_bot(b, arrow, StepKind::Thrown, ev);
                        if let Some(next) = self.board.arrow(to) {
                            arrow = next;
                            continue 'throws;
                        }
                    }
                }
            }
            break;
        }
    }

    /// BB-8.4: a lateral arrow turns the bot 60° per cell thrown, towards it, never past it.
    fn turn_towards(&mut self, b: usize, arrow: HexDir, cells: u8, ev: &mut impl EventSink) {
        let t = self.bots[b].facing.turn_to(arrow);
        if t == 0 || t.abs() == 3 {
            return;
        }
        let n = t.abs().min(cells as i32);
        self.rotate(b, (t.signum() * n) as i8, ev);
    }
}
