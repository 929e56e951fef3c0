/// Why a trace file could not be read. Every case names the file, and where
/// it applies the byte offset and what is wrong there.
package enum TraceReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the system's).
    case cannotRead(path: String, reason: String)
    /// The file does not start with `LPTRACE\0`.
    case notATrace(path: String, found: [UInt8])
    /// The file is a launchprof trace of a format this build does not read.
    case unsupportedVersion(path: String, version: UInt32, supported: UInt32)
    /// The file ends before something it declares.
    case truncated(path: String, offset: Int, detail: String)
    /// A field or table is inconsistent (bad header size, counts that do not
    /// fit their section, trailing bytes, events out of order...).
    case malformed(path: String, offset: Int, detail: String)
    /// A string or category index points past its table.
    case indexOutOfRange(path: String, offset: Int, field: String, index: UInt64, count: Int)
    /// A string of the string table is not valid UTF-8.
    case invalidUTF8(path: String, offset: Int, stringIndex: Int)
    /// An event record has a kind this reader does not know.
    case unknownEventKind(path: String, offset: Int, kind: UInt8)
    /// A required section is not in the file.
    case missingSection(path: String, section: String)
    /// A section that must appear once appears again.
    case duplicateSection(path: String, offset: Int, section: String)
    /// The checksum does not match the bytes: the file was damaged after it
    /// was written.
    case checksumMismatch(path: String, offset: Int, stored: UInt64, computed: UInt64)

    package var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "cannot read trace '\(path)': \(reason)"
        case .notATrace(let path, let found):
            let shown = found.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + hex2($0) }.joined()
            return "'\(path)' is not a launchprof trace: it starts with \"\(shown)\", not \"LPTRACE\\0\""
        case .unsupportedVersion(let path, let version, let supported):
            if version > supported {
                return "trace '\(path)' is format version \(version); this launchprof reads version \(supported) — upgrade launchprof"
            }
            return "trace '\(path)' is format version \(version); this launchprof reads only version \(supported)"
        case .truncated(let path, _, let detail):
            return "trace '\(path)' is truncated: \(detail)"
        case .malformed(let path, _, let detail):
            return "trace '\(path)' is malformed: \(detail)"
        case .indexOutOfRange(let path, let offset, let field, let index, let count):
            return "trace '\(path)' is malformed: \(field) at byte \(offset) is \(index), but the table has only \(count) entries"
        case .invalidUTF8(let path, let offset, let stringIndex):
            return "trace '\(path)' is malformed: string \(stringIndex) at byte \(offset) is not valid UTF-8"
        case .unknownEventKind(let path, let offset, let kind):
            return "trace '\(path)' is malformed: event at byte \(offset) has unknown kind \(kind) (known: 1 to 5)"
        case .missingSection(let path, let section):
            return "trace '\(path)' is malformed: it has no \(section) section"
        case .duplicateSection(let path, let offset, let section):
            return "trace '\(path)' is malformed: a second \(section) section starts at byte \(offset)"
        case .checksumMismatch(let path, let offset, let stored, let computed):
            return "trace '\(path)' is corrupted: the checksum at byte \(offset) is 0x\(hex16(stored)) "
                + "but the bytes before it hash to 0x\(hex16(computed))"
        }
    }

    /// The byte offset the error points at, if any.
    package var offset: Int? {
        switch self {
        case .cannotRead, .notATrace, .unsupportedVersion, .missingSection: nil
        case .truncated(_, let offset, _), .malformed(_, let offset, _),
            .indexOutOfRange(_, let offset, _, _, _), .invalidUTF8(_, let offset, _),
            .unknownEventKind(_, let offset, _), .duplicateSection(_, let offset, _),
            .checksumMismatch(_, let offset, _, _):
            offset
        }
    }
}

private func hex2(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
}

private func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
