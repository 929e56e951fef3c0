import Foundation
import LaunchProf

/// `Codable` values over ``StateStore``'s bytes, as JSON.
///
/// A separate module because it needs Foundation, which the core library
/// never imports (it costs a Swift program about 5 ms of launch). Programs
/// that already use Foundation lose nothing by using it.
extension StateStore {
    /// Saves `value` as JSON.
    public func save<Value: Encodable>(
        _ value: Value, kind: StateKind = .complete, cleanShutdown: Bool = false
    ) throws {
        let data = try JSONEncoder().encode(value)
        try save([UInt8](data), kind: kind, cleanShutdown: cleanShutdown)
    }

    /// Restores a `Value` saved with ``save(_:kind:cleanShutdown:)``: nil with
    /// the reason when there is none, it was discarded, or it does not decode.
    public func restore<Value: Decodable>(
        _ type: Value.Type, kind: StateKind = .complete
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
