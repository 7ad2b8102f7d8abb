#!/usr/bin/env python3
"""The module graph of each workspace crate, and its cycles (issue 67).

A node is a module with a file of its own (`dbdb/truth.rs` is `dbdb::truth`, `dbdb/mod.rs` is
`dbdb`); an edge A -> B says A's file names an item through `crate::B...` or `super::...` that
resolves into B (the longest module the path names). Edges between a module and its own ancestor
or descendant are left out: a folder's `mod.rs` and its children use each other by design, and
that is not what a cycle between rooms means. Cycles are the strongly connected components of
two or more modules.

    python3 scripts/module-graph.py            # every crate: modules, edges, cycles
    python3 scripts/module-graph.py --dot analyzer > analyzer.dot   # a crate's graph for dot(1)
    python3 scripts/module-graph.py --root DIR CRATE...   # crates of another tree (its tests)
    python3 scripts/module-graph.py --sizes 10     # the longest files and functions of src/ and tests/

Exit status 1 when a cycle exists (so a check can run it), 0 otherwise. Written for this
repository's style of paths; it reads `use` lines and qualified paths, not macros' output.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CRATES = ["schema", "judges", "syntax", "testkit", "recorder", "analyzer"]


def modules(crate):
    """Module path (tuple) -> file, for every .rs file under src/ but the binaries."""
    src = os.path.join(ROOT, crate, "src")
    out = {}
    for d, dirs, files in os.walk(src):
        rel = os.path.relpath(d, src)
        if rel.split(os.sep)[0] == "bin":
            continue
        parts = () if rel == "." else tuple(rel.split(os.sep))
        for f in files:
            if not f.endswith(".rs"):
                continue
            if f in ("lib.rs", "main.rs") and not parts:
                continue
            name = f[:-3]
            path = parts if name == "mod" else parts + (name,)
            out[path] = os.path.join(d, f)
    return out


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def paths_in(text):
    """Every `crate::a::b` and `super::a` path, with grouped imports expanded one level."""
    out = []
    for m in re.finditer(r"\b(crate|super(?:::super)*)::((?:[A-Za-z_][A-Za-z0-9_]*::)*)(\{|[A-Za-z_][A-Za-z0-9_]*)", text):
        head, mid, last = m.group(1), m.group(2), m.group(3)
        base = mid.split("::")[:-1] if mid else []
        if last == "{":
            depth, i, start, items = 1, m.end(), m.end(), []
            while i < len(text) and depth:
                c = text[i]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                if (c == "," and depth == 1) or depth == 0:
                    items.append(text[start:i])
                    start = i + 1
                i += 1
            for it in items:
                first = re.split(r"::|\s|\{", it.strip())
                segs = [s for s in it.strip().split("::") if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s.strip())]
                if segs:
                    out.append((head, base + [s.strip() for s in segs]))
        else:
            out.append((head, base + [last]))
    return out


def resolve(here, head, segs, mods):
    if head == "crate":
        start = ()
    else:
        ups = head.count("super")
        # `here` is a module; super of a mod.rs module is its parent, as for a file module.
        start = here[: len(here) - ups] if ups <= len(here) else None
        if start is None:
            return None
    full = start + tuple(segs)
    for n in range(len(full), 0, -1):
        if full[:n] in mods:
            return full[:n]
    return None


def graph(crate):
    mods = modules(crate)
    edges = {m: set() for m in mods}
    for m, f in mods.items():
        text = strip_comments(open(f, encoding="utf-8").read())
        # A file's own tests use what they test; they are not the module's dependencies.
        text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
        for head, segs in paths_in(text):
            t = resolve(m, head, segs, mods)
            if t is None or t == m:
                continue
            if t[: len(m)] == m or m[: len(t)] == t:
                continue
            edges[m].add(t)
    return mods, edges


def sccs(edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def blank_literals(text):
    """`text` with comments, strings and chars blanked (newlines kept), so braces count."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif re.match(r'b?r#*"', text[i:i + 12]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
        elif text[i] == "'" and re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12]):
            j = i + re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12]).end()
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def functions(text):
    """(name, first line, lines) of every function with a body in `text`."""
    clean = blank_literals(text)
    out = []
    for m in re.finditer(r"\bfn\s+(\w+)", clean):
        i, depth = m.end(), 0
        # The body is the first `{` at this level after the signature; a `;` first: no body.
        while i < len(clean) and clean[i] not in "{;":
            i += 1
        if i >= len(clean) or clean[i] == ";":
            continue
        start = i
        while i < len(clean):
            if clean[i] == "{":
                depth += 1
            elif clean[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        first = clean.count("\n", 0, m.start()) + 1
        out.append((m.group(1), first, clean.count("\n", m.start(), i) + 1))
    return out


def sizes(most):
    files, fns = [], []
    for crate in CRATES + ["tests"]:
        for d, _, names in os.walk(os.path.join(ROOT, crate)):
            if "/target" in d or "node_modules" in d:
                continue
            for f in names:
                if f.endswith(".rs"):
                    p = os.path.join(d, f)
                    rel = os.path.relpath(p, ROOT)
                    text = open(p, encoding="utf-8").read()
                    files.append((text.count("\n"), rel))
                    fns += [(n, f"{rel}:{line}", name) for name, line, n in functions(text)]
    print("longest files:")
    for n, rel in sorted(files, reverse=True)[:most]:
        print(f"  {n:6} {rel}")
    print("longest functions:")
    for n, at, name in sorted(fns, reverse=True)[:most]:
        print(f"  {n:6} {name} ({at})")


def name(m):
    return "::".join(m)


def main():
    global ROOT
    args = sys.argv[1:]
    if args[:1] == ["--root"]:
        ROOT, args = args[1], args[2:]
    if args[:1] == ["--sizes"]:
        sizes(int(args[1]) if len(args) > 1 else 10)
        return 0
    if args[:1] == ["--dot"]:
        crate = args[1]
        _, edges = graph(crate)
        print(f"digraph {crate.replace('-', '_')} {{\n  rankdir=LR; node [shape=box, fontsize=10];")
        for m in sorted(edges):
            for t in sorted(edges[m]):
                print(f'  "{name(m)}" -> "{name(t)}";')
        print("}")
        return 0
    cycles = 0
    for crate in args or CRATES:
        mods, edges = graph(crate)
        found = sccs(edges)
        cycles += len(found)
        n = sum(len(e) for e in edges.values())
        print(f"{crate}: {len(mods)} modules, {n} edges, {len(found)} cycles")
        for comp in found:
            print("  cycle: " + ", ".join(name(m) for m in comp))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
