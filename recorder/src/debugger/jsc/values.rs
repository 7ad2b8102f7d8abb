//! JavaScriptCore `RemoteObject`s to normalized values, with exact primitives.
//!
//! Where the WebKit protocol differs from CDP: numbers that JSON cannot carry come as
//! `value: null` with the number in `description` (`-0` as `value: 0`, `description: "-0"`);
//! typed arrays are subtype `array` with their class name; promises and generators have no
//! subtype; classes are functions of subtype `class`. Descriptions are given V8's shape where
//! it is structural (`Array(3)`, `Map(1)`), as for Firefox, so that a differential comparison
//! finds differences in values, not in how two protocols spell a length.

use morphtrace_schema::{ObjectKind, Value};
use serde_json::Value as Json;

/// A primitive or an object shell (entries filled in by the caller when it expands).
pub fn primitive_or_shell(ro: &Json) -> Value {
    let ty = ro.get("type").and_then(Json::as_str).unwrap_or("");
    let description = ro.get("description").and_then(Json::as_str);
    match ty {
        "undefined" => Value::Undefined,
        "boolean" => Value::Bool(ro.get("value").and_then(Json::as_bool).unwrap_or(false)),
        "number" => Value::Number(match description {
            Some("NaN") => f64::NAN,
            Some("Infinity") => f64::INFINITY,
            Some("-Infinity") => f64::NEG_INFINITY,
            Some("-0") => -0.0,
            _ => ro
                .get("value")
                .and_then(Json::as_f64)
                .or_else(|| description.and_then(|d| d.parse().ok()))
                .unwrap_or(f64::NAN),
        }),
        "string" => Value::String(
            ro.get("value")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string(),
        ),
        "bigint" => Value::BigInt(description.unwrap_or("").trim_end_matches('n').to_string()),
        "symbol" => {
            let d = description.unwrap_or("");
            let inner = d
                .strip_prefix("Symbol(")
                .and_then(|s| s.strip_suffix(')'))
                .unwrap_or(d);
            Value::Symbol(inner.to_string())
        }
        // A function's name and line are read where it is expanded (`objects::value`).
        "function" => Value::Object {
            kind: ObjectKind::Function,
            class: "Function".into(),
            description: None,
            entries: None,
            truncated: false,
        },
        "object" => {
            let subtype = ro.get("subtype").and_then(Json::as_str).unwrap_or("");
            if subtype == "null" {
                return Value::Null;
            }
            let class = ro
                .get("className")
                .and_then(Json::as_str)
                .unwrap_or("Object")
                .to_string();
            let kind = object_kind(subtype, &class);
            let size = ro.get("size").and_then(Json::as_u64);
            let description = match &kind {
                ObjectKind::Array | ObjectKind::TypedArray | ObjectKind::Map | ObjectKind::Set => {
                    Some(format!("{class}({})", size.unwrap_or(0)))
                }
                _ => description.map(str::to_string),
            };
            Value::Object {
                kind,
                class,
                description,
                entries: None,
                truncated: false,
            }
        }
        _ => Value::Unavailable,
    }
}

pub fn object_kind(subtype: &str, class: &str) -> ObjectKind {
    match (subtype, class) {
        ("array", "Array") => ObjectKind::Array,
        ("array", c) if c.ends_with("Array") => ObjectKind::TypedArray,
        // `arguments` and other array-likes JavaScriptCore shows as arrays.
        ("array", _) => ObjectKind::Array,
        ("map", _) => ObjectKind::Map,
        ("set", _) => ObjectKind::Set,
        ("weakmap", _) => ObjectKind::WeakMap,
        ("weakset", _) => ObjectKind::WeakSet,
        ("error", _) => ObjectKind::Error,
        ("date", _) => ObjectKind::Date,
        ("regexp", _) => ObjectKind::RegExp,
        ("proxy", _) => ObjectKind::Proxy,
        ("class", _) => ObjectKind::Function,
        ("", "Promise") => ObjectKind::Promise,
        ("", "Generator" | "AsyncGenerator") => ObjectKind::Generator,
        ("", _) => ObjectKind::Object,
        (other, _) => ObjectKind::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_json_cannot_carry_are_exact() {
        let v = |j: Json| primitive_or_shell(&j);
        assert_eq!(
            v(json!({"type":"number","value":0,"description":"-0"})),
            Value::Number(-0.0)
        );
        assert!(matches!(
            v(json!({"type":"number","value":0,"description":"-0"})),
            Value::Number(n) if n == 0.0 && n.is_sign_negative()
        ));
        assert!(matches!(
            v(json!({"type":"number","value":null,"description":"NaN"})),
            Value::Number(n) if n.is_nan()
        ));
        assert_eq!(
            v(json!({"type":"number","value":null,"description":"-Infinity"})),
            Value::Number(f64::NEG_INFINITY)
        );
        assert_eq!(
            v(json!({"type":"number","value":2.5,"description":"2.5"})),
            Value::Number(2.5)
        );
        assert_eq!(
            v(json!({"type":"bigint","description":"-10n"})),
            Value::BigInt("-10".into())
        );
        assert_eq!(
            v(json!({"type":"symbol","objectId":"x","description":"Symbol(s)"})),
            Value::Symbol("s".into())
        );
        assert_eq!(
            v(json!({"type":"object","value":null,"subtype":"null"})),
            Value::Null
        );
    }

    #[test]
    fn objects_get_their_kind_and_v8_shaped_lengths() {
        let shell = |j: Json| match primitive_or_shell(&j) {
            Value::Object {
                kind, description, ..
            } => (kind, description),
            other => panic!("not an object: {other:?}"),
        };
        assert_eq!(
            shell(json!({"type":"object","subtype":"array","className":"Uint8Array","size":3})),
            (ObjectKind::TypedArray, Some("Uint8Array(3)".into()))
        );
        assert_eq!(
            shell(json!({"type":"object","subtype":"array","className":"Array","size":2})),
            (ObjectKind::Array, Some("Array(2)".into()))
        );
        assert_eq!(
            shell(json!({"type":"object","subtype":"map","className":"Map","size":1})),
            (ObjectKind::Map, Some("Map(1)".into()))
        );
        assert_eq!(
            shell(json!({"type":"object","className":"Promise","description":"Promise"})).0,
            ObjectKind::Promise
        );
        assert_eq!(
            shell(json!({"type":"function","subtype":"class","className":"K"})).0,
            ObjectKind::Function
        );
    }
}
