import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchEngine

/// The spawner process keeps nothing of its parent's but its control
/// socket and standard streams. A descriptor the parent left inheritable (a
/// library user's pipe, read until EOF) held open by lp-spawn for its whole
/// life would keep that reader waiting forever: the test suite hung so,
/// with an lp-spawn holding 1,000 of the test process's pipes.
@Suite struct SpawnerDescriptorTests {
    @Test("a pipe the caller left inheritable is in no spawner process of the caller's")
    func inheritedPipeIsNotKept() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)  // inheritable, on purpose
        defer {
            close(ends[0])
            close(ends[1])
        }
        var status = stat()
        try #require(fstat(ends[0], &status) == 0)
        let pipeName = "pipe:[\(status.st_ino)]"
        // A spawner started now, while the pipe is open, and kept alive.
        let spawner = Spawner()
        let run = try spawner.run(RunRequest(target: LaunchTarget(name: "true", arguments: ["/bin/true"] as [String])))
        #expect(run.exit == .exited(0))
        let spawners = try Self.childSpawners()
        #expect(!spawners.isEmpty, "no lp-spawn child of this process found")
        for pid in spawners {
            let held = Self.descriptors(of: pid).filter { $0 == pipeName }
            #expect(held.isEmpty, "lp-spawn \(pid) holds the caller's \(pipeName)")
        }
        withExtendedLifetime(spawner) {}
    }

    /// The lp-spawn processes whose parent is this process.
    static func childSpawners() throws -> [Int32] {
        let me = getpid()
        return try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return name == "lp-spawn" && fields.count > 1 && Int32(fields[1]) == me
        }
    }

    /// What each open descriptor of `pid` names ("pipe:[123]", a path).
    static func descriptors(of pid: Int32) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
    }
}
