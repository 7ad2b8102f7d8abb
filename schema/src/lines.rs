//! Lines and columns as the engines count them. A trace's `Location` is a 0-based line and a
//! UTF-16 column; the line breaks are the language's, not just `\n`:
//! - ECMAScript (V8, SpiderMonkey; checked with each): LF, CR, CRLF (one break), U+2028, U+2029 —
//!   also inside comments, strings and templates;
//! - C (gcc/gcov, clang/llvm-cov; checked with each) and Python (CPython's tokenizer reads
//!   source with universal newlines): LF, CR, CRLF. Go's scanner ends lines at LF alone (a CR is
//!   white space to it, `go/scanner`), and gofmt writes LF: counted as C's, which agree on LF.
//!
//! Counting lines with `split('\n')` anywhere else would be a false divergence of ours on a
//! program with other line breaks.

use crate::language::Language;
use crate::trace::Location;

/// Which characters end a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    EcmaScript,
    C,
}

impl From<Language> for Breaks {
    fn from(l: Language) -> Breaks {
        match l {
            Language::C | Language::Python | Language::Go => Breaks::C,
            _ => Breaks::EcmaScript,
        }
    }
}

/// The line break starting at byte `i` of `text`, if any: its length in bytes.
fn break_at(bytes: &[u8], i: usize, breaks: Breaks) -> Option<usize> {
    match bytes[i] {
        b'\n' => Some(1),
        b'\r' if bytes.get(i + 1) == Some(&b'\n') => Some(2),
        b'\r' => Some(1),
        // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
        0xE2 if breaks == Breaks::EcmaScript
            && bytes.get(i + 1) == Some(&0x80)
            && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
        {
            Some(3)
        }
        _ => None,
    }
}

/// Byte offsets where each line starts and where its content ends (before its break).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    ends: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str, breaks: Breaks) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut ends = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match break_at(bytes, i, breaks) {
                Some(n) => {
                    ends.push(i);
                    i += n;
                    starts.push(i);
                }
                None => i += 1,
            }
        }
        ends.push(bytes.len());
        LineIndex { starts, ends }
    }

    pub fn js(text: &str) -> LineIndex {
        LineIndex::new(text, Breaks::EcmaScript)
    }

    /// Number of lines: breaks + 1 (the line after a final break is a real position, the
    /// script's end).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The 0-based line of a byte offset (offsets inside a break belong to the line it ends).
    pub fn line_of(&self, byte: usize) -> u32 {
        (self.starts.partition_point(|&s| s <= byte) - 1) as u32
    }

    /// Byte offset of the first byte of `line` (the text's length past the last line).
    pub fn start(&self, line: u32) -> usize {
        self.starts
            .get(line as usize)
            .copied()
            .unwrap_or_else(|| self.ends.last().copied().unwrap_or(0))
    }

    /// Byte offset where `line`'s content ends (its break, or the text's end).
    pub fn end(&self, line: u32) -> usize {
        self.ends
            .get(line as usize)
            .copied()
            .unwrap_or_else(|| self.ends.last().copied().unwrap_or(0))
    }

    /// The content of `line`, without its break.
    pub fn line<'a>(&self, text: &'a str, line: u32) -> &'a str {
        text.get(self.start(line)..self.end(line)).unwrap_or("")
    }

    /// Every line's content, without breaks: `split('\n')` for every kind of break.
    pub fn lines<'a>(&'a self, text: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        (0..self.len() as u32).map(move |l| self.line(text, l))
    }
}

/// Number of lines of a program as its engines count them (see [`LineIndex::len`]).
pub fn count(text: &str, breaks: Breaks) -> usize {
    LineIndex::new(text, breaks).len()
}

/// UTF-16 offsets (the debuggers' unit) of byte offsets, and locations.
#[derive(Debug, Clone)]
pub struct Positions {
    pub lines: LineIndex,
    /// UTF-16 offset of every byte offset that starts a character, and of the end.
    utf16: Vec<u32>,
}

impl Positions {
    pub fn new(text: &str, breaks: Breaks) -> Positions {
        let mut utf16 = vec![0u32; text.len() + 1];
        let mut u = 0u32;
        for (i, ch) in text.char_indices() {
            utf16[i] = u;
            u += ch.len_utf16() as u32;
        }
        utf16[text.len()] = u;
        Positions {
            lines: LineIndex::new(text, breaks),
            utf16,
        }
    }

    pub fn js(text: &str) -> Positions {
        Positions::new(text, Breaks::EcmaScript)
    }

    /// The UTF-16 offset of a byte offset (clamped to the end).
    pub fn utf16(&self, byte: usize) -> u32 {
        self.utf16[byte.min(self.utf16.len() - 1)]
    }

    /// Line and UTF-16 column of a byte offset.
    pub fn location(&self, byte: usize) -> Location {
        let line = self.lines.line_of(byte);
        Location::new(line, self.utf16(byte) - self.utf16(self.lines.start(line)))
    }

    /// The byte offset of a location, if it is inside the text and on a character boundary.
    pub fn byte_of(&self, at: Location) -> Option<usize> {
        if at.line as usize >= self.lines.len() {
            return None;
        }
        let start = self.lines.start(at.line);
        let end = self.lines.end(at.line);
        let want = self.utf16(start) + at.column;
        let off = start + self.utf16[start..=end].partition_point(|&u| u < want);
        (off <= end && self.utf16(off) == want).then_some(off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ecmascript_break_ends_a_line_and_crlf_is_one() {
        for (text, lines) in [
            ("a\nb\nc\n", vec!["a", "b", "c", ""]),
            ("a\rb\rc\r", vec!["a", "b", "c", ""]),
            ("a\r\nb\r\nc\r\n", vec!["a", "b", "c", ""]),
            ("a\u{2028}b\u{2029}c", vec!["a", "b", "c"]),
            // LF then CR is two breaks (V8 reports five lines for it).
            ("a\n\rb", vec!["a", "", "b"]),
            ("", vec![""]),
        ] {
            let idx = LineIndex::js(text);
            assert_eq!(idx.lines(text).collect::<Vec<_>>(), lines, "{text:?}");
            assert_eq!(count(text, Breaks::EcmaScript), lines.len());
        }
    }

    #[test]
    fn c_does_not_break_at_the_unicode_separators() {
        let text = "a\u{2028}b\rc";
        assert_eq!(
            LineIndex::new(text, Breaks::C)
                .lines(text)
                .collect::<Vec<_>>(),
            ["a\u{2028}b", "c"]
        );
    }

    #[test]
    fn locations_count_utf16_columns_from_the_line_start() {
        let text = "é = 1;\r\n𝒳 = 2;\u{2028}z";
        let p = Positions::js(text);
        let at = text.find('=').unwrap();
        assert_eq!(p.location(at), Location::new(0, 2));
        let second = text.rfind('=').unwrap();
        assert_eq!(
            p.location(second),
            Location::new(1, 3),
            "a surrogate pair is 2 units"
        );
        let z = text.find('z').unwrap();
        assert_eq!(p.location(z), Location::new(2, 0));
        for off in [at, second, z, 0, text.len()] {
            assert_eq!(p.byte_of(p.location(off)), Some(off));
        }
        assert_eq!(p.byte_of(Location::new(9, 0)), None);
        // Inside the surrogate pair.
        assert_eq!(p.byte_of(Location::new(1, 1)), None);
    }

    #[test]
    fn offsets_inside_a_break_belong_to_the_line_it_ends() {
        let text = "ab\r\ncd";
        let idx = LineIndex::js(text);
        assert_eq!(idx.line_of(2), 0);
        assert_eq!(idx.line_of(3), 0);
        assert_eq!(idx.line_of(4), 1);
        assert_eq!((idx.start(1), idx.end(1)), (4, 6));
        assert_eq!(idx.start(7), 6, "past the last line: the end");
    }
}
