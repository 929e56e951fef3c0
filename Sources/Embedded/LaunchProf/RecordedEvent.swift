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
    /// The recording thread's CPU time, nanoseconds (interval begins and
    /// ends without a value; `LP_FLAG_THREAD_CPU`).
    package var threadCPU: UInt64? = nil
}
