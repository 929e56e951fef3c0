import Foundation
import LaunchBenchmark
import Testing

/// `BaselineStore.save(_:as:keepingProfiles:)`: a baseline keeps a copy of
/// every file of its profiles, so that `.launchprof/profiles` can be
/// overwritten by the next run.
@Suite("Baseline profile copies")
struct BaselineProfileCopyTests {
    @Test("folded stacks, flame graph, speedscope and the pprof profile are copied beside the baseline, and the record names the copies")
    func everyProfileFileIsCopied() throws {
        let root =
            FileManager.default.temporaryDirectory.path + "/launchprof-baseline-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: "\(root)/profiles", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "folded": "app.folded", "svg": "app.svg", "speedscope": "app.speedscope.json", "pprof": "app.pb.gz",
        ]
        for (kind, name) in files {
            try Data("\(kind) contents".utf8).write(to: URL(fileURLWithPath: "\(root)/profiles/\(name)"))
        }
        var record = ProfileRecord(
            target: "app", launches: 3, samples: 10, weight: 10, rateHz: 997, hottest: [],
            flameGraph: "\(root)/profiles/app.svg", speedscope: "\(root)/profiles/app.speedscope.json",
            folded: "\(root)/profiles/app.folded")
        record.pprof = "\(root)/profiles/app.pb.gz"
        let document = BaselineComparerTests.document([BudgetTests.result("app", times: BaselineComparerTests.times(10))])
        let store = BaselineStore(directory: "\(root)/baselines")
        try store.save(document, as: "main", keepingProfiles: [record])
        // The originals go, as when the next run overwrites them.
        try FileManager.default.removeItem(atPath: "\(root)/profiles")

        let kept = try #require(try store.load("main").profiles?.first)
        let folder = "\(root)/baselines/main.profiles"
        #expect(kept.folded == "\(folder)/app.folded")
        #expect(kept.flameGraph == "\(folder)/app.svg")
        #expect(kept.speedscope == "\(folder)/app.speedscope.json")
        #expect(kept.pprof == "\(folder)/app.pb.gz")
        for (kind, name) in files {
            let copy = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
            #expect(copy == "\(kind) contents", "\(name)")
        }
    }

    @Test("a record without a pprof profile (results from before there was one) is saved as it was")
    func olderRecordsWithoutPprof() throws {
        let root =
            FileManager.default.temporaryDirectory.path + "/launchprof-baseline-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("a;b 1\n".utf8).write(to: URL(fileURLWithPath: "\(root)/app.folded"))
        let record = ProfileRecord(
            target: "app", launches: 1, samples: 1, weight: 1, rateHz: 997, hottest: [], flameGraph: "", speedscope: "",
            folded: "\(root)/app.folded")
        let store = BaselineStore(directory: "\(root)/baselines")
        let document = BaselineComparerTests.document([BudgetTests.result("app", times: BaselineComparerTests.times(10))])
        try store.save(document, as: "old", keepingProfiles: [record])
        let kept = try #require(try store.load("old").profiles?.first)
        #expect(kept.pprof == nil)
        #expect(kept.flameGraph.isEmpty && kept.speedscope.isEmpty)
        #expect(kept.folded == "\(root)/baselines/old.profiles/app.folded")
    }
}
