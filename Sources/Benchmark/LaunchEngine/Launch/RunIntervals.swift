import LaunchAnalysis

/// A traced run's intervals, as the attribution of a change needs them: by
/// name and by role on the launch's critical path (`LaunchCriticalPath`),
/// added up, each cut at ready and only if it began before.
///
/// The roles: `path`, a step of the path that encloses no other (the leaves:
/// disjoint, so their changes add up); `enclosing`, a step that contains
/// steps of its own (its time is theirs and its own); `off`, work the launch
/// did not wait for.
enum RunIntervals {
    /// The role of a leaf of the path.
    static let path = "path"
    /// The role of a path step that encloses others.
    static let enclosing = "enclosing"
    /// The role of an interval off the path.
    static let off = "off"

    /// The intervals of `trace` cut at `readyAt` (CLOCK_MONOTONIC, the
    /// clock of the trace's timestamps and of the run loop's).
    static func times(in trace: Trace, readyAt: UInt64) -> [IntervalTime] {
        let paired = trace.pairIntervals()
        let criticalPath = LaunchCriticalPath(trace: trace, end: trace.header.launchCompleteNanoseconds ?? readyAt)
        var roles: [IntervalIdentity: String] = [:]
        for step in criticalPath?.steps ?? [] {
            roles[IntervalIdentity(step.interval)] = step.isLeaf ? path : enclosing
        }
        let endsOnMain = criticalPath?.endThreadID == trace.header.pid
        var totals: [String: IntervalTime] = [:]
        var order: [String] = []
        for interval in (paired.slices + paired.asyncIntervals).sorted(by: { $0.startTimestamp < $1.startTimestamp }) {
            guard interval.startTimestamp < readyAt else { continue }
            let end = min(interval.endTimestamp, readyAt)
            let role = roles[IntervalIdentity(interval)] ?? off
            let key = "\(role)/\(interval.name)"
            if totals[key] == nil {
                totals[key] = IntervalTime(name: interval.name, thread: role, nanoseconds: 0, count: 0)
                order.append(key)
            }
            totals[key]!.nanoseconds += end > interval.startTimestamp ? end - interval.startTimestamp : 0
            // The thread's CPU time covers the whole interval: one cut at
            // ready has no CPU time of its own.
            let onCPU = interval.endTimestamp <= readyAt ? interval.onCPU : nil
            let known = totals[key]!.count == 0 || totals[key]!.onCPU != nil
            totals[key]!.onCPU = known ? onCPU.map { $0 + (totals[key]!.onCPU ?? 0) } : nil
            totals[key]!.count += 1
            if role == path {
                // The path is the main thread's only if launch complete was
                // recorded there too (a server's start can end on its event
                // loop threads after the main thread's last step).
                let onMain =
                    endsOnMain && interval.beginThreadID == trace.header.pid && interval.endThreadID == trace.header.pid
                totals[key]!.onMainThread = (totals[key]!.onMainThread ?? true) && onMain
            }
        }
        return order.compactMap { totals[$0] }
    }

    /// An interval's identity within one trace: its begin event's place in time, thread and name.
    private struct IntervalIdentity: Hashable {
        var start: UInt64
        var end: UInt64
        var thread: UInt32
        var name: String
        var id: UInt64

        init(_ interval: TraceInterval) {
            start = interval.startTimestamp
            end = interval.endTimestamp
            thread = interval.beginThreadID
            name = interval.name
            id = interval.id
        }
    }
}
