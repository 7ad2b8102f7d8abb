//! What two debuggers' answers differ in (issue 66): a divergence's base difference, its detail
//! without remarks, as typed data with explicit sides. The recorder builds one and renders it
//! here, and only here; the analyzer reads the rendered detail back here (archives keep the
//! text). Triage rules match a difference's shape and fields (`Difference::fields`), read
//! from the side of the engine that behaves so, never its words.

use std::fmt;

use crate::remark::Side;
use morphtrace_schema::value::{Entry, ObjectKind, Value};

/// A divergence's base difference. Texts are as the answers showed them (a location as
/// `line:column`, 1-based; a value as `Value`'s display); `[first, second]` in detail order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// `paused at 3:5 vs 4:1`
    PausedAt { at: [String; 2] },
    /// `first side ended (completed), second side paused at 4:1`; `ended` is `None` in
    /// archives from before the side was named (`one side ended (timeout), the other …`).
    EndedOnOneSide {
        ended: Option<Side>,
        outcome: String,
        paused_at: String,
    },
    /// `program ended completed vs timeout`
    ProgramEnded { outcomes: [String; 2] },
    /// `breakpoint at [3:5,7:1] vs []`
    BreakpointAt { placed: [Vec<String>; 2] },
    /// `second side refused the breakpoint: MESSAGE`; `refused` is `None` in archives from
    /// before the side was named (`one side refused …`).
    RefusedBreakpoint {
        refused: Option<Side>,
        message: String,
    },
    /// `removed: true vs false`
    Removed { ok: [String; 2] },
    /// `stack [f, g, ] vs [f, ]`: each frame's function name, the top first.
    Stack { frames: [Vec<String>; 2] },
    /// `async stack [f] < [g] vs (none)`: each segment's function names.
    AsyncStack { segments: [Vec<Vec<String>>; 2] },
    /// `first side paused on an exception (threw X), second side there for another reason (r)`
    ExceptionPauseOnOneSide {
        on: Side,
        thrown: Option<String>,
        other_reason: String,
    },
    /// `threw X vs Y` or, errors of one class, `threw TypeError vs TypeError (message "a" vs "b")`
    Threw {
        thrown: [String; 2],
        messages: Option<[String; 2]>,
    },
    /// `evaluated threw …`, as `Threw`
    EvaluatedThrew {
        thrown: [String; 2],
        messages: Option<[String; 2]>,
    },
    /// `x only on the first side`
    OnlyOn { name: String, side: Side },
    /// `x.a[1]: 1 vs 2 (class "A" vs "Object", …)`: the variable, the path into it, the two
    /// values and how two objects differ besides their entries.
    Value {
        name: String,
        path: String,
        values: [String; 2],
        shell: Vec<Shell>,
    },
    /// `x: read back 1 vs 2 after the set`
    ReadBack { name: String, values: [String; 2] },
    /// `x: first side refused to set it (MESSAGE), second side read it back as V`; `refused`
    /// is `None` in archives from before the side was named (`one side …, the other …`).
    RefusedToSet {
        refused: Option<Side>,
        name: String,
        message: String,
        value: String,
    },
    /// `evaluated 1 vs threw E (shell)`
    Evaluated {
        values: [String; 2],
        threw: [bool; 2],
        shell: Vec<Shell>,
    },
    /// `first side refused to evaluate (MESSAGE), second side gave V` (or `threw V`); `refused`
    /// as for `RefusedToSet`.
    RefusedToEvaluate {
        refused: Option<Side>,
        message: String,
        threw: bool,
        value: String,
    },
    /// `frame 2 (outer): …`: a difference in a frame below the top, counted from the top's 1.
    InFrame {
        frame: u32,
        function: String,
        inner: Box<Difference>,
    },
    /// `logpoints logged #1 "a" vs nothing (line 1 of 1 vs 0)`: the first line the two differ
    /// in (`nothing` where one logged no more), its number, and how many lines each logged.
    Logged {
        logged: [String; 2],
        line: u32,
        lines: [u32; 2],
    },
    /// Both sides answered with an error: `MESSAGE vs MESSAGE`
    Errors { messages: [String; 2] },
    /// Answers of different sorts: `paused vs finished`
    Answers { names: [String; 2] },
    /// `the traces issue A vs B`
    Actions { actions: [String; 2] },
}

/// One way two objects differ besides their entries (`shell_difference`): the aspect
/// (`kind`, `class`, `message`, `description`, `truncated`, `entries`) and each side's text as
/// shown (`"A"`, `Some("A")`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shell {
    pub aspect: String,
    pub sides: [String; 2],
}

/// What differs between two objects besides their entries (`description "Set(1)" vs
/// None`, rendered by `Difference`); empty if nothing does or they are not both objects.
pub fn shell_difference(this: &Value, other: &Value) -> Vec<Shell> {
    let (
        Value::Object {
            kind: k1,
            class: c1,
            description: d1,
            truncated: t1,
            entries: e1,
        },
        Value::Object {
            kind: k2,
            class: c2,
            description: d2,
            truncated: t2,
            entries: e2,
        },
    ) = (this, other)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut part = |aspect: &str, a: String, b: String| {
        out.push(Shell {
            aspect: aspect.to_string(),
            sides: [a, b],
        })
    };
    if k1 != k2 {
        part("kind", format!("{k1:?}"), format!("{k2:?}"));
    }
    if c1 != c2 {
        part("class", format!("{c1:?}"), format!("{c2:?}"));
    }
    // An error's description holds its stack: its message says what differs.
    let errors = *k1 == ObjectKind::Error && *k2 == ObjectKind::Error;
    if let (true, Some((m1, m2))) = (errors, this.messages_apart(other)) {
        part("message", format!("{m1:?}"), format!("{m2:?}"));
    } else if d1 != d2 && !errors {
        part("description", format!("{d1:?}"), format!("{d2:?}"));
    }
    if t1 != t2 {
        part("truncated", t1.to_string(), t2.to_string());
    }
    let n = |e: &Option<Vec<Entry>>| e.as_ref().map(Vec::len);
    if n(e1) != n(e2) {
        part("entries", format!("{:?}", n(e1)), format!("{:?}", n(e2)));
    }
    out
}

/// The aspects `shell_difference` names, in its order.
pub const SHELL_ASPECTS: [&str; 6] = [
    "kind",
    "class",
    "message",
    "description",
    "truncated",
    "entries",
];

/// Every shape's name and the fields a rule may name for it (`this_`/`other_` fields read the
/// side of the engine that behaves so and the other; `frame` and `frame_function` are every
/// shape's, `1` and empty at the top frame). `shell`: the aspects two objects differ in besides
/// their entries (`class, description`); `numeric_name`: `true` for a name of digits alone;
/// `named_apart`, `only_the_top_differs`: how two stacks of one depth differ (`stack`).
pub const SHAPES: [(&str, &[&str]); 21] = [
    (
        "paused-at",
        &["this_at", "other_at", "this_column", "other_column"],
    ),
    (
        "ended-on-one-side",
        &["ended", "outcome", "paused_at", "paused_column"],
    ),
    ("program-ended", &["this_outcome", "other_outcome"]),
    (
        "breakpoint-at",
        &["this_placed", "other_placed", "this_places", "other_places"],
    ),
    ("refused-breakpoint", &["refused", "message"]),
    ("removed", &["this_ok", "other_ok"]),
    (
        "stack",
        &[
            "this_frames",
            "other_frames",
            "this_top",
            "other_top",
            "this_depth",
            "other_depth",
            "named_apart",
            "only_the_top_differs",
        ],
    ),
    (
        "async-stack",
        &[
            "this_segments",
            "other_segments",
            "this_functions",
            "other_functions",
        ],
    ),
    (
        "exception-pause-on-one-side",
        &["on_an_exception", "thrown", "other_reason"],
    ),
    ("threw", &["this", "other", "this_message", "other_message"]),
    (
        "evaluated-threw",
        &["this", "other", "this_message", "other_message"],
    ),
    ("only-on", &["name", "numeric_name", "only_on"]),
    (
        "value",
        &["name", "numeric_name", "path", "this", "other", "shell"],
    ),
    ("read-back", &["name", "this", "other"]),
    ("refused-to-set", &["refused", "name", "message", "value"]),
    (
        "evaluated",
        &["this", "other", "this_threw", "other_threw", "shell"],
    ),
    (
        "refused-to-evaluate",
        &["refused", "message", "threw", "value"],
    ),
    (
        "logged",
        &[
            "this_logged",
            "other_logged",
            "line",
            "this_lines",
            "other_lines",
        ],
    ),
    ("errors", &["this_message", "other_message"]),
    ("answers", &["this_answer", "other_answer"]),
    ("actions", &["this_action", "other_action"]),
];

/// The fields every shape has besides its own.
pub const COMMON_FIELDS: [&str; 2] = ["frame", "frame_function"];

/// The shapes of two values that also give, per aspect their objects differ in besides their
/// entries (`SHELL_ASPECTS`), `this_<aspect>` and `other_<aspect>`.
const WITH_SHELLS: [&str; 2] = ["value", "evaluated"];

/// The fields a rule may name for `shape` (`SHAPES`, the shells' aspects, `COMMON_FIELDS`);
/// `None` for no such shape.
pub fn field_names(shape: &str) -> Option<Vec<String>> {
    let (_, own) = SHAPES.iter().find(|(s, _)| *s == shape)?;
    let shells = WITH_SHELLS
        .contains(&shape)
        .then_some(SHELL_ASPECTS)
        .into_iter()
        .flatten()
        .flat_map(|a| [format!("this_{a}"), format!("other_{a}")]);
    Some(
        own.iter()
            .chain(&COMMON_FIELDS)
            .map(|f| f.to_string())
            .chain(shells)
            .collect(),
    )
}

impl Difference {
    /// The shape's name, as rules name it (`SHAPES`); a difference in a frame below the top has
    /// its inner difference's.
    pub fn shape(&self) -> &'static str {
        use Difference::*;
        match self {
            PausedAt { .. } => "paused-at",
            EndedOnOneSide { .. } => "ended-on-one-side",
            ProgramEnded { .. } => "program-ended",
            BreakpointAt { .. } => "breakpoint-at",
            RefusedBreakpoint { .. } => "refused-breakpoint",
            Removed { .. } => "removed",
            Stack { .. } => "stack",
            AsyncStack { .. } => "async-stack",
            ExceptionPauseOnOneSide { .. } => "exception-pause-on-one-side",
            Threw { .. } => "threw",
            EvaluatedThrew { .. } => "evaluated-threw",
            OnlyOn { .. } => "only-on",
            Value { .. } => "value",
            ReadBack { .. } => "read-back",
            RefusedToSet { .. } => "refused-to-set",
            Evaluated { .. } => "evaluated",
            RefusedToEvaluate { .. } => "refused-to-evaluate",
            InFrame { inner, .. } => inner.shape(),
            Logged { .. } => "logged",
            Errors { .. } => "errors",
            Answers { .. } => "answers",
            Actions { .. } => "actions",
        }
    }

    /// The variable a variables difference names (`x` of `x.a: 1 vs 2`), in whichever frame.
    pub fn variable(&self) -> Option<&str> {
        match self {
            Difference::OnlyOn { name, .. }
            | Difference::Value { name, .. }
            | Difference::ReadBack { name, .. }
            | Difference::RefusedToSet { name, .. } => Some(name),
            Difference::InFrame { inner, .. } => inner.variable(),
            _ => None,
        }
    }

    /// The fields a rule matches, read with `this` the side of the engine that behaves so
    /// (`this_x` is that side's, `other_x` the other's; a field whose value is a side says
    /// `this` or `other`). A field a difference lacks (no message where the values are no
    /// errors) is absent, and a rule that names it does not match.
    pub fn fields(&self, this: Side) -> Vec<(String, String)> {
        let (t, o) = match this {
            Side::First => (0, 1),
            Side::Second => (1, 0),
        };
        let side = |s: Side| if s == this { "this" } else { "other" }.to_string();
        let mut out: Vec<(String, String)> = Vec::new();
        let pair = |out: &mut Vec<(String, String)>, name: &str, v: &[String; 2]| {
            out.push((format!("this_{name}"), v[t].clone()));
            out.push((format!("other_{name}"), v[o].clone()));
        };
        let column = |at: &str| at.rsplit_once(':').map_or("", |(_, c)| c).to_string();
        use Difference::*;
        match self {
            InFrame {
                frame,
                function,
                inner,
            } => {
                let mut inner = inner.fields(this);
                for (k, v) in inner.iter_mut() {
                    match k.as_str() {
                        "frame" => *v = frame.to_string(),
                        "frame_function" => v.clone_from(function),
                        _ => {}
                    }
                }
                return inner;
            }
            PausedAt { at } => {
                pair(&mut out, "at", at);
                pair(&mut out, "column", &at.clone().map(|a| column(&a)));
            }
            EndedOnOneSide {
                ended,
                outcome,
                paused_at,
            } => {
                // Archives from before the side was named: `unknown`.
                let ended = ended.map_or_else(|| "unknown".to_string(), side);
                out.push(("ended".into(), ended));
                out.push(("outcome".into(), outcome.clone()));
                out.push(("paused_at".into(), paused_at.clone()));
                out.push(("paused_column".into(), column(paused_at)));
            }
            ProgramEnded { outcomes } => pair(&mut out, "outcome", outcomes),
            BreakpointAt { placed } => {
                pair(&mut out, "placed", &placed.clone().map(|p| p.join(",")));
                pair(
                    &mut out,
                    "places",
                    &placed.clone().map(|p| p.len().to_string()),
                );
            }
            RefusedBreakpoint { refused, message } => {
                let refused = refused.map_or_else(|| "unknown".to_string(), side);
                out.push(("refused".into(), refused));
                out.push(("message".into(), message.clone()));
            }
            Removed { ok } => pair(&mut out, "ok", ok),
            Stack { frames } => {
                pair(&mut out, "frames", &frames.clone().map(|f| f.join(", ")));
                pair(
                    &mut out,
                    "top",
                    &frames
                        .clone()
                        .map(|f| f.first().cloned().unwrap_or_default()),
                );
                pair(
                    &mut out,
                    "depth",
                    &frames.clone().map(|f| f.len().to_string()),
                );
                if let Some(how) = named_apart(&frames[t], &frames[o]) {
                    out.push(("named_apart".into(), how));
                }
                // One depth, the frames below the top the same functions.
                let top_only = frames[0].len() == frames[1].len()
                    && frames[0].iter().skip(1).eq(frames[1].iter().skip(1));
                out.push(("only_the_top_differs".into(), top_only.to_string()));
            }
            AsyncStack { segments } => {
                pair(
                    &mut out,
                    "segments",
                    &segments.clone().map(|s| s.len().to_string()),
                );
                pair(
                    &mut out,
                    "functions",
                    &segments.clone().map(|s| {
                        s.iter()
                            .map(|s| s.join(", "))
                            .collect::<Vec<_>>()
                            .join(" < ")
                    }),
                );
            }
            ExceptionPauseOnOneSide {
                on,
                thrown,
                other_reason,
            } => {
                out.push(("on_an_exception".into(), side(*on)));
                if let Some(v) = thrown {
                    out.push(("thrown".into(), v.clone()));
                }
                out.push(("other_reason".into(), other_reason.clone()));
            }
            Threw { thrown, messages } | EvaluatedThrew { thrown, messages } => {
                out.push(("this".into(), thrown[t].clone()));
                out.push(("other".into(), thrown[o].clone()));
                if let Some(m) = messages {
                    pair(&mut out, "message", m);
                }
            }
            OnlyOn { name, side: s } => {
                out.push(("name".into(), name.clone()));
                out.push(("numeric_name".into(), numeric(name)));
                out.push(("only_on".into(), side(*s)));
            }
            Value {
                name,
                path,
                values,
                shell,
            } => {
                out.push(("name".into(), name.clone()));
                out.push(("numeric_name".into(), numeric(name)));
                out.push(("path".into(), path.clone()));
                out.push(("this".into(), values[t].clone()));
                out.push(("other".into(), values[o].clone()));
                out.push(("shell".into(), aspects(shell)));
                for s in shell {
                    pair(&mut out, &s.aspect, &s.sides.clone().map(|v| unquote(&v)));
                }
            }
            ReadBack { name, values } => {
                out.push(("name".into(), name.clone()));
                out.push(("this".into(), values[t].clone()));
                out.push(("other".into(), values[o].clone()));
            }
            RefusedToSet {
                refused,
                name,
                message,
                value,
            } => {
                out.push((
                    "refused".into(),
                    refused.map_or_else(|| "unknown".to_string(), side),
                ));
                out.push(("name".into(), name.clone()));
                out.push(("message".into(), message.clone()));
                out.push(("value".into(), value.clone()));
            }
            Evaluated {
                values,
                threw,
                shell,
            } => {
                out.push(("this".into(), values[t].clone()));
                out.push(("other".into(), values[o].clone()));
                pair(&mut out, "threw", &threw.map(|b| b.to_string()));
                out.push(("shell".into(), aspects(shell)));
                for s in shell {
                    pair(&mut out, &s.aspect, &s.sides.clone().map(|v| unquote(&v)));
                }
            }
            RefusedToEvaluate {
                refused,
                message,
                threw,
                value,
            } => {
                out.push((
                    "refused".into(),
                    refused.map_or_else(|| "unknown".to_string(), side),
                ));
                out.push(("message".into(), message.clone()));
                out.push(("threw".into(), threw.to_string()));
                out.push(("value".into(), value.clone()));
            }
            Logged {
                logged,
                line,
                lines,
            } => {
                pair(&mut out, "logged", logged);
                out.push(("line".into(), line.to_string()));
                pair(&mut out, "lines", &lines.map(|n| n.to_string()));
            }
            Errors { messages } => pair(&mut out, "message", messages),
            Answers { names } => pair(&mut out, "answer", names),
            Actions { actions } => pair(&mut out, "action", actions),
        }
        out.push(("frame".into(), "1".into()));
        out.push(("frame_function".into(), String::new()));
        out
    }

    /// Reads a rendered base difference back (`Display`'s inverse); `None` where the text is
    /// none of the shapes or cannot be split into its sides unambiguously (no rule then
    /// matches it: it stays new).
    pub fn parse(text: &str) -> Option<Difference> {
        use Difference::*;
        let two = |s: &str| -> Option<[String; 2]> {
            let (a, b) = split_vs(s)?;
            Some([a.to_string(), b.to_string()])
        };
        if let Some(rest) = text.strip_prefix("frame ") {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                let frame = rest[..digits].parse().ok()?;
                let rest = rest[digits..].strip_prefix(" (")?;
                let (function, inner) = rest.split_once("): ")?;
                return Some(InFrame {
                    frame,
                    function: function.to_string(),
                    inner: Box::new(Difference::parse(inner)?),
                });
            }
        }
        if let Some(rest) = text.strip_prefix("paused at ") {
            let (a, b) = rest.split_once(" vs ")?;
            return Some(PausedAt {
                at: [a.to_string(), b.to_string()],
            });
        }
        if let Some(rest) = text.strip_prefix("program ended ") {
            return Some(ProgramEnded {
                outcomes: two(rest)?,
            });
        }
        for (first, ended) in [("first", Side::First), ("second", Side::Second)] {
            if let Some(rest) = text.strip_prefix(&format!("{first} side ended (")) {
                let (outcome, rest) = rest.split_once("), ")?;
                let paused_at = rest
                    .strip_prefix(&format!("{} side paused at ", ended.other().name()))?
                    .to_string();
                return Some(EndedOnOneSide {
                    ended: Some(ended),
                    outcome: outcome.to_string(),
                    paused_at,
                });
            }
            if let Some(rest) = text.strip_prefix(&format!("{first} side paused on an exception")) {
                let (thrown, rest) = match rest.strip_prefix(" (threw ") {
                    Some(r) => {
                        let (v, r) = r.rsplit_once("), ")?;
                        (Some(v.to_string()), r)
                    }
                    None => (None, rest.strip_prefix(", ")?),
                };
                let reason = rest
                    .strip_prefix(&format!(
                        "{} side there for another reason (",
                        ended.other().name()
                    ))?
                    .strip_suffix(')')?;
                return Some(ExceptionPauseOnOneSide {
                    on: ended,
                    thrown,
                    other_reason: reason.to_string(),
                });
            }
        }
        if let Some(rest) = text.strip_prefix("one side ended (") {
            let (outcome, rest) = rest.split_once("), the other paused at ")?;
            return Some(EndedOnOneSide {
                ended: None,
                outcome: outcome.to_string(),
                paused_at: rest.to_string(),
            });
        }
        if let Some(rest) = text.strip_prefix("breakpoint at [") {
            let (a, b) = rest.strip_suffix(']')?.split_once("] vs [")?;
            let list = |s: &str| -> Vec<String> {
                s.split(',')
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect()
            };
            return Some(BreakpointAt {
                placed: [list(a), list(b)],
            });
        }
        for (who, refused) in [
            ("one", None),
            ("first", Some(Side::First)),
            ("second", Some(Side::Second)),
        ] {
            if let Some(message) =
                text.strip_prefix(&format!("{who} side refused the breakpoint: "))
            {
                return Some(RefusedBreakpoint {
                    refused,
                    message: message.to_string(),
                });
            }
        }
        if let Some(rest) = text.strip_prefix("removed: ") {
            return Some(Removed { ok: two(rest)? });
        }
        if let Some(rest) = text.strip_prefix("stack [") {
            let (a, b) = rest.strip_suffix(']')?.split_once("] vs [")?;
            let frames = |s: &str| -> Vec<String> {
                if s.is_empty() {
                    Vec::new()
                } else {
                    s.split(", ").map(str::to_string).collect()
                }
            };
            return Some(Stack {
                frames: [frames(a), frames(b)],
            });
        }
        if let Some(rest) = text.strip_prefix("async stack ") {
            let (a, b) = rest.split_once(" vs ")?;
            let segments = |s: &str| -> Option<Vec<Vec<String>>> {
                if s == "(none)" {
                    return Some(Vec::new());
                }
                s.split(" < ")
                    .map(|seg| {
                        let seg = seg.strip_prefix('[')?.strip_suffix(']')?;
                        Some(if seg.is_empty() {
                            Vec::new()
                        } else {
                            seg.split(", ").map(str::to_string).collect()
                        })
                    })
                    .collect()
            };
            return Some(AsyncStack {
                segments: [segments(a)?, segments(b)?],
            });
        }
        if let Some(rest) = text.strip_prefix("evaluated threw ") {
            // The first side threw and the second gave a value (`… vs gave V`); an archive from
            // before that said `gave` reads as both having thrown, and no evaluation rule judges
            // it.
            let (rest_, shell) = shell_suffix(rest);
            if let Some((a, b)) =
                split_vs(rest_).and_then(|(a, b)| Some((a, b.strip_prefix("gave ")?)))
            {
                return Some(Evaluated {
                    values: [a.to_string(), b.to_string()],
                    threw: [true, false],
                    shell,
                });
            }
            let (thrown, messages) = thrown_apart(rest)?;
            return Some(EvaluatedThrew { thrown, messages });
        }
        if let Some(rest) = text.strip_prefix("threw ") {
            let (thrown, messages) = thrown_apart(rest)?;
            return Some(Threw { thrown, messages });
        }
        if let Some(rest) = text.strip_prefix("evaluated ") {
            let (rest, shell) = shell_suffix(rest);
            let (a, b) = split_vs(rest)?;
            let side = |s: &str| match s.strip_prefix("threw ") {
                Some(v) => (v.to_string(), true),
                None => (s.to_string(), false),
            };
            let ((a, ta), (b, tb)) = (side(a), side(b));
            return Some(Evaluated {
                values: [a, b],
                threw: [ta, tb],
                shell,
            });
        }
        for (refused, who, other) in REFUSING {
            if let Some(rest) = text.strip_prefix(&format!("{who} refused to evaluate (")) {
                let (message, rest) = rest.rsplit_once(&format!("), {other} "))?;
                let (threw, value) = match rest.strip_prefix("threw ") {
                    Some(v) => (true, v),
                    None => (false, rest.strip_prefix("gave ")?),
                };
                return Some(RefusedToEvaluate {
                    refused,
                    message: message.to_string(),
                    threw,
                    value: value.to_string(),
                });
            }
        }
        if let Some(rest) = text.strip_prefix("logpoints logged ") {
            let (rest, counts) = rest.rsplit_once(" (line ")?;
            let (line, counts) = counts.strip_suffix(')')?.split_once(" of ")?;
            let (n, m) = counts.split_once(" vs ")?;
            let logged = two(rest)?;
            return Some(Logged {
                logged,
                line: line.parse().ok()?,
                lines: [n.parse().ok()?, m.parse().ok()?],
            });
        }
        if let Some(rest) = text.strip_prefix("the traces issue ") {
            return Some(Actions {
                actions: two(rest)?,
            });
        }
        // Named differences: `x only on the first side`, `x: …`.
        let name_len = text
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '$'))
            .map_or(text.len(), |(i, _)| i);
        if name_len > 0 {
            let (name, rest) = text.split_at(name_len);
            for s in [Side::First, Side::Second] {
                if rest == format!(" only on the {} side", s.name()) {
                    return Some(OnlyOn {
                        name: name.to_string(),
                        side: s,
                    });
                }
            }
            if let Some(rest) = rest.strip_prefix(": ") {
                if let Some(r) = rest
                    .strip_prefix("read back ")
                    .and_then(|r| r.strip_suffix(" after the set"))
                {
                    return Some(ReadBack {
                        name: name.to_string(),
                        values: two(r)?,
                    });
                }
                for (refused, who, other) in REFUSING {
                    if let Some(r) = rest.strip_prefix(&format!("{who} refused to set it (")) {
                        let (message, value) =
                            r.rsplit_once(&format!("), {other} read it back as "))?;
                        return Some(RefusedToSet {
                            refused,
                            name: name.to_string(),
                            message: message.to_string(),
                            value: value.to_string(),
                        });
                    }
                }
            }
            // A path into the value: `.a`, `[1]`, `.a[2].b`, up to the colon.
            let path_len = path_length(rest);
            let (path, rest) = rest.split_at(path_len);
            if let Some(rest) = rest.strip_prefix(": ") {
                let (rest, shell) = shell_suffix(rest);
                let (a, b) = split_vs(rest)?;
                return Some(Value {
                    name: name.to_string(),
                    path: path.to_string(),
                    values: [a.to_string(), b.to_string()],
                    shell,
                });
            }
        }
        // The two answers' sorts, or two errors' messages: the last resort.
        let (a, b) = split_vs(text)?;
        let sorts = [
            "breakpointSet",
            "breakpointRemoved",
            "paused",
            "finished",
            "error",
            "pauseOnExceptionsSet",
            "evaluated",
            "variableSet",
        ];
        if sorts.contains(&a) && sorts.contains(&b) {
            return Some(Answers {
                names: [a.to_string(), b.to_string()],
            });
        }
        Some(Errors {
            messages: [a.to_string(), b.to_string()],
        })
    }
}

/// A variables divergence in a frame below the top (`frame 2 (outer): x: 1 vs 2`): the frame's
/// number, counted from the top frame's 1, and the difference in it (`x: 1 vs 2`).
pub fn in_frame(detail: &str) -> Option<(u32, &str)> {
    let rest = detail.strip_prefix("frame ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let n = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(" (")?;
    let (_, difference) = rest.split_once("): ")?;
    Some((n, difference))
}

/// The variable a variables divergence names first (`t only on the first side`, `o.k: 1 vs 2`)
/// in the top frame; none for a frame below it (`frame 2 (f): …`, `in_frame`), whose names the
/// program's syntax and the top frame's rules do not speak of. Read from the detail's start,
/// so that a difference whose sides cannot be told apart still names its variable.
pub fn variable_name(detail: &str) -> Option<&str> {
    if in_frame(detail).is_some() {
        return None;
    }
    let end = detail
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(detail.len());
    (end > 0).then(|| &detail[..end])
}

/// How two stacks of one depth name their frames apart, where they do: for each frame named
/// otherwise, `anonymous` (this side names a function the other leaves unnamed: SpiderMonkey's
/// `Math.random`, `decompressedJQuery<`), `prototype` (this side's name is the other's with
/// `.prototype` in it: SpiderMonkey's `Date.prototype.formatDate` against V8's `Date.formatDate`)
/// or `other`; each once, in that order (`anonymous, prototype`). `None` for stacks of two
/// depths (a frame lost or added is no naming).
fn named_apart(this: &[String], other: &[String]) -> Option<String> {
    if this.len() != other.len() {
        return None;
    }
    let mut seen = [false; 3];
    for (a, b) in this.iter().zip(other) {
        if a == b {
            continue;
        }
        let i = if b.is_empty() {
            0
        } else if a.contains(".prototype.") && a.replacen(".prototype.", ".", 1) == *b {
            1
        } else {
            2
        };
        seen[i] = true;
    }
    let names: Vec<&str> = ["anonymous", "prototype", "other"]
        .into_iter()
        .zip(seen)
        .filter_map(|(n, s)| s.then_some(n))
        .collect();
    Some(names.join(", "))
}

/// `true` where a variable's name is all digits (an index a debugger listed as a variable).
fn numeric(name: &str) -> String {
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())).to_string()
}

/// The aspects two objects differ in besides their entries, in order (`class, description`).
fn aspects(shell: &[Shell]) -> String {
    shell
        .iter()
        .map(|s| s.aspect.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The length of a path into a value at the start of `s` (`.a[1]`), up to `: `.
fn path_length(s: &str) -> usize {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => return i,
            '.' | '_' | '$' => {}
            c if c.is_alphanumeric() => {}
            _ if depth > 0 => {}
            _ => return i,
        }
    }
    s.len()
}

/// `A vs B (message "a" vs "b")` or `A vs B`.
type ThrownApart = ([String; 2], Option<[String; 2]>);

fn thrown_apart(s: &str) -> Option<ThrownApart> {
    if let Some((classes, messages)) = s.split_once(" (message ") {
        if let Some(messages) = messages.strip_suffix(')') {
            if let (Some((a, b)), Some((m, n))) = (split_vs(classes), split_vs(messages)) {
                return Some(([a.into(), b.into()], Some([m.into(), n.into()])));
            }
        }
    }
    let (a, b) = split_vs(s)?;
    Some(([a.into(), b.into()], None))
}

/// Splits `A vs B` at its one ` vs ` outside quoted strings and brackets; `None` where there is
/// no such ` vs ` or more than one.
fn split_vs(s: &str) -> Option<(&str, &str)> {
    let cuts = top_level(s, " vs ");
    match cuts.as_slice() {
        [i] => Some((&s[..*i], &s[i + 4..])),
        _ => None,
    }
}

/// Where `needle` occurs in `s` outside double-quoted strings (with `\` escapes) and outside
/// brackets, where the brackets balance.
fn top_level(s: &str, needle: &str) -> Vec<usize> {
    let scan = |brackets: bool| -> Option<Vec<usize>> {
        let (mut depth, mut quoted, mut escaped) = (0i32, false, false);
        let mut out = Vec::new();
        for (i, c) in s.char_indices() {
            if quoted {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => quoted = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => quoted = true,
                '{' | '[' | '(' if brackets => depth += 1,
                '}' | ']' | ')' if brackets => depth -= 1,
                _ => {}
            }
            if depth < 0 {
                return None;
            }
            if depth == 0 && s[i..].starts_with(needle) {
                out.push(i);
            }
        }
        (depth == 0 && !quoted).then_some(out)
    };
    // A description (a function's source, a date) need not balance its brackets.
    scan(true).or_else(|| scan(false)).unwrap_or_default()
}

/// Splits a trailing ` (class "A" vs "B", …)` off `s`: the text before it and its parts.
fn shell_suffix(s: &str) -> (&str, Vec<Shell>) {
    let Some(body) = s.strip_suffix(')') else {
        return (s, Vec::new());
    };
    for start in top_level(body, " (").into_iter().rev() {
        let inner = &body[start + 2..];
        let parts: Option<Vec<Shell>> = split_parts(inner)
            .into_iter()
            .map(|p| {
                let (aspect, sides) = p.split_once(' ')?;
                if !SHELL_ASPECTS.contains(&aspect) {
                    return None;
                }
                let (a, b) = split_vs(sides)?;
                Some(Shell {
                    aspect: aspect.to_string(),
                    sides: [a.to_string(), b.to_string()],
                })
            })
            .collect();
        if let Some(parts) = parts.filter(|p| !p.is_empty()) {
            return (&s[..start], parts);
        }
    }
    (s, Vec::new())
}

/// `a, b, c` split at its top-level `, `.
fn split_parts(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    for i in top_level(s, ", ") {
        out.push(&s[from..i]);
        from = i + 2;
    }
    out.push(&s[from..]);
    out
}

/// A shell side as a rule reads it: `"A"` and `Some("A")` as `A`, `None` as empty.
fn unquote(s: &str) -> String {
    let s = s
        .strip_prefix("Some(")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(s);
    if s == "None" {
        return String::new();
    }
    match s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(inner) => inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => s.to_string(),
    }
}

/// How a refusal's two sides are worded: the side that refused and the other, or, in archives
/// from before the side was named, `one side` and `the other`.
const REFUSING: [(Option<Side>, &str, &str); 3] = [
    (None, "one side", "the other"),
    (Some(Side::First), "first side", "second side"),
    (Some(Side::Second), "second side", "first side"),
];

fn refusing(refused: Option<Side>) -> (&'static str, &'static str) {
    REFUSING
        .iter()
        .find(|(r, _, _)| *r == refused)
        .map(|&(_, who, other)| (who, other))
        .unwrap_or(("one side", "the other"))
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Difference::*;
        let shell = |f: &mut fmt::Formatter<'_>, shell: &[Shell]| {
            if shell.is_empty() {
                return Ok(());
            }
            let parts: Vec<String> = shell
                .iter()
                .map(|s| format!("{} {} vs {}", s.aspect, s.sides[0], s.sides[1]))
                .collect();
            write!(f, " ({})", parts.join(", "))
        };
        let thrown = |f: &mut fmt::Formatter<'_>, t: &[String; 2], m: &Option<[String; 2]>| {
            write!(f, "{} vs {}", t[0], t[1])?;
            match m {
                Some([a, b]) => write!(f, " (message {a} vs {b})"),
                None => Ok(()),
            }
        };
        match self {
            PausedAt { at } => write!(f, "paused at {} vs {}", at[0], at[1]),
            EndedOnOneSide {
                ended: Some(s),
                outcome,
                paused_at,
            } => write!(
                f,
                "{} side ended ({outcome}), {} side paused at {paused_at}",
                s.name(),
                s.other().name()
            ),
            EndedOnOneSide {
                ended: None,
                outcome,
                paused_at,
            } => write!(
                f,
                "one side ended ({outcome}), the other paused at {paused_at}"
            ),
            ProgramEnded { outcomes } => {
                write!(f, "program ended {} vs {}", outcomes[0], outcomes[1])
            }
            BreakpointAt { placed } => write!(
                f,
                "breakpoint at [{}] vs [{}]",
                placed[0].join(","),
                placed[1].join(",")
            ),
            RefusedBreakpoint { refused, message } => write!(
                f,
                "{} side refused the breakpoint: {message}",
                refused.map_or("one", Side::name)
            ),
            Removed { ok } => write!(f, "removed: {} vs {}", ok[0], ok[1]),
            Stack { frames } => write!(
                f,
                "stack [{}] vs [{}]",
                frames[0].join(", "),
                frames[1].join(", ")
            ),
            AsyncStack { segments } => {
                let show = |v: &[Vec<String>]| {
                    if v.is_empty() {
                        return "(none)".to_string();
                    }
                    v.iter()
                        .map(|s| format!("[{}]", s.join(", ")))
                        .collect::<Vec<_>>()
                        .join(" < ")
                };
                write!(
                    f,
                    "async stack {} vs {}",
                    show(&segments[0]),
                    show(&segments[1])
                )
            }
            ExceptionPauseOnOneSide {
                on,
                thrown,
                other_reason,
            } => {
                write!(f, "{} side paused on an exception", on.name())?;
                if let Some(v) = thrown {
                    write!(f, " (threw {v})")?;
                }
                write!(
                    f,
                    ", {} side there for another reason ({other_reason})",
                    on.other().name()
                )
            }
            Threw {
                thrown: t,
                messages,
            } => {
                f.write_str("threw ")?;
                thrown(f, t, messages)
            }
            EvaluatedThrew {
                thrown: t,
                messages,
            } => {
                f.write_str("evaluated threw ")?;
                thrown(f, t, messages)
            }
            OnlyOn { name, side } => write!(f, "{name} only on the {} side", side.name()),
            Value {
                name,
                path,
                values,
                shell: s,
            } => {
                write!(f, "{name}{path}: {} vs {}", values[0], values[1])?;
                shell(f, s)
            }
            ReadBack { name, values } => write!(
                f,
                "{name}: read back {} vs {} after the set",
                values[0], values[1]
            ),
            RefusedToSet {
                refused,
                name,
                message,
                value,
            } => {
                let (who, other) = refusing(*refused);
                write!(
                    f,
                    "{name}: {who} refused to set it ({message}), {other} read it back as {value}"
                )
            }
            Evaluated {
                values,
                threw,
                shell: s,
            } => {
                // `gave` where the first side threw and the second did not: without it the
                // text reads as both having thrown (`evaluated threw A vs B`, `EvaluatedThrew`).
                let side = |i: usize| {
                    if threw[i] {
                        format!("threw {}", values[i])
                    } else if i == 1 && threw[0] {
                        format!("gave {}", values[i])
                    } else {
                        values[i].clone()
                    }
                };
                write!(f, "evaluated {} vs {}", side(0), side(1))?;
                shell(f, s)
            }
            RefusedToEvaluate {
                refused,
                message,
                threw,
                value,
            } => {
                let (who, other) = refusing(*refused);
                write!(
                    f,
                    "{who} refused to evaluate ({message}), {other} {} {value}",
                    if *threw { "threw" } else { "gave" }
                )
            }
            InFrame {
                frame,
                function,
                inner,
            } => write!(f, "frame {frame} ({function}): {inner}"),
            Logged {
                logged,
                line,
                lines,
            } => write!(
                f,
                "logpoints logged {} vs {} (line {line} of {} vs {})",
                logged[0], logged[1], lines[0], lines[1]
            ),
            Errors { messages } => write!(f, "{} vs {}", messages[0], messages[1]),
            Answers { names } => write!(f, "{} vs {}", names[0], names[1]),
            Actions { actions } => write!(f, "the traces issue {} vs {}", actions[0], actions[1]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(class: &str, description: &str) -> Value {
        Value::Object {
            kind: ObjectKind::Error,
            class: class.into(),
            description: Some(description.into()),
            entries: Some(vec![]),
            truncated: false,
        }
    }

    /// Two errors' shells differ in their messages, not in their descriptions (which hold the
    /// stack); other objects' in every aspect that differs, in `SHELL_ASPECTS`' order.
    #[test]
    fn shells_name_what_differs_besides_entries() {
        let range = error(
            "RangeError",
            "RangeError: out of range\n    at f (file:///a.js:4:9)",
        );
        let bounds = error("RangeError", "RangeError: out of bounds");
        assert_eq!(
            shell_difference(&range, &bounds),
            [Shell {
                aspect: "message".into(),
                sides: [r#""out of range""#.into(), r#""out of bounds""#.into()]
            }]
        );
        assert!(shell_difference(&range, &error("RangeError", "f@file:///a.js:4:9")).is_empty());
        let set = |class: &str, n: usize, truncated| Value::Object {
            kind: ObjectKind::Set,
            class: class.into(),
            description: Some(format!("{class}({n})")),
            entries: Some(vec![]),
            truncated,
        };
        let aspects = |a: &Value, b: &Value| {
            shell_difference(a, b)
                .into_iter()
                .map(|s| s.aspect)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            aspects(&set("Set", 1, false), &set("Map", 2, true)),
            ["class", "description", "truncated"]
        );
        assert!(aspects(&set("Set", 1, false), &set("Set", 1, false)).is_empty());
        assert!(shell_difference(&Value::Number(1.0), &set("Set", 1, false)).is_empty());
    }

    /// Every shape reads back as it was rendered, and its fields turn with the side that
    /// behaves so.
    #[test]
    fn each_shape_reads_back_what_it_renders() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let every = vec![
            Difference::PausedAt {
                at: ["3:5".into(), "4:1".into()],
            },
            Difference::EndedOnOneSide {
                ended: Some(Side::Second),
                outcome: "completed".into(),
                paused_at: "9:3".into(),
            },
            Difference::EndedOnOneSide {
                ended: None,
                outcome: "timeout".into(),
                paused_at: "9:3".into(),
            },
            Difference::ProgramEnded {
                outcomes: ["completed".into(), "timeout".into()],
            },
            Difference::BreakpointAt {
                placed: [s(&["3:5", "7:1"]), s(&[])],
            },
            Difference::RefusedBreakpoint {
                refused: Some(Side::Second),
                message: "Blank or comment".into(),
            },
            Difference::RefusedBreakpoint {
                refused: None,
                message: "Blank or comment".into(),
            },
            Difference::Removed {
                ok: ["true".into(), "false".into()],
            },
            Difference::Stack {
                frames: [s(&["f", "", "C", ""]), s(&["f", "C", ""])],
            },
            Difference::AsyncStack {
                segments: [vec![s(&["f"]), s(&["g", "h"])], vec![]],
            },
            Difference::ExceptionPauseOnOneSide {
                on: Side::Second,
                thrown: Some("Error { message: \"a), b\" }".into()),
                other_reason: "breakpoint".into(),
            },
            Difference::Threw {
                thrown: ["TypeError".into(), "TypeError".into()],
                messages: Some(["\"a vs b\"".into(), "\"c\"".into()]),
            },
            Difference::EvaluatedThrew {
                thrown: ["1".into(), "2".into()],
                messages: None,
            },
            Difference::OnlyOn {
                name: "$t".into(),
                side: Side::First,
            },
            Difference::Value {
                name: "o".into(),
                path: ".a[2]".into(),
                values: [
                    "A { x: \"1 vs 2\" }".into(),
                    "Object { x: \"1 vs 2\" }".into(),
                ],
                shell: vec![
                    Shell {
                        aspect: "class".into(),
                        sides: ["\"A\"".into(), "\"Object\"".into()],
                    },
                    Shell {
                        aspect: "description".into(),
                        sides: ["Some(\"A\")".into(), "Some(\"Object\")".into()],
                    },
                ],
            },
            Difference::ReadBack {
                name: "x".into(),
                values: ["1".into(), "2".into()],
            },
            Difference::RefusedToSet {
                refused: Some(Side::Second),
                name: "k".into(),
                message: "the assignment threw TypeError: Assignment to constant variable.".into(),
                value: "3".into(),
            },
            Difference::Evaluated {
                values: ["1".into(), "ReferenceError".into()],
                threw: [false, true],
                shell: vec![],
            },
            // The first side threw, the second did not: told from both having thrown.
            Difference::Evaluated {
                values: ["ReferenceError { }".into(), "0".into()],
                threw: [true, false],
                shell: vec![],
            },
            Difference::EvaluatedThrew {
                thrown: ["ReferenceError { }".into(), "TypeError { }".into()],
                messages: None,
            },
            Difference::RefusedToEvaluate {
                refused: None,
                message: "no frame (x)".into(),
                threw: false,
                value: "1".into(),
            },
            Difference::InFrame {
                frame: 2,
                function: "outer".into(),
                inner: Box::new(Difference::OnlyOn {
                    name: "x".into(),
                    side: Side::Second,
                }),
            },
            Difference::Logged {
                logged: ["#1 \"a\"".into(), "nothing".into()],
                line: 1,
                lines: [1, 0],
            },
            Difference::Errors {
                messages: ["no such frame".into(), "bad id".into()],
            },
            Difference::Answers {
                names: ["paused".into(), "finished".into()],
            },
            Difference::Actions {
                actions: ["resume".into(), "stepOver".into()],
            },
        ];
        for d in &every {
            let text = d.to_string();
            assert_eq!(Difference::parse(&text).as_ref(), Some(d), "{text}");
        }
        let shapes: Vec<&str> = every.iter().map(Difference::shape).collect();
        for (shape, _) in SHAPES {
            assert!(shapes.contains(&shape), "{shape} untested");
        }
        // Every field a difference gives is one its shape lists.
        for d in &every {
            let names = field_names(d.shape()).unwrap();
            for (k, _) in d.fields(Side::First) {
                assert!(names.contains(&k), "{} gives {k}", d.shape());
            }
        }
    }

    #[test]
    fn fields_are_read_from_the_side_that_behaves_so() {
        let d = Difference::parse("x: <uninitialized> vs 1").unwrap();
        let get = |this: Side, k: &str| {
            d.fields(this)
                .into_iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v)
        };
        assert_eq!(get(Side::First, "this").as_deref(), Some("<uninitialized>"));
        assert_eq!(get(Side::Second, "this").as_deref(), Some("1"));
        assert_eq!(get(Side::First, "path").as_deref(), Some(""));
        assert_eq!(get(Side::First, "this_message"), None);
        let o = Difference::parse("v only on the second side").unwrap();
        let only = |this| {
            o.fields(this)
                .into_iter()
                .find(|(n, _)| n == "only_on")
                .unwrap()
                .1
        };
        assert_eq!(only(Side::Second), "this");
        assert_eq!(only(Side::First), "other");
        let f = Difference::parse("frame 3 (g): v only on the second side").unwrap();
        assert!(f
            .fields(Side::First)
            .contains(&("frame".into(), "3".into())));
        assert_eq!(f.variable(), Some("v"));
        // Frames named apart: read from the side that names them so.
        let named = |text: &str, this: Side| {
            Difference::parse(text)
                .unwrap()
                .fields(this)
                .into_iter()
                .find(|(n, _)| n == "named_apart")
                .map(|(_, v)| v)
        };
        let proto = "stack [Date.formatDate, , ] vs [Date.prototype.formatDate, , ]";
        assert_eq!(named(proto, Side::Second).as_deref(), Some("prototype"));
        assert_eq!(named(proto, Side::First).as_deref(), Some("other"));
        let both = "stack [, Date.formatDate, ] vs [Math.random<, Date.prototype.formatDate, ]";
        assert_eq!(
            named(both, Side::Second).as_deref(),
            Some("anonymous, prototype")
        );
        assert_eq!(named("stack [f, ] vs [g, h, ]", Side::Second), None);
        let top = |text: &str| {
            Difference::parse(text)
                .unwrap()
                .fields(Side::First)
                .contains(&("only_the_top_differs".into(), "true".into()))
        };
        assert!(top("stack [, f, ] vs [o.k, f, ]"));
        assert!(!top("stack [, f, ] vs [o.k, g, ]"));
        assert!(!top("stack [, f, ] vs [o.k, f, h]"));
        assert_eq!(
            named("stack [D.m, ] vs [D.prototype.n, ]", Side::Second).as_deref(),
            Some("other")
        );
        // Objects of two classes: the class fields without their quotes.
        let c = Difference::parse(
            "p: A { } vs Object { } (class \"A\" vs \"Object\", description Some(\"A\") vs Some(\"Object\"))",
        )
        .unwrap();
        assert!(c
            .fields(Side::Second)
            .contains(&("this_class".into(), "Object".into())));
        assert!(c
            .fields(Side::Second)
            .contains(&("other_description".into(), "A".into())));
    }

    #[test]
    fn ambiguous_sides_are_not_read() {
        // Two ` vs ` outside any string: where one value ends is unknown.
        assert_eq!(Difference::parse("x: a vs b vs c"), None);
        assert_eq!(Difference::parse("paused at"), None);
    }
}
