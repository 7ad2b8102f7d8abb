//! Whether chromiumoxide's typed CDP would read what our engines send (docs/dependencies.md).
//! Reads wire traces (`> {request}` / `< {reply or event}` lines from morphtrace's
//! `morphtrace::inspector::wire` target) and tries every message against chromiumoxide_cdp's
//! typed params, returns and events. Prints, per method, how many parsed and the first error.
use chromiumoxide_cdp::cdp::browser_protocol::{browser, target};
use chromiumoxide_cdp::cdp::js_protocol::{debugger, runtime};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

fn try_as<T: serde::de::DeserializeOwned>(v: &Value) -> Result<(), String> {
    serde_json::from_value::<T>(v.clone())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

macro_rules! cmd {
    ($m:expr, $v:expr, $is_reply:expr, $( $name:literal => $p:ty, $r:ty );* $(;)?) => {
        match $m {
            $( $name => Some(if $is_reply { try_as::<$r>($v) } else { try_as::<$p>($v) }), )*
            _ => None,
        }
    };
}

fn command(method: &str, v: &Value, reply: bool) -> Option<Result<(), String>> {
    use debugger as d;
    use runtime as r;
    cmd!(method, v, reply,
        "Debugger.enable" => d::EnableParams, d::EnableReturns;
        "Debugger.resume" => d::ResumeParams, d::ResumeReturns;
        "Debugger.stepInto" => d::StepIntoParams, d::StepIntoReturns;
        "Debugger.stepOver" => d::StepOverParams, d::StepOverReturns;
        "Debugger.stepOut" => d::StepOutParams, d::StepOutReturns;
        "Debugger.setBreakpointByUrl" => d::SetBreakpointByUrlParams, d::SetBreakpointByUrlReturns;
        "Debugger.setBreakpoint" => d::SetBreakpointParams, d::SetBreakpointReturns;
        "Debugger.removeBreakpoint" => d::RemoveBreakpointParams, d::RemoveBreakpointReturns;
        "Debugger.setSkipAllPauses" => d::SetSkipAllPausesParams, d::SetSkipAllPausesReturns;
        "Debugger.setBlackboxPatterns" => d::SetBlackboxPatternsParams, d::SetBlackboxPatternsReturns;
        "Debugger.setBreakpointsActive" => d::SetBreakpointsActiveParams, d::SetBreakpointsActiveReturns;
        "Debugger.evaluateOnCallFrame" => d::EvaluateOnCallFrameParams, d::EvaluateOnCallFrameReturns;
        "Debugger.disable" => d::DisableParams, d::DisableReturns;
        "Runtime.enable" => r::EnableParams, r::EnableReturns;
        "Runtime.evaluate" => r::EvaluateParams, r::EvaluateReturns;
        "Runtime.compileScript" => r::CompileScriptParams, r::CompileScriptReturns;
        "Runtime.runScript" => r::RunScriptParams, r::RunScriptReturns;
        "Runtime.getProperties" => r::GetPropertiesParams, r::GetPropertiesReturns;
        "Runtime.callFunctionOn" => r::CallFunctionOnParams, r::CallFunctionOnReturns;
        "Runtime.awaitPromise" => r::AwaitPromiseParams, r::AwaitPromiseReturns;
        "Runtime.terminateExecution" => r::TerminateExecutionParams, r::TerminateExecutionReturns;
        "Runtime.runIfWaitingForDebugger" => r::RunIfWaitingForDebuggerParams, r::RunIfWaitingForDebuggerReturns;
        "Target.createTarget" => target::CreateTargetParams, target::CreateTargetReturns;
        "Target.attachToTarget" => target::AttachToTargetParams, target::AttachToTargetReturns;
        "Target.closeTarget" => target::CloseTargetParams, target::CloseTargetReturns;
        "Browser.getVersion" => browser::GetVersionParams, browser::GetVersionReturns;
        "Browser.close" => browser::CloseParams, browser::CloseReturns;
    )
}

fn event(method: &str, v: &Value) -> Option<Result<(), String>> {
    use debugger as d;
    use runtime as r;
    Some(match method {
        "Debugger.paused" => try_as::<d::EventPaused>(v),
        "Debugger.resumed" => try_as::<d::EventResumed>(v),
        "Debugger.scriptParsed" => try_as::<d::EventScriptParsed>(v),
        "Debugger.scriptFailedToParse" => try_as::<d::EventScriptFailedToParse>(v),
        "Runtime.consoleAPICalled" => try_as::<r::EventConsoleApiCalled>(v),
        "Runtime.exceptionThrown" => try_as::<r::EventExceptionThrown>(v),
        "Runtime.executionContextCreated" => try_as::<r::EventExecutionContextCreated>(v),
        "Runtime.executionContextDestroyed" => try_as::<r::EventExecutionContextDestroyed>(v),
        "Runtime.executionContextsCleared" => try_as::<r::EventExecutionContextsCleared>(v),
        "Target.attachedToTarget" => try_as::<target::EventAttachedToTarget>(v),
        "Target.targetCreated" => try_as::<target::EventTargetCreated>(v),
        "Target.targetDestroyed" => try_as::<target::EventTargetDestroyed>(v),
        "Target.targetInfoChanged" => try_as::<target::EventTargetInfoChanged>(v),
        "Target.detachedFromTarget" => try_as::<target::EventDetachedFromTarget>(v),
        _ => return None,
    })
}

fn main() {
    // method -> (messages, parsed, first error)
    let mut table: BTreeMap<String, (u32, u32, Option<String>)> = BTreeMap::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut ids: HashMap<(Option<String>, u64), String> = HashMap::new();
        for line in text.lines() {
            // ` > {json} url=ws://…` (the connection) after tracing's prefix.
            let Some((line, url)) = line.rsplit_once(" url=") else {
                continue;
            };
            let (dir, json) = if let Some(i) = line.find("> {") {
                ('>', &line[i + 2..])
            } else if let Some(i) = line.find("< {") {
                ('<', &line[i + 2..])
            } else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<Value>(json) else {
                continue;
            };
            let session = Some(format!(
                "{url} {}",
                v.get("sessionId").and_then(Value::as_str).unwrap_or("")
            ));
            let (key, outcome) = if dir == '>' {
                let m = v["method"].as_str().unwrap_or("").to_string();
                ids.insert((session.clone(), v["id"].as_u64().unwrap_or(0)), m.clone());
                let r = command(&m, &v["params"], false);
                (format!("{m} params"), r)
            } else if let Some(id) = v.get("id").and_then(Value::as_u64) {
                let Some(m) = ids.get(&(session.clone(), id)).cloned() else {
                    continue;
                };
                if v.get("error").is_some() {
                    continue;
                }
                let r = command(&m, &v["result"], true);
                (format!("{m} returns"), r)
            } else {
                let m = v["method"].as_str().unwrap_or("").to_string();
                let r = event(&m, &v["params"]);
                (format!("{m} event"), r)
            };
            let e = table.entry(key).or_insert((0, 0, None));
            e.0 += 1;
            match outcome {
                Some(Ok(())) => e.1 += 1,
                Some(Err(err)) => {
                    if e.2.is_none() {
                        e.2 = Some(err);
                    }
                }
                None => {
                    if e.2.is_none() {
                        e.2 = Some("(no typed counterpart tried)".into());
                    }
                }
            }
        }
    }
    for (k, (n, ok, err)) in &table {
        println!("{k}\t{n}\t{ok}\t{}", err.as_deref().unwrap_or(""));
    }
}
