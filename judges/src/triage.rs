//! Triage rules (`triage.toml`, issue 23 and 41): what each class of finding is — an engine bug,
//! by design, a representation difference, or the harness's own — and which engine does what
//! against which. The rules and their matching live here, free of DataFrames, so that the
//! recorder can go on past a divergence the rules excuse (lockstep continuation) and the
//! analyzer can judge classes by the same rules.
//!
//! A rule names the family it judges (divergence, warning, inconsistency), the class-key fields
//! it requires (`*` matches any run of characters, `|` separates alternatives), and optionally
//! the engine that behaves so and the engines it behaves so against, how the program binds a
//! variable, and a regular expression over the member's detail or message. A rule that excuses
//! a difference carries evidence, examples it judges and near misses it must not, checked on
//! every load.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The class key of a divergence: type, last action, AST node of the line where that action was
/// triggered (DBDB §3.4).
pub const DIVERGENCE_KEYS: [&str; 3] = ["kind", "last_action", "ast_node"];
/// The class key of a warning: relation, transformation, AST node.
pub const WARNING_KEYS: [&str; 3] = ["relation", "transformation", "ast_node"];
/// The class key of a coverage inconsistency.
pub const INCONSISTENCY_KEYS: [&str; 4] = ["relation", "profiler", "kind", "syntax"];

#[derive(Debug, thiserror::Error)]
pub enum TriageError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: rule {index} ({note:?}): {message}")]
    Rule {
        path: PathBuf,
        index: usize,
        note: String,
        message: String,
    },
}

/// What a class of findings is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The engine or profiler is wrong: report it.
    EngineBug,
    /// Both answers are allowed (definitional, documented, or a design choice).
    ByDesign,
    /// The engines agree on the behaviour and differ in how they present it.
    Representation,
    /// morphtrace's own false positive: a bug of ours.
    Harness,
    /// Not the debuggers' to answer for: the program itself computes another value on these
    /// engines (run without a pause), so a value shown differently says nothing about either
    /// debugger. Neither a fault nor allowed behaviour: counted apart from judged work, and
    /// consulted after every other rule (an engine bug in the same member is named first).
    NotComparable,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::EngineBug => "engine bug",
            Verdict::ByDesign => "by design",
            Verdict::Representation => "representation",
            Verdict::Harness => "harness",
            Verdict::NotComparable => "not comparable",
        }
    }

    /// Worth a reduced reproducer (`findings`): not ours, not allowed behaviour.
    pub fn is_finding(self) -> bool {
        matches!(self, Verdict::EngineBug | Verdict::Representation)
    }
}

/// The finding families a rule can judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Divergence,
    Warning,
    Inconsistency,
}

impl Family {
    /// The member frame's column that carries the detail.
    pub fn detail_column(self) -> &'static str {
        match self {
            Family::Divergence => "detail",
            Family::Warning => "message",
            Family::Inconsistency => "detail",
        }
    }

    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Family::Divergence => &DIVERGENCE_KEYS,
            Family::Warning => &WARNING_KEYS,
            Family::Inconsistency => &INCONSISTENCY_KEYS,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Divergence => "divergence",
            Family::Warning => "warning",
            Family::Inconsistency => "inconsistency",
        }
    }
}

/// One member of a class as a rule sees it: its class key, its detail (a divergence's detail, a
/// warning's message), its engines and, for a variables divergence, how the program binds the
/// name. Rules' examples and near misses are written in the same shape.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    #[serde(default)]
    pub key: BTreeMap<String, String>,
    #[serde(default)]
    pub detail: String,
    /// A divergence's two sides in order (the detail's first and second side), or with three
    /// engines or more every engine; a warning's engine; an inconsistency's profiler.
    #[serde(default)]
    pub engines: Vec<String>,
    /// Three engines or more: the engine that stood alone.
    #[serde(default)]
    pub suspect: Option<String>,
    /// How the program binds the variable a variables divergence names (`unreferenced var`).
    #[serde(default)]
    pub binding: Option<String>,
    /// A divergence: the program itself computes differently on its engines (run without a
    /// pause, it ended or printed otherwise; `Divergence::program_differs`).
    #[serde(default)]
    pub program_differs: bool,
    /// The line the diverging action was triggered at comes after every line with code (a
    /// breakpoint requested past the last statement).
    #[serde(default)]
    pub after_the_code: bool,
    /// A divergence among three engines or more in which no engine stood alone: each two
    /// groups' difference as a member of two engines (its own kind and detail; the binding of
    /// the name it names). The divergence is judged when every one of them is.
    #[serde(default)]
    pub pairs: Vec<Member>,
    /// A breakpoint-location divergence: each side's placement with its engine's own first
    /// break position where the engine was asked (`fact::placements`).
    #[serde(default)]
    pub placements: Vec<morphtrace_schema::fact::Placement>,
    /// An excusing rule's account did not hold: the engines could not be brought back in
    /// step past the divergence (`fact::Fact::OutOfStep`). No excusing rule judges it.
    #[serde(default)]
    pub out_of_step: bool,
    /// A call-stack divergence: the engines (labels) whose stack names the frames the engines
    /// name apart as a debugger may name a function ECMAScript leaves without a name (none, or
    /// a name inferred from the assignments around it), from the program's syntax
    /// (`morphtrace_syntax::nodes::LineNodes::named_by_inference`).
    #[serde(default)]
    pub named_by_inference: Vec<String>,
    /// The engines (labels) paused at a function body's closing brace, exactly or just after it
    /// (from the program's syntax).
    #[serde(default)]
    pub at_a_closing_brace: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleText {
    family: Family,
    #[serde(default)]
    key: BTreeMap<String, String>,
    #[serde(default)]
    engines: Vec<String>,
    #[serde(default)]
    against: Vec<String>,
    binding: Option<String>,
    program_differs: Option<bool>,
    after_the_code: Option<bool>,
    placed_at_own_positions: Option<bool>,
    behaving_named_by_inference: Option<bool>,
    behaving_at_a_closing_brace: Option<bool>,
    #[serde(default)]
    remarks: Vec<RemarkPattern>,
    apart: Option<Apart>,
    difference: Option<OneOrMore<DifferencePattern>>,
    message: Option<OneOrMore<MessagePattern>>,
    detail: Option<String>,
    verdict: Verdict,
    note: String,
    link: Option<String>,
    #[serde(default)]
    evidence: Vec<String>,
    #[serde(default)]
    examples: Vec<Member>,
    #[serde(default)]
    near_misses: Vec<Member>,
}

/// A table or a list of them.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMore<T> {
    One(T),
    More(Vec<T>),
}

impl<T> OneOrMore<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMore::One(t) => vec![t],
            OneOrMore::More(v) => v,
        }
    }
}

/// What a divergence rule asks of the divergence's base difference (`crate::difference`): its
/// shape (a glob over `difference::SHAPES`' names) and fields (globs over
/// `Difference::fields`, read from the side of the engine that behaves so). A field the
/// difference lacks does not match; `frame` is `1` (the top frame) unless the pattern says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct DifferencePattern {
    pub shape: String,
    #[serde(flatten)]
    pub fields: BTreeMap<String, String>,
}

impl DifferencePattern {
    /// Whether `d`, read with `this` the side of the engine that behaves so, is what the
    /// pattern asks for.
    fn matches(&self, d: &crate::difference::Difference, this: crate::remark::Side) -> bool {
        if !glob(&self.shape, d.shape()) {
            return false;
        }
        let fields = d.fields(this);
        let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let frame_ok = self.fields.contains_key("frame") || get("frame") == Some("1");
        frame_ok
            && self
                .fields
                .iter()
                .all(|(k, want)| get(k).is_some_and(|v| glob(want, v)))
    }

    /// A reason the pattern cannot match any difference, if it cannot.
    fn check(&self) -> Option<String> {
        use crate::difference::{field_names, SHAPES};
        let shapes: Vec<(&str, Vec<String>)> = SHAPES
            .iter()
            .filter(|(s, _)| glob(&self.shape, s))
            .filter_map(|(s, _)| Some((*s, field_names(s)?)))
            .collect();
        if shapes.is_empty() {
            return Some(format!(
                "difference shape {:?} names no shape (known: {})",
                self.shape,
                SHAPES.map(|(s, _)| s).join(", ")
            ));
        }
        self.fields.keys().find_map(|k| {
            (!shapes.iter().all(|(_, fields)| fields.contains(k))).then(|| {
                format!(
                    "difference shape {:?} has no field {k:?} (its fields: {})",
                    self.shape,
                    shapes
                        .iter()
                        .map(|(s, f)| format!("{s}: {}", f.join(", ")))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            })
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessagePattern {
    pub form: Option<String>,
    pub action: Option<String>,
    pub expected: Option<String>,
    pub aside: Option<String>,
    pub thrown: Option<String>,
    pub difference: Option<DifferencePattern>,
}

impl MessagePattern {
    fn matches(&self, text: &str) -> bool {
        use crate::warning::{Aside, Message};
        let Some(m) = Message::parse(text) else {
            return false;
        };
        let form = match m {
            Message::Expected { .. } => "expected",
            Message::Answered { .. } => "answered",
        };
        let is = |p: &Option<String>, v: &str| p.as_ref().is_none_or(|p| glob(p, v));
        let aside_ok = match (&self.aside, m.aside()) {
            (None, a) => a.is_none() && self.thrown.is_none(),
            (Some(p), Some(a)) => {
                glob(p, a.id())
                    && match (&self.thrown, a) {
                        (None, _) => true,
                        (Some(t), Aside::Thrown { error, .. }) => glob(t, error),
                        (Some(_), _) => false,
                    }
            }
            (Some(_), None) => false,
        };
        let difference_ok = self.difference.as_ref().is_none_or(|p| {
            let (base, remarks) = crate::remark::split(m.difference());
            remarks.is_empty()
                && crate::difference::Difference::parse(base)
                    .is_some_and(|d| p.matches(&d, crate::remark::Side::Second))
        });
        is(&self.form, form)
            && is(&self.action, m.action())
            && is(&self.expected, m.expected_sort())
            && aside_ok
            && difference_ok
    }

    /// A reason the pattern cannot match any message, if it cannot.
    fn check(&self) -> Option<String> {
        if let Some(f) = self
            .form
            .as_ref()
            .filter(|f| !["expected", "answered"].iter().any(|x| glob(f, x)))
        {
            return Some(format!(
                "message form {f:?} is neither `expected` nor `answered`"
            ));
        }
        let ids = crate::warning::aside_ids();
        if let Some(a) = self
            .aside
            .as_ref()
            .filter(|a| !ids.iter().any(|id| glob(a, id)))
        {
            return Some(format!(
                "aside {a:?} names no aside (known: {})",
                ids.join(", ")
            ));
        }
        if self.thrown.is_some() && self.aside.is_none() {
            return Some("`thrown` reads an aside that names an exception: give `aside`".into());
        }
        self.difference.as_ref().and_then(DifferencePattern::check)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileText {
    #[serde(default, rename = "class")]
    rules: Vec<RuleText>,
}

/// A remark a divergence rule asks for (`crate::remark`): its id (a glob, `|` between
/// alternatives), the side it is about as the rule reads it (`this`: the engine that behaves
/// so; `other`; `none`: a remark that names no side; absent: any), and its fields (globs); or
/// `any_of` such patterns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemarkPattern {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub any_of: Vec<RemarkPattern>,
    #[serde(default)]
    pub side: Option<RemarkSide>,
    /// The member may lack it (it then matches one of the member's remarks if any).
    #[serde(default)]
    pub optional: bool,
    pub condition: Option<String>,
    pub outcome: Option<String>,
    pub thrown: Option<String>,
    pub frames_down: Option<String>,
    pub other: Option<String>,
    pub function: Option<String>,
}

/// Where the engine that behaves so stands against the others at a pause-location or
/// termination divergence an engine-bug rule judges: what lockstep does to bring them back in
/// step (an excusing rule's engine is always behind: it pauses apart, and steps on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Apart {
    /// It stopped where the others do not (an extra stop): it goes on, the others wait.
    Behind,
    /// It went on past a place the others stopped at (a pause it swallowed, a step that ran
    /// on, an end): the others go on to it, it waits.
    Ahead,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RemarkSide {
    This,
    Other,
    None,
}

impl RemarkPattern {
    fn fields(&self) -> impl Iterator<Item = (&'static str, &String)> {
        [
            ("condition", &self.condition),
            ("outcome", &self.outcome),
            ("thrown", &self.thrown),
            ("frames_down", &self.frames_down),
            ("other", &self.other),
            ("function", &self.function),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
    }

    /// Whether remark `r` is one this pattern asks for; `behaving`: the side of the engine that
    /// behaves so (`None`: the rule names no engine).
    fn matches(&self, r: &crate::remark::Remark, behaving: Option<crate::remark::Side>) -> bool {
        if !self.any_of.is_empty() {
            return self.any_of.iter().any(|p| p.matches(r, behaving));
        }
        let side_ok = match (self.side, r.side()) {
            (None, _) => true,
            (Some(RemarkSide::None), s) => s.is_none(),
            (Some(RemarkSide::This), Some(s)) => behaving == Some(s),
            (Some(RemarkSide::Other), Some(s)) => behaving == Some(s.other()),
            (Some(_), None) => false,
        };
        let fields = r.fields();
        side_ok
            && glob(&self.id, r.id())
            && self.fields().all(|(k, want)| {
                fields
                    .iter()
                    .any(|(name, value)| *name == k && glob(want, value))
            })
    }

    /// A reason the pattern cannot match any remark, if it cannot.
    fn check(&self) -> Option<String> {
        if !self.any_of.is_empty() {
            if !self.id.is_empty() || self.side.is_some() || self.fields().next().is_some() {
                return Some(
                    "a remark pattern with `any_of` has no `id`, `side` or fields of its own"
                        .into(),
                );
            }
            return self.any_of.iter().find_map(RemarkPattern::check);
        }
        let ids: Vec<&str> = crate::remark::IDS
            .iter()
            .copied()
            .filter(|id| glob(&self.id, id))
            .collect();
        if ids.is_empty() {
            return Some(format!(
                "remark {:?} names no remark (known: {})",
                self.id,
                crate::remark::IDS.join(", ")
            ));
        }
        self.fields().find_map(|(k, _)| {
            (!ids
                .iter()
                .all(|id| crate::remark::Remark::field_names(id).contains(&k)))
            .then(|| format!("remark {:?} has no field {k:?}", self.id))
        })
    }
}

/// Whether `remarks` are what `patterns` ask for: each required pattern met by one of them,
/// and every remark asked for by some pattern (a remark no pattern names tells of another
/// situation than the rule's).
fn remarks_as_asked(
    patterns: &[RemarkPattern],
    remarks: &[crate::remark::Remark],
    behaving: Option<crate::remark::Side>,
) -> bool {
    patterns
        .iter()
        .filter(|p| !p.optional)
        .all(|p| remarks.iter().any(|r| p.matches(r, behaving)))
        && remarks
            .iter()
            .all(|r| patterns.iter().any(|p| p.matches(r, behaving)))
}

/// One rule of `triage.toml`: which engine does what, against which, in which class.
#[derive(Debug, Clone)]
pub struct Rule {
    pub family: Family,
    pub key: BTreeMap<String, String>,
    /// The engine that behaves so: with three engines or more the suspect, with two either
    /// side (the other side then must match `against`). Empty: any engine.
    pub engines: Vec<String>,
    /// The engines it behaves so against (divergences): every other engine must match one.
    /// Empty: any.
    pub against: Vec<String>,
    /// Variables divergences: how the program binds the name (a glob over `Member::binding`).
    pub binding: Option<String>,
    /// Divergences: only where the program computes differently on the engines (`true`), or
    /// only where it does not (`false`); `None`: either.
    pub program_differs: Option<bool>,
    /// Divergences: only where the action's line comes after every line with code (`true`), or
    /// only where it does not (`false`); `None`: either.
    pub after_the_code: Option<bool>,
    /// Breakpoint-location divergences: only where every engine that was asked for its own
    /// break positions placed the breakpoint on one of them with none between it and the
    /// request, and at least one was asked (`true`); or only where one placed it elsewhere
    /// (`false`).
    /// A slide is an engine's own rule only when the engine's own positions agree with it: a
    /// placement the engine's positions contradict is a fault, whatever the other side did.
    pub placed_at_own_positions: Option<bool>,
    /// Call-stack divergences: only where the engine that behaves so names the frames named
    /// apart as functions ECMAScript leaves without a name, by inference or not at all
    /// (`Member::named_by_inference`: `true`), or only where it does not (`false`).
    pub behaving_named_by_inference: Option<bool>,
    /// Divergences between pauses: only where the engine that behaves so is paused at a
    /// function body's closing brace (`true`), or only where it is not (`false`).
    pub behaving_at_a_closing_brace: Option<bool>,
    /// Divergences: the remarks the recorder must have made (`crate::remark`), with the sides
    /// they are about; a member with a remark no pattern names is not judged. The detail's
    /// pattern reads the detail without its remarks.
    pub remarks: Vec<RemarkPattern>,
    /// Engine-bug rules over where engines pause or end: which way the engine that behaves so
    /// is apart, for lockstep to go on past the bug (`None`: the session stops there).
    pub apart: Option<Apart>,
    /// Divergences: what the base difference must be, any of these (`crate::difference`);
    /// empty: any. A difference the analyzer cannot read matches none.
    pub difference: Vec<DifferencePattern>,
    /// Warnings: what the message must say, any of these (`crate::warning`); empty: any.
    pub message: Vec<MessagePattern>,
    pub verdict: Verdict,
    pub note: String,
    pub link: Option<String>,
    /// Links (specification, engine source, tracker) and reduced bundles (paths relative to
    /// the triage file) that show the behaviour; `link` counts as one.
    pub evidence: Vec<String>,
    /// Members the rule must judge and near misses it must not: checked when the file is read.
    pub examples: Vec<Member>,
    pub near_misses: Vec<Member>,
}

impl Rule {
    /// Whether this rule judges `m` (a member of the rule's family).
    pub fn judges(&self, m: &Member) -> bool {
        self.judged_as(m).is_some()
    }

    /// The engine that behaves so in `m` as this rule judges it: the suspect, or the side whose
    /// engine the rule names; `None` when the rule does not judge `m` or names no engine and
    /// there is no suspect.
    pub fn behaving<'m>(&self, m: &'m Member) -> Option<&'m str> {
        self.judged_as(m)?.or(m.suspect.as_deref())
    }

    /// `Some` when the rule judges `m`, with the engine it behaves so in the orientation that
    /// matched (`None` inside: a rule that names no engines reads the detail as written).
    fn judged_as<'m>(&self, m: &'m Member) -> Option<Option<&'m str>> {
        let key_ok = self
            .key
            .iter()
            .all(|(k, p)| glob(p, m.key.get(k).map(String::as_str).unwrap_or("-")));
        let binding_ok = self
            .binding
            .as_ref()
            .is_none_or(|b| m.binding.as_deref().is_some_and(|x| glob(b, x)));
        let computes_ok = self.program_differs.is_none_or(|p| p == m.program_differs);
        let place_ok = self.after_the_code.is_none_or(|p| p == m.after_the_code);
        let own_ok = self
            .placed_at_own_positions
            .is_none_or(|p| placed_at_own_positions(&m.placements) == Some(p));
        let held = !(m.out_of_step && self.excuses());
        // Two tiers of one engine (`node@20.20.2` against `node@20.20.2+jitless`) differ by no
        // design between families: only a rule that names a tier judges them.
        let tier_ok = !tiers_of_one_engine(&m.engines) || self.names_a_tier();
        if !tier_ok || !key_ok || !binding_ok || !computes_ok || !place_ok || !own_ok || !held {
            return None;
        }
        // A divergence's remarks are typed facts, matched apart; the pattern reads the rest.
        let (base, remarks) = if self.family == Family::Divergence {
            crate::remark::split(&m.detail)
        } else {
            (m.detail.as_str(), Vec::new())
        };
        let detail_ok =
            |d: &str| self.message.is_empty() || self.message.iter().any(|p| p.matches(d));
        let difference = (!self.difference.is_empty())
            .then(|| crate::difference::Difference::parse(base))
            .flatten();
        let difference_ok = |this: crate::remark::Side| {
            self.difference.is_empty()
                || difference
                    .as_ref()
                    .is_some_and(|d| self.difference.iter().any(|p| p.matches(d, this)))
        };
        if self.engines.is_empty() && self.against.is_empty() {
            // No engine behaves so: the difference may be read from either side.
            let either = difference_ok(crate::remark::Side::First)
                || difference_ok(crate::remark::Side::Second);
            return (detail_ok(base) && either && remarks_as_asked(&self.remarks, &remarks, None))
                .then_some(None);
        }
        let names = |patterns: &[String], label: &str| {
            patterns.is_empty() || patterns.iter().any(|p| engine_matches(p, label))
        };
        let brace_ok = |behaving: &str| {
            self.behaving_at_a_closing_brace
                .is_none_or(|want| want == m.at_a_closing_brace.iter().any(|e| e == behaving))
                && self
                    .behaving_named_by_inference
                    .is_none_or(|want| want == m.named_by_inference.iter().any(|e| e == behaving))
        };
        self.orientations(m)
            .into_iter()
            .find(|(behaving, others, first)| {
                names(&self.engines, behaving)
                    && brace_ok(behaving)
                    && others.iter().all(|o| names(&self.against, o))
                    && detail_ok(base)
                    && difference_ok(if *first {
                        crate::remark::Side::First
                    } else {
                        crate::remark::Side::Second
                    })
                    && remarks_as_asked(
                        &self.remarks,
                        &remarks,
                        Some(if *first {
                            crate::remark::Side::First
                        } else {
                            crate::remark::Side::Second
                        }),
                    )
            })
            .map(|(behaving, _, _)| Some(behaving))
    }

    /// Who may be the engine that behaves so, the others, and whether it is the detail's first
    /// side. A divergence among three engines or more is one engine's only when it stood alone
    /// (it is then the detail's second side); without a suspect no engine rule judges it.
    fn orientations<'m>(&self, m: &'m Member) -> Vec<(&'m str, Vec<&'m str>, bool)> {
        match self.family {
            Family::Divergence => match (&m.suspect, m.engines.as_slice()) {
                (Some(s), all) => {
                    let others = all.iter().map(String::as_str).filter(|e| e != s).collect();
                    vec![(s.as_str(), others, false)]
                }
                (None, [a, b]) => vec![
                    (a.as_str(), vec![b.as_str()], true),
                    (b.as_str(), vec![a.as_str()], false),
                ],
                (None, _) => Vec::new(),
            },
            _ => m
                .engines
                .iter()
                .map(|e| (e.as_str(), Vec::new(), true))
                .collect(),
        }
    }

    /// Whether the rule names an engine's tier or variant (`node@*+jitless`) on each side: the
    /// only rules that judge a difference between two tiers of one engine.
    fn names_a_tier(&self) -> bool {
        !self.engines.is_empty()
            && !self.against.is_empty()
            && self
                .engines
                .iter()
                .chain(&self.against)
                .any(|p| p.contains('+'))
    }

    /// Excuses a difference (by design, a representation) or withholds judgment on it (not
    /// comparable): either way no fault is reported, so such a rule must carry evidence, an
    /// example and a near miss, and never judges a member whose account did not hold.
    pub fn excuses(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::ByDesign | Verdict::Representation | Verdict::NotComparable
        )
    }
}

/// The rules, in file order (the first that matches a member judges it).
#[derive(Debug, Clone, Default)]
pub struct Triage {
    pub rules: Vec<Rule>,
    pub path: Option<PathBuf>,
    /// The file's text as read.
    pub text: String,
}

/// Whether `engines` (labels) are one engine under different execution tiers or variants: labels
/// alike but for what follows a `+` (`node@20.20.2+jitless`, `debugpy@1.8.17+python`), not all
/// the same.
pub fn tiers_of_one_engine(engines: &[String]) -> bool {
    let base = |e: &str| e.split_once('+').map_or(e, |(b, _)| b).to_string();
    match engines.split_first() {
        Some((first, rest)) if !rest.is_empty() => {
            rest.iter().all(|e| base(e) == base(first)) && rest.iter().any(|e| e != first)
        }
        _ => false,
    }
}

/// `|` separates alternatives; `*` matches any run of characters; everything else literally,
/// case-sensitively.
fn glob(pattern: &str, text: &str) -> bool {
    pattern.split('|').any(|p| glob_one(p, text))
}

fn glob_one(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

impl Triage {
    /// Whether some rule depends on what a program computes apart from debugging
    /// (`program_differs`): the recorder then runs each program once without pausing.
    pub fn asks_what_programs_compute(&self) -> bool {
        self.rules.iter().any(|r| r.program_differs.is_some())
    }

    pub fn parse(text: &str, path: &Path) -> Result<Triage, TriageError> {
        let f: FileText = toml::from_str(text).map_err(|e| TriageError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        let mut rules = Vec::new();
        for (index, r) in f.rules.into_iter().enumerate() {
            let fail = |message: String| TriageError::Rule {
                path: path.into(),
                index,
                note: r.note.clone(),
                message,
            };
            let allowed = r.family.keys();
            let fields = r.key.keys().chain(
                r.examples
                    .iter()
                    .chain(&r.near_misses)
                    .flat_map(|m| m.key.keys()),
            );
            if let Some(k) = fields.clone().find(|k| !allowed.contains(&k.as_str())) {
                return Err(fail(format!(
                    "unknown key field {k:?} (this family's: {})",
                    allowed.join(", ")
                )));
            }
            if r.family != Family::Divergence
                && (!r.against.is_empty()
                    || r.binding.is_some()
                    || r.program_differs.is_some()
                    || r.after_the_code.is_some()
                    || r.placed_at_own_positions.is_some()
                    || r.behaving_named_by_inference.is_some()
                    || r.behaving_at_a_closing_brace.is_some()
                    || !r.remarks.is_empty())
            {
                return Err(fail(
                    "`against`, `binding`, `program_differs`, `after_the_code`, `placed_at_own_positions`, `behaving_named_by_inference`, `behaving_at_a_closing_brace` and `remarks` are for divergences (a warning or inconsistency has one engine)".into(),
                ));
            }
            if r.apart.is_some()
                && (r.family != Family::Divergence
                    || r.verdict != Verdict::EngineBug
                    || r.engines.is_empty())
            {
                return Err(fail(
                    "`apart` is for engine-bug divergence rules that name the engine that behaves so (`engines`)".into(),
                ));
            }
            if let Some(why) = r.remarks.iter().find_map(RemarkPattern::check) {
                return Err(fail(why));
            }
            fn sided(p: &RemarkPattern) -> bool {
                matches!(p.side, Some(RemarkSide::This | RemarkSide::Other))
                    || p.any_of.iter().any(sided)
            }
            let sided = r.remarks.iter().any(sided);
            if sided && r.engines.is_empty() && r.against.is_empty() {
                return Err(fail(
                    "a remark's side `this` or `other` needs the rule's `engines` or `against` (which engine behaves so)".into(),
                ));
            }
            let difference = r
                .difference
                .clone()
                .map(OneOrMore::into_vec)
                .unwrap_or_default();
            if r.family != Family::Divergence && !difference.is_empty() {
                return Err(fail("`difference` is for divergences".into()));
            }
            if r.detail.is_some() {
                return Err(fail(match r.family {
                    Family::Divergence => "a divergence rule reads the difference's typed fields (`difference = { shape = …, … }`), not its words (`detail`)".into(),
                    Family::Warning => "a warning rule reads the message's typed fields (`message = { action = …, aside = …, difference = … }`), not its words (`detail`)".into(),
                    Family::Inconsistency => "an inconsistency rule reads its class key, not the detail's words (`detail`)".into(),
                }));
            }
            let message = r
                .message
                .clone()
                .map(OneOrMore::into_vec)
                .unwrap_or_default();
            if r.family != Family::Warning && !message.is_empty() {
                return Err(fail("`message` is for warnings".into()));
            }
            if let Some(why) = message.iter().find_map(MessagePattern::check) {
                return Err(fail(why));
            }
            if let Some(why) = difference.iter().find_map(DifferencePattern::check) {
                return Err(fail(why));
            }
            let mut evidence = r.evidence.clone();
            evidence.extend(r.link.clone());
            let rule = Rule {
                family: r.family,
                key: r.key.clone(),
                engines: r.engines.clone(),
                against: r.against.clone(),
                binding: r.binding.clone(),
                program_differs: r.program_differs,
                after_the_code: r.after_the_code,
                placed_at_own_positions: r.placed_at_own_positions,
                behaving_named_by_inference: r.behaving_named_by_inference,
                behaving_at_a_closing_brace: r.behaving_at_a_closing_brace,
                remarks: r.remarks.clone(),
                apart: r.apart,
                difference,
                message,
                verdict: r.verdict,
                note: r.note.clone(),
                link: r.link.clone(),
                evidence,
                examples: r.examples.clone(),
                near_misses: r.near_misses.clone(),
            };
            if rule.excuses() {
                // A rule that excuses a difference can silence a fault: it must say why (the
                // evidence) and how far it reaches (what it judges and what it must not).
                if rule.evidence.is_empty() {
                    return Err(fail(format!(
                        "a {} rule needs evidence: a link (specification, engine source, tracker) or a reduced bundle",
                        rule.verdict.name()
                    )));
                }
                if rule.examples.is_empty() || rule.near_misses.is_empty() {
                    return Err(fail(format!(
                        "a {} rule needs an example it judges and a near miss it must not (`examples`, `near_misses`)",
                        rule.verdict.name()
                    )));
                }
            }
            if let Some(i) = rule.examples.iter().position(|m| !rule.judges(m)) {
                return Err(fail(format!(
                    "example {i} is not judged by the rule: {:?}",
                    rule.examples[i]
                )));
            }
            if let Some(i) = rule.near_misses.iter().position(|m| rule.judges(m)) {
                return Err(fail(format!(
                    "near miss {i} is judged by the rule (too broad): {:?}",
                    rule.near_misses[i]
                )));
            }
            rules.push(rule);
        }
        Ok(Triage {
            rules,
            path: Some(path.into()),
            text: text.to_string(),
        })
    }

    pub fn load(path: &Path) -> Result<Triage, TriageError> {
        let text = std::fs::read_to_string(path).map_err(|source| TriageError::Read {
            path: path.into(),
            source,
        })?;
        Triage::parse(&text, path)
    }

    /// The first rule of `family` that judges `m`; rules whose verdict is *not comparable* only
    /// when no other rule does (a known engine bug or an allowed behaviour says more about the
    /// member than that the program computes otherwise, wherever the rules stand in the file).
    pub fn first_judging(&self, m: &Member, family: Family) -> Option<usize> {
        let first = |m: &Member| {
            let judging = |last: bool| {
                self.rules.iter().position(|r| {
                    r.family == family
                        && (r.verdict == Verdict::NotComparable) == last
                        && r.judges(m)
                })
            };
            judging(false).or_else(|| judging(true))
        };
        first(m).or_else(|| self.judging_every_pair(m, first))
    }

    /// A divergence no engine stood alone in, judged difference by difference: when a rule
    /// judges each two groups' difference, the first engine-bug rule among them (a fault
    /// shows), or else the first pair's rule. `None` when any difference is unjudged.
    fn judging_every_pair(
        &self,
        m: &Member,
        first: impl Fn(&Member) -> Option<usize>,
    ) -> Option<usize> {
        if m.suspect.is_some() || m.engines.len() < 3 || m.pairs.is_empty() {
            return None;
        }
        // A divergence the engines could not be brought back in step past is out of step in
        // each of its differences too: no excusing rule judges any of them.
        let judged: Vec<usize> = m
            .pairs
            .iter()
            .map(|p| {
                if m.out_of_step && !p.out_of_step {
                    first(&Member {
                        out_of_step: true,
                        ..p.clone()
                    })
                } else {
                    first(p)
                }
            })
            .collect::<Option<_>>()?;
        judged
            .iter()
            .copied()
            .find(|&i| self.rules[i].verdict == Verdict::EngineBug)
            .or(judged.first().copied())
    }

    /// A digest of the rules as read (SHA-256 of the file's text), to name the triage a
    /// recording continued under.
    pub fn digest(&self) -> String {
        use sha2::Digest;
        let h = sha2::Sha256::digest(self.text.as_bytes());
        h.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Whether every side whose engine was asked for its break positions placed the breakpoint
/// where they say (`Some(true)`), one placed it elsewhere (`Some(false)`), or no side was
/// asked (`None`: nothing is known, as in archives recorded before the question was asked).
pub fn placed_at_own_positions(placements: &[morphtrace_schema::fact::Placement]) -> Option<bool> {
    let said: Vec<bool> = placements
        .iter()
        .filter_map(morphtrace_schema::fact::Placement::as_own_positions_say)
        .collect();
    (!said.is_empty()).then(|| said.iter().all(|&ok| ok))
}

/// `chromium` matches `chromium@156.0…`; `node@20` matches `node@20.20.2`; a full label
/// matches itself.
pub fn engine_matches(pattern: &str, label: &str) -> bool {
    label == pattern
        || label
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('@') || rest.starts_with('.'))
        || glob(pattern, label)
}

/// The header parameter that holds the text of the triage a campaign went on under.
pub const RECORDED_TEXT: &str = "lockstep.triage.text";

/// The triage a campaign went on under, as its archive recorded it, if it recorded one;
/// `label` names it in errors and as its `path`.
pub fn recorded(
    header: &morphtrace_schema::ArchiveHeader,
    label: &Path,
) -> Option<Result<Triage, TriageError>> {
    let text = header.campaign.param(RECORDED_TEXT)?;
    Some(Triage::parse(text, label))
}

/// The triage file to use: the one given, else `triage.toml` in the current directory or the
/// nearest parent that has one (a repository's), else none.
pub fn find(given: Option<&Path>) -> Result<Triage, TriageError> {
    if let Some(p) = given {
        return Triage::load(p);
    }
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        let p = d.join("triage.toml");
        if p.is_file() {
            return Triage::load(&p);
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    Ok(Triage::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use morphtrace_schema::fact::Placement;
    use morphtrace_schema::trace::Location;

    #[test]
    fn globs_match_runs_and_literals() {
        assert!(glob("*", "anything"));
        assert!(glob("Variable*", "VariableDeclaration"));
        assert!(glob("*Statement", "IfStatement"));
        assert!(glob("a*c*e", "abcde"));
        assert!(!glob("a*c*e", "abde"));
        assert!(!glob("If*", "ExpressionStatement"));
        assert!(glob("exact", "exact"));
        assert!(glob("IfStatement|Return*", "ReturnStatement"));
        assert!(!glob("IfStatement|Return*", "BlockStatement"));
        assert!(!glob("exact", "exactly"));
        assert!(engine_matches("node@20", "node@20.20.2"));
        assert!(engine_matches("chromium", "chromium@156.0.8078.79"));
        assert!(!engine_matches("node@2", "node@20.20.2"));
    }

    /// A placement at `placed` (a line) of a breakpoint requested at `requested`, the engine
    /// asked when `positions` (lines) is given.
    fn placement(
        engine: &str,
        requested: u32,
        placed: Option<u32>,
        positions: Option<&[u32]>,
    ) -> Placement {
        let at = |l: u32| Location::new(l, 0);
        Placement {
            engine: engine.into(),
            placed: placed.map(at).into_iter().collect(),
            asked: positions.is_some(),
            requested: at(requested),
            positions: positions
                .unwrap_or_default()
                .iter()
                .copied()
                .map(at)
                .collect(),
        }
    }

    #[test]
    fn a_placement_is_judged_by_the_engines_own_positions() {
        // Slid forward to the next position, and back to a return's: as the positions say.
        let ok = [
            placement("node", 2, Some(4), Some(&[4])),
            placement("chromium", 5, Some(3), Some(&[3])),
        ];
        assert_eq!(placed_at_own_positions(&ok), Some(true));
        // Reported a line below the position it really has (a fault), or past a position
        // between it and the request: contradicted, whatever the other side did.
        let below = [placement("node", 2, Some(5), Some(&[4])), ok[1].clone()];
        assert_eq!(placed_at_own_positions(&below), Some(false));
        let past = [placement("node", 2, Some(5), Some(&[4, 5])), ok[1].clone()];
        assert_eq!(placed_at_own_positions(&past), Some(false));
        let back_past = [placement("chromium", 5, Some(3), Some(&[3, 4]))];
        assert_eq!(placed_at_own_positions(&back_past), Some(false));
        // Positions listed in the engine's order (V8's bytecode: a switch's later case test
        // before the bodies between): the first from the request on, past positions it reaches
        // later; not a position that comes after another one from the request on, nor past the
        // request where the request is itself a position.
        let test_first = [placement("node", 2, Some(6), Some(&[6, 3, 4, 7]))];
        assert_eq!(placed_at_own_positions(&test_first), Some(true));
        let body_instead = [placement("node", 2, Some(3), Some(&[6, 3, 4, 7]))];
        assert_eq!(placed_at_own_positions(&body_instead), Some(false));
        let past_the_request = [placement("node", 3, Some(6), Some(&[6, 3, 4]))];
        assert_eq!(placed_at_own_positions(&past_the_request), Some(false));
        // An engine that cannot be asked says nothing; the one asked decides.
        let bun = [ok[0].clone(), placement("bun", 2, Some(9), None)];
        assert_eq!(placed_at_own_positions(&bun), Some(true));
        // Nobody asked (an older archive): nothing is known, and a rule that asks judges nothing.
        let none = [
            placement("node", 2, Some(3), None),
            placement("bun", 2, Some(9), None),
        ];
        assert_eq!(placed_at_own_positions(&none), None);
        // Placed nowhere: nothing to contradict.
        assert_eq!(
            placed_at_own_positions(&[placement("node", 2, None, Some(&[]))]),
            Some(true)
        );
    }

    #[test]
    fn only_a_top_frame_named_otherwise_is_a_naming_difference() {
        let top = |a: &[&str], b: &[&str]| {
            morphtrace_schema::fact::only_the_top_frame_differs(&[a.to_vec(), b.to_vec()])
        };
        assert!(top(
            &["", "makeName", "doTest", ""],
            &["Math.random", "makeName", "doTest", ""]
        ));
        // A frame lost below the top, one added, one named otherwise, or no difference at all.
        assert!(!top(
            &["", "makeName", "doTest", ""],
            &["Math.random", "doTest", ""]
        ));
        assert!(!top(
            &["", "doTest", ""],
            &["Math.random", "makeName", "doTest", ""]
        ));
        assert!(!top(
            &["", "makeName", "doTest", ""],
            &["Math.random", "makeName", "run", ""]
        ));
        assert!(!top(&["f", "g"], &["f", "g"]));
        assert!(!morphtrace_schema::fact::only_the_top_frame_differs(&[
            vec!["f"]
        ]));
    }

    const SLIDE_RULE: &str = r#"
[[class]]
family = "divergence"
key = { kind = "breakpoint-location" }
engines = ["firefox"]
against = ["node"]
placed_at_own_positions = true
verdict = "by-design"
note = "slides"
evidence = ["x"]
examples = [{ key = { kind = "breakpoint-location" }, detail = "breakpoint at [4:1] vs [5:1]", engines = ["node@20", "firefox@153"], placements = [{ engine = "node@20", placed = [{ line = 3, column = 0 }], asked = true, requested = { line = 2, column = 0 }, positions = [{ line = 3, column = 0 }] }] }]
near_misses = [{ key = { kind = "breakpoint-location" }, detail = "breakpoint at [5:1] vs [5:1]", engines = ["node@20", "firefox@153"], placements = [{ engine = "node@20", placed = [{ line = 4, column = 0 }], asked = true, requested = { line = 2, column = 0 }, positions = [{ line = 3, column = 0 }] }] }]
"#;

    #[test]
    fn an_excuse_whose_engines_fell_out_of_step_judges_nothing() {
        let t = Triage::parse(SLIDE_RULE, Path::new("t.toml")).unwrap();
        let mut m = t.rules[0].examples[0].clone();
        assert_eq!(t.first_judging(&m, Family::Divergence), Some(0));
        m.out_of_step = true;
        assert_eq!(t.first_judging(&m, Family::Divergence), None);
        // A divergence of three engines no engine stood alone in, judged pair by pair: out of
        // step, none of its pairs is excused either.
        m.out_of_step = false;
        let three = Member {
            engines: vec!["node@20".into(), "firefox@153".into(), "bun@1.4".into()],
            pairs: vec![m.clone(), m.clone()],
            ..m.clone()
        };
        assert_eq!(t.first_judging(&three, Family::Divergence), Some(0));
        let apart = Member {
            out_of_step: true,
            ..three
        };
        assert_eq!(t.first_judging(&apart, Family::Divergence), None);
        // Without the engine's positions, the rule that asks for them judges nothing.
        m.out_of_step = false;
        m.placements[0].asked = false;
        assert_eq!(t.first_judging(&m, Family::Divergence), None);
        // Only divergences may ask.
        let bad = "[[class]]\nfamily = \"warning\"\nplaced_at_own_positions = true\nverdict = \"engine-bug\"\nnote = \"n\"\n";
        let err = Triage::parse(bad, Path::new("t.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("placed_at_own_positions"), "{err}");
    }

    #[test]
    fn two_tiers_of_one_engine_are_judged_only_by_a_rule_that_names_a_tier() {
        let text = r#"
[[class]]
family = "divergence"
key = { kind = "variables" }
engines = ["node"]
verdict = "engine-bug"
note = "V8 shows s wrong"

[[class]]
family = "divergence"
key = { kind = "variables" }
verdict = "representation"
note = "either engine writes s its way"
evidence = ["x"]
examples = [{ key = { kind = "variables" }, detail = "s: 1 vs 2", engines = ["a", "b"] }]
near_misses = [{ key = { kind = "stack" }, detail = "s: 1 vs 2", engines = ["a", "b"] }]

[[class]]
family = "divergence"
key = { kind = "variables" }
engines = ["node@*+jitless"]
against = ["node"]
verdict = "engine-bug"
note = "Ignition shows s wrong"
"#;
        let t = Triage::parse(text, Path::new("t.toml")).unwrap();
        let m = |engines: &[&str]| Member {
            key: [("kind".to_string(), "variables".to_string())].into(),
            detail: "s: 1 vs 2".into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            ..Member::default()
        };
        // Node against Firefox: the family's rule judges.
        assert_eq!(
            t.first_judging(
                &m(&["node@20.20.2", "firefox@153.8.0esr"]),
                Family::Divergence
            ),
            Some(0)
        );
        // Two tiers of one Node: neither the family's rule nor the one naming no engine; the
        // rule that names the tier pair does, and only that pair.
        let tiers = m(&["node@20.20.2", "node@20.20.2+jitless"]);
        assert!(tiers_of_one_engine(&tiers.engines));
        assert_eq!(t.first_judging(&tiers, Family::Divergence), Some(2));
        let other = m(&["node@20.20.2", "node@20.20.2+turbofan"]);
        assert_eq!(t.first_judging(&other, Family::Divergence), None);
        // Two tracers of one debugpy are two variants of one engine too; two versions are not.
        assert!(tiers_of_one_engine(&[
            "debugpy@1.8.17+cython".into(),
            "debugpy@1.8.17+python".into()
        ]));
        assert!(!tiers_of_one_engine(&[
            "node@22.1.0".into(),
            "node@24.2.0".into()
        ]));
        assert!(!tiers_of_one_engine(&[
            "node@22.1.0".into(),
            "node@22.1.0".into()
        ]));
        assert_eq!(
            t.first_judging(&m(&["node@22.1.0", "node@24.2.0"]), Family::Divergence),
            Some(0)
        );
    }

    #[test]
    fn a_not_comparable_rule_judges_only_what_no_other_rule_does() {
        let text = r#"
[[class]]
family = "divergence"
key = { kind = "variables" }
program_differs = true
verdict = "not-comparable"
note = "the program computes otherwise"
evidence = ["x"]
examples = [{ key = { kind = "variables" }, detail = "s: 1 vs 2", engines = ["a", "b"], program_differs = true }]
near_misses = [{ key = { kind = "variables" }, detail = "s: 1 vs 2", engines = ["a", "b"] }]

[[class]]
family = "divergence"
key = { kind = "variables" }
engines = ["b"]
verdict = "engine-bug"
note = "b shows s wrong"
"#;
        let t = Triage::parse(text, Path::new("t.toml")).unwrap();
        assert_eq!(t.rules[0].verdict.name(), "not comparable");
        assert!(!t.rules[0].verdict.is_finding());
        let m = |engines: [&str; 2]| Member {
            key: [("kind".to_string(), "variables".to_string())].into(),
            detail: "s: 1 vs 2".into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            program_differs: true,
            ..Member::default()
        };
        // The engine bug named below it judges first; where it does not reach, not comparable.
        assert_eq!(t.first_judging(&m(["a", "b"]), Family::Divergence), Some(1));
        assert_eq!(t.first_judging(&m(["a", "c"]), Family::Divergence), Some(0));
        // Withholding judgment is no excuse for a member whose account failed.
        let mut out = m(["a", "c"]);
        out.out_of_step = true;
        assert_eq!(t.first_judging(&out, Family::Divergence), None);
    }

    #[test]
    fn remarks_match_by_id_side_and_field_never_by_words() {
        let text = r#"
[[class]]
family = "divergence"
key = { kind = "pause-location" }
engines = ["b"]
against = ["a"]
difference = { shape = "paused-at" }
remarks = [{ id = "on-the-call-line", side = "this", other = "another-line" }, { any_of = [{ id = "began-in-a-generator", side = "none" }, { id = "began-on-a-generators-last-statement" }], optional = true }]
verdict = "engine-bug"
note = "b stops on the line of the call"
"#;
        let t = Triage::parse(text, Path::new("t.toml")).unwrap();
        let r = &t.rules[0];
        let m = |detail: &str, engines: [&str; 2]| Member {
            key: [("kind".to_string(), "pause-location".to_string())].into(),
            detail: detail.into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            ..Member::default()
        };
        let call = "; second side on the caller's line of the call, first side on another line of the caller";
        let base = "paused at 4:1 vs 3:1";
        assert!(r.judges(&m(&format!("{base}{call}"), ["a", "b"])));
        // The same remark about the other engine: b is not the one on the line of the call.
        assert!(!r.judges(&m(&format!("{base}{call}"), ["b", "a"])));
        // No remark, another field value, a remark the rule does not name: not judged.
        assert!(!r.judges(&m(base, ["a", "b"])));
        let into = "; second side on the caller's line of the call, first side in a function called from that line";
        assert!(!r.judges(&m(&format!("{base}{into}"), ["a", "b"])));
        let brace =
            "; first side at the end of a return, the other at its function's closing brace";
        assert!(!r.judges(&m(&format!("{base}{call}{brace}"), ["a", "b"])));
        // An optional remark may be there, in any of its forms, or not; its side as asked.
        let gen = "; the step began in a generator";
        assert!(r.judges(&m(&format!("{base}{call}{gen}"), ["a", "b"])));
        let last = "; the step began on a generator's last statement";
        assert!(r.judges(&m(&format!("{base}{call}{last}"), ["a", "b"])));
        let ended = "; the step began in a generator, which ended before the second side stopped";
        assert!(!r.judges(&m(&format!("{base}{call}{ended}"), ["a", "b"])));
        // Words of a remark inside the base difference are not a remark.
        assert!(!r.judges(&m(&format!("s: \"{}\" vs 1", &call[2..]), ["a", "b"])));
    }

    #[test]
    fn a_remark_pattern_that_names_nothing_is_refused_on_load() {
        let rule = |remarks: &str| {
            format!(
                "[[class]]\nfamily = \"divergence\"\nengines = [\"b\"]\nremarks = {remarks}\nverdict = \"engine-bug\"\nnote = \"n\"\n"
            )
        };
        for bad in [
            r#"[{ id = "no-such-remark" }]"#,
            r#"[{ id = "return-and-brace", function = "f" }]"#,
            r#"[{ any_of = [{ id = "placed-nowhere" }], id = "placed-nowhere" }]"#,
        ] {
            assert!(
                Triage::parse(&rule(bad), Path::new("t.toml")).is_err(),
                "{bad}"
            );
        }
        let sided_without_engines = "[[class]]\nfamily = \"divergence\"\nremarks = [{ id = \"return-and-brace\", side = \"this\" }]\nverdict = \"engine-bug\"\nnote = \"n\"\n";
        assert!(Triage::parse(sided_without_engines, Path::new("t.toml")).is_err());
        let warning = "[[class]]\nfamily = \"warning\"\nremarks = [{ id = \"placed-nowhere\" }]\nverdict = \"engine-bug\"\nnote = \"n\"\n";
        assert!(Triage::parse(warning, Path::new("t.toml")).is_err());
    }

    /// The repository's own rules load: each judges its examples and none of its near misses.
    #[test]
    fn the_repositorys_rules_load() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../triage.toml");
        let t = Triage::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(t.rules.iter().any(|r| !r.remarks.is_empty()));
    }
}
