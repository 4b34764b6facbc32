//! BB-8.1–8.3 obstacles: fixed (solid, see `state::occupant`), mobile, motorised.

use crate::Event;
use crate::movement::Step;
use crate::state::{BumpingBots, Occ, PendingShock, Turn, TurnStep};
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
        ev: &mut Vec<Event>,
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
            // The obstacle is against a bot: it passes the shock on (BB-7.6), then moves as many
            // cells as that bot was pushed, in direction initial + 2.
            let push = crate::shocks::push_cells(speed);
            let chain = self.chain(b, d, push);
            self.shock_chain(&chain, d, push, 0, &[], ev);
            self.push_mobile(o, d.turn(2), push, false, ev);
            return Step::Continue;
        }
        if let Some((target, dir)) = self.push_mobile(o, d, speed, true, ev) {
            t.step = TurnStep::Shock(PendingShock::Obstacle { target, dir });
            return Step::Wait;
        }
        Step::Continue
    }

    /// BB-7.6: the bots wedged one behind the other along `d`, starting with `first` (just
    /// `first` when nothing is pushed).
    pub(crate) fn chain(&self, first: usize, d: HexDir, push: u8) -> Vec<usize> {
        let mut chain = vec![first];
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
    /// turns it to `d + 2` (once; a second one stops it). A bot stops it: the bot is pushed at
    /// most 1 cell. When `ask` and the hit is lateral, returns the hit for a `shock_choice`.
    pub(crate) fn push_mobile(
        &mut self,
        o: usize,
        d: HexDir,
        n: u8,
        ask: bool,
        ev: &mut Vec<Event>,
    ) -> Option<(usize, HexDir)> {
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
                    let turnable = self.is_lateral(t, dir)
                        && matches!(self.probe(self.pos(t), dir), Occ::Free);
                    if ask && turnable {
                        return Some((t, dir));
                    }
                    self.obstacle_hits_bot(t, dir, 0, ev);
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

    /// BB-8.3: an obstacle pushed into a bot: a normal shock, the bot pushed at most 1 cell
    /// (or turned 60° instead, `turn` ≠ 0); only the hit bot (and its chain) loses speed.
    pub(crate) fn obstacle_hits_bot(
        &mut self,
        t: usize,
        dir: HexDir,
        turn: i8,
        ev: &mut Vec<Event>,
    ) {
        let chain = self.chain(t, dir, 1);
        self.shock_chain(&chain, dir, 1, 0, &[turn], ev);
    }

    /// BB-8.2: at the end of the round every motorised obstacle turns 60°.
    pub(crate) fn turn_motors(&mut self, ev: &mut Vec<Event>) {
        for m in 0..self.obstacles.len() {
            if self.obstacles[m].kind == ObstacleKind::Motorised {
                self.turn_motor(m, ev);
            }
        }
    }

    fn turn_motor(&mut self, m: usize, ev: &mut Vec<Event>) {
        let o = self.obstacles[m];
        let steps = o.spin.steps();
        let arm = o.arm.turn(steps);
        // The common case: both cells the arms step onto are free; the arms just turn.
        if self.occupant(o.at.neighbour(arm)) == Occ::Free
            && self.occupant(o.at.neighbour(arm.opposite())) == Occ::Free
        {
            self.set_motor_arm(m, arm);
            ev.push(Event::MotorTurned { at: o.at, arms: [arm, arm.opposite()] });
            return;
        }
        // Each arm steps from its cell to the next one round the centre: an arm turning from
        // direction a to a+1 steps along a+2; from a to a-1, along a-2.
        let moves =
            [o.arm, o.arm.opposite()].map(|a| (o.at.neighbour(a.turn(steps)), a.turn(2 * steps)));
        let free = moves.iter().all(|&(cell, _)| self.occupant(cell) == Occ::Free);
        if !free && moves.iter().any(|&(cell, dir)| self.arm_blocked(cell, dir)) {
            for &(cell, _) in &moves {
                if let Occ::Bot(b) = self.occupant(cell) {
                    self.lose_speed(b, 2, ev);
                }
            }
            ev.push(Event::MotorBlocked { at: o.at });
            return;
        }
        if !free {
            for &(cell, dir) in &moves {
                self.arm_push(cell, dir, steps as i8, ev);
            }
        }
        self.set_motor_arm(m, o.arm.turn(steps));
        let arm = self.obstacles[m].arm;
        ev.push(Event::MotorTurned { at: o.at, arms: [arm, arm.opposite()] });
    }

    /// BB-8.2: the arm arriving on `cell` pushes what stands there 1 cell along `dir`. A line
    /// of bots moves as a whole (a decision: the chain rule of BB-7.6 would leave the first bot
    /// under the arm), a mobile obstacle at its end moves 1 cell too; every bot of the line
    /// loses 2; the bot the arm hit turns 60° in the arm's sense if the push is lateral.
    fn arm_push(&mut self, cell: Hex, dir: HexDir, spin: i8, ev: &mut Vec<Event>) {
        let mut line = Vec::new();
        let mut h = cell;
        let end = loop {
            match self.occupant(h) {
                Occ::Bot(b) if !line.contains(&b) => line.push(b),
                other => break other,
            }
            if self.board.wall(h, dir) {
                break Occ::Solid;
            }
            h = h.neighbour(dir);
        };
        if let Occ::Mobile(x) = end {
            let from = self.obstacles[x].at;
            self.move_obstacle(x, from.neighbour(dir));
            ev.push(Event::ObstacleMoved {
                kind: ObstacleKind::Mobile,
                from,
                to: from.neighbour(dir),
            });
        }
        let Some(&first) = line.first() else { return };
        let lateral = self.is_lateral(first, dir);
        for &b in line.iter().rev() {
            self.lose_speed(b, 2, ev);
            let from = self.pos(b);
            let to = self.step_bot(b, dir, ev);
            ev.push(Event::Pushed { seat: self.bots[b].seat, from, to });
        }
        if lateral {
            self.rotate(first, spin, ev);
        }
        for &b in line.iter().rev() {
            if let Some(a) = self.board.arrow(self.pos(b)) {
                self.throw(b, a, 1, ev);
            }
        }
    }

    /// BB-8.2: the arm arriving on `cell` cannot push what stands there: the line of bots (and
    /// the mobile obstacle) ends at a wall, a fixed obstacle, a bumper centre or an arm.
    fn arm_blocked(&self, cell: Hex, dir: HexDir) -> bool {
        let mut h = cell;
        loop {
            match self.occupant(h) {
                Occ::Solid => return true,
                Occ::Free => return false,
                Occ::Mobile(_) => return self.probe(h, dir) != Occ::Free,
                Occ::Bot(_) if self.board.wall(h, dir) => return true,
                Occ::Bot(_) => h = h.neighbour(dir),
            }
        }
    }
}
