//! Property tests: every schema type survives the archive unchanged (both encodings).

use morphtrace_schema::archive::{Encoding, FsyncPolicy};
use morphtrace_schema::rayon::prelude::*;
use morphtrace_schema::*;
use morphtrace_testkit::synth;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_$][a-zA-Z0-9_$]{0,8}",
        any::<String>(),
        Just(String::new()),
        Just("\u{1F600} ünïcödé \0 \r\n".to_string()),
    ]
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(-0.0),
        Just(0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MIN_POSITIVE),
        Just(9007199254740993.0),
    ]
}

fn object_kind() -> impl Strategy<Value = ObjectKind> {
    prop_oneof![
        Just(ObjectKind::Object),
        Just(ObjectKind::Array),
        Just(ObjectKind::Map),
        Just(ObjectKind::Set),
        Just(ObjectKind::Function),
        Just(ObjectKind::Error),
        Just(ObjectKind::Date),
        Just(ObjectKind::RegExp),
        Just(ObjectKind::Promise),
        Just(ObjectKind::Proxy),
        Just(ObjectKind::TypedArray),
        Just(ObjectKind::WeakMap),
        Just(ObjectKind::WeakSet),
        Just(ObjectKind::Generator),
        text().prop_map(ObjectKind::Other),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        "-?[0-9]{1,40}".prop_map(Value::BigInt),
        text().prop_map(Value::String),
        text().prop_map(Value::Symbol),
        Just(Value::Uninitialized),
        Just(Value::OptimizedOut),
        Just(Value::Unavailable),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let key = prop_oneof![
            text().prop_map(Key::Name),
            any::<u64>().prop_map(Key::Index),
            inner.clone().prop_map(Key::Value),
        ];
        (
            object_kind(),
            text(),
            option::of(text()),
            option::of(vec(
                (key, inner).prop_map(|(key, value)| Entry { key, value }),
                0..4,
            )),
            any::<bool>(),
        )
            .prop_map(
                |(kind, class, description, entries, truncated)| Value::Object {
                    kind,
                    class,
                    description,
                    entries,
                    truncated,
                },
            )
    })
}

fn location() -> impl Strategy<Value = Location> {
    (any::<u32>(), any::<u32>()).prop_map(|(l, c)| Location::new(l, c))
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any::<u32>(), option::of(any::<u32>()))
            .prop_map(|(line, column)| Action::SetBreakpoint { line, column }),
        any::<u32>().prop_map(|i| Action::RemoveBreakpoint {
            id: BreakpointId(i)
        }),
        Just(Action::Start),
        Just(Action::Resume),
        Just(Action::StepInto),
        Just(Action::StepOver),
        Just(Action::StepOut),
        prop_oneof![
            Just(ExceptionPause::None),
            Just(ExceptionPause::Uncaught),
            Just(ExceptionPause::All),
        ]
        .prop_map(|mode| Action::PauseOnExceptions { mode }),
        text().prop_map(|expression| Action::Evaluate { expression }),
        (any::<u32>(), text(), option::of(any::<u32>())).prop_map(|(line, condition, column)| {
            Action::SetConditionalBreakpoint {
                line,
                condition,
                column,
            }
        }),
        (any::<u32>(), text(), option::of(any::<u32>())).prop_map(|(line, expression, column)| {
            Action::SetLogpoint {
                line,
                expression,
                column,
            }
        }),
        (text(), text()).prop_map(|(name, value)| Action::SetVariable { name, value }),
        any::<u32>().prop_map(|line| Action::ContinueToLocation { line }),
        any::<u32>().prop_map(|frame| Action::RestartFrame { frame }),
    ]
}

fn scope_kind() -> impl Strategy<Value = ScopeKind> {
    prop_oneof![
        Just(ScopeKind::Local),
        Just(ScopeKind::Closure),
        Just(ScopeKind::Block),
        Just(ScopeKind::Catch),
        Just(ScopeKind::With),
        Just(ScopeKind::Script),
        Just(ScopeKind::Module),
        Just(ScopeKind::Global),
        Just(ScopeKind::Eval),
        text().prop_map(ScopeKind::Other),
    ]
}

fn pause() -> impl Strategy<Value = PauseState> {
    let variable =
        (text(), value(), option::of(value())).prop_map(|(name, value, reported)| Variable {
            name,
            value,
            reported,
        });
    let scope = (scope_kind(), option::of(text()), vec(variable, 0..4)).prop_map(
        |(kind, name, variables)| Scope {
            kind,
            name,
            variables,
        },
    );
    let frame =
        (text(), location(), vec(scope, 0..3)).prop_map(|(function, location, scopes)| Frame {
            function,
            location,
            scopes,
        });
    let async_frames =
        (text(), vec((text(), location()), 0..3)).prop_map(|(cause, frames)| AsyncFrames {
            cause,
            frames: frames
                .into_iter()
                .map(|(function, location)| Frame {
                    function,
                    location,
                    scopes: Vec::new(),
                })
                .collect(),
        });
    let reason = prop_oneof![
        Just(PauseReason::Entry),
        vec(any::<u32>().prop_map(BreakpointId), 0..3)
            .prop_map(|ids| PauseReason::Breakpoint { ids }),
        Just(PauseReason::Step),
        Just(PauseReason::Exception),
        Just(PauseReason::DebuggerStatement),
        text().prop_map(PauseReason::Other),
    ];
    (
        location(),
        reason,
        option::of(text()),
        vec(frame, 0..3),
        option::of(value().prop_map(Box::new)),
        option::of(vec(async_frames, 0..3)),
    )
        .prop_map(
            |(location, reason, engine_reason, stack, exception, async_stack)| PauseState {
                location,
                reason,
                engine_reason,
                stack,
                exception,
                condition: None,
                async_stack,
            },
        )
}

fn program_outcome() -> impl Strategy<Value = ProgramOutcome> {
    prop_oneof![
        Just(ProgramOutcome::Completed),
        (text(), option::of(location())).prop_map(|(message, location)| {
            ProgramOutcome::UncaughtException { message, location }
        }),
        (text(), option::of(location()))
            .prop_map(|(message, location)| ProgramOutcome::SyntaxError { message, location }),
        Just(ProgramOutcome::Timeout),
        text().prop_map(|message| ProgramOutcome::EngineCrashed { message }),
        Just(ProgramOutcome::Detached),
    ]
}

fn output() -> impl Strategy<Value = Output> {
    let source = prop_oneof![
        Just(LocationSource::EngineReported),
        Just(LocationSource::ClientComputed),
        Just(LocationSource::Unknown),
    ];
    prop_oneof![
        (
            any::<u32>(),
            location(),
            vec(location(), 0..3),
            source,
            proptest::option::of("[a-z-]{0,12}")
        )
            .prop_map(
                |(id, requested, actual, source, policy)| Output::BreakpointSet {
                    id: BreakpointId(id),
                    requested,
                    actual,
                    source,
                    policy,
                }
            ),
        (any::<u32>(), any::<bool>()).prop_map(|(id, ok)| Output::BreakpointRemoved {
            id: BreakpointId(id),
            ok
        }),
        pause().prop_map(Output::Paused),
        program_outcome().prop_map(|outcome| Output::Finished { outcome }),
        text().prop_map(|message| Output::Error { message }),
        prop_oneof![Just(ExceptionPause::Uncaught), Just(ExceptionPause::All)]
            .prop_map(|mode| Output::PauseOnExceptionsSet { mode }),
        (value(), any::<bool>()).prop_map(|(value, threw)| Output::Evaluated { value, threw }),
        (text(), value()).prop_map(|(name, value)| Output::VariableSet { name, value }),
    ]
}

fn trace(engine: u16) -> impl Strategy<Value = Trace> {
    let event = (
        any::<u64>(),
        prop_oneof![
            action().prop_map(EventKind::Action),
            output().prop_map(EventKind::Output)
        ],
    )
        .prop_map(|(at_us, kind)| Event { at_us, kind });
    let log = (any::<u32>(), any::<u32>(), text()).prop_map(|(action, id, text)| LogLine {
        action,
        breakpoint: BreakpointId(id),
        text,
    });
    (vec(event, 0..8), vec(text(), 0..2), vec(log, 0..2)).prop_map(
        move |(events, console, logs)| Trace {
            engine: EngineRef(engine),
            events,
            console,
            logs,
        },
    )
}

fn line_map() -> impl Strategy<Value = LineMap> {
    vec(
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(start, len, origin_start)| {
            LineSegment {
                start,
                len,
                origin_start,
            }
        }),
        0..4,
    )
    .prop_map(|segments| LineMap { segments })
}

fn program() -> impl Strategy<Value = Program> {
    let origin = prop_oneof![
        text().prop_map(|path| ProgramOrigin::File { path }),
        (text(), any::<bool>(), vec(text(), 0..3)).prop_map(|(path, strict, includes)| {
            ProgramOrigin::Test262 {
                path,
                strict,
                includes,
            }
        }),
        (text(), any::<u64>())
            .prop_map(|(generator, seed)| ProgramOrigin::Generated { generator, seed }),
        (any::<[u8; 32]>(), text()).prop_map(|(h, transformation)| ProgramOrigin::Transformed {
            parent: ProgramHash(h),
            transformation
        }),
        text().prop_map(|name| ProgramOrigin::Inline { name }),
    ];
    (
        any::<String>(),
        prop_oneof![Just(Language::JavaScript), Just(Language::C)],
        origin,
        option::of(line_map()),
    )
        .prop_map(|(text, language, origin, origin_map)| {
            let mut p = Program::new(language, text, origin);
            p.origin_map = origin_map;
            p
        })
}

fn pair() -> impl Strategy<Value = (String, String)> {
    (text(), text())
}

fn coverage(program: ProgramHash) -> impl Strategy<Value = CoverageReport> {
    let range = (any::<u32>(), any::<u32>(), any::<u64>())
        .prop_map(|(start, end, count)| BlockRange { start, end, count });
    let function =
        (text(), vec(range, 0..4), any::<bool>()).prop_map(|(name, ranges, is_block_coverage)| {
            FunctionCoverage {
                name,
                ranges,
                is_block_coverage,
            }
        });
    let file = (
        text(),
        vec(function, 0..3),
        vec(option::of(any::<u64>()), 0..20),
        vec(
            (any::<u32>(), any::<u32>(), text(), option::of(any::<u64>())),
            0..5,
        ),
        vec(text(), 0..5),
    )
        .prop_map(
            |(name, functions, lines, statements, line_kinds)| FileCoverage {
                name,
                functions,
                lines,
                statements: statements
                    .into_iter()
                    .map(|(start, line, kind, count)| StatementCount {
                        start,
                        line,
                        kind,
                        count,
                    })
                    .collect(),
                line_kinds,
                branches: Vec::new(),
                executed_only: false,
            },
        );
    let run = (text(), option::of(any::<i32>()), option::of(text())).prop_map(
        |(stdout, exit_code, interpreter)| ProgramRun {
            stdout,
            exit_code,
            interpreter,
        },
    );
    (vec(file, 0..3), option::of(run)).prop_map(move |(files, run)| CoverageReport {
        engine: EngineRef(0),
        program,
        files,
        run,
    })
}

fn session_mode() -> impl Strategy<Value = SessionMode> {
    prop_oneof![
        Just(SessionMode::Random),
        Just(SessionMode::Differential),
        Just(SessionMode::Replay),
        Just(SessionMode::Metamorphic),
        Just(SessionMode::Coverage),
        Just(SessionMode::Synthesis),
        text().prop_map(SessionMode::Other),
    ]
}

fn session_outcome() -> impl Strategy<Value = SessionOutcome> {
    prop_oneof![
        Just(SessionOutcome::Finished),
        Just(SessionOutcome::ActionLimit),
        Just(SessionOutcome::Diverged),
        Just(SessionOutcome::Violated),
        Just(SessionOutcome::Timeout),
        text().prop_map(|message| SessionOutcome::HarnessError { message }),
    ]
}

fn divergence() -> impl Strategy<Value = Divergence> {
    let kind = prop_oneof![
        Just(DivergenceKind::BreakpointLocation),
        Just(DivergenceKind::BreakpointRemoval),
        Just(DivergenceKind::Termination),
        Just(DivergenceKind::PauseLocation),
        Just(DivergenceKind::CallStack),
        Just(DivergenceKind::Variables),
        text().prop_map(DivergenceKind::Other),
    ];
    let side = (any::<u16>(), option::of(output())).prop_map(|(e, output)| DivergenceSide {
        engine: EngineRef(e),
        output,
    });
    (kind, any::<u32>(), action(), vec(side, 0..3), text()).prop_map(
        |(kind, action_index, action, sides, detail)| Divergence {
            kind,
            action_index,
            action,
            sides,
            detail,
            groups: Vec::new(),
            suspect: None,
            continued: None,
            program_differs: None,
            pairs: Vec::new(),
            facts: Vec::new(),
        },
    )
}

/// A session over `programs` (its own program and transformation programs drawn from them).
fn session(programs: Vec<ProgramHash>) -> impl Strategy<Value = Session> {
    let n = programs.len();
    let p2 = programs.clone();
    let transformation = (
        text(),
        any::<bool>(),
        vec(pair(), 0..3),
        0..n,
        0..n,
        option::of(line_map()),
    )
        .prop_map(
            move |(name, interactive, params, a, b, mapping)| TransformationRecord {
                name,
                interactive,
                params,
                program_before: p2[a],
                program_after: p2[b],
                mapping,
            },
        );
    let warning = (
        text(),
        any::<u32>(),
        option::of(any::<u64>()),
        option::of(any::<u32>()),
        text(),
    )
        .prop_map(|(relation, round, against, event_index, message)| Warning {
            relation,
            round,
            against: against.map(SessionId),
            event_index,
            message,
        });
    let parent = option::of(
        (any::<u64>(), any::<u32>()).prop_map(|(s, round)| ParentRef {
            session: SessionId(s),
            round,
        }),
    );
    (
        (
            any::<u64>(),
            session_mode(),
            any::<u64>(),
            0..n,
            parent,
            vec(transformation, 0..2),
        ),
        (
            session_outcome(),
            any::<i64>(),
            any::<u64>(),
            vec(trace(0), 1..3),
            option::of(divergence()),
        ),
        (vec(warning, 0..2), 0..n, vec(pair(), 0..2)),
    )
        .prop_flat_map(move |(a, b, c)| {
            let cov_program = programs[c.1];
            let programs = programs.clone();
            vec(coverage(cov_program), 0..2).prop_map(move |coverage| {
                let (id, mode, seed, p, parent, transformations) = a.clone();
                let (outcome, started_at_ms, duration_us, traces, divergence) = b.clone();
                Session {
                    id: SessionId(id),
                    mode,
                    seed,
                    engines: traces.iter().map(|t| t.engine).collect(),
                    program: programs[p],
                    parent,
                    transformations,
                    outcome,
                    started_at_ms,
                    duration_us,
                    traces,
                    divergence,
                    warnings: c.0.clone(),
                    coverage,
                    notes: c.2.clone(),
                    divergences: Vec::new(),
                    cpu_us: None,
                }
            })
        })
}

fn header() -> impl Strategy<Value = ArchiveHeader> {
    let kind = prop_oneof![
        Just(EngineKind::Chromium),
        Just(EngineKind::Node),
        Just(EngineKind::Firefox),
        Just(EngineKind::Deno),
        Just(EngineKind::Bun),
        Just(EngineKind::Gcov),
        Just(EngineKind::LlvmCov),
        text().prop_map(EngineKind::Other),
    ];
    let protocol = prop_oneof![
        Just(Protocol::Cdp),
        Just(Protocol::Rdp),
        Just(Protocol::WebKitInspector),
        Just(Protocol::CoverageTool),
        text().prop_map(Protocol::Other),
    ];
    let engine = (
        kind,
        text(),
        text(),
        protocol,
        option::of(text()),
        vec(pair(), 0..2),
    )
        .prop_map(
            |(kind, executable, version, protocol, engine_version, details)| EngineDescriptor {
                kind,
                executable,
                version,
                protocol,
                engine_version,
                details,
            },
        );
    let campaign = (
        text(),
        text(),
        vec(text(), 0..3),
        text(),
        vec(pair(), 0..3),
        vec(text(), 0..3),
    )
        .prop_map(
            |(name, strategy, corpus, seeds, params, command_line)| CampaignConfig {
                name,
                strategy,
                corpus,
                seeds,
                params,
                command_line,
            },
        );
    let host = (
        text(),
        text(),
        text(),
        any::<u32>(),
        option::of(any::<u64>()),
    )
        .prop_map(|(hostname, os, arch, cpus, memory_bytes)| HostInfo {
            hostname,
            os,
            arch,
            cpus,
            memory_bytes,
        });
    (campaign, vec(engine, 1..4), host, any::<i64>()).prop_map(|(campaign, engines, host, t)| {
        let mut h = ArchiveHeader::new(campaign, engines);
        h.host = host;
        h.started_at_ms = t;
        h
    })
}

/// A whole archive's worth: header, programs, sessions with unique ids.
fn archive_content() -> impl Strategy<Value = (ArchiveHeader, Vec<Program>, Vec<Session>)> {
    (header(), vec(program(), 1..4)).prop_flat_map(|(h, programs)| {
        let hashes: Vec<ProgramHash> = programs.iter().map(|p| p.hash).collect();
        (Just(h), Just(programs), vec(session(hashes), 0..5)).prop_map(|(h, p, mut s)| {
            for (i, s) in s.iter_mut().enumerate() {
                s.id = SessionId(s.id.0.wrapping_add(i as u64) ^ (i as u64) << 60);
            }
            s.sort_by_key(|s| s.id);
            s.dedup_by_key(|s| s.id);
            (h, p, s)
        })
    })
}

fn write_and_read(
    header: &ArchiveHeader,
    programs: &[Program],
    sessions: &[Session],
    encoding: Encoding,
    finish: bool,
) -> ArchiveReader {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.mtrace");
    let opts = WriterOptions {
        fsync: FsyncPolicy::Never,
        encoding,
        ..WriterOptions::default()
    };
    let mut w = ArchiveWriter::create(&path, header, opts).unwrap();
    for p in programs {
        w.add_program(p).unwrap();
    }
    for s in sessions {
        w.append(s).unwrap();
    }
    if finish {
        w.finish().unwrap();
    }
    ArchiveReader::open(&path).unwrap()
}

/// The composed strategies are deep; debug builds need more than a test thread's default stack.
fn run_with_big_stack<S: Strategy + 'static>(
    cases: u32,
    strategy: impl FnOnce() -> S + Send + 'static,
    test: impl Fn(S::Value) -> Result<(), TestCaseError> + Send + 'static,
) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
                cases,
                ..ProptestConfig::default()
            });
            if let Err(e) = runner.run(&strategy(), test) {
                panic!("{e}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn archive_round_trips_every_type() {
    let strategy = || (archive_content(), any::<bool>(), any::<bool>());
    run_with_big_stack(
        96,
        strategy,
        |((header, programs, sessions), compact, finish)| {
            let enc = if compact {
                Encoding::Compact
            } else {
                Encoding::Named
            };
            let r = write_and_read(&header, &programs, &sessions, enc, finish);
            prop_assert_eq!(r.header(), &header);
            prop_assert!(r.recovery().is_intact());
            let mut unique = programs.clone();
            unique.sort_by_key(|p| p.hash);
            unique.dedup_by_key(|p| p.hash);
            prop_assert_eq!(r.programs().len(), unique.len());
            for p in &unique {
                prop_assert_eq!(r.program(&p.hash), Some(p));
            }
            let back: Vec<Session> = r.sessions().collect::<Result<_, _>>().unwrap();
            prop_assert_eq!(&back, &sessions);
            let par: Vec<Session> = r.par_sessions().collect::<Result<Vec<_>, _>>().unwrap();
            prop_assert_eq!(&par, &sessions);
            for s in &sessions {
                prop_assert_eq!(r.session_by_id(s.id), Some(s.clone()));
            }
            Ok(())
        },
    );
}

#[test]
fn values_keep_exact_numbers() {
    run_with_big_stack(512, value, |v| {
        let bytes = rmp_serde::to_vec_named(&v).unwrap();
        let back: Value = rmp_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(back, v);
        Ok(())
    });
}

#[test]
fn sessions_need_their_programs_and_unique_ids() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.mtrace");
    let programs = synth::programs(1, 2);
    let mut w =
        ArchiveWriter::create(&path, &synth::header("t"), WriterOptions::default()).unwrap();
    let s = synth::session(1, 0, &programs[0], 20);
    assert!(matches!(
        w.append(&s),
        Err(ArchiveError::UnknownProgram { .. })
    ));
    w.add_program(&programs[0]).unwrap();
    w.append(&s).unwrap();
    assert!(matches!(
        w.append(&s),
        Err(ArchiveError::DuplicateSession(_))
    ));
    assert!(ArchiveWriter::create(&path, &synth::header("t"), WriterOptions::default()).is_err());
}

/// Every archive the project committed under `traces/` reads whole with this build: intact,
/// every session frame and GenMorph execution frame decoded, the programs they name stored.
/// (The format crate must change least; an archive it can no longer read is a broken contract.)
#[test]
fn every_committed_archive_reads_whole() {
    fn archives(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                archives(&p, out);
            } else if p.extension().is_some_and(|x| x == archive::EXTENSION) {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces");
    let mut paths = Vec::new();
    archives(&root, &mut paths);
    // Thirty-odd campaigns are committed; a walk that found few would check little.
    assert!(paths.len() >= 30, "{} archives under {root:?}", paths.len());
    let sessions: usize = paths
        .par_iter()
        .map(|p| {
            let r = ArchiveReader::open(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            assert!(r.recovery().is_intact(), "{p:?}: {:?}", r.recovery());
            let mut n = 0;
            for s in r.sessions() {
                let s = s.unwrap_or_else(|e| panic!("{p:?}: {e}"));
                assert!(r.program(&s.program).is_some(), "{p:?}: {}", s.id);
                n += 1;
            }
            assert_eq!(n, r.session_count(), "{p:?}");
            for i in 0..r.execution_count() {
                r.executions(i).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            }
            n + r.execution_count()
        })
        .sum();
    assert!(
        sessions > 1000,
        "{sessions} frames in {} archives",
        paths.len()
    );
}
