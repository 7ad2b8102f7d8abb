//! Where a program can be changed without changing what it computes: the places a line may be
//! inserted with the variables bound there, the integer and boolean literals, the functions that
//! can take one more parameter (the metamorphic paper's program transformations, Table 1, read
//! them; [`crate::js::sites`] and [`crate::python::sites`] find them). Positions are exact: a
//! transformation's edits map every statement of the program to its follow-up.

use morphtrace_schema::lines::Positions;
use morphtrace_schema::Location;

/// A variable visible at a point, declared in the innermost function (or the script).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub name: String,
    /// Not `const` or a class, and not a global of the page (whose setters, e.g. `location`,
    /// would run on assignment).
    pub assignable: bool,
}

/// Where a new line may go: before a statement that starts its line.
#[derive(Debug, Clone)]
pub struct Point {
    /// Byte offset of the start of the statement's line.
    pub line_start: usize,
    pub line: u32,
    pub indent: String,
    /// Initialized variables at this point (no temporal dead zone).
    pub names: Vec<Name>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteralValue {
    Int(u64),
    Bool(bool),
}

#[derive(Debug, Clone)]
pub struct Literal {
    pub start: usize,
    pub end: usize,
    pub value: LiteralValue,
    /// Initialized variables where the literal is evaluated.
    pub names: Vec<Name>,
}

/// A function that can take one more formal parameter.
#[derive(Debug, Clone)]
pub struct FunctionSite {
    /// Byte offset where `, p` (or `p` without parameters) goes; in Python where `, p=None`
    /// goes, or `p=None, ` before a `**kwargs` (`has_params` then).
    pub insert_at: usize,
    pub has_params: bool,
    /// Its body, braces included (byte range).
    pub body: (usize, usize),
}

/// The language the inserted and rewritten code is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    JavaScript,
    Python,
}

/// Where one program can be changed, as the transformations read it.
#[derive(Debug, Clone)]
pub struct Sites {
    pub points: Vec<Point>,
    pub literals: Vec<Literal>,
    pub functions: Vec<FunctionSite>,
    /// Every function body, arrow bodies included (byte ranges).
    pub bodies: Vec<(usize, usize)>,
    /// Every non-empty formal parameter list, arrows' included (byte ranges).
    pub parameter_lists: Vec<(usize, usize)>,
    /// `with` makes names dynamic: no transformation that names a variable.
    pub has_with: bool,
    positions: Positions,
    spelling: Spelling,
}

impl Sites {
    /// Nothing found yet, in a program with these positions (the other languages' analyses
    /// fill it).
    pub fn empty(positions: Positions, spelling: Spelling) -> Sites {
        Sites {
            points: Vec::new(),
            literals: Vec::new(),
            functions: Vec::new(),
            bodies: Vec::new(),
            parameter_lists: Vec::new(),
            has_with: false,
            positions,
            spelling,
        }
    }

    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// The language inserted code must be written in.
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }

    pub fn line_of(&self, off: usize) -> u32 {
        self.positions.lines.line_of(off)
    }

    /// Whether `at` is inside a formal parameter list, or just after its last parameter (where
    /// JavaScriptCore places an exception its default threw). There the engines' scopes list bindings
    /// the parameters' environment does not have yet: a later parameter in its dead zone, the
    /// body's `var`s (V8 and JavaScriptCore show them `undefined`; evaluated, they throw).
    pub fn in_parameters(&self, at: Location) -> bool {
        self.parameter_lists
            .iter()
            .any(|&(a, b)| self.location(a) <= at && at <= self.location(b))
    }

    /// Line and UTF-16 column (the debuggers' unit) of a byte offset.
    pub fn location(&self, off: usize) -> Location {
        self.positions.location(off)
    }
}
