//! GenMorph execution frames: exact values survive the archive (both encodings), a resumed
//! archive keeps them, a torn tail loses only what was being written, and older readers'
//! rule (skip unknown frame kinds) leaves sessions intact.

use morphtrace_schema::archive::{Encoding, FsyncPolicy, WriterOptions};
use morphtrace_schema::genmorph::*;
use morphtrace_schema::{ArchiveReader, ArchiveWriter};
use morphtrace_testkit::synth;

fn batch(name: &str) -> ExecutionBatch {
    let n = JsValue::Number;
    let params = vec![
        Param {
            name: "xs".into(),
            kind: Kind::NumberArray,
        },
        Param {
            name: "s".into(),
            kind: Kind::Str,
        },
    ];
    let inputs = vec![
        InputRecord {
            origin: InputOrigin::Source,
            values: vec![
                JsValue::Array(vec![n(f64::NAN), n(-0.0), n(f64::NEG_INFINITY)]),
                JsValue::String("\u{1F600}\0é".into()),
            ],
        },
        InputRecord {
            origin: InputOrigin::Evaluation,
            values: vec![JsValue::Array(vec![]), JsValue::String(String::new())],
        },
        InputRecord {
            origin: InputOrigin::FollowUp {
                source: 0,
                transformation: 0,
            },
            values: vec![
                JsValue::Array(vec![n(f64::NEG_INFINITY), n(-0.0), n(f64::NAN)]),
                JsValue::String("\u{1F600}\0é".into()),
            ],
        },
    ];
    let mutant = |id: &str, role| {
        Implementation::Mutant(MutantRecord {
            id: id.into(),
            role,
            tool: "test".into(),
            operator: "arithmetic".into(),
            line: 3,
            column: 9,
            original: "a + b".into(),
            replacement: "a - b".into(),
        })
    };
    ExecutionBatch {
        subject: Subject {
            name: name.into(),
            package: "lodash".into(),
            version: "4.18.1".into(),
            module: "sum.js".into(),
            function: "sum".into(),
            call: "m => m".into(),
            params,
            returns: Kind::Number,
            source: "function sum(xs, s) { return 0; }".into(),
            span: (0, 33),
        },
        seed: 9,
        node: "v20.20.2".into(),
        constants: vec![(-1.0, 3), (1.0, 3), (0.5, 1)],
        transformations: vec![InputTransformation::SequenceFlip { param: 0 }],
        inputs,
        variants: vec![
            Implementation::Original,
            mutant("t0", MutantRole::Training),
            mutant("e0", MutantRole::Evaluation),
        ],
        outcomes: vec![
            vec![
                Outcome::Returned(n(f64::NAN)),
                Outcome::Returned(n(0.0)),
                Outcome::Returned(n(-0.0)),
            ],
            vec![
                Outcome::Threw {
                    name: "TypeError".into(),
                    message: "x is not a function".into(),
                },
                Outcome::Timeout,
                Outcome::Returned(JsValue::Undefined),
            ],
            vec![
                Outcome::Returned(JsValue::Array(vec![JsValue::Null, JsValue::Bool(true)])),
                Outcome::Returned(JsValue::Other("Map(0)".into())),
                Outcome::Returned(n(1.0)),
            ],
        ],
        coverage: (7, 9),
        elapsed_ms: 12,
    }
}

fn options(encoding: Encoding) -> WriterOptions {
    WriterOptions {
        fsync: FsyncPolicy::Never,
        encoding,
        ..WriterOptions::default()
    }
}

#[test]
fn execution_frames_round_trip_with_sessions() {
    let programs = synth::programs(3, 2);
    for encoding in [Encoding::Compact, Encoding::Named] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.mtrace");
        let mut w = ArchiveWriter::create(&path, &synth::header("g"), options(encoding)).unwrap();
        for p in &programs {
            w.add_program(p).unwrap();
        }
        let s = synth::session(3, 0, &programs[0], 20);
        w.append(&s).unwrap();
        w.append_executions(&batch("a")).unwrap();
        w.append_executions(&batch("b")).unwrap();
        w.finish().unwrap();
        let r = ArchiveReader::open(&path).unwrap();
        assert!(r.recovery().is_intact());
        assert_eq!(r.session_count(), 1);
        assert_eq!(r.session(0).unwrap(), s);
        assert_eq!(r.execution_count(), 2);
        assert_eq!(r.executions(0).unwrap(), batch("a"));
        assert_eq!(r.executions(1).unwrap(), batch("b"));
        assert!(r.executions(2).is_err());
    }
}

#[test]
fn resumed_and_torn_archives_keep_completed_execution_frames() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.mtrace");
    let mut w =
        ArchiveWriter::create(&path, &synth::header("g"), options(Encoding::Compact)).unwrap();
    w.append_executions(&batch("a")).unwrap();
    drop(w); // killed: no index
    let (mut w, _) = ArchiveWriter::open_append(&path, options(Encoding::Compact)).unwrap();
    w.append_executions(&batch("b")).unwrap();
    w.finish().unwrap();
    let r = ArchiveReader::open(&path).unwrap();
    assert_eq!(r.execution_count(), 2);
    assert_eq!(r.executions(1).unwrap(), batch("b"));
    // Cut inside the last frame: the first one is still there, the cut is reported.
    let bytes = std::fs::read(&path).unwrap();
    let cut = r.execution_offsets()[1] as usize + 20;
    let r = ArchiveReader::from_bytes(bytes[..cut].to_vec()).unwrap();
    assert_eq!(r.execution_count(), 1);
    assert_eq!(r.executions(0).unwrap(), batch("a"));
    assert!(!r.recovery().is_intact());
}

#[test]
fn malformed_batches_are_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.mtrace");
    let mut w =
        ArchiveWriter::create(&path, &synth::header("g"), options(Encoding::Compact)).unwrap();
    let mut b = batch("a");
    b.outcomes.pop();
    assert!(w.append_executions(&b).is_err());
    w.append_executions(&batch("ok")).unwrap();
    w.finish().unwrap();
    assert_eq!(ArchiveReader::open(&path).unwrap().execution_count(), 1);
}
