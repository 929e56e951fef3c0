import Foundation
import Glibc
import LaunchProfLifecycle
import LaunchProfTestSupport
import Testing

/// Files planted where lp-sample-lifecycle keeps its state: each is refused
/// at once with a diagnostic naming it, and the launch goes on with fresh
/// state (never a hang, never a read of a device, never a trap).
@Suite("StateStore: hostile files in the state's place")
struct StateStoreHostileTests {
    /// Runs the sample until it is active, then ends it with SIGTERM.
    private func runOnce(_ directory: String) throws -> [String] {
        let sample = try SampleProcess("lp-sample-lifecycle", ["--state-dir", directory], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active", timeout: 20) != nil, "\(sample.lines)")
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        return sample.lines
    }

    @Test("a FIFO as the state file is refused without blocking the launch")
    func fifoState() throws {
        let directory = try ScratchDirectory()
        let path = "\(directory.path)/state.state"
        try #require(mkfifo(path, 0o600) == 0)
        let lines = try runOnce(directory.path)
        #expect(lines.contains("discarded state '\(path)': it is a FIFO, not a regular file; not read"), "\(lines)")
        #expect(lines.contains("state: launches=1 requests=0"))
    }

    @Test("a symlink to /dev/zero as the state file is refused before a byte is read")
    func devZeroState() throws {
        let directory = try ScratchDirectory()
        let path = "\(directory.path)/state.state"
        try #require(symlink("/dev/zero", path) == 0)
        let sample = try SampleProcess("lp-sample-lifecycle", ["--state-dir", directory.path], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active", timeout: 20) != nil, "\(sample.lines)")
        // The launch's own peak memory (VmHWM, KiB), read while it is up: far
        // from the 1 GB /dev/zero used to cost. (RUSAGE_CHILDREN would mix in
        // every other child of the test process.)
        let status = try String(contentsOfFile: "/proc/\(sample.pid)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        let lines = sample.lines
        #expect(lines.contains("discarded state '\(path)': it is a character device, not a regular file; not read"), "\(lines)")
        #expect(lines.contains("state: launches=1 requests=0"))
        let kib = try #require(peak, "VmHWM in /proc/\(sample.pid)/status")
        #expect(kib < 512 * 1024, "the launch grew to \(kib) KiB")
    }

    @Test("a FIFO at the run marker's path does not block the launch")
    func fifoRunMarker() throws {
        let directory = try ScratchDirectory()
        try #require(mkfifo("\(directory.path)/state.running", 0o600) == 0)
        let lines = try runOnce(directory.path)
        #expect(lines.contains("state: launches=1 requests=0"), "\(lines)")
    }

    @Test("a state file larger than the cap is refused unread; a save that would exceed it is refused with the sizes")
    func oversizedState() throws {
        let directory = try ScratchDirectory()
        let path = "\(directory.path)/state.state"
        // Sparse: the size is claimed, not written.
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, off_t(StateStore.maximumFileSize + 1)) == 0)
        close(fd)
        let lines = try runOnce(directory.path)
        #expect(
            lines.contains("discarded state '\(path)': larger than 128 MiB, the most a state file may hold; not read"), "\(lines)")
        let store = try StateStore(appName: "hostile", appVersion: "1", name: "big", directory: directory.path)
        #expect(throws: StateStoreError.tooLarge(bytes: StateStore.maximumFileSize, limit: StateStore.maximumFileSize)) {
            try store.save([UInt8](repeating: 0, count: StateStore.maximumFileSize))
        }
    }
}
