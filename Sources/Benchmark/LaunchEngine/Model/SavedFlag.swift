/// A flag kept in saved documents only when it is set: a missing key reads
/// as false and false is not written, so documents without it stay as they
/// were. For flags older files may carry and this version no longer sets.
@propertyWrapper
public struct SavedFlag: Sendable, Hashable, Codable {
    /// The flag.
    public var wrappedValue: Bool

    /// A flag, false unless given.
    public init(wrappedValue: Bool = false) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Bool.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// A ``SavedFlag`` whose key is missing is false.
    public func decode(_ type: SavedFlag.Type, forKey key: Key) throws -> SavedFlag {
        try decodeIfPresent(type, forKey: key) ?? SavedFlag()
    }
}

extension KeyedEncodingContainer {
    /// A ``SavedFlag`` is written only when it is set.
    public mutating func encode(_ value: SavedFlag, forKey key: Key) throws {
        if value.wrappedValue { try encode(value.wrappedValue, forKey: key) }
    }
}
