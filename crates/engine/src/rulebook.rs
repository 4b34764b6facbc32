//! A game's rules as the client's rules page and its context help show them: topics in the
//! project's own words, each with its rule number (the anchor of the rules page), a short
//! title, an explanation and, where the client draws one, the name of a diagram the game's
//! table module draws from the game's static part (docs/client.md "Rules and help").
//!
//! The texts live in each game crate (`rulebook()`), beside the rules they explain; the
//! registry serves them (`GET /api/kinds/{game}/rules`), and the client keeps no copy.

use serde::Serialize;

/// What a topic explains (the rules page groups topics by it; the context help finds a
/// card, an element or a badge by its `key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TopicKind {
    /// A rule of play: a section of the rules page.
    Rule,
    /// A board element (a belt, a pit, a bumper, an obstacle).
    Element,
    /// A card (program cards, option cards, tuning cards).
    Card,
    /// A badge or mark drawn at the table (turn numbers, speeds, the car of nobody).
    Badge,
    /// A variant or an option of the lobby.
    Variant,
}

/// One topic of a game's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Topic {
    /// The stable name the client looks a topic up by: the rule number for a rule
    /// (`AS-7.2`), `card:<name>` for a card as the game serialises it (`card:nitro`,
    /// `option:brakes`), `element:<name>`, `badge:<name>`, `variant:<key>`.
    pub key: String,
    /// The rule number it comes from (`RR-5.3`): the rules page's anchor.
    pub rule: &'static str,
    pub kind: TopicKind,
    /// The player-facing name: words, never a rule code.
    pub title: String,
    /// The explanation, in the project's words (one or more paragraphs separated by `\n\n`).
    pub text: String,
    /// A diagram the client draws beside the text, from the game's static part
    /// (`chart`, `crashes`, `legend`, `track`, ...). `None`: text only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagram: Option<&'static str>,
}

impl Topic {
    /// A rule of play with its number as its key.
    pub fn rule(rule: &'static str, title: &str, text: &str) -> Topic {
        Topic {
            key: rule.to_string(),
            rule,
            kind: TopicKind::Rule,
            title: title.into(),
            text: text.into(),
            diagram: None,
        }
    }

    /// A topic of another kind, looked up by `key`.
    pub fn of(
        kind: TopicKind,
        key: impl Into<String>,
        rule: &'static str,
        title: &str,
        text: &str,
    ) -> Topic {
        Topic { key: key.into(), rule, kind, title: title.into(), text: text.into(), diagram: None }
    }

    /// The same topic with a diagram.
    pub fn with_diagram(mut self, diagram: &'static str) -> Topic {
        self.diagram = Some(diagram);
        self
    }
}

/// What every game's rule book must satisfy (its own tests call it): keys are unique, every
/// rule number has the game's prefix (`AS-`), titles are words (no rule code in them), texts
/// are not empty.
pub fn check(topics: &[Topic], prefix: &str) -> Result<(), String> {
    let mut keys = std::collections::BTreeSet::new();
    for t in topics {
        if !keys.insert(t.key.as_str()) {
            return Err(format!("topic {:?} twice", t.key));
        }
        if !t.rule.starts_with(prefix) {
            return Err(format!("topic {:?}: rule {:?} is not {prefix}…", t.key, t.rule));
        }
        if t.title.trim().is_empty() || t.text.trim().is_empty() {
            return Err(format!("topic {:?}: empty title or text", t.key));
        }
        if t.title.contains(prefix) {
            return Err(format!("topic {:?}: a rule code in its title {:?}", t.key, t.title));
        }
    }
    Ok(())
}
