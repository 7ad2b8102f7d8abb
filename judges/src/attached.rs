//! The program with the debugger attached and without (Dfusor, ASPLOS'23; issue 68): a debugger
//! that only looks must not change what the program does. Every session whose actions only
//! observe (breakpoints, steps, resumes, exception settings, and expressions that read) is held
//! to it: the program prints the same lines and ends the same way as its run without a pause
//! ([`RELATION`]). Actions that change the program's state by design
//! (setting a variable, restarting a frame, evaluating an expression that may call, assign or
//! read through a getter) leave the session unjudged here, and say so.

use morphtrace_schema::trace::{Action, Output, ProgramOutcome, Trace};
use serde::{Deserialize, Serialize};

/// What the program printed, or how it ended, differs with the debugger attached from the
/// program's run without one (also the steps traces' `relation::OUTPUT`).
pub const RELATION: &str = "attached-output";

/// The note each judged session carries: what the check found (`alike (N judged)`, `apart (N
/// traces)`, or `not judged: WHY`).
pub const NOTE: &str = "output with the debugger and without";

/// A note's value as a count's key: `alike`, `apart`, or `not judged: WHY`.
pub fn note_key(value: &str) -> &str {
    if value.starts_with("not judged") {
        value
    } else {
        value.split(" (").next().unwrap_or(value)
    }
}

/// Which sessions the check holds to the program's run without a pause (the comparison
/// policy's `attached_output`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Check {
    /// None.
    Off,
    /// Each trace that ran to the program's end and only observed (no second run).
    #[default]
    Ended,
    /// Those, and each trace that only observed and stopped with the program paused (DBDB's
    /// action limit), replayed alone and run on to the end, its breakpoints removed: every
    /// observing session judged, at the cost of one more run of each such session.
    RunOn,
}

impl Check {
    pub fn name(&self) -> &'static str {
        match self {
            Check::Off => "off",
            Check::Ended => "ended",
            Check::RunOn => "run-on",
        }
    }
}

/// How the program ran without a pause, on the same engine.
#[derive(Debug, Clone, Copy)]
pub struct Plain<'a> {
    /// The outcome's name (`ProgramOutcome::name`); words after a comma are ignored (`dbdb`'s
    /// runs add "its state unread").
    pub ended: &'a str,
    pub printed: &'a [String],
}

impl Plain<'_> {
    /// The outcome's name alone.
    pub fn end(&self) -> &str {
        self.ended.split(',').next().unwrap_or_default().trim()
    }
}

/// Why `action` may change what the program does (`None`: it only observes).
pub fn changes_state(action: &Action) -> Option<&'static str> {
    match action {
        Action::SetVariable { .. } => Some("it sets a variable"),
        Action::RestartFrame { .. } => Some("it restarts a frame"),
        Action::Evaluate { expression } if !reads_only(expression) => {
            Some("it evaluates an expression that may change state")
        }
        Action::SetConditionalBreakpoint { condition, .. } if !reads_only(condition) => {
            Some("a condition may change state")
        }
        Action::SetLogpoint { expression, .. } if !reads_only(expression) => {
            Some("a logpoint's expression may change state")
        }
        _ => None,
    }
}

/// Whether evaluating `expression` can only read variables: names, number and string literals
/// and operators that neither assign nor call (no parentheses, brackets, member access, `new`,
/// `delete`, `++`, `--`, templates; `=` only inside `==`, `!=`, `<=`, `>=`). A member read is
/// out because a getter may run; an operator may still call a `valueOf` of an object the
/// program made, which the recorder's generated expressions never combine.
pub fn reads_only(expression: &str) -> bool {
    let mut chars = expression.chars().peekable();
    let mut prev: Option<char> = None;
    let mut word = String::new();
    let mut words = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                // A string literal: skipped whole (an escape skips its next character).
                let mut closed = false;
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return false;
                }
            }
            '(' | ')' | '[' | ']' | '{' | '}' | '`' | ';' | ',' | ':' | '?' | '@' => return false,
            '.' => {
                // Only a number's decimal point.
                let number = !word.is_empty() && word.chars().all(|d| d.is_ascii_digit());
                let next_digit = chars.peek().is_some_and(char::is_ascii_digit);
                if !(number || (word.is_empty() && next_digit)) {
                    return false;
                }
                word.push('.');
                prev = Some(c);
                continue;
            }
            '=' => {
                let comparison =
                    matches!(prev, Some('=' | '!' | '<' | '>')) || chars.peek() == Some(&'=');
                if !comparison {
                    return false;
                }
            }
            '+' | '-' if prev == Some(c) => return false,
            _ => {}
        }
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
        } else if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    // Words that call, assign, import or wait (JavaScript and Python).
    const EFFECTS: &[&str] = &[
        "new", "delete", "await", "yield", "import", "function", "class", "lambda", "del", "exec",
        "eval", "super",
    ];
    !words.iter().any(|w| EFFECTS.contains(&w.as_str()))
}

/// The first action of `trace` that may change the program's state, with the reason.
pub fn first_change(trace: &Trace) -> Option<(&Action, &'static str)> {
    trace
        .actions()
        .find_map(|a| changes_state(a).map(|why| (a, why)))
}

/// How the trace's program ended, when it ran to its end (completed or by an uncaught
/// exception).
pub fn ended(trace: &Trace) -> Option<&ProgramOutcome> {
    trace.outputs().find_map(|o| match o {
        Output::Finished {
            outcome: o @ (ProgramOutcome::Completed | ProgramOutcome::UncaughtException { .. }),
        } => Some(o),
        _ => None,
    })
}

/// Whether the trace can be judged against the program's run without a debugger: it ran to
/// its end and every action only observed. `Err` says why not.
pub fn judgeable<'a>(trace: &'a Trace, plain: Option<Plain>) -> Result<&'a ProgramOutcome, String> {
    let end = ended(trace).ok_or("the program did not run to its end under the debugger")?;
    if let Some((a, why)) = first_change(trace) {
        return Err(format!("{why} ({})", a.name()));
    }
    match plain {
        None => Err("the program's run without a debugger is unknown".into()),
        Some(p) if !matches!(p.end(), "completed" | "uncaught-exception") => Err(format!(
            "the program's run without a debugger ended {}",
            p.ended
        )),
        Some(_) => Ok(end),
    }
}

/// The difference between what the program printed and how it ended under the debugger
/// (`trace`) and without one (`plain`), in words; `None` when alike or not judgeable.
pub fn difference(trace: &Trace, plain: Option<Plain>) -> Option<String> {
    let end = judgeable(trace, plain).ok()?;
    let plain = plain?;
    let with = (end.name(), trace.console.as_slice());
    let without = (plain.end(), plain.printed);
    (with.0 != without.0 || with.1 != without.1)
        .then(|| format!("with the debugger and without: {}", apart(with, without)))
}

/// How two runs' endings and printed lines differ, the first difference in words.
pub fn apart(a: (&str, &[String]), b: (&str, &[String])) -> String {
    if a.0 != b.0 {
        return format!("ended {} vs {}", a.0, b.0);
    }
    let clip = |s: Option<&String>| match s {
        None => "nothing".to_string(),
        Some(s) if s.chars().count() > 100 => {
            format!("{:?}…", s.chars().take(100).collect::<String>())
        }
        Some(s) => format!("{s:?}"),
    };
    let n = a.1.len().max(b.1.len());
    match (0..n).find(|&i| a.1.get(i) != b.1.get(i)) {
        Some(i) => format!(
            "printed line {}: {} vs {}",
            i + 1,
            clip(a.1.get(i)),
            clip(b.1.get(i))
        ),
        None => "the same".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::trace::{Event, EventKind};

    fn trace(actions: &[Action], end: ProgramOutcome, console: &[&str]) -> Trace {
        let mut events: Vec<Event> = actions
            .iter()
            .map(|a| Event {
                at_us: 0,
                kind: EventKind::Action(a.clone()),
            })
            .collect();
        events.push(Event {
            at_us: 0,
            kind: EventKind::Output(Output::Finished { outcome: end }),
        });
        Trace {
            engine: EngineRef(0),
            events,
            console: console.iter().map(|s| s.to_string()).collect(),
            logs: Vec::new(),
        }
    }

    fn plain<'a>(ended: &'a str, printed: &'a [String]) -> Option<Plain<'a>> {
        Some(Plain { ended, printed })
    }

    #[test]
    fn expressions_that_only_read() {
        for e in [
            "n",
            "a + b",
            "n % 2 === 0",
            "n <= 3",
            "x != 1.5",
            "s == 'a(b)'",
            "!done && i > -1",
            "typeof x",
            "0.5 * n",
        ] {
            assert!(reads_only(e), "{e}");
        }
        for e in [
            "f()",
            "o.k",
            "a[0]",
            "x = 1",
            "x += 1",
            "i++",
            "--i",
            "new C",
            "delete o",
            "`${x}`",
            "await p",
            "x, y",
            "'open",
            "lambda: 1",
        ] {
            assert!(!reads_only(e), "{e}");
        }
    }

    #[test]
    fn a_debugger_that_only_looks_changes_nothing_the_program_prints() {
        let observing = [
            Action::SetBreakpoint {
                line: 2,
                column: None,
            },
            Action::Start,
            Action::StepInto,
            Action::Evaluate {
                expression: "n + 1".into(),
            },
            Action::Resume,
        ];
        let printed = vec!["1".to_string(), "2".to_string()];
        let same = trace(&observing, ProgramOutcome::Completed, &["1", "2"]);
        assert_eq!(difference(&same, plain("completed", &printed)), None);
        // Words after a comma in the plain run's ending are no difference.
        assert_eq!(
            difference(&same, plain("completed, its state unread", &printed)),
            None
        );
        let other = trace(&observing, ProgramOutcome::Completed, &["1", "3"]);
        assert_eq!(
            difference(&other, plain("completed", &printed)).as_deref(),
            Some("with the debugger and without: printed line 2: \"3\" vs \"2\"")
        );
        let fewer = trace(&observing, ProgramOutcome::Completed, &["1"]);
        assert_eq!(
            difference(&fewer, plain("completed", &printed)).as_deref(),
            Some("with the debugger and without: printed line 2: nothing vs \"2\"")
        );
        let threw = trace(
            &observing,
            ProgramOutcome::UncaughtException {
                message: "E".into(),
                location: None,
            },
            &["1", "2"],
        );
        assert_eq!(
            difference(&threw, plain("completed", &printed)).as_deref(),
            Some("with the debugger and without: ended uncaught-exception vs completed")
        );
    }

    #[test]
    fn sessions_that_change_state_or_do_not_end_are_not_judged() {
        let printed = vec!["1".to_string()];
        let set = trace(
            &[
                Action::Start,
                Action::SetVariable {
                    name: "n".into(),
                    value: "2".into(),
                },
            ],
            ProgramOutcome::Completed,
            &["2"],
        );
        assert_eq!(difference(&set, plain("completed", &printed)), None);
        assert!(judgeable(&set, plain("completed", &printed))
            .unwrap_err()
            .contains("sets a variable"));
        let call = trace(
            &[
                Action::Start,
                Action::Evaluate {
                    expression: "f()".into(),
                },
            ],
            ProgramOutcome::Completed,
            &["2"],
        );
        assert_eq!(difference(&call, plain("completed", &printed)), None);
        let detached = trace(&[Action::Start], ProgramOutcome::Detached, &[]);
        assert_eq!(difference(&detached, plain("completed", &printed)), None);
        let looping = trace(&[Action::Start], ProgramOutcome::Completed, &["2"]);
        assert_eq!(difference(&looping, plain("timeout", &printed)), None);
        assert_eq!(difference(&looping, None), None);
        // The same trace, judgeable, differs.
        assert!(difference(&looping, plain("completed", &printed)).is_some());
    }
}
