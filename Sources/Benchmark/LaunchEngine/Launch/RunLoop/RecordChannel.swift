import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// The record socket (LAUNCHPROF_RECORD_FD): LP1 records from the launched
/// program, one datagram each carrying its sender's pid.
///
/// Only the launched process's records count (a wrapper must exec the
/// traced program, as `sh -c 'exec prog'` does); records are counted one by
/// one, whatever the datagrams hold, and at most ``limit`` per run are
/// kept, so memory per run is bounded whatever the program sends. A quiet
/// spawn's records wait (bounded the same way) until its pid is known.
final class RecordChannel: RunEventSource {
    private let process: LaunchedProcess
    private let readyByTracer: Bool
    private var socket: FileDescriptor?
    /// Figures read from the records, in nanoseconds since t0.
    private(set) var processEntry: UInt64?
    private(set) var main: UInt64?
    private(set) var milestones: [MilestoneTime] = []
    private(set) var mainThreadCPU: UInt64?
    private var sentences: [String] = []
    /// Records of the launched process seen so far, kept or not.
    private(set) var recordCount = 0
    /// Records past ``limit`` that were dropped: the launched process's,
    /// and those a quiet spawn sent before its pid was known that did not
    /// fit in what is held.
    private(set) var droppedRecords = 0
    private var ignoredSenders = 0
    /// Datagrams that arrived before a quiet spawn's pid was known, and how
    /// many records they hold.
    private var held: [(sender: pid_t, bytes: [UInt8])] = []
    private var heldRecords = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Records kept per run (milestones and the rest).
    static let limit = 10_000
    /// Records that still count past the limit.
    private static let readyPrefix = Array("LP1 ready ".utf8)
    private static let resumedPrefix = Array("LP1 resumed ".utf8)
    /// Datagrams read per round.
    static let slice = 256

    init(process: LaunchedProcess, readyByTracer: Bool) {
        self.process = process
        self.readyByTracer = readyByTracer
        socket = process.channels.recordRead
    }

    var pollRequest: pollfd? { socket.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) } }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        var events: [RunEvent] = []
        if process.isKnown, !held.isEmpty {
            let waiting = held
            held = []
            heldRecords = 0
            for datagram in waiting { take(datagram.bytes[...], from: datagram.sender, into: &events) }
        }
        guard revents != 0, let socket else { return events }
        for _ in 0..<Self.slice {
            var sender: pid_t = 0
            var truncated: Int32 = 0
            let count: Int
            do {
                count = try Syscall.check("recvmsg", "record socket") {
                    buffer.withUnsafeMutableBytes { lp_record_receive(socket.rawValue, $0.baseAddress, $0.count, &sender, &truncated) }
                }
            } catch {
                if error.errno != EAGAIN && error.errno != EWOULDBLOCK { self.socket = nil }  // the socket is done
                return events
            }
            if count == 0 {
                self.socket = nil
                return events
            }
            let bytes = buffer[..<count]
            guard process.isKnown else {
                hold(bytes, from: sender)
                continue
            }
            take(bytes, from: sender, into: &events)
        }
        return events
    }

    /// Keeps a datagram of a quiet spawn until its pid is known, while the
    /// records held stay within the limit.
    private func hold(_ bytes: ArraySlice<UInt8>, from sender: pid_t) {
        let records = Self.lines(of: bytes).count
        guard heldRecords + records <= Self.limit + 1 else {
            droppedRecords += records
            return
        }
        heldRecords += records
        held.append((sender, Array(bytes)))
    }

    /// One datagram from `sender`: its records, one per line.
    private func take(_ bytes: ArraySlice<UInt8>, from sender: pid_t, into events: inout [RunEvent]) {
        guard sender == process.pid else {
            ignoredSenders += 1
            if ignoredSenders == 1 {
                note(
                    "ignored records on LAUNCHPROF_RECORD_FD from pid \(sender) (\(ProcessName.of(sender))), "
                        + "which is not the launched process (pid \(process.pid)): only the launched program's "
                        + "milestones and readiness count; a wrapper script must exec it")
            }
            return
        }
        for line in Self.lines(of: bytes) {
            recordCount += 1
            if recordCount > Self.limit {
                // Past the cap only what ends a wait still counts.
                guard line.starts(with: Self.readyPrefix) || line.starts(with: Self.resumedPrefix) else {
                    droppedRecords += 1
                    continue
                }
            }
            if let event = handle(Substring(String(decoding: line, as: UTF8.self))) { events.append(event) }
        }
    }

    /// The lines of a datagram (a datagram is framed already: its last
    /// line needs no newline); empty lines are not records.
    private static func lines(of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    }

    /// One record: a figure kept, or an event for the state machine.
    private func handle(_ line: Substring) -> RunEvent? {
        let record: TracerRecord?
        do throws(TracerRecordError) {
            record = try TracerRecord.parse(line)
        } catch {
            return .failed(.protocolError(error.description))
        }
        guard let record else { return nil }
        let t0 = process.startNanoseconds
        let ns = record.nanoseconds
        if ns < t0 || ns > monotonicNanoseconds() {
            note("ignored a record stamped outside the run (\(ns) ns; the run began at \(t0) ns, CLOCK_MONOTONIC)")
            return nil
        }
        switch record {
        case .entry(_, let pid):
            guard pid == process.pid else {
                note("ignored an entry record that names pid \(pid), not the launched process (pid \(process.pid))")
                return nil
            }
            processEntry = ns - t0
        case .main: main = ns - t0
        case .milestone(_, let name): milestones.append(MilestoneTime(name: name, nanoseconds: ns - t0))
        case .ready: return readyByTracer ? .ready(at: ns) : nil
        case .resumed: return .resumed(at: ns)
        case .mainThreadCPU(_, let cpu): mainThreadCPU = cpu
        }
        return nil
    }

    /// What the run's report should say about the records: senders and
    /// stamps ignored, and how many records were dropped past the cap.
    var notes: [String] {
        guard droppedRecords > 0 else { return sentences }
        return sentences + [
            "more than \(Self.limit) records on LAUNCHPROF_RECORD_FD in one run: kept the first \(Self.limit), "
                + "dropped \(droppedRecords) (readiness and resume records still count); the milestones kept are "
                + "in the results, the terminal shows the first few"
        ]
    }

    private func note(_ text: String) {
        if !sentences.contains(text) { sentences.append(text) }
    }
}
