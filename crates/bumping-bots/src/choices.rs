//! What the seat that owes a decision may choose now, in the form a table turns into controls
//! directly (issue 21 item 3), and the engine's preview of a move (item 4).
//!
//! **The listing.** [`choices`] lists, for the owing seat only, every action `apply` accepts now:
//! each as the exact action to send. Two decisions are *factored* instead of listed one by one,
//! because their listing runs to hundreds: the quick rotation card (BB-9.5: up to 3 rotations at
//! distinct points, [`QuickRotationChoice`]) and the shock (BB-7.4/7.6: one entry per push cell,
//! [`Choices::Shock`]). Every listed choice is accepted and every accepted action is listed
//! (`tests/choices.rs`, on random positions of seeded races).
//!
//! **The preview.** [`preview`] plays the seat's own choice on a copy of the race up to the end
//! of its bot's move and reports where the bot goes, what it hits and where it stops. During a
//! bot's move no other bot acts (BB-4: one bot at a time), so the other bots "stay put" except
//! where this move pushes them; the questions the move may still ask the same seat (a shock's
//! push or turn, the orientation after a collision, the end-of-move Magnet) are assumed answered
//! by the rules' default (push, no turn, no Magnet), and the preview says so (`assumed`). The
//! move's resolution uses no chance and reads no other seat's secret (their unused cards play no
//! part in it): the preview is a function of the public position and the seat's own choice
//! (checked by `tests/choices.rs` and by the conformance suite, which compares views when the
//! other seats' cards are scrambled).

use crate::cards::Card;
use crate::speed::SpeedChoice;
use crate::state::{BumpingBots, Phase, QuickRot, TurnStep};
use crate::{Action, Event};
use engine::{Game, Seat};
use grid::{Hex, HexDir};
use serde::Serialize;

/// The decision owed now and every choice `apply` accepts for it (see the module docs).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choices {
    /// BB-3 `choose_cards`: the cards this seat may still pick.
    Pick { actions: Vec<Action> },
    /// BB-5 and the cards played before the speed (BB-9).
    Speed {
        /// Each speed choice the rules allow now, with the speed it gives and the preview of
        /// the move at that speed without rotations.
        speeds: Vec<SpeedOption>,
        /// Every card play the bot may make now, except the quick rotation (below).
        cards: Vec<Action>,
        /// The quick rotation card, when the bot may play it now.
        #[serde(skip_serializing_if = "Option::is_none")]
        quick_rotation: Option<QuickRotationChoice>,
    },
    /// BB-6: the move's rotations, each allowed pair with its preview.
    Move { cells: u8, moves: Vec<MoveOption> },
    /// BB-7.4/7.6/8.3: `turn_passive` has exactly `turn_cells` entries, each one of `turns`;
    /// `turn_first` is one of `turns` when `turn_first` names a bot, else 0.
    Shock {
        pushed: Seat,
        turn_cells: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        turn_first: Option<Seat>,
        turns: [i8; 3],
    },
    /// BB-7.1: turn once after a collision (or not).
    Orient { actions: Vec<Action> },
    /// BB-9.2 at the end of the move: decline (`card: null`) or pull towards a listed bot.
    Magnet { actions: Vec<Action> },
}

/// One speed choice (BB-5).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SpeedOption {
    pub action: Action,
    /// The speed and direction this choice gives.
    pub speed: u8,
    pub reverse: bool,
    /// The move at this speed with no rotation (`None` when the move cannot be previewed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Preview>,
}

/// One move (BB-6) with its preview.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveOption {
    pub action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Preview>,
}

/// BB-9.5 quick rotations, factored: 1 to `most` rotations of ±60° (`turn` −1 or 1), at
/// distinct points taken from `points`, listed in increasing `at_cell`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct QuickRotationChoice {
    pub most: u8,
    pub points: Vec<u8>,
}

impl QuickRotationChoice {
    /// Every `rotations` list this factored form allows, in a fixed order.
    pub fn expand(&self) -> Vec<Vec<QuickRot>> {
        let mut out = Vec::new();
        let mut stack = Vec::new();
        fn grow(
            c: &QuickRotationChoice,
            from: usize,
            stack: &mut Vec<QuickRot>,
            out: &mut Vec<Vec<QuickRot>>,
        ) {
            if stack.len() == c.most as usize {
                return;
            }
            for i in from..c.points.len() {
                for turn in [-1, 1] {
                    stack.push(QuickRot { at_cell: c.points[i], turn });
                    out.push(stack.clone());
                    grow(c, i + 1, stack, out);
                    stack.pop();
                }
            }
        }
        grow(self, 0, &mut stack, &mut out);
        out
    }
}

/// A previewed move: see the module docs for what is assumed. When the bot is the round's last
/// to move, the end of the round follows at once and is included (a motorised obstacle's arm
/// pushing it, BB-8.2): `end` is where the bot stands when the next bot's turn begins.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Preview {
    /// Every place the bot is in, in order, from its start: each cell entered (`how`: `move`,
    /// `leap`, `pushed`, `thrown`, `magnet`) and each turn (`turn`), with the facing after it.
    pub path: Vec<PathStep>,
    /// Where the bot stops (`None`: it finished and left the track, BB-10) and its facing.
    pub end: Option<Hex>,
    pub facing: HexDir,
    /// Its speed after the move (collisions lose speed, BB-7).
    pub speed: u8,
    /// What it runs into on the way: walls, obstacles, bots, bumpers.
    pub hits: Vec<Hit>,
    /// Other bots this move pushes, and where they end up.
    pub pushes: Vec<Push>,
    /// It finishes the race with this move.
    pub finishes: bool,
    /// Questions on the way assumed answered by the rules' default: `shock_choice` (push),
    /// `orient` (no turn), `magnet` (not played).
    pub assumed: Vec<&'static str>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PathStep {
    pub at: Hex,
    pub facing: HexDir,
    pub how: &'static str,
}

/// A collision: `against` is `wall`, `obstacle`, `mobile`, `bot` or `bumper` (a throw, BB-8.4).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Hit {
    pub at: Hex,
    pub against: &'static str,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Push {
    pub seat: Seat,
    pub to: Hex,
}

/// Does `apply` accept `a` from `seat` now? Tried on a copy.
fn accepted(g: &BumpingBots, seat: Seat, a: &Action) -> bool {
    g.clone().apply(seat, a, &mut Vec::new()).is_ok()
}

/// The choices of `seat` now, or `None` when it owes nothing (see the module docs).
pub fn choices(g: &BumpingBots, seat: Seat) -> Option<Choices> {
    if g.owing() != Some(seat) {
        return None;
    }
    let ok = |a: &Action| accepted(g, seat, a);
    let t = match &g.phase {
        Phase::Pick(_) => {
            let actions = Card::ALL
                .into_iter()
                .map(|c| Action::Card {
                    card: Some(c),
                    target: None,
                    when: None,
                    at_cell: None,
                    rotations: vec![],
                })
                .filter(ok)
                .collect();
            return Some(Choices::Pick { actions });
        }
        Phase::Turn(t) => t,
        Phase::Over => return None,
    };
    Some(match &t.step {
        TurnStep::Speed => {
            let mut speeds = Vec::new();
            for choice in SpeedChoice::ALL {
                let news: &[Option<u8>] =
                    if choice == SpeedChoice::Reverse { &[Some(1), Some(2)] } else { &[None] };
                for &new_speed in news {
                    let Ok((speed, reverse)) =
                        crate::speed::speed_after(&g.bots[t.bot], choice, new_speed)
                    else {
                        continue;
                    };
                    let action = Action::Speed { choice, new_speed };
                    if ok(&action) {
                        let preview = preview(g, seat, &action);
                        speeds.push(SpeedOption { action, speed, reverse, preview });
                    }
                }
            }
            let (cards, quick_rotation) = card_choices(g, seat);
            Choices::Speed { speeds, cards, quick_rotation }
        }
        TurnStep::Move => {
            let mut moves = Vec::new();
            for rotate_before_last in -1..=1 {
                for rotate_after in -1..=1 {
                    let action = Action::Move { rotate_before_last, rotate_after };
                    if ok(&action) {
                        let preview = preview(g, seat, &action);
                        moves.push(MoveOption { action, preview });
                    }
                }
            }
            Choices::Move { cells: g.move_cells(t, t.bot), moves }
        }
        TurnStep::Shock(p) => {
            let pushed = *p.chain.last().expect("a chain");
            let first = p.first_choice.then(|| g.bots[p.chain[0]].seat);
            Choices::Shock {
                pushed: g.bots[pushed].seat,
                turn_cells: p.turn_cells() as u8,
                turn_first: first,
                turns: [-1, 0, 1],
            }
        }
        TurnStep::Orient => Choices::Orient {
            actions: [-1, 0, 1]
                .map(|turn| Action::Orient { turn })
                .into_iter()
                .filter(ok)
                .collect(),
        },
        TurnStep::Magnet => {
            let mut actions = vec![Action::Card {
                card: None,
                target: None,
                when: None,
                at_cell: None,
                rotations: vec![],
            }];
            actions.extend(g.bots.iter().map(|b| Action::Card {
                card: Some(Card::Magnet),
                target: Some(b.seat),
                when: Some(crate::When::End),
                at_cell: None,
                rotations: vec![],
            }));
            Choices::Magnet { actions: actions.into_iter().filter(ok).collect() }
        }
        _ => return None,
    })
}

/// The card plays before the speed (BB-9): listed, except the quick rotation (factored).
fn card_choices(g: &BumpingBots, seat: Seat) -> (Vec<Action>, Option<QuickRotationChoice>) {
    let play = |card, target, when, at_cell, rotations| Action::Card {
        card: Some(card),
        target,
        when,
        at_cell,
        rotations,
    };
    let ok = |a: &Action| accepted(g, seat, a);
    let Phase::Turn(t) = &g.phase else { return (vec![], None) };
    let b = &g.bots[t.bot];
    let mut cards = Vec::new();
    let mut quick = None;
    let mut kinds = b.cards.clone();
    kinds.sort();
    kinds.dedup();
    // Bounds wider than any the rules allow: the listing is filtered by `apply` itself.
    let most_cells = g.max_move_cells(t.bot);
    for card in kinds {
        match card {
            Card::Nitro | Card::Engine => cards.push(play(card, None, None, None, vec![])),
            Card::Jumper => {
                cards.extend((0..=most_cells).map(|k| play(card, None, None, Some(k), vec![])))
            }
            Card::Magnet => cards.extend(
                g.bots
                    .iter()
                    .map(|o| play(card, Some(o.seat), Some(crate::When::Start), None, vec![])),
            ),
            Card::Rotation => {
                let points: Vec<u8> = (0..=most_cells)
                    .filter(|&p| {
                        ok(&play(card, None, None, None, vec![QuickRot { at_cell: p, turn: 1 }]))
                    })
                    .collect();
                if !points.is_empty() {
                    // How many rotations at once: the longest run of distinct points accepted.
                    let mut most = 1u8;
                    while (most as usize) < points.len() {
                        let rots = points[..=most as usize]
                            .iter()
                            .map(|&at_cell| QuickRot { at_cell, turn: 1 })
                            .collect();
                        if !ok(&play(card, None, None, None, rots)) {
                            break;
                        }
                        most += 1;
                    }
                    quick = Some(QuickRotationChoice { most, points });
                }
            }
        }
    }
    cards.retain(ok);
    (cards, quick)
}

/// The engine's preview of `seat` playing `action` (a speed choice, then a move without
/// rotations; or a move): see the module docs. `None` when it is not the seat's speed or move
/// decision, or the action is refused.
pub fn preview(g: &BumpingBots, seat: Seat, action: &Action) -> Option<Preview> {
    let Phase::Turn(t) = &g.phase else { return None };
    if !matches!(t.step, TurnStep::Speed | TurnStep::Move) || g.owing() != Some(seat) {
        return None;
    }
    let (bot, round, cursor) = (t.bot, g.round, g.cursor);
    let mut sim = g.clone();
    let mut ev = Vec::new();
    sim.apply(seat, action, &mut ev).ok()?;
    if matches!(action, Action::Speed { .. }) {
        sim.apply(seat, &Action::Move { rotate_before_last: 0, rotate_after: 0 }, &mut ev).ok()?;
    }
    let mut assumed = Vec::new();
    // The same seat's questions during this same turn: the rules' defaults (`time_up`). A turn
    // asks a bounded number of them; the bound only guards the loop.
    for _ in 0..64 {
        let same_turn = sim.round == round
            && sim.cursor == cursor
            && matches!(&sim.phase, Phase::Turn(t) if t.bot == bot);
        if !same_turn || sim.owing() != Some(seat) {
            break;
        }
        assumed.push(sim.phase.name());
        sim.time_up(&mut ev).ok()?;
    }
    let b0 = &g.bots[bot];
    let mut facing = b0.facing;
    let mut path = vec![PathStep { at: b0.at?, facing, how: "start" }];
    let (mut hits, mut pushes, mut finishes) = (Vec::new(), Vec::<Push>::new(), false);
    let at = |p: &Vec<PathStep>| p.last().map(|s| s.at);
    for e in &ev {
        match *e {
            // The next round: what follows is no longer this turn. (When this bot is the
            // round's last, the end of the round comes first: a motorised obstacle's arm may
            // still push it, BB-8.2, and the preview shows that push too.)
            Event::RoundStarted { .. } => break,
            Event::Moved { seat: s, to, .. } if s == seat => {
                path.push(PathStep { at: to, facing, how: "move" })
            }
            Event::Leapt { seat: s, to, .. } if s == seat => {
                path.push(PathStep { at: to, facing, how: "leap" })
            }
            Event::Pushed { seat: s, to, .. } if s == seat => {
                path.push(PathStep { at: to, facing, how: "pushed" })
            }
            Event::Pushed { seat: s, to, .. } => match pushes.iter_mut().find(|p| p.seat == s) {
                Some(p) => p.to = to,
                None => pushes.push(Push { seat: s, to }),
            },
            Event::Thrown { seat: s, from, to } if s == seat => {
                hits.push(Hit { at: from, against: "bumper" });
                path.push(PathStep { at: to, facing, how: "thrown" });
            }
            Event::Magnet { seat: s, to, .. } if s == seat => {
                path.push(PathStep { at: to, facing, how: "magnet" })
            }
            Event::Turned { seat: s, facing: f } if s == seat => {
                facing = f;
                let here = at(&path)?;
                path.push(PathStep { at: here, facing, how: "turn" });
            }
            Event::Collision { seat: s, at, against } if s == seat => {
                hits.push(Hit { at, against })
            }
            Event::Finished { seat: s } if s == seat => finishes = true,
            _ => {}
        }
    }
    let b = &sim.bots[bot];
    Some(Preview {
        end: if finishes { None } else { b.at },
        facing: b.facing,
        speed: b.speed,
        path,
        hits,
        pushes,
        finishes,
        assumed,
    })
}
