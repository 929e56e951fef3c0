/// libFuzzer entry for the StateStore's state file reader (StateFile.decode;
/// Scripts/checks/fuzz.sh builds it with StateFile, StateKind and StateFileProblem).
///
/// Each input is decoded twice: as it is, and with its last 8 bytes
/// replaced by the checksum of the bytes before them, so mutations get past
/// the checksum into the length and field checks. A file that decodes is
/// encoded again and must decode to the same contents.
@_cdecl("LLVMFuzzerTestOneInput")
public func stateFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    exercise(bytes)
    if bytes.count >= 8 {
        let checksum = TraceFormat.checksum(bytes[..<(bytes.count - 8)])
        for index in 0..<8 { bytes[bytes.count - 8 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index))) }
        exercise(bytes)
    }
    return 0
}

private func exercise(_ bytes: [UInt8]) {
    guard case .success(let contents) = StateFile.decode(bytes) else { return }
    precondition(contents.payload.count + contents.appVersion.utf8.count <= bytes.count * 3)
    // The app version is read as UTF-8 with repairs: the contents round-trip, not the bytes.
    let reencoded = StateFile.encode(contents)
    guard case .success(let again) = StateFile.decode(reencoded) else { preconditionFailure("an encoded state file does not decode") }
    var expected = contents
    // A version over 65,535 bytes (once repaired) is saved cut between scalars.
    expected.appVersion = String(decoding: StateFile.versionBytes(contents.appVersion), as: UTF8.self)
    precondition(again == expected, "an encoded state file decodes to something else")
}
