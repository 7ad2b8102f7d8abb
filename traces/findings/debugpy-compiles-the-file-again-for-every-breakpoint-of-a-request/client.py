"""A Debug Adapter Protocol client of the standard library alone, for reproduce.sh.

    python client.py

Starts debugpy's adapter (`python -m debugpy.adapter`, over stdio) and launches counter.py,
which runs program.py counting each `compile()` of program.py's source. At the first stop (a
breakpoint on program.py's line 127, in its loop) it sends `setBreakpoints` for program.py with
the 40 functions' body lines, the same request again, then one with a single line, and after each
reads the count by an evaluation on the paused frame. It prints one line per request:
`setBreakpoints N lines: C compiles, T ms` (T for information only). Exit 2 when the adapter
does not answer in time or a request fails.
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time

TIMEOUT = 30
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "program.py")
BODIES = [6 + 3 * i for i in range(40)]


def main():
    adapter = subprocess.Popen(
        [sys.executable, "-m", "debugpy.adapter"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    inbox = queue.Queue()

    def read():
        while True:
            length = None
            while True:
                header = adapter.stdout.readline()
                if not header:
                    inbox.put(None)
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            inbox.put(json.loads(adapter.stdout.read(length)))

    threading.Thread(target=read, daemon=True).start()
    seq = [0]

    def fail(why):
        print(why, file=sys.stderr)
        adapter.kill()
        sys.exit(2)

    def send(command, **arguments):
        seq[0] += 1
        body = json.dumps(
            {"seq": seq[0], "type": "request", "command": command, "arguments": arguments}
        ).encode()
        adapter.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        adapter.stdin.flush()
        return seq[0]

    def wait(test, what):
        while True:
            try:
                m = inbox.get(timeout=TIMEOUT)
            except queue.Empty:
                m = None
            if m is None:
                fail("no answer from debugpy: " + what)
            if test(m):
                return m

    def request(command, **arguments):
        n = send(command, **arguments)
        m = wait(lambda m: m.get("type") == "response" and m.get("request_seq") == n, command)
        if not m.get("success"):
            fail("%s failed: %s" % (command, m.get("message")))
        return m.get("body") or {}

    def breakpoints(lines):
        return request(
            "setBreakpoints", source={"path": PROGRAM}, breakpoints=[{"line": n} for n in lines]
        )

    request(
        "initialize",
        adapterID="debugpy",
        clientID="reproduce",
        linesStartAt1=True,
        columnsStartAt1=True,
        pathFormat="path",
    )
    launched = send(
        "launch",
        program=os.path.join(HERE, "counter.py"),
        cwd=HERE,
        console="internalConsole",
        python=[sys.executable],
        justMyCode=True,
    )
    wait(lambda m: m.get("type") == "event" and m.get("event") == "initialized", "initialized")
    breakpoints([127])
    request("configurationDone")
    wait(lambda m: m.get("type") == "response" and m.get("request_seq") == launched, "launch")
    stopped = wait(
        lambda m: m.get("type") == "event" and m.get("event") in ("stopped", "terminated"),
        "the breakpoint's stop",
    )
    if stopped["event"] != "stopped":
        fail("the program ended without stopping at line 127")
    thread = stopped["body"]["threadId"]
    top = request("stackTrace", threadId=thread, levels=1)["stackFrames"][0]
    if top["line"] != 127:
        fail("stopped at line %d, not 127" % top["line"])

    def compiles():
        said = request(
            "evaluate",
            expression="__import__('counter').compiles",
            frameId=top["id"],
            context="repl",
        )["result"]
        return int(said)

    for lines in (BODIES, BODIES, [127]):
        before = compiles()
        start = time.monotonic()
        placed = breakpoints(lines)["breakpoints"]
        took = 1000 * (time.monotonic() - start)
        if [b.get("line") for b in placed] != lines:
            fail("the breakpoints were not placed on their own lines: %s" % placed)
        print(
            "setBreakpoints %d lines: %d compiles, %.0f ms" % (len(lines), compiles() - before, took)
        )
        sys.stdout.flush()
    request("disconnect", terminateDebuggee=True)
    adapter.stdin.close()
    try:
        adapter.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        adapter.kill()


main()
