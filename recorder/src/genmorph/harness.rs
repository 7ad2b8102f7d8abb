//! The warm Node process that runs library functions, their mutants and StrykerJS's
//! instrumented module (`recorder/js/genmorph/harness.js`), one JSON request per line.

use super::GenmorphError;
use crate::child::{DieWithParent, WithoutAmbientNode};
use morphtrace_schema::genmorph::{JsValue, Outcome};
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Where the harness script and its pinned npm packages live.
pub fn js_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/genmorph");
    dir.canonicalize().unwrap_or(dir)
}

/// A StrykerJS mutant as the instrumenter reports it (positions 0-based).
#[derive(Debug, Clone)]
pub struct StrykerMutant {
    pub id: String,
    pub mutator: String,
    pub replacement: String,
    pub start: (u32, u32),
    pub end: (u32, u32),
}

/// Raw V8 block ranges `(start, end, count)` of each call, and what each call did.
pub struct Coverage {
    pub ranges: Vec<Vec<(u32, u32, u32)>>,
    pub outcomes: Vec<Outcome>,
}

pub struct Harness {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    pub node_version: String,
    /// Longest a request may take (a watchdog in the harness stops looping calls sooner).
    pub request_timeout: Duration,
    /// Calls the harness's wall clock stopped (not a loop count): outcomes that a loaded
    /// machine may decide otherwise. The caller reads and resets it.
    pub wall_clock_stops: u64,
}

impl Harness {
    /// Starts `node harness.js` in the harness folder (so that the pinned packages resolve).
    pub fn start(node: &Path) -> Result<Harness, GenmorphError> {
        let dir = js_dir();
        if !dir
            .join("node_modules/@stryker-mutator/instrumenter")
            .is_dir()
        {
            return Err(GenmorphError::Setup(format!(
                "the harness's npm packages are not installed in {} (run scripts/setup.sh)",
                dir.display()
            )));
        }
        // Dies with the recorder even while busy (otherwise only at its next read of a closed stdin).
        let mut child = Command::new(node)
            .die_with_parent()
            .without_ambient_node()
            .arg("--stack-size=2000")
            .arg(dir.join("harness.js"))
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| GenmorphError::Setup(format!("cannot start {}: {e}", node.display())))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| GenmorphError::Harness("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| GenmorphError::Harness("no stdout".into()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut h = Harness {
            child,
            stdin,
            lines: rx,
            node_version: String::new(),
            request_timeout: Duration::from_secs(120),
            wall_clock_stops: 0,
        };
        let hello = h.request(json!({"op": "hello"}))?;
        h.node_version = hello["node"].as_str().unwrap_or("?").to_string();
        Ok(h)
    }

    fn request(&mut self, req: Json) -> Result<Json, GenmorphError> {
        let op = req["op"].as_str().unwrap_or("?").to_string();
        let mut line =
            serde_json::to_string(&req).map_err(|e| GenmorphError::Harness(e.to_string()))?;
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| GenmorphError::Harness(format!("the harness is gone ({e})")))?;
        let reply = match self.lines.recv_timeout(self.request_timeout) {
            Ok(Ok(l)) => l,
            Ok(Err(e)) => return Err(GenmorphError::Harness(format!("reading the harness: {e}"))),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                return Err(GenmorphError::Harness(format!(
                    "no answer to {op} within {:?}; harness killed",
                    self.request_timeout
                )));
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().ok();
                return Err(GenmorphError::Harness(format!(
                    "the harness exited during {op} ({status:?})"
                )));
            }
        };
        let mut reply: Json = serde_json::from_str(&reply)
            .map_err(|e| GenmorphError::Harness(format!("bad reply to {op}: {e}")))?;
        self.wall_clock_stops += reply["wall"].as_u64().unwrap_or(0);
        if let Some(e) = reply.get("error") {
            return Err(GenmorphError::Request {
                op,
                message: e.as_str().unwrap_or("?").to_string(),
            });
        }
        Ok(reply["ok"].take())
    }

    /// Loads `source` as the module file `path` and keeps the function the `call` adapter
    /// gives as variant `id`.
    pub fn load(
        &mut self,
        id: &str,
        path: &Path,
        source: &str,
        call: &str,
    ) -> Result<(), GenmorphError> {
        self.request(json!({"op": "load", "id": id, "path": path, "source": source, "call": call}))
            .map(|_| ())
    }

    pub fn forget(&mut self, id: &str) -> Result<(), GenmorphError> {
        self.request(json!({"op": "forget", "id": id})).map(|_| ())
    }

    /// Calls variant `id` (with StrykerJS mutant `active` switched on, if any) on each input.
    pub fn run(
        &mut self,
        id: &str,
        active: Option<&str>,
        inputs: &[Vec<JsValue>],
        timeout_ms: u64,
    ) -> Result<Vec<Outcome>, GenmorphError> {
        let r = self.request(json!({
            "op": "run", "variant": id, "active": active,
            "inputs": tagged(inputs), "timeout_ms": timeout_ms,
        }))?;
        outcomes(&r["outcomes"], inputs.len())
    }

    /// Block coverage of each call within the byte-compatible offsets `span` of the module
    /// `path`: raw V8 ranges `(start, end, count)`, and the outcomes.
    pub fn coverage(
        &mut self,
        id: &str,
        path: &Path,
        span: (u32, u32),
        inputs: &[Vec<JsValue>],
        timeout_ms: u64,
    ) -> Result<Coverage, GenmorphError> {
        let r = self.request(json!({
            "op": "coverage", "variant": id, "path": path, "span": [span.0, span.1],
            "inputs": tagged(inputs), "timeout_ms": timeout_ms,
        }))?;
        let bad = || GenmorphError::Harness("bad coverage reply".into());
        let cov = r["coverage"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .map(|ranges| {
                ranges
                    .as_array()
                    .ok_or_else(bad)?
                    .iter()
                    .map(|t| {
                        let n = |i: usize| t.get(i).and_then(Json::as_u64).map(|x| x as u32);
                        (|| Some((n(0)?, n(1)?, n(2)?)))().ok_or_else(bad)
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        if cov.len() != inputs.len() {
            return Err(bad());
        }
        Ok(Coverage {
            ranges: cov,
            outcomes: outcomes(&r["outcomes"], inputs.len())?,
        })
    }

    /// StrykerJS's instrumented module (all mutants behind `__stryker__.activeMutant`) and its
    /// mutants.
    pub fn instrument(
        &mut self,
        path: &Path,
        source: &str,
    ) -> Result<(String, Vec<StrykerMutant>), GenmorphError> {
        let r = self.request(json!({"op": "instrument", "path": path, "source": source}))?;
        let bad = || GenmorphError::Harness("bad instrument reply".into());
        let text = r["source"].as_str().ok_or_else(bad)?.to_string();
        let pos = |j: &Json| -> Option<(u32, u32)> {
            Some((j.get(0)?.as_u64()? as u32, j.get(1)?.as_u64()? as u32))
        };
        let mutants = r["mutants"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .map(|m| {
                (|| {
                    Some(StrykerMutant {
                        id: m["id"].as_str()?.to_string(),
                        mutator: m["mutator"].as_str()?.to_string(),
                        replacement: m["replacement"].as_str()?.to_string(),
                        start: pos(&m["start"])?,
                        end: pos(&m["end"])?,
                    })
                })()
                .ok_or_else(bad)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((text, mutants))
    }
}

/// One pair's judgement by the harness.
#[derive(Debug, Clone)]
pub enum PairCheck {
    Holds,
    /// The relation fails on this pair, with the outputs.
    Fails {
        out_s: JsValue,
        out_f: JsValue,
    },
    /// A call threw or timed out, or the relation could not be evaluated.
    Skipped(String),
}

impl Harness {
    /// Defines the `__mt` helpers that relations call.
    pub fn prelude(&mut self, source: &str) -> Result<(), GenmorphError> {
        self.request(json!({"op": "prelude", "source": source}))
            .map(|_| ())
    }

    /// Runs variant `id` on both inputs of each pair and judges the relation `relation` (a JS
    /// expression over `names`: `<param>_s, <param>_f, ..., out_s, out_f`).
    pub fn check(
        &mut self,
        id: &str,
        relation: &str,
        names: &[String],
        pairs: &[(Vec<JsValue>, Vec<JsValue>)],
        timeout_ms: u64,
    ) -> Result<Vec<PairCheck>, GenmorphError> {
        let pairs_json: Vec<Json> = pairs
            .iter()
            .map(|(s, f)| json!([tagged_one(s), tagged_one(f)]))
            .collect();
        let r = self.request(json!({
            "op": "check", "variant": id, "relation": relation, "names": names,
            "pairs": pairs_json, "timeout_ms": timeout_ms,
        }))?;
        let list = r["verdicts"]
            .as_array()
            .filter(|l| l.len() == pairs.len())
            .ok_or_else(|| GenmorphError::Harness("bad check reply".into()))?;
        list.iter()
            .map(|v| {
                if let Some(why) = v.get("skipped") {
                    return Ok(PairCheck::Skipped(why.as_str().unwrap_or("?").to_string()));
                }
                if v["holds"].as_bool() == Some(true) {
                    return Ok(PairCheck::Holds);
                }
                let out = |k: &str| JsValue::from_tagged(&v[k]).map_err(GenmorphError::Harness);
                Ok(PairCheck::Fails {
                    out_s: out("out_s")?,
                    out_f: out("out_f")?,
                })
            })
            .collect()
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tagged_one(input: &[JsValue]) -> Json {
    Json::Array(input.iter().map(JsValue::to_tagged).collect())
}

fn tagged(inputs: &[Vec<JsValue>]) -> Json {
    Json::Array(inputs.iter().map(|i| tagged_one(i)).collect())
}

fn outcomes(j: &Json, n: usize) -> Result<Vec<Outcome>, GenmorphError> {
    let bad = |m: String| GenmorphError::Harness(format!("bad outcome: {m}"));
    let list = j.as_array().ok_or_else(|| bad("not a list".into()))?;
    if list.len() != n {
        return Err(bad(format!("{} outcomes for {n} inputs", list.len())));
    }
    list.iter()
        .map(|o| {
            if let Some(r) = o.get("r") {
                JsValue::from_tagged(r).map(Outcome::Returned).map_err(bad)
            } else if let Some(t) = o.get("t") {
                let s = |i: usize| t.get(i).and_then(Json::as_str).unwrap_or("").to_string();
                Ok(Outcome::Threw {
                    name: s(0),
                    message: s(1),
                })
            } else if o.get("x").is_some() {
                Ok(Outcome::Timeout)
            } else {
                Err(bad(o.to_string()))
            }
        })
        .collect()
}
