//! BB-8.1–8.3 obstacles: fixed (solid, see `state::occupant`), mobile, motorised.

use crate::Event;
use crate::event::EventSink;
use crate::movement::Step;
use crate::order::StepKind;
use crate::state::{BumpingBots, Chain, Occ, PendingShock, Turn, TurnStep, Via};
use crate::track::ObstacleKind;
use grid::{Hex, HexDir};

impl BumpingBots {
    /// BB-8.3: the active bot ran into mobile obstacle `o` along `d`.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    pub(crate) fn mobile_shock(
        &mut self,
        t: &mut Turn,
        a: usize,
        o: usize,
        d: HexDir,
        ev: &mut impl EventSink,
    ) -> Step {
        let at = self.pos(a);
        ev.push(Event::Collision { seat: self.bots[a].seat, at, against: "mobile" });
        Self::drop_rotations(t);
        let speed = t.chosen_speed;
        // Half the remaining cells (the obstacle's cell included), rounded down, straight on.
        t.mv.total = t.mv.taken + (t.mv.total - t.mv.taken) / 2;
        t.mv.straight = true;
        self.lose_speed(a, 1, ev);
        let ob = self.obstacles[o].at;
        if let Occ::Bot(b) = self.probe(ob, d) {
            // The obstacle is against a bot: it passes the shock on by the chain rule (BB-7.6:
            // push by BB-7.3; the first bot of a chain may be turned, the last follows BB-7.4,
            // so the active player is asked when the hit is lateral at speed 4+), then moves as
            // many cells as the pushed bot moved (0 when it stands against a wall: the obstacle
            // stays against it), in direction initial + 2.
            let push = crate::shocks::push_cells(speed);
            match self.chain_shock(b, d, push, speed >= 4, Via::Wedged(o)) {
                Ok(chain) => {
                    let moved = self.shock_chain(&chain, d, push, 0, &[], ev);
                    self.push_mobile(o, d.turn(2), moved, false, ev);
                    return Step::Continue;
                }
                Err(pending) => {
                    t.step = TurnStep::Shock(pending);
                    return Step::Wait;
                }
            }
        }
        if let Some(pending) = self.push_mobile(o, d, speed, true, ev) {
            t.step = TurnStep::Shock(pending);
            return Step::Wait;
        }
        Step::Continue
    }

    /// BB-7.6: the bots wedged one behind the other along `d`, starting with `first` (just
    /// `first` when nothing is pushed). Distinct bots, so at most 9 (BB-1.1): held inline, not
    /// allocated for every shock (issue 17).
    pub(crate) fn chain(&self, first: usize, d: HexDir, push: u8) -> Chain {
        let mut chain = Chain::new();
        chain.push(first);
        if push == 0 {
            return chain;
        }
        while let Occ::Bot(n) = self.probe(self.pos(*chain.last().expect("non-empty")), d) {
            if chain.contains(&n) {
                break;
            }
            chain.push(n);
        }
        chain
    }

    /// BB-8.3: push a mobile obstacle `n` cells along `d`. A wall or obstacle costs 1 cell and
    /// turns it to `d + 2` (once; a second one stops it). A bot stops it: a normal shock (the
    /// chain rule, BB-7.6) whose push is at most 1 cell. When `ask` (the active bot launched
    /// it) and the hit leaves a choice (a lateral hit, whatever the speed), returns the shock
    /// for a `shock_choice`.
    pub(crate) fn push_mobile(
        &mut self,
        o: usize,
        d: HexDir,
        n: u8,
        ask: bool,
        ev: &mut impl EventSink,
    ) -> Option<PendingShock> {
        let (mut dir, mut n, mut turned) = (d, n, false);
        while n > 0 {
            let from = self.obstacles[o].at;
            match self.probe(from, dir) {
                Occ::Solid | Occ::Mobile(_) => {
                    if turned {
                        break;
                    }
                    n -= 1;
                    dir = d.turn(2);
                    turned = true;
                }
                Occ::Bot(t) => {
                    let chain = match self.chain_shock(t, dir, 1, ask, Via::Launched) {
                        Ok(chain) => chain,
                        Err(pending) => return Some(pending),
                    };
                    self.shock_chain(&chain, dir, 1, 0, &[], ev);
                    break;
                }
                Occ::Free => {
                    let to = from.neighbour(dir);
                    self.move_obstacle(o, to);
                    ev.push(Event::ObstacleMoved { kind: ObstacleKind::Mobile, from, to });
                    n -= 1;
                }
            }
        }
        None
    }

    /// BB-8.2: at the end of the round every motorised obstacle turns 60°.
    pub(crate) fn turn_motors(&mut self, ev: &mut impl EventSink) {
        // The board's list of the motorised ones, with their centres (issue 17).
        for i in 0..self.board.motors().len() {
            let (m, k) = self.board.motors()[i];
            debug_assert_eq!(self.obstacles[m].kind, ObstacleKind::Motorised);
            debug_assert_eq!(k, self.motor_centre(m));
            self.turn_motor(m, k, ev);
        }
    }

    /// Motorised obstacle `m`, its centre at dense index `k`, turns (BB-8.2).
    #[inline(always)]
    fn turn_motor(&mut self, m: usize, k: usize, ev: &mut impl EventSink) {
        let o = self.obstacles[m];
        // The arm turned and both arms' directions, by table (issue 17).
        let arm = SPUN[usize::from(o.arm.index()) & 7][o.spin as usize];
        let (new, old) = (ARMS[usize::from(arm.index()) & 7], ARMS[usize::from(o.arm.index()) & 7]);
        // The common case: both cells the arms step onto are free; the arms just turn. (The
        // centre's neighbours by dense index: it stands on the track, BB-12; issue 17.)
        let new_k = new.map(|d| self.board.step_idx(k, d));
        // `free_at`'s questions for both cells at once, without a branch: whether one is free
        // predicts nothing about the other.
        let free = |k: usize| {
            let c = self.board.cell_at(k);
            c.on & !c.solid & (self.occ_at(k) == 0)
        };
        if free(new_k[0]) & free(new_k[1]) {
            debug_assert!(self.free_at(new_k[0]) && self.free_at(new_k[1]));
            // The arms leave their cells for the two free ones (`set_motor_arm` with the
            // centre's index and the new cells' already known, issue 17).
            let old_k = old.map(|d| self.board.step_idx(k, d));
            self.set_motor_arm_at(m, arm, old_k, new_k);
            ev.push(Event::MotorTurned { at: o.at, arms: new });
            return;
        }
        self.turn_motor_slow(m, ev);
    }

    /// [`Self::turn_motor`] when an arm meets something (BB-8.2): rare, out of line.
    #[inline(never)]
    fn turn_motor_slow(&mut self, m: usize, ev: &mut impl EventSink) {
        let o = self.obstacles[m];
        let steps = o.spin.steps();
        // Each arm steps from its cell to the next one round the centre: an arm turning from
        // direction a to a+1 steps along a+2; from a to a-1, along a-2.
        let moves =
            [o.arm, o.arm.opposite()].map(|a| (o.at.neighbour(a.turn(steps)), a.turn(2 * steps)));
        let meets = moves.map(|(cell, dir)| self.arm_meets(cell, dir));
        if meets.iter().any(|m| matches!(m, ArmMeets::Blocked)) {
            // BB-8.2: the push is blocked: the obstacle does not turn; a bot where an arm would
            // arrive still loses 2.
            self.arm_stays(o.at, &moves, ev);
            return;
        }
        if meets.iter().any(|m| matches!(m, ArmMeets::Chain)) {
            // BB-8.2 → BB-7.6: the push passes down the chain; its first bot stays where the arm
            // would arrive, so the obstacle does not turn this round (as an active bot stops
            // before a chain). A lone bot at the other arm is not pushed and loses 2.
            for (i, &(cell, dir)) in moves.iter().enumerate() {
                match meets[i] {
                    ArmMeets::Chain => self.arm_chain(cell, dir, steps as i8, ev),
                    _ => {
                        if let Occ::Bot(b) = self.occupant(cell) {
                            self.lose_speed(b, 2, ev);
                        }
                    }
                }
            }
            ev.push(Event::MotorBlocked { at: o.at });
            return;
        }
        for &(cell, dir) in &moves {
            self.arm_push(cell, dir, steps as i8, ev);
        }
        self.set_motor_arm(m, o.arm.turn(steps));
        let arm = self.obstacles[m].arm;
        ev.push(Event::MotorTurned { at: o.at, arms: [arm, arm.opposite()] });
    }

    /// The obstacle cannot turn: bots where the arms would arrive lose 2 (BB-8.2).
    fn arm_stays(&mut self, centre: Hex, moves: &[(Hex, HexDir); 2], ev: &mut impl EventSink) {
        for &(cell, _) in moves {
            if let Occ::Bot(b) = self.occupant(cell) {
                self.lose_speed(b, 2, ev);
            }
        }
        ev.push(Event::MotorBlocked { at: centre });
    }

    /// What the arm arriving on `cell`, stepping along `dir`, meets (BB-8.2).
    fn arm_meets(&self, cell: Hex, dir: HexDir) -> ArmMeets {
        match self.occupant(cell) {
            Occ::Free => ArmMeets::Free,
            Occ::Solid => ArmMeets::Blocked,
            // A mobile obstacle on the arm's cell is pushed 1 cell, if that cell is free.
            Occ::Mobile(_) if self.probe(cell, dir) == Occ::Free => ArmMeets::Push,
            Occ::Mobile(_) => ArmMeets::Blocked,
            Occ::Bot(_) => match self.probe(cell, dir) {
                Occ::Free => ArmMeets::Push,
                // BB-7.5: a bot with a wall or a solid obstacle right behind it cannot move.
                Occ::Solid => ArmMeets::Blocked,
                // Another bot, or a mobile obstacle (which ends a chain, BB-8.3), behind it.
                Occ::Bot(_) | Occ::Mobile(_) => ArmMeets::Chain,
            },
        }
    }

    /// BB-8.2: the arm arriving on `cell` pushes what stands there 1 cell along `dir` (the cell
    /// beyond is free, [`Self::arm_meets`]): a bot loses 2 and turns 60° in the arm's sense if
    /// the push is lateral; a bot pushed onto a bumper arrow is thrown 1 cell.
    fn arm_push(&mut self, cell: Hex, dir: HexDir, spin: i8, ev: &mut impl EventSink) {
        match self.occupant(cell) {
            Occ::Mobile(x) => {
                let to = cell.neighbour(dir);
                self.move_obstacle(x, to);
                ev.push(Event::ObstacleMoved { kind: ObstacleKind::Mobile, from: cell, to });
            }
            Occ::Bot(b) => {
                let lateral = self.is_lateral(b, dir);
                self.lose_speed(b, 2, ev);
                let to = self.step_bot(b, dir, StepKind::Pushed, ev);
                if lateral {
                    self.rotate(b, spin, ev);
                }
                if let Some(a) = self.board.arrow(to) {
                    self.throw(b, a, 1, ev);
                }
            }
            _ => {}
        }
    }

    /// BB-8.2 → BB-7.6: the arm meets a bot wedged against another bot (or a mobile obstacle):
    /// every bot of the chain loses 2, the first (the one the arm hit) stays and turns 60° in
    /// the arm's sense if the push is lateral to it, and the push of 1 cell goes to the last
    /// bot, which turns likewise if the push is lateral to it (or to the mobile obstacle at the
    /// end of the chain, pushed 1 cell, BB-8.3).
    fn arm_chain(&mut self, cell: Hex, dir: HexDir, spin: i8, ev: &mut impl EventSink) {
        let Occ::Bot(first) = self.occupant(cell) else { return };
        let chain = self.chain(first, dir, 1);
        let last = *chain.last().expect("non-empty");
        let turn_first = if self.is_lateral(first, dir) { spin } else { 0 };
        let turn_last = if chain.len() > 1 && self.is_lateral(last, dir) { spin } else { 0 };
        if chain.len() > 1 {
            self.rotate(last, turn_last, ev);
            self.shock_chain(&chain, dir, 1, turn_first, &[], ev);
        } else {
            // A lone bot against a mobile obstacle: it stays and pushes the obstacle on.
            self.rotate(first, turn_first, ev);
            self.shock_chain(&chain, dir, 1, 0, &[], ev);
        }
    }
}

/// A motorised obstacle's arm after its turn at the end of a round, by direction and
/// [`crate::track::Spin`] (`Spin::Cw as usize` = 0): `HexDir::turn` by `Spin::steps` as a
/// table (BB-8.2; `tests::the_motor_tables_are_the_arithmetic`). Eight rows, so that a
/// direction's index masked with 7 is in range without a modulo or a bounds check; rows 6 and
/// 7 are never read.
const SPUN: [[HexDir; 2]; 8] = {
    let mut t = [[HexDir::ALL[0]; 2]; 8];
    let mut d = 0;
    while d < 6 {
        t[d] = [HexDir::wrapping(d as i32 + 1), HexDir::wrapping(d as i32 - 1)];
        d += 1;
    }
    t
};

/// Both arms' directions of a motorised obstacle whose arm points along a direction: the
/// direction and its opposite (BB-8.2). Eight rows, as [`SPUN`].
const ARMS: [[HexDir; 2]; 8] = {
    let mut t = [[HexDir::ALL[0]; 2]; 8];
    let mut d = 0;
    while d < 6 {
        t[d] = [HexDir::wrapping(d as i32), HexDir::wrapping(d as i32 + 3)];
        d += 1;
    }
    t
};

/// What an arm of a turning motorised obstacle meets on the cell it arrives on (BB-8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArmMeets {
    Free,
    /// A bot or a mobile obstacle with a free cell beyond: pushed 1 cell, the arm arrives.
    Push,
    /// A bot wedged against another bot or a mobile obstacle: the push passes down the chain
    /// (BB-7.6) and the first bot stays, so the obstacle does not turn.
    Chain,
    /// A wall, a solid obstacle, or something that cannot move: the obstacle does not turn.
    Blocked,
}

#[cfg(test)]
mod tests {
    use super::{ARMS, SPUN};
    use crate::track::Spin;
    use grid::HexDir;

    /// The motors' tables give what `HexDir`'s arithmetic gives.
    #[test]
    fn the_motor_tables_are_the_arithmetic() {
        for d in HexDir::ALL {
            let i = d.index() as usize;
            for spin in [Spin::Cw, Spin::Ccw] {
                assert_eq!(SPUN[i][spin as usize], d.turn(spin.steps()));
            }
            assert_eq!(ARMS[i], [d, d.opposite()]);
        }
    }
}
