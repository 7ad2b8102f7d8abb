//! Tables for people and for other tools: Markdown (default), CSV, LaTeX and JSON.

use polars::prelude::{AnyValue, DataFrame};
use std::fmt::Write as _;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Markdown,
    Csv,
    Latex,
    /// One object per table: `name`, `title`, `columns`, `rows` (arrays of strings), `note`.
    Json,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Csv => "csv",
            Format::Latex => "tex",
            Format::Json => "json",
        }
    }
}

/// The table with each cell of a `Verdict` column coloured for a terminal (ANSI): what needs
/// a look in red (`new`, `engine bug`, `mixed`), allowed behaviour in green, the rest dim.
pub fn coloured_verdicts(t: &Table) -> Table {
    let mut out = t.clone();
    let Some(v) = t
        .columns
        .iter()
        .position(|c| c.eq_ignore_ascii_case("verdict"))
    else {
        return out;
    };
    for r in &mut out.rows {
        if let Some(c) = r.get_mut(v) {
            let code = match c.as_str() {
                "new" => "1;31",
                "engine bug" | "mixed" => "31",
                "by design" | "representation" => "32",
                "harness" => "33",
                _ => "2",
            };
            *c = format!("\x1b[{code}m{c}\x1b[0m");
        }
    }
    out
}

/// A titled table of text cells; numbers are formatted by whoever builds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Short name, used as the file name when tables are written to a directory.
    pub name: String,
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Printed under the table (Markdown, LaTeX) to say how to read it.
    pub note: Option<String>,
}

impl Table {
    pub fn new(name: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            name: name.into(),
            title: title.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
            note: None,
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Table {
        self.note = Some(note.into());
        self
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// Every column of a DataFrame, cells as polars prints them (nulls empty).
    pub fn from_df(name: &str, title: &str, df: &DataFrame) -> Table {
        let mut t = Table {
            name: name.into(),
            title: title.into(),
            columns: df
                .get_column_names()
                .iter()
                .map(|c| c.to_string())
                .collect(),
            rows: Vec::new(),
            note: None,
        };
        let cols = df.columns();
        for i in 0..df.height() {
            t.rows.push(
                cols.iter()
                    .map(|c| cell(c.get(i).unwrap_or(AnyValue::Null)))
                    .collect(),
            );
        }
        t
    }

    pub fn render(&self, f: Format) -> String {
        match f {
            Format::Markdown => self.markdown(),
            Format::Csv => self.csv(),
            Format::Latex => self.latex(),
            Format::Json => format!("{}\n", self.json()),
        }
    }

    /// The table as a JSON object, cells as the strings the other formats print.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "title": self.title,
            "columns": self.columns,
            "rows": self.rows,
            "note": self.note,
        })
    }

    pub fn markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        let esc = |c: &str| c.replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(
            s,
            "| {} |",
            self.columns
                .iter()
                .map(|c| esc(c))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(
            s,
            "|{}",
            self.columns
                .iter()
                .map(|_| "---|")
                .collect::<Vec<_>>()
                .join("")
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "| {} |",
                r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")
            );
        }
        if self.rows.is_empty() {
            let _ = writeln!(s, "\n(no rows)");
        }
        if let Some(n) = &self.note {
            let _ = writeln!(s, "\n{n}");
        }
        s
    }

    /// RFC 4180: quotes where needed, header row first.
    pub fn csv(&self) -> String {
        let q = |c: &str| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.to_string()
            }
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}",
            self.columns
                .iter()
                .map(|c| q(c))
                .collect::<Vec<_>>()
                .join(",")
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{}",
                r.iter().map(|c| q(c)).collect::<Vec<_>>().join(",")
            );
        }
        s
    }

    pub fn latex(&self) -> String {
        let esc = |c: &str| {
            let mut o = String::with_capacity(c.len());
            for ch in c.chars() {
                match ch {
                    '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                        o.push('\\');
                        o.push(ch);
                    }
                    '~' => o.push_str("\\textasciitilde{}"),
                    '^' => o.push_str("\\textasciicircum{}"),
                    '\\' => o.push_str("\\textbackslash{}"),
                    _ => o.push(ch),
                }
            }
            o
        };
        let mut s = String::new();
        let _ = writeln!(s, "% {}", self.title);
        let _ = writeln!(s, "\\begin{{table}}[t]");
        let _ = writeln!(s, "\\caption{{{}}}", esc(&self.title));
        let align: String = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let numeric = !self.rows.is_empty()
                    && self.rows.iter().all(|r| {
                        r.get(i).is_some_and(|c| {
                            c.trim_end_matches('%').parse::<f64>().is_ok() || c.is_empty()
                        })
                    });
                if numeric {
                    'r'
                } else {
                    'l'
                }
            })
            .collect();
        let _ = writeln!(s, "\\begin{{tabular}}{{{align}}}");
        let _ = writeln!(s, "\\toprule");
        let _ = writeln!(
            s,
            "{} \\\\",
            self.columns
                .iter()
                .map(|c| esc(c))
                .collect::<Vec<_>>()
                .join(" & ")
        );
        let _ = writeln!(s, "\\midrule");
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{} \\\\",
                r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" & ")
            );
        }
        let _ = writeln!(s, "\\bottomrule");
        let _ = writeln!(s, "\\end{{tabular}}");
        let _ = writeln!(s, "\\end{{table}}");
        s
    }
}

/// A DataFrame cell as text: strings without quotes, nulls empty.
pub fn cell(v: AnyValue) -> String {
    match v {
        AnyValue::Null => String::new(),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::Float64(f) => format!("{f:.1}"),
        AnyValue::Float32(f) => format!("{f:.1}"),
        other => other.to_string(),
    }
}

/// `12.3%` of a part of a whole (`-` when the whole is empty).
pub fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// Text escaped for HTML, inside elements and quoted attributes alike.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> Table {
        let mut t = Table::new("x", "A & B", &["name", "n"]);
        t.push(vec!["a,b \"q\"".into(), "3".into()]);
        t.push(vec!["50%_x".into(), "4".into()]);
        t
    }

    /// Only the verdict column is coloured, each verdict by what it asks of the reader; a table
    /// without one is left as it is.
    #[test]
    fn verdicts_are_coloured_by_what_they_ask() {
        let mut v = Table::new("c", "classes", &["Size", "Verdict"]);
        for verdict in ["new", "engine bug", "by design", "not comparable"] {
            v.push(vec!["3".into(), verdict.into()]);
        }
        let c = coloured_verdicts(&v);
        let cells: Vec<&str> = c.rows.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(
            cells,
            [
                "\x1b[1;31mnew\x1b[0m",
                "\x1b[31mengine bug\x1b[0m",
                "\x1b[32mby design\x1b[0m",
                "\x1b[2mnot comparable\x1b[0m"
            ]
        );
        assert!(c.rows.iter().all(|r| r[0] == "3"));
        assert_eq!(coloured_verdicts(&t()), t());
    }

    #[test]
    fn csv_quotes_fields_that_need_it() {
        assert_eq!(t().csv(), "name,n\n\"a,b \"\"q\"\"\",3\n50%_x,4\n");
    }

    #[test]
    fn latex_escapes_and_right_aligns_numbers() {
        let l = t().latex();
        assert!(l.contains("\\begin{tabular}{lr}"), "{l}");
        assert!(l.contains("50\\%\\_x & 4 \\\\"), "{l}");
        assert!(l.contains("\\caption{A \\& B}"), "{l}");
    }

    #[test]
    fn markdown_has_header_separator_and_rows() {
        let m = t().markdown();
        assert!(
            m.starts_with("### A & B\n\n| name | n |\n|---|---|\n"),
            "{m}"
        );
        assert!(m.contains("| 50%_x | 4 |"), "{m}");
    }
}
