//! GDB/MI output records (the GDB manual, "GDB/MI Output Syntax"), read into JSON: a tuple is
//! an object, a list a JSON array (a list of `name=value` results keeps the values in order,
//! as `stack=[frame={…},frame={…}]` means), a constant a string.

use serde_json::{Map, Value as Json};

/// One line of gdb's output.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// `TOKEN^done,…`, `^running`, `^error,msg="…"`, …: the answer to command `token`.
    Result {
        token: Option<u64>,
        class: String,
        body: Json,
    },
    /// `*stopped,…`, `*running`, `=breakpoint-modified,…`: gdb's own news.
    Async { class: String, body: Json },
    /// `~"…"` (gdb's console), `@"…"` (the program's output), `&"…"` (gdb's log).
    Stream { kind: char, text: String },
    /// `(gdb)`: the end of a batch of output.
    Prompt,
}

/// A line of gdb's output, `None` where it is not MI (nothing gdb writes in MI mode, but a
/// program sharing gdb's terminal could).
pub fn record(line: &str) -> Option<Record> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim_end() == "(gdb)" {
        return Some(Record::Prompt);
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let token = line[..digits].parse::<u64>().ok();
    let rest = &line[digits..];
    let mut chars = rest.chars();
    let kind = chars.next()?;
    let rest = chars.as_str();
    match kind {
        '~' | '@' | '&' => {
            let mut p = Parser {
                s: rest.as_bytes(),
                i: 0,
            };
            Some(Record::Stream {
                kind,
                text: p.cstring()?,
            })
        }
        '^' | '*' | '+' | '=' => {
            let (class, results) = rest.split_once(',').unwrap_or((rest, ""));
            let mut p = Parser {
                s: results.as_bytes(),
                i: 0,
            };
            let body = Json::Object(p.results(None)?);
            let class = class.to_string();
            Some(if kind == '^' {
                Record::Result { token, class, body }
            } else {
                Record::Async { class, body }
            })
        }
        _ => None,
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// `name=value` pairs separated by commas, up to `end` (or the input's end).
    fn results(&mut self, end: Option<u8>) -> Option<Map<String, Json>> {
        let mut out = Map::new();
        while self.peek().is_some() && self.peek() != end {
            // gdb writes some tuples with bare values (a dprintf's `script={"printf …"}`):
            // kept under their position.
            let (name, value) = if matches!(self.peek()?, b'"' | b'{' | b'[') {
                (out.len().to_string(), self.value()?)
            } else {
                self.result()?
            };
            out.insert(name, value);
            if self.peek() == Some(b',') {
                self.i += 1;
            }
        }
        Some(out)
    }

    fn result(&mut self) -> Option<(String, Json)> {
        let start = self.i;
        while self.peek().is_some_and(|c| c != b'=') {
            self.i += 1;
        }
        let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        self.eat(b'=')?;
        Some((name, self.value()?))
    }

    fn value(&mut self) -> Option<Json> {
        match self.peek()? {
            b'"' => self.cstring().map(Json::String),
            b'{' => {
                self.i += 1;
                let m = self.results(Some(b'}'))?;
                self.eat(b'}')?;
                Some(Json::Object(m))
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                while self.peek()? != b']' {
                    // A list holds values or `name=value` results; a result's name is dropped.
                    let item = if matches!(self.peek()?, b'"' | b'{' | b'[') {
                        self.value()?
                    } else {
                        self.result()?.1
                    };
                    items.push(item);
                    if self.peek() == Some(b',') {
                        self.i += 1;
                    }
                }
                self.i += 1;
                Some(Json::Array(items))
            }
            _ => None,
        }
    }

    /// A C string: `\n`, `\t`, `\"`, `\\` and octal escapes (`\303`: gdb writes bytes past
    /// ASCII so), read as UTF-8.
    fn cstring(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut bytes = Vec::new();
        loop {
            let c = self.peek()?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    bytes.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'a' => 7,
                        b'b' => 8,
                        b'f' => 12,
                        b'v' => 11,
                        b'e' => 27,
                        b'0'..=b'7' => {
                            let mut n = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        n = n * 8 + u32::from(d - b'0');
                                        self.i += 1;
                                    }
                                    _ => break,
                                }
                            }
                            n as u8
                        }
                        other => other,
                    });
                }
                c => bytes.push(c),
            }
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_async_records_and_streams_read_as_json() {
        assert_eq!(
            record(r#"12^done,name="var1",numchild="0",value="0",type="int""#),
            Some(Record::Result {
                token: Some(12),
                class: "done".into(),
                body: json!({"name": "var1", "numchild": "0", "value": "0", "type": "int"}),
            })
        );
        assert_eq!(
            record(r#"^error,msg="No symbol \"nosuch\" in current context.""#),
            Some(Record::Result {
                token: None,
                class: "error".into(),
                body: json!({"msg": "No symbol \"nosuch\" in current context."}),
            })
        );
        let Some(Record::Result { body, .. }) = record(
            r#"10^done,stack=[frame={level="0",func="fib",line="11"},frame={level="1",func="main",line="18"}]"#,
        ) else {
            panic!("a result");
        };
        assert_eq!(
            body,
            json!({"stack": [{"level": "0", "func": "fib", "line": "11"}, {"level": "1", "func": "main", "line": "18"}]})
        );
        let Some(Record::Async { class, body }) = record(
            r#"*stopped,reason="breakpoint-hit",bkptno="3",frame={func="fib",args=[{name="n",value="3"}],line="11"},thread-id="1""#,
        ) else {
            panic!("an async record");
        };
        assert_eq!(class, "stopped");
        assert_eq!(body["frame"]["args"][0]["value"], json!("3"));
        assert_eq!(
            record("*running,thread-id=\"all\""),
            Some(Record::Async {
                class: "running".into(),
                body: json!({"thread-id": "all"}),
            })
        );
        assert_eq!(
            record(r#"~"LOG \"x\"\t\303\251\n""#),
            Some(Record::Stream {
                kind: '~',
                text: "LOG \"x\"\té\n".into(),
            })
        );
        // A dprintf's script: a tuple of bare values, as gdb 13 writes it.
        let Some(Record::Result { body, .. }) = record(
            r#"4^done,bkpt={number="3",type="dprintf",line="18",script={"printf \"m %s\\n\",$_as_string(t)"},original-location="-source p.c -line 18"}"#,
        ) else {
            panic!("a dprintf's answer");
        };
        assert_eq!(body["bkpt"]["line"], json!("18"));
        assert_eq!(
            body["bkpt"]["script"]["0"],
            json!("printf \"m %s\\n\",$_as_string(t)")
        );
        assert_eq!(record("(gdb) "), Some(Record::Prompt));
        assert_eq!(
            record("^done"),
            Some(Record::Result {
                token: None,
                class: "done".into(),
                body: json!({})
            })
        );
        assert_eq!(record("hello from a program"), None);
        // Cut short: nothing, not a panic.
        assert_eq!(record(r#"5^done,bkpt={number="1""#), None);
    }
}
