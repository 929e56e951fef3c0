import Foundation

/// A speedscope profile (https://www.speedscope.app/file-format-schema.json):
/// one "sampled" profile per thread (per launch and thread when several were
/// profiled), weights in nanoseconds of CPU time, so speedscope's
/// time-ordered view shows the launch as it ran.
public enum SpeedscopeExporter {
    /// `profile` as a speedscope file (https://www.speedscope.app).
    public static func json(of profile: SymbolizedProfile) -> String {
        // speedscope shows `file` beside the name and groups by it: the
        // source file when the debug info gave one, else the module.
        let frames = profile.frames.map { frame -> [String: Any] in
            var fields: [String: Any] = ["name": frame.name]
            if let file = frame.file ?? (frame.module.isEmpty ? nil : frame.module) { fields["file"] = file }
            if let line = frame.line { fields["line"] = line }
            return fields
        }
        struct Thread: Hashable, Comparable {
            var run: Int
            var tid: UInt32
            static func < (a: Thread, b: Thread) -> Bool { (a.run, a.tid) < (b.run, b.tid) }
        }
        let byThread = Dictionary(grouping: profile.stacks) { Thread(run: $0.run, tid: $0.threadID) }
        let profiles = byThread.keys.sorted().map { thread -> [String: Any] in
            let stacks = byThread[thread]!.sorted { $0.timestamp < $1.timestamp }
            let weights = stacks.map { Int((Double($0.weight) * profile.nanosecondsPerWeight).rounded()) }
            let origin = profile.runStarts[thread.run]
            let start = stacks.first.map { Int($0.timestamp &- origin) } ?? 0
            return [
                "type": "sampled", "name": profile.threadLabel(thread.tid, run: thread.run), "unit": "nanoseconds",
                "startValue": start, "endValue": start + weights.reduce(0, +),
                "samples": stacks.map(\.frames), "weights": weights,
            ]
        }
        let document: [String: Any] = [
            "$schema": "https://www.speedscope.app/file-format-schema.json",
            "shared": ["frames": frames], "profiles": profiles,
            "name": "\(profile.name) launch", "activeProfileIndex": 0, "exporter": "launchprof",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
