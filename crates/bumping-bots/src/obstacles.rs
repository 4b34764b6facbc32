//! BB-8.1–8.3 obstacles: fixed (solid, see `state::occupant`), mobile, motorised.

use crate::movement::Step;
use crate::state::{BumpingBots, Occ, PendingShock, Phase};
use crate::track::ObstacleKind;
use crate::Event;
use grid::{Hex, HexDir};

impl BumpingBots {
    /// BB-8.3: the active bot ran into mobile obstacle `o` along `d`.
    pub(crate) fn mobile_shock(&mut self, a: usize, o: usize, d: HexDir, ev: &mut Vec<Event>) -> Step {
        let at = self.pos(a);
        ev.push(Event::Collision { seat: self.bots[a].seat, at, against: "mobile" });
        self.drop_rotations();
        let t = self.turn.as_mut().expect("a turn");
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
            let chain = self.chain_from_pub(b, d, push);
            self.shock_chain(&chain, d, push, 0, &[], ev);
            self.push_mobile(o, d.turn(2), push, false, ev);
            return Step::Continue;
        }
        if let Some((target, dir)) = self.push_mobile(o, d, speed, true, ev) {
            self.phase = Phase::Shock(PendingShock::Obstacle { target, dir });
            return Step::Wait;
        }
        Step::Continue
    }

    pub(crate) fn chain_from_pub(&self, first: usize, d: HexDir, push: u8) -> Vec<usize> {
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
    pub(crate) fn push_mobile(&mut self, o: usize, d: HexDir, n: u8, ask: bool, ev: &mut Vec<Event>) -> Option<(usize, HexDir)> {
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
                    let turnable = self.is_lateral(t, dir) && matches!(self.probe(self.pos(t), dir), Occ::Free);
                    if ask && turnable {
                        return Some((t, dir));
                    }
                    self.obstacle_hits_bot(t, dir, 0, ev);
                    break;
                }
                Occ::Free => {
                    let to = from.neighbour(dir);
                    self.obstacles[o].at = to;
                    ev.push(Event::ObstacleMoved { kind: ObstacleKind::Mobile, from, to });
                    n -= 1;
                }
            }
        }
        None
    }

    /// BB-8.3: an obstacle pushed into a bot: a normal shock, the bot pushed at most 1 cell
    /// (or turned 60° instead, `turn` ≠ 0); only the hit bot (and its chain) loses speed.
    pub(crate) fn obstacle_hits_bot(&mut self, t: usize, dir: HexDir, turn: i8, ev: &mut Vec<Event>) {
        let chain = self.chain_from_pub(t, dir, 1);
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
        let moves: Vec<(Hex, HexDir)> = [o.arm, o.arm.opposite()]
            .iter()
            .map(|&a| {
                let (old, new) = (o.at.neighbour(a), o.at.neighbour(a.turn(steps)));
                (new, old.direction_to(new).expect("neighbouring arm cells"))
            })
            .collect();
        let blocked = moves.iter().any(|&(cell, dir)| self.arm_blocked(cell, dir));
        if blocked {
            for &(cell, _) in &moves {
                if let Occ::Bot(b) = self.occupant(cell) {
                    self.lose_speed(b, 2, ev);
                }
            }
            ev.push(Event::MotorBlocked { at: o.at });
            return;
        }
        for &(cell, dir) in &moves {
            match self.occupant(cell) {
                Occ::Bot(b) => {
                    let lateral = self.is_lateral(b, dir);
                    let chain = self.chain_from_pub(b, dir, 1);
                    self.shock_chain(&chain, dir, 1, 0, &[], ev);
                    if lateral {
                        self.rotate(b, steps as i8, ev);
                    }
                }
                Occ::Mobile(x) => {
                    self.push_mobile(x, dir, 1, false, ev);
                }
                _ => {}
            }
        }
        self.obstacles[m].arm = o.arm.turn(steps);
        let arm = self.obstacles[m].arm;
        ev.push(Event::MotorTurned { at: o.at, arms: [arm, arm.opposite()] });
    }

    /// BB-8.2: the arm arriving on `cell` cannot push what stands there (a wall, a fixed
    /// obstacle or a bumper centre at the end of the chain of bots).
    fn arm_blocked(&self, cell: Hex, dir: HexDir) -> bool {
        match self.occupant(cell) {
            Occ::Solid => true,
            Occ::Free | Occ::Mobile(_) => false,
            Occ::Bot(b) => {
                let mut h = self.pos(b);
                loop {
                    match self.probe(h, dir) {
                        Occ::Solid => return true,
                        Occ::Bot(n) => h = self.pos(n),
                        _ => return false,
                    }
                }
            }
        }
    }
}
