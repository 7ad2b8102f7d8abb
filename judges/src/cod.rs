//! Coverage relations (pure, so that the analyzer judges archives offline):
//! Cod's self-validation (a program P and a variant P' pruned of code the profiler reported
//! unexecuted), C2V's differential (two profilers on P), and, for JavaScript, V8 against the
//! instrumented ground truth.

use morphtrace_schema::coverage::{
    BranchCount, CoverageReport, FileCoverage, ProgramRun, StatementCount,
};
use morphtrace_schema::engine::EngineRef;
use morphtrace_schema::program::{LineMap, ProgramHash};
use morphtrace_schema::session::Session;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Strong: both sides give a count and the counts differ. Weak: exactly one side gives no
/// information. Output: the two runs printed or exited differently (Cod; C2V when one
/// interpreter ran both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum InconsistencyKind {
    Strong,
    Weak,
    Output,
}

impl InconsistencyKind {
    pub fn name(self) -> &'static str {
        match self {
            InconsistencyKind::Strong => "strong",
            InconsistencyKind::Weak => "weak",
            InconsistencyKind::Output => "output",
        }
    }
}

/// Where an inconsistency was observed: a line, (JavaScript) a statement by its start offset,
/// or (coverage.py) a branch between two lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Unit {
    Line,
    Statement,
    Branch,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Line => "line",
            Unit::Statement => "statement",
            Unit::Branch => "branch",
        }
    }
}

/// One inconsistency between side `a` (P, or the first profiler) and side `b` (P', the second
/// profiler, or the ground truth).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inconsistency {
    pub kind: InconsistencyKind,
    pub unit: Unit,
    /// 0-based line in `a`'s program (for `Output`: 0).
    pub line: u32,
    /// 0-based line in `b`'s program.
    pub line_b: u32,
    pub a: Option<u64>,
    pub b: Option<u64>,
    /// Statements: the statement's kind (`ExpressionStatement`, ...); branches: `branch from `
    /// and the syntax kind of the line the arc leaves.
    pub statement: Option<String>,
    /// Branches: the arc in `a`'s program as coverage.py writes it (`12->15`, `12->exit(3)`).
    #[serde(default)]
    pub arc: Option<String>,
}

/// Counts as a relation compares them: where either side records only whether code ran
/// (`executed_only`), any count above zero is 1.
fn seen(a: Option<u64>, executed_only: bool) -> Option<u64> {
    if executed_only {
        a.map(|n| n.min(1))
    } else {
        a
    }
}

fn compare(
    unit: Unit,
    line: u32,
    line_b: u32,
    a: Option<u64>,
    b: Option<u64>,
) -> Option<Inconsistency> {
    let kind = match (a, b) {
        (Some(x), Some(y)) if x != y => InconsistencyKind::Strong,
        (Some(_), None) | (None, Some(_)) => InconsistencyKind::Weak,
        _ => return None,
    };
    Some(Inconsistency {
        kind,
        unit,
        line,
        line_b,
        a,
        b,
        statement: None,
        arc: None,
    })
}

/// The branches of `a` and `b` matched by their arc (`b`'s lines led back to `a`'s through
/// `to_a`; arcs that lose an end have no counterpart and are not compared).
fn branches(
    a: &FileCoverage,
    b: &FileCoverage,
    to_a: impl Fn(u32) -> Option<u32>,
    executed_only: bool,
) -> Vec<Inconsistency> {
    let index: HashMap<(u32, u32, bool), &BranchCount> = a
        .branches
        .iter()
        .map(|br| ((br.from, br.to, br.exit), br))
        .collect();
    let mut out = Vec::new();
    for bb in &b.branches {
        let (Some(from), Some(to)) = (to_a(bb.from), to_a(bb.to)) else {
            continue;
        };
        let Some(ab) = index.get(&(from, to, bb.exit)) else {
            continue;
        };
        if let Some(mut inc) = compare(
            Unit::Branch,
            from,
            bb.from,
            seen(ab.count, executed_only),
            seen(bb.count, executed_only),
        ) {
            inc.statement = Some(format!("branch from {}", a.line_kind(from)));
            inc.arc = Some(ab.arc());
            out.push(inc);
        }
    }
    out
}

/// The two runs printed or exited differently (no line: the whole program).
fn output_differs() -> Inconsistency {
    Inconsistency {
        kind: InconsistencyKind::Output,
        unit: Unit::Line,
        line: 0,
        line_b: 0,
        a: None,
        b: None,
        statement: None,
        arc: None,
    }
}

/// Whether two runs are the same observable behaviour (stdout and exit status).
pub fn same_output(a: Option<&ProgramRun>, b: Option<&ProgramRun>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.stdout == b.stdout && a.exit_code == b.exit_code,
        (None, None) => true,
        _ => false,
    }
}

/// Cod (Algorithm 1, lines 9-12): outputs equal, and on every line common to P and P' (lines of
/// P' that `map` leads back to P) the counts equal. Statements are compared too when both
/// reports have them, matched through the same line mapping and their column within the line.
pub fn cod(
    p_run: Option<&ProgramRun>,
    p: &FileCoverage,
    v_run: Option<&ProgramRun>,
    v: &FileCoverage,
    map: &LineMap,
) -> Vec<Inconsistency> {
    let mut out = Vec::new();
    if !same_output(p_run, v_run) {
        out.push(output_differs());
    }
    let eo = p.executed_only || v.executed_only;
    for vl in 0..v.lines.len() as u32 {
        if let Some(pl) = map.to_origin(vl) {
            if (pl as usize) < p.lines.len() {
                out.extend(compare(
                    Unit::Line,
                    pl,
                    vl,
                    seen(p.line(pl), eo),
                    seen(v.line(vl), eo),
                ));
            }
        }
    }
    out.extend(statements(&p.statements, &v.statements, |vl| {
        map.to_origin(vl)
    }));
    out.extend(branches(p, v, |vl| map.to_origin(vl), eo));
    out
}

/// Whether two profilers' runs of one program were made by the same interpreter, unchanged (so
/// that they must behave alike: a difference is a profiler's doing).
pub fn one_interpreter(a: Option<&ProgramRun>, b: Option<&ProgramRun>) -> bool {
    match (
        a.and_then(|r| r.interpreter.as_ref()),
        b.and_then(|r| r.interpreter.as_ref()),
    ) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// C2V: two profilers on the same program, line by line. Weak inconsistencies between
/// independent profilers are mostly different instrumentation choices; C2V reports only strong
/// ones, but both are returned so that the analyzer can count them. When one interpreter ran
/// the program under both (`one_interpreter`), a difference in what it printed or how it exited
/// is an output inconsistency: a profiler changed the program.
pub fn c2v(
    a_run: Option<&ProgramRun>,
    a: &FileCoverage,
    b_run: Option<&ProgramRun>,
    b: &FileCoverage,
) -> Vec<Inconsistency> {
    let n = a.lines.len().max(b.lines.len()) as u32;
    let eo = a.executed_only || b.executed_only;
    let mut out = Vec::new();
    if one_interpreter(a_run, b_run) && !same_output(a_run, b_run) {
        out.push(output_differs());
    }
    out.extend(
        (0..n).filter_map(|l| compare(Unit::Line, l, l, seen(a.line(l), eo), seen(b.line(l), eo))),
    );
    out.extend(branches(a, b, Some, eo));
    out
}

/// V8's statement counts against the ground truth of the instrumented program (same program,
/// statements matched by line and order). Statements without a counter (directives, bodies of
/// labels) are not compared; one with a true count that V8 does not cover is a weak
/// inconsistency.
///
/// Without statements (Python's truth counts lines: each line's first statement), lines are
/// compared where the truth has a counter.
pub fn against_truth(v8: &FileCoverage, truth: &FileCoverage) -> Vec<Inconsistency> {
    if truth.statements.is_empty() {
        let eo = v8.executed_only || truth.executed_only;
        return (0..truth.lines.len() as u32)
            .filter(|&l| truth.line(l).is_some())
            .filter_map(|l| {
                compare(
                    Unit::Line,
                    l,
                    l,
                    seen(v8.line(l), eo),
                    seen(truth.line(l), eo),
                )
            })
            .collect();
    }
    statements(&truth.statements, &v8.statements, Some)
        .into_iter()
        .filter(|i| i.a.is_some())
        .map(|mut i| {
            // Report V8 as side `a`, the truth as side `b`.
            std::mem::swap(&mut i.a, &mut i.b);
            i
        })
        .collect()
}

/// Statements of `a` and `b` matched by (line mapped through `to_a`, column order within the line).
fn statements(
    a: &[StatementCount],
    b: &[StatementCount],
    to_a: impl Fn(u32) -> Option<u32>,
) -> Vec<Inconsistency> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    // The k-th statement starting on a line, per line: offsets shift when P' drops text, the
    // order of the statements that remain on a common line does not.
    let key = |v: &[StatementCount]| {
        let mut seen: HashMap<u32, u32> = HashMap::new();
        v.iter()
            .map(|s| {
                let k = seen.entry(s.line).or_default();
                *k += 1;
                (s.line, *k - 1)
            })
            .collect::<Vec<_>>()
    };
    let ka = key(a);
    let index: HashMap<(u32, u32), usize> = ka.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let kb = key(b);
    let mut out = Vec::new();
    for (j, (line, nth)) in kb.into_iter().enumerate() {
        let Some(la) = to_a(line) else { continue };
        let Some(&i) = index.get(&(la, nth)) else {
            continue;
        };
        if a[i].kind != b[j].kind {
            continue;
        }
        if let Some(mut inc) = compare(Unit::Statement, la, line, a[i].count, b[j].count) {
            inc.statement = Some(a[i].kind.clone());
            out.push(inc);
        }
    }
    out
}

/// Name of the transformation that deletes unexecuted statements (Cod's P → P').
pub const DELETE: &str = "delete-unexecuted";
/// Name of the transformation that adds statement counters (the ground truth of JavaScript and
/// Python).
pub const COUNT: &str = "count-statements";

/// The relation an inconsistency violates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Relation {
    /// P against a variant P', one profiler.
    Cod,
    /// Two profilers on P.
    C2v,
    /// V8 against the instrumented ground truth.
    Truth,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Cod => "cod",
            Relation::C2v => "c2v",
            Relation::Truth => "truth",
        }
    }
}

/// An inconsistency found in a coverage session, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub relation: Relation,
    /// The profiler (Cod, truth) or the first of the two (C2V).
    pub engine: EngineRef,
    /// The second profiler (C2V only).
    pub other: Option<EngineRef>,
    /// The program of side `b` (P', the instrumented copy; P for C2V).
    pub program_b: ProgramHash,
    /// Index of the transformation among the session's (Cod, truth).
    pub transformation: Option<usize>,
    pub inconsistency: Inconsistency,
}

/// The report of `engine` on `program` in a session.
pub fn report(s: &Session, engine: EngineRef, program: ProgramHash) -> Option<&CoverageReport> {
    s.coverage
        .iter()
        .find(|c| c.engine == engine && c.program == program)
}

/// A relation of a coverage session that could not be judged: the session lacks what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudged {
    pub relation: Relation,
    /// Index of the transformation among the session's (Cod, truth).
    pub transformation: Option<usize>,
    pub reason: &'static str,
}

/// What judging one coverage session found: its inconsistencies, and the relations it could not
/// judge (never silently passed over, so that no count credits them as consistent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionJudgement {
    pub found: Vec<Judged>,
    pub unjudged: Vec<Unjudged>,
}

/// Every relation of a coverage session, judged: Cod for each variant, the ground truth for
/// each instrumented copy, and C2V for each pair of profilers that profiled P.
pub fn judge_session(s: &Session) -> SessionJudgement {
    let mut out = SessionJudgement::default();
    for (ti, t) in s.transformations.iter().enumerate() {
        let relation = match t.name.as_str() {
            DELETE => Relation::Cod,
            COUNT => Relation::Truth,
            _ => continue,
        };
        let unjudged = |reason| Unjudged {
            relation,
            transformation: Some(ti),
            reason,
        };
        let Some(engine) = t
            .params
            .iter()
            .find(|(k, _)| k == "engine")
            .and_then(|(_, v)| v.parse().ok())
            .map(EngineRef)
        else {
            out.unjudged
                .push(unjudged("the transformation names no profiler"));
            continue;
        };
        let (Some(p), Some(v)) = (
            report(s, engine, t.program_before),
            report(s, engine, t.program_after),
        ) else {
            out.unjudged.push(unjudged("a coverage report is missing"));
            continue;
        };
        let (Some(pf), Some(vf)) = (p.files.first(), v.files.first()) else {
            out.unjudged.push(unjudged("a coverage report has no file"));
            continue;
        };
        if relation == Relation::Truth
            && vf.statements.iter().all(|c| c.count.is_none())
            && vf.lines.iter().all(Option::is_none)
        {
            out.unjudged
                .push(unjudged("the instrumented run counted no statement"));
            continue;
        }
        let found = match relation {
            Relation::Cod => cod(
                p.run.as_ref(),
                pf,
                v.run.as_ref(),
                vf,
                &t.mapping.clone().unwrap_or_default(),
            ),
            _ => against_truth(pf, vf),
        };
        out.found.extend(found.into_iter().map(|i| Judged {
            relation,
            engine,
            other: None,
            program_b: t.program_after,
            transformation: Some(ti),
            inconsistency: i,
        }));
    }
    let on_p: Vec<&CoverageReport> = s
        .coverage
        .iter()
        .filter(|c| c.program == s.program)
        .collect();
    for (i, a) in on_p.iter().enumerate() {
        for b in &on_p[i + 1..] {
            let (Some(af), Some(bf)) = (a.files.first(), b.files.first()) else {
                out.unjudged.push(Unjudged {
                    relation: Relation::C2v,
                    transformation: None,
                    reason: "a coverage report has no file",
                });
                continue;
            };
            out.found.extend(
                c2v(a.run.as_ref(), af, b.run.as_ref(), bf)
                    .into_iter()
                    .map(|inc| Judged {
                        relation: Relation::C2v,
                        engine: a.engine,
                        other: Some(b.engine),
                        program_b: s.program,
                        transformation: None,
                        inconsistency: inc,
                    }),
            );
        }
    }
    out
}

/// The syntax kind of the inconsistency's line in P (the statement's kind for statements).
pub fn syntax_of<'a>(s: &'a Session, j: &'a Judged) -> &'a str {
    if let Some(k) = &j.inconsistency.statement {
        return k;
    }
    if j.inconsistency.kind == InconsistencyKind::Output {
        return "output";
    }
    report(s, j.engine, s.program)
        .and_then(|r| r.files.first())
        .map(|f| f.line_kind(j.inconsistency.line))
        .unwrap_or("?")
}

/// Syntax kinds of lines that hold no statement of their own (braces, `else`, labels, `case`,
/// comments): whether such a line gets a count at all is each profiler's choice, and it follows
/// the code around it, which P' changes.
pub const STRUCTURAL: &[&str] = &[
    "brace", "else", "label", "case", "blank", "comment", "preproc",
];

/// Transformation parameter: lines (1-based list, `3,7-9`) of P's local declarations whose code
/// the compiler may stop emitting in the variant: left unused, or `const` and losing a use (gcc
/// folds constant reads of const locals even at -O0).
pub const LOSING_USES: &str = "declarations-losing-uses";

/// Parses a 1-based line list (`3,7-9,12`) into 0-based lines.
pub fn parse_line_list(s: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
            out.extend((a.max(1)..=b).map(|l| l - 1));
        }
    }
    out
}

/// The weak-noise filter: C2V's weak inconsistencies (independent profilers instrument
/// different lines, so C2V ignores them: Cod §II-C); Cod's weak inconsistencies on structural
/// lines (see `STRUCTURAL`) and on declarations whose code the compiler may stop emitting in
/// the variant (`LOSING_USES`). Strong and output inconsistencies are never noise.
pub fn is_noise(s: &Session, j: &Judged) -> bool {
    if j.inconsistency.kind != InconsistencyKind::Weak {
        return false;
    }
    match j.relation {
        Relation::C2v => true,
        Relation::Cod => {
            STRUCTURAL.contains(&syntax_of(s, j))
                || j.transformation
                    .and_then(|t| s.transformations.get(t))
                    .and_then(|t| t.params.iter().find(|(k, _)| k == LOSING_USES))
                    .is_some_and(|(_, v)| parse_line_list(v).contains(&j.inconsistency.line))
        }
        Relation::Truth => false,
    }
}

/// The lines that exist in `p` but not in the variant (the deleted ones), from the mapping.
pub fn deleted_lines(p_lines: u32, v_lines: u32, map: &LineMap) -> Vec<u32> {
    let mut kept = vec![false; p_lines as usize];
    for vl in 0..v_lines {
        if let Some(pl) = map.to_origin(vl) {
            if let Some(k) = kept.get_mut(pl as usize) {
                *k = true;
            }
        }
    }
    (0..p_lines).filter(|&l| !kept[l as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::coverage::{BlockRange, FunctionCoverage};
    use morphtrace_schema::program::LineSegment;

    fn file(lines: Vec<Option<u64>>) -> FileCoverage {
        FileCoverage {
            name: "p.c".into(),
            functions: vec![],
            lines,
            statements: vec![],
            line_kinds: vec![],
            branches: Vec::new(),
            executed_only: false,
        }
    }

    fn run(s: &str) -> ProgramRun {
        ProgramRun::new(s.into(), Some(0))
    }

    #[test]
    fn cod_compares_common_lines_only_and_classifies() {
        // P has 5 lines; P' dropped line 2 (its line 2 is P's line 3).
        let p = file(vec![Some(1), Some(3), Some(0), None, Some(1)]);
        let v = file(vec![Some(1), Some(4), Some(2), Some(1)]);
        let map = LineMap {
            segments: vec![
                LineSegment {
                    start: 0,
                    len: 2,
                    origin_start: 0,
                },
                LineSegment {
                    start: 2,
                    len: 2,
                    origin_start: 3,
                },
            ],
        };
        let r = cod(Some(&run("a")), &p, Some(&run("a")), &v, &map);
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!(
            (r[0].kind, r[0].line, r[0].a, r[0].b),
            (InconsistencyKind::Strong, 1, Some(3), Some(4))
        );
        assert_eq!(
            (r[1].kind, r[1].line, r[1].line_b),
            (InconsistencyKind::Weak, 3, 2)
        );
        assert_eq!(deleted_lines(5, 4, &map), vec![2]);
        let r = cod(
            Some(&run("a")),
            &p,
            Some(&run("b")),
            &p,
            &LineMap::identity(5),
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, InconsistencyKind::Output);
        let crashed = ProgramRun::new("a".into(), None);
        assert!(!same_output(Some(&run("a")), Some(&crashed)));
    }

    #[test]
    fn line_lists() {
        assert_eq!(parse_line_list("3,7-9, 12"), vec![2, 6, 7, 8, 11]);
        assert_eq!(parse_line_list(""), Vec::<u32>::new());
        assert_eq!(parse_line_list("x,2"), vec![1]);
    }

    #[test]
    fn c2v_reports_both_kinds() {
        let a = file(vec![Some(1), None, Some(2)]);
        let b = file(vec![Some(1), Some(7), Some(3), Some(0)]);
        let r = c2v(None, &a, None, &b);
        let kinds: Vec<_> = r.iter().map(|i| (i.line, i.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (1, InconsistencyKind::Weak),
                (2, InconsistencyKind::Strong),
                (3, InconsistencyKind::Weak)
            ]
        );
    }

    /// One interpreter ran both: a different exit is the profilers' doing. Builds of two
    /// compilers (no interpreter named), or two interpreters, are not compared.
    #[test]
    fn c2v_compares_outputs_only_of_one_interpreter() {
        let a = file(vec![Some(1)]);
        let by = |python: Option<&str>, exit| ProgramRun {
            stdout: "7\n".into(),
            exit_code: Some(exit),
            interpreter: python.map(str::to_string),
        };
        let ok = by(Some("/usr/bin/python3"), 0);
        let failed = by(Some("/usr/bin/python3"), 1);
        let r = c2v(Some(&ok), &a, Some(&failed), &a);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].kind, InconsistencyKind::Output);
        assert!(c2v(Some(&ok), &a, Some(&ok.clone()), &a).is_empty());
        let other = by(Some("/opt/python3.12"), 1);
        assert!(c2v(Some(&ok), &a, Some(&other), &a).is_empty());
        let (gcc, clang) = (by(None, 0), by(None, 1));
        assert!(c2v(Some(&gcc), &a, Some(&clang), &a).is_empty());
    }

    fn st(start: u32, line: u32, kind: &str, count: Option<u64>) -> StatementCount {
        StatementCount {
            start,
            line,
            kind: kind.into(),
            count,
        }
    }

    #[test]
    fn statements_match_by_line_and_order() {
        let mut v8 = file(vec![]);
        v8.statements = vec![
            st(0, 0, "ExpressionStatement", Some(1)),
            st(5, 0, "ExpressionStatement", Some(1)),
            st(12, 1, "ReturnStatement", Some(2)),
        ];
        let mut truth = v8.clone();
        truth.statements[1].count = Some(0);
        truth.statements[2].count = None;
        let r = against_truth(&v8, &truth);
        assert_eq!(r.len(), 1, "a statement without a counter is not compared");
        assert_eq!(
            (r[0].kind, r[0].a, r[0].b),
            (InconsistencyKind::Strong, Some(1), Some(0))
        );
        assert_eq!(r[0].unit, Unit::Statement);
        assert_eq!(r[0].statement.as_deref(), Some("ExpressionStatement"));
        let mut uncovered = v8.clone();
        uncovered.statements[0].count = None;
        let r = against_truth(&uncovered, &v8);
        assert_eq!((r.len(), r[0].kind), (1, InconsistencyKind::Weak));
    }

    /// Finding 5 of the honest-counts issue: a relation whose report is missing, or a ground
    /// truth that counted nothing, was passed over silently (and so looked consistent).
    #[test]
    fn relations_that_cannot_be_judged_are_reported_not_skipped() {
        use morphtrace_schema::session::{
            SessionId, SessionMode, SessionOutcome, TransformationRecord,
        };
        let (p, v, t) = (
            ProgramHash::of("p"),
            ProgramHash::of("v"),
            ProgramHash::of("t"),
        );
        let record = |name: &str, after| TransformationRecord {
            name: name.into(),
            interactive: false,
            params: vec![("engine".into(), "0".into())],
            program_before: p,
            program_after: after,
            mapping: None,
        };
        let report = |program, f: FileCoverage| CoverageReport {
            engine: EngineRef(0),
            program,
            files: vec![f],
            run: Some(run("")),
        };
        let mut truth = file(vec![]);
        truth.statements = vec![st(0, 0, "ExpressionStatement", None)];
        let mut v8 = file(vec![Some(1)]);
        v8.statements = vec![st(0, 0, "ExpressionStatement", Some(1))];
        let s = Session {
            id: SessionId(1),
            mode: SessionMode::Coverage,
            seed: 1,
            engines: vec![EngineRef(0)],
            program: p,
            parent: None,
            // The variant's report is missing; the truth counted nothing.
            transformations: vec![record(DELETE, v), record(COUNT, t)],
            outcome: SessionOutcome::Finished,
            started_at_ms: 0,
            duration_us: 0,
            traces: vec![],
            divergence: None,
            warnings: vec![],
            coverage: vec![report(p, v8), report(t, truth)],
            notes: vec![],
            divergences: Vec::new(),
            cpu_us: None,
        };
        let j = judge_session(&s);
        assert!(j.found.is_empty());
        let why: Vec<_> = j.unjudged.iter().map(|u| (u.relation, u.reason)).collect();
        assert_eq!(
            why,
            [
                (Relation::Cod, "a coverage report is missing"),
                (Relation::Truth, "the instrumented run counted no statement"),
            ]
        );
    }

    #[test]
    fn innermost_v8_range_wins() {
        let f = vec![
            FunctionCoverage {
                name: String::new(),
                ranges: vec![
                    BlockRange {
                        start: 0,
                        end: 100,
                        count: 1,
                    },
                    BlockRange {
                        start: 10,
                        end: 50,
                        count: 0,
                    },
                ],
                is_block_coverage: true,
            },
            FunctionCoverage {
                name: "f".into(),
                ranges: vec![
                    BlockRange {
                        start: 20,
                        end: 40,
                        count: 7,
                    },
                    BlockRange {
                        start: 20,
                        end: 30,
                        count: 2,
                    },
                ],
                is_block_coverage: true,
            },
        ];
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 5), Some(1));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 12), Some(0));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 25), Some(2));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 35), Some(7));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 45), Some(0));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 60), Some(1));
        assert_eq!(morphtrace_schema::coverage::v8_count_at(&f, 100), None);
    }
}
