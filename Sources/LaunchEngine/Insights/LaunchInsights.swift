import Foundation
import LaunchAnalysis
import LaunchSupport

/// Insights for one launch, from its results (and, when given, a trace of
/// it): each finding a measured number, a cause and an action, largest first.
public enum LaunchInsights {
    /// The insights for `result`; `trace` (`launchprof record`, or a run's
    /// own) adds the critical path and the other threads.
    public static func insights(for result: BenchmarkResult, trace: Trace? = nil, loader: LoaderStatistics? = nil) -> [LaunchInsight] {
        let runs = result.runs.filter(\.exit.isSuccess)
        guard let ready = median(runs.compactMap { $0.wallToReady.map { Double($0) } }), ready > 0 else { return [] }
        var insights: [LaunchInsight] = []
        func share(_ part: Double) -> String { HumanUnits.percent(part / ready) }
        func time(_ nanoseconds: Double) -> String { HumanUnits.duration(nanoseconds) }

        // Pre-main.
        if let entry = median(runs.compactMap { $0.processEntry.map { Double($0) } }) {
            let main = median(runs.compactMap { $0.main.map { Double($0) } })
            var finding = "pre-main takes \(time(entry)) to process entry (\(share(entry)) of \(time(ready)) to ready)"
            if let main, main > entry { finding += ", then \(time(main - entry)) of static initialisers to main" }
            if let loader {
                finding +=
                    "; the dynamic loader: \(loader.relocations) relocations (\(loader.relativeRelocations) relative), "
                    + "\(HumanUnits.percent(loader.relocationShare)) of its \(loader.startupCycles) cycles relocating, "
                    + "\(HumanUnits.percent(loader.loadShare)) loading objects (LD_DEBUG=statistics)"
            }
            var libraries = ""
            if let files = runs.last?.residency?.files {
                let shared = files.filter { ($0.path as NSString).lastPathComponent.contains(".so") }
                let bytes = shared.reduce(0) { $0 + $1.totalPages } * (runs.last?.residency?.pageSize ?? 4096)
                if !shared.isEmpty { libraries = "; \(shared.count) shared libraries, \(HumanUnits.bytes(Double(bytes))) in all" }
            }
            insights.append(
                LaunchInsight(
                    area: .preMain, finding: finding + libraries,
                    cause: "exec, mapping and relocating every shared library (the Swift runtime, Foundation and ICU among them), "
                        + "and the runtime's start-up all happen before the program's first line",
                    action: (entry > 0.2 * ready
                        ? "link fewer shared libraries: build with -static-stdlib and drop Foundation where the standard library does. "
                        : "pre-main is a small part of this launch: look at the critical path first. ")
                        + "Measured on launchprof's samples (Scripts/compare/measure-linking.sh, a hello-world on 2 cores): -static-stdlib saved "
                        + "1.6 ms warm and 14.8 ms cold; importing Foundation, dynamically linked, cost 3.9 ms warm and 67 ms cold",
                    nanoseconds: entry))
        }

        // Waiting rather than running: the main thread's own CPU time when a
        // LaunchProf program reported it, else the whole tree's, against time to ready.
        if let mainCPU = median(runs.compactMap { $0.mainThreadCPU.map { Double($0) } }), mainCPU < 0.7 * ready {
            insights.append(
                LaunchInsight(
                    area: .waiting,
                    finding:
                        "the main thread ran for \(time(mainCPU)) of \(time(ready)) to ready: it waited for about \(share(ready - mainCPU))",
                    cause: "blocking reads, fsync, locks, sleeps, or waiting for other threads or processes on the way to ready",
                    action: "find the waits in the trace's main-thread intervals (a long interval with little CPU, or a gap) and move "
                        + "them after launch complete (DeferredInitializer) or start them earlier in the background (PrewarmRegistry)",
                    nanoseconds: ready - mainCPU))
        } else if runs.allSatisfy({ $0.mainThreadCPU == nil }), let cpu = median(runs.map { Double($0.userCPU + $0.systemCPU) }),
            cpu < 0.7 * ready
        {
            insights.append(
                LaunchInsight(
                    area: .waiting,
                    finding:
                        "the launch used \(time(cpu)) of CPU in \(time(ready)) to ready: it was off CPU for about \(share(ready - cpu))",
                    cause: "blocking reads, fsync, locks, sleeps or waiting for other threads or processes on the way to ready",
                    action: "find the waits in the trace's main-thread intervals (a gap or a long interval with little CPU) and move "
                        + "them after launch complete (DeferredInitializer) or start them earlier in the background (PrewarmRegistry)",
                    nanoseconds: ready - cpu))
        }

        // Cold files.
        let cold = runs.compactMap(\.residency).last
        if result.mode == .cold, let cold, let pageSize = cold.pageSize {
            let read = cold.files.compactMap { file in file.pagesRead.map { (file.path, Double($0 * pageSize)) } }
                .filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
            if let top = read.first {
                let listed = read.prefix(3).map { "\(($0.0 as NSString).lastPathComponent) \(HumanUnits.bytes($0.1))" }
                insights.append(
                    LaunchInsight(
                        area: .coldFiles,
                        finding:
                            "a cold launch read \(HumanUnits.bytes(read.reduce(0) { $0 + $1.1 })) from disk: \(listed.joined(separator: ", "))",
                        cause: "pages not in the page cache are read on first touch; \(top.0) the most",
                        action: "read less at launch (lazy loading, smaller binaries: strip, -Osize, dead-strip), or keep it resident",
                        nanoseconds: 0))
            }
        }

        if let trace { insights += traceInsights(trace, ready: ready) }
        return insights.sorted { $0.nanoseconds > $1.nanoseconds }
    }

    /// The critical path (the main thread's intervals up to launch complete)
    /// and the other threads' work during the launch.
    static func traceInsights(_ trace: Trace, ready: Double) -> [LaunchInsight] {
        let origin = trace.header.spawnNanoseconds ?? trace.header.processEntryNanoseconds ?? trace.events.first?.timestamp ?? 0
        let end = trace.header.launchCompleteNanoseconds ?? (origin &+ UInt64(ready))
        let paired = trace.pairIntervals()
        let all = paired.slices + paired.asyncIntervals
        let main = all.filter { $0.beginThreadID == trace.header.pid && $0.startTimestamp < end }
        // Top-level main-thread intervals: not inside another main-thread interval.
        let topLevel = main.filter { interval in
            !main.contains {
                $0 != interval && $0.startTimestamp <= interval.startTimestamp && $0.endTimestamp >= interval.endTimestamp
                    && ($0.startTimestamp, $0.endTimestamp) != (interval.startTimestamp, interval.endTimestamp)
            }
        }.sorted { $0.startTimestamp < $1.startTimestamp }
        var insights: [LaunchInsight] = []
        let launch = Double(end &- origin)
        if !topLevel.isEmpty {
            let covered = topLevel.reduce(0.0) { $0 + Double(min($1.endTimestamp, end) &- $1.startTimestamp) }
            let chain = topLevel.map { "\($0.name) \(HumanUnits.duration(Double(min($0.endTimestamp, end) &- $0.startTimestamp)))" }
            let largest = topLevel.max { ($0.endTimestamp &- $0.startTimestamp) < ($1.endTimestamp &- $1.startTimestamp) }!
            let largestTime = Double(min(largest.endTimestamp, end) &- largest.startTimestamp)
            insights.append(
                LaunchInsight(
                    area: .criticalPath,
                    finding: "the main thread's path to launch complete: \(chain.joined(separator: " → ")) "
                        + "(\(HumanUnits.percent(covered / max(launch, 1))) of the launch in named intervals)",
                    cause: "'\(largest.name)' is the largest step on the path (\(HumanUnits.duration(largestTime)))",
                    action: "if nothing before launch complete needs what '\(largest.name)' makes, defer it "
                        + "(DeferredInitializer.deferUntilIdle); if it only needs to be ready by first use, make it earlier in the "
                        + "background (PrewarmRegistry)",
                    nanoseconds: largestTime))
        }
        let others = all.filter { $0.beginThreadID != trace.header.pid && $0.startTimestamp < end }
        if let longest = others.max(by: { ($0.endTimestamp &- $0.startTimestamp) < ($1.endTimestamp &- $1.startTimestamp) }) {
            let busy = others.reduce(0.0) { $0 + Double(min($1.endTimestamp, end) &- $1.startTimestamp) }
            let waited =
                topLevel.isEmpty ? 0 : max(0, launch - topLevel.reduce(0.0) { $0 + Double(min($1.endTimestamp, end) &- $1.startTimestamp) })
            insights.append(
                LaunchInsight(
                    area: .otherThreads,
                    finding: "\(others.count) intervals on other threads during the launch, \(HumanUnits.duration(busy)) in all; "
                        + "the longest, '\(longest.name)', \(HumanUnits.duration(Double(longest.endTimestamp &- longest.startTimestamp)))",
                    cause: waited > 0
                        ? "the main thread was outside its named intervals for \(HumanUnits.duration(waited)): waiting for them, or unnamed work"
                        : "work off the main thread still delays ready when the main thread waits for it",
                    action: "start such work earlier (PrewarmRegistry.prewarm at the top of main) so it is done by the time it is needed",
                    nanoseconds: busy / Double(max(1, Set(others.map(\.beginThreadID)).count))))
        }
        return insights
    }

    static func median(_ values: [Double]) -> Double? { SummaryStatistic.p50.value(of: values) }
}
