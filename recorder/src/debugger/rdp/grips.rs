//! Firefox value grips to normalized values, with exact primitives (docs/debugger-protocols.md §3.3 "Value grips").
//!
//! Object descriptions are given the shape V8 uses where it is structural (`Array(3)`,
//! `Map(2)`, `/a/g`), so that a differential comparison with a V8 debugger finds differences in
//! values, not in how the two protocols spell a length. Firefox reports the class of an instance
//! of `class Point` as `Object` (V8: `Point`); that difference is kept, it is what Firefox says.

use morphtrace_schema::{ObjectKind, Value};
use serde_json::Value as Json;

/// A primitive, a marker (TDZ, optimized out) or an object shell (entries filled by the caller).
pub fn primitive_or_shell(grip: &Json) -> Value {
    match grip {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(_) => Value::Unavailable,
        Json::Object(o) => {
            let ty = o.get("type").and_then(Json::as_str).unwrap_or("");
            let flag = |k: &str| o.get(k).and_then(Json::as_bool) == Some(true);
            match ty {
                "undefined" => Value::Undefined,
                "null" if flag("uninitialized") => Value::Uninitialized,
                "null" if flag("optimizedOut") => Value::OptimizedOut,
                "null" if flag("missingArguments") => Value::Unavailable,
                "null" => Value::Null,
                "NaN" => Value::Number(f64::NAN),
                "Infinity" => Value::Number(f64::INFINITY),
                "-Infinity" => Value::Number(f64::NEG_INFINITY),
                "-0" => Value::Number(-0.0),
                "BigInt" => Value::BigInt(
                    o.get("text")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string(),
                ),
                "symbol" => Value::Symbol(
                    o.get("name")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string(),
                ),
                // The caller fetches the rest of a long string through its actor.
                "longString" => Value::String(
                    o.get("initial")
                        .and_then(Json::as_str)
                        .unwrap_or("")
                        .to_string(),
                ),
                "object" => object_shell(grip),
                _ => Value::Unavailable,
            }
        }
    }
}

fn object_shell(grip: &Json) -> Value {
    let class = match grip.get("class").and_then(Json::as_str) {
        // SpiderMonkey's own class for a bound function (Firefox 120 and later); a bound
        // function is a `Function` to the program, as V8 and JavaScriptCore name it.
        Some("BoundFunctionObject") => "Function",
        Some(c) => c,
        None => "Object",
    }
    .to_string();
    let kind = object_kind(grip, &class);
    let preview = grip.get("preview");
    let num = |k: &str| preview.and_then(|p| p.get(k)).and_then(Json::as_u64);
    let description = match &kind {
        // A function's name and line are read where it is expanded (`RdpSession::function`).
        ObjectKind::Function => None,
        ObjectKind::Array | ObjectKind::TypedArray => {
            Some(format!("{class}({})", num("length").unwrap_or(0)))
        }
        ObjectKind::Map | ObjectKind::Set => Some(format!(
            "{class}({})",
            num("size").or_else(|| num("length")).unwrap_or(0)
        )),
        ObjectKind::RegExp => grip
            .get("displayString")
            .and_then(Json::as_str)
            .map(str::to_string),
        ObjectKind::Error => preview.map(|p| {
            let s = |k: &str| p.get(k).and_then(Json::as_str).unwrap_or("");
            if s("message").is_empty() {
                s("name").to_string()
            } else {
                format!("{}: {}", s("name"), s("message"))
            }
        }),
        _ => Some(class.clone()),
    };
    Value::Object {
        kind,
        class,
        description,
        entries: None,
        truncated: false,
    }
}

pub fn object_kind(grip: &Json, class: &str) -> ObjectKind {
    let is_error = grip.get("isError").and_then(Json::as_bool) == Some(true)
        || grip.pointer("/preview/kind").and_then(Json::as_str) == Some("Error");
    match class {
        "Array" => ObjectKind::Array,
        "Map" => ObjectKind::Map,
        "Set" => ObjectKind::Set,
        "WeakMap" => ObjectKind::WeakMap,
        "WeakSet" => ObjectKind::WeakSet,
        "Date" => ObjectKind::Date,
        "RegExp" => ObjectKind::RegExp,
        "Promise" => ObjectKind::Promise,
        "Proxy" => ObjectKind::Proxy,
        "Generator" => ObjectKind::Generator,
        "Function"
        | "AsyncFunction"
        | "GeneratorFunction"
        | "AsyncGeneratorFunction"
        | "BoundFunctionObject" => ObjectKind::Function,
        c if c.ends_with("Array") && c != "Array" => ObjectKind::TypedArray,
        _ if is_error => ObjectKind::Error,
        _ => ObjectKind::Object,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn primitives_and_markers_are_exact() {
        let v = |j: Json| primitive_or_shell(&j);
        assert_eq!(v(json!({"type": "-0"})), Value::Number(-0.0));
        assert_eq!(v(json!({"type": "NaN"})), Value::Number(f64::NAN));
        assert_eq!(
            v(json!({"type": "-Infinity"})),
            Value::Number(f64::NEG_INFINITY)
        );
        assert_eq!(v(json!(3)), Value::Number(3.0));
        assert_eq!(v(json!("hi")), Value::String("hi".into()));
        assert_eq!(
            v(json!({"type": "BigInt", "text": "-10"})),
            Value::BigInt("-10".into())
        );
        assert_eq!(
            v(json!({"type": "symbol", "name": "s"})),
            Value::Symbol("s".into())
        );
        assert_eq!(v(json!({"type": "undefined"})), Value::Undefined);
        assert_eq!(v(json!({"type": "null"})), Value::Null);
        assert_eq!(
            v(json!({"type": "null", "uninitialized": true})),
            Value::Uninitialized
        );
        assert_eq!(
            v(json!({"type": "null", "optimizedOut": true})),
            Value::OptimizedOut
        );
    }

    #[test]
    fn objects_get_v8_shaped_descriptions() {
        let a = primitive_or_shell(
            &json!({"type": "object", "class": "Array", "preview": {"kind": "ArrayLike", "length": 3}}),
        );
        match a {
            Value::Object {
                kind, description, ..
            } => {
                assert_eq!(kind, ObjectKind::Array);
                assert_eq!(description.as_deref(), Some("Array(3)"));
            }
            other => panic!("{other:?}"),
        }
        let f = primitive_or_shell(&json!({"type": "object", "class": "Function", "name": "f"}));
        assert_eq!(f.type_name(), "function");
        let e = primitive_or_shell(
            &json!({"type": "object", "class": "TypeError", "isError": true,
                    "preview": {"kind": "Error", "name": "TypeError", "message": "x"}}),
        );
        assert!(matches!(
            e,
            Value::Object {
                kind: ObjectKind::Error,
                ..
            }
        ));
    }
}
