//! Lexical declarations of a program, to tell a binding in its temporal dead zone from one that
//! holds `undefined` where the engine does not say (Node 20 reports both as `undefined`, and
//! evaluating the name on the frame also yields `undefined`; Chromium omits the value).
//!
//! From the program's syntax tree: each name a `let`/`const` pattern or a `class` binds, with
//! the position where its declarator ends. A program that does not parse gets a light scanner
//! instead (comments, strings and template literals skipped; simple names only, each with the
//! `;` or line end after it). Used for a frame's own scopes and the script's, where code runs in
//! text order.

use super::ast;
use super::visit::{Visit, VisitWith};
use morphtrace_schema::Location;
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declaration {
    pub at: Location,
    pub end: Location,
}

#[derive(Debug, Default)]
pub struct Declarations {
    by_name: HashMap<String, Vec<Declaration>>,
    /// Names that some binding of the program holds fixed: `const`, a class's name, a named
    /// function expression's own name (an assignment throws or does nothing; a debugger's
    /// set may still change them).
    constants: HashSet<String>,
    /// Where each class static block ends (just after its `}`): JavaScriptCore shows a frame of
    /// its own there below the block's (see `jsc::session::wrapper_frame`).
    static_block_ends: HashSet<Location>,
}

/// Collects `let`/`const`/`class` declarations from the syntax tree: every name a pattern binds
/// (destructuring included), each initialized when its declarator (or class) ends.
struct Collect<'a> {
    parsed: &'a super::Parsed<'a>,
    out: Declarations,
}

/// Binding names of a pattern (not those inside its default values).
struct Names(Vec<String>);
impl Visit for Names {
    fn visit_binding_ident(&mut self, b: &ast::BindingIdent) {
        self.0.push(b.id.sym.to_string());
    }
    fn visit_expr(&mut self, _: &ast::Expr) {}
}

impl Collect<'_> {
    fn add(&mut self, name: String, at: usize, end: usize) {
        let p = &self.parsed.positions;
        self.out.by_name.entry(name).or_default().push(Declaration {
            at: p.location(at),
            end: p.location(end),
        });
    }
}

impl Visit for Collect<'_> {
    fn visit_var_decl(&mut self, d: &ast::VarDecl) {
        if d.kind != ast::VarDeclKind::Var {
            let at = self.parsed.offset(d.span.lo);
            for x in &d.decls {
                let mut names = Names(Vec::new());
                x.name.visit_with(&mut names);
                let end = self.parsed.offset(x.span.hi);
                for n in names.0 {
                    if d.kind == ast::VarDeclKind::Const {
                        self.out.constants.insert(n.clone());
                    }
                    self.add(n, at, end);
                }
            }
        }
        d.visit_children_with(self);
    }
    fn visit_class_decl(&mut self, c: &ast::ClassDecl) {
        let (at, end) = self.parsed.range(c.class.span);
        self.out.constants.insert(c.ident.sym.to_string());
        self.add(c.ident.sym.to_string(), at, end);
        c.visit_children_with(self);
    }
    fn visit_class_expr(&mut self, c: &ast::ClassExpr) {
        if let Some(i) = &c.ident {
            self.out.constants.insert(i.sym.to_string());
        }
        c.visit_children_with(self);
    }
    fn visit_static_block(&mut self, b: &ast::StaticBlock) {
        let (_, end) = self.parsed.range(b.span);
        self.out
            .static_block_ends
            .insert(self.parsed.positions.location(end));
        b.visit_children_with(self);
    }
    fn visit_fn_expr(&mut self, f: &ast::FnExpr) {
        if let Some(i) = &f.ident {
            self.out.constants.insert(i.sym.to_string());
        }
        f.visit_children_with(self);
    }
}

impl Declarations {
    /// The program's declarations from its syntax tree; from the light scanner when it does not
    /// parse (or is beyond the parser's limits).
    pub fn scan(text: &str) -> Declarations {
        super::parse(text, super::Goal::Script, |parsed| {
            let mut c = Collect {
                parsed,
                out: Declarations::default(),
            };
            parsed.program.visit_with(&mut c);
            c.out
        })
        .unwrap_or_else(|_| Declarations::lexical(text))
    }

    /// The light scanner's declarations: simple `let`/`const`/`class` names only.
    pub fn lexical(text: &str) -> Declarations {
        let chars: Vec<char> = text.chars().collect();
        // 0-based line and UTF-16 column of every char index (every ECMAScript line break).
        let is_break = |c: char| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
        let mut pos = Vec::with_capacity(chars.len() + 1);
        let (mut line, mut col) = (0u32, 0u32);
        for (k, c) in chars.iter().enumerate() {
            pos.push(Location::new(line, col));
            // CRLF is one break: the CR's position is still on the line it ends.
            if is_break(*c) && !(*c == '\r' && chars.get(k + 1) == Some(&'\n')) {
                line += 1;
                col = 0;
            } else {
                col += c.len_utf16() as u32;
            }
        }
        pos.push(Location::new(line, col));
        let mut d = Declarations::default();
        let mut prev_words: Vec<String> = Vec::new();
        let mut i = 0;
        let n = chars.len();
        let is_id = |c: char| c == '_' || c == '$' || c.is_alphanumeric();
        while i < n {
            let c = chars[i];
            if c == '/' && i + 1 < n && chars[i + 1] == '/' {
                while i < n && !is_break(chars[i]) {
                    i += 1;
                }
            } else if c == '/' && i + 1 < n && chars[i + 1] == '*' {
                i += 2;
                while i + 1 < n && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            } else if c == '"' || c == '\'' || c == '`' {
                i += 1;
                while i < n && chars[i] != c {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
                prev_words.clear();
            } else if is_id(c) && !c.is_ascii_digit() {
                let start = i;
                while i < n && is_id(chars[i]) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if matches!(
                    prev_words.last().map(String::as_str),
                    Some("let" | "const" | "class")
                ) {
                    let in_for =
                        prev_words.len() >= 2 && prev_words[prev_words.len() - 2] == "for(";
                    let mut j = i;
                    let mut depth = 0i32;
                    while j < n {
                        match chars[j] {
                            '(' | '[' | '{' => depth += 1,
                            ')' | ']' | '}' => depth -= 1,
                            ';' if depth <= 0 => break,
                            c if is_break(c) && depth <= 0 && !in_for => break,
                            _ => {}
                        }
                        if depth < 0 {
                            break;
                        }
                        j += 1;
                    }
                    d.by_name
                        .entry(word.clone())
                        .or_default()
                        .push(Declaration {
                            at: pos[start],
                            end: pos[j.min(n)],
                        });
                }
                if word == "for" {
                    prev_words.push("for".into());
                } else {
                    prev_words.push(word);
                }
            } else if c == '(' && prev_words.last().map(String::as_str) == Some("for") {
                prev_words.pop();
                prev_words.push("for(".into());
                i += 1;
            } else {
                if !c.is_whitespace() {
                    prev_words.clear();
                }
                i += 1;
            }
            if prev_words.len() > 4 {
                prev_words.remove(0);
            }
        }
        d
    }

    /// Whether the program declares `name` with `let`, `const` or `class` anywhere.
    /// Whether some binding named `name` is fixed (see `constants`): the parsed program's
    /// only; the light scanner knows none.
    /// Whether `at` is just after the closing brace of a class static block.
    pub fn ends_static_block(&self, at: Location) -> bool {
        self.static_block_ends.contains(&at)
    }

    pub fn fixed(&self, name: &str) -> bool {
        self.constants.contains(name)
    }

    pub fn declares(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Whether a declaration of `name` initializes it between `a` and `b` (either order): two
    /// pauses on either side of it may rightly show the binding apart.
    pub fn initialized_between(&self, name: &str, a: Location, b: Location) -> bool {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        self.by_name
            .get(name)
            .is_some_and(|ds| ds.iter().any(|d| lo < d.end && d.end <= hi))
    }

    /// Whether `name`, declared lexically between `from` and `to`, has not been initialized yet
    /// when paused at `at` (which lies in the same scope's code).
    pub fn in_tdz(&self, name: &str, at: Location, from: Location, to: Location) -> bool {
        self.by_name.get(name).is_some_and(|ds| {
            ds.iter()
                .any(|d| d.at >= from && d.at <= to && at >= from && at < d.end)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_declarations_and_their_ends() {
        let d = Declarations::scan(
            "// let fake = 1\nfunction f(n) {\n  let total = 0;\n  for (let i = 0; i < n; i++) {}\n  const s = \"let no\";\n}\n",
        );
        let all = Location::new(0, 0);
        let end = Location::new(99, 0);
        assert!(!d.in_tdz("fake", Location::new(0, 3), all, end));
        // Paused at the initializer of `let total = 0;`: not yet initialized.
        assert!(d.in_tdz("total", Location::new(2, 14), all, end));
        assert!(!d.in_tdz("total", Location::new(3, 2), all, end));
        // The loop variable is initialized once the first `;` of the head is passed.
        assert!(d.in_tdz("i", Location::new(3, 15), all, end));
        assert!(!d.in_tdz("i", Location::new(3, 20), all, end));
        assert!(d.in_tdz("s", Location::new(2, 2), all, end));
        assert!(!d.in_tdz("no", Location::new(2, 2), all, end));
        // The light scanner, for a program that does not parse, agrees on simple names.
        let l = Declarations::lexical(
            "// let fake = 1\nfunction f(n) {\n  let total = 0;\n  for (let i = 0; i < n; i++) {}\n  const s = \"let no\";\n}\n",
        );
        assert!(l.in_tdz("total", Location::new(2, 14), all, end));
        assert!(!l.in_tdz("fake", Location::new(0, 3), all, end));
    }

    #[test]
    fn static_blocks_end_just_after_their_brace() {
        // gen:100's class: JavaScriptCore's extra frame of the block stood at 10:4 (1-based).
        let d = Declarations::scan(
            "class C1 {\n  static made = 0;\n  static {\n    this.made = 1;\n  }\n  m() {\n  }\n}\n",
        );
        assert!(d.ends_static_block(Location::new(4, 3)));
        assert!(!d.ends_static_block(Location::new(4, 2)));
        assert!(!d.ends_static_block(Location::new(6, 3)));
    }

    #[test]
    fn destructuring_binds_every_name_but_not_its_defaults() {
        // A generated program's shape (gen:105): a Node 20 warning of evaluate-a-local.
        let d = Declarations::scan(
            "f();\nconst { x: a, y: b = dflt } = o;\nlet [c, ...rest] = arr;\nclass K {}\n",
        );
        let all = Location::new(0, 0);
        let end = Location::new(99, 0);
        for name in ["a", "b", "c", "rest", "K"] {
            assert!(d.in_tdz(name, Location::new(0, 0), all, end), "{name}");
        }
        assert!(!d.in_tdz("x", Location::new(0, 0), all, end));
        assert!(!d.in_tdz("dflt", Location::new(0, 0), all, end));
        assert!(!d.in_tdz("b", Location::new(2, 0), all, end));
        assert!(!d.in_tdz("K", Location::new(4, 0), all, end));
    }
}
