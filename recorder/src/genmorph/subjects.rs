//! The functions under test: real functions of two widely used npm libraries, pinned in
//! `recorder/js/genmorph/package-lock.json`. Where a public function delegates its logic to an
//! internal helper (lodash's `repeat` to `baseRepeat`), the helper's body is what is mutated and
//! the public function is what is called (the call adapter requires it afresh, so it picks up
//! the mutated helper).

use super::GenmorphError;
use morphtrace_schema::genmorph::{Kind, Param, Subject};
use std::path::{Path, PathBuf};

/// One subject before its module is read.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub package: &'static str,
    pub module: &'static str,
    pub function: &'static str,
    /// `(m, req) => f`: `m` is the mutated module's exports, `req(name)` requires a module of
    /// the package afresh.
    pub call: &'static str,
    pub params: &'static [(&'static str, Kind)],
    pub returns: Kind,
}

use Kind::{Bool, Int, IntArray, Number, NumberArray, Str};

const MATH: &str = "lib/cjs/plain/number/arithmetic.js";

/// The default subjects: numeric, Boolean, string and array signatures, as GenMorph's mix.
#[rustfmt::skip]
pub const SUBJECTS: &[Spec] = &[
    Spec { name: "lodash.padStart", package: "lodash", module: "padStart.js", function: "padStart",
        call: "m => m", params: &[("s", Str), ("n", Int), ("c", Str)], returns: Str },
    Spec { name: "lodash.repeat", package: "lodash", module: "_baseRepeat.js", function: "baseRepeat",
        call: "(m, req) => req('repeat')", params: &[("s", Str), ("n", Int)], returns: Str },
    Spec { name: "lodash.truncate", package: "lodash", module: "truncate.js", function: "truncate",
        call: "m => (s, n, o) => m(s, { length: n, omission: o })",
        params: &[("s", Str), ("n", Int), ("o", Str)], returns: Str },
    Spec { name: "lodash.capitalize", package: "lodash", module: "_createCaseFirst.js",
        function: "createCaseFirst", call: "(m, req) => req('capitalize')", params: &[("s", Str)],
        returns: Str },
    Spec { name: "lodash.join", package: "lodash", module: "join.js", function: "join", call: "m => m",
        params: &[("a", IntArray), ("sep", Str)], returns: Str },
    Spec { name: "lodash.indexOf", package: "lodash", module: "indexOf.js", function: "indexOf",
        call: "m => m", params: &[("a", IntArray), ("v", Int), ("from", Int)], returns: Int },
    Spec { name: "lodash.lastIndexOf", package: "lodash", module: "lastIndexOf.js",
        function: "lastIndexOf", call: "m => m", params: &[("a", IntArray), ("v", Int), ("from", Int)],
        returns: Int },
    Spec { name: "lodash.min", package: "lodash", module: "_baseExtremum.js", function: "baseExtremum",
        call: "(m, req) => req('min')", params: &[("a", NumberArray)], returns: Number },
    Spec { name: "lodash.mean", package: "lodash", module: "_baseMean.js", function: "baseMean",
        call: "(m, req) => req('mean')", params: &[("a", NumberArray)], returns: Number },
    Spec { name: "lodash.sum", package: "lodash", module: "_baseSum.js", function: "baseSum",
        call: "(m, req) => req('sum')", params: &[("a", NumberArray)], returns: Number },
    Spec { name: "lodash.sortedIndex", package: "lodash", module: "_baseSortedIndex.js",
        function: "baseSortedIndex", call: "(m, req) => req('sortedIndex')",
        params: &[("a", IntArray), ("v", Int)], returns: Int },
    Spec { name: "lodash.difference", package: "lodash", module: "_baseDifference.js",
        function: "baseDifference", call: "(m, req) => req('difference')",
        params: &[("a", IntArray), ("b", IntArray)], returns: IntArray },
    Spec { name: "lodash.drop", package: "lodash", module: "drop.js", function: "drop",
        call: "m => (a, n) => m(a, n)", params: &[("a", IntArray), ("n", Int)], returns: IntArray },
    Spec { name: "lodash.clamp", package: "lodash", module: "clamp.js", function: "clamp", call: "m => m",
        params: &[("x", Number), ("lo", Number), ("hi", Number)], returns: Number },
    Spec { name: "lodash.inRange", package: "lodash", module: "inRange.js", function: "inRange",
        call: "m => m", params: &[("x", Number), ("start", Number), ("end", Number)], returns: Bool },
    Spec { name: "lodash.startsWith", package: "lodash", module: "startsWith.js", function: "startsWith",
        call: "m => m", params: &[("s", Str), ("t", Str), ("p", Int)], returns: Bool },
    Spec { name: "mathjs.gcd", package: "mathjs", module: MATH, function: "gcdNumber",
        call: "m => m.gcdNumber", params: &[("a", Int), ("b", Int)], returns: Int },
    Spec { name: "mathjs.lcm", package: "mathjs", module: MATH, function: "lcmNumber",
        call: "m => m.lcmNumber", params: &[("a", Int), ("b", Int)], returns: Int },
    Spec { name: "mathjs.xgcd", package: "mathjs", module: MATH, function: "xgcdNumber",
        call: "m => m.xgcdNumber", params: &[("a", Int), ("b", Int)], returns: IntArray },
    Spec { name: "mathjs.pow", package: "mathjs", module: MATH, function: "powNumber",
        call: "m => m.powNumber", params: &[("x", Number), ("y", Number)], returns: Number },
    Spec { name: "mathjs.mod", package: "mathjs", module: MATH, function: "modNumber",
        call: "m => m.modNumber", params: &[("x", Number), ("y", Number)], returns: Number },
    Spec { name: "mathjs.log", package: "mathjs", module: MATH, function: "logNumber",
        call: "m => m.logNumber", params: &[("x", Number), ("b", Number)], returns: Number },
    Spec { name: "mathjs.round", package: "mathjs", module: MATH, function: "roundNumber",
        call: "m => m.roundNumber", params: &[("x", Number), ("d", Int)], returns: Number },
    Spec { name: "mathjs.nthRoot", package: "mathjs", module: MATH, function: "nthRootNumber",
        call: "m => m.nthRootNumber", params: &[("a", Number), ("root", Int)], returns: Number },
    Spec { name: "mathjs.combinations", package: "mathjs",
        module: "lib/cjs/plain/number/combinations.js", function: "combinationsNumber",
        call: "m => m.combinationsNumber", params: &[("n", Int), ("k", Int)], returns: Int },
    Spec { name: "mathjs.gamma", package: "mathjs", module: "lib/cjs/plain/number/probability.js",
        function: "gammaNumber", call: "m => m.gammaNumber", params: &[("x", Number)],
        returns: Number },
];

/// Subjects by name (`lodash.padStart`), by package (`mathjs`) or `all`.
pub fn select(names: &[String]) -> Result<Vec<Spec>, GenmorphError> {
    let mut out: Vec<Spec> = Vec::new();
    for n in names {
        let found: Vec<Spec> = SUBJECTS
            .iter()
            .filter(|s| n == "all" || s.name == n || s.package == n)
            .copied()
            .collect();
        if found.is_empty() {
            let known: Vec<&str> = SUBJECTS.iter().map(|s| s.name).collect();
            return Err(GenmorphError::Setup(format!(
                "no subject {n:?}; known: all, lodash, mathjs, {}",
                known.join(", ")
            )));
        }
        for f in found {
            if !out.iter().any(|o| o.name == f.name) {
                out.push(f);
            }
        }
    }
    Ok(out)
}

impl Spec {
    pub fn package_dir(&self, js_dir: &Path) -> PathBuf {
        js_dir.join("node_modules").join(self.package)
    }

    pub fn module_path(&self, js_dir: &Path) -> PathBuf {
        self.package_dir(js_dir).join(self.module)
    }

    /// Reads the module and the package's version and finds the function's span.
    pub fn subject(&self, js_dir: &Path) -> Result<Subject, GenmorphError> {
        let file = self.module_path(js_dir);
        let source = std::fs::read_to_string(&file)
            .map_err(|e| GenmorphError::Setup(format!("cannot read {}: {e}", file.display())))?;
        let manifest = self.package_dir(js_dir).join("package.json");
        let version = std::fs::read_to_string(&manifest)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|j| j["version"].as_str().map(str::to_string))
            .ok_or_else(|| GenmorphError::Setup(format!("no version in {}", manifest.display())))?;
        let span = super::mutants::function_span(&source, self.function).ok_or_else(|| {
            GenmorphError::Setup(format!(
                "no function {} in {}",
                self.function,
                file.display()
            ))
        })?;
        Ok(Subject {
            name: self.name.into(),
            package: self.package.into(),
            version,
            module: self.module.into(),
            function: self.function.into(),
            call: self.call.into(),
            params: self
                .params
                .iter()
                .map(|(n, k)| Param {
                    name: (*n).into(),
                    kind: *k,
                })
                .collect(),
            returns: self.returns,
            source,
            span,
        })
    }
}
