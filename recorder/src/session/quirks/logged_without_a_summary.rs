//! `logged-without-a-summary`: LLDB's adapter logs a logpoint's value as `SBValue::GetValue()`
//! (lldb-vscode 16, `BreakpointBase::BreakpointHitCallback`), which leaves out what LLDB shows of
//! a value beside it, its summary: an aggregate (a struct, an array, a `char` array) has no value
//! and logs nothing; a `char *` logs its address without the string. gdb logs what `print`
//! shows (`{x = 1, y = 2}`, `"hi"`, `0x… "hi"`). Later lldb-dap logs the summary too.
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#lldb_logs_nothing_for_an_aggregate`

use super::{logged_line, Divergence, Quirk, Recognizer};
use morphtrace_judges::difference::Difference;
use morphtrace_judges::remark::{self, Remark, Side};
use morphtrace_schema::{DivergenceKind, Language};

pub(super) struct LoggedWithoutASummary;

impl Quirk for LoggedWithoutASummary {
    /// Where a C program's logpoint logged one line on both sides and one side's text is the
    /// other's without its summary (`LoggedWithoutASummary`, the side without it). A line of
    /// two logpoints, nothing against a line, or any other two texts get no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::Log || r.program.language != Language::C {
            return None;
        }
        let Some(Difference::Logged { logged, .. }) = Difference::parse(remark::split(d.detail).0)
        else {
            return None;
        };
        let [a, b] = [logged_line(&logged[0])?, logged_line(&logged[1])?];
        if a.0 != b.0 {
            return None;
        }
        let side = if without_summary(a.1, b.1) {
            Side::First
        } else if without_summary(b.1, a.1) {
            Side::Second
        } else {
            return None;
        };
        Some(Remark::LoggedWithoutASummary { side })
    }
}

/// Whether `bare` is `full` without the summary, as gdb spells one: nothing of an aggregate
/// (`{…}`) or a `char` array (a string, `"hi"`), the address alone of a pointer shown with the
/// string it points to (`0x… "hi"`; addresses are left out of logs as `0x…`).
fn without_summary(bare: &str, full: &str) -> bool {
    let string = |t: &str| t.len() >= 2 && t.starts_with('"');
    match bare {
        "" => (full.starts_with('{') && full.ends_with('}')) || string(full),
        "0x…" => full.strip_prefix("0x… ").is_some_and(string),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    fn remark(language: Language, detail: &str) -> String {
        let p = program("int main(void) {\n  return 0;\n}\n", language);
        let done = Output::Finished {
            outcome: morphtrace_schema::ProgramOutcome::Completed,
        };
        remarks(
            &p,
            DivergenceKind::Log,
            detail,
            Action::StepOver,
            [&done, &done],
            [None; 2],
            [None; 2],
        )
    }

    #[test]
    fn a_value_logged_without_the_summary_the_other_side_shows() {
        let second = Remark::LoggedWithoutASummary { side: Side::Second }.to_string();
        let first = Remark::LoggedWithoutASummary { side: Side::First }.to_string();
        for (detail, expected) in [
            (
                "logpoints logged #11 {x = -1, y = -1} vs #11  (line 1 of 1 vs 1)",
                &second,
            ),
            (
                "logpoints logged #2 {4, 5, 6} vs #2  (line 2 of 3 vs 3)",
                &second,
            ),
            (
                "logpoints logged #3  vs #3 \"hi\" (line 1 of 1 vs 1)",
                &first,
            ),
            (
                "logpoints logged #4 0x… \"hi\" vs #4 0x… (line 1 of 1 vs 1)",
                &second,
            ),
        ] {
            assert_eq!(&remark(Language::C, detail), expected, "{detail}");
        }
        // Planted: a number logged empty, another logpoint's line, nothing logged at all, a
        // pointer without a string, two aggregates apart, another language.
        for detail in [
            "logpoints logged #5 8 vs #5  (line 1 of 1 vs 1)",
            "logpoints logged #5 {x = 1} vs #6  (line 1 of 1 vs 1)",
            "logpoints logged #5 {x = 1} vs nothing (line 1 of 1 vs 0)",
            "logpoints logged #5 0x… vs #5  (line 1 of 1 vs 1)",
            "logpoints logged #5 {x = 1} vs #5 {x = 2} (line 1 of 1 vs 1)",
            "logpoints logged #5 0x… <twice> vs #5 0x… (line 1 of 1 vs 1)",
        ] {
            assert_eq!(remark(Language::C, detail), "", "{detail}");
        }
        assert_eq!(
            remark(
                Language::Python,
                "logpoints logged #11 {x = -1, y = -1} vs #11  (line 1 of 1 vs 1)"
            ),
            ""
        );
    }
}
