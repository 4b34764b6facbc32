//! The rules page and the context help of the client (`engine::rulebook`): RR-1 … RR-10 in a
//! newcomer's words, the board elements, the program cards and the 26 option cards with their
//! effect texts (`OptionCard::effect`). `docs/roborally.md` and `docs/roborally-options.md`
//! have every rule in full.

use crate::card::CardKind;
use crate::option::OptionCard;
use engine::rulebook::{Topic, TopicKind};

/// The player-facing name of an option card.
pub const fn option_title(o: OptionCard) -> &'static str {
    use OptionCard::*;
    match o {
        AblativeCoat => "Ablative Coat",
        AbortSwitch => "Abort Switch",
        Brakes => "Brakes",
        CircuitBreaker => "Circuit Breaker",
        ConditionalProgram => "Conditional Program",
        CrabLegs => "Crab Legs",
        DoubleBarreledLaser => "Double-Barreled Laser",
        DualProcessor => "Dual Processor",
        ExtraMemory => "Extra Memory",
        FireControl => "Fire Control",
        Flywheel => "Flywheel",
        FourthGear => "Fourth Gear",
        GyroscopicStabilizer => "Gyroscopic Stabilizer",
        HighPowerLaser => "High-Power Laser",
        MechanicalArm => "Mechanical Arm",
        MiniHowitzer => "Mini Howitzer",
        PowerDownShield => "Power-Down Shield",
        PressorBeam => "Pressor Beam",
        RadioControl => "Radio Control",
        RammingGear => "Ramming Gear",
        RearFiringLaser => "Rear-Firing Laser",
        Recompile => "Recompile",
        ReverseGear => "Reverse Gear",
        Scrambler => "Scrambler",
        SuperiorArchive => "Superior Archive",
        TractorBeam => "Tractor Beam",
    }
}

/// The program cards' names and what each does (RR-1.1, RR-5.2).
const fn program_card(k: CardKind) -> (&'static str, &'static str) {
    match k {
        CardKind::Uturn => ("U-turn", "The robot turns 180° where it stands."),
        CardKind::Left => ("Turn left", "The robot turns 90° to its left where it stands."),
        CardKind::Right => ("Turn right", "The robot turns 90° to its right where it stands."),
        CardKind::Backup => {
            ("Back up", "The robot moves one cell backwards without turning round.")
        }
        CardKind::Move1 => ("Move 1", "The robot moves one cell forward."),
        CardKind::Move2 => ("Move 2", "The robot moves two cells forward, one at a time."),
        CardKind::Move3 => ("Move 3", "The robot moves three cells forward, one at a time."),
    }
}

/// The topics of the rules page, in reading order.
pub fn rulebook() -> Vec<Topic> {
    use TopicKind::*;
    let mut t = vec![
        Topic::rule(
            "RR-1",
            "The game in brief",
            "Every player runs a robot across a factory floor full of conveyor belts, gears, \
             pits and lasers. The robot that touches all the flags in their numbered order \
             first wins. Each turn you secretly program five registers with cards from your \
             hand; then all robots run their registers together, one register at a time, and \
             the factory moves them too.",
        ),
        Topic::rule(
            "RR-3",
            "A turn",
            "A turn has five parts: cards are dealt; every player programs in secret (and \
             may announce a power down); the five registers are run one after another; then \
             the clean-up repairs robots and brings destroyed ones back.",
        ),
        Topic::rule(
            "RR-4",
            "Programming",
            "You are dealt nine cards, less one for each damage point. Put one card into each \
             of your five registers; the cards you do not use are discarded. Once sent, a \
             program is final.",
        ),
        Topic::rule(
            "RR-4.3",
            "The hourglass",
            "When every robot but one is programmed, the last player's clock starts (if the \
             game has a timer). When it runs out, the registers still empty are filled at \
             random from that player's hand; the cards already placed stay.",
        ),
        Topic::rule(
            "RR-4.4",
            "Powering down",
            "A damaged robot may announce a power down with its program. The next turn it \
             sits still and repairs all its damage, but it can still be pushed, moved by the \
             factory and shot.",
        ),
        Topic::rule(
            "RR-5",
            "Running a register",
            "All robots show the card in the register. They move one at a time, the highest \
             priority number first. A robot that walks into another pushes it along; a wall \
             stops both. A robot pushed or moved into a pit or off the board is destroyed.\n\n\
             Then the factory acts: express belts, then all belts, then pushers, then gears. \
             Then every laser fires, the board's and each robot's own forward laser. Finally \
             a robot standing on its next flag touches it.",
        )
        .with_diagram("legend"),
        Topic::rule(
            "RR-6",
            "Clean-up",
            "A robot ending the turn on a repair site or a flag repairs one damage point; on \
             a double repair site it also draws an option card. Cards not in locked registers \
             are discarded.",
        ),
        Topic::rule(
            "RR-7",
            "Damage",
            "Every damage point costs a card in the next deal. From five damage on, registers \
             lock from the last one backwards: a locked register keeps its card, turn after \
             turn, until the robot is repaired. A robot holding option cards may throw one \
             away to prevent a damage point.",
        ),
        Topic::rule(
            "RR-8",
            "Destruction and lives",
            "A robot is destroyed by its tenth damage point, by a pit or by leaving the board. \
             It loses a life (three in all) and, if it holds option cards, gives one up. At the \
             clean-up it comes back on its archive marker (the last flag or repair site it \
             touched) with two damage, facing the way its player chooses.",
        ),
        Topic::rule(
            "RR-10",
            "Winning",
            "The first robot to touch its last flag wins at once. If every robot is out of \
             lives, nobody wins.",
        ),
    ];
    let el = |key: &str, rule, title: &str, text: &str| Topic::of(Element, key, rule, title, text);
    t.extend([
        el(
            "element:repair",
            "RR-6.1",
            "Repair site",
            "A robot ending the turn here repairs one damage point, and its archive moves \
             here.",
        ),
        el(
            "element:repair_option",
            "RR-6.1",
            "Double repair site",
            "A robot ending the turn here repairs one damage point and draws an option card.",
        ),
        el(
            "element:belt",
            "RR-5.3",
            "Conveyor belt",
            "After the robots' moves, moves a robot on it one cell the way the arrow points. \
             A robot carried onto a bend turns with the belt.",
        ),
        el(
            "element:express",
            "RR-5.3",
            "Express belt",
            "Moves a robot one cell before the normal belts move, then one more with them: \
             two cells each register.",
        ),
        el(
            "element:pusher",
            "RR-5.3",
            "Pusher",
            "In the registers numbered on it, pushes a robot in front of it one cell away \
             from the wall.",
        ),
        el(
            "element:gear",
            "RR-5.3",
            "Gear",
            "Turns a robot standing on it 90° the way its arrow shows, at the end of each \
             register.",
        ),
        el("element:pit", "RR-8.1", "Pit", "A robot that enters a pit is destroyed."),
        el(
            "element:laser",
            "RR-5.4",
            "Board laser",
            "Fires every register: the first robot in the beam takes one damage point per \
             beam. Walls and robots stop it.",
        ),
        el(
            "element:wall",
            "RR-5.2",
            "Wall",
            "Robots cannot move or be pushed through a wall, and lasers stop at it.",
        ),
        el(
            "element:flag",
            "RR-5.5",
            "Flag",
            "Touch the flags in their numbered order by ending a register on them. A flag \
             also repairs and moves your archive like a repair site.",
        ),
        el(
            "element:dock",
            "RR-3",
            "Start dock",
            "Robots start here, robot 1 on dock 1; it is the first archive marker.",
        ),
        el(
            "element:robot",
            "RR-5.4",
            "Robot",
            "The arrow shows where the robot faces: it moves that way and its laser fires \
             that way.",
        ),
        Topic::of(
            Badge,
            "badge:damage",
            "RR-7",
            "Damage",
            "Damage points: each costs a card in the next deal; from five on, registers lock.",
        ),
        Topic::of(
            Badge,
            "badge:lives",
            "RR-8.2",
            "Lives",
            "A destroyed robot loses a life; with none left it is out of the game.",
        ),
        Topic::of(
            Badge,
            "badge:locked",
            "RR-7.2",
            "Locked register",
            "A damaged robot's last registers lock: they keep their card until repaired.",
        ),
        Topic::of(
            Variant,
            "variant:lives4",
            "RR-1.2",
            "Four lives",
            "Each robot has four lives instead of three.",
        ),
        Topic::of(
            Variant,
            "variant:full_ranking",
            "RR-10",
            "Full ranking",
            "Play on after the winner until every robot has finished or is out; the others \
             are ranked by finish order, flags touched and distance to the next flag.",
        ),
    ]);
    for k in CardKind::ALL {
        let (title, text) = program_card(k);
        t.push(Topic::of(Card, format!("card:{}", serde_name(k)), "RR-5.2", title, text));
    }
    for o in OptionCard::ALL {
        let key = serde_name(o);
        t.push(Topic::of(Card, format!("option:{key}"), "RR-9", option_title(o), o.effect()));
    }
    t
}

/// A card's name as the game serialises it (`abort_switch`, `move1`): the key the views,
/// events and actions use, so the client finds the topic by what it is sent.
fn serde_name(x: impl serde::Serialize) -> String {
    match serde_json::to_value(x) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_is_well_formed() {
        engine::rulebook::check(&rulebook(), "RR-").unwrap();
    }

    #[test]
    fn every_card_has_a_topic_under_its_wire_name() {
        let t = rulebook();
        for o in OptionCard::ALL {
            // The name the views and actions use, by serde: the key the client looks up.
            let wire = serde_json::to_value(o).unwrap();
            let key = format!("option:{}", wire.as_str().unwrap());
            let topic = t.iter().find(|x| x.key == key).expect("an option card topic");
            assert_eq!(topic.text, o.effect());
        }
        for k in CardKind::ALL {
            let wire = serde_json::to_value(k).unwrap();
            assert!(t.iter().any(|x| x.key == format!("card:{}", wire.as_str().unwrap())));
        }
    }
}
