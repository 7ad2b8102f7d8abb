//! Cod's program variants (P'): unexecuted statements deleted at random, with the exact line
//! mapping from P' back to P.

use morphtrace_schema::lines::{Breaks, LineIndex};
use morphtrace_schema::{LineMap, LineSegment};
use rand::Rng;

pub type LineKinds = Vec<String>;

/// A statement that may be deleted: byte range, lines (0-based) and syntax kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deletable {
    pub start: usize,
    pub end: usize,
    pub first_line: u32,
    pub last_line: u32,
    pub kind: String,
}

/// A program with some statements deleted.
#[derive(Debug, Clone)]
pub struct Variant {
    pub text: String,
    pub deleted: Vec<Deletable>,
    /// Lines of P whose whole content was deleted (they have no counterpart in P').
    pub deleted_lines: Vec<u32>,
    /// Lines of P' mapped to lines of P.
    pub map: LineMap,
}

/// Candidates the profiler reports unexecuted: every line of the statement that has a count
/// has count 0, and at least one has.
pub fn unexecuted_by_lines(cands: &[Deletable], lines: &[Option<u64>]) -> Vec<Deletable> {
    cands
        .iter()
        .filter(|c| {
            let counts: Vec<u64> = (c.first_line..=c.last_line)
                .filter_map(|l| lines.get(l as usize).copied().flatten())
                .collect();
            !counts.is_empty() && counts.iter().all(|&n| n == 0)
        })
        .cloned()
        .collect()
}

/// Cod's random choice: each candidate with probability 1/2 (at least one), keeping only the
/// outermost of nested choices.
pub fn choose(rng: &mut impl Rng, cands: &[Deletable]) -> Vec<Deletable> {
    if cands.is_empty() {
        return Vec::new();
    }
    let mut chosen: Vec<Deletable> = cands
        .iter()
        .filter(|_| rng.random_bool(0.5))
        .cloned()
        .collect();
    if chosen.is_empty() {
        chosen.push(cands[rng.random_range(0..cands.len())].clone());
    }
    chosen.sort_by_key(|c| (c.start, std::cmp::Reverse(c.end)));
    let mut out: Vec<Deletable> = Vec::new();
    for c in chosen {
        if out.last().is_some_and(|o| c.start < o.end) {
            continue;
        }
        out.push(c);
    }
    out
}

/// Deletes the statements: each becomes `;` followed by blanks, line breaks kept, so that every
/// line keeps its number, UTF-16 offsets do not move, and no two neighbours join into one
/// statement (JavaScript's automatic semicolons). Lines whose whole text was deleted have no
/// counterpart.
pub fn apply(text: &str, deleted: Vec<Deletable>, breaks: Breaks) -> Variant {
    let is_break = |c: char| match breaks {
        Breaks::C => matches!(c, '\n' | '\r'),
        Breaks::EcmaScript => matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}'),
    };
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for d in &deleted {
        out.push_str(&text[pos..d.start]);
        out.push(';');
        let mut first = true;
        for ch in text[d.start..d.end].chars() {
            if is_break(ch) {
                out.push(ch);
            } else {
                let width = ch.len_utf16();
                let width = if first { width - 1 } else { width };
                first = false;
                out.extend(std::iter::repeat_n(' ', width));
            }
        }
        pos = d.end;
    }
    out.push_str(&text[pos..]);
    finish(text, out, deleted, breaks)
}

/// Deletes Python statements: each becomes `pass` at the statement's place (a block left
/// without statements would not compile), the rest of its text blanks with line breaks kept,
/// so that every line keeps its number. Lines whose whole text was deleted have no
/// counterpart, the `pass` line included.
pub fn apply_python(text: &str, deleted: Vec<Deletable>) -> Variant {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for d in &deleted {
        out.push_str(&text[pos..d.start]);
        out.push_str("pass");
        for ch in text[d.start..d.end].chars() {
            if matches!(ch, '\n' | '\r') {
                out.push(ch);
            }
        }
        pos = d.end;
    }
    out.push_str(&text[pos..]);
    finish(text, out, deleted, Breaks::C)
}

/// The variant of `text` whose text is `out`: which lines of `text` the deletions emptied, and
/// the line map without them.
fn finish(text: &str, out: String, deleted: Vec<Deletable>, breaks: Breaks) -> Variant {
    // A line is deleted when all its non-blank text lies inside deleted statements.
    let mut deleted_lines = Vec::new();
    let index = LineIndex::new(text, breaks);
    for (i, line) in index.lines(text).enumerate() {
        let offset = index.start(i as u32);
        let start = offset + (line.len() - line.trim_start().len());
        let end = offset + line.trim_end().len();
        if end > start && deleted.iter().any(|d| d.start <= start && end <= d.end) {
            deleted_lines.push(i as u32);
        }
    }
    let lines = index.len() as u32;
    let map = map_without(lines, &deleted_lines);
    Variant {
        text: out,
        deleted,
        deleted_lines,
        map,
    }
}

/// The identity on `lines` lines except the given (sorted) ones.
fn map_without(lines: u32, gone: &[u32]) -> LineMap {
    let mut segments = Vec::new();
    let mut start = 0u32;
    for &g in gone.iter().chain(std::iter::once(&lines)) {
        if g > start {
            segments.push(LineSegment {
                start,
                len: g - start,
                origin_start: start,
            });
        }
        start = g + 1;
    }
    LineMap { segments }
}

/// A line without its `/* */` and `//` comments, trimmed: `{ /* block id: 3 */` is a brace line.
/// (Textual: a brace-only line holds no string literal that could contain `//`.)
pub fn without_comments(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let block = rest.find("/*");
        let slash = rest.find("//");
        match (block, slash) {
            (Some(b), s) if s.is_none_or(|s| b < s) => {
                out.push_str(&rest[..b]);
                match rest[b + 2..].find("*/") {
                    Some(e) => rest = &rest[b + 2 + e + 2..],
                    None => break,
                }
            }
            (_, Some(s)) => {
                out.push_str(&rest[..s]);
                break;
            }
            _ => {
                out.push_str(rest);
                break;
            }
        }
    }
    out.trim().to_string()
}

/// The kind of a line that holds no statement of its own, from its text without comments:
/// `blank`, `brace` (only `{`, `}`, `;` and, in JavaScript, `)` or `,`), or `else`.
pub fn structural_kind(line: &str, extra: &[char]) -> Option<&'static str> {
    let t = without_comments(line);
    if t.is_empty() {
        return Some(if line.trim().is_empty() {
            "blank"
        } else {
            "comment"
        });
    }
    if t.chars()
        .all(|c| matches!(c, '{' | '}' | ';') || extra.contains(&c))
    {
        return Some("brace");
    }
    if t.starts_with("} else") || t.starts_with("else") {
        return Some("else");
    }
    None
}

/// `3,7-9,12`: the deleted lines, 1-based, for the transformation record.
pub fn line_list(lines: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("{}", lines[i] + 1)
        } else {
            format!("{}-{}", lines[i] + 1, lines[j] + 1)
        });
        i = j + 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn cand(text: &str, needle: &str, line: u32) -> Deletable {
        let start = text.find(needle).unwrap();
        Deletable {
            start,
            end: start + needle.len(),
            first_line: line,
            last_line: line + needle.matches('\n').count() as u32,
            kind: "x".into(),
        }
    }

    #[test]
    fn deletion_keeps_lines_and_offsets() {
        let text = "a = 1;\nif (c) {\n  b = 'é😀';\n  d = 2;\n}\ne = 3;\n";
        let c = cand(text, "b = 'é😀';", 2);
        let v = apply(text, vec![c], Breaks::EcmaScript);
        assert_eq!(v.text.lines().count(), text.lines().count());
        let utf16 = |s: &str| s.encode_utf16().count();
        assert_eq!(utf16(&v.text), utf16(text));
        assert!(v.text.contains("\n  ;"));
        assert_eq!(v.deleted_lines, vec![2]);
        assert_eq!(v.map.to_origin(1), Some(1));
        assert_eq!(v.map.to_origin(2), None);
        assert_eq!(v.map.to_origin(3), Some(3));
        assert_eq!(v.map.to_origin(6), Some(6));
        // A multi-line deletion.
        let c = cand(text, "if (c) {\n  b = 'é😀';\n  d = 2;\n}", 1);
        let v = apply(text, vec![c], Breaks::EcmaScript);
        assert_eq!(v.deleted_lines, vec![1, 2, 3, 4]);
        assert_eq!(line_list(&v.deleted_lines), "2-5");
        assert_eq!(line_list(&[0, 2, 3, 9]), "1,3-4,10");
    }

    #[test]
    fn deletion_keeps_every_kind_of_line_break() {
        for br in ["\r", "\r\n", "\u{2028}", "\u{2029}"] {
            let text = ["a = 1;", "if (c) {", "  b = 2;", "}", "e = 3;"].join(br);
            let stmt = format!("if (c) {{{br}  b = 2;{br}}}");
            let c = cand(&text, &stmt, 1);
            let v = apply(&text, vec![c], Breaks::EcmaScript);
            assert_eq!(v.deleted_lines, vec![1, 2, 3], "{br:?}");
            let lines = |t: &str| LineIndex::js(t).len();
            assert_eq!(lines(&v.text), lines(&text), "{br:?}");
            assert_eq!(v.map.to_origin(4), Some(4));
        }
    }

    #[test]
    fn structural_lines() {
        assert_eq!(without_comments("  { /* block id: 3 */ "), "{");
        assert_eq!(without_comments("a = 1; // b"), "a = 1;");
        assert_eq!(without_comments("/* a */ x /* b */ y"), "x  y");
        assert_eq!(structural_kind("{ /* block id: 3 */", &[]), Some("brace"));
        assert_eq!(structural_kind("    } else { // no", &[]), Some("else"));
        assert_eq!(structural_kind("  /* c */", &[]), Some("comment"));
        assert_eq!(structural_kind("   ", &[]), Some("blank"));
        assert_eq!(structural_kind("});", &[')']), Some("brace"));
        assert_eq!(structural_kind("x = 1;", &[]), None);
    }

    #[test]
    fn choice_is_seeded_and_outermost() {
        let text = "{ a; { b; } c; }";
        let outer = Deletable {
            start: 5,
            end: 11,
            first_line: 0,
            last_line: 0,
            kind: "block".into(),
        };
        let inner = Deletable {
            start: 7,
            end: 9,
            first_line: 0,
            last_line: 0,
            kind: "stmt".into(),
        };
        assert_eq!(&text[5..11], "{ b; }");
        for seed in 0..20 {
            let mut r1 = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut r2 = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let a = choose(&mut r1, &[outer.clone(), inner.clone()]);
            assert_eq!(a, choose(&mut r2, &[outer.clone(), inner.clone()]));
            assert!(!a.is_empty());
            assert!(!(a.contains(&outer) && a.contains(&inner)));
        }
        let lines = vec![Some(1), Some(0), None];
        let c = |f, l| Deletable {
            start: 0,
            end: 0,
            first_line: f,
            last_line: l,
            kind: String::new(),
        };
        let u = unexecuted_by_lines(&[c(0, 0), c(1, 1), c(1, 2), c(2, 2), c(0, 1)], &lines);
        assert_eq!(u.len(), 2);
    }
}
