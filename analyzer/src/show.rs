//! `morphtrace-analyze show`: one session's traces, event by event, for people.

use morphtrace_schema::{ArchiveHeader, EventKind, Output, Session};
use std::fmt::Write as _;

fn output(o: &Output) -> String {
    match o {
        Output::BreakpointSet {
            id,
            requested,
            actual,
            policy,
            ..
        } => format!(
            "breakpoint #{} requested {} -> [{}]{}",
            id.0,
            requested,
            actual
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            policy
                .as_deref()
                .map(|p| format!(" (placed by morphtrace: {p})"))
                .unwrap_or_default()
        ),
        Output::BreakpointRemoved { id, ok } => format!("breakpoint #{} removed: {ok}", id.0),
        Output::Paused(p) => {
            let mut s = format!("paused at {} ({})", p.location, p.reason.name());
            let stack: Vec<String> = p
                .stack
                .iter()
                .map(|f| {
                    let name = if f.function.is_empty() {
                        "(top level)"
                    } else {
                        &f.function
                    };
                    format!("{name}@{}", f.location)
                })
                .collect();
            let _ = write!(s, "\n        stack: {}", stack.join(" < "));
            if let Some(e) = &p.exception {
                let _ = write!(s, "\n        exception: {e}");
            }
            for sc in p.top_scopes() {
                let vars: Vec<String> = sc
                    .variables
                    .iter()
                    .map(|v| format!("{}={}", v.name, v.value))
                    .collect();
                let _ = write!(s, "\n        {}: {}", sc.kind.name(), vars.join(", "));
            }
            s
        }
        Output::Finished { outcome } => format!("finished: {outcome:?}"),
        Output::Error { message } => format!("error: {message}"),
        Output::PauseOnExceptionsSet { mode } => format!("pausing on exceptions: {}", mode.name()),
        Output::Evaluated { value, threw } => {
            format!("{} {value}", if *threw { "threw" } else { "evaluated to" })
        }
        Output::VariableSet { name, value } => format!("{name} now reads {value}"),
    }
}

/// The events of every trace around action `at` (the `window` actions before it, and it), with
/// the program lines those actions refer to: what a person needs to judge a divergence.
pub fn excerpt(header: &ArchiveHeader, s: &Session, at: u32, window: u32) -> String {
    let mut o = String::new();
    let from = at.saturating_sub(window);
    for t in &s.traces {
        let label = header
            .engine(t.engine)
            .map(|e| e.label())
            .unwrap_or_else(|| format!("engine #{}", t.engine.0));
        let _ = writeln!(o, "    --- {label}");
        if from > 0 {
            let _ = writeln!(o, "      ... {from} earlier action(s)");
        }
        let mut action = None::<u32>;
        for e in &t.events {
            if let EventKind::Action(_) = e.kind {
                action = Some(action.map_or(0, |a| a + 1));
            }
            let Some(n) = action else { continue };
            if n < from || n > at {
                continue;
            }
            match &e.kind {
                EventKind::Action(a) => {
                    let mark = if n == at { "=>" } else { " >" };
                    let _ = writeln!(o, "    {mark} {a}");
                }
                EventKind::Output(out) => {
                    for (i, line) in output(out).lines().enumerate() {
                        let pad = if i == 0 { "        " } else { "    " };
                        let _ = writeln!(o, "{pad}{line}");
                    }
                }
            }
        }
    }
    o
}

/// `program`: the program's name (its origin), when the archive holds it.
pub fn render(header: &ArchiveHeader, s: &Session, program: Option<&str>) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "session {} ({}, seed {}, outcome {:?}, {:.1} ms)",
        s.id,
        s.mode.name(),
        s.seed,
        s.outcome,
        s.duration_us as f64 / 1000.0
    );
    let _ = writeln!(
        o,
        "program: {} ({})",
        program.unwrap_or("(not in the archive)"),
        s.program.short()
    );
    for d in s.all_divergences() {
        let _ = writeln!(
            o,
            "divergence: {} after action #{} {}: {}",
            d.kind.name(),
            d.action_index,
            d.action,
            d.detail
        );
        if let Some(how) = &d.continued {
            let _ = writeln!(o, "  went on: {how}");
        }
    }
    for (k, v) in s.notes.iter().filter(|(k, _)| k.starts_with("lockstep")) {
        let _ = writeln!(o, "{k}: {v}");
    }
    for t in &s.traces {
        let label = header
            .engine(t.engine)
            .map(|e| e.label())
            .unwrap_or_else(|| format!("engine #{}", t.engine.0));
        let _ = writeln!(o, "--- {label}");
        let mut last = 0;
        for e in &t.events {
            match &e.kind {
                EventKind::Action(a) => {
                    let _ = writeln!(o, "  > {a}");
                }
                EventKind::Output(out) => {
                    let ms = e.at_us.saturating_sub(last) as f64 / 1000.0;
                    let _ = writeln!(o, "      {} [{ms:.1} ms]", output(out));
                }
            }
            last = e.at_us;
        }
        if !t.console.is_empty() {
            let _ = writeln!(o, "  console: {}", t.console.join(" | "));
        }
        if !t.logs.is_empty() {
            let logged: Vec<String> = t
                .logs
                .iter()
                .map(|l| format!("#{} {} (action {})", l.breakpoint.0, l.text, l.action))
                .collect();
            let _ = writeln!(o, "  logged: {}", logged.join(" | "));
        }
    }
    o
}
