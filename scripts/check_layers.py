#!/usr/bin/env python3
"""check_layers.py — the library's layers in their order, and a check that no #include of src/ or include/ climbs it.

usage: scripts/check_layers.py [ROOT]          check the tree at ROOT (default: this script's repository)
       scripts/check_layers.py --self-test [ROOT]   show that a climbing include is caught, then check the tree

A file may include files of its own folder (subfolders included) and of any layer below its own; an include of a
higher layer, or of another folder of the same layer (the two families, backends beside io), fails, naming the
file, the line and the include. Quoted names resolve as the compiler resolves them: in the including file's folder,
then src/, include/, cl/ and cuda/ (the build's include folders); a quoted name that resolves nowhere fails too.
docs/ARCHITECTURE.md, "The layers", explains each layer.
"""
import os
import re
import sys
import tempfile

# Bottom to top; the folders of one entry are siblings (neither includes the other).
LAYERS = [
    ("include/", "cl/", "cuda/"),          # the public API; device code and the maps host C shares with it
    ("src/core/",),                        # handles, fields, parts, options; the interfaces: registry.h, backend.h
    ("src/simplex/", "src/fractal/"),      # the domain families: their rows, storage and plans
    ("src/layouts/bits/",),                # layout bits: its storage, host I/O and step plans
    ("src/layouts/",),                     # the registry's rows: every family and layout (layouts.c)
    ("src/backends/", "src/io/"),          # the engines behind backend.h; the file formats
    ("src/apps/",),                        # the workloads: life, stencils, reductions, observables, EDM
    ("src/mpi/",),                         # libsqz-mpi: fields whose parts live on MPI ranks
]
SEARCH = ("src/", "include/", "cl/", "cuda/")  # the include folders of the build (CMakeLists.txt)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def folder_of(path):
    """The longest declared folder that holds path, with its layer; (None, None) outside them all."""
    best = (None, None)
    for level, folders in enumerate(LAYERS):
        for f in folders:
            if path.startswith(f) and (best[0] is None or len(f) > len(best[0])):
                best = (f, level)
    return best


def resolve(root, path, name):
    """What `#include "name"` in path opens: its own folder first, then the build's include folders."""
    own = os.path.dirname(path) + "/"
    for d in (own,) + SEARCH:
        rel = os.path.normpath(d + name).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    return None


def sources(root):
    for top in ("src", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for n in sorted(files):
                if n.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/")


def check(root):
    """The climbing includes of the tree at root, as messages."""
    bad = []
    for path in sorted(sources(root)):
        own, level = folder_of(path)
        if own is None:
            bad.append(f"{path}: in no declared layer (scripts/check_layers.py, LAYERS)")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
            for line_no, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, path, m.group(1))
                where = f'{path}:{line_no}: #include "{m.group(1)}"'
                if target is None:
                    bad.append(f"{where} resolves to no file of {', '.join(SEARCH)}")
                    continue
                other, other_level = folder_of(target)
                if other == own or (other is not None and other_level < level):
                    continue
                how = "climbs to" if other is None or other_level > level else "crosses to its sibling"
                bad.append(f"{where} {how} {target} ({own} is layer {level}, {other} layer {other_level})")
    return bad


def self_test():
    """A tree whose core includes a backend header must fail, naming both."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in (("src/core/a.c", '#include "backends/b.h"\n'), ("src/backends/b.h", "\n")):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w", encoding="utf-8") as fh:
                fh.write(text)
        bad = check(tmp)
        if len(bad) != 1 or "src/core/a.c:1" not in bad[0] or "src/backends/b.h" not in bad[0]:
            print("check_layers self-test: a climbing include was not reported as one:", bad, file=sys.stderr)
            return False
    return True


def main(argv):
    args = [a for a in argv if a != "--self-test"]
    if len(args) != len(argv) and not self_test():
        return 1
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = check(os.path.abspath(root))
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        print(f"{len(bad)} include(s) against the layer order of scripts/check_layers.py", file=sys.stderr)
        return 1
    print(f"layers: every include of src/ and include/ keeps to the order of {len(LAYERS)} layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
