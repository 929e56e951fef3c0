import CLaunchProfSupport

/// One event as stored in the ring.
package struct RecordedEvent: Sendable, Equatable {
    package var timestamp: UInt64
    package var kind: UInt8
    package var name: UInt64
    package var id: UInt64
    package var argument: Int64?
    package var threadID: UInt32
    package var category: UInt16
}
