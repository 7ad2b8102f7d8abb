//! Synthetic but realistic campaigns, for benchmarks and for exercising readers on large inputs
//! (the analyzer's benchmark needs archives larger than any campaign worth recording for it).
//!
//! Sessions look like recorded ones: breakpoints with slid locations, control actions each
//! answered by a pause whose top frame carries local, block and closure scopes with evolving
//! loop counters, strings, arrays and nested objects; differential sessions carry two traces
//! and sometimes a divergence. Everything is drawn from a seeded ChaCha8 generator.

use morphtrace_schema::engine::{EngineDescriptor, EngineKind, EngineRef, Protocol};
use morphtrace_schema::header::{ArchiveHeader, CampaignConfig};
use morphtrace_schema::program::{Language, Program, ProgramOrigin};
use morphtrace_schema::session::*;
use morphtrace_schema::trace::*;
use morphtrace_schema::value::{Entry, Key, ObjectKind, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two engines as a real differential campaign would have them.
pub fn engines() -> Vec<EngineDescriptor> {
    vec![
        EngineDescriptor {
            kind: EngineKind::Chromium,
            executable: "/usr/lib/chromium/chromium".into(),
            version: "156.0.8078.79".into(),
            protocol: Protocol::Cdp,
            engine_version: Some("15.6.121.8".into()),
            details: vec![],
        },
        EngineDescriptor {
            kind: EngineKind::Node,
            executable: "/usr/bin/node".into(),
            version: "v20.20.2".into(),
            protocol: Protocol::Cdp,
            engine_version: Some("11.3.244.8-node.33".into()),
            details: vec![],
        },
    ]
}

pub fn header(name: &str) -> ArchiveHeader {
    ArchiveHeader::new(
        CampaignConfig {
            name: name.into(),
            strategy: "synthetic".into(),
            corpus: vec!["synthetic".into()],
            seeds: "synthetic".into(),
            params: vec![("generator".into(), "morphtrace-schema::synth".into())],
            command_line: vec![],
        },
        engines(),
    )
}

const NAMES: &[&str] = &[
    "i", "j", "n", "total", "sum", "result", "tmp", "key", "value", "arr", "obj", "node", "left",
    "right", "count", "index", "str", "len", "x", "y", "z", "acc", "cur", "prev",
];
const FUNCS: &[&str] = &[
    "add",
    "compute",
    "bottomUpTree",
    "itemCheck",
    "fannkuch",
    "partial",
    "sha1",
    "md5_ii",
    "core_sha1",
    "rotate",
    "cordicsincos",
    "A",
    "Au",
    "AtAu",
    "spectralnorm",
    "encodeBase64",
];

/// `n` programs of 40–160 lines, shaped like the corpus (functions, loops, object literals).
pub fn programs(seed: u64, n: usize) -> Vec<Program> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    (0..n)
        .map(|p| {
            let mut text = format!("// synthetic program {p}\n");
            let funcs = rng.random_range(2..8);
            for f in 0..funcs {
                let name = FUNCS[rng.random_range(0..FUNCS.len())];
                text.push_str(&format!("function {name}{f}(a, b) {{\n"));
                for _ in 0..rng.random_range(3..15) {
                    let v = NAMES[rng.random_range(0..NAMES.len())];
                    match rng.random_range(0..4) {
                        0 => text
                            .push_str(&format!("  let {v} = a + {};\n", rng.random_range(0..100))),
                        1 => text.push_str(&format!(
                            "  for (let i = 0; i < b; i++) {{\n    {v} = ({v} | 0) + i;\n  }}\n"
                        )),
                        2 => text.push_str(&format!("  var {v} = {{ k: a, arr: [1, 2, 3] }};\n")),
                        _ => text.push_str(&format!(
                            "  if (a > b) {{ a = b - {}; }}\n",
                            rng.random_range(0..9)
                        )),
                    }
                }
                text.push_str("  return a;\n}\n\n");
            }
            text.push_str(&format!(
                "var result = {}0(3, 10);\nconsole.log(result);\n",
                FUNCS[0]
            ));
            Program::new(
                Language::JavaScript,
                text,
                ProgramOrigin::Inline {
                    name: format!("synthetic/{p}.js"),
                },
            )
        })
        .collect()
}

struct VarState {
    name: &'static str,
    value: Value,
}

fn small_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
    match rng.random_range(0..10) {
        0..=3 => Value::Number(rng.random_range(0..1000) as f64),
        4 => Value::Number(rng.random::<f64>() * 100.0),
        5 => Value::String(NAMES[rng.random_range(0..NAMES.len())].repeat(rng.random_range(1..4))),
        6 => Value::Bool(rng.random()),
        7 => Value::Undefined,
        _ if depth == 0 => Value::Object {
            kind: ObjectKind::Object,
            class: "Object".into(),
            description: Some("Object".into()),
            entries: None,
            truncated: false,
        },
        8 => {
            let n = rng.random_range(1..5);
            Value::Object {
                kind: ObjectKind::Array,
                class: "Array".into(),
                description: Some(format!("Array({n})")),
                entries: Some(
                    (0..n)
                        .map(|i| Entry {
                            key: Key::Index(i),
                            value: small_value(rng, depth - 1),
                        })
                        .collect(),
                ),
                truncated: false,
            }
        }
        _ => Value::Object {
            kind: ObjectKind::Object,
            class: "Object".into(),
            description: Some("Object".into()),
            entries: Some(
                (0..rng.random_range(1..4))
                    .map(|_| Entry {
                        key: Key::Name(NAMES[rng.random_range(0..NAMES.len())].into()),
                        value: small_value(rng, depth - 1),
                    })
                    .collect(),
            ),
            truncated: false,
        },
    }
}

fn scope(kind: ScopeKind, vars: &[VarState]) -> Scope {
    Scope {
        kind,
        name: None,
        variables: vars
            .iter()
            .map(|v| Variable {
                name: v.name.into(),
                value: v.value.clone(),
                reported: None,
            })
            .collect(),
    }
}

/// One trace of about `events` events.
fn trace(rng: &mut ChaCha8Rng, engine: EngineRef, program_lines: u32, events: usize) -> Trace {
    let mut ev = Vec::with_capacity(events + 4);
    let mut t = 0u64;
    let mut push = |ev: &mut Vec<Event>, kind: EventKind, rng: &mut ChaCha8Rng| {
        t += rng.random_range(50..3000);
        ev.push(Event { at_us: t, kind });
    };
    let bps = rng.random_range(1..6);
    for b in 0..bps {
        let line = rng.random_range(0..program_lines);
        push(
            &mut ev,
            EventKind::Action(Action::SetBreakpoint { line, column: None }),
            rng,
        );
        let actual = Location::new(line + rng.random_range(0..3), rng.random_range(0..20));
        push(
            &mut ev,
            EventKind::Output(Output::BreakpointSet {
                id: BreakpointId(b),
                requested: Location::new(line, 0),
                actual: vec![actual],
                source: LocationSource::EngineReported,
                policy: None,
            }),
            rng,
        );
    }
    push(&mut ev, EventKind::Action(Action::Start), rng);
    let mut locals: Vec<VarState> = (0..rng.random_range(2..7))
        .map(|_| VarState {
            name: NAMES[rng.random_range(0..NAMES.len())],
            value: small_value(rng, 2),
        })
        .collect();
    let closure: Vec<VarState> = (0..rng.random_range(0..3))
        .map(|_| VarState {
            name: NAMES[rng.random_range(0..NAMES.len())],
            value: small_value(rng, 1),
        })
        .collect();
    let mut line = rng.random_range(0..program_lines);
    let depth = rng.random_range(1..4usize);
    while ev.len() + 2 < events {
        let action = match rng.random_range(0..4) {
            0 => Action::Resume,
            1 => Action::StepInto,
            2 => Action::StepOver,
            _ => Action::StepOut,
        };
        push(&mut ev, EventKind::Action(action.clone()), rng);
        line = (line + rng.random_range(0..4)) % program_lines.max(1);
        // Loop counters advance; other variables change now and then, as in real programs.
        for v in locals.iter_mut() {
            match &mut v.value {
                Value::Number(n) if n.fract() == 0.0 => *n += 1.0,
                _ if rng.random_range(0..8) == 0 => v.value = small_value(rng, 2),
                _ => {}
            }
        }
        let stack = (0..depth)
            .map(|d| Frame {
                function: format!("{}{}", FUNCS[d % FUNCS.len()], d),
                location: Location::new(line.saturating_sub(d as u32 * 7), 4),
                scopes: if d == 0 {
                    let mut s = vec![scope(ScopeKind::Local, &locals)];
                    if !closure.is_empty() {
                        s.push(scope(ScopeKind::Closure, &closure));
                    }
                    s
                } else {
                    vec![]
                },
            })
            .collect();
        let reason = if action == Action::Resume {
            PauseReason::Breakpoint {
                ids: vec![BreakpointId(rng.random_range(0..bps))],
            }
        } else {
            PauseReason::Step
        };
        push(
            &mut ev,
            EventKind::Output(Output::Paused(PauseState {
                location: Location::new(line, 4),
                reason,
                engine_reason: Some("other".into()),
                stack,
                exception: None,
                condition: None,
                async_stack: None,
            })),
            rng,
        );
    }
    push(&mut ev, EventKind::Action(Action::Resume), rng);
    push(
        &mut ev,
        EventKind::Output(Output::Finished {
            outcome: ProgramOutcome::Completed,
        }),
        rng,
    );
    Trace {
        engine,
        events: ev,
        console: vec![],
        logs: vec![],
    }
}

/// Session number `index` of a synthetic campaign with `events` events on average.
pub fn session(seed: u64, index: u64, program: &Program, events: usize) -> Session {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ index);
    let lines = program.line_count().max(1) as u32;
    let differential = rng.random_range(0..2) == 0;
    let spread = events / 2;
    let n = rng.random_range(events - spread..=events + spread).max(4);
    let (mode, engines, traces) = if differential {
        let mut a = trace(&mut rng, EngineRef(0), lines, n / 2);
        let mut b = a.clone();
        b.engine = EngineRef(1);
        // The second engine behaves the same up to a point, as real debuggers mostly do.
        if rng.random_range(0..4) == 0 && b.events.len() > 4 {
            let cut = rng.random_range(2..b.events.len());
            b.events.truncate(cut);
            let tail = trace(&mut rng, EngineRef(1), lines, n / 2 - cut.min(n / 2));
            b.events.extend(tail.events);
        }
        for e in a.events.iter_mut().chain(b.events.iter_mut()) {
            e.at_us += rng.random_range(0..100);
        }
        (
            SessionMode::Differential,
            vec![EngineRef(0), EngineRef(1)],
            vec![a, b],
        )
    } else {
        let e = EngineRef(rng.random_range(0..2));
        (
            SessionMode::Random,
            vec![e],
            vec![trace(&mut rng, e, lines, n)],
        )
    };
    let kinds = |t: &Trace| t.events.iter().map(|e| e.kind.clone()).collect::<Vec<_>>();
    let diverged = differential && kinds(&traces[0]) != kinds(&traces[1]);
    let divergence = diverged.then(|| Divergence {
        kind: [
            DivergenceKind::PauseLocation,
            DivergenceKind::Variables,
            DivergenceKind::CallStack,
            DivergenceKind::BreakpointLocation,
        ][rng.random_range(0..4)]
        .clone(),
        action_index: rng.random_range(0..10),
        action: Action::StepOver,
        sides: vec![],
        detail: "synthetic".into(),
        groups: Vec::new(),
        suspect: None,
        continued: None,
        program_differs: None,
        pairs: Vec::new(),
        facts: Vec::new(),
    });
    Session {
        id: SessionId::from_key(&format!("synthetic/{seed}/{index}")),
        mode,
        seed: index,
        engines,
        program: program.hash,
        parent: None,
        transformations: vec![],
        outcome: if diverged {
            SessionOutcome::Diverged
        } else if rng.random_range(0..5) == 0 {
            SessionOutcome::ActionLimit
        } else {
            SessionOutcome::Finished
        },
        started_at_ms: 1_790_000_000_000 + index as i64 * 37,
        duration_us: rng.random_range(10_000..400_000),
        traces,
        divergence,
        warnings: vec![],
        coverage: vec![],
        notes: vec![],
        divergences: Vec::new(),
        cpu_us: None,
    }
}
