"""A Debug Adapter Protocol client of the standard library alone, for reproduce.sh.

    python client.py PROGRAM LINE ACTION...

Starts debugpy's adapter (`python -m debugpy.adapter`, over stdio), launches PROGRAM with a
breakpoint on LINE, and after the breakpoint's stop sends each ACTION (a DAP request without
arguments but the thread: stepIn, next, stepOut, continue). After every stop it prints one line,
`stop FUNCTION LINE seen=[...]` (the top frame, and the program's global `seen` evaluated there);
`ended` if the program ends. Exit 2 when the adapter does not answer in time.
"""

import json
import os
import queue
import subprocess
import sys
import threading

TIMEOUT = 30


def main():
    program, line, actions = os.path.abspath(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
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
                print("no answer from debugpy: " + what, file=sys.stderr)
                adapter.kill()
                sys.exit(2)
            if test(m):
                return m

    def request(command, **arguments):
        n = send(command, **arguments)
        m = wait(lambda m: m.get("type") == "response" and m.get("request_seq") == n, command)
        if not m.get("success"):
            print("%s failed: %s" % (command, m.get("message")), file=sys.stderr)
            adapter.kill()
            sys.exit(2)
        return m.get("body") or {}

    def stop():
        m = wait(
            lambda m: m.get("type") == "event" and m.get("event") in ("stopped", "terminated", "exited"),
            "a stop",
        )
        if m["event"] != "stopped":
            print("ended")
            return None
        thread = m["body"]["threadId"]
        top = request("stackTrace", threadId=thread, levels=1)["stackFrames"][0]
        seen = request("evaluate", expression="seen", frameId=top["id"], context="repl")["result"]
        print("stop %s %d seen=%s" % (top["name"], top["line"], seen))
        sys.stdout.flush()
        return thread

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
        program=program,
        cwd=os.path.dirname(program),
        console="internalConsole",
        python=[sys.executable],
        justMyCode=True,
    )
    wait(lambda m: m.get("type") == "event" and m.get("event") == "initialized", "initialized")
    request("setBreakpoints", source={"path": program}, breakpoints=[{"line": line}])
    request("configurationDone")
    wait(lambda m: m.get("type") == "response" and m.get("request_seq") == launched, "launch")
    thread = stop()
    for action in actions:
        if thread is None:
            break
        request(action, threadId=thread)
        thread = stop()
    if thread is not None:
        request("disconnect", terminateDebuggee=True)
    # The adapter outlives a disconnect until its input closes.
    adapter.stdin.close()
    try:
        adapter.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        adapter.kill()


main()
