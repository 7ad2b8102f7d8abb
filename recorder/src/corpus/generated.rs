//! A program generator for debuggers (`--corpus gen:1..N`): from a seed, a terminating,
//! deterministic JavaScript program written to be stepped through, not to crash parsers. One
//! statement per line; functions and closures, classes (fields, private members, accessors,
//! static blocks, a subclass calling `super`), generators, async functions awaiting settled
//! promises, destructuring with defaults, try/catch/finally with throws through frames, labeled
//! loops, switch with fall-through. Every value is an integer (or an object of integers), so a
//! pause's locals compare exactly across engines, and the program ends by printing a checksum of
//! what it computed.
//!
//! Termination holds by construction: loops count a bound the body cannot change, a function
//! calls only functions declared before it (no recursion), and a call is generated only while
//! the estimated work of the enclosing body stays under a budget. Each program is still parsed
//! and run once before use (`check`): one that fails is rejected with the reason, like any
//! corpus file that no engine can run.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The origin's generator name: programs are `gen:SEED`.
pub const GENERATOR: &str = "gen";

/// The estimated statements one run of a body may execute; calls and loops multiply.
const WORK_BUDGET: u64 = 3_000;

/// The program for `seed`. The same seed gives the same text (for one version of morphtrace).
pub fn program(seed: u64) -> String {
    let (lines, _) = Gen::new(seed).write();
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// The origin's generator name of programs with ground truth: `truth:SEED`.
pub const TRUTH_GENERATOR: &str = "truth";

/// [`program`] for `seed` with ground truth (issue 68; the oracle in `morphtrace_judges::truth`):
/// every statement that has a line of its own first calls the recording function with the point's
/// number, its line and the integer and pair variables in scope, on the same line, so that
/// every line keeps its number and a line breakpoint still stops before the statement, now at
/// the call, where the debugger must show what the call records. The recording function
/// follows the program (a hoisted declaration: no line above it moves).
pub fn with_truth(seed: u64) -> String {
    use morphtrace_judges::truth::FUNCTION;
    let (mut lines, points) = Gen::new(seed).write();
    for (k, (index, vars)) in points.iter().enumerate() {
        let line = &lines[*index];
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
        let record = if names.is_empty() {
            "{}".to_string()
        } else {
            format!("{{ {} }}", names.join(", "))
        };
        lines[*index] = format!(
            "{indent}{FUNCTION}({}, {}, {record}); {body}",
            k + 1,
            index + 1
        );
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text.push_str(TRUTH_JS);
    text
}

/// The recording function of [`with_truth`]'s programs: the first
/// `morphtrace_judges::truth::HITS` executions of each point print one console line
/// (`morphtrace_judges::truth::PREFIX` and JSON: point, line, hit, values, the lines of the
/// program's own synchronous frames below it, innermost first).
const TRUTH_JS: &str = include_str!("truth.js");

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int,
    /// A plain object `{ x, y }` of integers.
    Pair,
    /// An instance of the class at this index.
    Instance(usize),
    /// An arrow function of one integer.
    Closure,
}

#[derive(Clone)]
struct Var {
    name: String,
    kind: Kind,
    /// Loop counters and constants are never assigned.
    assignable: bool,
}

#[derive(Clone)]
struct Func {
    name: String,
    arity: usize,
    /// Estimated statements per call.
    work: u64,
    /// May throw out of its body: called only inside a `try` (or from a function that may too).
    throws: bool,
    is_async: bool,
    used: bool,
}

struct Class {
    name: String,
    /// The method that adds to the private counter.
    method: &'static str,
    used: bool,
}

struct GenFn {
    name: String,
    yields: u64,
    used: bool,
}

/// What the body being written may do.
#[derive(Clone, Copy)]
struct Ctx {
    in_async: bool,
    /// Inside a `try` block, or in a function whose callers expect it to throw.
    may_throw: bool,
    /// Loop nesting (for `break`/`continue`) and how many times the current line may run.
    loops: usize,
    repeat: u64,
    depth: usize,
}

impl Ctx {
    /// The start of a function's body (or the program's, at depth 0).
    fn body(in_async: bool, may_throw: bool, depth: usize) -> Ctx {
        Ctx {
            in_async,
            may_throw,
            loops: 0,
            repeat: 1,
            depth,
        }
    }
}

struct Gen {
    rng: ChaCha8Rng,
    lines: Vec<String>,
    indent: usize,
    scopes: Vec<Vec<Var>>,
    funcs: Vec<Func>,
    classes: Vec<Class>,
    generators: Vec<GenFn>,
    next_name: usize,
    /// Work of the body being written.
    work: u64,
    /// The statement lines where a program with ground truth records its state: the line's
    /// index and the integer and pair variables in scope (all initialized) before it runs.
    points: Vec<(usize, Vec<Var>)>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            lines: Vec::new(),
            indent: 0,
            scopes: vec![Vec::new()],
            funcs: Vec::new(),
            classes: Vec::new(),
            generators: Vec::new(),
            next_name: 0,
            work: 0,
            points: Vec::new(),
        }
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.lines
            .push(format!("{}{}", "  ".repeat(self.indent), s.as_ref()));
    }

    /// A statement of its own line: a place where the program may record its state.
    fn stmt(&mut self, s: impl AsRef<str>) {
        let vars = self.vars(|v| matches!(v.kind, Kind::Int | Kind::Pair));
        self.line(s);
        self.points.push((self.lines.len() - 1, vars));
    }

    fn open(&mut self, s: impl AsRef<str>) {
        self.line(s);
        self.indent += 1;
        self.scopes.push(Vec::new());
    }

    /// Ends a block and opens the next at the same level (`} else {`, `} catch (e) {`).
    fn reopen(&mut self, s: impl AsRef<str>) {
        self.scopes.pop();
        self.indent -= 1;
        self.line(s);
        self.indent += 1;
        self.scopes.push(Vec::new());
    }

    fn close(&mut self, s: &str) {
        self.scopes.pop();
        self.indent -= 1;
        self.line(s);
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_name += 1;
        format!("{prefix}{}", self.next_name)
    }

    fn declare(&mut self, name: &str, kind: Kind, assignable: bool) {
        self.scopes.last_mut().expect("a scope").push(Var {
            name: name.into(),
            kind,
            assignable,
        });
    }

    fn vars(&self, f: impl Fn(&Var) -> bool) -> Vec<Var> {
        self.scopes
            .iter()
            .flatten()
            .filter(|v| f(v))
            .cloned()
            .collect()
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> Option<T> {
        if xs.is_empty() {
            None
        } else {
            Some(xs[self.rng.random_range(0..xs.len())].clone())
        }
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    fn small(&mut self) -> i64 {
        if self.chance(85) {
            self.rng.random_range(0..10)
        } else {
            self.rng.random_range(-50..1000)
        }
    }

    // ---- expressions (integers) ----

    fn int(&mut self, ctx: Ctx, depth: usize) -> String {
        let leaf = depth >= 2 || self.chance(35);
        if leaf {
            let ints = self.vars(|v| v.kind == Kind::Int);
            return match self.rng.random_range(0..10) {
                0..=5 if !ints.is_empty() => self.pick(&ints).expect("non-empty").name,
                6 => {
                    let pairs = self.vars(|v| v.kind == Kind::Pair);
                    match self.pick(&pairs) {
                        Some(p) => {
                            format!("{}.{}", p.name, if self.chance(50) { "x" } else { "y" })
                        }
                        None => self.small().to_string(),
                    }
                }
                7 => {
                    let inst = self.vars(|v| matches!(v.kind, Kind::Instance(_)));
                    match self.pick(&inst) {
                        Some(i) => format!("{}.total", i.name),
                        None => self.small().to_string(),
                    }
                }
                _ => self.small().to_string(),
            };
        }
        match self.rng.random_range(0..12) {
            0..=4 => {
                let op = self.pick(&["+", "-", "*", "+", "-"]).expect("ops");
                let a = self.int(ctx, depth + 1);
                let b = self.int(ctx, depth + 1);
                format!("(({a} {op} {b}) | 0)")
            }
            5 => {
                let a = self.int(ctx, depth + 1);
                let k = self.rng.random_range(2..8);
                format!("({a} % {k})")
            }
            6 => {
                let c = self.cond(ctx, depth + 1);
                let a = self.int(ctx, depth + 1);
                let b = self.int(ctx, depth + 1);
                format!("({c} ? {a} : {b})")
            }
            7 | 8 => self
                .call(ctx, depth)
                .unwrap_or_else(|| self.small().to_string()),
            9 => {
                let closures = self.vars(|v| v.kind == Kind::Closure);
                match self.pick(&closures) {
                    Some(c) => {
                        let a = self.int(ctx, depth + 1);
                        self.work += ctx.repeat;
                        format!("{}({a})", c.name)
                    }
                    None => self.small().to_string(),
                }
            }
            10 => {
                let a = self.int(ctx, depth + 1);
                format!("(\"n\" + {a}).length")
            }
            _ => {
                let a = self.int(ctx, depth + 1);
                format!("Math.abs({a})")
            }
        }
    }

    /// A condition's first operand: a variable where one is in scope (a condition over
    /// constants alone would always go one way).
    fn operand(&mut self, ctx: Ctx, depth: usize) -> String {
        let ints = self.vars(|v| v.kind == Kind::Int);
        if !ints.is_empty() && self.chance(80) {
            self.pick(&ints).expect("non-empty").name
        } else {
            self.int(ctx, depth)
        }
    }

    fn cond(&mut self, ctx: Ctx, depth: usize) -> String {
        let a = self.operand(ctx, depth + 1);
        match self.rng.random_range(0..6) {
            0 => format!("{a} % 2 === 0"),
            1 if depth < 2 => {
                let b = self.cond(ctx, depth + 1);
                let op = if self.chance(50) { "&&" } else { "||" };
                format!("({a} > 3 {op} {b})")
            }
            _ => {
                let op = self
                    .pick(&["<", ">", "<=", ">=", "===", "!=="])
                    .expect("ops");
                let b = self.int(ctx, depth + 1);
                format!("{a} {op} {b}")
            }
        }
    }

    /// A call to a function declared before this point whose work fits the budget.
    fn call(&mut self, ctx: Ctx, depth: usize) -> Option<String> {
        let left = WORK_BUDGET.saturating_sub(self.work);
        let callable: Vec<Func> = self
            .funcs
            .iter()
            .filter(|f| {
                (!f.throws || ctx.may_throw)
                    && (!f.is_async || ctx.in_async)
                    && f.work.saturating_mul(ctx.repeat) <= left
            })
            .cloned()
            .collect();
        let f = self.pick(&callable)?;
        if let Some(g) = self.funcs.iter_mut().find(|g| g.name == f.name) {
            g.used = true;
        }
        self.work += f.work * ctx.repeat;
        let args: Vec<String> = (0..f.arity).map(|_| self.int(ctx, depth + 2)).collect();
        let call = format!("{}({})", f.name, args.join(", "));
        Some(if f.is_async {
            format!("(await {call})")
        } else {
            call
        })
    }

    // ---- statements ----

    fn block(&mut self, ctx: Ctx, count: usize) {
        for _ in 0..count {
            self.statement(ctx);
        }
    }

    fn statement(&mut self, ctx: Ctx) {
        self.work += ctx.repeat;
        let nested = ctx.depth < 3;
        match self.rng.random_range(0..30) {
            0..=3 => {
                let name = self.fresh("v");
                let e = self.int(ctx, 0);
                let (kw, assignable) = if self.chance(70) {
                    ("let", true)
                } else {
                    ("const", false)
                };
                self.stmt(format!("{kw} {name} = {e};"));
                self.declare(&name, Kind::Int, assignable);
            }
            4..=6 => {
                let targets = self.vars(|v| v.kind == Kind::Int && v.assignable);
                match self.pick(&targets) {
                    Some(t) => {
                        let e = self.int(ctx, 0);
                        if self.chance(30) {
                            self.stmt(format!("{} += {e};", t.name));
                            self.stmt(format!("{} |= 0;", t.name));
                        } else {
                            self.stmt(format!("{} = {e};", t.name));
                        }
                    }
                    None => self.mix(ctx),
                }
            }
            7..=8 => self.mix(ctx),
            9..=10 if nested => self.if_else(ctx),
            11..=12 if nested => self.for_loop(ctx),
            13 if nested => self.while_loop(ctx),
            14 if nested && ctx.depth < 2 => self.labeled_loops(ctx),
            15 if nested => self.switch(ctx),
            16..=17 if nested => self.try_catch(ctx),
            18 => self.destructure(ctx),
            19 => self.pair(ctx),
            20..=21 => self.instance(ctx),
            22 => self.generator_loop(ctx),
            23 => self.closure(ctx),
            24 if ctx.loops > 0 => {
                let c = self.cond(ctx, 1);
                let jump = if self.chance(50) { "continue" } else { "break" };
                self.stmt(format!("if ({c}) {{ {jump}; }}"));
            }
            25 if ctx.may_throw => {
                let c = self.cond(ctx, 1);
                let e = self.int(ctx, 1);
                if self.chance(50) {
                    self.stmt(format!("if ({c}) {{ throw new RangeError(\"r\" + {e}); }}"));
                } else {
                    self.stmt(format!("if ({c}) {{ throw {{ code: {e} }}; }}"));
                }
            }
            26..=27 if ctx.in_async => {
                let name = self.fresh("v");
                let rhs = match self.rng.random_range(0..3) {
                    0 => format!("await Promise.resolve({})", self.int(ctx, 1)),
                    1 => {
                        // The executor is a plain function: no await in it.
                        let plain = Ctx {
                            in_async: false,
                            ..ctx
                        };
                        let e = self.int(plain, 1);
                        format!("await new Promise((resolve) => resolve({e}))")
                    }
                    _ => format!("await {}", self.int(ctx, 1)),
                };
                self.stmt(format!("const {name} = {rhs};"));
                self.declare(&name, Kind::Int, false);
            }
            _ => self.mix(ctx),
        }
    }

    /// Folds a value into the checksum.
    fn mix(&mut self, ctx: Ctx) {
        let e = self.int(ctx, 0);
        self.stmt(format!("mix({e});"));
    }

    fn if_else(&mut self, ctx: Ctx) {
        let c = self.cond(ctx, 0);
        let inner = Ctx {
            depth: ctx.depth + 1,
            ..ctx
        };
        self.open(format!("if ({c}) {{"));
        let n = self.rng.random_range(1..4);
        self.block(inner, n);
        if self.chance(50) {
            self.reopen("} else {");
            let n = self.rng.random_range(1..3);
            self.block(inner, n);
        }
        self.close("}");
    }

    fn looped(&self, ctx: Ctx, times: u64) -> Ctx {
        Ctx {
            loops: ctx.loops + 1,
            repeat: ctx.repeat.saturating_mul(times),
            depth: ctx.depth + 1,
            ..ctx
        }
    }

    fn for_loop(&mut self, ctx: Ctx) {
        let i = self.fresh("i");
        let n = self.rng.random_range(1..5);
        self.open(format!("for (let {i} = 0; {i} < {n}; {i}++) {{"));
        self.declare(&i, Kind::Int, false);
        let k = self.rng.random_range(1..4);
        self.block(self.looped(ctx, n), k);
        self.close("}");
    }

    fn while_loop(&mut self, ctx: Ctx) {
        let w = self.fresh("w");
        let n = self.rng.random_range(1..5);
        self.stmt(format!("let {w} = {n};"));
        let inner = self.looped(ctx, n);
        if self.chance(50) {
            self.open(format!("while ({w} > 0) {{"));
            self.stmt(format!("{w}--;"));
            self.declare(&w, Kind::Int, false);
            let k = self.rng.random_range(1..3);
            self.block(inner, k);
            self.close("}");
        } else {
            self.open("do {");
            self.stmt(format!("{w}--;"));
            self.declare(&w, Kind::Int, false);
            let k = self.rng.random_range(1..3);
            self.block(inner, k);
            self.close(&format!("}} while ({w} > 0);"));
        }
        self.declare(&w, Kind::Int, false);
    }

    fn labeled_loops(&mut self, ctx: Ctx) {
        let label = self.fresh("outer");
        let (i, j) = (self.fresh("i"), self.fresh("j"));
        let (n, m) = (self.rng.random_range(1..4), self.rng.random_range(1..4));
        self.open(format!("{label}: for (let {i} = 0; {i} < {n}; {i}++) {{"));
        self.declare(&i, Kind::Int, false);
        let outer = self.looped(ctx, n);
        self.open(format!("for (let {j} = 0; {j} < {m}; {j}++) {{"));
        self.declare(&j, Kind::Int, false);
        let inner = self.looped(outer, m);
        let c = self.cond(inner, 1);
        let jump = if self.chance(50) { "continue" } else { "break" };
        self.stmt(format!("if ({c}) {{ {jump} {label}; }}"));
        let k = self.rng.random_range(1..3);
        self.block(inner, k);
        self.close("}");
        self.mix(outer);
        self.close("}");
    }

    fn switch(&mut self, ctx: Ctx) {
        let e = self.int(ctx, 1);
        let k = self.rng.random_range(2..5);
        let inner = Ctx {
            depth: ctx.depth + 1,
            ..ctx
        };
        self.open(format!("switch (Math.abs({e}) % {k}) {{"));
        for case in 0..k {
            self.open(format!("case {case}:"));
            let n = self.rng.random_range(1..3);
            self.block(inner, n);
            // Some cases fall through into the next.
            if case + 1 == k || self.chance(70) {
                self.stmt("break;");
            }
            self.close_case();
        }
        if self.chance(50) {
            self.open("default:");
            self.mix(inner);
            self.close_case();
        }
        self.close("}");
    }

    fn close_case(&mut self) {
        self.scopes.pop();
        self.indent -= 1;
    }

    fn try_catch(&mut self, ctx: Ctx) {
        let inner = Ctx {
            depth: ctx.depth + 1,
            may_throw: true,
            ..ctx
        };
        self.open("try {");
        let n = self.rng.random_range(1..4);
        self.block(inner, n);
        let c = self.cond(inner, 1);
        let e = self.int(inner, 1);
        match self.rng.random_range(0..3) {
            0 => self.stmt(format!("if ({c}) {{ throw new Error(\"e\" + {e}); }}")),
            1 => self.stmt(format!("if ({c}) {{ throw {{ code: {e} }}; }}")),
            _ => {
                // Throws through a frame when a throwing function exists.
                match self.call(inner, 1) {
                    Some(call) => self.stmt(format!("mix({call});")),
                    None => self.stmt(format!("if ({c}) {{ throw {{ code: {e} }}; }}")),
                }
            }
        }
        let after = Ctx {
            depth: ctx.depth + 1,
            ..ctx
        };
        let err = self.fresh("err");
        if self.chance(40) {
            // A catch parameter destructured with defaults.
            let (code, message) = (self.fresh("code"), self.fresh("message"));
            self.reopen(format!(
                "}} catch ({{ code: {code} = 1, message: {message} = \"none\" }}) {{"
            ));
            self.declare(&code, Kind::Int, true);
            self.stmt(format!("mix({code} + {message}.length);"));
        } else {
            self.reopen(format!("}} catch ({err}) {{"));
            self.stmt(format!(
                "mix({err} instanceof Error ? {err}.message.length : {err}.code);"
            ));
        }
        if self.chance(50) {
            self.reopen("} finally {");
            self.block(after, 1);
        }
        self.close("}");
    }

    fn destructure(&mut self, ctx: Ctx) {
        let (a, b) = (self.fresh("v"), self.fresh("v"));
        let e = self.int(ctx, 1);
        let d = self.small();
        match self.rng.random_range(0..3) {
            0 => self.stmt(format!("const {{ x: {a}, y: {b} = {d} }} = {{ x: {e} }};")),
            1 => self.stmt(format!("const [{a}, {b} = {d}] = [{e}];")),
            _ => {
                let f = self.small();
                self.stmt(format!(
                    "const {{ p: [{a} = {d}] = [], q: {{ r: {b} = {f} }} = {{}} }} = {{ p: [{e}] }};"
                ))
            }
        }
        self.declare(&a, Kind::Int, false);
        self.declare(&b, Kind::Int, false);
    }

    fn pair(&mut self, ctx: Ctx) {
        let name = self.fresh("o");
        let (x, y) = (self.int(ctx, 1), self.int(ctx, 1));
        self.stmt(format!("const {name} = {{ x: {x}, y: {y} }};"));
        let e = self.int(ctx, 1);
        self.stmt(format!("{name}.y = ({name}.x + {e}) | 0;"));
        self.declare(&name, Kind::Pair, false);
    }

    fn instance(&mut self, ctx: Ctx) {
        let existing = self.vars(|v| matches!(v.kind, Kind::Instance(_)));
        if !existing.is_empty() && self.chance(50) {
            let v = self.pick(&existing).expect("non-empty");
            let Kind::Instance(c) = v.kind else { return };
            let method = self.classes[c].method;
            let e = self.int(ctx, 1);
            self.work += 4 * ctx.repeat;
            match self.rng.random_range(0..3) {
                0 => self.stmt(format!("{}.total = {e};", v.name)),
                _ => self.stmt(format!("mix({}.{method}({e}));", v.name)),
            }
            return;
        }
        if self.classes.is_empty() {
            return self.mix(ctx);
        }
        let c = self.rng.random_range(0..self.classes.len());
        self.classes[c].used = true;
        let name = self.fresh("c");
        let e = self.int(ctx, 1);
        self.work += 6 * ctx.repeat;
        self.stmt(format!("const {name} = new {}({e});", self.classes[c].name));
        self.declare(&name, Kind::Instance(c), false);
    }

    fn generator_loop(&mut self, ctx: Ctx) {
        let Some(g) = self.pick_generator() else {
            return self.mix(ctx);
        };
        let v = self.fresh("y");
        let e = self.int(ctx, 1);
        self.open(format!("for (const {v} of {}({e})) {{", g.0));
        self.declare(&v, Kind::Int, false);
        let inner = self.looped(ctx, g.1);
        self.work += g.1 * 3 * ctx.repeat;
        self.mix(inner);
        self.close("}");
    }

    fn pick_generator(&mut self) -> Option<(String, u64)> {
        if self.generators.is_empty() {
            return None;
        }
        let i = self.rng.random_range(0..self.generators.len());
        let g = &mut self.generators[i];
        g.used = true;
        Some((g.name.clone(), g.yields))
    }

    fn closure(&mut self, ctx: Ctx) {
        let name = self.fresh("add");
        let p = self.fresh("p");
        self.scopes.push(vec![Var {
            name: p.clone(),
            kind: Kind::Int,
            assignable: false,
        }]);
        // A closure may be called anywhere its name is visible: it awaits and throws nothing.
        let plain = Ctx {
            in_async: false,
            may_throw: false,
            ..ctx
        };
        let body = self.int(plain, 1);
        self.scopes.pop();
        self.stmt(format!("const {name} = ({p}) => ({p} + {body}) | 0;"));
        self.declare(&name, Kind::Closure, false);
    }

    // ---- declarations ----

    fn function(&mut self, is_async: bool) {
        let throws = !is_async && self.chance(30);
        let name = self.fresh(if is_async { "af" } else { "f" });
        let arity = self.rng.random_range(1..4);
        let params: Vec<String> = (0..arity).map(|_| self.fresh("a")).collect();
        let mut shown = params.clone();
        if self.chance(40) {
            let d = self.small();
            let last = shown.last_mut().expect("arity >= 1");
            *last = format!("{last} = {d}");
        }
        let kw = if is_async {
            "async function"
        } else {
            "function"
        };
        self.work = 0;
        self.open(format!("{kw} {name}({}) {{", shown.join(", ")));
        for p in &params {
            self.declare(p, Kind::Int, true);
        }
        let ctx = Ctx::body(is_async, throws, 1);
        let n = self.rng.random_range(2..6);
        self.block(ctx, n);
        if throws {
            let c = self.cond(ctx, 1);
            let p = &params[0];
            self.stmt(format!("if ({c}) {{ throw new Error(\"f\" + {p}); }}"));
        }
        let r = self.int(ctx, 0);
        self.stmt(format!("return {r};"));
        self.close("}");
        self.funcs.push(Func {
            name,
            arity,
            work: self.work.max(1) + 2,
            throws,
            is_async,
            used: false,
        });
    }

    fn class(&mut self) {
        let name = format!("C{}", self.classes.len() + 1);
        let start = self.small();
        self.open(format!("class {name} {{"));
        self.line(format!("#count = {start};"));
        self.line("static made = 0;");
        self.open("static {");
        self.line("this.made = 1;");
        self.close("}");
        self.open("constructor(start) {");
        self.line("this.base = start | 0;");
        self.line(format!("{name}.made++;"));
        self.close("}");
        self.open("get total() {");
        self.line("return (this.base + this.#count) | 0;");
        self.close("}");
        self.open("set total(v) {");
        self.line("this.base = v | 0;");
        self.close("}");
        self.open("#scaled(n) {");
        let k = self.rng.random_range(2..5);
        self.line(format!("return (n * {k}) | 0;"));
        self.close("}");
        self.open("bump(n) {");
        self.line("this.#count = (this.#count + this.#scaled(n)) | 0;");
        self.line("return this.#count;");
        self.close("}");
        self.close("}");
        self.classes.push(Class {
            name: name.clone(),
            method: "bump",
            used: false,
        });
        if self.chance(50) {
            let sub = format!("C{}", self.classes.len() + 1);
            self.open(format!("class {sub} extends {name} {{"));
            self.open("constructor(start) {");
            self.line("super(start + 1);");
            self.line("this.extra = 2;");
            self.close("}");
            self.open("bump(n) {");
            self.line("const r = super.bump(n + this.extra);");
            self.line("return (r - 1) | 0;");
            self.close("}");
            self.close("}");
            self.classes.push(Class {
                name: sub,
                method: "bump",
                used: false,
            });
        }
    }

    fn generator(&mut self) {
        let name = self.fresh("gen");
        let n = self.rng.random_range(1..5);
        let (p, i) = (self.fresh("a"), self.fresh("i"));
        self.work = 0;
        self.open(format!("function* {name}({p}) {{"));
        self.declare(&p, Kind::Int, true);
        self.open(format!("for (let {i} = 0; {i} < {n}; {i}++) {{"));
        self.declare(&i, Kind::Int, false);
        let ctx = Ctx {
            in_async: false,
            may_throw: false,
            loops: 1,
            repeat: n,
            depth: 2,
        };
        if self.chance(40) {
            let c = self.cond(ctx, 1);
            self.stmt(format!("if ({c}) {{ continue; }}"));
        }
        let e = self.int(ctx, 1);
        self.stmt(format!("yield ({e} + {i}) | 0;"));
        self.close("}");
        self.stmt(format!("return {p};"));
        self.close("}");
        self.generators.push(GenFn {
            name,
            yields: n,
            used: false,
        });
    }

    /// Every declaration the random statements did not reach is used once at the top level,
    /// so that no declared code is dead to the debugger.
    fn use_the_rest(&mut self, top: Ctx) {
        for c in 0..self.classes.len() {
            if !self.classes[c].used {
                let name = self.fresh("c");
                let e = self.int(top, 1);
                self.stmt(format!("const {name} = new {}({e});", self.classes[c].name));
                self.stmt(format!("mix({name}.{}({e}));", self.classes[c].method));
                self.declare(&name, Kind::Instance(c), false);
            }
        }
        for g in 0..self.generators.len() {
            if !self.generators[g].used {
                let (name, v) = (self.generators[g].name.clone(), self.fresh("y"));
                let e = self.int(top, 1);
                self.open(format!("for (const {v} of {name}({e})) {{"));
                self.stmt(format!("mix({v});"));
                self.close("}");
            }
        }
        for f in 0..self.funcs.len() {
            let Func {
                name,
                arity,
                throws,
                is_async,
                used,
                ..
            } = self.funcs[f].clone();
            if used || is_async {
                continue;
            }
            let args: Vec<String> = (0..arity).map(|_| self.int(top, 2)).collect();
            let call = format!("mix({name}({}));", args.join(", "));
            if throws {
                let err = self.fresh("err");
                self.open("try {");
                self.stmt(call);
                self.reopen(format!("}} catch ({err}) {{"));
                self.stmt(format!(
                    "mix({err} instanceof Error ? {err}.message.length : {err}.code);"
                ));
                self.close("}");
            } else {
                self.stmt(call);
            }
        }
    }

    /// The program's lines and its statements' points.
    fn write(mut self) -> (Vec<String>, Vec<(usize, Vec<Var>)>) {
        let strict = self.chance(25);
        if strict {
            self.line("\"use strict\";");
        }
        self.line("let acc = 0;");
        self.open("function mix(v) {");
        self.line("acc = (acc * 31 + (v | 0)) | 0;");
        self.close("}");
        let decls = self.rng.random_range(2..7);
        let mut asyncs = 0;
        for _ in 0..decls {
            match self.rng.random_range(0..10) {
                0..=3 => self.function(false),
                4..=5 => self.class(),
                6..=7 => self.generator(),
                _ => {
                    asyncs += 1;
                    self.function(true)
                }
            }
        }
        self.work = 0;
        let top = Ctx::body(false, false, 0);
        let n = self.rng.random_range(4..12);
        self.block(top, n);
        self.use_the_rest(top);
        if asyncs > 0 {
            self.work = 0;
            self.open("async function main() {");
            let ctx = Ctx {
                in_async: true,
                depth: 1,
                ..top
            };
            let n = self.rng.random_range(3..8);
            self.block(ctx, n);
            // Every async function not awaited yet is awaited once (at least one is: the
            // program's end is asynchronous).
            let mut waits: Vec<(String, usize)> = self
                .funcs
                .iter()
                .filter(|f| f.is_async && !f.used)
                .map(|f| (f.name.clone(), f.arity))
                .collect();
            if waits.is_empty() {
                waits.extend(
                    self.funcs
                        .iter()
                        .filter(|f| f.is_async)
                        .map(|f| (f.name.clone(), f.arity))
                        .next_back(),
                );
            }
            for (name, arity) in waits {
                let args: Vec<String> = (0..arity).map(|_| self.int(ctx, 2)).collect();
                self.stmt(format!("mix(await {name}({}));", args.join(", ")));
            }
            self.close("}");
            self.open("main().then(() => {");
            self.line("console.log(\"checksum \" + acc);");
            self.close("});");
        } else {
            self.line("console.log(\"checksum \" + acc);");
        }
        (self.lines, self.points)
    }
}

/// Parses `text` as a classic script and runs it once with `node` (under the permission model
/// where the version has it, with a time limit): `Err` says why it cannot be used — a syntax
/// error, an exception, no checksum printed, or no end within the limit.
pub fn check(text: &str, node: &std::path::Path, dir: &std::path::Path) -> Result<(), String> {
    morphtrace_syntax::js::parse(text, morphtrace_syntax::js::Goal::Script, |_| ())
        .map_err(|e| format!("does not parse: {e}"))?;
    let file = dir.join("check.js");
    std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut cmd = std::process::Command::new(node);
    crate::child::WithoutAmbientNode::without_ambient_node(&mut cmd);
    match crate::debugger::engines::node_major(node)
        .and_then(|m| m.parse::<u32>().ok())
        .unwrap_or(0)
    {
        m if m >= 22 => {
            cmd.arg("--permission");
        }
        m if m >= 20 => {
            cmd.arg("--experimental-permission");
        }
        _ => {}
    }
    cmd.arg(format!("--allow-fs-read={}", file.display()))
        .arg(&file);
    let run = crate::process::run(&mut cmd, std::time::Duration::from_secs(20), None)
        .map_err(|e| format!("{}: {e}", node.display()))?;
    let _ = std::fs::remove_file(&file);
    if run.timed_out {
        return Err("did not end within 20 s under node".into());
    }
    if let Some(m) = run.memory {
        return Err(m);
    }
    if !run.ok() {
        // Node prints the source line and a caret first, the stack last: name the error.
        let error = run
            .stderr
            .lines()
            .map(str::trim)
            .find(|l| {
                l.split(':')
                    .next()
                    .is_some_and(|head| head.ends_with("Error") && !head.contains(' '))
            })
            .map(str::to_string)
            .unwrap_or_else(|| run.stderr_tail());
        return Err(format!("node exited with {:?}: {error}", run.code));
    }
    let last = run.stdout.lines().last().unwrap_or("");
    if !last.starts_with("checksum ") {
        return Err(format!("printed no checksum (last line: {last:?})"));
    }
    Ok(())
}

/// The node that runs generated programs once: the newest installed by `scripts/setup.sh`,
/// else the one on `PATH`.
pub fn checking_node() -> Option<std::path::PathBuf> {
    crate::debugger::engines::local_nodes()
        .pop()
        .or_else(|| crate::debugger::engines::which("node"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_program_and_seeds_differ() {
        assert_eq!(program(7), program(7));
        assert_ne!(program(7), program(8));
    }

    #[test]
    fn generated_programs_parse_and_have_the_promised_constructs() {
        let mut seen = std::collections::BTreeMap::new();
        for seed in 1..=200 {
            let text = program(seed);
            morphtrace_syntax::js::parse(&text, morphtrace_syntax::js::Goal::Script, |_| ())
                .unwrap_or_else(|e| panic!("gen:{seed} does not parse: {e}\n{text}"));
            for (what, needle) in [
                ("class", "class C"),
                ("private member", "this.#count"),
                ("static block", "static {"),
                ("accessor", "get total()"),
                ("subclass", "super.bump("),
                ("generator", "function* "),
                ("async function", "async function af"),
                ("await", "await "),
                ("destructuring default", "] = ["),
                ("catch destructuring", "catch ({ code"),
                ("finally", "} finally {"),
                ("labeled loop", "outer"),
                ("switch", "switch ("),
                ("closure", "=> ("),
                ("throw", "throw "),
            ] {
                if text.contains(needle) {
                    *seen.entry(what).or_insert(0) += 1;
                }
            }
        }
        // Every construct the generator promises shows in a fair share of 200 programs.
        for (what, n) in &seen {
            assert!(*n >= 10, "{what} in only {n} of 200 programs");
        }
        assert_eq!(seen.len(), 15, "constructs seen: {seen:?}");
    }
}
