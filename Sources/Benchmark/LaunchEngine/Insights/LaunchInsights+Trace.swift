import LaunchAnalysis
import LaunchSupport

extension LaunchInsights {
    /// The critical path to launch complete, across threads
    /// (`LaunchCriticalPath`), and the work during the launch that is not
    /// on it.
    static func traceInsights(_ trace: Trace, ready: Double) -> [LaunchInsight] {
        let origin = trace.header.spawnNanoseconds ?? trace.header.processEntryNanoseconds ?? trace.events.first?.timestamp ?? 0
        let end = trace.header.launchCompleteNanoseconds ?? (origin &+ UInt64(ready))
        let launch = Double(end &- origin)
        var insights: [LaunchInsight] = []
        let path = LaunchCriticalPath(trace: trace, end: end)
        let steps = path?.steps ?? []
        func time(_ interval: TraceInterval) -> Double { Double(min(interval.endTimestamp, end) &- interval.startTimestamp) }
        func thread(_ id: UInt32) -> String {
            if id == trace.header.pid { return "the main thread" }
            let name = trace.threadNames[id].map { " \(DispatchThreadName.described(TerminalText.sanitized($0)))" } ?? ""
            return "thread \(id)\(name)"
        }
        if let path, !path.leaves.isEmpty {
            let top = steps.filter { $0.depth == 0 }
            let chain = top.map { step in
                let inside = step.isLeaf ? "" : " (\(steps.filter { $0.depth > 0 && $0.isLeaf && within($0, step) }.count) steps inside)"
                return "\(TerminalText.sanitized(step.interval.name)) \(HumanUnits.duration(time(step.interval)))\(inside)"
            }
            let covered = path.leaves.reduce(0.0) { $0 + time($1.interval) }
            let threads = Set(path.leaves.map(\.interval.beginThreadID))
            let largest = path.leaves.max { time($0.interval) < time($1.interval) }!.interval
            let name = TerminalText.sanitized(largest.name)
            let onMain = threads == [trace.header.pid]
            let cpu =
                largest.onCPU.map { ", \(HumanUnits.duration(Double($0))) of it on CPU" }
                ?? (largest.beginThreadID != largest.endThreadID ? ", on or off CPU unknown (it ended on another thread)" : "")
            let waited = largest.offCPU.map { Double($0) >= time(largest) / 2 } ?? false
            insights.append(
                LaunchInsight(
                    area: .criticalPath,
                    finding: "the path to launch complete (recorded on \(thread(path.endThreadID))): \(chain.joined(separator: " → ")); "
                        + "\(HumanUnits.percent(covered / max(launch, 1))) of the launch in its named steps"
                        + (onMain
                            ? ""
                            : ", on \(threads.count) thread\(threads.count == 1 ? "" : "s") (\(threads.sorted().map(thread).joined(separator: ", ")))"),
                    cause:
                        "'\(name)' is the largest step on the path (\(HumanUnits.duration(time(largest))) on \(thread(largest.beginThreadID))\(cpu)): "
                        + "launch complete waited for it",
                    action: (waited
                        ? "'\(name)' spent most of it off CPU: find what it waits for (a read, a lock, a sleep, another thread); "
                        : "")
                        + "make '\(name)' cheaper; if nothing before launch complete needs what it makes, defer it "
                        + "(DeferredInitializer.deferUntilIdle); if it does not need the steps before it, start it beside them "
                        + "(PrewarmRegistry.prewarm at the top of main) so that it is done when they are",
                    nanoseconds: time(largest)))
        }
        // Work during the launch that the path did not wait for.
        let onPath = Set(steps.map { "\($0.interval.startTimestamp)/\($0.interval.beginThreadID)/\($0.interval.name)" })
        let paired = trace.pairIntervals()
        let others = (paired.slices + paired.asyncIntervals).filter {
            $0.startTimestamp < end && !onPath.contains("\($0.startTimestamp)/\($0.beginThreadID)/\($0.name)")
        }
        if let longest = others.max(by: { time($0) < time($1) }) {
            let busy = others.reduce(0.0) { $0 + time($1) }
            insights.append(
                LaunchInsight(
                    area: .otherThreads,
                    finding: "\(others.count) interval\(others.count == 1 ? "" : "s") during the launch off its path, "
                        + "\(HumanUnits.duration(busy)) in all; the longest, '\(TerminalText.sanitized(longest.name))', "
                        + "\(HumanUnits.duration(time(longest))) on \(thread(longest.beginThreadID))",
                    cause: "launch complete did not wait for them: they delay it only by taking CPU or locks the path needs",
                    action: "leave them unless the machine is short of cores; if the path waits on a lock they hold, "
                        + "move them after launch complete (DeferredInitializer)",
                    nanoseconds: 0))
        }
        return insights
    }

    /// Whether `inner` lies within `outer` in time.
    private static func within(_ inner: LaunchCriticalPath.Step, _ outer: LaunchCriticalPath.Step) -> Bool {
        inner.interval.startTimestamp >= outer.interval.startTimestamp && inner.interval.endTimestamp <= outer.interval.endTimestamp
    }

    /// Whether the trace's launch path ran anywhere but on the main thread
    /// (an async main's cooperative pool, a server's event loops after the
    /// main thread's last step): then the main thread's CPU time says
    /// nothing of the launch's.
    static func pathLeavesMainThread(_ trace: Trace) -> Bool {
        guard let path = LaunchCriticalPath(trace: trace) else { return false }
        return path.endThreadID != trace.header.pid
            || path.leaves.contains { $0.interval.beginThreadID != trace.header.pid || $0.interval.endThreadID != trace.header.pid }
    }
}
