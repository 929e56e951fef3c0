import LaunchProf

/// A deferred task's name: a `StaticString` is recorded on the tracer's fast
/// path, a `String` is interned.
enum DeferredTaskName: Sendable {
    case fixed(StaticString)
    case dynamic(String)

    var text: String {
        switch self {
        case .fixed(let name): name.description
        case .dynamic(let name): name
        }
    }
}

/// What is known about one deferred task: a snapshot, in CLOCK_MONOTONIC
/// nanoseconds.
public struct DeferredTaskRecord: Sendable, CustomStringConvertible {
    /// Position in registration order (0 for the first task).
    public let id: Int
    let taskName: DeferredTaskName
    /// The priority the task was registered with.
    public let priority: BackgroundPriority
    /// When the task was registered (`CLOCK_MONOTONIC`, nanoseconds).
    public let queuedNanoseconds: UInt64
    /// When the task started; nil until it has.
    public internal(set) var startedNanoseconds: UInt64?
    /// When the task returned or threw; nil until it has.
    public internal(set) var finishedNanoseconds: UInt64?
    /// `nil` while the task waits or runs.
    public internal(set) var outcome: DeferredOutcome?

    /// The name the task was registered with, as traces show it.
    public var name: String { taskName.text }

    /// How long the task ran, once it has finished.
    public var runNanoseconds: UInt64? {
        guard let startedNanoseconds, let finishedNanoseconds else { return nil }
        return finishedNanoseconds - startedNanoseconds
    }

    /// How long the task waited in the queue, once it has started.
    public var queueNanoseconds: UInt64? {
        startedNanoseconds.map { $0 - queuedNanoseconds }
    }

    public var description: String {
        let state = outcome?.description ?? (startedNanoseconds == nil ? "queued" : "running")
        let run = runNanoseconds.map { ", ran \(formatMilliseconds($0))" } ?? ""
        return "\(name) [\(priority)]: \(state)\(run)"
    }
}

/// `12.345 ms`, without Foundation's formatting.
func formatMilliseconds(_ nanoseconds: UInt64) -> String {
    let microseconds = (nanoseconds + 500) / 1_000
    let fraction = String(microseconds % 1_000)
    return "\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}
