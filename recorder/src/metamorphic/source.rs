//! Program transformations of Table 1 as text edits with exact position maps, at the sites
//! `morphtrace_syntax` finds in a program (`morphtrace_syntax::sites`: where statements may be
//! preceded by a new line and which variables are in scope there, the integer and boolean
//! literals, the functions that can take a fresh parameter), spelled in the program's language.
//!
//! Every edit either inserts one whole line (lines after it shift by one, columns stay) or
//! rewrites text inside one line (later columns on that line shift), so that the map between
//! parent and follow-up positions is exact and the follow-up's actions can be translated.

use morphtrace_judges::metamorphic::{ColumnEdit, FreshParameter, PositionMap, Transformation};
use morphtrace_schema::lines::Breaks;
use morphtrace_schema::{FunctionCoverage, LineMap, LineSegment, Location};
use morphtrace_syntax::js::ast;
use morphtrace_syntax::js::statements::JsProgram;
use morphtrace_syntax::js::visit::{Visit, VisitWith};
use morphtrace_syntax::js::{Goal, Refusal};
use morphtrace_syntax::sites::{FunctionSite, Literal, LiteralValue, Name, Point, Sites, Spelling};
use morphtrace_syntax::{variant, Statements};
use rand::seq::IndexedRandom;
use rand::Rng;
use std::collections::HashSet;

/// A transformed program and how its positions relate to its parent's.
#[derive(Debug, Clone)]
pub struct Transformed {
    pub name: Transformation,
    pub text: String,
    pub map: PositionMap,
    /// Lines of the parent that are gone (removed dead code).
    pub removed_lines: Vec<u32>,
    pub inserted_line: Option<u32>,
    pub fresh: Option<FreshParameter>,
    /// What was done, for the transformation record.
    pub params: Vec<(String, String)>,
}

/// A program's sites with the edits that transform it there.
#[derive(Debug, Clone)]
pub struct Analysis(Sites);

impl std::ops::Deref for Analysis {
    type Target = Sites;
    fn deref(&self) -> &Sites {
        &self.0
    }
}

impl From<Sites> for Analysis {
    fn from(s: Sites) -> Analysis {
        Analysis(s)
    }
}

impl Analysis {
    /// Analyses a classic script: a syntax error, or a program too large or deep for
    /// morphtrace, is the `Err`.
    pub fn of(text: &str) -> Result<Analysis, Refusal> {
        morphtrace_syntax::js::sites::sites(text).map(Analysis)
    }

    fn lines(&self) -> u32 {
        self.positions().lines.len() as u32
    }

    /// Points with a variable that an assignment may name.
    fn assignable_points(&self) -> Vec<(&Point, Vec<&Name>)> {
        if self.has_with {
            return Vec::new();
        }
        self.points
            .iter()
            .map(|p| (p, p.names.iter().filter(|n| n.assignable).collect()))
            .filter(|(_, n): &(_, Vec<&Name>)| !n.is_empty())
            .collect()
    }

    /// Which program transformations apply (remove-dead-code needs coverage and is not listed).
    pub fn applicable(&self) -> Vec<Transformation> {
        let mut out = Vec::new();
        if !self.assignable_points().is_empty() {
            out.push(Transformation::InsertDeadCode);
            out.push(Transformation::AddNoOp);
        }
        if !self.functions.is_empty() {
            out.push(Transformation::AddParameter);
        }
        if self
            .literals
            .iter()
            .any(|l| matches!(l.value, LiteralValue::Int(_)))
        {
            out.push(Transformation::IntegerLiteral);
        }
        if !self.has_with
            && self
                .literals
                .iter()
                .any(|l| matches!(l.value, LiteralValue::Bool(_)) && !l.names.is_empty())
        {
            out.push(Transformation::BooleanLiteral);
        }
        out
    }

    /// Applies one program transformation at a random applicable place.
    pub fn transform(
        &self,
        text: &str,
        name: Transformation,
        rng: &mut impl Rng,
    ) -> Option<Transformed> {
        self.transform_at(text, name, None, rng)
    }

    /// Same, with inserted lines (dead code, no-op) before the statement on `line` if given.
    pub fn transform_at(
        &self,
        text: &str,
        name: Transformation,
        line: Option<u32>,
        rng: &mut impl Rng,
    ) -> Option<Transformed> {
        match name {
            Transformation::InsertDeadCode | Transformation::AddNoOp => {
                let mut points = self.assignable_points();
                if let Some(l) = line {
                    points.retain(|(p, _)| p.line == l);
                }
                let (p, names) = points.choose(rng)?;
                let v = &names.choose(rng)?.name;
                let python = self.spelling() == Spelling::Python;
                Some(if name == Transformation::InsertDeadCode {
                    let value = rng.random_range(0..100u32);
                    let code = if python {
                        format!("if False: {v} = {value}")
                    } else {
                        format!("if (false) {{ {v} = {value}; }}")
                    };
                    self.insert_line(text, p, Transformation::InsertDeadCode, &code, v)
                } else {
                    let code = if python {
                        format!("{v} = {v}")
                    } else {
                        format!("{v} = {v};")
                    };
                    self.insert_line(text, p, Transformation::AddNoOp, &code, v)
                })
            }
            Transformation::IntegerLiteral => {
                let ints: Vec<&Literal> = self
                    .literals
                    .iter()
                    .filter(|l| matches!(l.value, LiteralValue::Int(_)))
                    .collect();
                let l = ints.choose(rng)?;
                let n = &text[l.start..l.end];
                // Python's `/` makes a float of an int.
                let forms: &[&str] = match self.spelling() {
                    Spelling::JavaScript => &["({n}-1+1)", "({n}+1-1)", "({n}/1)", "({n}*1)"],
                    Spelling::Python => &["({n}-1+1)", "({n}+1-1)", "({n}+0)", "({n}*1)"],
                };
                let form = forms.choose(rng)?;
                Some(self.rewrite(
                    text,
                    l,
                    Transformation::IntegerLiteral,
                    &form.replace("{n}", n),
                    form,
                ))
            }
            Transformation::BooleanLiteral => {
                let bools: Vec<&Literal> = self
                    .literals
                    .iter()
                    .filter(|l| matches!(l.value, LiteralValue::Bool(_)) && !l.names.is_empty())
                    .collect();
                let l = bools.choose(rng)?;
                let v = &l.names.choose(rng)?.name;
                // Strict (in)equality never converts a value, so no user code can run
                // (unlike the paper's `isNaN(v)`, §5.2.2); `v !== v` only holds for NaN.
                // Python: identity, which no `__eq__` of the program's can intercept.
                let form = match (l.value, self.spelling()) {
                    (LiteralValue::Bool(true), Spelling::JavaScript) => "(v === v || v !== v)",
                    (_, Spelling::JavaScript) => "(v !== v && v === v)",
                    (LiteralValue::Bool(true), Spelling::Python) => "(v is v or v is not v)",
                    (_, Spelling::Python) => "(v is not v and v is v)",
                };
                Some(self.rewrite(
                    text,
                    l,
                    Transformation::BooleanLiteral,
                    &form.replace('v', v),
                    form,
                ))
            }
            Transformation::AddParameter => {
                let f = self.functions.choose(rng)?;
                Some(self.add_parameter(text, f))
            }
            _ => None,
        }
    }

    /// The transformation a record describes (`params` as `transform_at` recorded them),
    /// applied again to `text`: the same place, the same code. `None` when that place is gone
    /// (reduction blanked it) or the recorded parameters are incomplete.
    pub fn repeat(
        &self,
        text: &str,
        name: Transformation,
        params: &[(String, String)],
    ) -> Option<Transformed> {
        let get = |k: &str| params.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        // Recorded locations are 1-based `line:column`.
        let location = || {
            let (l, c) = get("location")?.split_once(':')?;
            Some(Location::new(
                l.parse::<u32>().ok()?.checked_sub(1)?,
                c.parse::<u32>().ok()?.checked_sub(1)?,
            ))
        };
        match name {
            Transformation::InsertDeadCode | Transformation::AddNoOp => {
                let line: u32 = get("line")?.parse().ok()?;
                let (code, variable) = (get("code")?, get("variable")?);
                let points = self.assignable_points();
                let (p, _) = points.iter().find(|(p, names)| {
                    p.line == line && names.iter().any(|n| n.name == variable)
                })?;
                Some(self.insert_line(text, p, name, code, variable))
            }
            Transformation::IntegerLiteral | Transformation::BooleanLiteral => {
                let at = location()?;
                let (literal, form, replacement) =
                    (get("literal")?, get("form")?, get("replacement")?);
                let l = self.literals.iter().find(|l| {
                    self.location(l.start) == at && text.get(l.start..l.end) == Some(literal)
                })?;
                Some(self.rewrite(text, l, name, replacement, form))
            }
            Transformation::AddParameter => {
                let at = location()?;
                let f = self
                    .functions
                    .iter()
                    .find(|f| self.location(f.insert_at) == at)?;
                Some(self.add_parameter(text, f))
            }
            _ => None,
        }
    }

    /// `code` assigning `variable` on a new line before the statement that starts `at` (its
    /// line, at its column), where `variable` is assignable. `None` when no such statement
    /// starts there.
    pub fn assignment_before(
        &self,
        text: &str,
        at: Location,
        variable: &str,
        code: &str,
    ) -> Option<Transformed> {
        if self.has_with {
            return None;
        }
        let p = self.points.iter().find(|p| {
            p.line == at.line
                && p.indent.len() as u32 == at.column
                && p.names.iter().any(|n| n.name == variable && n.assignable)
        })?;
        Some(self.insert_line(text, p, Transformation::SetAsCode, code, variable))
    }

    fn insert_line(
        &self,
        text: &str,
        p: &Point,
        name: Transformation,
        code: &str,
        variable: &str,
    ) -> Transformed {
        let mut out = String::with_capacity(text.len() + code.len() + p.indent.len() + 1);
        out.push_str(&text[..p.line_start]);
        out.push_str(&p.indent);
        out.push_str(code);
        out.push('\n');
        out.push_str(&text[p.line_start..]);
        let n = self.lines();
        Transformed {
            name,
            text: out,
            map: PositionMap {
                lines: Some(LineMap {
                    segments: vec![
                        LineSegment {
                            start: 0,
                            len: p.line,
                            origin_start: 0,
                        },
                        LineSegment {
                            start: p.line + 1,
                            len: n - p.line,
                            origin_start: p.line,
                        },
                    ]
                    .into_iter()
                    .filter(|s| s.len > 0)
                    .collect(),
                }),
                edits: Vec::new(),
            },
            removed_lines: Vec::new(),
            inserted_line: Some(p.line),
            fresh: None,
            params: vec![
                ("line".into(), p.line.to_string()),
                ("code".into(), code.into()),
                ("variable".into(), variable.into()),
            ],
        }
    }

    fn rewrite(
        &self,
        text: &str,
        l: &Literal,
        name: Transformation,
        replacement: &str,
        form: &str,
    ) -> Transformed {
        let at = self.location(l.start);
        let old_len = self.location(l.end).column - at.column;
        let new_len = replacement.encode_utf16().count() as u32;
        let out = format!("{}{replacement}{}", &text[..l.start], &text[l.end..]);
        Transformed {
            name,
            text: out,
            map: PositionMap {
                lines: None,
                edits: vec![ColumnEdit {
                    line: at.line,
                    column: at.column,
                    old_len,
                    new_len,
                }],
            },
            removed_lines: Vec::new(),
            inserted_line: None,
            fresh: None,
            params: vec![
                ("location".into(), at.to_string()),
                ("literal".into(), text[l.start..l.end].to_string()),
                ("form".into(), form.into()),
                ("replacement".into(), replacement.into()),
            ],
        }
    }

    fn add_parameter(&self, text: &str, f: &FunctionSite) -> Transformed {
        // Python mangles a name that starts with two underscores inside a class (`__mt1` in a
        // method is `_Point__mt1`): one underscore there.
        let prefix = match self.spelling() {
            Spelling::JavaScript => "__mt",
            Spelling::Python => "_mt",
        };
        let mut k = 1;
        while text.contains(&format!("{prefix}{k}")) {
            k += 1;
        }
        let fresh = format!("{prefix}{k}");
        let inserted = match self.spelling() {
            Spelling::JavaScript if f.has_params => format!(", {fresh}"),
            Spelling::JavaScript => fresh.clone(),
            // Before `**kwargs` (its start), or at the end of the list.
            Spelling::Python if text[f.insert_at..].starts_with("**") => format!("{fresh}=None, "),
            Spelling::Python if f.has_params => format!(", {fresh}=None"),
            Spelling::Python => format!("{fresh}=None"),
        };
        let at = self.location(f.insert_at);
        let edit = ColumnEdit {
            line: at.line,
            column: at.column,
            old_len: 0,
            new_len: inserted.encode_utf16().count() as u32,
        };
        let map = PositionMap {
            lines: None,
            edits: vec![edit],
        };
        let moved = |b: usize| {
            let l = self.location(b);
            map.to_follow_up(l).unwrap_or(l)
        };
        let body = (moved(f.body.0), moved(f.body.1 - 1));
        let nested = self
            .bodies
            .iter()
            .filter(|&&b| b != f.body && b.0 >= f.body.0 && b.1 <= f.body.1)
            .map(|&(a, b)| (moved(a), moved(b.saturating_sub(1).max(a))))
            .collect();
        let out = format!("{}{inserted}{}", &text[..f.insert_at], &text[f.insert_at..]);
        Transformed {
            name: Transformation::AddParameter,
            text: out,
            map,
            removed_lines: Vec::new(),
            inserted_line: None,
            fresh: Some(FreshParameter {
                none: self.spelling() == Spelling::Python,
                name: fresh.clone(),
                body,
                nested,
            }),
            params: vec![
                ("location".into(), at.to_string()),
                ("parameter".into(), fresh),
            ],
        }
    }
}

/// Remove dynamically dead code: one statement V8's precise coverage saw unexecuted (and where
/// the parent session never paused), replaced by blanks so that lines keep their numbers.
pub fn remove_dead_code(
    text: &str,
    coverage: &[FunctionCoverage],
    paused_lines: &HashSet<u32>,
    at: Option<(u32, u32)>,
    rng: &mut impl Rng,
) -> Option<Transformed> {
    let js = JsProgram::parse(text).ok()?;
    let cands: Vec<_> = js
        .unexecuted(&js.deletable(), coverage)
        .into_iter()
        .filter(|c| !(c.first_line..=c.last_line).any(|l| paused_lines.contains(&l)))
        .filter(|c| at.is_none_or(|(a, b)| (c.first_line, c.last_line) == (a, b)))
        .collect();
    // A removal that empties a `try` block makes its `catch` unreachable too: V8 (Chromium 156)
    // then gives the catch clause no break positions, and breakpoints there slide out of it
    // (test262's assert.throws). That code is not dead in the parent: choose another statement.
    let empty_before = empty_try_blocks(text)?;
    let mut cands = cands;
    let (c, v) = loop {
        let c = cands.choose(rng)?.clone();
        let v = variant::apply(text, vec![c.clone()], Breaks::EcmaScript);
        if empty_try_blocks(&v.text)? <= empty_before {
            break (c, v);
        }
        cands.retain(|x| x.first_line != c.first_line || x.last_line != c.last_line);
    };
    Some(dead_code_removed(c, v))
}

/// Remove-dead-code's follow-up: the variant `v` without statement `c`, lines kept.
pub fn dead_code_removed(c: variant::Deletable, v: variant::Variant) -> Transformed {
    Transformed {
        name: morphtrace_judges::metamorphic::Transformation::RemoveDeadCode,
        text: v.text,
        map: PositionMap {
            lines: Some(v.map),
            edits: Vec::new(),
        },
        removed_lines: v.deleted_lines,
        inserted_line: None,
        fresh: None,
        params: vec![
            ("lines".into(), format!("{}-{}", c.first_line, c.last_line)),
            ("statement".into(), c.kind),
        ],
    }
}

/// `try` blocks with no statement in them (`None`: the text does not parse).
fn empty_try_blocks(text: &str) -> Option<usize> {
    struct Count(usize);
    impl Visit for Count {
        fn visit_try_stmt(&mut self, t: &ast::TryStmt) {
            if t.block
                .stmts
                .iter()
                .all(|s| matches!(s, ast::Stmt::Empty(_)))
            {
                self.0 += 1;
            }
            t.visit_children_with(self);
        }
    }
    morphtrace_syntax::js::parse(text, Goal::Script, |p| {
        let mut c = Count(0);
        p.script()?.visit_with(&mut c);
        Some(c.0)
    })
    .ok()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profilers::v8::V8Runner;
    use morphtrace_judges::metamorphic::Transformation;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    /// The bundled DBDB corpus and the tests' own programs.
    fn corpus() -> Vec<(String, String)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dirs = vec![
            root.join("corpus/dbdb/sunspider"),
            root.join("corpus/dbdb/manual"),
        ];
        // (Not `loop.js`: it never ends.)
        let mut files: Vec<PathBuf> = ["prog.js", "values.js", "throws.js"]
            .iter()
            .map(|f| root.join("tests/fixtures").join(f))
            .collect();
        for d in dirs {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "js"))
                .collect();
            v.sort();
            files.extend(v);
        }
        files
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p.display().to_string(), text)
            })
            .collect()
    }

    /// Statement starts (line, UTF-16 column) with their kinds.
    fn statements(text: &str) -> Vec<(Location, &'static str)> {
        let js = JsProgram::parse(text).unwrap();
        let a = Analysis::of(text).unwrap();
        js.statements
            .iter()
            .map(|s| (a.location(s.start), s.kind))
            .collect()
    }

    /// Every parent statement is where the map says in the follow-up, with the same kind, and
    /// every follow-up statement not on an inserted line maps back to one.
    fn check_map(name: &str, parent: &str, t: &Transformed, removed: &[(Location, Location)]) {
        let p = statements(parent);
        let f = statements(&t.text);
        let inside = |l: Location| removed.iter().any(|&(a, b)| l >= a && l < b);
        for &(loc, kind) in &p {
            if inside(loc) {
                continue;
            }
            let to = t.map.to_follow_up(loc);
            assert!(
                to.is_some_and(|to| f.contains(&(to, kind))),
                "{name} {}: {kind} at {loc} went to {to:?}, not a {kind}",
                t.name
            );
        }
        let mut inserted = 0;
        for &(loc, kind) in &f {
            match t.map.to_parent(loc) {
                // A removed statement leaves a `;` on a line of its own.
                None if kind == "EmptyStatement" && !removed.is_empty() => {}
                None => inserted += 1,
                Some(back) => {
                    let ok = p.contains(&(back, kind))
                        || (kind == "EmptyStatement" && !removed.is_empty());
                    assert!(ok, "{name} {}: {kind} at {loc} came from {back}", t.name);
                }
            }
        }
        let expected = match t.name {
            Transformation::InsertDeadCode => 3,
            Transformation::AddNoOp => 1,
            _ => 0,
        };
        assert_eq!(inserted, expected, "{name} {}", t.name);
        assert_eq!(t.inserted_line.is_some(), expected > 0);
    }

    #[test]
    fn every_transformation_parses_and_maps_every_statement() {
        let mut applied: std::collections::BTreeMap<Transformation, usize> = Default::default();
        for (name, text) in corpus() {
            let a = Analysis::of(&text).unwrap();
            for t in a.applicable() {
                for seed in 0..6 {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let x = a.transform(&text, t, &mut rng).unwrap();
                    Analysis::of(&x.text).unwrap_or_else(|e| panic!("{name} {t}: {e}\n{}", x.text));
                    check_map(&name, &text, &x, &[]);
                    if let Some(fresh) = &x.fresh {
                        assert!(x.text.contains(fresh.name.as_str()));
                        assert!(fresh.body.0 < fresh.body.1);
                    }
                    *applied.entry(t).or_default() += 1;
                }
            }
        }
        for t in Transformation::TABLE1
            .into_iter()
            .filter(|t| t.changes_program() && *t != Transformation::RemoveDeadCode)
        {
            assert!(
                applied.get(&t).copied().unwrap_or(0) > 10,
                "{t}: {applied:?}"
            );
        }
    }

    fn node() -> V8Runner {
        V8Runner::start(Path::new("node")).expect("node runs")
    }

    #[test]
    fn transformed_programs_behave_the_same_under_node() {
        let mut v8 = node();
        let mut checked = 0;
        for (name, text) in corpus() {
            let before = v8
                .run("p.js", &text, Duration::from_secs(10), None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let a = Analysis::of(&text).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let mut variants: Vec<Transformed> = a
                .applicable()
                .into_iter()
                .filter_map(|t| a.transform(&text, t, &mut rng))
                .collect();
            let paused = HashSet::new();
            variants.extend(remove_dead_code(
                &text,
                &before.functions,
                &paused,
                None,
                &mut rng,
            ));
            for x in variants {
                let after = v8
                    .run("p.js", &x.text, Duration::from_secs(10), None)
                    .unwrap_or_else(|e| panic!("{name} {}: {e}\n{}", x.name, x.text));
                assert_eq!(before.run.stdout, after.run.stdout, "{name} {}", x.name);
                // (The error names the run's URL and line, which differ.)
                assert_eq!(
                    before.error.is_some(),
                    after.error.is_some(),
                    "{name} {}:\n{}",
                    x.name,
                    x.text
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn removed_dead_code_never_empties_a_try_block() {
        // `check` never runs: every statement in it is dead, `f();` included; removing `f();`
        // alone would leave `try {}`, whose catch V8 then compiles to nothing.
        let text = "function check(f) {\n  try {\n    f();\n  } catch (e) {\n    log(e);\n  }\n  log(1);\n}\nvar x = 1;\n";
        let run = node()
            .run("p.js", text, Duration::from_secs(10), None)
            .unwrap();
        assert_eq!(empty_try_blocks(text), Some(0));
        let mut removed = 0;
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            if let Some(x) = remove_dead_code(text, &run.functions, &HashSet::new(), None, &mut rng)
            {
                assert_eq!(empty_try_blocks(&x.text), Some(0), "{}", x.text);
                removed += 1;
            }
        }
        assert!(removed > 0, "other dead statements are still removed");
        assert_eq!(empty_try_blocks("try {\n  ;\n} catch (e) {}\n"), Some(1));
    }

    #[test]
    fn removed_dead_code_keeps_every_other_statement_in_place() {
        let mut v8 = node();
        let mut removed = 0;
        for (name, text) in corpus() {
            let run = v8
                .run("p.js", &text, Duration::from_secs(10), None)
                .unwrap();
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let Some(x) =
                    remove_dead_code(&text, &run.functions, &HashSet::new(), None, &mut rng)
                else {
                    continue;
                };
                let js = JsProgram::parse(&text).unwrap();
                let a = Analysis::of(&text).unwrap();
                let (first, last) = x.params[0].1.split_once('-').unwrap();
                let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
                let range: Vec<(Location, Location)> = js
                    .statements
                    .iter()
                    .filter(|s| s.line == first && s.last_line == last && s.listed)
                    .map(|s| (a.location(s.start), a.location(s.end)))
                    .collect();
                check_map(&name, &text, &x, &range);
                for l in &x.removed_lines {
                    assert_eq!(x.map.to_follow_up(Location::new(*l, 0)), None);
                }
                removed += 1;
            }
        }
        assert!(removed > 10, "{removed}");
    }

    #[test]
    fn a_program_with_with_is_offered_nothing_that_names_a_variable() {
        let text = "var o = { x: 1 };\nvar z = 2;\nwith (o) { x; }\n";
        let a = Analysis::of(text).unwrap();
        assert!(a.has_with && !a.points.is_empty());
        let offered = a.applicable();
        assert!(
            offered.contains(&Transformation::IntegerLiteral),
            "{offered:?}"
        );
        assert!(!offered.contains(&Transformation::InsertDeadCode));
        assert!(!offered.contains(&Transformation::AddNoOp));
        assert!(!offered.contains(&Transformation::BooleanLiteral));
    }
    #[test]
    fn literal_forms_and_fresh_parameters_are_exact() {
        let text = "function f(a, b) {\n  var t = true;\n  return a + 12;\n}\nf(1, 2);\n";
        let a = Analysis::of(text).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let x = a
            .transform(text, Transformation::AddParameter, &mut rng)
            .unwrap();
        assert!(x.text.starts_with("function f(a, b, __mt1) {"));
        let fresh = x.fresh.unwrap();
        assert_eq!(fresh.body, (Location::new(0, 24), Location::new(3, 0)));
        let lit = a
            .literals
            .iter()
            .find(|l| l.value == LiteralValue::Int(12))
            .unwrap();
        let r = a.rewrite(
            text,
            lit,
            Transformation::IntegerLiteral,
            "(12*1)",
            "({n}*1)",
        );
        assert!(r.text.contains("return a + (12*1);"));
        // The `;` after the literal moved by 4 columns.
        assert_eq!(
            r.map.to_follow_up(Location::new(2, 15)),
            Some(Location::new(2, 19))
        );
        let b = a
            .transform(text, Transformation::BooleanLiteral, &mut rng)
            .unwrap();
        assert!(
            b.text.contains("var t = (a === a || a !== a);")
                || b.text.contains("var t = (b === b || b !== b);")
                || b.text.contains("var t = (t === t || t !== t);"),
            "{}",
            b.text
        );
    }
}
