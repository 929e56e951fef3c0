/// The payloads of the string, category, thread and event sections.
///
/// Each count is checked against its section's length before anything is
/// allocated from it, and each section must be consumed exactly.
extension TraceParser {
    func parseStrings(_ section: Section) throws(TraceReadError) -> [String] {
        var payload = cursor(section.payload, section.context, fileEnd: false)
        // Each string takes at least its 4-byte length.
        let count = try checkedCount(&payload, section, recordSize: 4, exact: false)
        var strings: [String] = []
        strings.reserveCapacity(count)
        for index in 0..<count {
            let length = try payload.u32("the length of string \(index)")
            let start = payload.offset
            let utf8 = try payload.take(Int(length), "string \(index)")
            guard let string = String(validating: utf8, as: UTF8.self) else {
                throw .invalidUTF8(path: path, offset: start, stringIndex: index)
            }
            strings.append(string)
        }
        try expectEnd(payload, section, after: "its last string")
        return strings
    }

    func parseCategories(_ section: Section, strings: [String]) throws(TraceReadError) -> [TraceCategory] {
        var payload = cursor(section.payload, section.context, fileEnd: false)
        let count = try checkedCount(&payload, section, recordSize: 8, exact: true)
        var categories: [TraceCategory] = []
        categories.reserveCapacity(count)
        for index in 0..<count {
            let subsystem = try string(&payload, strings, "the subsystem of category \(index)")
            let category = try string(&payload, strings, "the category name of category \(index)")
            categories.append(TraceCategory(subsystem: subsystem, category: category))
        }
        return categories
    }

    func parseThreads(_ section: Section, strings: [String]) throws(TraceReadError) -> [UInt32: String] {
        var payload = cursor(section.payload, section.context, fileEnd: false)
        let count = try checkedCount(&payload, section, recordSize: 8, exact: true)
        var names: [UInt32: String] = [:]
        names.reserveCapacity(count)
        for index in 0..<count {
            let offset = payload.offset
            let tid = try payload.u32("the tid of thread \(index)")
            let name = try string(&payload, strings, "the name of thread \(index)")
            guard names.updateValue(name, forKey: tid) == nil else {
                throw .malformed(path: path, offset: offset, detail: "thread \(tid) at byte \(offset) is named twice")
            }
        }
        return names
    }

    func parseEvents(
        _ section: Section, strings: [String], categories: [TraceCategory]
    ) throws(TraceReadError) -> [TraceEvent] {
        var payload = cursor(section.payload, section.context, fileEnd: false)
        let count = try checkedCount(&payload, section, countSize: 8, recordSize: TraceFileFormat.eventRecordSize, exact: true)
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        var previous: UInt64 = 0
        for _ in 0..<count {
            let event = try parseEvent(&payload, strings: strings, categories: categories)
            guard event.timestamp >= previous else {
                let offset = payload.offset - TraceFileFormat.eventRecordSize
                throw .malformed(
                    path: path, offset: offset,
                    detail:
                        "the event at byte \(offset) is at \(event.timestamp) ns, before the event ahead of it (\(previous) ns); events must be sorted by time"
                )
            }
            previous = event.timestamp
            events.append(event)
        }
        return events
    }

    /// One 40-byte event record (layout in docs/trace-format.md).
    private func parseEvent(
        _ payload: inout TraceByteCursor, strings: [String], categories: [TraceCategory]
    ) throws(TraceReadError) -> TraceEvent {
        let offset = payload.offset
        let timestamp = try payload.u64("an event timestamp")
        let id = try payload.u64("an event id")
        let argument = try payload.i64("an event argument")
        let name = try string(&payload, strings, "the name of the event at byte \(offset)")
        let tid = try payload.u32("an event thread id")
        let kindValue = try payload.u8("an event kind")
        guard let kind = TraceEventKind(code: kindValue) else {
            throw .unknownEventKind(path: path, offset: offset, kind: kindValue)
        }
        let flags = try payload.u8("event flags")
        let categoryOffset = payload.offset
        let categoryIndex = Int(try payload.u16("an event category"))
        guard categoryIndex < categories.count else {
            throw .indexOutOfRange(
                path: path, offset: categoryOffset, field: "the category of the event at byte \(offset)",
                index: UInt64(categoryIndex), count: categories.count)
        }
        try payload.skip(4, "an event's reserved field")
        return TraceEvent(
            timestamp: timestamp, kind: kind, name: name, id: id,
            argument: flags & TraceFileFormat.hasArgumentFlag != 0 ? argument : nil,
            threadID: tid, categoryIndex: categoryIndex, category: categories[categoryIndex],
            threadCPU: flags & TraceFileFormat.hasArgumentFlag == 0 && flags & TraceFileFormat.threadCPUFlag != 0
                ? UInt64(bitPattern: argument) : nil)
    }

    // MARK: - Helpers

    /// Reads a table's count and checks it against the section's length:
    /// exactly `count * recordSize` bytes must follow when `exact`, at least
    /// that many otherwise. Returns it only once it is known to fit.
    private func checkedCount(
        _ payload: inout TraceByteCursor, _ section: Section, countSize: Int = 4, recordSize: Int, exact: Bool
    ) throws(TraceReadError) -> Int {
        let count = countSize == 8 ? try payload.u64("the entry count") : UInt64(try payload.u32("the entry count"))
        let room = UInt64(payload.remaining)
        let (needed, overflow) = count.multipliedReportingOverflow(by: UInt64(recordSize))
        guard !overflow, exact ? needed == room : needed <= room else {
            let shape = exact ? "\(recordSize) bytes each" : "at least \(recordSize) bytes each"
            throw .malformed(
                path: path, offset: section.offset,
                detail: "\(section.context) declares \(count) entries (\(shape)) but holds \(room) bytes of entries")
        }
        // Fits in Int: count * recordSize <= room, which is an Int.
        return Int(count)
    }

    /// Reads a u32 string index and resolves it.
    private func string(
        _ payload: inout TraceByteCursor, _ strings: [String], _ field: String
    ) throws(TraceReadError) -> String {
        let offset = payload.offset
        let index = try payload.u32(field)
        guard Int(index) < strings.count else {
            throw .indexOutOfRange(path: path, offset: offset, field: field, index: UInt64(index), count: strings.count)
        }
        return strings[Int(index)]
    }

    private func expectEnd(_ payload: TraceByteCursor, _ section: Section, after what: String) throws(TraceReadError) {
        guard payload.remaining == 0 else {
            throw .malformed(
                path: path, offset: payload.offset,
                detail: "\(section.context) has \(payload.remaining) unexpected bytes after \(what), at byte \(payload.offset)")
        }
    }
}
