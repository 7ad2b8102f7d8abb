//! morphtrace's analyzer: works from archives alone, never from a debugger (DESIGN §7).

pub mod ast;
pub mod classes;
pub mod compare;
pub mod coverage;
pub mod export;
pub mod genmorph;
pub mod info;
pub mod load;
pub mod metamorphic;
pub mod rejudge;
pub mod render;
pub mod report;
pub mod show;
pub mod tables;
