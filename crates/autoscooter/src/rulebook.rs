//! The rules page and the context help of the client (`engine::rulebook`): AS-1 … AS-7 in a
//! newcomer's words, the table's badges and the variants. `docs/autoscooter.md` has every
//! rule in full; these texts are its short form, kept here beside the rules they explain.

use engine::rulebook::{Topic, TopicKind};

/// The topics of the rules page, in reading order.
pub fn rulebook() -> Vec<Topic> {
    use TopicKind::*;
    vec![
        Topic::rule(
            "AS-1",
            "The game in brief",
            "Autoscooter is a bumper-car game for 2 to 8 players. Each round every player \
             secretly chooses, for each of their cars, a turn number and a move letter. Then \
             the cars move one by one in the order of their numbers, and every crash moves \
             chits from one player to another. After 11 rounds the player with the most chits \
             wins.\n\nThe rink is a field of hexes surrounded by a barrier. Cars nobody drives \
             stay on their start spaces all game and are as hard as the barrier.",
        )
        .with_diagram("rink"),
        Topic::rule(
            "AS-2",
            "Turn numbers",
            "Every car has its own column of 11 turn numbers on the log sheet, and no two cars \
             share a number, so there are never ties. Each round you use one unused number per \
             car: low numbers move first. A low number lets you strike first; a high number \
             lets you see where the others went. Each number can be used only once per game.",
        ),
        Topic::rule(
            "AS-3",
            "Speeds and the car chart",
            "A car's speed is 0 (standing), 1, 2 or 3 hexes a round; every car starts \
             standing. The car chart has sixteen moves, A to P: A–E go one hex, F–O two hexes \
             and P three. Each move always starts straight ahead, then follows its path and \
             leaves the car facing the way the chart shows.\n\nSpeed changes by at most one \
             a round and a moving car cannot simply stop: at speed 1 you may choose A–O, at \
             speed 2 A–P, at speed 3 F–P.",
        )
        .with_diagram("chart"),
        Topic::rule(
            "AS-4",
            "Planning in secret",
            "Everyone plans at the same time: a number for each car and, for a car that is \
             moving, a letter. Nobody sees anything but who has finished until all have \
             committed; then all numbers are shown at once, and each letter when its car \
             moves. A letter not allowed at the car's speed becomes straight ahead.",
        ),
        Topic::rule(
            "AS-5",
            "Moving and crashing",
            "When its number comes up, a car follows its letter's path. If the path is free \
             it arrives and takes the move's speed. If the very first hex is blocked, it does \
             not move and crashes at its old speed. If a later hex is blocked, it stops in \
             the last free hex, facing the obstacle, and crashes at the new speed.\n\nA \
             standing car ignores its letter: when its number comes up its player moves it to \
             any free neighbouring hex, facing one of the five directions the one-hex moves \
             allow from the way it went, and it now has speed 1.",
        ),
        Topic::rule(
            "AS-5.5",
            "Crash types",
            "What a crash pays depends on the edge of the car that is hit. Front against a \
             moving car: the faster car's player takes the difference of the speeds and both \
             cars stop. Side of a moving car: the rammer's player takes the sum of the speeds, \
             the rammer goes on and the car hit turns 60° away. Rear of a moving car: the \
             rammer's player takes its own speed. A standing car: the rammer's player takes \
             its own speed and stops. The barrier or a car of nobody: the rammer's player pays \
             its own speed into the box and stops.",
        )
        .with_diagram("crashes"),
        Topic::rule(
            "AS-5.6",
            "Paying",
            "Bumping your own car costs the amount, paid into the box. Whoever owes more than \
             they hold pays what they have. Taking from the box gets what the box holds, up \
             to the amount.",
        ),
        Topic::rule(
            "AS-6",
            "The end",
            "After round 11 the game ends; the player with the most chits wins and tied \
             players share the place.",
        ),
        Topic::of(
            Variant,
            "variant:wild_car",
            "AS-7.1",
            "Wild car",
            "One car of nobody becomes the wild car: every player secretly gives it a letter, \
             and it moves last with the letter of the player whose own number was highest \
             this round. Chits it wins come from the box; chits it loses go to the box.",
        ),
        Topic::of(
            Variant,
            "variant:jolting",
            "AS-7.2",
            "Jolting",
            "A car rammed from behind is jolted one hex forward. If a car stands there, the \
             jolt passes along the line to the last car, and the crash is scored between the \
             rammer and that car. A car jolted into the barrier does not move and its player \
             pays twice: the rammer, then its own speed into the box.",
        ),
        Topic::of(
            Variant,
            "variant:colour_scoring",
            "AS-7.3",
            "Colour scoring",
            "Chits have the colours of the cars. Your score is your chits times the number of \
             colours you hold. Payments go chit by chit, always from the colour you hold most \
             of; when that leaves a choice, the taker chooses.",
        ),
        Topic::of(
            Variant,
            "variant:per_car_scoring",
            "AS-7.4",
            "Per-car scoring",
            "With colour scoring: each car keeps and scores its own chits; your score is your \
             best car's and the single best car wins.",
        ),
        Topic::of(
            Variant,
            "variant:beginners",
            "AS-1.3",
            "Beginners",
            "For two players: three cars each instead of four, so there is less to plan.",
        ),
        Topic::of(
            Badge,
            "badge:turn_number",
            "AS-2",
            "Turn number",
            "The number a car acts with this round: low numbers move first. Each car's column \
             holds 11 numbers and each can be used once.",
        ),
        Topic::of(
            Badge,
            "badge:speed",
            "AS-3.1",
            "Speed",
            "How many hexes the car moves a round: 0 (standing) to 3. It changes by at most \
             one a round, and the letters you may choose depend on it.",
        ),
        Topic::of(
            Badge,
            "badge:nobody",
            "AS-1.4",
            "Car of nobody",
            "A grey car belongs to no player: it stays on its start space all game and a car \
             that hits it crashes as into the barrier, paying its own speed into the box.",
        ),
        Topic::of(
            Badge,
            "badge:box",
            "AS-5.6",
            "The box",
            "The chits no player holds. Crashes into the barrier or your own cars are paid \
             into it.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_is_well_formed() {
        engine::rulebook::check(&rulebook(), "AS-").unwrap();
    }
}
