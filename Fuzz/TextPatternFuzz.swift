/// libFuzzer entry for the ready probes' patterns (TextPattern;
/// Scripts/checks/fuzz.sh builds it alone).
///
/// Each input is a pattern and a text, split at the first NUL byte: the
/// pattern must compile or be refused with a reason, never trap, and a
/// match must end within libFuzzer's per-input timeout whatever both are
/// (the linear-time promise). Patterns and texts of a small alphabet
/// (`ab` and `.*+?|()`, short enough for a backtracking engine) are matched
/// by Swift's Regex too, and both must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func textPatternFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let source = String(decoding: bytes[..<split], as: UTF8.self)
    let text = String(decoding: bytes[min(split + 1, bytes.count)...], as: UTF8.self)
    let pattern: TextPattern
    do {
        pattern = try TextPattern(source)
    } catch {
        precondition(!error.reason.isEmpty, "a refusal without a reason")
        return 0
    }
    let matched = pattern.matches(text)
    precondition(pattern.matches(Substring(text)) == matched, "a String and a Substring of it match differently")
    let small = source.unicodeScalars.count <= 10 && text.unicodeScalars.count <= 16
    if small, source.allSatisfy({ "ab.*+?|()".contains($0) }), text.allSatisfy({ "ab".contains($0) }),
        let regex = try? Regex(source)
    {
        let expected = (try? regex.firstMatch(in: text)) != nil
        precondition(expected == matched, "'\(source)' on '\(text)': Regex says \(expected), TextPattern \(matched)")
    }
    return 0
}
