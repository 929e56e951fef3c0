import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// State saved by one run of lp-sample-lifecycle and restored (or not) by
/// the next: real processes, real files, a real crash in the middle of a save.
@Suite("State restoration across runs")
struct StateRestorationTests {
    /// Runs the sample until it is active, then ends it with SIGTERM.
    private func runOnce(_ directory: String, _ extra: [String] = []) throws -> [String] {
        let sample = try SampleProcess("lp-sample-lifecycle", ["--state-dir", directory] + extra, placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        return sample.lines
    }

    @Test("state saved on SIGTERM is restored by the next launch, which knows the last run ended cleanly")
    func restoredAfterTerminate() throws {
        let directory = try ScratchDirectory()
        let first = try runOnce(directory.path)
        #expect(first.contains("previous run: no previous run"))
        #expect(first.contains("no saved state"))
        let second = try runOnce(directory.path)
        #expect(second.contains("previous run: the previous run ended cleanly"))
        #expect(second.contains { $0.hasPrefix("restored complete state") })
        #expect(second.contains("state: launches=2 requests=0"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["state.state"])
    }

    @Test("state older than the maximum age is discarded with a diagnostic")
    func tooOld() throws {
        let directory = try ScratchDirectory()
        _ = try runOnce(directory.path)
        let lines = try runOnce(directory.path, ["--max-age", "0"])
        #expect(
            lines.contains {
                $0.contains("discarded state '\(directory.path)/state.state': saved 0 s ago, older than the maximum age of 0 s")
            })
        #expect(lines.contains("state: launches=1 requests=0"))
    }

    @Test("state from another app version is discarded with a diagnostic")
    func incompatibleVersion() throws {
        let directory = try ScratchDirectory()
        _ = try runOnce(directory.path, ["--app-version", "1.0"])
        let lines = try runOnce(directory.path, ["--app-version", "2.0"])
        #expect(lines.contains { $0.contains("saved by app version '1.0', not compatible with '2.0'") })
        #expect(lines.contains("state: launches=1 requests=0"))
    }

    @Test(
        "corrupt state (flipped byte, truncated, not a state file) is discarded, never a crash",
        arguments: [
            ("flipped", "checksum mismatch"), ("truncated", "lengths do not add up"),
            ("garbage", "not a launchprof state file (bad magic)"),
            ("empty", "truncated: 0 bytes"),
        ])
    func corrupt(damage: String, diagnostic: String) throws {
        let directory = try ScratchDirectory()
        _ = try runOnce(directory.path)
        let path = directory.path + "/state.state"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "flipped": bytes[bytes.count / 2] ^= 0x40
        case "truncated": bytes.removeLast(3)
        case "garbage": bytes = Array("launches=99\nrequests=99\n".utf8) + [UInt8](repeating: 0, count: 64)
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let lines = try runOnce(directory.path)
        #expect(lines.contains { $0.contains("discarded state '\(path)': corrupt (\(diagnostic)") }, "\(lines)")
        #expect(lines.contains("state: launches=1 requests=0"))
    }

    @Test("a crash in the middle of a save leaves the previous state intact; the next run cleans up")
    func crashMidSave() throws {
        let directory = try ScratchDirectory()
        _ = try runOnce(directory.path)
        let path = directory.path + "/state.state"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // A 64 MiB state takes long enough to write that the crash lands mid-save.
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--state-bytes", "67108864"], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        sample.send(SIGTERM)
        var temporary: String?
        let deadline = Date().addingTimeInterval(30)
        while temporary == nil, Date() < deadline {
            temporary = try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("state.state.tmp.") }
        }
        sample.send(SIGKILL)
        #expect(sample.waitForExit() == .signaled(SIGKILL))
        let leftover = try #require(temporary, "the save never started")
        #expect(FileManager.default.fileExists(atPath: "\(directory.path)/\(leftover)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the previous state changed")
        let lines = try runOnce(directory.path)
        #expect(lines.contains("previous run: the previous run did not end cleanly (crash, kill or power loss)"))
        #expect(lines.contains("state: launches=2 requests=0"))
        #expect(!FileManager.default.fileExists(atPath: "\(directory.path)/\(leftover)"), "the stale temporary file stayed")
    }
}
