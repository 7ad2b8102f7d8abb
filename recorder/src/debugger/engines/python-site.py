# morphtrace's sitecustomize for Python engines: every Python process of a session (the debug
# adapter, its launcher, the program) runs it at start-up, before any debugger traces. It never
# appears in a stack: the adapter is told to treat its directory as library code.
import builtins
import os
import sys


def _die_with_parent():
    # Each process is killed when the one that started it dies, so that a recorder that dies
    # takes the adapter, the launcher and the program with it.
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except Exception:
        pass


def _no_delay():
    # debugpy's adapter and the debugger in the program talk over loopback TCP in small writes:
    # with Nagle's algorithm on, each answer waits for the peer's delayed acknowledgement
    # (about 40 ms a request here). Every TCP socket these processes open or accept sends at
    # once instead; what is sent does not change.
    import socket

    def quick(sock):
        try:
            if sock.type == socket.SOCK_STREAM and sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        return sock

    connect, accept = socket.socket.connect, socket.socket.accept

    def connecting(self, address):
        connect(self, address)
        quick(self)

    def accepting(self):
        conn, address = accept(self)
        return quick(conn), address

    socket.socket.connect = connecting
    socket.socket.accept = accepting


def _statuses(directory):
    # debugpy's launcher reports a program killed by a signal as its exit code's low 8 bits
    # (SIGABRT's -6 as 250, which a program may also exit with): it writes the true status,
    # by the program's pid, where the session reads it.
    import subprocess

    wait = subprocess.Popen.wait

    def waiting(self, *args, **kwargs):
        code = wait(self, *args, **kwargs)
        try:
            with open(os.path.join(directory, "%d.status" % self.pid), "w") as f:
                f.write(str(self.returncode))
        except OSError:
            pass
        return code

    subprocess.Popen.wait = waiting


def __morphtrace_log__(source):
    # A logpoint's expression, evaluated in the frame that logs it; what it throws is logged as
    # "threw NAME" (as JavaScript's logpoints log it), never in place of the whole line.
    frame = sys._getframe(1)
    try:
        return eval(source, frame.f_globals, frame.f_locals)
    except BaseException as e:  # noqa: BLE001 - the logpoint must log, whatever was raised
        return "threw " + type(e).__name__


def _determinism(program):
    # The determinism prelude: one seeded random source, and clocks from 2020-01-01T00:00:00Z
    # advancing 1 ms per reading (a busy-wait on the clock still ends). Only the program's own
    # readings are fixed: the debugger in the same process waits on the real clock.
    import random
    import time

    random.seed(0x6D6F7270)
    epoch_ns = 1577836800 * 10**9
    state = {"ticks": 0}

    def fixed(real, scale, since_epoch):
        def reading():
            if sys._getframe(1).f_code.co_filename != program:
                return real()
            state["ticks"] += 1
            ns = state["ticks"] * 10**6 + (epoch_ns if since_epoch else 0)
            return ns if scale == 1 else ns / scale

        return reading

    time.time = fixed(time.time, 1e9, True)
    time.time_ns = fixed(time.time_ns, 1, True)
    for name in ("monotonic", "perf_counter", "process_time"):
        setattr(time, name, fixed(getattr(time, name), 1e9, False))
        setattr(time, name + "_ns", fixed(getattr(time, name + "_ns"), 1, False))


def _truth():
    # Ground truth (issue 68; recorder/src/corpus/truth.py puts the calls): what the calling
    # frame holds at a point, printed for the first 3 times each point runs, as
    # `mt-truth {point, line, hit, values, stack, typed}`. Values: the frame's locals of the
    # types a debugger shows as one value (int within 2**53, finite float, bool, None, str of at
    # most 64 characters), as JSON of their own type; the stack: the lines of the frames of the
    # program's own file, the point's first.
    import json
    import math

    hits = {}
    # A debugger's own code: what runs above its frames was called by the debugger (a repr it
    # shows, an expression it evaluates), where no breakpoint stops.
    def debugger(path):
        path = path.replace("\\", "/")
        base = path.rsplit("/", 1)[-1]
        return base in ("bdb.py", "pdb.py", "morphtrace_pdb_driver.py") or "pydevd" in base or "/debugpy/" in path

    def record(point, line):
        frame = sys._getframe(1)
        own = frame.f_code.co_filename
        called = False
        f = frame.f_back
        while f is not None:
            name = f.f_code.co_filename
            if name == own:
                if called:
                    return
            elif debugger(name):
                called = True
            f = f.f_back
        hit = hits[point] = hits.get(point, 0) + 1
        if hit > 3:
            return
        values = {}
        for name, value in list(frame.f_locals.items()):
            kind = type(value)
            if name.startswith("__") and name.endswith("__"):
                continue
            if value is None or kind is bool or kind is str and len(value) <= 64:
                values[name] = value
            elif kind is int and abs(value) <= 2**53 or kind is float and math.isfinite(value):
                values[name] = value
        stack = []
        f = frame
        while f is not None:
            if f.f_code.co_filename == own:
                stack.append(f.f_lineno)
            f = f.f_back
        data = {"point": point, "line": line, "hit": hit, "values": values, "stack": stack, "typed": True}
        # Straight to the process's standard output, where the session reads it: a program may
        # have put another object in `sys.stdout` (doctest's runner captures its examples').
        # What the program wrote before comes first; a line it left open is finished by the
        # record, which the judge finds anywhere in a line.
        text = ("mt-truth " + json.dumps(data) + "\n").encode()
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001 - the program's own stream, whatever it is
            pass
        try:
            while text:
                text = text[os.write(1, text):]
        except OSError:  # a program that closed its standard output has no records
            pass

    return record


_die_with_parent()
_no_delay()
if os.environ.get("MORPHTRACE_STATUS_DIR") and sys.argv[0].replace("\\", "/").endswith("debugpy/launcher"):
    _statuses(os.environ["MORPHTRACE_STATUS_DIR"])
builtins.__morphtrace_log__ = __morphtrace_log__
builtins.__mt_truth__ = _truth()
if os.environ.get("MORPHTRACE_PRELUDE"):
    # The program's path, as its code objects name it.
    _determinism(os.environ["MORPHTRACE_PRELUDE"])
