#!/usr/bin/env python3
"""Fails when a document names a path of this repository that does not exist.

Reads README.md, CONTRIBUTING.md, docs/*.md, every DocC catalog's articles,
Package.swift and the scripts' comments; checks
- every path it names under Sources/, Tests/, Scripts/, Plugins/, Benchmarks/,
  Integrations/, Examples/ and docs/ (a trailing punctuation mark is not part
  of the path; `…` and globs are skipped), and
- every relative Markdown link ([text](path#anchor)): its file must exist.
Run by .ci/run; prints each missing path with the file and line that names it.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOP = ("Sources", "Tests", "Scripts", "Plugins", "Benchmarks", "Integrations", "Examples", "docs")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./+-]*[A-Za-z0-9_/+-])" % "|".join(TOP))
# A path from a target's own folder (docs/engine.md names them so), found
# under whichever product group holds that target.
TARGETS = sorted(
    (name for group in ("Embedded", "Shared", "Benchmark") if os.path.isdir(os.path.join(ROOT, "Sources", group))
     for name in os.listdir(os.path.join(ROOT, "Sources", group))),
    key=len, reverse=True)
TARGET_PATH = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./+-]*[A-Za-z0-9_+-]\.(?:swift|c|h))" % "|".join(map(re.escape, TARGETS))) if TARGETS else None
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def documents():
    for name in ("README.md", "CONTRIBUTING.md", "Package.swift"):
        yield name
    for folder, _, files in os.walk(ROOT):
        rel = os.path.relpath(folder, ROOT)
        parts = rel.split(os.sep)
        if any(p.startswith(".build") or p.startswith(".") and p != "." for p in parts):
            continue
        for f in files:
            path = os.path.normpath(os.path.join(rel, f))
            if path.startswith("docs" + os.sep) and f.endswith(".md"):
                yield path
            elif ".docc" in rel and f.endswith(".md"):
                yield path
            elif path.startswith("Scripts" + os.sep) and f.endswith((".sh", ".py")) and f != "check-docs-paths.py":
                yield path


def main():
    missing = []
    for doc in documents():
        full = os.path.join(ROOT, doc)
        if not os.path.isfile(full):
            continue
        with open(full, encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                if "git archive" in line or "git cat-file" in line:
                    continue  # paths of another revision
                for match in PATH.finditer(line):
                    path = match.group(1).rstrip("/.")
                    if "…" in path or "*" in path or "NAME" in path or "VERSION" in path:
                        continue
                    # Paths inside another package are named from their own root.
                    candidates = [os.path.join(ROOT, path)]
                    if not doc.endswith((".sh", ".py", ".swift")):
                        candidates.append(os.path.join(ROOT, os.path.dirname(doc), path))
                    for prefix in ("Benchmarks", "Integrations", "Examples/OTelServer"):
                        candidates.append(os.path.join(ROOT, prefix, path))
                    if not any(os.path.exists(c) for c in candidates):
                        missing.append(f"{doc}:{number}: {path}")
                if doc.endswith(".md") and TARGET_PATH is not None:
                    for match in TARGET_PATH.finditer(line):
                        path = match.group(1)
                        if not any(os.path.exists(os.path.join(ROOT, "Sources", g, path)) for g in ("Embedded", "Shared", "Benchmark")):
                            missing.append(f"{doc}:{number}: {path} (under Sources/*/)")
                if doc.endswith(".md"):
                    for match in LINK.finditer(line):
                        url = match.group(1)
                        if re.match(r"^[a-z]+:", url) or url.startswith("#") or url.startswith("<"):
                            continue
                        target = url.split("#", 1)[0]
                        if not target or target.startswith("docs/documentation"):
                            continue
                        if not os.path.exists(os.path.normpath(os.path.join(ROOT, os.path.dirname(doc), target))):
                            missing.append(f"{doc}:{number}: link {url}")
    for line in missing:
        print(f"check-docs-paths: {line} does not exist", file=sys.stderr)
    if missing:
        print(f"check-docs-paths: {len(missing)} paths named by the docs do not exist", file=sys.stderr)
        return 1
    print("check-docs-paths: every path the docs name exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
