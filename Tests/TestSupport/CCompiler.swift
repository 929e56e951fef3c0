import Foundation
import Glibc
import Synchronization
import Testing

/// Compiles C programs for tests with the system's `cc`.
public enum CCompiler {
    /// Compiles `source` (written to `binary`.c, then removed) into `binary`
    /// with `flags` (after the sources: libraries come last); a test failure
    /// quoting cc's errors when it fails.
    @discardableResult
    public static func compile(
        _ source: String, to binary: String, flags: [String] = [], optimization: String = "-O1", debugInfo: Bool = true,
        sources: [String] = []
    ) throws -> String {
        let sourcePath = binary + ".c"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        defer { unlink(sourcePath) }
        let arguments = [optimization] + (debugInfo ? ["-g"] : []) + ["-o", binary, sourcePath] + sources + flags
        let run = try CommandRun.run("/usr/bin/cc", arguments)
        try #require(run.status == 0, "cc failed on \(binary).c: \(run.standardError)")
        return binary
    }
}
