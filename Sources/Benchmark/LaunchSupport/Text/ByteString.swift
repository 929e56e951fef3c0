import Foundation

/// Bytes as the kernel passes them in argv and the environment: usually
/// UTF-8, but not necessarily (`$'a\xff\xfeb'` is a valid argument), so they
/// are kept as bytes from where they are read to the spawn, and decoded only
/// to be shown.
///
/// In JSON a byte string is a string when it is UTF-8 (as argv always was in
/// results files), and `{"base64": "…"}` when it is not, so nothing is lost.
public struct ByteString: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The bytes, without a terminating NUL.
    public var bytes: [UInt8]

    /// These bytes.
    public init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The UTF-8 bytes of `text`.
    public init(_ text: String) { bytes = Array(text.utf8) }

    /// The bytes of a NUL-terminated C string.
    public init(cString: UnsafePointer<CChar>) {
        bytes = Array(UnsafeBufferPointer(start: cString, count: strlen(cString))).map { UInt8(bitPattern: $0) }
    }

    /// The UTF-8 bytes of a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The UTF-8 bytes of an interpolated literal.
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// The text, with U+FFFD in place of bytes that are not UTF-8: for
    /// messages, names and file paths, never for what is executed.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { string }

    /// Whether the bytes are valid UTF-8 (``string`` is then exact).
    public var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The offset of the first NUL, which no argument or variable can hold
    /// (the kernel would end the string there), or nil.
    public var firstNUL: Int? { bytes.firstIndex(of: 0) }

    /// Whether there are no bytes.
    public var isEmpty: Bool { bytes.isEmpty }
}

extension ByteString: Codable {
    private enum CodingKeys: String, CodingKey {
        case base64
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let encoded = try container.decode(String.self, forKey: .base64)
        guard let data = Data(base64Encoded: encoded) else {
            throw DecodingError.dataCorruptedError(forKey: .base64, in: container, debugDescription: "not base64")
        }
        self.init(data)
    }

    public func encode(to encoder: any Encoder) throws {
        if let text = String(validating: bytes, as: UTF8.self) {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        } else {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Data(bytes).base64EncodedString(), forKey: .base64)
        }
    }
}
