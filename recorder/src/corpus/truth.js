// Ground truth (morphtrace): what the program knows at a point, printed for the first 3 times
// each point runs. A debugger paused on this call's line must show the same.
function __mt_truth(point, line, vars) {
  const hits = __mt_truth.hits || (__mt_truth.hits = {});
  const hit = (hits[point] = (hits[point] || 0) + 1);
  if (hit > 3) {
    return;
  }
  const show = (v) =>
    typeof v === "number"
      ? Object.is(v, -0) ? "-0" : String(v)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.keys(v).map((k) => [k, show(v[k])]))
        : String(v);
  const values = {};
  for (const k of Object.keys(vars)) {
    values[k] = show(vars[k]);
  }
  // Every synchronous frame of the program's own file, below this one. The async frames come
  // last, from the first one named so: `at async f` in V8 and JavaScriptCore, `async*f@` (or
  // another cause, `promise callback*f@`) in SpiderMonkey, whose later frames of the same
  // segment carry no mark.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const trace = String(new Error().stack).split("\n");
  Error.stackTraceLimit = limit;
  const frames = [];
  for (const f of trace) {
    if (/^\s*(at\s+)?async[\s*]|^[A-Za-z ]+\*/.test(f)) {
      break;
    }
    const m = /^\s*(?:at\s+)?(?:[^(@]*[(@])?(.*):(\d+):\d+\)?\s*$/.exec(f);
    if (m) {
      frames.push([m[1], Number(m[2])]);
    }
  }
  const own = frames.length ? frames[0][0] : "";
  const stack = frames.slice(1).filter((f) => f[0] === own).map((f) => f[1]);
  console.log("mt-truth " + JSON.stringify({ point, line, hit, values, stack }));
}
