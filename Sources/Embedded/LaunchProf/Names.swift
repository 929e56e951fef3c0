import CLaunchProfSupport

/// How event names are stored in the ring: the address of a `StaticString`
/// (resolved to text when the trace is written) or an interned index.
@usableFromInline
package enum Names {
    @inlinable @inline(__always)
    package static func encode(_ name: StaticString) -> UInt64 {
        if _fastPath(name.hasPointerRepresentation) {
            return UInt64(UInt(bitPattern: name.utf8Start))
        }
        // A StaticString holding a single Unicode scalar has no address.
        return intern(name.description)
    }

    @usableFromInline
    package static func intern(_ name: String) -> UInt64 {
        LP_NAME_INTERNED | UInt64(Registry.shared.intern(name))
    }

    /// The text of an encoded name.
    static func text(of encoded: UInt64) -> String {
        if encoded & LP_NAME_INTERNED != 0 {
            return Registry.shared.internedName(Int(encoded & ~LP_NAME_INTERNED)) ?? "<unknown name>"
        }
        guard let pointer = UnsafePointer<CChar>(bitPattern: UInt(encoded)) else { return "<null>" }
        // StaticString literals are stored NUL-terminated in the binary.
        return String(cString: pointer)
    }
}
