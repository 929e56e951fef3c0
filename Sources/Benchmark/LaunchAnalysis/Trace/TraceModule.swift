/// A loaded ELF object, as the loader listed it.
package struct TraceModule: Sendable, Equatable {
    /// The module's file.
    package var path: String
    /// Load bias: runtime address = bias + ELF virtual address.
    package var bias: UInt64
    /// The runtime range of its PT_LOAD segments.
    package var start: UInt64
    /// The end of its runtime range.
    package var end: UInt64
    /// The GNU build id (empty if it has none).
    package var buildID: [UInt8]

    /// The build id as lowercase hex.
    package var buildIDText: String { buildID.map { String($0 / 16, radix: 16) + String($0 % 16, radix: 16) }.joined() }
    /// The file name alone.
    package var name: String { path.split(separator: "/").last.map(String.init) ?? path }
}
