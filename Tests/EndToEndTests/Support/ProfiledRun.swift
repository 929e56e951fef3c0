import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// One `launchprof profile` run of a real program, and the files it wrote.
struct ProfiledRun {
    var run: CommandRun
    var directory: String
    var trace: Trace
    /// NAME.folded as written.
    var foldedText: String
    /// NAME.folded read: (frames root first, weight) per line.
    var folded: [(frames: [String], weight: UInt64)]
    /// The speedscope file's shared frames.
    var speedscopeFrames: [[String: Any]]

    /// Share of the stacks' weight whose leaf frame contains `name`.
    func leafShare(_ name: String) -> Double {
        // Of the stacks taken: the periods a merged signal stood for (a busy
        // machine's doing) are no function's.
        let total = folded.filter { $0.frames != ["[periods without a stack]"] }.reduce(0) { $0 + $1.weight }
        let hits = folded.filter { $0.frames.last?.contains(name) == true }.reduce(0) { $0 + $1.weight }
        return Double(hits) / Double(max(total, 1))
    }

    /// `launchprof profile --quiet --runs 1 --hz HZ OPTIONS --output-dir TMP --name NAME -- COMMAND`
    /// (one launch: its trace is NAME.lptrace), which must succeed; the caller removes `directory`.
    static func profile(
        _ command: [String], name: String, hz: Int = 1000, options: [String] = [], environment: [String: String] = [:]
    ) throws -> ProfiledRun {
        let directory = Products.temporaryPath("profile")
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            ["profile", "--quiet", "--runs", "1", "--hz", String(hz), "--output-dir", directory, "--name", name] + options + ["--"]
                + command,
            environment: environment)
        try #require(run.status == 0, "launchprof profile failed: \(run.standardError)")
        let speedscope =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).speedscope.json"))) as? [String: Any]
        return ProfiledRun(
            run: run, directory: directory, trace: try TraceReader.read(path: "\(directory)/\(name).lptrace"),
            foldedText: try String(contentsOfFile: "\(directory)/\(name).folded", encoding: .utf8),
            folded: try SamplerPrograms.folded("\(directory)/\(name).folded"),
            speedscopeFrames: try #require((speedscope?["shared"] as? [String: Any])?["frames"] as? [[String: Any]]))
    }
}
