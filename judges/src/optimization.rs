//! The optimization-level oracle (after Debug², ASPLOS'21; issue 71): one debugger on two builds
//! of one program, the reference unoptimized (`-O0`), the other optimized (`-O2`, …). The
//! reference is stepped into statement by statement to its end, so that it shows every moment
//! a line is current (a `for` line's initialization and each increment); the optimized build
//! runs with a breakpoint on every line and only resumes.
//!
//! - **Values.** A value the optimized build shows for a variable, paused at a line of a
//!   function, must be one the reference showed for that variable at that line of that
//!   function, at some moment ([`relation::VALUE`]). No moment is matched with another: the
//!   builds need not pass a line as often or in the same order (loops rotated, code moved or
//!   merged), so a wrong value that the variable held at that line at another moment is not
//!   seen: the relation is narrow on purpose, and what it reports is a value the program never
//!   had there. A part of a value the optimizer left no location for (optimized out,
//!   unavailable) is no wrong value: counted apart, as availability ([`Counts::optimized_out`]).
//!   A pointer compares by what it is (null, its string, its function), not by what it points
//!   to: memory behind a pointer is another object's, compared where that object is a variable.
//!   A reference cut short (its pause limit) leaves values unseen: its session's values are not
//!   judged. Globals are not compared (see [`variables`]).
//! - **Not yet initialized.** At a line at or before a variable's declaration the variable holds
//!   whatever was in its storage (indeterminate in C), which differs between builds: such a
//!   variable is not compared there.
//! - **Output.** Both builds print the same and end the same way ([`relation::OUTPUT`]): a
//!   program without undefined behaviour computes the same at every level.

use morphtrace_schema::session::Warning;
use morphtrace_schema::trace::{EventKind, Output, PauseState, ProgramOutcome, Trace};
use morphtrace_schema::value::Value;
use std::collections::HashMap;

pub mod relation {
    /// The optimized build showed a value the reference never showed for that variable there.
    pub const VALUE: &str = "optimized-value";
    /// The two builds printed differently or ended differently.
    pub const OUTPUT: &str = "optimized-output";
}

/// How many warnings of one relation a session reports: one fault repeats at every pass.
pub const MAX_PER_RELATION: usize = 5;

/// What the judge must know besides the two traces.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The program's local declarations: each name with its (0-based) line.
    pub declared: &'a [(String, u32)],
}

/// What was compared, and what could not be: the oracle's figures for a session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Pauses of the optimized build.
    pub pauses: usize,
    /// Variables compared with what the reference showed at their line.
    pub compared: usize,
    /// Variables (or parts) the optimized build showed without a value where the reference
    /// had one: optimized out, unavailable.
    pub optimized_out: usize,
    /// Variables the reference showed at a line that the optimized build did not list there.
    pub not_listed: usize,
    /// Pauses of the optimized build at a line (of a function) the reference never paused at.
    pub lines_apart: usize,
    /// Values compared that the reference never showed there (warnings, where judged).
    pub apart: usize,
    /// The reference did not run to the program's end: its values are not all seen, and none
    /// is judged.
    pub reference_cut_short: bool,
}

impl Counts {
    /// The counts as session notes.
    pub fn notes(&self) -> Vec<(String, String)> {
        vec![(
            "optimization".into(),
            format!(
                "{} pauses; {} values compared, {} of them never shown there by the reference{}; {} optimized out; {} not listed; {} pauses at lines the reference never paused at",
                self.pauses,
                self.compared,
                self.apart,
                if self.reference_cut_short {
                    " (not judged: the reference was cut short)"
                } else {
                    ""
                },
                self.optimized_out,
                self.not_listed,
                self.lines_apart
            ),
        )]
    }
}

fn pauses(trace: &Trace) -> impl Iterator<Item = (usize, &PauseState)> {
    trace
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Output(Output::Paused(p)) => Some((i, p)),
            _ => None,
        })
}

fn ended(trace: &Trace) -> Option<&ProgramOutcome> {
    trace.outputs().find_map(|o| match o {
        Output::Finished { outcome } => Some(outcome),
        _ => None,
    })
}

/// A pause's place: its top frame's function and line.
fn place(p: &PauseState) -> (String, u32) {
    (
        p.stack
            .first()
            .map(|f| f.function.clone())
            .unwrap_or_default(),
        p.location.line,
    )
}

/// The local variables (and arguments) of a pause's top frame. Globals are memory that an
/// optimized build may write earlier or later than the line that writes it (stores move freely
/// under C's as-if rule where only a debugger looks, and debug information cannot say a global
/// lives in a register meanwhile): what a debugger reads there is not wrong, and is not compared
/// (seen on a Csmith program under LLDB: `g_10` at -O2 a store ahead of -O0).
fn variables(p: &PauseState) -> impl Iterator<Item = (&str, &Value)> {
    p.stack
        .first()
        .into_iter()
        .flat_map(|f| f.scopes.iter())
        .filter(|s| s.kind == morphtrace_schema::trace::ScopeKind::Local)
        .flat_map(|s| s.variables.iter())
        .map(|v| (v.name.as_str(), &v.value))
}

fn without_value(v: &Value) -> bool {
    matches!(v, Value::OptimizedOut | Value::Unavailable)
}

/// Whether `shown` (the optimized build's) may be `reference`: equal, where the parts the
/// optimized build could not read count as anything.
fn consistent(shown: &Value, reference: &Value) -> bool {
    match (shown, reference) {
        (s, _) if without_value(s) => true,
        (Value::Number(a), Value::Number(b)) => a == b || (a.is_nan() && b.is_nan()),
        // A C pointer: its description only (null, its string, its function).
        (
            Value::Object {
                class: c1,
                description: d1,
                ..
            },
            Value::Object {
                class: c2,
                description: d2,
                ..
            },
        ) if c1.ends_with('*') => c1 == c2 && d1 == d2,
        (
            Value::Object {
                kind: k1,
                class: c1,
                description: d1,
                entries: e1,
                ..
            },
            Value::Object {
                kind: k2,
                class: c2,
                description: d2,
                entries: e2,
                ..
            },
        ) => {
            k1 == k2
                && c1 == c2
                && d1 == d2
                && match (e1, e2) {
                    (Some(a), Some(b)) => a.iter().all(|x| {
                        b.iter()
                            .find(|y| y.key == x.key)
                            .is_none_or(|y| consistent(&x.value, &y.value))
                    }),
                    _ => true,
                }
        }
        (a, b) => a == b,
    }
}

/// Whether a part of `v` has no value (for the availability count).
fn partly_without_value(v: &Value) -> bool {
    match v {
        Value::Object { class, .. } if class.ends_with('*') => false,
        Value::Object {
            entries: Some(e), ..
        } => e.iter().any(|x| partly_without_value(&x.value)),
        v => without_value(v),
    }
}

/// The warnings of one session (the reference's trace first) and its figures.
pub fn judge(traces: &[Trace], cx: Context<'_>) -> Result<(Vec<Warning>, Counts), String> {
    let [reference, optimized] = traces else {
        return Err(format!(
            "an optimization session has a reference and an optimized trace, not {} trace(s)",
            traces.len()
        ));
    };
    // What the reference showed, by function, line and variable.
    let mut seen: HashMap<(String, u32), HashMap<&str, Vec<&Value>>> = HashMap::new();
    for (_, p) in pauses(reference) {
        let at = seen.entry(place(p)).or_default();
        for (name, value) in variables(p) {
            let values = at.entry(name).or_default();
            if !without_value(value) && !values.contains(&value) {
                values.push(value);
            }
        }
    }
    let not_yet = |name: &str, line: u32| {
        cx.declared
            .iter()
            .any(|(n, declared)| n == name && *declared >= line)
    };
    let mut warnings = Vec::new();
    let mut counts = Counts {
        reference_cut_short: !matches!(ended(reference), Some(ProgramOutcome::Completed)),
        ..Counts::default()
    };
    for (index, p) in pauses(optimized) {
        counts.pauses += 1;
        let (function, line) = place(p);
        let Some(at) = seen.get(&(function.clone(), line)) else {
            counts.lines_apart += 1;
            continue;
        };
        let listed: Vec<&str> = variables(p).map(|(n, _)| n).collect();
        counts.not_listed += at
            .iter()
            .filter(|(n, v)| !v.is_empty() && !listed.contains(n))
            .count();
        for (name, value) in variables(p) {
            let Some(reference) = at.get(name).filter(|v| !v.is_empty()) else {
                continue;
            };
            if not_yet(name, line) {
                continue;
            }
            if partly_without_value(value) {
                counts.optimized_out += 1;
            }
            if without_value(value) {
                continue;
            }
            counts.compared += 1;
            if reference.iter().any(|r| consistent(value, r)) {
                continue;
            }
            counts.apart += 1;
            if !counts.reference_cut_short && warnings.len() < MAX_PER_RELATION {
                let shown: Vec<String> = reference.iter().take(5).map(|v| v.to_string()).collect();
                warnings.push(Warning {
                    relation: relation::VALUE.into(),
                    round: 0,
                    against: None,
                    event_index: Some(index as u32),
                    message: format!(
                        "{name} at line {} of {}: {value} optimized, where the reference showed {}{} there",
                        line + 1,
                        if function.is_empty() { "the top level" } else { &function },
                        shown.join(", "),
                        if reference.len() > 5 { ", …" } else { "" }
                    ),
                });
            }
        }
    }
    if let (Some(a), Some(b)) = (ended(reference), ended(optimized)) {
        if a != b || reference.console != optimized.console {
            warnings.push(Warning {
                relation: relation::OUTPUT.into(),
                round: 0,
                against: None,
                event_index: None,
                message: if a != b {
                    format!(
                        "the reference {}, the optimized build {}",
                        a.name(),
                        b.name()
                    )
                } else {
                    format!(
                        "the reference printed {:?}, the optimized build {:?}",
                        reference.console, optimized.console
                    )
                },
            });
        }
    }
    Ok((warnings, counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::engine::EngineRef;
    use morphtrace_schema::trace::{
        Event, Frame, Location, PauseReason, Scope, ScopeKind, Variable,
    };

    fn pause(function: &str, line: u32, vars: &[(&str, Value)]) -> Output {
        Output::Paused(PauseState {
            location: Location::new(line, 0),
            reason: PauseReason::Step,
            engine_reason: None,
            stack: vec![Frame {
                function: function.into(),
                location: Location::new(line, 0),
                scopes: vec![morphtrace_testkit::pauses::local_scope(vars)],
            }],
            exception: None,
            async_stack: None,
            condition: None,
        })
    }

    fn trace(pauses: Vec<Output>, console: &[&str]) -> Trace {
        let mut events: Vec<Event> = pauses
            .into_iter()
            .map(|o| Event {
                at_us: 0,
                kind: EventKind::Output(o),
            })
            .collect();
        events.push(Event {
            at_us: 0,
            kind: EventKind::Output(Output::Finished {
                outcome: ProgramOutcome::Completed,
            }),
        });
        Trace {
            engine: EngineRef(0),
            events,
            console: console.iter().map(|s| s.to_string()).collect(),
            logs: Vec::new(),
        }
    }

    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    /// A loop's line passed three times at `-O0` (i = 0, 1, 2).
    fn reference() -> Trace {
        trace(
            vec![
                pause("main", 3, &[("i", n(0.0)), ("s", n(0.0))]),
                pause("main", 3, &[("i", n(1.0)), ("s", n(0.0))]),
                pause("main", 3, &[("i", n(2.0)), ("s", n(1.0))]),
                pause("main", 5, &[("s", n(3.0))]),
            ],
            &["3"],
        )
    }

    #[test]
    fn values_the_reference_had_there_in_any_order_or_optimized_out_are_no_warning() {
        // Rotated: one pass less, another order; `s` optimized out once.
        let optimized = trace(
            vec![
                pause("main", 3, &[("i", n(2.0)), ("s", Value::OptimizedOut)]),
                pause("main", 3, &[("i", n(1.0)), ("s", n(0.0))]),
                pause("main", 5, &[("s", n(3.0))]),
                pause("main", 4, &[("s", n(9.0))]),
            ],
            &["3"],
        );
        let (w, c) = judge(&[reference(), optimized], Context::default()).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            c,
            Counts {
                pauses: 4,
                compared: 4,
                optimized_out: 1,
                not_listed: 0,
                lines_apart: 1,
                apart: 0,
                reference_cut_short: false,
            }
        );
    }

    #[test]
    fn a_value_the_program_never_had_at_that_line_is_a_warning() {
        let optimized = trace(
            vec![
                pause("main", 3, &[("i", n(7.0))]),
                pause("main", 5, &[("s", n(3.0))]),
            ],
            &["3"],
        );
        let (w, c) = judge(&[reference(), optimized], Context::default()).unwrap();
        let relations: Vec<&str> = w.iter().map(|w| w.relation.as_str()).collect();
        assert_eq!(relations, [relation::VALUE], "{w:?}");
        assert!(w[0].message.contains("i at line 4 of main: 7"), "{w:?}");
        // The reference's `s` at line 4 is not listed by the optimized build.
        assert_eq!(c.not_listed, 1);
        // The same value at another line of the reference is no excuse: lines are apart.
        let elsewhere = trace(vec![pause("main", 5, &[("s", n(0.0))])], &["3"]);
        let (w, _) = judge(&[reference(), elsewhere], Context::default()).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
    }

    #[test]
    fn a_variable_not_yet_declared_holds_anything() {
        let optimized = trace(vec![pause("main", 3, &[("i", n(123.0))])], &["3"]);
        let declared = [("i".to_string(), 3)];
        let (w, _) = judge(
            &[reference(), optimized],
            Context {
                declared: &declared,
            },
        )
        .unwrap();
        assert!(w.is_empty(), "{w:?}");
        // Declared at an earlier line: compared.
        let optimized = trace(vec![pause("main", 3, &[("i", n(123.0))])], &["3"]);
        let declared = [("i".to_string(), 2)];
        let (w, _) = judge(
            &[reference(), optimized],
            Context {
                declared: &declared,
            },
        )
        .unwrap();
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn a_struct_compares_member_by_member_its_unreadable_members_as_anything() {
        let pt = |x: Value, y: f64| Value::Object {
            kind: morphtrace_schema::value::ObjectKind::Object,
            class: "pt".into(),
            description: None,
            entries: Some(vec![
                morphtrace_schema::value::Entry {
                    key: morphtrace_schema::value::Key::Name("x".into()),
                    value: x,
                },
                morphtrace_schema::value::Entry {
                    key: morphtrace_schema::value::Key::Name("y".into()),
                    value: n(y),
                },
            ]),
            truncated: false,
        };
        let reference = trace(vec![pause("f", 1, &[("p", pt(n(1.0), 2.0))])], &[]);
        let partly = trace(
            vec![pause("f", 1, &[("p", pt(Value::OptimizedOut, 2.0))])],
            &[],
        );
        let (w, c) = judge(&[reference.clone(), partly], Context::default()).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.optimized_out, 1);
        let wrong = trace(
            vec![pause("f", 1, &[("p", pt(Value::OptimizedOut, 5.0))])],
            &[],
        );
        let (w, _) = judge(&[reference, wrong], Context::default()).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
    }

    #[test]
    fn a_pointer_compares_by_what_it_is_and_a_reference_cut_short_judges_nothing() {
        let ptr = |d: Option<&str>, pointee: f64| Value::Object {
            kind: morphtrace_schema::value::ObjectKind::Object,
            class: "int *".into(),
            description: d.map(str::to_string),
            entries: Some(vec![morphtrace_schema::value::Entry {
                key: morphtrace_schema::value::Key::Name("*a".into()),
                value: n(pointee),
            }]),
            truncated: false,
        };
        let at_o0 = trace(vec![pause("f", 1, &[("a", ptr(None, 1.0))])], &[]);
        let other_pointee = trace(vec![pause("f", 1, &[("a", ptr(None, 5.0))])], &[]);
        let (w, _) = judge(&[at_o0.clone(), other_pointee], Context::default()).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let null = trace(vec![pause("f", 1, &[("a", ptr(Some("NULL"), 0.0))])], &[]);
        let (w, _) = judge(&[at_o0, null], Context::default()).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        // Cut short: the value apart is counted, not judged.
        // The reference without its end.
        let mut cut = reference();
        cut.events.pop();
        let wrong = trace(vec![pause("main", 3, &[("i", n(7.0))])], &[]);
        let (w, c) = judge(&[cut, wrong], Context::default()).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!((c.apart, c.reference_cut_short), (1, true));
    }

    #[test]
    fn globals_are_not_compared() {
        let global = |x: f64| {
            let mut p = pause("main", 3, &[]);
            if let Output::Paused(ps) = &mut p {
                ps.stack[0].scopes = vec![Scope {
                    kind: ScopeKind::Global,
                    name: None,
                    variables: vec![Variable {
                        name: "g".into(),
                        value: n(x),
                        reported: None,
                    }],
                }];
            }
            p
        };
        let (w, c) = judge(
            &[trace(vec![global(1.0)], &[]), trace(vec![global(2.0)], &[])],
            Context::default(),
        )
        .unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.compared, 0);
    }

    #[test]
    fn the_builds_must_print_the_same() {
        let optimized = trace(vec![pause("main", 5, &[("s", n(3.0))])], &["4"]);
        let (w, _) = judge(&[reference(), optimized], Context::default()).unwrap();
        let relations: Vec<&str> = w.iter().map(|w| w.relation.as_str()).collect();
        assert_eq!(relations, [relation::OUTPUT]);
    }
}
