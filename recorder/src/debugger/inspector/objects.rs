//! Reading remote objects and scope bindings, the same way over CDP and WebKit's protocol: a
//! value expanded to a depth, a long array read through a copy of its head, the bindings of a
//! scope chain fetched all at once. Where the protocols differ (how a remote object is told,
//! where properties are listed, Map and Set entries) each adapter says so through `Remote`.

use super::{err, InspectorError};
use crate::debugger::DebuggerError;
use async_trait::async_trait;
use futures_util::future::try_join_all;
use morphtrace_schema::{Entry, Key, ObjectKind, Value};
use serde_json::{json, Value as Json};
use std::future::Future;
use std::pin::Pin;

/// One inspector session's side of reading objects.
#[async_trait]
pub trait Remote: Sync {
    /// Where `Runtime.getProperties` lists properties: `result` (V8) or `properties` (WebKit).
    const PROPERTIES: &'static str;
    /// The parameter that keeps `Runtime.callFunctionOn` from pausing or logging.
    const QUIET: &'static str;

    /// A request on the session's target.
    async fn request(&self, method: &str, params: Json) -> Result<Json, InspectorError>;
    /// At most this many entries of one object are read.
    fn max_entries(&self) -> usize;
    /// A remote object's primitive value, or its object shell (entries not read yet).
    fn shell(ro: &Json) -> Value;
    /// An array's length as the remote object tells it, without a request.
    fn length(ro: &Json) -> Option<usize>;
    /// The 0-based line where the function `object_id` (its own properties: `properties`) is
    /// defined, where it is the program's: V8 says so in the internal property
    /// `[[FunctionLocation]]`, WebKit through `Debugger.getFunctionDetails`. `None` for a built-in
    /// or a function of another script.
    async fn defined_at(
        &self,
        object_id: &str,
        properties: &Json,
    ) -> Result<Option<u32>, DebuggerError>;
    /// The entries of a Map or Set (not own properties in either engine), to `depth`.
    async fn collection(
        &self,
        object_id: &str,
        kind: &ObjectKind,
        depth: u32,
    ) -> Result<(Vec<Entry>, bool), DebuggerError>;
}

/// Copies the first n elements present of an array (holes stay holes) into a plain object, with
/// `more` when more follow: a long array's entries without fetching it whole.
const ARRAY_HEAD: &str = "function (n) { const o = Object.create(null); let k = 0; for (let i = 0; i < this.length; i++) { if (!(i in this)) continue; if (k === n) { o.more = true; break; } o[i] = this[i]; k++; } return o; }";

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, DebuggerError>> + Send + 'a>>;

/// A value expanded to `depth` levels of object entries.
pub fn value<'a, R: Remote>(r: &'a R, ro: &'a Json, depth: u32) -> Boxed<'a, Value> {
    Box::pin(async move {
        let mut v = R::shell(ro);
        if let Value::Object {
            kind,
            entries,
            truncated,
            ..
        } = &mut v
        {
            if let (true, Some(id)) = (depth > 0, ro.get("objectId").and_then(Json::as_str)) {
                if *kind == ObjectKind::Function {
                    *entries = Some(function::<R>(r, id).await?);
                } else {
                    let (e, t) = self::entries(r, id, kind, R::length(ro), depth - 1).await?;
                    *entries = Some(e);
                    *truncated = t;
                }
            }
        }
        Ok(v)
    })
}

/// A function's name and defining line (`Value::function_entries`): its own `name` where that is
/// a string data property, and where the engine says the program defines it.
async fn function<R: Remote>(r: &R, object_id: &str) -> Result<Vec<Entry>, DebuggerError> {
    let props = own_properties(r, object_id).await?;
    let name = properties::<R>(&props)
        .find(|p| p.get("name").and_then(Json::as_str) == Some("name"))
        .and_then(|p| p.get("value"))
        .filter(|v| v.get("type").and_then(Json::as_str) == Some("string"))
        .and_then(|v| v.get("value"))
        .and_then(Json::as_str)
        .map(str::to_string);
    let line = r.defined_at(object_id, &props).await?;
    Ok(Value::function_entries(name, line.map(|l| l + 1)))
}

/// The getProperties reply's properties.
fn properties<R: Remote>(reply: &Json) -> impl Iterator<Item = &Json> {
    reply
        .get(R::PROPERTIES)
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
}

/// An object's own enumerable entries (a Map's or Set's through `Remote::collection`), at most
/// `max_entries`, and whether more were left out.
pub async fn entries<R: Remote>(
    r: &R,
    object_id: &str,
    kind: &ObjectKind,
    length: Option<usize>,
    depth: u32,
) -> Result<(Vec<Entry>, bool), DebuggerError> {
    if matches!(kind, ObjectKind::Map | ObjectKind::Set) {
        return r.collection(object_id, kind, depth).await;
    }
    let max = r.max_entries();
    // A long array would come back whole (SunSpider has arrays of 40,000 numbers: seconds per
    // pause). Copy its first entries into a plain object and read that instead. Only for real
    // arrays: reading their elements runs no program code (proxies are another subtype).
    let mut object_id = object_id.to_string();
    let mut truncated = false;
    let mut head_copy = false;
    if let (ObjectKind::Array | ObjectKind::TypedArray, Some(len)) = (kind, length) {
        if len > max {
            let mut params = json!({
                "objectId": object_id,
                "functionDeclaration": ARRAY_HEAD,
                "arguments": [{"value": max}],
            });
            params[R::QUIET] = json!(true);
            let head = r
                .request("Runtime.callFunctionOn", params)
                .await
                .map_err(err)?;
            if let Some(id) = head.pointer("/result/objectId").and_then(Json::as_str) {
                object_id = id.to_string();
                head_copy = true;
            }
        }
    }
    let props = own_properties(r, &object_id).await?;
    let indexed = matches!(kind, ObjectKind::Array | ObjectKind::TypedArray);
    let mut chosen = Vec::new();
    let mut private = Vec::new();
    for p in properties::<R>(&props) {
        let name = p.get("name").and_then(Json::as_str).unwrap_or("");
        if p.get("isPrivate").and_then(Json::as_bool) == Some(true) {
            // WebKit lists private methods and accessors too; only a field is `writable`.
            if p.get("writable").and_then(Json::as_bool) == Some(true) {
                private.push((name, p));
            }
            continue;
        }
        if p.get("enumerable").and_then(Json::as_bool) != Some(true) {
            continue;
        }
        if head_copy && name == "more" {
            truncated = true;
            continue;
        }
        if chosen.len() >= max {
            truncated = true;
            break;
        }
        let key = match name.parse::<u64>() {
            Ok(i) if indexed => Key::Index(i),
            _ => Key::Name(name.to_string()),
        };
        chosen.push((key, p));
    }
    private.extend(
        props
            .get("privateProperties")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            // V8's accessors come with `get` and `set` instead of a value.
            .filter(|p| p.get("value").is_some())
            .map(|p| (p.get("name").and_then(Json::as_str).unwrap_or(""), p)),
    );
    for (name, p) in private_in_order(private) {
        if chosen.len() >= max {
            truncated = true;
            break;
        }
        chosen.push((Key::Name(name.to_string()), p));
    }
    let values = try_join_all(chosen.iter().map(|(_, p)| async move {
        Ok::<_, DebuggerError>(match p.get("value") {
            Some(ro) => value(r, ro, depth).await?,
            None => accessor(),
        })
    }))
    .await?;
    let out = chosen
        .into_iter()
        .zip(values)
        .map(|((key, _), value)| Entry { key, value })
        .collect();
    Ok((out, truncated))
}

/// An object's private fields (`#name`) as every adapter records them: after its properties, by
/// name. They are not properties, and no engine lists them in an order of the specification's
/// (V8 gives them apart, in `privateProperties`, accessors before fields; WebKit among the
/// properties, marked `isPrivate`; SpiderMonkey through another request), so their order says
/// nothing about the program. Fields only: SpiderMonkey lists no private method or accessor (they
/// are the class's, not the instance's), V8 lists accessors and WebKit both, so each adapter
/// keeps what its protocol marks a field.
pub fn private_in_order<T>(mut private: Vec<(&str, T)>) -> Vec<(&str, T)> {
    private.sort_by(|a, b| a.0.cmp(b.0));
    private
}

/// `Runtime.getProperties` of an object's own properties.
pub async fn own_properties<R: Remote>(r: &R, object_id: &str) -> Result<Json, DebuggerError> {
    r.request(
        "Runtime.getProperties",
        json!({"objectId": object_id, "ownProperties": true}),
    )
    .await
    .map_err(err)
}

/// The bindings of each scope object (`ids`, in chain order) with their values to `depth`:
/// `None` where the engine gives a binding no value (V8: in its temporal dead zone). Every
/// request of a pause is in flight at once: a pause costs a few round trips through the engine
/// instead of one per scope and variable.
pub async fn bindings<R: Remote>(
    r: &R,
    ids: &[&str],
    depth: u32,
) -> Result<Vec<Vec<(String, Option<Value>)>>, DebuggerError> {
    let replies = try_join_all(ids.iter().map(|id| own_properties(r, id))).await?;
    try_join_all(replies.iter().map(|reply| {
        try_join_all(properties::<R>(reply).map(|p| async move {
            let name = p.get("name").and_then(Json::as_str).unwrap_or("");
            let value = match p.get("value") {
                Some(ro) => Some(value(r, ro, depth).await?),
                None => None,
            };
            Ok::<_, DebuggerError>((name.to_string(), value))
        }))
    }))
    .await
}

/// An accessor property's value: reading it would run program code.
pub fn accessor() -> Value {
    Value::Object {
        kind: ObjectKind::Other("accessor".into()),
        class: "accessor".into(),
        description: None,
        entries: None,
        truncated: false,
    }
}
