//! `listed-without-a-location`: a C local the compiler gave no location (declared, never used:
//! gcc emits it without `DW_AT_location` even at `-O0`) is listed by LLDB, optimized out, and
//! not by gdb, whose machine interface leaves out every variable without a location
//! (`-stack-list-variables` skips `LOC_OPTIMIZED_OUT`, where its console's `info locals` shows it
//! `<optimized out>`).
//!
//! On the real engines:
//! - `tests/debuggers/native.rs#a_local_without_a_location_is_listed_by_lldb_alone`

use super::{one_sided, Divergence, Quirk, Recognizer};
use morphtrace_judges::remark::{Remark, Side};
use morphtrace_schema::{DivergenceKind, Language, Output, ScopeKind, Value};

pub(super) struct ListedWithoutALocation;

impl Quirk for ListedWithoutALocation {
    /// Where a C program's top frame shows a local on one side alone, and that side shows it
    /// optimized out (`ListedWithoutALocation`, the side that lists it). A local one side lacks
    /// and the other shows with a value (a debugger that hides a variable) gets no remark.
    fn recognize(&self, r: &Recognizer, d: &Divergence) -> Option<Remark> {
        if *d.kind != DivergenceKind::Variables || r.program.language != Language::C {
            return None;
        }
        let (name, first) = one_sided(d.detail)?;
        let side = if first { Side::First } else { Side::Second };
        let shown = match side {
            Side::First => d.answers.outputs[0],
            Side::Second => d.answers.outputs[1],
        };
        let Output::Paused(p) = shown else {
            return None;
        };
        let top = p.stack.first()?;
        let value = top
            .scopes
            .iter()
            .filter(|s| s.kind == ScopeKind::Local)
            .flat_map(|s| &s.variables)
            .find(|v| v.name == name)
            .map(|v| &v.value)?;
        (*value == Value::OptimizedOut).then_some(Remark::ListedWithoutALocation { side })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    const C: &str = "int main(void) {\n  int used = 1;\n  int i;\n  return used;\n}\n";

    fn remark(language: Language, shown: Value) -> String {
        let p = program(C, language);
        let listed = paused(
            (3, 2),
            breakpoint(),
            &["main"],
            &[("used", Value::Number(1.0)), ("i", shown)],
        );
        let unlisted = paused(
            (3, 2),
            breakpoint(),
            &["main"],
            &[("used", Value::Number(1.0))],
        );
        remarks(
            &p,
            DivergenceKind::Variables,
            "i only on the second side",
            Action::Resume,
            [&unlisted, &listed],
            [None; 2],
            [None; 2],
        )
    }

    #[test]
    fn a_local_one_side_lists_optimized_out_and_the_other_not_at_all() {
        assert_eq!(
            remark(Language::C, Value::OptimizedOut),
            Remark::ListedWithoutALocation { side: Side::Second }.to_string()
        );
    }

    #[test]
    fn a_hidden_local_with_a_value_gets_no_remark() {
        // Planted: a debugger that hides a local the other shows with its value.
        assert_eq!(remark(Language::C, Value::Number(0.0)), "");
        assert_eq!(remark(Language::C, Value::Unavailable), "");
        // Not C.
        assert_eq!(remark(Language::JavaScript, Value::OptimizedOut), "");
    }
}
