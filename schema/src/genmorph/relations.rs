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

impl RelationSet {
    /// A digest of what a falsification report judges (each relation's id, tree, JavaScript and
    /// names): binds a report to the set it was made from, since ids repeat every round.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for r in &self.relations {
            for part in [&r.id, &r.tree, &r.js] {
                h.update(part.as_bytes());
                h.update([0]);
            }
            h.update(r.names.join(",").as_bytes());
            h.update([1]);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// What step 2 established for one relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step2 {
    /// A counterexample was found.
    Falsified,
    /// Enough pairs were judged and none broke it.
    Survived,
    /// Too few pairs could be judged (calls or the relation threw or timed out, no pair could
    /// be made, an unknown transformation): neither valid nor falsified.
    Undecided,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Falsification {
    pub id: String,
    pub falsified: bool,
    /// Pairs judged (until the first failure, or the budget). Skipped pairs are not counted.
    pub evaluations: u32,
    /// Pairs tried but not judged: the call or the relation threw or timed out.
    #[serde(default)]
    pub skipped: u32,
    /// Why the relation is undecided (too few judged pairs, no pairs, unknown transformation);
    /// `None` for a falsified or surviving relation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecided: Option<String>,
    /// A source input, its follow-up and the two outputs that break the relation (tagged).
    pub counterexample: Option<Vec<serde_json::Value>>,
    /// The other pairs of the same round that break it too (at most 31), in the same form:
    /// correct states that a further search can learn from (`genmorph search --counterexamples`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Vec<serde_json::Value>>,
}

impl Falsification {
    pub fn step2(&self) -> Step2 {
        if self.falsified {
            Step2::Falsified
        } else if self.undecided.is_some() {
            Step2::Undecided
        } else {
            Step2::Survived
        }
    }

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
    /// `RelationSet::digest` of the relations judged (absent in reports made before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relations_digest: Option<String>,
    /// A relation not falsified with fewer judged pairs than this is undecided.
    #[serde(default)]
    pub min_judged: u32,
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
            relations_digest: Some("d".into()),
            min_judged: 1,
            results: vec![Falsification {
                id: "a#0.0".into(),
                falsified: true,
                evaluations: 3,
                skipped: 2,
                undecided: None,
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
        // And before skipped pairs, undecided relations and digests.
        let old = text
            .replace(r#""skipped":"#, r#""_skipped":"#)
            .replace(r#""relations_digest":"#, r#""_digest":"#);
        let old: FalsificationReport = serde_json::from_str(&old).unwrap();
        assert_eq!((old.results[0].skipped, old.relations_digest), (0, None));
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
