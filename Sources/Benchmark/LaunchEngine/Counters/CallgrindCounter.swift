import Foundation
import Glibc
import LaunchSupport

/// `--counts callgrind`: one launch wrapped in Valgrind's callgrind, which
/// counts every instruction the program executes in user space
/// (docs/counts.md). A wrapper of the run request, not of the command line:
/// the target is rewritten to `valgrind --tool=callgrind … PROGRAM ARGS`
/// just before the spawn, so its name, probe, environment and activation
/// stay what the user gave.
///
/// What it counts: the instructions of every process of the tree
/// (`--trace-children=yes`: children and exec'd programs run under
/// callgrind too, each writing its own file), from the program's first
/// instruction (the dynamic loader's) to that process's exit. With the exit
/// probe that is "to ready"; with another probe it runs to the exit that
/// launchprof's stop signal causes, so shutdown work is counted too. Not
/// counted: the kernel's work (exec, page faults, system calls), time spent
/// waiting on I/O, and anything Valgrind itself executes.
struct CallgrindCounter {
    /// The target as launched: under callgrind.
    let target: LaunchTarget
    /// The directory the callgrind files go to, removed after the run.
    let directory: String

    /// A counter for one launch of `original`, whose argv is `commandLine`.
    init(wrapping original: LaunchTarget, commandLine: [ByteString]) throws(LaunchError) {
        let searchPath = original.environment["PATH"] ?? getenv("PATH").map { String(cString: $0) }
        // Not found: the error names valgrind and the PATH searched.
        let valgrind = try ProgramResolver.resolve("valgrind", searchPath: searchPath)
        var template = Array("\(NSTemporaryDirectory())/launchprof-callgrind-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw .system(
                SystemCallError(call: "mkdtemp", subject: NSTemporaryDirectory(), errno: errno), program: valgrind)
        }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var wrapped = original
        wrapped.useShell = false
        wrapped.arguments =
            [
                valgrind, "-q", "--tool=callgrind", "--trace-children=yes", "--dump-line=no", "--compress-strings=no",
                "--callgrind-out-file=\(directory)/callgrind.%p",
            ].map { ByteString($0) } + commandLine
        target = wrapped
    }

    /// Adds the instructions the run's processes executed to `observed`.
    func read(into observed: inout ObservedRun, probe: ReadyProbe) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var total: UInt64 = 0
        var counted = 0
        for name in files where name.hasPrefix("callgrind.") {
            if let value = Self.totalInstructions(path: "\(directory)/\(name)") {
                total &+= value
                counted += 1
            }
        }
        let until =
            probe == .exit
            ? "to each process's exit (ready is the exit)"
            : "to each process's exit after launchprof's stop signal: the work between ready and the exit is included"
        let scope =
            "callgrind (valgrind --tool=callgrind --trace-children=yes): user-space instructions of \(counted) process(es) "
            + "of the tree, from the first instruction of the loader \(until); not counted: the kernel's work (exec, page "
            + "faults, system calls), I/O waits, Valgrind's own work. Times measured under Valgrind are not the program's."
        let gaps = CounterReading.metrics.filter { $0 != .instructions }.map { metric in
            CounterReport.Gap(counter: metric.key, reason: "callgrind counts instructions only")
        }
        if counted > 0 {
            observed.counts = LaunchCounts(instructions: total)
            observed.counterReport = CounterReport(source: .callgrind, measured: ["instructions"], unavailable: gaps, scope: scope)
        } else {
            observed.counterReport = CounterReport(
                source: .callgrind, measured: [],
                unavailable: [CounterReport.Gap(counter: "instructions", reason: "callgrind wrote no readable output file")] + gaps,
                scope: scope)
        }
    }

    /// The `totals:` (or `summary:`) line of a callgrind file: its first
    /// event, Ir. Read from the file's last 64 KiB (the line is at its end),
    /// so a large profile costs no more than a small one.
    static func totalInstructions(path: String) -> UInt64? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        let window: UInt64 = 64 * 1024
        try? handle.seek(toOffset: size > window ? size - window : 0)
        guard let data = try? handle.readToEnd() else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var found: UInt64?
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let value = UInt64(fields[1]) { found = value }
        }
        return found
    }

    /// Removes the callgrind files and their directory.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
