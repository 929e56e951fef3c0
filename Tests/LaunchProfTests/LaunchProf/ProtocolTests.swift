import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

/// The embedded library as the harness sees it: real processes (the sample
/// app), a real file descriptor for LAUNCHPROF_RECORD_FD, a real datagram
/// socket for NOTIFY_SOCKET, a real trace file.
@Suite("Harness protocol")
struct ProtocolTests {
    @Test("pipe records: entry, main, milestones in order, then ready, then the main thread's CPU time")
    func readyRecords() throws {
        let directory = try ScratchDirectory()
        let records = directory.path + "/records"
        // The shell opens fd 3 on a file and execs the sample with it.
        let result = try runSample(
            shellRedirect: "3>\(records)", environment: ["LAUNCHPROF_RECORD_FD": "3"])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: records, encoding: .utf8).split(separator: "\n").map(String.init)
        let kinds = lines.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        #expect(kinds == ["entry", "main", "milestone", "milestone", "milestone", "ready", "maincpu"])
        #expect(lines.allSatisfy { $0.hasPrefix("LP1 ") })
        let names = lines.filter { $0.contains(" milestone ") }.map { $0.split(separator: " ", maxSplits: 3)[3] }
        #expect(names == ["config loaded", "index ready", "workers warm"])
        let times = lines.map { UInt64($0.split(separator: " ")[2]) ?? 0 }
        #expect(times == times.sorted())
        // maincpu is stamped with ready's time; its CPU time is the main thread's so far.
        let cpu = try #require(lines.last.flatMap { UInt64($0.split(separator: " ")[3]) })
        #expect(times[5] == times[6])
        #expect(cpu > 0 && cpu <= times[5] - times[0] + 100_000_000, "\(cpu) ns of CPU")
        #expect(lines[0].hasSuffix(" \(result.pid)"))
    }

    @Test("the descriptor's name before LAUNCHPROF_RECORD_FD, LAUNCHPROF_READY_FD, is still read")
    func legacyRecordDescriptorName() throws {
        let directory = try ScratchDirectory()
        let records = directory.path + "/records"
        let result = try runSample(shellRedirect: "3>\(records)", environment: ["LAUNCHPROF_READY_FD": "3"])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: records, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.hasPrefix("LP1 entry ") == true && lines.contains { $0.hasPrefix("LP1 ready ") }, "\(lines)")
    }

    @Test("launch complete sends READY=1 to an abstract NOTIFY_SOCKET")
    func sdNotifyAbstract() throws {
        let name = "launchprof-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try DatagramSocket(abstract: name)
        let result = try runSample(environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(result.status == 0)
        #expect(socket.receive() == "READY=1")
    }

    @Test("launch complete sends READY=1 to a path NOTIFY_SOCKET")
    func sdNotifyPath() throws {
        let directory = try ScratchDirectory()
        let path = directory.path + "/notify.sock"
        let socket = try DatagramSocket(path: path)
        let result = try runSample(environment: ["NOTIFY_SOCKET": path])
        #expect(result.status == 0)
        #expect(socket.receive() == "READY=1")
    }

    @Test("the trace is written at exit, whole, with no temporary file left")
    func traceAtExit() throws {
        let directory = try ScratchDirectory()
        let trace = directory.path + "/sample.lptrace"
        let result = try runSample(environment: ["LAUNCHPROF_TRACE": trace])
        #expect(result.status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: trace)))
        #expect(bytes.starts(with: Array("LPTRACE\0".utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["sample.lptrace"])
        // Event count (header offset 72) is more than the milestones alone.
        let count = bytes[72..<80].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        #expect(count >= 10)
    }

    @Test("LAUNCHPROF_ENABLE=0 records nothing, but still writes an empty trace")
    func disabled() throws {
        let directory = try ScratchDirectory()
        let trace = directory.path + "/disabled.lptrace"
        let result = try runSample(environment: ["LAUNCHPROF_TRACE": trace, "LAUNCHPROF_ENABLE": "0"])
        #expect(result.status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: trace)))
        let count = bytes[72..<80].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        #expect(count == 0)
    }

    @Test("an unwritable trace path is reported on stderr, naming the path")
    func unwritableTrace() throws {
        let result = try runSample(environment: ["LAUNCHPROF_TRACE": "/nonexistent-dir/x.lptrace"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("cannot write '/nonexistent-dir/x.lptrace'"), "\(result.standardError)")
        // Why, in words (AtomicFile names the missing directory rather than
        // quoting errno's text).
        #expect(result.standardError.contains("its directory '/nonexistent-dir' does not exist"), "\(result.standardError)")
    }

    @Test("a malformed LAUNCHPROF_RECORD_FD is ignored, not fatal")
    func badReadyFD() throws {
        for value in ["banana", "-1", "99999", "4294967296"] {
            let result = try runSample(environment: ["LAUNCHPROF_RECORD_FD": value])
            #expect(result.status == 0, "LAUNCHPROF_RECORD_FD=\(value)")
        }
    }
}

// MARK: - Helpers

/// Runs the built lp-sample-app (next to the test binary) and waits for it,
/// without the harness's variables of the process running the tests.
func runSample(shellRedirect: String? = nil, environment: [String: String]) throws -> CommandRun {
    let sample = try Products.path("lp-sample-app")
    let (executable, arguments) =
        shellRedirect.map { ("/bin/sh", ["-c", "exec \"$0\" --words 2000 \($0)", sample]) } ?? (sample, ["--words", "2000"])
    return try CommandRun.run(
        executable, arguments, environment: environment,
        removing: { $0.hasPrefix("LAUNCHPROF_") || $0 == "NOTIFY_SOCKET" }, timeout: 60)
}

/// A bound AF_UNIX datagram socket, as systemd listens for sd_notify.
final class DatagramSocket {
    let fd: Int32
    private var path: String?

    init(abstract name: String) throws {
        fd = try Self.bind { address in
            address.sun_path.0 = 0
            Self.copy(name, into: &address, offset: 1)
            return socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + 1 + name.utf8.count)
        }
    }

    init(path: String) throws {
        fd = try Self.bind { address in
            Self.copy(path, into: &address, offset: 0)
            return socklen_t(MemoryLayout<sockaddr_un>.size)
        }
        self.path = path
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    /// One datagram, waiting at most 10 s.
    func receive() -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 10_000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    private static func copy(_ text: String, into address: inout sockaddr_un, offset: Int) {
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in text.utf8.enumerated() where offset + i < raw.count - 1 { raw[offset + i] = byte }
        }
    }

    private static func bind(_ fill: (inout sockaddr_un) -> socklen_t) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let length = fill(&address)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return fd
    }
}
