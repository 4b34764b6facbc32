//! The rules page and the context help of the client (`engine::rulebook`): BB-1 … BB-11 in a
//! newcomer's words, the obstacles and bumpers, and the five tuning cards with their effects.
//! `docs/bumping-bots.md` has every rule in full.

use crate::cards::Card as Tuning;
use crate::settings::DEFAULT_CELLS_PER_SPEED;
use crate::track::ObstacleKind;
use engine::rulebook::{Topic, TopicKind};

/// A tuning card's player-facing name and effect (BB-9).
pub const fn card_text(c: Tuning) -> (&'static str, &'static str) {
    match c {
        Tuning::Jumper => (
            "Jumper",
            "Leap during your move: the further back in the race you are, the longer the leap \
             (1 to 3 cells in the air). Leading bots get one extra cell on the ground instead.",
        ),
        Tuning::Magnet => (
            "Magnet",
            "At the start or the end of your move, pull yourself next to a bot in one of the \
             six lines from you, 2 to 5 cells away depending on your race position, with \
             nothing in between.",
        ),
        Tuning::Nitro => (
            "Nitro",
            "Speed up by one and rush straight on 1 to 4 extra cells (more when you are \
             further back). Not in the first round, not in reverse, not at top speed.",
        ),
        Tuning::Engine => (
            "Boosted engine",
            "For 1 to 4 rounds (more when you are further back), every move takes one more \
             cell.",
        ),
        Tuning::Rotation => (
            "Quick rotation",
            "Turn 60° at chosen points of your move: the two leaders one turn at the very \
             start, third and fourth one turn anywhere, further back up to two or three. It \
             replaces the move's own rotation.",
        ),
    }
}

fn obstacle_text(k: ObstacleKind) -> (&'static str, &'static str, &'static str) {
    match k {
        ObstacleKind::Fixed => (
            "BB-8.1",
            "Fixed obstacle",
            "As hard as a wall: a bot running into it stops on the cell before and loses 2 speed.",
        ),
        ObstacleKind::Motorised => (
            "BB-8.2",
            "Motorised obstacle",
            "Its arms turn 60° round the centre at the end of every round, the way its arrow \
             shows. A bot where an arm arrives is pushed one cell and loses 2 speed.",
        ),
        ObstacleKind::Mobile => (
            "BB-8.3",
            "Mobile obstacle",
            "A bot that hits it pushes it as many cells as its chosen speed, loses 1 speed and \
             goes on with half of the cells left.",
        ),
        ObstacleKind::Bumper => (
            "BB-8.4",
            "Bumper",
            "A bot entering one of its six arrow cells stops and is thrown along the arrow: one \
             cell at speed 1–3, two at 4–6, losing 2 speed per throw.",
        ),
    }
}

/// The topics of the rules page, in reading order.
pub fn rulebook() -> Vec<Topic> {
    use TopicKind::*;
    let cells = DEFAULT_CELLS_PER_SPEED
        .iter()
        .enumerate()
        .map(|(i, c)| format!("speed {} → {c}", i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    let mut t = vec![
        Topic::rule(
            "BB-1",
            "The game in brief",
            "A race of robot cars round a hex track. Bots take their turns one at a time in \
             race order: the leader first. On your turn you choose a speed, then move, turning \
             at most once. Hitting walls, obstacles and other bots costs speed. The first bot \
             across the line after its last lap wins.",
        )
        .with_diagram("track"),
        Topic::rule(
            "BB-2",
            "Race order and laps",
            "At the start of each round the bots are ordered: finished bots first, then more \
             laps, then further along the lap, then the inner lane. The first forward crossing \
             of the line after the grid starts the race; each later one completes a lap. \
             Crossing it backwards undoes a lap.",
        ),
        Topic::rule(
            "BB-5",
            "Choosing your speed",
            "Keep your speed, speed up by one (up to 6 forward, 3 in reverse), jump from 1 \
             straight to 3, slow down by one (never below 1) or change direction at speed 1 \
             or 2. After a change of direction you may only keep the speed or change \
             direction again on your next turn.",
        ),
        Topic::rule(
            "BB-6",
            "Moving",
            &format!(
                "The speed says how many cells you move: {cells}. The first cell is always \
                 straight ahead. Forward you may turn 60° once: before the last cell or after \
                 it. In reverse you may turn once before and once after."
            ),
        ),
        Topic::rule(
            "BB-7",
            "Shocks",
            "Running into a wall, off the track or into an obstacle stops the bot on the last \
             free cell and costs it 2 speed (never below 1); it may then turn once. Running \
             into a bot is a shock for both: each loses 2 speed and the bot hit is pushed.",
        )
        .with_diagram("track"),
        Topic::rule(
            "BB-7.3",
            "Push distances",
            "How far a bot hit is pushed depends on the speed the rammer chose this turn: not \
             at all at speed 1–2, one cell at 3–4, two cells at 5–6. Bots wedged one behind \
             the other all lose speed and the last one is pushed. Hit from the side at speed \
             4 or more, the rammer may turn the bot hit instead of pushing it.",
        ),
        Topic::rule(
            "BB-9",
            "Tuning cards",
            "Each bot holds a few tuning cards; one may be played at the start of a turn, \
             before the speed. The further back in the race you are, the stronger the card's \
             effect.",
        ),
        Topic::rule(
            "BB-10",
            "The finish",
            "A bot finishes when it crosses the line after its last lap. Bots finishing in \
             the same round are ranked by how far past the line they got, then by speed.",
        ),
        Topic::rule(
            "BB-11",
            "Championships and teams",
            "A championship is several races; each place earns points, and the bots with the \
             fewest points choose their grid places first for the next race. In teams, a pair \
             scores its better bot.",
        ),
        Topic::of(
            Variant,
            "variant:choose_cards",
            "BB-3",
            "Choose tuning cards",
            "Players pick their tuning cards, one at a time, instead of drawing them.",
        ),
        Topic::of(
            Variant,
            "variant:laps",
            "BB-3",
            "Short race",
            "One lap instead of the track's own number of laps: a quick first race.",
        ),
        Topic::of(
            Badge,
            "badge:speed",
            "BB-5",
            "Speed",
            "The bot's speed marker: forward 1–6, reverse 1–3. It sets how many cells it \
             moves and how far it pushes.",
        ),
        Topic::of(
            Element,
            "element:line",
            "BB-2.3",
            "Start and finish line",
            "Crossing it forwards completes a lap; crossing it backwards undoes one.",
        ),
    ];
    for k in
        [ObstacleKind::Fixed, ObstacleKind::Motorised, ObstacleKind::Mobile, ObstacleKind::Bumper]
    {
        let (rule, title, text) = obstacle_text(k);
        t.push(Topic::of(Element, format!("element:{}", k.name()), rule, title, text));
    }
    for c in Tuning::ALL {
        let (title, text) = card_text(c);
        let key = match serde_json::to_value(c) {
            Ok(serde_json::Value::String(s)) => s,
            _ => String::new(),
        };
        t.push(Topic::of(Card, format!("card:{key}"), "BB-9", title, text));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_is_well_formed() {
        engine::rulebook::check(&rulebook(), "BB-").unwrap();
    }

    #[test]
    fn every_tuning_card_and_obstacle_has_a_topic() {
        let t = rulebook();
        for c in Tuning::ALL {
            let wire = serde_json::to_value(c).unwrap();
            assert!(t.iter().any(|x| x.key == format!("card:{}", wire.as_str().unwrap())));
        }
        for k in ["fixed", "motorised", "mobile", "bumper"] {
            assert!(t.iter().any(|x| x.key == format!("element:{k}")));
        }
    }
}
