//! Relations the analyzer's search proposes, and what the recorder's falsification search (§7
//! step 2, the role of OASIs) found for them: the JSON files that pass between the two.
//! Values are kept in the harness's tagged form so that NaN, ±Infinity and −0 survive JSON.

use super::JsValue;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelationRecord {
    /// `mathjs.pow#3.1`: subject, transformation index, rank.
    pub id: String,
    pub subject: String,
    /// Index into the batch's transformations.
    pub transformation: u32,
    pub input_relation: String,
    /// The output relation, simplified, for people.
    pub text: String,
    /// The same as a JavaScript expression over `names` (calls `__mt`, see `PRELUDE`).
    pub js: String,
    /// The exact tree in prefix form, `(eq out_f (mul out_s k_s))`, for the analyzer.
    pub tree: String,
    pub names: Vec<String>,
    /// False positives and negatives on the training states.
    pub fp: u32,
    pub fn_: u32,
    /// Evaluation pairs on which the original breaks the relation (§7 step 1).
    pub evaluation_fp: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelationSet {
    /// The archive the relations were searched on.
    pub archive: String,
    pub relations: Vec<RelationRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Falsification {
    pub id: String,
    pub falsified: bool,
    /// Pairs tried (until the first failure, or the budget).
    pub evaluations: u32,
    /// A source input, its follow-up and the two outputs that break the relation (tagged).
    pub counterexample: Option<Vec<serde_json::Value>>,
    /// The other pairs of the same round that break it too (at most 31), in the same form:
    /// correct states that a further search can learn from (`genmorph search --counterexamples`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Vec<serde_json::Value>>,
}

impl Falsification {
    /// Every counterexample found, the first one first.
    pub fn counterexamples(&self) -> impl Iterator<Item = &Vec<serde_json::Value>> {
        self.counterexample.iter().chain(&self.more)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FalsificationReport {
    pub seed: u64,
    pub budget: u32,
    pub node: String,
    pub results: Vec<Falsification>,
}

/// `[source, follow_up, out_s, out_f]` in tagged form.
pub fn counterexample(
    source: &[JsValue],
    follow_up: &[JsValue],
    out_s: &JsValue,
    out_f: &JsValue,
) -> Vec<serde_json::Value> {
    let list = |v: &[JsValue]| serde_json::Value::Array(v.iter().map(JsValue::to_tagged).collect());
    vec![
        list(source),
        list(follow_up),
        out_s.to_tagged(),
        out_f.to_tagged(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counterexamples_keep_special_numbers_through_json() {
        let c = counterexample(
            &[JsValue::Number(f64::NAN)],
            &[JsValue::Number(-0.0)],
            &JsValue::Number(f64::INFINITY),
            &JsValue::String("x".into()),
        );
        let r = FalsificationReport {
            seed: 1,
            budget: 10,
            node: "v20".into(),
            results: vec![Falsification {
                id: "a#0.0".into(),
                falsified: true,
                evaluations: 3,
                counterexample: Some(c.clone()),
                more: vec![c],
            }],
        };
        let text = serde_json::to_string(&r).unwrap();
        let back: FalsificationReport = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.results[0].counterexamples().count(), 2);
        // Reports written before `more` existed still load.
        let old = text.replace(r#","more":"#, r#","_more":"#);
        let old: FalsificationReport = serde_json::from_str(&old).unwrap();
        assert!(old.results[0].more.is_empty());
        let ce = back.results[0].counterexample.as_ref().unwrap();
        let f = JsValue::from_tagged(&ce[1][0]).unwrap();
        assert_eq!(f, JsValue::Number(-0.0));
        assert_ne!(f, JsValue::Number(0.0));
        assert_eq!(
            JsValue::from_tagged(&ce[2]).unwrap(),
            JsValue::Number(f64::INFINITY)
        );
    }
}
