//! The AST node type of a source line (DBDB §3.4): the deepest node that contains every token of
//! the line, `Program` for empty and comment-only lines. Computed offline from the program text
//! stored in the archive, with swc; node types use ESTree names (`ForStatement`,
//! `BinaryExpression`, `Property`), which is what readers of the papers know.

use crate::js::ast;
use crate::js::visit::{Visit, VisitWith};
use crate::js::Goal;
use crate::js::{Span, Spanned};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Node type of lines of a program that does not parse (syntax-error tests).
pub const UNPARSABLE: &str = "Unparsable";
/// Node type of lines of a program too large or deep for morphtrace to analyze.
pub const UNANALYZED: &str = "Unanalyzed";
pub const PROGRAM: &str = "Program";

/// The node type of every line of one program (0-based lines), and how each name is bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineNodes {
    lines: Vec<&'static str>,
    /// What every line is when the program was not classified.
    all: Option<&'static str>,
    bindings: HashMap<String, Binding>,
    /// Every function body's closing brace (JavaScript).
    braces: Vec<morphtrace_schema::Location>,
    /// Which functions ECMAScript names (JavaScript that parses).
    functions: Option<crate::js::names::FunctionNames>,
}

/// How a program binds one name: the kinds of its declarations and whether anything refers to
/// it besides them. Triage needs it: a debugger may leave out a local nothing refers to (an
/// optimization), but a `let` or a used binding missing in one debugger is a bug's shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Binding {
    /// `var`, `let`, `const`, `param`, `function`, `class`, `catch`, `import`; empty when the
    /// program never declares the name (`arguments`, a global).
    pub kinds: std::collections::BTreeSet<&'static str>,
    declarations: u32,
    occurrences: u32,
}

impl Binding {
    /// Whether some identifier other than a declaration names it (a read, a write, a call).
    pub fn referenced(&self) -> bool {
        self.occurrences > self.declarations
    }

    /// `var`, `let+var`, `unreferenced var`, `unreferenced implicit` (never declared), ...
    pub fn describe(&self) -> String {
        let kinds = if self.kinds.is_empty() {
            "implicit".to_string()
        } else {
            self.kinds.iter().copied().collect::<Vec<_>>().join("+")
        };
        if self.referenced() {
            kinds
        } else {
            format!("unreferenced {kinds}")
        }
    }
}

impl LineNodes {
    /// The node type of a 0-based line; lines past the end are empty lines (`Program`).
    pub fn of(&self, line: u32) -> &'static str {
        if let Some(all) = self.all {
            return all;
        }
        self.lines.get(line as usize).copied().unwrap_or(PROGRAM)
    }

    pub fn parsed(&self) -> bool {
        self.all.is_none()
    }

    /// Whether a 0-based line comes after every line with code (a blank or comment line after
    /// the last statement, or past the end): a breakpoint there marks no code at all. `false`
    /// when the program was not classified.
    pub fn after_the_code(&self, line: u32) -> bool {
        self.parsed()
            && self
                .lines
                .iter()
                .rposition(|n| *n != PROGRAM)
                .is_none_or(|last| line as usize > last)
    }

    /// Whether `at` stands at a function body's closing brace: exactly there or just after it
    /// (where JavaScriptCore shows a frame's exit).
    pub fn at_a_closing_brace(&self, at: morphtrace_schema::Location) -> bool {
        self.braces
            .iter()
            .any(|b| b.line == at.line && (at.column == b.column || at.column == b.column + 1))
    }

    /// Of the engines' stacks at one pause (each engine with its frames' function names and
    /// places), the engines whose stack names the frames the engines name apart as a debugger
    /// may name a function ECMAScript leaves without a name: the stacks have one depth, some
    /// frame is named apart, and at each such frame the function (at this stack's place for it)
    /// is unnamed by ECMAScript and this stack shows no name there or one inferred from the
    /// assignments around it (`names::FunctionNames::inferred`). A frame of a function the
    /// program names shown otherwise, or a name from elsewhere, is no such naming.
    pub fn named_by_inference<E: Copy>(
        &self,
        stacks: &[(E, Vec<(&str, morphtrace_schema::Location)>)],
    ) -> Vec<E> {
        let (Some(f), Some((_, first))) = (self.functions.as_ref(), stacks.first()) else {
            return Vec::new();
        };
        if stacks.iter().any(|(_, s)| s.len() != first.len()) {
            return Vec::new();
        }
        let apart: Vec<usize> = (0..first.len())
            .filter(|&i| stacks.iter().any(|(_, s)| s[i].0 != first[i].0))
            .collect();
        if apart.is_empty() {
            return Vec::new();
        }
        stacks
            .iter()
            .filter(|(_, s)| {
                apart.iter().all(|&i| {
                    let (name, at) = s[i];
                    f.anonymous_at(at) == Some(true) && (name.is_empty() || f.inferred(at, name))
                })
            })
            .map(|(e, _)| *e)
            .collect()
    }

    /// How the program binds `name` (see [`Binding::describe`]); `None` when the program was
    /// not analyzed.
    pub fn binding(&self, name: &str) -> Option<String> {
        self.parsed().then(|| {
            self.bindings
                .get(name)
                .cloned()
                .unwrap_or_default()
                .describe()
        })
    }

    /// Classifies every line of a program in its language: JavaScript by [`LineNodes::compute`];
    /// Python by tree-sitter-python's statement kinds (`if_statement`, `return_statement`, ...;
    /// blank and comment lines `Program`, as in JavaScript), with no bindings.
    /// C (with the feature `c`) by tree-sitter-c's kinds as [`crate::Statements::line_kinds`]
    /// names them, Go (with the feature `go`) by tree-sitter-go's.
    pub fn of_language(text: &str, language: morphtrace_schema::Language) -> LineNodes {
        match language {
            morphtrace_schema::Language::Python => {
                match crate::python::PythonTree::parse(text).filter(|t| !t.has_error()) {
                    Some(t) => LineNodes::of_kinds(t.line_kinds(text)),
                    None => LineNodes::unparsable(),
                }
            }
            #[cfg(feature = "c")]
            morphtrace_schema::Language::C => match crate::c::CSyntax::parse(text) {
                Some(s) => LineNodes::of_kinds(crate::Statements::line_kinds(&s).iter()),
                None => LineNodes::unparsable(),
            },
            #[cfg(feature = "go")]
            morphtrace_schema::Language::Go => match crate::go::GoSyntax::parse(text) {
                Some(s) => LineNodes::of_kinds(s.line_kinds().iter()),
                None => LineNodes::unparsable(),
            },
            _ => LineNodes::compute(text),
        }
    }

    /// Classifies a program's lines: by the kinds its archive recorded where the recorder parsed
    /// a language the analyzer does not (C, Go), else by [`LineNodes::of_language`]. A C or Go
    /// program from an archive without them is `Unparsable` on every line.
    pub fn of_program(program: &morphtrace_schema::Program) -> LineNodes {
        use morphtrace_schema::Language;
        match (&program.line_kinds, program.language) {
            (Some(kinds), Language::C | Language::Go) => LineNodes::of_kinds(kinds.iter()),
            (None, Language::C) if !cfg!(feature = "c") => LineNodes::unparsable(),
            (None, Language::Go) if !cfg!(feature = "go") => LineNodes::unparsable(),
            _ => LineNodes::of_language(&program.text, program.language),
        }
    }

    /// Lines by statement kinds, a blank or comment line `Program` as in JavaScript, with no
    /// bindings.
    fn of_kinds<K: AsRef<str>>(kinds: impl IntoIterator<Item = K>) -> LineNodes {
        LineNodes {
            lines: kinds
                .into_iter()
                .map(|k| match k.as_ref() {
                    "blank" | "comment" => PROGRAM,
                    k => intern(k),
                })
                .collect(),
            all: None,
            bindings: HashMap::new(),
            braces: Vec::new(),
            functions: None,
        }
    }

    fn unparsable() -> LineNodes {
        LineNodes {
            lines: Vec::new(),
            all: Some(UNPARSABLE),
            bindings: HashMap::new(),
            braces: Vec::new(),
            functions: None,
        }
    }

    /// Classifies every line of `text` (lines end at every ECMAScript line break).
    pub fn compute(text: &str) -> LineNodes {
        let parsed = crate::js::parse(text, Goal::Program, |p| {
            let mut tree = Tree::new(text.len() as u32);
            p.program.visit_with(&mut Collector {
                tree: &mut tree,
                stack: vec![0],
                base: p.base,
            });
            let mut names = Names::default();
            p.program.visit_with(&mut names);
            let lines = p
                .line_tokens()
                .into_iter()
                .map(|t| match t {
                    Some((f, l)) => tree.deepest(f as u32, l as u32 + 1),
                    None => PROGRAM,
                })
                .collect();
            (lines, names.0)
        });
        match parsed {
            Ok((lines, bindings)) => LineNodes {
                lines,
                all: None,
                bindings,
                braces: crate::js::exits::Exits::scan(text)
                    .map(|e| e.braces())
                    .unwrap_or_default(),
                functions: crate::js::names::FunctionNames::scan(text),
            },
            Err(e) => LineNodes {
                lines: Vec::new(),
                all: Some(if e.is_limit() { UNANALYZED } else { UNPARSABLE }),
                bindings: HashMap::new(),
                braces: Vec::new(),
                functions: None,
            },
        }
    }
}

/// A kind of statement read from an archive, kept for the rest of the process: node types are
/// `&'static str` everywhere. The kinds a parser names are few (tree-sitter-c has about 150); once
/// [`MAX_KINDS`] distinct ones are kept, another is `Unanalyzed`, so a hostile archive cannot
/// grow this without bound.
fn intern(kind: &str) -> &'static str {
    static KINDS: std::sync::LazyLock<Mutex<Interner>> = std::sync::LazyLock::new(|| {
        Mutex::new(Interner {
            kept: Default::default(),
            max: MAX_KINDS,
        })
    });
    match KINDS.lock() {
        Ok(mut k) => k.get(kind),
        Err(_) => UNANALYZED,
    }
}

/// How many distinct kinds of statement [`intern`] keeps.
const MAX_KINDS: usize = 4096;

struct Interner {
    kept: std::collections::HashSet<&'static str>,
    max: usize,
}

impl Interner {
    fn get(&mut self, kind: &str) -> &'static str {
        if let Some(k) = self.kept.get(kind) {
            return k;
        }
        if self.kept.len() >= self.max {
            return UNANALYZED;
        }
        let k: &'static str = Box::leak(kind.to_string().into_boxed_str());
        self.kept.insert(k);
        k
    }
}

/// Programs are classified once per analysis, whatever the number of sessions that refer to them.
#[derive(Default, Clone)]
pub struct Memo {
    cache: Arc<Mutex<HashMap<morphtrace_schema::ProgramHash, Arc<LineNodes>>>>,
}

impl Memo {
    pub fn get(&self, program: &morphtrace_schema::Program) -> Arc<LineNodes> {
        let hash = program.hash;
        if let Some(n) = self.cache.lock().ok().and_then(|c| c.get(&hash).cloned()) {
            return n;
        }
        let n = Arc::new(LineNodes::of_program(program));
        if let Ok(mut c) = self.cache.lock() {
            c.insert(hash, n.clone());
        }
        n
    }
}

/// Every name's declarations and identifier occurrences, program-wide (not per scope: a name
/// declared or referenced anywhere counts, which only makes `unreferenced` rarer).
#[derive(Default)]
struct Names(HashMap<String, Binding>);

impl Names {
    fn declare(&mut self, name: &str, kind: &'static str) {
        let b = self.0.entry(name.to_string()).or_default();
        b.kinds.insert(kind);
        b.declarations += 1;
    }

    /// The names a binding pattern declares.
    fn pattern(&mut self, p: &ast::Pat, kind: &'static str) {
        pattern_names(p, &mut |name| self.declare(name, kind));
    }
}

/// Each name a binding pattern declares (not its default values, which are expressions).
pub(crate) fn pattern_names(p: &ast::Pat, each: &mut dyn FnMut(&str)) {
    match p {
        ast::Pat::Ident(b) => each(&b.id.sym),
        ast::Pat::Array(a) => {
            for e in a.elems.iter().flatten() {
                pattern_names(e, each);
            }
        }
        ast::Pat::Rest(r) => pattern_names(&r.arg, each),
        ast::Pat::Object(o) => {
            for prop in &o.props {
                match prop {
                    ast::ObjectPatProp::KeyValue(kv) => pattern_names(&kv.value, each),
                    ast::ObjectPatProp::Assign(a) => each(&a.key.id.sym),
                    ast::ObjectPatProp::Rest(r) => pattern_names(&r.arg, each),
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }
        }
        ast::Pat::Assign(a) => pattern_names(&a.left, each),
        _ => {}
    }
}

impl Visit for Names {
    fn visit_ident(&mut self, n: &ast::Ident) {
        self.0.entry(n.sym.to_string()).or_default().occurrences += 1;
    }

    fn visit_var_decl(&mut self, n: &ast::VarDecl) {
        let kind = match n.kind {
            ast::VarDeclKind::Var => "var",
            ast::VarDeclKind::Let => "let",
            ast::VarDeclKind::Const => "const",
        };
        for d in &n.decls {
            self.pattern(&d.name, kind);
        }
        n.visit_children_with(self);
    }

    fn visit_param(&mut self, n: &ast::Param) {
        self.pattern(&n.pat, "param");
        n.visit_children_with(self);
    }

    fn visit_arrow_expr(&mut self, n: &ast::ArrowExpr) {
        for p in &n.params {
            self.pattern(p, "param");
        }
        n.visit_children_with(self);
    }

    fn visit_catch_clause(&mut self, n: &ast::CatchClause) {
        if let Some(p) = &n.param {
            self.pattern(p, "catch");
        }
        n.visit_children_with(self);
    }

    fn visit_fn_decl(&mut self, n: &ast::FnDecl) {
        self.declare(&n.ident.sym, "function");
        n.visit_children_with(self);
    }

    fn visit_fn_expr(&mut self, n: &ast::FnExpr) {
        if let Some(i) = &n.ident {
            self.declare(&i.sym, "function");
        }
        n.visit_children_with(self);
    }

    fn visit_class_decl(&mut self, n: &ast::ClassDecl) {
        self.declare(&n.ident.sym, "class");
        n.visit_children_with(self);
    }

    fn visit_class_expr(&mut self, n: &ast::ClassExpr) {
        if let Some(i) = &n.ident {
            self.declare(&i.sym, "class");
        }
        n.visit_children_with(self);
    }

    fn visit_import_specifier(&mut self, n: &ast::ImportSpecifier) {
        let local = match n {
            ast::ImportSpecifier::Named(s) => &s.local,
            ast::ImportSpecifier::Default(s) => &s.local,
            ast::ImportSpecifier::Namespace(s) => &s.local,
            #[allow(unreachable_patterns)]
            _ => return n.visit_children_with(self),
        };
        self.declare(&local.sym, "import");
        n.visit_children_with(self);
    }
}

struct Node {
    lo: u32,
    hi: u32,
    name: &'static str,
    children: Vec<usize>,
}

/// AST nodes with their byte ranges; node 0 is the whole file (`Program`).
struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn new(len: u32) -> Tree {
        Tree {
            nodes: vec![Node {
                lo: 0,
                hi: len,
                name: PROGRAM,
                children: Vec::new(),
            }],
        }
    }

    /// The deepest node containing `[lo, hi)`. Siblings do not overlap, so at most one child
    /// of a node can contain the range and the descent is unique.
    fn deepest(&self, lo: u32, hi: u32) -> &'static str {
        let mut at = 0;
        'descend: loop {
            for &c in &self.nodes[at].children {
                let n = &self.nodes[c];
                if n.lo <= lo && hi <= n.hi {
                    at = c;
                    continue 'descend;
                }
            }
            return self.nodes[at].name;
        }
    }
}

struct Collector<'a> {
    tree: &'a mut Tree,
    /// Open nodes, innermost last.
    stack: Vec<usize>,
    base: u32,
}

impl Collector<'_> {
    /// Records a node and visits its children under it.
    fn node<T: VisitWith<Self> + ?Sized>(&mut self, span: Span, name: &'static str, n: &T) {
        if span.is_dummy() || span.hi.0 <= span.lo.0 {
            n.visit_children_with(self);
            return;
        }
        let idx = self.tree.nodes.len();
        self.tree.nodes.push(Node {
            lo: span.lo.0.saturating_sub(self.base),
            hi: span.hi.0.saturating_sub(self.base),
            name,
            children: Vec::new(),
        });
        let parent = *self.stack.last().unwrap_or(&0);
        // A child with exactly its parent's range (e.g. `Stmt::Expr` wrapping nothing else) is
        // still deeper: keep it as a child so that the descent reaches it.
        self.tree.nodes[parent].children.push(idx);
        self.stack.push(idx);
        n.visit_children_with(self);
        self.stack.pop();
    }
}

impl Visit for Collector<'_> {
    fn visit_stmt(&mut self, n: &ast::Stmt) {
        use ast::Stmt::*;
        let name = match n {
            // Declarations and blocks are named by their own visitors below.
            Decl(_) | Block(_) => return n.visit_children_with(self),
            _ => crate::js::statement_kind(n),
        };
        self.node(n.span(), name, n);
    }

    fn visit_block_stmt(&mut self, n: &ast::BlockStmt) {
        self.node(n.span, "BlockStatement", n);
    }

    /// ESTree calls a function's body a block statement too.
    fn visit_function_body(&mut self, n: &ast::FunctionBody) {
        self.node(n.span, "BlockStatement", n);
    }

    fn visit_decl(&mut self, n: &ast::Decl) {
        use ast::Decl::*;
        let name = match n {
            Class(_) => "ClassDeclaration",
            Fn(_) => "FunctionDeclaration",
            Var(_) | Using(_) => "VariableDeclaration",
            _ => "Declaration",
        };
        self.node(n.span(), name, n);
    }

    fn visit_var_declarator(&mut self, n: &ast::VarDeclarator) {
        self.node(n.span, "VariableDeclarator", n);
    }

    fn visit_expr(&mut self, n: &ast::Expr) {
        use ast::Expr::*;
        let name = match n {
            This(_) => "ThisExpression",
            Array(_) => "ArrayExpression",
            Object(_) => "ObjectExpression",
            Fn(_) => "FunctionExpression",
            Unary(_) => "UnaryExpression",
            Update(_) => "UpdateExpression",
            Bin(b)
                if matches!(
                    b.op,
                    ast::BinaryOp::LogicalAnd
                        | ast::BinaryOp::LogicalOr
                        | ast::BinaryOp::NullishCoalescing
                ) =>
            {
                "LogicalExpression"
            }
            Bin(_) => "BinaryExpression",
            Assign(_) => "AssignmentExpression",
            Member(_) | SuperProp(_) => "MemberExpression",
            Cond(_) => "ConditionalExpression",
            Call(_) => "CallExpression",
            New(_) => "NewExpression",
            Seq(_) => "SequenceExpression",
            Ident(_) => "Identifier",
            Lit(_) => "Literal",
            Tpl(_) => "TemplateLiteral",
            TaggedTpl(_) => "TaggedTemplateExpression",
            Arrow(_) => "ArrowFunctionExpression",
            Class(_) => "ClassExpression",
            Yield(_) => "YieldExpression",
            MetaProp(_) => "MetaProperty",
            Await(_) => "AwaitExpression",
            Paren(_) => "ParenthesizedExpression",
            OptChain(_) => "ChainExpression",
            _ => "Expression",
        };
        self.node(n.span(), name, n);
    }

    fn visit_prop(&mut self, n: &ast::Prop) {
        self.node(n.span(), "Property", n);
    }

    fn visit_spread_element(&mut self, n: &ast::SpreadElement) {
        self.node(n.span(), "SpreadElement", n);
    }

    fn visit_pat(&mut self, n: &ast::Pat) {
        use ast::Pat::*;
        let name = match n {
            Ident(_) => "Identifier",
            Array(_) => "ArrayPattern",
            Object(_) => "ObjectPattern",
            Assign(_) => "AssignmentPattern",
            Rest(_) => "RestElement",
            _ => return n.visit_children_with(self),
        };
        self.node(n.span(), name, n);
    }

    fn visit_switch_case(&mut self, n: &ast::SwitchCase) {
        self.node(n.span, "SwitchCase", n);
    }

    fn visit_catch_clause(&mut self, n: &ast::CatchClause) {
        self.node(n.span, "CatchClause", n);
    }

    fn visit_class_member(&mut self, n: &ast::ClassMember) {
        use ast::ClassMember::*;
        let name = match n {
            Constructor(_) | Method(_) | PrivateMethod(_) => "MethodDefinition",
            ClassProp(_) | PrivateProp(_) | AutoAccessor(_) => "PropertyDefinition",
            StaticBlock(_) => "StaticBlock",
            _ => return n.visit_children_with(self),
        };
        self.node(n.span(), name, n);
    }

    fn visit_module_decl(&mut self, n: &ast::ModuleDecl) {
        use ast::ModuleDecl::*;
        let name = match n {
            Import(_) => "ImportDeclaration",
            ExportDecl(_) | ExportNamed(_) => "ExportNamedDeclaration",
            ExportDefaultDecl(_) | ExportDefaultExpr(_) => "ExportDefaultDeclaration",
            ExportAll(_) => "ExportAllDeclaration",
            _ => "ModuleDeclaration",
        };
        self.node(n.span(), name, n);
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_c_programs_lines_are_the_kinds_its_archive_recorded() {
        use morphtrace_schema::{Language, Program, ProgramOrigin};
        let origin = ProgramOrigin::File {
            path: "prog.c".into(),
        };
        let mut p = Program::new(
            Language::C,
            "int main(void) {\n\n  return 0;\n}\n",
            origin.clone(),
        );
        p.line_kinds = Some(
            [
                "function_definition",
                "blank",
                "return_statement",
                "brace",
                "blank",
            ]
            .map(String::from)
            .to_vec(),
        );
        let nodes = LineNodes::of_program(&p);
        assert!(nodes.parsed());
        assert_eq!(
            (0..5).map(|l| nodes.of(l)).collect::<Vec<_>>(),
            [
                "function_definition",
                PROGRAM,
                "return_statement",
                "brace",
                PROGRAM
            ]
        );
        // The recorded kinds, not the text, decide (the analyzer has no C parser).
        p.line_kinds = Some(vec!["if_statement".into()]);
        assert_eq!(LineNodes::of_program(&p).of(0), "if_statement");
        // A JavaScript program is parsed, whatever it carries.
        let mut js = Program::new(Language::JavaScript, "let x = 1;\n", origin);
        js.line_kinds = Some(vec!["if_statement".into()]);
        assert_eq!(LineNodes::of_program(&js).of(0), "VariableDeclaration");
    }

    #[test]
    fn kinds_past_the_bound_are_unanalyzed() {
        let mut i = Interner {
            kept: Default::default(),
            max: 2,
        };
        assert_eq!(i.get("kind_a"), "kind_a");
        assert_eq!(i.get("kind_b"), "kind_b");
        assert_eq!(i.get("kind_c"), UNANALYZED);
        // The kept ones are still themselves.
        assert_eq!(i.get("kind_a"), "kind_a");
    }
    use super::*;

    fn nodes(text: &str) -> Vec<&'static str> {
        let n = LineNodes::compute(text);
        let lines =
            morphtrace_schema::lines::count(text, morphtrace_schema::lines::Breaks::EcmaScript);
        (0..lines as u32).map(|l| n.of(l)).collect()
    }

    #[test]
    fn lines_get_the_deepest_node_containing_all_their_tokens() {
        let text = "\
// a comment
function add(a, b) {
  return a + b;
}

for (var i = 0; i < 3; i++) {
  add(i,
      [1, 2]);
}
var o = {
  k: 1,
  m: [1, 2]
};
z = 2; // a comment after the statement is not a token
";
        assert_eq!(
            nodes(text),
            vec![
                "Program",             // comment line
                "FunctionDeclaration", // `function add(a, b) {` spans params and body
                "ReturnStatement",
                "BlockStatement", // `}` alone: the function body
                "Program",        // empty line
                "ForStatement",
                "CallExpression",      // `add(i,` continues on the next line
                "ExpressionStatement", // `[1, 2]);` reaches the statement's `;`
                "BlockStatement",
                "VariableDeclaration",
                "ObjectExpression", // `k: 1,`: the comma belongs to the object
                "Property",
                "VariableDeclaration", // `};`
                "ExpressionStatement",
                "Program", // after the last line break
            ]
        );
    }

    #[test]
    fn bindings_say_how_a_name_is_declared_and_whether_anything_refers_to_it() {
        let text = "function f(n, unusedParam) {\n  var t;\n  let u = 1;\n  var s = n + 1;\n  var w; w = 2;\n  const {a = s, b: [c]} = {};\n  return s + c;\n}\ntry { f(1); } catch (e) {}\n";
        let n = LineNodes::compute(text);
        let b = |name: &str| n.binding(name).unwrap();
        assert_eq!(b("t"), "unreferenced var");
        assert_eq!(b("u"), "unreferenced let");
        assert_eq!(b("s"), "var");
        assert_eq!(b("n"), "param");
        assert_eq!(b("unusedParam"), "unreferenced param");
        // A write is a reference: the engine must keep the binding.
        assert_eq!(b("w"), "var");
        assert_eq!(b("a"), "unreferenced const");
        assert_eq!(b("c"), "const");
        assert_eq!(b("f"), "function");
        assert_eq!(b("e"), "unreferenced catch");
        assert_eq!(b("arguments"), "unreferenced implicit");
        let n = LineNodes::compute("function g() { return arguments.length; }\ng();\n");
        assert_eq!(n.binding("arguments").unwrap(), "implicit");
        assert_eq!(LineNodes::compute("var = ;").binding("x"), None);
    }

    #[test]
    fn unparsable_programs_are_named_as_such() {
        let n = LineNodes::compute("var = ;\n");
        assert!(!n.parsed());
        assert_eq!(n.of(0), UNPARSABLE);
    }

    #[test]
    fn programs_beyond_our_limits_are_unanalyzed_not_fatal() {
        let deep = format!("x = {}1{};", "[".repeat(100_000), "]".repeat(100_000));
        let n = LineNodes::compute(&deep);
        assert!(!n.parsed());
        assert_eq!(n.of(0), UNANALYZED);
    }

    #[test]
    fn every_line_break_ends_a_line() {
        for br in ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}"] {
            let text = ["var a = 1;", "// c", "if (a) {", "  a = 2;", "}"].join(br);
            assert_eq!(
                nodes(&text),
                vec![
                    "VariableDeclaration",
                    "Program",
                    "IfStatement",
                    "ExpressionStatement",
                    "BlockStatement"
                ],
                "{br:?}"
            );
        }
    }

    #[test]
    fn lines_past_the_end_and_empty_programs_are_program() {
        let n = LineNodes::compute("");
        assert_eq!(n.of(0), PROGRAM);
        let n = LineNodes::compute("x = 1;\n");
        assert_eq!(n.of(0), "ExpressionStatement");
        assert_eq!(n.of(5), PROGRAM);
    }
}
