#!/usr/bin/env python3
"""Import circles in a Rust source folder: reads each file's `use crate::...` and
`use super::...` lines (a test module's aside), resolves each path to the deepest module
it names (following a `mod.rs`'s `pub use` re-exports to where the item lives), and
reports every cycle between modules, and between the folder's first-level rooms (a
child file or folder).

A module may use its ancestors: a file that adds an `impl` to its parent's type (the
detect stage's `impl Contacts`) is part of that parent, so edges up the tree are not
counted.

    python3 .ci/circles.py physics/src contact     # exit 1 if any cycle
"""

import os
import re
import sys


def modules(src):
    """Module path (tuple) -> file, for every .rs under src."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            out[tuple(rel)] = os.path.join(root, f)
    return out


def use_paths(text):
    """The paths of a file's `use` declarations (braces expanded), tests left out."""
    text = text.split("#[cfg(test)]\nmod tests")[0]
    paths = []
    for m in re.finditer(r"^\s*(pub(?:\([a-z]+\))?\s+)?use\s+([^;]+);", text, re.M):
        paths += [(bool(m.group(1)), p) for p in expand(re.sub(r"\s+", "", m.group(2)))]
    return paths


def expand(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    i = tree.find("{")
    if i < 0:
        return [tree.split(" as ")[0]]
    prefix, inner = tree[:i], tree[i + 1 : tree.rindex("}")]
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(inner[start:k])
            start = k + 1
    parts.append(inner[start:])
    return [q for p in parts if p for q in expand(prefix + p)]


def absolute(path, here):
    """A `use` path from module `here` as segments from the crate root."""
    segs = path.split("::")
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] == "self":
        return list(here) + segs[1:]
    base = list(here)
    while segs and segs[0] == "super":
        base, segs = base[:-1], segs[1:]
    return base + segs if segs else None


def main(src, folder):
    mods = modules(src)
    root = tuple(folder.split("/"))
    reexports = {}
    for m, f in mods.items():
        for public, p in use_paths(open(f).read()):
            segs = absolute(p, m)
            if public and segs:
                reexports[(m, segs[-1])] = segs

    def resolve(segs, seen=0):
        for n in range(len(segs), 0, -1):
            if tuple(segs[:n]) in mods:
                m = tuple(segs[:n])
                rest = segs[n:]
                if rest and (m, rest[0]) in reexports and seen < 8:
                    return resolve(reexports[(m, rest[0])], seen + 1)
                return m
        return None

    edges = {}
    for m, f in mods.items():
        if m[: len(root)] != root:
            continue
        for public, p in use_paths(open(f).read()):
            segs = absolute(p, m)
            t = segs and resolve(segs)
            if not t or t == m or t[: len(root)] != root or m[: len(t)] == t:
                continue
            if public and t[: len(m)] == m:
                continue  # a folder re-exporting its own child
            edges.setdefault(m, set()).add(t)

    def rooms(m):
        return m[: len(root) + 1]

    room_edges = {}
    for m, ts in edges.items():
        for t in ts:
            a, b = rooms(m), rooms(t)
            if a != b and a != root and b != root:
                room_edges.setdefault(a, set()).add(b)
    found = cycles(edges)
    found += [c for c in cycles(room_edges) if all(c[1] != f[1] for f in found)]
    for path, comp in found:
        print(" -> ".join("::".join(x) for x in path))
        print("  (circle of", ", ".join("::".join(x) for x in comp) + ")")
    print(f"{len(found)} cycle(s) among {len(edges)} modules under {folder}")
    return 1 if found else 0


def cycles(edges):
    """A cycle and its members, per strongly connected component with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
                out.append((path_in(comp, edges), sorted(comp)))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def path_in(comp, edges):
    """A cycle through the component's first node, by breadth-first search."""
    members, start = set(comp), min(comp)
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges.get(v, ())):
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return path[::-1] + [start]
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


if __name__ == "__main__":
    sys.exit(main(*(sys.argv[1:3] if len(sys.argv) > 2 else ("physics/src", "contact"))))
