import Foundation
import LaunchAnalysis
import LaunchSupport

/// The few lines `launchprof profile` prints: what was sampled, what was
/// lost, what the handler cost, the hottest functions and, when the debug
/// info tells them, the hottest source lines.
package struct ProfileSummary: Sendable {
    /// The summary, one line each, ending with a newline.
    package var text: String

    /// Median handler (unwinding) time over the samples whose stack was
    /// walked, in nanoseconds.
    package static func medianHandlerNanoseconds(_ sampling: TraceSampling) -> UInt32? {
        // The kernel's samples have no handler: their stacks are walked
        // after the launch, at no cost to it.
        guard sampling.timerMode != .kernel else { return nil }
        let costs = sampling.samples.filter { !$0.loaderBusy && !$0.unwindFailed }.map(\.handlerNanoseconds).sorted()
        guard !costs.isEmpty else { return nil }
        return costs[costs.count / 2]
    }

    /// Frames by self weight (leaf frames), heaviest first.
    package static func hottest(_ profile: SymbolizedProfile, limit: Int) -> [(frame: SymbolizedProfile.Frame, weight: UInt64)] {
        var weights: [Int: UInt64] = [:]
        for stack in profile.stacks { if let leaf = stack.frames.last { weights[leaf, default: 0] += UInt64(stack.weight) } }
        return weights.sorted { ($1.value, profile.frames[$0.key].name) < ($0.value, profile.frames[$1.key].name) }
            .prefix(limit).map { (profile.frames[$0.key], $0.value) }
    }

    /// Source lines by self weight (where the leaf was), heaviest first,
    /// each with its function; empty when no sample's line is known.
    package static func hottestLines(
        _ profile: SymbolizedProfile, limit: Int
    ) -> [(location: SourceLocation, frame: SymbolizedProfile.Frame, weight: UInt64)] {
        struct Key: Hashable { var location: SourceLocation, frame: Int }
        var weights: [Key: UInt64] = [:]
        for stack in profile.stacks {
            guard let location = stack.location, let leaf = stack.frames.last else { continue }
            weights[Key(location: location, frame: leaf), default: 0] += UInt64(stack.weight)
        }
        return weights.sorted {
            ($1.value, $0.key.location.file, $0.key.location.line) < ($0.value, $1.key.location.file, $1.key.location.line)
        }.prefix(limit).map { ($0.key.location, profile.frames[$0.key.frame], $0.value) }
    }

    /// The summary of `profile`, with its `limit` hottest functions.
    package init(_ profile: SymbolizedProfile, limit: Int = 10) {
        let sampling = profile.sampling
        let total = profile.totalWeight
        let threads = Set(profile.stacks.map { [UInt64($0.run), UInt64($0.threadID)] }).count
        let launches = profile.runCount > 1 ? " from \(profile.runCount) launches" : ""
        let sampleCount = profile.sampleCount
        var lines = [
            "\(sampleCount) samples\(launches) (weight \(total), ≈\(String(format: "%.1f", Double(total) * profile.nanosecondsPerWeight / 1e6)) ms \(sampling.timerMode == .threadWallClock ? "of threads' wall time" : "CPU")) on \(threads) thread\(threads == 1 ? "" : "s") at \(sampling.rate) Hz, \(sampling.timerMode)"
        ]
        if sampling.timerMode == .threadWallClock {
            func weight(_ include: (TraceSample) -> Bool) -> UInt64 {
                sampling.samples.filter(include).reduce(UInt64(0)) { $0 + UInt64($1.weight) }
            }
            let all = Double(max(weight { _ in true }, 1))
            let blocked = Double(weight { $0.offCPU && !$0.waitingForCPU }), queued = Double(weight(\.waitingForCPU))
            lines.append(
                "wall clock: \(String(format: "%.0f", blocked / all * 100))% of the threads' time off CPU (waiting), under [off CPU]; "
                    + "\(String(format: "%.0f", queued / all * 100))% runnable but waiting for a CPU (a busy machine), under [waiting for CPU]; the rest under [on CPU]"
            )
        }
        if sampling.sampledCPUMicroseconds > 0 {
            // The reference every stack is measured against: one stack per
            // period of the CPU time the threads' perf events counted.
            let periods = Double(sampling.sampledCPUMicroseconds) * Double(sampling.rate) / 1e6
            let unstacked = sampling.samples.reduce(UInt64(0)) { $0 + UInt64($1.unstackedPeriods) }
            let ratio = Double(sampleCount) / max(periods, 1)
            // Each thread's event starts a fresh period: what a short thread
            // ran after its last whole period is never sampled.
            let residue =
                ratio < 0.9 && sampling.timerMode == .kernel
                ? " (each thread and process starts with a fresh period, and what it ran after its last whole one is not sampled: many short threads or processes lose more; a higher --hz loses less)"
                : ""
            lines.append(
                "sampled threads' CPU time \(String(format: "%.1f", Double(sampling.sampledCPUMicroseconds) / 1000)) ms: \(sampleCount) stacks for \(String(format: "%.0f", periods)) periods (\(String(format: "%.0f", ratio * 100))%)\(residue)"
                    + (unstacked > 0
                        ? "; \(unstacked) more period\(unstacked == 1 ? "" : "s") counted without a stack (their signals merged with a pending one), under \(Symbolizer.unstackedFrame)"
                        : "")
            )
        }
        if sampling.lost > 0 || sampling.failed > 0 {
            let busy = sampling.samples.filter(\.loaderBusy).count
            lines.append(
                "\(sampling.lost) samples lost (a full buffer or sample file), \(sampling.failed) kept as their PC alone (\(busy) while the loader was busy, the rest unwalkable)"
            )
        }
        if sampling.loaderUnguarded {
            lines.append("warning: glibc's loader locks were not found: a sample taken while a thread enters dlopen/dlclose could deadlock")
        }
        if sampling.mainThreadOnly {
            lines.append(
                "only the main thread was sampled: libunwind was not preloaded (use launchprof profile, or LD_PRELOAD=liblaunchprof-preload.so)"
            )
        }
        if sampling.timerMode == .kernel {
            let depths = sampling.samples.map(\.frames.count).sorted()
            if !depths.isEmpty {
                let inKernel = Double(sampling.samples.filter(\.inKernel).count) / Double(depths.count) * 100
                lines.append(
                    "stacks copied by the kernel and walked after the launch: median depth \(depths[depths.count / 2]); "
                        + (sampling.kernelUnsampled
                            ? "time in the kernel (system calls, page faults) was not sampled: kernel.perf_event_paranoid allows user space only (1 or below, or root, samples it)"
                            : "\(String(format: "%.0f", inKernel))% in the kernel (system calls, page faults), under [kernel]"))
            }
        }
        if let median = Self.medianHandlerNanoseconds(sampling) {
            let depths = sampling.samples.filter { !$0.loaderBusy && !$0.unwindFailed }.map(\.frames.count).sorted()
            lines.append(
                "handler: median \(String(format: "%.2f", Double(median) / 1000)) µs per sample, median depth \(depths[depths.count / 2])")
        }
        let hottest = Self.hottest(profile, limit: limit)
        if !hottest.isEmpty { lines.append("hottest functions (self):") }
        func share(_ weight: UInt64) -> String { String(format: "%5.1f%%", Double(weight) / Double(max(total, 1)) * 100) }
        for (frame, weight) in hottest {
            let module = frame.module.isEmpty ? "" : "  [\(TerminalText.sanitized(frame.module))]"
            lines.append("  \(share(weight))  \(TerminalText.sanitized(frame.name))\(frame.inlined ? " (inlined)" : "")\(module)")
        }
        let hottestLines = Self.hottestLines(profile, limit: 5)
        if !hottestLines.isEmpty { lines.append("hottest lines (self):") }
        for (location, frame, weight) in hottestLines {
            lines.append(
                "  \(share(weight))  \(TerminalText.sanitized(location.file)):\(location.line)  \(TerminalText.sanitized(frame.name))")
        }
        if profile.lineToolMissing {
            lines.append("no source lines: llvm-symbolizer not found (install llvm, or set \(SourceLineTool.variable))")
        }
        for warning in profile.warnings { lines.append("warning: \(warning)") }
        text = lines.joined(separator: "\n") + "\n"
    }
}
