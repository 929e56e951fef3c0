import Foundation

/// Asks glibc's dynamic loader which libraries a program loads, as `ldd`
/// does: the loader is run with the program as its argument and
/// LD_TRACE_LOADED_OBJECTS=1, so it maps and resolves everything (DT_NEEDED,
/// RUNPATH/RPATH with $ORIGIN, LD_LIBRARY_PATH, LD_PRELOAD, ld.so.cache,
/// default and hwcaps directories) and prints the result instead of running
/// the program's code.
///
/// Only glibc's loader honours that variable when run directly; another
/// loader (musl's) would run the program, so ``isGlibcLoader(_:)`` gates it.
package enum LoaderTrace {
    /// Whether `interpreter` is glibc's ld.so (ld-linux-*.so.*, ld64.so.*, ld.so.*).
    package static func isGlibcLoader(_ interpreter: String) -> Bool {
        let name = interpreter.split(separator: "/").last.map(String.init) ?? interpreter
        return name.hasPrefix("ld-linux") || name.hasPrefix("ld64.so") || name.hasPrefix("ld.so")
    }

    /// The absolute paths of the shared objects `executable` loads (its
    /// interpreter included), in load order.
    package static func loadedObjects(
        executable: String, interpreter: String, environment: [String: String]
    ) throws(FileSetError) -> [String] {
        let output = try run(interpreter: interpreter, executable: executable, environment: environment)
        return try parse(output, executable: executable)
    }

    /// Parses the loader's listing: `name => /path (0xaddr)`,
    /// `/path (0xaddr)`, or `name => not found`. Entries without a path (the
    /// vDSO) are skipped.
    package static func parse(_ output: String, executable: String) throws(FileSetError) -> [String] {
        var paths: [String] = []
        for rawLine in output.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            var target = line
            if let arrow = line.range(of: " => ") {
                target = String(line[arrow.upperBound...])
                if target.hasPrefix("not found") {
                    throw .libraryNotFound(library: String(line[..<arrow.lowerBound]), neededBy: executable)
                }
            }
            if let address = target.range(of: " (0x", options: .backwards) {
                target = String(target[..<address.lowerBound])
            }
            if target.hasPrefix("/") { paths.append(target) }
        }
        return paths
    }

    private static func run(
        interpreter: String, executable: String, environment: [String: String]
    ) throws(FileSetError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [executable]
        process.environment = environment.merging(["LD_TRACE_LOADED_OBJECTS": "1"]) { _, new in new }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .loaderFailed(executable: executable, loader: interpreter, reason: "\(error)")
        }
        // The listing is a few KiB; read stderr on another thread so neither
        // pipe can fill up and stall the loader.
        let errorText = ErrorCollector(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = errorText.wait()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            if text.contains("=> not found") { return text }
            let status =
                process.terminationReason == .exit
                ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .loaderFailed(executable: executable, loader: interpreter, reason: "\(status): \(detail)")
        }
        return text
    }
}

/// Reads a pipe to its end on a background thread.
private final class ErrorCollector: @unchecked Sendable {
    // Written once by the reader thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
