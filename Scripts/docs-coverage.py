#!/usr/bin/env python3
"""Fails when a public symbol of a module has no doc comment (DocC's
documentation-coverage.json: "hasAbstract" false).

Not counted: what the symbol inherits its documentation from elsewhere —
operators and default implementations a protocol provides, and the members
that implement a standard library protocol's requirement (`description`,
`hash(into:)`, `init(from:)`, …), which DocC documents from the protocol.

usage: docs-coverage.py documentation-coverage.json MODULE
"""
import json
import sys

INHERITED = {
    "description", "debugDescription", "hash(into:)", "hashValue", "init(from:)", "encode(to:)",
    "rawValue", "init(rawValue:)", "allCases", "errorDescription", "id", "makeIterator()", "next()",
    "makeAsyncIterator()", "init(stringLiteral:)", "init(integerLiteral:)",
}
SKIPPED_KINDS = {"Operator", "Article", "CollectionGroup"}


def main() -> int:
    path, module = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as file:
        entries = json.load(file)
    missing = []
    for entry in entries:
        kind = entry["kind"]
        if not kind.get("isSymbol") or kind["name"] in SKIPPED_KINDS or entry["hasAbstract"]:
            continue
        title = entry["title"].split(".")[-1] if kind["name"] == "Enumeration Case" else entry["title"]
        if title in INHERITED:
            continue
        missing.append(entry["referencePath"].split("/documentation/", 1)[-1])
    symbols = sum(1 for entry in entries if entry["kind"].get("isSymbol"))
    if missing:
        print(f"docs: {len(missing)} of {symbols} public symbols of {module} have no doc comment:", file=sys.stderr)
        for name in sorted(missing):
            print(f"  {name}", file=sys.stderr)
        return 1
    print(f"docs: every public symbol of {module} is documented ({symbols} symbols)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
