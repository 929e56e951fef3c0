/// libFuzzer entry for the trace reader (Scripts/checks/fuzz.sh builds it with the
/// harness's Trace and Export sources into one module).
///
/// Each input is parsed twice: as it is (so damaged checksums and framing
/// are exercised) and with its last 8 bytes replaced by the checksum of the
/// bytes before the final 24-byte checksum section, so mutations of the
/// payloads get past the checksum into the table, event, sample and module
/// parsers. A trace that parses is paired and exported as text and Chrome
/// JSON, the passes `launchprof export` runs on it.
@_cdecl("LLVMFuzzerTestOneInput")
public func traceReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    exercise(bytes)
    if bytes.count >= 24 {
        var fixed = bytes
        let checksum = TraceFileFormat.checksum(fixed[0..<fixed.count - 24])
        for index in 0..<8 { fixed[fixed.count - 8 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index))) }
        exercise(fixed)
    }
    return 0
}

private func exercise(_ bytes: [UInt8]) {
    guard let trace = try? TraceReader.parse(bytes, path: "fuzz.lptrace") else { return }
    let intervals = trace.pairIntervals()
    precondition(intervals.slices.count + intervals.asyncIntervals.count <= trace.events.count)
    _ = TextTimelineExporter().export(trace)
    _ = ChromeTraceExporter().export(trace)
}
