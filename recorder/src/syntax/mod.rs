//! Programs on real syntax trees, a module per language: JavaScript on swc (`js`), C on
//! tree-sitter-c (`c`), Python on tree-sitter-python (`python`); the kind of every line, the
//! statements that may be deleted, `tdz`: a JS program's lexical declarations (a binding in its
//! temporal dead zone told from one that holds `undefined`), and `variant`: programs with statements deleted and the exact
//! line mapping back (Cod's P', the metamorphic dead-code removal, reduction). A core: the
//! papers' folders use it, it uses none of them.

pub mod c;
pub mod js;
pub mod python;
pub mod tdz;
pub mod variant;
