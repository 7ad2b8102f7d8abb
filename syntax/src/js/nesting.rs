//! How deep a program may nest, estimated by a scan that recurses nowhere: swc's parser recurses
//! once or more per bracket, prefix operator, conditional, assignment, arrow, label and nested
//! statement, so a program whose estimate passes the limit is refused before it is parsed.

/// Where the scanner is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Brace {
    /// `{` of a block or object literal.
    Code,
    /// `${` of a template substitution: its `}` goes back to template text.
    Substitution,
}

fn is_break(b: &[u8], i: usize) -> bool {
    matches!(b[i], b'\n' | b'\r')
        || (b[i] == 0xE2
            && b.get(i + 1) == Some(&0x80)
            && matches!(b.get(i + 2), Some(0xA8 | 0xA9)))
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// Words that open a nested statement or expression (they count toward the estimate). `else`
/// counts apart: an `else if` ladder nests without brackets across `;`.
const NESTING_WORDS: &[&[u8]] = &[
    b"if",
    b"while",
    b"for",
    b"do",
    b"with",
    b"typeof",
    b"void",
    b"delete",
    b"new",
    b"await",
    b"yield",
    b"return",
    b"throw",
    b"case",
    b"in",
    b"of",
    b"instanceof",
];

/// Words after which `/` starts a regular expression, not a division.
const BEFORE_EXPRESSION: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
];

/// An upper estimate of how deep a program nests: at every point, the open brackets (`(`, `[`,
/// `{`, template substitutions `${`) plus, in each of them, the operators and nesting keywords
/// (`if`, `while`, `typeof`, ...) since its last `;` or `,` — outside comments, strings, template
/// text and regular expressions. `/` is taken for a regular expression where an expression may
/// start (after an operator, an opening bracket or a keyword such as `return`); a wrong guess
/// only moves the estimate, never makes the scan fail.
pub fn estimate(text: &str) -> usize {
    scan(text, true)
}

/// The deepest nesting of brackets alone (see [`estimate`]).
pub fn bracket_depth(text: &str) -> usize {
    scan(text, false)
}

fn scan(text: &str, operators: bool) -> usize {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut braces: Vec<Brace> = Vec::new();
    // Operators since the last `;` or `,`, per open bracket (the script's level first), and
    // their sum.
    let mut ops: Vec<usize> = vec![0];
    let mut open_ops = 0usize;
    // `else` per open bracket: never reset by `;` (a ladder may be as long as the block). swc
    // also parses a ladder in quadratic time: it must be refused before parsing.
    let mut elses: Vec<usize> = vec![0];
    let mut regex_ok = true;
    // Inside template text (after a backtick or a substitution's closing brace).
    let mut in_template = false;
    while i < n {
        if in_template {
            match b[i] {
                b'\\' => i += 2,
                b'`' => {
                    in_template = false;
                    regex_ok = false;
                    i += 1;
                }
                b'$' if b.get(i + 1) == Some(&b'{') => {
                    in_template = false;
                    braces.push(Brace::Substitution);
                    depth += 1;
                    ops.push(0);
                    elses.push(0);
                    max = max.max(depth + open_ops);
                    regex_ok = true;
                    i += 2;
                }
                _ => i += 1,
            }
            continue;
        }
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < n && !is_break(b, i) {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < n && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            b'\'' | b'"' => {
                i += 1;
                while i < n && b[i] != c && !is_break(b, i) {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                regex_ok = false;
            }
            b'`' => {
                in_template = true;
                i += 1;
            }
            b'/' if regex_ok => {
                i += 1;
                let mut class = false;
                while i < n && !is_break(b, i) {
                    match b[i] {
                        b'\\' => i += 1,
                        b'[' => class = true,
                        b']' => class = false,
                        b'/' if !class => break,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
                while i < n && is_word(b[i]) {
                    i += 1;
                }
                regex_ok = false;
            }
            b'(' | b'[' | b'{' => {
                if c == b'{' {
                    braces.push(Brace::Code);
                }
                depth += 1;
                ops.push(0);
                elses.push(0);
                max = max.max(depth + open_ops);
                regex_ok = true;
                i += 1;
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                close(&mut ops, &mut open_ops);
                if elses.len() > 1 {
                    elses.pop();
                }
                regex_ok = false;
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                close(&mut ops, &mut open_ops);
                if elses.len() > 1 {
                    elses.pop();
                }
                if braces.pop() == Some(Brace::Substitution) {
                    in_template = true;
                }
                regex_ok = true;
                i += 1;
            }
            _ if is_word(c) => {
                let start = i;
                while i < n && is_word(b[i]) {
                    i += 1;
                }
                let word = &b[start..i];
                regex_ok = BEFORE_EXPRESSION.contains(&word);
                if operators && NESTING_WORDS.contains(&word) {
                    count(&mut ops, &mut open_ops);
                    max = max.max(depth + open_ops);
                }
                if operators && word == b"else" {
                    if let Some(e) = elses.last_mut() {
                        *e += 1;
                        max = max.max(depth + *e);
                    }
                }
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b';' | b',' => {
                if let Some(top) = ops.last_mut() {
                    open_ops -= *top;
                    *top = 0;
                }
                regex_ok = true;
                i += 1;
            }
            b'.' => {
                regex_ok = true;
                i += 1;
            }
            _ => {
                // `==`, `<=`, `=>`, `+=`: an `=` after another operator is one operator with it.
                let joined = c == b'=' && i > 0 && b[i - 1].is_ascii_punctuation();
                if operators && !joined {
                    count(&mut ops, &mut open_ops);
                    max = max.max(depth + open_ops);
                }
                regex_ok = true;
                i += 1;
            }
        }
    }
    max
}

fn count(ops: &mut [usize], open_ops: &mut usize) {
    if let Some(top) = ops.last_mut() {
        *top += 1;
        *open_ops += 1;
    }
}

fn close(ops: &mut Vec<usize>, open_ops: &mut usize) {
    // Never below the script's level: stray closing brackets are the parser's to report.
    if ops.len() > 1 {
        if let Some(top) = ops.pop() {
            *open_ops -= top;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bracket_depth, estimate};

    #[test]
    fn brackets_count_in_code_only() {
        assert_eq!(bracket_depth("f(a[{b: (1)}]);"), 4);
        assert_eq!(
            bracket_depth("var s = '((((' + \"[[[\"; // {{{{\n/* ((( */ x;"),
            0
        );
        assert_eq!(bracket_depth("x = /[(]{2}\\//g.test(y);"), 1);
        assert_eq!(bracket_depth("x = a / (b / c);"), 1);
        assert_eq!(bracket_depth("t = `((${ f(`${ [1] }`) }))`;"), 4);
        assert_eq!(bracket_depth("if (a) { return /}}/; }"), 1);
    }

    #[test]
    fn closing_brackets_in_text_do_not_hide_depth() {
        let deep = format!("{}0{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(bracket_depth(&deep), 5000);
        let hidden = format!("{}'))]]'{}", "(".repeat(3000), ")".repeat(3000));
        assert_eq!(bracket_depth(&hidden), 3000);
    }

    #[test]
    fn operators_and_nesting_keywords_count_until_the_next_separator() {
        assert_eq!(estimate("a = b + c;"), 2);
        assert_eq!(estimate("a === b;"), 1);
        assert_eq!(estimate("a; b; c; d;"), 0);
        assert_eq!(estimate("f(a + b, c);"), 2, "the bracket and one operator");
        assert_eq!(estimate(&"- ".repeat(500)), 500);
        assert_eq!(estimate(&"while (1) ".repeat(300)), 300 + 1);
        assert_eq!(estimate(&format!("{}1", "a => ".repeat(100))), 200);
        assert_eq!(estimate("x = 1;\n".repeat(10_000).as_str()), 1);
        assert_eq!(estimate(&"if (a) x; else if (b) y; ".repeat(100)), 100);
        // The brace, `if` and its parenthesis: the `else` of separate blocks do not add up.
        assert_eq!(estimate(&"{ if (a) x; else y; }".repeat(100)), 3);
    }

    #[test]
    fn any_bytes_are_scanned_without_panicking() {
        for text in [
            "",
            "/",
            "'",
            "`",
            "`${",
            "}",
            "/*",
            "\\",
            "/[",
            "€/€",
            "\u{2028}'x",
            ")}]",
        ] {
            let _ = estimate(text);
        }
    }
}
