//! CDP `RemoteObject`s to normalized values, with exact primitives.

use morphtrace_schema::{ObjectKind, Value};
use serde_json::Value as Json;

/// A primitive or an object shell (entries filled in by the caller when it expands).
pub fn primitive_or_shell(ro: &Json) -> Value {
    let ty = ro.get("type").and_then(Json::as_str).unwrap_or("");
    let unser = ro.get("unserializableValue").and_then(Json::as_str);
    match ty {
        "undefined" => Value::Undefined,
        "boolean" => Value::Bool(ro.get("value").and_then(Json::as_bool).unwrap_or(false)),
        "number" => Value::Number(match unser {
            Some("NaN") => f64::NAN,
            Some("Infinity") => f64::INFINITY,
            Some("-Infinity") => f64::NEG_INFINITY,
            Some("-0") => -0.0,
            Some(other) => other.parse().unwrap_or(f64::NAN),
            None => ro.get("value").and_then(Json::as_f64).unwrap_or(f64::NAN),
        }),
        "string" => Value::String(
            ro.get("value")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string(),
        ),
        "bigint" => Value::BigInt(
            unser
                .or_else(|| ro.get("description").and_then(Json::as_str))
                .unwrap_or("")
                .trim_end_matches('n')
                .to_string(),
        ),
        "symbol" => {
            let d = ro.get("description").and_then(Json::as_str).unwrap_or("");
            let inner = d
                .strip_prefix("Symbol(")
                .and_then(|s| s.strip_suffix(')'))
                .unwrap_or(d);
            Value::Symbol(inner.to_string())
        }
        // Not their source text (not a debugger's output): a function's name and line are read
        // where it is expanded (`objects::value`).
        "function" => Value::Object {
            kind: ObjectKind::Function,
            class: ro
                .get("className")
                .and_then(Json::as_str)
                .unwrap_or("Function")
                .to_string(),
            description: None,
            entries: None,
            truncated: false,
        },
        "object" => {
            let subtype = ro.get("subtype").and_then(Json::as_str).unwrap_or("");
            if subtype == "null" {
                return Value::Null;
            }
            Value::Object {
                kind: object_kind(subtype),
                class: ro
                    .get("className")
                    .and_then(Json::as_str)
                    .unwrap_or("Object")
                    .to_string(),
                description: ro
                    .get("description")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                entries: None,
                truncated: false,
            }
        }
        _ => Value::Unavailable,
    }
}

pub fn object_kind(subtype: &str) -> ObjectKind {
    match subtype {
        "" => ObjectKind::Object,
        "array" => ObjectKind::Array,
        "map" => ObjectKind::Map,
        "set" => ObjectKind::Set,
        "weakmap" => ObjectKind::WeakMap,
        "weakset" => ObjectKind::WeakSet,
        "error" => ObjectKind::Error,
        "date" => ObjectKind::Date,
        "regexp" => ObjectKind::RegExp,
        "promise" => ObjectKind::Promise,
        "proxy" => ObjectKind::Proxy,
        "typedarray" => ObjectKind::TypedArray,
        "generator" => ObjectKind::Generator,
        other => ObjectKind::Other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unserializable_numbers_and_bigints_are_exact() {
        let v = |j: Json| primitive_or_shell(&j);
        assert_eq!(
            v(json!({"type":"number","unserializableValue":"-0"})),
            Value::Number(-0.0)
        );
        assert_eq!(
            v(json!({"type":"number","unserializableValue":"NaN"})),
            Value::Number(f64::NAN)
        );
        assert_eq!(
            v(json!({"type":"number","unserializableValue":"-Infinity"})),
            Value::Number(f64::NEG_INFINITY)
        );
        assert_eq!(v(json!({"type":"number","value":3})), Value::Number(3.0));
        assert_eq!(
            v(json!({"type":"bigint","unserializableValue":"-10n"})),
            Value::BigInt("-10".into())
        );
        assert_eq!(
            v(json!({"type":"symbol","description":"Symbol(s)"})),
            Value::Symbol("s".into())
        );
        assert_eq!(
            v(json!({"type":"object","subtype":"null","value":null})),
            Value::Null
        );
        assert_eq!(v(json!({"type":"undefined"})), Value::Undefined);
    }
}
