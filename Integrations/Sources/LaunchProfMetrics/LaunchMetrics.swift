import Dispatch
import LaunchProf
import LaunchProfDeferred
import Metrics

/// Launch times, deferred tasks and prewarm outcomes through swift-metrics,
/// so that swift-prometheus or swift-otel export them:
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `launchprof_launch_complete` | timer | — (from spawn, else process entry) |
/// | `launchprof_process_entry`, `launchprof_main` | timer | — |
/// | `launchprof_milestone` | timer | `milestone` |
/// | `launchprof_deferred_task_run`, `launchprof_deferred_task_queued` | timer | `task`, `outcome` |
/// | `launchprof_prewarm_items` | counter | `outcome`: hit, wait, miss, unused |
///
/// ```swift
/// LaunchMetrics.recordAtLaunchComplete()
/// ```
///
/// Nothing runs before launch complete: registering appends one handler, and
/// the metrics are recorded on a background queue afterwards; deferred tasks
/// and prewarm items are recorded once they have all finished.
public enum LaunchMetrics {
    /// Records the launch once it is complete, then the deferred tasks of
    /// `deferred` and the prewarm items of `prewarm` once each has finished
    /// (pass nil to leave one out).
    public static func recordAtLaunchComplete(
        deferred: DeferredInitializer? = .shared, prewarm: PrewarmRegistry? = .shared, factory: (any MetricsFactory)? = nil
    ) {
        LaunchTracker.onLaunchComplete {
            DispatchQueue.global(qos: .background).async {
                record(LaunchTimeline.current(), factory: factory)
                if let prewarm, prewarm.waitUntilFinished(timeout: .seconds(600)) { record(prewarm.summary, factory: factory) }
                if let deferred, deferred.waitUntilFinished(timeout: .seconds(600)) { record(deferred.tasks, factory: factory) }
            }
        }
    }

    /// Records the launch's times from `timeline`.
    public static func record(_ timeline: LaunchTimeline, factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        let origin = timeline.spawnNanoseconds ?? timeline.processEntryNanoseconds
        func time(_ label: String, _ nanoseconds: UInt64?, _ dimensions: [(String, String)] = []) {
            guard let nanoseconds, nanoseconds >= origin else { return }
            Timer(label: label, dimensions: dimensions, factory: factory).recordNanoseconds(Int64(clamping: nanoseconds - origin))
        }
        if timeline.spawnNanoseconds != nil { time("launchprof_process_entry", timeline.processEntryNanoseconds) }
        time("launchprof_main", timeline.mainNanoseconds)
        for event in timeline.events where event.kind == .milestone && event.name != "main" {
            time("launchprof_milestone", event.timestamp, [("milestone", event.name)])
        }
        time("launchprof_launch_complete", timeline.launchCompleteNanoseconds)
    }

    /// Records each finished deferred task's run and queue times.
    public static func record(_ tasks: [DeferredTaskRecord], factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        for task in tasks {
            let outcome = task.outcome.map { "\($0)".hasPrefix("failed") ? "failed" : "\($0)" } ?? "unfinished"
            let dimensions = [("task", task.name), ("outcome", outcome)]
            if let run = task.runNanoseconds {
                Timer(label: "launchprof_deferred_task_run", dimensions: dimensions, factory: factory).recordNanoseconds(
                    Int64(clamping: run))
            }
            if let queued = task.queueNanoseconds {
                Timer(label: "launchprof_deferred_task_queued", dimensions: dimensions, factory: factory).recordNanoseconds(
                    Int64(clamping: queued))
            }
        }
    }

    /// Counts the prewarm items by how their first use went.
    public static func record(_ summary: PrewarmSummary, factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        for (outcome, count) in [("hit", summary.hits), ("wait", summary.waits), ("miss", summary.misses), ("unused", summary.unused)]
        where count > 0 {
            Counter(label: "launchprof_prewarm_items", dimensions: [("outcome", outcome)], factory: factory).increment(by: count)
        }
    }
}
