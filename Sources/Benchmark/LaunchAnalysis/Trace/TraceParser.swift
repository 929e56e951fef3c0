/// Parses one trace file's bytes: header, section framing and checksum here;
/// the tables in `TraceParser+Tables.swift`.
///
/// The checksum is verified before any section payload is interpreted, so a
/// damaged file is reported as damaged rather than by whatever field the
/// damage happened to hit; the payload checks then catch files that are
/// intact but wrong (a writer bug, a hand-made file).
struct TraceParser {
    let bytes: [UInt8]
    let path: String

    /// One section's place in the file.
    struct Section {
        let tag: UInt32
        /// Where its 16-byte section header starts.
        let offset: Int
        let payload: Range<Int>

        var name: String { TraceFileFormat.sectionName(tag: tag) }
        var context: String { "the \(name) section at byte \(offset)" }
    }

    func parse() throws(TraceReadError) -> Trace {
        let (header, headerSize) = try parseHeader()
        let framed = try frameSections(from: headerSize)
        let sections = try requiredSections(framed)
        let strings = try parseStrings(sections[.strings]!)
        let categories = try parseCategories(sections[.categories]!, strings: strings)
        let threadNames = try parseThreads(sections[.threads]!, strings: strings)
        let events = try parseEvents(sections[.events]!, strings: strings, categories: categories)
        guard UInt64(events.count) == header.eventCount else {
            throw .malformed(
                path: path, offset: 72,
                detail: "the header counts \(header.eventCount) events but the events section holds \(events.count)")
        }
        var trace = Trace(
            path: path, header: header, strings: strings, categories: categories,
            threadNames: threadNames, events: events)
        trace.sampling = try parseSampling(framed)
        return trace
    }

    func cursor(_ range: Range<Int>, _ context: String, fileEnd: Bool) -> TraceByteCursor {
        TraceByteCursor(bytes: bytes, path: path, range: range, context: context, truncationIsFileEnd: fileEnd)
    }

    // MARK: - Header

    /// The header, and where the sections start.
    func parseHeader() throws(TraceReadError) -> (TraceHeader, Int) {
        try checkMagic()
        var header = cursor(0..<bytes.count, "the file", fileEnd: true)
        try header.skip(TraceFileFormat.magic.count, "the magic number")
        let version = try header.u32("the format version")
        // Checked before the rest, so a future version with another header
        // layout is still reported by its version.
        guard version == TraceFileFormat.version else {
            throw .unsupportedVersion(path: path, version: version, supported: TraceFileFormat.version)
        }
        let headerSize = try header.u32("the header size")
        try header.require(TraceFileFormat.minimumHeaderSize - header.offset, for: "the rest of the header")
        guard headerSize >= TraceFileFormat.minimumHeaderSize else {
            throw .malformed(
                path: path, offset: 12,
                detail: "the header size is \(headerSize) bytes; version 1 headers are at least \(TraceFileFormat.minimumHeaderSize)")
        }
        guard UInt64(headerSize) <= UInt64(bytes.count) else {
            throw .truncated(
                path: path, offset: 12,
                detail: "the header declares \(headerSize) bytes but the file is only \(bytes.count) bytes long")
        }
        let pid = try header.u32("the pid")
        let policyValue = try header.u32("the overflow policy")
        guard let policy = TraceOverflowPolicy(rawValue: policyValue) else {
            throw .malformed(
                path: path, offset: 20, detail: "the overflow policy is \(policyValue) (known: 0 drop newest, 1 overwrite oldest)")
        }
        let known = { (value: UInt64) in value == 0 ? nil : value }
        let value = TraceHeader(
            formatVersion: version, pid: pid, policy: policy,
            spawnNanoseconds: known(try header.u64("the spawn time")),
            processEntryNanoseconds: known(try header.u64("the process entry time")),
            mainNanoseconds: known(try header.u64("the main time")),
            launchCompleteNanoseconds: known(try header.u64("the launch complete time")),
            writtenNanoseconds: known(try header.u64("the written time")),
            capacity: try header.u64("the ring capacity"),
            eventCount: try header.u64("the event count"),
            lostEvents: try header.u64("the lost event count"))
        return (value, Int(headerSize))
    }

    /// Rejects files that are not traces at all; a file too short to tell
    /// but starting like one is a truncated trace.
    private func checkMagic() throws(TraceReadError) {
        let magic = TraceFileFormat.magic
        let prefix = Array(bytes.prefix(magic.count))
        guard prefix == Array(magic.prefix(prefix.count)) else {
            throw .notATrace(path: path, found: prefix)
        }
        guard prefix.count == magic.count else {
            throw .truncated(
                path: path, offset: 0,
                detail: "the file is \(bytes.count) bytes long; a trace header is \(TraceFileFormat.minimumHeaderSize) bytes")
        }
    }

    // MARK: - Sections

    /// Walks the sections up to and including the checksum, which must be
    /// last and must match; returns the sections before it.
    func frameSections(from start: Int) throws(TraceReadError) -> [Section] {
        var sections: [Section] = []
        var offset = start
        while true {
            let remaining = bytes.count - offset
            guard remaining > 0 else {
                throw .truncated(path: path, offset: offset, detail: "the file ends at byte \(offset) without its checksum section")
            }
            var frame = cursor(offset..<bytes.count, "the file", fileEnd: true)
            let tag = try frame.u32("a section header")
            let reserved = try frame.u32("a section header")
            let length = try frame.u64("a section header")
            let name = TraceFileFormat.sectionName(tag: tag)
            // Checked because the checksum cannot cover its own section's
            // header: a damaged reserved field there would go unnoticed.
            guard reserved == 0 else {
                throw .malformed(
                    path: path, offset: offset + 4,
                    detail: "\(name) section at byte \(offset) has \(reserved) in its reserved field (must be 0)")
            }
            guard length <= UInt64(frame.remaining) else {
                throw .truncated(
                    path: path, offset: offset,
                    detail: "\(name) section at byte \(offset) declares \(length) bytes but only \(frame.remaining) remain")
            }
            // Fits in Int: bounded by the remaining byte count just above.
            let section = Section(tag: tag, offset: offset, payload: frame.offset..<frame.offset + Int(length))
            if tag == TraceFileFormat.SectionTag.checksum.tag {
                try verifyChecksum(section)
                return sections
            }
            sections.append(section)
            offset = section.payload.upperBound
        }
    }

    private func verifyChecksum(_ section: Section) throws(TraceReadError) {
        guard section.payload.count == 8 else {
            throw .malformed(
                path: path, offset: section.offset,
                detail: "\(section.context) is \(section.payload.count) bytes long; it holds one 8-byte checksum")
        }
        guard section.payload.upperBound == bytes.count else {
            throw .malformed(
                path: path, offset: section.payload.upperBound,
                detail: "\(bytes.count - section.payload.upperBound) bytes follow \(section.context); it must be last")
        }
        var payload = cursor(section.payload, section.context, fileEnd: false)
        let stored = try payload.u64("the checksum")
        let computed = TraceFileFormat.checksum(bytes[0..<section.offset])
        guard stored == computed else {
            throw .checksumMismatch(path: path, offset: section.payload.lowerBound, stored: stored, computed: computed)
        }
    }

    /// The known sections by tag, each present exactly once; unknown tags
    /// (later minor additions) are skipped.
    func requiredSections(_ sections: [Section]) throws(TraceReadError) -> [TraceFileFormat.SectionTag: Section] {
        var found: [TraceFileFormat.SectionTag: Section] = [:]
        for section in sections {
            guard let tag = TraceFileFormat.SectionTag(tag: section.tag) else { continue }
            guard found[tag] == nil else {
                throw .duplicateSection(path: path, offset: section.offset, section: tag.name)
            }
            found[tag] = section
        }
        for tag in TraceFileFormat.SectionTag.allCases where tag != .checksum && found[tag] == nil {
            throw .missingSection(path: path, section: tag.name)
        }
        return found
    }
}
