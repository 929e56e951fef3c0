import Foundation

/// A speedscope profile (https://www.speedscope.app/file-format-schema.json):
/// one "sampled" profile per thread, weights in nanoseconds of CPU time, so
/// speedscope's time-ordered view shows the launch as it ran.
public enum SpeedscopeExporter {
    public static func json(of profile: SymbolizedProfile) -> String {
        let frames = profile.frames.map { frame -> [String: Any] in
            frame.module.isEmpty ? ["name": frame.name] : ["name": frame.name, "file": frame.module]
        }
        let byThread = Dictionary(grouping: profile.stacks, by: \.threadID)
        let origin = profile.sampling.startNanoseconds
        let profiles = byThread.keys.sorted().map { tid -> [String: Any] in
            let stacks = byThread[tid]!.sorted { $0.timestamp < $1.timestamp }
            let weights = stacks.map { Int((Double($0.weight) * profile.nanosecondsPerWeight).rounded()) }
            let start = stacks.first.map { Int($0.timestamp &- origin) } ?? 0
            return [
                "type": "sampled", "name": profile.threadLabel(tid), "unit": "nanoseconds",
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
