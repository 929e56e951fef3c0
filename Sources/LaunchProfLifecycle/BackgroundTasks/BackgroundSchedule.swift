import Glibc
import LaunchProf
import LaunchProfFiles

/// The persisted schedule: per task, its request's timing and the history
/// that decides when it is due (last run, outcome, failures in a row, next
/// due). A text file beside the StateStore's, one task a line, written
/// whole or not at all:
///
/// ```
/// launchprof-background-tasks 1
/// task com.example.refresh kind=refresh interval=900000 next=1764000000000 last=1763999100000 outcome=succeeded failures=0
/// ```
///
/// Times are Unix milliseconds: a schedule must survive reboots, so it
/// cannot be on the monotonic clock.
struct BackgroundSchedule: Equatable {
    struct Entry: Equatable {
        var identifier: String
        /// When it is due next; nil: not scheduled (a one-off that finished).
        var nextDue: Int64?
        var lastRun: Int64?
        var lastOutcome: BackgroundTaskOutcome?
        var failures: Int
    }

    static let header = "launchprof-background-tasks 1"
    var entries: [String: Entry] = [:]

    /// The schedule in `path`; empty when there is no file yet.
    static func load(_ path: String) throws(BackgroundTaskError) -> BackgroundSchedule {
        let bytes: [UInt8]
        switch FileText.bytes(path, limit: 16 << 20) {
        case .success(let read): bytes = read
        case .failure(let error) where error.errno == ENOENT: return BackgroundSchedule()
        case .failure(let error): throw .unreadableSchedule(path: path, reason: String(cString: strerror(error.errno)))
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(header) else {
            throw .unreadableSchedule(path: path, reason: "its first line is not '\(header)'")
        }
        var schedule = BackgroundSchedule()
        for (number, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[0] == "task", BackgroundTaskRequest.identifierProblem(String(fields[1])) == nil else {
                throw .unreadableSchedule(path: path, reason: "line \(number + 1) is not 'task IDENTIFIER key=value…'")
            }
            var entry = Entry(identifier: String(fields[1]), failures: 0)
            for field in fields.dropFirst(2) {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else {
                    throw .unreadableSchedule(path: path, reason: "line \(number + 1): '\(field)' is not key=value")
                }
                let (key, value) = (pair[0], String(pair[1]))
                func time() throws(BackgroundTaskError) -> Int64? {
                    if value == "-" { return nil }
                    guard let number = Int64(value) else {
                        throw .unreadableSchedule(path: path, reason: "line \(number + 1): \(key) '\(value)' is not a time in ms")
                    }
                    return number
                }
                switch key {
                case "next": entry.nextDue = try time()
                case "last": entry.lastRun = try time()
                case "outcome": entry.lastOutcome = value == "-" ? nil : BackgroundTaskOutcome(rawValue: value)
                case "failures": entry.failures = max(0, Int(value) ?? 0)
                default: continue  // keys a later version adds
                }
            }
            schedule.entries[entry.identifier] = entry
        }
        return schedule
    }

    /// The file's text.
    var text: String {
        var lines = [Self.header]
        for entry in entries.values.sorted(by: { $0.identifier < $1.identifier }) {
            func time(_ value: Int64?) -> String { value.map(String.init) ?? "-" }
            lines.append(
                "task \(entry.identifier) next=\(time(entry.nextDue)) last=\(time(entry.lastRun)) "
                    + "outcome=\(entry.lastOutcome?.rawValue ?? "-") failures=\(entry.failures)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func save(_ path: String) throws(BackgroundTaskError) {
        do {
            try AtomicFile.write(Array(text.utf8), to: path, sync: true, mode: 0o600)
        } catch {
            throw .unwritableSchedule(path: path, reason: error.description)
        }
    }
}

/// Whether the machine meets a request's conditions, read from the kernel
/// as it is (the roots are parameters, so tests can stand in for /sys and
/// /proc).
public struct BackgroundConditions: Sendable, Equatable {
    /// The power supplies (`/sys/class/power_supply`).
    public var powerSupplies: String
    /// The IPv4 routing table (`/proc/net/route`).
    public var routes: String
    /// The IPv6 routing table (`/proc/net/ipv6_route`).
    public var ipv6Routes: String

    /// The real machine's.
    public init(
        powerSupplies: String = "/sys/class/power_supply", routes: String = "/proc/net/route",
        ipv6Routes: String = "/proc/net/ipv6_route"
    ) {
        self.powerSupplies = powerSupplies
        self.routes = routes
        self.ipv6Routes = ipv6Routes
    }

    /// On external power: a `Mains` (or USB) supply is online, or there is
    /// no battery at all (a desktop, a server, a container).
    public var hasExternalPower: Bool {
        guard let directory = opendir(powerSupplies) else { return true }  // no power_supply class: no battery
        defer { closedir(directory) }
        var battery = false
        var mainsOnline = false
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let type = FileText.text("\(powerSupplies)/\(name)/type")?.filter { !$0.isWhitespace } ?? ""
            switch type {
            case "Battery":
                // A peripheral's battery (a mouse) has scope Device: not the machine's.
                if FileText.text("\(powerSupplies)/\(name)/scope")?.contains("Device") != true { battery = true }
            case "Mains", "USB", "USB_C", "USB_PD":
                if FileText.text("\(powerSupplies)/\(name)/online")?.filter({ !$0.isWhitespace }) == "1" { mainsOnline = true }
            default: break
            }
        }
        return mainsOnline || !battery
    }

    /// A usable default route: an IPv4 route to 0.0.0.0/0 that is up, or an
    /// IPv6 route to ::/0 not on the loopback device.
    public var hasNetwork: Bool {
        if let table = FileText.text(routes) {
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                // Iface Destination Gateway Flags …; RTF_UP = 1
                guard fields.count > 7, fields[1] == "00000000", fields[7] == "00000000",
                    let flags = Int(fields[3], radix: 16), flags & 1 != 0
                else { continue }
                return true
            }
        }
        if let table = FileText.text(ipv6Routes) {
            for line in table.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 10, fields[0] == "00000000000000000000000000000000", fields[1] == "00",
                    fields[9] != "lo"
                else { continue }
                return true
            }
        }
        return false
    }
}
