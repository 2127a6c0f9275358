#!/usr/bin/env python3
"""doc_links.py — every file a doc, header, source comment or script of the repository names must exist.

Usage: doc_links.py REPO_ROOT

Checked in the repository's text files (git ls-files when REPO_ROOT is a checkout, else a walk that skips
build folders):
  - a name of a Markdown file: `docs/NAME.md`, `python/README.md`, or a bare `MAPS.md` (then looked up beside
    the file, at the root and in docs/); a section cited after it ("docs/MAPS.md 4.5", "4.2/4.6", "4.2–4.4",
    "1 and 2") must be a numbered heading of that file when the file numbers its headings;
  - in Markdown files, every relative link [text](path) and [text](path#anchor) (the anchor a heading of the
    target, as GitHub spells it) and every same-file link (#anchor);
  - in Markdown files, a `path` in backquotes under a top-level folder of the repository (cl/, src/, tests/,
    ...), globs such as `tests/data/gen_*.py` matching at least one file.
Prints each broken reference as FILE:LINE: what, and exits 1 when there is one.
"""

import glob
import os
import re
import subprocess
import sys

TEXT_EXT = (".md", ".c", ".h", ".cl", ".cu", ".cpp", ".hpp", ".py", ".sh", ".cmake", ".txt", ".in", ".supp",
            ".toml", ".cfg")
TOP_DIRS = ("cl/", "cmake/", "cuda/", "docs/", "examples/", "include/", "python/", "scripts/", "src/", "tests/",
            "tools/", ".ci/")
MD_NAME = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.md)\b")
SECTIONS = re.compile(r"\s+(\d+(?:\.\d+)*(?:\s*(?:/|–|,|and)\s*\d+(?:\.\d+)*)*)")
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_PATH = re.compile(r"`([^`\s]+)`")


def repo_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".git", "build")) and x != "__pycache__"
                   and not os.path.exists(os.path.join(d, x, "CMakeCache.txt"))]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def placeholder(name):
    """A name that stands for any file: `cl/rule_NAME.cl`, OUT/x.md, path/to/README.md."""
    parts = name.split("/")
    return "NAME" in name or "path/to/" in name or any(re.fullmatch(r"[A-Z][A-Z_]+", p) for p in parts[:-1])


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class Target:
    """The headings of a Markdown file: anchors and section numbers."""

    def __init__(self, path):
        self.anchors, self.sections = set(), set()
        counts = {}
        with open(path, encoding="utf-8") as f:
            fence = False
            for line in f:
                if line.startswith("```"):
                    fence = not fence
                m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                base = slug(m.group(1))
                n = counts.get(base, 0)
                counts[base] = n + 1
                self.anchors.add(base if n == 0 else "%s-%d" % (base, n))
                num = re.match(r"(\d+(?:\.\d+)*)\.?\s", m.group(1))
                if num:
                    self.sections.add(num.group(1))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    files = [f for f in repo_files(root) if f.endswith(TEXT_EXT) or os.path.basename(f) == "CMakeLists.txt"]
    if not files:
        sys.exit("doc_links: no text files under %s" % root)
    exists = set(repo_files(root))
    targets, problems = {}, []

    def target(rel):
        if rel not in targets:
            targets[rel] = Target(os.path.join(root, rel))
        return targets[rel]

    def find(name, here):
        """The repository path `name` names from file `here` (None: no such file)."""
        if "/" in name:
            cands = [os.path.normpath(os.path.join(os.path.dirname(here), name)), os.path.normpath(name)]
        else:
            cands = [os.path.normpath(os.path.join(os.path.dirname(here), name)), name, "docs/" + name]
        return next((c for c in cands if c in exists or os.path.isfile(os.path.join(root, c))), None)

    def check_anchor(rel, anchor, where, what):
        if rel.endswith(".md") and anchor and anchor not in target(rel).anchors:
            problems.append("%s: %s: no heading '#%s' in %s" % (where, what, anchor, rel))

    for rel in sorted(files):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except UnicodeDecodeError:
            continue
        md = rel.endswith(".md")
        for no, line in enumerate(lines, 1):
            where = "%s:%d" % (rel, no)
            for m in MD_NAME.finditer(line):
                name = m.group(1)
                if placeholder(name):
                    continue
                found = find(name, rel)
                if not found:
                    problems.append("%s: names %s, which is not in the repository" % (where, name))
                    continue
                sec = SECTIONS.match(line, m.end())
                if sec and target(found).sections:
                    for num in re.findall(r"\d+(?:\.\d+)*", sec.group(1)):
                        if num not in target(found).sections:
                            problems.append("%s: cites %s %s, which has no section %s" % (where, name, sec.group(1),
                                                                                          num))
            if not md:
                continue
            for m in MD_LINK.finditer(line):
                link = m.group(1)
                if re.match(r"[a-z][a-z0-9+.-]*:", link):
                    continue  # http:, https:, mailto:
                ref, _, anchor = link.partition("#")
                if not ref:
                    check_anchor(rel, anchor, where, "link (#%s)" % anchor)
                    continue
                found = os.path.normpath(os.path.join(os.path.dirname(rel), ref))
                if not os.path.exists(os.path.join(root, found)):
                    problems.append("%s: links to %s, which is not in the repository" % (where, ref))
                else:
                    check_anchor(found, anchor, where, "link (%s)" % link)
            for m in CODE_PATH.finditer(line):
                name = m.group(1).rstrip(".,:;")
                if not name.startswith(TOP_DIRS) or placeholder(name) or re.search(r"[<>$]|\.\.\.|…", name):
                    continue
                name = name.split("#")[0]
                if not glob.glob(os.path.join(root, name)):
                    problems.append("%s: names `%s`, which is not in the repository" % (where, name))
    for p in problems:
        print(p)
    print("doc_links: %d files read, %d broken references" % (len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
