//! What a board checker says about a board file: findings with a severity, a place in the file
//! and the rule they come from. Every game's validator (RoboRally courses, Bumping Bots' BB-12,
//! Autoscooter rinks) returns these, so that `robodrome board check` and every loader print them
//! the same way. The rules themselves live in the game crates.

use std::fmt;

/// An error refuses the board; a warning is printed and the board is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A 1-based line and column of the board file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

/// One finding: how bad, where (when the file has a place for it), the rule, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    /// `None`: about the whole file (a piece count, a missing part).
    pub place: Option<Place>,
    /// The rule it comes from (`"BB-12"`), empty for a plain format error.
    pub rule: &'static str,
    pub message: String,
}

impl Finding {
    pub fn error(rule: &'static str, message: impl Into<String>) -> Finding {
        Finding { severity: Severity::Error, place: None, rule, message: message.into() }
    }
    pub fn warning(rule: &'static str, message: impl Into<String>) -> Finding {
        Finding { severity: Severity::Warning, place: None, rule, message: message.into() }
    }
    /// The same finding at a line and column.
    pub fn at(mut self, line: usize, column: usize) -> Finding {
        self.place = Some(Place { line, column });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `line 3, column 7: error: fixed obstacle at [2,3] touches no wall (BB-8.1)`.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.place {
            write!(f, "line {}, column {}: ", p.line, p.column)?;
        }
        write!(f, "{}: {}", self.severity.name(), self.message)?;
        if !self.rule.is_empty() {
            write!(f, " ({})", self.rule)?;
        }
        Ok(())
    }
}

/// Sort findings by place (findings about the whole file first), errors before warnings.
pub fn sort(findings: &mut [Finding]) {
    findings
        .sort_by(|a, b| (a.place, a.severity, &a.message).cmp(&(b.place, b.severity, &b.message)));
}

/// A board refused for play: its errors, each with its place. The typed error every loader
/// returns when the checker finds an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRejected {
    pub errors: Vec<Finding>,
}

impl BoardRejected {
    /// `Err` with the errors among `findings`, if any; else the warnings.
    pub fn from_findings(findings: Vec<Finding>) -> Result<Vec<Finding>, BoardRejected> {
        let (errors, warnings): (Vec<Finding>, Vec<Finding>) =
            findings.into_iter().partition(Finding::is_error);
        if errors.is_empty() { Ok(warnings) } else { Err(BoardRejected { errors }) }
    }
}

impl fmt::Display for BoardRejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all: Vec<String> = self.errors.iter().map(ToString::to_string).collect();
        write!(f, "the board is refused: {}", all.join("; "))
    }
}
impl std::error::Error for BoardRejected {}

/// Where a value of a JSON text starts (1-based line and column), found by its path (`["starts",
/// 2]`: object keys and array indices). `None` when the text is not JSON or has no such value.
/// For the checkers of JSON board files (Autoscooter rinks), so that a finding about the third
/// start space points at it.
pub fn locate_json(text: &str, path: &[JsonKey<'_>]) -> Option<Place> {
    let b = text.as_bytes();
    let mut i = 0;
    for key in path {
        skip_ws(b, &mut i);
        match (key, b.get(i)?) {
            (JsonKey::Index(n), b'[') => {
                i += 1;
                for k in 0..=*n {
                    skip_ws(b, &mut i);
                    if *b.get(i)? == b']' {
                        return None;
                    }
                    if k == *n {
                        break;
                    }
                    skip_value(b, &mut i)?;
                    skip_ws(b, &mut i);
                    if *b.get(i)? == b',' {
                        i += 1;
                    }
                }
            }
            (JsonKey::Key(want), b'{') => {
                i += 1;
                loop {
                    skip_ws(b, &mut i);
                    if *b.get(i)? != b'"' {
                        return None;
                    }
                    let start = i + 1;
                    skip_value(b, &mut i)?;
                    let name = text.get(start..i - 1)?;
                    skip_ws(b, &mut i);
                    if *b.get(i)? != b':' {
                        return None;
                    }
                    i += 1;
                    skip_ws(b, &mut i);
                    if name == *want {
                        break;
                    }
                    skip_value(b, &mut i)?;
                    skip_ws(b, &mut i);
                    if *b.get(i)? == b',' {
                        i += 1;
                    }
                }
            }
            _ => return None,
        }
    }
    skip_ws(b, &mut i);
    let before = text.get(..i)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some(Place { line, column })
}

/// One step of a JSON path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonKey<'a> {
    Key(&'a str),
    Index(usize),
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while b.get(*i).is_some_and(u8::is_ascii_whitespace) {
        *i += 1;
    }
}

/// Skip one JSON value (strings with escapes, nested arrays and objects, scalars).
fn skip_value(b: &[u8], i: &mut usize) -> Option<()> {
    match *b.get(*i)? {
        b'"' => {
            *i += 1;
            loop {
                match *b.get(*i)? {
                    b'\\' => *i += 2,
                    b'"' => {
                        *i += 1;
                        return Some(());
                    }
                    _ => *i += 1,
                }
            }
        }
        b'[' | b'{' => {
            let mut depth = 0usize;
            loop {
                match *b.get(*i)? {
                    b'"' => {
                        skip_value(b, i)?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            *i += 1;
                            return Some(());
                        }
                    }
                    _ => {}
                }
                *i += 1;
            }
        }
        _ => {
            while b
                .get(*i)
                .is_some_and(|c| !matches!(c, b',' | b']' | b'}') && !c.is_ascii_whitespace())
            {
                *i += 1;
            }
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_values_are_found_by_path() {
        let text = "{\n  \"cells\": [[0, 0], [1, 0]],\n  \"about\": \"a \\\"b\\\" [\",\n  \"starts\": [\n    {\"at\": [0, 0], \"facing\": 1},\n    {\"at\": [9, 9], \"facing\": 2}\n  ]\n}\n";
        let at = |p: &[JsonKey<'_>]| locate_json(text, p).map(|p| (p.line, p.column));
        assert_eq!(at(&[JsonKey::Key("starts"), JsonKey::Index(1)]), Some((6, 5)));
        assert_eq!(at(&[JsonKey::Key("starts"), JsonKey::Index(0)]), Some((5, 5)));
        assert_eq!(at(&[JsonKey::Key("cells"), JsonKey::Index(1)]), Some((2, 21)));
        assert_eq!(at(&[JsonKey::Key("starts"), JsonKey::Index(2)]), None);
        assert_eq!(at(&[JsonKey::Key("nothing")]), None);
        assert_eq!(locate_json("[1,", &[JsonKey::Index(3)]), None);
    }

    #[test]
    fn rejection_keeps_the_errors_and_passes_the_warnings() {
        let w = Finding::warning("BB-1.3", "ten fixed obstacles");
        let e = Finding::error("BB-8.1", "fixed obstacle touches no wall").at(3, 7);
        assert_eq!(BoardRejected::from_findings(vec![w.clone()]), Ok(vec![w.clone()]));
        let r = BoardRejected::from_findings(vec![w, e.clone()]).unwrap_err();
        assert_eq!(r.errors, vec![e]);
        assert!(r.to_string().contains("line 3, column 7: error"), "{r}");
    }
}
