#!/usr/bin/env python3
"""(Kept in the repository for CI; the shared copy is ../shared/tools/module-cycles.py.)

Circles of modules inside each crate: which files of a crate import each other, round and round.

A ruleset crate should read like its rulebook: the position below, the chapters above it, the
game on top; a chapter uses what lies below it and never calls a chapter or the game back. This
prints every circle (strongly connected set of two or more modules) it finds, per crate.

usage: module-cycles.py [REPO_ROOT] [--max N] [--crates GLOB] [--calls]
  --max N    exit 1 when any crate has a circle of more than N modules (default: report only)
  --crates   which crates to look at (default: crates/*)
  --calls    count method calls too: `self.name(` in one module calling a method that another
             module's inherent `impl Type {` block defines (a name defined in one module only), so
             chapters written as methods of one game type are held to the same layering

An import is `use crate::m`, `crate::m::…`, `super::m` (from a sibling file) or `use super::m` on a
line that is not a comment, in src/**/*.rs outside `#[cfg(test)]` test modules and src/tests/.
Module m is the file src/m.rs or the folder src/m/ (a folder counts as one module).
"""
import glob
import os
import re
import sys


def modules_of(src):
    mods = {}
    for path in glob.glob(os.path.join(src, "**", "*.rs"), recursive=True):
        rel = os.path.relpath(path, src)
        parts = rel.split(os.sep)
        if parts[0] in ("lib.rs", "main.rs") or parts[0] == "tests" or parts[0] == "bin":
            continue
        name = parts[0][:-3] if parts[0].endswith(".rs") else parts[0]
        mods.setdefault(name, []).append(path)
    return mods


def strip_tests(text):
    # Drop `#[cfg(test)] mod tests { ... }` blocks (brace-matched) so test-only imports do not count.
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def edges_of(mods):
    names = set(mods)
    edges = {m: set() for m in mods}
    pat = re.compile(r"\b(?:crate|super)::(?:\{([^}]*)\}|(\w+))")
    for m, paths in mods.items():
        for p in paths:
            text = strip_tests(open(p, encoding="utf-8", errors="replace").read())
            for line in text.splitlines():
                s = line.strip()
                if s.startswith("//"):
                    continue
                for g in pat.finditer(s):
                    targets = [g.group(2)] if g.group(2) else [t.strip().split("::")[0] for t in g.group(1).split(",")]
                    for t in targets:
                        if t in names and t != m:
                            edges[m].add(t)
    return edges


def method_homes(mods):
    """Each method name defined in inherent impl blocks of exactly one module: name -> module."""
    homes, traits = {}, set()
    fn = re.compile(r"^    (?:pub(?:\([\w:]+\))?\s+)?(?:const\s+)?fn\s+(\w+)")
    for m, paths in mods.items():
        for p in paths:
            text = strip_tests(open(p, encoding="utf-8", errors="replace").read())
            block = None
            for line in text.splitlines():
                if re.match(r"^(pub(\([\w:]+\))?\s+)?(impl|trait)\b.*\{\s*$", line):
                    inherent = line.startswith("impl") and " for " not in line
                    block = "inherent" if inherent else "trait"
                    continue
                if block and line == "}":
                    block = None
                    continue
                f = fn.match(line) if block else None
                if f and block == "inherent":
                    homes.setdefault(f.group(1), set()).add(m)
                elif f:
                    traits.add(f.group(1))
    # A name a trait also has may be the trait's method: not counted.
    return {n: next(iter(ms)) for n, ms in homes.items() if len(ms) == 1 and n not in traits}


def call_edges(mods, edges):
    homes = method_homes(mods)
    call = re.compile(r"\bself\s*\.\s*(\w+)\s*(?:::<[^>]*>)?\(")
    for m, paths in mods.items():
        for p in paths:
            text = strip_tests(open(p, encoding="utf-8", errors="replace").read())
            for g in call.finditer(text):
                home = homes.get(g.group(1))
                if home is not None and home != m:
                    edges[m].add(home)
    return edges


def sccs(edges):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    root, limit, pattern, calls = ".", None, "crates/*", False
    while args:
        a = args.pop(0)
        if a == "--max":
            limit = int(args.pop(0))
        elif a == "--crates":
            pattern = args.pop(0)
        elif a == "--calls":
            calls = True
        else:
            root = a
    worst = 0
    for crate in sorted(glob.glob(os.path.join(root, pattern))):
        src = os.path.join(crate, "src")
        if not os.path.isdir(src):
            continue
        mods = modules_of(src)
        edges = edges_of(mods)
        if calls:
            edges = call_edges(mods, edges)
        circles = sccs(edges)
        for c in circles:
            worst = max(worst, len(c))
            print(f"{os.path.basename(crate)}: a circle of {len(c)} of its {len(mods)} modules: {' '.join(c)}")
    if worst == 0:
        print("no circles of modules")
    if limit is not None and worst > limit:
        print(f"largest circle: {worst} modules (at most {limit} wanted)")
        sys.exit(1)


if __name__ == "__main__":
    main()
