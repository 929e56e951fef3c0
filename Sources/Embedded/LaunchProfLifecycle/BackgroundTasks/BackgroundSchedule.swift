/// The persisted schedule: per task, the history that decides when it is
/// due (next due, last run, outcome, failures in a row) and the claim of a
/// run under way. A text file beside the StateStore's, one task a line,
/// written whole or not at all (``BackgroundScheduleFile``):
///
/// ```
/// launchprof-background-tasks 1
/// task com.example.refresh next=1764000900000 last=1764000000000 outcome=succeeded failures=0
/// task com.example.cleanup next=1764000000000 last=- outcome=- failures=0 claim=1@1764000000100
/// ```
///
/// Times are Unix milliseconds: a schedule must survive reboots, so it
/// cannot be on the monotonic clock. The file is hostile input like any
/// other: every value is range-checked, and a line that is malformed or out
/// of range is discarded with a diagnostic naming the file, the line and
/// what is wrong; only a file that is not a schedule at all (its first
/// line) is refused whole. Pure: the schedule-file fuzz target drives it.
struct BackgroundSchedule: Equatable {
    struct Entry: Equatable {
        var identifier: String
        /// When it is due next; nil: not scheduled (a one-off that finished).
        var nextDue: Int64?
        var lastRun: Int64?
        var lastOutcome: BackgroundTaskOutcome?
        var failures: Int
        /// The run under way in some process, if any.
        var claim: Claim?

        init(identifier: String, failures: Int = 0) {
            self.identifier = identifier
            self.failures = failures
        }
    }

    /// A run under way: the process running it holds byte `slot` of the
    /// schedule's lock file locked for as long as it runs, so a claim whose
    /// byte nobody holds is the claim of a process that died.
    struct Claim: Equatable {
        var slot: Int
        var started: Int64
    }

    static let header = "launchprof-background-tasks 1"
    /// The largest schedule file read: 1 MiB, some 5,000 tasks.
    static let maximumFileSize = 1 << 20
    /// Times in the file run from 0 (1970) to the end of the year 9999 UTC.
    static let latestTime: Int64 = 253_402_300_799_999
    /// Failures in a row are counted up to this (the backoff reaches its
    /// maximum long before).
    static let maximumFailures = 1_000_000
    /// Claim slots: bytes 1… of the lock file.
    static let maximumClaimSlot = 65_536

    var entries: [String: Entry] = [:]

    /// The schedule in `bytes`, read from `path`, and one diagnostic for
    /// each line discarded.
    static func parse(
        _ bytes: [UInt8], path: String
    ) throws(BackgroundTaskError) -> (
        schedule: BackgroundSchedule, discarded: [String]
    ) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header) else {
            throw .unreadableSchedule(path: path, reason: "its first line is not '\(header)'")
        }
        var schedule = BackgroundSchedule()
        var discarded: [String] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            switch entry(line) {
            case .success(let entry): schedule.entries[entry.identifier] = entry
            case .failure(let problem):
                discarded.append("\(path):\(index + 1): \(problem.reason); the entry is discarded")
            }
        }
        return (schedule, discarded)
    }

    /// What is wrong with a line.
    struct LineProblem: Error {
        var reason: String
    }

    private static func entry(_ line: Substring) -> Result<Entry, LineProblem> {
        let fields = line.split(separator: " ")
        guard fields.count >= 2, fields[0] == "task" else {
            return .failure(LineProblem(reason: "not 'task IDENTIFIER key=value…'"))
        }
        if let problem = BackgroundTaskRequest.identifierProblem(String(fields[1])) { return .failure(LineProblem(reason: problem)) }
        var entry = Entry(identifier: String(fields[1]))
        for field in fields.dropFirst(2) {
            let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return .failure(LineProblem(reason: "'\(field.prefix(80))' is not key=value")) }
            let (key, value) = (pair[0], pair[1])
            do throws(LineProblem) {
                switch key {
                case "next": entry.nextDue = try time(value, key)
                case "last": entry.lastRun = try time(value, key)
                // An outcome a later version adds counts as none.
                case "outcome": entry.lastOutcome = BackgroundTaskOutcome(rawValue: String(value))
                case "failures": entry.failures = try number(value, key, in: 0...maximumFailures)
                case "claim": entry.claim = try claim(value)
                default: continue  // keys a later version adds
                }
            } catch {
                return .failure(error)
            }
        }
        return .success(entry)
    }

    private static func time(_ value: Substring, _ key: Substring) throws(LineProblem) -> Int64? {
        if value == "-" { return nil }
        return Int64(try number(value, key, in: 0...Int(latestTime)))
    }

    private static func number(_ value: Substring, _ key: Substring, in range: ClosedRange<Int>) throws(LineProblem) -> Int {
        // Int(_:) parses with overflow checks: a number past Int.max is nil, not a trap.
        guard let number = Int(value), range.contains(number) else {
            throw LineProblem(reason: "\(key) '\(value.prefix(40))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func claim(_ value: Substring) throws(LineProblem) -> Claim? {
        if value == "-" { return nil }
        let parts = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw LineProblem(reason: "claim '\(value.prefix(40))' is not SLOT@STARTED") }
        let slot = try number(parts[0], "claim slot", in: 1...maximumClaimSlot)
        guard let started = try time(parts[1], "claim start") else { throw LineProblem(reason: "claim without a start time") }
        return Claim(slot: slot, started: started)
    }

    /// The file's text. A claim is written only when there is one, so that
    /// a reader without claims (which ignores keys it does not know) reads
    /// the rest.
    var text: String {
        var lines = [Self.header]
        for entry in entries.values.sorted(by: { $0.identifier < $1.identifier }) {
            func time(_ value: Int64?) -> String { value.map(String.init) ?? "-" }
            var line =
                "task \(entry.identifier) next=\(time(entry.nextDue)) last=\(time(entry.lastRun)) "
                + "outcome=\(entry.lastOutcome?.rawValue ?? "-") failures=\(entry.failures)"
            if let claim = entry.claim { line += " claim=\(claim.slot)@\(claim.started)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
