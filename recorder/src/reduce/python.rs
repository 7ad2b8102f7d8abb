//! A Python program's first reduction pass, before C-Vise's generic passes (which know no
//! Python and take minutes per line on a program whose every candidate runs two interpreters):
//! whole statements of tree-sitter-python's tree taken out (or replaced by `pass` where their
//! block would be empty), outermost first, then the lines left blank or holding a lone `pass`
//! taken out where the program still parses.

use indicatif::ProgressBar;
use morphtrace_syntax::python::statements::PySyntax;
use morphtrace_syntax::{variant, Statements};
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

/// `text` without the whole lines of `start..end`, and where they began; `None` when something
/// other than blanks or a comment shares those lines.
fn without_lines(text: &str, start: usize, end: usize) -> Option<(String, usize)> {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let after = text[end..line_end].trim();
    if !text[line_start..start].trim().is_empty() || !(after.is_empty() || after.starts_with('#')) {
        return None;
    }
    Some((
        format!("{}{}", &text[..line_start], &text[line_end..]),
        line_start,
    ))
}

fn parses(text: &str) -> bool {
    PySyntax::parse(text).is_some_and(|s| s.rejection().is_none() && !s.has_empty_block())
}

/// Takes statements out while `shows` says the candidate still shows the finding, one
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
            .deletable()
            .into_iter()
            .filter(|c| c.start >= from && text[c.start..c.end].trim() != "pass")
            .min_by_key(|c| (c.start, std::cmp::Reverse(c.end)));
        let Some(c) = next else {
            complete = true;
            break;
        };
        // The statement's lines go whole when it is alone on them and its block keeps another
        // statement; otherwise it becomes `pass`. Either way one judgement, and an accepted
        // candidate is already shorter, should the budget end before the clean-up below.
        let (candidate, next_from) = match without_lines(&text, c.start, c.end) {
            Some((shorter, line_start)) if parses(&shorter) => (shorter, line_start),
            _ => (
                variant::apply_python(&text, vec![c.clone()]).text,
                c.start + "pass".len(),
            ),
        };
        if parses(&candidate) && test(&candidate)? {
            text = candidate;
            // What follows now starts at `next_from`; a `pass` left there is never tried again.
            from = next_from;
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

    /// A statement goes with its lines, comment included, and becomes `pass` only where its
    /// block would be empty; one sharing its line with another stays for the line.
    #[test]
    fn a_statement_goes_whole_unless_its_block_needs_it() {
        let text = "x = 1  # one\ny = 2; print(7)\nif x:\n    z = 3\n";
        assert_eq!(
            without_lines(text, 0, 5),
            Some(("y = 2; print(7)\nif x:\n    z = 3\n".to_string(), 0))
        );
        assert_eq!(without_lines(text, 13, 18), None);
        let bar = ProgressBar::hidden();
        let mut tried = Vec::new();
        let pruned = prune_statements(text, Duration::from_secs(60), &bar, |c| {
            tried.push(c.to_string());
            Ok::<bool, ()>(c.contains("print(7)") && c.contains("if x"))
        })
        .unwrap();
        assert_eq!(pruned.text, "pass; print(7)\nif x:\n    pass\n");
        assert!(tried.contains(&"y = 2; print(7)\nif x:\n    z = 3\n".to_string()));
    }
}
