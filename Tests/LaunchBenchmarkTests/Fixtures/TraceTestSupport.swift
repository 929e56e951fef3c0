import Foundation
import Glibc
import LaunchBenchmark
import LaunchProf
import Synchronization

/// Helpers shared by the trace reader and export tests: recording a real
/// trace with the embedded library, threads that stay put, and byte surgery
/// on trace files.
enum TraceTestSupport {
    /// A subsystem no other test uses, so a test can pick its own events out
    /// of the process-wide ring that every test shares.
    static func uniqueSubsystem(_ label: String) -> String {
        "test.\(label).\(UUID().uuidString.prefix(8))"
    }

    /// Turns tracing on (with a large ring, if this is the first event of the
    /// process), runs `record`, writes the trace with the real writer to a
    /// temporary file and returns its bytes.
    static func recordTrace(_ record: () -> Void) throws -> [UInt8] {
        Tracer.configure(capacity: 1 << 18)
        Tracer.enable()
        record()
        let path = temporaryPath("trace.lptrace")
        defer { unlink(path) }
        try Tracer.write(to: path)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func temporaryPath(_ name: String) -> String {
        "\(NSTemporaryDirectory())/launchprof-test-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }

    /// The events of `trace` recorded under `subsystem`.
    static func events(of trace: Trace, subsystem: String) -> [TraceEvent] {
        trace.events.filter { $0.category.subsystem == subsystem }
    }
}

/// The calling thread's Linux tid: /proc/thread-self links to "PID/task/TID"
/// (Swift's Glibc does not expose gettid()).
func currentThreadID() -> UInt32 {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
    precondition(count > 0, "cannot read /proc/thread-self")
    let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return UInt32(link.split(separator: "/").last!)!
}

/// A thread that runs closures one at a time and stays alive until
/// ``finish()``, so several "threads" of a test keep distinct tids (a new
/// thread may reuse the tid of one that has exited).
final class PinnedThread: @unchecked Sendable {
    // @unchecked: `job` is handed over under `lock`, and the semaphores order
    // each job's start and end with the caller.
    private let lock = NSLock()
    private var job: (@Sendable () -> Void)?
    private var stopping = false
    private let jobReady = DispatchSemaphore(value: 0)
    private let jobDone = DispatchSemaphore(value: 0)

    /// Starts a thread named `name` (as the trace's thread table shows it).
    init(name: String) {
        let thread = Thread { [self] in
            Tracer.setCurrentThreadName(name)
            loop()
        }
        thread.start()
    }

    /// Runs `body` on the thread and waits for it.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        lock.withLock { job = { result.withLock { $0 = body() } } }
        jobReady.signal()
        jobDone.wait()
        return result.withLock { $0! }
    }

    /// The thread's Linux tid.
    var tid: UInt32 { run { currentThreadID() } }

    /// Ends the thread.
    func finish() {
        lock.withLock { stopping = true }
        jobReady.signal()
        jobDone.wait()
    }

    private func loop() {
        while true {
            jobReady.wait()
            let (next, stop) = lock.withLock { (job, stopping) }
            lock.withLock { job = nil }
            next?()
            jobDone.signal()
            if stop { return }
        }
    }
}

/// A trace file taken apart into header and sections (checksum excluded), to
/// change and put back together with a correct checksum: this is how tests
/// make files that are intact but wrong. Trusts its input (a real trace).
struct TraceFileSurgery {
    var header: [UInt8]
    var sections: [(tag: UInt32, payload: [UInt8])]

    static let strings: UInt32 = 1
    static let categories: UInt32 = 2
    static let threads: UInt32 = 3
    static let events: UInt32 = 4

    init(_ bytes: [UInt8]) {
        let headerSize = Int(Self.read(UInt32.self, bytes, at: 12))
        header = Array(bytes[0..<headerSize])
        sections = []
        var offset = headerSize
        while offset < bytes.count {
            let tag = Self.read(UInt32.self, bytes, at: offset)
            let length = Int(Self.read(UInt64.self, bytes, at: offset + 8))
            if tag == 0xFFFF_FFFF { break }
            sections.append((tag, Array(bytes[offset + 16..<offset + 16 + length])))
            offset += 16 + length
        }
    }

    /// The file, with a checksum section computed by the real writer's code.
    func bytes() -> [UInt8] {
        var out = header
        for section in sections { Self.appendSection(section.tag, section.payload, to: &out) }
        var sum: [UInt8] = []
        Self.write(TraceFormat.checksum(out), into: &sum, at: 0)
        Self.appendSection(0xFFFF_FFFF, sum, to: &out)
        return out
    }

    /// Index in `sections` of the (first) section with `tag`.
    func index(of tag: UInt32) -> Int {
        sections.firstIndex { $0.tag == tag }!
    }

    /// Keeps only the events `keep` accepts, fixing the counts.
    mutating func filterEvents(_ keep: (_ record: ArraySlice<UInt8>) -> Bool) {
        let at = index(of: Self.events)
        let payload = sections[at].payload
        let records = stride(from: 8, to: payload.count, by: 40).map { payload[$0..<$0 + 40] }.filter(keep)
        var newPayload = [UInt8](repeating: 0, count: 8)
        Self.write(UInt64(records.count), into: &newPayload, at: 0)
        for record in records { newPayload.append(contentsOf: record) }
        sections[at].payload = newPayload
        Self.write(UInt64(records.count), into: &header, at: 72)
    }

    /// Overwrites bytes of event record `event` at `field` (offset in the record).
    mutating func setEventField<T: FixedWidthInteger>(_ event: Int, _ field: Int, _ value: T) {
        let at = index(of: Self.events)
        Self.write(value, into: &sections[at].payload, at: 8 + event * 40 + field)
    }

    static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }

    static func write<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8], at offset: Int) {
        let size = MemoryLayout<T>.size
        if bytes.count < offset + size { bytes += [UInt8](repeating: 0, count: offset + size - bytes.count) }
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private static func appendSection(_ tag: UInt32, _ payload: [UInt8], to out: inout [UInt8]) {
        var sectionHeader: [UInt8] = []
        write(tag, into: &sectionHeader, at: 0)
        write(UInt32(0), into: &sectionHeader, at: 4)
        write(UInt64(payload.count), into: &sectionHeader, at: 8)
        out += sectionHeader + payload
    }
}

extension TraceReadError {
    /// The case's name, for comparing errors without their details.
    var caseName: String {
        switch self {
        case .cannotRead: "cannotRead"
        case .notATrace: "notATrace"
        case .unsupportedVersion: "unsupportedVersion"
        case .truncated: "truncated"
        case .malformed: "malformed"
        case .indexOutOfRange: "indexOutOfRange"
        case .invalidUTF8: "invalidUTF8"
        case .unknownEventKind: "unknownEventKind"
        case .missingSection: "missingSection"
        case .duplicateSection: "duplicateSection"
        case .checksumMismatch: "checksumMismatch"
        }
    }
}

extension TraceTestSupport {
    /// The error reading `bytes` throws, or nil when they read fine.
    static func readError(_ bytes: [UInt8], path: String = "/tmp/test.lptrace") -> TraceReadError? {
        do {
            _ = try TraceReader.parse(bytes, path: path)
            return nil
        } catch {
            return error
        }
    }

    /// A real trace (recorded and written by LaunchProf) cut down to the few
    /// events of one test, so byte-by-byte loops over it stay fast however
    /// many events other tests put in the shared ring.
    static func smallRealTrace() throws -> [UInt8] {
        let subsystem = uniqueSubsystem("small")
        let signposter = Signposter(subsystem: subsystem, category: "small")
        let full = try recordTrace {
            let state = signposter.beginInterval("load", value: 3)
            signposter.emitEvent("tick", value: -5)
            signposter.endInterval("load", state)
        }
        let categoryIndex = try TraceReader.parse(full, path: "full").categories.firstIndex {
            $0.subsystem == subsystem
        }!
        var surgery = TraceFileSurgery(full)
        surgery.filterEvents { record in
            let start = record.startIndex
            return Int(record[start + 34]) | Int(record[start + 35]) << 8 == categoryIndex
        }
        return surgery.bytes()
    }
}
