/// A loaded ELF object, as the loader listed it.
public struct TraceModule: Sendable, Equatable {
    /// The module's file.
    public var path: String
    /// Load bias: runtime address = bias + ELF virtual address.
    public var bias: UInt64
    /// The runtime range of its PT_LOAD segments.
    public var start: UInt64
    /// The end of its runtime range.
    public var end: UInt64
    /// The GNU build id (empty if it has none).
    public var buildID: [UInt8]

    /// The build id as lowercase hex.
    public var buildIDText: String { buildID.map { String($0 / 16, radix: 16) + String($0 % 16, radix: 16) }.joined() }
    /// The file name alone.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
}
