import LaunchSupport

/// A speedscope profile (https://www.speedscope.app/file-format-schema.json):
/// one "sampled" profile per thread (per launch and thread when several were
/// profiled), weights in nanoseconds of CPU time, so speedscope's
/// time-ordered view shows the launch as it ran.
package enum SpeedscopeExporter {
    /// The file, as speedscope's schema names its fields.
    struct File: Encodable {
        var schema = "https://www.speedscope.app/file-format-schema.json"
        var shared: Shared
        var profiles: [Sampled]
        var name: String
        var activeProfileIndex = 0
        var exporter = "launchprof"

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case shared, profiles, name, activeProfileIndex, exporter
        }
    }

    struct Shared: Encodable { var frames: [Frame] }

    struct Frame: Encodable {
        var name: String
        var file: String?
        var line: Int?
    }

    struct Sampled: Encodable {
        var type = "sampled"
        var name: String
        var unit = "nanoseconds"
        var startValue: Int
        var endValue: Int
        var samples: [[Int]]
        var weights: [Int]
    }

    /// `profile` as a speedscope file (https://www.speedscope.app).
    package static func json(of profile: SymbolizedProfile) -> String {
        // speedscope shows `file` beside the name and groups by it: the
        // source file when the debug info gave one, else the module.
        let frames = profile.frames.map { frame in
            Frame(name: frame.name, file: frame.file ?? (frame.module.isEmpty ? nil : frame.module), line: frame.line)
        }
        struct Thread: Hashable, Comparable {
            var run: Int
            var tid: UInt32
            static func < (a: Thread, b: Thread) -> Bool { (a.run, a.tid) < (b.run, b.tid) }
        }
        let byThread = Dictionary(grouping: profile.stacks) { Thread(run: $0.run, tid: $0.threadID) }
        let profiles = byThread.keys.sorted().map { thread -> Sampled in
            let stacks = byThread[thread]!.sorted { $0.timestamp < $1.timestamp }
            let weights = stacks.map { Int((Double($0.weight) * profile.nanosecondsPerWeight).rounded()) }
            let origin = profile.runStarts[thread.run]
            let start = stacks.first.map { Int($0.timestamp &- origin) } ?? 0
            return Sampled(
                name: profile.threadLabel(thread.tid, run: thread.run), startValue: start, endValue: start + weights.reduce(0, +),
                samples: stacks.map(\.frames), weights: weights)
        }
        let file = File(shared: Shared(frames: frames), profiles: profiles, name: "\(profile.name) launch")
        return (try? JSONDocument.text(file, pretty: false)) ?? "{}\n"
    }
}
