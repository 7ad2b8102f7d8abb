//! Pauses written out for the unit tests of pure judges and recognizers (what an adapter would
//! have read from an engine), so that each test states only where it stands and what it shows.

use morphtrace_schema::{Scope, ScopeKind, Value, Variable};

/// A function's local scope showing `vars`, in order.
pub fn local_scope(vars: &[(&str, Value)]) -> Scope {
    Scope {
        kind: ScopeKind::Local,
        name: None,
        variables: vars
            .iter()
            .map(|(n, v)| Variable {
                name: n.to_string(),
                value: v.clone(),
                reported: None,
            })
            .collect(),
    }
}
