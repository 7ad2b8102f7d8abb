"""A Debug Adapter Protocol proxy that plants one fault: it runs the real adapter given after
`--`, relays every message between it and the client on stdin/stdout, and changes what the
fault names. Lines are 1-based, as DAP's.

    python3 dap-proxy.py drop-stop:LINE -- python3 -m debugpy.adapter
        a breakpoint stop at LINE is never shown: the proxy continues in the client's place
    python3 dap-proxy.py hide:NAME -- ...
        a variable NAME is left out of every `variables` answer
    python3 dap-proxy.py wrong-line:LINE -- ...
        a stack frame at LINE is reported one line below
"""
import json
import subprocess
import sys
import threading

fault, _, rest = " ".join(sys.argv[1:]).partition(" -- ")
kind, _, arg = fault.partition(":")
adapter = subprocess.Popen(rest.split(" "), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
client_in, client_out = sys.stdin.buffer, sys.stdout.buffer
lock = threading.Lock()
# Our own requests' sequence numbers, far above the client's; their answers are not relayed.
own = iter(range(10**9, 2 * 10**9))
swallowed = set()
breakpoint_lines = {}
swallow_continued = [0]


def read(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def write(stream, message):
    body = json.dumps(message).encode()
    with lock:
        stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stream.flush()


def from_client():
    while True:
        m = read(client_in)
        if m is None:
            adapter.stdin.close()
            return
        write(adapter.stdin, m)


def changed(m):
    """The message to relay, changed by the fault, or None to drop it."""
    if m.get("type") == "response":
        if m.get("request_seq") in swallowed:
            return None
        body = m.get("body") or {}
        if m.get("command") == "setBreakpoints":
            for b in body.get("breakpoints", []):
                if "id" in b and "line" in b:
                    breakpoint_lines[b["id"]] = b["line"]
        if kind == "wrong-line" and m.get("command") == "stackTrace":
            for f in body.get("stackFrames", []):
                if f.get("line") == int(arg):
                    f["line"] += 1
        if kind == "hide" and m.get("command") == "variables":
            body["variables"] = [v for v in body.get("variables", []) if v.get("name") != arg]
    if m.get("type") == "event":
        body = m.get("body") or {}
        if m.get("event") == "continued" and swallow_continued[0]:
            swallow_continued[0] -= 1
            return None
        if (
            kind == "drop-stop"
            and m.get("event") == "stopped"
            and body.get("reason") == "breakpoint"
            and any(breakpoint_lines.get(i) == int(arg) for i in body.get("hitBreakpointIds", []))
        ):
            seq = next(own)
            swallowed.add(seq)
            swallow_continued[0] += 1
            write(
                adapter.stdin,
                {"seq": seq, "type": "request", "command": "continue",
                 "arguments": {"threadId": body.get("threadId")}},
            )
            return None
    return m


threading.Thread(target=from_client, daemon=True).start()
while True:
    m = read(adapter.stdout)
    if m is None:
        break
    m = changed(m)
    if m is not None:
        write(client_out, m)
adapter.wait()
