//! What a metamorphic warning says (issue 66), typed: the follow-up's action, what the parent
//! showed there, how the two differ (a `Difference` with its remarks, read with the follow-up
//! as the side that behaves so) and the aside the judge adds about the situation. The judge
//! builds a warning's message here and the analyzer reads it back here; triage rules match its
//! fields (`triage::MessagePattern`), never its words.

use std::fmt;

/// What the judge adds about the situation a follow-up missed or made a pause in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Aside {
    /// The follow-up paused at a breakpoint the transformation added with condition `false`.
    AtTheAddedFalseBreakpoint,
    /// The follow-up's step into began where such a breakpoint stands.
    StepIntoFromAFalseBreakpoint,
    /// The parent's exception or `debugger` pause the follow-up missed is on the line of a
    /// breakpoint whose condition is `false` (V8 mutes such a statement).
    MissedOnAFalseLine,
    /// That pause is on the line such a breakpoint was set on, before the place it was given.
    MissedBeforeAFalsePlace,
    /// The parent's next pause, which the follow-up's resume missed, is where the follow-up's
    /// previous pause, made by a step, stood.
    MissedWhereAStepStood,
    /// Every exception pausing, the follow-up paused in a catch block, not on the exception.
    InACatchBlock,
    /// Every exception pausing, the follow-up paused a second time for the breakpoints it stood
    /// on, in a frame as deep, without an exception.
    AgainAtItsBreakpoint,
    /// Every exception pausing, the follow-up paused for breakpoints none of which was placed
    /// there, without an exception.
    AwayFromItsBreakpoint,
    /// The follow-up paused at a breakpoint on the line its previous step had stopped on, in
    /// the same function.
    AfterAStepOnItsLine,
    /// What was thrown, by the engine's first line: where the follow-up paused or ended on it,
    /// or else what the parent's pause there had thrown.
    Thrown { by: Thrower, error: String },
}

/// Who met the thrown value an `Aside::Thrown` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thrower {
    FollowUpPaused,
    FollowUpEnded,
    ParentPaused,
}

/// The asides' words (tests read them too).
pub const AT_THE_ADDED_FALSE_BREAKPOINT: &str =
    "the follow-up paused at the added breakpoint (condition false)";
pub const STEP_INTO_FROM_A_FALSE_BREAKPOINT: &str =
    "the step into began at the added breakpoint (condition false)";
pub const MISSED_ON_A_FALSE_LINE: &str =
    "the parent's pause there is on the line of a breakpoint with condition false";
pub const MISSED_BEFORE_A_FALSE_PLACE: &str =
    "the parent's pause there is on the line a breakpoint with condition false was set on, before where it was placed";
pub const MISSED_WHERE_A_STEP_STOOD: &str =
    "the parent's pause is where the follow-up's previous pause, by a step, stood";
pub const IN_A_CATCH_BLOCK: &str = "the follow-up paused in a catch block, not on the exception";
pub const AGAIN_AT_ITS_BREAKPOINT: &str =
    "the follow-up paused again for the breakpoint it stood on, with no exception";
pub const AWAY_FROM_ITS_BREAKPOINT: &str =
    "the follow-up paused for a breakpoint away from where it was placed, with no exception";
pub const AFTER_A_STEP_ON_ITS_LINE: &str =
    "the follow-up paused at the breakpoint on the line its previous step stopped on";

const ASIDES: [(&str, &str, Aside); 9] = [
    (
        "at-the-added-false-breakpoint",
        AT_THE_ADDED_FALSE_BREAKPOINT,
        Aside::AtTheAddedFalseBreakpoint,
    ),
    (
        "step-into-from-a-false-breakpoint",
        STEP_INTO_FROM_A_FALSE_BREAKPOINT,
        Aside::StepIntoFromAFalseBreakpoint,
    ),
    (
        "missed-on-a-false-line",
        MISSED_ON_A_FALSE_LINE,
        Aside::MissedOnAFalseLine,
    ),
    (
        "missed-before-a-false-place",
        MISSED_BEFORE_A_FALSE_PLACE,
        Aside::MissedBeforeAFalsePlace,
    ),
    (
        "missed-where-a-step-stood",
        MISSED_WHERE_A_STEP_STOOD,
        Aside::MissedWhereAStepStood,
    ),
    ("in-a-catch-block", IN_A_CATCH_BLOCK, Aside::InACatchBlock),
    (
        "again-at-its-breakpoint",
        AGAIN_AT_ITS_BREAKPOINT,
        Aside::AgainAtItsBreakpoint,
    ),
    (
        "away-from-its-breakpoint",
        AWAY_FROM_ITS_BREAKPOINT,
        Aside::AwayFromItsBreakpoint,
    ),
    (
        "after-a-step-on-its-line",
        AFTER_A_STEP_ON_ITS_LINE,
        Aside::AfterAStepOnItsLine,
    ),
];

const THROWN: [(&str, &str, Thrower); 3] = [
    (
        "follow-up-paused-on-the-exception",
        "the follow-up paused on the exception ",
        Thrower::FollowUpPaused,
    ),
    (
        "follow-up-ended-on-the-exception",
        "the follow-up ended on the exception ",
        Thrower::FollowUpEnded,
    ),
    (
        "parent-paused-on-the-exception",
        "the parent paused on the exception ",
        Thrower::ParentPaused,
    ),
];

/// Every aside's id, as rules name them.
pub fn aside_ids() -> Vec<&'static str> {
    ASIDES
        .iter()
        .map(|(id, _, _)| *id)
        .chain(THROWN.iter().map(|(id, _, _)| *id))
        .collect()
}

impl Aside {
    pub fn id(&self) -> &'static str {
        match self {
            Aside::Thrown { by, .. } => THROWN
                .iter()
                .find(|(_, _, t)| t == by)
                .map(|(id, _, _)| *id),
            a => ASIDES.iter().find(|(_, _, x)| x == a).map(|(id, _, _)| *id),
        }
        .unwrap_or_default()
    }

    fn parse(text: &str) -> Option<Aside> {
        if let Some((_, _, a)) = ASIDES.iter().find(|(_, t, _)| *t == text) {
            return Some(a.clone());
        }
        THROWN.iter().find_map(|(_, prefix, by)| {
            let error = text.strip_prefix(prefix)?;
            (!error.is_empty()).then(|| Aside::Thrown {
                by: *by,
                error: error.to_string(),
            })
        })
    }
}

impl fmt::Display for Aside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Aside::Thrown { by, error } => {
                let (_, prefix, _) = THROWN.iter().find(|(_, _, t)| t == by).expect("a thrower");
                write!(f, "{prefix}{error}")
            }
            a => {
                let (_, text, _) = ASIDES.iter().find(|(_, _, x)| x == a).expect("an aside");
                f.write_str(text)
            }
        }
    }
}

/// A warning's message in the two forms the judge writes with a difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `after ACTION, expected EXPECTED as in the parent: DIFFERENCE[; ASIDE]`: the follow-up's
    /// action, what the parent showed (`a pause at 3:5`, `the end (completed)`), how the
    /// follow-up's answer differs from it (the base difference and its remarks, as a
    /// divergence's detail, the parent the first side).
    Expected {
        action: String,
        expected: String,
        difference: String,
        aside: Option<Aside>,
    },
    /// `ACTION answered differently: DIFFERENCE`
    Answered { action: String, difference: String },
}

impl Message {
    /// Reads a message back; `None` for the judge's other messages (no counterpart, an
    /// inserted line), which carry no difference.
    pub fn parse(text: &str) -> Option<Message> {
        if let Some(rest) = text.strip_prefix("after ") {
            let (action, rest) = rest.split_once(", expected ")?;
            let (expected, rest) = rest.split_once(" as in the parent: ")?;
            // The aside is the last part; the difference's remarks and a thrown error's
            // first line may hold `; ` too: the first cut after which an aside follows.
            let (difference, aside) = rest
                .match_indices("; ")
                .find_map(|(i, _)| Some((&rest[..i], Some(Aside::parse(&rest[i + 2..])?))))
                .unwrap_or((rest, None));
            return Some(Message::Expected {
                action: action.to_string(),
                expected: expected.to_string(),
                difference: difference.to_string(),
                aside,
            });
        }
        let (action, difference) = text.split_once(" answered differently: ")?;
        Some(Message::Answered {
            action: action.to_string(),
            difference: difference.to_string(),
        })
    }

    pub fn action(&self) -> &str {
        match self {
            Message::Expected { action, .. } | Message::Answered { action, .. } => action,
        }
    }

    pub fn difference(&self) -> &str {
        match self {
            Message::Expected { difference, .. } | Message::Answered { difference, .. } => {
                difference
            }
        }
    }

    pub fn aside(&self) -> Option<&Aside> {
        match self {
            Message::Expected { aside, .. } => aside.as_ref(),
            Message::Answered { .. } => None,
        }
    }

    /// What the parent showed, as rules name it: `pause`, `exception-pause`, `debugger-pause`,
    /// `end`, `breakpoint`, or the answer's sort; empty for an answered-differently message.
    pub fn expected_sort(&self) -> &str {
        let Message::Expected { expected, .. } = self else {
            return "";
        };
        for (prefix, sort) in [
            ("an exception pause at ", "exception-pause"),
            ("a debugger statement's pause at ", "debugger-pause"),
            ("a pause at ", "pause"),
            ("the end (", "end"),
            ("a breakpoint at [", "breakpoint"),
        ] {
            if expected.starts_with(prefix) {
                return sort;
            }
        }
        expected
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Expected {
                action,
                expected,
                difference,
                aside,
            } => {
                write!(
                    f,
                    "after {action}, expected {expected} as in the parent: {difference}"
                )?;
                match aside {
                    Some(a) => write!(f, "; {a}"),
                    None => Ok(()),
                }
            }
            Message::Answered { action, difference } => {
                write!(f, "{action} answered differently: {difference}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_reads_back_what_it_renders() {
        let mut every: Vec<Message> = ASIDES
            .iter()
            .map(|(_, _, a)| Some(a.clone()))
            .chain(THROWN.iter().map(|(_, _, by)| {
                Some(Aside::Thrown {
                    by: *by,
                    error: "ReferenceError: x is not defined; or so".into(),
                })
            }))
            .chain([None])
            .map(|aside| Message::Expected {
                action: "continueToLocation(12)".into(),
                expected: "a pause at 3:5".into(),
                difference: "paused at 3:5 vs 4:1; second side at a breakpoint whose condition `a; b` is false".into(),
                aside,
            })
            .collect();
        every.push(Message::Answered {
            action: "setConditionalBreakpoint(7, \"false\")".into(),
            difference: "breakpoint at [7:3] vs []".into(),
        });
        for m in &every {
            let text = m.to_string();
            assert_eq!(Message::parse(&text).as_ref(), Some(m), "{text}");
        }
        let ids = aside_ids();
        for m in &every {
            if let Some(a) = m.aside() {
                assert!(ids.contains(&a.id()));
            }
        }
        assert_eq!(every[0].expected_sort(), "pause");
        assert_eq!(
            Message::parse(
                "the follow-up has no counterpart of the parent's a pause at 3:1 after resume"
            ),
            None
        );
    }
}
