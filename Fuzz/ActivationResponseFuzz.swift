/// libFuzzer entry for the `--activate` client's response reader
/// (ResponseReader; Scripts/checks/fuzz.sh builds it alone).
///
/// Each input is a response fed whole, then again in pieces whose sizes
/// come from the input's own first byte, as a network would split it: the
/// reader must never trap, never hold more than its caps, and reach the same
/// verdict (complete, or the same problem) either way.
@_cdecl("LLVMFuzzerTestOneInput")
public func activationResponseFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = ResponseReader(isHTTP: true)
    whole.append(bytes[...])
    var pieces = ResponseReader(isHTTP: true)
    let step = max(1, Int(bytes.first ?? 1) % 17)
    var start = 0
    while start < bytes.count {
        pieces.append(bytes[start..<min(start + step, bytes.count)])
        start += step
    }
    precondition(whole.isComplete == pieces.isComplete, "complete whole but not in pieces, or the other way")
    precondition((whole.problem == nil) == (pieces.problem == nil), "a problem whole but not in pieces")
    _ = whole.problemAtClose
    var raw = ResponseReader(isHTTP: false)
    raw.append(bytes[...])
    precondition(!raw.isComplete && raw.problemAtClose == nil, "bytes that are not HTTP end only at close")
    return 0
}
