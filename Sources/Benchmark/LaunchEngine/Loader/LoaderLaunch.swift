import LaunchProfFormat

/// One launch as the dynamic loader's audit library saw it
/// (liblaunchprof-audit.so, docs/sampling.md): when each shared library was
/// looked for and mapped, when relocation ended, and when each library's
/// constructors started, from the datagrams of its channel.
///
/// The channel is hostile input like any other: every record is checked,
/// counts and names are bounded, and what is missing or out of order is an
/// error that says so, never a trap.
package struct LoaderLaunch: Sendable, Equatable {
    /// One datagram of the channel: its bytes and the kernel's timestamp
    /// (CLOCK_REALTIME ns when it was written; 0 when none came).
    package struct Datagram: Sendable, Equatable {
        /// The datagram's bytes.
        package var bytes: [UInt8]
        /// When the kernel stamped it (CLOCK_REALTIME ns; 0: not stamped).
        package var stamp: UInt64
        /// A datagram as it was received.
        package init(bytes: [UInt8], stamp: UInt64) {
            self.bytes = bytes
            self.stamp = stamp
        }
    }

    /// One object of the initial namespace, in the order it was mapped.
    package struct Object: Sendable, Equatable {
        /// Its path as the loader names it ("" for the program itself).
        package var path: String
        /// Search + open + mmap, ns (nil for objects the loader maps without a
        /// search: the program, the loader itself, the vDSO).
        package var map: UInt64?
        /// Its constructors, ns: from the loader's "calling init" line for it to
        /// the next one (0 when it has none).
        package var initialize: UInt64
    }

    /// The objects, in mapping order.
    package var objects: [Object]
    /// The last object mapped → every object relocated (LA_ACT_CONSISTENT), ns.
    package var relocation: UInt64
    /// Relocated → before the program's entry (la_preinit): every constructor, ns.
    package var constructors: UInt64
    /// The program's own constructors ("initialize program" → la_preinit), ns; nil when not seen.
    package var programInit: UInt64?
    /// The audit library loaded → la_preinit, ns: the loader's part of pre-main.
    package var total: UInt64
    /// Whether each library's constructors were timed (the loader's debug output was found).
    package var constructorsSplit: Bool

    /// Most objects and loader lines read from one launch.
    package static let maximumObjects = 10_000
    /// Most lines (records and the loader's) read from one launch.
    package static let maximumLines = 200_000
    /// The longest loader part of a launch read, ns: an hour.
    package static let longestLaunch: UInt64 = 3_600_000_000_000
    /// Longest name kept, in bytes of UTF-8 (a path is at most PATH_MAX).
    package static let maximumName = 4096
}

extension LoaderLaunch {
    /// A record of the audit library's own datagrams.
    private enum Record {
        case version(mono: UInt64, real: UInt64)
        case search(mono: UInt64)
        case open(mono: UInt64, path: String)
        case consistent(mono: UInt64, real: UInt64)
        case preinit(mono: UInt64, real: UInt64)
        case debug
        case problem(String)
    }

    /// Reads a launch from its channel's datagrams; `source` names them in errors.
    package static func parse(_ datagrams: [Datagram], source: String) throws(LoaderAuditError) -> LoaderLaunch {
        var records: [Record] = []
        var inits: [(path: String, stamp: UInt64)] = []
        var programStart: UInt64?
        var lines = 0
        for datagram in datagrams {
            // Lines end at each line feed byte (split by Character, a CR
            // before one would hide it: "\r\n" is one Character).
            let rows = datagram.bytes.split(separator: UInt8(ascii: "\n")).map { Substring(String(decoding: $0, as: UTF8.self)) }
            lines += rows.count
            guard lines <= maximumLines else {
                throw .malformed(source: source, problem: "more than \(maximumLines) lines (at most that many are read)")
            }
            if rows.first == Substring(LP_AUDIT_MAGIC) {
                for row in rows.dropFirst() { records.append(try record(row, source: source)) }
                continue
            }
            // The loader's own LD_DEBUG=files lines: "  <pid>:\tcalling init: <path>".
            for row in rows {
                if let path = value(of: "calling init: ", in: row) {
                    guard datagram.stamp != 0 else {
                        throw .malformed(source: source, problem: "a loader line came without a kernel timestamp")
                    }
                    inits.append((path, datagram.stamp))
                } else if value(of: "initialize program: ", in: row) != nil, programStart == nil {
                    programStart = datagram.stamp
                }
            }
        }
        return try assemble(records, inits: inits, programStart: programStart, source: source)
    }

    private static func value(of label: String, in row: Substring) -> String? {
        guard let range = row.range(of: label) else { return nil }
        return name(row[range.upperBound...])
    }

    /// `text`'s first whole Characters within ``maximumName`` bytes of UTF-8
    /// (a Character may be any number of bytes: a cap on them is none).
    private static func name(_ text: Substring) -> String {
        guard text.utf8.count > maximumName else { return String(text) }
        var bytes = 0
        return String(
            text.prefix { character in
                bytes += character.utf8.count
                return bytes <= maximumName
            })
    }

    private static func record(_ row: Substring, source: String) throws(LoaderAuditError) -> Record {
        let fields = row.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        func number(_ index: Int) throws(LoaderAuditError) -> UInt64 {
            guard index < fields.count, let value = UInt64(fields[index]), value <= UInt64(1) << 62 else {
                throw .malformed(source: source, problem: "record '\(row.prefix(80))' has no valid number in field \(index + 1)")
            }
            return value
        }
        switch fields.first {
        case "V": return .version(mono: try number(1), real: try number(2))
        case "S": return .search(mono: try number(1))
        case "O": return .open(mono: try number(1), path: fields.count > 2 ? name(fields[2]) : "")
        case "C": return .consistent(mono: try number(1), real: try number(2))
        case "P": return .preinit(mono: try number(1), real: try number(2))
        case "F": return .debug
        case "X": return .problem(fields.dropFirst().joined(separator: " "))
        default: throw .malformed(source: source, problem: "unknown record '\(row.prefix(80))'")
        }
    }

    private static func assemble(
        _ records: [Record], inits: [(path: String, stamp: UInt64)], programStart: UInt64?, source: String
    ) throws(LoaderAuditError) -> LoaderLaunch {
        var start: UInt64?, consistent: (mono: UInt64, real: UInt64)?, preinit: (mono: UInt64, real: UInt64)?
        var objects: [Object] = [], opens: [UInt64] = [], pendingSearch: UInt64?, split = false, previous: UInt64 = 0
        for record in records {
            switch record {
            case .version(let mono, _): start = mono
            case .search(let mono):
                guard mono >= previous else { throw .malformed(source: source, problem: "times go backwards at a search") }
                pendingSearch = mono
                previous = mono
            case .open(let mono, let path):
                guard mono >= previous else { throw .malformed(source: source, problem: "times go backwards at '\(path)'") }
                guard objects.count < maximumObjects else {
                    throw .malformed(source: source, problem: "more than \(maximumObjects) objects")
                }
                objects.append(Object(path: path, map: pendingSearch.map { mono - $0 }, initialize: 0))
                opens.append(mono)
                pendingSearch = nil
                previous = mono
            case .consistent(let mono, let real): if consistent == nil { consistent = (mono, real) }
            case .preinit(let mono, let real): if preinit == nil { preinit = (mono, real) }
            case .debug: split = true
            case .problem(let what) where what == "overflow":
                throw .malformed(source: source, problem: "the audit library ran out of room for its records")
            case .problem: break
            }
        }
        guard let start else { throw .missing(source: source, what: "the audit library's start (V)") }
        guard let consistent, let lastOpen = opens.last else {
            throw .missing(source: source, what: "the end of relocation (C): the program is static, or did not start")
        }
        guard let preinit else { throw .missing(source: source, what: "the program's entry (P): it failed before main") }
        guard start <= opens[0], lastOpen <= consistent.mono, consistent.mono <= preinit.mono else {
            throw .malformed(source: source, problem: "the audit records are out of order")
        }
        // Every figure below is then at most an hour: sums of them cannot overflow.
        guard preinit.mono - start <= longestLaunch else {
            throw .malformed(source: source, problem: "the loader's part of the launch is longer than an hour")
        }
        guard zip(inits, inits.dropFirst()).allSatisfy({ $0.stamp <= $1.stamp }),
            programStart.map({ stamp in inits.last.map { $0.stamp <= stamp } ?? true }) ?? true
        else {
            throw .malformed(source: source, problem: "the loader's lines are out of order (did the real-time clock jump?)")
        }
        // The kernel stamps CLOCK_REALTIME; the records carry both clocks.
        let offset = Int64(bitPattern: preinit.real &- preinit.mono)
        func mono(_ stamp: UInt64) -> UInt64 {
            let value = Int64(bitPattern: stamp) &- offset
            return UInt64(max(Int64(consistent.mono), min(Int64(preinit.mono), value)))
        }
        var launch = LoaderLaunch(
            objects: objects, relocation: consistent.mono - lastOpen, constructors: preinit.mono - consistent.mono,
            programInit: programStart.map { preinit.mono - mono($0) }, total: preinit.mono - start, constructorsSplit: split)
        let end = programStart.map(mono) ?? preinit.mono
        for (index, entry) in inits.enumerated() {
            let from = mono(entry.stamp), to = index + 1 < inits.count ? mono(inits[index + 1].stamp) : end
            guard let object = launch.objects.firstIndex(where: { $0.path == entry.path }) else { continue }
            launch.objects[object].initialize += to >= from ? to - from : 0
        }
        if let programInit = launch.programInit, let program = launch.objects.firstIndex(where: { $0.path.isEmpty }) {
            launch.objects[program].initialize += programInit
        }
        return launch
    }
}
