//! Where a Python debugger can stop: the lines where CPython's compiled code of a program starts
//! a line (`dis.findlinestarts` of the module's code and of every code object nested in it), read
//! from the interpreter that runs the program. pydevd moves a breakpoint on a line without code to
//! the nearest such line before it, from the same table (its `pydevd_api._get_code_lines`), so the
//! table is the engine's own answer to where a breakpoint may go (a module's first instruction,
//! on line 0, is left out). Compiling runs none of the program.

use crate::child::DieWithParent;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::Command;

const LINE_STARTS: &str = "import dis, sys, tokenize, types
def starts(code):
    for _, line in dis.findlinestarts(code):
        if line:
            yield line
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            yield from starts(k)
with tokenize.open(sys.argv[1]) as f:
    text = f.read()
print(*sorted(set(starts(compile(text, sys.argv[1], 'exec', dont_inherit=True)))))
";

/// The 1-based lines where `python`'s compiled code of `program` starts a line, in order; `None`
/// where it does not compile (or the interpreter does not answer in time).
pub async fn python(python: &Path, program: &Path) -> Option<Vec<u32>> {
    let run = Command::new(python)
        .args(["-I", "-c", LINE_STARTS])
        .arg(program)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .die_with_parent()
        .output();
    let out = tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .ok()?
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout)
        .ok()?
        .split_whitespace()
        .map(|l| l.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    /// Blank lines, comments, a docstring's inside and an `else:` start no line; statements in
    /// nested functions and classes do.
    #[tokio::test]
    async fn lines_with_code_in_every_nested_code_object() {
        let Some(python) = crate::debugger::engines::which("python3") else {
            panic!("python3 is installed by scripts/setup.sh");
        };
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.py");
        std::fs::write(
            &p,
            "# a comment\n\ndef f(x):\n    \"\"\"Doc\n    string.\"\"\"\n    if x:\n        return 1\n    else:\n        return 2\n\nclass C:\n    y = f(0)\n\nprint(f(1))\n",
        )
        .unwrap();
        let lines = super::python(&python, &p).await.unwrap();
        assert_eq!(lines, [3, 6, 7, 9, 11, 12, 14], "{lines:?}");
        std::fs::write(&p, "def (:\n").unwrap();
        assert_eq!(super::python(&python, &p).await, None);
    }
}
