#!/usr/bin/env python3
"""Fails when a public symbol of a module has no doc comment (DocC's
documentation-coverage.json: "hasAbstract" false).

Not counted: what the symbol inherits its documentation from elsewhere —
operators and default implementations a protocol provides, and the members
that implement a standard library protocol's requirement (`description`,
`hash(into:)`, `init(from:)`, …), which DocC documents from the protocol.

A module may have a list of the symbols not documented yet
(docs-undocumented/<module>.txt beside this script, one reference path a line): those are
reported but do not fail; any other undocumented symbol does, and so does a
listed symbol that has been documented since (take it off the list). So the
list only shrinks.

usage: docs-coverage.py documentation-coverage.json MODULE
"""
import json
import os
import sys

INHERITED = {
    "description", "debugDescription", "hash(into:)", "hashValue", "init(from:)", "encode(to:)",
    "rawValue", "init(rawValue:)", "allCases", "errorDescription", "id", "makeIterator()", "next()",
    "makeAsyncIterator()", "next(upperBound:)", "init(stringLiteral:)", "init(integerLiteral:)", "localizedDescription",
    "init(extendedGraphemeClusterLiteral:)", "init(unicodeScalarLiteral:)", "init(stringInterpolation:)",
}
SKIPPED_KINDS = {"Operator", "Article", "CollectionGroup"}


def main() -> int:
    path, module = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as file:
        entries = json.load(file)
    missing = []
    for entry in entries:
        kind = entry["kind"]
        if not kind.get("isSymbol") or kind["name"] in SKIPPED_KINDS or kind["name"].startswith("Extended") \
                or entry["hasAbstract"]:
            continue
        title = entry["title"].split(".")[-1] if kind["name"] == "Enumeration Case" else entry["title"]
        if title in INHERITED:
            continue
        missing.append(entry["referencePath"].split("/documentation/", 1)[-1])
    symbols = sum(1 for entry in entries if entry["kind"].get("isSymbol"))
    listed_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs-undocumented", module + ".txt")
    listed = set()
    if os.path.exists(listed_path):
        with open(listed_path, encoding="utf-8") as file:
            listed = {line.strip() for line in file if line.strip() and not line.startswith("#")}
    new = sorted(set(missing) - listed)
    documented = sorted(listed - set(missing))
    status = 0
    if new:
        print(f"docs: {len(new)} public symbols of {module} have no doc comment:", file=sys.stderr)
        for name in new:
            print(f"  {name}", file=sys.stderr)
        status = 1
    if documented:
        print(f"docs: {len(documented)} symbols of {listed_path} are documented now; take them off the list:", file=sys.stderr)
        for name in documented:
            print(f"  {name}", file=sys.stderr)
        status = 1
    if status == 0:
        if missing:
            print(f"docs: {module}: {symbols - len(missing)} of {symbols} public symbols documented; "
                  f"{len(missing)} listed in {os.path.relpath(listed_path)} still to do", file=sys.stderr)
        else:
            print(f"docs: every public symbol of {module} is documented ({symbols} symbols)", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
