import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// The pprof profiles of real launches (`profile`, `export --format pprof`,
/// `run --profile`), read by an independent reader, `go tool pprof`: the
/// hot function of a C and of a Swift program, their sample counts equal to
/// the folded stacks', and the labels a continuous profiler groups by.
@Suite(.serialized)
struct PprofProfileTests {
    /// What the folded stacks say: the total weight, and the weight of the
    /// stacks whose leaf contains `hot`.
    static func foldedWeights(_ folded: [(frames: [String], weight: UInt64)], hot: String) -> (total: Double, hot: Double) {
        let total = folded.reduce(UInt64(0)) { $0 + $1.weight }
        let leaf = folded.filter { $0.frames.last?.contains(hot) == true }.reduce(UInt64(0)) { $0 + $1.weight }
        return (Double(total), Double(leaf))
    }

    /// The checks both programs share: the totals and the hot function's
    /// self count as the folded stacks have them, the hot function the
    /// heaviest, and every sample labelled with the program, a thread and a phase.
    static func checkProfile(_ path: String, folded: [(frames: [String], weight: UInt64)], hot: String, program: String) throws {
        let expected = foldedWeights(folded, hot: hot)
        let top = try PprofTool.top(path)
        #expect(top.total == expected.total, "pprof's total against the folded stacks'")
        #expect(top.flat(containing: hot) == expected.hot, "\(hot)'s self samples: \(top.flat.prefix(5))")
        #expect(top.flat.first?.name.contains(hot) == true, "the hottest function: \(top.flat.prefix(5))")
        let tags = try PprofTool.tags(path)
        #expect(tags["program"] == [program: expected.total], "\(tags)")
        #expect(tags["thread"]?.values.reduce(0, +) == expected.total, "every sample has a thread: \(tags)")
        let phases = try #require(tags["phase"], "\(tags)")
        #expect(phases.values.reduce(0, +) == expected.total, "every sample has a phase: \(phases)")
        #expect((phases["before ready"] ?? 0) >= expected.hot, "the hot function runs after main: \(phases)")
        #expect(Set(phases.keys).isSubset(of: ["pre-main", "before ready"]), "\(phases)")
    }

    /// A C program that links nothing of ours: its build id in the
    /// mapping, and `export --format pprof` of its trace says the same.
    @Test func cProgramHotFunctionCountsAndLabels() throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "pphot")
        defer { unlink(binary) }
        let program = URL(fileURLWithPath: binary).lastPathComponent
        let profiled = try ProfiledRun.profile([binary], name: "hot")
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        #expect(profiled.run.standardError.contains("hot.pb.gz"), "\(profiled.run.standardError)")
        let path = "\(profiled.directory)/hot.pb.gz"
        try Self.checkProfile(path, folded: profiled.folded, hot: "burn_hot_function", program: program)
        let module = try #require(profiled.trace.sampling?.modules.first { $0.name == program && !$0.buildID.isEmpty })
        let raw = try PprofTool.run(["-raw"], path)
        let first = raw.split(separator: "\n").first { $0.hasPrefix("1: 0x") } ?? ""
        #expect(first.contains(" \(module.path) \(module.buildIDText) "), "the program's mapping first, its build id: \(raw)")

        let exported = "\(profiled.directory)/exported.pb.gz"
        let export = try CommandRun.run(
            try Products.path("launchprof"),
            ["export", "--format", "pprof", "--service-name", program, "\(profiled.directory)/hot.lptrace", "-o", exported])
        try #require(export.status == 0, "\(export.standardError)")
        try Self.checkProfile(exported, folded: profiled.folded, hot: "burn_hot_function", program: program)
    }

    /// The Swift sample app: its hotspot, and the phases from its trace's
    /// main mark (LaunchTracker.recordLaunchStart()).
    @Test func swiftSampleAppHotspotCountsAndPhases() throws {
        let profiled = try ProfiledRun.profile(
            [try Products.path("lp-sample-app"), "--hot-ms", "300"], name: "app", options: ["--ready", "tracer"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let path = "\(profiled.directory)/app.pb.gz"
        try Self.checkProfile(path, folded: profiled.folded, hot: "computeLaunchHotspot", program: "lp-sample-app")
        let main = try #require(profiled.trace.header.mainNanoseconds)
        let sampling = try #require(profiled.trace.sampling)
        let preMain = sampling.samples.filter { $0.timestamp < main }.reduce(UInt64(0)) { $0 + UInt64($1.weight) }
        let phases = try PprofTool.tags(path)["phase"] ?? [:]
        #expect(phases["pre-main"] ?? 0 == Double(preMain), "samples before the trace's main mark: \(phases)")
        let threads = try PprofTool.tags(path)["thread"] ?? [:]
        #expect(threads.count >= 2, "the main thread and the workers: \(threads)")
    }

    /// `run --profile` puts the results' labels on every sample: the
    /// commit and runner given with --label, the machine, the launches.
    @Test func runProfileLabelsEverySampleWithTheResultsLabels() throws {
        let directory = Products.temporaryPath("run-pprof")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try Products.path("lp-sample-app")
        let run = try CommandRun.run(
            try Products.path("launchprof"),
            [
                "run", "--runs", "2", "--warmup", "0", "--profile", "--profile-runs", "2", "--profile-dir", directory,
                "--export-json", "\(directory)/results.json", "--label", "commit=0123abcd", "--label", "runner=ci-runner-7",
                "--command-name", "hot app", "\(app) --hot-ms 150",
            ], timeout: 300)
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("pprof       \(directory)/hot-app.pb.gz"), "\(run.standardError)")
        let folded = try SamplerPrograms.folded("\(directory)/hot-app.folded")
        let path = "\(directory)/hot-app.pb.gz"
        try Self.checkProfile(path, folded: folded, hot: "computeLaunchHotspot", program: "hot app")
        let total = Self.foldedWeights(folded, hot: "computeLaunchHotspot").total
        let tags = try PprofTool.tags(path)
        #expect(tags["commit"] == ["0123abcd": total] && tags["runner"] == ["ci-runner-7": total], "\(tags)")
        #expect(tags["machine"]?.values.reduce(0, +) == total, "\(tags)")
        #expect(Set((tags["launch"] ?? [:]).keys).count == 2, "two launches merged: \(tags)")
        let record = try #require(try ResultsDocument.load(from: "\(directory)/results.json").profiles?.first)
        #expect(record.pprof == path, "the results list the pprof file")
    }
}
