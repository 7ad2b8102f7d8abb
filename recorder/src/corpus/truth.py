# morphtrace's ground truth for Python programs (issue 68): an instrumented copy of a program in
# which a statement line begins with a call `__mt_truth__(POINT, LINE); ` before its statement,
# on the same line, so that no line moves and a line breakpoint still stops before the
# statement, now at the call. The call records what the frame holds there (python-site.py's
# `__mt_truth__`, installed in every Python process of a session).
#
#   python truth.py < PROGRAM > COPY        (exit 1 and the reason on stderr: no copy)
#
# A point goes only where one statement execution is one line event, so that the pauses of a
# line breakpoint are the records, one for one:
# - simple statements that begin their line and end on it (a statement spread over lines goes
#   back to its first line after the others, a second line event there);
# - no nested code on the line (lambdas and comprehensions run in a frame of their own on the
#   same line, which a line breakpoint also stops in) and no suspension (`yield` and `await`
#   resume with a line event);
# - not a docstring, a `from __future__` import, `global` or `nonlocal` (which must come first,
#   or where no code runs).
import ast
import re
import sys

SIMPLE = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Return,
    ast.Pass,
    ast.Break,
    ast.Continue,
    ast.Raise,
    ast.Assert,
    ast.Delete,
    ast.Import,
    ast.ImportFrom,
)
NESTED = (
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Yield,
    ast.YieldFrom,
    ast.Await,
)


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first))
    return out


def instrument(source):
    tree = ast.parse(source)
    # Lines as the tokenizer counts them (\r\n, \r and \n end a line; nothing else does).
    lines = re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", source)
    unsafe = set()
    for node in ast.walk(tree):
        if isinstance(node, NESTED):
            unsafe.update(range(node.lineno, node.end_lineno + 1))
        if isinstance(node, ast.stmt) and node.end_lineno != node.lineno and isinstance(node, SIMPLE):
            unsafe.update(range(node.lineno, node.end_lineno + 1))
    docstrings = _docstrings(tree)
    chosen = {}
    for node in ast.walk(tree):
        if not isinstance(node, SIMPLE) or id(node) in docstrings:
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        line = node.lineno
        if line in unsafe or line in chosen:
            continue
        text = lines[line - 1].encode("utf-8")
        head = text[: node.col_offset]
        if head.strip(b" \t\f") != b"":
            continue
        chosen[line] = node.col_offset
    point = 0
    for line in sorted(chosen):
        point += 1
        text = lines[line - 1].encode("utf-8")
        col = chosen[line]
        call = ("__mt_truth__(%d, %d); " % (point, line)).encode()
        lines[line - 1] = (text[:col] + call + text[col:]).decode("utf-8")
    out = "".join(lines)
    # The copy must compile where the program did (and mean the same statements).
    compile(out, "<instrumented>", "exec")
    return out, point


def main():
    source = sys.stdin.buffer.read().decode("utf-8")
    try:
        out, points = instrument(source)
    except SyntaxError as e:
        sys.stderr.write("SyntaxError: %s (line %s)\n" % (e.msg, e.lineno))
        sys.exit(1)
    sys.stdout.buffer.write(out.encode("utf-8"))


main()
