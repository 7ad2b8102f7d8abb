//! What the remarks know about the program under test: each fact parsed at the first divergence
//! that asks for it, once per session, and kept by its type. A recognizer for a new quirk adds a
//! type with a [`ProgramFact`] impl, not a field of the lockstep core.

use morphtrace_schema::Language;
use morphtrace_syntax::js::calls::BuiltInArguments;
use morphtrace_syntax::js::catches::CatchDefaults;
use morphtrace_syntax::js::classes::{ClassParams, Heritages, NamedClasses};
use morphtrace_syntax::js::exits::Exits;
use morphtrace_syntax::js::loops::LoopHeads;
use morphtrace_syntax::js::order::ExecutionOrder;
use morphtrace_syntax::js::switches::Discriminants;
use morphtrace_syntax::nodes::LineNodes;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// A fact read from a program's text once; `None` where the program does not have it to give (it
/// does not parse, or is in a language the fact is not about).
pub trait ProgramFact: Any + Send + Sync + Sized {
    fn scan(text: &str, language: Language) -> Option<Self>;
}

type Known = HashMap<TypeId, Option<Arc<dyn Any + Send + Sync>>>;

/// The facts of one program, filled as they are asked for.
pub struct ProgramFacts<'a> {
    text: &'a str,
    language: Language,
    // A mutex, not a cell: the lockstep core is held across awaits of futures that must be Send.
    known: Mutex<Known>,
}

impl<'a> ProgramFacts<'a> {
    pub fn new(text: &'a str, language: Language) -> ProgramFacts<'a> {
        ProgramFacts {
            text,
            language,
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Fact `F` of the program, scanned at the first call.
    pub fn get<F: ProgramFact>(&self) -> Option<Arc<F>> {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        let fact = known.entry(TypeId::of::<F>()).or_insert_with(|| {
            F::scan(self.text, self.language).map(|f| Arc::new(f) as Arc<dyn Any + Send + Sync>)
        });
        fact.clone().and_then(|f| f.downcast::<F>().ok())
    }
}

/// JavaScript's facts: none for a program in another language.
macro_rules! javascript_fact {
    ($($t:ty),*) => {$(
        impl ProgramFact for $t {
            fn scan(text: &str, language: Language) -> Option<Self> {
                (language == Language::JavaScript).then(|| <$t>::scan(text)).flatten()
            }
        }
    )*};
}

javascript_fact!(
    Exits,
    ExecutionOrder,
    ClassParams,
    Heritages,
    NamedClasses,
    BuiltInArguments,
    LoopHeads,
    Discriminants,
    CatchDefaults
);

/// A JavaScript program's `let`/`const`/`class` declarations (from the light scanner where it
/// does not parse).
impl ProgramFact for morphtrace_syntax::js::tdz::Declarations {
    fn scan(text: &str, language: Language) -> Option<Self> {
        (language == Language::JavaScript).then(|| Self::scan(text))
    }
}

/// Each line's syntax node and each name's binding, in either language (a class key's AST node).
impl ProgramFact for LineNodes {
    fn scan(text: &str, language: Language) -> Option<Self> {
        Some(LineNodes::of_language(text, language))
    }
}

/// C's function definitions, in source order (C that parses).
impl ProgramFact for Vec<morphtrace_syntax::c::FunctionSpan> {
    fn scan(text: &str, language: Language) -> Option<Self> {
        (language == Language::C)
            .then(|| morphtrace_syntax::c::CSyntax::parse(text))
            .flatten()
            .map(|s| s.functions())
    }
}

/// The identifiers a C program writes, per function and outside them (C that parses).
impl ProgramFact for morphtrace_syntax::c::WrittenNames {
    fn scan(text: &str, language: Language) -> Option<Self> {
        (language == Language::C)
            .then(|| morphtrace_syntax::c::CSyntax::parse(text))
            .flatten()
            .map(|s| s.written_names())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fact is scanned once and kept by its type; a JavaScript fact of a Python program is
    /// none, and so is one of a program that does not parse.
    #[test]
    fn facts_are_kept_by_type_and_language() {
        let js = "function f(a) {\n  return a + 1;\n}\nf(1);\n";
        let facts = ProgramFacts::new(js, Language::JavaScript);
        let exits = facts
            .get::<Exits>()
            .expect("a function that parses has exits");
        assert!(Arc::ptr_eq(&exits, &facts.get::<Exits>().unwrap()));
        assert!(facts.get::<LineNodes>().is_some());
        let py = ProgramFacts::new("def f(a):\n    return a + 1\n", Language::Python);
        assert!(py.get::<Exits>().is_none());
        assert!(py.get::<LineNodes>().is_some());
        let broken = ProgramFacts::new("function (", Language::JavaScript);
        assert!(broken.get::<Exits>().is_none());
    }
}
