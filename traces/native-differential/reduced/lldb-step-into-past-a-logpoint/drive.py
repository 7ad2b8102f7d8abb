# morphtrace's standalone driver of a native debugger: replays actions.json on one debugger
# through its own Python API (gdb's `gdb` module, LLDB's `lldb` module), the API its machine
# interface and its DAP adapter are built on, and writes one JSON line per action to $MT_ANSWERS.
# `python3 drive.py compare A B` then says whether the finding shows (finding.json).
#
#   gdb -nx -batch -x drive.py                                  (MT_PROGRAM, MT_ACTIONS, MT_ANSWERS)
#   lldb -b -x -o 'command script import ./drive.py'             (the same)
import json
import os
import re
import sys

SOURCE = "program.c"


def split(action):
    if isinstance(action, str):
        return action, {}
    return next(iter(action.items()))


def env():
    return (
        os.environ["MT_PROGRAM"],
        json.load(open(os.environ["MT_ACTIONS"])),
        open(os.environ["MT_ANSWERS"], "w"),
    )


def answer(out, a):
    out.write(json.dumps(a) + "\n")
    out.flush()


# ---- gdb ----------------------------------------------------------------------------------------


def drive_gdb(gdb):
    program, actions, out = env()
    for c in ["set pagination off", "set confirm off", "set breakpoint pending off",
              "set style enabled off", "set print pretty off", "file " + program]:
        gdb.execute(c, to_string=True)
    logs = []

    class Logpoint(gdb.Breakpoint):
        # As a logpoint: evaluates, logs, and never stops.
        def __init__(self, spec, expression):
            super().__init__(spec)
            self.log_expression = expression

        def stop(self):
            try:
                logs.append(str(gdb.parse_and_eval(self.log_expression)))
            except gdb.error as e:
                logs.append("<error: %s>" % e)
            return False

    bps = []
    state = {"started": False}

    def running():
        try:
            return gdb.selected_inferior().pid != 0 and gdb.selected_thread() is not None
        except gdb.error:
            return False

    def pause():
        if not running():
            return {"ended": True}
        f = gdb.selected_frame()
        line = f.find_sal().line
        stack, g = [], f
        while g is not None:
            sal = g.find_sal()
            if sal.symtab is not None and sal.symtab.filename.endswith(SOURCE):
                stack.append(g.name())
            g = g.older()
        local = {}
        try:
            block = f.block()
            while block is not None:
                for sym in block:
                    if (sym.is_variable or sym.is_argument) and sym.name not in local:
                        try:
                            local[sym.name] = str(sym.value(f))
                        except gdb.error as e:
                            local[sym.name] = "<%s>" % e
                if block.function is not None:
                    break
                block = block.superblock
        except RuntimeError:
            pass
        return {"line": line, "stack": stack, "locals": local}

    def control(command):
        try:
            gdb.execute(command, to_string=True)
        except gdb.error as e:
            if running():
                return {"error": str(e)}
        return pause()

    for a in actions:
        name, arg = split(a)
        try:
            if name in ("SetBreakpoint", "SetConditionalBreakpoint", "SetLogpoint"):
                spec = "%s:%d" % (SOURCE, arg["line"] + 1)
                try:
                    if name == "SetLogpoint":
                        bp = Logpoint(spec, arg["expression"])
                    else:
                        bp = gdb.Breakpoint(spec)
                        if name == "SetConditionalBreakpoint":
                            bp.condition = arg["condition"]
                    bps.append(bp)
                    placed = sorted({l.source[1] for l in bp.locations if l.source})
                    ans = {"placed": placed}
                except gdb.error as e:
                    bps.append(None)
                    ans = {"placed": [], "error": str(e)}
            elif name == "RemoveBreakpoint":
                bp = bps[arg["id"]] if arg["id"] < len(bps) else None
                if bp is not None:
                    bp.delete()
                    bps[arg["id"]] = None
                ans = {"removed": bp is not None}
            elif name == "Start":
                state["started"] = True
                ans = control("run")
            elif name in ("Resume", "StepOver", "StepInto", "StepOut"):
                if not running():
                    ans = {"ended": True}
                else:
                    ans = control({"Resume": "continue", "StepOver": "next",
                                   "StepInto": "step", "StepOut": "finish"}[name])
            elif name == "ContinueToLocation":
                gdb.execute("tbreak %s:%d" % (SOURCE, arg["line"] + 1), to_string=True)
                ans = control("continue")
            elif name == "Evaluate":
                ans = {"value": str(gdb.parse_and_eval(arg["expression"]))}
            elif name == "SetVariable":
                gdb.execute("set variable %s = %s" % (arg["name"], arg["value"]), to_string=True)
                ans = {"value": str(gdb.parse_and_eval(arg["name"]))}
            else:
                ans = {"unsupported": name}
        except gdb.error as e:
            ans = {"error": str(e)}
        ans["action"] = name
        ans["logs"] = logs[:]
        del logs[:]
        answer(out, ans)
    out.close()
    if running():
        gdb.execute("kill", to_string=True)


# ---- LLDB ---------------------------------------------------------------------------------------

LOGS = []


def logged(frame, location, extra_args, internal_dict):
    # As lldb-vscode's logpoint: evaluates, logs, and says not to stop.
    expression = extra_args.GetValueForKey("expression").GetStringValue(1 << 16)
    v = frame.EvaluateExpression(expression)
    LOGS.append(text(v) if v.GetError().Success() else "<error: %s>" % v.GetError())
    return False


def text(v):
    """A value as gdb prints it: scalars by value, aggregates as `{a, b}` or `{x = 1}`."""
    value, summary = v.GetValue(), v.GetSummary()
    if value is not None and summary is not None:
        return "%s %s" % (value, summary)
    if value is not None:
        return value
    if summary is not None:
        return summary
    children = [v.GetChildAtIndex(i) for i in range(min(v.GetNumChildren(), 200))]
    if not children:
        return ""
    named = not (children[0].GetName() or "").startswith("[")
    return "{%s}" % ", ".join(
        ("%s = %s" % (c.GetName(), text(c))) if named else text(c) for c in children
    )


def drive_lldb(lldb, debugger):
    program, actions, out = env()
    debugger.SetAsync(False)
    target = debugger.CreateTarget(program)
    state = {"process": None}
    bps = []

    def running():
        p = state["process"]
        return p is not None and p.IsValid() and p.GetState() == lldb.eStateStopped

    def thread():
        return state["process"].GetSelectedThread()

    def pause():
        if not running():
            return {"ended": True}
        t = thread()
        f = t.GetFrameAtIndex(0)
        stack = [g.GetFunctionName() for g in t
                 if g.GetLineEntry().GetFileSpec().GetFilename() == SOURCE]
        local = {}
        for v in f.GetVariables(True, True, False, True):
            local.setdefault(v.GetName(), text(v))
        return {"line": f.GetLineEntry().GetLine(), "stack": stack, "locals": local}

    for a in actions:
        name, arg = split(a)
        if name in ("SetBreakpoint", "SetConditionalBreakpoint", "SetLogpoint"):
            bp = target.BreakpointCreateByLocation(SOURCE, arg["line"] + 1)
            if name == "SetConditionalBreakpoint":
                bp.SetCondition(arg["condition"])
            if name == "SetLogpoint":
                extra = lldb.SBStructuredData()
                extra.SetFromJSON(json.dumps({"expression": arg["expression"]}))
                bp.SetScriptCallbackFunction("drive.logged", extra)
            bps.append(bp)
            placed = sorted({l.GetAddress().GetLineEntry().GetLine() for l in bp})
            ans = {"placed": placed}
        elif name == "RemoveBreakpoint":
            bp = bps[arg["id"]] if arg["id"] < len(bps) else None
            if bp is not None:
                target.BreakpointDelete(bp.GetID())
                bps[arg["id"]] = None
            ans = {"removed": bp is not None}
        elif name == "Start":
            error = lldb.SBError()
            info = lldb.SBLaunchInfo(None)
            info.SetWorkingDirectory(os.getcwd())
            state["process"] = target.Launch(info, error)
            ans = pause() if error.Success() else {"error": str(error)}
        elif name in ("Resume", "StepOver", "StepInto", "StepOut"):
            if not running():
                ans = {"ended": True}
            else:
                if name == "Resume":
                    state["process"].Continue()
                else:
                    getattr(thread(), name)()
                ans = pause()
        elif name == "ContinueToLocation":
            bp = target.BreakpointCreateByLocation(SOURCE, arg["line"] + 1)
            bp.SetOneShot(True)
            state["process"].Continue()
            ans = pause()
        elif name in ("Evaluate", "SetVariable"):
            if not running():
                ans = {"error": "not paused"}
            else:
                e = arg["expression"] if name == "Evaluate" else "%s = %s" % (arg["name"], arg["value"])
                v = thread().GetFrameAtIndex(0).EvaluateExpression(e)
                ans = {"value": text(v)} if v.GetError().Success() else {"error": str(v.GetError())}
        else:
            ans = {"unsupported": name}
        ans["action"] = name
        ans["logs"] = LOGS[:]
        del LOGS[:]
        answer(out, ans)
    out.close()
    if state["process"] is not None:
        state["process"].Kill()


def __lldb_init_module(debugger, internal_dict):
    import lldb

    drive_lldb(lldb, debugger)


# ---- the comparison -----------------------------------------------------------------------------


def norm(t):
    """A value's text as both debuggers agree to write it: a number, a char's code, or the text
    without blanks."""
    t = (t or "").strip()
    m = re.match(r"^(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s+'.*')?$", t)
    if m:
        return float(m.group(1))
    m = re.match(r"^'(.)'$", t)
    if m:
        return float(ord(m.group(1)))
    if t in ("true", "false"):
        return float(t == "true")
    return re.sub(r"\s+", "", t)


def differs(kind, a, b, variables):
    if "unsupported" in a or "unsupported" in b:
        return None
    if kind == "breakpoint-location":
        return a.get("placed") != b.get("placed")
    if kind == "breakpoint-removal":
        return a.get("removed") != b.get("removed")
    if kind == "termination":
        return bool(a.get("ended")) != bool(b.get("ended"))
    if kind == "pause-location":
        return (a.get("ended"), a.get("line")) != (b.get("ended"), b.get("line"))
    if kind == "call-stack":
        return a.get("stack") != b.get("stack")
    if kind == "variables":
        la, lb = a.get("locals") or {}, b.get("locals") or {}
        names = variables or sorted(set(la) | set(lb))
        return any((n in la) != (n in lb) or norm(la.get(n)) != norm(lb.get(n)) for n in names)
    if kind == "evaluation":
        return ("error" in a) != ("error" in b) or norm(a.get("value")) != norm(b.get("value"))
    return {k: v for k, v in a.items() if k != "logs"} != {k: v for k, v in b.items() if k != "logs"}


def compare(paths):
    finding = json.load(open("finding.json"))
    step = finding["step"]
    sides = []
    for p in paths:
        lines = [json.loads(l) for l in open(p) if l.strip()]
        if len(lines) <= step:
            print("%s answered %d actions of %d: it could not run" % (p, len(lines), step + 1),
                  file=sys.stderr)
            return 2
        sides.append(lines)
    labels = [e["label"] for e in finding["engines"]]
    for i, answers in enumerate(zip(*sides)):
        mark = "  <- step %d, the finding's" % (i + 1) if i == step else ""
        print("%d. %s%s" % (i + 1, answers[0]["action"], mark))
        for label, a in zip(labels, answers):
            shown = {k: v for k, v in a.items() if k != "action" and (k != "logs" or v)}
            print("   %s: %s" % (label, json.dumps(shown)))
    d = differs(finding["kind"], sides[0][step], sides[1][step], finding.get("variables") or [])
    if d is None:
        print("an action the driver does not support: cannot tell", file=sys.stderr)
        return 2
    if d:
        print("the finding shows: %s differs at step %d (%s)" % (finding["kind"], step + 1, finding["action"]))
        return 1
    print("the finding does not show: the debuggers agree at step %d" % (step + 1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2:]))
    try:
        import gdb  # noqa: F401  (run by gdb -x)
    except ImportError:
        sys.exit("run by gdb -x, by lldb's `command script import`, or as `drive.py compare A B`")
    drive_gdb(gdb)
