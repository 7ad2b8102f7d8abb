//! JavaScript on swc: parsing that is safe on any input, the tokens of each line, positions as
//! the engines count them, and the analyses built on them (one module each).
//!
//! Programs-to-debug are untrusted. swc's parser, its visitors and the drop of its trees recurse
//! once or more per level of nesting, and a stack overflow aborts the whole process — the
//! campaign, not just one session. So every parse here
//! 1. refuses texts larger than [`Limits::bytes`] and texts whose nesting (brackets, operators,
//!    nested statements: [`nesting::estimate`], a scan that does not recurse) passes
//!    [`Limits::nesting`], before parsing;
//! 2. parses, walks and drops the tree on a thread of its own with a large stack
//!    ([`STACK_BYTES`], reserved, not committed), so that what passes (1) fits with room to spare;
//! 3. refuses trees nested deeper than [`Limits::tree`] (operator chains, `else if` ladders: deep
//!    trees without brackets), so that the caller's own visitors stay in bounds;
//! 4. turns a panic of the parser into a refusal.

pub mod calls;
pub mod catches;
pub mod classes;
pub mod exits;
pub mod loops;
pub mod names;
pub mod nesting;
pub mod order;
pub mod pure;
pub mod reads;
pub mod sites;
pub mod statements;
pub mod switches;
pub mod tdz;
pub mod truth;

use morphtrace_schema::lines::Positions;
use swc_common::comments::SingleThreadedComments;
use swc_common::sync::Lrc;
pub use swc_common::{BytePos, Span, Spanned};
use swc_common::{FileName, SourceMap};
pub use swc_ecma_ast as ast;
use swc_ecma_parser::{parse_file_as_program, parse_file_as_script, EsSyntax, Syntax};
pub use swc_ecma_visit as visit;
use swc_ecma_visit::{Visit, VisitWith};

/// Stack of the thread that parses: reserved address space, touched only as deep as a program
/// goes (a program at the limits uses a few MB in a debug build).
pub const STACK_BYTES: usize = 1 << 30;

/// What a program may be for morphtrace to analyze it (the engines may accept more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub bytes: usize,
    /// [`nesting::estimate`] of the text.
    pub nesting: usize,
    /// Nesting of statements, expressions and patterns in the tree.
    pub tree: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            bytes: 16 << 20,
            nesting: 2500,
            tree: 2500,
        }
    }
}

/// Why a program was not analyzed. A syntax error is a fact about the program; the others are
/// limits of morphtrace (the program is *rejected*, the campaign goes on).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0}")]
    Syntax(String),
    #[error("too large to analyze: {bytes} bytes (the limit is {limit})")]
    TooLarge { bytes: usize, limit: usize },
    #[error("too deep to analyze: nested about {depth} deep (the limit is {limit})")]
    TooDeep { depth: usize, limit: usize },
    #[error("too deep to analyze: syntax tree nested more than {limit} deep")]
    TreeTooDeep { limit: usize },
    #[error("the syntax analysis failed: {0}")]
    Failed(String),
}

impl Refusal {
    /// A limit of ours, not a property of the program: the program must be rejected.
    pub fn is_limit(&self) -> bool {
        !matches!(self, Refusal::Syntax(_))
    }
}

/// How the text is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// A classic script (what the engines load: Node's CommonJS wrapper, a `<script>`).
    Script,
    /// A script or, if it has `import`/`export`, a module.
    Program,
}

/// Spans of a program's code, each with the names a construct around it declares but has not
/// yet made usable there (a loop head's iterable, a `switch`'s discriminant).
#[derive(Debug, Default)]
pub(crate) struct NamedSpans(
    Vec<(
        morphtrace_schema::Location,
        morphtrace_schema::Location,
        Vec<String>,
    )>,
);

impl NamedSpans {
    /// `span` of `parsed` (its end exclusive), with `names`.
    pub(crate) fn push(&mut self, parsed: &Parsed<'_>, span: Span, names: Vec<String>) {
        let (lo, hi) = parsed.range(span);
        self.0.push((
            parsed.positions.location(lo),
            parsed.positions.location(hi),
            names,
        ));
    }

    /// Whether `at` is in a span whose names include `name`.
    pub(crate) fn names_at(&self, name: &str, at: morphtrace_schema::Location) -> bool {
        self.0
            .iter()
            .any(|(from, to, names)| *from <= at && at < *to && names.iter().any(|n| n == name))
    }
}

/// A parsed program, valid inside the closure given to [`parse`].
pub struct Parsed<'a> {
    pub text: &'a str,
    pub program: ast::Program,
    pub comments: SingleThreadedComments,
    /// swc's position of the text's first byte.
    pub base: u32,
    pub positions: Positions,
}

impl Parsed<'_> {
    /// The script (always there for [`Goal::Script`]).
    pub fn script(&self) -> Option<&ast::Script> {
        match &self.program {
            ast::Program::Script(s) => Some(s),
            ast::Program::Module(_) => None,
        }
    }

    /// Byte offset in the text of a swc position.
    pub fn offset(&self, pos: BytePos) -> usize {
        (pos.0.saturating_sub(self.base) as usize).min(self.text.len())
    }

    /// Byte range of a span.
    pub fn range(&self, span: Span) -> (usize, usize) {
        (self.offset(span.lo), self.offset(span.hi))
    }

    /// For every byte: whether it belongs to a token (not whitespace, a line break or a comment).
    pub fn token_bytes(&self) -> Vec<bool> {
        let mut is_token = vec![false; self.text.len()];
        for (i, c) in self.text.char_indices() {
            if !is_js_space(c) {
                is_token[i..i + c.len_utf8()].fill(true);
            }
        }
        let (leading, trailing) = self.comments.borrow_all();
        for map in [&*leading, &*trailing] {
            for list in map.values() {
                for c in list {
                    let (lo, hi) = self.range(c.span);
                    is_token[lo.min(hi)..hi].fill(false);
                }
            }
        }
        is_token
    }

    /// The first and last token byte of every line (`None` for blank and comment-only lines).
    pub fn line_tokens(&self) -> Vec<Option<(usize, usize)>> {
        let is_token = self.token_bytes();
        let lines = &self.positions.lines;
        (0..lines.len() as u32)
            .map(|l| {
                let (s, e) = (lines.start(l), lines.end(l));
                let first = (s..e).find(|&k| is_token[k])?;
                let last = (s..e).rev().find(|&k| is_token[k])?;
                Some((first, last))
            })
            .collect()
    }
}

/// ECMAScript white space (line breaks are handled by the line index).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\x0B'
            | '\x0C'
            | '\r'
            | ' '
            | '\u{A0}'
            | '\u{FEFF}'
            | '\u{2028}'
            | '\u{2029}'
    ) || (c.is_whitespace() && c != '\u{85}')
}

/// Runs `f` on a thread with a [`STACK_BYTES`] stack; a panic becomes [`Refusal::Failed`].
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, Refusal> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("js-syntax".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .map_err(|e| Refusal::Failed(format!("could not start the parsing thread: {e}")))?;
        handle.join().map_err(|p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Refusal::Failed(msg)
        })
    })
}

/// Parses `text` within the default [`Limits`] and runs `f` on the result, all on a thread with
/// a large stack (the tree is dropped there too).
pub fn parse<T: Send>(
    text: &str,
    goal: Goal,
    f: impl FnOnce(&Parsed) -> T + Send,
) -> Result<T, Refusal> {
    parse_within(text, goal, Limits::default(), f)
}

pub fn parse_within<T: Send>(
    text: &str,
    goal: Goal,
    limits: Limits,
    f: impl FnOnce(&Parsed) -> T + Send,
) -> Result<T, Refusal> {
    if text.len() > limits.bytes {
        return Err(Refusal::TooLarge {
            bytes: text.len(),
            limit: limits.bytes,
        });
    }
    let depth = nesting::estimate(text);
    if depth > limits.nesting {
        return Err(Refusal::TooDeep {
            depth,
            limit: limits.nesting,
        });
    }
    on_large_stack(move || {
        let parsed = parse_here(text, goal)?;
        let mut d = Depth {
            now: 0,
            limit: limits.tree,
            exceeded: false,
        };
        parsed.program.visit_with(&mut d);
        if d.exceeded {
            return Err(Refusal::TreeTooDeep { limit: limits.tree });
        }
        Ok(f(&parsed))
    })?
}

fn parse_here(text: &str, goal: Goal) -> Result<Parsed<'_>, Refusal> {
    let cm: Lrc<SourceMap> = Default::default();
    let fm = cm.new_source_file(Lrc::new(FileName::Anon), text.to_string());
    let comments = SingleThreadedComments::default();
    let mut errors = Vec::new();
    let syntax = Syntax::Es(EsSyntax::default());
    let version = ast::EsVersion::latest();
    let program = match goal {
        Goal::Script => parse_file_as_script(&fm, syntax, version, Some(&comments), &mut errors)
            .map(ast::Program::Script),
        Goal::Program => parse_file_as_program(&fm, syntax, version, Some(&comments), &mut errors),
    }
    .map_err(|e| Refusal::Syntax(e.kind().msg().to_string()))?;
    if let Some(e) = errors.first() {
        return Err(Refusal::Syntax(e.kind().msg().to_string()));
    }
    Ok(Parsed {
        text,
        program,
        comments,
        base: fm.start_pos.0,
        positions: Positions::js(text),
    })
}

/// Nesting of statements, expressions and patterns: every cycle of the grammar passes through
/// one of them. Stops descending past the limit, so that it stays in bounds itself.
struct Depth {
    now: usize,
    limit: usize,
    exceeded: bool,
}

impl Depth {
    fn enter(&mut self, f: impl FnOnce(&mut Self)) {
        if self.now >= self.limit {
            self.exceeded = true;
            return;
        }
        self.now += 1;
        f(self);
        self.now -= 1;
    }
}

impl Visit for Depth {
    fn visit_expr(&mut self, n: &ast::Expr) {
        self.enter(|s| n.visit_children_with(s));
    }
    fn visit_stmt(&mut self, n: &ast::Stmt) {
        self.enter(|s| n.visit_children_with(s));
    }
    fn visit_pat(&mut self, n: &ast::Pat) {
        self.enter(|s| n.visit_children_with(s));
    }
}

/// The ESTree name of a statement (`IfStatement`, `VariableDeclaration`): what readers of the
/// papers know, in coverage reports and AST nodes alike.
pub fn statement_kind(s: &ast::Stmt) -> &'static str {
    use ast::Stmt::*;
    match s {
        Block(_) => "BlockStatement",
        Empty(_) => "EmptyStatement",
        Debugger(_) => "DebuggerStatement",
        With(_) => "WithStatement",
        Return(_) => "ReturnStatement",
        Labeled(_) => "LabeledStatement",
        Break(_) => "BreakStatement",
        Continue(_) => "ContinueStatement",
        If(_) => "IfStatement",
        Switch(_) => "SwitchStatement",
        Throw(_) => "ThrowStatement",
        Try(_) => "TryStatement",
        While(_) => "WhileStatement",
        DoWhile(_) => "DoWhileStatement",
        For(_) => "ForStatement",
        ForIn(_) => "ForInStatement",
        ForOf(_) => "ForOfStatement",
        Decl(ast::Decl::Fn(_)) => "FunctionDeclaration",
        Decl(ast::Decl::Class(_)) => "ClassDeclaration",
        Decl(_) => "VariableDeclaration",
        Expr(_) => "ExpressionStatement",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script_len(text: &str) -> Result<usize, Refusal> {
        parse(text, Goal::Script, |p| {
            p.script().map(|s| s.body.len()).unwrap_or(0)
        })
    }

    #[test]
    fn syntax_errors_are_the_programs_and_limits_are_ours() {
        let e = script_len("var = ;").unwrap_err();
        assert!(matches!(e, Refusal::Syntax(_)) && !e.is_limit(), "{e}");
        assert_eq!(script_len("a; b;\nc;"), Ok(3));
        let tiny = Limits {
            bytes: 4,
            ..Limits::default()
        };
        let e = parse_within("a; b;", Goal::Script, tiny, |_| ()).unwrap_err();
        assert!(e.is_limit() && e.to_string().contains("too large"), "{e}");
    }

    /// Every kind of nesting, 100,000 deep (far past what swc's recursion survives on a normal
    /// stack): refused with the reason, never a crash.
    #[test]
    fn deep_programs_are_refused_not_fatal() {
        let n = 100_000;
        let cases = [
            format!("x = {}1{};", "[".repeat(n), "]".repeat(n)),
            format!("x = {}1{};", "(".repeat(n), ")".repeat(n)),
            format!("{}{}", "{".repeat(n), "}".repeat(n)),
            format!("x = {}1{};", "{a:".repeat(n), "}".repeat(n)),
            format!("x = {}1{};", "`${".repeat(n), "}`".repeat(n)),
            format!("x = 1{};", " + 1".repeat(n)),
            format!("x = {}1;", "- ".repeat(n)),
            format!("x = {}1;", "!".repeat(n)),
            format!("x = {}1;", "typeof ".repeat(n)),
            format!("x = {}1;", "a => ".repeat(n)),
            format!("{}x;", "a: ".repeat(n)),
            format!("{}x;", "while (1) ".repeat(n)),
            format!("x = a{};", ".b".repeat(n)),
            format!("x = f{};", "()".repeat(n)),
            format!("x = {}1;", "a ? b : ".repeat(n)),
            format!("x = {}1;", "y = ".repeat(n)),
            format!("{}x;", "if (a) ".repeat(n)),
            format!("if (a) x; {}", "else if (a) x; ".repeat(n)),
            format!("{}1;{}", "function f() { return ".repeat(n), "}".repeat(n)),
        ];
        for text in &cases {
            let e = script_len(text).unwrap_err();
            assert!(e.is_limit(), "{}: {e}", &text[..40]);
        }
    }

    /// What passes the limits is parsed, walked by a recursive visitor and dropped: the stack is
    /// large enough for the deepest program each limit lets through.
    #[test]
    fn programs_at_the_limits_are_analyzed() {
        let l = Limits::default();
        let b = l.nesting - 10;
        let t = l.tree - 10;
        let cases = [
            format!("x = {}1{};", "[".repeat(b), "]".repeat(b)),
            format!("x = {}1{};", "(".repeat(b), ")".repeat(b)),
            format!("{}{}", "{".repeat(b), "}".repeat(b)),
            format!("x = 1{};", " + 1".repeat(t)),
            format!("if (a) x; {}", "else if (a) x; ".repeat(t)),
            format!("x = {}1;", "- ".repeat(b)),
            format!("{}x;", "while (1) ".repeat(b)),
            format!("x = a{};", ".b".repeat(t)),
        ];
        struct Count(usize);
        impl Visit for Count {
            fn visit_expr(&mut self, n: &ast::Expr) {
                self.0 += 1;
                n.visit_children_with(self);
            }
            fn visit_stmt(&mut self, n: &ast::Stmt) {
                self.0 += 1;
                n.visit_children_with(self);
            }
        }
        for text in &cases {
            let n = parse(text, Goal::Script, |p| {
                let mut c = Count(0);
                p.program.visit_with(&mut c);
                c.0
            })
            .unwrap_or_else(|e| panic!("{}: {e}", &text[..30]));
            assert!(n > 0);
        }
    }

    #[test]
    fn every_line_break_and_comment_is_known_to_the_tokens() {
        let text = "a = 1; // c\r/* x */\u{2028}  b\u{A0}= 2;\r\n\u{FEFF}\u{2029}c";
        let lines = parse(text, Goal::Script, |p| {
            p.line_tokens()
                .iter()
                .map(|t| t.map(|(f, l)| &text[f..=l]))
                .collect::<Vec<_>>()
        })
        .unwrap();
        assert_eq!(
            lines,
            [Some("a = 1;"), None, Some("b\u{A0}= 2;"), None, Some("c")]
        );
    }

    #[test]
    fn offsets_are_bytes_of_the_text() {
        let text = "é; 'ü'; x";
        let spans = parse(text, Goal::Script, |p| {
            p.script()
                .unwrap()
                .body
                .iter()
                .map(|s| p.range(s.span()))
                .collect::<Vec<_>>()
        })
        .unwrap();
        assert_eq!(&text[spans[1].0..spans[1].1], "'ü';");
        assert_eq!(&text[spans[2].0..spans[2].1], "x");
    }
}
