import Foundation
import LaunchAnalysis
import LaunchSupport

/// Insights for one launch, from its results (and, when given, a trace of
/// it): each finding a measured number, a cause and an action, largest first.
package enum LaunchInsights {
    /// The insights for `result`; `trace` (`launchprof record`, or a run's
    /// own) adds the critical path and the other threads.
    package static func insights(for result: BenchmarkResult, trace: Trace? = nil, loader: LoaderStatistics? = nil) -> [LaunchInsight] {
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
            // With `run --loader`: the libraries the loader spent most on, by part.
            if let profile = result.loader {
                let top = profile.libraries.prefix(3).map { library in
                    let parts = [("map", library.map ?? 0), ("relocate~", library.relocate), ("init", library.initialize)]
                    let largest = parts.max { $0.1 < $1.1 } ?? ("map", 0)
                    return "\((library.path as NSString).lastPathComponent) \(time(library.total)) (\(largest.0) \(time(largest.1)))"
                }
                if !top.isEmpty { libraries += "; the loader spent most on \(top.joined(separator: ", ")) (run --loader)" }
            }
            insights.append(
                LaunchInsight(
                    area: .preMain, finding: finding + libraries,
                    cause: "exec, mapping and relocating every shared library (the Swift runtime, Foundation and ICU among them), "
                        + "and the runtime's start-up all happen before the program's first line",
                    action: (entry > 0.2 * ready
                        ? "link fewer shared libraries: build with -static-stdlib and drop Foundation where the standard library does. "
                        : trace != nil
                            ? "pre-main is a small part of this launch: look at the critical path first. "
                            : "pre-main is a small part of this launch: most of it is after main (a trace says where). ")
                        + "Measured on launchprof's samples (Scripts/compare/measure-linking.sh, a hello-world on 2 cores): -static-stdlib saved "
                        + "1.6 ms warm and 14.8 ms cold; importing Foundation, dynamically linked, cost 3.9 ms warm and 67 ms cold",
                    nanoseconds: entry))
        }

        // Waiting rather than running: the path's steps' own CPU time when
        // the trace recorded it (the threads that ran them), else the main
        // thread's when a LaunchProf program reported it and the launch path
        // ran there, else the whole process's (an async main's path runs on
        // the pool).
        let pathOffMain =
            trace.map(pathLeavesMainThread)
            ?? runs.contains { run in (run.intervals ?? []).contains { $0.thread == "path" && $0.onMainThread == false } }
        let mainCPU = pathOffMain ? nil : median(runs.compactMap { $0.mainThreadCPU.map { Double($0) } })
        let cpu = mainCPU ?? median(runs.map { Double($0.userCPU + $0.systemCPU) })
        // The path's steps carry their threads' CPU time: theirs says it.
        let pathCPU = pathCPU(trace: trace, runs: runs)
        if let pathCPU {
            if let waiting = pathWaiting(pathCPU, ready: ready, mode: result.mode, traced: trace != nil) { insights.append(waiting) }
        } else if let cpu, cpu < 0.7 * ready {
            let who = mainCPU != nil ? "the main thread ran" : "the launch used CPU"
            let cause =
                result.mode == .cold
                ? "a cold launch waits for its reads from disk (see 'cold files'), and for blocking reads, locks, sleeps, "
                    + "other threads or processes"
                : "blocking reads, fsync, locks, sleeps, or waiting for other threads or processes on the way to ready"
            let action =
                trace != nil
                ? "find the waits on the critical path (a long step with little CPU, or a gap between steps) and move them after "
                    + "launch complete (DeferredInitializer) or start them earlier beside the path (PrewarmRegistry)"
                : "which step of the launch waited needs a trace of it: run with --trace-runs (tracer-ready targets) or "
                    + "'launchprof record', then 'launchprof explain --trace TRACE'"
            insights.append(
                LaunchInsight(
                    area: .waiting,
                    finding: "\(who) for \(time(cpu)) of \(time(ready)) to ready: it was off CPU for about \(share(max(0, ready - cpu)))",
                    cause: cause, action: action, nanoseconds: ready - cpu))
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

    static func median(_ values: [Double]) -> Double? { SummaryStatistic.p50.value(of: values) }
}
