import Foundation
import LaunchSupport

extension ProfileRecorder.Profiled {
    /// What `launchprof profile` prints about the profile it wrote: how the
    /// launches ended, the hottest functions, and the files.
    package func summary(base: String) -> String {
        let exits = Set(launches.map { "\($0.run.exit)" }).sorted().joined(separator: ", ")
        var text = "launchprof profile: \(base) \(exits)\n" + ProfileSummary(profile).text
        let traces = outputs.traces.count == 1 ? outputs.traces[0] : "\(outputs.traces[0]) … \(outputs.traces[outputs.traces.count - 1])"
        text +=
            "wrote \(traces)\n      \(outputs.folded)\n      \(outputs.speedscope)  (https://www.speedscope.app)\n      \(outputs.flameGraph)\n      \(outputs.pprof)  (go tool pprof, Pyroscope, Parca)\n"
        return text
    }
}

/// The few lines `record` prints about the trace it wrote.
package struct RecordSummary: Sendable {
    /// The lines, each ending with a newline.
    package let text: String

    /// The lines for `recorded`, whose trace was written to `path`.
    package init(_ recorded: RecordedLaunch, path: String) {
        let trace = recorded.trace
        let origin = trace.timeOrigin
        func since(_ ns: UInt64) -> String {
            String(format: "%.3f ms", Double(ns &- origin.nanoseconds) / 1e6)
        }
        var lines = [
            "launchprof record: wrote \(path): \(trace.header.eventCount) events, \(trace.header.lostEvents) lost, \(recorded.run.exit)"
        ]
        if let entry = trace.header.processEntryNanoseconds { lines.append("  process entry  +\(since(entry)) since \(origin.label)") }
        if let main = trace.header.mainNanoseconds { lines.append("  main           +\(since(main))") }
        // "main" is LaunchTracker.recordLaunchStart()'s milestone, shown above.
        for event in trace.events where event.kind == .milestone && event.name != "main" {
            lines.append("  milestone      +\(since(event.timestamp))  \(TerminalText.sanitized(event.name))")
        }
        if let complete = trace.header.launchCompleteNanoseconds { lines.append("  launch complete +\(since(complete))") }
        text = lines.joined(separator: "\n") + "\n"
    }
}
