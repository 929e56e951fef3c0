import Foundation
import LaunchProfLifecycle

/// `Codable` values over ``StateStore``'s bytes, as JSON.
///
/// A separate module because it needs Foundation, which the core library
/// never imports (it costs a Swift program about 5 ms of launch). Programs
/// that already use Foundation lose nothing by using it.
extension StateStore {
    /// Saves `value` as JSON. (A label, so that `save([1, 2, 3])` stays the
    /// bytes overload.)
    public func save<Value: Encodable>(
        encoding value: Value, kind: StateKind = .complete, cleanShutdown: Bool = false
    ) throws {
        let data = try JSONEncoder().encode(value)
        try save([UInt8](data), kind: kind, cleanShutdown: cleanShutdown)
    }

    /// Restores a `Value` saved with ``save(encoding:kind:cleanShutdown:)``: nil with
    /// the reason when there is none, it was discarded, or it does not decode.
    public func restore<Value: Decodable>(
        decoding type: Value.Type, kind: StateKind = .complete
    ) -> (value: Value?, restoration: StateRestoration, decodingError: (any Error)?) {
        let restoration = restore(kind)
        guard let snapshot = restoration.snapshot else { return (nil, restoration, nil) }
        do {
            return (try JSONDecoder().decode(type, from: Data(snapshot.bytes)), restoration, nil)
        } catch {
            return (nil, restoration, error)
        }
    }
}
