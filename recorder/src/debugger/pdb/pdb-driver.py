# morphtrace's pdb driver: runs the program under the standard library's pdb, whose command
# interface (its prompt, `break`, `step`, `next`, `return`, `continue`, `where`, `p`, `!`) is
# spoken over a loopback socket the recorder listens on, so that the program's own stdout and
# stderr stay its own. Nothing here debugs: stepping, breakpoints and evaluation are pdb's.
#
# It also gives pdb's `p` two helpers that print what a frame holds as JSON, named and grouped
# as debugpy's variables are (pydevd's resolvers: regular names first, then `_x`, then `__x`;
# dunder names, and routines and classes with public names, left out as debugpy groups them
# away; dicts by key in order, sequences by index, sets by position), so that the two
# debuggers' views of one frame compare.
import builtins
import dis
import inspect
import json
import os
import sys
import types


# A generator's, a coroutine's or an async generator's code.
GENERATORS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
# The instructions a frame returns for good with (not `YIELD_VALUE`).
RETURNS = {dis.opmap[n] for n in ("RETURN_VALUE", "RETURN_CONST") if n in dis.opmap}

# Shown by their repr only, as the recorder's DAP session shows them (values.rs, OPAQUE).
OPAQUE = {
    "module", "function", "builtin_function_or_method", "method", "type", "code", "frame",
    "traceback", "cell", "generator", "coroutine", "async_generator",
}


def _order(name):
    if name.startswith("__"):
        return (3 if name.endswith("__") else 2, name)
    return (1 if name.startswith("_") else 0, name)


def _hidden(name, value):
    # pydevd's get_var_scope (pydevd_resolver.py), in its order: a dunder name is grouped as
    # special, a protected one (`_x`, `x__`) shown inline whatever its value, and only then a
    # routine or a class grouped as such.
    if name.startswith("__") and name.endswith("__"):
        return True
    if name.startswith("_") or name.endswith("__"):
        return False
    try:
        return (
            inspect.isroutine(value)
            or isinstance(value, types.MethodWrapperType)
            or inspect.isclass(value)
        )
    except Exception:
        return False


def _node(value, depth, most):
    t = type(value).__name__
    try:
        r = repr(value)
    except Exception:
        # As pydevd's safe_repr falls back.
        try:
            r = object.__repr__(value)
        except Exception:
            r = "<no repr available for %s>" % t
    node = {"t": t, "r": r, "c": None, "more": False}
    if depth <= 0 or value is None or isinstance(value, (bool, int, float, str, bytes, complex)):
        return node
    if t in OPAQUE or isinstance(value, type):
        return node
    if isinstance(value, dict):
        items = [(repr(k), v) for k, v in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(value)]
    elif isinstance(value, (set, frozenset)):
        items = [(str(i), v) for i, v in enumerate(value)]
    else:
        items = []
        for name in sorted(dir(value), key=_order):
            try:
                v = getattr(value, name)
            except Exception:
                continue
            if not _hidden(name, v):
                items.append((name, v))
    node["c"] = [[n, _node(v, depth - 1, most)] for n, v in items[:most]]
    node["more"] = len(items) > most
    return node


def _variables(namespace, depth, most):
    names = sorted((n for n in namespace if not _hidden(n, namespace[n])), key=_order)
    return [[n, _node(namespace[n], depth, most)] for n in names]


def __morphtrace_scopes__(depth, most):
    # pdb evaluates `p EXPR` with the current frame's globals and locals: the caller's.
    frame = sys._getframe(1)
    local, glob = frame.f_locals, frame.f_globals
    scopes = []
    if local is not glob:
        scopes.append(["local", _variables(local, depth, most)])
    scopes.append(["global", _variables(glob, depth, most)])
    return json.dumps(scopes)


def __morphtrace_value__(value, depth, most):
    return json.dumps(_node(value, depth, most))


def main():
    import pdb
    import socket
    import traceback

    # `python -c 'import morphtrace_pdb_driver as d; d.main()' PROGRAM`: this module is not
    # `__main__`, whose namespace pdb clears for the program.
    program = sys.argv[1]
    conversation = socket.create_connection(("127.0.0.1", int(os.environ["MORPHTRACE_PDB_PORT"])))
    stream = conversation.makefile("rw", encoding="utf-8", newline="\n")
    builtins.__morphtrace_scopes__ = __morphtrace_scopes__
    builtins.__morphtrace_value__ = __morphtrace_value__
    class ProgramOnly(pdb.Pdb):
        # bdb's own way to step through the program alone (`Pdb(skip=...)`): no stop in a
        # frame of another module, so a step that leaves the program for the standard library
        # stops at the next event back in the program, also in program code the library calls
        # (`copy.deepcopy` calling `__init__`), as debugpy's just-my-code steps do. Passing such
        # frames from here instead (a `return` out of each) stepped over that code.
        def is_skipped_module(self, module_name):
            return module_name != "__main__"

        # Whether the generator a `next` began in has returned for good (not yielded) since the
        # last stop: bdb's step then waits for a StopIteration that a `for` loop or a built-in
        # never raises, and only a breakpoint stops the program.
        generator_ended = False

        def dispatch_return(self, frame, arg):
            code = frame.f_code
            if (
                frame is self.stopframe
                and code.co_flags & GENERATORS
                and 0 <= frame.f_lasti < len(code.co_code)
                and code.co_code[frame.f_lasti] in RETURNS
            ):
                self.generator_ended = True
            return super().dispatch_return(frame, arg)

        def user_line(self, frame):
            # bdb asks `break_here` only where `stop_here` (the command under way) says no: a
            # stop there is a breakpoint's, which the recorder reports as such, also during a
            # step (debugpy does). The words are the recorder's BY_A_BREAKPOINT and
            # GENERATOR_ENDED.
            if not self._wait_for_mainpyfile and not self.stop_here(frame):
                self.message("morphtrace: stopped by a breakpoint")
                if self.generator_ended:
                    self.message("morphtrace: after the generator the step began in ended")
            super().user_line(frame)

        def interaction(self, frame, traceback):
            self.generator_ended = False
            super().interaction(frame, traceback)

    # `skip` non-empty: bdb asks `is_skipped_module` only then.
    debugger = ProgramOnly(
        stdin=stream, stdout=stream, skip=["*"], nosigint=True, readrc=False
    )
    debugger.use_rawinput = False

    def checklines(first, last):
        # The lines pdb's own `checkline` accepts (as `break` asks it): where a breakpoint goes,
        # its words on the others held back.
        said = debugger.message, debugger.error
        debugger.message = debugger.error = lambda *_: None
        try:
            return [n for n in range(first, last + 1) if debugger.checkline(program, n)]
        finally:
            debugger.message, debugger.error = said

    builtins.__morphtrace_checklines__ = checklines
    # As `python -m pdb PROGRAM` sets them up.
    sys.argv[:] = [program]
    sys.path[0] = os.path.dirname(program)
    code = 0
    try:
        # As `python -m pdb PROGRAM` runs it (`pdb.main`): `_run` with a script target from
        # Python 3.11 on, `_runscript` before.
        if hasattr(pdb, "_ScriptTarget"):
            debugger._run(pdb._ScriptTarget(program))
        else:
            debugger._runscript(program)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, (int, type(None))):
            print(e.code, file=sys.stderr)
    except BaseException:
        # As the interpreter reports an uncaught exception; the frames above the program's
        # are pdb's and this driver's.
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        stream.write("\nmorphtrace: the program ended\n")
        stream.flush()
    except OSError:
        pass
    os._exit(code)
