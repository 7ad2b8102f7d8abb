# morphtrace's warm start for coverage.py (issue 70): an interpreter that has imported
# coverage.py's command line once, and forks a child per run that runs as `python -m coverage
# ARGS` would have (a measured run, or `coverage json`). What a cold start spends per run (an
# interpreter's start-up, coverage.py's import) is spent once per engine.
#
# The server starts with the environment every run shares; a request adds the run's own
# variables. What a child sees of its start, as the cold start gives it: sys.argv[0]
# coverage's __main__, sys.path[0] the working directory (as `-m` sets it), the modules
# `python -m coverage` has imported before its `main` runs, and as many frames below `main`
# (runpy's two and coverage's __main__ there; this script's top level, `_run` and `_main`
# here), so that a program recurses as deep before Python's recursion limit.
# Protocol, one line each way (the recorder's end: recorder/src/profilers/py_forkserver.rs):
#   in:  {"argv": [...], "cwd": DIR, "env": {NAME: VALUE},
#         "out": FIFO, "err": FIFO, "limits": [CPU_S, FILE_BYTES, ADDRESS_BYTES] | null,
#         "prelude": PATH | null}
#   out: "ready" once coverage.py is imported; "forked PID" for each request, in order;
#        "exited PID STATUS" when a child ends (STATUS as subprocess's returncode: negative
#        for a signal).
import os
import sys

# (`_fork_loop` comes before this script: recorder/src/debugger/engines/python-forkloop.py.)


def _serve():
    """Forks a child per request. Returns, in the child only, what runs it."""
    import functools
    import runpy  # noqa: F401 - `python -m` has imported it

    import coverage.cmdline  # noqa: F401 - as `python -m coverage` imports it before `main`

    os.write(1, b"ready\n")
    # Not a lambda: no frame of its own below the run's.
    return _fork_loop(lambda request: functools.partial(_run, request))


def _limit(limits):
    """The run's resource limits, as the cold start's pre-exec sets them (through ctypes, which
    the engine's sitecustomize has imported: no module is added)."""
    import ctypes

    class Rlimit(ctypes.Structure):
        _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]

    libc = ctypes.CDLL(None, use_errno=True)
    cpu, fsize, space = limits
    # Linux's RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_AS, RLIMIT_CORE.
    for resource, value in ((0, cpu), (1, fsize), (9, space), (4, 0)):
        if libc.setrlimit(resource, ctypes.byref(Rlimit(value, value))) != 0:
            os._exit(125)


def _run(request):
    """The child: the run's streams, directory, environment and limits, then the run."""
    import sitecustomize

    # The parent-death signal is not inherited across fork: this child dies with the server,
    # which dies with the recorder.
    sitecustomize._die_with_parent()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, request["out"]), (2, request["err"])):
        w = os.open(path, os.O_WRONLY)
        os.dup2(w, fd)
        os.close(w)
    os.chdir(request["cwd"])
    os.environ.update(request["env"])
    if request.get("limits"):
        _limit(request["limits"])
    prelude = request.get("prelude")
    if prelude:
        # As the cold start's sitecustomize applies it at start-up.
        os.environ["MORPHTRACE_PRELUDE"] = prelude
        sitecustomize._determinism(prelude)
    import coverage.cmdline

    argv = request["argv"]
    sys.argv = [os.path.join(os.path.dirname(coverage.cmdline.__file__), "__main__.py")] + argv
    sys.path[0] = os.getcwd()
    _main(coverage.cmdline.main, argv)


def _main(main, argv):
    """coverage's __main__ (`sys.exit(main())`), a frame of its own as it is in a cold start."""
    sys.exit(main(argv))


# At the top level, as runpy's frames are in a cold start: what the run raises ends this
# interpreter as it would end `python -m coverage` (SystemExit's code; atexit handlers and
# non-daemon threads awaited).
_child = _serve()
del _serve
_child()
