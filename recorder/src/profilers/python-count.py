# morphtrace's ground truth for coverage.py: the program run with a counter before each of its
# statements, inserted into its syntax tree (the standard library's `ast`), so that the counts
# come from the program's own code and not from a tracer. Statements keep their line numbers.
#
#   python morphtrace_count.py PROGRAM      (the counts go to $MORPHTRACE_COUNTS as JSON)
import ast
import builtins
import json
import os
import sys
import types

# Statement lists a counter may go into (`handlers` holds clauses, not statements).
FIELDS = ("body", "orelse", "finalbody")


def _is_docstring(node, first):
    return (
        first
        and isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


class _Counters(ast.NodeTransformer):
    def __init__(self):
        # Every line with a counter, so that one that never ran reads 0 (not "no counter").
        self.lines = set()

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in FIELDS:
            body = getattr(node, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            out = []
            for i, stmt in enumerate(body):
                # A docstring or a `from __future__` import must stay first: they get no counter
                # (and are not compared), as declarations.
                future = isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
                # `global` and `nonlocal` declare; no code of theirs runs.
                declaration = isinstance(stmt, (ast.Global, ast.Nonlocal))
                if not (_is_docstring(stmt, i == 0) or future or declaration):
                    hit = ast.Expr(
                        ast.Call(
                            ast.Name("__morphtrace_hit__", ast.Load()),
                            [ast.Constant(stmt.lineno)],
                            [],
                        )
                    )
                    out.append(ast.copy_location(hit, stmt))
                    self.lines.add(stmt.lineno)
                out.append(stmt)
            setattr(node, field, out)
        return node


def main():
    path = os.path.abspath(sys.argv[1])
    target = os.environ["MORPHTRACE_COUNTS"]
    with open(path, "rb") as f:
        source = f.read()
    counters = _Counters()
    tree = counters.visit(ast.parse(source, path))
    ast.fix_missing_locations(tree)
    code = compile(tree, path, "exec")
    counts = dict.fromkeys(counters.lines, 0)

    def hit(line):
        counts[line] = counts.get(line, 0) + 1

    builtins.__morphtrace_hit__ = hit
    # The program runs as `python PROGRAM` runs it: as __main__, its directory first on the path.
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    try:
        exec(code, main.__dict__)
    finally:
        with open(target, "w") as f:
            json.dump(counts, f)


main()
