//! Programs-to-debug, identified by the hash of their text and stored once per archive.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// SHA-256 of a program's text (UTF-8 bytes). Serialized as 32 raw bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProgramHash(pub [u8; 32]);

impl ProgramHash {
    pub fn of(text: &str) -> ProgramHash {
        ProgramHash(Sha256::digest(text.as_bytes()).into())
    }

    /// The first 12 hex digits: enough to name a program in reports.
    pub fn short(&self) -> String {
        self.to_string()[..12].to_string()
    }
}

impl fmt::Display for ProgramHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ProgramHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProgramHash({})", self.short())
    }
}

impl FromStr for ProgramHash {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() != 64 || !s.is_ascii() {
            return Err(format!("a program hash has 64 hex digits, got {s:?}"));
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)
                .map_err(|_| format!("not a hex program hash: {s:?}"))?;
        }
        Ok(ProgramHash(out))
    }
}

impl Serialize for ProgramHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(self)
        } else {
            s.serialize_bytes(&self.0)
        }
    }
}

impl<'de> Deserialize<'de> for ProgramHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = ProgramHash;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("32 bytes or 64 hex digits")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ProgramHash, E> {
                let arr: [u8; 32] = v
                    .try_into()
                    .map_err(|_| E::invalid_length(v.len(), &self))?;
                Ok(ProgramHash(arr))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ProgramHash, E> {
                v.parse().map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<ProgramHash, A::Error> {
                let mut out = [0u8; 32];
                for (i, b) in out.iter_mut().enumerate() {
                    *b = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?;
                }
                Ok(ProgramHash(out))
            }
        }
        if d.is_human_readable() {
            d.deserialize_str(V)
        } else {
            d.deserialize_bytes(V)
        }
    }
}

pub use crate::language::Language;

/// Where a program came from, so that reports can point back to the source a person knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProgramOrigin {
    /// A file, by the path given on the command line (relative to the corpus root when one was given).
    File { path: String },
    /// A test262 test assembled with its harness; `map` leads program lines back to the test file.
    Test262 {
        path: String,
        strict: bool,
        includes: Vec<String>,
    },
    /// Produced by a generator (e.g. Csmith) from a seed.
    Generated { generator: String, seed: u64 },
    /// Produced from another program by a transformation (metamorphic follow-ups, coverage variants).
    Transformed {
        parent: ProgramHash,
        transformation: String,
    },
    /// Given inline (tests, hand-built archives).
    Inline { name: String },
}

impl ProgramOrigin {
    /// A short human name: the path, or the generator and seed.
    pub fn name(&self) -> String {
        match self {
            ProgramOrigin::File { path } => path.clone(),
            ProgramOrigin::Test262 { path, strict, .. } => {
                format!("{path}{}", if *strict { " [strict]" } else { "" })
            }
            ProgramOrigin::Generated { generator, seed } => format!("{generator}:{seed}"),
            ProgramOrigin::Transformed {
                parent,
                transformation,
            } => format!("{transformation}({})", parent.short()),
            ProgramOrigin::Inline { name } => name.clone(),
        }
    }
}

/// A contiguous run of lines that map one to one: program line `start + i` is origin line `origin_start + i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineSegment {
    pub start: u32,
    pub len: u32,
    pub origin_start: u32,
}

/// A piecewise line mapping (0-based lines). Lines outside every segment have no counterpart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMap {
    pub segments: Vec<LineSegment>,
}

impl LineMap {
    pub fn identity(lines: u32) -> LineMap {
        LineMap {
            segments: vec![LineSegment {
                start: 0,
                len: lines,
                origin_start: 0,
            }],
        }
    }

    /// The origin line of a program line, if it has one.
    pub fn to_origin(&self, line: u32) -> Option<u32> {
        self.segments
            .iter()
            .find(|s| line >= s.start && line - s.start < s.len)
            .map(|s| s.origin_start + (line - s.start))
    }

    /// The program line of an origin line, if it has one.
    pub fn from_origin(&self, line: u32) -> Option<u32> {
        self.segments
            .iter()
            .find(|s| line >= s.origin_start && line - s.origin_start < s.len)
            .map(|s| s.start + (line - s.origin_start))
    }
}

/// A program-to-debug: its exact text and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    pub hash: ProgramHash,
    pub language: Language,
    pub text: String,
    pub origin: ProgramOrigin,
    /// Maps lines of `text` to lines of the origin (test262 harness assembly, transformations).
    #[serde(default)]
    pub origin_map: Option<LineMap>,
    /// Each line's kind of statement as the recorder's parser of the language names it
    /// (tree-sitter-c's `if_statement`, `declaration`; `blank`, `comment`), for a language the
    /// analyzer does not parse (C): its divergences are classified by these. `None` for the
    /// languages the analyzer parses itself, and in archives recorded before it was (read as `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_kinds: Option<Vec<String>>,
}

impl Program {
    pub fn new(language: Language, text: impl Into<String>, origin: ProgramOrigin) -> Program {
        let text = text.into();
        Program {
            hash: ProgramHash::of(&text),
            language,
            text,
            origin,
            origin_map: None,
            line_kinds: None,
        }
    }

    /// Lines as the program's engines count them (see [`crate::lines`]): a final line break
    /// starts an empty last line.
    pub fn line_count(&self) -> usize {
        crate::lines::count(&self.text, self.language.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_round_trips_through_hex() {
        let h = ProgramHash::of("var x = 1;\n");
        assert_eq!(h.to_string().parse::<ProgramHash>().unwrap(), h);
        assert!("zz".parse::<ProgramHash>().is_err());
        assert_ne!(h, ProgramHash::of("var x = 2;\n"));
    }

    #[test]
    fn line_map_maps_both_ways_and_leaves_gaps() {
        let m = LineMap {
            segments: vec![
                LineSegment {
                    start: 0,
                    len: 2,
                    origin_start: 10,
                },
                LineSegment {
                    start: 5,
                    len: 3,
                    origin_start: 0,
                },
            ],
        };
        assert_eq!(m.to_origin(1), Some(11));
        assert_eq!(m.to_origin(3), None);
        assert_eq!(m.to_origin(7), Some(2));
        assert_eq!(m.from_origin(2), Some(7));
        assert_eq!(m.from_origin(12), None);
    }
}
