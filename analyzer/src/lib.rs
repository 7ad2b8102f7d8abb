//! morphtrace's analyzer: works from archives alone, never from a debugger (DESIGN §7).

pub mod info;
pub mod show;
