//! Campaigns through the `morphtrace-record` binary, reduction of planted divergences and warnings, and the parents a relation needs.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{chains::*, follow_ups::*, modern::*, planted::*};

pub(crate) fn summary_line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {out}"))
}

/// A campaign over the bundled DBDB programs and test262 tests on Chromium and Node, three
/// rounds, one seed: chains linked in the archive, derived programs stored, the summary per
/// transformation and round, and the same archive again from the same seed.
#[test]
fn a_campaign_records_linked_chains_deterministically() {
    let out = dir();
    let run = |name: &str| {
        let path = out.join(name);
        let o = Command::new(RECORD)
            .args(["run", "--strategy", "metamorphic", "--engine", "chromium"])
            .args(["--engine", "node", "--rounds", "3", "--seeds", "1"])
            .arg("--corpus")
            .arg(root().join("corpus/dbdb/manual"))
            .args(
                common::sunspider()
                    .iter()
                    .flat_map(|p| ["--corpus".into(), p.clone()]),
            )
            .arg("--corpus")
            .arg(format!(
                "test262:{}",
                root()
                    .join("tests/fixtures/test262/test/language/statements")
                    .display()
            ))
            .arg("--out")
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(
            o.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (path, stdout + &String::from_utf8_lossy(&o.stderr))
    };
    let (a, stdout) = run("a.mtrace");
    // `recorded N sessions in T s: J test cases judged (R/s), ...`: judged test cases only.
    let line = summary_line(&stdout, "recorded ");
    let n: usize = line
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no judged count in {line}"));
    assert!(line.contains(" test cases judged ("), "{line}");
    assert!(n > 100, "{stdout}");
    let sessions = normalized(&a);
    let reader = ArchiveReader::open(&a).unwrap();
    let by_id: HashMap<SessionId, &Session> = sessions.iter().map(|(k, v)| (*k, v)).collect();
    let mut initial = 0;
    for s in sessions.values() {
        assert!(reader.program(&s.program).is_some(), "program of {}", s.id);
        match s.parent {
            None => {
                initial += 1;
                assert!(s.transformations.is_empty());
            }
            Some(p) => {
                let parent = by_id[&p.session];
                assert_eq!(s.transformations.len() as u32, p.round);
                assert_eq!(parent.transformations.len() as u32 + 1, p.round);
                let t = s.transformations.last().unwrap();
                assert_eq!(t.program_before, parent.program);
                assert_eq!(t.program_after, s.program);
                assert_eq!(s.engines, parent.engines);
                for w in &s.warnings {
                    assert_eq!(w.round, p.round);
                    assert_eq!(w.against, Some(p.session));
                }
            }
        }
    }
    // 14 programs and 4 test262 tests (strict and sloppy) × 2 engines.
    assert!(initial >= 22 * 2, "{initial}: {stdout}");
    let (b, log_b) = run("b.mtrace");
    let again = normalized(&b);
    // An engine that dies mid-session (Node 20's V8 check failure, rarely Chromium) is not
    // reproducible: such a session and the rounds its chain could not run are left out of the
    // comparison, and there must be few of them. Everything else must be equal.
    let died = |m: &BTreeMap<SessionId, Session>| -> Vec<SessionId> {
        m.values()
            .filter(|s| matches!(s.outcome, SessionOutcome::HarnessError { .. }))
            .map(|s| s.id)
            .collect()
    };
    let mut skipped: BTreeSet<SessionId> = died(&sessions).into_iter().collect();
    skipped.extend(died(&again));
    // Descendants of a session that died in one run exist only in the other.
    let mut compared = 0;
    for id in sessions.keys().chain(again.keys()) {
        let (x, y) = (sessions.get(id), again.get(id));
        if skipped.contains(id) || x.is_none() || y.is_none() {
            let s = x.or(y).unwrap();
            let mut p = s.parent.map(|p| p.session);
            let mut explained = skipped.contains(id);
            while let Some(pid) = p {
                explained |= skipped.contains(&pid);
                p = sessions
                    .get(&pid)
                    .or(again.get(&pid))
                    .and_then(|q| q.parent.map(|r| r.session));
            }
            assert!(
                explained,
                "session {id} is in one run only\n--- first run\n{stdout}\n--- second run\n{log_b}"
            );
            continue;
        }
        compared += 1;
        assert_eq!(x, y, "session {id} differs between two runs");
    }
    assert!(
        skipped.len() * 50 <= sessions.len(),
        "{} of {} sessions lost their engine",
        skipped.len(),
        sessions.len()
    );
    assert!(compared >= sessions.len() * 9 / 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_divergence_is_reduced_to_a_few_lines_that_still_show_it() {
    use morphtrace_recorder::reduce::{Finding, Reducer};
    // The variable `s` is hidden at line 9 (0-based) by the faulty side; the rest is noise.
    let text = "// A planted finding among unrelated code.\nvar unused = [1, 2, 3];\nfunction noise(k) {\n  var t = k * 2;\n  return t + 1;\n}\nnoise(4);\nfunction run(n) {\n  var s = n + 1;\n  s = s * 2;\n  return s;\n}\nvar total = 0;\nfor (var i = 0; i < 3; i++) {\n  total += noise(i);\n}\nconsole.log(run(3), total);\n";
    let program = inline("planted.js", text);
    let mut real = engine("node").await;
    let mut faulty = FaultyEngine::wrap(
        engine("node").await,
        Fault::HideVariable {
            line: 9,
            name: "s".into(),
        },
    );
    // Actions around the one that shows it: noise's body pauses four times, then a step
    // from line 8 reaches the line where `s` is hidden.
    let actions = vec![
        bp(3),
        bp(8),
        bp(14),
        Action::RemoveBreakpoint {
            id: morphtrace_schema::BreakpointId(2),
        },
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::StepOver,
        Action::Resume,
    ];
    let policy = ComparisonPolicy::default();
    let refs = [EngineRef(0), EngineRef(1)];
    let rec = morphtrace_recorder::session::record(
        &mut [&mut real, &mut faulty],
        &refs,
        &program,
        &mut Reissue { actions: &actions },
        &policy,
        None,
        Duration::from_secs(60),
    )
    .await;
    let d = rec.divergence.clone().expect("the planted fault shows");
    assert_eq!(d.kind, morphtrace_schema::DivergenceKind::Variables);
    assert_eq!((d.action_index, d.action.name()), (9, "stepOver"));
    let finding = Finding::of(&d);
    let work = dir();
    let bar = indicatif::ProgressBar::hidden();
    let mut reducer = Reducer::new(
        vec![&mut real, &mut faulty],
        refs.to_vec(),
        policy.clone(),
        &work,
        Duration::from_secs(60),
        finding.clone(),
        Duration::from_secs(300),
        bar,
    );
    let r = reducer.reduce(text, &actions).await.expect("reduces");
    assert!(r.complete, "within the budget");
    assert!(r.lines.1 <= 5, "{} lines left:\n{}", r.lines.1, r.text);
    assert!(r.action_count.1 < actions.len(), "{:?}", r.actions);
    assert!(r.text.contains("var s"), "{}", r.text);
    assert!(!r.text.contains("noise("), "{}", r.text);
    // The reduced case, run again on its own, still shows the finding.
    let reduced = inline("reduced.js", &r.text);
    let again = morphtrace_recorder::session::record(
        &mut [&mut real, &mut faulty],
        &refs,
        &reduced,
        &mut Reissue {
            actions: &r.actions,
        },
        &policy,
        None,
        Duration::from_secs(60),
    )
    .await;
    let d2 = again.divergence.expect("still diverges");
    assert_eq!(
        (d2.kind, d2.action.name()),
        (finding.kind, finding.action.as_str())
    );
    // Without the fault there is nothing to reduce: refused, not an empty "reduction".
    let mut other = engine("node").await;
    let mut clean = Reducer::new(
        vec![&mut real, &mut other],
        refs.to_vec(),
        policy,
        &work,
        Duration::from_secs(60),
        Finding {
            kind: morphtrace_schema::DivergenceKind::Variables,
            action: "stepOver".into(),
            ends: Vec::new(),
            placed: Vec::new(),
            suspect: None,
        },
        Duration::from_secs(60),
        indicatif::ProgressBar::hidden(),
    );
    assert!(clean.reduce(text, &actions).await.is_err());
}

/// Reduces the warning of a one-round chain's follow-up with the metamorphic judge.
pub(crate) async fn reduce_warning(
    engine: &mut Box<dyn Engine>,
    text: &str,
    chain: &Chain,
) -> (
    morphtrace_recorder::reduce::Reduced,
    morphtrace_recorder::reduce::metamorphic::FollowUp,
    morphtrace_recorder::reduce::metamorphic::Violated,
) {
    use morphtrace_recorder::reduce::metamorphic::{ChainJudge, Violated};
    let (parent, follow) = (&chain.sessions[0], &chain.sessions[1]);
    let record = follow.transformations.last().unwrap();
    let v = mm::judge(&parent.traces[0], &follow.traces[0], record).expect("a violation");
    let finding = Violated {
        relation: follow.warnings[0].relation.clone(),
        transformation: record.name.clone(),
        kind: v.kind,
    };
    let work = dir();
    let mut judge = ChainJudge::new(
        engine,
        ComparisonPolicy::default(),
        &work,
        "node".into(),
        Duration::from_secs(60),
        true,
        follow.seed,
        finding.clone(),
        record,
    );
    let pinned = judge.anchored();
    let actions: Vec<Action> = parent.traces[0].actions().cloned().collect();
    let (r, f) = morphtrace_recorder::reduce::reduce_with(
        &mut judge,
        text,
        &actions,
        pinned,
        false,
        Duration::from_secs(300),
        indicatif::ProgressBar::hidden(),
    )
    .await
    .expect("reduces");
    judge.finish();
    (r, f, finding)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_warning_is_reduced_with_its_transformation_repeated() {
    // Pauses at line 4 (`s += 1`) are dropped by the faulty engine; dead code inserted before
    // line 3 moves that statement to line 5, where the follow-up pauses and the parent never
    // did. Everything after the function is noise.
    let text = "function run(n) {\n  var s = 0;\n  for (var i = 0; i < n; i++) {\n    s += i;\n    s += 1;\n  }\n  return s;\n}\nvar unused = [1, 2, 3];\nfunction noise(k) {\n  var t = k * 2;\n  return t + 1;\n}\nvar total = 0;\nfor (var j = 0; j < 3; j++) {\n  total += noise(j);\n}\nconsole.log(run(3), total);\n";
    let actions = vec![
        bp(4),
        bp(10),
        bp(6),
        Action::Start,
        Action::Resume,
        Action::Resume,
        Action::Resume,
        Action::StepOver,
        Action::Resume,
        Action::Resume,
    ];
    let pin = Pin {
        line: Some(3),
        ..Pin::default()
    };
    let mut faulty = FaultyEngine::wrap(engine("node").await, Fault::DropPausesAt { line: 4 });
    let c = chain_judged(
        &mut faulty,
        &inline("planted.js", text),
        &one(mm::Transformation::InsertDeadCode, actions.clone(), pin),
    )
    .await;
    assert_eq!(c.sessions.len(), 2);
    assert_eq!(
        c.sessions[1].warnings.len(),
        1,
        "{:?}",
        c.sessions[1].outcome
    );
    let recorded = c.sessions[1].transformations[0].clone();
    let (r, follow, finding) = reduce_warning(&mut faulty, text, &c).await;
    assert_eq!(finding.relation, "same-behaviour");
    assert!(r.complete, "within the budget");
    assert!(!r.text.contains("noise"), "{}", r.text);
    assert!(r.text.contains("s += 1"), "{}", r.text);
    assert!(r.lines.1 < r.lines.0 && r.lines.1 <= 8, "{}", r.text);
    assert!(r.action_count.1 < actions.len(), "{:?}", r.actions);
    // The follow-up is the reduced parent with the same dead code at the same place.
    let record = follow.record.clone().expect("a record");
    assert_eq!(record.name, mm::Transformation::InsertDeadCode.name());
    let code = |t: &morphtrace_schema::TransformationRecord| {
        t.params
            .iter()
            .find(|(k, _)| k == "code")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(code(&record), code(&recorded));
    let inserted = code(&record).unwrap();
    let kept: Vec<&str> = follow
        .text
        .lines()
        .filter(|l| l.trim() != inserted)
        .collect();
    assert_eq!(kept, r.text.lines().collect::<Vec<_>>());
    assert_eq!(follow.text.lines().count(), r.text.lines().count() + 1);
    // The reduced case shows on its own: a fresh chain from it violates the relation again.
    let again = chain(
        &mut faulty,
        &inline("reduced.js", &r.text),
        &ChainParams {
            pin: Pin::of(&recorded),
            ..one(
                mm::Transformation::InsertDeadCode,
                r.actions.clone(),
                Pin::default(),
            )
        },
    )
    .await;
    assert_eq!(again.sessions[1].warnings.len(), 1);
    faulty.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_warning_is_reduced_into_a_bundle_whose_reproducer_exits_1() {
    // V8 leaves an unused local out of a function's scopes; `t = t;` (add-no-op) uses it, and
    // then it is listed (by design, triaged): a warning of the real engine, repeated exactly as
    // recorded.
    let text = "var before = 1;\nfunction TimeFunc(func) {\n  var x, t;\n  var sum = 0;\n  sum += func(2);\n  return sum;\n}\nfunction twice(v) {\n  return v * 2;\n}\nvar r = TimeFunc(twice);\nconsole.log(r, before);\n";
    let actions = vec![bp(8), bp(4), Action::Start, Action::Resume, Action::Resume];
    let pin = Pin {
        recorded: vec![
            ("line".into(), "3".into()),
            ("code".into(), "t = t;".into()),
            ("variable".into(), "t".into()),
        ],
        ..Pin::default()
    };
    let mut node = engine("node").await;
    let c = chain_judged(
        &mut node,
        &inline("scopes.js", text),
        &one(mm::Transformation::AddNoOp, actions.clone(), pin),
    )
    .await;
    assert_eq!(c.sessions.len(), 2);
    assert_eq!(
        c.sessions[1].warnings.len(),
        1,
        "{:?}",
        c.sessions[1].outcome
    );
    let (r, follow, finding) = reduce_warning(&mut node, text, &c).await;
    node.shutdown().await;
    assert_eq!(finding.kind, morphtrace_schema::DivergenceKind::Variables);
    assert!(r.lines.1 < r.lines.0, "{}", r.text);
    assert!(!r.text.contains("before"), "{}", r.text);
    assert!(follow.text.contains("t = t;"), "{}", follow.text);
    let out = dir().join("bundle");
    let descriptor = node_descriptor().await;
    morphtrace_recorder::reduce::bundle::write_metamorphic_bundle(
        &out,
        &r,
        &follow,
        &finding,
        &morphtrace_recorder::reduce::Case {
            engines: std::slice::from_ref(&descriptor),
            columns: true,
            prelude: true,
            action_timeout: Duration::from_secs(5),
            original: text,
            original_actions: &actions,
            source: "a test",
        },
    )
    .unwrap();
    let run = || {
        let o = Command::new("node")
            .arg("reproduce.mjs")
            .current_dir(&out)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
        )
    };
    let (code, said) = run();
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("t = (absent)") && said.contains("t = undefined"),
        "{said}"
    );
    // The parent against itself: the relation holds, exit 0.
    let spec_path = out.join("finding.json");
    let mut spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&spec_path).unwrap()).unwrap();
    spec["runs"][1] = spec["runs"][0].clone();
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let (code, said) = run();
    assert_eq!(code, Some(0), "{said}");
}

/// The descriptor of the test's Node, as an archive records it.
pub(crate) async fn node_descriptor() -> morphtrace_schema::EngineDescriptor {
    let mut e = engine("node").await;
    let d = e.descriptor().clone();
    e.shutdown().await;
    d
}

/// Why a chain's session says the transformations asked for could not apply.
fn not_applicable(s: &Session) -> Vec<&String> {
    s.notes
        .iter()
        .filter(|(k, _)| k == mm::NOT_APPLICABLE)
        .map(|(_, v)| v)
        .collect()
}

/// A relation asked for gets parents that carry what it needs: DBDB's draw never sets a
/// variable, so set-variable-as-code cannot apply to its parents (each chain says why) and a
/// debugger that ignores every set goes unseen; with the set weighted in (`carrying`), the
/// relation applies to random parents, holds on the real Node and catches the faulty one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_parents_carry_the_set_that_set_variable_as_code_needs() {
    // Generated programs: functions with locals, called in loops (programs nobody tuned on).
    let programs = corpus::load_specs(&["gen:1..4".to_string()], &dir()).unwrap();
    let asked = [mm::Transformation::SetAsCode];
    let params = |seed: u64, random: &RandomParams| ChainParams {
        transformations: asked.to_vec(),
        ..ChainParams::random(seed, 1, random.clone())
    };
    let seeds = 1..=2u64;
    let mut real = engine("node").await;
    // DBDB's draw: no set, no follow-up, and the reason on the chain's only session.
    for p in &programs {
        for seed in seeds.clone() {
            let c = chain_judged(&mut real, p, &params(seed, &RandomParams::default())).await;
            assert_eq!(c.sessions.len(), 1, "seed {seed}");
            let why = not_applicable(&c.sessions[0]);
            assert_eq!(
                why,
                ["set-variable-as-code: the parent sets no variable that took"],
                "seed {seed}"
            );
        }
    }
    let carried = metamorphic::carrying(&RandomParams::default(), &asked);
    let mut faulty = FaultyEngine::wrap(engine("node").await, Fault::IgnoreSet);
    let (mut applied, mut caught) = (0, 0);
    for p in &programs {
        for seed in seeds.clone() {
            let good = chain_judged(&mut real, p, &params(seed, &carried)).await;
            if good.sessions.len() < 2 {
                continue;
            }
            applied += 1;
            let follow = &good.sessions[1];
            assert_eq!(
                follow.transformations[0].name,
                mm::Transformation::SetAsCode.name()
            );
            assert!(
                follow.warnings.is_empty(),
                "seed {seed}: {:?}",
                follow.warnings
            );
            let bad = chain_judged(&mut faulty, p, &params(seed, &carried)).await;
            if bad.sessions.iter().any(|s| !s.warnings.is_empty()) {
                caught += 1;
            }
        }
    }
    real.shutdown().await;
    faulty.shutdown().await;
    assert!(
        applied > 0,
        "the relation never applied to a carried parent"
    );
    assert!(
        caught > 0,
        "applied to {applied} parents, the ignored sets never caught"
    );
}

/// Logpoint-for-a-breakpoint and restart-frame-as-reentry get parents that carry what they need
/// (`carrying`): one plain breakpoint's hits each reached and left by a resume; a breakpoint on a
/// line that calls a function without side effects, and a step into it there. On a program
/// nobody drew for, every seed's carried parent takes the relation asked for, and the follow-up
/// holds on the real Node; DBDB's own draw is counted beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_parents_carry_the_hits_and_the_entry_that_logpoints_and_restarts_need() {
    let p = inline(
        "carry.js",
        "function square(n) {\n  let t = n * n;\n  return t;\n}\nlet total = 0;\nfor (let i = 0; i < 3; i++) {\n  let part = i + 1;\n  total = total + square(part);\n}\nconsole.log(total);\n",
    );
    let mut node = engine("node").await;
    for t in [
        mm::Transformation::Logpoint,
        mm::Transformation::RestartAsReentry,
    ] {
        let params = |seed: u64, random: &RandomParams| ChainParams {
            transformations: vec![t],
            ..ChainParams::random(seed, 1, random.clone())
        };
        let carried = metamorphic::carrying(&RandomParams::default(), &[t]);
        let (mut drawn, mut made) = (0, 0);
        for seed in 1..=3u64 {
            let plain = chain_judged(&mut node, &p, &params(seed, &RandomParams::default())).await;
            drawn += usize::from(plain.sessions.len() == 2);
            let c = chain_judged(&mut node, &p, &params(seed, &carried)).await;
            let why = not_applicable(&c.sessions[0]);
            assert_eq!(c.sessions.len(), 2, "{}, seed {seed}: {why:?}", t.name());
            let follow = &c.sessions[1];
            assert_eq!(follow.transformations[0].name, t.name());
            assert!(
                follow.warnings.is_empty(),
                "{}, seed {seed}: {:?}",
                t.name(),
                follow.warnings
            );
            made += 1;
        }
        eprintln!(
            "{}: DBDB's draw {drawn} of 3 seeds, carried {made} of 3",
            t.name()
        );
    }
    node.shutdown().await;
}
