# The fork loop of morphtrace's Python fork servers (debugpy's, python-forkserver.py, and
# coverage.py's, recorder/src/profilers/py-forkserver.py), put before each server's own script when
# it is written out (one file: no module of ours is imported into the programs' interpreter).
import os
import sys


def _fork_loop(child, reaped=None):
    """Forks a child per request, one JSON line each on standard input; says "forked PID" for
    each, in order, and "exited PID STATUS" when a child ends (STATUS as subprocess's
    returncode: negative for a signal), after `reaped(pid, status)`. Returns, in a child only,
    `child(request)`: what runs it. Ends this process when the recorder closes its input."""
    import json
    import select
    import signal

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    # A child's end wakes the select below; nothing else is done in the handler.
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)

    def say(line):
        data = (line + "\n").encode()
        while data:
            data = data[os.write(1, data):]

    def reap():
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            code = os.waitstatus_to_exitcode(status)
            if reaped is not None:
                reaped(pid, code)
            say("exited %d %d" % (pid, code))

    pending = b""
    while True:
        ready, _, _ = select.select([0, wake_r], [], [])
        if wake_r in ready:
            try:
                while os.read(wake_r, 512):
                    pass
            except BlockingIOError:
                pass
            reap()
        if 0 not in ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            # The recorder went: the children die with this process (their parent-death signal).
            os._exit(0)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.close(wake_r)
                os.close(wake_w)
                return child(request)
            say("forked %d" % pid)
