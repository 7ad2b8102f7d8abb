# morphtrace's warm start for debugpy (issue 70): an interpreter that has imported debugpy and
# its pydevd once, and forks a child per session that runs the program as debugpy's launcher
# would have started it (`python -X frozen_modules=off DEBUGPY --connect HOST:PORT
# --configure-subProcess False --configure-qt none PROGRAM`, then debugpy's own `run_file`):
# the same `sys.argv`, `sys.path`, `__main__` and environment, the same modules imported before
# the program's first statement, and the program paused there as `stopOnEntry` pauses it. What
# a cold start spends (two interpreters started, debugpy imported) is spent once.
#
# Run with the argument `adapter`, it forks debugpy's adapters instead (`python -m
# debugpy.adapter`, DAP over its standard input and output, here two FIFOs of the session's): a
# server of its own, so that a program never sees the adapter's modules imported.
#
# Protocol, one line each way (the recorder's end: recorder/src/debugger/engines/forkserver.rs):
#   in:  {"program": PATH, "cwd": DIR, "port": N, "out": FIFO, "err": FIFO, "prelude": BOOL}
#        (adapters: {"in": FIFO, "out": FIFO})
#   out: "ready" once debugpy is imported; "forked PID" for each request, in order; "exited PID STATUS" when a child ends
#        (STATUS as subprocess's returncode: negative for a signal), after PID.status is
#        written in $MORPHTRACE_STATUS_DIR as debugpy's launcher writes it there.
import os
import sys

# (`_fork_loop` comes before this script: python-forkloop.py.)


def _serve(adapters):
    """Forks a child per request. Returns, in the child only, what runs its program."""
    import json  # noqa: F401 - the fork loop's, imported before debugpy as it always was
    import select  # noqa: F401
    import signal  # noqa: F401

    import debugpy

    if adapters:
        from debugpy.adapter import __main__ as adapter, clients, launchers, servers, sessions  # noqa: F401
    else:
        from debugpy.server import cli  # noqa: F401 - imported here as the cold start imports it
        from _pydevd_bundle.pydevd_api import PyDevdAPI  # noqa: F401

    statuses = os.environ.get("MORPHTRACE_STATUS_DIR")
    os.write(1, b"ready\n")

    def reaped(pid, code):
        if statuses:
            try:
                with open(os.path.join(statuses, "%d.status" % pid), "w") as f:
                    f.write(str(code))
            except OSError:
                pass

    if adapters:
        return _fork_loop(lambda request: lambda: _adapt(request, adapter), reaped)
    return _fork_loop(lambda request: lambda: _run(request, debugpy), reaped)


def _adapt(request, adapter):
    """The child: debugpy's adapter over the session's two FIFOs, as `python -m debugpy.adapter`."""
    import sitecustomize

    sitecustomize._die_with_parent()
    for fd, path, flags in (
        (0, request["in"], os.O_RDONLY),
        (1, request["out"], os.O_WRONLY),
        (2, os.devnull, os.O_WRONLY),
    ):
        f = os.open(path, flags)
        os.dup2(f, fd)
        os.close(f)
    del sys.path[0]
    sys.argv = [adapter.__file__]
    adapter.main()


def _run(request, debugpy):
    """The child: the session's streams and directory, then the program under debugpy."""
    import runpy
    import sitecustomize

    from debugpy.server import cli
    from _pydevd_bundle.pydevd_api import PyDevdAPI

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
    program = request["program"]
    os.chdir(request["cwd"])
    if request.get("prelude"):
        # As the cold start's sitecustomize applies it at start-up; its subprocesses see it too.
        os.environ["MORPHTRACE_PRELUDE"] = program
        sitecustomize._determinism(program)
    here = os.path.dirname(debugpy.__file__)
    # `python DEBUGPY ...` puts debugpy's directory first in sys.path, and debugpy's __main__
    # takes it out again: this script's directory goes the same way.
    del sys.path[0]
    sys.argv = [
        here,
        "--connect",
        "127.0.0.1:%d" % request["port"],
        "--configure-subProcess",
        "False",
        "--configure-qt",
        "none",
        program,
    ]
    cli.parse_args()
    # debugpy's run_file (debugpy/server/cli.py), with the pause at the first statement that a
    # launch's `stopOnEntry` asks pydevd for (an attach cannot ask): set before the program's
    # first line runs, as pydevd sets it while handling the launch.
    cli.start_debugging(program)
    PyDevdAPI().stop_on_entry()
    if os.path.isfile(program) and not cli._skip_sys_path_prepend():
        sys.path.insert(0, os.path.dirname(program))
    runpy.run_path(program, run_name="__main__")


# At the top level, as the cold start's `runpy` frame is: what the program raises ends this
# interpreter as it would end `python PROGRAM` (the traceback printed, status 1; SystemExit's
# code; atexit handlers and non-daemon threads awaited).
_session = _serve(sys.argv[1:] == ["adapter"])
del _serve
_session()
