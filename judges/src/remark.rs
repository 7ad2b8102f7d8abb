//! What the recorder knows about a divergence besides the two answers (issue 66): the engine
//! quirks it recognizes from the program's syntax, the stacks or the session, each a typed
//! remark with explicit sides. Triage rules match remarks by id, side and field, never by their
//! words; the sentence a reader sees is rendered here, and only here, and read back here (a
//! divergence's detail is its base difference followed by its remarks, `; …` each).

use std::fmt;
use std::sync::LazyLock;

/// A side of a two-sided difference: the detail's first or second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side of which something holds where it holds of one side alone.
    pub fn alone(first: bool, second: bool) -> Option<Side> {
        match (first, second) {
            (true, false) => Some(Side::First),
            (false, true) => Some(Side::Second),
            _ => None,
        }
    }

    fn read(s: &str) -> Side {
        if s == "first" {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// How a breakpoint's condition came out where it explains a pause the other side did not make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConditionOutcome {
    /// It threw: the error's class, or the value thrown.
    Threw(String),
    IsFalse,
}

/// Where the side that did not stop on the caller's line of the call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PastTheCall {
    /// On another line of the same caller.
    AnotherLine,
    /// In a function the caller's line of the call called.
    InACallFromIt,
}

/// One remark: a fact the recorder states about a divergence, with the side it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remark {
    /// `side` paused at a conditional breakpoint whose condition threw or was false (the
    /// recorder checks it at a divergence).
    AtACondition {
        side: Side,
        condition: String,
        outcome: ConditionOutcome,
    },
    /// After a step both sides returned into the same caller (`frames_down` from the step's
    /// frame; 1: the step's caller) and `side` stopped on the caller's line of the call, the
    /// other past it.
    OnTheCallLine {
        side: Side,
        frames_down: u32,
        other: PastTheCall,
    },
    /// After a step, in the same frames: `side` at the end of a `return`, the other at that
    /// function's closing brace.
    ReturnAndBrace { side: Side },
    /// After a step, in the same frames: `side` at the head of a `for-in`/`for-of` loop (its
    /// declaration), the other at the first statement of that loop's body.
    AtALoopHeadAndItsBody { side: Side },
    /// A variables difference over a lexical binding one side lacks, both sides at one
    /// function's closing brace in the same frames.
    BothAtAClosingBrace,
    /// A `let`/`const` one side lacks, both sides in the same frames in the iterable of the
    /// `for-in`/`for-of` head that declares it.
    InAHeadsIterable,
    /// A binding one side shows uninitialized and the other lacks, both sides in the
    /// discriminant of the `switch` whose cases declare it.
    InADiscriminant,
    /// After a step, `side` (not the other) in a class member's parameter list while its class
    /// is being defined.
    InParametersWhileDefined { side: Side },
    /// `side` (not the other) paused for a breakpoint on a function's indented closing brace.
    AtAnIndentedBrace { side: Side },
    /// After a step, `side` where a `class … extends …` declaration begins, the other, in the
    /// same frames, past it.
    AtAHeritage { side: Side },
    /// After a step into, `side` paused again where it stood, before a call whose arguments call
    /// only built-ins.
    AgainBeforeACall { side: Side },
    /// After a step, `side` stopped by a breakpoint, the other by its step.
    StoppedByABreakpoint { side: Side },
    /// After a resume from a place both sides stood at, `side` (brought there by a step) went on
    /// past it, where the other stopped again at a breakpoint.
    PassedWhereItStood { side: Side },
    /// `side`'s engine crashed in a program with a `catch` whose parameter is a destructuring
    /// pattern holding a default.
    CrashedWithACatchDefault { side: Side },
    /// The step began in a generator's frame (Python); where the generator ended before a side a
    /// breakpoint stopped, that side.
    BeganInAGenerator { ended_before: Option<Side> },
    /// The step began on the last statement a generator's body can run.
    BeganOnAGeneratorsLastStatement,
    /// A log difference after a step out that began in a generator expression; the side that
    /// logged nothing during the step, where one did.
    StepOutBeganInAGeneratorExpression { silent: Option<Side> },
    /// `side` shows a value, the other the binding uninitialized, at the same place.
    ValueInDeadZone { side: Side },
    /// `side` evaluated an expression that reads `name`, which the other side (that threw a
    /// `ReferenceError`) shows uninitialized at the same place and `side` with a value.
    EvaluatedInItsDeadZone { side: Side, name: String },
    /// `side` threw SpiderMonkey's error for a binding it did not keep (`variable 'NAME' has been
    /// optimized out`) evaluating an expression that reads `name`, a name its pause shows
    /// optimized out; the other side did not throw.
    EvaluatedAnOptimizedOutName { side: Side, name: String },
    /// The other side paused at the closing brace of a function that ends in an `if` holding a
    /// `return` (not taken: it stands at the brace), by a step from that `if` or a breakpoint on
    /// the brace; `side` did not pause there.
    NoPauseAtTheEndAfterAnUntakenReturn { side: Side },
    /// `side` shows a class's own name uninitialized inside the class, the other optimized out
    /// or the class.
    OwnNameUninitialized { side: Side },
    /// `side`'s stack is the other's with one more frame on top, `function`.
    OneFrameFurther { side: Side, function: String },
    /// The stacks differ only in the name of a class's initializer frame.
    OnlyAnInitializersName,
    /// `side` placed a breakpoint nowhere or refused it, and already had one where the other
    /// placed it.
    AlreadyHadOneThere { side: Side },
    /// One side refused a breakpoint the other placed nowhere.
    PlacedNowhere,
    /// A breakpoint requested on a line outside every function (C, by the program's syntax):
    /// `side` placed it in the next function defined after that line, no later than the first
    /// line where that function's unoptimized code runs; the other placed it nowhere.
    SlidIntoTheNextFunction { side: Side },
    /// A variables difference over a local one side alone lists, and lists optimized out (C:
    /// the compiler gave it no location); the other lists no variable without one.
    ListedWithoutALocation { side: Side },
    /// After a resume, `side` paused for a step where its step over or out that a breakpoint
    /// had interrupted ends; the other did not pause for a step.
    ResumedAnInterruptedStep { side: Side },
    /// Two errors differ in their messages alone, and neither message is in the program's
    /// text: each engine worded an error it threw itself (ECMAScript gives such an error no
    /// message; the program worded none).
    EngineWordedMessages,
    /// A C expression whose outermost operator is a comparison or a logical one: `side` shows
    /// a `bool` where the other shows the `int` C gives it (0 or 1), of the same truth.
    ComparisonAsBool { side: Side },
    /// A conditional breakpoint `side` refused for a name its condition uses (gdb: `No symbol
    /// "n" in current context.`) that neither the function where the other placed it nor the
    /// program outside every function writes.
    ConditionOutOfScope { side: Side },
    /// One logpoint's line: `side` logged the value without the summary the other shows of it
    /// (nothing of an aggregate that the other shows as `{…}` or a string, only the address of
    /// a pointer that the other shows with the string it points to).
    LoggedWithoutASummary { side: Side },
    /// A step into: `side` ran on past a line where a breakpoint of its own that need not stop
    /// stands (a logpoint, a conditional breakpoint), to a breakpoint elsewhere or the program's
    /// end, where the other side's step ended on that line.
    RanPastAQuietBreakpoint { side: Side },
}

/// Every remark's id, as rules name them.
pub const IDS: &[&str] = &[
    "at-a-condition",
    "on-the-call-line",
    "return-and-brace",
    "at-a-loop-head-and-its-body",
    "both-at-a-closing-brace",
    "in-a-heads-iterable",
    "in-a-discriminant",
    "in-parameters-while-defined",
    "at-an-indented-brace",
    "at-a-heritage",
    "again-before-a-call",
    "stopped-by-a-breakpoint",
    "passed-where-it-stood",
    "crashed-with-a-catch-default",
    "began-in-a-generator",
    "began-on-a-generators-last-statement",
    "step-out-began-in-a-generator-expression",
    "value-in-dead-zone",
    "evaluated-in-its-dead-zone",
    "evaluated-an-optimized-out-name",
    "no-pause-at-the-end-after-an-untaken-return",
    "own-name-uninitialized",
    "one-frame-further",
    "only-an-initializers-name",
    "already-had-one-there",
    "placed-nowhere",
    "engine-worded-messages",
    "slid-into-the-next-function",
    "listed-without-a-location",
    "resumed-an-interrupted-step",
    "comparison-as-bool",
    "condition-out-of-scope",
    "logged-without-a-summary",
    "ran-past-a-quiet-breakpoint",
];

impl Remark {
    /// The id a rule names it by.
    pub fn id(&self) -> &'static str {
        match self {
            Remark::AtACondition { .. } => "at-a-condition",
            Remark::OnTheCallLine { .. } => "on-the-call-line",
            Remark::ReturnAndBrace { .. } => "return-and-brace",
            Remark::AtALoopHeadAndItsBody { .. } => "at-a-loop-head-and-its-body",
            Remark::BothAtAClosingBrace => "both-at-a-closing-brace",
            Remark::InAHeadsIterable => "in-a-heads-iterable",
            Remark::InADiscriminant => "in-a-discriminant",
            Remark::InParametersWhileDefined { .. } => "in-parameters-while-defined",
            Remark::AtAnIndentedBrace { .. } => "at-an-indented-brace",
            Remark::AtAHeritage { .. } => "at-a-heritage",
            Remark::AgainBeforeACall { .. } => "again-before-a-call",
            Remark::StoppedByABreakpoint { .. } => "stopped-by-a-breakpoint",
            Remark::PassedWhereItStood { .. } => "passed-where-it-stood",
            Remark::CrashedWithACatchDefault { .. } => "crashed-with-a-catch-default",
            Remark::BeganInAGenerator { .. } => "began-in-a-generator",
            Remark::BeganOnAGeneratorsLastStatement => "began-on-a-generators-last-statement",
            Remark::StepOutBeganInAGeneratorExpression { .. } => {
                "step-out-began-in-a-generator-expression"
            }
            Remark::ValueInDeadZone { .. } => "value-in-dead-zone",
            Remark::EvaluatedInItsDeadZone { .. } => "evaluated-in-its-dead-zone",
            Remark::EvaluatedAnOptimizedOutName { .. } => "evaluated-an-optimized-out-name",
            Remark::NoPauseAtTheEndAfterAnUntakenReturn { .. } => {
                "no-pause-at-the-end-after-an-untaken-return"
            }
            Remark::OwnNameUninitialized { .. } => "own-name-uninitialized",
            Remark::OneFrameFurther { .. } => "one-frame-further",
            Remark::OnlyAnInitializersName => "only-an-initializers-name",
            Remark::AlreadyHadOneThere { .. } => "already-had-one-there",
            Remark::PlacedNowhere => "placed-nowhere",
            Remark::EngineWordedMessages => "engine-worded-messages",
            Remark::SlidIntoTheNextFunction { .. } => "slid-into-the-next-function",
            Remark::ListedWithoutALocation { .. } => "listed-without-a-location",
            Remark::ResumedAnInterruptedStep { .. } => "resumed-an-interrupted-step",
            Remark::ComparisonAsBool { .. } => "comparison-as-bool",
            Remark::ConditionOutOfScope { .. } => "condition-out-of-scope",
            Remark::LoggedWithoutASummary { .. } => "logged-without-a-summary",
            Remark::RanPastAQuietBreakpoint { .. } => "ran-past-a-quiet-breakpoint",
        }
    }

    /// The side the remark is about (the engine that does what it says), if it names one.
    pub fn side(&self) -> Option<Side> {
        match self {
            Remark::AtACondition { side, .. }
            | Remark::OnTheCallLine { side, .. }
            | Remark::ReturnAndBrace { side }
            | Remark::AtALoopHeadAndItsBody { side }
            | Remark::InParametersWhileDefined { side }
            | Remark::AtAnIndentedBrace { side }
            | Remark::AtAHeritage { side }
            | Remark::AgainBeforeACall { side }
            | Remark::StoppedByABreakpoint { side }
            | Remark::PassedWhereItStood { side }
            | Remark::CrashedWithACatchDefault { side }
            | Remark::ValueInDeadZone { side }
            | Remark::EvaluatedInItsDeadZone { side, .. }
            | Remark::EvaluatedAnOptimizedOutName { side, .. }
            | Remark::NoPauseAtTheEndAfterAnUntakenReturn { side }
            | Remark::OwnNameUninitialized { side }
            | Remark::OneFrameFurther { side, .. }
            | Remark::AlreadyHadOneThere { side }
            | Remark::SlidIntoTheNextFunction { side }
            | Remark::ListedWithoutALocation { side }
            | Remark::ResumedAnInterruptedStep { side }
            | Remark::ComparisonAsBool { side }
            | Remark::ConditionOutOfScope { side }
            | Remark::LoggedWithoutASummary { side }
            | Remark::RanPastAQuietBreakpoint { side } => Some(*side),
            Remark::BeganInAGenerator { ended_before } => *ended_before,
            Remark::StepOutBeganInAGeneratorExpression { silent } => *silent,
            Remark::BothAtAClosingBrace
            | Remark::InAHeadsIterable
            | Remark::InADiscriminant
            | Remark::BeganOnAGeneratorsLastStatement
            | Remark::OnlyAnInitializersName
            | Remark::PlacedNowhere
            | Remark::EngineWordedMessages => None,
        }
    }

    /// The remark's fields besides its side, by name, as rules match them.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        match self {
            Remark::AtACondition {
                condition, outcome, ..
            } => vec![
                ("condition", condition.clone()),
                (
                    "outcome",
                    match outcome {
                        ConditionOutcome::Threw(_) => "threw".into(),
                        ConditionOutcome::IsFalse => "false".into(),
                    },
                ),
                (
                    "thrown",
                    match outcome {
                        ConditionOutcome::Threw(t) => t.clone(),
                        ConditionOutcome::IsFalse => String::new(),
                    },
                ),
            ],
            Remark::OnTheCallLine {
                frames_down, other, ..
            } => vec![
                ("frames_down", frames_down.to_string()),
                (
                    "other",
                    match other {
                        PastTheCall::AnotherLine => "another-line".into(),
                        PastTheCall::InACallFromIt => "in-a-call-from-it".into(),
                    },
                ),
            ],
            Remark::OneFrameFurther { function, .. } => vec![("function", function.clone())],
            Remark::EvaluatedInItsDeadZone { name, .. }
            | Remark::EvaluatedAnOptimizedOutName { name, .. } => vec![("name", name.clone())],
            _ => Vec::new(),
        }
    }

    /// The field names a remark with this id has (rules may name no others).
    pub fn field_names(id: &str) -> &'static [&'static str] {
        match id {
            "at-a-condition" => &["condition", "outcome", "thrown"],
            "on-the-call-line" => &["frames_down", "other"],
            "one-frame-further" => &["function"],
            "evaluated-in-its-dead-zone" | "evaluated-an-optimized-out-name" => &["name"],
            _ => &[],
        }
    }
}

impl fmt::Display for Remark {
    /// The sentence a reader sees, with its leading `; `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remark::AtACondition {
                side,
                condition,
                outcome,
            } => {
                let what = match outcome {
                    ConditionOutcome::Threw(t) => format!("threw {t}"),
                    ConditionOutcome::IsFalse => "is false".into(),
                };
                write!(
                    f,
                    "; {} side at a breakpoint whose condition `{condition}` {what}",
                    side.name()
                )
            }
            Remark::OnTheCallLine {
                side,
                frames_down,
                other,
            } => {
                let down = if *frames_down > 1 {
                    format!(" {frames_down} frames down")
                } else {
                    String::new()
                };
                let past = match other {
                    PastTheCall::AnotherLine => "on another line of the caller",
                    PastTheCall::InACallFromIt => "in a function called from that line",
                };
                write!(
                    f,
                    "; {} side on the caller's line of the call{down}, {} side {past}",
                    side.name(),
                    side.other().name()
                )
            }
            Remark::ReturnAndBrace { side } => write!(
                f,
                "; {} side at the end of a return, the other at its function's closing brace",
                side.name()
            ),
            Remark::AtALoopHeadAndItsBody { side } => write!(
                f,
                "; {} side at a for-in or for-of loop's head, the other at the first statement of its body",
                side.name()
            ),
            Remark::BothAtAClosingBrace => {
                f.write_str("; both sides at their function's closing brace")
            }
            Remark::InAHeadsIterable => {
                f.write_str("; both sides in the iterable of the loop head that declares it")
            }
            Remark::InADiscriminant => f.write_str(
                "; both sides in the discriminant of the switch whose cases declare it, one side showing it uninitialized",
            ),
            Remark::InParametersWhileDefined { side } => write!(
                f,
                "; {} side in a class member's parameters while its class is being defined",
                side.name()
            ),
            Remark::AtAnIndentedBrace { side } => write!(
                f,
                "; {} side at a breakpoint on a function's indented closing brace",
                side.name()
            ),
            Remark::AtAHeritage { side } => write!(
                f,
                "; {} side where a class declaration with a heritage begins, the other past it",
                side.name()
            ),
            Remark::AgainBeforeACall { side } => write!(
                f,
                "; {} side paused again where it stood, before a call whose arguments call only built-ins",
                side.name()
            ),
            Remark::PassedWhereItStood { side } => write!(
                f,
                "; {} side went on past where a step had brought it, the other stopped there again at a breakpoint",
                side.name()
            ),
            Remark::CrashedWithACatchDefault { side } => write!(
                f,
                "; {} side's engine crashed, in a program with a catch whose parameter holds a default",
                side.name()
            ),
            Remark::StoppedByABreakpoint { side } => write!(
                f,
                "; {} side stopped by a breakpoint, the other by its step",
                side.name()
            ),
            Remark::BeganInAGenerator { ended_before } => {
                f.write_str("; the step began in a generator")?;
                match ended_before {
                    Some(s) => write!(f, ", which ended before the {} side stopped", s.name()),
                    None => Ok(()),
                }
            }
            Remark::BeganOnAGeneratorsLastStatement => {
                f.write_str("; the step began on a generator's last statement")
            }
            Remark::StepOutBeganInAGeneratorExpression { silent } => {
                f.write_str("; the step out began in a generator expression")?;
                match silent {
                    Some(s) => write!(f, ", where {} side logged nothing", s.name()),
                    None => Ok(()),
                }
            }
            Remark::ValueInDeadZone { side } => write!(
                f,
                "; {} side shows a value, {} side the binding uninitialized at the same place",
                side.name(),
                side.other().name()
            ),
            Remark::EvaluatedInItsDeadZone { side, name } => write!(
                f,
                "; {} side evaluated `{name}`, a binding it shows with a value and the {} side uninitialized, paused on the same line",
                side.name(),
                side.other().name()
            ),
            Remark::EvaluatedAnOptimizedOutName { side, name } => write!(
                f,
                "; {} side threw evaluating `{name}`, a name it shows optimized out",
                side.name()
            ),
            Remark::NoPauseAtTheEndAfterAnUntakenReturn { side } => write!(
                f,
                "; {} side did not pause at the closing brace of a function that ends in an if holding a return not taken, where the other did",
                side.name()
            ),
            Remark::OwnNameUninitialized { side } => write!(
                f,
                "; {} side shows the name uninitialized inside the class it names, the other side optimized out or the class",
                side.name()
            ),
            Remark::OneFrameFurther { side, function } => write!(
                f,
                "; {} side one frame further in, in {function}",
                side.name()
            ),
            Remark::OnlyAnInitializersName => {
                f.write_str("; the stacks differ only in the name of a class's initializer frame")
            }
            Remark::AlreadyHadOneThere { side } => write!(
                f,
                "; {} side already had a breakpoint on the line where the other placed it",
                side.name()
            ),
            Remark::PlacedNowhere => f.write_str("; the other placed it nowhere"),
            Remark::EngineWordedMessages => {
                f.write_str("; neither message is in the program's text")
            }
            Remark::SlidIntoTheNextFunction { side } => write!(
                f,
                "; requested outside every function, {} side placed it at the next function's start, the other nowhere",
                side.name()
            ),
            Remark::ListedWithoutALocation { side } => write!(
                f,
                "; {} side lists it optimized out, the other lists no variable without a location",
                side.name()
            ),
            Remark::ResumedAnInterruptedStep { side } => write!(
                f,
                "; {} side paused where its step that a breakpoint interrupted ends",
                side.name()
            ),
            Remark::ComparisonAsBool { side } => write!(
                f,
                "; a C comparison, {} side shows a bool of the int's truth",
                side.name()
            ),
            Remark::ConditionOutOfScope { side } => write!(
                f,
                "; {} side refused a condition on a name that neither the breakpoint's function nor the file's top level writes",
                side.name()
            ),
            Remark::LoggedWithoutASummary { side } => write!(
                f,
                "; {} side logged the value without the summary the other shows",
                side.name()
            ),
            Remark::RanPastAQuietBreakpoint { side } => write!(
                f,
                "; {} side ran on past its breakpoint that need not stop, on the line where the other's step ended",
                side.name()
            ),
        }
    }
}

/// Makes a remark from its sentence's captures.
type Make = fn(&regex::Captures) -> Remark;

/// The sentences' shapes, each anchored at the detail's end, in the order they are tried: the
/// inverse of `Display`.
static SHAPES: LazyLock<Vec<(regex::Regex, Make)>> = LazyLock::new(|| {
    let shapes: Vec<(&str, Make)> = vec![
        (
            r"; (first|second) side on the caller's line of the call(?: (\d+) frames down)?, (?:first|second) side (on another line of the caller|in a function called from that line)$",
            |c| Remark::OnTheCallLine {
                side: Side::read(&c[1]),
                frames_down: c.get(2).map_or(1, |m| m.as_str().parse().unwrap_or(1)),
                other: if &c[3] == "on another line of the caller" {
                    PastTheCall::AnotherLine
                } else {
                    PastTheCall::InACallFromIt
                },
            },
        ),
        (
            r"; (first|second) side at the end of a return, the other at its function's closing brace$",
            |c| Remark::ReturnAndBrace {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side at a for-in or for-of loop's head, the other at the first statement of its body$",
            |c| Remark::AtALoopHeadAndItsBody {
                side: Side::read(&c[1]),
            },
        ),
        (r"; both sides at their function's closing brace$", |_| {
            Remark::BothAtAClosingBrace
        }),
        (
            r"; both sides in the iterable of the loop head that declares it$",
            |_| Remark::InAHeadsIterable,
        ),
        (
            r"; both sides in the discriminant of the switch whose cases declare it, one side showing it uninitialized$",
            |_| Remark::InADiscriminant,
        ),
        (
            r"; (first|second) side in a class member's parameters while its class is being defined$",
            |c| Remark::InParametersWhileDefined {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side at a breakpoint on a function's indented closing brace$",
            |c| Remark::AtAnIndentedBrace {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side where a class declaration with a heritage begins, the other past it$",
            |c| Remark::AtAHeritage {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side paused again where it stood, before a call whose arguments call only built-ins$",
            |c| Remark::AgainBeforeACall {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side went on past where a step had brought it, the other stopped there again at a breakpoint$",
            |c| Remark::PassedWhereItStood {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side's engine crashed, in a program with a catch whose parameter holds a default$",
            |c| Remark::CrashedWithACatchDefault {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side stopped by a breakpoint, the other by its step$",
            |c| Remark::StoppedByABreakpoint {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; the step began in a generator(?:, which ended before the (first|second) side stopped)?$",
            |c| Remark::BeganInAGenerator {
                ended_before: c.get(1).map(|m| Side::read(m.as_str())),
            },
        ),
        (r"; the step began on a generator's last statement$", |_| {
            Remark::BeganOnAGeneratorsLastStatement
        }),
        (
            r"; the step out began in a generator expression(?:, where (first|second) side logged nothing)?$",
            |c| Remark::StepOutBeganInAGeneratorExpression {
                silent: c.get(1).map(|m| Side::read(m.as_str())),
            },
        ),
        (
            r"; (first|second) side shows a value, (?:first|second) side the binding uninitialized at the same place$",
            |c| Remark::ValueInDeadZone {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side evaluated `([^`]*)`, a binding it shows with a value and the (?:first|second) side uninitialized, paused on the same line$",
            |c| Remark::EvaluatedInItsDeadZone {
                side: Side::read(&c[1]),
                name: c[2].to_string(),
            },
        ),
        (
            r"; (first|second) side threw evaluating `([^`]*)`, a name it shows optimized out$",
            |c| Remark::EvaluatedAnOptimizedOutName {
                side: Side::read(&c[1]),
                name: c[2].to_string(),
            },
        ),
        (
            r"; (first|second) side did not pause at the closing brace of a function that ends in an if holding a return not taken, where the other did$",
            |c| Remark::NoPauseAtTheEndAfterAnUntakenReturn {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side shows the name uninitialized inside the class it names, the other side optimized out or the class$",
            |c| Remark::OwnNameUninitialized {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; the stacks differ only in the name of a class's initializer frame$",
            |_| Remark::OnlyAnInitializersName,
        ),
        (
            r"; (first|second) side already had a breakpoint on the line where the other placed it$",
            |c| Remark::AlreadyHadOneThere {
                side: Side::read(&c[1]),
            },
        ),
        (r"; the other placed it nowhere$", |_| Remark::PlacedNowhere),
        (
            r"; (first|second) side paused where its step that a breakpoint interrupted ends$",
            |c| Remark::ResumedAnInterruptedStep {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side lists it optimized out, the other lists no variable without a location$",
            |c| Remark::ListedWithoutALocation {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; requested outside every function, (first|second) side placed it at the next function's start, the other nowhere$",
            |c| Remark::SlidIntoTheNextFunction {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side refused a condition on a name that neither the (?:breakpoint's|other's) function nor the file's top level writes$",
            |c| Remark::ConditionOutOfScope {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side ran on past its breakpoint that need not stop, on the line where the other's step ended$",
            |c| Remark::RanPastAQuietBreakpoint {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; (first|second) side logged the value without the summary the other shows$",
            |c| Remark::LoggedWithoutASummary {
                side: Side::read(&c[1]),
            },
        ),
        (
            r"; a C comparison, (first|second) side shows a bool of the int's truth$",
            |c| Remark::ComparisonAsBool {
                side: Side::read(&c[1]),
            },
        ),
        (r"; neither message is in the program's text$", |_| {
            Remark::EngineWordedMessages
        }),
        // Free text inside (a function's name, a condition, a thrown class) last, so that
        // a fixed sentence after it is taken first.
        (
            r"; (first|second) side one frame further in, in ([^;]*)$",
            |c| Remark::OneFrameFurther {
                side: Side::read(&c[1]),
                function: c[2].to_string(),
            },
        ),
        (
            r"; (first|second) side at a breakpoint whose condition `([^`]*)` (?:threw ([^;]+)|is false)$",
            |c| Remark::AtACondition {
                side: Side::read(&c[1]),
                condition: c[2].to_string(),
                outcome: match c.get(3) {
                    Some(t) => ConditionOutcome::Threw(t.as_str().to_string()),
                    None => ConditionOutcome::IsFalse,
                },
            },
        ),
    ];
    shapes
        .into_iter()
        .map(|(r, make)| (regex::Regex::new(r).expect("a remark's shape"), make))
        .collect()
});

/// A divergence's detail split into its base difference and its remarks, in order.
pub fn split(detail: &str) -> (&str, Vec<Remark>) {
    let mut rest = detail;
    let mut remarks = Vec::new();
    'strip: loop {
        for (shape, make) in SHAPES.iter() {
            if let Some(c) = shape.captures(rest) {
                let start = c.get(0).map_or(rest.len(), |m| m.start());
                remarks.push(make(&c));
                rest = &rest[..start];
                continue 'strip;
            }
        }
        break;
    }
    remarks.reverse();
    (rest, remarks)
}

/// The remarks of a divergence's detail.
pub fn of(detail: &str) -> Vec<Remark> {
    split(detail).1
}

/// Renders `remarks` after `base`: a divergence's detail.
pub fn render(base: &str, remarks: &[Remark]) -> String {
    let mut s = base.to_string();
    for r in remarks {
        s.push_str(&r.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every() -> Vec<Remark> {
        use Side::*;
        vec![
            Remark::AtACondition {
                side: First,
                condition: "x > 3".into(),
                outcome: ConditionOutcome::Threw("NameError".into()),
            },
            Remark::AtACondition {
                side: Second,
                condition: "a; b".into(),
                outcome: ConditionOutcome::IsFalse,
            },
            Remark::OnTheCallLine {
                side: Second,
                frames_down: 1,
                other: PastTheCall::AnotherLine,
            },
            Remark::OnTheCallLine {
                side: First,
                frames_down: 3,
                other: PastTheCall::InACallFromIt,
            },
            Remark::ReturnAndBrace { side: First },
            Remark::AtALoopHeadAndItsBody { side: Second },
            Remark::BothAtAClosingBrace,
            Remark::InAHeadsIterable,
            Remark::InADiscriminant,
            Remark::InParametersWhileDefined { side: Second },
            Remark::AtAnIndentedBrace { side: First },
            Remark::AtAHeritage { side: Second },
            Remark::AgainBeforeACall { side: First },
            Remark::StoppedByABreakpoint { side: Second },
            Remark::PassedWhereItStood { side: First },
            Remark::CrashedWithACatchDefault { side: Second },
            Remark::BeganInAGenerator { ended_before: None },
            Remark::BeganInAGenerator {
                ended_before: Some(First),
            },
            Remark::BeganOnAGeneratorsLastStatement,
            Remark::StepOutBeganInAGeneratorExpression { silent: None },
            Remark::StepOutBeganInAGeneratorExpression {
                silent: Some(Second),
            },
            Remark::ValueInDeadZone { side: First },
            Remark::EvaluatedInItsDeadZone {
                side: Second,
                name: "v19".into(),
            },
            Remark::EvaluatedAnOptimizedOutName {
                side: First,
                name: "C2".into(),
            },
            Remark::NoPauseAtTheEndAfterAnUntakenReturn { side: First },
            Remark::OwnNameUninitialized { side: Second },
            Remark::OneFrameFurther {
                side: Second,
                function: "<genexpr>".into(),
            },
            Remark::OneFrameFurther {
                side: First,
                function: String::new(),
            },
            Remark::OnlyAnInitializersName,
            Remark::AlreadyHadOneThere { side: First },
            Remark::PlacedNowhere,
            Remark::EngineWordedMessages,
            Remark::SlidIntoTheNextFunction { side: Second },
            Remark::ListedWithoutALocation { side: First },
            Remark::ResumedAnInterruptedStep { side: Second },
            Remark::ComparisonAsBool { side: First },
            Remark::ConditionOutOfScope { side: Second },
            Remark::LoggedWithoutASummary { side: Second },
            Remark::RanPastAQuietBreakpoint { side: First },
        ]
    }

    #[test]
    fn every_remark_reads_back_as_rendered_alone_and_after_each_other() {
        let all = every();
        for r in &all {
            assert!(IDS.contains(&r.id()), "{} listed", r.id());
            let base = "paused at 3:5 vs 4:1";
            let detail = render(base, std::slice::from_ref(r));
            assert_eq!(split(&detail), (base, vec![r.clone()]), "{detail}");
        }
        // Any two in a row (a sentence with free text before a fixed one included).
        for a in &all {
            for b in &all {
                let v = vec![a.clone(), b.clone()];
                let detail = render("x: 1 vs 2", &v);
                assert_eq!(split(&detail), ("x: 1 vs 2", v), "{detail}");
            }
        }
        for id in IDS {
            assert!(all.iter().any(|r| r.id() == *id), "{id} has an example");
        }
    }

    #[test]
    fn a_detail_without_remarks_is_its_base() {
        for d in [
            "paused at 3:5 vs 4:1",
            "x only on the second side",
            "breakpoint at [6:3] vs []",
            "stack [f, ] vs [g, ]",
            // Text like a remark but not one of them.
            "s: \"a; b\" vs \"a\"",
            "one side refused the breakpoint: taken; or so",
        ] {
            assert_eq!(split(d), (d, Vec::new()), "{d}");
        }
    }
}
