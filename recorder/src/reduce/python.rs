//! A Python program's first reduction pass, before C-Vise's generic passes (which know no
//! Python and take minutes per line on a program whose every candidate runs two interpreters):
//! whole statements of tree-sitter-python's tree replaced by `pass`, outermost first, then the
//! lines left blank or holding a lone `pass` taken out where the program still parses.

use crate::cod::py_syntax::PySyntax;
use crate::cod::variant;
use indicatif::ProgressBar;
use std::time::{Duration, Instant};

/// What pruning kept.
pub struct Pruned {
    pub text: String,
    /// Candidates judged.
    pub tests: usize,
    pub elapsed: Duration,
    /// Every statement was tried within the budget.
    pub complete: bool,
}

fn parses(text: &str) -> bool {
    PySyntax::parse(text).is_some_and(|s| s.rejection().is_none())
}

/// Replaces statements by `pass` while `shows` says the candidate still shows the finding, one
/// statement at a time in source order (an outer statement before the ones it holds: once it is
/// gone they are too), for at most `budget`; then drops blank and lone-`pass` lines.
pub fn prune_statements<E>(
    text: &str,
    budget: Duration,
    progress: &ProgressBar,
    mut shows: impl FnMut(&str) -> Result<bool, E>,
) -> Result<Pruned, E> {
    let t0 = Instant::now();
    let mut tests = 0;
    let mut test = |c: &str| {
        tests += 1;
        progress.inc(1);
        shows(c)
    };
    let mut text = text.to_string();
    // Byte offset from which statements are still to be tried: replacing one keeps the text
    // before it as it was, so what was tried there stays tried.
    let mut from = 0;
    let mut complete = false;
    while t0.elapsed() < budget {
        let Some(syntax) = PySyntax::parse(&text) else {
            break;
        };
        let next = syntax
            .candidates()
            .into_iter()
            .filter(|c| c.start >= from && text[c.start..c.end].trim() != "pass")
            .min_by_key(|c| (c.start, std::cmp::Reverse(c.end)));
        let Some(c) = next else {
            complete = true;
            break;
        };
        let candidate = variant::apply_python(&text, vec![c.clone()]).text;
        if parses(&candidate) && test(&candidate)? {
            text = candidate;
            // The `pass` now there is never tried again.
            from = c.start + "pass".len();
        } else {
            // Its first inner statement (or the next one) comes next.
            from = c.start + 1;
        }
    }
    // Lines made empty, then lone `pass` lines, all at once and then one by one from the end.
    let keep = |t: &str, drop: &dyn Fn(&str) -> bool| -> String {
        let mut out: String = t
            .lines()
            .filter(|l| !drop(l))
            .collect::<Vec<_>>()
            .join("\n");
        out.push('\n');
        out
    };
    let blank = keep(&text, &|l: &str| l.trim().is_empty());
    if blank != text && parses(&blank) && t0.elapsed() < budget && test(&blank)? {
        text = blank;
    }
    let lone: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "pass")
        .map(|(i, _)| i)
        .collect();
    for i in lone.into_iter().rev() {
        if t0.elapsed() >= budget {
            complete = false;
            break;
        }
        let candidate = {
            let mut out: String = text
                .lines()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join("\n");
            out.push('\n');
            out
        };
        if parses(&candidate) && test(&candidate)? {
            text = candidate;
        }
    }
    Ok(Pruned {
        text,
        tests,
        elapsed: t0.elapsed(),
        complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The finding: the program still calls `print` with 7. Everything else goes.
    #[test]
    fn prunes_to_the_statements_the_finding_needs() {
        let text = "import os\n\ndef f(x):\n    y = x + 1\n    if y > 2:\n        return y\n    return 0\n\nz = 3\nfor i in range(2):\n    z += i\nprint(7)\n";
        let bar = ProgressBar::hidden();
        let pruned = prune_statements(text, Duration::from_secs(60), &bar, |c| {
            Ok::<bool, ()>(c.contains("print(7)"))
        })
        .unwrap();
        assert_eq!(pruned.text, "print(7)\n");
        assert!(pruned.complete);
        // An inner statement is tried only when its outer one had to stay.
        let text = "def f():\n    a = 1\n    print(7)\nf()\n";
        let mut tried = Vec::new();
        let pruned = prune_statements(text, Duration::from_secs(60), &bar, |c| {
            tried.push(c.to_string());
            Ok::<bool, ()>(c.contains("print(7)") && c.contains("\nf()"))
        })
        .unwrap();
        assert_eq!(pruned.text, "def f():\n    print(7)\nf()\n");
        assert!(tried.len() <= 6, "{tried:#?}");
    }
}
