import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// What a supervisor sees of a lifecycle: sd_notify messages, the harness
/// pipe, the trace file, the wall clock.
@Suite("Lifecycle: systemd, harness and trace")
struct LifecycleProtocolTests {
    @Test("sd_notify sees READY=1, RELOADING=1 (with MONOTONIC_USEC) and READY=1 on SIGHUP, then STOPPING=1, in order")
    func notifyAndReload() throws {
        let directory = try ScratchDirectory()
        let name = "launchprof-lifecycle-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = try DatagramSocket(abstract: name)
        let greeting = directory.path + "/greeting"
        try "first\n".write(toFile: greeting, atomically: true, encoding: .utf8)
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--greeting", greeting],
            environment: ["NOTIFY_SOCKET": "@" + name], placement: .session)
        #expect(socket.receive() == "READY=1")
        let listening = try #require(sample.waitForLine(containing: "listening on 127.0.0.1:"))
        let port = try #require(UInt16(listening.split(separator: ":").last!))
        #expect(try request(port: port) == "first (request 1)\n")

        try "second\n".write(toFile: greeting, atomically: true, encoding: .utf8)
        let before = monotonicMicroseconds()
        sample.send(SIGHUP)
        let reloading = try #require(socket.receive())
        let fields = reloading.split(separator: "\n")
        #expect(fields.first == "RELOADING=1")
        let stamp = try #require(fields.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(fields.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(stamp >= before && stamp <= monotonicMicroseconds())
        #expect(socket.receive() == "READY=1")
        #expect(sample.waitForLine(containing: "reloaded: greeting 'second'") != nil)
        #expect(try request(port: port) == "second (request 2)\n")

        sample.send(SIGTERM)
        #expect(socket.receive() == "STOPPING=1")
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        #expect(sample.linesContaining("active -> terminating").count == 1, "SIGHUP without a terminal must not terminate")
    }

    @Test("the record socket gets ready, resumed after SIGCONT, and stopping on SIGTERM")
    func harnessRecords() throws {
        let directory = try ScratchDirectory()
        let records = directory.path + "/records"
        let fd = open(records, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        // The descriptor number is inherited as is (not CLOEXEC).
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path], environment: ["LAUNCHPROF_RECORD_FD": "\(fd)"],
            placement: .processGroup)
        try #require(sample.waitForLine(containing: "launching -> ") != nil)
        sample.send(SIGTSTP)
        #expect(sample.waitForProcState("T"))
        let continued = monotonicNanoseconds()
        sample.send(SIGCONT)
        #expect(sample.waitForLine(containing: "resumed") != nil)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
        let lines = try String(contentsOfFile: records, encoding: .utf8).split(separator: "\n")
        let kinds = lines.map { $0.split(separator: " ")[1] }
        #expect(kinds.filter { ["ready", "resumed", "stopping"].contains($0) } == ["ready", "resumed", "stopping"])
        let resumed = try #require(lines.first { $0.contains(" resumed ") }.flatMap { UInt64($0.split(separator: " ")[2]) })
        #expect(resumed > continued)
    }

    @Test("on SIGTERM the trace is written once, with launching, suspend, resume and terminate intervals")
    func traceOnTerminate() throws {
        let directory = try ScratchDirectory()
        let trace = directory.path + "/sample.lptrace"
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watch >= 0)
        defer { close(watch) }
        try #require(inotify_add_watch(watch, directory.path, UInt32(IN_MOVED_TO)) >= 0)
        // --exit-status: exit() runs atexit handlers, where the trace would be written again.
        let sample = try SampleProcess(
            "lp-sample-lifecycle", ["--state-dir", directory.path, "--exit-status"],
            environment: ["LAUNCHPROF_TRACE": trace], placement: .processGroup)
        try #require(sample.waitForLine(containing: "launching -> ") != nil)
        sample.send(SIGTSTP)
        #expect(sample.waitForProcState("T"))
        sample.send(SIGCONT)
        #expect(sample.waitForLine(containing: "resumed") != nil)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .exited(128 + SIGTERM))
        #expect(movedNames(watch).filter { $0 == "sample.lptrace" }.count == 1, "the trace was not written exactly once")
        let intervals = try TraceReader.read(path: trace).pairIntervals()
        let names = Set((intervals.slices + intervals.asyncIntervals).filter { $0.category.category == "lifecycle" }.map(\.name))
        #expect(names.isSuperset(of: ["launching", "suspend", "suspended", "resume", "terminate"]), "\(names)")
    }

    @Test("setting the wall clock is reported as a significant time change")
    func clockChange() throws {
        let directory = try ScratchDirectory()
        let sample = try SampleProcess("lp-sample-lifecycle", ["--state-dir", directory.path], placement: .session)
        try #require(sample.waitForLine(containing: "launching -> active") != nil)
        try #require(sample.linesContaining("clock changes: active").count == 1)
        // Set the clock to what it reads (a step of a few microseconds back):
        // the kernel cancels TFD_TIMER_CANCEL_ON_SET timers on any set.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard clock_settime(CLOCK_REALTIME, &now) == 0 else {
            withKnownIssue("setting CLOCK_REALTIME needs CAP_SYS_TIME: \(String(cString: strerror(errno)))") {
                Issue.record("cannot set the clock here")
            }
            return
        }
        #expect(sample.waitForLine(containing: "significant time change: wall clock moved by") != nil)
        sample.send(SIGTERM)
        #expect(sample.waitForExit() == .signaled(SIGTERM))
    }

    // MARK: - Helpers

    private func movedNames(_ watch: Int32) -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(watch, &buffer, buffer.count)
        guard count > 0 else { return [] }
        var names: [String] = []
        var offset = 0
        while offset + 16 <= count {
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), name.
            let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8
            let name = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset += 16 + length
        }
        return names
    }

    private func request(port: UInt16) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer[..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func monotonicMicroseconds() -> UInt64 { monotonicNanoseconds() / 1_000 }
