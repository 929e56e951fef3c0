/// libFuzzer entry for the loader audit channel's reader (LoaderLaunch.parse,
/// then LoaderProfile.summarize; Scripts/checks/fuzz.sh builds it with them
/// alone).
///
/// An input is a channel: datagrams separated by NUL bytes, each its kernel
/// stamp in decimal, a space, and its bytes (no leading digits: stamp 0, the
/// whole piece is the datagram). It is read whole, then in pieces: each
/// datagram cut after line feeds into datagrams of a few lines (the audit
/// library's own with the magic line again, the loader's with the same
/// stamp), as the library and the loader could have sent them. The reader
/// must never trap, keep no more than its caps, and reach the same verdict
/// (the same launch, or the same error) either way; a launch it accepts must
/// summarize into a profile that a results file can hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func loaderAuditFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let datagrams = bytes.split(separator: 0, omittingEmptySubsequences: false).map(datagram)
    let whole = Result { () throws(LoaderAuditError) in try LoaderLaunch.parse(datagrams, source: "fuzz") }
    let perPiece = 1 + Int(bytes.first ?? 0) % 3
    let pieces = Result { () throws(LoaderAuditError) in
        try LoaderLaunch.parse(datagrams.flatMap { cut($0, every: perPiece) }, source: "fuzz")
    }
    precondition(whole == pieces, "whole: \(whole); in pieces of \(perPiece) lines: \(pieces)")
    guard case .success(let launch) = whole else { return 0 }
    precondition(launch.objects.count <= LoaderLaunch.maximumObjects, "more objects than the cap")
    precondition(launch.objects.allSatisfy { $0.path.utf8.count <= LoaderLaunch.maximumName }, "a name over the cap")
    precondition(launch.total <= LoaderLaunch.longestLaunch, "a launch over an hour")
    let sum = launch.objects.reduce(UInt64(0)) { $0 + ($1.map ?? 0) + $1.initialize }
    _ = sum + launch.relocation + launch.constructors + (launch.programInit ?? 0)
    guard let profile = LoaderProfile.summarize([launch, launch, launch], mode: .cold, weights: ["": 1]) else {
        preconditionFailure("no profile from a launch")
    }
    precondition(profile.validate() == nil, "a profile of a launch that was read fails its own check: \(profile.validate()!)")
    let figures = [profile.mapping, profile.relocation, profile.constructors, profile.total, profile.programInit ?? 0]
    precondition((figures + profile.libraries.map(\.total)).allSatisfy { $0.isFinite && $0 >= 0 }, "a figure out of range")
    return 0
}

/// A piece of the input as a datagram: "<stamp> <bytes>".
private func datagram(_ piece: Slice<UnsafeBufferPointer<UInt8>>) -> LoaderLaunch.Datagram {
    let digits = piece.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard !digits.isEmpty, digits.endIndex < piece.endIndex, piece[digits.endIndex] == UInt8(ascii: " ") else {
        return LoaderLaunch.Datagram(bytes: Array(piece), stamp: 0)
    }
    let stamp = UInt64(String(decoding: digits, as: UTF8.self)) ?? 0
    return LoaderLaunch.Datagram(bytes: Array(piece[(digits.endIndex + 1)...]), stamp: stamp)
}

/// `datagram` as datagrams of at most `lines` of its lines (ended by a
/// line feed byte) each; the loader's lines are left whole when one of them
/// is the magic, which would make a piece of them a record datagram.
private func cut(_ datagram: LoaderLaunch.Datagram, every lines: Int) -> [LoaderLaunch.Datagram] {
    let newline = UInt8(ascii: "\n")
    let magic = Array("LPA1".utf8)
    var rows = datagram.bytes.split(separator: newline, omittingEmptySubsequences: true)
    let isRecords = rows.first.map { $0.elementsEqual(magic) } ?? false
    if isRecords { rows.removeFirst() }
    guard !rows.isEmpty, isRecords || !rows.contains(where: { $0.elementsEqual(magic) }) else { return [datagram] }
    return stride(from: 0, to: rows.count, by: lines).map { start in
        var bytes = isRecords ? magic + [newline] : []
        for row in rows[start..<min(start + lines, rows.count)] { bytes += row + [newline] }
        return LoaderLaunch.Datagram(bytes: bytes, stamp: datagram.stamp)
    }
}
