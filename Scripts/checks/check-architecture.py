#!/usr/bin/env python3
"""Fails when a module imports one it must not (docs/architecture.md), or
writes to standard output or error other than through StandardStream.

SwiftPM lets a target import any module that happens to be built before it,
declared dependency or not, so the one-way graph of the modules is checked
here: every `import` of every Swift file under Sources/ is compared with the
modules its target may import. System modules (Foundation, Glibc, Dispatch,
Synchronization) are allowed except where a rule says otherwise: the
embedded libraries never import Foundation. C files may not include another
target's .c files. Package.swift declares no executable product but the
CLI and the spawner: the samples are executable targets without products,
which a package that depends on launchprof does not see.

Usage: Scripts/checks/check-architecture.py   (from anywhere; exit 1 on a violation)
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Musl", "Darwin"}

# Each target: the project modules (and packages) it may import, lowest layer first.
ALLOWED = {
    # The embedded side: what traced programs link.
    "LaunchProfFiles": set(),
    "LaunchProf": {"LaunchProfFormat", "LaunchProfFiles", "CLaunchProfSupport", "CLaunchProfSampler"},
    "LaunchProfDeferred": {"LaunchProf", "LaunchProfFiles", "CLaunchProfSupport"},
    "LaunchProfLifecycle": {
        "LaunchProf", "LaunchProfDeferred", "LaunchProfFiles", "LaunchProfFormat", "CLaunchProfSupport", "CLaunchProfLifecycle",
    },
    "LaunchProfCodable": {"LaunchProfLifecycle", "LaunchProf"},
    # The launch benchmark library, one way: support, analysis, engine, reports, session.
    "LaunchSupport": {"LaunchProfFiles"},
    "LaunchAnalysis": {"LaunchSupport", "LaunchProfFormat", "CLaunchBenchmarkSupport"},
    "LaunchEngine": {
        "LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchProfFormat", "CLaunchProfSpawn", "CLaunchProfPerf", "CLaunchWindow",
    },
    "LaunchReports": {"LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchEngine"},
    "LaunchBenchmark": {"LaunchProfFiles", "LaunchSupport", "LaunchAnalysis", "LaunchEngine", "LaunchReports", "Yams"},
    # The CLI: flags and printing over the library's API.
    "launchprof": {"LaunchBenchmark", "LaunchSupport", "LaunchProfFiles", "ArgumentParser"},
}
# Samples are programs that use the embedded libraries.
SAMPLES = {"LaunchProf", "LaunchProfDeferred", "LaunchProfLifecycle"}
# Modules that must never import Foundation (they are linked into every traced program).
NO_FOUNDATION = {"LaunchProfFiles", "LaunchProf", "LaunchProfDeferred", "LaunchProfLifecycle"}

# Text for people goes through one writer that never traps
# (Sources/Shared/LaunchProfFiles/StandardStream.swift): FileHandle's standard
# streams trap when a write fails (stderr on /dev/full: SIGILL), and stdio's
# print, fputs and friends buffer what they lose. The sample programs may print.
STREAM_WRITER = os.path.join("Sources", "LaunchProfFiles", "StandardStream.swift")
STREAM_WRITE = re.compile(
    r"FileHandle\.standard(?:Output|Error)|(?<![\w.])(?:print|debugPrint|dump|fputs|puts|putchar|fputc|putc|fwrite|fprintf|printf)\("
)

IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)", re.M)


# Sources/ is grouped by product: what traced programs link, what both sides
# share, the benchmark (the CLI, its library and the C and spawner only it
# uses), and the samples. Each target lives in its group's folder.
GROUPS = {
    "Embedded": {"LaunchProf", "LaunchProfDeferred", "LaunchProfLifecycle", "LaunchProfCodable", "CLaunchProfSupport", "CLaunchProfLifecycle"},
    "Shared": {"LaunchProfFormat", "LaunchProfFiles", "CLaunchProfSampler"},
    "Benchmark": {
        "launchprof", "LaunchBenchmark", "LaunchReports", "LaunchEngine", "LaunchAnalysis", "LaunchSupport", "CLaunchBenchmarkSupport",
        "LaunchProfSpawner", "CLaunchProfSpawn", "CLaunchProfPerf", "CLaunchProfAudit", "CLaunchProfPreload", "CLaunchWindow",
    },
}


# The executables a package that depends on launchprof sees; the samples are
# executable targets without a product (SwiftPM names a root package's
# implicit product after the target, so the binaries keep their names).
EXECUTABLE_PRODUCTS = {"launchprof", "lp-spawn"}
EXECUTABLE_PRODUCT = re.compile(r'\.executable\(\s*name:\s*"([^"]+)"')


def product_problems():
    """Executable products Package.swift declares beyond the CLI and the spawner."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as file:
        names = EXECUTABLE_PRODUCT.findall(file.read())
    return [
        f"Package.swift: executable product '{name}': only {', '.join(sorted(EXECUTABLE_PRODUCTS))} are products; "
        "a sample is an executable target named after its binary, without a product (docs/architecture.md)"
        for name in names
        if name not in EXECUTABLE_PRODUCTS
    ]


def target_of(path):
    """The target a file belongs to, or None when its folder is not its group's."""
    parts = os.path.relpath(path, os.path.join(ROOT, "Sources")).split(os.sep)
    if parts[0] == "Samples":
        return "Samples/" + parts[1]
    if len(parts) > 2 and parts[1] in GROUPS.get(parts[0], ()):
        return parts[1]
    return None


def main():
    problems = product_problems()
    for directory, _, names in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(names):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, ROOT)
            target = target_of(path)
            if target is None:
                problems.append(f"{relative}: not in a target of its product's group (Sources/{{{','.join(GROUPS)},Samples}}/TARGET)")
                continue
            with open(path, encoding="utf-8") as file:
                text = file.read()
            if name.endswith((".c", ".h")):
                for number, line in enumerate(text.split("\n"), 1):
                    if re.match(r'\s*#\s*include\s+"[^"]*\.c"', line):
                        problems.append(f"{relative}:{number}: includes a .c file; compile it as its own translation unit")
                continue
            if not name.endswith(".swift"):
                continue
            if not target.startswith("Samples/") and relative != STREAM_WRITER:
                for number, line in enumerate(text.split("\n"), 1):
                    code = line.split("//", 1)[0]
                    if STREAM_WRITE.search(code):
                        problems.append(
                            f"{relative}:{number}: writes to standard output or error by itself; use StandardStream "
                            "(the CLI: Output), the one writer that never traps")
            allowed = SAMPLES if target.startswith("Samples/") else ALLOWED.get(target)
            if allowed is None:
                problems.append(f"{relative}: target '{target}' has no rule in Scripts/checks/check-architecture.py")
                continue
            for match in IMPORT.finditer(text):
                module = match.group(1)
                number = text.count("\n", 0, match.start()) + 1
                if module in SYSTEM:
                    if module.startswith("Foundation") and target in NO_FOUNDATION:
                        problems.append(f"{relative}:{number}: {target} must not import {module} (it is linked into every traced program)")
                    continue
                if module == target or module in allowed:
                    continue
                problems.append(f"{relative}:{number}: {target} must not import {module} (it may import: {', '.join(sorted(allowed)) or 'system modules only'})")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-architecture: {len(problems)} problem(s) against docs/architecture.md", file=sys.stderr)
        return 1
    print("check-architecture: every module imports only what docs/architecture.md allows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
