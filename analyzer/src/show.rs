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
                .map(|f| format!("{}@{}", f.shown_name(), f.location))
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
    // Numbered as `morphtrace-record reduce --divergence N` and the divergences frame's `index`
    // count them.
    for (i, d) in s.all_divergences().iter().enumerate() {
        let _ = writeln!(
            o,
            "divergence #{i}: {} after action #{} {}: {}",
            d.kind.name(),
            d.action_index,
            d.action,
            d.detail
        );
        if let Some(how) = &d.continued {
            let _ = writeln!(o, "  went on: {how}");
        }
    }
    // A metamorphic follow-up: what it was derived from, how, and the relation that did not hold.
    if let Some(parent) = &s.parent {
        let _ = writeln!(
            o,
            "follow-up of {} (round {})",
            parent.session, parent.round
        );
    }
    if s.coverage.is_empty() {
        for t in &s.transformations {
            let params: Vec<String> = t.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(
                o,
                "transformation: {}{}{}",
                t.name,
                if t.interactive {
                    " (while the debugger ran)"
                } else {
                    ""
                },
                if params.is_empty() {
                    String::new()
                } else {
                    format!(" {}", params.join(", "))
                }
            );
        }
    }
    for w in &s.warnings {
        let against = w
            .against
            .map(|a| format!(" against {a}"))
            .unwrap_or_default();
        let at = w
            .event_index
            .map(|e| format!(" at event {e}"))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "warning: {} (round {}){against}{at}: {}",
            w.relation, w.round, w.message
        );
    }
    for (k, v) in s.notes.iter().filter(|(k, _)| k.starts_with("lockstep")) {
        let _ = writeln!(o, "{k}: {v}");
    }
    if !s.coverage.is_empty() {
        coverage(&mut o, header, s);
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

/// A coverage session: each profiler's run of each program, what it said, and the
/// inconsistencies beyond the weak-noise filter, with the notes (dropped variants, skipped
/// truths).
fn coverage(o: &mut String, header: &ArchiveHeader, s: &Session) {
    use morphtrace_judges::cod;
    let label = |e: morphtrace_schema::EngineRef| {
        header
            .engine(e)
            .map(|d| d.profiler())
            .unwrap_or_else(|| format!("engine #{}", e.0))
    };
    let role = |p: &morphtrace_schema::ProgramHash| {
        if *p == s.program {
            "P".to_string()
        } else {
            s.transformations
                .iter()
                .position(|t| t.program_after == *p)
                .map(|i| format!("{} #{i}", s.transformations[i].name))
                .unwrap_or_else(|| p.short())
        }
    };
    for r in &s.coverage {
        let (ran, lines) = r.files.first().map_or((0, 0), |f| {
            (
                f.lines.iter().filter(|c| c.is_some_and(|n| n > 0)).count(),
                f.lines.iter().filter(|c| c.is_some()).count(),
            )
        });
        let run = match &r.run {
            Some(run) => format!(
                "exit {}, {} bytes on stdout",
                run.exit_code
                    .map_or("(killed)".to_string(), |c| c.to_string()),
                run.stdout.len()
            ),
            None => "no run recorded".into(),
        };
        let _ = writeln!(
            o,
            "coverage: {} on {}: {ran} of {lines} lines with a count ran; {run}",
            label(r.engine),
            role(&r.program)
        );
    }
    let judged = cod::judge_session(s);
    for j in judged.found.iter().filter(|j| !cod::is_noise(s, j)) {
        let i = &j.inconsistency;
        let who = match j.other {
            Some(b) => format!("{}/{}", label(j.engine), label(b)),
            None => label(j.engine),
        };
        let count = |c: Option<u64>| c.map_or("-".to_string(), |n| n.to_string());
        let at = match (&i.arc, i.kind) {
            (_, cod::InconsistencyKind::Output) => "the program's output".to_string(),
            (Some(arc), _) => format!("arc {arc}"),
            (None, _) if i.line == i.line_b => format!("line {}", i.line + 1),
            (None, _) => format!("line {} (line {} of the other)", i.line + 1, i.line_b + 1),
        };
        let _ = writeln!(
            o,
            "inconsistency: {} {who} {} at {at} ({}): {} vs {}",
            j.relation.name(),
            i.kind.name(),
            cod::syntax_of(s, j),
            count(i.a),
            count(i.b)
        );
    }
    for u in &judged.unjudged {
        let _ = writeln!(o, "not judged: {}: {}", u.relation.name(), u.reason);
    }
    for (k, v) in s.notes.iter().filter(|(k, _)| !k.starts_with("lockstep")) {
        let _ = writeln!(o, "{k}: {v}");
    }
}
