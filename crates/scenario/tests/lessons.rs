//! The shipped lessons ("Learn to play", docs/lessons.md): each goal is reachable by the file's
//! `solution` (actions written from the rules the lesson cites) and a wrong try (`mistake`)
//! does not reach it; the lesson then says it failed. Checked through the scenario runner, on
//! the engine's own position.

use scenario::lessons::{self, LessonError, Status};
use serde_json::Value;

fn play(lesson: &lessons::Lesson, actions: &[Value]) -> (Value, i32) {
    let file = lesson.scenario_with(actions);
    let out = scenario::run(file.to_string().as_bytes()).expect("a lesson is a scenario file");
    (serde_json::from_str(&out.stdout).expect("JSON"), out.exit)
}

fn status(lesson: &lessons::Lesson, actions: &[Value]) -> Status {
    let (out, exit) = play(lesson, actions);
    assert_eq!(
        exit, 0,
        "{} {}: every action is legal: {}",
        lesson.game, lesson.number, out["error"]
    );
    let over = out["phase"] == "over";
    lesson.status(&out, over)
}

#[test]
fn every_lesson_is_playing_at_its_start() {
    for l in lessons::all() {
        assert_eq!(status(l, &[]), Status::Playing, "{} {}", l.game, l.number);
    }
}

#[test]
fn every_lessons_solution_reaches_its_goal() {
    for l in lessons::all() {
        assert!(!l.solution.is_empty(), "{} {} has a solution", l.game, l.number);
        match status(l, &l.solution) {
            Status::Complete { message } => assert_eq!(message, l.complete),
            other => panic!("{} {} ({}): the solution gives {other:?}", l.game, l.number, l.title),
        }
    }
}

#[test]
fn a_wrong_move_does_not_reach_the_goal_and_says_why() {
    for l in lessons::all() {
        match status(l, &l.mistake) {
            Status::Failed { message } => assert!(!message.is_empty()),
            other => panic!("{} {} ({}): the mistake gives {other:?}", l.game, l.number, l.title),
        }
    }
}

#[test]
fn each_game_has_three_to_five_lessons_with_words_and_hints() {
    for game in ["roborally", "autoscooter", "bumping-bots"] {
        let list = lessons::of_game(game);
        assert!((3..=5).contains(&list.len()), "{game}: {} lessons", list.len());
        for (i, l) in list.iter().enumerate() {
            assert_eq!(l.number, i + 1);
            assert!(!l.intro.is_empty() && !l.goal.is_empty() && !l.hints.is_empty());
            // The introduction cites the rules it teaches.
            for r in &l.rules {
                assert!(
                    l.intro.contains(r.as_str())
                        || l.hints.iter().any(|h| h.text.contains(r.as_str()))
                        || l.why.contains(r.as_str()),
                    "{game} {}: {r} cited",
                    l.number
                );
            }
            assert!(
                l.rules.iter().any(|r| l.intro.contains(r.as_str())),
                "{game} {}: the intro cites a rule",
                l.number
            );
        }
    }
}

#[test]
fn a_lesson_is_found_by_game_and_number_and_recognised_by_its_setup() {
    let l = lessons::get("roborally", 1).unwrap();
    assert_eq!(l.slug, "first-program");
    assert_eq!(lessons::find("roborally", &l.setup, l.seed).map(|f| f.number), Some(1));
    // Another seed or another game is not that lesson.
    assert!(lessons::find("roborally", &l.setup, l.seed + 1).is_none());
    assert!(lessons::find("autoscooter", &l.setup, l.seed).is_none());
    assert!(matches!(lessons::get("chess", 1), Err(LessonError::UnknownGame(_))));
    let count = lessons::of_game("roborally").len();
    for n in [0, count + 1] {
        assert_eq!(
            lessons::get("roborally", n).unwrap_err(),
            LessonError::NoSuchLesson { game: "roborally".into(), number: n, count }
        );
    }
}

#[test]
fn no_two_lessons_share_a_position_and_seed() {
    // A lesson's game is recognised by its game, setup and seed (`find`): two lessons alike
    // would be taken for one another.
    for l in lessons::all() {
        let found = lessons::find(&l.game, &l.setup, l.seed).unwrap();
        assert_eq!((found.game.as_str(), found.number), (l.game.as_str(), l.number));
    }
}

#[test]
fn every_lesson_starts_a_game_from_its_stored_setup() {
    for l in lessons::all() {
        let kind = games::Registry::everything().get(&l.game).unwrap();
        let g = kind.start(&l.setup, l.seed).expect("starts");
        assert!(
            g.decision().is_some_and(|d| d.owes(l.seat)),
            "{} {}: the learner moves first",
            l.game,
            l.number
        );
        assert_eq!(l.status(&g.position_json(), false), Status::Playing);
    }
}
