import Foundation

/// The commits of a git repository, newest first, as `git log` lists them
/// from HEAD: the order a history follows with `--repository`.
package enum GitLog {
    /// The most commits read (a 41-byte line each: 41 MB).
    package static let largestCount = 1_000_000

    /// The full hashes of `repository`'s history from HEAD, newest first
    /// (`git -C REPOSITORY log --format=%H`); the repository is only read.
    package static func commits(in repository: String) throws(HistoryError) -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", repository, "log", "--format=%H", "--max-count=\(largestCount)"]
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("launchprof-git-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil),
            let errorFile = try? FileHandle(forWritingTo: errors)
        else { throw .gitFailed(repository: repository, reason: "cannot create a temporary file for its messages") }
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = errorFile
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .gitFailed(repository: repository, reason: "\(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorFile.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let detail = message.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .gitFailed(
                repository: repository,
                reason: detail.isEmpty ? "exit status \(process.terminationStatus)" : String(detail.prefix(500)))
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
