//! `engine-worded-messages`: two errors of one class that differ in their messages alone, neither
//! message in the program's text: each engine worded an error it threw itself (ECMAScript leaves
//! the wording to the implementation).
//!
//! On the real engines:
//! - `tests/debuggers/values.rs#error_messages_compare_where_the_program_wrote_them`

use super::{Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::Remark;

pub(super) struct WordedMessages;

impl Quirk for WordedMessages {
    /// Where two errors of one class differ in their messages alone and neither message is in
    /// the program's text (`EngineWordedMessages`): each engine worded an error it threw itr.
    /// A message the program wrote, shown otherwise by one side, gets no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        let [a, b] = d.answers.outputs;
        let kind = d.kind;
        let detail = d.detail;
        let policy = d.policy;
        let (m, n) = morphtrace_judges::dbdb::messages_apart_in(kind, detail, a, b, policy)?;
        let written = |m: &str| !m.is_empty() && r.program.text.contains(m);
        if written(&m) || written(&n) {
            None
        } else {
            Some(Remark::EngineWordedMessages)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use morphtrace_schema::{ObjectKind, Value};

    #[test]
    fn error_messages_each_engine_worded_but_not_the_programs_own() {
        let text = "function f(o) {\n  if (!o) throw new TypeError('no o given');\n  return o.x.y;\n}\nf({});\n";
        let p = program(text, Language::JavaScript);
        let threw = |message: &str| Output::Evaluated {
            value: Value::Object {
                kind: ObjectKind::Error,
                class: "TypeError".into(),
                description: Some(format!("TypeError: {message}")),
                entries: None,
                truncated: false,
            },
            threw: true,
        };
        let remark = |a: &Output, b: &Output| {
            remarks(
                &p,
                DivergenceKind::Evaluation,
                "TypeError vs TypeError",
                Action::Evaluate {
                    expression: "o.x.y".into(),
                },
                [a, b],
                [None; 2],
                [None; 2],
            )
        };
        let v8 = threw("Cannot read properties of undefined (reading 'y')");
        let jsc = threw("undefined is not an object (evaluating 'o.x.y')");
        assert_eq!(remark(&v8, &jsc), Remark::EngineWordedMessages.to_string());
        // Planted: one side shows the program's own message where the other worded its own.
        assert_eq!(remark(&threw("no o given"), &jsc), "");
    }
}
