//! RR-11 "State output": the `state` object a scenario prints (omniscient).

use crate::RoboRally;
use serde_json::{Value, json};

impl RoboRally {
    /// The `state` object of RR-11, plus a few extra fields (registers, options, finished).
    pub fn scenario_state(&self) -> Value {
        let robots: Vec<Value> = self
            .robots
            .iter()
            .map(|r| {
                json!({
                    "seat": r.seat,
                    "at": r.cell(),
                    "facing": r.facing,
                    "damage": r.damage,
                    "lives": r.lives,
                    "flags_touched": r.flags_touched,
                    "archive": r.archive,
                    "powered_down": r.powered_down,
                    "destroyed": r.destroyed || r.out,
                    "out": r.out,
                    "locked_registers": r.locked_registers(),
                    "hand_size": r.hand_size,
                    "finished": r.finished,
                    "registers": r.registers,
                    "options": r.options,
                    "option_state": r.opt,
                    "stash": r.stash,
                })
            })
            .collect();
        json!({
            "robots": robots,
            "register": self.register(),
            "winner": self.winner,
            "turn": self.turn,
            "phase": self.phase_name(),
            "draw_pile": self.deck.draw.len(),
            "discard_pile": self.deck.discard.len(),
            "option_deck": self.option_deck.len(),
            "option_discards": self.option_discard,
            // The option question owed now (RR-7.4, RR-8.2, RR-9), `robot` = its seat.
            "question": self.pending.front(),
        })
    }
}
